//! The computer player: an alpha-beta search with iterative deepening over the legal moves
//! the interpreter generates, scoring positions by the piece values the variant file
//! declares. Nothing here knows a particular variant or piece.
//!
//! Strength is chosen by [`Limits`]: a depth, a time per move, a number of nodes, or any
//! combination (the first reached stops the search). [`search`] searches one position
//! from scratch; a [`Searcher`] keeps its transposition table and move-ordering statistics
//! from one move to the next.
//!
//! The search: negamax with principal-variation windows, a fixed-size transposition table
//! (shared by the threads of a lazy SMP search, [`Searcher::set_threads`])
//! keyed by [`Position::hash`](crate::game::Position::hash), move ordering (table move,
//! captures by most valuable victim / least valuable attacker, promotions, killer moves,
//! captures that lose material by static exchange, history), null-move pruning (not in
//! check, nor with fewer than three pieces besides the royals), late-move reductions,
//! futility pruning and move-count pruning (near the leaves, quiet moves after the first few
//! that give no check) for quiet moves, check extensions, and a quiescence search on captures
//! that follows exchanges to their end (after its first three captures, only the captures
//! that take back on the square of the last), leaving out captures that lose material by
//! static exchange and captures that cannot bring the score near alpha (delta pruning;
//! where captured pieces go to the hand, a capture gains the piece in hand too), and
//! searching every evasion where a side is in check (it does not stand on its score). A
//! check, for the extensions and the pruning, is an attack on a side's only royal: a side
//! with more may leave one attacked. The static
//! exchange evaluation finds the pieces that take back with the position's own attack
//! detection and move generation (only the attackers' moves are generated), so it holds
//! for every movement of every variant; the quiescence search generates only captures, and
//! a capture is weighed by exchange only when it comes up to be searched (a node cut off
//! early weighs no other), in the order that weighing all first would give. The main search
//! likewise checks a move's legality only when it comes up.
//! The evaluation is material at the declared values (pieces in hand a little more), plus
//! a small bonus for advanced and central pieces and for royals kept home, and terms read
//! from the compiled tables: mobility, attacks next to the royals, promotion-zone pressure,
//! protected Lions under the Lion-trading rules (weights as data: `weights.ron`, a default
//! set and sets by variant, or a file given with [`Searcher::set_weights`]). The search
//! keeps the material and square bonuses up to date move by move, and walks the pieces'
//! runs of squares only where the score could fall inside the window (lazy evaluation), with
//! a cache of those terms by position. Game ends follow the rules: checkmate and a side without
//! royal pieces lose, stalemate scores as `stalemate` says, the bare-king rule is judged
//! simply (a side left bare loses, without looking for an immediate reply that bares the
//! other), a position that repeats one already seen scores as a draw, and where the
//! repetition rule forbids a move (HaChu's `repetition 2 illegal`, Yari's third occurrence…)
//! the search does not play it.

mod eval;
mod search;
mod tt;
mod weights;

use crate::game::Move;
use crate::game::{MoveTables, Position};
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

pub use eval::Terms;
pub use search::{MAX_THREADS, Searcher};
pub use tt::SLOT_BYTES as TABLE_SLOT_BYTES;
pub use weights::{Provenance, WeightFile, WeightSet, Weights, WeightsError};

/// The static evaluation of one variant under one set of weights, for looking at positions
/// one at a time (a tuning run's terms); the search keeps its own.
pub struct Evaluator(eval::Eval);

impl Evaluator {
    /// The evaluation of the variant `tables` compile, with its set from `weights`.
    pub fn new(tables: Arc<MoveTables>, weights: &WeightFile) -> Evaluator {
        let set = weights.for_variant(&tables.rules().name);
        Evaluator(eval::Eval::new(tables.clone(), &set.weights))
    }

    /// The evaluation of `pos` from Black's point of view, in the units of the declared values.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        self.0.evaluate(pos)
    }

    /// What each weight multiplies in the evaluation of `pos`, from Black's point of view.
    pub fn terms(&self, pos: &Position) -> Terms {
        self.0.terms(pos)
    }

    /// The value of each kind on the board (`board:NAME`) and of each kind that can be held in
    /// hand (`hand:NAME`), by the names the variant file declares.
    pub fn kind_values(&self) -> Vec<(String, i32)> {
        self.0.kind_values()
    }

    /// Per entry of [`Evaluator::kind_values`], Black's pieces of that kind on the board (in
    /// hand) less White's in `pos`.
    pub fn kind_counts(&self, pos: &Position) -> Vec<i32> {
        self.0.kind_counts(pos)
    }
}

/// The score of a mate now; a mate `n` plies away scores `MATE - n` (negative when the side
/// to move is the one mated).
pub const MATE: i32 = 1_000_000_000;
/// The deepest the search goes, in plies (extensions included).
pub const MAX_PLY: usize = 128;
/// The depth searched when no limit at all is given.
pub const DEFAULT_DEPTH: u32 = 4;
/// The most time a search takes when no limit at all is given: [`DEFAULT_DEPTH`] or this,
/// whichever comes first.
pub const DEFAULT_TIME: Duration = Duration::from_secs(10);

/// When to stop searching, and whom to tell how it goes. Each limit that is set applies;
/// the first reached stops the search. With no depth, time or nodes set, the search goes to
/// [`DEFAULT_DEPTH`] for at most [`DEFAULT_TIME`]. However short the time or few the nodes,
/// a search with a legal move completes its first iteration (every move searched one ply
/// and its captures) before it stops, unless told to stop.
#[derive(Clone, Default)]
pub struct Limits {
    /// The deepest iteration, in plies.
    pub depth: Option<u32>,
    /// The most time the move may take, measured from the call. The search returns within it
    /// (the clock is read every few nodes), and starts no iteration it is unlikely to finish.
    pub time: Option<Duration>,
    /// The time is the move's own (CECP `st`, USI `go movetime`), not a share of a clock:
    /// the search uses all of it instead of stopping early to keep time for later moves.
    pub fixed_time: bool,
    /// On a clock, the time the move should take, less than `time`: the search starts an
    /// iteration only if, by the growth of the iterations before, it is likely to be half
    /// done within the target (more when the last iteration changed the best move or its
    /// score fell, less once the best move has stood four iterations), and one started may
    /// run on to `time`. Without it, the target is `time` itself.
    pub target: Option<Duration>,
    /// The most positions to visit.
    pub nodes: Option<u64>,
    /// Set from another thread to stop the search: it returns the best move found so far
    /// (the flag is read every few nodes).
    pub stop: Option<Arc<AtomicBool>>,
    /// Called on the searching thread after each completed iteration.
    pub progress: Option<Arc<Progress>>,
}

/// A callback told of each completed iteration.
pub type Progress = dyn Fn(&Info) + Send + Sync;

impl fmt::Debug for Limits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Limits")
            .field("depth", &self.depth)
            .field("time", &self.time)
            .field("fixed_time", &self.fixed_time)
            .field("target", &self.target)
            .field("nodes", &self.nodes)
            .field("stop", &self.stop)
            .field("progress", &self.progress.is_some())
            .finish()
    }
}

/// What an iteration of the search found, as it completes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Info {
    /// The depth of the iteration, in plies.
    pub depth: u32,
    /// The score for the side to move, as in [`SearchResult::score`].
    pub score: i32,
    /// Positions visited since the search started.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// The expected line of play.
    pub pv: Vec<Move>,
}

impl Info {
    /// Positions visited per second.
    pub fn nps(&self) -> u64 {
        let micros = self.time.as_micros().max(1);
        (u128::from(self.nodes) * 1_000_000 / micros) as u64
    }
}

impl Limits {
    /// Search to this depth.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// Search for this long.
    pub fn time(time: Duration) -> Limits {
        Limits {
            time: Some(time),
            ..Limits::default()
        }
    }

    /// Search this many nodes.
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }
}

/// What a search found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play; `None` when the side to move has no legal move.
    pub best: Option<Move>,
    /// The score for the side to move, in the units of the declared piece values; see
    /// [`MATE`] and [`mate_in`]. With no legal move, the score of the game's end.
    pub score: i32,
    /// The deepest iteration completed (0 if the first was cut short).
    pub depth: u32,
    /// Positions visited, quiescence included.
    pub nodes: u64,
    /// The expected line of play, starting with `best`.
    pub pv: Vec<Move>,
}

/// For a mate score: in how many plies the side to move mates (positive) or is mated
/// (negative). `None` for any other score.
pub fn mate_in(score: i32) -> Option<i32> {
    let bound = MATE - MAX_PLY as i32;
    if score >= bound {
        Some(MATE - score)
    } else if score <= -bound {
        Some(-(MATE + score))
    } else {
        None
    }
}

/// Searches `pos` with a fresh [`Searcher`] and returns the best move found.
pub fn search(pos: &Position, limits: &Limits) -> SearchResult {
    Searcher::new().search(pos, limits)
}

/// How much better, in the units of the declared values, the side offering a draw must stand
/// for koma to accept it.
pub const DRAW_MARGIN: i32 = 100;

/// How long koma judges a draw offer at most, unless a front end bounds it otherwise.
pub const DRAW_TIME: Duration = Duration::from_secs(1);

/// koma's answer to a draw offer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DrawAnswer {
    /// The offerer stands better by more than [`DRAW_MARGIN`], whoever moves.
    Accepts,
    /// The offerer does not stand that much better, or does only by having the move.
    Declines,
    /// A search was stopped before it completed an iteration: koma declines, not knowing.
    CannotJudge,
}

/// The bound on each of a draw judgement's searches ([`draw_positions`]): two plies deep, for
/// at most half of `time` (and its first iteration, which [`Limits`] always completes unless
/// stopped), so that both fit in `time`.
pub fn draw_limits(time: Duration) -> Limits {
    Limits {
        depth: Some(2),
        time: Some(time / 2),
        ..Limits::default()
    }
}

/// The positions a draw offer is judged from: `pos` as it stands, the offerer (the side to
/// move) to move; and the same board with koma to move, the offerer passing
/// ([`Position::make_null`]). A shallow search favours the side that moves first near its
/// leaves (its captures and the squares its move opens count, the reply beyond the horizon
/// does not): an advantage seen with the offerer to move alone may be the move's, not the
/// position's.
pub fn draw_positions(pos: &Position) -> (Position, Position) {
    let mut passed = pos.clone();
    passed.make_null();
    (pos.clone(), passed)
}

/// koma's answer, playing the side not to move, to the draw the side to move offers, from the
/// searches of [`draw_positions`] within [`draw_limits`]: it accepts when the offerer stands
/// better by more than [`DRAW_MARGIN`] both with the move and without it.
pub fn draw_answer(offerer_to_move: &SearchResult, koma_to_move: &SearchResult) -> DrawAnswer {
    // A search with no legal move has judged the position: the game's end.
    let judged = |found: &SearchResult| found.depth > 0 || found.best.is_none();
    if !judged(offerer_to_move) || !judged(koma_to_move) {
        return DrawAnswer::CannotJudge;
    }
    let without_the_move = -koma_to_move.score;
    if offerer_to_move.score.min(without_the_move) > DRAW_MARGIN {
        DrawAnswer::Accepts
    } else {
        DrawAnswer::Declines
    }
}

/// koma's answer to the draw the side to move offers, judged within `time` (the searches of
/// [`draw_positions`], each within [`draw_limits`]`(time)`).
pub fn judge_draw(searcher: &mut Searcher, pos: &Position, time: Duration) -> DrawAnswer {
    let (as_it_stands, passed) = draw_positions(pos);
    let limits = draw_limits(time);
    let offerer_to_move = searcher.search(&as_it_stands, &limits);
    let koma_to_move = searcher.search(&passed, &limits);
    draw_answer(&offerer_to_move, &koma_to_move)
}
