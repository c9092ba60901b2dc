//! `koma xboard`: koma as an engine for XBoard and WinBoard (CECP, protocol version 2).
//! Commands come on standard input, replies go to standard output; the search runs on its own
//! thread, so `?`, `post` and `lift` are answered while koma thinks. XBoard plays Shogi and
//! Chu itself; every other variant koma defines for it, with `setup` and one `piece` command
//! per piece (XBetza), and answers `lift` with `highlight` from its own legal moves, so that
//! the GUI shows and checks every move. Bad input is answered with `Error (…)` or
//! `Illegal move (…)`, and the game stays as it was.

mod pieces;

use super::protocol::{
    MOVES_TO_GO, MoveTime, Report, Thinker, clock_millis, clock_seconds, load_or_report, load_variant, read_command,
    say,
};
use koma::compile::{Choice, compile_named, source::SHIPPED};
use koma::engine::{Info, Limits, MAX_PLY, SearchResult, WeightFile, mate_in};
use koma::game::{Game, Outcome, Position};
use koma::notation::result_token;
use koma::notation::xboard::{View, betza};
use koma::rules::{Rules, Side, Square};
use koma::variant::Variant;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// XBoard's score for a mate: this plus (or minus) the moves to it.
const MATE_SCORE: i64 = 100_000;

pub fn run(variant: &str, options: &[Choice], weights: Arc<WeightFile>) -> ExitCode {
    let Ok(loaded) = load_or_report(variant, options) else {
        return ExitCode::FAILURE;
    };
    let name = xboard_name(variant, &loaded.rules().name);
    let mut xboard = XBoard {
        default: (variant.to_string(), options.to_vec()),
        file: (!SHIPPED.iter().any(|(n, _)| *n == variant)).then(|| (name.clone(), variant.to_string())),
        name,
        game: Game::new(loaded.initial()),
        view: View::new(loaded.tables().clone()),
        thinker: Thinker::with_weights(weights),
        thinking: None,
        force: false,
        engine: Side::White,
        post: Arc::new(AtomicBool::new(false)),
        clock: Clock::default(),
        lifted: None,
    };
    let mut input = std::io::stdin().lock();
    while let Some(line) = read_command(&mut input) {
        if !xboard.command(line.trim()) {
            break;
        }
    }
    xboard.thinker.cancel();
    ExitCode::SUCCESS
}

/// The largest board of the largest XBoard build (`scripts/xboard-big.sh`): ranks, and files
/// holdings included.
const XBOARD_RANKS: u8 = 19;
const XBOARD_FILES: u8 = 23;

/// Why XBoard cannot play a variant, if it cannot: its board keeps the face a piece had, so
/// pieces that turn over on their own part its position from the game's; and its board has
/// a largest size.
fn unplayable(rules: &Rules) -> Option<String> {
    let holdings = if rules.drops { 2 } else { 0 };
    if rules.flip.is_some() {
        Some("its pieces turn over as they move or capture, and XBoard's board keeps the face a piece had; play it with `koma play` or `koma serve`".into())
    } else if rules.board.ranks > XBOARD_RANKS || rules.board.files + holdings > XBOARD_FILES {
        Some(format!(
            "its {} x {} board is larger than XBoard's largest ({XBOARD_RANKS} ranks, {XBOARD_FILES} files with the holdings); play it with `koma play` or `koma serve`",
            rules.board.files, rules.board.ranks
        ))
    } else {
        None
    }
}

/// The name XBoard knows a variant by: a shipped name, or the file's variant name in lower
/// case with dashes.
fn xboard_name(variant: &str, rules_name: &str) -> String {
    if SHIPPED.iter().any(|(n, _)| *n == variant) {
        return variant.to_string();
    }
    let name: String = rules_name
        .to_lowercase()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    name.trim_matches('-').to_string()
}

struct XBoard {
    /// The variant (and options) `new` goes back to.
    default: (String, Vec<Choice>),
    /// A variant file given on the command line: its XBoard name and path.
    file: Option<(String, String)>,
    /// The variant's XBoard name.
    name: String,
    view: View,
    game: Game,
    thinker: Thinker,
    /// A search for koma's move under way: set once its move is printed.
    thinking: Option<Arc<AtomicBool>>,
    /// Force mode: koma plays neither side.
    force: bool,
    /// The side koma plays.
    engine: Side,
    /// Thinking output on (`post`).
    post: Arc<AtomicBool>,
    clock: Clock,
    /// The square of the piece last lifted (`lift`), for a Lion's second leg.
    lifted: Option<Square>,
}

/// The time control: `level`, `st`, `sd`, `time`.
#[derive(Debug, Default)]
struct Clock {
    /// Moves per time control (0: the whole game).
    moves: u32,
    increment: Duration,
    /// Exact time per move (`st`).
    per_move: Option<Duration>,
    depth: Option<u32>,
    /// koma's time left (`time`).
    left: Option<Duration>,
}

impl XBoard {
    /// Answers one command; `false` for `quit`.
    fn command(&mut self, line: &str) -> bool {
        let (name, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        match name {
            "" | "xboard" | "accepted" | "rejected" | "random" | "computer" | "name" | "rating" | "ics" | "easy"
            | "hard" | "put" | "hover" | "otim" | "draw" | "memory" => {}
            "cores" => match rest.parse::<usize>() {
                Ok(n) if n >= 1 => self.thinker.set_threads(n),
                _ => say(&format!("Error (not a number of cores): cores {rest}")),
            },
            "protover" => self.features(),
            "new" => {
                self.cancel();
                let (variant, options) = self.default.clone();
                if let Err(message) = self.load(&variant, &options) {
                    say(&format!("Error ({message}): new"));
                }
                self.force = false;
                self.engine = Side::White;
                self.clock.per_move = None;
                self.clock.depth = None;
            }
            "variant" => {
                self.cancel();
                if let Err(message) = self.variant(rest) {
                    say(&format!("Error ({message}): variant {rest}"));
                }
            }
            "setboard" => {
                self.cancel();
                match self.view.read_fen(rest) {
                    Ok(pos) => self.game = Game::new(pos),
                    Err(message) => {
                        say("tellusererror Illegal position");
                        say(&format!("Error ({message}): setboard"));
                    }
                }
            }
            "force" | "result" => {
                self.cancel();
                self.force = true;
            }
            "go" => {
                self.settle();
                self.force = false;
                self.engine = self.game.position().side_to_move();
                self.think();
            }
            "playother" => {
                self.settle();
                self.force = false;
                self.engine = self.game.position().side_to_move().opponent();
            }
            "white" | "black" => {
                self.settle();
                self.engine = if name == "white" { Side::White } else { Side::Black };
            }
            "usermove" => self.user_move(rest),
            "level" => {
                if let Err(message) = self.clock.level(rest) {
                    say(&format!("Error ({message}): level {rest}"));
                }
            }
            "st" => match clock_seconds(rest).filter(|s| !s.is_zero()) {
                Some(s) => self.clock.per_move = Some(s),
                None => say(&format!("Error (not a number of seconds up to a year): st {rest}")),
            },
            "sd" => match rest.parse::<u32>() {
                Ok(d) if d > 0 => self.clock.depth = Some(d.min(MAX_PLY as u32 / 2)),
                _ => say(&format!("Error (not a depth): sd {rest}")),
            },
            "time" => match rest
                .parse::<u64>()
                .ok()
                .and_then(|cs| cs.checked_mul(10))
                .and_then(clock_millis)
            {
                Some(left) => self.clock.left = Some(left),
                None => say(&format!("Error (not centiseconds up to a year): time {rest}")),
            },
            "ping" => {
                // Not before koma's move, when it is thinking on one.
                self.settle();
                say(&format!("pong {rest}"));
            }
            "undo" => self.take_back(1, line),
            "remove" => self.take_back(2, line),
            "post" => self.post.store(true, Ordering::Relaxed),
            "nopost" => self.post.store(false, Ordering::Relaxed),
            "?" => {
                if let Some(result) = self.thinker.stop() {
                    self.played(&result);
                }
            }
            "lift" => self.lift(rest),
            "quit" => return false,
            _ => {
                // Without the usermove feature, a move comes alone.
                if self.view.read_move(self.game.position(), line).is_ok() {
                    self.user_move(line);
                } else {
                    say(&format!("Error (unknown command): {line}"));
                }
            }
        }
        true
    }

    fn features(&self) {
        // Only what XBoard can play: a variant it could not show is not offered.
        let mut variants: Vec<String> = SHIPPED
            .iter()
            .filter(|(n, _)| compile_named(n, &[]).rules.is_some_and(|r| unplayable(&r).is_none()))
            .map(|(n, _)| n.to_string())
            .collect();
        if let Some((name, _)) = &self.file {
            variants.push(name.clone());
        }
        say(&format!(
            "feature ping=1 setboard=1 usermove=1 sigint=0 sigterm=0 colors=0 highlight=1 debug=1 smp=1 myname=\"koma {}\"",
            env!("CARGO_PKG_VERSION")
        ));
        say(&format!("feature variants=\"{}\"", variants.join(",")));
        say("feature done=1");
    }

    /// `variant NAME`: a shipped variant, or the file given on the command line; the variant
    /// given on the command line keeps the options given there.
    fn variant(&mut self, name: &str) -> Result<(), String> {
        let path = match &self.file {
            Some((file_name, path)) if file_name == name => path.clone(),
            _ if SHIPPED.iter().any(|(n, _)| *n == name) => name.to_string(),
            _ => return Err("unknown variant".into()),
        };
        let (default, options) = &self.default;
        let options = if *default == path { options.clone() } else { Vec::new() };
        let loaded = load_variant(&path, &options).map_err(|lines| lines.join(" / "))?;
        if let Some(reason) = unplayable(loaded.rules()) {
            say(&format!("tellusererror koma cannot play {name} in XBoard: {reason}"));
            return Err(format!("XBoard cannot play {name}"));
        }
        self.start(&path, &loaded);
        Ok(())
    }

    /// Compiles a variant with options and sets up its start; the game stays as it was when
    /// the variant does not compile.
    fn load(&mut self, variant: &str, options: &[Choice]) -> Result<(), String> {
        let loaded = load_variant(variant, options).map_err(|lines| lines.join(" / "))?;
        self.start(variant, &loaded);
        Ok(())
    }

    /// Sets up the start of a variant compiled, defining it for XBoard when XBoard does not
    /// know it.
    fn start(&mut self, variant: &str, loaded: &Variant) {
        self.name = xboard_name(variant, &loaded.rules().name);
        self.view = View::new(loaded.tables().clone());
        self.game = Game::new(loaded.initial());
        self.lifted = None;
        if !View::is_native(&self.name) {
            for line in self.view.definition(self.game.position()) {
                say(&line);
            }
        }
    }

    fn user_move(&mut self, text: &str) {
        self.settle();
        let m = match self.view.read_move(self.game.position(), text) {
            Ok(m) => m,
            Err(reason) => {
                say(&format!("Illegal move ({reason}): {text}"));
                return;
            }
        };
        if let Err(reason) = self.game.play(m) {
            say(&format!("Illegal move ({reason}): {text}"));
            return;
        }
        self.lifted = None;
        if let Some(outcome) = self.game.outcome() {
            say(&result_line(&outcome));
            return;
        }
        if !self.force && self.game.position().side_to_move() == self.engine {
            self.think();
        }
    }

    /// Starts the search for koma's move; it prints the move (and the result, if the move
    /// ends the game) from its thread.
    fn think(&mut self) {
        if let Some(outcome) = self.game.outcome() {
            say(&result_line(&outcome));
            return;
        }
        let root = self.game.position().clone();
        let view = View::new(root.tables().clone());
        let post = self.post.clone();
        let progress_root = root.clone();
        let time = self.clock.time_for_move(self.game.len());
        let limits = Limits {
            depth: self.clock.depth,
            time: time.map(|t| t.most),
            fixed_time: self.clock.per_move.is_some(),
            target: time.and_then(|t| t.target),
            progress: Some(Arc::new(move |info: &Info| {
                if post.load(Ordering::Relaxed) {
                    say(&thinking_line(&view, &progress_root, info));
                }
            })),
            ..Limits::default()
        };
        let moved = Arc::new(AtomicBool::new(false));
        let told = moved.clone();
        let mut game = self.game.clone();
        let view = View::new(root.tables().clone());
        let report: Report = Box::new(move |result: &SearchResult| {
            match result.best {
                Some(best) => {
                    say(&format!("move {}", view.write_move(game.position(), &best)));
                    if game.play(best).is_ok()
                        && let Some(end) = game.outcome()
                    {
                        say(&result_line(&end));
                    }
                }
                None => say("resign"),
            }
            told.store(true, Ordering::Release);
        });
        self.thinker.start(root, limits, false, report);
        self.thinking = Some(moved);
    }

    /// Plays koma's move, once printed, on the game here.
    fn played(&mut self, result: &SearchResult) {
        let printed = self.thinking.take().is_some_and(|moved| moved.load(Ordering::Acquire));
        if printed && let Some(best) = result.best {
            let _legal = self.game.play(best);
        }
    }

    /// Waits for koma's move when it is thinking on one, and plays it here.
    fn settle(&mut self) {
        if self.thinking.is_some()
            && let Some(result) = self.thinker.wait()
        {
            self.played(&result);
        }
    }

    /// Ends a search without its move; a move already printed is played here.
    fn cancel(&mut self) {
        if let Some(result) = self.thinker.cancel() {
            self.played(&result);
        }
        self.thinking = None;
    }

    fn take_back(&mut self, plies: usize, line: &str) {
        self.cancel();
        if self.game.len() < plies {
            say(&format!("Error (no move to undo): {line}"));
            return;
        }
        for _ in 0..plies {
            self.game.undo();
        }
        self.lifted = None;
    }

    fn lift(&mut self, text: &str) {
        let Some(square) = self.view.parse_square(text) else {
            say(&format!("Error (not a square of the board): lift {text}"));
            return;
        };
        let pos = self.game.position();
        let ours = pos.piece_at(square).is_some_and(|p| p.side() == pos.side_to_move());
        if let Some(line) = self.view.highlight(pos, square, self.lifted) {
            say(&line);
        }
        if ours {
            self.lifted = Some(square);
        }
    }
}

impl Clock {
    /// `level MOVES BASE INC`: BASE in minutes (`5`, `0:30`), INC in seconds.
    fn level(&mut self, text: &str) -> Result<(), String> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let [moves, base, inc] = words[..] else {
            return Err("expected MOVES BASE INCREMENT".into());
        };
        let moves = moves.parse().map_err(|_| "MOVES is not a whole number")?;
        let minutes_ok = base
            .split(':')
            .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()));
        if !minutes_ok {
            return Err("BASE is minutes or minutes:seconds".into());
        }
        let increment = clock_seconds(inc).ok_or("INCREMENT is not a number of seconds up to a year")?;
        self.moves = moves;
        self.increment = increment;
        self.per_move = None;
        Ok(())
    }

    /// The time for this move: `st`, or a share of the clock.
    fn time_for_move(&self, plies: usize) -> Option<MoveTime> {
        if let Some(t) = self.per_move {
            return Some(MoveTime::fixed(t));
        }
        let left = self.left?;
        let to_go = match self.moves {
            0 => MOVES_TO_GO,
            n => n - ((plies / 2) as u32 % n),
        };
        Some(MoveTime::on_clock(left, to_go, self.increment))
    }
}

/// `1-0 {checkmate}`: the result as a record writes it (XBoard's white is koma's Black), and
/// why.
fn result_line(outcome: &Outcome) -> String {
    format!("{} {{{}}}", result_token(Some(outcome)), outcome.reason)
}

/// Thinking output: depth, score (centipawns; mates as 100000 plus the moves), time in
/// centiseconds, nodes, the expected line.
fn thinking_line(view: &View, root: &Position, info: &Info) -> String {
    let score = match mate_in(info.score) {
        Some(n) if n > 0 => MATE_SCORE + i64::from((n + 1) / 2),
        Some(n) => -MATE_SCORE - i64::from((1 - n) / 2),
        None => i64::from(info.score),
    };
    let mut pos = root.clone();
    let mut line = Vec::new();
    for m in &info.pv {
        line.push(view.write_move(&pos, m));
        pos.make(m);
    }
    format!(
        "{} {score} {} {} {}",
        info.depth,
        info.time.as_millis() / 10,
        info.nodes,
        line.join(" ")
    )
}

/// `koma betza VARIANT`: each piece's moves in XBetza, as `koma xboard` sends them.
pub fn betza_command(variant: &str, options: &[Choice]) -> ExitCode {
    match load_variant(variant, options) {
        Ok(loaded) => {
            let mut text = String::new();
            for piece in &loaded.rules().pieces {
                let b = betza(piece);
                let note = if b.exact {
                    ""
                } else {
                    "  (inexact: koma's highlights give the moves)"
                };
                text.push_str(&format!("{:<4} {:<22} {}{note}\n", piece.abbrev, piece.name, b.text));
            }
            // A closed output (`| head`) is not an error.
            let _closed = std::io::Write::write_all(&mut std::io::stdout().lock(), text.as_bytes());
            ExitCode::SUCCESS
        }
        Err(lines) => {
            for line in lines {
                eprintln!("{line}");
            }
            ExitCode::FAILURE
        }
    }
}

/// `koma xboard-pieces VARIANT DIR`: writes the variant's piece set for XBoard's
/// `-pieceImageDirectory` into DIR (made if missing), then prints the command that starts
/// XBoard with it. Shogi and Chu XBoard draws itself; a variant XBoard cannot play gets none.
pub fn pieces_command(variant: &str, options: &[Choice], dir: &std::path::Path, abbreviations: bool) -> ExitCode {
    let Ok(loaded) = load_or_report(variant, options) else {
        return ExitCode::FAILURE;
    };
    let rules = loaded.rules().clone();
    let name = xboard_name(variant, &rules.name);
    if View::is_native(&name) {
        eprintln!(
            "XBoard draws {} with its own pieces: koma writes piece sets for the variants it defines for XBoard",
            rules.name
        );
        return ExitCode::FAILURE;
    }
    if let Some(reason) = unplayable(&rules) {
        eprintln!("XBoard cannot play {}: {reason}", rules.name);
        return ExitCode::FAILURE;
    }
    let files = pieces::piece_set(&View::new(loaded.tables().clone()), &rules, !abbreviations);
    if let Err(e) = std::fs::create_dir_all(dir) {
        eprintln!("cannot make the directory {}: {e}", dir.display());
        return ExitCode::FAILURE;
    }
    for (file, svg) in &files {
        let path = dir.join(file);
        if let Err(e) = std::fs::write(&path, svg) {
            eprintln!("cannot write {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
    }
    let engine = if SHIPPED.iter().any(|(n, _)| *n == variant) {
        "koma xboard".to_string()
    } else {
        format!("koma xboard {variant}")
    };
    println!(
        "{} pieces of {} written to {} ({} files); start XBoard with them:",
        files.len() / 2,
        rules.name,
        dir.display(),
        files.len()
    );
    println!(
        "xboard -fcp \"{engine}\" -variant {name} -pieceImageDirectory {} -trueColors true",
        shell_word(&dir.display().to_string())
    );
    ExitCode::SUCCESS
}

/// A word as the shell reads it back: quoted when it holds anything but plain characters.
fn shell_word(text: &str) -> String {
    if text.chars().all(|c| c.is_ascii_alphanumeric() || "/._-+".contains(c)) {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
    }
}
