//! Parsing: `.var` text to a syntax tree with byte spans ([`ast`]).
//!
//! The grammar is `grammar/variant.pest`. A syntax error does not stop the parse: the line
//! it is on is set aside and the rest of the file is parsed again, so that one run reports
//! every broken line. Errors are phrased in the language's words, never in grammar-rule names.

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
const MAX_SYNTAX_ERRORS: usize = 50;

/// Upper bound on pest's internal call count, so that no input can make parsing run away.
const CALL_LIMIT: usize = 50_000_000;

/// A line that does not follow the grammar.
#[derive(Debug, Clone, PartialEq)]
pub struct SyntaxError {
    pub span: Span,
    /// What was found there, in words.
    pub found: String,
    /// What the language allows there, in words.
    pub expected: Vec<String>,
}

/// Parses a whole file, returning the statements of every line that parsed and an error
/// for every line that did not.
pub fn parse(text: &str) -> (File, Vec<SyntaxError>) {
    pest::set_call_limit(std::num::NonZeroUsize::new(CALL_LIMIT));
    let mut work = text.to_string();
    let mut errors = Vec::new();
    loop {
        match VarParser::parse(Rule::file, &work) {
            Ok(mut pairs) => {
                let file = pairs.next().map(build_file).unwrap_or_default();
                return (file, errors);
            }
            Err(error) => {
                let error = syntax_error(&work, error);
                let blanked = blank_statement(&mut work, error.span.start);
                errors.push(error);
                if !blanked || errors.len() >= MAX_SYNTAX_ERRORS {
                    return (File::default(), errors);
                }
            }
        }
    }
}

/// Replaces the statement around `at` with spaces (keeping line breaks and byte offsets), so
/// that parsing can go on after it. Returns false when there is nothing left to blank.
fn blank_statement(work: &mut String, at: usize) -> bool {
    let at = at.min(work.len());
    let bytes = work.as_bytes();
    let mut start = bytes[..at].iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    // A statement continues over lines that end with `,`: go back to its first line.
    while start > 0 {
        let prev_start = bytes[..start - 1]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        let prev = &work[prev_start..start - 1];
        let code = prev.split('#').next().unwrap_or("").trim_end();
        if code.ends_with(',') {
            start = prev_start;
        } else {
            break;
        }
    }
    let end = bytes[at..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(work.len(), |i| at + i);
    if work[start..end].trim().is_empty() {
        return false;
    }
    let blank: String = work[start..end]
        .chars()
        .map(|c| if c == '\n' { '\n' } else { ' ' })
        .collect();
    // Multi-byte characters become several spaces so that offsets stay the same.
    let blank: String = blank
        .chars()
        .zip(work[start..end].chars())
        .map(|(b, c)| {
            if b == '\n' {
                "\n".to_string()
            } else {
                " ".repeat(c.len_utf8())
            }
        })
        .collect();
    work.replace_range(start..end, &blank);
    true
}

fn syntax_error(text: &str, error: pest::error::Error<Rule>) -> SyntaxError {
    let at = match error.location {
        pest::error::InputLocation::Pos(p) => p,
        pest::error::InputLocation::Span((s, _)) => s,
    };
    let expected = match &error.variant {
        pest::error::ErrorVariant::ParsingError { positives, .. } => {
            let mut words: Vec<String> = positives
                .iter()
                .filter_map(|r| describe(*r))
                .map(str::to_string)
                .collect();
            words.sort();
            words.dedup();
            words
        }
        pest::error::ErrorVariant::CustomError { message } => vec![message.clone()],
    };
    let (found, span) = found_at(text, at);
    SyntaxError { span, found, expected }
}

/// The word (or character) at `at`, described, and its span.
fn found_at(text: &str, at: usize) -> (String, Span) {
    let rest = &text[at.min(text.len())..];
    match rest.chars().next() {
        None => ("the end of the file".to_string(), at..at),
        Some('\n') | Some('\r') => ("the end of the line".to_string(), at..at + 1),
        Some(c) if c.is_alphanumeric() || c == '+' || c == '-' || c == '_' => {
            let len = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '+' || c == '-' || c == '_'))
                .unwrap_or(rest.len());
            (format!("`{}`", &rest[..len]), at..at + len)
        }
        Some(c) if c.is_control() => (
            format!("the control character U+{:04X}", u32::from(c)),
            at..at + c.len_utf8(),
        ),
        Some(c) => (format!("`{c}`"), at..at + c.len_utf8()),
    }
}

/// What a grammar rule means, in the language's words (`None` for rules a user never sees).
fn describe(rule: Rule) -> Option<&'static str> {
    Some(match rule {
        Rule::EOI => "the end of the file",
        Rule::statement | Rule::rule_body | Rule::rule_stmt | Rule::unknown_statement => "a statement",
        Rule::variant_stmt => "`variant`",
        Rule::use_stmt => "`use`",
        Rule::board_stmt => "`board`",
        Rule::option_stmt => "`option`",
        Rule::piece_stmt => "`piece`",
        Rule::setup_stmt => "`setup`",
        Rule::string | Rule::string_inner => "a quoted name",
        Rule::int | Rule::dimension => "a number",
        Rule::signed => "a whole number",
        Rule::ident => "a word",
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
        | Rule::unknown_attribute => "a piece attribute (sfen, kanji, value, royal, promotes, must-promote)",
        Rule::moves | Rule::clause | Rule::movement | Rule::unknown_movement => {
            "a move (step, slide, range, jump, leap, lion, hook, anywhere, as)"
        }
        Rule::step
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
        Rule::row => "a setup row such as `i: L N S G K G S N L`",
        Rule::rank_name => "a rank letter",
        Rule::cell | Rule::empty | Rule::empty_run | Rule::bad_cell => "a piece abbreviation or `.`",
        Rule::zone_trigger => "`zone`",
        Rule::capture_trigger => "`capture`",
        Rule::zone_event => "enter, within or leave",
        Rule::obligation => "optional or compulsory",
        Rule::outcome => "draw, loss or win",
        Rule::repetition_effect => "draw, illegal or starter-varies",
        Rule::perpetual_check => "`, perpetual-check loses`",
        _ => return None,
    })
}

// ---------------------------------------------------------------- building the tree

/// Keyword tokens carry nothing the tree needs.
fn not_keyword(pair: &Pair<Rule>) -> bool {
    pair.as_rule() != Rule::kw
}

fn span_of(pair: &Pair<Rule>) -> Span {
    let s = pair.as_span();
    s.start()..s.end()
}

fn spanned_str(pair: &Pair<Rule>) -> Spanned<String> {
    Spanned::new(pair.as_str().to_string(), span_of(pair))
}

/// A number, saturating: an enormous number is kept as `u32::MAX` for the compiler to reject.
fn number(pair: &Pair<Rule>) -> Spanned<u32> {
    let value = pair.as_str().trim().parse::<u32>().unwrap_or(u32::MAX);
    Spanned::new(value, span_of(pair))
}

fn string_value(pair: Pair<Rule>) -> Spanned<String> {
    let span = span_of(&pair);
    let inner = pair
        .into_inner()
        .filter(not_keyword)
        .next()
        .map(|p| p.as_str().to_string())
        .unwrap_or_default();
    Spanned::new(inner, span)
}

fn build_file(pair: Pair<Rule>) -> File {
    let statements = pair
        .into_inner()
        .filter(not_keyword)
        .filter(|p| p.as_rule() != Rule::EOI)
        .map(|p| {
            let span = span_of(&p);
            Spanned::new(build_statement(p), span)
        })
        .collect();
    File { statements }
}

fn build_statement(pair: Pair<Rule>) -> Statement {
    match pair.as_rule() {
        Rule::variant_stmt => Statement::Variant(string_value(
            pair.into_inner().filter(not_keyword).next().expect("grammar: name"),
        )),
        Rule::use_stmt => {
            let mut inner = pair.into_inner().filter(not_keyword);
            let source = string_value(inner.next().expect("grammar: source"));
            let pieces = inner.map(|p| spanned_str(&p)).collect();
            Statement::Use { source, pieces }
        }
        Rule::board_stmt => {
            let mut inner = pair.into_inner().filter(not_keyword);
            let files = number(&inner.next().expect("grammar: files"));
            let ranks = number(&inner.next().expect("grammar: ranks"));
            Statement::Board { files, ranks }
        }
        Rule::option_stmt => Statement::Option(build_option(pair)),
        Rule::piece_stmt => Statement::Piece(build_piece(pair)),
        Rule::setup_stmt => Statement::Setup(build_setup(pair)),
        Rule::rule_stmt => {
            let mut inner = pair.into_inner().filter(not_keyword);
            let body = inner.next().expect("grammar: rule body");
            let span = span_of(&body);
            let rule = Spanned::new(build_rule(body), span);
            let guard = inner.next().map(build_guard);
            Statement::Rule { rule, guard }
        }
        other => unreachable!("grammar: unexpected statement {other:?}"),
    }
}

fn build_option(pair: Pair<Rule>) -> OptionDecl {
    let mut name = None;
    let mut description = None;
    let mut values = Vec::new();
    for p in pair.into_inner().filter(not_keyword) {
        match p.as_rule() {
            Rule::ident => name = Some(spanned_str(&p)),
            Rule::string => description = Some(string_value(p).node),
            _ => values.push(spanned_str(&p)),
        }
    }
    OptionDecl {
        name: name.expect("grammar: option name"),
        description,
        values,
    }
}

fn build_guard(pair: Pair<Rule>) -> Guard {
    let span = span_of(&pair);
    let mut inner = pair.into_inner().filter(not_keyword);
    let option = spanned_str(&inner.next().expect("grammar: guard option"));
    let values = inner.map(|p| spanned_str(&p)).collect();
    Guard { option, values, span }
}

fn build_piece(pair: Pair<Rule>) -> PieceDecl {
    let mut inner = pair.into_inner().filter(not_keyword);
    let abbrev = spanned_str(&inner.next().expect("grammar: abbreviation"));
    let name = string_value(inner.next().expect("grammar: name"));
    let mut attributes = Vec::new();
    let mut clauses = Vec::new();
    let mut moves_span = 0..0;
    for p in inner {
        let span = span_of(&p);
        match p.as_rule() {
            Rule::moves => {
                moves_span = span;
                clauses = p.into_inner().filter(not_keyword).map(build_clause).collect();
            }
            _ => attributes.push(Spanned::new(build_attribute(p), span)),
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

fn build_attribute(pair: Pair<Rule>) -> Attribute {
    let rule = pair.as_rule();
    let text = pair.as_str().to_string();
    let arg = pair.into_inner().filter(not_keyword).next();
    match rule {
        Rule::attr_sfen => Attribute::Sfen(arg.expect("grammar: letter").as_str().to_string()),
        Rule::attr_kanji => Attribute::Kanji(string_value(arg.expect("grammar: kanji")).node),
        Rule::attr_value => Attribute::Value(number(&arg.expect("grammar: value")).node),
        Rule::attr_royal => Attribute::Royal,
        Rule::attr_promotes => Attribute::Promotes(spanned_str(&arg.expect("grammar: target"))),
        Rule::attr_must_promote => Attribute::MustPromote(number(&arg.expect("grammar: ranks"))),
        _ => Attribute::Unknown(text.split_whitespace().next().unwrap_or_default().to_string()),
    }
}

fn build_clause(pair: Pair<Rule>) -> Clause {
    let span = span_of(&pair);
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
                modifiers.push(Spanned::new(m, span_of(&p)));
            }
            Rule::guard => guard = Some(build_guard(p)),
            _ => {
                let span = span_of(&p);
                movement = Some(Spanned::new(build_movement(p), span));
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

fn directions(pair: Option<Pair<Rule>>) -> Vec<Spanned<String>> {
    pair.map(|p| p.into_inner().filter(not_keyword).map(|d| spanned_str(&d)).collect())
        .unwrap_or_default()
}

fn build_movement(pair: Pair<Rule>) -> MovementSyntax {
    let rule = pair.as_rule();
    let text = pair.as_str().to_string();
    let mut inner = pair.into_inner().filter(not_keyword).peekable();
    match rule {
        Rule::step => MovementSyntax::Step(directions(inner.next())),
        Rule::slide => MovementSyntax::Slide(directions(inner.next())),
        Rule::hook => MovementSyntax::Hook(directions(inner.next())),
        Rule::range => {
            let n = number(&inner.next().expect("grammar: range"));
            MovementSyntax::Range(n, directions(inner.next()))
        }
        Rule::jump => {
            let n = number(&inner.next().expect("grammar: distance"));
            MovementSyntax::Jump(n, directions(inner.next()))
        }
        Rule::lion => {
            let steps = inner.next_if(|p| p.as_rule() == Rule::int).map(|p| number(&p));
            MovementSyntax::Lion(steps, directions(inner.next()))
        }
        Rule::leap => MovementSyntax::Leap(inner.map(build_offset).collect()),
        Rule::anywhere => MovementSyntax::Anywhere,
        Rule::as_piece => MovementSyntax::As(spanned_str(&inner.next().expect("grammar: piece"))),
        _ => MovementSyntax::Unknown(text.split_whitespace().next().unwrap_or_default().to_string()),
    }
}

fn build_offset(pair: Pair<Rule>) -> Spanned<(i64, i64)> {
    let span = span_of(&pair);
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

fn build_setup(pair: Pair<Rule>) -> SetupDecl {
    let mut side = None;
    let mut rows = Vec::new();
    for p in pair.into_inner().filter(not_keyword) {
        match p.as_rule() {
            Rule::side => side = Some(spanned_str(&p)),
            _ => rows.push(build_row(p)),
        }
    }
    SetupDecl { side, rows }
}

fn build_row(pair: Pair<Rule>) -> Row {
    let mut inner = pair.into_inner().filter(not_keyword);
    let rank = spanned_str(&inner.next().expect("grammar: rank"));
    let cells = inner
        .map(|p| {
            let span = span_of(&p);
            let cell = match p.as_rule() {
                Rule::empty => Cell::Empty,
                Rule::empty_run => Cell::EmptyRun(number(&p).node),
                Rule::abbr => Cell::Piece(p.as_str().to_string()),
                _ => Cell::Bad(p.as_str().to_string()),
            };
            Spanned::new(cell, span)
        })
        .collect();
    Row { rank, cells }
}

fn build_rule(pair: Pair<Rule>) -> Rule_ {
    let rule = pair.as_rule();
    let span = span_of(&pair);
    let first_word = Spanned::new(
        pair.as_str().split_whitespace().next().unwrap_or_default().to_string(),
        span.start..span.start + pair.as_str().split_whitespace().next().map_or(0, str::len),
    );
    let inner: Vec<Pair<Rule>> = pair.into_inner().filter(not_keyword).collect();
    let strs = |ps: &[Pair<Rule>]| ps.iter().map(spanned_str).collect::<Vec<_>>();
    match rule {
        Rule::promotion_rule => {
            let trigger_pair = &inner[0];
            let trigger = match trigger_pair.as_rule() {
                Rule::zone_trigger => {
                    let parts: Vec<Pair<Rule>> = trigger_pair.clone().into_inner().filter(not_keyword).collect();
                    PromotionSyntax::Zone {
                        depth: number(&parts[0]),
                        events: strs(&parts[1..]),
                    }
                }
                _ => PromotionSyntax::Capture,
            };
            let obligation = inner.get(1).map(spanned_str);
            Rule_::Promotion { trigger, obligation }
        }
        Rule::deferral_rule => Rule_::Deferral,
        Rule::declined_rule => Rule_::DeclinedWaitsForLastRank(strs(&inner)),
        Rule::drops_rule => Rule_::Drops,
        Rule::drop_limit_rule => Rule_::DropLimit {
            piece: spanned_str(&inner[0]),
            count: number(&inner[1]),
        },
        Rule::no_drop_mate_rule => Rule_::NoDropMate(strs(&inner)),
        Rule::stalemate_rule => Rule_::Stalemate(spanned_str(&inner[0])),
        Rule::bare_king_rule => Rule_::BareKing,
        Rule::repetition_rule => Rule_::Repetition {
            count: number(&inner[0]),
            effect: spanned_str(&inner[1]),
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
                    .map(|b| spanned_str(&b))
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
        Rule::handicap_rule => Rule_::Handicap {
            name: string_value(inner[0].clone()),
            squares: strs(&inner[1..]),
        },
        _ => Rule_::Unknown(first_word),
    }
}

type Rule_ = ast::RuleSyntax;
