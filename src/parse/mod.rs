//! Parsing: `.var` text to a syntax tree with byte spans ([`ast`]).
//!
//! The grammar is `grammar/variant.pest`; its words are in [`keywords`]. This file owns the
//! recovery from syntax errors: when the whole file does not parse, it is cut into statements
//! (a line, with the lines it continues onto: after a `,` or a `:`, a `:` starting a line, the
//! rows of a setup) and each statement is parsed on its own, so that one run reports every
//! broken statement and keeps the others. A broken setup is read again row by row. Errors are
//! phrased in the language's words, never in grammar-rule names (`expected`); the tree is
//! built from what parsed in `build`.

pub mod ast;
mod build;
mod expected;
pub mod keywords;

pub use expected::CONTINUED_MOVES_HELP;

use ast::{File, SetupDecl, Span, Spanned, Statement};
use build::Build;
use expected::{Context, syntax_error};
use pest::Parser;

/// The parser pest derives from the grammar, and its productions, which pest calls rules: koma
/// calls them [`Token`]s (`Token::piece_stmt`) and keeps "rule" for the rules of a game.
mod grammar {
    #[derive(pest_derive::Parser)]
    #[grammar = "../grammar/variant.pest"]
    pub struct Grammar;
}

use grammar::Grammar;
pub(crate) use grammar::Rule as Token;

/// Most syntax errors reported for one file; past this the file is too broken to say more.
pub const MAX_SYNTAX_ERRORS: usize = 50;

/// Upper bound on pest's internal call count, so that no input can make parsing run away.
const CALL_LIMIT: usize = 50_000_000;

/// A statement that could not be read. Past [`MAX_SYNTAX_ERRORS`] broken statements, the
/// errors have an empty `message`: they are not to be shown, and only say what is broken.
#[derive(Debug, Clone, PartialEq)]
pub struct SyntaxError {
    /// Where reading stopped: the word (or character) that does not fit.
    pub span: Span,
    /// What was found there, in words.
    pub found: String,
    /// What the language allows there, in words.
    pub expected: Vec<String>,
    /// The whole message, in the language's words.
    pub message: String,
    /// The text of the label under `span`.
    pub label: String,
    /// How the statement is written.
    pub help: Option<String>,
    /// The keyword of the broken statement (`piece`, `setup`, …), if it starts with one.
    pub statement: Option<String>,
    /// The abbreviation of a broken `piece` statement, so that uses of it are not reported
    /// again as unknown pieces.
    pub piece: Option<String>,
    /// Not a mistake in the text but one of koma's limits (too many broken lines).
    pub limit: bool,
}

/// Parses a whole file, returning the statements of every line that parsed and an error
/// for every statement that did not.
///
/// A byte-order mark at the start of the text is skipped (read as spaces of the same length,
/// so that every span still counts bytes of the text as given).
pub fn parse(text: &str) -> (File, Vec<SyntaxError>) {
    match text.strip_prefix(BYTE_ORDER_MARK) {
        Some(rest) => parse_text(&format!("{}{rest}", " ".repeat(BYTE_ORDER_MARK.len_utf8()))),
        None => parse_text(text),
    }
}

/// The byte-order mark some editors write at the start of a UTF-8 file; koma skips it.
pub const BYTE_ORDER_MARK: char = '\u{feff}';

fn parse_text(text: &str) -> (File, Vec<SyntaxError>) {
    pest::set_call_limit(std::num::NonZeroUsize::new(CALL_LIMIT));
    let whole = match parse_as(Token::file, text, false) {
        Ok(mut pairs) => {
            let file = pairs.next().map(|p| Build { base: 0 }.file(p)).unwrap_or_default();
            return (file, vec![]);
        }
        Err(error) => error,
    };
    let mut file = File::default();
    let mut errors = Vec::new();
    let mut broken = 0usize;
    // Where the first broken statement not shown starts, when it was not described.
    let mut first_hidden = None;
    // The statements not read, past the broken ones shown.
    let mut unread = 0usize;
    for chunk in chunks(text) {
        let chunk_text = &text[chunk.clone()];
        let build = Build { base: chunk.start };
        let parsed = (broken < MAX_SYNTAX_ERRORS).then(|| parse_as(Token::file, chunk_text, true));
        match parsed {
            Some(Ok(mut pairs)) => {
                if let Some(pair) = pairs.next() {
                    file.statements.extend(build.file(pair).statements);
                }
            }
            None => {
                // Past the errors shown the rest is not read, only noted (which statement or
                // piece it is, so that nothing is reported as missing for it): the work on a
                // line stays small, and a file of bad lines is no slower than a good one.
                unread += 1;
                first_hidden.get_or_insert(chunk.start);
                let (statement, piece) = expected::what_is_broken(chunk_text, first_word(chunk_text));
                if statement.is_some() || piece.is_some() {
                    errors.push(SyntaxError {
                        span: chunk.start..chunk.start,
                        found: String::new(),
                        expected: vec![],
                        message: String::new(),
                        label: String::new(),
                        help: None,
                        statement,
                        piece,
                        limit: false,
                    });
                }
            }
            Some(Err(error)) => {
                let mut found = Vec::new();
                if first_word(chunk_text) == "setup" {
                    if let Some(statement) = recover_setup(text, chunk.clone(), &mut found) {
                        file.statements.push(statement);
                    }
                } else {
                    found.push(syntax_error(text, chunk.clone(), &error, Context::Statement));
                }
                for error in found {
                    broken += 1;
                    if broken <= MAX_SYNTAX_ERRORS {
                        errors.push(error);
                    } else {
                        // Only what cascades is still needed: which piece or statement is broken.
                        errors.push(SyntaxError {
                            message: String::new(),
                            ..error
                        });
                    }
                }
            }
        }
    }
    let grammar_error = matches!(whole.variant, pest::error::ErrorVariant::ParsingError { .. });
    if errors.is_empty() && grammar_error {
        // Every statement reads on its own but not the whole: say where the whole stopped.
        // (A whole file past pest's call limit, read statement by statement, is fine.)
        let whole = parse_as(Token::file, text, true).err().unwrap_or(whole);
        let mut error = syntax_error(text, 0..text.len(), &whole, Context::Statement);
        error.statement = None;
        error.piece = None;
        errors.push(error);
    }
    if broken > MAX_SYNTAX_ERRORS || unread > 0 {
        let described = errors.get(MAX_SYNTAX_ERRORS).map(|e| e.span.start);
        let at = described.into_iter().chain(first_hidden).min().unwrap_or(0);
        errors.push(SyntaxError {
            span: at..at,
            found: String::new(),
            expected: vec![],
            message: format!(
                "{MAX_SYNTAX_ERRORS} statements could not be read; the {} statements from here on were not read",
                unread + broken - MAX_SYNTAX_ERRORS
            ),
            label: "more broken statements from here on".into(),
            help: Some("is this a variant file? see the language reference, docs/language.md".into()),
            statement: None,
            piece: None,
            limit: true,
        });
    }
    (file, errors)
}

/// A node of the concrete syntax tree: a production of the grammar ([`Token`]), the bytes it
/// was read from, and the productions inside it. Words and punctuation the grammar matches as
/// literals (`:`, `,`, `=`, `x`), white space and comments are in no node: they are the text
/// between nodes.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Node {
    pub(crate) token: Token,
    pub(crate) span: Span,
    pub(crate) children: Vec<Node>,
}

/// The concrete syntax tree of a whole file, for tools that keep the text as written (the
/// formatter): the `file` node, whose children are the statements. `None` when the file does
/// not parse as a whole ([`parse`] then says why).
///
/// A byte-order mark is read as [`parse`] reads it: as spaces.
pub(crate) fn syntax_tree(text: &str) -> Option<Node> {
    let blanked;
    let text = match text.strip_prefix(BYTE_ORDER_MARK) {
        Some(rest) => {
            blanked = format!("{}{rest}", " ".repeat(BYTE_ORDER_MARK.len_utf8()));
            blanked.as_str()
        }
        None => text,
    };
    pest::set_call_limit(std::num::NonZeroUsize::new(CALL_LIMIT));
    let pair = parse_as(Token::file, text, false).ok()?.next()?;
    Some(node(pair))
}

fn node(pair: pest::iterators::Pair<'_, Token>) -> Node {
    let span = pair.as_span();
    Node {
        token: pair.as_rule(),
        span: span.start()..span.end(),
        children: pair.into_inner().map(node).collect(),
    }
}

/// Parses `text` as `token`. pest's error detail (what was expected where) costs time on every
/// parse, so it is asked for only when a parse fails and `detail` says the error will be
/// shown: the text is then parsed again.
fn parse_as(
    token: Token,
    text: &str,
    detail: bool,
) -> Result<pest::iterators::Pairs<'_, Token>, pest::error::Error<Token>> {
    pest::set_error_detail(false);
    match Grammar::parse(token, text) {
        Err(_) if detail => {
            pest::set_error_detail(true);
            let again = Grammar::parse(token, text);
            pest::set_error_detail(false);
            again
        }
        result => result,
    }
}

/// Reads a setup whose statement does not parse as a whole: its first line, then each row on
/// its own. Rows that parse are kept; every row that does not is reported.
fn recover_setup(text: &str, chunk: Span, errors: &mut Vec<SyntaxError>) -> Option<Spanned<Statement>> {
    let mut lines = lines_of(text, chunk.clone());
    let (head_start, head_end) = lines.next()?;
    let head = &text[head_start..head_end];
    let mut side = None;
    let mut guard = None;
    let mut head_ok = true;
    match parse_as(Token::setup_line, head, true) {
        Ok(mut pairs) => {
            let build = Build { base: head_start };
            for p in pairs.next().into_iter().flat_map(|p| p.into_inner()) {
                match p.as_rule() {
                    Token::side => side = Some(build.closed(&p, ast::SetupSide::from_word)),
                    Token::guard => guard = Some(build.build_guard(p)),
                    _ => {}
                }
            }
        }
        Err(error) => {
            head_ok = false;
            errors.push(syntax_error(text, head_start..head_end, &error, Context::Statement));
        }
    }
    let mut rows = Vec::new();
    for (start, end) in lines {
        let line = &text[start..end];
        if code_of(line).trim().is_empty() {
            continue;
        }
        match parse_as(Token::row_line, line, true) {
            Ok(mut pairs) => {
                let build = Build { base: start };
                if let Some(row) = pairs
                    .next()
                    .and_then(|p| p.into_inner().find(|p| p.as_rule() == Token::row))
                {
                    rows.push(build.row(row));
                }
            }
            Err(error) => {
                errors.push(syntax_error(text, start..end, &error, Context::Row));
            }
        }
    }
    if !head_ok {
        return None;
    }
    let span = chunk.start..chunk.end;
    Some(Spanned::new(Statement::Setup(SetupDecl { side, guard, rows }), span))
}

// ---------------------------------------------------------------- cutting into statements

/// The byte ranges of the lines of `range` (without their line breaks).
fn lines_of(text: &str, range: Span) -> impl Iterator<Item = (usize, usize)> + '_ {
    let base = range.start;
    text[range].split('\n').scan(base, |start, line| {
        let s = *start;
        *start += line.len() + 1;
        Some((s, s + line.trim_end_matches('\r').len()))
    })
}

/// A line without its comment (a `#` outside a quoted name).
pub fn code_of(line: &str) -> &str {
    let mut quoted = false;
    for (i, c) in line.char_indices() {
        match c {
            '"' => quoted = !quoted,
            '#' if !quoted => return &line[..i],
            _ => {}
        }
    }
    line
}

/// The leading word of a statement: letters, digits, `-`, `_` and `+`.
fn first_word(text: &str) -> &str {
    let code = text
        .split('\n')
        .map(code_of)
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim_start();
    let end = code
        .find(|c: char| !(c.is_alphanumeric() || c == '-' || c == '_' || c == '+'))
        .unwrap_or(code.len());
    &code[..end]
}

/// Whether a word could be the rank letters of a setup row (`e`, `ab`).
fn rank_like(word: &str) -> bool {
    (1..=2).contains(&word.len()) && word.bytes().all(|b| b.is_ascii_lowercase())
}

/// Cuts a file into statements. A line continues the statement before it when that one ends
/// with `,` or `:`, when it starts with `:`, or when it is a row of a setup; a line that starts
/// with a statement keyword always starts a new statement. Comment lines and blank lines
/// belong to no statement of their own.
fn chunks(text: &str) -> Vec<Span> {
    let mut chunks: Vec<Span> = Vec::new();
    let mut in_setup = false;
    let mut continues = false;
    for (start, end) in lines_of(text, 0..text.len()) {
        let code = code_of(&text[start..end]).trim();
        if code.is_empty() {
            continue;
        }
        let word = first_word(code);
        let keyword = keywords::is_statement(word);
        let joins =
            !keyword && !chunks.is_empty() && (continues || code.starts_with(':') || (in_setup && rank_like(word)));
        match chunks.last_mut() {
            Some(last) if joins => last.end = end,
            _ => {
                chunks.push(start..end);
                in_setup = word == "setup";
            }
        }
        continues = code.ends_with(',') || code.ends_with(':');
    }
    chunks
}
