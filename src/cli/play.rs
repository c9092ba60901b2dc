//! `koma play`: a game at the terminal, against another person or koma, from commands on
//! standard input (typed, or a script). Bad input is answered and the game goes on.

mod records;

use super::args;
use super::board::{self, Overlay};
use super::move_input::Answer;
use super::terminal;
use indexmap::IndexMap;
use koma::compile::Choice;
use koma::engine::{DRAW_TIME, DrawAnswer, Limits, SearchResult, Searcher, WeightFile, judge_draw, mate_in};
use koma::game::{Game, Move, Outcome, Position};
use koma::notation::{
    EXCERPT_CHARS, MAX_RECORD_MOVES, RecordError, describe_taken, excerpt, played_text, read_usi, result_token,
    write_sfen, write_tsa,
};
use koma::rules::{PieceId, Side};
use koma::variant::{Player, Start, Variant, today};
use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

/// koma's search depth when none is chosen.
const DEFAULT_DEPTH: u32 = 3;
/// koma's time per move when neither a depth nor a time is chosen: large boards are slow at
/// the default depth, and a move should not keep the player waiting for long.
const DEFAULT_TIME: Duration = Duration::from_secs(10);
/// The deepest search `--depth` accepts: the search's own limit, half its ply limit.
const MAX_DEPTH: i64 = koma::engine::MAX_PLY as i64 / 2;
/// The time per move `--time` accepts, in seconds.
const TIME_RANGE: std::ops::RangeInclusive<f64> = 0.01..=3600.0;

/// Reads `--time`: seconds, within [`TIME_RANGE`].
pub(super) fn parse_time(text: &str) -> Result<f64, String> {
    let seconds: f64 = text
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds"))?;
    if TIME_RANGE.contains(&seconds) {
        Ok(seconds)
    } else {
        Err(format!(
            "{seconds} is not in {}..={} (seconds per move)",
            TIME_RANGE.start(),
            TIME_RANGE.end()
        ))
    }
}

/// The settings `koma play` starts from: its command line.
#[derive(clap::Args)]
pub struct Settings {
    #[arg(
        help = args::variant_help(
            ". Not needed to continue a record (`--load`, or `--record` on an existing game), \
             which names its variant"
        )
    )]
    pub variant: Option<String>,
    /// Who plays Black (the first player).
    #[arg(long, default_value = "human", value_parser = args::player())]
    pub black: Player,
    /// Who plays White.
    #[arg(long, default_value = "koma", value_parser = args::player())]
    pub white: Player,
    /// koma's search depth, 1 to 64 plies (default: 3, and at most 10 s per move).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=MAX_DEPTH))]
    pub depth: Option<u32>,
    /// koma's time per move, in seconds, 0.01 to 3600 (instead of a depth, or with one).
    #[arg(long, value_name = "SECONDS", value_parser = parse_time, allow_negative_numbers = true)]
    pub time: Option<f64>,
    /// Start with this handicap (White's pieces removed, White moves first).
    #[arg(long)]
    pub handicap: Option<String>,
    #[command(flatten)]
    pub start: args::Start,
    /// Continue a saved game record (it names its variant and options).
    #[arg(long)]
    pub load: Option<PathBuf>,
    /// Keep the game in this record file, saved after every move. A file that already holds a
    /// game is continued (it is loaded), unless `--overwrite` is given.
    #[arg(long)]
    pub record: Option<PathBuf>,
    /// With `--record`: start a new game that replaces the game in the file.
    #[arg(long, requires = "record")]
    pub overwrite: bool,
    /// Stop after this many moves (for games koma plays against itself).
    #[arg(long)]
    pub max_moves: Option<usize>,
    /// How the board is drawn: wide (White's pieces marked `v`; compact, and said so, when it
    /// does not fit), compact (White's in lower case, in strips of files if still too wide), or
    /// auto: wide when it fits the terminal (its width, or COLUMNS; 80 when output is not a
    /// terminal), else compact.
    #[arg(long, value_enum, default_value = "auto")]
    pub layout: board::Layout,
    #[command(flatten)]
    pub options: args::Options,
    #[command(flatten)]
    pub weights: args::Weights,
}

struct Session {
    settings: Settings,
    /// The evaluation's weights koma plays with.
    weights: Arc<WeightFile>,
    game: Game,
    tags: IndexMap<String, String>,
    colour: bool,
    draw_offer: Option<Side>,
    /// The game's outcome, once announced.
    over: Option<Outcome>,
    /// Standard input is a terminal (not a script).
    interactive: bool,
    /// The `--record` file.
    recording: Option<records::Recording>,
    /// The game is new, or has changed since it was last saved or loaded.
    unsaved: bool,
    /// The last record loaded had a move koma could not play: the error, and the moves kept.
    load_bad_move: Option<(RecordError, usize)>,
    /// A command that asked to be typed again to confirm it (`quit`, `load FILE`).
    pending: Option<String>,
    layout: board::Layout,
}

/// The commands `help` lists: how each is typed, and what it does.
const HELP: &[(&str, &str)] = &[
    (
        "a move",
        "in the rule texts' notation (P-7f, Bx2b+ or Bx2b= where promotion is optional, \
         Lnx3hx2i, P*5e, +DHx!4e) or USI (7g7f)",
    ),
    (
        "moves [WHAT]",
        "list the legal moves: all, or of the piece on a square (7g), of your pieces of a kind (Ln), or the drops (hand)",
    ),
    (
        "show WHAT",
        "mark on the board the legal moves of the piece on a square, of your pieces of a kind, or the drops: \
         o a move, * a capture, 1 2 3 a Lion move 1, 2 or 3 squares away",
    ),
    (
        "board [LAYOUT]",
        "draw the board again; LAYOUT wide, compact or auto (fit the terminal) chooses how",
    ),
    (
        "undo",
        "take back the last move (against koma: your last move and its reply)",
    ),
    ("go", "let koma move for the side to move"),
    ("save FILE", "save the game record"),
    ("load FILE", "load a game record"),
    (
        "handicap NAME",
        "before the first move: White gives a handicap and moves first",
    ),
    ("option N=V", "before the first move: choose an option of the variant"),
    ("draw", "offer a draw"),
    ("accept", "accept a draw offer"),
    ("resign", "resign the game"),
    ("quit", "leave (asks again if the game is unsaved)"),
    ("help", "this list"),
];

/// The column where `help`'s descriptions start.
const HELP_INDENT: usize = 18;

/// The `help` text, wrapped to `width` columns.
fn help_text(width: usize) -> String {
    let mut text = "Commands:\n".to_string();
    for (command, what) in HELP {
        text.push_str(&terminal::wrap_indented(
            &format!("  {command}"),
            what,
            HELP_INDENT,
            width,
        ));
        text.push('\n');
    }
    text
}

pub fn run(settings: Settings) -> ExitCode {
    let colour = super::colour(&std::io::stdout());
    let Ok(weights) = settings.weights.load() else {
        return ExitCode::FAILURE;
    };
    if settings.variant.is_none() && settings.load.is_none() && settings.record.is_none() {
        // A usage error, as clap's own.
        eprintln!("error: {}", records::which_variant());
        return ExitCode::from(2);
    }
    let mut session = match Session::new(settings, weights, colour) {
        Ok(session) => session,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::FAILURE;
        }
    };
    session.main_loop();
    session.leave()
}

/// A new game of `variant` with these options, from its start or with this handicap.
fn new_game(variant: &str, options: &[Choice], handicap: Option<&str>) -> Result<Game, String> {
    let loaded = Variant::named(variant, options)
        .map_err(|report| format!("{}\n{}", report.render(false), report.summary(variant)))?;
    let start = handicap.map_or(Start::Initial, |name| Start::Handicap(name.to_string()));
    loaded.start(&start).map_err(|e| e.to_string())
}

/// The game the settings choose: the variant's start, a handicap, or a position.
fn start_game(settings: &Settings) -> Result<Game, String> {
    let variant = settings.variant.as_deref().unwrap_or_default();
    let game = new_game(variant, &settings.options.choices, settings.handicap.as_deref())?;
    let mut game = match &settings.start.sfen {
        None => game,
        Some(sfen) => Variant::from_tables(game.start().tables().clone())
            .start(&Start::Sfen(sfen.clone()))
            .map_err(|e| e.to_string())?,
    };
    for (number, text) in settings
        .start
        .moves
        .iter()
        .flat_map(|m| m.split_whitespace())
        .enumerate()
    {
        let wrong = |e: String| format!("--moves, move {}: {e}", number + 1);
        let m = read_usi(game.position(), text).map_err(|e| wrong(e.to_string()))?;
        game.play(m).map_err(|e| wrong(e.to_string()))?;
    }
    Ok(game)
}

impl Session {
    fn new(settings: Settings, weights: Arc<WeightFile>, colour: bool) -> Result<Session, String> {
        let source = records::start_source(&settings)?;
        let loaded = match &source {
            Some(path) => Some(records::load_game(path, settings.variant.as_deref())?),
            None => None,
        };
        let game = match &loaded {
            Some(loaded) => loaded.game.clone(),
            None => start_game(&settings)?,
        };
        let interactive = std::io::stdin().is_terminal();
        let mut session = Session {
            weights,
            layout: settings.layout,
            settings,
            game,
            tags: IndexMap::new(),
            colour,
            draw_offer: None,
            over: None,
            interactive,
            recording: None,
            unsaved: true,
            load_bad_move: None,
            pending: None,
        };
        session.reset_tags();
        if let Some(loaded) = loaded {
            session.install(loaded);
        }
        session.open_record(source.as_deref());
        Ok(session)
    }

    /// The variant played (given, or named by the record loaded).
    fn variant(&self) -> &str {
        self.settings.variant.as_deref().unwrap_or_default()
    }

    fn reset_tags(&mut self) {
        let s = &self.settings;
        let mut tags = IndexMap::new();
        tags.insert("Variant".to_string(), self.variant().to_string());
        let name = |p: Player| match p {
            Player::Human => p.to_string(),
            Player::Koma => format!("{p} ({})", self.strength()),
        };
        tags.insert("Black".into(), name(s.black));
        tags.insert("White".into(), name(s.white));
        tags.insert("Date".into(), today());
        if let Some(h) = &s.handicap {
            tags.insert("Handicap".into(), h.clone());
        }
        let start = self.game.start();
        if s.start.sfen.is_some() {
            tags.insert("SFEN".into(), write_sfen(start));
        }
        self.tags = tags;
    }

    fn strength(&self) -> String {
        match (self.settings.depth, self.settings.time) {
            (Some(d), Some(t)) => format!("depth {d}, at most {t} s per move"),
            (None, Some(t)) => format!("{t} s per move"),
            (Some(d), None) => format!("depth {d}"),
            (None, None) => format!("depth {DEFAULT_DEPTH}, at most {} s per move", DEFAULT_TIME.as_secs()),
        }
    }

    /// koma's limits: those chosen, or by default a depth and a time, whichever comes first.
    fn limits(&self) -> Limits {
        let (depth, time) = match (self.settings.depth, self.settings.time) {
            (None, None) => (Some(DEFAULT_DEPTH), Some(DEFAULT_TIME)),
            (depth, time) => (depth, time.map(Duration::from_secs_f64)),
        };
        Limits {
            depth,
            time,
            ..Limits::default()
        }
    }

    fn player(&self, side: Side) -> Player {
        match side {
            Side::Black => self.settings.black,
            Side::White => self.settings.white,
        }
    }

    /// Writes a line (or lines) to the player, wrapped at word boundaries to the terminal
    /// (when output goes to a terminal, or `COLUMNS` gives a width).
    fn say(&self, text: &str) {
        println!("{}", terminal::fit(text));
    }

    fn draw_board(&self, overlay: &Overlay) {
        let last = self.game.moves().last();
        let pos = self.game.position();
        let scene = board::Scene {
            pos,
            last,
            overlay,
            colour: self.colour,
        };
        let width = terminal::width().unwrap_or(terminal::DEFAULT_WIDTH);
        print!("{}", board::draw(&scene, self.layout, width));
        if self.layout == board::Layout::Wide && board::is_compact(pos, self.layout, width) {
            self.say(&format!(
                "the wide board needs {} columns and the terminal has {width}: drawn compact (widen the terminal for the wide one)",
                board::wide_width(pos)
            ));
        }
        let side = pos.side_to_move();
        let check = if pos.royal_in_check(side) { " — check!" } else { "" };
        self.say(&format!("{side} to move (move {}){check}", pos.move_number()));
    }

    fn main_loop(&mut self) {
        self.say(&format!(
            "koma: {} — type `help` for commands.",
            self.game.start().rules().name
        ));
        self.draw_board(&vec![]);
        let stdin = std::io::stdin();
        let mut input = stdin.lock();
        loop {
            let over = self.check_end();
            if self.settings.max_moves.is_some_and(|max| self.game.len() >= max) || self.koma_alone_at_limit() {
                self.say(&format!("stopping after {} moves.", self.game.len()));
                return;
            }
            let side = self.game.position().side_to_move();
            // When koma cannot move, the prompt is the player's: never ask koma again in a loop.
            if !over && self.player(side) == Player::Koma && self.game.len() < MAX_RECORD_MOVES && self.koma_move() {
                continue;
            }
            if over {
                print!("game over> ");
            } else {
                print!("{side}> ");
            }
            let _ = std::io::stdout().flush();
            let Some(line) = read_line(&mut input) else {
                self.say("\nend of input: leaving the game.");
                return;
            };
            if !self.interactive {
                // Echo scripted input, so that the transcript reads like a session.
                let echo = if line.too_long {
                    format!("{}…", line.text.chars().take(EXCERPT_CHARS).collect::<String>())
                } else if line.text.chars().count() > LONGEST_COMMAND {
                    excerpt(&line.text, EXCERPT_CHARS)
                } else {
                    line.text.clone()
                };
                println!("{echo}");
            }
            if line.too_long {
                let start: String = line.text.chars().take(EXCERPT_CHARS).collect();
                self.say(&format!(
                    "that line (`{start}…`) is longer than {MAX_LINE} bytes: it is not read — type `help` for commands"
                ));
                continue;
            }
            if !self.command(line.text.trim()) {
                return;
            }
        }
    }

    /// Announces the end of the game once; returns whether it is over.
    fn check_end(&mut self) -> bool {
        if self.over.is_some() {
            return true;
        }
        let Some(outcome) = self.game.outcome() else {
            return false;
        };
        self.say(&format!("Game over: {outcome} ({}).", result_token(Some(&outcome))));
        self.over = Some(outcome);
        self.autosave();
        true
    }

    /// Ends the game as the players declare (a resignation, an agreed draw), and announces it.
    fn declare(&mut self, outcome: Outcome) {
        match self.game.declare(outcome) {
            Ok(()) => {
                self.check_end();
            }
            Err(over) => self.say(&format!("the game is over ({over})")),
        }
    }

    /// koma moves for the side to move; whether it did (if not, it says why, and the prompt is
    /// the player's).
    fn koma_move(&mut self) -> bool {
        if self.refuse_past_limit() {
            return false;
        }
        let limits = self.limits();
        let found = search(&self.weights, self.game.position(), &limits);
        let Some(best) = found.best else {
            self.say("koma has no move.");
            return false;
        };
        let side = self.game.position().side_to_move();
        if let Err(reason) = self.game.play(best) {
            let text = write_tsa(self.game.position(), &best);
            self.say(&format!(
                "koma's move {text} was refused ({reason}); the move is yours to choose."
            ));
            return false;
        }
        let pos = self.game.position();
        let (text, taken) = self.game.played().last().map_or_else(Default::default, |played| {
            let taken = describe_taken(pos, played).map_or(String::new(), |t| format!(", {t}"));
            (played_text(pos, played), taken)
        });
        self.say(&format!(
            "koma plays {text}{taken} (depth {}, {})",
            found.depth,
            score_text(found.score, side)
        ));
        self.autosave();
        self.draw_board(&vec![]);
        true
    }

    /// Runs one command; returns false to leave.
    fn command(&mut self, line: &str) -> bool {
        let confirmed = self.pending.take().is_some_and(|pending| pending == line);
        let (word, rest) = line
            .split_once(char::is_whitespace)
            .map_or((line, ""), |(w, r)| (w, r.trim()));
        if !matches!(word, "save" | "load") && line.chars().count() > LONGEST_COMMAND {
            self.say(&format!(
                "`{}` is neither a move nor a command — type `help` for commands",
                excerpt(line, EXCERPT_CHARS)
            ));
            return true;
        }
        match word {
            "" => {}
            "help" | "?" => print!("{}", help_text(terminal::width().unwrap_or(terminal::DEFAULT_WIDTH))),
            "quit" | "exit" => return !self.quit(line, confirmed),
            "board" => self.board(rest),
            "moves" => self.list_moves(rest),
            "show" => self.show(rest),
            "undo" => self.undo(),
            "save" => self.save(rest),
            "load" => {
                self.load_command(line, rest, confirmed);
                self.draw_board(&vec![]);
            }
            "handicap" => self.restart(|s| s.settings.handicap = Some(rest.to_string())),
            "option" => match rest.parse::<Choice>() {
                Ok(choice) => self.restart(|s| {
                    s.settings.options.choices.retain(|o| o.name != choice.name);
                    s.settings.options.choices.push(choice.clone());
                }),
                Err(message) => self.say(&message),
            },
            _ => match self.over.clone() {
                Some(reason) => self.say(&format!(
                    "the game is over ({reason}): no more moves — `undo` goes back into it; \
                     `save FILE`, `board`, `moves`, `show` and `quit` still work"
                )),
                None => self.play(word, line),
            },
        }
        true
    }

    /// A command that plays: a move, `go`, `resign`, a draw offer or its acceptance.
    fn play(&mut self, word: &str, line: &str) {
        match word {
            "go" => {
                self.koma_move();
            }
            "resign" => {
                let side = self.game.position().side_to_move();
                self.declare(Outcome::resignation(side));
            }
            "draw" => self.offer_draw(),
            "accept" => self.accept_draw(),
            _ => self.play_text(line),
        }
    }

    fn play_text(&mut self, text: &str) {
        let m = match super::move_input::read_typed(self.game.position(), text) {
            Ok(m) => m,
            Err(Answer::Suggestion(answer)) => return self.say(&answer),
            Err(Answer::Refused(answer)) => return self.say(&format!("{answer} — type `help` for commands")),
        };
        if self.refuse_past_limit() {
            return;
        }
        match self.game.play(m) {
            Ok(()) => {
                self.draw_offer = self.draw_offer.filter(|&s| s != self.game.position().side_to_move());
                self.autosave();
                self.draw_board(&vec![]);
            }
            Err(rule) => self.say(&format!("illegal: {rule}")),
        }
    }

    fn list_moves(&mut self, from: &str) {
        let moves = match self.filtered_moves(from) {
            Ok(moves) => moves,
            Err(answer) => return self.say(&answer),
        };
        let mut texts: Vec<String> = moves.iter().map(|m| write_tsa(self.game.position(), m)).collect();
        texts.sort();
        self.say(&if texts.is_empty() {
            "no legal move".to_string()
        } else {
            texts.join(" ")
        });
    }

    /// The legal moves of the piece on a square, of the drops (`hand`), of every piece of the
    /// side to move of a kind (an abbreviation: on the board and in hand), or all. When there
    /// are none, why.
    fn filtered_moves(&mut self, what: &str) -> Result<Vec<Move>, String> {
        let moves = self.game.legal_moves();
        let pos = self.game.position();
        let rules = &pos.rules();
        if what.is_empty() {
            Ok(moves)
        } else if let Some(square) = koma::rules::Square::parse(what).filter(|s| rules.board.contains(*s)) {
            moves_from(pos, moves, square)
        } else if what == "hand" {
            drops(pos, moves)
        } else if let Some(kind) = rules.piece_by_abbrev(what) {
            moves_of_kind(pos, moves, kind)
        } else {
            Err(format!(
                "`{}` is neither a square of the board nor a piece abbreviation",
                excerpt(what, EXCERPT_CHARS)
            ))
        }
    }

    fn show(&mut self, what: &str) {
        if what.is_empty() {
            self.say("show what? a square (7g), a piece's abbreviation (Ln) or `hand`");
            return;
        }
        let moves = match self.filtered_moves(what) {
            Ok(moves) => moves,
            Err(answer) => return self.say(&answer),
        };
        let pos = self.game.position();
        let geo = pos.geometry();
        let overlay: Overlay = moves
            .iter()
            .map(|m| {
                let capture = pos.taken(m).next().is_some();
                let lion = m
                    .from
                    .is_some_and(|from| m.via[0].is_some() || from == m.to || has_lion_power(pos, from));
                let mark = match (lion, capture) {
                    (true, _) => match m.from.map_or(0, |from| geo.distance(from, m.to)) {
                        0 | 1 => '1',
                        2 => '2',
                        _ => '3',
                    },
                    (false, true) => '*',
                    (false, false) => 'o',
                };
                (m.to, mark)
            })
            .collect();
        self.draw_board(&overlay);
        self.say(&legend(&overlay));
    }

    /// Draws the board; `board LAYOUT` first chooses the layout from then on.
    fn board(&mut self, layout: &str) {
        if !layout.is_empty() {
            match board::Layout::named(layout) {
                Some(layout) => self.layout = layout,
                None => {
                    return self.say(&format!(
                        "`{}` is not a layout: `board wide`, `board compact` or `board auto` (fit the terminal)",
                        excerpt(layout, EXCERPT_CHARS)
                    ));
                }
            }
        }
        self.draw_board(&vec![]);
    }

    /// Takes back the last move (against koma, the player's last move and koma's reply); a
    /// game that was over goes on from there. A resignation or an agreed draw is taken back
    /// alone.
    fn undo(&mut self) {
        if self.game.take_back_declared().is_some() {
            self.reopen();
            self.autosave();
            self.draw_board(&vec![]);
            return;
        }
        let against_koma = self.settings.black != self.settings.white;
        if self.game.undo().is_none() {
            self.say("nothing to undo");
            return;
        }
        if against_koma && self.player(self.game.position().side_to_move()) == Player::Koma {
            self.game.undo();
        }
        self.reopen();
        self.autosave();
        self.draw_board(&vec![]);
    }

    /// The game is no longer over: its result is unknown again.
    fn reopen(&mut self) {
        if self.over.take().is_some() {
            self.say("the game goes on.");
        }
        self.draw_offer = None;
    }

    fn restart(&mut self, change: impl FnOnce(&mut Session)) {
        if !self.game.is_empty() {
            self.say("that can only be chosen before the first move");
            return;
        }
        let before = (self.settings.options.choices.clone(), self.settings.handicap.clone());
        change(self);
        match new_game(
            self.variant(),
            &self.settings.options.choices,
            self.settings.handicap.as_deref(),
        ) {
            Ok(game) => {
                self.game = game;
                self.over = None;
                self.draw_offer = None;
                self.reset_tags();
                self.autosave();
                self.draw_board(&vec![]);
            }
            Err(message) => {
                (self.settings.options.choices, self.settings.handicap) = before;
                self.say(&message);
            }
        }
    }

    fn offer_draw(&mut self) {
        let side = self.game.position().side_to_move();
        if self.player(side.opponent()) == Player::Koma {
            let mut searcher = Searcher::new();
            searcher.set_weights(self.weights.clone());
            // koma accepts when the side to move (the offerer) stands better.
            match judge_draw(&mut searcher, self.game.position(), DRAW_TIME) {
                DrawAnswer::Accepts => self.declare(Outcome::agreed_draw()),
                DrawAnswer::Declines | DrawAnswer::CannotJudge => self.say("koma declines the draw."),
            }
            return;
        }
        self.draw_offer = Some(side);
        self.say(&format!("{side} offers a draw: {} may type `accept`.", side.opponent()));
    }

    fn accept_draw(&mut self) {
        let side = self.game.position().side_to_move();
        match self.draw_offer {
            Some(offerer) if offerer != side => self.declare(Outcome::agreed_draw()),
            _ => self.say("there is no draw offer to accept"),
        }
    }

    /// The options of the game, as its record's `Option` tags give them.
    fn option_tags(&self) -> Vec<String> {
        self.settings
            .options
            .choices
            .iter()
            .map(|o| format!("{}={}", o.name, o.value))
            .collect()
    }
}

/// The longest line of input read as a command; a longer one is answered and skipped.
const MAX_LINE: usize = 4096;

/// A line of input, as text even where it is not UTF-8 (bad bytes become `�`).
struct Line {
    text: String,
    /// It was longer than [`MAX_LINE`] bytes: only its start is kept.
    too_long: bool,
}

/// Reads one line, keeping at most [`MAX_LINE`] bytes of it; `None` at the end of input (or
/// when input cannot be read).
fn read_line(input: &mut impl BufRead) -> Option<Line> {
    let mut bytes = Vec::new();
    let mut too_long = false;
    let mut any = false;
    loop {
        let buffer = match input.fill_buf() {
            Ok(buffer) => buffer,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return None,
        };
        if buffer.is_empty() {
            if !any {
                return None;
            }
            break;
        }
        any = true;
        let end = buffer.iter().position(|&b| b == b'\n');
        let chunk = &buffer[..end.unwrap_or(buffer.len())];
        let room = MAX_LINE.saturating_sub(bytes.len());
        too_long |= chunk.len() > room;
        bytes.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let used = end.map_or(buffer.len(), |i| i + 1);
        input.consume(used);
        if end.is_some() {
            break;
        }
    }
    if bytes.last() == Some(&b'\r') {
        bytes.pop();
    }
    Some(Line {
        text: String::from_utf8_lossy(&bytes).into_owned(),
        too_long,
    })
}

fn has_lion_power(pos: &Position, from: koma::game::Sq) -> bool {
    let square = pos.geometry().square(from);
    pos.piece_at(square).is_some_and(|piece| {
        pos.rules().pieces[piece.kind().index()]
            .moves
            .iter()
            .any(|m| m.lion_steps().is_some())
    })
}

/// The legal moves (of `moves`) of the side to move's piece on `square`; or why there are none.
fn moves_from(pos: &Position, moves: Vec<Move>, square: koma::rules::Square) -> Result<Vec<Move>, String> {
    let side = pos.side_to_move();
    let kind = match pos.piece_at(square) {
        None => return Err(format!("{square} is empty: no piece of yours there")),
        Some(piece) if piece.side() != side => {
            return Err(format!(
                "no piece of yours on {square}: it holds {:?}'s {}",
                piece.side(),
                pos.rules().piece_name(piece.kind())
            ));
        }
        Some(piece) => piece.kind(),
    };
    let sq = pos.geometry().index(square);
    let moves: Vec<Move> = moves.into_iter().filter(|m| m.from == Some(sq)).collect();
    if moves.is_empty() {
        return Err(format!(
            "no legal move for your {} on {square}",
            pos.rules().piece_name(kind)
        ));
    }
    Ok(moves)
}

/// The drops among `moves`; or why there are none.
fn drops(pos: &Position, moves: Vec<Move>) -> Result<Vec<Move>, String> {
    let side = pos.side_to_move();
    let drops: Vec<Move> = moves.into_iter().filter(Move::is_drop).collect();
    let holding = pos.rules().piece_ids().any(|k| pos.in_hand(side, k) > 0);
    match (drops.is_empty(), holding) {
        (false, _) => Ok(drops),
        (true, true) => Err("no legal move: no piece in hand may be dropped now".to_string()),
        (true, false) if !pos.rules().drops => Err(format!("no legal move: {} has no drops", pos.rules().name)),
        (true, false) => Err(format!("no legal move: {side} has nothing in hand")),
    }
}

/// The moves among `moves` of every piece of `kind` of the side to move, on the board and in
/// hand; or why there are none.
fn moves_of_kind(pos: &Position, moves: Vec<Move>, kind: PieceId) -> Result<Vec<Move>, String> {
    let side = pos.side_to_move();
    let geo = pos.geometry();
    let own = |sq: koma::game::Sq| {
        pos.piece_at(geo.square(sq))
            .is_some_and(|p| p.side() == side && p.kind() == kind)
    };
    let on_board = geo.squares().any(own);
    let moves: Vec<Move> = moves
        .into_iter()
        .filter(|m| m.drop == Some(kind) || m.from.is_some_and(own))
        .collect();
    match (moves.is_empty(), on_board || pos.in_hand(side, kind) > 0) {
        (false, _) => Ok(moves),
        (true, true) => Err(format!("no legal move for your {}", pos.rules().piece_name(kind))),
        (true, false) => Err(format!(
            "you have no {}, on the board or in hand",
            pos.rules().piece_name(kind)
        )),
    }
}

/// What the marks of `show` on the board mean: those drawn, in a fixed order.
fn legend(overlay: &Overlay) -> String {
    let meanings = [
        ('o', "o = a move"),
        ('*', "* = a capture"),
        ('1', "1 = a Lion move 1 square away"),
        ('2', "2 = a Lion move 2 squares away"),
        ('3', "3 = a Lion move 3 squares away"),
    ];
    let drawn: Vec<&str> = meanings
        .iter()
        .filter(|(mark, _)| overlay.iter().any(|(_, m)| m == mark))
        .map(|(_, meaning)| *meaning)
        .collect();
    format!("marks: {}", drawn.join(", "))
}

/// The longest command but `save FILE` and `load FILE`, in characters: no move or other
/// command is nearly as long, and a longer line is answered with an excerpt.
const LONGEST_COMMAND: usize = 100;

/// What a search's score says, from the point of view of the side koma played: its lead in
/// the variant's piece values, or the mate it found.
pub(super) fn score_text(score: i32, side: Side) -> String {
    let moves = |n: i32| {
        if n == 1 {
            "1 move".to_string()
        } else {
            format!("{n} moves")
        }
    };
    match mate_in(score) {
        Some(plies) if plies > 0 => format!("{side} mates in {}", moves((plies + 1) / 2)),
        Some(plies) => format!("{side} is mated in {}", moves((1 - plies) / 2)),
        None => format!("score {score:+} for {side}"),
    }
}

/// Searches `pos` with a fresh searcher evaluating with `weights`.
fn search(weights: &Arc<WeightFile>, pos: &Position, limits: &Limits) -> SearchResult {
    let mut searcher = Searcher::new();
    searcher.set_weights(weights.clone());
    searcher.search(pos, limits)
}

#[cfg(test)]
mod tests {
    use super::score_text;
    use koma::engine::MATE;
    use koma::rules::Side;

    /// koma's score is told from the side it played: ahead, behind, or a mate found.
    #[test]
    fn a_score_says_whose_point_of_view_it_is() {
        assert_eq!(score_text(35, Side::White), "score +35 for White");
        assert_eq!(score_text(-120, Side::Black), "score -120 for Black");
        assert_eq!(score_text(MATE - 3, Side::Black), "Black mates in 2 moves");
        assert_eq!(score_text(-(MATE - 2), Side::White), "White is mated in 1 move");
    }
}
