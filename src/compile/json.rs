//! A report as JSON, for tools: one file's result as `koma check --format json` writes it and
//! `koma serve` answers a variant with (its diagnostics' codes, lines, columns and spans).

use super::{Diagnostic, Report};
use serde::Serialize;

/// One file's result, as `--format json` writes it (and `koma serve` answers a variant with).
#[derive(Serialize)]
pub struct FileResult<'a> {
    file: &'a str,
    valid: bool,
    errors: usize,
    warnings: usize,
    diagnostics: Vec<JsonDiagnostic>,
}

#[derive(Serialize)]
struct JsonDiagnostic {
    code: &'static str,
    severity: super::Severity,
    message: String,
    file: String,
    labels: Vec<JsonLabel>,
    help: Option<String>,
}

#[derive(Serialize)]
struct JsonLabel {
    line: usize,
    column: usize,
    start: usize,
    end: usize,
    text: String,
}

fn json_diagnostic(d: &Diagnostic) -> JsonDiagnostic {
    let labels = d
        .labels
        .iter()
        .map(|l| {
            let (line, column) = d.source.line_column(l.span.start);
            JsonLabel {
                line,
                column,
                start: l.span.start,
                end: l.span.end,
                text: l.text.clone(),
            }
        })
        .collect();
    JsonDiagnostic {
        code: d.code(),
        severity: d.severity,
        message: d.message.clone(),
        file: d.source.name.clone(),
        labels,
        help: d.help.clone(),
    }
}

impl<'a> FileResult<'a> {
    /// The result of the file `name`, whose compilation reported `report`.
    pub fn of(name: &'a str, report: &Report) -> FileResult<'a> {
        FileResult {
            file: name,
            valid: !report.has_errors(),
            errors: report.errors().count(),
            warnings: report.warnings().count(),
            diagnostics: report.diagnostics.iter().map(json_diagnostic).collect(),
        }
    }
}
