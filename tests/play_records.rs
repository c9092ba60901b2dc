//! `koma play` and the files on disk, end to end through standard input: what docs/cli.md's "Game
//! records" promises. A record is never shortened or replaced without the player's choice,
//! koma reads and writes only regular files, what it writes it reads back, and an unsaved game
//! is never left without saying so.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;
use support::{folder, koma, koma_play, path};

/// Runs `koma play ARGS` with `script` on standard input; returns (exit code, output).
fn play(args: &[&str], script: &str) -> (Option<i32>, String) {
    koma_play(args, script).code_and_text()
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).expect("the file is there")
}

/// Twelve moves of Shogi, the seventh of which (`Px-7e`) is not a move.
const BAD_AT_SEVEN: &str =
    "[Variant \"shogi\"]\n\n1. P-7f P-3d 2. P-2f P-4d 3. P-2e B-3c 4. Px-7e P-8d 5. P-1f P-1d 6. P-9f P-9d *\n";

/// Four moves of Shogi, all good.
const FOUR_MOVES: &str = "[Variant \"shogi\"]\n[Result \"*\"]\n\n1. P-7f P-3d 2. P-2f P-4d *\n";

fn mkfifo(p: &Path) {
    let made = Command::new("mkfifo").arg(p).status().expect("mkfifo runs");
    assert!(made.success(), "mkfifo {}", p.display());
}

#[test]
fn a_record_with_a_bad_move_is_never_written_over() {
    let dir = folder("play-records", "bad-move");
    let file = dir.join("long.rec");
    std::fs::write(&file, BAD_AT_SEVEN).expect("written");
    // Loaded and recorded, then left with no move played: untouched.
    let (code, out) = play(&["shogi", "--load", path(&file), "--record", path(&file)], "quit\n");
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("koma does not write over"), "the player is told: {out}");
    assert_eq!(read(&file), BAD_AT_SEVEN);
    // Continued with `--record` alone and played on: still untouched, and leaving says so.
    let (code, out) = play(&["--record", path(&file), "--white", "human"], "P-5f\nquit\nquit\n");
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("the game is not saved"), "{out}");
    assert_eq!(read(&file), BAD_AT_SEVEN);
    // The in-game `load` of the record file does the same.
    let (code, out) = play(
        &["shogi", "--white", "human", "--record", path(&file), "--overwrite"],
        &format!("load {}\nquit\n", path(&file)),
    );
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("koma does not write over"), "{out}");
    assert_eq!(read(&file), BAD_AT_SEVEN);
    // Only `save FILE`, typed after being told, replaces it; recording then goes on.
    let (code, out) = play(
        &["--record", path(&file), "--white", "human"],
        &format!("save {}\nP-5f\nquit\n", path(&file)),
    );
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("recorded there again"), "{out}");
    assert!(
        read(&file).contains("2. P-2f P-4d 3. P-2e B-3c 4. P-5f *"),
        "{}",
        read(&file)
    );
}

#[test]
fn an_existing_record_is_continued_and_replaced_only_with_overwrite() {
    let dir = folder("play-records", "existing");
    let file = dir.join("game.rec");
    std::fs::write(&file, FOUR_MOVES).expect("written");
    // `--record` on a game continues it (no VARIANT needed): left unchanged, it is not touched.
    let resigned = FOUR_MOVES
        .replace("*", "0-1")
        .replace("[Result", "[Termination \"Black resigns\"]\n[Result");
    std::fs::write(&file, &resigned).expect("written");
    let (code, out) = play(&["--record", path(&file), "--white", "human"], "quit\n");
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("continuing the game in"), "{out}");
    assert_eq!(read(&file), resigned);
    let (code, out) = play(&["shogi", "--record", path(&file), "--white", "human"], "P-2e\nquit\n");
    assert_eq!(code, Some(0), "{out}");
    assert!(
        read(&file).contains("1. P-7f P-3d 2. P-2f P-4d 3. P-2e *"),
        "{}",
        read(&file)
    );
    // A new game over it, or another record loaded over it: refused, the file untouched.
    let before = read(&file);
    let other = dir.join("other.rec");
    std::fs::write(&other, FOUR_MOVES).expect("written");
    for args in [
        vec!["shogi", "--record", path(&file), "--handicap", "Lance"],
        vec!["shogi", "--record", path(&file), "--load", path(&other)],
    ] {
        let (code, out) = play(&args, "quit\n");
        assert_eq!(code, Some(1), "{args:?}: {out}");
        assert!(out.contains("--overwrite"), "{args:?}: {out}");
        assert_eq!(read(&file), before, "{args:?}");
    }
    // A file that is not a record is not written over.
    let notes = dir.join("notes.txt");
    std::fs::write(&notes, "my notes\n").expect("written");
    let (code, out) = play(&["shogi", "--record", path(&notes)], "quit\n");
    assert_eq!(code, Some(1), "{out}");
    assert_eq!(read(&notes), "my notes\n");
    // `--overwrite` is the explicit choice: a new game replaces it.
    let (code, out) = play(
        &["shogi", "--record", path(&file), "--overwrite", "--white", "human"],
        "P-5f\nquit\n",
    );
    assert_eq!(code, Some(0), "{out}");
    assert!(read(&file).contains("1. P-5f *"), "{}", read(&file));
}

#[cfg(unix)]
#[test]
fn the_record_file_is_a_regular_file_or_a_new_path_and_keeps_its_mode() {
    use std::os::unix::fs::PermissionsExt;
    let dir = folder("play-records", "regular");
    let real = dir.join("real.rec");
    std::fs::write(&real, FOUR_MOVES).expect("written");
    let link = dir.join("link.rec");
    std::os::unix::fs::symlink(&real, &link).expect("a symbolic link");
    let fifo = dir.join("fifo.rec");
    mkfifo(&fifo);
    for (target, kind) in [
        (link.as_path(), "a symbolic link"),
        (fifo.as_path(), "a FIFO"),
        (Path::new("/dev/null"), "a device"),
        (dir.as_path(), "a directory"),
    ] {
        let (code, out) = play(&["shogi", "--record", path(target)], "quit\n");
        assert_eq!(code, Some(1), "{target:?}: {out}");
        assert!(out.contains(kind) && out.contains("regular file"), "{target:?}: {out}");
        let (_, out) = play(
            &["shogi", "--white", "human"],
            &format!("save {}\nquit\n", path(target)),
        );
        assert!(out.contains(kind), "save {target:?}: {out}");
    }
    assert!(
        std::fs::symlink_metadata(&link)
            .expect("there")
            .file_type()
            .is_symlink()
    );
    assert_eq!(read(&real), FOUR_MOVES);
    // The mode of the file replaced is kept.
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o600)).expect("chmod");
    let (code, out) = play(&["--record", path(&real), "--white", "human"], "P-2e\nquit\n");
    assert_eq!(code, Some(0), "{out}");
    assert!(read(&real).contains("3. P-2e"), "{}", read(&real));
    let mode = std::fs::metadata(&real).expect("there").permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
}

#[test]
fn stale_temporary_files_of_a_record_are_removed_on_load_and_save() {
    let dir = folder("play-records", "stale");
    let file = dir.join("game.rec");
    std::fs::write(&file, FOUR_MOVES).expect("written");
    // No process has a number past Linux's largest (2^22): these were left by dead saves.
    let dead = dir.join(".game.rec.4000000000.tmp");
    let alive = dir.join(format!(".game.rec.{}.tmp", std::process::id()));
    let another_record = dir.join(".other.rec.4000000000.tmp");
    for leftover in [&dead, &alive, &another_record] {
        std::fs::write(leftover, "partial").expect("written");
    }
    let (code, out) = play(&["--load", path(&file), "--white", "human"], "quit\n");
    assert_eq!(code, Some(0), "{out}");
    assert!(!dead.exists(), "a dead save's file is removed on load");
    assert!(alive.exists(), "a running process's file is kept");
    assert!(another_record.exists(), "another record's file is kept");
    std::fs::write(&dead, "partial").expect("written");
    let (code, out) = play(&["shogi", "--white", "human"], &format!("save {}\nquit\n", path(&file)));
    assert_eq!(code, Some(0), "{out}");
    assert!(!dead.exists(), "a dead save's file is removed on save");
    assert!(alive.exists() && another_record.exists());
}

#[cfg(unix)]
#[test]
fn a_fifo_is_refused_wherever_koma_reads_a_file() {
    let dir = folder("play-records", "fifo");
    let fifo = dir.join("game.rec");
    mkfifo(&fifo);
    let (code, out) = play(&["shogi", "--load", path(&fifo)], "quit\n");
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("is a FIFO") && out.contains("only regular files"), "{out}");
    let (code, out) = play(&["shogi", "--white", "human"], &format!("load {}\nquit\n", path(&fifo)));
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("cannot load") && out.contains("is a FIFO"), "{out}");
    let (code, out) = koma(&["check", path(&fifo)]).code_and_text();
    assert_eq!(code, Some(1), "{out}");
}

#[test]
fn quitting_a_recorded_game_that_is_not_saved_asks_again_and_fails() {
    let dir = folder("play-records", "unsaved");
    let unwritable = dir.join("no/such/folder/game.rec");
    let args = ["shogi", "--white", "human", "--record", path(&unwritable)];
    // `quit` twice: told, then leaves with status 1.
    let (code, out) = play(&args, "P-7f\nquit\nquit\n");
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("the game is not saved") && out.contains("`save FILE` saves it"),
        "{out}"
    );
    // The end of input leaves with status 1 too.
    let (code, out) = play(&args, "P-7f\n");
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("leaving an unsaved game"), "{out}");
    // Saved elsewhere when told: leaves with status 0, the game in the file.
    let elsewhere = dir.join("saved.rec");
    let (code, out) = play(&args, &format!("P-7f\nquit\nsave {}\nquit\n", path(&elsewhere)));
    assert_eq!(code, Some(0), "{out}");
    assert!(read(&elsewhere).contains("1. P-7f *"));
}

#[test]
fn a_game_reaches_the_move_limit_while_playing_and_its_record_loads() {
    let dir = folder("play-records", "limit");
    let variant = dir.join("kings.var");
    std::fs::write(
        &variant,
        "variant \"Kings\"\nboard 5 x 5\npiece K \"King\" royal : step all\nsetup\n  e: . . K . .\n",
    )
    .expect("written");
    let file = dir.join("long.rec");
    let steps = ["K-3d", "K-3b", "K-3e", "K-3a"];
    let mut script: String = (0..10_001).map(|i| format!("{}\n", steps[i % 4])).collect();
    script.push_str(&format!("save {}\nquit\n", path(&file)));
    let (code, out) = play(&[path(&variant), "--white", "human"], &script);
    assert_eq!(code, Some(0), "{}", &out[out.len().saturating_sub(2000)..]);
    assert!(
        out.contains("the game has 10000 moves, koma's limit"),
        "the player is told"
    );
    assert!(!out.contains("(move 10002)"), "the move past the limit is refused");
    let (code, out) = play(&["--load", path(&file)], "quit\n");
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("(10000 moves)"), "{out}");
}

#[test]
fn load_reads_the_variant_from_the_record_and_asks_before_replacing_an_unsaved_game() {
    let dir = folder("play-records", "variant");
    let file = dir.join("game.rec");
    std::fs::write(&file, FOUR_MOVES).expect("written");
    let (code, out) = play(&["--load", path(&file), "--white", "human"], "quit\n");
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("(4 moves)") && out.contains("koma: Shogi"), "{out}");
    let (code, out) = play(&["tori", "--load", path(&file)], "quit\n");
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("a game of `shogi`, not of `tori`"), "{out}");
    let (code, out) = koma_play(&["--white", "human"], "quit\n").code_and_text();
    assert_eq!(code, Some(2), "no VARIANT and nothing to load: {out}");
    // In game: an unsaved game is replaced only when `load` is typed twice in a row.
    let load = format!("load {}", path(&file));
    let (code, out) = play(
        &["yari", "--white", "human"],
        &format!("P-4f\n{load}\nboard\n{load}\n{load}\nquit\n"),
    );
    assert_eq!(code, Some(0), "{out}");
    assert_eq!(out.matches("the game has moves that are not saved").count(), 2, "{out}");
    assert_eq!(out.matches("loaded ").count(), 1, "{out}");
    assert!(
        out.contains("koma: Yari") && out.contains("Black to move (move 5)"),
        "{out}"
    );
}

#[test]
fn record_errors_name_the_move_once_and_quote_long_text_as_an_excerpt() {
    let dir = folder("play-records", "messages");
    let cases = [
        ("[Variant \"shogi\"]\n\n1. Q-7f *\n".to_string(), "`Q-7f`"),
        (format!("[Variant \"shogi\"]\n\n1. {} *\n", "1".repeat(10_000)), "1111…"),
        (
            format!("[Variant \"shogi\"]\n\n1. {}. *\n", "1x".repeat(5_000)),
            "1x1x…",
        ),
        (format!("[{}]\n", "V".repeat(4_000_000)), "VVVV…"),
    ];
    for (index, (text, quoted)) in cases.iter().enumerate() {
        let file = dir.join(format!("case{index}.rec"));
        std::fs::write(&file, text).expect("written");
        let (_, out) = play(&["shogi", "--white", "human"], &format!("load {}\nquit\n", path(&file)));
        assert!(out.contains(quoted), "case {index}: {}", &out[..out.len().min(3000)]);
        assert_eq!(out.matches(quoted).count(), 1, "case {index}: named once: {out}");
        let longest = out.lines().map(str::len).max().unwrap_or(0);
        assert!(longest < 400, "case {index}: a line of {longest} bytes");
    }
}

#[cfg(unix)]
#[test]
fn a_folder_that_cannot_be_written_is_blamed_not_the_record() {
    use std::os::unix::fs::PermissionsExt;
    let dir = folder("play-records", "read-only");
    let locked = dir.join("locked");
    std::fs::create_dir(&locked).expect("a folder");
    std::fs::write(locked.join("game.rec"), FOUR_MOVES).expect("written");
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o555)).expect("chmod");
    // The superuser writes in any folder: then a folder of the kernel's stands in.
    let writable = std::fs::write(locked.join("probe"), "").is_ok();
    let folder = if writable {
        PathBuf::from("/sys")
    } else {
        locked.clone()
    };
    let record = folder.join("game.rec");
    let (_, out) = play(
        &["shogi", "--white", "human"],
        &format!("save {}\nquit\n", path(&record)),
    );
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    assert!(
        out.contains(&format!("the folder {} cannot be written", path(&folder))),
        "{out}"
    );
}

#[test]
fn opening_moves_given_with_moves_are_part_of_the_record() {
    let dir = folder("play-records", "opening-moves");
    let file = dir.join("opening.rec");
    let (code, out) = play(
        &[
            "shogi",
            "--white",
            "human",
            "--moves",
            "7g7f 3c3d",
            "--record",
            path(&file),
        ],
        "P-2f\nquit\n",
    );
    assert_eq!(code, Some(0), "{out}");
    let record = read(&file);
    assert!(
        record.contains("1. P-7f P-3d 2. P-2f"),
        "the opening, then the move typed: {record}"
    );
    let (code, out) = play(&["shogi", "--moves", "7g7f 7g7f"], "quit\n");
    assert_ne!(code, Some(0), "{out}");
    assert!(out.contains("--moves, move 2"), "{out}");
}

/// A variant path with a line break, a quote, a backslash and an escape character is written
/// into the `[Variant]` tag escaped, so that the record reads back and the game goes on
/// (it was written raw, and the record no longer loaded).
#[test]
fn a_variant_path_with_control_characters_is_written_so_that_the_record_reads_back() {
    let dir = folder("play-records", "odd-variant-path");
    let odd = dir.join("my\nodd \"v\\\u{1b}[31m\".var");
    std::fs::write(
        &odd,
        std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("variants/micro.var")).unwrap(),
    )
    .expect("written");
    let file = dir.join("game.rec");
    let (code, out) = play(&[path(&odd), "--record", path(&file), "--white", "human"], "quit\n");
    assert_eq!(code, Some(0), "{out}");
    let written = read(&file);
    let record = koma::notation::parse_record(&written).unwrap_or_else(|e| panic!("{e}:\n{written}"));
    assert_eq!(record.tags.get("Variant").map(String::as_str), Some(path(&odd)));
    assert!(!written.contains('\u{1b}'), "{written:?}");
    let (code, out) = play(&["--record", path(&file), "--white", "human"], "quit\n");
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("continuing the game in"), "{out}");
}

/// A record that starts with a byte-order mark (as some editors save UTF-8) loads; it was
/// refused as having no `[Variant]` tag.
#[test]
fn a_record_starting_with_a_byte_order_mark_loads() {
    let dir = folder("play-records", "byte-order-mark");
    let file = dir.join("game.rec");
    std::fs::write(&file, format!("\u{feff}{FOUR_MOVES}")).expect("written");
    let (code, out) = play(&["--record", path(&file), "--white", "human"], "quit\n");
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("continuing the game in"), "{out}");
}
