//! Chu Shogi and Dai Shogi: both files check clean, every piece moves as the sources' piece
//! tables say (SV's Chu.dat and Dai.dat, lishogi, HaChu; docs/sources.md), the
//! setups are the ones the sources list, Dai reuses Chu's pieces, every option compiles and
//! changes what it should, and the compiled tables are snapshotted. What the files state word
//! for word (names, kanji, SFEN letters, the zone and game-end rules) is pinned by the RON
//! snapshots, not restated here.

mod support;

use koma::compile::{Choice, Severity, compile_named};
use koma::rules::{
    LionDefence, LionRole, Mode, Movement, Offset, PieceId, PieceKind, PromotionEvent, PromotionTrigger, Repetition,
    RepetitionEffect, Rules, Side, Square,
};
use std::collections::BTreeMap;
use support::{compile_clean, id, settings, sq};

const CHU: &str = "variants/chu.var";
const DAI: &str = "variants/dai.var";

fn kind<'a>(rules: &'a Rules, abbrev: &str) -> &'a PieceKind {
    rules.piece(id(rules, abbrev))
}

/// The piece of `side` on `square` at the start, by abbreviation.
fn at(rules: &Rules, side: Side, square: &str) -> Option<String> {
    rules
        .setup
        .iter()
        .find(|p| p.side == side && p.square == sq(square))
        .map(|p| rules.piece(p.piece).abbrev.clone())
}

/// The directions of the piece tables below, in order: F FL FR L R B BL BR.
const DIRECTIONS: [(i8, i8); 8] = [(0, 1), (-1, 1), (1, 1), (-1, 0), (1, 0), (0, -1), (-1, -1), (1, -1)];

/// A piece's moves as the tables below write them, one code per direction: `1` step, `≤2`
/// up to two squares without jumping, `∞` slide, `J2` jump to the 2nd square, `LP` lion
/// power along the line, `—` nothing; or `lion` for the full Lion move.
fn codes(kind: &PieceKind) -> String {
    assert!(
        kind.moves.iter().all(|m| m.mode() == Mode::Any),
        "{}: all moves capture too",
        kind.abbrev
    );
    if kind.moves
        == [Movement::AreaLion {
            steps: 2,
            mode: Mode::Any,
        }]
    {
        return "lion".into();
    }
    let mut used = 0;
    let mut out = Vec::new();
    for (dx, dy) in DIRECTIONS {
        let dir = Offset::new(dx, dy);
        let mut parts = Vec::new();
        for m in &kind.moves {
            let code = match *m {
                Movement::Ride {
                    dir: d, max: Some(1), ..
                } if d == dir => "1".to_string(),
                Movement::Ride {
                    dir: d, max: Some(n), ..
                } if d == dir => format!("≤{n}"),
                Movement::Ride { dir: d, max: None, .. } if d == dir => "∞".to_string(),
                Movement::Leap { to, .. } if to == dir.scale(2) => "J2".to_string(),
                Movement::LineLion { dir: d, steps: 2, .. } if d == dir => "LP".to_string(),
                // Along another line, or a kind the codes do not name ("+ other moves" below).
                Movement::Ride { .. }
                | Movement::Leap { .. }
                | Movement::LineLion { .. }
                | Movement::AreaLion { .. }
                | Movement::Hook { .. }
                | Movement::Anywhere { .. }
                | Movement::Area { .. }
                | Movement::RangeJump { .. }
                | Movement::Igui { .. }
                | Movement::RangeCapture { .. }
                | Movement::Passing { .. }
                | Movement::Hop { .. } => continue,
            };
            used += 1;
            parts.push(code);
        }
        out.push(if parts.is_empty() {
            "—".to_string()
        } else {
            parts.join("+")
        });
    }
    let mut text = out.join(" ");
    if used != kind.moves.len() {
        text.push_str(" + other moves");
    }
    text
}

/// Chu's pieces, as SV's Chu.dat and lishogi give them: abbreviation, what it promotes to,
/// and its moves F FL FR L R B BL BR (the name in the comment). A promoted piece that moves
/// "as" another is written out as that piece's moves.
const CHU_PIECES: &[(&str, &str, &str)] = &[
    ("K", "", "1 1 1 1 1 1 1 1"),         // King
    ("DE", "+DE", "1 1 1 1 1 — 1 1"),     // Drunk Elephant
    ("G", "+G", "1 1 1 1 1 1 — —"),       // Gold General
    ("S", "+S", "1 1 1 — — — 1 1"),       // Silver General
    ("C", "+C", "1 1 1 — — 1 — —"),       // Copper General
    ("FL", "+FL", "1 1 1 — — 1 1 1"),     // Ferocious Leopard
    ("BT", "+BT", "— 1 1 1 1 1 1 1"),     // Blind Tiger
    ("Ky", "+Ky", "J2 1 1 J2 J2 J2 1 1"), // Kylin
    ("Ph", "+Ph", "1 J2 J2 1 1 1 J2 J2"), // Phoenix
    ("L", "+L", "∞ — — — — — — —"),       // Lance
    ("RC", "+RC", "∞ — — — — ∞ — —"),     // Reverse Chariot
    ("SM", "+SM", "1 — — ∞ ∞ 1 — —"),     // Side Mover
    ("VM", "+VM", "∞ — — 1 1 ∞ — —"),     // Vertical Mover
    ("B", "+B", "— ∞ ∞ — — — ∞ ∞"),       // Bishop
    ("R", "+R", "∞ — — ∞ ∞ ∞ — —"),       // Rook
    ("DH", "+DH", "1 ∞ ∞ 1 1 1 ∞ ∞"),     // Dragon Horse
    ("DK", "+DK", "∞ 1 1 ∞ ∞ ∞ 1 1"),     // Dragon King
    ("FK", "", "∞ ∞ ∞ ∞ ∞ ∞ ∞ ∞"),        // Free King
    ("Ln", "", "lion"),                   // Lion
    ("P", "+P", "1 — — — — — — —"),       // Pawn
    ("GB", "+GB", "1 — — — — 1 — —"),     // Go-Between
    // Promoted.
    ("+DE", "", "1 1 1 1 1 1 1 1"),   // Crown Prince
    ("+BT", "", "∞ 1 1 1 1 ∞ 1 1"),   // Flying Stag
    ("+RC", "", "∞ — — — — ∞ ∞ ∞"),   // Whale
    ("+L", "", "∞ ∞ ∞ — — ∞ — —"),    // White Horse
    ("+SM", "", "— ∞ ∞ ∞ ∞ — ∞ ∞"),   // Free Boar
    ("+VM", "", "∞ ∞ ∞ — — ∞ ∞ ∞"),   // Flying Ox
    ("+DH", "", "LP ∞ ∞ ∞ ∞ ∞ ∞ ∞"),  // Horned Falcon
    ("+DK", "", "∞ LP LP ∞ ∞ ∞ ∞ ∞"), // Soaring Eagle
    ("+Ky", "", "lion"),              // Lion
    ("+Ph", "", "∞ ∞ ∞ ∞ ∞ ∞ ∞ ∞"),   // Free King
    ("+R", "", "∞ 1 1 ∞ ∞ ∞ 1 1"),    // Dragon King
    ("+B", "", "1 ∞ ∞ 1 1 1 ∞ ∞"),    // Dragon Horse
    ("+G", "", "∞ — — ∞ ∞ ∞ — —"),    // Rook
    ("+S", "", "∞ — — 1 1 ∞ — —"),    // Vertical Mover
    ("+C", "", "1 — — ∞ ∞ 1 — —"),    // Side Mover
    ("+FL", "", "— ∞ ∞ — — — ∞ ∞"),   // Bishop
    ("+GB", "", "1 1 1 1 1 — 1 1"),   // Drunk Elephant
    ("+P", "", "1 1 1 1 1 1 — —"),    // Tokin
];

/// Dai's own pieces, as SV's Dai.dat gives them, each promoting to a Gold General.
/// The Knight's leaps are checked on their own.
const DAI_PIECES: &[(&str, &str, &str)] = &[
    ("VO", "+VO", "≤2 — — ≤2 ≤2 ≤2 — —"),         // Violent Ox
    ("FD", "+FD", "— ≤2 ≤2 — — — ≤2 ≤2"),         // Flying Dragon
    ("AB", "+AB", "1 — — 1 1 1 — —"),             // Angry Boar
    ("CSw", "+CSw", "— 1 1 — — — 1 1"),           // Cat Sword
    ("EW", "+EW", "1 1 1 1 1 — — —"),             // Evil Wolf
    ("I", "+I", "1 1 1 — — — — —"),               // Iron General
    ("St", "+St", "— 1 1 — — — — —"),             // Stone General
    ("N", "+N", "— — — — — — — — + other moves"), // Knight
];

const DAI_PROMOTED: &[&str] = &["+VO", "+FD", "+AB", "+CSw", "+EW", "+I", "+St", "+N"];

fn check_table(rules: &Rules, table: &[(&str, &str, &str)]) {
    for &(abbrev, promotes, moves) in table {
        let piece = kind(rules, abbrev);
        let to = piece.promotion.to.map(|t| rules.piece(t).abbrev.as_str());
        assert_eq!(to.unwrap_or(""), promotes, "{abbrev} promotes to");
        assert_eq!(codes(piece), moves, "{abbrev} moves");
        assert!(piece.value > 0 || abbrev == "K", "{abbrev} has a value");
    }
}

// ---------------------------------------------------------------- clean checks

#[test]
fn both_files_check_without_errors_or_warnings() {
    for path in [CHU, DAI] {
        let compiled = compile_named(path, &[]);
        let errors = compiled.report.errors().count();
        let warnings = compiled.report.warnings().count();
        assert_eq!((errors, warnings), (0, 0), "{path}:\n{}", compiled.report.render(false));
        assert!(compiled.rules.is_some());
    }
}

// ---------------------------------------------------------------- pieces

#[test]
fn chu_has_21_initial_kinds_and_18_promoted_kinds() {
    let rules = compile_clean(CHU, &[]);
    assert_eq!(rules.pieces.len(), CHU_PIECES.len());
    assert_eq!(rules.pieces.len(), 39);
    let in_setup: std::collections::BTreeSet<PieceId> = rules.setup.iter().map(|p| p.piece).collect();
    assert_eq!(in_setup.len(), 21);
    let promoted: Vec<&str> = rules
        .pieces
        .iter()
        .filter(|p| p.promotion.reverts_to.is_some())
        .map(|p| p.abbrev.as_str())
        .collect();
    assert_eq!(promoted.len(), 18, "{promoted:?}");
    for p in &rules.pieces {
        let is_promoted = p.abbrev.starts_with('+');
        assert_eq!(p.promotion.reverts_to.is_some(), is_promoted, "{}", p.abbrev);
        if is_promoted {
            assert_eq!(p.promotion.to, None, "{} promotes again", p.abbrev);
            assert!(!in_setup.contains(&id(&rules, &p.abbrev)));
            let base = rules.piece(p.promotion.reverts_to.unwrap());
            assert_eq!(format!("+{}", base.abbrev), p.abbrev);
        } else {
            assert!(in_setup.contains(&id(&rules, &p.abbrev)), "{} in the setup", p.abbrev);
            // Everything but the King, Lion and Free King promotes (SV's Chu.rul).
            let promotes = !["K", "Ln", "FK"].contains(&p.abbrev.as_str());
            assert_eq!(p.promotion.to.is_some(), promotes, "{}", p.abbrev);
        }
    }
}

#[test]
fn chu_pieces_move_as_the_piece_tables_say() {
    let rules = compile_clean(CHU, &[]);
    check_table(&rules, CHU_PIECES);
}

#[test]
fn chu_royals_and_values() {
    let rules = compile_clean(CHU, &[]);
    let royals: Vec<&str> = rules
        .pieces
        .iter()
        .filter(|p| p.royal)
        .map(|p| p.abbrev.as_str())
        .collect();
    assert_eq!(royals, ["K", "+DE"]);
    // A few sanity relations for the computer player.
    let value = |a: &str| kind(&rules, a).value;
    assert!(value("Ln") > value("FK") && value("FK") > value("DK") && value("DK") > value("R"));
    assert!(value("+DK") > value("+DH") && value("+DH") > value("DK"));
    assert_eq!(value("+Ky"), value("Ln"));
    assert!(value("P") < value("GB") && value("GB") < value("S"));
}

// ---------------------------------------------------------------- setup

/// The board part of an SFEN of the start position, in the pieces' letters.
fn sfen_board(rules: &Rules) -> String {
    let mut ranks = Vec::new();
    for rank in 1..=rules.board.ranks {
        let mut row = String::new();
        let mut empty = 0;
        for file in (1..=rules.board.files).rev() {
            let here = rules.setup.iter().find(|p| p.square == Square::new(file, rank));
            match here {
                None => empty += 1,
                Some(p) => {
                    if empty > 0 {
                        row.push_str(&empty.to_string());
                        empty = 0;
                    }
                    let letter = rules.piece(p.piece).sfen.clone().unwrap();
                    row.push_str(&match p.side {
                        Side::Black => letter.to_uppercase(),
                        Side::White => letter,
                    });
                }
            }
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
        }
        ranks.push(row);
    }
    ranks.join("/")
}

fn check_rotation(rules: &Rules, per_side: usize) {
    let black: Vec<_> = rules.setup.iter().filter(|p| p.side == Side::Black).collect();
    let white: Vec<_> = rules.setup.iter().filter(|p| p.side == Side::White).collect();
    assert_eq!((black.len(), white.len()), (per_side, per_side));
    for b in &black {
        let square = rules.board.rotate(b.square);
        let w = white.iter().find(|w| w.square == square);
        assert_eq!(
            w.map(|w| w.piece),
            Some(b.piece),
            "White on {square} for Black's {}",
            b.square
        );
    }
}

#[test]
fn chu_setup_is_lishogis_start_position() {
    let rules = compile_clean(CHU, &[]);
    check_rotation(&rules, 46);
    assert_eq!(
        sfen_board(&rules),
        "lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL"
    );
    // The pairs that are not mirror-symmetric, on SV's squares (Chu.dat).
    let expect = [
        (Side::Black, "7l", "K"),
        (Side::Black, "6l", "DE"),
        (Side::Black, "7k", "Ky"),
        (Side::Black, "6k", "Ph"),
        (Side::Black, "7j", "Ln"),
        (Side::Black, "6j", "FK"),
        (Side::White, "6a", "K"),
        (Side::White, "7a", "DE"),
        (Side::White, "6b", "Ky"),
        (Side::White, "7b", "Ph"),
        (Side::White, "6c", "Ln"),
        (Side::White, "7c", "FK"),
        (Side::Black, "9h", "GB"),
        (Side::Black, "4h", "GB"),
        (Side::White, "4e", "GB"),
        (Side::White, "9e", "GB"),
    ];
    for (side, square, abbrev) in expect {
        assert_eq!(at(&rules, side, square).as_deref(), Some(abbrev), "{side:?} {square}");
    }
}

/// Dai's setup for Black from SV's Dai.dat, apart from the Pawns on rank k.
const DAI_BLACK: &[(&str, &str)] = &[
    ("15o", "L"),
    ("14o", "N"),
    ("13o", "St"),
    ("12o", "I"),
    ("11o", "C"),
    ("10o", "S"),
    ("9o", "G"),
    ("8o", "K"),
    ("7o", "G"),
    ("6o", "S"),
    ("5o", "C"),
    ("4o", "I"),
    ("3o", "St"),
    ("2o", "N"),
    ("1o", "L"),
    ("15n", "RC"),
    ("13n", "CSw"),
    ("11n", "FL"),
    ("9n", "BT"),
    ("8n", "DE"),
    ("7n", "BT"),
    ("5n", "FL"),
    ("3n", "CSw"),
    ("1n", "RC"),
    ("14m", "VO"),
    ("12m", "AB"),
    ("10m", "EW"),
    ("9m", "Ky"),
    ("8m", "Ln"),
    ("7m", "Ph"),
    ("6m", "EW"),
    ("4m", "AB"),
    ("2m", "VO"),
    ("15l", "R"),
    ("14l", "FD"),
    ("13l", "SM"),
    ("12l", "VM"),
    ("11l", "B"),
    ("10l", "DH"),
    ("9l", "DK"),
    ("8l", "FK"),
    ("7l", "DK"),
    ("6l", "DH"),
    ("5l", "B"),
    ("4l", "VM"),
    ("3l", "SM"),
    ("2l", "FD"),
    ("1l", "R"),
    ("11j", "GB"),
    ("5j", "GB"),
];

#[test]
fn dai_setup_is_svs() {
    let rules = compile_clean(DAI, &[]);
    check_rotation(&rules, 65);
    let mut expected: BTreeMap<Square, String> = DAI_BLACK.iter().map(|(s, a)| (sq(s), a.to_string())).collect();
    for file in 1..=15 {
        expected.insert(Square::new(file, 11), "P".into());
    }
    let black: BTreeMap<Square, String> = rules
        .setup
        .iter()
        .filter(|p| p.side == Side::Black)
        .map(|p| (p.square, rules.piece(p.piece).abbrev.clone()))
        .collect();
    assert_eq!(black, expected);
    // 29 kinds: six single pieces, 22 pairs, 15 Pawns.
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for a in black.values() {
        *counts.entry(a.as_str()).or_default() += 1;
    }
    assert_eq!(counts.len(), 29);
    for (abbrev, count) in &counts {
        let want = match *abbrev {
            "K" | "FK" | "Ln" | "Ky" | "Ph" | "DE" => 1,
            "P" => 15,
            _ => 2,
        };
        assert_eq!(*count, want, "{abbrev}");
    }
    // The asymmetric pair, rotated: White's Kylin on 7c and Phoenix on 9c.
    assert_eq!(at(&rules, Side::White, "7c").as_deref(), Some("Ky"));
    assert_eq!(at(&rules, Side::White, "9c").as_deref(), Some("Ph"));
    assert_eq!(at(&rules, Side::White, "8a").as_deref(), Some("K"));
    assert_eq!(at(&rules, Side::White, "5f").as_deref(), Some("GB"));
    assert_eq!(at(&rules, Side::White, "11f").as_deref(), Some("GB"));
}

#[test]
fn handicaps_remove_whites_pieces_named() {
    for (path, lion, free_king) in [(CHU, "6c", "7c"), (DAI, "8c", "8d")] {
        let rules = compile_clean(path, &[]);
        let names: Vec<&str> = rules.handicaps.iter().map(|h| h.name.as_str()).collect();
        assert_eq!(names, ["Lion", "Free King", "Lion and Free King"], "{path}");
        assert_eq!(at(&rules, Side::White, lion).as_deref(), Some("Ln"), "{path}");
        assert_eq!(at(&rules, Side::White, free_king).as_deref(), Some("FK"), "{path}");
        assert_eq!(rules.handicaps[0].squares, [sq(lion)]);
        assert_eq!(rules.handicaps[1].squares, [sq(free_king)]);
        assert_eq!(rules.handicaps[2].squares, [sq(lion), sq(free_king)]);
    }
}

// ---------------------------------------------------------------- rules

fn zone(depth: u8, enter: bool, within: bool, leave: bool) -> PromotionTrigger {
    PromotionTrigger {
        when: PromotionEvent::Zone {
            depth,
            enter,
            within,
            leave,
            capture: false,
        },
        compulsory: false,
        compulsory_on_promoted: false,
    }
}

#[test]
fn chu_pawn_and_lance_must_promote_on_the_last_rank() {
    let rules = compile_clean(CHU, &[]);
    for p in &rules.pieces {
        // Forced promotion, derived: Pawn and Lance on the last rank.
        let forced = if ["P", "L"].contains(&p.abbrev.as_str()) { 1 } else { 0 };
        assert_eq!(p.promotion.forced_ranks, forced, "{}", p.abbrev);
        assert_eq!(
            p.promotion.declined_waits_for_last_rank,
            p.abbrev == "P",
            "{}",
            p.abbrev
        );
    }
}

#[test]
fn chu_options_compile_and_change_what_they_should() {
    let default = compile_clean(CHU, &[]);
    let names: Vec<&str> = default.options.keys().map(String::as_str).collect();
    assert_eq!(
        names,
        [
            "promotion",
            "pawn-rule",
            "royal-capture",
            "lion-protection",
            "repetition"
        ]
    );
    assert_eq!(default.end.lion_defence, LionDefence::Defended);
    let after_move = compile_clean(CHU, &["lion-protection=after-move"]);
    assert_eq!(after_move.end.lion_defence, LionDefence::AfterMove);
    assert!(after_move.end.lion_trading, "the rule itself stays");
    for option in default.options.values() {
        assert_eq!(option.chosen, option.values[0]);
    }

    let renmei = compile_clean(CHU, &["promotion=renmei"]);
    assert_eq!(renmei.options["promotion"].chosen, "renmei");
    let mut renmei_zone = zone(4, true, false, false);
    if let PromotionEvent::Zone { capture, .. } = &mut renmei_zone.when {
        *capture = true;
    }
    assert_eq!(
        renmei.promotion,
        [renmei_zone],
        "on entering, or on a capture touching the zone"
    );
    assert!(!renmei.deferral);
    // A Pawn or Lance on the last rank may promote or decline: no forced promotion.
    let mut same = renmei.clone();
    for abbrev in ["P", "L"] {
        let promotion = &kind(&renmei, abbrev).promotion;
        assert!(promotion.last_rank_optional, "{abbrev}");
        assert_eq!(promotion.forced_ranks, 0, "{abbrev}");
        let index = id(&renmei, abbrev).index();
        same.pieces[index].promotion = default.pieces[index].promotion.clone();
    }
    assert!(
        !renmei
            .pieces
            .iter()
            .any(|p| p.promotion.last_rank_optional && !["P", "L"].contains(&p.abbrev.as_str())),
        "only the Pawn and Lance"
    );
    same.options = default.options.clone();
    same.promotion = default.promotion.clone();
    same.deferral = default.deferral;
    assert_eq!(same, default, "only promotion changes");

    let pawn = compile_clean(CHU, &["pawn-rule=none"]);
    assert!(!kind(&pawn, "P").promotion.declined_waits_for_last_rank);
    assert!(kind(&default, "P").promotion.declined_waits_for_last_rank);
    let mut same = pawn.clone();
    same.options = default.options.clone();
    same.pieces[id(&pawn, "P").index()]
        .promotion
        .declined_waits_for_last_rank = true;
    assert_eq!(same, default, "only the pawn rule changes");

    let capture = compile_clean(CHU, &["royal-capture=allowed"]);
    assert!(capture.end.royal_capture_allowed);
    let mut same = capture.clone();
    same.options = default.options.clone();
    same.end.royal_capture_allowed = false;
    assert_eq!(same, default, "only royal safety changes");

    let all = compile_clean(CHU, &["promotion=renmei", "pawn-rule=none", "royal-capture=allowed"]);
    assert!(!all.deferral && all.end.royal_capture_allowed);

    let bad = compile_named(
        CHU,
        &[Choice {
            name: "promotion".into(),
            value: "hodges".into(),
        }],
    );
    assert!(bad.rules.is_none());
    assert!(bad.report.diagnostics.iter().any(|d| d.severity == Severity::Error));
}

// ---------------------------------------------------------------- Dai

#[test]
fn dai_has_29_initial_kinds_and_its_own_pieces() {
    let rules = compile_clean(DAI, &[]);
    let in_setup: std::collections::BTreeSet<PieceId> = rules.setup.iter().map(|p| p.piece).collect();
    assert_eq!(in_setup.len(), 29);
    // Chu's 39 kinds, Dai's 8 and their 8 promoted Golds.
    assert_eq!(rules.pieces.len(), 39 + 8 + 8);
    check_table(&rules, DAI_PIECES);
    let knight = &kind(&rules, "N").moves;
    assert_eq!(
        knight,
        &[
            Movement::Leap {
                to: Offset::new(-1, 2),
                mode: Mode::Any,
                from_last_rank: false,
            },
            Movement::Leap {
                to: Offset::new(1, 2),
                mode: Mode::Any,
                from_last_rank: false,
            },
        ]
    );
    let gold = kind(&rules, "G").moves.clone();
    for abbrev in DAI_PROMOTED {
        let p = kind(&rules, abbrev);
        assert_eq!(p.moves, gold, "{abbrev}");
        assert_eq!(p.promotion.to, None, "{abbrev}");
        assert!(p.promotion.reverts_to.is_some(), "{abbrev}");
    }
    for p in &rules.pieces {
        let forced = match p.abbrev.as_str() {
            "N" => 2,
            "P" | "L" | "I" | "St" => 1,
            _ => 0,
        };
        assert_eq!(p.promotion.forced_ranks, forced, "{}", p.abbrev);
    }
    // The Chu pieces keep Chu's tables.
    check_table(&rules, CHU_PIECES);
}

#[test]
fn dai_reuses_chus_pieces() {
    // dai.var defines only Dai's own 16 kinds and uses Chu's.
    let text = std::fs::read_to_string(DAI).unwrap();
    let (file, errors) = koma::parse::parse(&text);
    assert!(errors.is_empty());
    let mut defined = Vec::new();
    let mut uses = Vec::new();
    for statement in &file.statements {
        match &statement.node {
            koma::parse::ast::Statement::Piece(decl) => defined.push(decl.abbrev.node.clone()),
            koma::parse::ast::Statement::Use { source, pieces } => {
                assert!(pieces.is_empty(), "all of Chu's pieces");
                uses.push(source.node.clone());
            }
            _ => {}
        }
    }
    assert_eq!(uses, ["chu"]);
    let mut own: Vec<&str> = DAI_PIECES.iter().map(|p| p.0).collect();
    own.extend(DAI_PROMOTED);
    assert_eq!(defined, own);

    // The pieces come out as Chu's, but without Chu's Lion-trading roles and pawn rule.
    let chu = compile_clean(CHU, &[]);
    let dai = compile_clean(DAI, &[]);
    for chu_piece in &chu.pieces {
        let mut expected = chu_piece.clone();
        expected.lion = LionRole::NotLion;
        expected.promotion.declined_waits_for_last_rank = false;
        let mut actual = kind(&dai, &chu_piece.abbrev).clone();
        // Compare promotions by abbreviation: ids are per variant.
        let name = |rules: &Rules, id: Option<PieceId>| id.map(|i| rules.piece(i).abbrev.clone());
        assert_eq!(
            name(&dai, actual.promotion.to),
            name(&chu, expected.promotion.to),
            "{}",
            chu_piece.abbrev
        );
        assert_eq!(
            name(&dai, actual.promotion.reverts_to),
            name(&chu, expected.promotion.reverts_to),
            "{}",
            chu_piece.abbrev
        );
        actual.promotion.to = None;
        actual.promotion.reverts_to = None;
        expected.promotion.to = None;
        expected.promotion.reverts_to = None;
        assert_eq!(actual, expected, "{}", chu_piece.abbrev);
    }
    // Compendium 1.6 #7: a promoted Silver or Copper is Chu's non-promoting +S / +C.
    assert_eq!(kind(&dai, "S").promotion.to, Some(id(&dai, "+S")));
    assert_eq!(kind(&dai, "C").promotion.to, Some(id(&dai, "+C")));
    assert_eq!(kind(&dai, "+S").promotion.to, None);
    assert_eq!(kind(&dai, "+C").promotion.to, None);
}

#[test]
fn dai_royals_are_king_and_crown_prince() {
    let rules = compile_clean(DAI, &[]);
    let royals: Vec<&str> = rules
        .pieces
        .iter()
        .filter(|p| p.royal)
        .map(|p| p.abbrev.as_str())
        .collect();
    assert_eq!(royals, ["K", "+DE"]);
}

#[test]
fn dai_options_compile_and_change_what_they_should() {
    let default = compile_clean(DAI, &[]);

    let entry = compile_clean(DAI, &["promotion=entry"]);
    let mut on_entry_or_capture = zone(5, true, false, false);
    on_entry_or_capture.when = PromotionEvent::Zone {
        depth: 5,
        enter: true,
        within: false,
        leave: false,
        capture: true,
    };
    assert_eq!(entry.promotion, [on_entry_or_capture]);
    let mut same = entry.clone();
    same.options = default.options.clone();
    same.promotion = default.promotion.clone();
    assert_eq!(same, default, "only promotion changes");

    let capture = compile_clean(DAI, &["royal-capture=allowed"]);
    assert!(capture.end.royal_capture_allowed);
    let mut same = capture.clone();
    same.options = default.options.clone();
    same.end.royal_capture_allowed = false;
    assert_eq!(same, default, "only royal safety changes");

    // Chu's options do not come with its pieces.
    let chu_option = compile_named(
        DAI,
        &[Choice {
            name: "pawn-rule".into(),
            value: "none".into(),
        }],
    );
    assert!(chu_option.rules.is_none());
}

// ---------------------------------------------------------------- repetition (Chu, Dai, Sho)

/// The repetition option of the games HaChu plays: lishogi's fourfold rule by default, or
/// HaChu's (no move may repeat an earlier position); nothing else changes.
#[test]
fn repetition_option_is_lishogis_fourfold_or_hachus_forbidden() {
    for file in [CHU, DAI, "variants/sho.var"] {
        let default = compile_clean(file, &[]);
        let fourfold = Repetition {
            count: 4,
            effect: RepetitionEffect::Draw,
            perpetual_check_loses: true,
        };
        assert_eq!(default.end.repetition, Some(fourfold), "{file}");
        let forbidden = compile_clean(file, &["repetition=forbidden"]);
        let any_repeat = Repetition {
            count: 2,
            effect: RepetitionEffect::Illegal,
            perpetual_check_loses: false,
        };
        assert_eq!(forbidden.end.repetition, Some(any_repeat), "{file}");
        let mut same = forbidden.clone();
        same.options = default.options.clone();
        same.end.repetition = default.end.repetition.clone();
        assert_eq!(same, default, "{file}: only the repetition rule changes");
        let bad = compile_named(
            file,
            &[Choice {
                name: "repetition".into(),
                value: "threefold".into(),
            }],
        );
        assert!(bad.rules.is_none(), "{file}");
    }
}

// ---------------------------------------------------------------- snapshots

#[test]
fn ron_snapshots() {
    let chu = compile_clean(CHU, &[]);
    settings().bind(|| insta::assert_snapshot!("ron_chu", chu.to_ron()));
    let dai = compile_clean(DAI, &[]);
    settings().bind(|| insta::assert_snapshot!("ron_dai", dai.to_ron()));
}
