//! A move as a game keeps it once played: the move, who made it, what it took, and its text
//! in the notation the game shows its moves in, so that nothing replays a game to show it.

use super::board::{Piece, Sq};
use super::moves::Move;
use super::position::{Position, Undo};
use crate::rules::{PieceId, Side};

/// How a game writes its moves as text (the rule texts' notation, given by the notation
/// stage): from the position before the move. The game stage keeps the text, never makes it.
pub type Notation = fn(&Position, &Move) -> String;

/// A piece a move took: where it stood, whose it was and its kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TakenPiece {
    pub square: Sq,
    pub side: Side,
    pub kind: PieceId,
}

/// A move played in a game.
#[derive(Debug, Clone)]
pub struct Played {
    /// The move.
    pub m: Move,
    /// The side that made it.
    pub side: Side,
    /// The pieces it took, in the board's order: its destination's, and every other piece it
    /// removed (a range capture's line, of both sides; burnt pieces; a Lion's first victim).
    pub taken: Vec<TakenPiece>,
    /// The move as the game's notation wrote it before it was made; none in a game without
    /// a notation.
    pub text: Option<String>,
    pub(super) undo: Undo,
}

impl Played {
    /// Whether the move took a piece besides the one on its destination.
    pub fn takes_more_than_its_destination(&self) -> bool {
        self.taken.iter().any(|t| t.square != self.m.to)
    }
}

/// What stands on each square of the board.
pub(super) fn board(pos: &Position) -> Vec<Option<Piece>> {
    pos.geometry().squares().map(|sq| pos.piece(sq)).collect()
}

/// The pieces `m` took, from the board before it (`before`) and the position after it: every
/// square but the mover's start that held a piece before and is empty after, and the
/// destination when it held a piece (of either side: a range capture takes the mover's own
/// too).
pub(super) fn pieces_taken(before: &[Option<Piece>], after: &Position, m: &Move) -> Vec<TakenPiece> {
    before
        .iter()
        .enumerate()
        .filter_map(|(index, was)| {
            let sq = Sq::new(index);
            let piece = (*was)?;
            let taken = Some(sq) != m.from && (after.piece(sq).is_none() || sq == m.to);
            taken.then_some(TakenPiece {
                square: sq,
                side: piece.side(),
                kind: piece.kind(),
            })
        })
        .collect()
}
