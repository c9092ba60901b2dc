//! What a move took, as text: a move taking more than the piece it lands on (a range capture,
//! burning, a Lion's double capture) says so wherever it is shown (`taking 16 pieces: ...`),
//! from what the game kept of it when it was played.

use crate::game::{Played, Position};
use crate::rules::Side;

/// When the move `played` took pieces besides the one on its destination: `taking 3 pieces:
/// White's P-5d, G-5c; Black's P-5f` (each side's pieces by abbreviation and square, the
/// mover's opponent's first); `None` for a move that took one piece on its destination, or
/// none. `pos` is any position of the game (for its board and pieces).
pub fn describe_taken(pos: &Position, played: &Played) -> Option<String> {
    if !played.takes_more_than_its_destination() {
        return None;
    }
    let geo = pos.geometry();
    let rules = pos.rules();
    let of = |side: Side| -> Option<String> {
        let pieces: Vec<String> = played
            .taken
            .iter()
            .filter(|t| t.side == side)
            .map(|t| format!("{}-{}", rules.pieces[t.kind.index()].abbrev, geo.square(t.square)))
            .collect();
        (!pieces.is_empty()).then(|| format!("{side}'s {}", pieces.join(", ")))
    };
    let sides: Vec<String> = [of(played.side.opponent()), of(played.side)]
        .into_iter()
        .flatten()
        .collect();
    let count = played.taken.len();
    let noun = if count == 1 { "piece" } else { "pieces" };
    Some(format!("taking {count} {noun}: {}", sides.join("; ")))
}
