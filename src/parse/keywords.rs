//! The words of the language: one table, read by the parser (to cut a file into statements
//! and to phrase syntax errors), by the compiler (to lower directions and to suggest the word
//! that was meant) and checked against `grammar/variant.pest`, which cannot import it: a test
//! below reads the grammar's keyword lists and compares them with this table.
//!
//! Within a kind, words are in the order reports list them and suggestions break ties.

/// A word of the language and what kind of word it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Word {
    pub text: &'static str,
    pub kind: Kind,
}

/// The kinds of words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Starts a statement; `form` is how the statement is written, for the help of a syntax
    /// error.
    Statement { form: &'static str },
    /// Starts a move clause (a kind of movement).
    Movement,
    /// May come before a movement in a clause.
    Modifier,
    /// A piece attribute, between the piece's name and its `:`.
    Attribute,
    /// A direction, from the mover's point of view, with the offsets it stands for: `dx` to
    /// the mover's right, `dy` forward. The single directions come first.
    Direction { offsets: &'static [(i8, i8)] },
    /// A keyword inside a statement (`when`, `zone`, `per file`, …).
    Part,
}

const F: (i8, i8) = (0, 1);
const B: (i8, i8) = (0, -1);
const L: (i8, i8) = (-1, 0);
const R: (i8, i8) = (1, 0);
const FL: (i8, i8) = (-1, 1);
const FR: (i8, i8) = (1, 1);
const BL: (i8, i8) = (-1, -1);
const BR: (i8, i8) = (1, -1);

/// Alone on its line, possibly with a guard: how the rules that take nothing are written.
macro_rules! alone {
    ($word:literal) => {
        concat!("`", $word, "`, alone on its line (or with `when OPTION = VALUE`)")
    };
}

const fn statement(text: &'static str, form: &'static str) -> Word {
    Word {
        text,
        kind: Kind::Statement { form },
    }
}

const fn word(text: &'static str, kind: Kind) -> Word {
    Word { text, kind }
}

const fn direction(text: &'static str, offsets: &'static [(i8, i8)]) -> Word {
    Word {
        text,
        kind: Kind::Direction { offsets },
    }
}

/// Every word of the language.
pub const WORDS: &[Word] = &[
    statement("variant", "`variant \"Name\"`"),
    statement("use", "`use \"VARIANT\"` or `use \"VARIANT\": ABBR, ABBR`"),
    statement("board", "`board FILES x RANKS`, such as `board 9 x 9`"),
    statement("option", "`option NAME \"description\" = VALUE | VALUE`"),
    statement(
        "piece",
        "`piece ABBR \"Name\" ATTRIBUTES : MOVES`, such as `piece K \"King\" royal : step all`",
    ),
    statement(
        "setup",
        "`setup` (or `setup white`), then one row per rank, such as `i: L N S G K G S N L`, and a `hand:` row",
    ),
    statement(
        "promotion",
        "`promotion zone N [on enter within leave] [optional|compulsory]` or `promotion capture`",
    ),
    statement("flip", "`flip on capture` or `flip on move`"),
    statement("deferral", alone!("deferral")),
    statement("declined-waits-for-last-rank", "`declined-waits-for-last-rank ABBR...`"),
    statement("last-rank-promotion-optional", "`last-rank-promotion-optional ABBR...`"),
    statement("no-forced-promotion", "`no-forced-promotion ABBR...`"),
    statement(
        "drops",
        "`drops`, optionally followed by `either-face` and `anywhere` (or with `when OPTION = VALUE`)",
    ),
    statement(
        "drop-limit",
        "`drop-limit ABBR N per file`, such as `drop-limit P 1 per file`",
    ),
    statement("no-drop-mate", "`no-drop-mate ABBR...`"),
    statement("no-drop-last-rank", "`no-drop-last-rank ABBR...`"),
    statement(
        "piece-limit",
        "`piece-limit ABBR N per file`, such as `piece-limit D 2 per file`",
    ),
    statement(
        "captured-as",
        "`captured-as ABBR ABBR`: a captured piece of the first kind enters the hand as the second",
    ),
    statement("stalemate", "`stalemate draw`, `stalemate loss` or `stalemate win`"),
    statement("bare-king", alone!("bare-king")),
    statement(
        "try",
        "`try N`, `try N unattacked` or `try N unless-taken`, such as `try 1 unless-taken`",
    ),
    statement("check-wins", alone!("check-wins")),
    statement(
        "extinction",
        "`extinction win|loss|draw`, optionally followed by the kinds whose loss ends the game, such as `extinction win`",
    ),
    statement("must-capture", alone!("must-capture")),
    statement(
        "repetition",
        "`repetition N draw|illegal|starter-varies`, optionally followed by `, perpetual-check loses`",
    ),
    statement(
        "lion-trading",
        "`lion-trading ABBR... [bridge-excludes ABBR...] [defended-after-move]`",
    ),
    statement("counter-strike", "`counter-strike ABBR...`"),
    statement("royal-capture-allowed", alone!("royal-capture-allowed")),
    statement("capture-unprotected-protects", alone!("capture-unprotected-protects")),
    statement("stuck-pieces-stay", alone!("stuck-pieces-stay")),
    statement("moves-as-piece-behind", alone!("moves-as-piece-behind")),
    statement("burns-before-burnt", alone!("burns-before-burnt")),
    statement(
        "handicap",
        "`handicap \"Name\" SQUARE...`, such as `handicap \"Rook\" 8b`",
    ),
    word("step", Kind::Movement),
    word("slide", Kind::Movement),
    word("range", Kind::Movement),
    word("jump", Kind::Movement),
    word("leap", Kind::Movement),
    word("lion", Kind::Movement),
    word("hook", Kind::Movement),
    word("anywhere", Kind::Movement),
    word("as", Kind::Movement),
    word("area", Kind::Movement),
    word("range-jump", Kind::Movement),
    word("range-capture", Kind::Movement),
    word("igui", Kind::Movement),
    word("hop", Kind::Movement),
    word("move-only", Kind::Modifier),
    word("capture-only", Kind::Modifier),
    word("capture-unprotected", Kind::Modifier),
    word("from-last-rank", Kind::Modifier),
    word("beyond", Kind::Modifier),
    word("passing", Kind::Modifier),
    word("sfen", Kind::Attribute),
    word("kanji", Kind::Attribute),
    word("value", Kind::Attribute),
    word("royal", Kind::Attribute),
    word("promotes", Kind::Attribute),
    word("must-promote", Kind::Attribute),
    word("jump-rank", Kind::Attribute),
    word("burns", Kind::Attribute),
    direction("forward", &[F]),
    direction("back", &[B]),
    direction("left", &[L]),
    direction("right", &[R]),
    direction("forward-left", &[FL]),
    direction("forward-right", &[FR]),
    direction("back-left", &[BL]),
    direction("back-right", &[BR]),
    direction("orthogonal", &[F, B, L, R]),
    direction("diagonal", &[FL, FR, BL, BR]),
    direction("all", &[F, FL, FR, L, R, B, BL, BR]),
    direction("sideways", &[L, R]),
    direction("vertical", &[F, B]),
    direction("forward-diagonal", &[FL, FR]),
    direction("back-diagonal", &[BL, BR]),
    word("when", Kind::Part),
    word("zone", Kind::Part),
    word("on", Kind::Part),
    word("capture", Kind::Part),
    word("per", Kind::Part),
    word("file", Kind::Part),
    word("perpetual-check", Kind::Part),
    word("loses", Kind::Part),
    word("bridge-excludes", Kind::Part),
    word("defended-after-move", Kind::Part),
    word("turning", Kind::Part),
];

/// The words of the kinds `wanted` picks, in table order.
fn texts(wanted: fn(&Kind) -> bool) -> impl Iterator<Item = &'static str> + Clone {
    WORDS.iter().filter(move |w| wanted(&w.kind)).map(|w| w.text)
}

/// The words that start a statement.
pub fn statements() -> impl Iterator<Item = &'static str> + Clone {
    texts(|k| matches!(k, Kind::Statement { .. }))
}

/// Whether `text` starts a statement.
pub fn is_statement(text: &str) -> bool {
    statements().any(|w| w == text)
}

/// How the statement that `keyword` starts is written, if it starts one.
pub fn form_of(keyword: &str) -> Option<&'static str> {
    WORDS.iter().find_map(|w| match w.kind {
        Kind::Statement { form } if w.text == keyword => Some(form),
        _ => None,
    })
}

/// The kinds of movement.
pub fn movements() -> impl Iterator<Item = &'static str> + Clone {
    texts(|k| matches!(k, Kind::Movement))
}

/// The modifiers of a move clause.
pub fn modifiers() -> impl Iterator<Item = &'static str> + Clone {
    texts(|k| matches!(k, Kind::Modifier))
}

/// The words that may start a move clause: the kinds of movement, then the modifiers.
pub fn clause_starts() -> impl Iterator<Item = &'static str> + Clone {
    texts(|k| matches!(k, Kind::Movement | Kind::Modifier))
}

/// The piece attributes.
pub fn attributes() -> impl Iterator<Item = &'static str> + Clone {
    texts(|k| matches!(k, Kind::Attribute))
}

/// The directions and the offsets each stands for.
pub fn directions() -> impl Iterator<Item = (&'static str, &'static [(i8, i8)])> + Clone {
    WORDS.iter().filter_map(|w| match w.kind {
        Kind::Direction { offsets } => Some((w.text, offsets)),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    const GRAMMAR: &str = include_str!("../../grammar/variant.pest");

    /// The quoted words of the alternatives in the grammar rule `name`, which lists them as
    /// `name = @{ ("a" | "b" | …) ~ kw_end }`.
    fn grammar_words(name: &str) -> BTreeSet<&'static str> {
        let line = GRAMMAR
            .lines()
            .find(|l| l.split_whitespace().next() == Some(name) && l.contains("= @{"))
            .unwrap_or_else(|| panic!("grammar: no rule {name}"));
        let list = &line[line.find('(').expect("a list") + 1..line.find(')').expect("a list")];
        list.split('|').map(|w| w.trim().trim_matches('"')).collect()
    }

    /// The words that the grammar looks ahead for before a keyword: `&"board" ~ kw`.
    fn looked_ahead() -> BTreeSet<&'static str> {
        GRAMMAR
            .split("&\"")
            .skip(1)
            .filter_map(|rest| {
                let (word, after) = rest.split_once('"')?;
                after.trim_start().starts_with("~ kw").then_some(word)
            })
            .collect()
    }

    fn set(words: impl Iterator<Item = &'static str>) -> BTreeSet<&'static str> {
        words.collect()
    }

    #[test]
    fn grammar_statement_words_are_the_tables() {
        assert_eq!(grammar_words("statement_word"), set(statements()));
    }

    #[test]
    fn grammar_move_words_are_the_tables() {
        assert_eq!(grammar_words("move_word"), set(clause_starts()));
        let mut grammar_modifiers = grammar_words("modifier_word");
        grammar_modifiers.extend(grammar_words("modifier_count"));
        assert_eq!(grammar_modifiers, set(modifiers()));
    }

    #[test]
    fn grammar_attribute_words_are_the_tables() {
        assert_eq!(grammar_words("attribute_word"), set(attributes()));
    }

    /// Every keyword the grammar reads (`kw`) is in the table, and is looked ahead for by one
    /// rule; every word of the table but directions and modifiers (which the grammar reads as
    /// words) is a keyword.
    #[test]
    fn grammar_keywords_are_the_tables() {
        let keywords = set(WORDS
            .iter()
            .filter(|w| !matches!(w.kind, Kind::Direction { .. } | Kind::Modifier))
            .map(|w| w.text));
        assert_eq!(grammar_words("kw"), keywords);
        assert_eq!(looked_ahead(), keywords);
    }

    /// The fuzzer's dictionary of the language holds every word, so that new words are fuzzed.
    #[test]
    fn fuzz_dictionary_has_every_word() {
        let dictionary = include_str!("../../fuzz/dict/variant.dict");
        let quoted: BTreeSet<&str> = dictionary
            .lines()
            .filter_map(|l| l.split_once("=\"")?.1.strip_suffix('"'))
            .collect();
        let missing: Vec<&str> = WORDS.iter().map(|w| w.text).filter(|w| !quoted.contains(w)).collect();
        assert!(missing.is_empty(), "fuzz/dict/variant.dict lacks {missing:?}");
    }

    #[test]
    fn words_are_unique() {
        let all = set(WORDS.iter().map(|w| w.text));
        assert_eq!(all.len(), WORDS.len());
    }

    #[test]
    fn single_directions_come_first() {
        let singles = directions().take_while(|(_, offsets)| offsets.len() == 1).count();
        assert_eq!(directions().filter(|(_, offsets)| offsets.len() == 1).count(), singles);
        assert_eq!(singles, 8);
    }
}
