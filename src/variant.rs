//! What a front end starts from: a [`Variant`] compiled (its tables, shared by all its games,
//! and the warnings its report kept), the games it starts ([`Start`]: the variant's own start,
//! a handicap, or a position in SFEN; each game keeps its moves' texts in the rule texts'
//! notation), who plays each side ([`Player`]), and a record's date.
//!
//! A front end compiles with [`Variant::named`] (a shipped variant or a path) or
//! [`Variant::compile`] (a text and a [`Loader`]); when the variant has an error, the
//! [`Report`] is the error, to be drawn with [`Report::render`].
//!
//! ```
//! use koma::variant::{Start, Variant};
//!
//! let shogi = Variant::named("shogi", &[]).expect("Shogi compiles");
//! let game = shogi.start(&Start::Handicap("Lance".into())).expect("Shogi has a Lance handicap");
//! assert_eq!(game.position().side_to_move(), koma::rules::Side::White);
//! let error = shogi.start(&Start::Handicap("Queen".into())).unwrap_err();
//! assert!(error.to_string().starts_with("no handicap \"Queen\" ("), "{error}");
//! ```

use crate::compile::{self, Choice, Compiled, Loader, Report, Source};
use crate::game::{Game, MoveTables, Position};
use crate::notation::{EXCERPT_CHARS, SfenError, excerpt, read_sfen, write_tsa};
use crate::rules::Rules;
use std::sync::Arc;

/// A variant compiled without error: its move tables, and its report (warnings only).
#[derive(Debug, Clone)]
pub struct Variant {
    tables: Arc<MoveTables>,
    report: Report,
}

/// Where a game starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Start {
    /// The variant's own start position (`setup`).
    Initial,
    /// The start with this handicap (a `handicap` of the variant, by name): White moves first.
    Handicap(String),
    /// A position in SFEN.
    Sfen(String),
}

/// Why a game cannot start as asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StartError {
    /// The variant has no handicap of that name; `known` lists those it has.
    #[error("no handicap \"{}\" ({})", excerpt(name, EXCERPT_CHARS), known_handicaps(known))]
    NoHandicap {
        /// The name asked for.
        name: String,
        /// The names of the variant's handicaps.
        known: Vec<String>,
    },
    /// The SFEN does not describe a position of the variant.
    #[error("bad position: {0}")]
    BadSfen(#[from] SfenError),
}

fn known_handicaps(known: &[String]) -> String {
    if known.is_empty() {
        "this variant has none".to_string()
    } else {
        known.join(", ")
    }
}

impl Variant {
    /// Compiles `source`, loading the files it `use`s with `loader`, with these options. The
    /// error is the report, which holds at least one error.
    pub fn compile(source: Source, loader: &dyn Loader, choices: &[Choice]) -> Result<Variant, Report> {
        Variant::from_compiled(compile::compile(source, loader, choices))
    }

    /// Compiles the variant `name`: a shipped variant's name (`chu`) or a path to a `.var`
    /// file, whose `use`s are read from disk.
    pub fn named(name: &str, choices: &[Choice]) -> Result<Variant, Report> {
        Variant::from_compiled(compile::compile_named(name, choices))
    }

    /// The variant of a compilation: its rules and report, or the report when there are no
    /// rules.
    pub fn from_compiled(compiled: Compiled) -> Result<Variant, Report> {
        let Compiled { rules, report } = compiled;
        match rules {
            Some(rules) => Ok(Variant {
                tables: Arc::new(MoveTables::new(rules)),
                report,
            }),
            None => Err(report),
        }
    }

    /// The variant of tables already built (as a position or game carries them), with an
    /// empty report.
    pub fn from_tables(tables: Arc<MoveTables>) -> Variant {
        Variant {
            tables,
            report: Report::default(),
        }
    }

    /// The move tables, shared by every game of the variant.
    pub fn tables(&self) -> &Arc<MoveTables> {
        &self.tables
    }

    /// The compiled rules.
    pub fn rules(&self) -> &Rules {
        self.tables.rules()
    }

    /// The compilation's report: its warnings (a variant has no error).
    pub fn report(&self) -> &Report {
        &self.report
    }

    /// The variant's own start position.
    pub fn initial(&self) -> Position {
        Position::start(self.tables.clone())
    }

    /// A new game from `start`.
    pub fn start(&self, start: &Start) -> Result<Game, StartError> {
        self.position(start).map(Variant::game_from)
    }

    /// A game from `position` that keeps each move's text in the rule texts' notation, as it
    /// is shown to players.
    pub fn game_from(position: Position) -> Game {
        Game::with_notation(position, write_tsa)
    }

    /// The position a game from `start` starts in.
    pub fn position(&self, start: &Start) -> Result<Position, StartError> {
        match start {
            Start::Initial => Ok(self.initial()),
            Start::Handicap(name) => {
                Position::handicap(self.tables.clone(), name).ok_or_else(|| StartError::NoHandicap {
                    name: name.clone(),
                    known: self.rules().handicaps.iter().map(|h| h.name.clone()).collect(),
                })
            }
            Start::Sfen(text) => Ok(read_sfen(&self.tables, text)?),
        }
    }
}

/// Who plays a side: a person at the front end, or koma.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Player {
    /// A person, through the front end.
    #[default]
    Human,
    /// koma's engine.
    Koma,
}

impl Player {
    /// Every player, as front ends offer them.
    pub const ALL: [Player; 2] = [Player::Human, Player::Koma];

    /// The player's name as typed and as a record's tags give it: `human`, `koma`.
    pub fn name(self) -> &'static str {
        match self {
            Player::Human => "human",
            Player::Koma => "koma",
        }
    }
}

impl std::fmt::Display for Player {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Player {
    type Err = String;

    fn from_str(text: &str) -> Result<Player, String> {
        Player::ALL
            .into_iter()
            .find(|p| p.name() == text)
            .ok_or_else(|| format!("no player `{}`: human or koma", excerpt(text, EXCERPT_CHARS)))
    }
}

/// Today's date (UTC) from the system clock, as a record's `Date` tag gives it: `YYYY.MM.DD`.
pub fn today() -> String {
    let days = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400) as i64;
    date_of_day(days)
}

/// The date `days` days after 1970-01-01, as `YYYY.MM.DD` (Howard Hinnant's civil-from-days).
fn date_of_day(days: i64) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_date_is_the_civil_date_of_its_day() {
        assert_eq!(date_of_day(0), "1970.01.01");
        assert_eq!(date_of_day(11_016), "2000.02.29");
        assert_eq!(date_of_day(20_819), "2027.01.01");
    }

    #[test]
    fn a_player_reads_back_its_name() {
        for player in Player::ALL {
            assert_eq!(player.name().parse::<Player>(), Ok(player));
        }
        assert!("robot".parse::<Player>().is_err());
    }

    #[test]
    fn a_start_reads_a_position_or_names_what_is_wrong() {
        let shogi = Variant::named("shogi", &[]).expect("Shogi compiles");
        let start = shogi.start(&Start::Initial).expect("the start");
        let sfen = crate::notation::write_sfen(start.position());
        let again = shogi.start(&Start::Sfen(sfen.clone())).expect("its own SFEN");
        assert_eq!(crate::notation::write_sfen(again.position()), sfen);
        let bad = shogi.start(&Start::Sfen("9/9 b".into())).unwrap_err();
        assert!(matches!(bad, StartError::BadSfen(_)), "{bad}");
        assert!(bad.to_string().starts_with("bad position: "), "{bad}");
        let none = Variant::named("dobutsu", &[]).expect("Dobutsu compiles");
        let missing = none.start(&Start::Handicap("Lance".into())).unwrap_err();
        assert_eq!(missing.to_string(), "no handicap \"Lance\" (this variant has none)");
    }

    #[test]
    fn a_variant_with_an_error_gives_its_report() {
        let report = Variant::named("no-such-variant", &[]).unwrap_err();
        assert!(report.has_errors());
    }
}
