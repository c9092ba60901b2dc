//! Compiling: a syntax tree to the [`Rules`].
//!
//! The compiler resolves every name (pieces, options, variants a file `use`s), lowers each
//! piece's moves into [`Movement`](crate::rules::Movement) entries, derives what the rules
//! texts leave implicit (where a piece would have no further move, and so must promote and
//! may not be dropped), and cross-checks the whole. It never stops at the first mistake:
//! every diagnostic goes into one [`Report`], and rules are produced only when there is no
//! error.
//!
//! This file owns the order of the passes, the compiler's context and the statements read
//! once (`variant`, `board`). The rest, one job a file: the checks and the report
//! ([`diagnostic`]), where findings go and which are left out (`sink`), "did you mean"
//! ([`suggest`]), finding sources ([`source`]), `use` (`uses`), options (`options`), pieces
//! (`pieces`), their moves (`movement`), the setup (`setup`), rule statements and the checks
//! across the whole variant (`rule_statements`), and koma's limits ([`limits`]).

pub mod diagnostic;
mod faces;
mod json;
pub mod limits;
mod movement;
mod options;
mod pieces;
mod rule_statements;
mod setup;
mod sink;
pub mod source;
pub mod suggest;
mod uses;

pub use diagnostic::{Check, Diagnostic, Label, Report, Severity, Source};
pub use json::FileResult;
pub use sink::MAX_DIAGNOSTICS;
pub use source::{FileLoader, LoadError, Loader, MAX_SOURCE_BYTES, MemoryLoader};

use options::Options;
use rule_statements::Stated;
use sink::{Cascade, Sink};
use uses::Uses;

use crate::parse::ast::{File, PieceDecl, Span, Spanned, Statement};
use crate::parse::{self, SyntaxError};
use crate::rules::{BoardSize, Rules};
use indexmap::IndexMap;

/// The result of a compilation: the rules when there was no error, and every diagnostic.
#[derive(Debug)]
pub struct Compiled {
    pub rules: Option<Rules>,
    pub report: Report,
}

/// An option chosen for a game: `teaching-king=2`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    pub name: String,
    pub value: String,
}

impl std::str::FromStr for Choice {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let (name, value) = text
            .split_once('=')
            .ok_or_else(|| format!("`{text}` is not NAME=VALUE"))?;
        Ok(Choice {
            name: name.trim().to_string(),
            value: value.trim().to_string(),
        })
    }
}

impl Compiled {
    /// No tables: the source `name` could not be read at all, and one error says why.
    fn unread(check: Check, name: String, message: String, help: &str) -> Compiled {
        let diagnostic = Diagnostic {
            check,
            severity: Severity::Error,
            message,
            source: Source { name, text: "".into() },
            labels: vec![],
            help: Some(help.into()),
        };
        Compiled {
            rules: None,
            report: Report {
                diagnostics: vec![diagnostic],
            },
        }
    }
}

/// Compiles the variant `name` (a path or a shipped variant's name) with files from disk.
pub fn compile_named(name: &str, choices: &[Choice]) -> Compiled {
    let loader = FileLoader;
    match loader.load(name, None) {
        Ok(source) => compile(source, &loader, choices),
        Err(error) => Compiled::unread(
            error.check(),
            name.to_string(),
            error.message().to_string(),
            error.help(),
        ),
    }
}

/// Compiles `source`, loading the files it `use`s with `loader`, for the given options.
pub fn compile(source: Source, loader: &dyn Loader, choices: &[Choice]) -> Compiled {
    if source.text.len() > source::MAX_SOURCE_BYTES {
        let message = format!(
            "{} is {} bytes; koma reads variant files of at most {} bytes",
            source.name,
            source.text.len(),
            source::MAX_SOURCE_BYTES
        );
        return Compiled::unread(Check::Limit, source.name, message, "is this a variant file?");
    }
    let mut ctx = Ctx::new(source.clone());
    let file = ctx.parse_source(0);
    ctx.anchors = Anchors::of(&file, &source.text);
    ctx.cascade.empty_file = file.statements.is_empty() && ctx.sink.is_empty();
    let imported = ctx.imports(&file, loader, &mut vec![source.name.clone()]);
    ctx.declare_options(&file, choices);
    let name = ctx.variant_name(&file);
    let board = ctx.board(&file);
    let table = ctx.piece_table(imported, &file);
    // Without a usable board the rest is still checked, on a stand-in board, so that one run
    // reports every mistake; what depends on the board's size is not reported then.
    ctx.cascade.board_known = board.is_some();
    let rules = Some(board.unwrap_or_else(|| stand_in_board(&file))).map(|board| {
        let pieces = ctx.pieces(&table, board);
        let (setup, hand) = ctx.setup(&file, &table, board);
        ctx.anchors.hand = hand.iter().map(|(_, span)| span.clone()).collect();
        let mut rules = Rules {
            name,
            options: ctx.options.iter().map(|(k, o)| (k.clone(), o.option.clone())).collect(),
            board,
            pieces,
            setup,
            hand: hand.into_iter().map(|(in_hand, _)| in_hand).collect(),
            promotion: vec![],
            deferral: false,
            drops: false,
            drop_either_face: false,
            flip: None,
            capture_unprotected_protects: false,
            moves_as_piece_behind: false,
            must_capture: false,
            end: rule_statements::default_end(),
            handicaps: vec![],
        };
        ctx.rule_statements(&file, &table, &mut rules);
        ctx.cross_check(&table, &mut rules);
        ctx.unused_options();
        if ctx.cascade.board_known {
            ctx.limits(&table, &rules);
        }
        rules
    });
    let report = ctx.sink.into_report();
    let rules = if report.has_errors() { None } else { rules };
    Compiled { rules, report }
}

/// One piece declaration and the source it came from.
#[derive(Clone)]
struct Entry {
    /// Shared: a file used many times is read once, and its pieces are not copied.
    decl: std::rc::Rc<PieceDecl>,
    source: usize,
}

/// The piece declarations in force, by abbreviation, in order of definition.
type Table = IndexMap<String, Entry>;

/// Compilation state: what has been read, what has been found, and what later checks ask.
struct Ctx {
    /// The sources read and the diagnostics found in them.
    sink: Sink,
    /// What is already reported as broken or missing, so that what follows from it is not.
    cascade: Cascade,
    /// The options declared, with the values chosen.
    options: Options,
    /// The files used so far.
    uses: Uses,
    /// Where to point a diagnostic about something missing from the main file.
    anchors: Anchors,
    /// What the rule statements say that other checks ask about.
    stated: Stated,
}

/// Places in the main file for diagnostics about what it lacks.
#[derive(Default)]
struct Anchors {
    /// The first word of the first statement (the start of the file if it has none).
    first: Span,
    /// The `setup` keyword of the first setup.
    setup: Option<Span>,
    /// The numbers of files and of ranks of the first `board` statement.
    board: Option<(Span, Span)>,
    /// Where each `piece` statement ends, in order.
    piece_ends: Vec<usize>,
    /// The cell of each piece in hand at the start, in the order of [`Rules::hand`].
    hand: Vec<Span>,
}

impl Anchors {
    fn of(file: &File, text: &str) -> Anchors {
        let word = |span: &Span| {
            let rest = text.get(span.clone()).unwrap_or("");
            let len = rest.find(|c: char| c.is_whitespace()).unwrap_or(rest.len());
            span.start..span.start + len
        };
        Anchors {
            first: file
                .statements
                .iter()
                .map(|s| word(&s.span))
                .min_by_key(|s| s.start)
                .unwrap_or(0..0),
            setup: file
                .statements
                .iter()
                .find(|s| matches!(s.node, Statement::Setup(_)))
                .map(|s| word(&s.span)),
            piece_ends: file
                .statements
                .iter()
                .filter(|s| matches!(s.node, Statement::Piece(_)))
                .map(|s| s.span.end)
                .collect(),
            hand: vec![],
            board: file.statements.iter().find_map(|s| match &s.node {
                Statement::Board { files, ranks } => Some((files.span.clone(), ranks.span.clone())),
                _ => None,
            }),
        }
    }
}

/// A board to check the rest of a file on when its `board` statement is missing or invalid:
/// as wide and as deep as the setup, 9 × 9 without one.
fn stand_in_board(file: &File) -> BoardSize {
    let max = crate::rules::MAX_BOARD_SIDE;
    let mut files = 0u32;
    let mut ranks = 0u32;
    for statement in &file.statements {
        let Statement::Setup(decl) = &statement.node else {
            continue;
        };
        for row in decl.rows.iter().filter(|r| r.rank.node != setup::HAND_ROW) {
            let width = row.cells.iter().fold(0u32, |n, c| match c.node {
                crate::parse::ast::Cell::EmptyRun(k) => n.saturating_add(k),
                _ => n.saturating_add(1),
            });
            files = files.max(width);
            ranks = ranks.max(crate::rules::rank_number(&row.rank.node).map_or(0, u32::from));
        }
    }
    let side = |n: u32| if n == 0 { 9 } else { n.clamp(3, u32::from(max)) as u8 };
    BoardSize {
        files: side(files),
        ranks: side(ranks),
    }
}

impl Ctx {
    fn new(source: Source) -> Ctx {
        Ctx {
            sink: Sink::new(source),
            cascade: Cascade::default(),
            options: Options::new(),
            uses: Uses::default(),
            anchors: Anchors::default(),
            stated: Stated::default(),
        }
    }

    fn parse_source(&mut self, index: usize) -> File {
        let text = self.sink.sources[index].text.clone();
        let (file, errors) = parse::parse(&text);
        for error in errors {
            if let Some(piece) = &error.piece {
                self.cascade.broken_pieces.push(piece.clone());
                self.cascade.pieces_incomplete = true;
            } else if error.statement.as_deref() == Some("piece") {
                self.cascade.pieces_incomplete = true;
                self.cascade.use_failed = true;
            }
            if let Some(keyword) = error.statement.as_ref().filter(|_| index == 0) {
                self.cascade.broken_statements.push(keyword.clone());
            }
            if !error.message.is_empty() {
                self.syntax_error(index, error);
            }
        }
        self.control_characters(index, &text);
        file
    }

    /// Reports each control character in a quoted name of source `index` (but a tab, and the
    /// carriage return of a line end, where a name left open ends).
    fn control_characters(&mut self, index: usize, text: &str) {
        let mut start = 0;
        for line in text.split('\n') {
            let mut quoted = false;
            for (at, c) in parse::code_of(line).char_indices() {
                if c == '"' {
                    quoted = !quoted;
                } else if quoted && c.is_control() && !matches!(c, '\t' | '\r') {
                    let span = start + at..start + at + c.len_utf8();
                    let message = format!("a quoted name holds the control character U+{:04X}", u32::from(c));
                    let help = "names are printed on terminals and written into records, where a control character \
                                would act (an escape sequence recolours or moves the cursor): remove it";
                    self.error_in(
                        Check::ControlCharacter,
                        index,
                        span,
                        message,
                        "control character",
                        Some(help.into()),
                    );
                }
            }
            start += line.len() + 1;
        }
    }

    fn syntax_error(&mut self, source: usize, error: SyntaxError) {
        let check = if error.limit { Check::Limit } else { Check::Syntax };
        self.error_in(check, source, error.span, error.message, &error.label, error.help);
    }

    fn variant_name(&mut self, file: &File) -> String {
        let names: Vec<&Spanned<String>> = file
            .statements
            .iter()
            .filter_map(|s| match &s.node {
                Statement::Variant(name) => Some(name),
                _ => None,
            })
            .collect();
        if let [first, again @ ..] = names.as_slice() {
            for again in again {
                self.report(
                    Check::DuplicateStatement,
                    0,
                    "the variant is named twice".into(),
                    Label::again("named", again.span.clone(), first.span.clone()),
                    Some("keep one `variant` statement".into()),
                );
            }
        }
        match names.first() {
            Some(name) => name.node.clone(),
            None => {
                let stem = std::path::Path::new(&self.sink.sources[0].name)
                    .file_stem()
                    .map(|s| s.to_string_lossy().to_string())
                    .unwrap_or_default();
                let labels = vec![Label {
                    span: self.anchors.first.clone(),
                    text: "no `variant` statement before this".into(),
                }];
                self.report(
                    Check::MissingName,
                    0,
                    format!("the variant has no name; calling it `{stem}`"),
                    labels,
                    Some("add a line `variant \"Name\"` at the top".into()),
                );
                stem
            }
        }
    }

    fn board(&mut self, file: &File) -> Option<BoardSize> {
        let mut board: Option<(BoardSize, Span)> = None;
        let mut valid = true;
        for statement in &file.statements {
            let Statement::Board { files, ranks } = &statement.node else {
                continue;
            };
            if let Some((_, first)) = &board {
                let labels = Label::again("stated", statement.span.clone(), first.clone());
                self.report(
                    Check::DuplicateStatement,
                    0,
                    "the board size is stated twice".into(),
                    labels,
                    Some("keep one `board` statement".into()),
                );
                continue;
            }
            let max = u32::from(crate::rules::MAX_BOARD_SIDE);
            for side in [files, ranks] {
                if !(3..=max).contains(&side.node) {
                    let which = if std::ptr::eq(side, files) { "files" } else { "ranks" };
                    let message = format!("a board of {} {which} is outside koma's limits", side.node);
                    let label = if side.node < 3 { "fewer than 3" } else { "more than 36" };
                    let help = Some(format!("koma plays boards of 3 to {max} files and 3 to {max} ranks"));
                    self.error(Check::BoardSize, side.span.clone(), message, label, help);
                    valid = false;
                }
            }
            let size = BoardSize {
                files: files.node.min(max) as u8,
                ranks: ranks.node.min(max) as u8,
            };
            board = Some((size, statement.span.clone()));
        }
        match board {
            Some((size, _)) if valid => Some(size),
            Some(_) => None,
            None if self.cascade.empty_file => {
                let labels = vec![Label {
                    span: self.anchors.first.clone(),
                    text: "nothing but blank lines and comments".into(),
                }];
                let help = "a variant needs at least a `board`, its pieces and a `setup`; see the language \
                            reference, docs/language.md";
                self.report(
                    Check::MissingBoard,
                    0,
                    "the file holds no statement".into(),
                    labels,
                    Some(help.into()),
                );
                None
            }
            None => {
                let labels = vec![Label {
                    span: self.anchors.first.clone(),
                    text: "no `board` statement in this file".into(),
                }];
                self.report(
                    Check::MissingBoard,
                    0,
                    "the variant has no board".into(),
                    labels,
                    Some("add a line such as `board 9 x 9` (files x ranks) near the top".into()),
                );
                None
            }
        }
    }
}
