//! The command-line contract of `koma perft` and `koma moves`: tools rely on these formats.

mod support;

use support::{Run, koma};

#[test]
fn perft_prints_the_count_as_a_bare_last_line() {
    let Run { code, stdout: out, .. } = koma(&["perft", "shogi", "2"]);
    assert_eq!(code, Some(0));
    assert_eq!(out.lines().last(), Some("900"));
}

#[test]
fn perft_divide_prints_one_line_per_root_move_then_the_total() {
    let Run { code, stdout: out, .. } = koma(&["perft", "tori", "2", "--divide"]);
    assert_eq!(code, Some(0));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 17 + 1, "17 root moves and the total");
    let sum: u64 = lines[..17]
        .iter()
        .map(|l| l.rsplit_once(' ').expect("MOVE COUNT").1.parse::<u64>().expect("count"))
        .sum();
    assert_eq!(sum, 288);
    assert_eq!(lines[17], "288");
    assert!(lines.contains(&"3d3c 16"), "the Swallow on 3d takes on 3c: {lines:?}");
}

#[test]
fn perft_paths_counts_lion_paths_as_lishogi_does() {
    let sfen = "k11/12/12/12/12/12/5N6/12/12/12/12/11K b - 1";
    let Run { stdout: distinct, .. } = koma(&["perft", "chu", "1", "--sfen", sfen]);
    let Run { stdout: paths, .. } = koma(&["perft", "chu", "1", "--sfen", sfen, "--paths"]);
    assert_eq!(distinct.trim(), "28", "24 Lion moves, one pass, three King moves");
    assert_eq!(paths.trim(), "91", "88 Lion paths, three King moves");
}

#[test]
fn moves_are_sorted_usi_one_per_line() {
    let Run { code, stdout: out, .. } = koma(&["moves", "shogi"]);
    assert_eq!(code, Some(0));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 30);
    let mut sorted = lines.clone();
    sorted.sort();
    assert_eq!(lines, sorted);
    assert!(lines.contains(&"7g7f"));
    assert!(lines.contains(&"2h1h"));
}

#[test]
fn moves_from_one_square_and_from_hand() {
    let sfen = "4k4/9/9/9/9/9/9/9/4K4 b P 1";
    let Run { stdout: king, .. } = koma(&["moves", "shogi", "--sfen", sfen, "--from", "5i"]);
    assert_eq!(
        king.lines().collect::<Vec<_>>(),
        ["5i4h", "5i4i", "5i5h", "5i6h", "5i6i"]
    );
    let Run { stdout: drops, .. } = koma(&["moves", "shogi", "--sfen", sfen, "--from", "hand"]);
    assert_eq!(
        drops.lines().count(),
        81 - 2 - 8,
        "a pawn anywhere but on the kings and the last rank"
    );
    assert!(drops.lines().all(|l| l.starts_with("P*")));
}

#[test]
fn lion_moves_are_written_with_their_middle_square() {
    // Black Lion on 7g, White pawn on 6f: igui is 7g6f7g.
    let sfen = "k11/12/12/12/12/6p5/5N6/12/12/12/12/11K b - 1";
    let Run { stdout: out, .. } = koma(&["moves", "chu", "--sfen", sfen, "--from", "7g"]);
    assert!(out.lines().any(|l| l == "7g6f7g"), "igui: {out}");
    assert!(out.lines().any(|l| l == "7g7g"), "pass: {out}");
    assert!(out.lines().any(|l| l == "7g6f5e"), "capture and step on: {out}");
}

#[test]
fn a_bad_position_string_says_which_field() {
    let Run { code, stderr: err, .. } = koma(&["perft", "shogi", "1", "--sfen", "9/9/9 b - 1"]);
    assert_ne!(code, Some(0));
    assert!(err.contains("board"), "{err}");
}

#[test]
fn options_are_chosen_with_option_name_value() {
    let Run { code, stdout: out, .. } = koma(&["perft", "maka-dai-dai", "1", "--option", "teaching-king=2"]);
    assert_eq!(code, Some(0));
    assert_eq!(out.trim(), "75");
    let Run { code, stderr: err, .. } = koma(&["perft", "maka-dai-dai", "1", "--option", "teaching-king=7"]);
    assert_ne!(code, Some(0));
    assert!(err.contains("teaching-king"), "{err}");
}

#[test]
fn moves_option_plays_usi_moves_before_listing() {
    // Shogi after 7g7f 3c3d, written by hand: the Bishops face each other on the long diagonal.
    let sfen = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3";
    let after = koma(&["moves", "shogi", "--moves", "7g7f 3c3d"]);
    let direct = koma(&["moves", "shogi", "--sfen", sfen]);
    assert_eq!(after.code, Some(0), "{}", after.stderr);
    assert_eq!(after.stdout, direct.stdout);
    assert!(
        after.stdout.lines().any(|l| l == "8h2b+"),
        "the Bishop takes its opposite number"
    );
    let perft = koma(&["perft", "shogi", "1", "--moves", "7g7f 3c3d"]);
    assert_eq!(
        perft.stdout.lines().last(),
        Some(after.stdout.lines().count().to_string().as_str())
    );
}

#[test]
fn moves_option_names_the_move_it_cannot_play() {
    let Run { code, stderr, .. } = koma(&["moves", "shogi", "--moves", "7g7f 7g7f"]);
    assert_eq!(code, Some(1));
    assert!(
        stderr.contains("--moves, move 2") && stderr.contains("7g7f"),
        "{stderr}"
    );
}
