//! `koma show`: each piece's moves drawn on a small board around it, as the Piece Help
//! screens of the rule texts draw them, and a one-screen summary of a variant's rules. One
//! room per job: `lookup` finds the pieces a query names, `piece` writes a piece's section
//! around its `diagram`, `svg` draws the same as SVG, and `summary` the rules summary.
//!
//! Nothing is drawn from a particular variant's pieces: every diagram and fact comes from the
//! compiled rules.

mod diagram;
mod lookup;
mod piece;
mod summary;
mod svg;

use crate::rules::Rules;
use lookup::find_pieces;
use piece::piece_section;
use summary::summary;
pub use svg::{piece_svg, show_svg};

/// The summary and every piece, or only the pieces `piece` names (an abbreviation or a
/// name, in any case). An unknown piece is an error that names close matches.
pub fn show(rules: &Rules, piece: Option<&str>) -> Result<String, String> {
    let ids = match piece {
        Some(query) => find_pieces(rules, query)?,
        None => rules.piece_ids().collect(),
    };
    let mut sections: Vec<String> = ids.into_iter().map(|id| piece_section(rules, id)).collect();
    if piece.is_none() {
        sections.insert(0, summary(rules));
    }
    Ok(sections.join("\n"))
}
