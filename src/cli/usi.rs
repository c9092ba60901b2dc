//! `koma usi`: koma as an engine for USI GUIs. Commands come on standard input, replies go
//! to standard output; the search runs on its own thread, so `stop`, `isready` and
//! `ponderhit` are answered at once. The variant is the option `USI_Variant` (a shipped
//! name) or `VariantFile` (any `.var` file); the variant's own options are USI options too.
//! Bad input is answered with `info string …`, and the game stays as it was.

use super::protocol::{
    MOVES_TO_GO, MoveTime, Report, Thinker, check_option, clock_millis, load_or_report, load_variant, read_command, say,
};
use koma::compile::{Choice, source::SHIPPED};
use koma::engine::{Info, Limits, MAX_PLY, MAX_THREADS, SearchResult, Searcher, TABLE_SLOT_BYTES, WeightFile, mate_in};
use koma::game::{Game, Move, MoveTables, Position};
use koma::notation::{read_sfen, read_usi, write_usi};
use koma::rules::Side;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

/// The transposition table's size by default, in MB (`USI_Hash`).
const DEFAULT_HASH_MB: u64 = 16;

pub fn run(variant: &str, options: &[Choice], weights: Arc<WeightFile>) -> ExitCode {
    let Ok(loaded) = load_or_report(variant, options) else {
        return ExitCode::FAILURE;
    };
    let mut usi = Usi {
        variant: variant.to_string(),
        choices: options.to_vec(),
        game: Game::new(loaded.initial()),
        tables: loaded.tables().clone(),
        thinker: Thinker::with_weights(weights),
        pondering: None,
    };
    let mut input = std::io::stdin().lock();
    while let Some(line) = read_command(&mut input) {
        if !usi.command(&line) {
            break;
        }
    }
    usi.thinker.cancel();
    ExitCode::SUCCESS
}

struct Usi {
    /// The variant loaded: a shipped name or a path.
    variant: String,
    choices: Vec<Choice>,
    tables: Arc<MoveTables>,
    /// The position set by `position`, with the moves that led to it.
    game: Game,
    thinker: Thinker,
    /// The time of the move being pondered, for `ponderhit`.
    pondering: Option<Option<Duration>>,
}

impl Usi {
    /// Answers one command; `false` for `quit`.
    fn command(&mut self, line: &str) -> bool {
        let mut words = line.split_whitespace();
        let Some(name) = words.next() else {
            return true;
        };
        let rest: Vec<&str> = words.collect();
        match name {
            "usi" => self.identify(),
            "isready" => say("readyok"),
            "setoption" => {
                self.stop();
                self.set_option(&rest);
            }
            "usinewgame" => {
                self.stop();
                self.thinker.clear();
                self.game = Game::new(Position::start(self.tables.clone()));
            }
            "position" => {
                self.stop();
                if let Err(message) = self.position(&rest) {
                    say(&format!("info string {message}; the position stays as it was"));
                }
            }
            "go" => {
                self.stop();
                if let Err(message) = self.go(&rest) {
                    say(&format!("info string {message}"));
                }
            }
            "stop" => self.stop(),
            "ponderhit" => match self.pondering.take() {
                Some(time) => self.thinker.release(time),
                None => say("info string ponderhit: koma is not pondering"),
            },
            "gameover" => {
                self.pondering = None;
                self.thinker.cancel();
            }
            "quit" => return false,
            _ => say(&format!(
                "info string unknown command `{name}` (USI commands: usi, isready, setoption, usinewgame, \
                 position, go, stop, ponderhit, gameover, quit)"
            )),
        }
        true
    }

    fn identify(&self) {
        say(&format!("id name koma {}", env!("CARGO_PKG_VERSION")));
        say("id author the koma authors");
        let shipped: Vec<String> = SHIPPED.iter().map(|(n, _)| format!("var {n}")).collect();
        let current = SHIPPED
            .iter()
            .map(|(n, _)| *n)
            .find(|n| *n == self.variant)
            .unwrap_or("shogi");
        say(&format!(
            "option name USI_Variant type combo default {current} {}",
            shipped.join(" ")
        ));
        let file = if SHIPPED.iter().any(|(n, _)| *n == self.variant) {
            "<empty>"
        } else {
            &self.variant
        };
        say(&format!("option name VariantFile type string default {file}"));
        say(&format!(
            "option name USI_Hash type spin default {DEFAULT_HASH_MB} min 1 max 4096"
        ));
        say("option name USI_Ponder type check default false");
        say(&format!(
            "option name Threads type spin default 1 min 1 max {MAX_THREADS}"
        ));
        for (name, option) in &self.tables.rules().options {
            let values: Vec<String> = option.values.iter().map(|v| format!("var {v}")).collect();
            say(&format!(
                "option name {name} type combo default {} {}",
                option.chosen,
                values.join(" ")
            ));
        }
        say("usiok");
    }

    /// `setoption name NAME [value VALUE]`.
    fn set_option(&mut self, words: &[&str]) {
        let text = words.join(" ");
        let Some(rest) = text.strip_prefix("name ") else {
            say("info string setoption: expected `setoption name NAME value VALUE`");
            return;
        };
        let (name, value) = match rest.split_once(" value ") {
            Some((name, value)) => (name.trim(), value.trim()),
            None => (rest.trim(), ""),
        };
        let result = match name {
            "USI_Variant" => match SHIPPED.iter().find(|(n, _)| *n == value) {
                Some(_) => self.load(value, Vec::new()),
                None => Err(format!(
                    "USI_Variant: `{value}` is not a shipped variant (shipped: {}); give a file with VariantFile",
                    SHIPPED.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ")
                )),
            },
            "VariantFile" if value.is_empty() || value == "<empty>" => Ok(()),
            "VariantFile" => self.load(value, Vec::new()),
            "USI_Hash" => match value.parse::<u64>() {
                Ok(mb) if (1..=4096).contains(&mb) => {
                    let entries = mb * (1 << 20) / TABLE_SLOT_BYTES as u64;
                    match Searcher::try_with_table_bits(entries.ilog2()) {
                        Some(searcher) => {
                            self.thinker.set_searcher(searcher);
                            Ok(())
                        }
                        None => Err(format!(
                            "USI_Hash: {mb} MB cannot be had (not enough memory); the table stays as it was"
                        )),
                    }
                }
                _ => Err(format!("USI_Hash: `{value}` is not a size in MB from 1 to 4096")),
            },
            "Threads" => match value.parse::<usize>() {
                Ok(n) if (1..=MAX_THREADS).contains(&n) => {
                    self.thinker.set_threads(n);
                    Ok(())
                }
                _ => Err(format!(
                    "Threads: `{value}` is not a number of threads from 1 to {MAX_THREADS}"
                )),
            },
            "USI_Ponder" => match value {
                "true" | "false" => Ok(()),
                _ => Err(format!("USI_Ponder: `{value}` is not true or false")),
            },
            _ => self.set_variant_option(name, value),
        };
        if let Err(message) = result {
            say(&format!("info string {message}"));
        }
    }

    fn set_variant_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        check_option(&self.tables, name, value)?;
        let mut choices: Vec<Choice> = self.choices.iter().filter(|c| c.name != name).cloned().collect();
        choices.push(Choice {
            name: name.to_string(),
            value: value.to_string(),
        });
        self.load(&self.variant.clone(), choices)
    }

    /// Loads a variant with options, and sets up its start; the game stays as it was when the
    /// variant does not load.
    fn load(&mut self, variant: &str, choices: Vec<Choice>) -> Result<(), String> {
        let loaded = load_variant(variant, &choices).map_err(|lines| lines.join(" / "))?;
        self.variant = variant.to_string();
        self.choices = choices;
        self.game = Game::new(loaded.initial());
        self.tables = loaded.tables().clone();
        Ok(())
    }

    /// `position startpos|sfen SFEN [moves MOVE…]`.
    fn position(&mut self, words: &[&str]) -> Result<(), String> {
        let (setup, moves) = match words.iter().position(|w| *w == "moves") {
            Some(i) => (&words[..i], &words[i + 1..]),
            None => (words, &[][..]),
        };
        let start = match setup.split_first() {
            Some((&"startpos", [])) => Position::start(self.tables.clone()),
            Some((&"sfen", sfen)) if !sfen.is_empty() => {
                read_sfen(&self.tables, &sfen.join(" ")).map_err(|e| format!("position: bad SFEN: {e}"))?
            }
            _ => return Err("position: expected `position startpos` or `position sfen SFEN`, then `moves …`".into()),
        };
        let mut game = Game::new(start);
        for (i, text) in moves.iter().enumerate() {
            let m = read_usi(game.position(), text).map_err(|e| format!("position: move {}: {e}", i + 1))?;
            game.play(m)
                .map_err(|e| format!("position: move {} ({text}): {e}", i + 1))?;
        }
        self.game = game;
        Ok(())
    }

    /// `go …`: starts the search, which answers `bestmove` from its thread.
    fn go(&mut self, words: &[&str]) -> Result<(), String> {
        let go = Go::parse(words)?;
        let side = self.game.position().side_to_move();
        if let Some(outcome) = self.game.outcome() {
            say(&format!("info string the game is over: {}", outcome.reason));
            say(match outcome.winner {
                Some(winner) if winner == side => "bestmove win",
                _ => "bestmove resign",
            });
            return Ok(());
        }
        let time = go.time_for_move(side);
        let open_ended = go.infinite || go.ponder;
        let limits = Limits {
            depth: go.depth.or(open_ended.then_some(MAX_PLY as u32 / 2)),
            time: if go.ponder { None } else { time.map(|t| t.most) },
            fixed_time: go.fixed_time(side),
            target: time.and_then(|t| t.target),
            nodes: go.nodes,
            progress: Some(Arc::new(progress(self.game.position().clone()))),
            ..Limits::default()
        };
        self.pondering = go.ponder.then_some(time.map(|t| t.target.unwrap_or(t.most)));
        let root = self.game.position().clone();
        let report: Report = Box::new(move |result: &SearchResult| say(&bestmove(&root, result)));
        self.thinker
            .start(self.game.position().clone(), limits, open_ended, report);
        Ok(())
    }

    /// Ends a search under way: it answers `bestmove`.
    fn stop(&mut self) {
        self.pondering = None;
        self.thinker.stop();
    }
}

/// The `info` line told of each completed iteration.
fn progress(root: Position) -> impl Fn(&Info) + Send + Sync {
    move |info: &Info| {
        let score = match mate_in(info.score) {
            Some(n) => format!("mate {n}"),
            None => format!("cp {}", info.score),
        };
        say(&format!(
            "info depth {} score {score} nodes {} nps {} time {} pv {}",
            info.depth,
            info.nodes,
            info.nps(),
            info.time.as_millis(),
            line(&root, &info.pv)
        ));
    }
}

/// Moves in USI form, separated by spaces.
fn line(root: &Position, moves: &[Move]) -> String {
    moves.iter().map(|m| write_usi(root, m)).collect::<Vec<_>>().join(" ")
}

fn bestmove(root: &Position, result: &SearchResult) -> String {
    match (result.best, result.pv.get(1)) {
        (None, _) => "bestmove resign".into(),
        (Some(best), Some(reply)) => format!("bestmove {} ponder {}", write_usi(root, &best), write_usi(root, reply)),
        (Some(best), None) => format!("bestmove {}", write_usi(root, &best)),
    }
}

/// The limits of a `go` command.
#[derive(Debug, Default)]
struct Go {
    btime: Option<Duration>,
    wtime: Option<Duration>,
    binc: Option<Duration>,
    winc: Option<Duration>,
    byoyomi: Option<Duration>,
    /// The moves to play before the clock is next given time (UCI's word, which USI lacks).
    movestogo: Option<u32>,
    movetime: Option<Duration>,
    depth: Option<u32>,
    nodes: Option<u64>,
    infinite: bool,
    ponder: bool,
}

impl Go {
    fn parse(words: &[&str]) -> Result<Go, String> {
        let mut go = Go::default();
        let mut words = words.iter();
        while let Some(&word) = words.next() {
            let mut number = || -> Result<u64, String> {
                let value = words.next().ok_or_else(|| format!("go: `{word}` needs a number"))?;
                value
                    .parse::<u64>()
                    .map_err(|_| format!("go: `{word} {value}`: not a whole number"))
            };
            let millis = |n: u64| {
                clock_millis(n)
                    .map(Some)
                    .ok_or_else(|| format!("go: `{word} {n}`: more than a year; not searching"))
            };
            match word {
                "btime" => go.btime = millis(number()?)?,
                "wtime" => go.wtime = millis(number()?)?,
                "binc" => go.binc = millis(number()?)?,
                "winc" => go.winc = millis(number()?)?,
                "byoyomi" => go.byoyomi = millis(number()?)?,
                "movestogo" => go.movestogo = Some(number()?.clamp(1, u64::from(u32::MAX)) as u32),
                "movetime" => go.movetime = millis(number()?)?,
                "depth" => go.depth = Some(number()?.clamp(1, MAX_PLY as u64 / 2) as u32),
                "nodes" => go.nodes = Some(number()?.max(1)),
                "infinite" => go.infinite = true,
                "ponder" => go.ponder = true,
                _ => {
                    return Err(format!(
                        "go: unknown `{word}` (koma reads btime, wtime, binc, winc, byoyomi, movestogo, \
                         movetime, depth, nodes, infinite, ponder); not searching"
                    ));
                }
            }
        }
        Ok(go)
    }

    /// Whether the move's time is its own, to be used to the end: `movetime`, or byoyomi
    /// with the main time spent (what is not used of it is lost).
    fn fixed_time(&self, side: Side) -> bool {
        let left = match side {
            Side::Black => self.btime,
            Side::White => self.wtime,
        };
        self.movetime.is_some() || (self.byoyomi.is_some_and(|b| !b.is_zero()) && left.is_none_or(|t| t.is_zero()))
    }

    /// The time for this move, from the clock: `None` when the command sets no time.
    fn time_for_move(&self, side: Side) -> Option<MoveTime> {
        if let Some(t) = self.movetime {
            return Some(MoveTime::fixed(t));
        }
        let (left, inc) = match side {
            Side::Black => (self.btime, self.binc),
            Side::White => (self.wtime, self.winc),
        };
        if left.is_none() && inc.is_none() && self.byoyomi.is_none() {
            return None;
        }
        let left = left.unwrap_or_default();
        let extra = inc.unwrap_or_default() + self.byoyomi.unwrap_or_default();
        if self.fixed_time(side) {
            return Some(MoveTime::fixed(extra));
        }
        Some(MoveTime::on_clock(left, self.movestogo.unwrap_or(MOVES_TO_GO), extra))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn go(text: &str) -> Go {
        Go::parse(&text.split_whitespace().collect::<Vec<_>>()).expect("the command reads")
    }

    #[test]
    fn movestogo_shares_the_clock_among_the_moves_left_in_the_session() {
        let ten = Duration::from_secs(10);
        assert_eq!(
            go("btime 10000 wtime 9000 movestogo 4").time_for_move(Side::Black),
            Some(MoveTime::on_clock(ten, 4, Duration::ZERO))
        );
        assert_eq!(
            go("btime 10000 wtime 9000").time_for_move(Side::Black),
            Some(MoveTime::on_clock(ten, MOVES_TO_GO, Duration::ZERO))
        );
    }

    #[test]
    fn movestogo_needs_a_whole_number() {
        let error = Go::parse(&["btime", "1000", "movestogo", "many"]).expect_err("not a number");
        assert!(error.contains("movestogo many"), "{error}");
    }
}
