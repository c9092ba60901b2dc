//! The board's ground floor: squares and their numbering, the unit directions, and the
//! pieces standing on the board ([`Piece`], kept on the board as a code).
//!
//! Squares are numbered 0.. from the top-left corner (highest file, rank `a`), left to right
//! then down.

use crate::rules::{BoardSize, Offset, PieceId, Side, Square};
use std::fmt;
use std::num::NonZeroU16;

/// A square of the board by its number, 0.. from the top-left corner (highest file, rank
/// `a`), left to right then down: what the tables are indexed by. [`Geometry`] turns it into
/// a [`Square`] (file and rank numbers) and back. An `Option<Sq>` takes no more room than a
/// square.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Sq(NonZeroU16);

impl Sq {
    /// The square numbered `index` (less than the number of squares of a board).
    #[inline]
    pub(crate) fn new(index: usize) -> Sq {
        Sq(NonZeroU16::MIN.saturating_add(index as u16))
    }

    /// The square, or `None` for [`NO_SQ`]: from the interpreter's tables to the surface.
    #[inline]
    pub(crate) fn known(self) -> Option<Sq> {
        (self != NO_SQ).then_some(self)
    }

    /// The square's number: an index into anything kept per square.
    #[inline]
    pub fn index(self) -> usize {
        usize::from(self.0.get() - 1)
    }
}

/// No square: the interpreter's sentinel in its own tables and scratch (a square off the
/// board, a piece lifted off none). Never in a [`Move`](super::Move) or anything else
/// public, where a missing square is `None`.
pub(crate) const NO_SQ: Sq = Sq(NonZeroU16::MAX);

impl fmt::Debug for Sq {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Sq({})", self.index())
    }
}

/// The eight unit directions in board terms: (change of file number, change of rank number).
pub const DIRS: [(i8, i8); 8] = [(0, -1), (0, 1), (-1, 0), (1, 0), (-1, -1), (1, -1), (-1, 1), (1, 1)];

/// The board's shape and square numbering.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Geometry {
    pub files: u8,
    pub ranks: u8,
}

impl Geometry {
    pub fn new(size: BoardSize) -> Geometry {
        Geometry {
            files: size.files,
            ranks: size.ranks,
        }
    }

    pub fn len(self) -> usize {
        usize::from(self.files) * usize::from(self.ranks)
    }

    pub fn is_empty(self) -> bool {
        self.len() == 0
    }

    /// The square numbered as `square` is named (which must be on the board).
    pub fn index(self, square: Square) -> Sq {
        let files = usize::from(self.files);
        Sq::new((usize::from(square.rank) - 1) * files + usize::from(self.files - square.file))
    }

    /// The square numbered `sq`, by file and rank.
    pub fn square(self, sq: Sq) -> Square {
        let files = usize::from(self.files);
        Square {
            file: self.files - (sq.index() % files) as u8,
            rank: (sq.index() / files) as u8 + 1,
        }
    }

    /// Every square of the board, in the order of their numbers.
    pub fn squares(self) -> impl Iterator<Item = Sq> + use<> {
        (0..self.len()).map(Sq::new)
    }

    pub fn size(self) -> BoardSize {
        BoardSize {
            files: self.files,
            ranks: self.ranks,
        }
    }

    /// The square `(df, dr)` away in board terms, if on the board.
    pub fn step(self, sq: Sq, df: i32, dr: i32) -> Option<Sq> {
        let s = self.square(sq);
        let file = i32::from(s.file) + df;
        let rank = i32::from(s.rank) + dr;
        let ok = (1..=i32::from(self.files)).contains(&file) && (1..=i32::from(self.ranks)).contains(&rank);
        ok.then(|| {
            self.index(Square {
                file: file as u8,
                rank: rank as u8,
            })
        })
    }

    /// An offset seen by `side`, in board terms.
    pub(crate) fn board_vector(side: Side, offset: Offset) -> (i32, i32) {
        match side {
            Side::Black => (-i32::from(offset.dx), -i32::from(offset.dy)),
            Side::White => (i32::from(offset.dx), i32::from(offset.dy)),
        }
    }

    /// How far `sq` is from `side`'s far edge: 1 on the last rank.
    pub fn depth(self, side: Side, sq: Sq) -> u8 {
        self.size().depth_from_far_edge(side, self.square(sq))
    }

    /// King-step distance between two squares.
    /// The index in [`DIRS`] of a unit board vector.
    pub(crate) fn dir_index(vector: (i32, i32)) -> Option<usize> {
        DIRS.iter()
            .position(|&(df, dr)| (i32::from(df), i32::from(dr)) == vector)
    }

    /// The squares of the line from `from` (not included) to `to` (included), in order; it
    /// ends at the board's edge when `to` is not on a line through `from`.
    pub fn line_to(self, from: Sq, to: Sq) -> impl Iterator<Item = Sq> {
        let (a, b) = (self.square(from), self.square(to));
        let (df, dr) = (
            i32::from(b.file) - i32::from(a.file),
            i32::from(b.rank) - i32::from(a.rank),
        );
        let (sf, sr) = (df.signum(), dr.signum());
        // The steps to the board's edge along an axis the line moves on.
        let room = |at: u8, step: i32, last: u8| match step {
            1 => i32::from(last - at),
            -1 => i32::from(at - 1),
            _ => i32::MAX,
        };
        let edge = room(a.file, sf, self.files).min(room(a.rank, sr, self.ranks));
        let aligned = df == 0 || dr == 0 || df.abs() == dr.abs();
        let steps = if aligned {
            edge.min(df.abs().max(dr.abs()))
        } else {
            edge
        };
        // A file further is a square lower, a rank further a row of squares higher.
        let delta = sr * i32::from(self.files) - sf;
        let start = from.index() as i32;
        (1..=steps).map(move |k| Sq::new((start + k * delta) as usize))
    }

    pub fn distance(self, a: Sq, b: Sq) -> u8 {
        let (x, y) = (self.square(a), self.square(b));
        x.file.abs_diff(y.file).max(x.rank.abs_diff(y.rank))
    }
}

/// A piece on the board: its kind, its side, and whether it declined promotion on entering
/// the zone (`declined-waits-for-last-rank`). As small as a square: an `Option<Piece>` is
/// what a square holds.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece(NonZeroU16);

impl Piece {
    /// The piece whose code the board keeps, none for 0 (an empty square).
    #[inline]
    pub(crate) fn from_code(code: u16) -> Option<Piece> {
        NonZeroU16::new(code).map(Piece)
    }

    #[inline]
    pub fn kind(self) -> PieceId {
        code_kind(self.0.get())
    }

    #[inline]
    pub fn side(self) -> Side {
        code_side(self.0.get())
    }

    /// Whether it declined promotion and waits for the last rank.
    #[inline]
    pub fn declined(self) -> bool {
        code_declined(self.0.get())
    }
}

impl fmt::Debug for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Piece({:?} {:?}{})",
            self.side(),
            self.kind(),
            if self.declined() { " declined" } else { "" }
        )
    }
}

/// The code of a piece on the board, as the board keeps it: 0 is an empty square.
pub(super) fn piece_code(kind: PieceId, side: Side, declined: bool) -> u16 {
    ((kind.0 + 1) << 2) | (u16::from(declined) << 1) | side as u16
}

pub(super) fn code_kind(code: u16) -> PieceId {
    PieceId((code >> 2) - 1)
}

pub(super) fn code_side(code: u16) -> Side {
    if code & 1 == 0 { Side::Black } else { Side::White }
}

pub(super) fn code_declined(code: u16) -> bool {
    code & 2 != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `line_to` gives the squares one king step at a time from `from` towards `to`, up to
    /// `to` on a line through it and to the board's edge otherwise, on square and oblong
    /// boards, from every square to every square.
    #[test]
    fn the_line_to_a_square_is_walked_step_by_step_to_it_or_to_the_edge() {
        for (files, ranks) in [(9, 9), (5, 7), (7, 4), (1, 3)] {
            let geo = Geometry { files, ranks };
            for from in geo.squares() {
                for to in geo.squares() {
                    let (a, b) = (geo.square(from), geo.square(to));
                    let df = (i32::from(b.file) - i32::from(a.file)).signum();
                    let dr = (i32::from(b.rank) - i32::from(a.rank)).signum();
                    let mut walked = Vec::new();
                    let mut at = from;
                    while at != to
                        && let Some(next) = geo.step(at, df, dr)
                    {
                        walked.push(next);
                        at = next;
                    }
                    assert_eq!(geo.line_to(from, to).collect::<Vec<_>>(), walked, "{a:?} to {b:?}");
                }
            }
        }
    }
}
