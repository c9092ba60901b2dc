//! `koma bench --search`: the search's speed, beside perft's. Fixed-depth searches, one
//! thread, a fresh search (empty transposition table) for each position: the start and two
//! middle-game positions of Shogi, Chu and Dai, in nodes per second. The middle games were
//! reached by six random moves and then koma's own play at depth 3. Seconds are the searching
//! thread's CPU time where the system gives it and not with `--quick` (as `koma bench`), the
//! wall time beside.
//!
//! Then every shipped variant is searched for a fixed time (a second, `--seconds` to choose),
//! from the start and from a middle game (the position after [`MIDDLE_PLIES`] plies of koma's
//! own play at depth 1), with the depth the search completed and its nodes per second.

use super::bench::thread_cpu_time;
use koma::compile::source::SHIPPED;
use koma::engine::{Limits, Searcher};
use koma::game::{Game, Position};
use koma::notation::write_usi;
use koma::variant::{Start, Variant};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// The positions searched: variant, a name, the SFEN (`None`: the start), the depth.
const POSITIONS: &[(&str, &str, Option<&str>, u32)] = &[
    ("shogi", "start", None, 8),
    (
        "shogi",
        "middle 1",
        Some("lns1kgs1l/4g4/p+Bppppn1p/9/9/2PP5/PP2PPP+rP/2R1G4/LNS1KG1SL b 3Pbnp 31"),
        7,
    ),
    (
        "shogi",
        "middle 2",
        Some("l1sgk1+Bnl/2r2gs2/ppnpPp1pp/2p1R1pb1/9/P5P2/1PPK1P1PP/9/LNSG1GSNL b 2p 31"),
        7,
    ),
    ("chu", "start", None, 7),
    (
        "chu",
        "middle 1",
        Some(
            "lfcsgekgscfl/a2t1xot3a/mvr1d2d1rv1/pp1p1pp1p2m/2pi1hbpippn/4p6p/2q2H3P2/3IP1NPI2Q/\
             PPPP2P1P1PP/MVR1D2DBRVM/A1B1TOX1T2A/LFCSGKEGSCFL b - 51",
        ),
        6,
    ),
    (
        "chu",
        "middle 2",
        Some(
            "lfcsgekgscfl/a3txoht2a/mvr1d4rvm/pp1pppqdp2p/1bPin2pi3/h4bp2pp1/1P3H1XI3/3IPHBP1Q2/\
             P2PNPP1PPPP/MVRBD2D1RM1/A3TO1T2VA/LFCSGKEGSCFL b - 51",
        ),
        6,
    ),
    ("dai", "start", None, 6),
    (
        "dai",
        "middle 1",
        Some(
            "l2[i]csgkgsc[i][st][n]l/a[st][csw]3tet1f1[csw]1a/1[vo][n][ab]f[ew]1n1[ew]1[ab]1[vo]1/\
             r[fd]mv4dobvm1r/ppp1ppdpxpp1p1[fd]/4i1p1p1ip2p/2H10p1/3p6h4/8X1[FD]4/3PI1P1P1I1P2/\
             PPPVPP1P1PPP1PP/R1M3D1D1B1V1R/1[VO][FD][AB]1[EW]ON1[EW]1[AB]M[VO]1/\
             A1[CSW]1F1TE1TF1[CSW]1A/L[N][ST][I]CSGKGSC[I][ST][N]L b - 51",
        ),
        5,
    ),
    (
        "dai",
        "middle 2",
        Some(
            "l[n][st][i]csgkgsc[i][st][n]l/a[vo][csw]1f1tet1f1[csw]1a/3[ab]1[ew]xno[ew]1[ab]1[vo][fd]/\
             r[fd]mvb3d2vm1r/pppp3p1pp1ppp/2h1pp1q2ipb2/6h1p3Q2/d3i1p2H5/2[FD]N9B1/1PPPIPBHP1IP3/\
             P1MVP1PP1PP1PPP/R5D1D2VM[FD]R/1[VO]1[AB]O[EW]2X[EW]1[AB]1[VO]1/\
             A1[CSW]1F1TETSF1[CSW]1A/L[N][ST][I]CSGKG1C[I][ST][N]L b - 51",
        ),
        5,
    ),
];

/// Searches each position; `quick` searches one ply less, and every variant for a tenth of
/// the time from the position after fewer plies; `seconds` is the time of each timed search.
pub fn run(quick: bool, seconds: f64) -> ExitCode {
    let code = fixed_depth(quick);
    if code != ExitCode::SUCCESS {
        return code;
    }
    println!();
    timed(quick, seconds)
}

/// The plies of koma's own play (at depth 1) that lead to the middle game of the timed searches.
const MIDDLE_PLIES: usize = 40;

/// Every shipped variant searched for `seconds`, from the start and from the middle game.
fn timed(quick: bool, seconds: f64) -> ExitCode {
    let (time, plies) = if quick {
        (Duration::from_secs_f64(seconds / 10.0), MIDDLE_PLIES / 10)
    } else {
        (Duration::from_secs_f64(seconds), MIDDLE_PLIES)
    };
    println!(
        "{:<13} {:<9} {:>7} {:>5} {:>10} {:>8} {:>10}  best",
        "variant", "position", "time", "depth", "nodes", "cpu", "nodes/s"
    );
    for &(variant, _) in SHIPPED {
        let Ok(compiled) = Variant::named(variant, &[]) else {
            eprintln!("error: {variant} does not compile");
            return ExitCode::FAILURE;
        };
        let start = compiled.initial();
        let middle = middle_game(start.clone(), plies);
        for (name, pos) in [("start", start), ("middle", middle)] {
            let cpu_started = thread_cpu_time();
            let started = Instant::now();
            let found = Searcher::new().search(&pos, &Limits::time(time));
            let wall = started.elapsed().as_secs_f64();
            let cpu = cpu_started
                .zip(thread_cpu_time())
                .map_or(wall, |(a, b)| b.saturating_sub(a).as_secs_f64());
            let best = found.best.map_or("none".to_string(), |m| write_usi(&pos, &m));
            let rate = found.nodes as f64 / cpu.max(1e-9);
            println!(
                "{variant:<13} {name:<9} {:>7.2} {:>5} {:>10} {cpu:>8.3} {rate:>10.0}  {best}",
                time.as_secs_f64(),
                found.depth,
                found.nodes
            );
        }
    }
    ExitCode::SUCCESS
}

/// The position after `plies` plies of koma's own play at depth 1 (a node limit of one: the
/// first iteration, its quiescence cut short) from `start`, or the last
/// before the game ends.
fn middle_game(start: Position, plies: usize) -> Position {
    let mut searcher = Searcher::new();
    let mut game = Game::new(start);
    for _ in 0..plies {
        let Some(m) = searcher.search(game.position(), &Limits::nodes(1)).best else {
            break;
        };
        if game.play(m).is_err() {
            break;
        }
        if game.outcome().is_some() {
            game.undo();
            break;
        }
    }
    game.position().clone()
}

/// The fixed-depth searches of [`POSITIONS`].
fn fixed_depth(quick: bool) -> ExitCode {
    println!(
        "{:<8} {:<9} {:>5} {:>10} {:>8} {:>10} {:>8}  best",
        "variant", "position", "depth", "nodes", "seconds", "nodes/s", "wall"
    );
    let (mut all_nodes, mut all_seconds, mut all_wall) = (0u64, 0f64, 0f64);
    for &(variant, name, sfen, depth) in POSITIONS {
        let depth = if quick { depth - 1 } else { depth };
        let Ok(compiled) = Variant::named(variant, &[]) else {
            eprintln!("error: {variant} does not compile");
            return ExitCode::FAILURE;
        };
        let start = sfen.map_or(Start::Initial, |sfen| Start::Sfen(sfen.to_string()));
        let pos = match compiled.position(&start) {
            Ok(pos) => pos,
            Err(e) => {
                eprintln!("error: {variant} {name}: {e}");
                return ExitCode::FAILURE;
            }
        };
        let mut searcher = Searcher::new();
        // The CPU time is kept in scheduler ticks: too coarse for the short runs of `--quick`.
        let cpu_started = thread_cpu_time().filter(|_| !quick);
        let started = Instant::now();
        let found = searcher.search(&pos, &Limits::depth(depth));
        let wall = started.elapsed().as_secs_f64();
        let seconds = cpu_started
            .zip(thread_cpu_time())
            .map_or(wall, |(a, b)| b.saturating_sub(a).as_secs_f64());
        let best = found.best.map_or("none".to_string(), |m| write_usi(&pos, &m));
        let rate = found.nodes as f64 / seconds.max(1e-9);
        println!(
            "{variant:<8} {name:<9} {depth:>5} {:>10} {seconds:>8.3} {rate:>10.0} {wall:>8.3}  {best}",
            found.nodes
        );
        all_nodes += found.nodes;
        all_seconds += seconds;
        all_wall += wall;
    }
    let rate = all_nodes as f64 / all_seconds.max(1e-9);
    println!(
        "{:<8} {:<9} {:>5} {all_nodes:>10} {all_seconds:>8.3} {rate:>10.0} {all_wall:>8.3}",
        "all", "", ""
    );
    ExitCode::SUCCESS
}
