//! `koma play` end to end: whole games with commands on standard input, checked by what
//! koma prints, and game records saved, loaded and replayed.

mod support;

use support::koma_play;

/// Runs `koma play ARGS` with `script` on standard input; (whether it succeeded, its output).
fn play(args: &[&str], script: &str) -> (bool, String) {
    let run = koma_play(args, script);
    (run.ok(), run.text())
}

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("koma-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary folder");
    dir.join(name)
}

#[test]
fn a_drop_that_mates_ends_the_game_with_its_reason() {
    let (ok, out) = play(
        &["shogi", "--white", "human", "--sfen", "4k4/9/4P4/9/9/9/9/9/4K4 b G 1"],
        "G*5b\n",
    );
    assert!(ok);
    assert!(out.contains("Game over: Black wins by checkmate (1-0)."), "{out}");
}

#[test]
fn bad_input_is_answered_and_the_game_goes_on() {
    let script = "foo\nP-7e\nshow 99z\nmoves 5z\nsave\nload /no/such/file\nundo\nhandicap Nothing\noption x=y\naccept\nP-7f\nquit\n";
    let (ok, out) = play(&["shogi", "--white", "human"], script);
    assert!(ok, "{out}");
    assert!(out.contains("not a piece of this variant"), "{out}");
    assert!(out.contains("illegal") || out.contains("cannot"), "{out}");
    assert!(out.contains("nothing to undo"), "{out}");
    assert!(out.contains("no handicap \"Nothing\""), "{out}");
    assert!(out.contains("no draw offer"), "{out}");
    assert!(
        out.contains("White to move (move 2)"),
        "the move after the bad input was played: {out}"
    );
}

#[test]
fn show_marks_moves_and_captures() {
    let (_, out) = play(
        &[
            "chu",
            "--white",
            "human",
            "--sfen",
            "k11/12/12/12/12/6p5/5N6/12/12/12/12/11K b - 1",
        ],
        "show 7g\n",
    );
    let board: Vec<&str> = out.lines().filter(|l| l.trim_end().ends_with(" f")).collect();
    assert!(
        board.iter().any(|l| l.contains("1vP")),
        "the pawn on 6f is marked as a square 1 away: {out}"
    );
    assert!(out.lines().any(|l| l.contains('2')), "squares 2 away are marked: {out}");
}

#[test]
fn a_game_saved_midway_loads_and_finishes() {
    let record = temp("midway.rec");
    let path = record.to_str().expect("path");
    let (ok, out) = play(
        &["shogi", "--white", "human"],
        &format!("P-7f\nP-3d\nB-2b+\nsave {path}\nquit\n"),
    );
    assert!(ok && out.contains(&format!("saved to {path}")), "{out}");
    let text = std::fs::read_to_string(&record).expect("record saved");
    assert!(
        text.contains("[Variant \"shogi\"]") && text.contains("1. P-7f P-3d 2. Bx2b+"),
        "{text}"
    );
    let (ok, out) = play(&["shogi", "--white", "human", "--load", path], "Sx2b\nresign\n");
    assert!(ok, "{out}");
    assert!(out.contains("loaded") && out.contains("(3 moves)"), "{out}");
    assert!(out.contains("Game over: Black resigns (0-1)."), "{out}");
}

#[test]
fn a_record_with_an_illegal_move_keeps_the_moves_before_it() {
    let record = temp("broken.rec");
    std::fs::write(&record, "[Variant \"shogi\"]\n\n1. P-7f P-3d 2. P-7f P-8d *\n").expect("written");
    let (ok, out) = play(
        &["shogi", "--white", "human", "--load", record.to_str().expect("path")],
        "board\n",
    );
    assert!(ok, "{out}");
    assert!(out.contains("line 3, move 3"), "the failing move is named: {out}");
    assert!(out.contains("the 2 moves before it are kept"), "{out}");
}

#[test]
fn a_record_for_another_variant_is_reported() {
    let record = temp("other.rec");
    std::fs::write(&record, "[Variant \"tori\"]\n\n1. P-7f *\n").expect("written");
    let (ok, out) = play(
        &["shogi", "--white", "human", "--load", record.to_str().expect("path")],
        "",
    );
    assert!(!ok && out.contains("a game of `tori`, not of `shogi`"), "{out}");
}

#[test]
fn the_record_file_is_kept_after_every_move() {
    let record = temp("kept.rec");
    let path = record.to_str().expect("path");
    let (ok, _) = play(&["tori", "--white", "human", "--record", path], "Sw-3c\nSw-5e\n");
    assert!(ok);
    let text = std::fs::read_to_string(&record).expect("record kept");
    assert!(text.contains("1. Swx3c Swx5e"), "{text}");
}

#[test]
fn koma_answers_a_move_and_every_move_it_prints_can_be_typed_back() {
    let (ok, out) = play(&["yari", "--depth", "2"], "P-4f\n");
    assert!(ok, "{out}");
    let reply = out
        .lines()
        .find_map(|l| l.strip_prefix("koma plays "))
        .expect("koma moved");
    let reply = reply.split_whitespace().next().expect("move text");
    let (ok, out) = play(&["yari", "--white", "human"], &format!("P-4f\n{reply}\nquit\n"));
    assert!(
        ok && out.contains("Black to move (move 3)"),
        "{reply} typed back: {out}"
    );
}

#[test]
fn koma_against_itself_plays_tori_to_the_end_or_a_long_way() {
    let (ok, out) = play(
        &[
            "tori",
            "--black",
            "koma",
            "--white",
            "koma",
            "--depth",
            "1",
            "--max-moves",
            "120",
        ],
        "",
    );
    assert!(ok, "{out}");
    let moves = out.lines().filter(|l| l.starts_with("koma plays")).count();
    assert!(
        out.contains("Game over") || out.contains("stopping after 120 moves"),
        "{moves} moves: {}",
        out.lines().rev().take(20).collect::<Vec<_>>().join("\n")
    );
}

/// Check Shogi through `koma play`: the first check ends the game, with its reason.
#[test]
fn a_check_ends_a_game_of_check_shogi() {
    let (ok, out) = play(&["checkshogi", "--white", "human"], "7g7f\n3c3d\n8h3c\n4a4b\n");
    assert!(ok, "{out}");
    assert!(out.contains("Game over: Black wins by check (1-0)."), "{out}");
    assert!(out.contains("the game is over"), "{out}");
}

/// Annan Shogi through `koma play`: a Rook with a Knight behind it leaps as a Knight, for
/// either side, and the board shows where it went.
#[test]
fn annan_pieces_move_as_the_piece_behind_them_in_play() {
    let (ok, out) = play(&["annan", "--white", "human"], "2h3f\n8b7d\nquit\n");
    assert!(ok, "{out}");
    assert!(out.contains("White to move (move 2)"), "{out}");
    assert!(out.contains(">vR"), "White's Rook on 7d: {out}");
    assert!(out.contains("Black to move (move 3)"), "{out}");
}
