//! "Did you mean": every suggestion of the word that was probably meant goes through here,
//! so that all reports suggest alike. Words of the language, options and variant names are
//! compared by edit distance ([`suggest`], with `strsim`); piece abbreviations also by case,
//! promotion and name ([`suggest_pieces`], `meant_pieces`).

use super::{Entry, Table};

/// `did you mean `x`?`
pub fn did_you_mean(word: &str) -> String {
    format!("did you mean `{word}`?")
}

/// `did you mean `x`?` for the closest of `candidates` to `word` ([`suggest`]), or else what
/// `otherwise` says (usually the words there are).
pub fn did_you_mean_or<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
    otherwise: impl FnOnce() -> String,
) -> String {
    suggest(word, candidates).map_or_else(otherwise, did_you_mean)
}

/// `did you mean `x`?` for the closest of `candidates` to `word`, or else `{intro}: ` and
/// every candidate (`directions are: forward, back, …`).
pub fn did_you_mean_or_list<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str> + Clone,
    intro: &str,
) -> String {
    did_you_mean_or(word, candidates.clone(), || {
        format!("{intro}: {}", candidates.into_iter().collect::<Vec<_>>().join(", "))
    })
}

/// The closest of `candidates` to `word`, if close enough to be a likely typo: one edit in
/// three letters (at least one), except that a word of one or two letters (`P`, `+R`) only
/// matches a candidate that differs from it in case. For keywords, directions, options and
/// variant names; pieces have [`suggest_pieces`].
pub fn suggest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let len = word.trim_start_matches('+').chars().count();
    if len > MAX_COMPARED {
        // No word of the language is that long: no typo of one, and too long to compare.
        return None;
    }
    let limit = if len <= 2 { 0 } else { (len / 3).max(1) };
    let word_len = word.chars().count();
    let lower = word.to_lowercase();
    candidates
        .into_iter()
        // The distance is at least the difference in length: far longer words are skipped.
        .filter(|c| c.len() <= 4 * MAX_COMPARED && c.chars().count().abs_diff(word_len) <= limit)
        .map(|c| (strsim::osa_distance(&lower, &c.to_lowercase()), c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// The longest word compared for a suggestion, in characters.
const MAX_COMPARED: usize = 64;

/// The most pieces one suggestion names; past it the word is too far from all of them.
const MAX_SUGGESTED_PIECES: usize = 3;

/// The pieces a misspelt abbreviation probably meant, from `(abbreviation, name)` pairs, best
/// first (at most three, all equally likely). The same abbreviation in another case is meant
/// outright (`gd` → `GD`). Otherwise a promoted abbreviation is compared only with promoted
/// ones and an unpromoted with unpromoted ones (`+D` → `+R`, never `D`), letters without
/// regard to case: one edit away (a letter added, dropped, changed, or two swapped; one in
/// three for long abbreviations). Between two one-letter abbreviations every change is one
/// edit, so there the piece's name must also start with the letter written (`+D` → `+R`
/// "Dragon King"). Ties go to pieces whose name starts with the letters written (`Pa` →
/// `P` "Pawn"), then to those that keep the first letter (`Gl` → `G` before `FL`).
pub fn suggest_pieces<'a>(word: &str, pieces: impl IntoIterator<Item = (&'a str, &'a str)> + Clone) -> Vec<&'a str> {
    let same_case: Vec<&str> = pieces
        .clone()
        .into_iter()
        .map(|(abbrev, _)| abbrev)
        .filter(|abbrev| abbrev.to_lowercase() == word.to_lowercase())
        .collect();
    if !same_case.is_empty() {
        return same_case;
    }
    let promoted = word.starts_with('+');
    let base = word.trim_start_matches('+').to_lowercase();
    let len = base.chars().count();
    if len == 0 || len > MAX_COMPARED {
        return vec![];
    }
    let initial = base.chars().next();
    let mut ranked: Vec<((usize, bool, bool), &str)> = pieces
        .into_iter()
        .filter(|(abbrev, _)| abbrev.starts_with('+') == promoted && abbrev.len() <= 4 * MAX_COMPARED)
        .filter_map(|(abbrev, name)| {
            let other = abbrev.trim_start_matches('+').to_lowercase();
            let distance = strsim::osa_distance(&base, &other);
            let longest = len.max(other.chars().count());
            let limit = (longest / 3).max(1);
            let name = name.to_lowercase();
            let named = name.starts_with(&base) || initials(&name).starts_with(&base);
            let close = distance <= limit && (longest > 1 || named);
            let keeps_initial = other.chars().next() == initial;
            close.then_some(((distance, !named, !keeps_initial), abbrev))
        })
        .collect();
    ranked.sort_by_key(|(rank, _)| *rank);
    let best: Vec<&str> = ranked
        .iter()
        .take_while(|(rank, _)| Some(rank) == ranked.first().map(|(r, _)| r))
        .map(|(_, abbrev)| *abbrev)
        .collect();
    if best.len() > MAX_SUGGESTED_PIECES {
        vec![]
    } else {
        best
    }
}

/// The first letters of the words of a name: `dragon king` → `dk`.
fn initials(name: &str) -> String {
    name.split_whitespace().filter_map(|w| w.chars().next()).collect()
}

/// The pieces a word that is no piece's abbreviation probably meant.
pub(super) enum Meant<'a> {
    /// Abbreviations one typo away (or in another case), best first.
    Abbreviations(Vec<(&'a str, &'a Entry)>),
    /// The word is (close to) a piece's name.
    Name(&'a str, &'a Entry),
    Nothing,
}

/// What an unknown piece abbreviation probably meant: every report of an unknown piece asks
/// here, so that all suggest alike ([`suggest_pieces`]).
pub(super) fn meant_pieces<'a>(table: &'a Table, word: &str) -> Meant<'a> {
    let pairs = table
        .iter()
        .map(|(abbrev, e)| (abbrev.as_str(), e.decl.name.node.as_str()));
    let abbrevs: Vec<(&str, &Entry)> = suggest_pieces(word, pairs)
        .into_iter()
        .filter_map(|abbrev| table.get_key_value(abbrev).map(|(k, e)| (k.as_str(), e)))
        .collect();
    if !abbrevs.is_empty() {
        return Meant::Abbreviations(abbrevs);
    }
    let name = suggest(word, table.values().map(|e| e.decl.name.node.as_str()));
    name.and_then(|name| table.iter().find(|(_, e)| e.decl.name.node == name))
        .map_or(Meant::Nothing, |(abbrev, entry)| Meant::Name(abbrev, entry))
}

/// `did you mean `G` (Gold)?`, or `… `G` (Gold) or `GB` (Go-Between)?`.
pub(super) fn did_you_mean_pieces(meant: &[(&str, &Entry)]) -> String {
    let named: Vec<String> = meant
        .iter()
        .map(|(abbrev, entry)| format!("`{abbrev}` ({})", entry.decl.name.node))
        .collect();
    let list = match named.as_slice() {
        [init @ .., last] if !init.is_empty() => format!("{} or {last}", init.join(", ")),
        _ => named.join(""),
    };
    format!("did you mean {list}?")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions_find_typos_only() {
        assert_eq!(suggest("promtion", ["promotion", "drops"]), Some("promotion"));
        assert_eq!(suggest("fowrard", ["forward", "back"]), Some("forward"));
        assert_eq!(suggest("xyz", ["forward", "back"]), None);
        assert_eq!(suggest("P", ["K", "G"]), None);
        assert_eq!(suggest("+r", ["+R", "R"]), Some("+R"));
        assert_eq!(suggest("Dk", ["DK", "Dh"]), Some("DK"));
    }

    const PIECES: &[(&str, &str)] = &[
        ("K", "King"),
        ("G", "Gold"),
        ("GB", "Go-Between"),
        ("FL", "Ferocious Leopard"),
        ("R", "Rook"),
        ("B", "Bishop"),
        ("P", "Pawn"),
        ("+R", "Dragon King"),
        ("+B", "Dragon Horse"),
        ("+P", "Tokin"),
    ];

    fn pieces(word: &str) -> Vec<&'static str> {
        suggest_pieces(word, PIECES.iter().copied())
    }

    #[test]
    fn piece_suggestions_drop_a_letter_too_many() {
        assert_eq!(pieces("Gl"), ["G", "GB"]);
        assert_eq!(pieces("Pa"), ["P"]);
        assert_eq!(pieces("Kx"), ["K"]);
    }

    #[test]
    fn piece_suggestions_ignore_case() {
        assert_eq!(pieces("gb"), ["GB"]);
        assert_eq!(pieces("+r"), ["+R"]);
        assert_eq!(pieces("Fl"), ["FL"]);
    }

    #[test]
    fn piece_suggestions_keep_the_promoted_plus() {
        // One letter for another is one edit for every one-letter piece: the name decides.
        assert_eq!(pieces("+D"), ["+R", "+B"]);
        assert_eq!(pieces("+T"), ["+P"]);
        assert_eq!(pieces("D"), Vec::<&str>::new());
        assert_eq!(pieces("+Gl"), Vec::<&str>::new());
    }

    #[test]
    fn piece_suggestions_need_a_likely_typo() {
        assert_eq!(pieces("Q"), Vec::<&str>::new());
        assert_eq!(pieces("Xyz"), Vec::<&str>::new());
        assert_eq!(pieces(&"Q".repeat(100)), Vec::<&str>::new());
    }
}
