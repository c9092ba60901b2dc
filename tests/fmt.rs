//! `koma fmt`: the canonical layout is a fixed point, keeps every comment, never changes what
//! a file compiles to, and `--check` tells CI which files would change. The files formatted are
//! the shipped variants and every variant file the tests and the fuzzer keep.

mod support;

use koma::compile::{Choice, FileLoader, Source, compile};
use koma::format::format;
use std::path::{Path, PathBuf};
use support::{folder, koma, path};

/// Every variant file of the package but the shipped ones: the tests' broken files and the
/// fuzzer's corpus.
fn test_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["tests/broken", "fuzz/corpus/variant"] {
        for entry in std::fs::read_dir(root.join(dir)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "var") {
                files.push(path);
            }
        }
    }
    files.sort();
    assert!(files.len() > 40, "the test files are found: {files:?}");
    files
}

fn shipped_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    support::shipped()
        .into_iter()
        .map(|name| root.join("variants").join(format!("{name}.var")))
        .collect()
}

fn all_files() -> Vec<PathBuf> {
    let mut files = shipped_files();
    files.extend(test_files());
    files
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap()
}

/// What a text compiles to, as a file at `path` (so that its `use`s are found beside it),
/// with these options: the rules' RON, or the errors' codes and messages.
fn compiled(path: &Path, text: &str, choices: &[Choice]) -> String {
    let source = Source {
        name: path.display().to_string(),
        text: text.into(),
    };
    let compiled = compile(source, &FileLoader, choices);
    match compiled.rules {
        Some(rules) => rules.to_ron(),
        None => compiled
            .report
            .diagnostics
            .iter()
            .map(|d| format!("{}: {}\n", d.code(), d.message))
            .collect(),
    }
}

/// The comments of a text in order, without the space around them.
fn comments(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|line| {
            let code = koma::parse::code_of(line);
            (code.len() < line.len()).then(|| line[code.len()..].trim_end().to_string())
        })
        .collect()
}

/// The same text laid out carelessly: white space added around every word and punctuation
/// mark outside quotes, tabs, trailing spaces, and blank lines doubled.
fn messy(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let code = koma::parse::code_of(line);
        let comment = &line[code.len()..];
        for (k, part) in code.split('"').enumerate() {
            if k % 2 == 1 {
                out.push('"');
                out.push_str(part);
                out.push('"');
                continue;
            }
            let spaced = part
                .replace(' ', " \t ")
                .replace(',', " ,  ")
                .replace('(', " (  ")
                .replace(')', "  ) ")
                .replace(':', "  : ")
                .replace('=', " =  ")
                .replace('|', "  | ");
            out.push_str(&spaced);
        }
        out.push_str(comment);
        out.push_str("   \n");
        if line.trim().is_empty() {
            out.push('\n');
        }
    }
    out
}

#[test]
fn shipped_variants_are_in_the_canonical_layout() {
    for file in shipped_files() {
        let text = read(&file);
        let formatted = format(&text).unwrap_or_else(|e| panic!("{}: {e:?}", file.display()));
        assert!(
            formatted == text,
            "{} is not formatted: run `koma fmt variants/`",
            file.display()
        );
    }
}

#[test]
fn formatting_is_idempotent_on_every_variant_file() {
    let mut formatted_files = 0;
    for file in all_files() {
        let text = read(&file);
        let Ok(once) = format(&text) else {
            continue;
        };
        formatted_files += 1;
        let twice =
            format(&once).unwrap_or_else(|e| panic!("{}: the formatted text does not parse: {e:?}", file.display()));
        assert_eq!(once, twice, "{}: a second pass changes the text", file.display());
    }
    assert!(formatted_files > 40, "{formatted_files} files formatted");
}

#[test]
fn a_file_that_does_not_parse_is_not_formatted() {
    let broken: Vec<PathBuf> = test_files()
        .into_iter()
        .filter(|f| !koma::parse::parse(&read(f)).1.is_empty())
        .collect();
    assert!(broken.len() >= 5, "{broken:?}");
    for file in broken {
        let refused = format(&read(&file));
        assert!(
            matches!(refused, Err(koma::format::Error::Syntax(_))),
            "{}",
            file.display()
        );
    }
}

#[test]
fn formatting_never_changes_what_a_file_compiles_to() {
    for file in all_files() {
        let text = read(&file);
        let Ok(formatted) = format(&text) else {
            continue;
        };
        assert_eq!(
            compiled(&file, &text, &[]),
            compiled(&file, &formatted, &[]),
            "{}",
            file.display()
        );
    }
}

#[test]
fn formatting_never_changes_the_rules_under_any_option_value() {
    for file in shipped_files() {
        let text = read(&file);
        let formatted = format(&text).unwrap();
        let rules = koma::compile::compile_named(&file.display().to_string(), &[])
            .rules
            .unwrap();
        for (name, option) in &rules.options {
            for value in &option.values {
                let choice = vec![Choice {
                    name: name.clone(),
                    value: value.clone(),
                }];
                let before = compiled(&file, &text, &choice);
                assert!(before.starts_with('('), "{} {name}={value} compiles", file.display());
                assert_eq!(
                    before,
                    compiled(&file, &formatted, &choice),
                    "{} {name}={value}",
                    file.display()
                );
            }
        }
    }
}

#[test]
fn formatting_keeps_every_comment_in_order() {
    for file in all_files() {
        let text = read(&file);
        if let Ok(formatted) = format(&text) {
            assert_eq!(comments(&text), comments(&formatted), "{}", file.display());
        }
    }
}

#[test]
fn a_carelessly_spaced_file_formats_as_its_original() {
    for file in all_files() {
        let text = read(&file);
        let Ok(formatted) = format(&text) else {
            continue;
        };
        let careless = messy(&text);
        let again = format(&careless)
            .unwrap_or_else(|e| panic!("{}: the messy text does not parse: {e:?}\n{careless}", file.display()));
        assert_eq!(formatted, again, "{}", file.display());
    }
}

#[test]
fn comments_stay_where_they_were_written() {
    let text = "  # a heading\nvariant \"X\"   # the name\n\n\n\nboard 5 x 5\npiece G \"Gold\" :   # moves follow\n    step orthogonal,   # straight\n # and\n  step forward-diagonal\nsetup\n# the rows\n   e:  G   # one\n";
    let expected = "# a heading\nvariant \"X\"  # the name\n\nboard 5 x 5\npiece G \"Gold\" :  # moves follow\n  step orthogonal,  # straight\n  # and\n  step forward-diagonal\nsetup\n  # the rows\n  e: G  # one\n";
    assert_eq!(format(text).unwrap(), expected);
}

#[test]
fn piece_columns_align_over_a_block_and_a_blank_line_starts_another() {
    let text = "piece K \"King\" royal : step all\n# the Gold\npiece +DE \"Crown Prince\" : step all\n\npiece G \"Gold\" : as K\n";
    let expected = "piece K   \"King\"         royal : step all\n# the Gold\npiece +DE \"Crown Prince\" : step all\n\npiece G \"Gold\" : as K\n";
    assert_eq!(format(text).unwrap(), expected);
}

#[test]
fn when_and_handicap_names_align_over_statements_of_one_kind() {
    let text = "stalemate draw when s = a\nstalemate loss when s = b\nrepetition 3 illegal when r = a\nrepetition 4 draw, perpetual-check loses when r = b\nhandicap \"Lance\" 1a\nhandicap \"Two pieces\" 2b 8b\n";
    let expected = "stalemate draw when s = a\nstalemate loss when s = b\nrepetition 3 illegal                     when r = a\nrepetition 4 draw, perpetual-check loses when r = b\nhandicap \"Lance\"      1a\nhandicap \"Two pieces\" 2b 8b\n";
    assert_eq!(format(text).unwrap(), expected);
}

#[test]
fn setup_rows_of_equal_length_align_as_a_grid() {
    let grid = "setup\n  d: . . Sw .\n  e: Sw Sw Sw Ph\n";
    assert_eq!(format(grid).unwrap(), "setup\n  d: .  .  Sw .\n  e: Sw Sw Sw Ph\n");
    let runs = "setup\n  d: 2  Sw .\n  e: Sw Sw Sw Ph\n";
    assert_eq!(format(runs).unwrap(), "setup\n  d: 2 Sw .\n  e: Sw Sw Sw Ph\n");
}

#[test]
fn words_the_grammar_does_not_know_keep_their_text() {
    let text = "frobnicate   the  pieces:all # later\npiece G \"Gold\" shiny   3 : teleport  2   forward\n";
    let expected = "frobnicate the pieces: all  # later\npiece G \"Gold\" shiny 3 : teleport 2 forward\n";
    assert_eq!(format(text).unwrap(), expected);
}

#[test]
fn line_breaks_and_byte_order_mark_are_kept() {
    let text = "\u{feff}variant  \"X\"\r\nboard 5 x 5\r\n";
    assert_eq!(format(text).unwrap(), "\u{feff}variant \"X\"\r\nboard 5 x 5\r\n");
}

// ---------------------------------------------------------------- the command

const UNFORMATTED: &str = "variant \"Mini\"\nboard  5 x 5\npiece K \"King\" royal : step all\n";
const FORMATTED: &str = "variant \"Mini\"\nboard 5 x 5\npiece K \"King\" royal : step all\n";

#[test]
fn fmt_check_passes_a_formatted_file_and_writes_nothing() {
    let dir = folder("fmt", "check-ok");
    let file = dir.join("mini.var");
    std::fs::write(&file, FORMATTED).unwrap();
    let run = koma(&["fmt", "--check", path(&file)]);
    assert_eq!(run.code_and_text(), (Some(0), String::new()));
}

#[test]
fn fmt_check_names_each_file_that_would_change_and_its_first_difference() {
    let dir = folder("fmt", "check-differs");
    let (a, b, ok) = (dir.join("a.var"), dir.join("b.var"), dir.join("ok.var"));
    std::fs::write(&a, UNFORMATTED).unwrap();
    std::fs::write(&b, UNFORMATTED).unwrap();
    std::fs::write(&ok, FORMATTED).unwrap();
    let run = koma(&["fmt", "--check", path(&a), path(&ok), path(&b)]);
    assert_eq!(run.code, Some(1), "{}", run.text());
    let expected = |p: &Path| {
        format!(
            "{}: not formatted; first difference at line 2:\n- board  5 x 5\n+ board 5 x 5\n",
            p.display()
        )
    };
    assert_eq!(run.stdout, format!("{}{}", expected(&a), expected(&b)));
    assert_eq!(read(&a), UNFORMATTED, "--check writes nothing");
}

#[test]
fn fmt_rewrites_a_file_in_place_and_then_check_passes() {
    let dir = folder("fmt", "rewrite");
    let file = dir.join("mini.var");
    std::fs::write(&file, UNFORMATTED).unwrap();
    let run = koma(&["fmt", path(&file)]);
    assert_eq!(
        run.code_and_text(),
        (Some(0), format!("formatted {}\n", file.display()))
    );
    assert_eq!(read(&file), FORMATTED);
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(leftovers, ["mini.var"], "no temporary file is left");
    assert!(koma(&["fmt", "--check", path(&file)]).ok());
    let again = koma(&["fmt", path(&file)]);
    assert_eq!(
        again.code_and_text(),
        (Some(0), String::new()),
        "nothing to do the second time"
    );
}

#[test]
fn fmt_leaves_a_file_that_does_not_parse_and_shows_its_diagnostic() {
    let dir = folder("fmt", "broken");
    let file = dir.join("broken.var");
    let text = "variant \"Mini\"\nboard  5 x\n";
    std::fs::write(&file, text).unwrap();
    for args in [vec!["fmt"], vec!["fmt", "--check"]] {
        let mut args = args.clone();
        args.push(path(&file));
        let run = koma(&args);
        assert_eq!(run.code, Some(2), "{}", run.text());
        assert!(run.stderr.contains("koma::syntax"), "{}", run.stderr);
        assert!(run.stderr.contains("broken.var:2:"), "{}", run.stderr);
        assert!(
            run.stderr.contains("was not formatted: it does not parse"),
            "{}",
            run.stderr
        );
        assert_eq!(read(&file), text);
    }
}

#[test]
fn fmt_of_a_missing_file_fails() {
    let run = koma(&["fmt", "no/such/file.var"]);
    assert_eq!(run.code, Some(2));
    assert!(run.stderr.contains("cannot read no/such/file.var"), "{}", run.stderr);
}

// ---------------------------------------------------------------- files as the user keeps them

/// A file changed between koma's read and its write (an edit saved while `koma fmt` runs) is
/// left with the edit; it was replaced by the formatted old text.
#[test]
fn a_file_changed_since_it_was_read_is_left_with_its_change() {
    let dir = folder("fmt", "changed");
    let file = dir.join("mini.var");
    std::fs::write(&file, UNFORMATTED).unwrap();
    let (_, stamp) = koma::files::read_stamped(&file, 1 << 20).unwrap();
    let edited = format!("{UNFORMATTED}# saved meanwhile\n");
    std::fs::write(&file, &edited).unwrap();
    let refused = koma::files::replace_read(&file, FORMATTED, &stamp).unwrap_err();
    assert!(refused.contains("changed since koma read it"), "{refused}");
    assert_eq!(read(&file), edited);
}

#[cfg(unix)]
fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).unwrap().permissions().mode() & 0o7777
}

/// A file its owner made read-only is not rewritten (it was, through a new file renamed
/// over it, even as root); `koma fmt` says so and fails.
#[cfg(unix)]
#[test]
fn a_read_only_file_is_not_rewritten() {
    use std::os::unix::fs::PermissionsExt;
    let dir = folder("fmt", "read-only");
    let file = dir.join("mini.var");
    std::fs::write(&file, UNFORMATTED).unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o444)).unwrap();
    let run = koma(&["fmt", path(&file)]);
    assert_eq!(run.code, Some(2), "{}", run.text());
    assert!(
        run.stderr.contains("is read-only, and was left as it is"),
        "{}",
        run.stderr
    );
    assert_eq!(read(&file), UNFORMATTED);
    assert_eq!(mode(&file), 0o444);
}

/// A file with another hard link is formatted under both names (the link was split: the
/// other name kept the old text), and keeps its mode.
#[cfg(unix)]
#[test]
fn a_hard_linked_file_is_formatted_under_every_name() {
    use std::os::unix::fs::PermissionsExt;
    let dir = folder("fmt", "hard-link");
    let file = dir.join("mini.var");
    let other = dir.join("other-name.var");
    std::fs::write(&file, UNFORMATTED).unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o640)).unwrap();
    std::fs::hard_link(&file, &other).unwrap();
    let run = koma(&["fmt", path(&file)]);
    assert_eq!(run.code, Some(0), "{}", run.text());
    assert_eq!(read(&file), FORMATTED);
    assert_eq!(read(&other), FORMATTED, "the other name is the same file");
    assert_eq!(mode(&file), 0o640);
}

/// A file owned by another user keeps its owner when koma (run as root) formats it; it
/// became root's. Where koma's tests do not run as root, the file cannot be given away and
/// the test checks only that the file is formatted.
#[cfg(unix)]
#[test]
fn a_file_keeps_its_owner() {
    use std::os::unix::fs::MetadataExt;
    let dir = folder("fmt", "owner");
    let file = dir.join("mini.var");
    std::fs::write(&file, UNFORMATTED).unwrap();
    let given = std::os::unix::fs::chown(&file, Some(4321), Some(4321)).is_ok();
    let run = koma(&["fmt", path(&file)]);
    assert_eq!(run.code, Some(0), "{}", run.text());
    assert_eq!(read(&file), FORMATTED);
    if given {
        let metadata = std::fs::metadata(&file).unwrap();
        assert_eq!((metadata.uid(), metadata.gid()), (4321, 4321));
    }
}

/// Two byte-order marks: the parser skips one, so the text does not parse, and `koma fmt`
/// refuses it as `koma check` does (the formatter skipped both and wrote a file that does not
/// parse).
#[test]
fn a_text_with_two_byte_order_marks_is_not_formatted() {
    let text = format!("\u{feff}\u{feff}{UNFORMATTED}");
    assert!(!koma::parse::parse(&text).1.is_empty());
    assert!(matches!(format(&text), Err(koma::format::Error::Syntax(_))));
    let dir = folder("fmt", "two-marks");
    let file = dir.join("mini.var");
    std::fs::write(&file, &text).unwrap();
    let run = koma(&["fmt", path(&file)]);
    assert_eq!(run.code, Some(2), "{}", run.text());
    assert!(run.stderr.contains("does not parse"), "{}", run.stderr);
    assert_eq!(read(&file), text);
}
