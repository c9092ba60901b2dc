//! The movement kinds of the compiled rules, one enum, and the one split the interpreter
//! makes of them ([`Movement::is_unrolled`]): the kinds unrolled into runs of squares over
//! the board (rides and leaps), and the kinds walked on the board as moves are generated
//! (lions, hooks, `anywhere`, area moves, ...).
//!
//! The unrolling itself is here ([`Movement::stretch`]): the stretch of a line each run
//! covers, which the interpreter's tables look up from every square. How the interpreter
//! carries out each kind, and the recipe for adding a kind, are in the interpreter's
//! `game/movement.rs`.

use super::{BoardSize, Mode, Offset, Side, Square};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// One way of moving, lowered from a clause of the language.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
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
    /// Up to `steps` king steps, each to an adjacent square along one of `dirs`, through empty squares only, turning freely; the move ends on its first
    /// capture and never on its start square (`area N`: the Fire Demon's area move).
    Area {
        steps: u8,
        #[serde(default, skip_serializing_if = "KingSteps::is_all")]
        dirs: KingSteps,
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
    /// Along `dir` over exactly one piece of either side (the screen), which it does not
    /// take, to any empty square beyond it or to the first piece beyond it, taken if an
    /// enemy; at most `max` squares from the mover (`None`: any distance). `hop`: the cannons
    /// of Cannon Shogi, xiangqi and janggi.
    Hop {
        dir: Offset,
        max: Option<u8>,
        #[serde(default, skip_serializing_if = "Mode::is_any")]
        mode: Mode,
    },
}

/// The king steps an area move may take (`area N` with directions), a subset of
/// [`Offset::UNIT`]; all eight unless the rules name some.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct KingSteps(u8);

impl KingSteps {
    /// All eight king steps.
    pub const ALL: KingSteps = KingSteps(u8::MAX);

    /// The king steps among `dirs`; all eight when `dirs` is empty.
    pub fn of(dirs: &[Offset]) -> KingSteps {
        KingSteps(Offset::unit_mask(dirs))
    }

    pub fn is_all(&self) -> bool {
        *self == KingSteps::ALL
    }

    /// The steps, as bits of [`Offset::UNIT`].
    pub fn bits(self) -> u8 {
        self.0
    }

    /// The steps, in the order of [`Offset::UNIT`].
    pub fn offsets(self) -> impl Iterator<Item = Offset> {
        Offset::UNIT
            .into_iter()
            .enumerate()
            .filter(move |(i, _)| self.0 & (1 << i) != 0)
            .map(|(_, unit)| unit)
    }
}

impl Default for KingSteps {
    fn default() -> KingSteps {
        KingSteps::ALL
    }
}

/// Written as the list of its steps, as the rules name them.
impl Serialize for KingSteps {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.offsets())
    }
}

impl<'de> Deserialize<'de> for KingSteps {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<KingSteps, D::Error> {
        Vec::<Offset>::deserialize(deserializer).map(|dirs| KingSteps::of(&dirs))
    }
}

fn is_false(value: &bool) -> bool {
    !*value
}

fn is_zero(value: &u8) -> bool {
    *value == 0
}

impl Movement {
    /// The one split the interpreter makes: whether the kind is unrolled into runs of
    /// squares from every square, walked in order and blocked by the first piece (rides and
    /// leaps: see [`Movement::stretch`]), rather than walked on the board as moves are
    /// generated (the others: they reach squares in several ways, or depend on what stands
    /// where).
    pub fn is_unrolled(&self) -> bool {
        match self {
            Movement::Ride { .. } | Movement::Leap { .. } => true,
            Movement::AreaLion { .. }
            | Movement::LineLion { .. }
            | Movement::Hook { .. }
            | Movement::Anywhere { .. }
            | Movement::Area { .. }
            | Movement::RangeJump { .. }
            | Movement::RangeCapture { .. }
            | Movement::Igui { .. }
            | Movement::Passing { .. }
            | Movement::Hop { .. } => false,
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
            | Movement::Passing { mode, .. }
            | Movement::Hop { mode, .. } => *mode,
        }
    }

    /// How many steps a Lion movement takes; `None` for the other kinds.
    pub fn lion_steps(&self) -> Option<u8> {
        match self {
            Movement::AreaLion { steps, .. } | Movement::LineLion { steps, .. } => Some(*steps),
            Movement::Ride { .. }
            | Movement::Leap { .. }
            | Movement::Hook { .. }
            | Movement::Anywhere { .. }
            | Movement::Area { .. }
            | Movement::RangeJump { .. }
            | Movement::Igui { .. }
            | Movement::RangeCapture { .. }
            | Movement::Passing { .. }
            | Movement::Hop { .. } => None,
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
            // A hop needs a square for its screen and one beyond it to land on.
            Movement::Hop { dir, max, .. } => {
                return max.is_none_or(|max| max >= 2) && board.offset(side, from, dir.scale(2)).is_some();
            }
            Movement::Leap { to, .. } => *to,
            Movement::Area { dirs, .. } => {
                return dirs.offsets().any(|d| board.offset(side, from, d).is_some());
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
        match self {
            Movement::Ride { from_last_rank, .. } | Movement::Leap { from_last_rank, .. } => *from_last_rank,
            Movement::AreaLion { .. }
            | Movement::LineLion { .. }
            | Movement::Hook { .. }
            | Movement::Anywhere { .. }
            | Movement::Area { .. }
            | Movement::RangeJump { .. }
            | Movement::Igui { .. }
            | Movement::RangeCapture { .. }
            | Movement::Passing { .. }
            | Movement::Hop { .. } => false,
        }
    }

    /// How many squares a ride jumps before its run starts (`beyond N`); 0 for the others.
    pub fn beyond(&self) -> u8 {
        match self {
            Movement::Ride { beyond, .. } => *beyond,
            Movement::Leap { .. }
            | Movement::AreaLion { .. }
            | Movement::LineLion { .. }
            | Movement::Hook { .. }
            | Movement::Anywhere { .. }
            | Movement::Area { .. }
            | Movement::RangeJump { .. }
            | Movement::Igui { .. }
            | Movement::RangeCapture { .. }
            | Movement::Passing { .. }
            | Movement::Hop { .. } => 0,
        }
    }

    /// An unrolled kind's run as a stretch of a line: the vector it steps along, and the
    /// first and last steps it reaches (1 is the square next along; a ride's last is its
    /// `max`, or the board's longest side; a leap's run is its one square). `None` for the
    /// walked kinds.
    pub fn stretch(&self, longest: u8) -> Option<(Offset, u8, u8)> {
        match *self {
            Movement::Ride { dir, max, beyond, .. } => {
                Some((dir, beyond + 1, max.map_or(longest, |max| max.min(longest))))
            }
            Movement::Leap { to, .. } => Some((to, 1, 1)),
            Movement::AreaLion { .. }
            | Movement::LineLion { .. }
            | Movement::Hook { .. }
            | Movement::Anywhere { .. }
            | Movement::Area { .. }
            | Movement::RangeJump { .. }
            | Movement::Igui { .. }
            | Movement::RangeCapture { .. }
            | Movement::Passing { .. }
            | Movement::Hop { .. } => None,
        }
    }

    /// An unrolled kind's offsets, in order, on a board whose longest side is `longest`
    /// squares; none for the walked kinds.
    pub fn offsets(&self, longest: u8) -> impl Iterator<Item = Offset> {
        let (vector, first, last) = self.stretch(longest).unwrap_or((Offset::new(0, 0), 1, 0));
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
