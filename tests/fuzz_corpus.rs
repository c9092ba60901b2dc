//! The committed fuzz corpora, replayed as ordinary tests: every file of
//! `fuzz/corpus/TARGET/` goes through the check its fuzz target runs (`koma::fuzzing`), so
//! that a regression shows up in `cargo test` without a fuzzer. The corpora hold the seeds
//! (the test files, positions and records) and every input a fuzzing run found that crashed
//! koma (`regression-…`); the `variant` target also reads the shipped variants where they are,
//! in `variants/` (as `fuzz/run.sh` does), so that they are never copies that drift. The long
//! fuzzing runs are separate (CONTRIBUTING.md, "Fuzzing").

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

/// The files of a folder of the package, sorted; fails if it has none.
fn files_in(folder: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(folder);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no files in {}", dir.display());
    files
}

/// Runs `check` on every file of the target's corpus and of the `more` folders; fails naming
/// every file that panics.
fn replay(target: &str, more: &[&str], check: fn(&[u8])) {
    let mut files = files_in(&format!("fuzz/corpus/{target}"));
    for folder in more {
        files.extend(files_in(folder));
    }
    let mut failed = Vec::new();
    for file in &files {
        let data = std::fs::read(file).expect("a corpus file reads");
        if catch_unwind(AssertUnwindSafe(|| check(&data))).is_err() {
            failed.push(file.display().to_string());
        }
    }
    assert!(
        failed.is_empty(),
        "{} of {} inputs of `{target}` fail: {failed:?}",
        failed.len(),
        files.len()
    );
}

#[test]
fn variant_corpus() {
    replay("variant", &["variants"], koma::fuzzing::variant_text);
}

#[test]
fn fmt_corpus() {
    replay("fmt", &["variants"], koma::fuzzing::format_text);
}

#[test]
fn sfen_corpus() {
    replay("sfen", &[], koma::fuzzing::sfen);
}

#[test]
fn moves_corpus() {
    replay("moves", &[], koma::fuzzing::move_text);
}

#[test]
fn record_corpus() {
    replay("record", &[], koma::fuzzing::record);
}

#[test]
fn positions_corpus() {
    replay("positions", &[], koma::fuzzing::positions);
}
