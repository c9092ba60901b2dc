//! koma's report as protocol diagnostics: the same checks, codes, labels and help as
//! `koma check`. The first label gives the range; the others become related information.
//! A finding in a file the document `use`s is shown on that `use` statement, its labels
//! related information pointing into the used file.

use super::position::LineIndex;
use koma::compile::{Diagnostic, Report, Severity, Source};
use koma::parse::ast::{Span, Statement};
use lsp_types::{DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString, Uri};

/// The diagnostics of `report` to show on the document `source`.
pub fn of_report(report: &Report, source: &Source, uri: &Uri) -> Vec<lsp_types::Diagnostic> {
    let index = LineIndex::new(&source.text);
    let uses = use_spans(&source.text);
    report
        .diagnostics
        .iter()
        .map(|d| {
            if d.source.name == source.name {
                in_document(d, &index, uri)
            } else {
                in_used_file(d, &index, &uses)
            }
        })
        .collect()
}

fn in_document(d: &Diagnostic, index: &LineIndex, uri: &Uri) -> lsp_types::Diagnostic {
    let span = d.span().cloned().unwrap_or(0..0);
    let primary = d.labels.first().map(|l| l.text.as_str()).unwrap_or("");
    let related = d.labels.iter().skip(1).map(|label| DiagnosticRelatedInformation {
        location: Location::new(uri.clone(), index.range(&label.span)),
        message: label.text.clone(),
    });
    diagnostic(d, index.range(&span), primary, related.collect())
}

fn in_used_file(d: &Diagnostic, index: &LineIndex, uses: &[(String, Span)]) -> lsp_types::Diagnostic {
    let stem = std::path::Path::new(&d.source.name)
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_default();
    let at = uses
        .iter()
        .find(|(named, _)| std::path::Path::new(named).file_stem().is_some_and(|s| *s == *stem))
        .or(uses.first())
        .map_or(0..0, |(_, span)| span.clone());
    let used = LineIndex::new(&d.source.text);
    let related = d.labels.iter().filter_map(|label| {
        Some(DiagnosticRelatedInformation {
            location: Location::new(super::uri_of(&d.source.name)?, used.range(&label.span)),
            message: label.text.clone(),
        })
    });
    let place = match d.span() {
        Some(span) => {
            let (line, column) = d.source.line_column(span.start);
            format!("in {}:{line}:{column}", d.source.name)
        }
        None => format!("in {}", d.source.name),
    };
    diagnostic(d, index.range(&at), &place, related.collect())
}

/// The message (with the first label's text and the help under it), code and severity.
fn diagnostic(
    d: &Diagnostic,
    range: lsp_types::Range,
    label: &str,
    related: Vec<DiagnosticRelatedInformation>,
) -> lsp_types::Diagnostic {
    let mut message = d.message.clone();
    if !label.is_empty() {
        message.push_str(&format!("\n{label}"));
    }
    if let Some(help) = &d.help {
        message.push_str(&format!("\nhelp: {help}"));
    }
    let severity = match d.severity {
        Severity::Error => DiagnosticSeverity::ERROR,
        Severity::Warning => DiagnosticSeverity::WARNING,
    };
    lsp_types::Diagnostic {
        range,
        severity: Some(severity),
        code: Some(NumberOrString::String(d.code().to_string())),
        source: Some("koma".into()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        ..lsp_types::Diagnostic::default()
    }
}

/// The `use` statements of a text: the variant each names, and where.
fn use_spans(text: &str) -> Vec<(String, Span)> {
    super::parsed(text)
        .statements
        .into_iter()
        .filter_map(|s| match s.node {
            Statement::Use { source, .. } => Some((source.node, s.span)),
            _ => None,
        })
        .collect()
}
