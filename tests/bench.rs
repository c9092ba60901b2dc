//! `koma bench`: every shipped variant, each count checked against the perft data of
//! `tests/perft/` (run at the quick budget, so that `cargo test` stays quick).

mod support;

use std::process::Command;

#[test]
fn bench_checks_every_variant_against_the_perft_data() {
    let out = Command::new(env!("CARGO_BIN_EXE_koma"))
        .args(["bench", "--quick"])
        .output()
        .expect("koma runs");
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(0), "{text}");
    let rows: Vec<Vec<&str>> = text.lines().skip(1).map(|l| l.split_whitespace().collect()).collect();
    let variants: Vec<&str> = rows.iter().map(|r| r[0]).collect();
    assert_eq!(variants, support::shipped(), "{text}");
    for row in &rows {
        assert_eq!(row.last(), Some(&"ok"), "{text}");
        let (variant, depth, nodes) = (row[0], row[1], row[2]);
        // The count run is one the data file lists for the start position.
        let data = std::fs::read_to_string(format!("tests/perft/{variant}.perft")).unwrap();
        let listed = format!("perft {depth} {nodes}");
        assert!(
            data.lines().any(|l| l.trim() == listed),
            "{variant}: {listed} not in its data"
        );
    }
    // Maka-Dai-Dai's count is checked like the others (75 and 5,625 are listed).
    let maka = rows.iter().find(|r| r[0] == "maka-dai-dai").unwrap();
    assert_ne!(maka[2], "0");
}

/// `koma bench --search`: a fixed-depth search of each of its positions, with a move found
/// and nodes counted (the speed itself is a benchmark, never a test).
#[test]
fn search_bench_searches_shogi_chu_and_dai_then_every_variant_for_a_time() {
    let out = Command::new(env!("CARGO_BIN_EXE_koma"))
        .args(["bench", "--search", "--quick"])
        .output()
        .expect("koma runs");
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(0), "{text}");
    let (fixed, timed) = text.split_once("\n\n").expect("two tables");
    let rows: Vec<Vec<&str>> = fixed.lines().skip(1).map(|l| l.split_whitespace().collect()).collect();
    let (total, positions) = rows.split_last().unwrap();
    let variants: Vec<&str> = positions.iter().map(|r| r[0]).collect();
    assert_eq!(
        variants,
        ["shogi", "shogi", "shogi", "chu", "chu", "chu", "dai", "dai", "dai"],
        "{text}"
    );
    // The timed searches: every shipped variant from the start and a middle game, each
    // completing at least its first iteration with a move.
    let timed: Vec<Vec<&str>> = timed.lines().skip(1).map(|l| l.split_whitespace().collect()).collect();
    let searched: Vec<&str> = timed.iter().step_by(2).map(|r| r[0]).collect();
    let shipped: Vec<&str> = koma::compile::source::SHIPPED.iter().map(|&(n, _)| n).collect();
    assert_eq!(searched, shipped, "{text}");
    for row in &timed {
        assert!(row[3].parse::<u32>().unwrap() >= 1, "{text}");
        assert_ne!(row.last(), Some(&"none"), "{text}");
    }
    let mut sum = 0;
    for row in positions {
        let nodes: u64 = row[row.len() - 5].parse().unwrap();
        assert!(nodes > 0, "{text}");
        assert_ne!(row.last(), Some(&"none"), "{text}");
        sum += nodes;
    }
    assert_eq!(total[0], "all");
    assert_eq!(total[1].parse::<u64>().unwrap(), sum, "{text}");
}
