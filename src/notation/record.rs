//! Game records: a PGN-like text, as XBoard writes games of shogi variants.
//!
//! ```text
//! [Variant "chu"]
//! [Option "teaching-king=2"]
//! [Black "you"]
//! [White "koma (depth 3)"]
//! [Date "2026.11.22"]
//! [Result "*"]
//!
//! 1. P-7f P-3d 2. S-6h {a comment} P-3e
//! *
//! ```
//! Tags come first (`Variant`, `Option` once per option, `Black`, `White`, `Date`,
//! `Handicap`, `SFEN` when the game did not start from the standard position, `Result`,
//! `Termination`; any other tag is kept as it is, and only `Option` may be given more than
//! once); then the moves with move numbers, `{…}` comments, and the result
//! (`1-0` Black won, `0-1` White won, `1/2-1/2`, `*` unfinished). Files are read and written
//! through [`crate::files`]: only regular files, and a save is whole or leaves the old file.

use super::taken::describe_taken;
use super::tsa::read_move;
use super::usi::write_usi;
use crate::game::{EndReason, Game, Outcome, Played, Position};
use crate::rules::Side;
use indexmap::IndexMap;
use std::path::Path;

/// A record as read from text, before its moves are played.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Record {
    /// The tags but `Option`, each given once, in order.
    pub tags: IndexMap<String, String>,
    /// The values of the `Option` tags (`teaching-king=2`), in order.
    pub options: Vec<String>,
    /// Each move as written, with the line it is on.
    pub moves: Vec<(String, usize)>,
    /// Comments, by the number of moves before them.
    pub comments: Vec<(usize, String)>,
    pub result: Option<String>,
}

impl Record {
    /// The outcome the record gives (none for `*`, or no result): who won by its result, and
    /// why by its `Termination` tag, which reads back as the outcome koma wrote it from (a
    /// resignation, an agreed draw…), or else is kept as the record's own words.
    pub fn outcome(&self) -> Option<Outcome> {
        let winner = winner_of(self.result.as_deref()?)?;
        let words = self.tags.get("Termination");
        let declared = [
            EndReason::Resignation,
            EndReason::AgreedDraw,
            EndReason::Adjudication,
            EndReason::MoveLimit,
        ]
        .into_iter()
        .map(|reason| Outcome { winner, reason })
        .find(|outcome| words.is_some_and(|w| *w == outcome.to_string()));
        Some(declared.unwrap_or_else(|| Outcome {
            winner,
            reason: EndReason::Recorded(words.cloned().unwrap_or_else(|| "as the record says".into())),
        }))
    }
}

/// Why a record cannot be read or replayed: the line, and for a move its number and text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}{}: {message}", .ply.map_or(String::new(), |ply| format!(", move {ply}")))]
pub struct RecordError {
    pub line: usize,
    /// The 1-based number of the move that failed, if a move failed.
    pub ply: Option<usize>,
    pub message: String,
}

/// The largest record file koma reads, in bytes.
pub const MAX_RECORD_BYTES: usize = 4 << 20;

/// The most moves a record may hold.
pub const MAX_RECORD_MOVES: usize = 10_000;

/// Reads a record file as text: a regular file of at most [`MAX_RECORD_BYTES`], in UTF-8.
/// Temporary files that saves of this record left when their process died are removed.
pub fn read_record_file(path: &Path) -> Result<String, String> {
    crate::files::clean_stale_temporaries(path);
    let bytes = crate::files::read_regular(path, MAX_RECORD_BYTES)?;
    if bytes.len() > MAX_RECORD_BYTES {
        return Err(format!(
            "{} is larger than {MAX_RECORD_BYTES} bytes: past koma's limit for a record",
            path.display()
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "{} is not UTF-8 text (invalid byte at offset {})",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })
}

/// The most characters of a player's input (a piece of a record, a move, a name) a message
/// quotes back.
pub const EXCERPT_CHARS: usize = 40;

/// A text as a message quotes it back: whole when at most `limit` characters, else its start
/// and its length, `abc… (4002 characters)`.
pub fn excerpt(text: &str, limit: usize) -> String {
    match text.char_indices().nth(limit) {
        None => text.to_string(),
        Some((end, _)) => format!("{}… ({} characters)", &text[..end], text.chars().count()),
    }
}

/// Reads the text of a record (tags, moves, comments, result), without playing the moves.
pub fn parse_record(text: &str) -> Result<Record, RecordError> {
    // The byte-order mark some editors write at the start of a UTF-8 file.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut record = Record::default();
    let mut in_moves = false;
    let mut comment: Option<(usize, String)> = None;
    let mut tag_lines = IndexMap::new();
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let trimmed = raw.trim();
        if comment.is_none() && !in_moves && trimmed.starts_with('[') {
            let (name, value) = parse_tag(trimmed).ok_or_else(|| RecordError {
                line,
                ply: None,
                message: format!(
                    "`{}` is not a tag such as [Variant \"chu\"]",
                    excerpt(trimmed, EXCERPT_CHARS)
                ),
            })?;
            if name == "Option" {
                record.options.push(value);
            } else if let Some(first) = tag_lines.insert(name.clone(), line) {
                return Err(RecordError {
                    line,
                    ply: None,
                    message: format!("the tag [{name}] is given twice (first on line {first})"),
                });
            } else {
                record.tags.insert(name, value);
            }
            continue;
        }
        if !trimmed.is_empty() {
            in_moves = true;
        }
        movetext_line(raw, line, &mut record, &mut comment)?;
        if record.moves.len() > MAX_RECORD_MOVES {
            return Err(RecordError {
                line,
                ply: Some(MAX_RECORD_MOVES + 1),
                message: format!("more than {MAX_RECORD_MOVES} moves: past koma's limit for a record"),
            });
        }
    }
    if let Some((line, _)) = comment {
        return Err(RecordError {
            line,
            ply: None,
            message: "a comment `{` is never closed".into(),
        });
    }
    if !record.tags.contains_key("Variant") {
        return Err(RecordError {
            line: 1,
            ply: None,
            message: "the record has no [Variant \"…\"] tag".into(),
        });
    }
    Ok(record)
}

fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?.trim();
    let (name, rest) = inner.split_once(char::is_whitespace)?;
    let value = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    let valid = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    valid.then(|| (name.to_string(), unescape(value)))
}

/// A tag's value as written between its quotes: `\\` and `\"` as PGN escapes them, and a
/// line break, a tab or another control character (a file name may hold any) as `\n`, `\r`,
/// `\t` or `\u{…}`, so that the tag stays on its line and reads back as it was.
fn escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
            c => out.push(c),
        }
    }
    out
}

/// The value [`escape`] wrote; a backslash before anything else stays (records written
/// before these escapes have it raw).
fn unescape(written: &str) -> String {
    let mut out = String::with_capacity(written.len());
    let mut rest = written;
    while let Some(at) = rest.find('\\') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let (decoded, used) = match after.chars().next() {
            Some('\\') => (Some('\\'), 1),
            Some('"') => (Some('"'), 1),
            Some('n') => (Some('\n'), 1),
            Some('r') => (Some('\r'), 1),
            Some('t') => (Some('\t'), 1),
            Some('u') => unicode_escape(after),
            _ => (None, 0),
        };
        match decoded {
            Some(c) => out.push(c),
            None => out.push('\\'),
        }
        rest = &after[used..];
    }
    out.push_str(rest);
    out
}

/// `u{1b}` after a backslash: the character and the bytes it takes; `(None, 0)` if it is not.
fn unicode_escape(after: &str) -> (Option<char>, usize) {
    let Some(body) = after.strip_prefix("u{") else {
        return (None, 0);
    };
    let Some(end) = body.find('}') else {
        return (None, 0);
    };
    match u32::from_str_radix(&body[..end], 16).ok().and_then(char::from_u32) {
        Some(c) => (Some(c), end + 3),
        None => (None, 0),
    }
}

/// Reads one line of movetext: move numbers, moves, `{comments}`, `;` comments, a result.
fn movetext_line(
    raw: &str,
    line: usize,
    record: &mut Record,
    comment: &mut Option<(usize, String)>,
) -> Result<(), RecordError> {
    let mut rest = raw;
    loop {
        if let Some((_, text)) = comment.as_mut() {
            match rest.find('}') {
                Some(end) => {
                    text.push_str(&rest[..end]);
                    let (_, text) = comment.take().unwrap_or_default();
                    record.comments.push((record.moves.len(), text.trim().to_string()));
                    rest = &rest[end + 1..];
                }
                None => {
                    text.push_str(rest);
                    text.push(' ');
                    return Ok(());
                }
            }
        }
        rest = rest.trim_start();
        if rest.is_empty() || rest.starts_with(';') {
            return Ok(());
        }
        if let Some(after) = rest.strip_prefix('{') {
            *comment = Some((line, String::new()));
            rest = after;
            continue;
        }
        let end = rest.find(|c: char| c.is_whitespace() || c == '{').unwrap_or(rest.len());
        let token = &rest[..end];
        rest = &rest[end..];
        if token == "*" || winner_of(token).is_some() {
            record.result = Some(token.to_string());
        } else if let Some(number) = token.strip_suffix('.').map(|t| t.trim_end_matches('.')) {
            if number.is_empty() || !number.chars().all(|c| c.is_ascii_digit()) {
                return Err(RecordError {
                    line,
                    ply: None,
                    message: format!(
                        "`{}` is neither a move number nor a move",
                        excerpt(token, EXCERPT_CHARS)
                    ),
                });
            }
        } else if record.result.is_some() {
            return Err(RecordError {
                line,
                ply: None,
                message: format!("`{}` comes after the result", excerpt(token, EXCERPT_CHARS)),
            });
        } else {
            record.moves.push((token.to_string(), line));
        }
    }
}

/// Plays a record's moves in `game`, stopping at the first move that cannot be played.
/// The moves before it stay played.
pub fn replay(game: &mut Game, record: &Record) -> Result<(), RecordError> {
    for (index, (text, line)) in record.moves.iter().enumerate() {
        let error = |message: String| RecordError {
            line: *line,
            ply: Some(index + 1),
            message,
        };
        // A move's own error names the move already: a long one is quoted as an excerpt.
        let quoted = format!("`{text}`");
        let shown = format!("`{}`", excerpt(text, EXCERPT_CHARS));
        let m = read_move(game.position(), text).map_err(|e| error(e.to_string().replacen(&quoted, &shown, 1)))?;
        game.play(m).map_err(|e| error(format!("{shown} is illegal: {e}")))?;
    }
    Ok(())
}

/// The results of a finished game and who each says won: `1-0` Black, `0-1` White, `1/2-1/2`
/// a draw. XBoard's results are the same (its white is koma's Black).
const FINISHED: [(&str, Option<Side>); 3] = [
    ("1-0", Some(Side::Black)),
    ("0-1", Some(Side::White)),
    ("1/2-1/2", None),
];

/// A game's result as a record (and XBoard) writes it: `1-0`, `0-1` or `1/2-1/2`, or `*` for a
/// game going on.
pub fn result_token(outcome: Option<&Outcome>) -> &'static str {
    outcome.map_or("*", |outcome| {
        FINISHED
            .iter()
            .find(|(_, winner)| *winner == outcome.winner)
            .map_or("*", |(token, _)| token)
    })
}

/// The winner a finished game's result names (none for a draw); `None` for `*`.
fn winner_of(token: &str) -> Option<Option<Side>> {
    FINISHED
        .iter()
        .find(|(written, _)| *written == token)
        .map(|(_, winner)| *winner)
}

/// `tags` with a game's outcome in them, as a record of the game gives it: `Result` (where the
/// tags have it, else last) and, for a game over, `Termination` (where the tags have it, else
/// after `Result`), the sentence players read; no `Termination` for a game going on.
pub fn tags_with_outcome(tags: &IndexMap<String, String>, outcome: Option<&Outcome>) -> IndexMap<String, String> {
    let mut tags = tags.clone();
    tags.insert("Result".into(), result_token(outcome).into());
    match outcome {
        None => {
            tags.shift_remove("Termination");
        }
        Some(outcome) => {
            let after_result = tags.get_index_of("Result").map_or(tags.len(), |i| i + 1);
            let (index, _) = tags.insert_full("Termination".into(), outcome.to_string());
            if index >= after_result {
                tags.move_index(index, after_result.min(tags.len() - 1));
            }
        }
    }
    tags
}

/// A move played, as the game kept its text; in USI in a game that keeps no text. `pos` is
/// any position of the game (for its board and pieces).
pub fn played_text(pos: &Position, played: &Played) -> String {
    played.text.clone().unwrap_or_else(|| write_usi(pos, &played.m))
}

/// Writes a game: `tags` in order (with the game's outcome, [`tags_with_outcome`]), with an
/// `Option` tag for each of `options` after the `Variant` tag; then the moves as the game kept
/// them (in USI for a game that keeps no text), numbered by pairs from the first mover, each
/// taking more than the piece it lands on followed by what it took in a comment; then the
/// result.
pub fn write_record(tags: &IndexMap<String, String>, options: &[String], game: &Game) -> String {
    let tag = |name: &str, value: &str| format!("[{name} \"{}\"]\n", escape(value));
    let mut out = String::new();
    let options_at = tags.get_index_of("Variant").map_or(0, |i| i + 1);
    for (index, (name, value)) in tags.iter().enumerate() {
        if index == options_at {
            out.extend(options.iter().map(|o| tag("Option", o)));
        }
        out.push_str(&tag(name, value));
    }
    if options_at >= tags.len() {
        out.extend(options.iter().map(|o| tag("Option", o)));
    }
    out.push('\n');
    let pos = game.position();
    let mut line = String::new();
    for (index, played) in game.played().iter().enumerate() {
        if index % 2 == 0 {
            line.push_str(&format!("{}. ", index / 2 + 1));
        }
        line.push_str(&played_text(pos, played));
        line.push(' ');
        if let Some(taken) = describe_taken(pos, played) {
            line.push_str(&format!("{{{taken}}} "));
        }
        if line.len() > 72 {
            out.push_str(line.trim_end());
            out.push('\n');
            line.clear();
        }
    }
    // The result as movetext: one of the results, whatever the tag says (any other text
    // there would read back as moves).
    let result = tags
        .get("Result")
        .map(String::as_str)
        .filter(|r| winner_of(r).is_some());
    line.push_str(result.unwrap_or("*"));
    out.push_str(line.trim_end());
    out.push('\n');
    out
}
