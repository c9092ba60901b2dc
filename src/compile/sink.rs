//! The diagnostic sink: where every finding of a compilation goes. It holds the sources read
//! (a finding points into one of them by index), gives each finding its severity, keeps at
//! most [`MAX_DIAGNOSTICS`] errors and as many warnings, leaves out what only follows from a
//! mistake already reported ([`Cascade`]), and hands over the findings in reading order.

use super::Ctx;
use super::diagnostic::{Check, Diagnostic, Label, Report, Severity, Source};
use crate::parse::ast::Span;

/// Most errors, and most warnings, reported for one compilation; past this the rest are not
/// shown.
pub const MAX_DIAGNOSTICS: usize = 200;

/// The sources read and the diagnostics found in them so far.
pub(super) struct Sink {
    /// The main file first, then each file a `use` read, in the order read.
    pub(super) sources: Vec<Source>,
    diagnostics: Vec<Diagnostic>,
    /// Errors and warnings recorded so far (each up to [`MAX_DIAGNOSTICS`]).
    shown: [usize; 2],
    /// Where the diagnostic saying that some were left out is, once there is one.
    overflow: Option<usize>,
}

impl Sink {
    pub(super) fn new(main: Source) -> Sink {
        Sink {
            sources: vec![main],
            diagnostics: vec![],
            shown: [0; 2],
            overflow: None,
        }
    }

    /// Records a diagnostic over source `source`, unless past the limit.
    fn push(&mut self, check: Check, source: usize, message: String, labels: Vec<Label>, help: Option<String>) {
        let severity = severity(check);
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
        let labels = labels
            .into_iter()
            .map(|l| Label {
                span: l.span,
                text: visible(&l.text),
            })
            .collect();
        self.diagnostics.push(Diagnostic {
            check,
            severity,
            message: visible(&message),
            source,
            labels,
            help: help.as_deref().map(visible),
        });
    }

    /// Whether an error reported now would not be shown: the errors shown are at their limit
    /// and the diagnostic that says so is there. What only builds such an error's words can
    /// be skipped.
    pub(super) fn errors_full(&self) -> bool {
        self.shown[0] >= MAX_DIAGNOSTICS && self.overflow.is_some()
    }

    /// Whether nothing has been reported.
    pub(super) fn is_empty(&self) -> bool {
        self.diagnostics.is_empty()
    }

    /// Whether one of `checks` has been reported.
    fn reported(&self, checks: &[Check]) -> bool {
        self.diagnostics.iter().any(|d| checks.contains(&d.check))
    }

    /// How many errors have been reported so far.
    pub(super) fn error_count(&self) -> usize {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count()
    }

    /// The report, in reading order: file by file (in the order first reported), then by place
    /// in the file; what has no place comes first (the options of the command line), but a
    /// limit last.
    pub(super) fn into_report(self) -> Report {
        let mut diagnostics = self.diagnostics;
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
        Report { diagnostics }
    }
}

/// A message with each control character (but a line break) written as `\u{1b}`: messages
/// quote names from the file, and are printed on terminals.
fn visible(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\n' => c.to_string(),
            c if c.is_control() => c.escape_unicode().to_string(),
            c => c.to_string(),
        })
        .collect()
}

/// Warnings are the checks of what may be meant; everything else is an error.
fn severity(check: Check) -> Severity {
    match check {
        Check::UnusedPiece | Check::StuckPiece | Check::ZonesOverlap | Check::MissingName | Check::UnusedOption => {
            Severity::Warning
        }
        _ => Severity::Error,
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

/// What is known to be broken or missing, already reported: a finding that only follows from
/// it (a piece whose line could not be read is "unknown" wherever it is used; with a piece
/// missing, no piece may be royal) would only bury the real mistake.
pub(super) struct Cascade {
    /// The abbreviations of pieces whose statements could not be read (or that a `use` that
    /// failed would have brought in): already reported, so not reported again as unknown.
    pub(super) broken_pieces: Vec<String>,
    /// The keywords of the main file's statements that could not be read.
    pub(super) broken_statements: Vec<String>,
    /// Some pieces may be missing: a `piece` statement could not be read or a `use` failed.
    pub(super) pieces_incomplete: bool,
    /// A piece may be missing whose abbreviation is not known (a `use` failed, or a `piece`
    /// statement broke before its abbreviation): no piece is reported unknown then.
    pub(super) use_failed: bool,
    /// The board's size is known (a valid `board` statement); otherwise a stand-in is used
    /// and nothing that depends on the size is reported.
    pub(super) board_known: bool,
    /// The main file holds no statement and no broken one: one report says so.
    pub(super) empty_file: bool,
}

impl Default for Cascade {
    fn default() -> Cascade {
        Cascade {
            broken_pieces: vec![],
            broken_statements: vec![],
            pieces_incomplete: false,
            use_failed: false,
            board_known: true,
            empty_file: false,
        }
    }
}

impl Cascade {
    /// Whether a finding of `check`, whose primary label covers `labelled` (if it has a label),
    /// only follows from what is already reported in `sink`. `has_setup`: the main file has a
    /// `setup` statement.
    fn follows(&self, check: Check, labelled: Option<&str>, has_setup: bool, sink: &Sink) -> bool {
        let reported = |checks: &[Check]| sink.reported(checks);
        let statement_broken = |keyword: &str| self.broken_statements.iter().any(|k| k == keyword);
        if !self.board_known && NEEDS_BOARD.contains(&check) {
            return true;
        }
        if self.empty_file && matches!(check, Check::MissingName | Check::MissingSetup | Check::NoRoyal) {
            return true;
        }
        match check {
            Check::UnknownPiece if self.use_failed => true,
            Check::UnknownPiece => {
                labelled.is_some_and(|text| self.broken_pieces.iter().any(|b| b.eq_ignore_ascii_case(text)))
            }
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
            Check::StuckPiece => sink.error_count() > 0,
            // A setup whose every piece is unknown (or came from a `use` that failed), or off
            // the board.
            Check::MissingSetup => {
                statement_broken("setup")
                    || (has_setup && (self.use_failed || reported(&[Check::UnknownPiece, Check::SquareOffBoard])))
            }
            Check::MissingBoard => statement_broken("board"),
            Check::MissingName => statement_broken("variant"),
            _ => false,
        }
    }
}

impl Ctx {
    /// Records a diagnostic over source `source`, unless it only follows from one already
    /// reported.
    pub(super) fn report(
        &mut self,
        check: Check,
        source: usize,
        message: String,
        labels: Vec<Label>,
        help: Option<String>,
    ) {
        let labelled = labels
            .first()
            .map(|label| self.sink.sources[source].text.get(label.span.clone()).unwrap_or(""));
        let has_setup = self.anchors.setup.is_some();
        if self.cascade.follows(check, labelled, has_setup, &self.sink) {
            return;
        }
        self.sink.push(check, source, message, labels, help);
    }

    /// Records a diagnostic with one label in the main file.
    pub(super) fn error(&mut self, check: Check, span: Span, message: String, label: &str, help: Option<String>) {
        self.error_in(check, 0, span, message, label, help);
    }

    /// Records a diagnostic with one label in source `source`.
    pub(super) fn error_in(
        &mut self,
        check: Check,
        source: usize,
        span: Span,
        message: String,
        label: &str,
        help: Option<String>,
    ) {
        let labels = vec![Label {
            span,
            text: label.to_string(),
        }];
        self.report(check, source, message, labels, help);
    }
}
