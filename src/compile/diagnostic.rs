//! Diagnostics: every check the compiler makes, and the report that collects them.
//!
//! Each [`Check`] has a stable code (`koma::unknown-piece`) shown in every report and in
//! `koma check --format json`. A [`Report`] holds all diagnostics of one run over all the
//! sources involved (a file and the files it `use`s), and renders them with miette.

use crate::parse::BYTE_ORDER_MARK;
use crate::parse::ast::Span;
use miette::{
    GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteError, MietteSpanContents, SourceCode, SourceSpan,
    SpanContents,
};
use serde::Serialize;
use std::fmt;
use std::sync::Arc;

/// A source text with its name (a path or a shipped variant's name).
#[derive(Debug, Clone)]
pub struct Source {
    pub name: String,
    pub text: Arc<str>,
}

impl Source {
    /// Line and column (both from 1) of a byte offset, as editors count them: lines end at
    /// `\n`, `\r\n` or a lone `\r` (as the drawn report counts them), and columns are
    /// characters, not bytes, without a byte-order mark at the start of the file. The text
    /// report and `--format json` both give these.
    pub fn line_column(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let bytes = self.text.as_bytes();
        let mut line = 1;
        let mut line_start = 0;
        for (i, &b) in bytes[..offset].iter().enumerate() {
            if b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n')) {
                line += 1;
                line_start = i + 1;
            }
        }
        (line, column(&self.text, line_start, offset) + 1)
    }
}

/// The column (from 0) of byte `offset` on the line starting at byte `line_start`: the
/// characters before it, a byte-order mark starting the file not counted (nor the `\r` of a
/// `\r\n`, as miette does not).
fn column(text: &str, line_start: usize, offset: usize) -> usize {
    let Some(before) = text.get(line_start..offset) else {
        return offset - line_start;
    };
    let before = if line_start == 0 {
        before.strip_prefix(BYTE_ORDER_MARK).unwrap_or(before)
    } else {
        before
    };
    before.chars().filter(|&c| c != '\r').count()
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

macro_rules! checks {
    ($( $(#[doc = $doc:literal])* $variant:ident = $code:literal, )*) => {
        /// Every check the compiler makes. The doc of each names an input that triggers it.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Check {
            $( $(#[doc = $doc])* $variant, )*
        }

        impl Check {
            /// The stable code, as printed in reports.
            pub fn code(self) -> &'static str {
                match self { $( Check::$variant => concat!("koma::", $code), )* }
            }

            /// Every check, in order.
            pub const ALL: &'static [Check] = &[ $( Check::$variant, )* ];
        }
    };
}

checks! {
    /// A statement that does not follow the grammar: `piece K "King" step all` (no `:`), a setup
    /// row without its `:`, a quoted name left open.
    Syntax = "syntax",
    /// A file that cannot be read, or a `use` of a variant that does not exist: `use "chuu"`;
    /// a directory, FIFO or device given as a variant: `use "."`.
    UnknownVariant = "unknown-variant",
    /// A `use` chain that comes back to a file already being read: `use "self"` in self.var.
    RecursiveUse = "recursive-use",
    /// A statement keyword that does not exist: `promtion zone 3`; a move starting a line
    /// after a list of moves whose line lacks its trailing `,`.
    UnknownKeyword = "unknown-keyword",
    /// A piece attribute that does not exist: `piece K "King" roayl : step all`.
    UnknownAttribute = "unknown-attribute",
    /// A kind of movement that does not exist: `: stpe forward`.
    UnknownMovement = "unknown-movement",
    /// A direction that does not exist: `step forwards-left`.
    UnknownDirection = "unknown-direction",
    /// A piece abbreviation that no piece has: `promotes +Q` with no `+Q` defined, a piece's
    /// name where its abbreviation belongs (`promotes Tokin`), `Gd` in a setup for `GD`.
    UnknownPiece = "unknown-piece",
    /// A `when` naming an option that is not declared: `when teachingking = 2`; or
    /// `--option` naming one.
    UnknownOption = "unknown-option",
    /// A `when` naming a value the option does not have, or `--option` with a bad value.
    UnknownOptionValue = "unknown-option-value",
    /// Two options of one name, or one value listed twice: `option x = a | a`.
    DuplicateOption = "duplicate-option",
    /// Two pieces with one abbreviation in the same file.
    DuplicateAbbreviation = "duplicate-abbreviation",
    /// Two pieces with one name.
    DuplicateName = "duplicate-name",
    /// Two pieces with one SFEN letter: `sfen g` on the Gold and on the Silver.
    DuplicateSfen = "duplicate-sfen",
    /// A statement that may appear once appears twice: two `board` lines, two `stalemate` rules,
    /// two handicaps of one name.
    DuplicateStatement = "duplicate-statement",
    /// An attribute given twice on one piece: `value 3 value 4`.
    DuplicateAttribute = "duplicate-attribute",
    /// No `board` statement (or no statement at all: an empty file).
    MissingBoard = "missing-board",
    /// A board smaller than 3 × 3 or larger than 36 × 36: `board 2 x 40`.
    BoardSize = "board-size",
    /// A square that is not on the board: `handicap "Rook" 10b` on a 9 × 9 board, or a setup
    /// row longer than the board is wide.
    SquareOffBoard = "square-off-board",
    /// A setup row shorter than the board is wide.
    ShortRow = "short-row",
    /// Two pieces on one square: a rank listed twice, Black and White on one square (as given
    /// by `setup white`, or by the rotation: a piece on the centre square of an odd board).
    SquareTaken = "square-taken",
    /// No `setup`, or a setup with no piece.
    MissingSetup = "missing-setup",
    /// A promotion target that is the piece itself or leads back to it: `A promotes B`, `B promotes A`.
    PromotionCycle = "promotion-cycle",
    /// One kind that two pieces promote to while captured pieces revert and can be dropped.
    SharedPromotion = "shared-promotion",
    /// `as` that leads back to the piece itself: `piece A … : as B` and `piece B … : as A`.
    MovementCycle = "movement-cycle",
    /// A promotion zone deeper than the board: `promotion zone 10` on a 9 × 9 board.
    ZoneTooDeep = "zone-too-deep",
    /// A piece that can move from no square of the board: `jump 6 sideways` on a 5 × 9 board, or
    /// `step all when x = yes` while `x` is `no`.
    NoMove = "no-move",
    /// No piece is royal: no `royal` attribute anywhere.
    NoRoyal = "no-royal",
    /// Modifiers that cannot go together: `move-only capture-only step forward`.
    ContradictoryClause = "contradictory-clause",
    /// A clause that moves nowhere, or says the same thing twice: `leap (0, 0)`,
    /// `step forward forward`, `leap (1, 2) (1, 2)`, `move-only move-only step all`.
    EmptyClause = "empty-clause",
    /// A distance of 0 or one that no board square can reach: `range 0 forward`, `jump 40 forward`.
    BadDistance = "bad-distance",
    /// A drop rule naming a piece that can never be in hand (drops are off, or it is a
    /// promoted kind, which reverts when captured): `drop-limit +P 1 per file`.
    NotInHand = "not-in-hand",
    /// A rule that needs another one: `deferral` with no promotion zone.
    RuleNeedsAnother = "rule-needs-another",
    /// A value out of its range: `repetition 1 draw`, `must-promote 12` on a 9-rank board,
    /// `value 99999999`, a handicap square with no White piece or listed twice.
    BadValue = "bad-value",
    /// A control character (an escape, NUL, a bell) in a quoted name: `piece K "King\x1b[31m"`.
    /// Names are printed on terminals and written into records, where it would act.
    ControlCharacter = "control-character",
    /// A file past koma's limits: more than 4 MiB, more than 1000 kinds of piece, more than 50
    /// broken statements or 200 problems, `use` more than 16 files deep.
    Limit = "limit",
    /// Warning: a piece defined but never in play (not in the setup, not a promotion of one).
    UnusedPiece = "unused-piece",
    /// Warning: a piece that can reach a square from which it has no further move, with no
    /// forced promotion there (say `stuck-pieces-stay` if intended).
    StuckPiece = "stuck-piece",
    /// Warning: promotion zones of the two sides overlap: `promotion zone 5` on a 9-rank board.
    ZonesOverlap = "zones-overlap",
    /// Warning: no `variant "Name"` statement.
    MissingName = "missing-name",
    /// Warning: an option that no `when` names: `option x "…" = a | b` and no `when x = …`.
    UnusedOption = "unused-option",
}

/// A labelled span.
#[derive(Debug, Clone, PartialEq)]
pub struct Label {
    pub span: Span,
    pub text: String,
}

impl Label {
    /// The two labels of something stated twice: `{verb} again here` on the repeat, and
    /// `first {verb} here` on the first (`stated`, `defined`, `given`, …).
    pub fn again(verb: &str, again: Span, first: Span) -> Vec<Label> {
        vec![
            Label {
                span: again,
                text: format!("{verb} again here"),
            },
            Label {
                span: first,
                text: format!("first {verb} here"),
            },
        ]
    }
}

/// One finding of the compiler.
#[derive(Debug, Clone)]
pub struct Diagnostic {
    pub check: Check,
    pub severity: Severity,
    pub message: String,
    /// The source the labels point into.
    pub source: Source,
    /// The first label is the primary one.
    pub labels: Vec<Label>,
    pub help: Option<String>,
}

impl Diagnostic {
    pub fn code(&self) -> &'static str {
        self.check.code()
    }

    /// The primary span, if any.
    pub fn span(&self) -> Option<&Span> {
        self.labels.first().map(|l| &l.span)
    }
}

// Written out, not derived: `thiserror` would take the field `source` for the error's cause.
impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Diagnostic {}

/// The longest line (in bytes) drawn under a label; a label on a longer line, or longer
/// itself, is written as a place (`file:line:column`) instead.
const MAX_DRAWN_LINE: usize = 1000;

impl Diagnostic {
    /// Whether the labels can be drawn over the source lines they are on.
    fn drawable(&self) -> bool {
        let text = &self.source.text;
        self.labels.iter().all(|l| {
            let start = l.span.start.min(text.len());
            let end = l.span.end.min(text.len());
            let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
            let line_end = text[end..].find('\n').map_or(text.len(), |i| end + i);
            l.span.end <= text.len() && line_end - line_start <= MAX_DRAWN_LINE
        })
    }

    /// The diagnostic without the source drawn: each label as `file:line:column: text`.
    fn render_plain(&self) -> String {
        let shorten = |text: &str| {
            if text.chars().count() > 200 {
                format!("{}…", text.chars().take(200).collect::<String>())
            } else {
                text.to_string()
            }
        };
        let mark = match self.severity {
            Severity::Error => "×",
            Severity::Warning => "⚠",
        };
        let mut out = format!("{}\n\n  {mark} {}\n", self.check.code(), shorten(&self.message));
        for label in &self.labels {
            let (line, column) = self.source.line_column(label.span.start);
            out.push_str(&format!(
                "   at {}:{line}:{column}: {} (the line is too long to show)\n",
                self.source.name,
                shorten(&label.text)
            ));
        }
        if let Some(help) = &self.help {
            out.push_str(&format!("  help: {}\n", shorten(help)));
        }
        out
    }
}

impl miette::Diagnostic for Diagnostic {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.check.code()))
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        })
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help.as_ref().map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(&self.source.text as &dyn SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let labels = self.labels.iter().enumerate().map(|(i, l)| {
            let text = (!l.text.is_empty()).then(|| l.text.clone());
            let span = (l.span.start, l.span.end - l.span.start);
            if i == 0 {
                LabeledSpan::new_primary_with_span(text, span)
            } else {
                LabeledSpan::new_with_span(text, span)
            }
        });
        Some(Box::new(labels))
    }
}

/// All diagnostics of one compilation, in the order found.
#[derive(Debug, Clone, Default)]
pub struct Report {
    pub diagnostics: Vec<Diagnostic>,
}

impl Report {
    pub fn has_errors(&self) -> bool {
        self.errors().next().is_some()
    }

    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics.iter().filter(|d| d.severity == Severity::Error)
    }

    pub fn warnings(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics.iter().filter(|d| d.severity == Severity::Warning)
    }

    /// The report as text: each diagnostic drawn over its source, without colour when
    /// `colour` is false (as in snapshots, pipes and NO_COLOR).
    pub fn render(&self, colour: bool) -> String {
        let theme = if colour {
            GraphicalTheme::unicode()
        } else {
            GraphicalTheme::unicode_nocolor()
        };
        let handler = GraphicalReportHandler::new_themed(theme).with_width(100);
        let mut out = String::new();
        let mut indexed: Vec<IndexedSource> = Vec::new();
        for diagnostic in &self.diagnostics {
            if !diagnostic.drawable() {
                out.push_str(&diagnostic.render_plain());
                continue;
            }
            let source = &diagnostic.source;
            let at = match indexed
                .iter()
                .position(|i| i.name == source.name && Arc::ptr_eq(&i.original, &source.text))
            {
                Some(at) => at,
                None => {
                    indexed.push(IndexedSource::new(source));
                    indexed.len() - 1
                }
            };
            let named = NamedDiagnostic {
                inner: diagnostic,
                named: &indexed[at],
            };
            // Writing into a String cannot fail.
            let _ = handler.render_report(&mut out, &named);
        }
        out
    }

    /// A one-line summary: `chu.var: 2 errors, 1 warning`.
    pub fn summary(&self, name: &str) -> String {
        let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
        format!(
            "{name}: {}, {}",
            plural(self.errors().count(), "error"),
            plural(self.warnings().count(), "warning")
        )
    }
}

/// A diagnostic whose source carries its file name, for miette's header line.
#[derive(thiserror::Error)]
#[error("{}", shortened(&.inner.message))]
struct NamedDiagnostic<'a> {
    inner: &'a Diagnostic,
    named: &'a IndexedSource,
}

/// A source with the offsets where its lines start, so that miette reads a label's lines
/// without scanning the file from its start for every label (which made a report on a file
/// of megabytes take seconds). What it reads is what miette reads from the whole text.
struct IndexedSource {
    name: String,
    /// The text reported on.
    original: Arc<str>,
    /// The text shown: the original with each control character but a line end or a tab
    /// shown as `?` (one a byte, so that spans stay), never written raw to a terminal.
    text: Arc<str>,
    /// The offset of each line's start; lines end at `\n`, `\r\n` or a lone `\r`, as miette
    /// counts them.
    line_starts: Vec<usize>,
}

impl IndexedSource {
    fn new(source: &Source) -> IndexedSource {
        let bytes = source.text.as_bytes();
        let mut line_starts = vec![0];
        for (i, &b) in bytes.iter().enumerate() {
            let ends_line = b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n'));
            if ends_line {
                line_starts.push(i + 1);
            }
        }
        let shown: String = source
            .text
            .chars()
            .flat_map(|c| {
                let hidden = c.is_control() && !matches!(c, '\n' | '\r' | '\t');
                let count = if hidden { c.len_utf8() } else { 1 };
                std::iter::repeat_n(if hidden { '?' } else { c }, count)
            })
            .collect();
        IndexedSource {
            name: source.name.clone(),
            original: source.text.clone(),
            text: shown.into(),
            line_starts,
        }
    }

    /// The line (from 0) holding `offset`.
    fn line_of(&self, offset: usize) -> usize {
        self.line_starts.partition_point(|&start| start <= offset) - 1
    }
}

impl SourceCode for IndexedSource {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        if span.offset() + span.len() > self.text.len() {
            return Err(MietteError::OutOfBounds);
        }
        // The lines from the context before the span to well past the context after it,
        // from the line before the span's byte at the least (miette may end the contents of
        // an empty span there).
        let first = self
            .line_of(span.offset().saturating_sub(1))
            .saturating_sub(context_lines_before);
        let last = self.line_of(span.offset() + span.len()) + context_lines_after + 2;
        let start = self.line_starts[first];
        let end = self.line_starts.get(last).copied().unwrap_or(self.text.len());
        let local = SourceSpan::new((span.offset() - start).into(), span.len());
        let excerpt = &self.text.as_bytes()[start..end];
        let contents = excerpt.read_span(&local, context_lines_before, context_lines_after)?;
        // miette counts the column (shown in the header, `file:line:column`) in bytes; koma
        // counts characters, as editors and `--format json` do.
        let column = if context_lines_before == 0 {
            let line_start = self.line_starts[self.line_of(span.offset())];
            column(&self.text, line_start, span.offset())
        } else {
            contents.column()
        };
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            contents.data(),
            SourceSpan::new((contents.span().offset() + start).into(), contents.span().len()),
            contents.line() + first,
            column,
            contents.line_count() + first,
        )))
    }
}

impl fmt::Debug for NamedDiagnostic<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.inner.fmt(f)
    }
}

/// A message that quotes an enormous word, cut short.
fn shortened(message: &str) -> std::borrow::Cow<'_, str> {
    match message.char_indices().nth(300) {
        Some((cut, _)) => format!("{}…", &message[..cut]).into(),
        None => message.into(),
    }
}

impl miette::Diagnostic for NamedDiagnostic<'_> {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        miette::Diagnostic::code(self.inner)
    }
    fn severity(&self) -> Option<miette::Severity> {
        miette::Diagnostic::severity(self.inner)
    }
    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        miette::Diagnostic::help(self.inner)
    }
    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(self.named)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        miette::Diagnostic::labels(self.inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique() {
        let mut codes: Vec<_> = Check::ALL.iter().map(|c| c.code()).collect();
        codes.sort();
        let n = codes.len();
        codes.dedup();
        assert_eq!(codes.len(), n);
        assert!(n >= 25);
    }

    /// Columns count characters, in the drawn report's header as in `line_column`: on a line
    /// with kanji, after a byte-order mark, after a lone `\r`.
    #[test]
    fn columns_count_characters() {
        let text = "variant \"T\"\npiece K \"王将\" royal : step al\n";
        let source = Source {
            name: "k.var".into(),
            text: Arc::from(text),
        };
        let offset = text.find("al\n").unwrap();
        assert_eq!(source.line_column(offset), (2, 27));
        let indexed = IndexedSource::new(&source);
        let contents = indexed.read_span(&SourceSpan::new(offset.into(), 2), 0, 0).unwrap();
        assert_eq!((contents.line() + 1, contents.column() + 1), (2, 27));

        let bom = Source {
            name: "b.var".into(),
            text: Arc::from("\u{feff}board 9 x\rpiece"),
        };
        assert_eq!(bom.line_column(3), (1, 1));
        assert_eq!(bom.line_column(9), (1, 7));
        assert_eq!(bom.line_column(13), (2, 1));
        let indexed = IndexedSource::new(&bom);
        let contents = indexed.read_span(&SourceSpan::new(9.into(), 1), 0, 0).unwrap();
        assert_eq!(contents.column() + 1, 7);
    }

    /// The indexed source reads every span as miette reads it from the whole text: CRLF and
    /// lone CR line ends, spans at the start and the end, empty spans, spans over several
    /// lines, with and without context.
    #[test]
    fn indexed_source_reads_spans_as_miette_does() {
        let texts = [
            "variant \"A\"\nboard 9 x 9\n\npiece K \"King\" royal : step all\nsetup\n  i: K\n",
            "a\r\nbb\r\n\r\nccc\rdd\re\n\nf",
            "\n\n\nx\n\n",
            "one line without an end",
            "",
        ];
        for text in texts {
            let source = Source {
                name: "t.var".into(),
                text: Arc::from(text),
            };
            let indexed = IndexedSource::new(&source);
            for offset in 0..=text.len() {
                for len in 0..=(text.len() - offset).min(12) {
                    for context in 0..=3 {
                        let span = SourceSpan::new(offset.into(), len);
                        let ours = indexed.read_span(&span, context, context);
                        let theirs = text.read_span(&span, context, context);
                        match (ours, theirs) {
                            (Ok(a), Ok(b)) => assert_eq!(
                                (a.data(), a.span(), a.line(), a.column(), a.line_count()),
                                (b.data(), b.span(), b.line(), b.column(), b.line_count()),
                                "{text:?} at {offset}+{len}, context {context}"
                            ),
                            (Err(_), Err(_)) => {}
                            (a, b) => panic!("{text:?} at {offset}+{len}: {} against {}", a.is_ok(), b.is_ok()),
                        }
                    }
                }
            }
        }
    }
}
