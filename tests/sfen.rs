//! SFEN position strings: every shipped start position (and handicap) and every position of
//! the perft files reads, prints back as written, and reads again to the same position;
//! koma's extensions (bracketed abbreviations, `=` for Chu's waiting pawn, `!` for a
//! deferred promotion, the Lion-capture square) round-trip; and bad strings give errors that
//! name the field and the character at fault.

mod support;

use koma::game::{Move, MoveTables, Position, PositionError};
use koma::notation::{SfenError, read_sfen, read_usi, write_sfen};
use koma::rules::Square;
use std::collections::HashSet;
use std::sync::Arc;
use support::tables;

fn legal_set(pos: &mut Position) -> HashSet<Move> {
    pos.legal_moves().into_iter().collect()
}

/// Reads `text`, checks it prints back as `text`, and that the printed string reads to the
/// same position (SFEN, hash, legal moves).
fn round_trip(t: &Arc<MoveTables>, text: &str) -> Position {
    let mut pos = read_sfen(t, text).unwrap_or_else(|e| panic!("{text}: {e}"));
    let printed = write_sfen(&pos);
    assert_eq!(printed, text, "prints back as written");
    assert_same(&mut pos, t);
    pos
}

/// The position's SFEN reads back to the same position.
fn assert_same(pos: &mut Position, t: &Arc<MoveTables>) {
    let printed = write_sfen(pos);
    let mut again = read_sfen(t, &printed).unwrap_or_else(|e| panic!("{printed}: {e}"));
    assert_eq!(write_sfen(&again), printed);
    assert_eq!(again.hash(), pos.hash(), "{printed}: same hash");
    assert_eq!(again.to_setup(), pos.to_setup(), "{printed}: same setup");
    assert_eq!(legal_set(&mut again), legal_set(pos), "{printed}: same legal moves");
}

#[test]
fn start_positions_and_handicaps_round_trip() {
    for variant in support::shipped() {
        let t = tables(variant, &[]);
        let mut start = Position::start(t.clone());
        let text = write_sfen(&start);
        assert_same(&mut start, &t);
        round_trip(&t, &text);
        for handicap in &t.rules().handicaps {
            let mut pos = Position::handicap(t.clone(), &handicap.name).expect("declared");
            assert!(
                write_sfen(&pos).contains(" w "),
                "{variant} {}: White moves first",
                handicap.name
            );
            assert_same(&mut pos, &t);
        }
    }
}

#[test]
fn start_positions_are_the_published_strings() {
    let published = [
        (
            "shogi",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        ),
        ("yari", "rnnkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR b - 1"),
        ("tori", "rpckcpl/3f3/sssssss/2s1S2/SSSSSSS/3F3/LPCKCPR b - 1"),
        (
            "chu",
            "lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 1",
        ),
    ];
    for (variant, text) in published {
        let t = tables(variant, &[]);
        assert_eq!(write_sfen(&Position::start(t.clone())), text, "{variant}");
        round_trip(&t, text);
    }
}

#[test]
fn perft_positions_round_trip() {
    let mut checked = 0;
    for variant in support::shipped() {
        let path = format!("{}/tests/perft/{variant}.perft", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let mut options: Vec<&str> = Vec::new();
        for line in text.lines().map(str::trim) {
            if let Some(option) = line.strip_prefix("option ") {
                options.push(option);
            }
            if let Some(sfen) = line.strip_prefix("position ").filter(|&s| s != "start") {
                // Other programs list hands in other orders; koma prints Black's hand, then
                // White's, each in the order of the variant's pieces (R B G S N L P in Shogi).
                let t = tables(variant, &options);
                let mut pos = read_sfen(&t, sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"));
                let board = |text: &str| text.split(' ').next().map(str::to_string);
                assert_eq!(board(&write_sfen(&pos)), board(sfen));
                assert_same(&mut pos, &t);
                checked += 1;
            }
        }
    }
    assert!(checked >= 30, "only {checked} positions");
}

#[test]
fn extensions_round_trip() {
    let dai = tables("dai", &[]);
    // Bracketed abbreviations, promoted ones, the Lion-capture square.
    round_trip(
        &dai,
        "k14/15/15/15/3[vo]11/15/15/7+[VO]7/15/15/15/15/15/15/13[N]K b - 1",
    );
    let maka = tables("maka-dai-dai", &[]);
    round_trip(
        &maka,
        "[k]18/19/19/19/19/19/19/19/9+[HM]9/19/19/19/19/19/19/19/19/19/+[K]18 w - 12",
    );
    let chu = tables("chu", &[]);
    round_trip(&chu, "k11/12/12/6N5/12/12/6p5/12/12/12/12/11K w 6d 9");
    // Chu's waiting pawn (`=`), and a piece under deferral (`!`).
    round_trip(&chu, "k11/12/12/6P=5/12/12/12/12/12/12/12/11K w - 2");
    round_trip(&chu, "k11/12/12/6P=!5/12/12/12/12/12/12/12/11K w - 2");
    round_trip(&chu, "k11/12/12/6D!5/12/12/12/12/12/3d!8/12/11K w - 2");
}

/// Chu's deferral rule is part of the position: a Dragon King that declines on entering may
/// not promote on its next move without capturing, and the SFEN says so.
#[test]
fn deferral_is_written_and_read() {
    let t = tables("chu", &[]);
    let mut pos = read_sfen(&t, "k11/12/12/12/6D5/12/12/12/12/12/12/11K b - 1").expect("valid");
    let declines = read_usi(&pos, "6e6d").expect("legal");
    assert!(!declines.promote);
    pos.make(&declines);
    assert_eq!(write_sfen(&pos), "k11/12/12/6D!5/12/12/12/12/12/12/12/11K w - 2");
    assert_same(&mut pos, &t);
    let waits = read_usi(&pos, "12a11a").expect("legal");
    pos.make(&waits);
    assert_eq!(write_sfen(&pos), "1k10/12/12/6D!5/12/12/12/12/12/12/12/11K b - 3");
    assert_same(&mut pos, &t);
    assert!(read_usi(&pos, "6d6c+").is_err(), "deferred");
    assert!(read_usi(&pos, "6d6c").is_ok());
    // From the string alone, the same.
    let read = read_sfen(&t, "1k10/12/12/6D!5/12/12/12/12/12/12/12/11K b - 3").expect("valid");
    assert!(read_usi(&read, "6d6c+").is_err(), "deferred");
    let plain = read_sfen(&t, "1k10/12/12/6D5/12/12/12/12/12/12/12/11K b - 3").expect("valid");
    assert_ne!(plain.hash(), read.hash());
    // Its next move ends the deferral.
    let moves = read_usi(&pos, "6d6c").expect("legal");
    pos.make(&moves);
    assert_eq!(write_sfen(&pos), "1k10/12/6D5/12/12/12/12/12/12/12/12/11K w - 4");
}

/// A piece under deferral that is captured defers nothing: the position is the same as one
/// where it never declined.
#[test]
fn captured_deferred_piece_leaves_no_trace() {
    let t = tables("chu", &[]);
    let mut pos = read_sfen(&t, "k11/6r5/12/12/6D5/12/12/12/12/12/12/11K b - 1").expect("valid");
    let declines = read_usi(&pos, "6e6d").expect("legal");
    pos.make(&declines);
    let takes = read_usi(&pos, "6b6d").expect("legal");
    pos.make(&takes);
    let text = write_sfen(&pos);
    assert_eq!(text, "k11/12/12/6r5/12/12/12/12/12/12/12/11K b - 3");
    assert_eq!(read_sfen(&t, &text).expect("valid").hash(), pos.hash());
}

/// With two royals (King and Crown Prince), leaving one attacked is legal; such a position
/// reads. With one royal, it is an error (below).
#[test]
fn two_royals_one_attacked() {
    let t = tables("chu", &[]);
    round_trip(&t, "11k/12/12/12/6+e5/12/12/12/12/12/12/K5R5 b - 1");
}

fn error(variant: &str, text: &str) -> SfenError {
    let t = tables(variant, &[]);
    match read_sfen(&t, text) {
        Ok(pos) => panic!("{text} reads as {}", write_sfen(&pos)),
        Err(e) => e,
    }
}

/// Asserts the field, the character (as the offset of `culprit`'s first occurrence in
/// `text`, searched from `from`), and words of the message.
fn assert_error(variant: &str, text: &str, field: &str, culprit: &str, from: usize, words: &[&str]) {
    let e = error(variant, text);
    let at = from + text[from..].find(culprit).expect("the culprit is in the text");
    assert_eq!((e.field, e.at), (field, at), "{text}: {e:?}");
    for word in words {
        assert!(e.message.contains(word), "{text}: `{}` lacks `{word}`", e.message);
    }
}

const SHOGI_BOARD: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL";

#[test]
fn wrong_rank_count() {
    let e = error("shogi", "9/9/9 b - 1");
    assert_eq!((e.field, e.at), ("board", 0));
    assert!(
        e.message.contains("3 ranks") && e.message.contains("has 9"),
        "{}",
        e.message
    );
    let ten = format!("{SHOGI_BOARD}/9 b - 1");
    assert_eq!(error("shogi", &ten).field, "board");
}

#[test]
fn wrong_rank_length() {
    // Rank c has 8 squares; rank g has 10.
    let short = "lnsgkgsnl/1r5b1/pppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
    assert_error("shogi", short, "board", "pppppppp/", 0, &["rank c", "8 squares"]);
    let long = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
    let tenth = long.find("PPPPPPPPPP").expect("rank g") + 9;
    let e = error("shogi", long);
    assert_eq!((e.field, e.at), ("board", tenth), "{e:?}");
    assert!(e.message.contains("rank g"), "{}", e.message);
}

/// A count of empty squares past what the rank has left (`K2147483647/…`, found by the
/// `sfen` fuzz target) is refused at the count; it was subtracted first and overflowed.
#[test]
fn an_empty_square_count_past_the_rank_is_refused_at_the_count() {
    for count in ["2147483647", "2147483648", "99999999999999999999", "10"] {
        let text = format!("K{count}/9/9/9/9/9/9/9/9 b - 1");
        assert_error("shogi", &text, "board", count, 0, &["rank a", "more than 9 squares"]);
    }
}

#[test]
fn unknown_letter() {
    let text = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNX b - 1";
    assert_error("shogi", text, "board", "X", 0, &["`X`", "not a piece"]);
    // A letter of another variant, a promoted piece that does not exist, a bad bracket.
    let text = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNQ b - 1";
    assert_error("shogi", text, "board", "Q", 0, &["`Q`"]);
    let text = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSG+KGSNL b - 1";
    assert_error("shogi", text, "board", "+K", 0, &["`+K`"]);
    let dai = "k14/15/15/15/15/15/15/15/15/15/15/15/15/15/13[XX]K b - 1";
    assert_error("dai", dai, "board", "[XX]", 0, &["`[XX]`"]);
    // Mixed case in a bracket says neither side.
    let dai = "k14/15/15/15/15/15/15/15/15/15/15/15/15/15/13[Ln]K b - 1";
    assert_error("dai", dai, "board", "[Ln]", 0, &["`[Ln]`"]);
}

#[test]
fn bad_side() {
    let text = format!("{SHOGI_BOARD} x - 1");
    assert_error("shogi", &text, "side", "x", SHOGI_BOARD.len(), &["`x`"]);
    let e = error("shogi", SHOGI_BOARD);
    assert_eq!((e.field, e.at), ("side", SHOGI_BOARD.len()));
    assert!(e.message.contains("missing"));
}

#[test]
fn bad_hand_count() {
    let hand = SHOGI_BOARD.len() + 3;
    // A count without a piece is blamed where the piece should be.
    for (count, at, words) in [
        ("0P", hand, &["`0`"][..]),
        ("300P", hand, &["`300`", "1 to 255"]),
        ("3", hand + 1, &["followed by a piece"]),
    ] {
        let text = format!("{SHOGI_BOARD} b {count} 1");
        let e = error("shogi", &text);
        assert_eq!((e.field, e.at), ("hand", at), "{text}: {e:?}");
        for word in words {
            assert!(e.message.contains(word), "{text}: {}", e.message);
        }
    }
    // The second entry is at fault.
    let text = format!("{SHOGI_BOARD} b R0P 1");
    assert_error("shogi", &text, "hand", "0P", 0, &["`0`"]);
    let text = format!("{SHOGI_BOARD} b RX 1");
    assert_error("shogi", &text, "hand", "X", hand, &["`X`"]);
}

#[test]
fn too_many_pieces_of_a_kind() {
    // A 19th pawn in Black's hand: the hand entry is blamed.
    let text = format!("{SHOGI_BOARD} b 2Bp 1");
    assert_error("shogi", &text, "hand", "2B", 0, &["4 pieces of kind B", "only 2"]);
    let text = format!("{SHOGI_BOARD} b P 1");
    assert_error(
        "shogi",
        &text,
        "hand",
        "P 1",
        SHOGI_BOARD.len(),
        &["19 pieces of kind P", "only 18"],
    );
    // A third Rook on the board, as a promoted one: the last of them is blamed.
    let text = "lnsgkgsnl/1r5b1/ppppppppp/9/4+R4/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
    assert_error("shogi", text, "board", "R1/", 0, &["3 pieces of kind R", "only 2"]);
}

#[test]
fn promoted_piece_in_hand() {
    let text = format!("{SHOGI_BOARD} b R+P 1");
    assert_error("shogi", &text, "hand", "+P", 0, &["promoted", "+P"]);
}

#[test]
fn pieces_in_hand_without_drops() {
    let chu = "lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL";
    let text = format!("{chu} b P 1");
    assert_error("chu", &text, "hand", "P", chu.len(), &["`P`", "no hands"]);
    // Nor may the Lion-capture square be off the board.
    let text = format!("{chu} b 13a 1");
    assert_error("chu", &text, "hand", "13a", 0, &["`13a`"]);
}

#[test]
fn side_not_to_move_in_check() {
    // Black's Rook attacks White's King with Black to move: White moved into check.
    let text = "4k4/9/4R4/9/9/9/9/9/4K4 b - 1";
    assert_error("shogi", text, "side", "b", 0, &["capture", "royal"]);
    assert!(read_sfen(&tables("shogi", &[]), "4k4/9/4R4/9/9/9/9/9/4K4 w - 1").is_ok());
    // Chu with one royal: the same error.
    let text = "11k/12/12/12/12/12/12/12/12/12/12/K10R b - 1";
    assert_error("chu", text, "side", "b", text.find(' ').expect("fields"), &["royal"]);
    // Unless royal capture is allowed.
    let allowed = tables("chu", &["royal-capture=allowed"]);
    assert!(read_sfen(&allowed, text).is_ok());
}

#[test]
fn deferral_mark_errors() {
    // Shogi has no deferral rule.
    let text = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R!1/LNSGKGSNL b - 1";
    assert_error("shogi", text, "board", "!", 0, &["`!`", "deferral"]);
    // One piece per side at most.
    let text = "k11/12/12/5D!D!5/12/12/12/12/12/12/12/11K w - 2";
    assert_error("chu", text, "board", "!5/", 0, &["two pieces"]);
    // Only a piece that promotes, in its side's zone, can have declined on entering it.
    let text = "k11/12/12/12/12/12/12/6D!5/12/12/12/11K w - 2";
    assert_error("chu", text, "board", "D", 0, &["6h", "in its zone"]);
    let text = "k11/12/12/6+P!5/12/12/12/12/12/12/12/11K w - 2";
    assert_error("chu", text, "board", "+P", 0, &["6d", "promotes"]);
}

#[test]
fn declined_mark_errors() {
    // Only a piece under `declined-waits-for-last-rank` (Chu's Pawn) waits after declining.
    let text = "k11/12/12/6D=5/12/12/12/12/12/12/12/11K w - 2";
    assert_error(
        "chu",
        text,
        "board",
        "=",
        0,
        &["`=`", "`D`", "declined-waits-for-last-rank"],
    );
    let text = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPP=PPPPP/1B5R1/LNSGKGSNL b - 1";
    assert_error("shogi", text, "board", "=", 0, &["`P`"]);
    // Without the pawn rule, not even the Pawn.
    let t = tables("chu", &["pawn-rule=none"]);
    let e = read_sfen(&t, "k11/12/12/6P=5/12/12/12/12/12/12/12/11K w - 2").expect_err("no pawn rule");
    assert_eq!((e.field, e.at), ("board", 12), "{e:?}");
    // A setup built in code is held to the same rule.
    let setup = read_sfen(&tables("chu", &[]), "k11/12/12/6P=5/12/12/12/12/12/12/12/11K w - 2")
        .expect("valid")
        .to_setup();
    let e = Position::from_setup(t, &setup).expect_err("no pawn rule");
    assert_eq!(e, PositionError::NotUnderDeclineRule(Square::new(6, 4)));
}

#[test]
fn other_fields() {
    assert_eq!(error("shogi", "").field, "board");
    let text = format!("{SHOGI_BOARD} b - 0");
    assert_error("shogi", &text, "move number", "0", SHOGI_BOARD.len(), &["`0`"]);
    let text = format!("{SHOGI_BOARD} b - 1 extra");
    assert_error("shogi", &text, "position", "extra", 0, &["fifth field"]);
}
