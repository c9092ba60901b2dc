//! Parsing: `.var` text to a syntax tree with byte spans ([`ast`]).
//!
//! The grammar is `grammar/variant.pest`. A syntax error does not stop the parse: when the
//! whole file does not parse, it is cut into statements (a line, with the lines it continues
//! onto: after a `,` or a `:`, a `:` starting a line, the rows of a setup) and each statement
//! is parsed on its own, so that one run reports every broken statement and keeps the others.
//! A broken setup is read again row by row. Errors are phrased in the language's words, never
//! in grammar-rule names.

pub mod ast;

use ast::{
    Attribute, Cell, Clause, File, Guard, Modifier, MovementSyntax, OptionDecl, PieceDecl, PromotionSyntax, Row,
    SetupDecl, Span, Spanned, Statement,
};
use pest::Parser;
use pest::iterators::Pair;

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/variant.pest"]
struct VarParser;

/// Most syntax errors reported for one file; past this the file is too broken to say more.
pub const MAX_SYNTAX_ERRORS: usize = 50;

/// Upper bound on pest's internal call count, so that no input can make parsing run away.
const CALL_LIMIT: usize = 50_000_000;

/// The words that start a statement.
pub const STATEMENT_WORDS: &[&str] = &[
    "variant",
    "use",
    "board",
    "option",
    "piece",
    "setup",
    "promotion",
    "deferral",
    "declined-waits-for-last-rank",
    "last-rank-promotion-optional",
    "drops",
    "drop-limit",
    "no-drop-mate",
    "stalemate",
    "bare-king",
    "repetition",
    "lion-trading",
    "counter-strike",
    "royal-capture-allowed",
    "capture-unprotected-protects",
    "stuck-pieces-stay",
    "handicap",
];

/// The words that start a move clause.
const MOVE_WORDS: &[&str] = &[
    "step", "slide", "range", "jump", "leap", "lion", "hook", "anywhere", "as",
];

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
    let whole = match parse_rule(Rule::file, text, false) {
        Ok(mut pairs) => {
            let file = pairs.next().map(|p| Build { base: 0 }.file(p)).unwrap_or_default();
            return (file, vec![]);
        }
        Err(error) => error,
    };
    let mut file = File::default();
    let mut errors = Vec::new();
    let mut broken = 0usize;
    for chunk in chunks(text) {
        let chunk_text = &text[chunk.clone()];
        let build = Build { base: chunk.start };
        match parse_rule(Rule::file, chunk_text, broken < MAX_SYNTAX_ERRORS) {
            Ok(mut pairs) => {
                if let Some(pair) = pairs.next() {
                    file.statements.extend(build.file(pair).statements);
                }
            }
            Err(error) => {
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
        let whole = parse_rule(Rule::file, text, true).err().unwrap_or(whole);
        let mut error = syntax_error(text, 0..text.len(), &whole, Context::Statement);
        error.statement = None;
        error.piece = None;
        errors.push(error);
    }
    if broken > MAX_SYNTAX_ERRORS {
        let at = errors.get(MAX_SYNTAX_ERRORS).map_or(0, |e| e.span.start);
        errors.push(SyntaxError {
            span: at..at,
            found: String::new(),
            expected: vec![],
            message: format!("{broken} statements could not be read; only the first {MAX_SYNTAX_ERRORS} are shown"),
            label: "more broken statements from here on".into(),
            help: Some("is this a variant file? see the language guide in README.md".into()),
            statement: None,
            piece: None,
            limit: true,
        });
    }
    (file, errors)
}

/// Parses `text` as `rule`. pest's error detail (what was expected where) costs time on every
/// parse, so it is asked for only when a parse fails and `detail` says the error will be
/// shown: the text is then parsed again.
fn parse_rule(
    rule: Rule,
    text: &str,
    detail: bool,
) -> Result<pest::iterators::Pairs<'_, Rule>, pest::error::Error<Rule>> {
    pest::set_error_detail(false);
    match VarParser::parse(rule, text) {
        Err(_) if detail => {
            pest::set_error_detail(true);
            let again = VarParser::parse(rule, text);
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
    let mut head_ok = true;
    match parse_rule(Rule::setup_line, head, true) {
        Ok(mut pairs) => {
            let build = Build { base: head_start };
            for p in pairs.next().into_iter().flat_map(|p| p.into_inner()) {
                if p.as_rule() == Rule::side {
                    side = Some(build.spanned_str(&p));
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
        match parse_rule(Rule::row_line, line, true) {
            Ok(mut pairs) => {
                let build = Build { base: start };
                if let Some(row) = pairs
                    .next()
                    .and_then(|p| p.into_inner().find(|p| p.as_rule() == Rule::row))
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
    Some(Spanned::new(Statement::Setup(SetupDecl { side, rows }), span))
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
        let keyword = STATEMENT_WORDS.contains(&word);
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

// ---------------------------------------------------------------- describing an error

/// What a broken piece of text was meant to be.
#[derive(Clone, Copy, PartialEq)]
enum Context {
    /// A statement (its keyword, if it starts with one, is read from the text).
    Statement,
    /// A row of a setup.
    Row,
}

/// A syntax error in the text at `chunk` (the error's positions are relative to it).
fn syntax_error(text: &str, chunk: Span, error: &pest::error::Error<Rule>, context: Context) -> SyntaxError {
    let chunk_text = &text[chunk.clone()];
    let keyword = match context {
        Context::Statement => first_word(chunk_text),
        Context::Row => "setup",
    };
    let statement = STATEMENT_WORDS.contains(&keyword).then(|| keyword.to_string());
    let piece = (keyword == "piece")
        .then(|| {
            let rest = code_of(chunk_text).trim_start().strip_prefix("piece")?;
            let word = first_word(rest);
            (!word.is_empty()).then(|| word.to_string())
        })
        .flatten();
    let located = match error.location {
        pest::error::InputLocation::Pos(p) => p,
        pest::error::InputLocation::Span((s, _)) => s,
    };
    let rules: Vec<Rule> = match &error.variant {
        pest::error::ErrorVariant::ParsingError { positives, .. } => positives.clone(),
        pest::error::ErrorVariant::CustomError { message } => {
            let at = chunk.start + located.min(chunk_text.len());
            return SyntaxError {
                span: at..at,
                found: String::new(),
                expected: vec![],
                message: format!("this statement is too complex for koma to read ({message})"),
                label: "reading stopped here".into(),
                help: Some("split it into shorter statements".into()),
                statement,
                piece,
                limit: true,
            };
        }
    };
    // Literal tokens (`:`, `=`, `x`) are tracked only with the error detail; they may lie
    // further on than the last rule tried (`when x` is missing its `=`).
    let attempts = error.parse_attempts().map(|a| {
        (
            a.max_position,
            a.expected_tokens().iter().map(ToString::to_string).collect::<Vec<_>>(),
        )
    });
    let in_moves = |at: usize| keyword == "piece" && code_of(&chunk_text[..at.min(chunk_text.len())]).contains(':');
    let deeper = attempts
        .as_ref()
        .filter(|(max, _)| *max > located && *max <= chunk_text.len())
        .map(|(max, literal)| (*max, tokens(chunk_text, *max, literal)))
        .filter(|(_, words)| !words.is_empty());
    let (at, mut expected) = match (deeper, &attempts) {
        (Some(deeper), _) => deeper,
        (None, Some((max, literal))) if *max == located => {
            let described = describe_rules(&rules, keyword, in_moves(located));
            let literal = tokens(chunk_text, located, literal);
            (located, merge(described, literal))
        }
        _ => (located, describe_rules(&rules, keyword, in_moves(located))),
    };
    let mut at = at.min(chunk_text.len());
    if expected == ["a word"] && chunk_text[..at].trim_end().ends_with("when") {
        expected = vec!["the name of an option".to_string()];
    }
    // Stopped inside a word (`+p`, `10a`): show the whole word.
    let word_char = |c: char| c.is_alphanumeric() || c == '+' || c == '-' || c == '_';
    if chunk_text[at..].chars().next().is_some_and(word_char) {
        while let Some(c) = chunk_text[..at].chars().next_back().filter(|&c| word_char(c)) {
            at -= c.len_utf8();
        }
    }
    let (found, mut span) = found_at(chunk_text, at);
    let found_word = &chunk_text[span.clone()];
    let unclosed = found_word.starts_with('"') && (found_word.len() < 2 || !found_word.ends_with('"'));
    if unclosed {
        // Point at the quote that is never closed.
        span = span.start..span.start + 1;
    }
    let mut span = chunk.start + span.start..chunk.start + span.end;
    let after_comma = code_of(&chunk_text[..at]).trim_end().ends_with(',');
    let expected_text = or_list(&expected);
    let at_end = span.is_empty();
    let what = match (context, &statement) {
        (Context::Row, _) => Some("setup row".to_string()),
        (_, Some(k)) => Some(format!("`{k}` statement")),
        (_, None) => None,
    };
    let starts_line = at == first_word_start(chunk_text) && context == Context::Statement;
    let continues_moves = starts_line && statement.is_none() && MOVE_WORDS.contains(&found_word);
    let mut label = if (expected.is_empty() || expected_text.len() > 60) && at_end {
        "something is missing here".to_string()
    } else if expected.is_empty() || expected_text.len() > 60 {
        "not expected here".to_string()
    } else {
        format!("expected {expected_text}")
    };
    let message = match &what {
        _ if starts_line && statement.is_none() => {
            label = if let Some(k) = STATEMENT_WORDS.iter().find(|k| k.eq_ignore_ascii_case(found_word)) {
                format!("keywords are lower case: `{k}`")
            } else if found_word.starts_with(|c: char| c.is_ascii_uppercase() || c == '+') {
                "a piece is defined with `piece` first".into()
            } else if found_word == "," || found_word == ":" {
                format!("a `{found_word}` that continues a statement goes at the end of the line before")
            } else if rank_like(first_word(chunk_text))
                && code_of(chunk_text)
                    .trim_start()
                    .trim_start_matches(|c: char| c.is_ascii_lowercase())
                    .trim_start()
                    .starts_with(':')
            {
                "a setup row belongs under `setup`".into()
            } else {
                "expected a statement".into()
            };
            format!("expected a statement, found {found}")
        }
        Some(what) if at_end => format!("the {what} ends too early: expected {expected_text}"),
        Some(what) => format!("expected {expected_text} in this {what}, found {found}"),
        None if at_end => format!("the line ends too early: expected {expected_text}"),
        None => format!("expected {expected_text}, found {found}"),
    };
    let mut message = message;
    if unclosed {
        message = "a quoted name has no closing `\"`".into();
        label = "this `\"` is not closed on its line".into();
    } else if at_end && after_comma {
        label = "after a `,` the list goes on: another item, on this line or the next".into();
    } else if keyword == "piece" && !in_moves(at) && MOVE_WORDS.contains(&found_word) {
        label = "a `:` goes before the moves".into();
    } else if let Some((kind, number)) = distance_of(chunk_text, at, found_word).filter(|_| in_moves(at)) {
        message = format!(
            "`{}` is not a distance: the distance of a {kind} is a whole number of squares, at least 1",
            &chunk_text[number.clone()]
        );
        label = "a whole number of squares, at least 1".into();
        span = chunk.start + number.start..chunk.start + number.end;
    } else if continues_moves {
        message =
            format!("`{found_word}` is a move, not a statement: the line before ends its list of moves without `,`");
        label = "a move on a line of its own".into();
    } else if !found_word.is_ascii() && found_word.chars().any(char::is_alphanumeric) {
        message = format!("found {found}: the words of the language are written in ASCII letters");
        label = "not an ASCII word".into();
    } else if expected.iter().any(|e| e.starts_with("a piece abbreviation"))
        && found_word
            .trim_start_matches('+')
            .starts_with(|c: char| c.is_ascii_lowercase())
    {
        label = "an abbreviation starts with an upper-case letter (after `+` for a promoted piece)".into();
    }
    let help = Some(match statement.as_deref() {
        _ if continues_moves => CONTINUED_MOVES_HELP.to_string(),
        Some("piece") if in_moves(at) => MOVES_HELP.to_string(),
        Some("setup") if context == Context::Row => {
            "a row is the rank letter, `:`, then the squares from the highest file to file 1: a piece \
             abbreviation, `.` for an empty square, or a number of empty squares"
                .to_string()
        }
        Some(k) => format!("{} `{k}` statement is written {}", article(k), form_of(k)),
        None => "each statement starts with its keyword (variant, board, piece, setup, promotion, …); \
                 see the language guide in README.md"
            .to_string(),
    });
    SyntaxError {
        span,
        found,
        expected,
        message,
        label,
        help,
        statement,
        piece,
        limit: false,
    }
}

/// The move (`range`, `jump`, `lion`) whose distance is written at `at` as something that
/// looks like a number but is not a whole number of squares (`-2`, `+3`, `2.5`), and where
/// that number lies in `text`.
fn distance_of(text: &str, at: usize, found: &str) -> Option<(&'static str, Span)> {
    let before = &text[..at];
    // `2.5`: the `2` was read as the distance, and reading stopped at the `.`.
    let digits = before.len() - before.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    let start = at - digits;
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let words = code_of(&text[line_start..start]).trim_end();
    let kind = ["range", "jump", "lion"].into_iter().find(|k| {
        words
            .strip_suffix(k)
            .is_some_and(|rest| rest.is_empty() || rest.ends_with(|c: char| c.is_whitespace() || c == ',' || c == ':'))
    })?;
    let number_like = if digits > 0 {
        found.starts_with('.')
    } else {
        found.starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == '+' || c == '.')
    };
    let len = text[start..]
        .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '+' | '.')))
        .unwrap_or(text.len() - start);
    number_like.then_some((kind, start..start + len))
}

/// `a` or `an`, for a keyword.
fn article(keyword: &str) -> &'static str {
    if keyword == "option" { "an" } else { "a" }
}

/// The things expected, from the rules tried and the literal tokens: when rules describe what
/// is expected, only punctuation is added from the tokens, and none that a rule's words name.
fn merge(mut described: Vec<String>, literal: Vec<String>) -> Vec<String> {
    let end = "the end of the line".to_string();
    let had_end = described.contains(&end) || (described.is_empty() && literal.contains(&end));
    described.retain(|w| *w != end);
    let only_punctuation = !described.is_empty();
    for token in literal {
        let inner = token.trim_matches('`');
        let punctuation = token.starts_with('`') && !inner.starts_with(|c: char| c.is_alphanumeric());
        if token == end || (only_punctuation && !punctuation) {
            continue;
        }
        if described.iter().any(|d| d.contains(&format!("`{inner}"))) {
            continue;
        }
        if !described.contains(&token) {
            described.push(token);
        }
    }
    if had_end {
        described.push(end);
    }
    described
}

/// The help for a move that starts a line after a list of moves with no `,` at its end.
pub const CONTINUED_MOVES_HELP: &str = "a list of moves goes on to the next line only after a `,` at the end of \
                                        the line: add `,` at the end of the line before";

const MOVES_HELP: &str = "moves are clauses separated by `,`, such as `step forward`, `slide orthogonal`, \
                          `range 2 diagonal`, `jump 2 forward`, `leap (1, 2)`, `lion`, `as G`";

/// How a statement is written, for the help of a syntax error.
fn form_of(keyword: &str) -> &'static str {
    match keyword {
        "variant" => "`variant \"Name\"`",
        "use" => "`use \"VARIANT\"` or `use \"VARIANT\": ABBR, ABBR`",
        "board" => "`board FILES x RANKS`, such as `board 9 x 9`",
        "option" => "`option NAME \"description\" = VALUE | VALUE`",
        "piece" => "`piece ABBR \"Name\" ATTRIBUTES : MOVES`, such as `piece K \"King\" royal : step all`",
        "setup" => "`setup` (or `setup white`), then one row per rank, such as `i: L N S G K G S N L`",
        "promotion" => "`promotion zone N [on enter within leave] [optional|compulsory]` or `promotion capture`",
        "declined-waits-for-last-rank" => "`declined-waits-for-last-rank ABBR...`",
        "last-rank-promotion-optional" => "`last-rank-promotion-optional ABBR...`",
        "drop-limit" => "`drop-limit ABBR N per file`, such as `drop-limit P 1 per file`",
        "no-drop-mate" => "`no-drop-mate ABBR...`",
        "stalemate" => "`stalemate draw`, `stalemate loss` or `stalemate win`",
        "repetition" => "`repetition N draw|illegal|starter-varies`, optionally followed by `, perpetual-check loses`",
        "lion-trading" => "`lion-trading ABBR... [bridge-excludes ABBR...]`",
        "counter-strike" => "`counter-strike ABBR...`",
        "handicap" => "`handicap \"Name\" SQUARE...`, such as `handicap \"Rook\" 8b`",
        "deferral" => "`deferral`, alone on its line (or with `when OPTION = VALUE`)",
        "drops" => "`drops`, alone on its line (or with `when OPTION = VALUE`)",
        "bare-king" => "`bare-king`, alone on its line (or with `when OPTION = VALUE`)",
        "royal-capture-allowed" => "`royal-capture-allowed`, alone on its line (or with `when OPTION = VALUE`)",
        "stuck-pieces-stay" => "`stuck-pieces-stay`, alone on its line (or with `when OPTION = VALUE`)",
        "capture-unprotected-protects" => {
            "`capture-unprotected-protects`, alone on its line (or with `when OPTION = VALUE`)"
        }
        _ => "as the language guide in README.md shows",
    }
}

/// Where the first word of a statement starts.
fn first_word_start(text: &str) -> usize {
    let mut offset = 0;
    for line in text.split('\n') {
        let code = code_of(line);
        if let Some(i) = code.find(|c: char| !c.is_whitespace()) {
            return offset + i;
        }
        offset += line.len() + 1;
    }
    0
}

/// `a`, `a or b`, `a, b or c`.
fn or_list(words: &[String]) -> String {
    match words {
        [] => "something else".to_string(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// The literal tokens that would have fitted at `at` (as pest prints them: `:` or `a..z`), in
/// words. Spaces, comments and the letters that would merely continue the word just read are
/// left out.
fn tokens(text: &str, at: usize, expected: &[String]) -> Vec<String> {
    let after_word = text[..at.min(text.len())]
        .chars()
        .next_back()
        .is_some_and(|c| c.is_alphanumeric() || c == '-' || c == '_');
    let mut words = Vec::new();
    for token in expected {
        let chars: Vec<char> = token.chars().collect();
        let range = chars.len() == 4 && chars[1] == '.' && chars[2] == '.';
        let word = match token.as_str() {
            " " | "\t" | "\r" | "\n" | "\r\n" | "#" | "BUILTIN_RULE" => continue,
            "-" | "_" if after_word => continue,
            // The start of a promoted piece's abbreviation: named as an abbreviation if at all.
            "+" => continue,
            _ if range && after_word => continue,
            _ if range => match chars[0] {
                '0' => "a number".to_string(),
                'A' => "a piece abbreviation".to_string(),
                'a' => "a word".to_string(),
                _ => continue,
            },
            "\"" => "a quoted name".to_string(),
            t if STATEMENT_WORDS.contains(&t) => "a statement".to_string(),
            t => format!("`{t}`"),
        };
        words.push(word);
    }
    words
}

/// The rules pest tried, in words.
fn describe_rules(rules: &[Rule], keyword: &str, in_moves: bool) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    for rule in rules {
        let Some(word) = describe(*rule, keyword, in_moves) else {
            continue;
        };
        if !words.iter().any(|w| w == word) {
            words.push(word.to_string());
        }
    }
    // A move covers the words that may start one.
    if words.iter().any(|w| w.starts_with("a move")) {
        words.retain(|w| w.starts_with("a move") || w.starts_with("a direction") || w.starts_with('`'));
    }
    // Where an attribute or the `:` may come, or the statement may end, the words, numbers and
    // names that would be read are those of an unknown attribute or move: not worth naming.
    let end = "the end of the line".to_string();
    let boundary = words.iter().any(|w| w.starts_with("a piece attribute")) || (in_moves && words.contains(&end));
    if boundary {
        const ARGUMENTS: &[&str] = &[
            "a quoted name",
            "a number",
            "a word",
            "a piece abbreviation",
            "an offset",
        ];
        words.retain(|w| !ARGUMENTS.iter().any(|a| w.starts_with(a)));
    }
    if let Some(i) = words.iter().position(|w| *w == end) {
        words.remove(i);
        words.push(end);
    }
    words
}

/// The word (or character) at `at`, described, and its span.
fn found_at(text: &str, at: usize) -> (String, Span) {
    let rest = &text[at.min(text.len())..];
    match rest.chars().next() {
        None => ("the end of the line".to_string(), at..at),
        Some('\n') | Some('\r') => ("the end of the line".to_string(), at..at),
        Some('"') => {
            let len = rest[1..]
                .find(['"', '\n'])
                .map_or(rest.len(), |i| i + 2)
                .min(rest.len());
            (format!("the quoted name `{}`", &rest[..len]), at..at + len)
        }
        Some(c) if c.is_alphanumeric() || c == '+' || c == '-' || c == '_' => {
            let len = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '+' || c == '-' || c == '_'))
                .unwrap_or(rest.len());
            (format!("`{}`", &rest[..len]), at..at + len)
        }
        Some(c) if c.is_control() || c == '\u{FFFD}' => {
            (format!("the character U+{:04X}", u32::from(c)), at..at + c.len_utf8())
        }
        Some(c) => (format!("`{c}`"), at..at + c.len_utf8()),
    }
}

/// What a grammar rule means, in the language's words (`None` for rules a user never sees).
fn describe(rule: Rule, keyword: &str, in_moves: bool) -> Option<&'static str> {
    Some(match rule {
        Rule::EOI => "the end of the line",
        Rule::statement | Rule::rule_body | Rule::rule_stmt | Rule::unknown_statement | Rule::file => "a statement",
        Rule::variant_stmt => "`variant`",
        Rule::use_stmt => "`use`",
        Rule::board_stmt => "`board`",
        Rule::option_stmt => "`option`",
        Rule::piece_stmt => "`piece`",
        Rule::setup_stmt | Rule::setup_line => "`setup`",
        Rule::string | Rule::string_inner => "a quoted name",
        Rule::int | Rule::dimension => "a number",
        Rule::signed => "a whole number",
        Rule::ident if keyword == "piece" && in_moves => "a word",
        Rule::ident if keyword == "piece" => "a piece attribute or `:`",
        Rule::ident if keyword == "option" => "an option name",
        Rule::ident => "a word",
        Rule::abbr if keyword == "setup" => "a piece abbreviation or `.`",
        Rule::abbr => "a piece abbreviation (such as `K`, `Ln` or `+P`)",
        Rule::square => "a square (such as `7g`)",
        Rule::sfen_letter => "an SFEN letter",
        Rule::value => "an option value",
        Rule::guard => "`when`",
        Rule::attribute
        | Rule::attr_sfen
        | Rule::attr_kanji
        | Rule::attr_value
        | Rule::attr_royal
        | Rule::attr_promotes
        | Rule::attr_must_promote
        | Rule::unknown_attribute => "a piece attribute or `:`",
        Rule::moves
        | Rule::clause
        | Rule::movement
        | Rule::unknown_movement
        | Rule::step
        | Rule::slide
        | Rule::range
        | Rule::jump
        | Rule::leap
        | Rule::lion
        | Rule::hook
        | Rule::anywhere
        | Rule::as_piece => "a move (step, slide, range, jump, leap, lion, hook, anywhere, as)",
        Rule::modifier => "move-only, capture-only or capture-unprotected",
        Rule::offset => "an offset such as `(1, 2)`",
        Rule::directions | Rule::direction => "a direction (forward, back, left, right, orthogonal, diagonal, all, …)",
        Rule::side => "`black` or `white`",
        Rule::row | Rule::row_line => "a setup row such as `i: L N S G K G S N L`",
        Rule::rank_name => "a rank letter",
        Rule::cell | Rule::empty | Rule::empty_run | Rule::bad_cell => "a piece abbreviation or `.`",
        Rule::zone_trigger => "`zone`",
        Rule::capture_trigger => "`capture`",
        Rule::zone_event => "enter, within, leave or capture",
        Rule::obligation => "optional or compulsory",
        Rule::outcome => "draw, loss or win",
        Rule::repetition_effect => "draw, illegal or starter-varies",
        Rule::perpetual_check => "`, perpetual-check loses`",
        Rule::weak_bridges => "`bridge-excludes`",
        _ => return None,
    })
}

// ---------------------------------------------------------------- building the tree

/// Keyword tokens carry nothing the tree needs.
fn not_keyword(pair: &Pair<Rule>) -> bool {
    pair.as_rule() != Rule::kw
}

/// Builds syntax-tree nodes from the pairs of a text that starts at byte `base` of the file.
#[derive(Clone, Copy)]
struct Build {
    base: usize,
}

impl Build {
    fn span_of(&self, pair: &Pair<Rule>) -> Span {
        let s = pair.as_span();
        self.base + s.start()..self.base + s.end()
    }

    fn spanned_str(&self, pair: &Pair<Rule>) -> Spanned<String> {
        Spanned::new(pair.as_str().to_string(), self.span_of(pair))
    }

    /// A number, saturating: an enormous number is kept as `u32::MAX` for the compiler to reject.
    fn number(&self, pair: &Pair<Rule>) -> Spanned<u32> {
        let value = pair.as_str().trim().parse::<u32>().unwrap_or(u32::MAX);
        Spanned::new(value, self.span_of(pair))
    }

    fn string_value(&self, pair: Pair<Rule>) -> Spanned<String> {
        let span = self.span_of(&pair);
        let inner = pair
            .into_inner()
            .find(not_keyword)
            .map(|p| p.as_str().to_string())
            .unwrap_or_default();
        Spanned::new(inner, span)
    }

    fn file(&self, pair: Pair<Rule>) -> File {
        let statements = pair
            .into_inner()
            .filter(not_keyword)
            .filter(|p| p.as_rule() != Rule::EOI)
            .map(|p| {
                let span = self.span_of(&p);
                Spanned::new(self.build_statement(p), span)
            })
            .collect();
        File { statements }
    }

    fn build_statement(&self, pair: Pair<Rule>) -> Statement {
        match pair.as_rule() {
            Rule::variant_stmt => {
                Statement::Variant(self.string_value(pair.into_inner().find(not_keyword).expect("grammar: name")))
            }
            Rule::use_stmt => {
                let mut inner = pair.into_inner().filter(not_keyword);
                let source = self.string_value(inner.next().expect("grammar: source"));
                let pieces = inner.map(|p| self.spanned_str(&p)).collect();
                Statement::Use { source, pieces }
            }
            Rule::board_stmt => {
                let mut inner = pair.into_inner().filter(not_keyword);
                let files = self.number(&inner.next().expect("grammar: files"));
                let ranks = self.number(&inner.next().expect("grammar: ranks"));
                Statement::Board { files, ranks }
            }
            Rule::option_stmt => Statement::Option(self.build_option(pair)),
            Rule::piece_stmt => Statement::Piece(self.build_piece(pair)),
            Rule::setup_stmt => Statement::Setup(self.build_setup(pair)),
            Rule::rule_stmt => {
                let mut inner = pair.into_inner().filter(not_keyword);
                let body = inner.next().expect("grammar: rule body");
                let span = self.span_of(&body);
                let rule = Spanned::new(self.build_rule(body), span);
                let guard = inner.next().map(|p| self.build_guard(p));
                Statement::Rule { rule, guard }
            }
            other => unreachable!("grammar: unexpected statement {other:?}"),
        }
    }

    fn build_option(&self, pair: Pair<Rule>) -> OptionDecl {
        let mut name = None;
        let mut description = None;
        let mut values = Vec::new();
        for p in pair.into_inner().filter(not_keyword) {
            match p.as_rule() {
                Rule::ident => name = Some(self.spanned_str(&p)),
                Rule::string => description = Some(self.string_value(p).node),
                _ => values.push(self.spanned_str(&p)),
            }
        }
        OptionDecl {
            name: name.expect("grammar: option name"),
            description,
            values,
        }
    }

    fn build_guard(&self, pair: Pair<Rule>) -> Guard {
        let span = self.span_of(&pair);
        let mut inner = pair.into_inner().filter(not_keyword);
        let option = self.spanned_str(&inner.next().expect("grammar: guard option"));
        let values = inner.map(|p| self.spanned_str(&p)).collect();
        Guard { option, values, span }
    }

    fn build_piece(&self, pair: Pair<Rule>) -> PieceDecl {
        let mut inner = pair.into_inner().filter(not_keyword);
        let abbrev = self.spanned_str(&inner.next().expect("grammar: abbreviation"));
        let name = self.string_value(inner.next().expect("grammar: name"));
        let mut attributes = Vec::new();
        let mut clauses = Vec::new();
        let mut moves_span = 0..0;
        for p in inner {
            let span = self.span_of(&p);
            match p.as_rule() {
                Rule::moves => {
                    moves_span = span;
                    clauses = p
                        .into_inner()
                        .filter(not_keyword)
                        .map(|p| self.build_clause(p))
                        .collect();
                }
                _ => attributes.push(Spanned::new(self.build_attribute(p), span)),
            }
        }
        PieceDecl {
            abbrev,
            name,
            attributes,
            clauses,
            moves_span,
        }
    }

    fn build_attribute(&self, pair: Pair<Rule>) -> Attribute {
        let rule = pair.as_rule();
        let text = pair.as_str().to_string();
        let arg = pair.into_inner().find(not_keyword);
        match rule {
            Rule::attr_sfen => Attribute::Sfen(arg.expect("grammar: letter").as_str().to_string()),
            Rule::attr_kanji => Attribute::Kanji(self.string_value(arg.expect("grammar: kanji")).node),
            Rule::attr_value => Attribute::Value(self.number(&arg.expect("grammar: value")).node),
            Rule::attr_royal => Attribute::Royal,
            Rule::attr_promotes => Attribute::Promotes(self.spanned_str(&arg.expect("grammar: target"))),
            Rule::attr_must_promote => Attribute::MustPromote(self.number(&arg.expect("grammar: ranks"))),
            _ => Attribute::Unknown(text.split_whitespace().next().unwrap_or_default().to_string()),
        }
    }

    fn build_clause(&self, pair: Pair<Rule>) -> Clause {
        let span = self.span_of(&pair);
        let mut modifiers = Vec::new();
        let mut movement = None;
        let mut guard = None;
        for p in pair.into_inner().filter(not_keyword) {
            match p.as_rule() {
                Rule::modifier => {
                    let m = match p.as_str().trim() {
                        "move-only" => Modifier::MoveOnly,
                        "capture-only" => Modifier::CaptureOnly,
                        _ => Modifier::CaptureUnprotected,
                    };
                    modifiers.push(Spanned::new(m, self.span_of(&p)));
                }
                Rule::guard => guard = Some(self.build_guard(p)),
                _ => {
                    let span = self.span_of(&p);
                    movement = Some(Spanned::new(self.build_movement(p), span));
                }
            }
        }
        Clause {
            modifiers,
            movement: movement.expect("grammar: movement"),
            guard,
            span,
        }
    }

    fn directions(&self, pair: Option<Pair<Rule>>) -> Vec<Spanned<String>> {
        pair.map(|p| {
            p.into_inner()
                .filter(not_keyword)
                .map(|d| self.spanned_str(&d))
                .collect()
        })
        .unwrap_or_default()
    }

    fn build_movement(&self, pair: Pair<Rule>) -> MovementSyntax {
        let rule = pair.as_rule();
        let text = pair.as_str().to_string();
        let mut inner = pair.into_inner().filter(not_keyword).peekable();
        match rule {
            Rule::step => MovementSyntax::Step(self.directions(inner.next())),
            Rule::slide => MovementSyntax::Slide(self.directions(inner.next())),
            Rule::hook => MovementSyntax::Hook(self.directions(inner.next())),
            Rule::range => {
                let n = self.number(&inner.next().expect("grammar: range"));
                MovementSyntax::Range(n, self.directions(inner.next()))
            }
            Rule::jump => {
                let n = self.number(&inner.next().expect("grammar: distance"));
                MovementSyntax::Jump(n, self.directions(inner.next()))
            }
            Rule::lion => {
                let steps = inner.next_if(|p| p.as_rule() == Rule::int).map(|p| self.number(&p));
                MovementSyntax::Lion(steps, self.directions(inner.next()))
            }
            Rule::leap => MovementSyntax::Leap(inner.map(|p| self.build_offset(p)).collect()),
            Rule::anywhere => MovementSyntax::Anywhere,
            Rule::as_piece => MovementSyntax::As(self.spanned_str(&inner.next().expect("grammar: piece"))),
            _ => MovementSyntax::Unknown(text.split_whitespace().next().unwrap_or_default().to_string()),
        }
    }

    fn build_offset(&self, pair: Pair<Rule>) -> Spanned<(i64, i64)> {
        let span = self.span_of(&pair);
        let mut inner = pair.into_inner().filter(not_keyword);
        let mut coord = || {
            inner
                .next()
                .and_then(|p| p.as_str().parse::<i64>().ok())
                .unwrap_or(i64::MAX)
        };
        let x = coord();
        let y = coord();
        Spanned::new((x, y), span)
    }

    fn build_setup(&self, pair: Pair<Rule>) -> SetupDecl {
        let mut side = None;
        let mut rows = Vec::new();
        for p in pair.into_inner().filter(not_keyword) {
            match p.as_rule() {
                Rule::side => side = Some(self.spanned_str(&p)),
                _ => rows.push(self.row(p)),
            }
        }
        SetupDecl { side, rows }
    }

    fn row(&self, pair: Pair<Rule>) -> Row {
        let mut inner = pair.into_inner().filter(not_keyword);
        let rank = self.spanned_str(&inner.next().expect("grammar: rank"));
        let cells = inner
            .map(|p| {
                let span = self.span_of(&p);
                let cell = match p.as_rule() {
                    Rule::empty => Cell::Empty,
                    Rule::empty_run => Cell::EmptyRun(self.number(&p).node),
                    Rule::abbr => Cell::Piece(p.as_str().to_string()),
                    _ => Cell::Bad(p.as_str().to_string()),
                };
                Spanned::new(cell, span)
            })
            .collect();
        Row { rank, cells }
    }

    fn build_rule(&self, pair: Pair<Rule>) -> Rule_ {
        let rule = pair.as_rule();
        let span = self.span_of(&pair);
        let first_word = Spanned::new(
            pair.as_str().split_whitespace().next().unwrap_or_default().to_string(),
            span.start..span.start + pair.as_str().split_whitespace().next().map_or(0, str::len),
        );
        let inner: Vec<Pair<Rule>> = pair.into_inner().filter(not_keyword).collect();
        let strs = |ps: &[Pair<Rule>]| ps.iter().map(|p| self.spanned_str(p)).collect::<Vec<_>>();
        match rule {
            Rule::promotion_rule => {
                let trigger_pair = &inner[0];
                let trigger = match trigger_pair.as_rule() {
                    Rule::zone_trigger => {
                        let parts: Vec<Pair<Rule>> = trigger_pair.clone().into_inner().filter(not_keyword).collect();
                        PromotionSyntax::Zone {
                            depth: self.number(&parts[0]),
                            events: strs(&parts[1..]),
                        }
                    }
                    _ => PromotionSyntax::Capture,
                };
                let obligation = inner.get(1).map(|p| self.spanned_str(p));
                Rule_::Promotion { trigger, obligation }
            }
            Rule::deferral_rule => Rule_::Deferral,
            Rule::declined_rule => Rule_::DeclinedWaitsForLastRank(strs(&inner)),
            Rule::last_rank_rule => Rule_::LastRankPromotionOptional(strs(&inner)),
            Rule::drops_rule => Rule_::Drops,
            Rule::drop_limit_rule => Rule_::DropLimit {
                piece: self.spanned_str(&inner[0]),
                count: self.number(&inner[1]),
            },
            Rule::no_drop_mate_rule => Rule_::NoDropMate(strs(&inner)),
            Rule::stalemate_rule => Rule_::Stalemate(self.spanned_str(&inner[0])),
            Rule::bare_king_rule => Rule_::BareKing,
            Rule::repetition_rule => Rule_::Repetition {
                count: self.number(&inner[0]),
                effect: self.spanned_str(&inner[1]),
                perpetual_check_loses: inner.len() > 2,
            },
            Rule::lion_trading_rule => {
                let split = inner
                    .iter()
                    .position(|p| p.as_rule() == Rule::weak_bridges)
                    .unwrap_or(inner.len());
                let weak_bridges = inner.get(split).map(|p| {
                    p.clone()
                        .into_inner()
                        .filter(not_keyword)
                        .map(|b| self.spanned_str(&b))
                        .collect()
                });
                Rule_::LionTrading {
                    lions: strs(&inner[..split]),
                    weak_bridges: weak_bridges.unwrap_or_default(),
                }
            }
            Rule::counter_strike_rule => Rule_::CounterStrike(strs(&inner)),
            Rule::royal_capture_rule => Rule_::RoyalCaptureAllowed,
            Rule::stuck_rule => Rule_::StuckPiecesStay,
            Rule::unprotected_protects_rule => Rule_::CaptureUnprotectedProtects,
            Rule::handicap_rule => Rule_::Handicap {
                name: self.string_value(inner[0].clone()),
                squares: strs(&inner[1..]),
            },
            _ => Rule_::Unknown(first_word),
        }
    }
}

type Rule_ = ast::RuleSyntax;
