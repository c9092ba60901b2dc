//! The terminal koma writes to: how wide it is, and text wrapped to that width at word
//! boundaries.

use std::io::IsTerminal;

/// The width a board is fitted to when output is not a terminal and `COLUMNS` does not say.
pub const DEFAULT_WIDTH: usize = 80;
/// The narrowest width text is wrapped to, however narrow the terminal says it is.
const NARROWEST: usize = 20;

/// The width of the output: `COLUMNS` when it holds a number, else the width of the terminal
/// standard output goes to; `None` when output goes to a pipe or a file (that has no width).
pub fn width() -> Option<usize> {
    let from_env = std::env::var("COLUMNS")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|&w| w > 0);
    let from_terminal = || {
        let stdout = std::io::stdout();
        if !stdout.is_terminal() {
            return None;
        }
        terminal_size::terminal_size_of(&stdout).map(|(w, _)| usize::from(w.0))
    };
    from_env.or_else(from_terminal).map(|w| w.max(NARROWEST))
}

/// `text` wrapped at word boundaries to the output's width (unwrapped where output has none).
pub fn fit(text: &str) -> String {
    match width() {
        Some(width) => wrap(text, width),
        None => text.to_string(),
    }
}

/// `text` wrapped to `width` columns at word boundaries (a word longer than a line is
/// broken); its own line breaks are kept.
pub fn wrap(text: &str, width: usize) -> String {
    textwrap::fill(
        text,
        textwrap::Options::new(width)
            .break_words(true)
            .word_splitter(textwrap::WordSplitter::NoHyphenation),
    )
}

/// `text` wrapped to `width` columns, every line after the first indented by `indent`
/// spaces (for the second column of a table).
pub fn wrap_indented(first: &str, text: &str, indent: usize, width: usize) -> String {
    let hanging = " ".repeat(indent);
    let initial = format!("{first:<indent$}");
    textwrap::fill(
        text,
        textwrap::Options::new(width.max(indent + NARROWEST))
            .word_splitter(textwrap::WordSplitter::NoHyphenation)
            .initial_indent(&initial)
            .subsequent_indent(&hanging),
    )
}
