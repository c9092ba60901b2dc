//! `koma bench`: perft speed, the interpreter's headline figure. One thread, the last ply
//! counted in bulk, nodes per second for each shipped variant.

use koma::compile::compile_named;
use koma::game::{LionCounting, Position, Tables, perft};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

/// The benchmark positions: each shipped variant's start, at a depth that takes seconds.
const RUNS: &[(&str, u32, u64)] = &[
    ("shogi", 5, 19_861_490),
    ("yari", 6, 63_607_658),
    ("tori", 6, 46_867_039),
    ("chu", 4, 1_801_639),
    ("dai", 4, 25_421_252),
    ("maka-dai-dai", 3, 0),
];

pub fn run(quick: bool) -> ExitCode {
    println!(
        "{:<14} {:>5} {:>14} {:>10} {:>12}",
        "variant", "depth", "nodes", "seconds", "nodes/s"
    );
    let mut failed = false;
    for &(variant, depth, expected) in RUNS {
        let depth = if quick { depth.saturating_sub(1).max(1) } else { depth };
        let Some(rules) = compile_named(variant, &[]).rules else {
            eprintln!("error: {variant} does not compile");
            return ExitCode::FAILURE;
        };
        let mut pos = Position::start(Arc::new(Tables::new(rules)));
        let started = Instant::now();
        let nodes = perft(&mut pos, depth, LionCounting::Distinct);
        let seconds = started.elapsed().as_secs_f64();
        let rate = nodes as f64 / seconds.max(1e-9);
        let check = if quick || expected == 0 {
            ""
        } else if nodes == expected {
            " ok"
        } else {
            failed = true;
            " WRONG"
        };
        println!("{variant:<14} {depth:>5} {nodes:>14} {seconds:>10.2} {rate:>12.0}{check}");
    }
    if failed { ExitCode::FAILURE } else { ExitCode::SUCCESS }
}
