//! What a move takes: the pieces it removes from the board, its destination's among them, so
//! that a move taking more than the piece it lands on (a range capture, burning, a Lion's
//! double capture) can say so wherever it is shown (`taking 16 pieces: ...`).

use crate::game::{Move, Position, Sq};
use crate::rules::{PieceId, Side};

/// A piece a move takes: where it stood, whose it was and its kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TakenPiece {
    pub square: Sq,
    pub side: Side,
    pub kind: PieceId,
}

/// The pieces `m` removes from the board, in the board's order: every square but the mover's
/// start that held a piece before the move and is empty after it, and the destination when it
/// held a piece (of either side: a range capture takes the mover's own too). Found by making
/// the move on a copy of the position.
pub fn pieces_taken(pos: &Position, m: &Move) -> Vec<TakenPiece> {
    let before: Vec<Option<(Side, PieceId)>> = board(pos);
    let mut played = pos.clone();
    played.make(m);
    let after = board(&played);
    let start = m.from;
    before
        .iter()
        .zip(&after)
        .enumerate()
        .filter_map(|(sq, (was, is))| {
            let sq = Sq::new(sq);
            let (side, kind) = (*was)?;
            let taken = Some(sq) != start && (is.is_none() || sq == m.to);
            taken.then_some(TakenPiece { square: sq, side, kind })
        })
        .collect()
}

/// When `m` takes pieces besides the one on its destination: `taking 3 pieces: White's P-5d,
/// G-5c; Black's P-5f` (each side's pieces by abbreviation and square, the opponent's first);
/// `None` for a move that takes one piece on its destination, or none.
pub fn describe_taken(pos: &Position, m: &Move) -> Option<String> {
    let taken = pieces_taken(pos, m);
    if taken.iter().all(|t| t.square == m.to) {
        return None;
    }
    let mover = pos.side_to_move();
    let geo = pos.geometry();
    let rules = pos.rules();
    let of = |side: Side| -> Option<String> {
        let pieces: Vec<String> = taken
            .iter()
            .filter(|t| t.side == side)
            .map(|t| format!("{}-{}", rules.pieces[t.kind.index()].abbrev, geo.square(t.square)))
            .collect();
        (!pieces.is_empty()).then(|| format!("{side}'s {}", pieces.join(", ")))
    };
    let sides: Vec<String> = [of(mover.opponent()), of(mover)].into_iter().flatten().collect();
    let count = taken.len();
    let noun = if count == 1 { "piece" } else { "pieces" };
    Some(format!("taking {count} {noun}: {}", sides.join("; ")))
}

/// What stands on each square of the board.
fn board(pos: &Position) -> Vec<Option<(Side, PieceId)>> {
    pos.geometry().squares().map(|sq| pos.piece_on(sq)).collect()
}
