//! Syntax errors in the language's words: what pest expected where reading stopped (its
//! productions and literal tokens), phrased as the language guide would, with the help of how
//! the broken statement is written.

use super::ast::Span;
use super::keywords;
use super::{SyntaxError, Token, code_of, first_word, rank_like};
use std::sync::LazyLock;

/// What a broken piece of text was meant to be.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Context {
    /// A statement (its keyword, if it starts with one, is read from the text).
    Statement,
    /// A row of a setup.
    Row,
}

/// The keyword of a broken statement (if `keyword`, its first word, is one) and, for a
/// `piece` statement, the abbreviation it defines.
pub(super) fn what_is_broken(chunk_text: &str, keyword: &str) -> (Option<String>, Option<String>) {
    let statement = keywords::is_statement(keyword).then(|| keyword.to_string());
    let piece = (keyword == "piece")
        .then(|| {
            let rest = code_of(chunk_text).trim_start().strip_prefix("piece")?;
            let word = first_word(rest);
            (!word.is_empty()).then(|| word.to_string())
        })
        .flatten();
    (statement, piece)
}

/// A syntax error in the text at `chunk` (the error's positions are relative to it).
pub(super) fn syntax_error(
    text: &str,
    chunk: Span,
    error: &pest::error::Error<Token>,
    context: Context,
) -> SyntaxError {
    let chunk_text = &text[chunk.clone()];
    let keyword = match context {
        Context::Statement => first_word(chunk_text),
        Context::Row => "setup",
    };
    let (statement, piece) = what_is_broken(chunk_text, keyword);
    let located = match error.location {
        pest::error::InputLocation::Pos(p) => p,
        pest::error::InputLocation::Span((s, _)) => s,
    };
    let tried: Vec<Token> = match &error.variant {
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
        .map(|(max, literal)| (*max, literals(chunk_text, *max, literal)))
        .filter(|(_, words)| !words.is_empty());
    let (at, mut expected) = match (deeper, &attempts) {
        (Some(deeper), _) => deeper,
        (None, Some((max, literal))) if *max == located => {
            let described = describe_tokens(&tried, keyword, in_moves(located));
            let literal = literals(chunk_text, located, literal);
            (located, merge(described, literal))
        }
        _ => (located, describe_tokens(&tried, keyword, in_moves(located))),
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
    let continues_moves = starts_line && statement.is_none() && keywords::movements().any(|m| m == found_word);
    let mut label = if (expected.is_empty() || expected_text.len() > 60) && at_end {
        "something is missing here".to_string()
    } else if expected.is_empty() || expected_text.len() > 60 {
        "not expected here".to_string()
    } else {
        format!("expected {expected_text}")
    };
    let message = match &what {
        _ if starts_line && statement.is_none() => {
            label = if let Some(k) = keywords::statements().find(|k| k.eq_ignore_ascii_case(found_word)) {
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
    } else if keyword == "piece" && !in_moves(at) && keywords::movements().any(|m| m == found_word) {
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
                 see the language reference, docs/language.md"
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
    if keyword.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    }
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
    keywords::form_of(keyword).unwrap_or("as the language reference (docs/language.md) shows")
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
fn literals(text: &str, at: usize, expected: &[String]) -> Vec<String> {
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
            t if keywords::is_statement(t) => "a statement".to_string(),
            t => format!("`{t}`"),
        };
        words.push(word);
    }
    words
}

/// The productions pest tried, in words.
fn describe_tokens(tried: &[Token], keyword: &str, in_moves: bool) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    for token in tried {
        let Some(word) = describe(*token, keyword, in_moves) else {
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

/// A move, as expected: `a move (step, slide, …)`.
static MOVE: LazyLock<String> =
    LazyLock::new(|| format!("a move ({})", keywords::movements().collect::<Vec<_>>().join(", ")));

/// A modifier, as expected: `move-only, capture-only or capture-unprotected`.
static MODIFIER: LazyLock<String> = LazyLock::new(|| {
    let words: Vec<String> = keywords::modifiers().map(String::from).collect();
    or_list(&words)
});

/// What a production of the grammar means, in the language's words (`None` for those a user
/// never sees).
fn describe(token: Token, keyword: &str, in_moves: bool) -> Option<&'static str> {
    Some(match token {
        Token::EOI => "the end of the line",
        Token::statement | Token::rule_body | Token::rule_stmt | Token::unknown_statement | Token::file => {
            "a statement"
        }
        Token::variant_stmt => "`variant`",
        Token::use_stmt => "`use`",
        Token::board_stmt => "`board`",
        Token::option_stmt => "`option`",
        Token::piece_stmt => "`piece`",
        Token::setup_stmt | Token::setup_line => "`setup`",
        Token::string | Token::string_inner => "a quoted name",
        Token::int | Token::dimension => "a number",
        Token::signed => "a whole number",
        Token::ident if keyword == "piece" && in_moves => "a word",
        Token::ident if keyword == "piece" => "a piece attribute or `:`",
        Token::ident if keyword == "option" => "an option name",
        Token::ident => "a word",
        Token::abbr if keyword == "setup" => "a piece abbreviation or `.`",
        Token::abbr => "a piece abbreviation (such as `K`, `Ln` or `+P`)",
        Token::square => "a square (such as `7g`)",
        Token::sfen_letter => "an SFEN letter",
        Token::value => "an option value",
        Token::guard => "`when`",
        Token::attribute
        | Token::attr_sfen
        | Token::attr_kanji
        | Token::attr_value
        | Token::attr_royal
        | Token::attr_promotes
        | Token::attr_must_promote
        | Token::unknown_attribute => "a piece attribute or `:`",
        Token::moves
        | Token::clause
        | Token::movement
        | Token::unknown_movement
        | Token::step
        | Token::slide
        | Token::range
        | Token::jump
        | Token::leap
        | Token::lion
        | Token::hook
        | Token::anywhere
        | Token::as_piece => MOVE.as_str(),
        Token::modifier | Token::modifier_word | Token::modifier_count => MODIFIER.as_str(),
        Token::offset => "an offset such as `(1, 2)`",
        Token::directions | Token::direction => {
            "a direction (forward, back, left, right, orthogonal, diagonal, all, …)"
        }
        Token::side => "`black` or `white`",
        Token::row | Token::row_line => "a setup row such as `i: L N S G K G S N L`",
        Token::rank_name => "a rank letter",
        Token::cell | Token::empty | Token::empty_run | Token::bad_cell => "a piece abbreviation or `.`",
        Token::zone_trigger => "`zone`",
        Token::capture_trigger => "`capture`",
        Token::zone_event => "enter, within, leave or capture",
        Token::obligation => "optional, compulsory or compulsory-on-promoted",
        Token::flip_event => "capture or move",
        Token::drop_freedom => "either-face or anywhere",
        Token::outcome => "draw, loss or win",
        Token::repetition_effect => "draw, illegal or starter-varies",
        Token::try_reading => "unattacked or unless-taken",
        Token::perpetual_check => "`, perpetual-check loses`",
        Token::weak_bridges => "`bridge-excludes`",
        Token::defended_after_move => "`defended-after-move`",
        Token::hook_turning => "`turning` and directions",
        _ => return None,
    })
}
