//! Compiling: a syntax tree to the [`Rules`].
//!
//! The compiler resolves every name (pieces, options, variants a file `use`s), lowers each
//! piece's moves into [`Movement`](crate::rules::Movement) entries, derives what the rules
//! texts leave implicit (where a piece would have no further move, and so must promote and
//! may not be dropped), and cross-checks the whole. It never stops at the first mistake:
//! every diagnostic goes into one [`Report`], and rules are produced only when there is no
//! error.

pub mod diagnostic;
pub mod limits;
mod movement;
mod pieces;
mod rule_statements;
mod setup;
pub mod source;

pub use diagnostic::{Check, Diagnostic, Label, Report, Severity, Source};
pub use source::{FileLoader, LoadError, Loader, MemoryLoader};

use crate::parse::ast::{File, Guard, PieceDecl, Span, Spanned, Statement};
use crate::parse::{self, SyntaxError};
use crate::rules::{BoardSize, GameOption, Rules};
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

/// Compiles the variant `name` (a path or a shipped variant's name) with files from disk.
pub fn compile_named(name: &str, choices: &[Choice]) -> Compiled {
    let loader = FileLoader;
    match loader.load(name, None) {
        Ok(source) => compile(source, &loader, choices),
        Err(error) => Compiled {
            rules: None,
            report: Report {
                diagnostics: vec![Diagnostic {
                    check: error.check(),
                    severity: Severity::Error,
                    message: error.message().to_string(),
                    source: Source {
                        name: name.to_string(),
                        text: "".into(),
                    },
                    labels: vec![],
                    help: Some(error.help().into()),
                }],
            },
        },
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
        let diagnostic = Diagnostic {
            check: Check::Limit,
            severity: Severity::Error,
            message,
            source: Source {
                name: source.name,
                text: "".into(),
            },
            labels: vec![],
            help: Some("is this a variant file?".into()),
        };
        return Compiled {
            rules: None,
            report: Report {
                diagnostics: vec![diagnostic],
            },
        };
    }
    let mut ctx = Ctx::new(source.clone());
    let file = ctx.parse_source(0);
    ctx.anchors = Anchors::of(&file, &source.text);
    ctx.empty_file = file.statements.is_empty() && ctx.diagnostics.is_empty();
    let imported = ctx.imports(&file, loader, &mut vec![source.name.clone()]);
    ctx.declare_options(&file, choices);
    let name = ctx.variant_name(&file);
    let board = ctx.board(&file);
    let table = ctx.piece_table(imported, &file);
    // Without a usable board the rest is still checked, on a stand-in board, so that one run
    // reports every mistake; what depends on the board's size is not reported then.
    ctx.board_known = board.is_some();
    let rules = Some(board.unwrap_or_else(|| stand_in_board(&file))).map(|board| {
        let pieces = ctx.pieces(&table, board);
        let setup = ctx.setup(&file, &table, board);
        let mut rules = Rules {
            name,
            options: ctx.options.iter().map(|(k, o)| (k.clone(), o.option.clone())).collect(),
            board,
            pieces,
            setup,
            promotion: vec![],
            deferral: false,
            drops: false,
            capture_unprotected_protects: false,
            end: rule_statements::default_end(),
            handicaps: vec![],
        };
        ctx.rule_statements(&file, &table, &mut rules);
        ctx.cross_check(&table, &mut rules);
        ctx.unused_options();
        if ctx.board_known {
            ctx.limits(&table, &rules);
        }
        rules
    });
    // In reading order: file by file (in the order first reported), then by place in the file;
    // what has no place comes first (the options of the command line), but a limit last.
    let mut diagnostics = ctx.diagnostics;
    let mut files: Vec<String> = Vec::new();
    for d in &diagnostics {
        if !files.contains(&d.source.name) {
            files.push(d.source.name.clone());
        }
    }
    diagnostics.sort_by_key(|d| {
        let file = files.iter().position(|f| *f == d.source.name);
        (d.check == Check::Limit, file, d.span().map_or(0, |s| s.start))
    });
    let report = Report { diagnostics };
    let rules = if report.has_errors() { None } else { rules };
    Compiled { rules, report }
}

/// The longest chain of files that `use` one another.
const MAX_USE_DEPTH: usize = 16;

/// Most errors, and most warnings, reported for one compilation; past this the rest are not
/// shown.
pub const MAX_DIAGNOSTICS: usize = 200;

/// What identifies a source, to find a `use` that comes back to it: the file itself when the
/// name is a path on disk (however it is spelt), else the name.
fn identity(name: &str) -> String {
    std::fs::canonicalize(name).map_or_else(|_| name.to_string(), |p| p.display().to_string())
}

/// An option as declared, with the value in force.
struct OptionState {
    option: GameOption,
    span: Span,
    /// Some `when` names it.
    used: bool,
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

/// Compilation state: the sources read and the diagnostics found so far.
struct Ctx {
    sources: Vec<Source>,
    diagnostics: Vec<Diagnostic>,
    options: IndexMap<String, OptionState>,
    /// `stuck-pieces-stay` is in force: no warning for pieces that can get stuck.
    stuck_pieces_stay: bool,
    /// The abbreviations of pieces whose statements could not be read (or that a `use` that
    /// failed would have brought in): already reported, so not reported again as unknown.
    broken_pieces: Vec<String>,
    /// The keywords of the main file's statements that could not be read.
    broken_statements: Vec<String>,
    /// Some pieces may be missing: a `piece` statement could not be read or a `use` failed.
    pieces_incomplete: bool,
    /// A piece may be missing whose abbreviation is not known (a `use` failed, or a `piece`
    /// statement broke before its abbreviation): no piece is reported unknown then.
    use_failed: bool,
    /// The board's size is known (a valid `board` statement); otherwise a stand-in is used
    /// and nothing that depends on the size is reported.
    board_known: bool,
    /// A `promotion zone` is stated somewhere in the file (whatever its order or guard).
    zone_stated: bool,
    /// Where to point a diagnostic about something missing from the main file.
    anchors: Anchors,
    /// The main file holds no statement and no broken one: one report says so.
    empty_file: bool,
    /// The names of the handicaps defined so far.
    handicap_names: std::collections::HashSet<String>,
    /// Errors and warnings recorded so far (each up to [`MAX_DIAGNOSTICS`]).
    shown: [usize; 2],
    /// Where the diagnostic saying that some were left out is, once there is one.
    overflow: Option<usize>,
    /// The pieces of each file used so far (with what it uses), by the file's identity.
    used_files: std::collections::HashMap<String, std::rc::Rc<Table>>,
    /// For a source and the name a `use` in it gives, the identity of the file found.
    use_names: std::collections::HashMap<(usize, String), String>,
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
        for row in &decl.rows {
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

/// Checks whose findings depend on the board's size, not reported on a stand-in board.
const NEEDS_BOARD: &[Check] = &[
    Check::SquareOffBoard,
    Check::ShortRow,
    Check::SquareTaken,
    Check::ZoneTooDeep,
    Check::ZonesOverlap,
    Check::NoMove,
    Check::StuckPiece,
    Check::BadDistance,
];

impl Ctx {
    fn new(source: Source) -> Ctx {
        Ctx {
            sources: vec![source],
            diagnostics: vec![],
            options: IndexMap::new(),
            stuck_pieces_stay: false,
            broken_pieces: vec![],
            broken_statements: vec![],
            pieces_incomplete: false,
            use_failed: false,
            board_known: true,
            zone_stated: false,
            anchors: Anchors::default(),
            empty_file: false,
            handicap_names: std::collections::HashSet::new(),
            shown: [0; 2],
            overflow: None,
            used_files: std::collections::HashMap::new(),
            use_names: std::collections::HashMap::new(),
        }
    }

    /// Records a diagnostic over source `source`.
    fn report(&mut self, check: Check, source: usize, message: String, labels: Vec<Label>, help: Option<String>) {
        let severity = match check {
            Check::UnusedPiece | Check::StuckPiece | Check::ZonesOverlap | Check::MissingName | Check::UnusedOption => {
                Severity::Warning
            }
            _ => Severity::Error,
        };
        if self.is_cascade(check, source, &labels) {
            return;
        }
        // Errors and warnings are counted apart, so that many warnings never hide an error;
        // past the limit one diagnostic says so, an error when an error was left out.
        let slot = usize::from(severity == Severity::Warning);
        if self.shown[slot] >= MAX_DIAGNOSTICS {
            match self.overflow {
                Some(at) => {
                    if severity == Severity::Error {
                        self.diagnostics[at].severity = Severity::Error;
                    }
                }
                None => {
                    self.overflow = Some(self.diagnostics.len());
                    let main = self.sources[0].clone();
                    self.diagnostics.push(Diagnostic {
                        check: Check::Limit,
                        severity,
                        message: format!("more than {MAX_DIAGNOSTICS} problems; the rest are not shown"),
                        source: main,
                        labels: vec![],
                        help: Some("fix these first, then check again".into()),
                    });
                }
            }
            return;
        }
        self.shown[slot] += 1;
        let source = self.sources[source].clone();
        self.diagnostics.push(Diagnostic {
            check,
            severity,
            message,
            source,
            labels,
            help,
        });
    }

    /// Whether a finding only follows from a mistake already reported (a piece whose line
    /// could not be read is "unknown" wherever it is used; with a piece missing, no piece may
    /// be royal), and so would only bury the real mistake.
    fn is_cascade(&self, check: Check, source: usize, labels: &[Label]) -> bool {
        let reported = |checks: &[Check]| self.diagnostics.iter().any(|d| checks.contains(&d.check));
        let statement_broken = |keyword: &str| self.broken_statements.iter().any(|k| k == keyword);
        if !self.board_known && NEEDS_BOARD.contains(&check) {
            return true;
        }
        if self.empty_file && matches!(check, Check::MissingName | Check::MissingSetup | Check::NoRoyal) {
            return true;
        }
        match check {
            Check::UnknownPiece if self.use_failed => true,
            Check::UnknownPiece => labels.first().is_some_and(|label| {
                let text = self.sources[source].text.get(label.span.clone()).unwrap_or("");
                self.broken_pieces.iter().any(|b| b.eq_ignore_ascii_case(text))
            }),
            Check::NoRoyal => {
                self.pieces_incomplete
                    || statement_broken("setup")
                    || reported(&[Check::UnknownAttribute, Check::UnknownPiece, Check::SquareOffBoard])
            }
            // A `when` may be in a statement that could not be read, or name it misspelt.
            Check::UnusedOption => {
                !self.broken_statements.is_empty()
                    || self.pieces_incomplete
                    || self.use_failed
                    || reported(&[Check::UnknownOption, Check::DuplicateOption])
            }
            Check::UnusedPiece => {
                self.pieces_incomplete
                    || statement_broken("setup")
                    || reported(&[
                        Check::UnknownPiece,
                        Check::MissingSetup,
                        Check::SquareOffBoard,
                        Check::SquareTaken,
                        Check::DuplicateAbbreviation,
                        Check::PromotionCycle,
                    ])
            }
            Check::StuckPiece => self.diagnostics.iter().any(|d| d.severity == Severity::Error),
            // A setup whose every piece is unknown (or came from a `use` that failed), or off
            // the board.
            Check::MissingSetup => {
                statement_broken("setup")
                    || (self.anchors.setup.is_some()
                        && (self.use_failed || reported(&[Check::UnknownPiece, Check::SquareOffBoard])))
            }
            Check::MissingBoard => statement_broken("board"),
            Check::MissingName => statement_broken("variant"),
            _ => false,
        }
    }

    /// How many errors have been reported so far.
    fn error_count(&self) -> usize {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count()
    }

    /// Records a diagnostic with one label in the main file.
    fn error(&mut self, check: Check, span: Span, message: String, label: &str, help: Option<String>) {
        self.error_in(check, 0, span, message, label, help);
    }

    fn error_in(
        &mut self,
        check: Check,
        source: usize,
        span: Span,
        message: String,
        label: &str,
        help: Option<String>,
    ) {
        self.report(
            check,
            source,
            message,
            vec![Label {
                span,
                text: label.to_string(),
            }],
            help,
        );
    }

    fn parse_source(&mut self, index: usize) -> File {
        let text = self.sources[index].text.clone();
        let (file, errors) = parse::parse(&text);
        for error in errors {
            if let Some(piece) = &error.piece {
                self.broken_pieces.push(piece.clone());
                self.pieces_incomplete = true;
            } else if error.statement.as_deref() == Some("piece") {
                self.pieces_incomplete = true;
                self.use_failed = true;
            }
            if let Some(keyword) = error.statement.as_ref().filter(|_| index == 0) {
                self.broken_statements.push(keyword.clone());
            }
            if !error.message.is_empty() {
                self.syntax_error(index, error);
            }
        }
        file
    }

    fn syntax_error(&mut self, source: usize, error: SyntaxError) {
        let check = if error.limit { Check::Limit } else { Check::Syntax };
        self.error_in(check, source, error.span, error.message, &error.label, error.help);
    }

    /// Reads the files named by `use` statements and returns their piece declarations.
    fn imports(&mut self, file: &File, loader: &dyn Loader, stack: &mut Vec<String>) -> Vec<Entry> {
        let mut entries = Vec::new();
        let current = self.sources.len() - 1;
        for statement in &file.statements {
            let Statement::Use { source, pieces } = &statement.node else {
                continue;
            };
            // The same `use` again in this file: the file is not looked for again.
            let key = (current, source.node.clone());
            if let Some(table) = self.use_names.get(&key).and_then(|id| self.used_files.get(id)).cloned() {
                entries.extend(self.select(&table, pieces, current));
                continue;
            }
            let from = self.sources[current].clone();
            let loaded = match loader.load(&source.node, Some(&from)) {
                Ok(loaded) => loaded,
                Err(error) => {
                    let help = match error {
                        source::LoadError::NotFound(_) => {
                            diagnostic::suggest(&source.node, source::SHIPPED.iter().map(|(n, _)| *n))
                                .map(|s| format!("did you mean `{s}`?"))
                                .unwrap_or_else(|| {
                                    "give a path to a .var file (relative to this one), or a shipped variant's name"
                                        .into()
                                })
                        }
                        _ => error.help().to_string(),
                    };
                    // Its pieces are missing: what refers to them is not reported again.
                    self.use_failed = true;
                    self.pieces_incomplete = true;
                    self.error_in(
                        error.check(),
                        current,
                        source.span.clone(),
                        error.message().to_string(),
                        error.label(),
                        Some(help),
                    );
                    continue;
                }
            };
            let loaded_identity = identity(&loaded.name);
            self.use_names.insert(key, loaded_identity.clone());
            if let Some(from) = stack.iter().position(|s| identity(s) == loaded_identity) {
                let mut chain: Vec<&str> = stack[from..].iter().map(String::as_str).collect();
                chain.push(&loaded.name);
                let message = if chain.len() == 2 && current == 0 {
                    format!("`{}` uses itself", loaded.name)
                } else {
                    format!("`use` goes round in a circle: {}", chain.join(" → "))
                };
                self.error_in(
                    Check::RecursiveUse,
                    current,
                    source.span.clone(),
                    message,
                    &format!("uses `{}` again", loaded.name),
                    Some("a variant builds on others only when the chain of `use` ends: remove this `use`".into()),
                );
                continue;
            }
            if stack.len() > MAX_USE_DEPTH {
                let message = format!("`use` goes more than {MAX_USE_DEPTH} files deep");
                let help = Some("koma follows a chain of `use` only so far; shorten it".to_string());
                self.error_in(
                    Check::Limit,
                    current,
                    source.span.clone(),
                    message,
                    "one file too many",
                    help,
                );
                continue;
            }
            // A file used again is not read again: its pieces are as they were.
            if let Some(table) = self.used_files.get(&loaded_identity).cloned() {
                entries.extend(self.select(&table, pieces, current));
                continue;
            }
            stack.push(loaded.name.clone());
            self.sources.push(loaded);
            let index = self.sources.len() - 1;
            let used = self.parse_source(index);
            let mut table: Table = IndexMap::new();
            for entry in self.imports(&used, loader, stack) {
                table.insert(entry.decl.abbrev.node.clone(), entry);
            }
            for decl in used.statements.iter().filter_map(|s| match &s.node {
                Statement::Piece(decl) => Some(decl),
                _ => None,
            }) {
                table.insert(
                    decl.abbrev.node.clone(),
                    Entry {
                        decl: std::rc::Rc::new(decl.clone()),
                        source: index,
                    },
                );
            }
            stack.pop();
            let table = std::rc::Rc::new(table);
            self.used_files.insert(loaded_identity, table.clone());
            entries.extend(self.select(&table, pieces, current));
        }
        entries
    }

    /// The pieces picked by `use "x": A, B` and every piece they refer to; all when none is named.
    fn select(&mut self, table: &Table, picked: &[Spanned<String>], source: usize) -> Vec<Entry> {
        if picked.is_empty() {
            return table.values().cloned().collect();
        }
        let mut wanted: std::collections::HashSet<String> = std::collections::HashSet::new();
        let mut queue: Vec<String> = Vec::new();
        for abbrev in picked {
            if table.contains_key(&abbrev.node) {
                queue.push(abbrev.node.clone());
            } else {
                let help = match pieces::meant_pieces(table, &abbrev.node) {
                    pieces::Meant::Abbreviations(meant) => Some(pieces::did_you_mean(&meant)),
                    _ => None,
                };
                self.error_in(
                    Check::UnknownPiece,
                    source,
                    abbrev.span.clone(),
                    format!("the used variant has no piece `{}`", abbrev.node),
                    "not defined there",
                    help,
                );
            }
        }
        while let Some(abbrev) = queue.pop() {
            if wanted.contains(&abbrev) {
                continue;
            }
            if let Some(entry) = table.get(&abbrev) {
                queue.extend(pieces::references(&entry.decl));
            }
            wanted.insert(abbrev);
        }
        table
            .iter()
            .filter(|(k, _)| wanted.contains(*k))
            .map(|(_, v)| v.clone())
            .collect()
    }

    fn declare_options(&mut self, file: &File, choices: &[Choice]) {
        for statement in &file.statements {
            let Statement::Option(decl) = &statement.node else {
                continue;
            };
            if let Some(previous) = self.options.get(&decl.name.node) {
                let labels = vec![
                    Label {
                        span: decl.name.span.clone(),
                        text: "declared again here".into(),
                    },
                    Label {
                        span: previous.span.clone(),
                        text: "first declared here".into(),
                    },
                ];
                self.report(
                    Check::DuplicateOption,
                    0,
                    format!("option `{}` is declared twice", decl.name.node),
                    labels,
                    Some("declare an option once, with all its values: `option NAME = A | B`".into()),
                );
                continue;
            }
            let mut values: Vec<String> = Vec::new();
            for value in &decl.values {
                if values.contains(&value.node) {
                    self.error(
                        Check::DuplicateOption,
                        value.span.clone(),
                        format!("option `{}` lists `{}` twice", decl.name.node, value.node),
                        "listed again",
                        Some("list each value once".into()),
                    );
                } else {
                    values.push(value.node.clone());
                }
            }
            let chosen = values[0].clone();
            let option = GameOption {
                description: decl.description.clone(),
                values,
                chosen,
            };
            self.options.insert(
                decl.name.node.clone(),
                OptionState {
                    option,
                    span: decl.name.span.clone(),
                    used: false,
                },
            );
        }
        for choice in choices {
            let Some(state) = self.options.get_mut(&choice.name) else {
                let known: Vec<&str> = self.options.keys().map(String::as_str).collect();
                let help = match diagnostic::suggest(&choice.name, known.iter().copied()) {
                    Some(s) => format!("did you mean `{s}`?"),
                    None if known.is_empty() => "this variant has no options".to_string(),
                    None => format!("its options are: {}", known.join(", ")),
                };
                self.report(
                    Check::UnknownOption,
                    0,
                    format!(
                        "--option {}={}: this variant has no option `{}`",
                        choice.name, choice.value, choice.name
                    ),
                    vec![],
                    Some(help),
                );
                continue;
            };
            if state.option.values.contains(&choice.value) {
                state.option.chosen = choice.value.clone();
            } else {
                let help = format!("`{}` is one of: {}", choice.name, state.option.values.join(", "));
                let span = state.span.clone();
                let message = format!(
                    "--option {}={}: option `{}` has no value `{}`",
                    choice.name, choice.value, choice.name, choice.value
                );
                let label = format!("declared with {}", state.option.values.join(" | "));
                self.error(Check::UnknownOptionValue, span, message, &label, Some(help));
            }
        }
    }

    /// Whether a statement or clause with this guard is in force; reports a bad guard.
    fn active(&mut self, guard: &Option<Guard>, source: usize) -> bool {
        let Some(guard) = guard else { return true };
        let Some(state) = self.options.get_mut(&guard.option.node) else {
            let meant = diagnostic::suggest(&guard.option.node, self.options.keys().map(String::as_str));
            let mut labels = vec![Label {
                span: guard.option.span.clone(),
                text: "unknown option".into(),
            }];
            let help = match meant {
                Some(meant) => {
                    if source == 0 {
                        labels.push(Label {
                            span: self.options[meant].span.clone(),
                            text: format!("`{meant}` is declared here"),
                        });
                    }
                    format!("did you mean `{meant}`?")
                }
                None if self.options.is_empty() => {
                    "declare it first: `option NAME \"description\" = VALUE | VALUE`".to_string()
                }
                None => format!(
                    "the options are: {}",
                    self.options.keys().map(String::as_str).collect::<Vec<_>>().join(", ")
                ),
            };
            self.report(
                Check::UnknownOption,
                source,
                format!("no option `{}` is declared", guard.option.node),
                labels,
                Some(help),
            );
            return false;
        };
        state.used = true;
        let option = state.option.clone();
        let declared = state.span.clone();
        for value in &guard.values {
            if !option.values.contains(&value.node) {
                let help = Some(
                    match diagnostic::suggest(&value.node, option.values.iter().map(String::as_str)) {
                        Some(meant) => format!("did you mean `{meant}`?"),
                        None => format!("`{}` is one of: {}", guard.option.node, option.values.join(", ")),
                    },
                );
                let mut labels = vec![Label {
                    span: value.span.clone(),
                    text: "not a value of the option".into(),
                }];
                if source == 0 {
                    labels.push(Label {
                        span: declared.clone(),
                        text: format!("declared with {}", option.values.join(" | ")),
                    });
                }
                self.report(
                    Check::UnknownOptionValue,
                    source,
                    format!("option `{}` has no value `{}`", guard.option.node, value.node),
                    labels,
                    help,
                );
            }
        }
        guard.values.iter().any(|v| v.node == option.chosen)
    }

    /// Warns of each option that no `when` names: choosing it changes nothing.
    fn unused_options(&mut self) {
        let unused: Vec<(String, Span)> = self
            .options
            .iter()
            .filter(|(_, state)| !state.used)
            .map(|(name, state)| (name.clone(), state.span.clone()))
            .collect();
        for (name, span) in unused {
            self.report(
                Check::UnusedOption,
                0,
                format!("option `{name}` is declared, but no `when` names it: choosing it changes nothing"),
                vec![Label {
                    span,
                    text: "never used".into(),
                }],
                Some(format!(
                    "add `when {name} = VALUE` to the rules or move clauses it governs, or remove the option"
                )),
            );
        }
    }

    fn variant_name(&mut self, file: &File) -> String {
        let mut names = file.statements.iter().filter_map(|s| match &s.node {
            Statement::Variant(name) => Some(name.clone()),
            _ => None,
        });
        let first = names.next();
        for again in names {
            let mut labels = vec![Label {
                span: again.span,
                text: "named again here".into(),
            }];
            if let Some(first) = &first {
                labels.push(Label {
                    span: first.span.clone(),
                    text: "first named here".into(),
                });
            }
            self.report(
                Check::DuplicateStatement,
                0,
                "the variant is named twice".into(),
                labels,
                Some("keep one `variant` statement".into()),
            );
        }
        match first {
            Some(name) => name.node,
            None => {
                let stem = std::path::Path::new(&self.sources[0].name)
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
                let labels = vec![
                    Label {
                        span: statement.span.clone(),
                        text: "stated again here".into(),
                    },
                    Label {
                        span: first.clone(),
                        text: "first stated here".into(),
                    },
                ];
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
            None if self.empty_file => {
                let labels = vec![Label {
                    span: self.anchors.first.clone(),
                    text: "nothing but blank lines and comments".into(),
                }];
                let help = "a variant needs at least a `board`, its pieces and a `setup`; see the language \
                            guide in README.md";
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
