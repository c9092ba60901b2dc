//! `koma xboard-pieces`: a variant's pieces as images XBoard reads from a piece image
//! directory (`-pieceImageDirectory`), drawn as the browser draws them: a five-sided piece with
//! its kanji (or abbreviation), a promoted kind's in red, White's pieces turned round. Each
//! kind koma gives XBoard is written under the name XBoard 4.9 looks up for its place in the
//! `setup` table (`WhiteLance.svg`, `BlackLance.svg`: XBoard's white is koma's Black).

use koma::notation::xboard::View;
use koma::rules::{PieceKind, Rules};

/// One face of a piece as an SVG picture of 100 × 100: `turned` for the side that moves
/// second, `text` its name, red when `promoted`.
fn piece_svg(text: &str, turned: bool, promoted: bool) -> String {
    let (w, h) = (88.0_f64, 88.0_f64);
    let points: Vec<String> = [
        (w / 2.0, 0.0),
        (w * 0.86, h * 0.16),
        (w, h),
        (0.0, h),
        (w * 0.14, h * 0.16),
    ]
    .iter()
    .map(|(x, y)| format!("{x:.1},{y:.1}"))
    .collect();
    let (fill, turn) = if turned {
        ("#f1e2c2", format!(" rotate(180 {} {})", w / 2.0, h / 2.0))
    } else {
        ("#fdf3dc", String::new())
    };
    let colour = if promoted { "#c62828" } else { "#111111" };
    let lines = name_lines(text);
    let wide = lines.iter().map(|l| l.chars().count()).max().unwrap_or(1) as f64;
    let kanji = !text.is_ascii();
    // A kanji is about 1 em wide; a Latin letter about 0.66 em.
    let across = if kanji {
        w * 0.78 / wide
    } else {
        w * 0.86 / (0.66 * wide)
    };
    let one = lines.len() == 1;
    let down = h * if one { 0.5 } else { 0.82 } / lines.len() as f64;
    let size = across.min(down).min(h * 0.5);
    let first = if one {
        h * 0.58 + size * 0.36
    } else {
        h * 0.2 + size * 0.86
    };
    let texts: String = lines
        .iter()
        .enumerate()
        .map(|(i, line)| {
            format!(
                "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"{size:.1}\" text-anchor=\"middle\" fill=\"{colour}\" \
                 font-family=\"Noto Sans CJK JP, Noto Serif CJK JP, sans-serif\">{}</text>",
                w / 2.0,
                first + i as f64 * size * 1.02,
                escape(line)
            )
        })
        .collect();
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100\" height=\"100\" viewBox=\"0 0 100 100\">\
         <g transform=\"translate(6 6){turn}\"><polygon points=\"{}\" fill=\"{fill}\" stroke=\"#4e3b20\" \
         stroke-width=\"2\"/>{texts}</g></svg>\n",
        points.join(" ")
    )
}

/// The lines a name is written in, as the browser writes them: a kanji name down the piece,
/// two characters one above the other and longer names on two lines (the shorter half on
/// top); an abbreviation on one line.
fn name_lines(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    if text.is_ascii() {
        return vec![text.to_string()];
    }
    if chars.len() <= 2 {
        return chars.iter().map(char::to_string).collect();
    }
    let (top, bottom) = chars.split_at(chars.len() / 2);
    vec![top.iter().collect(), bottom.iter().collect()]
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// What a piece shows, as in the browser: its kanji when `kanji` and it has one (a King
/// written 玉将 is 王将 for the side that moves second), otherwise its abbreviation, with `+`
/// for a promoted kind.
fn label(piece: &PieceKind, kanji: bool, turned: bool, promoted: bool) -> String {
    match &piece.kanji {
        Some(k) if kanji => {
            if turned && k == "玉将" {
                "王将".into()
            } else {
                k.clone()
            }
        }
        _ if promoted && !piece.abbrev.starts_with('+') => format!("+{}", piece.abbrev),
        _ => piece.abbrev.clone(),
    }
}

/// The files of a piece set: (file name, SVG), two per kind XBoard is given, `White<name>.svg`
/// for koma's Black and `Black<name>.svg` for koma's White.
pub fn piece_set(view: &View, rules: &Rules, kanji: bool) -> Vec<(String, String)> {
    let mut files = Vec::new();
    for (kind, name) in view.images() {
        let piece = &rules.pieces[kind.index()];
        let promoted = rules.pieces.iter().any(|p| p.promotion.to == Some(kind));
        for (colour, turned) in [("White", false), ("Black", true)] {
            let text = label(piece, kanji, turned, promoted);
            files.push((format!("{colour}{name}.svg"), piece_svg(&text, turned, promoted)));
        }
    }
    files
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_of_three_kanji_is_written_on_two_lines_and_two_kanji_one_above_the_other() {
        assert_eq!(name_lines("四天王"), ["四", "天王"]);
        assert_eq!(name_lines("金将"), ["金", "将"]);
        assert_eq!(name_lines("+GB"), ["+GB"]);
    }
}
