//! Rule tests for two-faced pieces: Micro Shogi's flip on every capture, Kyoto Shogi's flip on
//! every move, and their drops on either face, anywhere (docs/sources.md). One test per rule,
//! each on a hand-built position with the exact moves the rule allows, and the rule a
//! forbidden move breaks. Moves are USI as koma writes them: `+` marks a piece turning over,
//! either way; `+P*3c` drops the Pawn's other face (Micro's Knight, Kyoto's Rook).

mod support;

use koma::game::Illegal;
use koma::rules::Side;
use support::*;

// ------------------------------------------------------------------ Micro: flip on capture

/// Micro: an unpromoted piece that captures turns over, always: the Pawn becomes a Knight.
#[test]
fn micro_flip_on_capture_promotes() {
    let mut pos = position("micro", &[], "k3/4/2p1/2P1/K3 b - 1");
    assert_eq!(legal_from(&pos, "2d"), list(&["2d2c+"]));
    assert_eq!(check(&pos, "2d2c"), Err(Illegal::Promotion));
    play(&mut pos, "2d2c+");
    assert_eq!(piece_at(&pos, "2c"), Some((Side::Black, "N".into())));
}

/// Micro: a promoted piece that captures turns back: the Gold (the Rook's other face)
/// becomes a Rook; its moves that capture nothing leave it a Gold.
#[test]
fn micro_flip_on_capture_turns_a_promoted_piece_back() {
    let mut pos = position("micro", &[], "k3/4/2p1/2+R1/K3 b - 1");
    assert_eq!(
        legal_from(&pos, "2d"),
        list(&["2d1c", "2d1d", "2d2c+", "2d2e", "2d3c", "2d3d"])
    );
    assert_eq!(check(&pos, "2d1d+"), Err(Illegal::Promotion));
    play(&mut pos, "2d2c+");
    assert_eq!(piece_at(&pos, "2c"), Some((Side::Black, "R".into())));
    // A Rook that captures turns into a Gold.
    let mut pos = position("micro", &[], "k3/1p2/4/1R2/K3 b - 1");
    play(&mut pos, "3d3b+");
    assert_eq!(piece_at(&pos, "3b"), Some((Side::Black, "G".into())));
}

/// Micro: the King has one face: its captures do not turn it.
#[test]
fn micro_king_never_flips() {
    let pos = position("micro", &[], "k3/4/4/3p/3K b - 1");
    assert_eq!(legal_from(&pos, "1e"), list(&["1e1d", "1e2d", "1e2e"]));
}

/// Micro: a captured piece goes to the captor's hand as its hand face, whichever face it
/// showed: a Silver (the Lance's other face) as a Lance, a Tokin as a Bishop.
#[test]
fn micro_captured_piece_goes_to_hand_as_its_hand_face() {
    let mut pos = position("micro", &[], "k3/4/1+l+b1/1RR1/K3 b - 1");
    play(&mut pos, "3d3c+");
    assert_eq!(in_hand(&pos, Side::Black, "L"), 1);
    assert_eq!(in_hand(&pos, Side::Black, "S"), 0);
    play(&mut pos, "4a3a");
    play(&mut pos, "2d2c+");
    assert_eq!(in_hand(&pos, Side::Black, "B"), 1);
    assert_eq!(in_hand(&pos, Side::Black, "+P"), 0);
}

/// Micro: a piece in hand may be dropped on either face, on any empty square, the last
/// ranks included (a Pawn or Knight left there without a move).
#[test]
fn micro_drops_either_face_anywhere() {
    let mut pos = position("micro", &[], "k3/4/4/4/K3 b P 1");
    let drops = legal_drops(&pos);
    assert_eq!(drops.len(), 2 * 18, "both faces on the 18 empty squares: {drops:?}");
    for square in ["1a", "2a", "1b", "3b"] {
        assert!(is_legal(&pos, &format!("P*{square}")), "a Pawn on {square}");
        assert!(is_legal(&pos, &format!("+P*{square}")), "a Knight on {square}");
    }
    play(&mut pos, "+P*2c");
    assert_eq!(piece_at(&pos, "2c"), Some((Side::Black, "N".into())));
    assert_eq!(in_hand(&pos, Side::Black, "P"), 0);
}

/// Micro: no limit of one Pawn per file: a second Pawn may be dropped beside the first.
#[test]
fn micro_two_pawns_on_a_file() {
    let pos = position("micro", &[], "k3/4/4/3P/K3 b P 1");
    assert!(is_legal(&pos, "P*1b"));
}

/// Micro: a Pawn drop that mates is legal.
#[test]
fn micro_pawn_drop_mate_is_legal() {
    // White's King on 1a, hemmed in by Black's Gold on 2c and Bishop on 4c; a Pawn dropped
    // on 1b, guarded by the Gold, mates.
    let mut pos = position("micro", &[], "3k/4/B1+R1/4/K3 b P 1");
    assert!(is_legal(&pos, "P*1b"));
    play(&mut pos, "P*1b");
    assert!(legal(&pos).is_empty(), "mate: {:?}", legal(&pos));
}

// ------------------------------------------------------------------ Kyoto: flip on every move

/// Kyoto: every move on the board turns the piece over, both ways; the King never turns.
/// The start position's moves are Fairy-Stockfish's `kyotoshogi` list (pyffish 0.0.90:
/// `a1a2- a1b2- b1a2+ b1b2+ b1c2+ c1b2 c1c2 c1d2 d1c2- d1d2- d1e2- e1e2+`, file a = 5,
/// rank 1 = e), `+` and `-` both written `+`.
#[test]
fn kyoto_flip_on_every_move() {
    let mut pos = position("kyoto", &[], "p+nks+l/5/5/5/+LSK+NP b - 1");
    assert_eq!(
        legal(&pos),
        list(&[
            "5e5d+", "5e4d+", "4e5d+", "4e4d+", "4e3d+", "3e4d", "3e3d", "3e2d", "2e3d+", "2e2d+", "2e1d+", "1e1d+",
        ])
    );
    assert_eq!(check(&pos, "1e1d"), Err(Illegal::Promotion));
    play(&mut pos, "1e1d+");
    assert_eq!(piece_at(&pos, "1d"), Some((Side::Black, "R".into())));
    play(&mut pos, "1a1b+");
    assert_eq!(piece_at(&pos, "1b"), Some((Side::White, "L".into())));
    // The Rook turns back into a Pawn on its next move.
    play(&mut pos, "1d1c+");
    assert_eq!(piece_at(&pos, "1c"), Some((Side::Black, "P".into())));
}

/// Kyoto: a dropped piece keeps the face it was dropped on until it moves; either face may
/// be dropped, on any empty square (a Pawn on the last rank too, where it stays).
#[test]
fn kyoto_drops_either_face_anywhere() {
    let mut pos = position("kyoto", &[], "2k2/5/5/5/2K2 b P 1");
    assert_eq!(legal_drops(&pos).len(), 2 * 23);
    assert!(is_legal(&pos, "P*1a"));
    play(&mut pos, "+P*3c");
    assert_eq!(piece_at(&pos, "3c"), Some((Side::Black, "R".into())));
    assert_eq!(in_hand(&pos, Side::Black, "P"), 0);
}

/// Kyoto: a captured piece goes to hand as its hand face: a Rook as a Pawn, a Tokin as a
/// Lance; the capture turns the capturer over as any move does.
#[test]
fn kyoto_captured_piece_goes_to_hand_as_its_hand_face() {
    let mut pos = position("kyoto", &[], "k4/5/2+p2/2S2/K4 b - 1");
    play(&mut pos, "3d3c+");
    assert_eq!(in_hand(&pos, Side::Black, "P"), 1);
    assert_eq!(in_hand(&pos, Side::Black, "R"), 0);
    assert_eq!(piece_at(&pos, "3c"), Some((Side::Black, "B".into())));
}
