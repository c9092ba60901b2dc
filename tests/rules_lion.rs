//! Rule tests: the Lion and lion power (Chu, Dai), one test per rule of the rule texts
//! (SV's Chu.rul, "THE LION", and Dai.rul; sources in docs/sources.md), each on a
//! hand-built position with the exact moves the rule allows.
//!
//! Moves are written as koma writes them: a Lion move that captures before its destination
//! lists the squares captured on (`3g3h2i` is SV's `Lnx3hx2i`, `8c9d8c` is igui `Lnx!9d`), a
//! pass is the start square twice.

mod support;

use koma::game::{Illegal, LionCounting};
use koma::notation::{read_sfen, write_sfen};
use koma::rules::Side;
use support::*;

/// Every square within king distance 2 of (file, rank), named, except the square itself.
fn lion_squares(from: &str, file: i32, rank: i32) -> Vec<String> {
    let mut out = Vec::new();
    for df in -2..=2 {
        for dr in -2..=2 {
            if (df, dr) != (0, 0) {
                let r = (b'a' + (rank + dr - 1) as u8) as char;
                out.push(format!("{from}{}{r}", file + df));
            }
        }
    }
    out
}

/// Chu, a lone Lion on 7f (Kings in the corners).
const LONE_LION: &str = "k11/12/12/12/12/5N6/12/12/12/12/12/11K b - 1";

/// A Lion moves "directly to any 'A' or 'B' square", or passes: on an open board that is
/// 24 distinct moves and one pass (koma counts distinct moves; lishogi counts 88 paths).
#[test]
fn lone_lion_has_24_moves_and_a_pass() {
    let pos = position("chu", &[], LONE_LION);
    let mut expected = lion_squares("7f", 7, 6);
    expected.push("7f7f".into());
    expected.sort();
    assert_eq!(legal_from(&pos, "7f"), expected);
    assert_eq!(expected.len(), 25);
    let mut paths = Vec::new();
    pos.legal_moves_into(&mut paths, LionCounting::Paths);
    let from = pos.geometry().index(sq("7f"));
    assert_eq!(paths.iter().filter(|m| m.from == Some(from)).count(), 88);
}

/// The Lion jumps to its 'B' squares over pieces; with no empty adjacent square it cannot
/// pass ("Move to an adjacent square and return").
#[test]
fn lion_jumps_to_b_squares_and_needs_an_empty_square_to_pass() {
    // Black Golds on all eight 'A' squares.
    let sfen = "k11/12/12/12/4GGG5/4GNG5/4GGG5/12/12/12/12/11K b - 1";
    let pos = position("chu", &[], sfen);
    assert_eq!(
        legal_from(&pos, "7f"),
        list(&[
            "7f9d", "7f8d", "7f7d", "7f6d", "7f5d", "7f9e", "7f5e", "7f9f", "7f5f", "7f9g", "7f5g", "7f9h", "7f8h",
            "7f7h", "7f6h", "7f5h",
        ])
    );
    assert_eq!(check(&pos, "7f7f"), Err(Illegal::NotAMove));
}

/// "Capture a piece on an 'A' square and continue moving one more square in any direction
/// from the point of capture", or come back (igui); an enemy-occupied 'A' square is no way to
/// pass.
#[test]
fn lion_captures_on_an_a_square_then_steps_again() {
    // Black Golds on seven 'A' squares, a White Gold on 7e.
    let sfen = "k11/12/12/12/4GgG5/4GNG5/4GGG5/12/12/12/12/11K b - 1";
    let pos = position("chu", &[], sfen);
    assert_eq!(
        legal_from(&pos, "7f"),
        list(&[
            "7f9d", "7f8d", "7f7d", "7f6d", "7f5d", "7f9e", "7f5e", "7f9f", "7f5f", "7f9g", "7f5g", "7f9h", "7f8h",
            "7f7h", "7f6h", "7f5h", // the 'B' squares
            "7f7e", "7f7e7f", // capture, igui
            "7f7e8d", "7f7e7d", "7f7e6d", // capture and step on
        ])
    );

    // On an open board: the 24 squares, the pass, and from the captured 7e the eight
    // squares around it (igui included), each a move of its own.
    let sfen = "k11/12/12/12/5p6/5N6/12/12/12/12/12/11K b - 1";
    let pos = position("chu", &[], sfen);
    let moves = legal_from(&pos, "7f");
    assert_eq!(moves.len(), 24 + 1 + 8, "{moves:?}");
    for m in [
        "7f7e8d", "7f7e7d", "7f7e6d", "7f7e8e", "7f7e6e", "7f7e8f", "7f7e6f", "7f7e7f", "7f8e", "7f7f",
    ] {
        assert!(moves.contains(&m.to_string()), "{m} in {moves:?}");
    }
}

/// "a Lion on 3g, capturing a piece on 3h and then capturing another on 2i, would be
/// represented by Lnx3hx2i": both pieces go.
#[test]
fn lion_double_capture() {
    let sfen = "k11/12/12/12/12/12/9N2/9p2/10p1/12/12/K11 b - 1";
    let mut pos = position("chu", &[], sfen);
    assert!(is_legal(&pos, "3g3h2i"));
    assert!(is_legal(&pos, "3g2i"));
    let mut after = pos.clone();
    play(&mut after, "3g3h2i");
    assert_eq!(piece_at(&after, "3h"), None);
    assert_eq!(piece_at(&after, "2i"), Some((Side::Black, "Ln".into())));
    assert_eq!(piece_at(&after, "3g"), None);
    // The jump to 2i takes only the piece there.
    play(&mut pos, "3g2i");
    assert_eq!(piece_at(&pos, "3h"), Some((Side::White, "P".into())));
}

/// Igui: "a Lion on 8c capturing a piece on 9d would be shown as Lnx!9d": the Lion does not move.
#[test]
fn lion_igui_captures_without_moving() {
    let sfen = "11k/12/4N7/3p8/12/12/12/12/12/12/12/11K b - 1";
    let mut pos = position("chu", &[], sfen);
    play(&mut pos, "8c9d8c");
    assert_eq!(piece_at(&pos, "8c"), Some((Side::Black, "Ln".into())));
    assert_eq!(piece_at(&pos, "9d"), None);
    assert_eq!(pos.side_to_move(), Side::White);
}

/// A pass ("move to an adjacent square and return") leaves the board as it was, the other
/// side to move.
#[test]
fn lion_pass_changes_only_the_side_to_move() {
    let mut pos = position("chu", &[], LONE_LION);
    play(&mut pos, "7f7f");
    assert_eq!(write_sfen(&pos), "k11/12/12/12/12/5N6/12/12/12/12/12/11K w - 2");
}

// ------------------------------------------------------------------ lion-trading rule 1

/// "A Lion may capture an opposing Lion on a 'B' square, only if it also made a capture on an
/// 'A' square (unless the captured piece was a 'Pawn' or 'Go-Between'), or if the opposing
/// Lion is undefended." Here: protected (White Gold 7c behind the Lion on 7d), no bridge.
#[test]
fn lion_may_not_take_a_protected_lion_two_squares_away() {
    let sfen = "k11/12/5g6/5n6/12/5N6/12/12/12/12/12/11K b - 1";
    let pos = position("chu", &[], sfen);
    assert_eq!(check(&pos, "7f7d"), Err(Illegal::ProtectedLion));
    assert!(!legal_from(&pos, "7f").contains(&"7f7d".to_string()));
    // The promoted Kylin counts as a Lion, as the capturer and as the target.
    let sfen = "k11/12/5g6/5+o6/12/5N6/12/12/12/12/12/11K b - 1";
    let pos = position("chu", &[], sfen);
    assert_eq!(check(&pos, "7f7d"), Err(Illegal::ProtectedLion));
    let sfen = "k11/12/5g6/5n6/12/5+O6/12/12/12/12/12/11K b - 1";
    let pos = position("chu", &[], sfen);
    assert_eq!(check(&pos, "7f7d"), Err(Illegal::ProtectedLion));
}

/// Rule 1: an undefended Lion two squares away may be taken (also after a Pawn bridge).
#[test]
fn lion_may_take_an_unprotected_lion_two_squares_away() {
    let sfen = "k11/12/12/5n6/12/5N6/12/12/12/12/12/11K b - 1";
    let pos = position("chu", &[], sfen);
    assert_eq!(check(&pos, "7f7d"), Ok(()));
    let sfen = "k11/12/12/5n6/5p6/5N6/12/12/12/12/12/11K b - 1";
    let pos = position("chu", &[], sfen);
    assert_eq!(check(&pos, "7f7e7d"), Ok(()));
}

/// Rule 1: a Lion defended through the square the capturing Lion leaves (a White Rook on 7h
/// behind the Black Lion on 7f) is defended: the Rook could recapture.
#[test]
fn lion_defended_through_the_capturers_square_is_protected() {
    let sfen = "k11/12/12/5n6/12/5N6/12/5r6/12/12/12/11K b - 1";
    let pos = position("chu", &[], sfen);
    assert_eq!(check(&pos, "7f7d"), Err(Illegal::ProtectedLion));
}

/// Rule 1 is about 'B' squares: an adjacent Lion may be taken even when protected, also by igui.
#[test]
fn lion_may_take_an_adjacent_protected_lion() {
    let sfen = "k11/12/12/5g6/5n6/5N6/12/12/12/12/12/11K b - 1";
    let pos = position("chu", &[], sfen);
    assert_eq!(check(&pos, "7f7e"), Ok(()));
    assert_eq!(check(&pos, "7f7e7f"), Ok(()));
}

/// Rule 1: a capture on an 'A' square first (a "bridge") allows the protected Lion behind.
#[test]
fn lion_may_take_a_protected_lion_after_a_bridge_capture() {
    // White Lion 7d protected by the Gold on 7c; White Gold 7e and Silver 8e in between.
    let sfen = "k11/12/5g6/5n6/4sg6/5N6/12/12/12/12/12/11K b - 1";
    let pos = position("chu", &[], sfen);
    assert_eq!(check(&pos, "7f7e7d"), Ok(()));
    assert_eq!(check(&pos, "7f8e7d"), Ok(()));
    assert_eq!(check(&pos, "7f7d"), Err(Illegal::ProtectedLion));
}

/// Rule 1: a Pawn or Go-Between taken first does not count as the bridge.
#[test]
fn lion_pawn_or_go_between_bridge_does_not_count() {
    for bridge in ["p", "i"] {
        let sfen = format!("k11/12/5g6/5n6/5{bridge}6/5N6/12/12/12/12/12/11K b - 1");
        let pos = position("chu", &[], &sfen);
        assert_eq!(check(&pos, "7f7e7d"), Err(Illegal::ProtectedLion), "{bridge}");
        // Taking the Pawn alone, or with igui, is fine.
        assert_eq!(check(&pos, "7f7e"), Ok(()), "{bridge}");
        assert_eq!(check(&pos, "7f7e7f"), Ok(()), "{bridge}");
    }
    // Promoted, they are a Gold and a Drunk Elephant: bridges like any other piece.
    for bridge in ["+p", "+i"] {
        let sfen = format!("k11/12/5g6/5n6/5{bridge}6/5N6/12/12/12/12/12/11K b - 1");
        let pos = position("chu", &[], &sfen);
        assert_eq!(check(&pos, "7f7e7d"), Ok(()), "{bridge}");
    }
}

/// Rule 1 with `lion-protection = after-move` (`defended-after-move`, HaChu's reading): a
/// Lion defended only by the Pawn taken on the way is unprotected, since nothing could
/// recapture after the move; under the Chu Shogi Renmei's reading (the default) that Pawn
/// still defends it. Black's Lion 7d is defended by its Pawn 7e; White's Lion 7f takes both.
#[test]
fn lion_defended_after_move_counts_only_the_pieces_left_to_recapture() {
    let sfen = "k11/12/12/5N6/5P6/5n6/12/12/12/12/12/11K w - 1";
    let renmei = position("chu", &[], sfen);
    assert_eq!(check(&renmei, "7f7e7d"), Err(Illegal::ProtectedLion));
    assert!(!is_legal(&renmei, "7f7e7d"));
    let mut after = position("chu", &["lion-protection=after-move"], sfen);
    assert_eq!(check(&after, "7f7e7d"), Ok(()));
    assert!(is_legal(&after, "7f7e7d"));
    let m = mv(&after, "7f7e7d");
    assert!(after.is_legal(&m), "the independent check agrees");
    // A Gold on 7c could recapture after the move: still protected.
    let sfen = "k11/12/5G6/5N6/5P6/5n6/12/12/12/12/12/11K w - 1";
    let mut after = position("chu", &["lion-protection=after-move"], sfen);
    assert_eq!(check(&after, "7f7e7d"), Err(Illegal::ProtectedLion));
    assert!(!is_legal(&after, "7f7e7d"));
    let m = mv(&after, "7f7e7d");
    assert!(!after.is_legal(&m), "the independent check agrees");
}

// ------------------------------------------------------------------ lion-trading rule 2

/// Chu, rule 2: White Lion 7e is taken by Black's Gold 7f. White has a Rook on 4b and a Lion
/// on 5g against Black's Lion on 4h.
const COUNTER_STRIKE: &str = "11k/8r3/12/5g6/5n6/5G6/7n4/8N3/12/12/12/K11 b - 1";

/// "If a player captures a Lion with a non-Lion piece, the opponent may not capture a Lion
/// except with another Lion, on his next turn."
#[test]
fn counter_strike_no_non_lion_may_take_a_lion_at_once() {
    let mut pos = position("chu", &[], COUNTER_STRIKE);
    play(&mut pos, "7f7e");
    assert_eq!(pos.lion_capture(), Some(sq("7e")));
    assert!(write_sfen(&pos).contains(" w 7e "), "{}", write_sfen(&pos));
    assert_eq!(check(&pos, "4b4h"), Err(Illegal::CounterStrike));
    // A Lion may still take a Lion; a non-Lion may take other pieces.
    assert_eq!(check(&pos, "5g4h"), Ok(()));
    assert_eq!(check(&pos, "7d7e"), Ok(()));
    // The same position read from SFEN, with the square of the Lion capture.
    let text = write_sfen(&pos);
    let again = read_sfen(pos.tables(), &text).expect("reads back");
    assert_eq!(check(&again, "4b4h"), Err(Illegal::CounterStrike));
}

/// Rule 2 holds for the next turn only.
#[test]
fn counter_strike_lasts_one_turn() {
    let mut pos = position("chu", &[], COUNTER_STRIKE);
    play(&mut pos, "7f7e");
    play(&mut pos, "1a2a");
    assert_eq!(pos.lion_capture(), None);
    play(&mut pos, "12l12k");
    assert_eq!(check(&pos, "4b4h"), Ok(()));
}

// ------------------------------------------------------------------ Dai

/// Dai: "no restrictions" on capturing Lions (SV; docs/sources.md): a Lion takes a
/// protected Lion two squares away, and a non-Lion takes a Lion right after a Lion was taken.
#[test]
fn dai_has_no_lion_trading_rules() {
    let sfen = "k14/15/15/15/7g7/7n7/15/7N7/15/15/15/15/15/15/14K b - 1";
    let pos = position("dai", &[], sfen);
    assert_eq!(check(&pos, "8h8f"), Ok(()));

    let sfen = "k14/11r3/15/15/15/7n7/7G2n4/11N3/15/15/15/15/15/15/14K b - 1";
    let mut pos = position("dai", &[], sfen);
    play(&mut pos, "8g8f");
    assert_eq!(check(&pos, "4b4h"), Ok(()));
}

// ------------------------------------------------------------------ Horned Falcon, Soaring Eagle

/// Chu: the Horned Falcon has lion power straight forward only (step, jump to the second
/// square, pass by the empty first square) and slides in the seven other directions.
#[test]
fn horned_falcon_lone_moves() {
    let sfen = "11k/12/12/12/12/5+H6/12/12/12/12/12/K11 b - 1";
    let pos = position("chu", &[], sfen);
    assert_eq!(
        legal_from(&pos, "7f"),
        list(&[
            "7f7e", "7f7d", "7f7f", // lion power forward, and the pass
            "7f7g", "7f7h", "7f7i", "7f7j", "7f7k", "7f7l", // back
            "7f8f", "7f9f", "7f10f", "7f11f", "7f12f", // left
            "7f6f", "7f5f", "7f4f", "7f3f", "7f2f", "7f1f", // right
            "7f8e", "7f9d", "7f10c", "7f11b", "7f12a", // forward-left
            "7f6e", "7f5d", "7f4c", "7f3b", "7f2a", // forward-right
            "7f8g", "7f9h", "7f10i", "7f11j", "7f12k", // back-left
            "7f6g", "7f5h", "7f4i", "7f3j", "7f2k", "7f1l", // back-right
        ])
    );
}

/// Horned Falcon: igui, double capture and the jump along its forward line, none elsewhere.
#[test]
fn horned_falcon_lion_power_forward() {
    // White Pawns on 7e, 7d (forward) and 6f (to the right).
    let sfen = "11k/12/12/5p6/5p6/5+Hp5/12/12/12/12/12/K11 b - 1";
    let mut pos = position("chu", &[], sfen);
    for m in ["7f7e", "7f7d", "7f7e7d", "7f7e7f", "7f6f"] {
        assert!(is_legal(&pos, m), "{m}");
    }
    // No pass: the first square forward is not empty.
    assert_eq!(check(&pos, "7f7f"), Err(Illegal::NotAMove));
    // Sideways it is a slider: no igui, no second step, no third square forward.
    assert_eq!(check(&pos, "7f6f7f"), Err(Illegal::NotAMove));
    assert_eq!(check(&pos, "7f6f5f"), Err(Illegal::NotAMove));
    assert_eq!(check(&pos, "7f7c"), Err(Illegal::NotAMove));
    play(&mut pos, "7f7e7d");
    assert_eq!(piece_at(&pos, "7e"), None);
    assert_eq!(piece_at(&pos, "7d"), Some((Side::Black, "+DH".into())));

    // It jumps over a piece of its own on the first square.
    let sfen = "11k/12/12/12/5P6/5+H6/12/12/12/12/12/K11 b - 1";
    let pos = position("chu", &[], sfen);
    assert!(is_legal(&pos, "7f7d"));
    assert_eq!(check(&pos, "7f7f"), Err(Illegal::NotAMove));
}

/// Chu: the Soaring Eagle has lion power along both forward diagonals and slides in the
/// other six directions.
#[test]
fn soaring_eagle_lone_moves() {
    let sfen = "11k/12/12/12/12/5+D6/12/12/12/12/12/K11 b - 1";
    let pos = position("chu", &[], sfen);
    assert_eq!(
        legal_from(&pos, "7f"),
        list(&[
            "7f8e", "7f9d", "7f6e", "7f5d", "7f7f", // lion power, and the pass
            "7f7e", "7f7d", "7f7c", "7f7b", "7f7a", // forward
            "7f7g", "7f7h", "7f7i", "7f7j", "7f7k", "7f7l", // back
            "7f8f", "7f9f", "7f10f", "7f11f", "7f12f", // left
            "7f6f", "7f5f", "7f4f", "7f3f", "7f2f", "7f1f", // right
            "7f8g", "7f9h", "7f10i", "7f11j", "7f12k", // back-left
            "7f6g", "7f5h", "7f4i", "7f3j", "7f2k", "7f1l", // back-right
        ])
    );
}

/// Soaring Eagle: igui, double capture and the jump along a forward diagonal; the second step
/// stays on the line.
#[test]
fn soaring_eagle_lion_power_forward_diagonal() {
    // White Pawns on 6e and 5d (forward-right diagonal).
    let sfen = "11k/12/12/7p4/6p5/5+D6/12/12/12/12/12/K11 b - 1";
    let mut pos = position("chu", &[], sfen);
    for m in ["7f6e", "7f5d", "7f6e5d", "7f6e7f", "7f7f"] {
        assert!(is_legal(&pos, m), "{m}");
    }
    assert_eq!(check(&pos, "7f6e6d"), Err(Illegal::NotAMove));
    assert_eq!(check(&pos, "7f6e7e"), Err(Illegal::NotAMove));
    assert_eq!(check(&pos, "7f4c"), Err(Illegal::NotAMove));
    play(&mut pos, "7f6e5d");
    assert_eq!(piece_at(&pos, "6e"), None);
    assert_eq!(piece_at(&pos, "5d"), Some((Side::Black, "+DK".into())));
}

/// Maka-Dai-Dai: "In Maka-Dai-Dai Shogi there are no restrictions on the capture of Lions".
#[test]
fn maka_has_no_lion_trading_rules() {
    // A Lion takes a protected Lion two squares away (promoting, as every capture does).
    let sfen = maka(
        &[
            ('a', "[k]18"),
            ('g', "9[g]9"),
            ('h', "9[ln]9"),
            ('j', "9[LN]9"),
            ('s', "18[K]"),
        ],
        "b",
    );
    let pos = position("maka-dai-dai", &[], &sfen);
    assert_eq!(check(&pos, "10j10h+"), Ok(()));
    // After a Gold takes a Lion, a Rook takes the other Lion at once.
    let sfen = maka(
        &[
            ('a', "[k]13[r]4"),
            ('i', "9[ln]9"),
            ('j', "9[G]9"),
            ('n', "14[LN]4"),
            ('s', "18[K]"),
        ],
        "b",
    );
    let mut pos = position("maka-dai-dai", &[], &sfen);
    play(&mut pos, "10j10i+");
    assert_eq!(check(&pos, "5a5n+"), Ok(()));
}

/// A position has one pass, however many pieces may pass: a pass changes nothing but the
/// side to move. It is written with the first piece that may pass in reading order (here the
/// Lion on 7g, before the Horned Falcon on 4g), and either piece's pass reads as it. HaChu
/// generates one pass too (tests/perft/chu.perft).
#[test]
fn one_pass_however_many_pieces_may_pass() {
    let sfen = "k11/12/12/12/12/12/5N2+H3/12/12/12/12/11K b - 1";
    let mut pos = position("chu", &[], sfen);
    let passes: Vec<String> = legal(&pos).into_iter().filter(|m| m == "7g7g").collect();
    assert_eq!(passes, ["7g7g"]);
    assert_eq!(
        legal_from(&pos, "4g").iter().filter(|m| m.starts_with("4g4g")).count(),
        0
    );
    assert_eq!(pos.legal_moves().iter().filter(|m| m.is_pass()).count(), 1);
    let pass = mv(&pos, "7g7g");
    for text in ["4g4g", "4g4f4g", "7g7g", "Ln-7f-7g", "+DH-4f-4g", "+DH-4g"] {
        assert_eq!(koma::notation::read_move(&pos, text), Ok(pass), "{text}");
    }
    assert_eq!(koma::notation::write_tsa(&pos, &pass), "Ln-7f-7g");
    // The independent check agrees: the Falcon's own pass is not a second move.
    assert!(pos.is_legal(&pass));
    assert!(!pos.is_legal(&mv(&pos, "4g4g")));
    // A record with the Falcon's pass replays it as the one pass, and is written back with it.
    let record = format!("[Variant \"chu\"]\n[SFEN \"{sfen}\"]\n\n1. +DH-4f-4g K-12b *\n");
    let record = koma::notation::parse_record(&record).expect("a record");
    let mut game = koma::variant::Variant::game_from(pos.clone());
    koma::notation::replay(&mut game, &record).expect("replays");
    assert_eq!(game.moves().next(), Some(&pass));
    let written = koma::notation::write_record(&Default::default(), &[], &game);
    assert!(written.contains("1. Ln-7f-7g K-12b"), "{written}");
}
