//! The generator's scratch: what move generation and the legality check work in, kept
//! apart from the [`Position`] they read. Whoever generates owns one and hands it in by
//! `&mut`: perft, each thread of the search, and a position's own questions (which make one
//! for the question). Kept between calls, it spares generation any allocation.
//!
//! The scratch's questions take the position by `&mut` where the legality check tries a
//! move (makes and unmakes it): the position is left as it was.

use super::board::Sq;
use super::legality::{History, Legality};
use super::movegen::{LionCounting, Wanted};
use super::moves::{Illegal, Move};
use super::position::Position;

/// A Lion walk's result: destination, captures before it, whether it captures at all.
pub(super) type WalkResult = (Sq, [Sq; 2], bool);

/// Reusable lists for Lion walks: the results of one walk, and those already emitted for
/// the piece.
#[derive(Debug, Clone, Default)]
pub(super) struct LionScratch {
    pub results: Vec<WalkResult>,
    pub walked: Vec<WalkResult>,
}

/// The working space of move generation and the legality check: one per thread that
/// generates, kept from one position to the next (`Scratch::default()` to start).
#[derive(Debug, Clone, Default)]
pub struct Scratch {
    /// Marks for de-duplicating targets, one per square, and the current mark.
    pub(super) marks: Vec<u32>,
    pub(super) mark: u32,
    /// Lists for Lion walks.
    pub(super) lion: LionScratch,
    /// A list of moves for the legality check's own questions (is there a legal capture, a
    /// move out of check), taken while one is asked.
    pub(super) moves: Vec<Move>,
    /// The hashes of a position's history, for the repetition rule to sort.
    pub(super) hashes: Vec<u64>,
}

impl Scratch {
    /// Marks for a board of `squares` squares.
    #[inline]
    pub(super) fn fit(&mut self, squares: usize) {
        if self.marks.len() < squares {
            self.marks.resize(squares, 0);
        }
    }

    /// A list of moves, empty, to be handed back with [`Scratch::give_back`].
    pub(super) fn take_moves(&mut self) -> Vec<Move> {
        let mut moves = std::mem::take(&mut self.moves);
        moves.clear();
        moves
    }

    pub(super) fn give_back(&mut self, moves: Vec<Move>) {
        self.moves = moves;
    }

    /// Every move the pieces' movements allow in `pos`, before the legality rules (see
    /// [`Position::pseudo_moves`]).
    pub fn pseudo_moves(&mut self, pos: &Position, out: &mut Vec<Move>, counting: LionCounting) {
        out.clear();
        if !pos.over_before_moving() {
            pos.piece_moves(self, out, counting);
        }
    }

    /// The moves of [`Scratch::pseudo_moves`] that capture, in the same order.
    pub fn pseudo_captures(&mut self, pos: &Position, out: &mut Vec<Move>, counting: LionCounting) {
        out.clear();
        if !pos.over_before_moving() {
            pos.generate(self, out, counting, Wanted::Captures);
        }
    }

    /// The pseudo-legal moves of the piece on `from` (see [`Position::pseudo_moves_from`]).
    pub fn pseudo_moves_from(&mut self, pos: &Position, from: Sq, out: &mut Vec<Move>, counting: LionCounting) {
        out.clear();
        if pos.is_on_board(from) && !pos.over_before_moving() {
            pos.generate(self, out, counting, Wanted::From(from));
        }
    }

    /// Fills `out` with the legal moves of `pos`.
    pub fn legal_moves_into(&mut self, pos: &mut Position, out: &mut Vec<Move>, counting: LionCounting) {
        pos.filtered_moves_into(self, out, counting, History::Applies);
    }

    /// Fills `out` with the moves of `pos` legal whatever the history (see
    /// [`Position::legal_moves_ignoring_history_into`]).
    pub fn legal_moves_ignoring_history_into(
        &mut self,
        pos: &mut Position,
        out: &mut Vec<Move>,
        counting: LionCounting,
    ) {
        pos.filtered_moves_into(self, out, counting, History::Ignored);
    }

    /// The number of moves of `pos` legal whatever the history (perft's last ply), without
    /// keeping them; `buffer` is where the moves that must be checked one by one go.
    pub(crate) fn count_legal(&mut self, pos: &mut Position, buffer: &mut Vec<Move>, counting: LionCounting) -> u64 {
        pos.count_legal(self, buffer, counting)
    }

    /// Prepares the legality check of the pseudo-legal moves of `pos` one at a time, as
    /// [`Scratch::legal_moves_ignoring_history_into`] would check them all: for a search
    /// that checks a move only when it comes up. Valid while the position is this one.
    pub fn legality_ignoring_history(&mut self, pos: &mut Position) -> Legality {
        pos.legality(self, History::Ignored)
    }

    /// Whether the pseudo-legal move `m` of `pos` passes every legality rule but the
    /// repetition rule (`legality` from [`Scratch::legality_ignoring_history`] of `pos`).
    pub fn passes_legality(&mut self, pos: &mut Position, legality: &Legality, m: &Move) -> bool {
        pos.passes_legality(self, legality, m)
    }

    /// Checks one move of `pos` against the rules, naming the rule it breaks.
    pub fn check_legal(&mut self, pos: &mut Position, m: &Move) -> Result<(), Illegal> {
        pos.check_legal_in(self, m)
    }

    /// Whether the side to move in `pos` has any legal move.
    pub fn has_legal_move(&mut self, pos: &mut Position) -> bool {
        pos.has_legal_move(self)
    }
}
