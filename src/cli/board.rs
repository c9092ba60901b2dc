//! The board in the terminal: files numbered from the right, ranks lettered from the top,
//! White's pieces marked `v` (they point down the board, as the rule texts' sets do) and
//! coloured when colour is on, promoted pieces marked `+`, the hands, the last move and check.

use koma::game::{Move, NO_SQ, Position, Sq};
use koma::rules::{Side, Square, rank_name};

/// Marks drawn over the board by "show": what a piece may do on each square.
pub type Overlay = Vec<(Sq, char)>;

const RED: &str = "\x1b[31m";
const BOLD: &str = "\x1b[1m";
const CYAN: &str = "\x1b[36m";
const RESET: &str = "\x1b[0m";

/// How a piece kind is shown: its abbreviation, with `+` for a promoted kind whose
/// abbreviation does not already say so.
pub fn piece_label(pos: &Position, kind: usize) -> String {
    let t = pos.tables();
    let abbrev = &t.rules.pieces[kind].abbrev;
    let promoted = usize::from(t.kinds[kind].base) != kind;
    if promoted && !abbrev.starts_with('+') {
        format!("+{abbrev}")
    } else {
        abbrev.clone()
    }
}

/// Draws the position. `last` marks the last move's squares; `overlay` marks squares.
pub fn draw(pos: &Position, last: Option<&Move>, overlay: &Overlay, colour: bool) -> String {
    let t = pos.tables();
    let board = t.rules.board;
    // As wide as the widest piece now on the board (with White's `v` and a mark), plus a space.
    let widest = (1..=board.ranks)
        .flat_map(|rank| (1..=board.files).map(move |file| Square::new(file, rank)))
        .filter_map(|square| pos.piece_at(square))
        .map(|(_, kind, _)| piece_label(pos, kind.index()).chars().count())
        .max()
        .unwrap_or(1);
    let width = widest + 3;
    let mut out = String::new();
    out.push_str(&hand_line(pos, Side::White));
    out.push_str("  ");
    for file in (1..=board.files).rev() {
        out.push_str(&format!("{:>width$}", file));
    }
    out.push('\n');
    for rank in 1..=board.ranks {
        out.push_str("  ");
        for file in (1..=board.files).rev() {
            let square = Square::new(file, rank);
            let sq = pos.geometry().index(square);
            out.push_str(&cell(pos, sq, last, overlay, colour, width));
        }
        out.push_str(&format!("  {}\n", rank_name(rank)));
    }
    out.push_str(&hand_line(pos, Side::Black));
    out
}

fn cell(pos: &Position, sq: Sq, last: Option<&Move>, overlay: &Overlay, colour: bool, width: usize) -> String {
    let square = pos.geometry().square(sq);
    let mark = overlay.iter().find(|(s, _)| *s == sq).map(|(_, c)| *c);
    let (text, style) = match (pos.piece_at(square), mark) {
        (Some((side, kind, _)), _) => {
            let label = piece_label(pos, kind.index());
            let label = match mark {
                Some(c) => format!("{label}{c}"),
                None => label,
            };
            match side {
                Side::Black => (label, BOLD),
                Side::White => (format!("v{label}"), RED),
            }
        }
        (None, Some(c)) => (c.to_string(), CYAN),
        (None, None) => (".".to_string(), ""),
    };
    let is_last = last.is_some_and(|m| m.to == sq || (m.from == sq && m.from != NO_SQ));
    let text = if is_last { format!("{text}<") } else { text };
    let padded = format!("{text:>width$}");
    if colour && !style.is_empty() {
        format!("{style}{padded}{RESET}")
    } else {
        padded
    }
}

fn hand_line(pos: &Position, side: Side) -> String {
    let t = pos.tables();
    if !t.rules.drops {
        return String::new();
    }
    let pieces: Vec<String> = (0..t.kind_count() as u16)
        .filter_map(|k| {
            let n = pos.in_hand(side, koma::rules::PieceId(k));
            let label = piece_label(pos, usize::from(k));
            match n {
                0 => None,
                1 => Some(label),
                n => Some(format!("{label}x{n}")),
            }
        })
        .collect();
    let list = if pieces.is_empty() {
        "-".to_string()
    } else {
        pieces.join(" ")
    };
    format!("{side:?} in hand: {list}\n")
}
