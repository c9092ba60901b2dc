//! `koma play` tried as a new user would: the board fits the terminal, `show` and `moves`
//! understand a piece's abbreviation, the prompt stays after the game ends, long output wraps
//! at word boundaries, mistyped moves are answered with what was meant, and koma's strength
//! and perft's work are bounded or announced, and the commands' help names every shipped
//! variant. Everything runs through standard input.

mod support;

use std::process::{Command, Stdio};
use support::{Run, koma, koma_play, koma_with};

/// `koma play ARGS` (White a person too unless ARGS say otherwise) on `script`: its output.
fn play(args: &[&str], script: &str) -> String {
    let Run {
        code,
        stdout: out,
        stderr: err,
    } = koma_play(args, script);
    assert_eq!(code, Some(0), "{out}{err}");
    out
}

#[test]
fn depth_and_time_outside_their_range_are_refused_with_the_range() {
    for (args, range) in [
        (["--depth", "0"], "1..=64"),
        (["--depth", "65"], "1..=64"),
        (["--time", "0"], "0.01..=3600"),
        (["--time", "-1"], "0.01..=3600"),
        (["--time", "NaN"], "0.01..=3600"),
    ] {
        let Run { code, stderr: err, .. } = koma_with(&["play", "shogi", args[0], args[1]], &[], "quit\n");
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.contains(range), "{args:?}: {err}");
    }
}

#[test]
fn koma_s_default_strength_is_a_depth_and_a_time() {
    let file = std::env::temp_dir().join(format!("koma-new-user-{}.rec", std::process::id()));
    let path = file.to_str().expect("a UTF-8 path");
    play(&["shogi"], &format!("save {path}\nquit\n"));
    let record = std::fs::read_to_string(&file).expect("saved");
    assert!(
        record.contains("[White \"koma (depth 3, at most 10 s per move)\"]"),
        "{record}"
    );
    let _ = std::fs::remove_file(&file);
}

#[test]
fn perft_warns_when_its_work_is_huge() {
    let Run {
        code,
        stdout: out,
        stderr: err,
    } = koma_with(&["perft", "shogi", "3"], &[], "");
    assert_eq!(code, Some(0));
    assert_eq!(out.trim(), "25470");
    assert!(err.is_empty(), "{err}");
    // perft 1000 would never end: the warning comes first. koma is stopped after it.
    let mut child = Command::new(env!("CARGO_BIN_EXE_koma"))
        .args(["perft", "shogi", "1000"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("koma starts");
    let mut line = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(child.stderr.take().expect("stderr")),
        &mut line,
    )
    .expect("a warning");
    let _ = child.kill();
    let _ = child.wait();
    assert!(line.starts_with("warning: perft 1000 visits about 10^"), "{line}");
}

#[test]
fn help_describes_variant_option_and_sfen() {
    let Run { stdout: out, .. } = koma_with(&["play", "--help"], &[], "");
    for text in ["shipped variant", "Choose an option of the variant", "in SFEN"] {
        assert!(out.contains(text), "{text}: {out}");
    }
    let Run { stdout: out, .. } = koma_with(&["moves", "--help"], &[], "");
    assert!(out.contains("the default"), "{out}");
}

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("koma-new-user-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    dir.join(name)
}

#[test]
fn after_the_game_ends_the_prompt_stays_and_moves_are_refused_with_the_reason() {
    let file = temp("over.rec");
    let path = file.to_str().expect("a UTF-8 path");
    let out = play(
        &["shogi", "--white", "human", "--sfen", "4k4/9/4P4/9/9/9/9/9/4K4 b G 1"],
        &format!("G*5b\nK-4a\ngo\nresign\nboard\nsave {path}\nundo\nG*4b\nquit\n"),
    );
    assert!(out.contains("Game over: Black wins by checkmate (1-0)."), "{out}");
    let refusal = "the game is over (Black wins by checkmate): no more moves — `undo` goes back into it";
    assert_eq!(
        out.matches(refusal).count(),
        3,
        "K-4a, go and resign are refused: {out}"
    );
    assert!(out.contains("game over> board"), "the prompt stays: {out}");
    let saved = std::fs::read_to_string(&file).expect("saved after the end");
    assert!(
        saved.contains("[Result \"1-0\"]") && saved.contains("1. G*5b 1-0"),
        "{saved}"
    );
    assert!(out.contains("the game goes on."), "{out}");
    assert!(
        out.contains("White to move (move 2) — check!\nWhite> quit"),
        "G*4b is played: {out}"
    );
}

#[test]
fn a_resignation_is_taken_back_alone_by_undo() {
    let out = play(&["shogi", "--white", "human"], "P-7f\nresign\nP-3d\nundo\nP-3d\nquit\n");
    assert!(out.contains("Game over: White resigns (1-0)."), "{out}");
    assert!(
        out.contains("game over> P-3d\nthe game is over (White resigns)"),
        "{out}"
    );
    assert!(
        out.contains("Black to move (move 3)\nBlack> quit"),
        "P-3d is played after undo: {out}"
    );
}

#[test]
fn an_abbreviation_means_every_piece_of_that_kind_of_the_side_to_move() {
    // Chu at the start: Black's Lion is on the board, not in hand; two Dragon Horses.
    let out = play(&["chu", "--white", "human"], "moves Ln\nmoves DH\nshow Ln\nquit\n");
    assert!(out.contains("moves Ln\nLn-5h Ln-6h Ln-7h Ln-8h Ln-9k\n"), "{out}");
    assert!(out.contains("moves DH\nDH-4k DH-9k\n"), "both Dragon Horses: {out}");
    let shown = out.split("show Ln").nth(1).expect("shown");
    let marks = board_cells(shown)
        .into_iter()
        .filter(|t| ["1", "2"].contains(t))
        .count();
    assert_eq!(marks, 5, "the Lion's four squares 2 away and 9k: {shown}");
    // Shogi: a piece in hand and the same kind on the board are both meant.
    let out = play(
        &["shogi", "--white", "human", "--sfen", "4k4/9/9/9/9/9/9/4G4/4K4 b G 1"],
        "moves G\nquit\n",
    );
    let moves = out.split("moves G\n").nth(1).expect("listed");
    let line = moves.lines().next().expect("a line");
    assert!(
        line.contains("G*5e") && line.contains("G-5g"),
        "drops and board moves: {line}"
    );
}

#[test]
fn an_empty_square_an_opponents_piece_and_a_missing_kind_get_their_own_answers() {
    let out = play(
        &["chu", "--white", "human"],
        "show 5e\nmoves 5d\nshow +DH\nmoves K\nmoves hand\nquit\n",
    );
    for answer in [
        "5e is empty: no piece of yours there",
        "no piece of yours on 5d: it holds White's Pawn (P)",
        "you have no Horned Falcon (+DH), on the board or in hand",
        "no legal move for your King (K)",
        "no legal move: Chu Shogi has no drops",
    ] {
        assert!(out.contains(answer), "{answer}: {out}");
    }
}

/// The cells of the first board drawn in `out`: the words of its ranks (the lines ending in
/// a rank letter) up to the line saying who moves.
fn board_cells(out: &str) -> Vec<&str> {
    out.lines()
        .take_while(|l| !l.contains(" to move (move "))
        .filter(|l| l.trim_end().ends_with(|c: char| c.is_ascii_lowercase()))
        .flat_map(|l| {
            let mut words: Vec<&str> = l.split_whitespace().collect();
            words.pop();
            words
        })
        .collect()
}

/// The lines of `out` longer than `width` characters.
fn wider_than(out: &str, width: usize) -> Vec<&str> {
    out.lines().filter(|l| l.chars().count() > width).collect()
}

#[test]
fn help_and_the_moves_list_wrap_at_word_boundaries_to_the_terminal() {
    let Run { stdout: out, .. } = koma_with(
        &["play", "chu", "--white", "human"],
        &[("COLUMNS", "80")],
        "help\nmoves\nquit\n",
    );
    assert!(wider_than(&out, 80).is_empty(), "{:?}", wider_than(&out, 80));
    let listed = out.split("Black> moves\n").nth(1).expect("listed");
    let moves: Vec<&str> = listed.lines().take_while(|l| !l.starts_with("Black>")).collect();
    assert!(moves.len() > 1, "the list of Chu's 36 moves is wrapped: {moves:?}");
    for line in &moves {
        assert!(
            line.split(' ').all(|m| m.contains('-')),
            "every word is a whole move: {line}"
        );
    }
    // Narrower: help's second column still wraps between words.
    let Run { stdout: out, .. } = koma_with(
        &["play", "shogi", "--white", "human"],
        &[("COLUMNS", "50")],
        "help\nquit\n",
    );
    let help = out.split("Black> help\n").nth(1).expect("help");
    assert!(wider_than(help, 50).is_empty(), "{help}");
    for line in help.lines().skip(1).take_while(|l| !l.starts_with("Black>")) {
        let indent = line.len() - line.trim_start().len();
        assert!(indent == 2 || indent == 18, "a command, or its description: {line}");
    }
}

#[test]
fn a_huge_line_is_quoted_back_as_a_short_excerpt() {
    let long_move = format!("P-{}", "7".repeat(4000));
    let long_show = format!("show {}", "Q".repeat(3000));
    let out = play(
        &["shogi", "--white", "human"],
        &format!("{long_move}\n{long_show}\nquit\n"),
    );
    assert!(
        wider_than(&out, 120).is_empty(),
        "no line of the answer is long: {:?}",
        wider_than(&out, 120)
    );
    assert!(out.contains("(4002 characters)"), "{out}");
    assert!(
        out.contains("(3005 characters)` is neither a move nor a command"),
        "{out}"
    );
}

#[test]
fn the_lion_marks_of_show_differ_from_piece_abbreviations_without_colour() {
    let out = play(
        &[
            "chu",
            "--white",
            "human",
            "--sfen",
            "k11/12/12/12/12/6p5/5N6/12/12/12/12/B10K b - 1",
        ],
        "show 7g\n",
    );
    let shown = out.split("Black> show 7g").nth(1).expect("shown");
    // Eight squares 1 away (the pawn taken on 6f among them), the Lion's own square (igui,
    // pass), 16 squares 2 away.
    assert!(shown.contains("1vP") && shown.contains("1Ln"), "{shown}");
    let cells = board_cells(shown);
    assert_eq!(cells.iter().filter(|c| **c == "1").count(), 7, "{shown}");
    assert_eq!(cells.iter().filter(|c| **c == "2").count(), 16, "{shown}");
    assert!(cells.contains(&"B"), "the Bishop on 12l reads as a piece: {shown}");
    assert!(
        shown.contains("marks: 1 = a Lion move 1 square away, 2 = a Lion move 2 squares away"),
        "{shown}"
    );
}

/// A 36 × 36 variant (Taikyoku's size) with three-letter abbreviations, written for the test.
fn big_variant() -> std::path::PathBuf {
    let names = ["Lan", "Kni", "Sil", "Gol"];
    let mut back: Vec<&str> = (0..35).map(|i| names[i % 4]).collect();
    back.insert(17, "K");
    let text = format!(
        "variant \"Big\"\nboard 36 x 36\nstuck-pieces-stay\n\
         piece K \"King\" value 0 royal : step all\n\
         piece Lan \"Lancer\" value 300 : slide forward\n\
         piece Kni \"Knight Rider\" value 300 : leap (-1, 2) (1, 2)\n\
         piece Sil \"Silverling\" value 300 : step forward diagonal\n\
         piece Gol \"Goldling\" value 300 : step orthogonal forward-diagonal\n\
         piece P \"Pawn\" value 100 : step forward\n\
         setup\n  ai: {}\n  aj: {}\n",
        ["P"; 36].join(" "),
        back.join(" ")
    );
    let file = temp("big.var");
    std::fs::write(&file, text).expect("written");
    file
}

/// The lines of the first board in `out` that number the files.
fn file_headers(out: &str) -> Vec<&str> {
    out.lines()
        .take_while(|l| !l.contains(" to move (move "))
        .filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        .collect()
}

/// Dai and Maka-Dai-Dai at 80 columns: compact, and as their longest labels (`+CSw`, `+BDe`)
/// take 6 columns a file with the mark's and the space's, in two strips of files.
#[test]
fn a_large_board_fits_the_terminal_in_the_compact_layout() {
    for (variant, files) in [("dai", 15), ("maka-dai-dai", 19)] {
        let Run { stdout: out, .. } = koma_with(&["play", variant, "--white", "human"], &[("COLUMNS", "80")], "quit\n");
        assert!(wider_than(&out, 80).is_empty(), "{variant}: {:?}", wider_than(&out, 80));
        let headers = file_headers(&out);
        assert_eq!(headers.len(), 2, "{variant} in two strips: {out}");
        let numbers: Vec<String> = headers
            .iter()
            .flat_map(|h| h.split_whitespace())
            .map(String::from)
            .collect();
        let expected: Vec<String> = (1..=files).rev().map(|f: u32| f.to_string()).collect();
        assert_eq!(numbers, expected, "{variant}: every file once, in order");
        let cells = board_cells(&out);
        assert!(
            cells.contains(&"l") && cells.contains(&"L"),
            "White in lower case: {out}"
        );
        assert!(!cells.contains(&"vL"), "{out}");
    }
    // Wide enough: the wide layout, White's pieces marked `v`.
    let Run { stdout: out, .. } = koma_with(&["play", "dai", "--white", "human"], &[("COLUMNS", "120")], "quit\n");
    assert!(board_cells(&out).contains(&"vL"), "{out}");
}

#[test]
fn a_36_by_36_board_is_drawn_in_strips_of_files_that_fit() {
    let variant = big_variant();
    let Run {
        stdout: out,
        stderr: err,
        ..
    } = koma_with(
        &["play", variant.to_str().expect("path"), "--white", "human"],
        &[("COLUMNS", "80")],
        "P-18ah\nquit\n",
    );
    assert!(wider_than(&out, 80).is_empty(), "{:?}{err}", wider_than(&out, 80));
    let headers = file_headers(&out);
    // Five columns a file (three-letter labels, the mark's and the space's): 15 files fit.
    assert_eq!(headers.len(), 3, "three strips: {out}");
    let numbers: Vec<&str> = headers.iter().flat_map(|h| h.split_whitespace()).collect();
    let expected: Vec<String> = (1..=36).rev().map(|f| f.to_string()).collect();
    assert_eq!(numbers, expected, "every file once, in order");
    assert!(
        out.contains(">P") && out.contains(">."),
        "the last move is marked: {out}"
    );
}

#[test]
fn the_layout_can_be_chosen_by_flag_and_by_command() {
    let Run { stdout: out, .. } = koma_with(
        &["play", "dai", "--white", "human"],
        &[("COLUMNS", "120")],
        "board compact\nboard wide\nboard sideways\nboard auto\nquit\n",
    );
    let after_compact = out.split("Black> board compact\n").nth(1).expect("drawn");
    assert!(board_cells(after_compact).contains(&"l"), "{after_compact}");
    let after_wide = out.split("Black> board wide\n").nth(1).expect("drawn");
    assert!(board_cells(after_wide).contains(&"vL"), "{after_wide}");
    assert!(
        out.contains("`sideways` is not a layout: `board wide`, `board compact` or `board auto`"),
        "{out}"
    );
    let after_auto = out.split("Black> board auto\n").nth(1).expect("drawn");
    assert!(board_cells(after_auto).contains(&"vL"), "{after_auto}");
    let out = play(&["shogi", "--white", "human", "--layout", "compact"], "quit\n");
    let cells = board_cells(&out);
    assert!(cells.contains(&"k") && cells.contains(&"K"), "{out}");
}

/// `board auto` draws the wide layout where it fits and falls back to the compact one where
/// it does not.
#[test]
fn auto_falls_back_to_compact_where_the_wide_board_does_not_fit() {
    for (columns, cell) in [("120", "vL"), ("80", "l")] {
        let Run { stdout: out, .. } = koma_with(
            &["play", "dai", "--white", "human"],
            &[("COLUMNS", columns)],
            "board auto\nquit\n",
        );
        let after = out.split("Black> board auto\n").nth(1).expect("drawn");
        assert!(board_cells(after).contains(&cell), "{columns} columns: {after}");
        assert!(wider_than(after, 80).is_empty() || columns == "120", "{after}");
    }
}

/// The lines of the boards drawn in `out` (file numbers and ranks), board by board.
fn boards(out: &str) -> Vec<Vec<&str>> {
    let mut boards = vec![Vec::new()];
    for line in out.lines() {
        if line.contains(" to move (move ") {
            boards.push(Vec::new());
        } else if line.trim_start().starts_with(|c: char| c.is_ascii_digit())
            || boards.last().is_some_and(|b| !b.is_empty())
                && line.trim_end().ends_with(|c: char| c.is_ascii_lowercase())
                && !line.contains(" in hand")
        {
            boards.last_mut().expect("a board").push(line);
        }
    }
    boards.retain(|b| !b.is_empty());
    boards
}

/// A square's width is the variant's, not the position's: a piece that promotes (`+B`, wider
/// than any piece at the start) leaves every line of the board as wide as before, in both
/// layouts.
#[test]
fn the_board_keeps_its_column_width_when_a_piece_promotes() {
    for layout in ["wide", "compact"] {
        let out = play(
            &["shogi", "--white", "human", "--layout", layout],
            "P-7f\nP-3d\nBx2b+\nquit\n",
        );
        assert!(out.contains("+B"), "the Bishop promoted: {out}");
        let widths: Vec<Vec<usize>> = boards(&out)
            .iter()
            .map(|b| b.iter().map(|l| l.trim_end().chars().count()).collect())
            .collect();
        assert_eq!(widths.len(), 4, "{layout}: four boards drawn: {out}");
        assert!(widths.windows(2).all(|w| w[0] == w[1]), "{layout}: {widths:?}\n{out}");
    }
}

/// The last move's `>` stands apart from the square before it, even before a label as long
/// as any (`+B` on a board with a promoted piece): never `.>+B`.
#[test]
fn the_last_move_mark_never_touches_the_square_before_it() {
    for layout in ["wide", "compact"] {
        let out = play(
            &["shogi", "--white", "human", "--layout", layout],
            "P-7f\nP-3d\nBx2b+\nquit\n",
        );
        let last = out.split("Black> Bx2b+\n").nth(1).expect("drawn");
        let marked: Vec<&str> = last.lines().filter(|l| l.contains('>') && !l.contains("> ")).collect();
        assert!(!marked.is_empty(), "{layout}: the last move is marked: {last}");
        for line in marked {
            for (i, _) in line.match_indices('>') {
                assert!(
                    i == 0 || line[..i].ends_with(' '),
                    "{layout}: the mark touches the square before it: {line:?}"
                );
            }
        }
    }
}

#[test]
fn a_move_without_its_separator_gets_did_you_mean() {
    let out = play(&["shogi", "--white", "human"], "P7f\nquit\n");
    assert!(out.contains("did you mean `P-7f`?"), "{out}");
    assert!(!out.contains("White to move"), "nothing was played: {out}");
}

#[test]
fn numbered_squares_as_csa_and_kifu_write_them_say_what_is_expected() {
    let out = play(&["shogi", "--white", "human"], "7776\n+7776FU\n9999\nquit\n");
    let expected = "koma writes a square as its file number and rank letter (7g), not two digits as CSA and kifu do";
    assert_eq!(out.matches(expected).count(), 3, "{out}");
    assert_eq!(out.matches("did you mean `P-7f` (7g7f)?").count(), 2, "{out}");
    assert!(!out.contains("at character 1"), "{out}");
}

#[test]
fn an_optional_promotion_left_unwritten_is_asked_for() {
    let out = play(
        &["shogi", "--white", "human"],
        "P-7f\nP-3d\nBx2b\nBx2b=\nundo\nBx2b+\nundo\n8h2b\nquit\n",
    );
    assert!(
        out.contains("`Bx2b`: the Bishop (B) may promote on this move — type `Bx2b+` to promote, or `Bx2b=` not to"),
        "{out}"
    );
    // Each way of saying it is played: declined, promoted, and USI (no `+`: declined).
    assert_eq!(out.matches("White to move (move 4)").count(), 3, "{out}");
    let promoted = out.split("Black> Bx2b+\n").nth(1).expect("played");
    assert!(
        board_cells(promoted).contains(&">+B"),
        "the promoted Bishop, last moved: {promoted}"
    );
}

#[test]
fn colour_follows_no_color_and_clicolor_force() {
    let run = |env: &[(&str, &str)]| {
        let out = Command::new(env!("CARGO_BIN_EXE_koma"))
            .args(["play", "shogi", "--white", "human"])
            .env_remove("NO_COLOR")
            .env_remove("CLICOLOR_FORCE")
            .env_remove("CLICOLOR")
            .envs(env.iter().copied())
            .stdin(Stdio::null())
            .output()
            .expect("koma runs");
        String::from_utf8_lossy(&out.stdout).contains('\u{1b}')
    };
    assert!(!run(&[]), "a pipe is not coloured");
    assert!(run(&[("CLICOLOR_FORCE", "1")]), "unless colour is forced");
    assert!(!run(&[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]), "NO_COLOR wins");
}

/// The help of the commands that take a variant lists every variant koma ships.
#[test]
fn help_names_every_shipped_variant() {
    for command in ["play", "show", "perft", "moves", "compile", "betza", "xboard-pieces"] {
        let Run { code, stdout, .. } = koma(&[command, "--help"]);
        assert_eq!(code, Some(0), "{command}");
        let text = stdout.split_whitespace().collect::<Vec<_>>().join(" ");
        let list = text
            .split_once("A shipped variant (")
            .and_then(|(_, rest)| rest.split_once(')'))
            .map_or("", |(list, _)| list);
        let named: Vec<&str> = list.split(", ").collect();
        for &(name, _) in koma::compile::source::SHIPPED {
            assert!(named.contains(&name), "`koma {command} --help` names {name}: {text}");
        }
    }
}

/// `help` promises that `quit` asks again when the game is unsaved: a game of moves in no
/// record is not left at once; a second `quit` leaves; a game without moves is left at once.
#[test]
fn quit_asks_again_when_the_games_moves_are_not_saved() {
    let out = play(&["shogi", "--white", "human"], "P-7f\nP-3d\nquit\nquit\n");
    assert!(
        out.contains("Black> quit\nthe game's 2 moves are not saved: `save FILE` saves them, or type `quit` again to leave\nBlack> quit"),
        "{out}"
    );
    assert!(!out.contains("end of input"), "the second quit leaves: {out}");
    let out = play(&["shogi", "--white", "human"], "quit\n");
    assert!(!out.contains("not saved"), "{out}");
}

/// A move onto one's own piece says the square is occupied; a second Pawn on a file names
/// the rule.
#[test]
fn refusals_name_the_occupied_square_and_nifu() {
    let out = play(&["shogi", "--white", "human"], "K-6i\nquit\n");
    assert!(
        out.contains("`K-6i` is illegal") && out.contains("6i is occupied by your own Gold General (G)"),
        "{out}"
    );
    let out = play(
        &["shogi", "--white", "human", "--sfen", "4k4/9/9/9/9/9/4P4/9/4K4 b P 1"],
        "P*5e\nquit\n",
    );
    assert!(
        out.contains("file 5 already holds an unpromoted Pawn (P) of yours: two on a file (nifu)"),
        "{out}"
    );
}

/// `board wide` in a terminal too narrow for it draws the compact board (a wide one would
/// wrap every rank) and says so.
#[test]
fn a_wide_board_in_a_narrow_terminal_is_drawn_compact_and_says_so() {
    let Run { stdout: out, .. } = koma_with(
        &["play", "dai", "--white", "human"],
        &[("COLUMNS", "80")],
        "board wide\nquit\n",
    );
    let after = out.split("Black> board wide\n").nth(1).expect("drawn");
    assert!(wider_than(after, 80).is_empty(), "{:?}", wider_than(after, 80));
    assert!(board_cells(after).contains(&"l"), "compact: {after}");
    assert!(
        after.contains("the wide board needs 110 columns and the terminal has 80: drawn compact"),
        "{after}"
    );
}

/// `koma play` alone lists the variants it can start.
#[test]
fn play_without_a_variant_lists_the_shipped_variants() {
    let Run { code, stderr, .. } = koma_play(&[], "");
    assert_eq!(code, Some(2), "a usage error: {stderr}");
    assert!(
        stderr.contains("which variant?") && stderr.contains("shogi, yari, tori, chu"),
        "{stderr}"
    );
}
