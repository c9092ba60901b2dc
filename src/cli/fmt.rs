//! `koma fmt`: variant files rewritten in the canonical layout ([`koma::format`](mod@koma::format)), or with
//! `--check` only told apart, for CI.

use koma::compile::{self, Check, FileLoader, MAX_SOURCE_BYTES, Report, Source};
use koma::files::Stamp;
use std::path::Path;
use std::process::ExitCode;

/// Exit status when a file is not in the canonical layout (`--check`).
const NOT_FORMATTED: u8 = 1;
/// Exit status when a file could not be read or does not parse.
const FAILED: u8 = 2;

/// What became of one file.
enum Formatted {
    Unchanged,
    /// Rewritten, or with `--check` found to differ.
    Changed,
    Failed,
}

pub fn run(names: &[String], check: bool) -> ExitCode {
    let mut changed = false;
    let mut failed = false;
    for name in names {
        let files = match super::check::expand(name) {
            super::check::Expanded::One => vec![name.clone()],
            super::check::Expanded::Directory(files) => files,
            super::check::Expanded::Refused(report) => {
                eprint!("{}", report.render(super::colour(&std::io::stderr())));
                failed = true;
                continue;
            }
        };
        for file in files {
            match format_file(&file, check) {
                Formatted::Unchanged => {}
                Formatted::Changed => changed = true,
                Formatted::Failed => failed = true,
            }
        }
    }
    if failed {
        ExitCode::from(FAILED)
    } else if changed && check {
        ExitCode::from(NOT_FORMATTED)
    } else {
        ExitCode::SUCCESS
    }
}

fn format_file(name: &str, check: bool) -> Formatted {
    let (text, stamp) = match read(name) {
        Ok(read) => read,
        Err(message) => {
            eprintln!("error: {message}");
            return Formatted::Failed;
        }
    };
    let formatted = match koma::format::format(&text) {
        Ok(formatted) => formatted,
        Err(koma::format::Error::Syntax(_)) => {
            report_syntax(name, &text);
            return Formatted::Failed;
        }
        Err(koma::format::Error::Layout(why)) => {
            eprintln!("error: {name} was not formatted: {why} (a fault of koma's, please report it)");
            return Formatted::Failed;
        }
    };
    if formatted == text {
        return Formatted::Unchanged;
    }
    if check {
        println!("{name}: not formatted{}", first_difference(&text, &formatted));
        return Formatted::Changed;
    }
    match koma::files::replace_read(Path::new(name), &formatted, &stamp) {
        Ok(()) => {
            println!("formatted {name}");
            Formatted::Changed
        }
        Err(message) => {
            eprintln!("error: {message}");
            Formatted::Failed
        }
    }
}

/// A variant file's text (a regular file of UTF-8 of at most [`MAX_SOURCE_BYTES`]), and the
/// stamp of the version read.
fn read(name: &str) -> Result<(String, Stamp), String> {
    let (bytes, stamp) = koma::files::read_stamped(Path::new(name), MAX_SOURCE_BYTES)?;
    if bytes.len() > MAX_SOURCE_BYTES {
        return Err(format!("{name} is larger than 4 MiB: is it a variant file?"));
    }
    let text = String::from_utf8(bytes).map_err(|_| format!("{name} is not UTF-8 text"))?;
    Ok((text, stamp))
}

/// The syntax errors of a file that does not parse, as `koma check` reports them.
fn report_syntax(name: &str, text: &str) {
    let source = Source {
        name: name.to_string(),
        text: text.into(),
    };
    let compiled = compile::compile(source, &FileLoader, &[]);
    let report = Report {
        diagnostics: compiled
            .report
            .diagnostics
            .into_iter()
            .filter(|d| d.check == Check::Syntax)
            .collect(),
    };
    eprint!("{}", report.render(super::colour(&std::io::stderr())));
    eprintln!("error: {name} was not formatted: it does not parse");
}

/// The first line that formatting changes, before and after.
fn first_difference(before: &str, after: &str) -> String {
    let old: Vec<&str> = before.lines().collect();
    let new: Vec<&str> = after.lines().collect();
    let Some(at) = (0..old.len().max(new.len())).find(|&i| old.get(i) != new.get(i)) else {
        return "; its line breaks or byte-order mark differ".into();
    };
    let shown = |line: Option<&&str>| line.map_or("(no line)".to_string(), |l| l.to_string());
    format!(
        "; first difference at line {}:\n- {}\n+ {}",
        at + 1,
        shown(old.get(at)),
        shown(new.get(at))
    )
}
