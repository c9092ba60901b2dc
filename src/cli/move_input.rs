//! A move as the player types it: koma's notations (`koma::notation::read_move`), and an
//! answer that says what was meant when the text is another notation's (`P7f` without its
//! `-`, CSA's and kifu's numbered squares `7776` or `+7776FU`), and a question when a
//! promotion the rules leave to the player is not written.

use koma::game::{LionCounting, Move, Position};
use koma::notation::{read_move, write_tsa};

/// Why a typed text is not played.
pub enum Answer {
    /// It is not a move of this position: why.
    Refused(String),
    /// The move meant, or a question to choose it: the player needs nothing more.
    Suggestion(String),
}

/// The move `text` means, or the answer to give the player: why not, and what was meant.
pub fn read_typed(pos: &Position, text: &str) -> Result<Move, Answer> {
    match read_move(pos, text) {
        Ok(m) => match promotion_unwritten(pos, text, &m) {
            Some(question) => Err(Answer::Suggestion(question)),
            None => Ok(m),
        },
        Err(e) => Err(match numbered_squares(pos, text) {
            Some((answer, true)) => Answer::Suggestion(answer),
            Some((answer, false)) => Answer::Refused(answer),
            None => match separator_hint(pos, text) {
                Some(meant) => Answer::Suggestion(format!("{e} — did you mean `{meant}`?")),
                None => Answer::Refused(e.to_string()),
            },
        }),
    }
}

/// For a move in the rule texts' notation that declines, without saying so, a promotion the
/// rules leave to the player: the question. USI moves say it by their form (no `+`).
fn promotion_unwritten(pos: &Position, text: &str, m: &Move) -> Option<String> {
    let usi = text.starts_with(|c: char| c.is_ascii_digit() || c == '[');
    if m.promote || m.is_drop() || usi || text.ends_with('=') {
        return None;
    }
    let promoting = Move { promote: true, ..*m };
    let mut legal = Vec::new();
    pos.legal_moves_into(&mut legal, LionCounting::Distinct);
    let geo = pos.geometry();
    let kind = pos.piece_at(geo.square(m.from?))?.kind();
    let piece = &pos.rules().pieces[kind.index()];
    legal.contains(&promoting).then(|| {
        format!(
            "`{text}`: the {} ({}) may promote on this move — type `{text}+` to promote, or `{text}=` not to",
            piece.name, piece.abbrev
        )
    })
}

/// For a move written without `-` or `x` between the piece and its destination (`P7f`), the
/// move meant, when it is legal.
fn separator_hint(pos: &Position, text: &str) -> Option<String> {
    let at = text.find(|c: char| c.is_ascii_digit()).filter(|&at| at > 0)?;
    let (piece, rest) = text.split_at(at);
    if piece.ends_with(['-', 'x', '*', '\'']) {
        return None;
    }
    ["-", "x"]
        .iter()
        .map(|sep| format!("{piece}{sep}{rest}"))
        .find(|candidate| read_move(pos, candidate).is_ok())
}

/// For squares numbered as CSA and kifu number them (`7776`, `+7776FU`: file, rank, file,
/// rank, all digits), what koma expects instead, and the move meant when it is legal (then
/// with `true`).
fn numbered_squares(pos: &Position, text: &str) -> Option<(String, bool)> {
    let body = text.strip_prefix(['+', '-']).unwrap_or(text);
    let digits: Vec<u32> = body.chars().take(4).map(|c| c.to_digit(10)).collect::<Option<_>>()?;
    let piece = &body[4.min(body.len())..];
    let csa_piece = piece.len() == 2 && piece.chars().all(|c| c.is_ascii_uppercase());
    if digits.len() != 4 || !(piece.is_empty() || csa_piece) {
        return None;
    }
    let rank = |d: u32| char::from_digit(d + 9, 36).filter(|_| d > 0);
    let meant = match (rank(digits[1]), rank(digits[3])) {
        (Some(from), Some(to)) if digits[0] > 0 && digits[2] > 0 => {
            let usi = format!("{}{from}{}{to}", digits[0], digits[2]);
            let legal: Vec<(String, Move)> = [usi.clone(), format!("{usi}+")]
                .into_iter()
                .filter_map(|candidate| read_move(pos, &candidate).ok().map(|m| (candidate, m)))
                .collect();
            legal
                .into_iter()
                .map(|(candidate, m)| format!("`{}` ({candidate})", write_tsa(pos, &m)))
                .collect::<Vec<_>>()
        }
        _ => Vec::new(),
    };
    let expected = format!(
        "`{text}` is not a move: koma writes a square as its file number and rank letter (7g), not \
         two digits as CSA and kifu do; a move is `P-7f` in the rule texts' notation or `7g7f` in USI"
    );
    Some(if meant.is_empty() {
        (expected, false)
    } else {
        (format!("{expected} — did you mean {}?", meant.join(" or ")), true)
    })
}
