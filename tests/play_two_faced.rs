//! `koma play` end to end with two-faced pieces: a game of Micro Shogi (a capture turns the
//! capturer over, a drop on the other face) and one of Kyoto Shogi (every move turns the
//! piece over), typed in the rule texts' notation on standard input.

mod support;

use support::koma_play;

/// Runs `koma play ARGS` with `script` on standard input; (whether it succeeded, its output).
fn play(args: &[&str], script: &str) -> (bool, String) {
    let run = koma_play(args, script);
    (run.ok(), run.text())
}

/// The board drawn after the last move (the lines of ranks a to `last`).
fn last_board(out: &str, last: char) -> Vec<&str> {
    let lines: Vec<&str> = out.lines().collect();
    let end = lines
        .iter()
        .rposition(|l| l.trim_end().ends_with(&format!(" {last}")))
        .expect("a board");
    let start = lines[..end]
        .iter()
        .rposition(|l| l.trim_end().ends_with(" a"))
        .expect("rank a");
    lines[start..=end].to_vec()
}

#[test]
fn a_game_of_micro_shogi() {
    // The Bishop takes the Pawn on 4c and turns into a Tokin; the Pawn, in hand, is dropped
    // as a Knight; White resigns.
    let script = "B-3d\nP-4c\nBx4c+\nB-2b\nN*2c\nresign\n";
    let (ok, out) = play(&["micro", "--white", "human"], script);
    assert!(ok, "{out}");
    assert!(out.contains("Black in hand: P"), "the captured Pawn in hand: {out}");
    let board = last_board(&out, 'e');
    assert!(board[2].contains("+P"), "a Tokin on 4c: {board:?}");
    assert!(
        board[2].contains(">N"),
        "the Knight dropped on 2c, by the face it shows: {board:?}"
    );
    assert!(out.contains("Game over: White resigns (1-0)."), "{out}");
}

#[test]
fn a_game_of_kyoto_shogi() {
    // Each move turns the piece over: the Pawn becomes a Rook, and the Rook a Pawn again.
    // The flip is the rule's, not the player's: a move is typed with `+` or without.
    let script = "P-1d+\nP-5b\nR-1b\nresign\n";
    let (ok, out) = play(&["kyoto", "--white", "human"], script);
    assert!(ok, "{out}");
    // A piece is shown by the face it shows: the Tokin and the Gold of the setup as T and G.
    let start = last_board(out.split("Black> ").next().unwrap(), 'e');
    assert_eq!(
        start[4].split_whitespace().collect::<Vec<_>>(),
        ["T", "S", "K", "G", "P", "e"],
        "{start:?}"
    );
    assert!(!out.contains("must turn over"), "{out}");
    let board = last_board(&out, 'e');
    assert!(board[1].contains(">P"), "Black's Rook back to a Pawn on 1b: {board:?}");
    assert!(board[1].contains("vR"), "White's Pawn now a Rook on 5b: {board:?}");
    assert!(out.contains("Game over: White resigns (1-0)."), "{out}");
}
