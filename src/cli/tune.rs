//! The commands a tuning run of the evaluation's weights uses (docs/strength.md, "Tuning"):
//! `koma selfplay` plays koma against itself, one weights file against another, and writes
//! the games; `koma eval-terms` reads games and prints, for each quiet position, the game's
//! result and what each weight multiplies in its evaluation, for `scripts/tune.py` to fit.
//!
//! A game is one line: its result for the first player (`black`, `white` or `draw`), then its
//! moves, separated by spaces.

use super::args;
use super::protocol::load_or_report;
use koma::engine::{Evaluator, Limits, Searcher};
use koma::game::{EndReason, Game, Move, MoveTables, Outcome, Position};
use koma::notation::xboard::View;
use koma::notation::{read_usi, write_usi};
use koma::rules::Side;
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

/// How the moves of a game are written.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum Notation {
    /// USI, as koma writes it (`7g7f`, Lion moves `7g6f7g`).
    Usi,
    /// XBoard's coordinates, as `koma xboard` reads them (`h5h6,h6h5`, `@@@@`).
    Xboard,
}

/// `koma selfplay`'s settings.
#[derive(clap::Args)]
pub struct SelfPlay {
    #[command(flatten)]
    variant: args::Variant,
    #[command(flatten)]
    options: args::Options,
    /// The first engine's weights (koma's own when not given).
    #[command(flatten)]
    weights: args::Weights,
    /// The second engine's weights (koma's own when not given).
    #[arg(long, value_name = "FILE")]
    against: Option<PathBuf>,
    /// How many games; the first engine plays Black in the even ones (from 0).
    #[arg(long, default_value_t = 2)]
    games: usize,
    /// Openings, one a line in USI moves (`scripts/openings.py`): each played twice, colours
    /// swapped.
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
    /// After the opening, this many legal moves picked by `--seed`, for varied games.
    #[arg(long, default_value_t = 0)]
    random_plies: usize,
    /// The seed of the picked moves; game `i` uses `seed + i`.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Time per move, in seconds.
    #[arg(long, value_name = "SECONDS")]
    movetime: Option<f64>,
    /// Depth per move (with or instead of a time).
    #[arg(long)]
    depth: Option<u32>,
    /// The second engine's time per move, in seconds: with `--against-depth` or alone, the
    /// second engine's limits instead of `--movetime` and `--depth`.
    #[arg(long, value_name = "SECONDS")]
    against_movetime: Option<f64>,
    /// The second engine's depth per move: with `--against-movetime` or alone, the second
    /// engine's limits instead of `--movetime` and `--depth`.
    #[arg(long, value_name = "N")]
    against_depth: Option<u32>,
    /// A game still going after this many plies is a draw.
    #[arg(long, default_value_t = 400)]
    max_plies: usize,
    /// A game is won by the side both engines score this far ahead (in the declared values'
    /// units) for 6 plies in a row (0: never).
    #[arg(long, default_value_t = 0)]
    adjudicate: i32,
}

/// `koma eval-terms`'s settings.
#[derive(clap::Args)]
pub struct EvalTerms {
    #[command(flatten)]
    variant: args::Variant,
    #[command(flatten)]
    options: args::Options,
    /// The weights the printed evaluation uses (koma's own when not given).
    #[command(flatten)]
    weights: args::Weights,
    /// How the games' moves are written.
    #[arg(long, value_enum, default_value = "usi")]
    notation: Notation,
    /// Leave out the positions of each game's first plies.
    #[arg(long, default_value_t = 16)]
    skip: usize,
}

/// The result of one game of a match, for the first engine.
#[derive(Default)]
struct Score {
    wins: u32,
    losses: u32,
    draws: u32,
}

pub fn selfplay(settings: &SelfPlay) -> ExitCode {
    let Ok(loaded) = load_or_report(&settings.variant.variant, &settings.options.choices) else {
        return ExitCode::FAILURE;
    };
    let tables = loaded.tables().clone();
    let second = args::Weights {
        weights: settings.against.clone(),
    };
    let (Ok(first), Ok(second)) = (settings.weights.load(), second.load()) else {
        return ExitCode::FAILURE;
    };
    let openings = match read_openings(settings.openings.as_ref(), &tables) {
        Ok(openings) => openings,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::FAILURE;
        }
    };
    let limits = match engine_limits(settings) {
        Ok(limits) => limits,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::FAILURE;
        }
    };
    let mut score = Score::default();
    let mut out = std::io::stdout().lock();
    for i in 0..settings.games {
        let opening = openings
            .get((i / 2) % openings.len().max(1))
            .cloned()
            .unwrap_or_default();
        let first_side = if i % 2 == 0 { Side::Black } else { Side::White };
        let mut players = [Player::new(&first, &limits[0]), Player::new(&second, &limits[1])];
        if first_side == Side::White {
            players.swap(0, 1);
        }
        let seed = settings.seed.wrapping_add(i as u64);
        let (moves, outcome) = play_game(&tables, &opening, seed, settings, &mut players);
        let winner = outcome.winner;
        match winner {
            None => score.draws += 1,
            Some(side) if side == first_side => score.wins += 1,
            Some(_) => score.losses += 1,
        }
        let _ = writeln!(out, "{} {}", winner_word(winner), moves.join(" "));
        let reason = outcome.reason;
        eprintln!(
            "game {}: first engine {}, {} ({reason}), {} plies; first engine {}; second engine {}; \
             first engine +{} -{} ={}",
            i + 1,
            first_side,
            winner_word(winner),
            moves.len(),
            players[first_side.index()].searched(),
            players[first_side.opponent().index()].searched(),
            score.wins,
            score.losses,
            score.draws
        );
    }
    eprintln!("{}", score.summary());
    ExitCode::SUCCESS
}

/// The first and the second engine's limits: the second's `--against-depth` and
/// `--against-movetime` when either is given, else the first's.
fn engine_limits(settings: &SelfPlay) -> Result<[Limits; 2], String> {
    let limits = |depth: Option<u32>, movetime: Option<f64>, name: &str| -> Result<Limits, String> {
        let time = movetime
            .map(|seconds| {
                Duration::try_from_secs_f64(seconds)
                    .map_err(|_| format!("{name} {seconds}: not a number of seconds koma can wait"))
            })
            .transpose()?;
        Ok(Limits {
            depth,
            time,
            fixed_time: true,
            ..Limits::default()
        })
    };
    let first = limits(settings.depth, settings.movetime, "--movetime")?;
    let second = match (settings.against_depth, settings.against_movetime) {
        (None, None) => first.clone(),
        (depth, movetime) => limits(depth, movetime, "--against-movetime")?,
    };
    Ok([first, second])
}

/// One engine of a game: its searcher, its limits, and what its searches reached.
struct Player {
    searcher: Searcher,
    limits: Limits,
    /// The engine's searches so far, the depths they completed and the time they took.
    searches: u32,
    depths: u64,
    time: Duration,
}

impl Player {
    fn new(weights: &Arc<koma::engine::WeightFile>, limits: &Limits) -> Player {
        let mut searcher = Searcher::new();
        searcher.set_weights(weights.clone());
        Player {
            searcher,
            limits: limits.clone(),
            searches: 0,
            depths: 0,
            time: Duration::ZERO,
        }
    }

    /// Searches `pos` within the engine's limits, counting the depth and time.
    fn search(&mut self, pos: &Position) -> koma::engine::SearchResult {
        let started = std::time::Instant::now();
        let found = self.searcher.search(pos, &self.limits);
        self.time += started.elapsed();
        self.searches += 1;
        self.depths += u64::from(found.depth);
        found
    }

    /// The average depth completed and time taken per move, for the game's report.
    fn searched(&self) -> String {
        let n = self.searches.max(1);
        format!(
            "depth {:.1}, {:.2} s a move",
            self.depths as f64 / f64::from(n),
            self.time.as_secs_f64() / f64::from(n)
        )
    }
}

/// The plies in a row (both engines' moves) whose scores must agree to adjudicate.
const ADJUDICATION_PLIES: usize = 6;

/// Plays one game from `opening`, then the picked plies, then the engines; the moves in USI
/// and how it ended: by the rules, adjudicated (both engines scored one side ahead by the
/// adjudication's margin for [`ADJUDICATION_PLIES`] plies in a row: it wins), or drawn at the
/// ply limit.
fn play_game(
    tables: &Arc<MoveTables>,
    opening: &[Move],
    seed: u64,
    settings: &SelfPlay,
    players: &mut [Player; 2],
) -> (Vec<String>, Outcome) {
    let mut game = Game::new(Position::start(tables.clone()));
    let mut moves = Vec::new();
    // Black's side of the last engine scores, while they agree beyond the margin.
    let mut agreeing: Vec<i32> = Vec::new();
    for ply in 0.. {
        if let Some(outcome) = game.outcome() {
            return (moves, outcome);
        }
        if ply >= settings.max_plies {
            break;
        }
        let side = game.position().side_to_move();
        let chosen = if let Some(&m) = opening.get(ply) {
            m
        } else if ply < opening.len() + settings.random_plies {
            // The position's hash key is already a pseudo-random number; the seed varies it.
            let legal = game.legal_moves();
            let pick = (game.position().hash() ^ seed.wrapping_mul(0x9E37_79B9_7F4A_7C15)).rotate_left(ply as u32);
            legal[(pick % legal.len() as u64) as usize]
        } else {
            let found = players[side.index()].search(game.position());
            let Some(best) = found.best else {
                break;
            };
            let black = if side == Side::Black { found.score } else { -found.score };
            if let Some(winner) = adjudicate(&mut agreeing, black, settings.adjudicate) {
                let adjudicated = Outcome {
                    winner: Some(winner),
                    reason: EndReason::Adjudication,
                };
                return (moves, adjudicated);
            }
            best
        };
        moves.push(write_usi(game.position(), &chosen));
        if game.play(chosen).is_err() {
            break;
        }
    }
    let at_limit = Outcome {
        winner: None,
        reason: EndReason::MoveLimit,
    };
    (moves, game.outcome().unwrap_or(at_limit))
}

/// Adds an engine's score (Black's side) to the run of scores agreeing beyond `margin` (0:
/// never adjudicate); the side they favour once the run is long enough.
fn adjudicate(agreeing: &mut Vec<i32>, black: i32, margin: i32) -> Option<Side> {
    let same_way = agreeing.last().is_none_or(|&last| (last > 0) == (black > 0));
    if margin == 0 || black.abs() < margin || !same_way {
        agreeing.clear();
    }
    if margin > 0 && black.abs() >= margin {
        agreeing.push(black);
    }
    (agreeing.len() >= ADJUDICATION_PLIES).then_some(if black > 0 { Side::Black } else { Side::White })
}

/// The largest openings file read.
const MAX_OPENINGS_BYTES: usize = 16 << 20;

/// The openings of the file, each checked move by move; one empty opening without a file.
fn read_openings(path: Option<&PathBuf>, tables: &Arc<MoveTables>) -> Result<Vec<Vec<Move>>, String> {
    let Some(path) = path else {
        return Ok(vec![Vec::new()]);
    };
    let bytes = koma::files::read_regular(path, MAX_OPENINGS_BYTES)?;
    if bytes.len() > MAX_OPENINGS_BYTES {
        return Err(format!("{} is larger than {MAX_OPENINGS_BYTES} bytes", path.display()));
    }
    let text = String::from_utf8(bytes).map_err(|_| format!("{} is not UTF-8 text", path.display()))?;
    let mut openings = Vec::new();
    for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let mut pos = Position::start(tables.clone());
        let mut opening = Vec::new();
        for word in line.split_whitespace() {
            let m = read_usi(&pos, word)
                .map_err(|e| format!("{}:{}: opening move `{word}`: {e}", path.display(), n + 1))?;
            pos.make(&m);
            opening.push(m);
        }
        openings.push(opening);
    }
    Ok(openings)
}

fn winner_word(winner: Option<Side>) -> &'static str {
    match winner {
        Some(Side::Black) => "black",
        Some(Side::White) => "white",
        None => "draw",
    }
}

impl Score {
    /// The score, and the Elo difference with its standard error (from the spread of the
    /// games' results).
    fn summary(&self) -> String {
        let (w, l, d) = (f64::from(self.wins), f64::from(self.losses), f64::from(self.draws));
        let n = w + l + d;
        if n == 0.0 {
            return "no games".into();
        }
        let p = (w + d / 2.0) / n;
        let var = (w * (1.0 - p).powi(2) + d * (0.5 - p).powi(2) + l * p * p) / n;
        let error = (var / n).sqrt();
        let elo = |p: f64| -400.0 * (1.0 / p - 1.0).log10();
        let elo_text = if p <= 0.0 || p >= 1.0 {
            "Elo unbounded".to_string()
        } else {
            let elo_error = 400.0 / std::f64::consts::LN_10 / (p * (1.0 - p)) * error;
            format!("{:+.0} ± {:.0} Elo", elo(p), elo_error)
        };
        format!(
            "first engine: +{} -{} ={}, score {:.1}% ± {:.1}% ({elo_text})",
            self.wins,
            self.losses,
            self.draws,
            100.0 * p,
            100.0 * error
        )
    }
}

pub fn eval_terms(settings: &EvalTerms) -> ExitCode {
    let Ok(loaded) = load_or_report(&settings.variant.variant, &settings.options.choices) else {
        return ExitCode::FAILURE;
    };
    let tables = loaded.tables().clone();
    let Ok(weights) = settings.weights.load() else {
        return ExitCode::FAILURE;
    };
    let evaluator = Evaluator::new(tables.clone(), &weights);
    let view = View::new(tables.clone());
    let mut searcher = Searcher::new();
    searcher.set_weights(weights.clone());
    let mut out = std::io::stdout().lock();
    let columns = evaluator.terms(&Position::start(tables.clone())).columns();
    let mut names: Vec<String> = columns.iter().map(|(name, _)| name.to_string()).collect();
    let kinds = evaluator.kind_values();
    let values: Vec<String> = kinds.iter().map(|(name, value)| format!("{name}={value}")).collect();
    let _ = writeln!(out, "# values\t{}", values.join("\t"));
    names.extend(kinds.into_iter().map(|(name, _)| name));
    let _ = writeln!(out, "game\tply\tresult\teval\t{}", names.join("\t"));
    let (mut games, mut skipped) = (0, 0);
    for (n, line) in std::io::stdin().lock().lines().enumerate() {
        let Ok(line) = line else {
            eprintln!("error: standard input, line {}: not text", n + 1);
            return ExitCode::FAILURE;
        };
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let rows = game_rows(&line, &tables, &view, settings, &evaluator, &mut searcher);
        match rows {
            Ok(rows) => {
                games += 1;
                for row in rows {
                    let _ = writeln!(out, "{}\t{row}", n + 1);
                }
            }
            Err(message) => {
                skipped += 1;
                eprintln!("line {}: game left out: {message}", n + 1);
            }
        }
    }
    eprintln!("{games} games read, {skipped} left out");
    ExitCode::SUCCESS
}

/// The rows of one game's quiet positions past the first plies: ply, result for Black,
/// evaluation, terms.
fn game_rows(
    line: &str,
    tables: &Arc<MoveTables>,
    view: &View,
    settings: &EvalTerms,
    evaluator: &Evaluator,
    searcher: &mut Searcher,
) -> Result<Vec<String>, String> {
    let mut words = line.split_whitespace();
    let result = match words.next() {
        Some("black") => "1",
        Some("white") => "0",
        Some("draw") => "0.5",
        other => {
            return Err(format!(
                "`{}` is not a result (black, white or draw)",
                other.unwrap_or("")
            ));
        }
    };
    let mut pos = Position::start(tables.clone());
    let mut rows = Vec::new();
    for (ply, word) in words.enumerate() {
        if ply >= settings.skip && searcher.is_quiet(&pos) {
            let terms = evaluator.terms(&pos);
            let mut values: Vec<String> = terms.columns().iter().map(|(_, v)| format!("{v:.4}")).collect();
            values.extend(evaluator.kind_counts(&pos).iter().map(|n| n.to_string()));
            rows.push(format!(
                "{ply}\t{result}\t{}\t{}",
                evaluator.evaluate(&pos),
                values.join("\t")
            ));
        }
        let m = match settings.notation {
            Notation::Usi => read_usi(&pos, word).map_err(|e| e.to_string()),
            Notation::Xboard => view.read_move(&pos, word),
        }
        .map_err(|e| format!("move {} `{word}`: {e}", ply + 1))?;
        pos.make(&m);
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_is_adjudicated_after_six_scores_agreeing_beyond_the_margin() {
        let run = |scores: &[i32], margin: i32| {
            let mut agreeing = Vec::new();
            scores
                .iter()
                .map(|&s| adjudicate(&mut agreeing, s, margin))
                .collect::<Vec<_>>()
        };
        let six = run(&[900, 1000, 1200, 1000, 1100, 1000], 1000);
        assert_eq!(six, [None, None, None, None, None, None]);
        let seven = run(&[900, 1000, 1200, 1000, 1100, 1000, 2000], 1000);
        assert_eq!(seven.last(), Some(&Some(Side::Black)));
        assert_eq!(run(&[1000; 6], 1000).last(), Some(&Some(Side::Black)));
        assert_eq!(run(&[-1000; 6], 1000).last(), Some(&Some(Side::White)));
        assert_eq!(run(&[-1000, -1000, -1000, 1000, 1000, 1000], 1000).last(), Some(&None));
        assert_eq!(run(&[5000; 10], 0).last(), Some(&None));
    }
}
