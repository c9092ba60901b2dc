//! Moves in the notation of the Shogi Association (TSA), as the rule texts write them:
//! `P-7f`, `YNx5c+`, `Sw-5b+`, `Lnx!9d`, `Lnx3hx2i`, `P*5e`.
//!
//! A move is written as:
//!
//! 1. the piece: its kind's abbreviation as the variant declares it (`Ln`; a promoted kind is
//!    written by its own abbreviation, `+DH` in Chu, `FGo` or `+L` in Maka-Dai-Dai, `Go` in
//!    Tori);
//! 2. the start square, only when another piece of the same kind could legally make a move
//!    written the same way (the same legs to the same squares), whatever the promotion:
//!    `G6i-5h`;
//! 3. the legs: `-` and the square for a move to an empty square, `x` and the square for a
//!    capture, `*` and the square for a drop. A Lion's moves list every square it captures on,
//!    in order, then its destination: `Lnx3hx2i` captures twice, `Lnx3h-2i` captures and steps
//!    on to an empty square. A move that jumps straight to its destination is one leg
//!    (`Ln-5e`, `Lnx5e`): empty squares it passes are not written;
//! 4. `+` when the piece promotes on the move, `=` when it could have promoted (the promoting
//!    move is legal) and does not.
//!
//! Moves that come back to their start square:
//! - igui, capturing without moving: `x!` and the captured square (`Lnx!9d`);
//! - a pass is written as the Lion's move-and-return it is: a step to an empty square next to
//!   it and back to its own square, `Ln-6f-7g` for a Lion on 7g. A position has one pass,
//!   written with the first piece that may pass in the board's reading order; a pass written
//!   with any other piece that may pass reads as that one pass. The square written is the
//!   first empty square the piece could step to, looking forward, forward-left,
//!   forward-right, left, right, back, back-left, back-right from the mover's side (for a
//!   Horned Falcon, the square in front of it);
//! - a three-step Lion that captures twice and returns (Maka-Dai-Dai's Teaching King) lists
//!   both captures and its own square: `TKx3hx2h-3g`.
//!
//! [`read_move`] reads what [`write_tsa`] writes and is forgiving where the text can mean
//! only one move: the start square may be left out when only one piece of the kind can make
//! the move; `'` may stand for `*` (`P'5e`); `-` and `x` are not checked against the board
//! (what a move captures is read from the board); `=` may be left out; a pass may also be
//! written `Ln-!6f` or with its own square as destination (`Ln-7g`); `Ln-6fx5e` (a square
//! passed on the way) names the move `Lnx5e`. It is strict where the text is not clear: a
//! move more than one piece could make, a piece the side to move does not have, an illegal
//! move, or a promotion choice the rules do not allow, gets a [`MoveError`] that says why.
//! It also reads USI moves (`7g7f`, `7g6f7g`, `P*5e`, `[Ln]*5e`) as
//! [`write_usi`](super::write_usi) writes them. A text that starts with a digit or `[` is
//! read as USI; a drop whose piece is not an abbreviation of the variant is tried as a USI
//! drop with an SFEN letter.

use super::usi::{UsiError, drop_kind, read_usi};
use crate::game::Geometry;
use crate::game::{Illegal, LionCounting, Move, Position, Sq};
use crate::rules::{Movement, Offset, PieceId, Square, rank_name};

/// Why a text cannot be read as a move of this position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The text is not a move: the character where reading stopped (from 1) and what was
    /// expected there.
    #[error("`{text}` is not a move: at character {at}, expected {expected}")]
    Malformed { text: String, at: usize, expected: String },
    /// The piece written is not a piece of this variant, or the side to move has none where
    /// the move needs one.
    #[error("`{text}`: {reason}")]
    NoSuchPiece { text: String, reason: String },
    /// More than one piece could make the move written: the start squares of each, and the
    /// move of the first written with its start square.
    #[error(
        "`{text}` is ambiguous: the {piece} pieces on {} could each make it; write the start square after \
         the piece, as in `{example}`",
        squares(.candidates)
    )]
    Ambiguous {
        text: String,
        piece: String,
        candidates: Vec<Square>,
        example: String,
    },
    /// The move is well formed but the rules forbid it. `from` is the piece meant, when the
    /// text did not say and several pieces of the kind were tried; `detail` adds what the
    /// rule alone does not say.
    #[error("`{text}` is illegal: {rule}{}", illegal_details(.detail, .from))]
    Illegal {
        text: String,
        rule: Illegal,
        from: Option<Square>,
        detail: Option<String>,
    },
    /// The piece must promote on this move: `instead` is the text with `+`; `change` is
    /// "promote", or "turn over" under a flip rule (which also turns promoted pieces back).
    #[error("`{text}`: the piece must {change} on this move (`{instead}`)")]
    PromotionRequired {
        text: String,
        instead: String,
        change: &'static str,
    },
    /// The piece cannot promote on this move: `instead` is the text without `+`.
    #[error("`{text}`: the piece cannot {change} on this move (`{instead}`)")]
    PromotionImpossible {
        text: String,
        instead: String,
        change: &'static str,
    },
}

/// What a move's `+` does: promote, or under a flip rule turn the piece over (either way).
fn change_word(pos: &Position) -> &'static str {
    if pos.rules().flip.is_some() {
        "turn over"
    } else {
        "promote"
    }
}

/// The squares of the pieces that could each make an ambiguous move: `5i and 4h`.
fn squares(candidates: &[Square]) -> String {
    let squares: Vec<String> = candidates.iter().map(Square::to_string).collect();
    join_and(&squares)
}

/// What an illegal move's error adds to the rule: ` (detail)`, ` (the piece on 5e)`.
fn illegal_details(detail: &Option<String>, from: &Option<Square>) -> String {
    let detail = detail.as_ref().map(|d| format!(" ({d})")).unwrap_or_default();
    let from = from.map(|f| format!(" (the piece on {f})")).unwrap_or_default();
    detail + &from
}

fn join_and(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// Writes a move (legal in `pos`) in TSA notation.
pub fn write_tsa(pos: &Position, m: &Move) -> String {
    let legal = pos.legal_moves();
    write_among(pos, &legal, m)
}

/// Writes several moves of `pos` in TSA notation, finding the legal moves once. The moves
/// may be counted either way ([`LionCounting`]): a Lion path through an empty square is
/// written with that square (`Ln-6fx5e`, a pass `Ln-6f-7g`).
pub fn write_tsa_all(pos: &Position, moves: &[Move]) -> Vec<String> {
    let legal = pos.legal_moves();
    moves.iter().map(|m| write_among(pos, &legal, m)).collect()
}

/// The legal moves in TSA notation, sorted.
pub fn legal_tsa(pos: &Position, counting: LionCounting) -> Vec<String> {
    let mut moves = Vec::new();
    pos.legal_moves_into(&mut moves, counting);
    let mut out = write_tsa_all(pos, &moves);
    out.sort();
    out
}

/// Writes `m` given the legal moves of the position (counted one per distinct move).
fn write_among(pos: &Position, legal: &[Move], m: &Move) -> String {
    let geo = pos.geometry();
    let rules = pos.rules();
    if let Some(kind) = m.drop {
        return format!("{}*{}", rules.piece(kind).abbrev, geo.square(m.to));
    }
    // Neither dropped nor on the board: no move the generator makes, and no text.
    let Some(from) = m.from else {
        return String::new();
    };
    let kind = kind_at(pos, from);
    let legs = legs_text(pos, m);
    let mut text = kind.map_or_else(String::new, |kind| rules.piece(kind).abbrev.clone());
    let needs_start = legal
        .iter()
        .any(|o| o.from.is_some_and(|start| start != from && kind_at(pos, start) == kind) && legs_text(pos, o) == legs);
    if needs_start {
        text.push_str(&geo.square(from).to_string());
    }
    text.push_str(&legs);
    if m.promote {
        text.push('+');
    } else {
        let promoting = Move {
            promote: true,
            ..canonical(pos, m)
        };
        if legal.contains(&promoting) {
            text.push('=');
        }
    }
    text
}

/// The kind of the piece on a square.
fn kind_at(pos: &Position, sq: Sq) -> Option<PieceId> {
    let geo = pos.geometry();
    pos.piece_at(geo.square(sq)).map(|p| p.kind())
}

/// Whether the square holds a piece of the side not to move.
fn enemy_at(pos: &Position, sq: Sq) -> bool {
    let geo = pos.geometry();
    pos.piece_at(geo.square(sq))
        .is_some_and(|p| p.side() != pos.side_to_move())
}

/// The move with its via squares reduced to the squares it captures on (a Lion path through
/// an empty square names the same move as the direct one).
fn canonical(pos: &Position, m: &Move) -> Move {
    let mut via = [None; 2];
    let captured = m.via_squares().filter(|&v| Some(v) != m.from && enemy_at(pos, v));
    for (slot, v) in via.iter_mut().zip(captured) {
        *slot = Some(v);
    }
    Move { via, ..*m }
}

/// The legs of a board move: everything after the piece and start square, before the
/// promotion mark.
fn legs_text(pos: &Position, m: &Move) -> String {
    let geo = pos.geometry();
    let square = |sq: Sq| geo.square(sq).to_string();
    let mark = |sq: Sq| if enemy_at(pos, sq) { 'x' } else { '-' };
    let via: Vec<Sq> = m.via_squares().collect();
    let mut text = String::new();
    if let Some(from) = m.from.filter(|&from| from == m.to) {
        match via.as_slice() {
            [] => match pass_squares(pos, from).first() {
                Some(&next) => {
                    text = format!("-{}-{}", square(next), square(from));
                }
                None => text = format!("-{}", square(from)),
            },
            [v] if enemy_at(pos, *v) => text = format!("x!{}", square(*v)),
            _ => {
                for &v in &via {
                    text.push(mark(v));
                    text.push_str(&square(v));
                }
                text.push('-');
                text.push_str(&square(from));
            }
        }
        return text;
    }
    for &v in &via {
        text.push(mark(v));
        text.push_str(&square(v));
    }
    text.push(mark(m.to));
    text.push_str(&square(m.to));
    text
}

/// The directions a pass may step out to, from the mover's side, in the order the writer
/// prefers them.
const PASS_ORDER: [(i8, i8); 8] = [(0, 1), (-1, 1), (1, 1), (-1, 0), (1, 0), (0, -1), (-1, -1), (1, -1)];

/// The empty squares the piece on `from` could step to and come back from with its Lion
/// moves (a pass), in the writer's order.
fn pass_squares(pos: &Position, from: Sq) -> Vec<Sq> {
    let t = pos.tables();
    let geo = pos.geometry();
    let Some(piece) = pos.piece_at(geo.square(from)) else {
        return Vec::new();
    };
    let (side, kind) = (piece.side(), piece.kind());
    let walked = &t.kind(kind).walked;
    let allowed = |dx: i8, dy: i8| {
        walked.iter().any(|w| match *w {
            Movement::AreaLion { mode, .. } => mode.can_move(),
            Movement::LineLion { dir, mode, .. } => mode.can_move() && (dir.dx, dir.dy) == (dx, dy),
            Movement::Ride { .. }
            | Movement::Leap { .. }
            | Movement::Hook { .. }
            | Movement::Anywhere { .. }
            | Movement::Area { .. }
            | Movement::RangeJump { .. }
            | Movement::Igui { .. }
            | Movement::RangeCapture { .. }
            | Movement::Passing { .. }
            | Movement::Hop { .. } => false,
        })
    };
    PASS_ORDER
        .iter()
        .filter(|&&(dx, dy)| allowed(dx, dy))
        .filter_map(|&(dx, dy)| {
            let (df, dr) = Geometry::board_vector(side, Offset { dx, dy });
            geo.step(from, df, dr)
        })
        .filter(|&sq| pos.piece_at(geo.square(sq)).is_none())
        .collect()
}

/// A TSA move as written, before it is looked up.
struct Written {
    kind: PieceId,
    body: Body,
}

enum Body {
    Drop(Square),
    Board {
        start: Option<Square>,
        legs: Vec<Leg>,
        promote: bool,
    },
}

/// One leg: the square, whether it is written as a capture (`x`), and whether the piece
/// comes back from it (`!`).
struct Leg {
    square: Square,
    capture: bool,
    back: bool,
}

/// Why a text could not be parsed as TSA: `Unknown` when its piece is not an abbreviation
/// of the variant (it may still be a USI drop).
enum ParseError {
    Unknown(MoveError),
    Other(MoveError),
}

/// Reads a move in TSA notation or USI form and finds the legal move it names.
pub fn read_move(pos: &Position, text: &str) -> Result<Move, MoveError> {
    let text = text.trim();
    if text.starts_with(|c: char| c.is_ascii_digit() || c == '[') {
        return read_usi_move(pos, text);
    }
    match parse(pos, text) {
        Ok(written) => resolve(pos, text, written),
        Err(ParseError::Unknown(e)) if text.contains('*') => read_usi_move(pos, text).map_err(|usi| match usi {
            MoveError::Malformed { .. } => e,
            other => other,
        }),
        Err(ParseError::Unknown(e) | ParseError::Other(e)) => Err(e),
    }
}

/// A cursor over the characters of a move.
struct Cursor<'a> {
    text: &'a str,
    chars: Vec<char>,
    at: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn malformed(&self, expected: &str) -> MoveError {
        MoveError::Malformed {
            text: self.text.to_string(),
            at: self.at + 1,
            expected: expected.to_string(),
        }
    }

    /// A square of the board: file digits, then a rank letter (`a` and a letter past `z`).
    fn square(&mut self, pos: &Position) -> Result<Square, MoveError> {
        let start = self.at;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.at += 1;
        }
        let geo = pos.geometry();
        let digits = self.at - start;
        let letter = self.peek().filter(char::is_ascii_lowercase);
        if digits == 0 || letter.is_none() {
            self.at = start;
            return Err(self.malformed(&format!(
                "a square such as `5e` (files 1 to {}, ranks a to {})",
                geo.files,
                rank_name(geo.ranks)
            )));
        }
        self.at += 1;
        if geo.ranks > 26 && letter == Some('a') && self.peek().is_some_and(|c| ('a'..='j').contains(&c)) {
            self.at += 1;
        }
        let name: String = self.chars[start..self.at].iter().collect();
        match Square::parse(&name) {
            Some(square) if pos.rules().board.contains(square) => Ok(square),
            _ => {
                self.at = start;
                Err(self.malformed(&format!(
                    "a square of the {}×{} board (`{name}` is not on it)",
                    geo.files, geo.ranks
                )))
            }
        }
    }
}

/// Normalises typographic marks: `×` for `x`, dashes for `-`, `′` for `'`.
fn normalise(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '×' => 'x',
            '–' | '—' | '−' => '-',
            '′' | '’' => '\'',
            other => other,
        })
        .collect()
}

fn parse(pos: &Position, original: &str) -> Result<Written, ParseError> {
    let text = normalise(original);
    let rules = pos.rules();
    let follows = |c: Option<char>| c.is_none_or(|c| c.is_ascii_digit() || matches!(c, '-' | 'x' | '*' | '\'' | '!'));
    // The longest abbreviation the text starts with, preferring one followed by what may
    // follow a piece (`Lnx5e` is `Ln`, `x5e`).
    let mut found: Vec<(usize, usize)> = rules
        .pieces
        .iter()
        .enumerate()
        .filter(|(_, p)| text.starts_with(p.abbrev.as_str()))
        .map(|(i, p)| (i, p.abbrev.chars().count()))
        .collect();
    found.sort_by_key(|&(i, len)| (!follows(text.chars().nth(len)), std::cmp::Reverse(len), i));
    let Some(&(kind, len)) = found.first() else {
        let token: String = text
            .chars()
            .enumerate()
            .take_while(|&(i, c)| c.is_ascii_alphabetic() || (i == 0 && c == '+'))
            .map(|(_, c)| c)
            .collect();
        let token = match token.strip_suffix('x') {
            Some(t) if !t.is_empty() && !t.ends_with('+') => t.to_string(),
            _ => token,
        };
        return Err(if token.is_empty() || token == "+" {
            ParseError::Other(MoveError::Malformed {
                text: original.to_string(),
                at: 1,
                expected: "a piece abbreviation such as `P` or `Ln`, or a USI move".to_string(),
            })
        } else {
            ParseError::Unknown(MoveError::NoSuchPiece {
                text: original.to_string(),
                reason: format!("`{token}` is not a piece of this variant"),
            })
        });
    };
    let mut c = Cursor {
        text: original,
        chars: text.chars().collect(),
        at: len,
    };
    let other = ParseError::Other;
    let kind = PieceId(kind as u16);
    if matches!(c.peek(), Some('*' | '\'')) {
        c.at += 1;
        let to = c.square(pos).map_err(other)?;
        if c.peek().is_some() {
            return Err(other(c.malformed("the end of the drop")));
        }
        return Ok(Written {
            kind,
            body: Body::Drop(to),
        });
    }
    let start = if c.peek().is_some_and(|ch| ch.is_ascii_digit()) {
        Some(c.square(pos).map_err(other)?)
    } else {
        None
    };
    let mut legs = Vec::new();
    while let Some(mark @ ('-' | 'x')) = c.peek() {
        c.at += 1;
        let back = c.peek() == Some('!');
        if back {
            c.at += 1;
        }
        let square = c.square(pos).map_err(other)?;
        legs.push(Leg {
            square,
            capture: mark == 'x',
            back,
        });
    }
    if legs.is_empty() {
        let expected = if start.is_some() {
            "`-` or `x` and the destination"
        } else {
            "`-` or `x` and the destination, `*` and a square for a drop, or the start square"
        };
        return Err(other(c.malformed(expected)));
    }
    let promote = match c.peek() {
        Some('+') => {
            c.at += 1;
            true
        }
        Some('=') => {
            c.at += 1;
            false
        }
        _ => false,
    };
    if c.peek().is_some() {
        let expected = if legs.iter().any(|l| l.back) {
            "`+`, `=` or the end of the move"
        } else {
            "`-` or `x` and another square, `+`, `=`, or the end of the move"
        };
        return Err(other(c.malformed(expected)));
    }
    Ok(Written {
        kind,
        body: Body::Board { start, legs, promote },
    })
}

/// What a drop refused by the limit of pieces on a file breaks: the limit, named (one a
/// file is the rule of two Pawns on a file, nifu).
fn file_limit(pos: &Position, kind: PieceId, to: Square) -> String {
    let name = pos.rules().piece_name(kind);
    match pos.rules().pieces[kind.index()].drop.per_file {
        Some(1) => format!(
            "file {} already holds an unpromoted {name} of yours: two on a file (nifu)",
            to.file
        ),
        Some(n) => format!(
            "file {} already holds {n} unpromoted {name} of yours, the most on a file",
            to.file
        ),
        None => format!("file {} holds as many {name} as the rules allow", to.file),
    }
}

/// Finds the legal move a parsed TSA move names.
fn resolve(pos: &Position, text: &str, written: Written) -> Result<Move, MoveError> {
    let geo = pos.geometry();
    let side = pos.side_to_move();
    let kind = written.kind;
    let abbrev = pos.rules().pieces[kind.index()].abbrev.clone();
    let (start, legs, promote) = match written.body {
        Body::Drop(to) => return resolve_drop(pos, text, kind, to),
        Body::Board { start, legs, promote } => (start, legs, promote),
    };
    // A move ending on one's own piece: said so, rather than that the piece cannot move so.
    let onto_own = legs.last().and_then(|leg| {
        let held = pos.piece_at(leg.square)?;
        (held.side() == side).then(|| {
            format!(
                "{} is occupied by your own {}",
                leg.square,
                pos.rules().piece_name(held.kind())
            )
        })
    });
    let froms: Vec<Sq> = match start {
        Some(square) => {
            if pos
                .piece_at(square)
                .is_none_or(|p| p.side() != side || p.kind() != kind)
            {
                return Err(MoveError::NoSuchPiece {
                    text: text.to_string(),
                    reason: format!(
                        "there is no {} of yours on {square} ({})",
                        pos.rules().piece_name(kind),
                        describe_square(pos, square)
                    ),
                });
            }
            vec![geo.index(square)]
        }
        None => geo
            .squares()
            .filter(|&sq| {
                pos.piece_at(geo.square(sq))
                    .is_some_and(|p| p.side() == side && p.kind() == kind)
            })
            .collect(),
    };
    if froms.is_empty() {
        return Err(MoveError::NoSuchPiece {
            text: text.to_string(),
            reason: format!("you have no {} on the board", pos.rules().piece_name(kind)),
        });
    }
    let legal = pos.legal_moves();
    let mut matches: Vec<Move> = Vec::new();
    let mut tried: Vec<(Sq, Result<Move, String>)> = Vec::new();
    // Under a flip rule a piece turns over whenever the rule says: a move written without
    // `+` that is legal only turned over is that move (the flip is not the player's choice).
    let flips = pos.rules().flip.is_some() && !promote;
    for &from in &froms {
        let mut built = build(pos, from, &legs, promote).map(|m| the_move(pos, &legal, m));
        if flips
            && built.as_ref().is_ok_and(|m| !legal.contains(m))
            && let Ok(turned) = build(pos, from, &legs, true).map(|m| the_move(pos, &legal, m))
            && legal.contains(&turned)
        {
            built = Ok(turned);
        }
        match built {
            Ok(m) if legal.contains(&m) => {
                if !matches.contains(&m) {
                    matches.push(m);
                }
            }
            other => tried.push((from, other)),
        }
    }
    match matches.len() {
        1 => return Ok(matches[0]),
        0 => {}
        _ => {
            return Err(MoveError::Ambiguous {
                text: text.to_string(),
                piece: abbrev,
                candidates: matches
                    .iter()
                    .filter_map(|m| m.from)
                    .map(|from| geo.square(from))
                    .collect(),
                example: write_among(pos, &legal, &matches[0]),
            });
        }
    }
    // Not legal: find the rule that forbids it, preferring a rule over "cannot move so".
    let several = start.is_none() && froms.len() > 1;
    let mut first_problem: Option<(Sq, String)> = None;
    let mut reasons: Vec<(Sq, Move, Illegal)> = Vec::new();
    for (from, built) in tried {
        match built {
            Ok(m) => {
                let rule = pos.check_legal(&m).err().unwrap_or(Illegal::NotAMove);
                reasons.push((from, m, rule));
            }
            Err(problem) => {
                first_problem.get_or_insert((from, problem));
            }
        }
    }
    let best = reasons
        .iter()
        .find(|(_, _, r)| *r == Illegal::Promotion)
        .or_else(|| reasons.iter().find(|(_, _, r)| *r != Illegal::NotAMove));
    if let Some(&(from, m, rule)) = best {
        if rule == Illegal::Promotion {
            let instead = with_promotion(text, !m.promote);
            let change = change_word(pos);
            return Err(if m.promote {
                MoveError::PromotionImpossible {
                    text: text.to_string(),
                    instead,
                    change,
                }
            } else {
                MoveError::PromotionRequired {
                    text: text.to_string(),
                    instead,
                    change,
                }
            });
        }
        return Err(MoveError::Illegal {
            text: text.to_string(),
            rule,
            from: several.then(|| geo.square(from)),
            detail: None,
        });
    }
    let detail = match first_problem {
        Some((from, problem)) if reasons.is_empty() || !several => Some(if several {
            format!("{problem}, for the piece on {}", geo.square(from))
        } else {
            problem
        }),
        _ if onto_own.is_some() => onto_own,
        _ if several => Some(format!("no {} of yours can move so", pos.rules().piece_name(kind))),
        _ => Some(format!(
            "the {} on {} cannot move so",
            pos.rules().piece_name(kind),
            geo.square(froms[0])
        )),
    };
    Err(MoveError::Illegal {
        text: text.to_string(),
        rule: Illegal::NotAMove,
        from: None,
        detail,
    })
}

/// The move a text names, as the position plays it: the position's one pass for a pass, and
/// the sweep of a range capture (written from-to like any move) where that is the legal move.
fn the_move(pos: &Position, legal: &[Move], m: Move) -> Move {
    let sweep = Move { sweep: true, ..m };
    if !legal.contains(&m) && legal.contains(&sweep) {
        return sweep;
    }
    pos.the_pass(&m)
}

/// `it holds White's Lion (Ln)` or `it is empty`, for messages about a square.
fn describe_square(pos: &Position, square: Square) -> String {
    match pos.piece_at(square) {
        None => "it is empty".to_string(),
        Some(piece) => format!("it holds {}'s {}", piece.side(), pos.rules().piece_name(piece.kind())),
    }
}

/// The text with its promotion mark replaced: `+` when `promote`, none otherwise.
fn with_promotion(text: &str, promote: bool) -> String {
    let body = text.trim_end_matches(['+', '=']);
    if promote { format!("{body}+") } else { body.to_string() }
}

/// The move a board move's legs describe for the piece on `from`: the squares it visits in
/// order; the enemy pieces on them are what it captures.
fn build(pos: &Position, from: Sq, legs: &[Leg], promote: bool) -> Result<Move, String> {
    let geo = pos.geometry();
    let mut path: Vec<Sq> = Vec::new();
    let mut at = from;
    for leg in legs {
        let sq = geo.index(leg.square);
        if sq == at && legs.len() > 1 {
            return Err(format!(
                "a leg to {} goes nowhere: the piece is already there",
                leg.square
            ));
        }
        if leg.back && leg.capture && !enemy_at(pos, sq) {
            return Err(format!(
                "`x!` takes a piece without moving, and {} holds no enemy piece",
                leg.square
            ));
        }
        path.push(sq);
        if leg.back {
            path.push(at);
        } else {
            at = sq;
        }
    }
    let to = *path.last().expect("a move has a leg");
    for &sq in &path[..path.len() - 1] {
        if sq != from
            && pos
                .piece_at(geo.square(sq))
                .is_some_and(|p| p.side() == pos.side_to_move())
        {
            return Err(format!("{} holds a piece of your own", geo.square(sq)));
        }
    }
    let mut captures: Vec<Sq> = Vec::new();
    for &sq in &path {
        if sq != from && enemy_at(pos, sq) && !captures.contains(&sq) {
            captures.push(sq);
        }
    }
    if captures.last() == Some(&to) {
        captures.pop();
    }
    if captures.len() > 2 {
        return Err("no piece captures more than two pieces before its destination".to_string());
    }
    if to == from && captures.is_empty() && path.len() > 1 && !pass_squares(pos, from).contains(&path[0]) {
        return Err(format!(
            "a pass steps to an empty square the piece could move to and back; {} is not one",
            geo.square(path[0])
        ));
    }
    let mut via = [None; 2];
    for (slot, &sq) in via.iter_mut().zip(&captures) {
        *slot = Some(sq);
    }
    Ok(Move {
        from: Some(from),
        to,
        via,
        drop: None,
        promote,
        sweep: false,
    })
}

fn resolve_drop(pos: &Position, text: &str, kind: PieceId, to: Square) -> Result<Move, MoveError> {
    let rules = pos.rules();
    let name = pos.rules().piece_name(kind);
    if !rules.drops {
        return Err(MoveError::Illegal {
            text: text.to_string(),
            rule: Illegal::NotAMove,
            from: None,
            detail: Some("this variant has no drops".to_string()),
        });
    }
    if pos.in_hand(pos.side_to_move(), pos.tables().kind(kind).unpromoted) == 0 {
        return Err(MoveError::NoSuchPiece {
            text: text.to_string(),
            reason: format!("you have no {name} in hand"),
        });
    }
    if pos.piece_at(to).is_some() {
        return Err(MoveError::Illegal {
            text: text.to_string(),
            rule: Illegal::NotAMove,
            from: None,
            detail: Some(format!("{to} is not empty: {}", describe_square(pos, to))),
        });
    }
    let m = Move::drop(kind, pos.geometry().index(to));
    match pos.check_legal(&m) {
        Ok(()) => Ok(m),
        Err(rule) => Err(MoveError::Illegal {
            text: text.to_string(),
            rule,
            from: None,
            detail: (rule == Illegal::FileLimit).then(|| file_limit(pos, kind, to)),
        }),
    }
}

/// Reads a USI move; when it is not legal, works out why.
fn read_usi_move(pos: &Position, text: &str) -> Result<Move, MoveError> {
    match read_usi(pos, text) {
        Ok(m) => Ok(m),
        Err(UsiError::Malformed(message)) | Err(UsiError::NotLegal(message)) => Err(explain_usi(pos, text, &message)),
        Err(UsiError::Breaks(rule)) => Err(MoveError::Illegal {
            text: text.to_string(),
            rule,
            from: None,
            detail: None,
        }),
    }
}

/// The error for a USI move that is not legal here: where it is malformed, or which rule
/// forbids it.
fn explain_usi(pos: &Position, text: &str, message: &str) -> MoveError {
    let geo = pos.geometry();
    let side = pos.side_to_move();
    let chars: Vec<char> = text.chars().collect();
    let mut c = Cursor { text, chars, at: 0 };
    let not_legal = |detail: Option<String>| MoveError::Illegal {
        text: text.to_string(),
        rule: Illegal::NotAMove,
        from: None,
        detail,
    };
    if let Some(star) = text.find('*') {
        let token = &text[..star];
        let Some(kind) = drop_kind(pos, token) else {
            return MoveError::NoSuchPiece {
                text: text.to_string(),
                reason: format!("`{token}` is not a piece of this variant"),
            };
        };
        c.at = token.chars().count() + 1;
        let to = match c.square(pos) {
            Ok(to) if c.peek().is_none() => to,
            Ok(_) => return c.malformed("the end of the drop"),
            Err(e) => return e,
        };
        return match resolve_drop(pos, text, kind, to) {
            Ok(_) => not_legal(Some(message.to_string())),
            Err(e) => e,
        };
    }
    let mut squares = Vec::new();
    while c.peek().is_some_and(|ch| ch.is_ascii_digit()) {
        match c.square(pos) {
            Ok(square) => squares.push(square),
            Err(e) => return e,
        }
    }
    let promote = c.peek() == Some('+');
    if promote {
        c.at += 1;
    }
    if squares.is_empty() || c.peek().is_some() {
        let expected = if squares.is_empty() {
            "a USI move such as `7g7f`, `7g6f7g` or `P*5e`"
        } else {
            "another square, `+`, or the end of the move"
        };
        return c.malformed(expected);
    }
    if !(2..=4).contains(&squares.len()) {
        return MoveError::Malformed {
            text: text.to_string(),
            at: 1,
            expected: "two to four squares".to_string(),
        };
    }
    let from = squares[0];
    let Some(piece) = pos.piece_at(from) else {
        return MoveError::NoSuchPiece {
            text: text.to_string(),
            reason: format!("there is no piece on {from}"),
        };
    };
    let (owner, kind) = (piece.side(), piece.kind());
    if owner != side {
        return MoveError::NoSuchPiece {
            text: text.to_string(),
            reason: format!("the piece on {from} is not yours ({})", describe_square(pos, from)),
        };
    }
    let legs: Vec<Leg> = squares[1..]
        .iter()
        .map(|&square| Leg {
            square,
            capture: false,
            back: false,
        })
        .collect();
    let m = match build(pos, geo.index(from), &legs, promote) {
        Ok(m) => pos.the_pass(&m),
        Err(problem) => return not_legal(Some(problem)),
    };
    match pos.check_legal(&m) {
        Err(Illegal::Promotion) => {
            let instead = with_promotion(text, !promote);
            let change = change_word(pos);
            if promote {
                MoveError::PromotionImpossible {
                    text: text.to_string(),
                    instead,
                    change,
                }
            } else {
                MoveError::PromotionRequired {
                    text: text.to_string(),
                    instead,
                    change,
                }
            }
        }
        Err(Illegal::NotAMove) => not_legal(Some(format!(
            "the {} on {from} cannot move so",
            pos.rules().piece_name(kind)
        ))),
        Err(rule) => MoveError::Illegal {
            text: text.to_string(),
            rule,
            from: None,
            detail: None,
        },
        Ok(()) => not_legal(Some(message.to_string())),
    }
}
