//! `koma play`: a game at the terminal, against another person or koma, from commands on
//! standard input (typed, or a script). Bad input is answered and the game goes on.

mod records;

use super::board::{self, Overlay};
use indexmap::IndexMap;
use koma::compile::{Choice, compile_named};
use koma::engine::{Limits, search};
use koma::game::{Game, GameResult, Move, Position, Tables};
use koma::notation::{MAX_RECORD_MOVES, RecordError, read_move, read_sfen, result_text, write_sfen, write_tsa};
use koma::rules::{PieceId, Side};
use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

/// Who plays a side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Player {
    Human,
    Koma,
}

/// The settings `koma play` starts from.
pub struct Settings {
    /// The variant; when not given, the record loaded names it.
    pub variant: Option<String>,
    pub options: Vec<Choice>,
    pub black: Player,
    pub white: Player,
    pub depth: Option<u32>,
    pub time: Option<f64>,
    pub handicap: Option<String>,
    /// Start from this position instead of the variant's start.
    pub sfen: Option<String>,
    pub load: Option<PathBuf>,
    pub record: Option<PathBuf>,
    /// Replace the game in the `--record` file instead of continuing it.
    pub overwrite: bool,
    /// Stop after this many moves (for games koma plays against itself).
    pub max_moves: Option<usize>,
}

struct Session {
    settings: Settings,
    game: Game,
    tags: IndexMap<String, String>,
    colour: bool,
    draw_offer: Option<Side>,
    over: Option<String>,
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
}

const HELP: &str = "\
Commands:
  a move          in the rule texts' notation (P-7f, Lnx3hx2i, P*5e, +DHx!4e) or USI (7g7f)
  moves [SQ|hand] list the legal moves (of the piece on SQ, or the drops)
  show SQ|ABBR    mark the legal moves of the piece on SQ (or of a piece in hand):
                  o move, x capture, A/B/C a Lion move 1/2/3 squares away
  board           draw the board again
  undo            take back the last move (against koma: your last move and its reply)
  go              let koma move for the side to move
  save FILE       save the game record          load FILE   load a game record
  handicap NAME   before the first move: White gives a handicap and moves first
  option N=V      before the first move: choose an option of the variant
  draw            offer a draw                  accept      accept a draw offer
  resign          resign the game               quit        leave (asks again if the game is unsaved)
  help            this list";

pub fn run(settings: Settings) -> ExitCode {
    let colour = super::colour(std::io::stdout().is_terminal());
    let mut session = match Session::new(settings, colour) {
        Ok(session) => session,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::FAILURE;
        }
    };
    session.main_loop();
    session.leave()
}

fn new_game(variant: &str, options: &[Choice], handicap: Option<&str>) -> Result<Game, String> {
    let compiled = compile_named(variant, options);
    let rules = compiled.rules.ok_or_else(|| {
        format!(
            "{}\n{}",
            compiled.report.render(false),
            compiled.report.summary(variant)
        )
    })?;
    let names: Vec<String> = rules.handicaps.iter().map(|h| h.name.clone()).collect();
    let tables = Arc::new(Tables::new(rules));
    let start = match handicap {
        None => Position::start(tables),
        Some(name) => Position::handicap(tables, name).ok_or_else(|| {
            let known = if names.is_empty() {
                "this variant has none".to_string()
            } else {
                names.join(", ")
            };
            format!("no handicap \"{name}\" ({known})")
        })?,
    };
    Ok(Game::new(start))
}

/// The game the settings choose: the variant's start, a handicap, or a position.
fn start_game(settings: &Settings) -> Result<Game, String> {
    let variant = settings.variant.as_deref().unwrap_or_default();
    let game = new_game(variant, &settings.options, settings.handicap.as_deref())?;
    match &settings.sfen {
        None => Ok(game),
        Some(sfen) => {
            let tables = game.start().tables().clone();
            Ok(Game::new(
                read_sfen(&tables, sfen).map_err(|e| format!("bad position: {e}"))?,
            ))
        }
    }
}

impl Session {
    fn new(settings: Settings, colour: bool) -> Result<Session, String> {
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
            Player::Human => "human".to_string(),
            Player::Koma => format!("koma ({})", self.strength()),
        };
        tags.insert("Black".into(), name(s.black));
        tags.insert("White".into(), name(s.white));
        tags.insert("Date".into(), today());
        if let Some(h) = &s.handicap {
            tags.insert("Handicap".into(), h.clone());
        }
        let start = self.game.start();
        if s.sfen.is_some() {
            tags.insert("SFEN".into(), write_sfen(start));
        }
        tags.insert("Result".into(), "*".into());
        self.tags = tags;
    }

    fn strength(&self) -> String {
        match (self.settings.time, self.settings.depth) {
            (Some(t), _) => format!("{t} s per move"),
            (None, Some(d)) => format!("depth {d}"),
            (None, None) => "depth 3".to_string(),
        }
    }

    fn limits(&self) -> Limits {
        let time = self.settings.time.map(Duration::from_secs_f64);
        let depth = match (self.settings.depth, time) {
            (Some(d), _) => Some(d),
            (None, Some(_)) => None,
            (None, None) => Some(3),
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

    fn say(&self, text: &str) {
        println!("{text}");
    }

    fn draw_board(&self, overlay: &Overlay) {
        let last = self.game.moves().last();
        let pos = self.game.position();
        print!("{}", board::draw(pos, last, overlay, self.colour));
        let side = pos.side_to_move();
        let check = if pos.royal_in_check(side) { " — check!" } else { "" };
        self.say(&format!("{side:?} to move (move {}){check}", pos.move_number()));
    }

    fn main_loop(&mut self) {
        self.say(&format!(
            "koma: {} — type `help` for commands.",
            self.game.start().tables().rules.name
        ));
        self.draw_board(&vec![]);
        let stdin = std::io::stdin();
        let mut input = stdin.lock();
        loop {
            if self.check_end() {
                return;
            }
            if self.settings.max_moves.is_some_and(|max| self.game.len() >= max) || self.koma_alone_at_limit() {
                self.say(&format!("stopping after {} moves.", self.game.len()));
                return;
            }
            let side = self.game.position().side_to_move();
            if self.player(side) == Player::Koma && self.game.len() < MAX_RECORD_MOVES {
                self.koma_move();
                continue;
            }
            print!("{side:?}> ");
            let _ = std::io::stdout().flush();
            let Some(line) = read_line(&mut input) else {
                self.say("\nend of input: leaving the game.");
                return;
            };
            if !self.interactive {
                // Echo scripted input, so that the transcript reads like a session.
                self.say(&line.text);
            }
            if line.too_long {
                self.say(&format!(
                    "that line is longer than {MAX_LINE} bytes: it is not read — type `help` for commands"
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
        let Some(result) = self.game.result() else { return false };
        self.finish(result_text(Some(result.winner)), describe(&result));
        true
    }

    fn finish(&mut self, result: &str, reason: String) {
        self.tags.insert("Result".into(), result.into());
        self.tags.insert("Termination".into(), reason.clone());
        self.say(&format!("Game over: {reason} ({result})."));
        self.over = Some(reason);
        self.autosave();
    }

    fn koma_move(&mut self) {
        if self.refuse_past_limit() {
            return;
        }
        let limits = self.limits();
        let found = search(self.game.position_mut(), &limits);
        let Some(m) = found.best else {
            self.say("koma has no move.");
            return;
        };
        let text = write_tsa(self.game.position_mut(), &m);
        if self.game.play(m).is_ok() {
            self.say(&format!(
                "koma plays {text} (depth {}, score {})",
                found.depth, found.score
            ));
            self.autosave();
            self.draw_board(&vec![]);
        }
    }

    /// Runs one command; returns false to leave.
    fn command(&mut self, line: &str) -> bool {
        let confirmed = self.pending.take().is_some_and(|pending| pending == line);
        let (word, rest) = line
            .split_once(char::is_whitespace)
            .map_or((line, ""), |(w, r)| (w, r.trim()));
        match word {
            "" => {}
            "help" | "?" => self.say(HELP),
            "quit" | "exit" => return !self.quit(line, confirmed),
            "board" => self.draw_board(&vec![]),
            "moves" => self.list_moves(rest),
            "show" => self.show(rest),
            "undo" => self.undo(),
            "go" => self.koma_move(),
            "save" => self.save(rest),
            "load" => {
                self.load_command(line, rest, confirmed);
                self.draw_board(&vec![]);
            }
            "handicap" => self.restart(|s| s.settings.handicap = Some(rest.to_string())),
            "option" => match rest.parse::<Choice>() {
                Ok(choice) => self.restart(|s| {
                    s.settings.options.retain(|o| o.name != choice.name);
                    s.settings.options.push(choice.clone());
                }),
                Err(message) => self.say(&message),
            },
            "resign" => {
                let side = self.game.position().side_to_move();
                self.finish(result_text(Some(Some(side.opponent()))), format!("{side:?} resigns"));
            }
            "draw" => self.offer_draw(),
            "accept" => self.accept_draw(),
            _ => self.play_text(line),
        }
        self.over.is_none()
    }

    fn play_text(&mut self, text: &str) {
        let m = match read_move(self.game.position_mut(), text) {
            Ok(m) => m,
            Err(e) => {
                self.say(&format!("{e} — type `help` for commands"));
                return;
            }
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
        let moves = self.filtered_moves(from);
        let Some(moves) = moves else { return };
        let mut texts: Vec<String> = moves.iter().map(|m| write_tsa(self.game.position_mut(), m)).collect();
        texts.sort();
        self.say(&if texts.is_empty() {
            "no legal move".to_string()
        } else {
            texts.join(" ")
        });
    }

    /// The legal moves of the piece on a square, of a piece in hand (`hand` or an
    /// abbreviation), or all.
    fn filtered_moves(&mut self, what: &str) -> Option<Vec<Move>> {
        let moves = self.game.legal_moves();
        if what.is_empty() {
            return Some(moves);
        }
        let pos = self.game.position();
        let geo = pos.geometry();
        if let Some(square) = koma::rules::Square::parse(what).filter(|s| pos.tables().rules.board.contains(*s)) {
            let sq = geo.index(square);
            return Some(moves.into_iter().filter(|m| m.from == sq).collect());
        }
        if what == "hand" {
            return Some(moves.into_iter().filter(Move::is_drop).collect());
        }
        match pos.tables().rules.piece_by_abbrev(what) {
            Some(PieceId(kind)) => Some(moves.into_iter().filter(|m| m.is_drop() && m.drop == kind).collect()),
            None => {
                self.say(&format!(
                    "`{what}` is neither a square of the board nor a piece abbreviation"
                ));
                None
            }
        }
    }

    fn show(&mut self, what: &str) {
        if what.is_empty() {
            self.say("show what? a square (7g) or a piece in hand (P)");
            return;
        }
        let Some(moves) = self.filtered_moves(what) else { return };
        let pos = self.game.position();
        let geo = pos.geometry();
        let lion = moves.iter().any(|m| m.via[0] != koma::game::NO_SQ || m.from == m.to)
            || moves
                .first()
                .is_some_and(|m| !m.is_drop() && has_lion_power(pos, m.from));
        let overlay: Overlay = moves
            .iter()
            .map(|m| {
                let capture = m.captures().any(|sq| pos.piece_at(geo.square(sq)).is_some());
                let mark = match (lion && !m.is_drop(), capture) {
                    (true, _) => match geo.distance(m.from, m.to) {
                        0 | 1 => 'A',
                        2 => 'B',
                        _ => 'C',
                    },
                    (false, true) => 'x',
                    (false, false) => 'o',
                };
                (m.to, mark)
            })
            .collect();
        if overlay.is_empty() {
            self.say("no legal move there");
        }
        self.draw_board(&overlay);
    }

    fn undo(&mut self) {
        let against_koma = self.settings.black != self.settings.white;
        if self.game.undo().is_none() {
            self.say("nothing to undo");
            return;
        }
        if against_koma && self.player(self.game.position().side_to_move()) == Player::Koma {
            self.game.undo();
        }
        self.autosave();
        self.draw_board(&vec![]);
    }

    fn restart(&mut self, change: impl FnOnce(&mut Session)) {
        if !self.game.is_empty() {
            self.say("that can only be chosen before the first move");
            return;
        }
        let before = (self.settings.options.clone(), self.settings.handicap.clone());
        change(self);
        match new_game(
            self.variant(),
            &self.settings.options,
            self.settings.handicap.as_deref(),
        ) {
            Ok(game) => {
                self.game = game;
                self.reset_tags();
                self.autosave();
                self.draw_board(&vec![]);
            }
            Err(message) => {
                (self.settings.options, self.settings.handicap) = before;
                self.say(&message);
            }
        }
    }

    fn offer_draw(&mut self) {
        let side = self.game.position().side_to_move();
        if self.player(side.opponent()) == Player::Koma {
            let found = search(
                self.game.position_mut(),
                &Limits {
                    depth: Some(2),
                    ..Limits::default()
                },
            );
            // koma accepts when the side to move (the offerer) stands better.
            if found.score > 100 {
                self.finish("1/2-1/2", "draw agreed".into());
            } else {
                self.say("koma declines the draw.");
            }
            return;
        }
        self.draw_offer = Some(side);
        self.say(&format!(
            "{side:?} offers a draw: {:?} may type `accept`.",
            side.opponent()
        ));
    }

    fn accept_draw(&mut self) {
        let side = self.game.position().side_to_move();
        match self.draw_offer {
            Some(offerer) if offerer != side => self.finish("1/2-1/2", "draw agreed".into()),
            _ => self.say("there is no draw offer to accept"),
        }
    }

    /// The options of the game, as its record's `Option` tags give them.
    fn option_tags(&self) -> Vec<String> {
        self.settings
            .options
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
    pos.piece_at(square).is_some_and(|(_, kind, _)| {
        pos.tables().rules.pieces[kind.index()].moves.iter().any(|m| {
            matches!(
                m,
                koma::rules::Movement::AreaLion { .. } | koma::rules::Movement::LineLion { .. }
            )
        })
    })
}

fn describe(result: &GameResult) -> String {
    match result.winner {
        Some(side) => format!("{side:?} wins by {}", result.reason),
        None => format!("draw by {}", result.reason),
    }
}

/// Today's date as `YYYY.MM.DD` (UTC), from the system clock.
fn today() -> String {
    let days = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400) as i64;
    // Civil-from-days (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}
