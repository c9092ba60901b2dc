//! Moves in USI form, with squares as the rule texts write them: `7g7f`, `2b8h+`, `P*5e`,
//! Lion moves as `from[middle]to` (`7g6f7g` is igui), drops of pieces without an SFEN letter
//! as `[Ln]*5e`. A pass is written `from` twice (`7g7g`): a position has one pass, written
//! with the first piece that may pass (see [`Position::pseudo_moves`]); any passing piece's
//! pass reads as it.

use crate::game::{Illegal, LionCounting, Move, Position, Sq};
use crate::rules::{PieceId, Square};

/// Why a USI move cannot be read or played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UsiError {
    #[error("{0}")]
    Malformed(String),
    /// Well formed, but not a legal move here.
    #[error("{0}")]
    NotLegal(String),
    /// A move the pieces can make, but one that breaks this rule.
    #[error("not legal here: {0}")]
    Breaks(Illegal),
}

/// Writes a move in USI form.
pub fn write_usi(pos: &Position, m: &Move) -> String {
    let geo = pos.geometry();
    let square = |sq: Sq| geo.square(sq).to_string();
    if let Some(kind) = m.drop {
        let piece = pos.rules().piece(kind);
        let token = match &piece.sfen {
            Some(letter) => letter.to_uppercase(),
            None => format!("[{}]", piece.abbrev),
        };
        return format!("{token}*{}", square(m.to));
    }
    let mut text = m.from.map(square).unwrap_or_default();
    for v in m.via_squares() {
        text.push_str(&square(v));
    }
    text.push_str(&square(m.to));
    if m.promote {
        text.push('+');
    }
    text
}

/// Splits `7g6f7g` into squares.
fn squares(text: &str) -> Option<Vec<Square>> {
    let mut out = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let digits = rest.find(|c: char| !c.is_ascii_digit())?;
        let letters = rest[digits..]
            .find(|c: char| !c.is_ascii_lowercase())
            .map_or(rest.len(), |i| digits + i);
        if digits == 0 || letters == digits {
            return None;
        }
        // A rank is one letter, or `a` and a letter past `z`; take one letter unless the next
        // characters start another square.
        let end = if letters - digits >= 2
            && rest[digits..].starts_with('a')
            && rest[digits + 2..]
                .chars()
                .next()
                .is_none_or(|c| c.is_ascii_digit() || c == '+')
        {
            digits + 2
        } else {
            digits + 1
        };
        out.push(Square::parse(&rest[..end])?);
        rest = &rest[end..];
    }
    Some(out)
}

/// Reads a USI move and finds the legal move it names.
pub fn read_usi(pos: &Position, text: &str) -> Result<Move, UsiError> {
    let text = text.trim();
    let legal = pos.legal_moves();
    let geo = pos.geometry();
    let board = pos.rules().board;
    let on_board = |s: &Square| board.contains(*s);
    if let Some((piece, to)) = text.split_once('*') {
        let to = squares(to)
            .filter(|s| s.len() == 1 && on_board(&s[0]))
            .ok_or_else(|| UsiError::Malformed(format!("`{to}` is not a square of the board")))?[0];
        let kind = drop_kind(pos, piece)
            .ok_or_else(|| UsiError::Malformed(format!("`{piece}` is not a piece of this variant")))?;
        let m = Move::drop(kind, geo.index(to));
        return match legal.iter().find(|l| **l == m) {
            Some(&m) => Ok(m),
            None => Err(not_legal(pos, text, Some(m), "a legal drop")),
        };
    }
    let (body, promote) = match text.strip_suffix('+') {
        Some(body) => (body, true),
        None => (text, false),
    };
    let list = squares(body)
        .filter(|l| (2..=4).contains(&l.len()) && l.iter().all(on_board))
        .ok_or_else(|| {
            UsiError::Malformed(format!(
                "`{text}` is not a move (squares such as `7g7f`, `7g6f7g`, or a drop such as `P*5e`)"
            ))
        })?;
    let from = geo.index(list[0]);
    let to = geo.index(list[list.len() - 1]);
    let mids: Vec<Sq> = list[1..list.len() - 1].iter().map(|s| geo.index(*s)).collect();
    if let Some(m) = board_move(pos, &legal, from, to, &mids, promote) {
        return Ok(m);
    }
    let mut pseudo = Vec::new();
    pos.pseudo_moves(&mut pseudo, LionCounting::Distinct);
    let candidate = board_move(pos, &pseudo, from, to, &mids, promote);
    Err(not_legal(pos, text, candidate, "a legal move"))
}

/// A move that is not legal, with the rule it breaks when the pieces could make it
/// (`candidate`, one of the pseudo-legal moves).
fn not_legal(pos: &Position, text: &str, candidate: Option<Move>, what: &str) -> UsiError {
    match candidate.map(|m| pos.check_legal(&m)) {
        Some(Err(rule)) if rule != Illegal::NotAMove => UsiError::Breaks(rule),
        _ => UsiError::NotLegal(format!("{text} is not {what} here")),
    }
}

/// The legal move (of `legal`, koma's distinct moves) that a move counted per path (as
/// [`LionCounting::Paths`] generates it, the middle square in `via[0]`) makes.
pub fn distinct_move(pos: &Position, legal: &[Move], path: &Move) -> Option<Move> {
    let Some(from) = path.from else {
        return legal.iter().find(|&&m| m == *path).copied();
    };
    let mids: Vec<Sq> = path.via_squares().collect();
    board_move(pos, legal, from, path.to, &mids, path.promote)
}

/// The legal move on the board from `from` to `to` through the squares `mids`.
fn board_move(pos: &Position, legal: &[Move], from: Sq, to: Sq, mids: &[Sq], promote: bool) -> Option<Move> {
    legal
        .iter()
        .find(|m| m.from == Some(from) && m.to == to && m.promote == promote && via_matches(pos, m, mids))
        .copied()
        .or_else(|| the_pass_written(pos, legal, from, to, mids, promote))
}

/// The position's one pass, when the text is a pass (`5e5e`, `5e5d5e` through an empty
/// square) by any piece that may pass: every passing piece's pass names it.
fn the_pass_written(pos: &Position, legal: &[Move], from: Sq, to: Sq, mids: &[Sq], promote: bool) -> Option<Move> {
    let geo = pos.geometry();
    let empty = mids.iter().all(|&s| pos.piece_at(geo.square(s)).is_none());
    if from != to || promote || !empty {
        return None;
    }
    let pass = pos.the_pass(&Move {
        from: Some(from),
        to,
        via: [None; 2],
        drop: None,
        promote: false,
        sweep: false,
    });
    legal.iter().find(|&&m| m == pass).copied()
}

/// Whether the middle squares written match a move's: squares written where nothing is
/// captured may be left out (a Lion passing through an empty square).
fn via_matches(pos: &Position, m: &Move, mids: &[Sq]) -> bool {
    let geo = pos.geometry();
    let occupied = |sq: Sq| pos.piece_at(geo.square(sq)).is_some();
    let written: Vec<Sq> = mids
        .iter()
        .copied()
        .filter(|&s| occupied(s) && Some(s) != m.from)
        .collect();
    let actual: Vec<Sq> = m.via_squares().collect();
    written == actual && (m.from != Some(m.to) || !actual.is_empty() || mids.iter().all(|&s| !occupied(s)))
}

pub(super) fn drop_kind(pos: &Position, token: &str) -> Option<PieceId> {
    let rules = pos.rules();
    let inner = token.strip_prefix('[').and_then(|t| t.strip_suffix(']'));
    rules
        .pieces
        .iter()
        .position(|p| match inner {
            Some(abbrev) => p.abbrev == abbrev,
            // A promoted face is dropped only under `drops either-face`: legality decides.
            None => p.sfen.as_deref().is_some_and(|l| l.eq_ignore_ascii_case(token)),
        })
        .map(|i| PieceId(i as u16))
}

/// The legal moves in USI form, sorted.
pub fn legal_usi(pos: &Position, counting: LionCounting) -> Vec<String> {
    let mut moves = Vec::new();
    pos.legal_moves_into(&mut moves, counting);
    let mut out: Vec<String> = moves.iter().map(|m| write_usi(pos, m)).collect();
    out.sort();
    out
}
