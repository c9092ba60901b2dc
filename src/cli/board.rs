//! The board in the terminal: files numbered from the right, ranks lettered from the top,
//! promoted pieces marked `+`, the hands, the last move (`>` before its squares) and check.
//! Two layouts: wide, where White's pieces are marked `v` (they point down the board, as the
//! rule texts' sets do) and squares are spaced, and compact, where White's abbreviations are
//! in lower case (as in SFEN) and squares are one column closer (one column less per file).
//! A square's width is fixed per variant, from the longest label of its pieces (promoted faces
//! included), so the board keeps its shape as pieces promote, and every square keeps a column
//! for a mark and one between it and the square before. The wide layout is drawn only where it
//! fits the terminal's width, otherwise the compact one; a board that is still too wide in the
//! compact layout (Taikyoku's 36 files) is drawn in strips of files, one below the other.
//! White's pieces are coloured when colour is on.

use anstyle::{AnsiColor, Style};
use koma::game::{Move, Position, Sq};
use koma::rules::{PieceId, Side, Square, rank_name};

/// Marks drawn over the board by "show": what a piece may do on each square.
pub type Overlay = Vec<(Sq, char)>;

const RED: Style = AnsiColor::Red.on_default();
const BOLD: Style = Style::new().bold();
const CYAN: Style = AnsiColor::Cyan.on_default();

/// How a piece kind is shown: its abbreviation, with `+` for a promoted kind whose
/// abbreviation does not already say so. Under a flip rule a piece has two faces, neither
/// promoted: it is shown by the face it shows.
pub fn piece_label(pos: &Position, kind: PieceId) -> String {
    let t = pos.tables();
    let abbrev = &t.rules().piece(kind).abbrev;
    let promoted = t.kind(kind).unpromoted != kind && t.rules().flip.is_none();
    if promoted && !abbrev.starts_with('+') {
        format!("+{abbrev}")
    } else {
        abbrev.clone()
    }
}

/// How the board is laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Layout {
    /// Wide when it fits the width, else compact.
    #[default]
    Auto,
    /// White's pieces marked `v`; never split (compact, and said so, where it does not fit).
    Wide,
    /// White's pieces in lower case; in strips of files when still too wide.
    Compact,
}

/// Whether the board is drawn compact in `layout` at `width` columns: the wide layout only
/// where it fits (a wider board would wrap every rank).
pub fn is_compact(pos: &Position, layout: Layout, width: usize) -> bool {
    match layout {
        Layout::Compact => true,
        Layout::Wide | Layout::Auto => wide_width(pos) > width,
    }
}

impl Layout {
    /// The layout a word names (`board wide`).
    pub fn named(word: &str) -> Option<Layout> {
        clap::ValueEnum::from_str(word, true).ok()
    }
}

/// What the board is drawn with: the position, the last move, marks, colour.
pub struct Scene<'a> {
    pub pos: &'a Position,
    pub last: Option<&'a Move>,
    pub overlay: &'a Overlay,
    pub colour: bool,
}

/// The columns before the first file in the wide layout (none in the compact one).
const MARGIN: usize = 2;

/// Draws the position in `layout`, fitted to `width` columns.
pub fn draw(scene: &Scene, layout: Layout, width: usize) -> String {
    let board = scene.pos.rules().board;
    let files = usize::from(board.files);
    // Two spaces and the longest rank name, after the last file.
    let rank_column = 2 + rank_name(board.ranks).len();
    let compact = is_compact(scene.pos, layout, width);
    let cell = cell_width(scene.pos, !compact);
    let per_strip = if compact {
        (width.saturating_sub(rank_column) / cell).clamp(1, files)
    } else {
        files
    };
    let strips = files.div_ceil(per_strip);
    let per_strip = files.div_ceil(strips);
    let mut out = hand_line(scene.pos, Side::White, width);
    let all: Vec<u8> = (1..=scene.pos.rules().board.files).rev().collect();
    for (i, strip) in all.chunks(per_strip).enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&draw_files(scene, strip, compact, cell));
    }
    out.push_str(&hand_line(scene.pos, Side::Black, width));
    out
}

/// The columns the wide layout takes: the margin, the files and the rank letters.
pub fn wide_width(pos: &Position) -> usize {
    let board = pos.rules().board;
    MARGIN + usize::from(board.files) * cell_width(pos, true) + 2 + rank_name(board.ranks).len()
}

/// The width of a cell, the same in every position of the variant: the longest label of its
/// kinds (promoted ones included) or file number, a column before it for a mark and one
/// between squares; in the wide layout, White's `v` too.
fn cell_width(pos: &Position, wide: bool) -> usize {
    let board = pos.rules().board;
    let widest = pos
        .rules()
        .piece_ids()
        .map(|kind| piece_label(pos, kind).chars().count())
        .max()
        .unwrap_or(1);
    let digits = board.files.to_string().len();
    let widest = widest.max(digits);
    if wide { widest + 3 } else { widest + 2 }
}

/// The board's ranks over the files `files` (from the left).
fn draw_files(scene: &Scene, files: &[u8], compact: bool, width: usize) -> String {
    let board = scene.pos.rules().board;
    let margin = if compact { String::new() } else { " ".repeat(MARGIN) };
    let mut out = margin.clone();
    for file in files {
        out.push_str(&format!("{file:>width$}"));
    }
    out.push('\n');
    for rank in 1..=board.ranks {
        out.push_str(&margin);
        for &file in files {
            let sq = scene.pos.geometry().index(Square::new(file, rank));
            out.push_str(&cell(scene, sq, compact, width));
        }
        out.push_str(&format!("  {}\n", rank_name(rank)));
    }
    out
}

/// One square: a mark of `show` or the last move's `>` just before what is there (the piece,
/// or `.` for an empty square), right-aligned in `width` columns.
fn cell(scene: &Scene, sq: Sq, compact: bool, width: usize) -> String {
    let pos = scene.pos;
    let square = pos.geometry().square(sq);
    let mark = scene.overlay.iter().find(|(s, _)| *s == sq).map(|(_, c)| *c);
    let is_last = scene.last.is_some_and(|m| m.to == sq || m.from == Some(sq));
    let (text, style) = match (pos.piece_at(square), mark) {
        (Some(piece), _) => {
            let label = piece_label(pos, piece.kind());
            match (piece.side(), compact) {
                (Side::Black, _) => (label, BOLD),
                (Side::White, true) => (label.to_lowercase(), RED),
                (Side::White, false) => (format!("v{label}"), RED),
            }
        }
        (None, Some(_)) => (String::new(), CYAN),
        (None, None) => (".".to_string(), Style::new()),
    };
    let text = match (mark, is_last) {
        (Some(c), _) => format!("{c}{text}"),
        (None, true) => format!(">{text}"),
        (None, false) => text,
    };
    let padded = format!("{text:>width$}");
    if scene.colour {
        format!("{style}{padded}{style:#}")
    } else {
        padded
    }
}

/// A side's pieces in hand, wrapped to `width` columns; nothing in variants without drops.
fn hand_line(pos: &Position, side: Side, width: usize) -> String {
    let t = pos.tables();
    if !t.rules().drops {
        return String::new();
    }
    let pieces: Vec<String> = t
        .rules()
        .piece_ids()
        .filter_map(|k| {
            let n = pos.in_hand(side, k);
            let label = piece_label(pos, k);
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
    format!("{}\n", super::terminal::wrap(&format!("{side} in hand: {list}"), width))
}
