//! The game's files in `koma play`: loading a record (`--load`, `load`), saving it (`save`),
//! and the record file `--record` keeps after every change. What koma promises (docs/cli.md, "Game
//! records"): a record on disk is never shortened, nor replaced by anything but the game the
//! player goes on with after being told; an unsaved game is never left without saying so.

use super::{Session, Settings, new_game};
use indexmap::IndexMap;
use koma::compile::{Choice, compile_named};
use koma::files::{Target, same_file, save_atomic, target};
use koma::game::{Game, Position};
use koma::notation::{
    MAX_RECORD_MOVES, RecordError, parse_record, read_record_file, read_sfen, replay, tags_with_outcome, write_record,
};
use koma::variant::{Player, Variant};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The record file of `--record`, and whether koma writes it.
pub(super) struct Recording {
    path: PathBuf,
    /// Why koma does not write the file now (it holds a game koma must not lose), if so.
    held: Option<String>,
    /// Why the last save of the file failed, if it did.
    failed: Option<String>,
}

/// A record read from disk and replayed.
pub(super) struct Loaded {
    path: PathBuf,
    variant: String,
    options: Vec<Choice>,
    handicap: Option<String>,
    tags: IndexMap<String, String>,
    pub(super) game: Game,
    /// The move that could not be played, if one could not: the game holds the moves before it.
    bad_move: Option<RecordError>,
}

/// The file to load at the start, if any: `--load FILE`, or the game already in the `--record`
/// file (continued unless `--overwrite`). Refuses a start that would replace a game on disk
/// without `--overwrite`, or that mixes a record with the choices of a new game.
pub(super) fn start_source(settings: &Settings) -> Result<Option<PathBuf>, String> {
    let holds_game = match &settings.record {
        Some(path) => {
            let found = target(path).map_err(|e| format!("cannot record the game: {e}"))?;
            matches!(found, Target::Regular(bytes) if bytes > 0)
        }
        None => false,
    };
    let record = settings.record.as_deref().filter(|_| holds_game && !settings.overwrite);
    if let (Some(record), Some(load)) = (record, &settings.load)
        && !same_file(record, load)
    {
        return Err(format!(
            "{} already holds a game, and koma does not replace it unless told: continue it (`--record {}` \
             without `--load`), record elsewhere, or give `--overwrite` to replace it",
            record.display(),
            record.display()
        ));
    }
    let source = settings.load.clone().or_else(|| record.map(Path::to_path_buf));
    let new_game_choices = settings.start.sfen.is_some()
        || settings.start.moves.is_some()
        || settings.handicap.is_some()
        || !settings.options.choices.is_empty();
    if let Some(source) = &source
        && new_game_choices
    {
        let hint = if settings.load.is_some() {
            String::new()
        } else {
            " (to start a new game in it instead, give `--overwrite`)".to_string()
        };
        return Err(format!(
            "--sfen, --moves, --handicap and --option choose a new game, but {} gives its own game to continue{hint}",
            source.display()
        ));
    }
    if source.is_none() && settings.variant.is_none() {
        return Err(which_variant());
    }
    Ok(source)
}

/// What `koma play` says when no variant is named: the shipped ones.
pub(super) fn which_variant() -> String {
    let shipped: Vec<&str> = koma::compile::source::SHIPPED.iter().map(|&(name, _)| name).collect();
    format!(
        "which variant? Name one (`koma play shogi`): {}, or a `.var` file; or a record to continue (`--load FILE`)",
        shipped.join(", ")
    )
}

/// Reads and replays a record. `expected` is the VARIANT given with it: the record's own
/// variant must be the same.
pub(super) fn load_game(path: &Path, expected: Option<&str>) -> Result<Loaded, String> {
    let shown = path.display();
    let text = read_record_file(path)?;
    let record = parse_record(&text).map_err(|e| format!("{shown}: {e}"))?;
    let variant = record.tags.get("Variant").cloned().unwrap_or_default();
    let options: Vec<Choice> = record
        .options
        .iter()
        .map(|v| v.parse())
        .collect::<Result<_, _>>()
        .map_err(|e| format!("{shown}: Option tag: {e}"))?;
    let handicap = record.tags.get("Handicap").cloned();
    let mut game = new_game(&variant, &options, handicap.as_deref())?;
    if let Some(expected) = expected {
        same_variant(&game, &variant, expected, &options).map_err(|e| format!("{shown}: {e}"))?;
    }
    if let Some(sfen) = record.tags.get("SFEN") {
        let tables = game.start().tables().clone();
        let start: Position = read_sfen(&tables, sfen).map_err(|e| format!("{shown}: SFEN tag: {e}"))?;
        game = Variant::game_from(start);
    }
    // The game goes on: the record's result is not declared again, and the game's own
    // outcome is written back.
    let bad_move = replay(&mut game, &record).err();
    Ok(Loaded {
        path: path.to_path_buf(),
        variant,
        options,
        handicap,
        tags: record.tags,
        game,
        bad_move,
    })
}

/// Checks that the VARIANT given on the command line is the record's: the same name, or a
/// variant whose rules (with the record's options) are the same.
fn same_variant(game: &Game, variant: &str, expected: &str, options: &[Choice]) -> Result<(), String> {
    if variant == expected {
        return Ok(());
    }
    let given = compile_named(expected, options).rules;
    if given.as_ref() == Some(game.start().rules()) {
        return Ok(());
    }
    Err(format!(
        "the record is a game of `{variant}`, not of `{expected}` (give no VARIANT with `--load`: the record names it)"
    ))
}

/// Why koma does not write over a record file whose game it could not read whole.
fn held_reason(path: &Path, bad_move: &RecordError, kept: usize) -> String {
    format!(
        "koma does not write over {}, which holds moves it could not play (move {} on)",
        path.display(),
        bad_move.ply.unwrap_or(kept + 1)
    )
}

impl Session {
    /// At the start: the record file to keep (written unless it holds a game koma could not
    /// read whole), after loading `source`, which is the file from [`start_source`].
    pub(super) fn open_record(&mut self, source: Option<&Path>) {
        let Some(path) = self.settings.record.clone() else {
            return;
        };
        let held = match (source, &self.load_bad_move) {
            (Some(source), Some((bad_move, kept))) if same_file(source, &path) && !self.settings.overwrite => {
                Some(held_reason(&path, bad_move, *kept))
            }
            _ => None,
        };
        if source.is_some_and(|s| same_file(s, &path)) && held.is_none() {
            self.say(&format!("continuing the game in {}", path.display()));
        } else if self.settings.overwrite && matches!(target(&path), Ok(Target::Regular(n)) if n > 0) {
            self.say(&format!("{} is replaced by this game (--overwrite)", path.display()));
        }
        if let Some(reason) = &held {
            self.tell_held(reason, &path);
        }
        self.recording = Some(Recording {
            path,
            held,
            failed: None,
        });
    }

    /// Takes a loaded record as the game, and says how it was read.
    pub(super) fn install(&mut self, loaded: Loaded) {
        self.settings.variant = Some(loaded.variant);
        self.settings.options.choices = loaded.options;
        self.settings.handicap = loaded.handicap;
        self.game = loaded.game;
        self.tags = loaded.tags;
        self.over = None;
        self.unsaved = false;
        let kept = self.game.len();
        let shown = loaded.path.display();
        match &loaded.bad_move {
            None => self.say(&format!("loaded {shown} ({kept} moves)")),
            Some(e) => self.say(&format!("{shown}: {e}; the {kept} moves before it are kept")),
        }
        self.load_bad_move = loaded.bad_move.map(|e| (e, kept));
    }

    /// After every change of the game: the game is unsaved until the record file, if koma
    /// writes one, holds it.
    pub(super) fn autosave(&mut self) {
        self.unsaved = true;
        if self.game.len() == MAX_RECORD_MOVES {
            self.say(&limit_message());
        }
        self.write_record();
    }

    /// The game's record: its tags and outcome, options and moves.
    fn record_text(&mut self) -> String {
        let tags = tags_with_outcome(&self.tags, self.game.outcome().as_ref());
        write_record(&tags, &self.option_tags(), &self.game)
    }

    /// Writes the record file, unless koma holds it.
    fn write_record(&mut self) {
        if self.recording.as_ref().is_none_or(|r| r.held.is_some()) {
            return;
        }
        let text = self.record_text();
        let Some(recording) = &mut self.recording else { return };
        match save_atomic(&recording.path, &text) {
            Ok(()) => {
                recording.failed = None;
                self.unsaved = false;
            }
            Err(e) => {
                recording.failed = Some(e.clone());
                self.say(&format!("{e} — the game is not saved; `save FILE` saves it elsewhere"));
            }
        }
    }

    /// `save FILE`: saves the game there (an explicit choice: over a record koma held, too).
    pub(super) fn save(&mut self, path: &str) {
        if path.is_empty() {
            self.say("save where? `save FILE`");
            return;
        }
        let path = PathBuf::from(path);
        let text = self.record_text();
        if let Err(e) = save_atomic(&path, &text) {
            self.say(&e);
            return;
        }
        self.unsaved = false;
        let mut resumed = false;
        if let Some(recording) = &mut self.recording
            && same_file(&recording.path, &path)
        {
            resumed = recording.held.take().is_some();
            recording.failed = None;
        }
        self.say(&format!("saved to {}", path.display()));
        if resumed {
            self.say("the game is recorded there again after every move");
        }
    }

    /// `load FILE`: replaces the game by a record's, once told if the game is unsaved.
    pub(super) fn load_command(&mut self, line: &str, rest: &str, confirmed: bool) {
        if rest.is_empty() {
            self.say("load what? `load FILE`");
            return;
        }
        if self.unsaved && !self.game.is_empty() && !confirmed {
            self.pending = Some(line.to_string());
            self.say(&format!(
                "the game has moves that are not saved: `save FILE` saves them, or type `{line}` again to replace the game"
            ));
            return;
        }
        let path = PathBuf::from(rest);
        match load_game(&path, None) {
            Ok(loaded) => {
                let had_moves = !self.game.is_empty();
                self.install(loaded);
                self.follow_load(&path, had_moves);
            }
            Err(message) => self.say(&format!("cannot load: {message}")),
        }
    }

    /// After `load FILE`: whether the record file goes on being written.
    fn follow_load(&mut self, loaded: &Path, had_moves: bool) {
        let bad_move = self.load_bad_move.clone();
        let Some(recording) = &mut self.recording else { return };
        let shown = recording.path.display().to_string();
        let held = if same_file(loaded, &recording.path) {
            bad_move.map(|(e, kept)| held_reason(&recording.path, &e, kept))
        } else if had_moves && recording.held.is_none() {
            Some(format!(
                "{shown} keeps the game played before `load`, and koma does not write this one there"
            ))
        } else {
            recording.held.clone()
        };
        recording.held = held.clone();
        let path = recording.path.clone();
        if let Some(reason) = held {
            self.tell_held(&reason, &path);
        }
    }

    fn tell_held(&self, reason: &str, path: &Path) {
        self.say(&format!(
            "{reason}: the game goes on unrecorded. `save FILE` saves it (`save {}` replaces the record).",
            path.display()
        ));
    }

    /// Why the game asked to be recorded is not saved, if it is not.
    fn unsaved_reason(&self) -> Option<String> {
        let recording = self.recording.as_ref()?;
        if !self.unsaved || self.game.is_empty() {
            return None;
        }
        recording
            .held
            .clone()
            .or_else(|| recording.failed.clone())
            .or_else(|| Some(format!("{} is not written", recording.path.display())))
    }

    /// `quit`: saves the record if the game changed, and leaves, unless the game has moves
    /// that are not saved (in no record, or not in the one it asked for) and this is not the
    /// second `quit` in a row. Returns whether to leave.
    pub(super) fn quit(&mut self, line: &str, confirmed: bool) -> bool {
        if self.unsaved {
            self.write_record();
        }
        if confirmed {
            return true;
        }
        let Some(reason) = self.unsaved_reason() else {
            if self.recording.is_none() && self.unsaved && !self.game.is_empty() {
                self.pending = Some(line.to_string());
                let moves = match self.game.len() {
                    1 => "the game's move is".to_string(),
                    n => format!("the game's {n} moves are"),
                };
                self.say(&format!(
                    "{moves} not saved: `save FILE` saves them, or type `{line}` again to leave"
                ));
                return false;
            }
            return true;
        };
        self.pending = Some(line.to_string());
        self.say(&format!(
            "the game is not saved: {reason}. `save FILE` saves it, or type `{line}` again to leave without \
             saving (koma then exits with status 1)"
        ));
        false
    }

    /// On leaving: fails when the game asked to be recorded is not saved.
    pub(super) fn leave(&self) -> ExitCode {
        match self.unsaved_reason() {
            None => ExitCode::SUCCESS,
            Some(reason) => {
                self.say(&format!("leaving an unsaved game: {reason}"));
                ExitCode::FAILURE
            }
        }
    }

    /// Refuses a move past koma's limit for a record; returns whether it refused.
    pub(super) fn refuse_past_limit(&self) -> bool {
        let past = self.game.len() >= MAX_RECORD_MOVES;
        if past {
            self.say(&limit_message());
        }
        past
    }

    /// koma plays both sides and has reached the limit of a record.
    pub(super) fn koma_alone_at_limit(&self) -> bool {
        self.settings.black == Player::Koma
            && self.settings.white == Player::Koma
            && self.game.len() >= MAX_RECORD_MOVES
    }
}

fn limit_message() -> String {
    format!(
        "the game has {MAX_RECORD_MOVES} moves, koma's limit for a game record: no further move is played. The \
         game is kept: `save FILE`, `undo` and `quit` work as before"
    )
}
