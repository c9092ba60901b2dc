//! Maka-Dai-Dai Shogi (`variants/maka-dai-dai.var`) against the rule text
//! (SV's Maka.rul) and SV's piece tables and setup (Maka.dat; docs/sources.md): moves, setup
//! square by square, promotions, and what each option changes. What the file states word for
//! word (names, the board, the option lists) is pinned by the RON snapshot, not restated here.

mod support;

use koma::rules::{Mode, Movement, Offset, PromotionEvent, PromotionTrigger, Rules, Side, Square};
use support::{compile_clean, id, settings, sq};

const FILE: &str = "variants/maka-dai-dai.var";

const F: (i8, i8) = (0, 1);
const BK: (i8, i8) = (0, -1);
const L: (i8, i8) = (-1, 0);
const R: (i8, i8) = (1, 0);
const FL: (i8, i8) = (-1, 1);
const FR: (i8, i8) = (1, 1);
const BL: (i8, i8) = (-1, -1);
const BR: (i8, i8) = (1, -1);
const ORTHOGONAL: [(i8, i8); 4] = [F, BK, L, R];
const DIAGONAL: [(i8, i8); 4] = [FL, FR, BL, BR];
const ALL: [(i8, i8); 8] = [F, BK, L, R, FL, FR, BL, BR];

fn moves(rules: &Rules, abbrev: &str) -> Vec<Movement> {
    rules.piece(id(rules, abbrev)).moves.clone()
}

fn step(dirs: &[(i8, i8)]) -> Vec<Movement> {
    range(1, dirs)
}

fn range(n: u8, dirs: &[(i8, i8)]) -> Vec<Movement> {
    dirs.iter()
        .map(|&d| Movement::Ride {
            dir: Offset::from(d),
            max: Some(n),
            mode: Mode::Any,
            from_last_rank: false,
            beyond: 0,
        })
        .collect()
}

fn slide(dirs: &[(i8, i8)]) -> Vec<Movement> {
    dirs.iter()
        .map(|&d| Movement::Ride {
            dir: Offset::from(d),
            max: None,
            mode: Mode::Any,
            from_last_rank: false,
            beyond: 0,
        })
        .collect()
}

fn leap(offsets: &[(i8, i8)]) -> Vec<Movement> {
    offsets
        .iter()
        .map(|&d| Movement::Leap {
            to: Offset::from(d),
            mode: Mode::Any,
            from_last_rank: false,
        })
        .collect()
}

fn area_lion(steps: u8) -> Vec<Movement> {
    vec![Movement::AreaLion { steps, mode: Mode::Any }]
}

fn line_lion(steps: u8, dirs: &[(i8, i8)]) -> Vec<Movement> {
    dirs.iter()
        .map(|&d| Movement::LineLion {
            dir: Offset::from(d),
            steps,
            mode: Mode::Any,
        })
        .collect()
}

fn hook(dirs: &[(i8, i8)]) -> Vec<Movement> {
    dirs.iter()
        .map(|&d| Movement::Hook {
            dir: Offset::from(d),
            only_turn: None,
            mode: Mode::Any,
        })
        .collect()
}

fn cat(parts: &[Vec<Movement>]) -> Vec<Movement> {
    parts.concat()
}

/// The piece has exactly these movements, in any order, none twice.
#[track_caller]
fn assert_moves(rules: &Rules, abbrev: &str, expected: Vec<Movement>) {
    let actual = moves(rules, abbrev);
    let missing: Vec<_> = expected.iter().filter(|m| !actual.contains(m)).collect();
    let extra: Vec<_> = actual.iter().filter(|m| !expected.contains(m)).collect();
    assert!(
        missing.is_empty() && extra.is_empty() && actual.len() == expected.len(),
        "{abbrev}: missing {missing:?}, extra {extra:?}, actual {actual:?}"
    );
}

/// Where a one-square move of `abbrev` in direction `dir` goes from `from`, checking the piece has it.
#[track_caller]
fn step_target(rules: &Rules, abbrev: &str, side: Side, from: &str, dir: (i8, i8)) -> String {
    let wanted = step(&[dir]).remove(0);
    assert!(moves(rules, abbrev).contains(&wanted), "{abbrev} has no step {dir:?}");
    rules
        .board
        .offset(side, sq(from), Offset::from(dir))
        .unwrap()
        .to_string()
}

#[test]
fn checks_clean_under_every_option_value() {
    let rules = compile_clean(FILE, &[]);
    for (name, option) in &rules.options {
        assert_eq!(
            &option.chosen, &option.values[0],
            "{name}: the first value is the default"
        );
        for value in &option.values {
            let rules = compile_clean(FILE, &[&format!("{name}={value}")]);
            assert_eq!(&rules.options[name].chosen, value);
        }
    }
}

/// Black's setup as SV's Maka.dat lists it, square by square.
const BLACK_SETUP: &[(&str, &str)] = &[
    // rank s
    ("19s", "L"),
    ("18s", "Ea"),
    ("17s", "St"),
    ("16s", "T"),
    ("15s", "I"),
    ("14s", "C"),
    ("13s", "S"),
    ("12s", "G"),
    ("11s", "DV"),
    ("10s", "K"),
    ("9s", "DSp"),
    ("8s", "G"),
    ("7s", "S"),
    ("6s", "C"),
    ("5s", "I"),
    ("4s", "T"),
    ("3s", "St"),
    ("2s", "Ea"),
    ("1s", "L"),
    // rank r
    ("19r", "RC"),
    ("17r", "CSw"),
    ("15r", "CC"),
    ("13r", "CS"),
    ("12r", "FL"),
    ("11r", "BT"),
    ("10r", "DE"),
    ("9r", "BT"),
    ("8r", "FL"),
    ("7r", "RD"),
    ("5r", "OM"),
    ("3r", "CSw"),
    ("1r", "RC"),
    // rank q
    ("18q", "OR"),
    ("16q", "AB"),
    ("14q", "BB"),
    ("12q", "EW"),
    ("11q", "Ky"),
    ("10q", "Ln"),
    ("9q", "Ph"),
    ("8q", "EW"),
    ("6q", "BB"),
    ("4q", "AB"),
    ("2q", "OR"),
    // rank p
    ("19p", "Do"),
    ("17p", "N"),
    ("15p", "VO"),
    ("13p", "FD"),
    ("12p", "BDe"),
    ("11p", "Wr"),
    ("10p", "LD"),
    ("9p", "GG"),
    ("8p", "SD"),
    ("7p", "FD"),
    ("5p", "VO"),
    ("3p", "N"),
    ("1p", "Do"),
    // rank o
    ("19o", "R"),
    ("18o", "LCh"),
    ("17o", "SM"),
    ("16o", "SF"),
    ("15o", "VM"),
    ("14o", "B"),
    ("13o", "DH"),
    ("12o", "DK"),
    ("11o", "Ca"),
    ("10o", "FK"),
    ("9o", "HM"),
    ("8o", "DK"),
    ("7o", "DH"),
    ("6o", "B"),
    ("5o", "VM"),
    ("4o", "SF"),
    ("3o", "SM"),
    ("2o", "RCh"),
    ("1o", "R"),
    // rank m (rank n: the 19 pawns, checked separately)
    ("14m", "GB"),
    ("6m", "GB"),
];

fn placed(rules: &Rules, side: Side) -> Vec<(Square, String)> {
    let mut list: Vec<(Square, String)> = rules
        .setup
        .iter()
        .filter(|p| p.side == side)
        .map(|p| (p.square, rules.piece(p.piece).abbrev.clone()))
        .collect();
    list.sort();
    list
}

#[test]
fn setup_is_svs_square_by_square() {
    let rules = compile_clean(FILE, &[]);
    let black = placed(&rules, Side::Black);
    let white = placed(&rules, Side::White);
    assert_eq!(black.len(), 96);
    assert_eq!(white.len(), 96);

    let mut expected: Vec<(Square, String)> = BLACK_SETUP
        .iter()
        .map(|(s, a)| (sq(s), a.to_string()))
        .chain((1..=19).map(|file| (Square::new(file, 14), "P".to_string())))
        .collect();
    expected.sort();
    assert_eq!(black, expected);

    let mut rotated: Vec<(Square, String)> = black.iter().map(|(s, a)| (rules.board.rotate(*s), a.clone())).collect();
    rotated.sort();
    assert_eq!(white, rotated);

    // White's pieces on some of their squares.
    let white_on = |s: &str| {
        let p = rules
            .setup
            .iter()
            .find(|p| p.square == sq(s))
            .unwrap_or_else(|| panic!("nothing on {s}"));
        assert_eq!(p.side, Side::White, "{s}");
        rules.piece(p.piece).abbrev.clone()
    };
    for (square, abbrev) in [
        ("10a", "K"),
        ("9a", "DV"),
        ("11a", "DSp"),
        ("9c", "Ky"),
        ("11c", "Ph"),
        ("2e", "LCh"),
        ("18e", "RCh"),
        ("6g", "GB"),
        ("14g", "GB"),
    ] {
        assert_eq!(white_on(square), abbrev, "White on {square}");
    }

    // 50 kinds in the setup: 21 single pieces, 28 pairs, 19 pawns.
    let mut kinds: Vec<&String> = black.iter().map(|(_, a)| a).collect();
    kinds.sort();
    kinds.dedup();
    assert_eq!(kinds.len(), 50);
    let count = |a: &str| black.iter().filter(|(_, b)| b == a).count();
    let singles = kinds.iter().filter(|a| count(a) == 1).count();
    let pairs = kinds.iter().filter(|a| count(a) == 2).count();
    assert_eq!((singles, pairs, count("P")), (21, 28, 19));
    // The first 50 kinds defined are the setup's.
    for (i, kind) in rules.pieces.iter().enumerate() {
        assert_eq!(i < 50, kinds.contains(&&kind.abbrev), "{}", kind.abbrev);
    }
}

/// Every kind of the setup and what it promotes to (SV's Maka.dat; "Gold" is `+X`).
const PROMOTIONS: &[(&str, Option<&str>)] = &[
    ("K", Some("E")),
    ("P", Some("+P")),
    ("L", Some("+L")),
    ("S", Some("FSi")),
    ("G", Some("FGo")),
    ("C", Some("FCo")),
    ("I", Some("FIr")),
    ("T", Some("FTi")),
    ("St", Some("FSt")),
    ("Ea", Some("FEa")),
    ("GB", Some("FG")),
    ("DV", Some("TK")),
    ("DSp", Some("BSp")),
    ("DE", Some("Pr")),
    ("BT", Some("FT")),
    ("FL", Some("FLp")),
    ("CSw", Some("FC")),
    ("CC", Some("WS")),
    ("CS", Some("FSe")),
    ("RD", Some("FDr")),
    ("OM", Some("MW")),
    ("AB", Some("FBo")),
    ("EW", Some("FW")),
    ("BB", Some("FBe")),
    ("OR", Some("Bt")),
    ("Ky", Some("GD")),
    ("Ph", Some("GBd")),
    ("Ln", Some("FF")),
    ("Do", Some("+Do")),
    ("N", Some("+N")),
    ("VO", Some("+VO")),
    ("FD", Some("+FD")),
    ("BDe", Some("+BDe")),
    ("Wr", Some("+Wr")),
    ("GG", Some("+GG")),
    ("SD", Some("+SD")),
    ("LD", Some("+LD")),
    ("R", Some("+R")),
    ("B", Some("+B")),
    ("DK", None),
    ("DH", None),
    ("FK", None),
    ("VM", Some("+VM")),
    ("SM", Some("+SM")),
    ("SF", Some("+SF")),
    ("RC", Some("+RC")),
    ("LCh", Some("+LCh")),
    ("RCh", Some("+RCh")),
    ("HM", Some("+HM")),
    ("Ca", Some("+Ca")),
];

#[test]
fn promotions_revert_and_are_never_forced_by_rank() {
    let rules = compile_clean(FILE, &[]);
    assert_eq!(PROMOTIONS.len(), 50);
    let gold = moves(&rules, "G");
    for &(abbrev, to) in PROMOTIONS {
        let kind = rules.piece(id(&rules, abbrev));
        assert_eq!(kind.promotion.to, to.map(|t| id(&rules, t)), "{abbrev} promotes");
        assert_eq!(kind.promotion.forced_ranks, 0, "{abbrev}: no forced promotion");
        let Some(to) = to else { continue };
        let promoted = rules.piece(id(&rules, to));
        assert_eq!(promoted.promotion.reverts_to, Some(id(&rules, abbrev)), "{to} reverts");
        assert_eq!(promoted.promotion.to, None, "{to} promotes no further");
        if to.starts_with('+') {
            assert_eq!(promoted.moves, gold, "{to} moves as a Gold");
        }
    }
    // 50 kinds, SV's 27 promotion-only kinds (the Tokin among them) and 20 promoted Golds.
    assert_eq!(rules.pieces.len(), 50 + 27 + 20);
    for kind in &rules.pieces[50..] {
        assert!(
            kind.promotion.reverts_to.is_some(),
            "{} is reached by promotion",
            kind.abbrev
        );
    }
}

#[test]
fn capture_promotion_and_self_check_options() {
    let optional = compile_clean(FILE, &["capture-promotion=optional"]);
    assert_eq!(
        optional.promotion,
        [PromotionTrigger {
            when: PromotionEvent::Capture,
            compulsory: false,
            compulsory_on_promoted: false,
        }]
    );
    assert!(compile_clean(FILE, &["self-check=legal"]).end.royal_capture_allowed);
}

#[test]
fn royals_are_king_emperor_and_prince() {
    let rules = compile_clean(FILE, &[]);
    let royals: Vec<&str> = rules
        .pieces
        .iter()
        .filter(|p| p.royal)
        .map(|p| p.abbrev.as_str())
        .collect();
    assert_eq!(royals, ["K", "E", "Pr"]);
    assert_moves(&rules, "Pr", step(&ALL));
    assert_moves(&rules, "K", step(&ALL));
    assert_eq!(
        moves(&rules, "E"),
        [Movement::Anywhere {
            mode: Mode::CaptureUnprotected,
        }]
    );
}

#[test]
fn deva_and_dark_spirit_step_asymmetrically() {
    let rules = compile_clean(FILE, &[]);
    assert_moves(&rules, "DV", step(&[FL, FR, L, BR]));
    assert_moves(&rules, "DSp", step(&[FL, FR, R, BL]));
    // Black's Deva on 11s steps left to 12s, towards the higher files; White's on 9a to 8a.
    assert_eq!(step_target(&rules, "DV", Side::Black, "11s", L), "12s");
    assert_eq!(step_target(&rules, "DV", Side::Black, "11s", FL), "12r");
    assert_eq!(step_target(&rules, "DV", Side::White, "9a", L), "8a");
    assert_eq!(step_target(&rules, "DSp", Side::Black, "9s", R), "8s");
    assert_eq!(step_target(&rules, "DSp", Side::White, "11a", R), "12a");
    // Back-right for Black's Deva is towards the lower files, back towards rank s.
    assert_eq!(step_target(&rules, "DV", Side::Black, "11r", BR), "10s");
    assert_eq!(step_target(&rules, "DSp", Side::Black, "9r", BL), "10s");

    let sz = compile_clean(FILE, &["deva=sz"]);
    assert_moves(&sz, "DV", step(&[FL, FR, L, BL]));
    assert_moves(&sz, "DSp", step(&[FL, FR, R, BR]));
    let srz = compile_clean(FILE, &["deva=srz"]);
    assert_moves(&srz, "DV", step(&[F, BK, L, R, FL, BL]));
    assert_moves(&srz, "DSp", step(&[F, BK, L, R, FR, BR]));
}

#[test]
fn left_and_right_chariots_are_mirror_images() {
    let rules = compile_clean(FILE, &[]);
    assert_moves(&rules, "LCh", cat(&[slide(&[F, FL, BR]), step(&[BK])]));
    assert_moves(&rules, "RCh", cat(&[slide(&[F, FR, BL]), step(&[BK])]));
    // Black's Left Chariot on 18o slides forward-left towards file 19.
    let board = rules.board;
    assert_eq!(
        board.offset(Side::Black, sq("18o"), Offset::new(-1, 1)),
        Some(sq("19n"))
    );
    assert_eq!(board.offset(Side::White, sq("2e"), Offset::new(-1, 1)), Some(sq("1f")));
}

#[test]
fn hook_movers() {
    let rules = compile_clean(FILE, &[]);
    assert_moves(&rules, "HM", hook(&ORTHOGONAL));
    assert_moves(&rules, "Ca", hook(&DIAGONAL));
}

#[test]
fn lion_pieces() {
    let rules = compile_clean(FILE, &[]);
    assert_moves(&rules, "Ln", area_lion(2));
    assert_moves(&rules, "FF", cat(&[area_lion(2), range(3, &ALL)]));
    assert_moves(&rules, "BSp", cat(&[area_lion(2), slide(&ALL)]));
}

#[test]
fn teaching_king_under_both_versions() {
    assert_moves(&compile_clean(FILE, &[]), "TK", slide(&ALL));
    assert_moves(&compile_clean(FILE, &["teaching-king=1"]), "TK", slide(&ALL));
    assert_moves(
        &compile_clean(FILE, &["teaching-king=2"]),
        "TK",
        cat(&[slide(&ALL), area_lion(3)]),
    );
}

#[test]
fn lion_dog_under_both_readings() {
    let rules = compile_clean(FILE, &[]);
    assert_moves(&rules, "LD", range(3, &ALL));
    let lion = compile_clean(FILE, &["lion-dog=lion"]);
    assert_moves(&lion, "LD", line_lion(3, &ALL));
    // The Furious Fiend is a Lion or a Lion Dog; the Teaching King adds the Lion Dog's move.
    assert_moves(&lion, "FF", cat(&[area_lion(2), line_lion(3, &ALL)]));
    assert_moves(&lion, "TK", cat(&[slide(&ALL), line_lion(3, &ALL)]));
    let both = compile_clean(FILE, &["lion-dog=lion", "teaching-king=2"]);
    assert_moves(&both, "TK", cat(&[slide(&ALL), area_lion(3), line_lion(3, &ALL)]));
}

#[test]
fn jumping_pieces() {
    let rules = compile_clean(FILE, &[]);
    assert_moves(
        &rules,
        "Ky",
        cat(&[step(&DIAGONAL), leap(&[(0, 2), (0, -2), (-2, 0), (2, 0)])]),
    );
    assert_moves(
        &rules,
        "Ph",
        cat(&[step(&ORTHOGONAL), leap(&[(-2, 2), (2, 2), (-2, -2), (2, -2)])]),
    );
    assert_moves(&rules, "Do", cat(&[step(&[L, R]), leap(&[(0, 2), (0, -2)])]));
    assert_moves(&rules, "N", leap(&[(-1, 2), (1, 2)]));
    assert_moves(
        &rules,
        "FBe",
        cat(&[slide(&[L, R, FL, FR, BL, BR]), leap(&[(-2, 2), (2, 2)])]),
    );

    assert_moves(
        &compile_clean(FILE, &["donkey=also-step"]),
        "Do",
        cat(&[step(&[L, R, F, BK]), leap(&[(0, 2), (0, -2)])]),
    );
    assert_moves(
        &compile_clean(FILE, &["free-bear=no-leap"]),
        "FBe",
        slide(&[L, R, FL, FR, BL, BR]),
    );
}

#[test]
fn contested_free_wolf_and_free_dragon() {
    let rules = compile_clean(FILE, &[]);
    assert_moves(&rules, "FW", cat(&[slide(&[F, BK, FL, FR, BL, BR]), range(5, &[L, R])]));
    assert_moves(&rules, "FDr", cat(&[slide(&[F, FL, FR]), step(&[BK, BL, BR])]));
    assert_moves(
        &compile_clean(FILE, &["free-wolf=wikipedia"]),
        "FW",
        slide(&[F, FL, FR, L, R]),
    );
    assert_moves(
        &compile_clean(FILE, &["free-dragon=wikipedia"]),
        "FDr",
        slide(&[F, BK, L, R, BL, BR]),
    );
}

#[test]
fn limited_range_pieces() {
    let rules = compile_clean(FILE, &[]);
    assert_moves(&rules, "OR", range(2, &[FL, FR, BK]));
    assert_moves(&rules, "VO", range(2, &ORTHOGONAL));
    assert_moves(&rules, "FD", range(2, &DIAGONAL));
    assert_moves(&rules, "BDe", cat(&[range(3, &[FL, FR]), step(&[L, R, BK])]));
    assert_moves(&rules, "Wr", cat(&[range(3, &DIAGONAL), step(&[L, R])]));
    assert_moves(&rules, "GG", cat(&[range(3, &ORTHOGONAL), step(&[FL, FR])]));
    assert_moves(&rules, "SD", cat(&[range(5, &ORTHOGONAL), range(2, &DIAGONAL)]));
    assert_moves(
        &rules,
        "GD",
        cat(&[slide(&[L, R]), range(2, &[F, BK]), range(3, &DIAGONAL)]),
    );
    assert_moves(
        &rules,
        "GBd",
        cat(&[slide(&[F, BK]), range(2, &[L, R]), range(3, &DIAGONAL)]),
    );
}

#[test]
fn handicaps_remove_white_pieces() {
    let rules = compile_clean(FILE, &[]);
    assert!(!rules.handicaps.is_empty());
    for handicap in &rules.handicaps {
        assert!(!handicap.squares.is_empty(), "{}", handicap.name);
        for square in &handicap.squares {
            let placement = rules.setup.iter().find(|p| p.square == *square).unwrap();
            assert_eq!(placement.side, Side::White, "{}: {square}", handicap.name);
            let abbrev = &rules.piece(placement.piece).abbrev;
            assert!(
                handicap.name.contains(&rules.piece(placement.piece).name),
                "{}: {square} holds {abbrev}",
                handicap.name
            );
        }
    }
}

#[test]
fn ron_snapshot() {
    let rules = compile_clean(FILE, &[]);
    settings().bind(|| insta::assert_snapshot!("ron_maka_dai_dai", rules.to_ron()));
}
