//! `koma bench`: perft speed, the interpreter's headline figure. One thread, the last ply
//! counted in bulk, nodes per second for each shipped variant, by the thread's CPU time where
//! the system gives it (so that other programs running at the same time slow the figure
//! less), and by the wall clock elsewhere.
//!
//! The expected counts are not restated here: they are read from koma's perft data
//! (`tests/perft/VARIANT.perft`, embedded when koma is built), where each count names the
//! independent program it comes from. Each variant's start position runs at the deepest
//! depth listed there whose count is within a node budget, and the count is checked.

use koma::game::{LionCounting, perft};
use koma::variant::Variant;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// The perft data of each shipped variant, in the order shown.
const DATA: &[(&str, &str)] = &[
    ("shogi", include_str!("../../tests/perft/shogi.perft")),
    ("yari", include_str!("../../tests/perft/yari.perft")),
    ("tori", include_str!("../../tests/perft/tori.perft")),
    ("chu", include_str!("../../tests/perft/chu.perft")),
    ("dai", include_str!("../../tests/perft/dai.perft")),
    ("maka-dai-dai", include_str!("../../tests/perft/maka-dai-dai.perft")),
    ("minishogi", include_str!("../../tests/perft/minishogi.perft")),
    ("judkins", include_str!("../../tests/perft/judkins.perft")),
    ("sho", include_str!("../../tests/perft/sho.perft")),
    ("micro", include_str!("../../tests/perft/micro.perft")),
    ("kyoto", include_str!("../../tests/perft/kyoto.perft")),
    ("checkshogi", include_str!("../../tests/perft/checkshogi.perft")),
    ("annan", include_str!("../../tests/perft/annan.perft")),
    ("wa", include_str!("../../tests/perft/wa.perft")),
    ("whale", include_str!("../../tests/perft/whale.perft")),
    ("heian", include_str!("../../tests/perft/heian.perft")),
    ("heian-dai", include_str!("../../tests/perft/heian-dai.perft")),
    ("dai-dai", include_str!("../../tests/perft/dai-dai.perft")),
    ("tai", include_str!("../../tests/perft/tai.perft")),
    ("taikyoku", include_str!("../../tests/perft/taikyoku.perft")),
    ("tenjiku", include_str!("../../tests/perft/tenjiku.perft")),
    ("gorogoro", include_str!("../../tests/perft/gorogoro.perft")),
    ("gorogoroplus", include_str!("../../tests/perft/gorogoroplus.perft")),
    ("euroshogi", include_str!("../../tests/perft/euroshogi.perft")),
    ("okisaki", include_str!("../../tests/perft/okisaki.perft")),
    ("dobutsu", include_str!("../../tests/perft/dobutsu.perft")),
    ("antiminishogi", include_str!("../../tests/perft/antiminishogi.perft")),
    ("cannon", include_str!("../../tests/perft/cannon.perft")),
];

/// The most nodes of a run: the deepest listed count within it is run (seconds per variant).
const BUDGET: u64 = 100_000_000;

/// The budget of `--quick`.
const QUICK_BUDGET: u64 = 2_000_000;

/// A run shorter than this is repeated until this much time has passed, so that the rate of
/// a small count is measured over enough time.
const LEAST_TIME: Duration = Duration::from_secs(1);

/// The counts the data file lists for the start position (with no option, each distinct move
/// counted once, as `koma perft` counts): `(depth, nodes)`, in the order listed.
fn start_counts(data: &str) -> Result<Vec<(u32, u64)>, String> {
    let mut counts = Vec::new();
    let (mut at_start, mut optioned, mut paths) = (false, false, false);
    for (i, line) in data.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        match word {
            "position" => at_start = rest == "start",
            // Options and lishogi's path counting apply to every position after them.
            "option" => optioned = true,
            "counting" => paths = rest == "paths",
            "perft" if at_start && !optioned && !paths => {
                let mut numbers = rest.split_whitespace().map(str::parse::<u64>);
                match (numbers.next(), numbers.next()) {
                    (Some(Ok(depth)), Some(Ok(nodes))) => counts.push((depth as u32, nodes)),
                    _ => return Err(format!("line {}: `perft DEPTH NODES` expected", i + 1)),
                }
            }
            "perft" => {}
            other => return Err(format!("line {}: unknown word `{other}`", i + 1)),
        }
    }
    Ok(counts)
}

/// The deepest listed count within `budget` nodes (the shallowest if none is).
fn pick(counts: &[(u32, u64)], budget: u64) -> Option<(u32, u64)> {
    let within = counts.iter().filter(|c| c.1 <= budget).max_by_key(|c| c.0);
    within.or_else(|| counts.iter().min_by_key(|c| c.0)).copied()
}

/// The CPU time this thread has run, where the system tells it (Linux's
/// `/proc/thread-self/schedstat`, in nanoseconds): unlike the wall clock, it does not count
/// the time other programs take the processor away.
pub(super) fn thread_cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos = stat.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(nanos))
}

pub fn run(quick: bool) -> ExitCode {
    // The CPU time is kept in scheduler ticks: too coarse for the single short runs of `--quick`.
    let by_cpu = !quick && thread_cpu_time().is_some();
    println!(
        "{:<14} {:>5} {:>14} {:>10} {:>10} {:>12}  check (expected: tests/perft/)",
        "variant",
        "depth",
        "nodes",
        if by_cpu { "CPU s" } else { "seconds" },
        "wall s",
        "nodes/s"
    );
    let budget = if quick { QUICK_BUDGET } else { BUDGET };
    let mut failed = false;
    for &(variant, data) in DATA {
        let picked = start_counts(data).map(|counts| pick(&counts, budget));
        let (depth, expected) = match picked {
            Ok(Some(count)) => count,
            Ok(None) => {
                eprintln!("error: tests/perft/{variant}.perft lists no count for the start position");
                return ExitCode::FAILURE;
            }
            Err(e) => {
                eprintln!("error: tests/perft/{variant}.perft: {e}");
                return ExitCode::FAILURE;
            }
        };
        let Ok(compiled) = Variant::named(variant, &[]) else {
            eprintln!("error: {variant} does not compile");
            return ExitCode::FAILURE;
        };
        let pos = compiled.initial();
        let (started, cpu_started) = (Instant::now(), thread_cpu_time());
        let mut runs = 0u64;
        let nodes = loop {
            let nodes = perft(&pos, depth, LionCounting::Distinct);
            runs += 1;
            if quick || started.elapsed() >= LEAST_TIME {
                break nodes;
            }
        };
        let wall = started.elapsed().as_secs_f64() / runs as f64;
        let cpu = cpu_started
            .zip(thread_cpu_time())
            .map(|(a, b)| (b - a).as_secs_f64() / runs as f64);
        let seconds = cpu.filter(|_| by_cpu).unwrap_or(wall);
        let rate = nodes as f64 / seconds.max(1e-9);
        let check = if nodes == expected {
            "ok".to_string()
        } else {
            failed = true;
            format!("WRONG: expected {expected}")
        };
        println!("{variant:<14} {depth:>5} {nodes:>14} {seconds:>10.4} {wall:>10.4} {rate:>12.0}  {check}");
    }
    if failed { ExitCode::FAILURE } else { ExitCode::SUCCESS }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every shipped variant has a checked count for its start position, in both budgets.
    #[test]
    fn every_shipped_variant_has_a_start_count() {
        let names: Vec<&str> = koma::compile::source::SHIPPED.iter().map(|(n, _)| *n).collect();
        let benched: Vec<&str> = DATA.iter().map(|(n, _)| *n).collect();
        assert_eq!(benched, names);
        for (variant, data) in DATA {
            let counts = start_counts(data).unwrap_or_else(|e| panic!("{variant}: {e}"));
            for budget in [BUDGET, QUICK_BUDGET] {
                let (_, nodes) = pick(&counts, budget).unwrap_or_else(|| panic!("{variant}: no start count"));
                assert!(nodes > 0, "{variant}");
            }
        }
    }

    #[test]
    fn start_counts_skip_other_positions_options_and_path_counting() {
        let data = "# c\nposition start\nperft 1 30\nperft 2 900\nposition 9/9 b - 1\nperft 1 5\n\
                    position start\nperft 3 25470\ncounting paths\nposition start\nperft 1 91\n\
                    counting distinct\nposition start\nperft 4 719731\noption x=y\nposition start\nperft 1 7\n";
        assert_eq!(start_counts(data), Ok(vec![(1, 30), (2, 900), (3, 25470), (4, 719731)]));
        assert!(start_counts("position start\nperft 1\n").is_err());
        assert!(start_counts("positon start\n").is_err());
    }

    #[test]
    fn pick_takes_the_deepest_count_within_the_budget() {
        let counts = [(1, 30), (2, 900), (3, 25_470), (4, 719_731), (5, 19_861_490)];
        assert_eq!(pick(&counts, 2_000_000), Some((4, 719_731)));
        assert_eq!(pick(&counts, 100_000_000), Some((5, 19_861_490)));
        assert_eq!(pick(&counts, 10), Some((1, 30)));
        assert_eq!(pick(&[], 10), None);
    }
}
