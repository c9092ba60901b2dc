//! The small shipped variants, Shogi, Yari Shogi and Tori Shogi: each file checks clean, and
//! its compiled tables agree with the rule texts and piece tables of SV (docs/sources.md):
//! moves per direction as SV's direction codes, setups square by square, handicaps,
//! promotions, the ranks where a piece could never move again, and what each option changes.
//! What the files state word for word (names, kanji, SFEN letters, the promotion zone, the
//! drop and game-end rules) is pinned by the RON snapshots, not restated here; the rules
//! themselves are played out in `tests/rules_*.rs`.

mod support;

use koma::compile::{Choice, compile_named};
use koma::rules::{
    Mode, Movement, Offset, PieceKind, PromotionEvent, PromotionTrigger, Repetition, RepetitionEffect, Rules, Side,
    Square, Verdict,
};
use support::{compile_clean, id, settings, sq};

const SHOGI: &str = "variants/shogi.var";
const YARI: &str = "variants/yari.var";
const TORI: &str = "variants/tori.var";

fn piece<'a>(rules: &'a Rules, abbrev: &str) -> &'a PieceKind {
    rules.piece(id(rules, abbrev))
}

// ------------------------------------------------------------------ moves

fn step(dx: i8, dy: i8) -> Movement {
    Movement::Ride {
        dir: Offset::new(dx, dy),
        max: Some(1),
        mode: Mode::Any,
        from_last_rank: false,
        beyond: 0,
    }
}

fn range(n: u8, dx: i8, dy: i8) -> Movement {
    Movement::Ride {
        dir: Offset::new(dx, dy),
        max: Some(n),
        mode: Mode::Any,
        from_last_rank: false,
        beyond: 0,
    }
}

fn slide(dx: i8, dy: i8) -> Movement {
    Movement::Ride {
        dir: Offset::new(dx, dy),
        max: None,
        mode: Mode::Any,
        from_last_rank: false,
        beyond: 0,
    }
}

fn leap(dx: i8, dy: i8) -> Movement {
    Movement::Leap {
        to: Offset::new(dx, dy),
        mode: Mode::Any,
        from_last_rank: false,
    }
}

/// The directions of the 'Shogi Variants' piece tables, in their order: F, B, L, R, FL, FR,
/// BL, BR, as (squares to the mover's right, squares forward).
const SV_DIRECTIONS: [(i8, i8); 8] = [(0, 1), (0, -1), (-1, 0), (1, 0), (-1, 1), (1, 1), (-1, -1), (1, -1)];

/// The moves an SV direction field stands for (docs/sources.md): 1 = step, 2 = up to two
/// squares without jumping, 64 = slide, 128 = jump to the second square, 1024 = the shogi
/// knight's two forward leaps (1088 = knight leaps and a forward slide).
fn sv_moves(fields: [u16; 8]) -> Vec<Movement> {
    let mut out = Vec::new();
    for (code, (dx, dy)) in fields.into_iter().zip(SV_DIRECTIONS) {
        let mut rest = code;
        for (bit, movement) in [
            (1024, None),
            (128, Some(leap(2 * dx, 2 * dy))),
            (64, Some(slide(dx, dy))),
            (2, Some(range(2, dx, dy))),
            (1, Some(step(dx, dy))),
        ] {
            if rest & bit == 0 {
                continue;
            }
            rest &= !bit;
            match movement {
                Some(m) => out.push(m),
                None => out.extend([leap(-1, 2), leap(1, 2)]),
            }
        }
        assert_eq!(rest, 0, "SV code {code} not understood");
    }
    out
}

/// Asserts that a piece has exactly these moves, in any order.
fn assert_moves(rules: &Rules, abbrev: &str, expected: &[Movement]) {
    let actual = &piece(rules, abbrev).moves;
    for m in expected {
        assert!(
            actual.contains(m),
            "{}: `{abbrev}` lacks {m:?}; it has {actual:?}",
            rules.name
        );
    }
    for m in actual {
        assert!(
            expected.contains(m),
            "{}: `{abbrev}` has {m:?}, which it should not",
            rules.name
        );
    }
    assert_eq!(
        actual.len(),
        expected.len(),
        "{}: `{abbrev}` repeats a move",
        rules.name
    );
}

/// Asserts each piece's moves against its SV direction field.
fn assert_sv_table(rules: &Rules, table: &[(&str, [u16; 8])]) {
    for (abbrev, fields) in table {
        assert_moves(rules, abbrev, &sv_moves(*fields));
    }
}

/// The squares a piece of `side` on `from` reaches on an empty board.
fn reach(rules: &Rules, abbrev: &str, side: Side, from: &str) -> Vec<String> {
    let board = rules.board;
    let mut out = Vec::new();
    for m in &piece(rules, abbrev).moves {
        match m {
            Movement::Ride { dir, max, .. } => {
                let limit = max.unwrap_or(u8::MAX);
                let mut here = sq(from);
                for _ in 0..limit {
                    let Some(next) = board.offset(side, here, *dir) else {
                        break;
                    };
                    out.push(next.to_string());
                    here = next;
                }
            }
            Movement::Leap { to, .. } => out.extend(board.offset(side, sq(from), *to).map(|s| s.to_string())),
            other => panic!("unexpected movement {other:?}"),
        }
    }
    out.sort();
    out
}

fn sorted(list: &[&str]) -> Vec<String> {
    let mut out: Vec<String> = list.iter().map(|s| s.to_string()).collect();
    out.sort();
    out
}

// ------------------------------------------------------------------ pieces and setups

/// Asserts the number of piece kinds, of promoted kinds, and each promotion's target.
fn assert_kinds(rules: &Rules, promotions: &[(&str, &str)], unpromoted: &[&str]) {
    let promoted = rules.pieces.iter().filter(|p| p.promotion.reverts_to.is_some()).count();
    assert_eq!(promoted, promotions.len(), "{}: promoted kinds", rules.name);
    assert_eq!(
        rules.pieces.len(),
        promotions.len() * 2 + unpromoted.len(),
        "{}: piece kinds",
        rules.name
    );
    for (from, to) in promotions {
        assert_eq!(
            piece(rules, from).promotion.to,
            Some(id(rules, to)),
            "{from} promotes to {to}"
        );
        assert_eq!(
            piece(rules, to).promotion.reverts_to,
            Some(id(rules, from)),
            "{to} reverts to {from}"
        );
        assert_eq!(piece(rules, to).promotion.to, None, "{to} promotes no further");
        assert!(
            piece(rules, to).value > piece(rules, from).value,
            "{to} is worth more than {from}"
        );
    }
    for abbrev in unpromoted {
        let kind = piece(rules, abbrev);
        assert_eq!(kind.promotion.to, None, "{abbrev} does not promote");
        assert_eq!(kind.promotion.reverts_to, None, "{abbrev} is not a promoted kind");
    }
    let royals: Vec<&str> = rules
        .pieces
        .iter()
        .filter(|p| p.royal)
        .map(|p| p.abbrev.as_str())
        .collect();
    assert_eq!(royals.len(), 1, "{}: one royal kind", rules.name);
    for kind in rules.pieces.iter().filter(|p| !p.royal) {
        assert!(kind.value > 0, "{} has a value", kind.abbrev);
    }
}

/// Asserts one side's setup, square by square.
fn assert_setup(rules: &Rules, side: Side, expected: &[(&str, &str)]) {
    let mut actual: Vec<(String, String)> = rules
        .setup
        .iter()
        .filter(|p| p.side == side)
        .map(|p| (p.square.to_string(), rules.piece(p.piece).abbrev.clone()))
        .collect();
    let mut wanted: Vec<(String, String)> = expected.iter().map(|(s, a)| (s.to_string(), a.to_string())).collect();
    actual.sort();
    wanted.sort();
    assert_eq!(actual, wanted, "{}: {side:?}'s setup", rules.name);
}

/// Asserts the setup size per side and that White's is the 180° rotation of Black's.
fn assert_rotated_setup(rules: &Rules, per_side: usize) {
    let black: Vec<_> = rules.setup.iter().filter(|p| p.side == Side::Black).collect();
    let white: Vec<_> = rules.setup.iter().filter(|p| p.side == Side::White).collect();
    assert_eq!(black.len(), per_side, "{}: Black's pieces", rules.name);
    assert_eq!(white.len(), per_side, "{}: White's pieces", rules.name);
    for b in &black {
        let square = rules.board.rotate(b.square);
        assert!(
            white.iter().any(|w| w.square == square && w.piece == b.piece),
            "{}: no White {} on {square}, the rotation of {}",
            rules.name,
            rules.piece(b.piece).abbrev,
            b.square
        );
    }
    let mut squares: Vec<Square> = rules.setup.iter().map(|p| p.square).collect();
    squares.sort();
    squares.dedup();
    assert_eq!(squares.len(), 2 * per_side, "{}: one piece per square", rules.name);
}

/// Asserts each handicap removes White pieces of the named kinds.
fn assert_handicaps(rules: &Rules, expected: &[(&str, &[(&str, &str)])]) {
    assert_eq!(rules.handicaps.len(), expected.len(), "{}: handicaps", rules.name);
    for (handicap, (name, removed)) in rules.handicaps.iter().zip(expected) {
        assert_eq!(handicap.name, *name);
        let squares: Vec<String> = handicap.squares.iter().map(Square::to_string).collect();
        let wanted: Vec<String> = removed.iter().map(|(s, _)| s.to_string()).collect();
        assert_eq!(squares, wanted, "handicap {name}");
        for (square, abbrev) in *removed {
            let placed = rules
                .setup
                .iter()
                .find(|p| p.side == Side::White && p.square == sq(square))
                .unwrap_or_else(|| panic!("handicap {name}: no White piece on {square}"));
            assert_eq!(rules.piece(placed.piece).abbrev, *abbrev, "handicap {name} on {square}");
        }
    }
}

/// Asserts derived last ranks: (piece, forced promotion ranks, dead drop ranks); every
/// other piece has none.
fn assert_stuck_ranks(rules: &Rules, expected: &[(&str, u8, u8)]) {
    for kind in &rules.pieces {
        let (forced, dead) = expected
            .iter()
            .find(|(a, _, _)| *a == kind.abbrev)
            .map_or((0, 0), |&(_, f, d)| (f, d));
        assert_eq!(
            kind.promotion.forced_ranks, forced,
            "{}: forced ranks of {}",
            rules.name, kind.abbrev
        );
        assert_eq!(
            kind.drop.dead_ranks, dead,
            "{}: dead ranks of {}",
            rules.name, kind.abbrev
        );
    }
}

fn zone(depth: u8, leave: bool, compulsory: bool) -> Vec<PromotionTrigger> {
    vec![PromotionTrigger {
        when: PromotionEvent::Zone {
            depth,
            enter: true,
            within: true,
            leave,
            capture: false,
        },
        compulsory,
        compulsory_on_promoted: false,
    }]
}

/// Compiles with one option changed and asserts the tables differ from the default ones
/// exactly by `change` (and the option's chosen value).
fn assert_option(path: &str, name: &str, value: &str, change: impl FnOnce(&mut Rules)) {
    let default = compile_clean(path, &[]);
    let chosen = compile_clean(path, &[&format!("{name}={value}")]);
    let option = &chosen.options[name];
    assert_eq!(option.chosen, value);
    assert_ne!(option.values[0], value, "{name}={value} is not the default");
    let mut expected = default.clone();
    expected.options[name].chosen = value.to_string();
    change(&mut expected);
    assert_ne!(expected, default, "{name}={value} changes nothing");
    assert_eq!(chosen, expected, "{name}={value}");
}

fn assert_bad_option(path: &str, name: &str, value: &str) {
    let choice = Choice {
        name: name.into(),
        value: value.into(),
    };
    let compiled = compile_named(path, &[choice]);
    assert!(compiled.report.has_errors(), "{path}: {name}={value} is accepted");
    assert!(compiled.rules.is_none());
}

// ------------------------------------------------------------------ Shogi

#[test]
fn shogi_checks_clean() {
    compile_clean(SHOGI, &[]);
}

#[test]
fn shogi_promotions_and_royal() {
    let rules = compile_clean(SHOGI, &[]);
    assert_kinds(
        &rules,
        &[
            ("R", "+R"),
            ("B", "+B"),
            ("S", "+S"),
            ("N", "+N"),
            ("L", "+L"),
            ("P", "+P"),
        ],
        &["K", "G"],
    );
    assert!(piece(&rules, "K").royal);
}

#[test]
fn shogi_moves_follow_svs_tables() {
    let rules = compile_clean(SHOGI, &[]);
    // SV's Shogi.dat direction fields (F, B, L, R, FL, FR, BL, BR).
    const GOLD: [u16; 8] = [1, 1, 1, 1, 1, 1, 0, 0];
    assert_sv_table(
        &rules,
        &[
            ("K", [1; 8]),
            ("R", [64, 64, 64, 64, 0, 0, 0, 0]),
            ("B", [0, 0, 0, 0, 64, 64, 64, 64]),
            ("G", GOLD),
            ("S", [1, 0, 0, 0, 1, 1, 1, 1]),
            ("N", [1024, 0, 0, 0, 0, 0, 0, 0]),
            ("L", [64, 0, 0, 0, 0, 0, 0, 0]),
            ("P", [1, 0, 0, 0, 0, 0, 0, 0]),
            ("+R", [64, 64, 64, 64, 1, 1, 1, 1]),
            ("+B", [1, 1, 1, 1, 64, 64, 64, 64]),
            ("+S", GOLD),
            ("+N", GOLD),
            ("+L", GOLD),
            ("+P", GOLD),
        ],
    );
    // The knight leaps two forward and one aside, for each side.
    assert_eq!(reach(&rules, "N", Side::Black, "2i"), sorted(&["1g", "3g"]));
    assert_eq!(reach(&rules, "N", Side::White, "2a"), sorted(&["1c", "3c"]));
}

#[test]
fn shogi_setup() {
    let rules = compile_clean(SHOGI, &[]);
    assert_rotated_setup(&rules, 20);
    let mut black = vec![
        ("9i", "L"),
        ("8i", "N"),
        ("7i", "S"),
        ("6i", "G"),
        ("5i", "K"),
        ("4i", "G"),
        ("3i", "S"),
        ("2i", "N"),
        ("1i", "L"),
        ("8h", "B"),
        ("2h", "R"),
    ];
    let mut white = vec![
        ("1a", "L"),
        ("2a", "N"),
        ("3a", "S"),
        ("4a", "G"),
        ("5a", "K"),
        ("6a", "G"),
        ("7a", "S"),
        ("8a", "N"),
        ("9a", "L"),
        ("2b", "B"),
        ("8b", "R"),
    ];
    let pawns_black: Vec<String> = (1..=9).map(|f| format!("{f}g")).collect();
    let pawns_white: Vec<String> = (1..=9).map(|f| format!("{f}c")).collect();
    black.extend(pawns_black.iter().map(|s| (s.as_str(), "P")));
    white.extend(pawns_white.iter().map(|s| (s.as_str(), "P")));
    assert_setup(&rules, Side::Black, &black);
    assert_setup(&rules, Side::White, &white);
    assert_handicaps(
        &rules,
        &[
            ("Lance", &[("1a", "L")]),
            ("Bishop", &[("2b", "B")]),
            ("Rook", &[("8b", "R")]),
            ("Two pieces", &[("2b", "B"), ("8b", "R")]),
        ],
    );
}

#[test]
fn shogi_stuck_pieces_promote_or_stay_in_hand() {
    let rules = compile_clean(SHOGI, &[]);
    assert_stuck_ranks(&rules, &[("N", 2, 2), ("L", 1, 1), ("P", 1, 1)]);
}

#[test]
fn shogi_ron_snapshot() {
    let rules = compile_clean(SHOGI, &[]);
    settings().bind(|| insta::assert_snapshot!("ron_shogi", rules.to_ron()));
}

// ------------------------------------------------------------------ Yari Shogi

#[test]
fn yari_checks_clean_with_every_option() {
    let rules = compile_clean(YARI, &[]);
    for (name, option) in &rules.options {
        assert!(option.description.is_some(), "option {name} is described");
        for value in &option.values {
            compile_clean(YARI, &[&format!("{name}={value}")]);
        }
    }
}

#[test]
fn yari_promotions_and_royal() {
    let rules = compile_clean(YARI, &[]);
    assert_kinds(
        &rules,
        &[("YR", "+YR"), ("YB", "+YB"), ("YN", "+YN"), ("P", "+P")],
        &["K"],
    );
    assert!(piece(&rules, "K").royal);
}

#[test]
fn yari_moves_follow_the_sv_tables() {
    let rules = compile_clean(YARI, &[]);
    // SV Yari.dat direction fields.
    const YARI_GOLD: [u16; 8] = [1, 64, 1, 1, 1, 1, 0, 0];
    assert_sv_table(
        &rules,
        &[
            ("K", [1; 8]),
            ("YR", [64, 0, 64, 64, 0, 0, 0, 0]),
            ("YB", [64, 0, 0, 0, 1, 1, 0, 0]),
            ("YN", [1088, 0, 0, 0, 0, 0, 0, 0]),
            ("P", [1, 0, 0, 0, 0, 0, 0, 0]),
            ("+YR", [64, 64, 64, 64, 0, 0, 0, 0]),
            ("+YB", YARI_GOLD),
            ("+YN", YARI_GOLD),
            ("+P", [1, 64, 0, 0, 1, 1, 0, 0]),
        ],
    );
    // No piece but the King moves backwards before promoting (SV).
    for abbrev in ["YR", "YB", "YN", "P"] {
        for m in &piece(&rules, abbrev).moves {
            let dy = match m {
                Movement::Ride { dir, .. } => dir.dy,
                Movement::Leap { to, .. } => to.dy,
                other => panic!("unexpected {other:?}"),
            };
            assert!(dy >= 0, "{abbrev} moves backwards: {m:?}");
        }
    }
}

#[test]
fn yari_knight_leaps_and_slides_forward() {
    let rules = compile_clean(YARI, &[]);
    // Black's Knight on 3i: the leaps to 4g and 2g, and up file 3 to 3a.
    let mut black = vec!["4g", "2g"];
    black.extend(["3h", "3g", "3f", "3e", "3d", "3c", "3b", "3a"]);
    assert_eq!(reach(&rules, "YN", Side::Black, "3i"), sorted(&black));
    // White's Knight on 5a moves down the board.
    let mut white = vec!["4c", "6c"];
    white.extend(["5b", "5c", "5d", "5e", "5f", "5g", "5h", "5i"]);
    assert_eq!(reach(&rules, "YN", Side::White, "5a"), sorted(&white));
    // The Yari Rook slides forward and sideways, never back.
    assert_eq!(
        reach(&rules, "YR", Side::Black, "4e"),
        sorted(&["4d", "4c", "4b", "4a", "5e", "6e", "7e", "3e", "2e", "1e"])
    );
}

#[test]
fn yari_setup() {
    let rules = compile_clean(YARI, &[]);
    assert_rotated_setup(&rules, 14);
    let pawns_black: Vec<String> = (1..=7).map(|f| format!("{f}g")).collect();
    let pawns_white: Vec<String> = (1..=7).map(|f| format!("{f}c")).collect();
    let mut black = vec![
        ("7i", "YR"),
        ("6i", "YB"),
        ("5i", "YB"),
        ("4i", "K"),
        ("3i", "YN"),
        ("2i", "YN"),
        ("1i", "YR"),
    ];
    let mut white = vec![
        ("7a", "YR"),
        ("6a", "YN"),
        ("5a", "YN"),
        ("4a", "K"),
        ("3a", "YB"),
        ("2a", "YB"),
        ("1a", "YR"),
    ];
    black.extend(pawns_black.iter().map(|s| (s.as_str(), "P")));
    white.extend(pawns_white.iter().map(|s| (s.as_str(), "P")));
    assert_setup(&rules, Side::Black, &black);
    assert_setup(&rules, Side::White, &white);
    assert_handicaps(
        &rules,
        &[("Rook", &[("1a", "YR")]), ("Two Rooks", &[("1a", "YR"), ("7a", "YR")])],
    );
}

#[test]
fn yari_stuck_pieces_promote_or_stay_in_hand() {
    let rules = compile_clean(YARI, &[]);
    // Only the Yari Rook may stay unpromoted on, and be dropped on, the last rank; the Knight's
    // forward slide leaves it a move from the second-to-last rank.
    assert_stuck_ranks(&rules, &[("YB", 1, 1), ("YN", 1, 1), ("P", 1, 1)]);
}

#[test]
fn yari_options_change_what_they_should() {
    // Freeling: only moves that end in the zone promote.
    assert_option(YARI, "promotion", "end-in-zone", |r| {
        r.promotion = zone(3, false, false)
    });
    // FSF: threefold repetition draws, perpetual check loses.
    assert_option(YARI, "repetition", "threefold-draw", |r| {
        r.end.repetition = Some(Repetition {
            count: 3,
            effect: RepetitionEffect::Draw,
            perpetual_check_loses: true,
        });
    });
    // FSF: the stalemated side loses.
    assert_option(YARI, "stalemate", "loss", |r| r.end.stalemate = Verdict::Loss);
    assert_bad_option(YARI, "stalemate", "win");
    assert_bad_option(YARI, "promotion", "capture");
}

#[test]
fn yari_ron_snapshot() {
    let rules = compile_clean(YARI, &[]);
    settings().bind(|| insta::assert_snapshot!("ron_yari", rules.to_ron()));
}

// ------------------------------------------------------------------ Tori Shogi

#[test]
fn tori_checks_clean_with_every_option() {
    let rules = compile_clean(TORI, &[]);
    for (name, option) in &rules.options {
        assert!(option.description.is_some(), "option {name} is described");
        for value in &option.values {
            compile_clean(TORI, &[&format!("{name}={value}")]);
        }
    }
}

#[test]
fn tori_promotions_and_royal() {
    let rules = compile_clean(TORI, &[]);
    assert_kinds(&rules, &[("Fa", "Eg"), ("Sw", "Go")], &["Ph", "Cr", "Pt", "LQ", "RQ"]);
    assert!(piece(&rules, "Ph").royal);
}

#[test]
fn tori_moves_follow_the_sv_tables() {
    let rules = compile_clean(TORI, &[]);
    // SV Tori.dat direction fields.
    assert_sv_table(
        &rules,
        &[
            ("Ph", [1; 8]),
            ("Fa", [1, 0, 1, 1, 1, 1, 1, 1]),
            ("Cr", [1, 1, 0, 0, 1, 1, 1, 1]),
            ("Pt", [128, 0, 0, 0, 0, 0, 1, 1]),
            ("LQ", [64, 0, 0, 0, 0, 0, 1, 64]),
            ("RQ", [64, 0, 0, 0, 0, 0, 64, 1]),
            ("Sw", [1, 0, 0, 0, 0, 0, 0, 0]),
            ("Eg", [1, 64, 1, 1, 64, 64, 2, 2]),
            ("Go", [0, 128, 0, 0, 128, 128, 0, 0]),
        ],
    );
}

#[test]
fn tori_left_quail_is_asymmetric() {
    let rules = compile_clean(TORI, &[]);
    // For Black, right is towards file 1: from 4d the back-right slide runs to 1g and the
    // back-left step goes to 5e.
    assert_eq!(
        reach(&rules, "LQ", Side::Black, "4d"),
        sorted(&["4c", "4b", "4a", "3e", "2f", "1g", "5e"])
    );
    // For White, the same moves point the other way.
    assert_eq!(
        reach(&rules, "LQ", Side::White, "4d"),
        sorted(&["4e", "4f", "4g", "5c", "6b", "7a", "3c"])
    );
    // Each player's Left Quail stands in that player's own left corner.
    let left = Offset::new(-1, 0);
    let black = rules
        .setup
        .iter()
        .find(|p| p.side == Side::Black && p.piece == id(&rules, "LQ"))
        .unwrap();
    assert_eq!(black.square, sq("7g"));
    assert_eq!(rules.board.offset(Side::Black, black.square, left), None);
    let white = rules
        .setup
        .iter()
        .find(|p| p.side == Side::White && p.piece == id(&rules, "LQ"))
        .unwrap();
    assert_eq!(white.square, sq("1a"));
    assert_eq!(rules.board.offset(Side::White, white.square, left), None);
}

#[test]
fn tori_eagle_goose_and_pheasant() {
    let rules = compile_clean(TORI, &[]);
    // The Eagle's back diagonals: up to two squares, not jumping.
    assert_eq!(
        reach(&rules, "Eg", Side::Black, "4d"),
        sorted(&[
            "4c", "3d", "5d", // steps forward and sideways
            "4e", "4f", "4g", // slide back
            "5c", "6b", "7a", "3c", "2b", "1a", // slides forward diagonally
            "5e", "6f", "3e", "2f", // up to two back diagonally
        ])
    );
    // The Goose and the Pheasant jump to the second square.
    assert_eq!(reach(&rules, "Go", Side::Black, "4d"), sorted(&["6b", "2b", "4f"]));
    assert_eq!(reach(&rules, "Pt", Side::White, "6a"), sorted(&["6c"]));
}

#[test]
fn tori_setup() {
    let rules = compile_clean(TORI, &[]);
    assert_rotated_setup(&rules, 16);
    let swallows_black: Vec<String> = (1..=7).map(|f| format!("{f}e")).collect();
    let swallows_white: Vec<String> = (1..=7).map(|f| format!("{f}c")).collect();
    let mut black = vec![
        ("7g", "LQ"),
        ("6g", "Pt"),
        ("5g", "Cr"),
        ("4g", "Ph"),
        ("3g", "Cr"),
        ("2g", "Pt"),
        ("1g", "RQ"),
        ("4f", "Fa"),
        ("3d", "Sw"),
    ];
    let mut white = vec![
        ("7a", "RQ"),
        ("6a", "Pt"),
        ("5a", "Cr"),
        ("4a", "Ph"),
        ("3a", "Cr"),
        ("2a", "Pt"),
        ("1a", "LQ"),
        ("4b", "Fa"),
        ("5d", "Sw"),
    ];
    black.extend(swallows_black.iter().map(|s| (s.as_str(), "Sw")));
    white.extend(swallows_white.iter().map(|s| (s.as_str(), "Sw")));
    assert_setup(&rules, Side::Black, &black);
    assert_setup(&rules, Side::White, &white);
    assert_handicaps(&rules, &[("Falcon", &[("4b", "Fa")])]);
}

#[test]
fn tori_stuck_pieces_promote_or_stay_in_hand() {
    let rules = compile_clean(TORI, &[]);
    // The Swallow may not be dropped on the last rank; no other piece is ever stuck.
    assert_stuck_ranks(&rules, &[("Sw", 1, 1)]);
}

#[test]
fn tori_options_change_what_they_should() {
    // FSF: the fourth occurrence loses for the player making it; perpetual check loses.
    assert_option(TORI, "repetition", "fourfold", |r| {
        r.end.repetition = Some(Repetition {
            count: 4,
            effect: RepetitionEffect::Illegal,
            perpetual_check_loses: true,
        });
    });
    assert_bad_option(TORI, "repetition", "draw");
    assert_bad_option(TORI, "stalemate", "draw");
}

#[test]
fn tori_ron_snapshot() {
    let rules = compile_clean(TORI, &[]);
    settings().bind(|| insta::assert_snapshot!("ron_tori", rules.to_ron()));
}
