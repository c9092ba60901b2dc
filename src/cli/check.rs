//! `koma check`: validate variant files, as text for people or JSON for tools.

use koma::compile::{self, Check, Choice, Diagnostic, FileResult, Report, Severity, Source};
use std::path::Path;
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
        let files = match expand(name) {
            Expanded::One => vec![name.clone()],
            Expanded::Directory(files) => {
                if let Format::Text = format {
                    let plural = if files.len() == 1 { "" } else { "s" };
                    println!("{name}: checking the {} .var file{plural} in it", files.len());
                }
                files
            }
            Expanded::Refused(report) => {
                failed = true;
                results.push((name.clone(), report));
                continue;
            }
        };
        for file in files {
            let compiled = compile::compile_named(&file, options);
            failed |= compiled.report.has_errors();
            results.push((file, compiled.report));
        }
    }
    match format {
        Format::Text => print_text(&results),
        Format::Json => print_json(&results),
    }
    if failed { ExitCode::FAILURE } else { ExitCode::SUCCESS }
}

/// What a name on the command line stands for.
pub(super) enum Expanded {
    /// A variant: a file or a shipped variant's name.
    One,
    /// A directory: the `.var` files directly in it, sorted by name.
    Directory(Vec<String>),
    /// A directory with no `.var` file, or one that cannot be listed.
    Refused(Report),
}

pub(super) fn expand(name: &str) -> Expanded {
    let dir = Path::new(name);
    if !dir.is_dir() {
        return Expanded::One;
    }
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) => return Expanded::Refused(refusal(name, format!("cannot list the directory {name}: {e}"))),
    };
    let mut files: Vec<String> = entries
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|e| e == "var"))
        .map(|path| path.display().to_string())
        .collect();
    files.sort();
    if files.is_empty() {
        return Expanded::Refused(refusal(name, format!("the directory {name} holds no .var file")));
    }
    Expanded::Directory(files)
}

fn refusal(name: &str, message: String) -> Report {
    Report {
        diagnostics: vec![Diagnostic {
            check: Check::UnknownVariant,
            severity: Severity::Error,
            message,
            source: Source {
                name: name.to_string(),
                text: "".into(),
            },
            labels: vec![],
            help: Some("`koma check DIR` checks the .var files directly in DIR, not in its subdirectories".into()),
        }],
    }
}

fn print_text(results: &[(String, Report)]) {
    let colour = super::colour(&std::io::stdout());
    for (name, report) in results {
        print!("{}", report.render(colour));
        let verdict = if report.has_errors() { "invalid" } else { "ok" };
        println!("{verdict}: {}", report.summary(name));
    }
}

fn print_json(results: &[(String, Report)]) {
    let list: Vec<FileResult> = results
        .iter()
        .map(|(name, report)| FileResult::of(name, report))
        .collect();
    match serde_json::to_string_pretty(&list) {
        Ok(text) => println!("{text}"),
        Err(e) => eprintln!("error: cannot write JSON: {e}"),
    }
}
