//! `koma play` against bad input (what `tests/play.rs` does not cover): every command with
//! bad arguments is answered and the game goes on; bad start options end koma with an
//! error, not a panic; the end of input in the middle of a game leaves cleanly with the
//! record as it was after the last move; a save that is cut short leaves the previous file
//! intact.

mod support;

use koma::files::save_atomic;
use koma::game::{Game, MoveTables, Position};
use koma::notation::{parse_record, replay};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;
use support::{folder, koma_play, path};

/// Runs `koma play ARGS` with `script` (bytes) on standard input; returns (exit code, output).
fn play(args: &[&str], script: &[u8]) -> (Option<i32>, String) {
    koma_play(args, script).code_and_text()
}

/// The moves of a record file, replayed on Shogi: the record must read and replay whole.
fn replayed_moves(file: &Path) -> usize {
    let text = std::fs::read_to_string(file).expect("the record is there");
    let record = parse_record(&text).unwrap_or_else(|e| panic!("{e}:\n{text}"));
    let rules = koma::compile::compile_named("shogi", &[]).rules.expect("shogi");
    let mut game = Game::new(Position::start(Arc::new(MoveTables::new(rules))));
    replay(&mut game, &record).unwrap_or_else(|e| panic!("{e}:\n{text}"));
    game.len()
}

#[test]
fn every_command_with_bad_arguments_is_answered_and_the_game_goes_on() {
    let dir = folder("play-robustness", "commands");
    let bad_record = dir.join("bad.rec");
    std::fs::write(&bad_record, "[Variant \"shogi\"]\n[SFEN \"nonsense\"]\n\n1. P-7f *\n").expect("written");
    let bad_option = dir.join("option.rec");
    std::fs::write(&bad_option, "[Variant \"shogi\"]\n[Option \"no equals sign\"]\n\n*\n").expect("written");
    let unknown = dir.join("unknown.rec");
    std::fs::write(&unknown, "[Variant \"no-such-variant\"]\n\n*\n").expect("written");
    let broken_tag = dir.join("tag.rec");
    std::fs::write(&broken_tag, "[Variant \"shogi\"\n\n*\n").expect("written");
    let binary = dir.join("binary.rec");
    std::fs::write(&binary, b"\xff\xfe\x00[Variant").expect("written");
    let commands: Vec<(String, &str)> = vec![
        (
            "moves 99z".into(),
            "neither a square of the board nor a piece abbreviation",
        ),
        ("moves Xq".into(), "neither a square"),
        ("moves hand".into(), "no legal move"),
        ("show".into(), "show what?"),
        ("show 0a".into(), "neither a square"),
        ("show 5e".into(), "5e is empty: no piece of yours there"),
        ("save".into(), "save where?"),
        (
            format!("save {}", path(&dir.join("no/such/folder/x.rec"))),
            "cannot save",
        ),
        (format!("save {}", path(&dir)), "cannot save"),
        ("load".into(), "load what?"),
        (format!("load {}", path(&dir.join("missing.rec"))), "cannot load"),
        (format!("load {}", path(&dir)), "cannot load"),
        (format!("load {}", path(&bad_record)), "SFEN tag"),
        (format!("load {}", path(&bad_option)), "not NAME=VALUE"),
        (format!("load {}", path(&unknown)), "no-such-variant"),
        (format!("load {}", path(&broken_tag)), "is not a tag"),
        (format!("load {}", path(&binary)), "not UTF-8"),
        ("handicap".into(), "no handicap \"\""),
        ("handicap Nothing".into(), "no handicap \"Nothing\""),
        ("option".into(), "is not NAME=VALUE"),
        ("option x".into(), "`x` is not NAME=VALUE"),
        ("option x=y".into(), "unknown-option"),
        ("option =".into(), "unknown-option"),
        ("undo".into(), "nothing to undo"),
        ("accept".into(), "no draw offer"),
        ("P-7f junk".into(), "is not a move"),
        ("P-7e".into(), "illegal"),
        ("7g7e".into(), "cannot move so"),
        ("Z-9z".into(), "not a move"),
        ("P*5e".into(), "no Pawn (P) in hand"),
        ("\u{0}\u{1}\u{7f}".into(), "type `help`"),
        ("x".repeat(10_000), "longer than 4096 bytes"),
    ];
    let mut script = Vec::new();
    for (command, _) in &commands {
        script.extend_from_slice(command.as_bytes());
        script.push(b'\n');
    }
    // Bytes that are not UTF-8, blank lines, a line of tabs, Windows line ends.
    script.extend_from_slice(b"\xff\xfe\xfd\n\n\t\t\r\n");
    // A move, then the options and handicaps that may only be chosen before the first move.
    script.extend_from_slice(
        b"P-7f\r\nhandicap Lance\noption royal-capture=allowed\nundo\nundo\nP-7f\nP-3d\nboard\nhelp\nquit\n",
    );
    let (code, out) = play(&["shogi", "--white", "human"], &script);
    assert_eq!(code, Some(0), "{out}");
    for (command, answer) in &commands {
        assert!(
            out.contains(answer),
            "`{}` is not answered with `{answer}`:\n{out}",
            command.chars().take(40).collect::<String>()
        );
    }
    assert!(out.contains("that can only be chosen before the first move"), "{out}");
    assert!(
        out.contains("Black to move (move 3)"),
        "the game went on to its third move:\n{out}"
    );
}

#[test]
fn bad_start_options_end_koma_with_an_error() {
    let dir = folder("play-robustness", "start");
    let record = dir.join("bad.rec");
    std::fs::write(&record, "not a record").expect("written");
    for (args, message) in [
        (vec!["no-such-variant"], "no-such-variant"),
        (vec!["shogi", "--sfen", "9/9 b - 1"], "bad position"),
        (vec!["shogi", "--sfen", ""], "bad position"),
        (vec!["shogi", "--handicap", "Queen"], "no handicap"),
        (vec!["shogi", "--option", "x=y"], "unknown-option"),
        (vec!["shogi", "--load", "/no/such/record"], "No such file"),
        (vec!["shogi", "--load", path(&record)], "no [Variant"),
    ] {
        let (code, out) = play(&args, b"P-7f\nquit\n");
        assert_eq!(code, Some(1), "{args:?}: {out}");
        assert!(out.contains(message), "{args:?}: {out}");
    }
    // A record file that cannot be written: every move says so, and the game goes on (and
    // leaving it unsaved fails).
    let (code, out) = play(
        &[
            "shogi",
            "--white",
            "human",
            "--record",
            path(&dir.join("no/folder/x.rec")),
        ],
        b"P-7f\nP-3d\nquit\nquit\n",
    );
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("cannot save") && out.contains("Black to move (move 3)"),
        "{out}"
    );
}

#[test]
fn end_of_input_mid_game_leaves_cleanly_and_the_record_is_whole() {
    let dir = folder("play-robustness", "eof");
    let record = dir.join("game.rec");
    // Two moves, then input ends: in the middle of a line, and with nothing at all.
    for script in [&b"P-7f\nP-3d\nP-2"[..], &b"P-7f\nP-3d\n"[..]] {
        let (code, out) = play(&["shogi", "--white", "human", "--record", path(&record)], script);
        assert_eq!(code, Some(0), "{out}");
        assert!(out.contains("end of input: leaving the game."), "{out}");
        assert_eq!(replayed_moves(&record), 2);
        let left: Vec<_> = std::fs::read_dir(&dir)
            .expect("listed")
            .map(|e| e.expect("entry").file_name())
            .collect();
        assert_eq!(left.len(), 1, "only the record, no temporary file: {left:?}");
    }
}

#[test]
fn a_save_cut_short_leaves_the_previous_file_intact() {
    let dir = folder("play-robustness", "save");
    let file = dir.join("game.rec");
    let before = "[Variant \"shogi\"]\n\n1. P-7f *\n";
    std::fs::write(&file, before).expect("written");
    // The temporary file cannot be made (a folder stands in its place): nothing is written.
    let temporary = dir.join(format!(".game.rec.{}.tmp", std::process::id()));
    std::fs::create_dir(&temporary).expect("a folder in the way");
    assert!(save_atomic(&file, "[Variant \"shogi\"]\n\n1. P-7f P-3d *\n").is_err());
    assert_eq!(std::fs::read_to_string(&file).expect("still there"), before);
    std::fs::remove_dir(&temporary).expect("removed");
    // The rename cannot be made (the target is a folder with a file in it): the temporary
    // file is removed, the folder is untouched.
    let target = dir.join("taken");
    std::fs::create_dir_all(target.join("inside")).expect("a folder");
    assert!(save_atomic(&target, "text").is_err());
    assert!(target.join("inside").is_dir());
    let names: Vec<String> = std::fs::read_dir(&dir)
        .expect("listed")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| !n.ends_with(".tmp")), "{names:?}");
    // A save that works replaces the file whole.
    save_atomic(&file, "[Variant \"shogi\"]\n\n1. P-7f P-3d *\n").expect("saved");
    assert_eq!(replayed_moves(&file), 2);
}

#[test]
fn a_game_killed_at_any_moment_leaves_a_record_that_reads() {
    // koma plays itself with the record saved after every move; the process is killed at
    // different moments. Whatever moment, the record on disk is a whole record.
    let dir = folder("play-robustness", "killed");
    for (i, wait) in [30u64, 120, 250].into_iter().enumerate() {
        let record = dir.join(format!("game{i}.rec"));
        let mut child = Command::new(env!("CARGO_BIN_EXE_koma"))
            .args([
                "play", "shogi", "--black", "koma", "--white", "koma", "--depth", "1", "--record",
            ])
            .arg(&record)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("koma starts");
        std::thread::sleep(std::time::Duration::from_millis(wait));
        let _ = child.kill();
        let _ = child.wait();
        if record.exists() {
            replayed_moves(&record);
        }
    }
}
