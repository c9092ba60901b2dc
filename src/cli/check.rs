//! `koma check`: validate variant files, as text for people or JSON for tools.

use koma::compile::{self, Choice, Diagnostic, Report};
use serde::Serialize;
use std::process::ExitCode;

#[derive(Clone, Copy, clap::ValueEnum)]
pub enum Format {
    Text,
    Json,
}

pub fn run(variants: &[String], format: Format, options: &[Choice]) -> ExitCode {
    let mut failed = false;
    let mut results = Vec::new();
    for name in variants {
        let compiled = compile::compile_named(name, options);
        failed |= compiled.report.has_errors();
        results.push((name.clone(), compiled.report));
    }
    match format {
        Format::Text => print_text(&results),
        Format::Json => print_json(&results),
    }
    if failed { ExitCode::FAILURE } else { ExitCode::SUCCESS }
}

fn print_text(results: &[(String, Report)]) {
    let colour = super::colour(&std::io::stdout());
    for (name, report) in results {
        print!("{}", report.render(colour));
        let verdict = if report.has_errors() { "invalid" } else { "ok" };
        println!("{verdict}: {}", report.summary(name));
    }
}

#[derive(Serialize)]
struct FileResult<'a> {
    file: &'a str,
    valid: bool,
    errors: usize,
    warnings: usize,
    diagnostics: Vec<JsonDiagnostic>,
}

#[derive(Serialize)]
struct JsonDiagnostic {
    code: &'static str,
    severity: koma::compile::Severity,
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

fn print_json(results: &[(String, Report)]) {
    let list: Vec<FileResult> = results
        .iter()
        .map(|(name, report)| FileResult {
            file: name,
            valid: !report.has_errors(),
            errors: report.errors().count(),
            warnings: report.warnings().count(),
            diagnostics: report.diagnostics.iter().map(json_diagnostic).collect(),
        })
        .collect();
    match serde_json::to_string_pretty(&list) {
        Ok(text) => println!("{text}"),
        Err(e) => eprintln!("error: cannot write JSON: {e}"),
    }
}
