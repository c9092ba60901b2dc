//! The committed fuzz corpora, replayed as ordinary tests: every file of
//! `fuzz/corpus/TARGET/` goes through the check its fuzz target runs (`koma::fuzzing`), so
//! that a regression shows up in `cargo test` without a fuzzer. The corpora hold the seeds
//! (shipped variants, the test files, positions and records) and every input a fuzzing run
//! found that crashed koma (`regression-…`). The long fuzzing runs are separate (README.md,
//! "Fuzzing").

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;

/// Runs `check` on every file of the target's corpus; fails naming every file that panics.
fn replay(target: &str, check: fn(&[u8])) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus").join(target);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no corpus in {}", dir.display());
    let mut failed = Vec::new();
    for file in &files {
        let data = std::fs::read(file).expect("a corpus file reads");
        if catch_unwind(AssertUnwindSafe(|| check(&data))).is_err() {
            failed.push(file.file_name().unwrap_or_default().to_string_lossy().into_owned());
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
    replay("variant", koma::fuzzing::variant_text);
}

#[test]
fn sfen_corpus() {
    replay("sfen", koma::fuzzing::sfen);
}

#[test]
fn moves_corpus() {
    replay("moves", koma::fuzzing::move_text);
}

#[test]
fn record_corpus() {
    replay("record", koma::fuzzing::record);
}

#[test]
fn positions_corpus() {
    replay("positions", koma::fuzzing::positions);
}
