//! The diagrams as SVG (`koma show --svg`, the board in the browser): the same title, facts,
//! diagram and legend as the text, the diagram as a grid of squares.

use super::diagram::{Diagram, Kind, Mark, ORIGIN, symbol};
use super::lookup::find_pieces;
use super::piece::{piece_facts, title};
use crate::rules::{Mode, PieceId, PieceKind, Rules};

/// Each piece (or the pieces `piece` names) drawn as SVG, one below the other: the same
/// title, facts, diagram and legend as the text, the diagram as a grid of squares.
pub fn show_svg(rules: &Rules, piece: Option<&str>) -> Result<String, String> {
    let ids = match piece {
        Some(query) => find_pieces(rules, query)?,
        None => rules.piece_ids().collect(),
    };
    let drawings: Vec<Drawing> = ids.into_iter().map(|id| Drawing::of(rules, id)).collect();
    let width = drawings.iter().map(|d| d.width).max().unwrap_or(0);
    let mut body = String::new();
    let mut y = 0;
    for drawing in &drawings {
        body.push_str(&format!("<g transform=\"translate(0 {y})\">{}</g>\n", drawing.body));
        y += drawing.height + SVG_GAP;
    }
    Ok(svg_document(width, y.saturating_sub(SVG_GAP), &body))
}

/// One piece's drawing as an SVG document.
pub fn piece_svg(rules: &Rules, id: PieceId) -> String {
    let drawing = Drawing::of(rules, id);
    svg_document(drawing.width, drawing.height, &drawing.body)
}

/// The side of a square of the diagram, and the height of a line of text, in pixels.
const SVG_CELL: usize = 26;
const SVG_LINE: usize = 18;
/// The space between two pieces' drawings, and around the text.
const SVG_GAP: usize = 24;
const SVG_MARGIN: usize = 8;
/// The width of a character of text, roughly, for sizing the drawing.
const SVG_CHAR: usize = 9;
/// How far the facts under a piece's title are indented.
const SVG_INDENT: usize = 2 * SVG_CHAR;

fn svg_document(width: usize, height: usize, body: &str) -> String {
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         viewBox=\"0 0 {width} {height}\" font-family=\"monospace\" font-size=\"14\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n{body}</svg>\n"
    )
}

/// One piece's drawing: an SVG group and its size.
struct Drawing {
    body: String,
    width: usize,
    height: usize,
}

impl Drawing {
    fn of(rules: &Rules, id: PieceId) -> Drawing {
        let piece = rules.piece(id);
        let diagram = Diagram::of(piece);
        let mut above = vec![title(piece)];
        above.extend(piece_facts(rules, id));
        // The piece stands on the dark square, named there.
        let below = diagram.legend(format!("{} on the dark square, forward is up", piece.abbrev));
        let mut body = String::new();
        let mut y = SVG_MARGIN;
        for (index, line) in above.iter().enumerate() {
            // The title in bold; the facts below it indented, as the text indents them.
            let (x, weight) = match index {
                0 => (SVG_MARGIN, " font-weight=\"bold\""),
                _ => (SVG_MARGIN + SVG_INDENT, ""),
            };
            body.push_str(&svg_text(x, y + SVG_LINE - 4, line, weight));
            y += SVG_LINE;
        }
        y += SVG_MARGIN;
        let (grid, side) = diagram.svg_grid(SVG_MARGIN, y, piece);
        body.push_str(&grid);
        y += side + SVG_MARGIN;
        for line in &below {
            body.push_str(&svg_text(SVG_MARGIN, y + SVG_LINE - 4, line, ""));
            y += SVG_LINE;
        }
        let longest = above
            .iter()
            .chain(&below)
            .map(|l| l.chars().count() + 2)
            .max()
            .unwrap_or(0);
        Drawing {
            body,
            width: (longest * SVG_CHAR).max(side) + 2 * SVG_MARGIN,
            height: y + SVG_MARGIN,
        }
    }
}

fn svg_text(x: usize, y: usize, text: &str, attributes: &str) -> String {
    format!("<text x=\"{x}\" y=\"{y}\"{attributes}>{}</text>\n", xml_escape(text))
}

fn xml_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

impl Diagram {
    /// The grid at (x, y): every square, the piece in the middle, each mark as its symbol
    /// on a square coloured by what the piece may do there. Returns it and its side.
    fn svg_grid(&self, x: usize, y: usize, piece: &PieceKind) -> (String, usize) {
        let per_side = self.radius as usize * 2 + 1;
        let mut out = String::new();
        for (index, at) in self.squares().enumerate() {
            let cx = x + (index % per_side) * SVG_CELL;
            let cy = y + (index / per_side) * SVG_CELL;
            let (fill, label) = if at == ORIGIN {
                ("#333", piece.abbrev.clone())
            } else {
                match self.cells[self.index(at)] {
                    Some(mark) => (svg_fill(mark), symbol(mark).to_string()),
                    None => ("#f4ecd8", String::new()),
                }
            };
            out.push_str(&format!(
                "<rect x=\"{cx}\" y=\"{cy}\" width=\"{SVG_CELL}\" height=\"{SVG_CELL}\" fill=\"{fill}\" stroke=\"#8a7a5a\"/>\n"
            ));
            if !label.is_empty() {
                let colour = if at == ORIGIN { "white" } else { "black" };
                out.push_str(&format!(
                    "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"{colour}\">{}</text>\n",
                    cx + SVG_CELL / 2,
                    cy + SVG_CELL / 2 + 5,
                    xml_escape(&label)
                ));
            }
        }
        (out, per_side * SVG_CELL)
    }
}

/// A square's colour: by what the piece may do there, lion squares apart.
fn svg_fill(mark: Mark) -> &'static str {
    match mark.shown_mode() {
        Mode::MoveOnly => "#b8e0b0",
        Mode::CaptureOnly => "#f0a8a0",
        Mode::CaptureUnprotected => "#f4cc88",
        Mode::Any => match mark.kind {
            Kind::Lion(_) => "#d8b8f0",
            Kind::Jump => "#a8d0f0",
            Kind::Igui => "#f0a8a0",
            Kind::Anywhere
            | Kind::HookTurn
            | Kind::Step
            | Kind::Range
            | Kind::Area
            | Kind::Slide
            | Kind::RangeJump
            | Kind::Passing(_)
            | Kind::RangeCapture
            | Kind::Hop
            | Kind::HookLeg
            | Kind::Edge(_) => "#c8d8f8",
        },
    }
}
