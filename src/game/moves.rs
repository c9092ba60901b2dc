//! Moves and the reasons a move is illegal.

use super::board::Sq;
use crate::rules::PieceId;

/// A move, identified by what it does: where it starts and ends, the squares it captures
/// on before its destination (in order), what it drops, whether it promotes, and whether it
/// sweeps its line (a range capture).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// The start square; `None` for a drop.
    pub from: Option<Sq>,
    pub to: Sq,
    /// Squares visited before `to` (Lion moves), in order, `None` when unused. With distinct
    /// counting these are the squares captured on; with path counting, the middle square.
    pub via: [Option<Sq>; 2],
    /// The kind dropped; `None` for a move on the board.
    pub drop: Option<PieceId>,
    pub promote: bool,
    /// A range capture (`range-capture`) that takes more than an enemy on `to`: every piece
    /// standing between `from` and `to` (at least one), and the piece on `to`, of either
    /// side. A range capture that passes no piece and ends on an empty square or an enemy is
    /// an ordinary move, with `sweep` false.
    pub sweep: bool,
}

impl Move {
    /// A move of the piece on `from` to `to`, not promoting, passing over no capture on the
    /// way; a sweep ([`Move::sweep`]) when `sweep`.
    pub fn board(from: Sq, to: Sq, sweep: bool) -> Move {
        Move {
            from: Some(from),
            to,
            via: [None; 2],
            drop: None,
            promote: false,
            sweep,
        }
    }

    pub fn drop(kind: PieceId, to: Sq) -> Move {
        Move {
            from: None,
            to,
            via: [None; 2],
            drop: Some(kind),
            promote: false,
            sweep: false,
        }
    }

    pub fn is_drop(&self) -> bool {
        self.from.is_none()
    }

    /// A Lion's pass: it ends where it started and captures nothing.
    pub fn is_pass(&self) -> bool {
        self.from == Some(self.to) && self.via[0].is_none()
    }

    /// The squares visited before `to`, in order.
    pub fn via_squares(&self) -> impl Iterator<Item = Sq> + '_ {
        self.via.iter().flatten().copied()
    }

    /// The squares this move may capture on, in order: its via squares, then its destination.
    pub fn captures(&self) -> impl Iterator<Item = Sq> + '_ {
        let from = self.from;
        self.via_squares()
            .chain(std::iter::once(self.to))
            .filter(move |&s| Some(s) != from)
    }
}

/// Why a move is illegal, named after the rule it breaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Illegal {
    /// The piece cannot move that way, or the move is malformed.
    #[error("no piece can make that move")]
    NotAMove,
    /// It leaves the mover's last royal piece capturable.
    #[error("it would leave your royal piece in check")]
    LeavesRoyalInCheck,
    /// A drop that gives immediate mate with a piece that may not (Shogi's pawn).
    #[error("a drop of this piece may not give immediate mate")]
    DropMate,
    /// A drop on a file that already holds the most pieces of the kind allowed (two pawns).
    #[error("this file already holds as many of these pieces as the rules allow")]
    FileLimit,
    /// A drop where the piece would have no further move.
    #[error("the piece would have no further move from there")]
    NoFurtherMove,
    /// The move repeats a position as the variant's repetition rule forbids.
    #[error("it would repeat the position, which the repetition rule forbids")]
    Repetition,
    /// The move repeats a position by continuous checks, which the repetition rule forbids
    /// to the checking side.
    #[error("it would repeat the position by giving check after check, which the repetition rule forbids")]
    PerpetualCheck,
    /// Chu: a Lion may not take a protected Lion two squares away without a bridge capture.
    #[error("a Lion may not take a protected Lion two squares away without first capturing another piece")]
    ProtectedLion,
    /// Chu: after a Lion was taken by a non-Lion, a non-Lion may not take a Lion at once.
    #[error("after a Lion was taken by a non-Lion, a Lion may not be taken by a non-Lion at once")]
    CounterStrike,
    /// The promotion choice is not allowed (must promote, or cannot).
    #[error("that promotion choice is not allowed here")]
    Promotion,
    /// The game is over: the side to move lost its last royal piece (`royal-capture-allowed`).
    #[error("the game is over: your last royal piece has been captured")]
    GameOver,
    /// The game is over: the side to move is in check, and the first check wins (`check-wins`).
    #[error("the game is over: you are in check, and the first check wins")]
    CheckGiven,
    /// The game is over: a royal piece has made the try (`try N`).
    #[error("the game is over: a royal piece has made the try")]
    TryMade,
}
