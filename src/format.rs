//! The canonical layout of `.var` text: what `koma fmt` writes and `koma lsp` formats with.
//!
//! It reads the parse stage's concrete syntax tree (`parse::syntax_tree`) and the text
//! between its nodes, and changes nothing but white space: the words, their order, the
//! comments and where the author broke a statement over lines stay. The layout:
//!
//! - one space between words; none before `,` and `)`, nor after `(`; none before `:` but in
//!   a piece statement (`piece K "King" royal : step all`, `use "chu": K`, `g: P P`);
//! - statements start in the first column, the lines they continue onto (and comment lines
//!   among them) are indented by two spaces, as are setup rows;
//! - comment lines between statements start in the first column; a comment after code
//!   follows it after two spaces;
//! - at most one blank line in a row, none at the start or end, none inside a statement;
//! - columns aligned over a block of statements of one kind (consecutive, with comment lines
//!   between them but no blank line, which starts a new block): a piece's abbreviation and
//!   name, a handicap's name, and the `when` of statements under an option. A setup whose
//!   rows have as many cells each is aligned as a grid.
//!
//! Everything is done on the tree's node kinds only where a column is aligned; any other
//! production, including ones the grammar gains later, is laid out by the rules above, so a
//! new word of the language formats without a change here.

use crate::parse::{self, Node, SyntaxError, Token};

/// Why a text was not formatted.
#[derive(Debug, Clone, PartialEq)]
pub enum Error {
    /// The text does not parse: its syntax errors.
    Syntax(Vec<SyntaxError>),
    /// The layout would not read back as the same words (a production this module cannot lay
    /// out without changing it): the text is left as it is.
    Layout(String),
}

/// The text in the canonical layout; a text that does not parse is never formatted. The
/// result is checked to parse into the same words as the text. Formatting it again changes
/// nothing.
pub fn format(text: &str) -> Result<String, Error> {
    let (mark, body) = match text.strip_prefix(parse::BYTE_ORDER_MARK) {
        Some(rest) => (parse::BYTE_ORDER_MARK.to_string(), rest),
        None => (String::new(), text),
    };
    // The tree reads `body` as the parser reads `text`: one mark skipped, and only one (a
    // second would be skipped by `syntax_tree` here, where the parser refuses it).
    let tree = (!body.starts_with(parse::BYTE_ORDER_MARK))
        .then(|| parse::syntax_tree(body))
        .flatten();
    let Some(tree) = tree else {
        return Err(Error::Syntax(parse::parse(text).1));
    };
    let mut items = items(body, &tree);
    align_blocks(&mut items);
    let lines = render(&items);
    let newline = if body.contains("\r\n") { "\r\n" } else { "\n" };
    let mut out = String::new();
    for line in lines {
        out.push_str(&line);
        out.push_str(newline);
    }
    // What is checked is the whole text written, its mark included, read as `koma check`
    // reads it.
    let formatted = mark + &out;
    match parse::syntax_tree(&formatted) {
        Some(_) if !parse::parse(&formatted).1.is_empty() => Err(Error::Layout("the layout does not parse".into())),
        Some(again) if words(body, &tree) != words(&formatted, &again) => {
            Err(Error::Layout("the layout reads back as other words".into()))
        }
        Some(_) if comments(body) != comments(&formatted) => Err(Error::Layout("the layout loses a comment".into())),
        Some(_) => Ok(formatted),
        None => Err(Error::Layout("the layout does not parse".into())),
    }
}

/// A text's comments in order, without the white space around them.
fn comments(text: &str) -> Vec<&str> {
    split_lines(text)
        .into_iter()
        .filter_map(|line| line.get(parse::code_of(line).len()..))
        .map(str::trim_end)
        .filter(|comment| !comment.is_empty())
        .collect()
}

/// A text's words as the tree reads them: each leaf's production and text, white space left
/// out (the layout changes only white space).
fn words(text: &str, tree: &Node) -> Vec<(Token, String)> {
    let mut leaves = Vec::new();
    collect_leaves(tree, &mut leaves);
    leaves
        .into_iter()
        .map(|leaf| (leaf.0, text[leaf.1].split_whitespace().collect()))
        .collect()
}

/// A line of the file as laid out: a blank line, a comment line between statements, or a
/// statement.
enum Item {
    Blank,
    Comment(String),
    Statement(Statement),
}

/// A statement: its kind (the production, and for a rule statement the rule's), and its lines.
struct Statement {
    kind: (Token, Option<Token>),
    lines: Vec<Line>,
}

/// One line of a statement: its words in segments (the columns that may be aligned: a
/// space joins them, after padding), and the comment that ends it.
#[derive(Default)]
struct Line {
    segments: Vec<String>,
    comment: Option<String>,
}

impl Line {
    fn is_empty(&self) -> bool {
        self.segments.is_empty() && self.comment.is_none()
    }
}

/// What a statement's text is read into: words (a node, or a literal between nodes),
/// punctuation, line breaks and comments.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Tok<'a> {
    Word(&'a str, usize),
    Punct(char, usize),
    Newline,
    Comment(&'a str),
}

fn items(text: &str, tree: &Node) -> Vec<Item> {
    let mut items = Vec::new();
    let mut at = 0;
    for statement in tree.children.iter().filter(|n| n.token != Token::EOI) {
        gap(&text[at..statement.span.start], at > 0, &mut items);
        items.push(Item::Statement(lay_out(text, statement)));
        at = statement.span.end;
    }
    gap(&text[at..], at > 0, &mut items);
    items
}

/// The text between statements (or before the first, or after the last): comment lines and
/// blank lines; its first line, after a statement, is the rest of that statement's last line.
fn gap(text: &str, after_statement: bool, items: &mut Vec<Item>) {
    let lines = split_lines(text);
    let last = lines.len() - 1;
    for (k, line) in lines.into_iter().enumerate() {
        let code = line.trim();
        if k == 0 && after_statement {
            if let (false, Some(Item::Statement(statement))) = (code.is_empty(), items.last_mut())
                && let Some(line) = statement.lines.last_mut()
            {
                line.comment = Some(code.to_string());
            }
            continue;
        }
        match (code.is_empty(), k == last) {
            // The indentation of the next statement, or the end of the file.
            (true, true) => {}
            (true, false) => items.push(Item::Blank),
            (false, _) => items.push(Item::Comment(code.to_string())),
        }
    }
}

/// Lines as the grammar counts them: ended by `\n`, `\r\n` or `\r`.
fn split_lines(text: &str) -> Vec<&str> {
    let mut lines = Vec::new();
    let mut start = 0;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => {
                lines.push(&text[start..i]);
                start = i + 1;
            }
            b'\r' => {
                lines.push(&text[start..i]);
                if bytes.get(i + 1) == Some(&b'\n') {
                    i += 1;
                }
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    lines.push(&text[start..]);
    lines
}

/// A statement's lines: its words as written, spaced by the layout's rules, broken into
/// lines where the author broke them, and into segments where a column is aligned.
fn lay_out(text: &str, statement: &Node) -> Statement {
    let kind = (
        statement.token,
        (statement.token == Token::rule_stmt)
            .then(|| statement.children.first().map(|c| c.token))
            .flatten(),
    );
    let piece = statement.token == Token::piece_stmt;
    let breaks = column_breaks(statement);
    let mut next_break = 0;
    let mut lines = vec![Line::default()];
    let mut segment = String::new();
    let mut previous: Option<Tok> = None;
    for tok in tokens(text, statement) {
        let line = lines.last_mut().expect("a line");
        match tok {
            Tok::Newline => {
                if !segment.is_empty() {
                    line.segments.push(std::mem::take(&mut segment));
                }
                if !line.is_empty() {
                    lines.push(Line::default());
                }
                previous = None;
            }
            Tok::Comment(comment) => line.comment = Some(comment.to_string()),
            Tok::Word(_, start) | Tok::Punct(_, start) => {
                let mut broken = false;
                while breaks.get(next_break).is_some_and(|&b| b <= start) {
                    next_break += 1;
                    broken = true;
                }
                if broken && !segment.is_empty() {
                    line.segments.push(std::mem::take(&mut segment));
                }
                if !segment.is_empty()
                    && let Some(previous) = previous
                {
                    segment.push_str(space(previous, tok, piece));
                }
                match tok {
                    Tok::Punct(c, _) => segment.push(c),
                    Tok::Word(word, _) => segment.push_str(word),
                    Tok::Newline | Tok::Comment(_) => {}
                }
                previous = Some(tok);
            }
        }
    }
    let line = lines.last_mut().expect("a line");
    if !segment.is_empty() {
        line.segments.push(segment);
    }
    if lines.len() > 1 && lines.last().is_some_and(Line::is_empty) {
        lines.pop();
    }
    if statement.token == Token::setup_stmt {
        align_grid(&mut lines[1..]);
    }
    Statement { kind, lines }
}

/// The space between two words on a line.
fn space(previous: Tok, next: Tok, piece: bool) -> &'static str {
    match (previous, next) {
        (_, Tok::Punct(',' | ')', _)) | (Tok::Punct('(', _), _) => "",
        (_, Tok::Punct(':', _)) if !piece => "",
        _ => " ",
    }
}

/// Where a statement's aligned columns start (byte offsets): a piece's name and what follows
/// it, what follows a handicap's name, a statement's `when`, and each cell of a setup row.
fn column_breaks(statement: &Node) -> Vec<usize> {
    let mut breaks = Vec::new();
    for child in &statement.children {
        match child.token {
            Token::string if statement.token == Token::piece_stmt && breaks.is_empty() => {
                breaks.extend([child.span.start, child.span.end]);
            }
            Token::handicap_rule => {
                if let Some(name) = child.children.iter().find(|c| c.token == Token::string) {
                    breaks.push(name.span.end);
                }
            }
            Token::guard => breaks.push(child.span.start),
            Token::row => breaks.extend(
                child
                    .children
                    .iter()
                    .filter(|cell| cell.token != Token::rank_name)
                    .map(|cell| cell.span.start),
            ),
            _ => {}
        }
    }
    breaks.sort_unstable();
    breaks
}

/// The statement's text as tokens: each leaf of the tree is a word (a quoted string whole),
/// and the text between leaves is read into literals, line breaks and comments. A leaf that
/// spans white space or a comment (the rest of an unknown statement's line) is read like the
/// text between.
fn tokens<'a>(text: &'a str, statement: &Node) -> Vec<Tok<'a>> {
    let mut leaves = Vec::new();
    collect_leaves(statement, &mut leaves);
    let mut out = Vec::new();
    let mut at = statement.span.start;
    for (token, leaf) in leaves {
        lex(&text[at..leaf.start], at, &mut out);
        let word = &text[leaf.clone()];
        let whole = token != Token::rest_of_line
            && (word.starts_with('"') || !word.contains(|c: char| c.is_whitespace() || c == '#'));
        if whole {
            out.push(Tok::Word(word, leaf.start));
        } else {
            lex(word, leaf.start, &mut out);
        }
        at = leaf.end;
    }
    lex(&text[at..statement.span.end], at, &mut out);
    out
}

fn collect_leaves(node: &Node, out: &mut Vec<(Token, parse::ast::Span)>) {
    if node.children.is_empty() || node.token == Token::string {
        if !node.span.is_empty() {
            out.push((node.token, node.span.clone()));
        }
        return;
    }
    for child in &node.children {
        collect_leaves(child, out);
    }
}

/// Reads text into tokens: white space between words dropped, `#` to the end of the line a
/// comment, a quoted string one word, `: , = | ( )` punctuation, any other run one word.
fn lex<'a>(text: &'a str, base: usize, out: &mut Vec<Tok<'a>>) {
    const PUNCTUATION: &[u8] = b":,=|()";
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let start = i;
        match bytes[i] {
            b' ' | b'\t' => i += 1,
            b'\n' => {
                out.push(Tok::Newline);
                i += 1;
            }
            b'\r' => {
                out.push(Tok::Newline);
                i += if bytes.get(i + 1) == Some(&b'\n') { 2 } else { 1 };
            }
            b'#' => {
                i = text[i..].find(['\n', '\r']).map_or(bytes.len(), |n| i + n);
                out.push(Tok::Comment(text[start..i].trim_end()));
            }
            b'"' => {
                i = text[i + 1..].find(['"', '\n', '\r']).map_or(bytes.len(), |n| i + 1 + n);
                if bytes.get(i) == Some(&b'"') {
                    i += 1;
                }
                out.push(Tok::Word(&text[start..i], base + start));
            }
            b if PUNCTUATION.contains(&b) => {
                out.push(Tok::Punct(char::from(b), base + start));
                i += 1;
            }
            _ => {
                while i < bytes.len() && !b" \t\n\r#\":,=|()".contains(&bytes[i]) {
                    i += 1;
                }
                out.push(Tok::Word(&text[start..i], base + start));
            }
        }
    }
}

/// Aligns the rows of a setup as a grid when each has as many cells: each column as wide as
/// its widest cell.
fn align_grid(lines: &mut [Line]) {
    let rows: Vec<&mut Line> = lines.iter_mut().filter(|l| l.segments.len() > 1).collect();
    let Some(cells) = rows.first().map(|r| r.segments.len()) else {
        return;
    };
    if rows.iter().any(|r| r.segments.len() != cells) {
        return;
    }
    let widths: Vec<usize> = (0..cells - 1)
        .map(|i| rows.iter().map(|r| width(&r.segments[i])).max().unwrap_or(0))
        .collect();
    for row in rows {
        pad(&mut row.segments, &widths);
    }
}

/// Aligns the columns of the first lines of each block of statements of one kind.
fn align_blocks(items: &mut [Item]) {
    let mut start = 0;
    while start < items.len() {
        let Item::Statement(first) = &items[start] else {
            start += 1;
            continue;
        };
        let kind = first.kind;
        let mut end = start + 1;
        let mut last_statement = start;
        while end < items.len() {
            match &items[end] {
                Item::Comment(_) => {}
                Item::Statement(s) if s.kind == kind => last_statement = end,
                Item::Statement(_) | Item::Blank => break,
            }
            end += 1;
        }
        align_block(&mut items[start..=last_statement]);
        start = last_statement + 1;
    }
}

fn align_block(block: &mut [Item]) {
    let firsts = || {
        block.iter().filter_map(|item| match item {
            Item::Statement(s) => s.lines.first(),
            Item::Blank | Item::Comment(_) => None,
        })
    };
    let columns = firsts().map(|l| l.segments.len().saturating_sub(1)).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|i| {
            firsts()
                .filter(|l| i + 1 < l.segments.len())
                .map(|l| width(&l.segments[i]))
                .max()
                .unwrap_or(0)
        })
        .collect();
    for item in block {
        if let Item::Statement(s) = item
            && let Some(line) = s.lines.first_mut()
        {
            pad(&mut line.segments, &widths);
        }
    }
}

/// Pads each segment but the last to its column's width.
fn pad(segments: &mut [String], widths: &[usize]) {
    let last = segments.len().saturating_sub(1);
    for (segment, &wide) in segments[..last].iter_mut().zip(widths) {
        let fill = wide.saturating_sub(width(segment));
        segment.extend(std::iter::repeat_n(' ', fill));
    }
}

/// Columns a text takes in a monospaced editor (a kanji takes two).
fn width(text: &str) -> usize {
    textwrap::core::display_width(text)
}

/// The file's lines: blank lines collapsed, none at the start or the end.
fn render(items: &[Item]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut blank = false;
    for item in items {
        let lines: Vec<String> = match item {
            Item::Blank => {
                blank = !out.is_empty();
                continue;
            }
            Item::Comment(comment) => vec![comment.clone()],
            Item::Statement(s) => s
                .lines
                .iter()
                .enumerate()
                .map(|(k, line)| render_line(line, k > 0))
                .collect(),
        };
        if std::mem::take(&mut blank) {
            out.push(String::new());
        }
        out.extend(lines);
    }
    out
}

fn render_line(line: &Line, indented: bool) -> String {
    let mut text = if indented { "  ".to_string() } else { String::new() };
    text.push_str(&line.segments.join(" "));
    if let Some(comment) = &line.comment {
        if !line.segments.is_empty() {
            text.push_str("  ");
        }
        text.push_str(comment);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::{Error, comments, format, parse, words};

    #[test]
    fn spacing_is_normalised_and_literals_keep_their_place() {
        let text = "variant   \"X\"\nboard 5x5\nuse \"lib\" :K ,G\npiece K \"King\" royal:step all\n";
        let formatted = format(text).unwrap();
        assert_eq!(
            formatted,
            "variant \"X\"\nboard 5 x 5\nuse \"lib\": K, G\npiece K \"King\" royal : step all\n"
        );
    }

    #[test]
    fn leaps_are_written_as_pairs() {
        let text = "piece N \"Knight\" : leap ( -1 ,2 )(1,2)\n";
        assert_eq!(format(text).unwrap(), "piece N \"Knight\" : leap (-1, 2) (1, 2)\n");
    }

    #[test]
    fn an_unknown_statement_is_laid_out_the_same_the_second_time() {
        // Found by the `fmt` fuzz target: `ong, ` became `ong,`, then `ong ,`, then `ong,`.
        for text in ["ong, ", "ong,\n", "ong ,\n", "ong: a ,b\n"] {
            let once = format(text).unwrap();
            assert_eq!(format(&once).unwrap(), once, "{text:?}");
        }
        assert_eq!(format("ong ,\n").unwrap(), "ong,\n");
    }

    #[test]
    fn a_text_that_does_not_parse_is_refused_with_its_errors() {
        let Err(Error::Syntax(errors)) = format("board 9 x\n") else {
            panic!("refused");
        };
        assert!(!errors.is_empty());
    }

    #[test]
    fn a_layout_is_checked_to_keep_the_words() {
        let read = |text: &str| words(text, &parse::syntax_tree(text).unwrap());
        assert_eq!(read("board 9 x 9\n"), read("board  9x9   # size\n"));
        assert_ne!(read("board 9 x 9\n"), read("board 9 x 8\n"));
        assert_ne!(read("drops\n"), read("drops\ndrops\n"));
        assert_eq!(comments("drops # a\n# b\n"), ["# a", "# b"]);
    }
}
