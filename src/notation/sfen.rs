//! Position strings: SFEN for any board size, with the letters each variant declares.
//!
//! `BOARD SIDE HAND [MOVE-NUMBER]`. The board lists ranks from the top (rank `a`), each from
//! the highest file to file 1; digits count empty squares (`12` is twelve). Upper case is
//! Black, lower case White; `+` before a piece marks a promoted piece.
//!
//! koma's extension for pieces without an SFEN letter (Dai, Maka-Dai-Dai): the piece's
//! abbreviation in brackets, upper case for Black and lower case for White (`[LN]`, `[ln]`);
//! a promoted piece is `+` and its unpromoted form's token (`+[DH]`). A piece that declined
//! to promote on entering the zone under Chu's pawn rule is followed by `=`; a piece that
//! declined to promote on entering the zone on its side's last move, and so may not promote
//! on its next move unless it captures (Chu's deferral rule), is followed by `!`. In variants
//! without drops the third field is the square where a Lion was last taken by a non-Lion
//! (lishogi's convention for Chu), or `-`.

use crate::game::{MAX_MOVE_NUMBER, MoveTables, Position, PositionError};
use crate::rules::{PieceId, Side, Square};
use std::sync::Arc;

/// Why a position string cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message} (in the {field} field, at character {})", .at + 1)]
pub struct SfenError {
    /// Which field: board, side, hand, move number (or the position as a whole).
    pub field: &'static str,
    /// Byte offset of the offending character in the whole string.
    pub at: usize,
    pub message: String,
}

/// The token of each kind: what SFEN writes for it (upper case, Black's form).
struct Tokens {
    /// Per kind: `P`, `+P`, `[LN]`, `+[DH]`.
    tokens: Vec<String>,
}

impl Tokens {
    fn new(t: &MoveTables) -> Tokens {
        let base_token = |id: usize| match &t.rules().pieces[id].sfen {
            Some(letter) if !letter.starts_with('+') => letter.to_uppercase(),
            _ => format!("[{}]", t.rules().pieces[id].abbrev.to_uppercase()),
        };
        let tokens = (0..t.kind_count())
            .map(|id| {
                let base = t.kinds()[id].unpromoted.index();
                if base == id {
                    base_token(id)
                } else {
                    format!("+{}", base_token(base))
                }
            })
            .collect();
        Tokens { tokens }
    }

    fn write(&self, kind: PieceId, side: Side) -> String {
        let token = &self.tokens[kind.index()];
        match side {
            Side::Black => token.clone(),
            Side::White => token.to_lowercase(),
        }
    }

    /// The kind and side of a token as written (`p`, `+P`, `[ln]`).
    fn read(&self, token: &str) -> Option<(PieceId, Side)> {
        let body = token.trim_start_matches('+');
        let side = if body.chars().any(|c| c.is_ascii_uppercase()) {
            Side::Black
        } else {
            Side::White
        };
        if body.chars().any(|c| c.is_ascii_uppercase()) && body.chars().any(|c| c.is_ascii_lowercase()) {
            return None;
        }
        let upper = token.to_uppercase();
        self.tokens
            .iter()
            .position(|t| *t == upper)
            .map(|i| (PieceId(i as u16), side))
    }
}

/// Prints a position as SFEN.
pub fn write_sfen(pos: &Position) -> String {
    let t = pos.tables();
    let tokens = Tokens::new(t);
    let setup = pos.to_setup();
    let board = t.rules().board;
    let mut ranks = Vec::new();
    for rank in 1..=board.ranks {
        let mut text = String::new();
        let mut empty = 0;
        for file in (1..=board.files).rev() {
            match pos.piece_at(Square::new(file, rank)) {
                None => empty += 1,
                Some(piece) => {
                    let side = piece.side();
                    if empty > 0 {
                        text.push_str(&empty.to_string());
                        empty = 0;
                    }
                    text.push_str(&tokens.write(piece.kind(), side));
                    if piece.declined() {
                        text.push('=');
                    }
                    if setup.deferred[side.index()] == Some(Square::new(file, rank)) {
                        text.push('!');
                    }
                }
            }
        }
        if empty > 0 {
            text.push_str(&empty.to_string());
        }
        ranks.push(text);
    }
    let side = if setup.side_to_move == Side::Black { "b" } else { "w" };
    let third = if t.rules().drops {
        hand_text(&setup.hands, &tokens)
    } else {
        setup.lion_capture.map_or("-".to_string(), |s| s.to_string())
    };
    format!("{} {side} {third} {}", ranks.join("/"), setup.move_number)
}

fn hand_text(hands: &[(Side, PieceId, u32)], tokens: &Tokens) -> String {
    if hands.is_empty() {
        return "-".into();
    }
    let mut text = String::new();
    for &(side, kind, count) in hands {
        if count > 1 {
            text.push_str(&count.to_string());
        }
        text.push_str(&tokens.write(kind, side));
    }
    text
}

/// Reads a position string against a variant's rules.
pub fn read_sfen(t: &Arc<MoveTables>, text: &str) -> Result<Position, SfenError> {
    let fields = split_fields(text);
    let field = |i: usize| fields.get(i).copied();
    let Some((board_at, board_text)) = field(0) else {
        return Err(SfenError {
            field: "board",
            at: 0,
            message: "the position string is empty".into(),
        });
    };
    if fields.len() > 4 {
        let (at, extra) = fields[4];
        return Err(SfenError {
            field: "position",
            at,
            message: format!("unexpected fifth field `{extra}`"),
        });
    }
    let tokens = Tokens::new(t);
    let (pieces, deferred, piece_at) = read_board(t, &tokens, board_text, board_at)?;
    let (side_at, side_text) = field(1).ok_or(SfenError {
        field: "side",
        at: text.len(),
        message: "the side to move (`b` or `w`) is missing".into(),
    })?;
    let side_to_move = match side_text {
        "b" => Side::Black,
        "w" => Side::White,
        other => {
            return Err(SfenError {
                field: "side",
                at: side_at,
                message: format!("`{other}` is not a side to move (`b` or `w`)"),
            });
        }
    };
    let (mut hands, mut hand_at, mut lion_capture) = (Vec::new(), Vec::new(), None);
    if let Some((at, third)) = field(2) {
        if t.rules().drops {
            (hands, hand_at) = read_hands(&tokens, third, at)?;
        } else if third != "-" {
            let square = Square::parse(third).filter(|s| t.rules().board.contains(*s));
            lion_capture = Some(square.ok_or(SfenError {
                field: "hand",
                at,
                message: format!("`{third}` is neither `-` nor a square of the board (this variant has no hands)"),
            })?);
        }
    }
    let move_number = match field(3) {
        None => 1,
        Some((at, n)) => n
            .parse::<u32>()
            .ok()
            .filter(|n| (1..=MAX_MOVE_NUMBER).contains(n))
            .ok_or(SfenError {
                field: "move number",
                at,
                message: format!("`{n}` is not a move number (1 to {MAX_MOVE_NUMBER})"),
            })?,
    };
    let setup = crate::game::Setup {
        pieces,
        hands,
        side_to_move,
        move_number,
        lion_capture,
        deferred,
    };
    Position::from_setup(t.clone(), &setup).map_err(|e: PositionError| {
        // Point at a token of the kind at fault (in hand first), or at the side to move.
        let blame = |of_kind: &dyn Fn(PieceId) -> bool| {
            let in_hand = setup
                .hands
                .iter()
                .zip(&hand_at)
                .rev()
                .find(|((_, k, _), _)| of_kind(*k));
            let on_board = setup
                .pieces
                .iter()
                .zip(&piece_at)
                .rev()
                .find(|((_, _, k, _), _)| of_kind(*k));
            in_hand
                .map(|(_, &at)| ("hand", at))
                .or_else(|| on_board.map(|(_, &at)| ("board", at)))
        };
        let (field, at) = match &e {
            PositionError::TooManyPieces { piece, .. } => t
                .rules()
                .piece_by_abbrev(piece)
                .and_then(|base| blame(&|k| t.kind(k).hand == base)),
            PositionError::PromotedInHand(piece) => {
                t.rules().piece_by_abbrev(piece).and_then(|kind| blame(&|k| k == kind))
            }
            PositionError::OpponentInCheck => Some(("side", side_at)),
            PositionError::BadDeferral(square) | PositionError::NotUnderDeclineRule(square) => setup
                .pieces
                .iter()
                .zip(&piece_at)
                .find(|((s, ..), _)| s == square)
                .map(|(_, &at)| ("board", at)),
            _ => None,
        }
        .unwrap_or(("position", 0));
        SfenError {
            field,
            at,
            message: e.to_string(),
        }
    })
}

fn split_fields(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        match (c.is_whitespace(), start) {
            (false, None) => start = Some(i),
            (true, Some(s)) => {
                out.push((s, &text[s..i]));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, &text[s..]));
    }
    out
}

/// One piece token at the start of `rest`: `+`? then a letter or a bracketed abbreviation.
fn next_token(rest: &str) -> Option<usize> {
    let promoted = usize::from(rest.starts_with('+'));
    let body = &rest[promoted..];
    if body.starts_with('[') {
        body.find(']').map(|end| promoted + end + 1)
    } else {
        body.chars()
            .next()
            .filter(|c| c.is_ascii_alphabetic())
            .map(|c| promoted + c.len_utf8())
    }
}

/// The pieces a board field lists, per side the square of its piece marked `!`, and where
/// each piece's token starts.
type BoardRead = (Vec<(Square, Side, PieceId, bool)>, [Option<Square>; 2], Vec<usize>);

fn read_board(t: &MoveTables, tokens: &Tokens, text: &str, offset: usize) -> Result<BoardRead, SfenError> {
    let board = t.rules().board;
    let err = |at: usize, message: String| SfenError {
        field: "board",
        at: offset + at,
        message,
    };
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != usize::from(board.ranks) {
        return Err(err(
            0,
            format!("{} ranks given; the board has {}", ranks.len(), board.ranks),
        ));
    }
    let mut pieces = Vec::new();
    let mut piece_at = Vec::new();
    let mut deferred = [None; 2];
    let mut at = 0;
    for (r, rank_text) in ranks.iter().enumerate() {
        let rank = r as u8 + 1;
        let mut file = i32::from(board.files);
        let mut i = 0;
        while i < rank_text.len() {
            let rest = &rank_text[i..];
            let digits = rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len());
            if digits > 0 {
                // More empty squares than the rank has left is refused here, before the
                // count (of any length) is subtracted.
                let n = rest[..digits]
                    .parse::<i32>()
                    .ok()
                    .filter(|&n| n <= file)
                    .ok_or_else(|| {
                        err(
                            at + i,
                            format!(
                                "rank {} has more than {} squares",
                                crate::rules::rank_name(rank),
                                board.files
                            ),
                        )
                    })?;
                file -= n;
                i += digits;
                continue;
            }
            let len = next_token(rest).ok_or_else(|| {
                err(
                    at + i,
                    format!("`{}` is not a piece", rest.chars().next().unwrap_or(' ')),
                )
            })?;
            let token = &rest[..len];
            let token_start = i;
            let (kind, side) = tokens
                .read(token)
                .ok_or_else(|| err(at + i, format!("`{token}` is not a piece of this variant")))?;
            if file < 1 {
                return Err(err(
                    at + i,
                    format!(
                        "rank {} has more than {} squares",
                        crate::rules::rank_name(rank),
                        board.files
                    ),
                ));
            }
            i += len;
            let declined = rank_text[i..].starts_with('=');
            if declined {
                if !t.kind(kind).promotion.declined_waits_for_last_rank {
                    return Err(err(
                        at + i,
                        format!(
                            "`=` marks a piece that declined promotion under the rule `declined-waits-for-last-rank`, which `{token}` is not under in this variant"
                        ),
                    ));
                }
                i += 1;
            }
            let square = Square::new(file as u8, rank);
            if rank_text[i..].starts_with('!') {
                if !t.rules().deferral {
                    return Err(err(
                        at + i,
                        "`!` marks a piece under the deferral rule, which this variant does not have".into(),
                    ));
                }
                if deferred[side.index()].is_some() {
                    return Err(err(at + i, "two pieces of one side are marked `!`".into()));
                }
                deferred[side.index()] = Some(square);
                i += 1;
            }
            pieces.push((square, side, kind, declined));
            piece_at.push(offset + at + token_start);
            file -= 1;
        }
        if file != 0 {
            let counted = i32::from(board.files) - file;
            return Err(err(
                at,
                format!(
                    "rank {} has {counted} squares; the board has {} files",
                    crate::rules::rank_name(rank),
                    board.files
                ),
            ));
        }
        at += rank_text.len() + 1;
    }
    Ok((pieces, deferred, piece_at))
}

/// The pieces in hand, and where each entry (its count, or its piece) starts.
type HandRead = (Vec<(Side, PieceId, u32)>, Vec<usize>);

fn read_hands(tokens: &Tokens, text: &str, offset: usize) -> Result<HandRead, SfenError> {
    if text == "-" {
        return Ok((vec![], vec![]));
    }
    let err = |at: usize, message: String| SfenError {
        field: "hand",
        at: offset + at,
        message,
    };
    let mut hands = Vec::new();
    let mut starts = Vec::new();
    let mut i = 0;
    while i < text.len() {
        starts.push(offset + i);
        let rest = &text[i..];
        let digits = rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len());
        let count = if digits > 0 {
            rest[..digits]
                .parse::<u32>()
                .ok()
                .filter(|&n| (1..=255).contains(&n))
                .ok_or_else(|| err(i, format!("`{}` is not a count of pieces (1 to 255)", &rest[..digits])))?
        } else {
            1
        };
        i += digits;
        let rest = &text[i..];
        let len = next_token(rest).ok_or_else(|| err(i, "a count must be followed by a piece".into()))?;
        let token = &rest[..len];
        let (kind, side) = tokens
            .read(token)
            .ok_or_else(|| err(i, format!("`{token}` is not a piece of this variant")))?;
        hands.push((side, kind, count));
        i += len;
    }
    Ok((hands, starts))
}
