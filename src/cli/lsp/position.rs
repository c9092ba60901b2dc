//! Places in a document as the Language Server Protocol counts them: a line (from 0) and a
//! character, which is a count of UTF-16 code units from the start of the line (a kanji is
//! one unit, a character outside the Basic Multilingual Plane two). koma's spans are byte
//! offsets; this converts between the two.

use lsp_types::{Position, Range};

/// The byte offsets where each line of a text starts. A line ends at `\n`, `\r\n` or a lone
/// `\r`, as the protocol says.
pub struct LineIndex<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    pub fn new(text: &'a str) -> LineIndex<'a> {
        let bytes = text.as_bytes();
        let mut starts = vec![0];
        for (i, &b) in bytes.iter().enumerate() {
            if b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n')) {
                starts.push(i + 1);
            }
        }
        LineIndex { text, starts }
    }

    /// The position of a byte offset (clamped to the text, and back to a character boundary).
    pub fn position(&self, offset: usize) -> Position {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&start| start <= offset) - 1;
        let before = &self.text[self.starts[line]..offset];
        let character = before.chars().map(char::len_utf16).sum::<usize>();
        Position::new(to_u32(line), to_u32(character))
    }

    /// The range of a byte span.
    pub fn range(&self, span: &std::ops::Range<usize>) -> Range {
        Range::new(self.position(span.start), self.position(span.end))
    }

    /// The byte offset of a position; a character past the end of its line means the line's
    /// end, a line past the last means the end of the text.
    pub fn offset(&self, position: Position) -> usize {
        let Some(&start) = self.starts.get(position.line as usize) else {
            return self.text.len();
        };
        let end = self
            .starts
            .get(position.line as usize + 1)
            .copied()
            .unwrap_or(self.text.len());
        let line = self.text[start..end].trim_end_matches(['\n', '\r']);
        let mut units = 0usize;
        for (at, c) in line.char_indices() {
            if units >= position.character as usize {
                return start + at;
            }
            units += c.len_utf16();
        }
        start + line.len()
    }
}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kanji_count_one_utf16_unit_each() {
        let text = "piece K \"King\" kanji 王将 : step all\nboard 9 x 9";
        let index = LineIndex::new(text);
        let colon = text.find(':').unwrap();
        assert_eq!(index.position(colon), Position::new(0, 24));
        assert_eq!(index.offset(Position::new(0, 24)), colon);
        assert_eq!(index.position(text.find("board").unwrap()), Position::new(1, 0));
    }

    #[test]
    fn characters_outside_the_basic_plane_count_two_units() {
        let text = "# 𠀋\nx";
        let index = LineIndex::new(text);
        assert_eq!(index.position(text.len() - 2), Position::new(0, 4));
    }

    #[test]
    fn lines_end_at_crlf_and_lone_cr() {
        let text = "a\r\nb\rc";
        let index = LineIndex::new(text);
        assert_eq!(index.position(3), Position::new(1, 0));
        assert_eq!(index.position(5), Position::new(2, 0));
        assert_eq!(index.offset(Position::new(0, 9)), 1);
        assert_eq!(index.offset(Position::new(7, 0)), text.len());
    }
}
