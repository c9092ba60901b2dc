//! The movement kinds of the compiled rules, and the one split the interpreter makes of them:
//! the kinds [unrolled](Unrolled) into runs of squares over the board (rides and leaps), and
//! the kinds [walked](Walked) on the board as moves are generated (lions, hooks, `anywhere`).
//!
//! The unrolling itself is here ([`Unrolled::stretch`]): the stretch of a line each run
//! covers, which the interpreter's tables look up from every square. How the interpreter
//! carries out each kind, and the recipe for adding a kind, are in `koma::game::movement`.

use super::{BoardSize, Mode, Offset, Side, Square};
use serde::{Deserialize, Serialize};

/// One way of moving, lowered from a clause of the language.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Movement {
    /// Along `dir` through empty squares, at most `max` squares (`None`: any distance),
    /// stopping on the first occupied square. A step is `max: Some(1)`.
    /// With `from_last_rank`, only from the mover's last rank (`from-last-rank`). With
    /// `beyond` N, the run starts on square N + 1, jumping the first N whatever stands there
    /// (`beyond N`: the Heavenly Tetrarchs, Taikyoku's Mountain Crane); `max` still counts
    /// from the mover.
    Ride {
        dir: Offset,
        max: Option<u8>,
        #[serde(default, skip_serializing_if = "Mode::is_any")]
        mode: Mode,
        #[serde(default, skip_serializing_if = "is_false")]
        from_last_rank: bool,
        #[serde(default, skip_serializing_if = "is_zero")]
        beyond: u8,
    },
    /// Straight to the square at `to`, whatever stands between (jumps and leaps). With
    /// `from_last_rank`, only from the mover's last rank.
    Leap {
        to: Offset,
        #[serde(default, skip_serializing_if = "Mode::is_any")]
        mode: Mode,
        #[serde(default, skip_serializing_if = "is_false")]
        from_last_rank: bool,
    },
    /// Up to `steps` king steps in one turn, capturing on each square passed; also straight
    /// to any square within `steps` (the Lion: A and B squares, igui, pass).
    AreaLion {
        steps: u8,
        #[serde(default, skip_serializing_if = "Mode::is_any")]
        mode: Mode,
    },
    /// Lion power along one line: up to `steps` squares along `dir`, jumping, or stepping
    /// and capturing on each square and coming back (igui, pass).
    LineLion {
        dir: Offset,
        steps: u8,
        #[serde(default, skip_serializing_if = "Mode::is_any")]
        mode: Mode,
    },
    /// Slide along `dir`, then optionally turn 90° at an empty square and slide again: to
    /// either side, or only onto `only_turn` (`hook DIRS turning DIRS`). A capture ends the
    /// move.
    Hook {
        dir: Offset,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        only_turn: Option<Offset>,
        #[serde(default, skip_serializing_if = "Mode::is_any")]
        mode: Mode,
    },
    /// To any square of the board, jumping.
    Anywhere {
        #[serde(default, skip_serializing_if = "Mode::is_any")]
        mode: Mode,
    },
    /// Up to `steps` king steps, each to an adjacent square along one of `dirs` (empty: all
    /// eight), through empty squares only, turning freely; the move ends on its first
    /// capture and never on its start square (`area N`: the Fire Demon's area move).
    Area {
        steps: u8,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        dirs: Vec<Offset>,
        #[serde(default, skip_serializing_if = "Mode::is_any")]
        mode: Mode,
    },
    /// Slides along `dir`; a capture may also jump over any number of pieces (of either
    /// side) ranked lower than the mover in the jumping order, to take a lower-ranked piece
    /// farther on (`range-jump`; ranks: [`PieceKind::jump_rank`](super::PieceKind::jump_rank)).
    RangeJump {
        dir: Offset,
        #[serde(default, skip_serializing_if = "Mode::is_any")]
        mode: Mode,
    },
    /// Slides along `dir` over any number of pieces (of either side) ranked lower than the
    /// mover in the jumping order, capturing every piece it passes over; it ends on any
    /// square before the first piece of its rank or higher: an empty one, or a lower-ranked
    /// piece of either side, which it takes too (`range-capture`: Taikyoku's Great General).
    RangeCapture {
        dir: Offset,
        #[serde(default, skip_serializing_if = "Mode::is_any")]
        mode: Mode,
    },
    /// Captures the piece on the adjacent square along `dir` without moving (`igui`).
    Igui {
        dir: Offset,
        #[serde(default, skip_serializing_if = "Mode::is_any")]
        mode: Mode,
    },
    /// Along `dir`, at most `max` squares (`None`: any distance), passing over up to
    /// `pieces` pieces of either side without taking them: it ends on an empty square, or
    /// takes an enemy among the first `pieces + 1` pieces met; the piece after the last it
    /// may pass ends the line (`passing N`: Taikyoku's three-barred arrow).
    Passing {
        dir: Offset,
        max: Option<u8>,
        pieces: u8,
        #[serde(default, skip_serializing_if = "Mode::is_any")]
        mode: Mode,
    },
}

/// The one split of movement kinds: every consumer of a kind matches on this (or on
/// [`Unrolled`] or [`Walked`]), never on [`Movement`] with a fallthrough arm.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Split {
    Unrolled(Unrolled),
    Walked(Walked),
}

/// The kinds unrolled, once per variant, into runs of squares from every square: walked in
/// order and blocked by the first piece. A leap is a run of one square.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unrolled {
    /// See [`Movement::Ride`].
    Ride {
        dir: Offset,
        max: Option<u8>,
        mode: Mode,
        from_last_rank: bool,
        beyond: u8,
    },
    /// See [`Movement::Leap`].
    Leap {
        to: Offset,
        mode: Mode,
        from_last_rank: bool,
    },
}

fn is_false(value: &bool) -> bool {
    !*value
}

fn is_zero(value: &u8) -> bool {
    *value == 0
}

/// The kinds walked on the board as moves are generated: they reach squares in several
/// ways, or depend on what stands where.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Walked {
    /// See [`Movement::AreaLion`].
    AreaLion { steps: u8, mode: Mode },
    /// See [`Movement::LineLion`].
    LineLion { dir: Offset, steps: u8, mode: Mode },
    /// See [`Movement::Hook`].
    Hook {
        dir: Offset,
        only_turn: Option<Offset>,
        mode: Mode,
    },
    /// See [`Movement::Anywhere`].
    Anywhere { mode: Mode },
    /// See [`Movement::Area`]; `dirs` holds the king steps allowed as bits of [`Offset::UNIT`].
    Area { steps: u8, dirs: u8, mode: Mode },
    /// See [`Movement::RangeJump`].
    RangeJump { dir: Offset, mode: Mode },
    /// See [`Movement::RangeCapture`].
    RangeCapture { dir: Offset, mode: Mode },
    /// See [`Movement::Igui`].
    Igui { dir: Offset, mode: Mode },
    /// See [`Movement::Passing`].
    Passing {
        dir: Offset,
        max: Option<u8>,
        pieces: u8,
        mode: Mode,
    },
}

impl Movement {
    /// Which side of the split this movement is on.
    pub fn split(&self) -> Split {
        match *self {
            Movement::Ride {
                dir,
                max,
                mode,
                from_last_rank,
                beyond,
            } => Split::Unrolled(Unrolled::Ride {
                dir,
                max,
                mode,
                from_last_rank,
                beyond,
            }),
            Movement::Leap {
                to,
                mode,
                from_last_rank,
            } => Split::Unrolled(Unrolled::Leap {
                to,
                mode,
                from_last_rank,
            }),
            Movement::AreaLion { steps, mode } => Split::Walked(Walked::AreaLion { steps, mode }),
            Movement::LineLion { dir, steps, mode } => Split::Walked(Walked::LineLion { dir, steps, mode }),
            Movement::Hook { dir, only_turn, mode } => Split::Walked(Walked::Hook { dir, only_turn, mode }),
            Movement::Anywhere { mode } => Split::Walked(Walked::Anywhere { mode }),
            Movement::Area { steps, ref dirs, mode } => Split::Walked(Walked::Area {
                steps,
                dirs: Offset::unit_mask(dirs),
                mode,
            }),
            Movement::RangeJump { dir, mode } => Split::Walked(Walked::RangeJump { dir, mode }),
            Movement::RangeCapture { dir, mode } => Split::Walked(Walked::RangeCapture { dir, mode }),
            Movement::Igui { dir, mode } => Split::Walked(Walked::Igui { dir, mode }),
            Movement::Passing { dir, max, pieces, mode } => Split::Walked(Walked::Passing { dir, max, pieces, mode }),
        }
    }

    pub fn mode(&self) -> Mode {
        match self {
            Movement::Ride { mode, .. }
            | Movement::Leap { mode, .. }
            | Movement::AreaLion { mode, .. }
            | Movement::LineLion { mode, .. }
            | Movement::Hook { mode, .. }
            | Movement::Anywhere { mode }
            | Movement::Area { mode, .. }
            | Movement::RangeJump { mode, .. }
            | Movement::Igui { mode, .. }
            | Movement::RangeCapture { mode, .. }
            | Movement::Passing { mode, .. } => *mode,
        }
    }

    /// How many steps a Lion movement takes; `None` for the other kinds.
    pub fn lion_steps(&self) -> Option<u8> {
        match self.split() {
            Split::Walked(walked) => walked.lion_steps(),
            Split::Unrolled(Unrolled::Ride { .. } | Unrolled::Leap { .. }) => None,
        }
    }

    /// Whether, on an empty board, this movement takes a piece of `side` on `from` anywhere.
    pub fn can_leave(&self, board: BoardSize, side: Side, from: Square) -> bool {
        let first = match self {
            Movement::Ride { dir, .. }
            | Movement::LineLion { dir, .. }
            | Movement::Hook { dir, .. }
            | Movement::RangeJump { dir, .. }
            | Movement::RangeCapture { dir, .. }
            | Movement::Passing { dir, .. } => *dir,
            Movement::Leap { to, .. } => *to,
            Movement::Area { dirs, .. } => {
                return dirs.is_empty() || dirs.iter().any(|&d| board.offset(side, from, d).is_some());
            }
            // It captures without moving: the piece stays where it is.
            Movement::Igui { .. } => return false,
            Movement::AreaLion { .. } | Movement::Anywhere { .. } => return true,
        };
        let allowed = !self.from_last_rank() || board.depth_from_far_edge(side, from) == 1;
        allowed && board.offset(side, from, first).is_some()
    }

    /// Whether the movement is allowed only from the mover's last rank (`from-last-rank`).
    pub fn from_last_rank(&self) -> bool {
        match self.split() {
            Split::Unrolled(unrolled) => unrolled.from_last_rank(),
            Split::Walked(_) => false,
        }
    }
}

impl Unrolled {
    pub fn mode(self) -> Mode {
        match self {
            Unrolled::Ride { mode, .. } | Unrolled::Leap { mode, .. } => mode,
        }
    }

    /// Whether the run exists only from the mover's last rank.
    pub fn from_last_rank(self) -> bool {
        match self {
            Unrolled::Ride { from_last_rank, .. } | Unrolled::Leap { from_last_rank, .. } => from_last_rank,
        }
    }

    /// How many squares the run jumps before it starts (`beyond N`).
    pub fn beyond(self) -> u8 {
        match self {
            Unrolled::Ride { beyond, .. } => beyond,
            Unrolled::Leap { .. } => 0,
        }
    }

    /// The run as a stretch of a line: the vector it steps along, and the first and last
    /// steps it reaches (1 is the square next along; a ride's last is its `max`, or the
    /// board's longest side; a leap's run is its one square).
    pub fn stretch(self, longest: u8) -> (Offset, u8, u8) {
        match self {
            Unrolled::Ride { dir, max, beyond, .. } => (dir, beyond + 1, max.map_or(longest, |max| max.min(longest))),
            Unrolled::Leap { to, .. } => (to, 1, 1),
        }
    }

    /// The offsets of the run, in order, on a board whose longest side is `longest` squares.
    pub fn offsets(self, longest: u8) -> impl Iterator<Item = Offset> {
        let (vector, first, last) = self.stretch(longest);
        (first..=last).map(move |k| vector.scale(k as i8))
    }
}

/// The directions a hook's second leg may take after a first leg along `dir`: the two at 90°
/// to it, or only `only_turn`.
pub fn hook_turns(dir: Offset, only_turn: Option<Offset>) -> impl Iterator<Item = Offset> {
    dir.perpendiculars()
        .into_iter()
        .filter(move |&turn| only_turn.is_none_or(|only| only == turn))
}

impl Walked {
    pub fn mode(self) -> Mode {
        match self {
            Walked::AreaLion { mode, .. }
            | Walked::LineLion { mode, .. }
            | Walked::Hook { mode, .. }
            | Walked::Anywhere { mode }
            | Walked::Area { mode, .. }
            | Walked::RangeJump { mode, .. }
            | Walked::Igui { mode, .. }
            | Walked::RangeCapture { mode, .. }
            | Walked::Passing { mode, .. } => mode,
        }
    }

    /// How many steps a Lion movement takes; `None` for the other walked kinds.
    pub fn lion_steps(self) -> Option<u8> {
        match self {
            Walked::AreaLion { steps, .. } | Walked::LineLion { steps, .. } => Some(steps),
            Walked::Hook { .. }
            | Walked::Anywhere { .. }
            | Walked::Area { .. }
            | Walked::RangeJump { .. }
            | Walked::Igui { .. }
            | Walked::RangeCapture { .. }
            | Walked::Passing { .. } => None,
        }
    }
}
