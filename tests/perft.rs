//! Perft against independent programs, driven by the data files in `tests/perft/`
//! (`VARIANT.perft`, and `VARIANT.SOURCE.perft` where a second program's counts are written by
//! their own script; each number cites its source). A file is lines of `position SFEN|start`,
//! then the `option NAME=VALUE` choices for that position, `counting paths|distinct` (until
//! changed) and `perft DEPTH NODES`. Counts up to a node limit run in every
//! `cargo test`; the deep ones run with `cargo test -- --ignored` and in `koma bench`.

mod support;

use koma::compile::{Choice, compile_named};
use koma::game::{LionCounting, MoveTables, Position, perft};
use koma::notation::read_sfen;
use std::sync::Arc;

/// Counts above this many nodes are left to the ignored test and the benchmark.
const NODE_LIMIT: u64 = 3_000_000;

struct Case {
    line: usize,
    sfen: Option<String>,
    options: Vec<Choice>,
    counting: LionCounting,
    depth: u32,
    nodes: u64,
}

/// The data files of a variant: `VARIANT.perft` and any `VARIANT.SOURCE.perft`.
fn files(variant: &str) -> Vec<String> {
    let dir = format!("{}/tests/perft", env!("CARGO_MANIFEST_DIR"));
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .map(|entry| {
            entry
                .expect("a directory entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|name| {
            name.strip_suffix(".perft").is_some_and(|stem| {
                stem == variant || stem.strip_prefix(variant).is_some_and(|rest| rest.starts_with('.'))
            })
        })
        .collect();
    names.sort();
    names.into_iter().map(|name| format!("{dir}/{name}")).collect()
}

fn cases(path: &str) -> Vec<Case> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut out = Vec::new();
    let (mut sfen, mut options, mut counting) = (None, Vec::new(), LionCounting::Distinct);
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        match word {
            "position" => {
                sfen = (rest != "start").then(|| rest.to_string());
                options.clear();
            }
            "option" => options.push(rest.parse().unwrap_or_else(|e| panic!("{path}:{line_no}: {e}"))),
            "counting" => {
                counting = if rest == "paths" {
                    LionCounting::Paths
                } else {
                    LionCounting::Distinct
                }
            }
            "perft" => {
                let mut numbers = rest.split_whitespace().map(|n| {
                    n.parse::<u64>()
                        .unwrap_or_else(|_| panic!("{path}:{line_no}: bad number"))
                });
                let (depth, nodes) = (numbers.next().expect("depth") as u32, numbers.next().expect("nodes"));
                out.push(Case {
                    line: line_no,
                    sfen: sfen.clone(),
                    options: options.clone(),
                    counting,
                    depth,
                    nodes,
                });
            }
            other => panic!("{path}:{line_no}: unknown word `{other}`"),
        }
    }
    out
}

fn run(variant: &str, deep: bool) {
    let mut checked = 0;
    for path in files(variant) {
        for case in cases(&path) {
            if (case.nodes > NODE_LIMIT) != deep {
                continue;
            }
            let rules = compile_named(variant, &case.options)
                .rules
                .unwrap_or_else(|| panic!("{variant} compiles"));
            let tables = Arc::new(MoveTables::new(rules));
            let pos = match &case.sfen {
                None => Position::start(tables),
                Some(text) => read_sfen(&tables, text).unwrap_or_else(|e| panic!("{path}:{}: {e}", case.line)),
            };
            let got = perft(&pos, case.depth, case.counting);
            assert_eq!(
                got, case.nodes,
                "{path} line {}: perft {} of {:?}",
                case.line, case.depth, case.sfen
            );
            checked += 1;
        }
    }
    assert!(deep || checked > 0, "no perft case of {variant} under the node limit");
}

#[test]
fn perft_shogi() {
    run("shogi", false);
}

#[test]
fn perft_yari() {
    run("yari", false);
}

#[test]
fn perft_tori() {
    run("tori", false);
}

#[test]
fn perft_chu() {
    run("chu", false);
}

#[test]
fn perft_dai() {
    run("dai", false);
}

#[test]
fn perft_maka_dai_dai() {
    run("maka-dai-dai", false);
}

#[test]
fn perft_minishogi() {
    run("minishogi", false);
}

#[test]
fn perft_judkins() {
    run("judkins", false);
}

#[test]
fn perft_sho() {
    run("sho", false);
}

#[test]
fn perft_micro() {
    run("micro", false);
}

#[test]
fn perft_kyoto() {
    run("kyoto", false);
}

#[test]
fn perft_gorogoro() {
    run("gorogoro", false);
}

#[test]
fn perft_gorogoroplus() {
    run("gorogoroplus", false);
}

#[test]
fn perft_euroshogi() {
    run("euroshogi", false);
}

#[test]
fn perft_okisaki() {
    run("okisaki", false);
}

#[test]
fn perft_dobutsu() {
    run("dobutsu", false);
}

#[test]
fn perft_antiminishogi() {
    run("antiminishogi", false);
}

#[test]
fn perft_cannon() {
    run("cannon", false);
}

#[test]
fn perft_checkshogi() {
    run("checkshogi", false);
}

#[test]
fn perft_annan() {
    run("annan", false);
}

#[test]
fn perft_wa() {
    run("wa", false);
}

#[test]
fn perft_tenjiku() {
    run("tenjiku", false);
}

#[test]
#[ignore = "deep counts: minutes in release; run with --ignored"]
fn perft_deep() {
    for variant in support::shipped() {
        run(variant, true);
    }
}
