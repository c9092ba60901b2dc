//! Finding the pieces a query names (`koma show chu Ln`, `dragon king`), and the error that
//! names close matches when none is found.

use crate::compile::suggest::{suggest, suggest_pieces};
use crate::rules::{PieceId, PieceKind, Rules};

/// The pieces a query names: an exact abbreviation, else abbreviations or names equal to it
/// ignoring case (several kinds may share a name).
pub(super) fn find_pieces(rules: &Rules, query: &str) -> Result<Vec<PieceId>, String> {
    if let Some(id) = rules.piece_by_abbrev(query) {
        return Ok(vec![id]);
    }
    let matching = |text: fn(&PieceKind) -> &str| -> Vec<PieceId> {
        rules
            .piece_ids()
            .filter(|&id| text(rules.piece(id)).eq_ignore_ascii_case(query))
            .collect()
    };
    [matching(|p| &p.abbrev), matching(|p| &p.name)]
        .into_iter()
        .find(|ids| !ids.is_empty())
        .ok_or_else(|| unknown_piece(rules, query))
}

fn unknown_piece(rules: &Rules, query: &str) -> String {
    let close = close_matches(rules, query);
    let listed = if close.is_empty() {
        let all: Vec<&str> = rules.pieces.iter().map(|p| p.abbrev.as_str()).collect();
        format!("its pieces are {}", all.join(", "))
    } else {
        let named: Vec<String> = close.iter().map(|&id| abbrev_and_name(rules.piece(id))).collect();
        format!("did you mean {}?", named.join(", "))
    };
    format!("{} has no piece `{query}`; {listed}", rules.name)
}

/// Pieces whose name contains the query, or that the query probably misspells: the
/// compiler's suggestions for a misspelt abbreviation ([`suggest_pieces`]) and the closest
/// name ([`suggest`]).
fn close_matches(rules: &Rules, query: &str) -> Vec<PieceId> {
    let lower = query.to_lowercase();
    let abbrevs = suggest_pieces(query, rules.pieces.iter().map(|p| (p.abbrev.as_str(), p.name.as_str())));
    let name = suggest(query, rules.pieces.iter().map(|p| p.name.as_str()));
    rules
        .piece_ids()
        .filter(|&id| {
            let p = rules.piece(id);
            p.name.to_lowercase().contains(&lower)
                || abbrevs.contains(&p.abbrev.as_str())
                || name == Some(p.name.as_str())
        })
        .collect()
}

pub(super) fn abbrev_and_name(piece: &PieceKind) -> String {
    format!("{} ({})", piece.abbrev, piece.name)
}
