//! The users' documents keep up with the program: the language reference (`docs/language.md`)
//! has an entry with an example for every word of the grammar and its whole files compile; the
//! README's table of games lists every shipped variant; the command reference (`docs/cli.md`)
//! and the crate's documentation name every command `koma --help` lists.

use koma::compile::{FileLoader, Source, compile};
use koma::parse::keywords::WORDS;
use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn read(path: &str) -> String {
    std::fs::read_to_string(Path::new(ROOT).join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The cells of a Markdown table row (`| a | b \| c |`), or nothing for any other line.
fn cells(line: &str) -> Option<Vec<String>> {
    let inner = line.trim().strip_prefix('|')?.strip_suffix('|')?;
    let mut cells = vec![String::new()];
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'|') => cells.last_mut().unwrap().push(chars.next().unwrap()),
            '|' => cells.push(String::new()),
            c => cells.last_mut().unwrap().push(c),
        }
    }
    Some(cells.into_iter().map(|c| c.trim().to_string()).collect())
}

/// The code spans of a text: what stands between pairs of backticks.
fn code_spans(text: &str) -> Vec<&str> {
    text.split('`').skip(1).step_by(2).collect()
}

/// The words of a code span: runs of lower-case letters, digits and hyphens.
fn words(code: &str) -> impl Iterator<Item = &str> {
    code.split(|c: char| !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'))
        .filter(|w| !w.is_empty())
}

/// Every word of the language: the words the grammar quotes (keywords, and the closed values
/// such as `optional` or `unless-taken`), the keyword table's (directions too), and the
/// setup's `hand:` row.
fn language_words() -> BTreeSet<String> {
    let grammar = read("grammar/variant.pest");
    let mut all: BTreeSet<String> = quoted_words(&grammar).into_iter().map(str::to_string).collect();
    all.extend(WORDS.iter().map(|w| w.text.to_string()));
    all.insert("hand".to_string());
    all
}

/// The words a text quotes: `"optional"`, not `"\""` nor `"-"`.
fn quoted_words(text: &str) -> Vec<&str> {
    let mut found = Vec::new();
    for (start, _) in text.match_indices('"') {
        let rest = &text[start + 1..];
        let len = rest
            .find(|c: char| !(c.is_ascii_lowercase() || c == '-'))
            .unwrap_or(rest.len());
        if rest[len..].starts_with('"') && rest.starts_with(|c: char| c.is_ascii_lowercase()) {
            found.push(&rest[..len]);
        }
    }
    found
}

#[test]
fn every_word_of_the_language_has_a_reference_entry_with_an_example() {
    let reference = read("docs/language.md");
    let mut entries: BTreeSet<String> = BTreeSet::new();
    for row in reference.lines().filter_map(cells) {
        let [first, .., example] = row.as_slice() else { continue };
        if !code_spans(example).is_empty() {
            entries.extend(code_spans(first).into_iter().flat_map(words).map(str::to_string));
        }
    }
    let missing: Vec<String> = language_words().difference(&entries).cloned().collect();
    assert!(
        missing.is_empty(),
        "docs/language.md has no table row naming these words in its first cell with an example in its last: {missing:?}"
    );
}

#[test]
fn the_whole_files_of_the_language_reference_compile() {
    let reference = read("docs/language.md");
    let blocks: Vec<&str> = reference
        .split("```var\n")
        .skip(1)
        .map(|b| b.split("```").next().unwrap())
        .collect();
    assert!(
        blocks.len() >= 3,
        "docs/language.md should show whole files in ```var blocks"
    );
    for (i, text) in blocks.iter().enumerate() {
        let source = Source {
            name: format!("docs/language.md, file {}", i + 1),
            text: (*text).into(),
        };
        let compiled = compile(source, &FileLoader, &[]);
        assert!(
            compiled.report.diagnostics.is_empty(),
            "{}",
            compiled.report.render(false)
        );
        assert!(compiled.rules.is_some());
    }
}

#[test]
fn readme_table_of_games_lists_every_shipped_variant() {
    let readme = read("README.md");
    let games = readme
        .split("\n## The games")
        .nth(1)
        .expect("README has a section \"The games\"");
    let games = games.split("\n## ").next().unwrap();
    let listed: BTreeSet<String> = games
        .lines()
        .filter_map(cells)
        .filter_map(|row| code_spans(&row[0]).first().map(|s| s.to_string()))
        .collect();
    let shipped: BTreeSet<String> = std::fs::read_dir(Path::new(ROOT).join("variants"))
        .unwrap()
        .filter_map(|e| {
            e.unwrap()
                .file_name()
                .to_str()?
                .strip_suffix(".var")
                .map(str::to_string)
        })
        .collect();
    assert_eq!(listed, shipped, "README's table of games and variants/ differ");
}

/// The commands `koma --help` lists (without `help`).
fn commands() -> Vec<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_koma")).arg("--help").output().unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
    let list = help.split("Commands:\n").nth(1).unwrap().split("\n\n").next().unwrap();
    let names = list.lines().filter(|l| l.starts_with("  ") && !l.starts_with("   "));
    let names = names
        .filter_map(|l| l.split_whitespace().next())
        .filter(|n| *n != "help");
    names.map(str::to_string).collect()
}

#[test]
fn cli_reference_and_crate_doc_name_every_command() {
    let commands = commands();
    assert!(commands.len() >= 13, "{commands:?}");
    let cli = read("docs/cli.md");
    let crate_doc: String = read("src/lib.rs")
        .lines()
        .filter_map(|l| l.strip_prefix("//!"))
        .collect();
    for command in &commands {
        let heading = format!("## `koma {command}");
        assert!(
            cli.lines().any(|l| l.starts_with(&heading)),
            "docs/cli.md has no heading {heading}`"
        );
        assert!(
            crate_doc.contains(&format!("`{command}`")),
            "src/lib.rs's crate doc does not name `{command}`"
        );
    }
}
