//! The evaluation's weights as data: the file `weights.ron` beside this module, built into
//! koma and parsed once, or another file of the same form that a user or a tuning run loads
//! (`--weights FILE`). A file holds a default set and sets keyed by the name a variant file
//! declares (`variant "Chu Shogi"`); each set says where its numbers came from. Nothing here
//! names a piece or a variant: the names are the file's.

use indexmap::IndexMap;
use miette::{NamedSource, SourceSpan};
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::sync::{Arc, LazyLock};

/// The weights of the evaluation's terms, in the units of the declared values (a Pawn is 100
/// in every shipped variant).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Weights {
    /// Per square a piece (not a royal) can move to along its runs of squares (steps, slides,
    /// leaps; not the Lion's walked moves), counted on the board as it stands.
    pub mobility: i32,
    /// Per square next to a royal that the opponent attacks (subtracted).
    pub royal_attack: i32,
    /// Hundredths of what promoting gains, for a piece that may promote standing in the
    /// promotion zone; half of it one rank short of the zone.
    pub zone_percent: i32,
    /// Hundredths of its value, for a Lion (under the Lion-trading rules) its own side
    /// protects: the opponent's Lion may not take it from afar.
    pub protected_lion_percent: i32,
    /// Hundredths of its value on the board that a piece in hand is worth.
    pub hand_percent: i32,
    /// The most an ordinary piece gains by standing on the far rank rather than its own (in
    /// proportion between).
    pub advance: i32,
    /// The most a piece gains by standing on the centre file rather than an edge.
    pub centre: i32,
    /// The most a royal piece loses by standing on the far rank rather than its own.
    pub royal_advance: i32,
    /// King danger: what a side loses, per 10,000 of the square of its sole royal's danger
    /// (the sum of the `danger_*` weights times what each counts). 0 leaves it uncounted.
    #[serde(default)]
    pub king_danger: i32,
    /// Danger per opposing piece (not a royal) that attacks a square next to the royal.
    #[serde(default)]
    pub danger_attacker: i32,
    /// Danger per piece the opponent holds in hand.
    #[serde(default)]
    pub danger_hand: i32,
    /// Danger per square next to the royal that the opponent attacks and no piece of the
    /// royal's side (but the royal) defends.
    #[serde(default)]
    pub danger_weak: i32,
    /// Danger per safe drop check: an empty square the opponent may drop a piece it holds on
    /// that would attack the royal there, that the royal's side does not defend (or its royal
    /// alone, where the opponent attacks the square too); at most two counted per kind held.
    #[serde(default)]
    pub danger_check: i32,
    /// Per kind, by the name its variant file declares (`piece P "Pawn" ...`): its value on
    /// the board, in place of the declared one. Only in the set of a variant koma ships (its
    /// kinds are checked when the file is read); a kind not named keeps its declared value.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub values: IndexMap<String, i32>,
    /// Per kind that can be held, by its declared name: its value in hand, in place of
    /// `hand_percent` of its value on the board. As `values`.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub hand_values: IndexMap<String, i32>,
}

/// A set of weights and where it came from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeightSet {
    pub weights: Weights,
    pub source: Provenance,
}

/// Where a set of weights came from: the games its positions were taken from, how many, the
/// logistic fit's K (the expected result of a position evaluated `e` for a side is
/// `1 / (1 + 10^(-K * e / 400))`) and ridge (what moving a weight from its start cost), its
/// loss (the mean squared difference from the games' results) before (with the weights it
/// started from) and after, the same on games held out of the fit (5-fold cross-validation),
/// when, and koma's commit that read the positions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Provenance {
    pub games: String,
    pub positions: u64,
    pub k: Option<f64>,
    pub ridge: Option<f64>,
    pub loss_before: Option<f64>,
    pub loss_after: Option<f64>,
    pub held_out_before: Option<f64>,
    pub held_out_after: Option<f64>,
    pub date: String,
    pub commit: String,
}

/// A weights file: the default set, and sets for particular variants by their declared name.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeightFile {
    pub default: WeightSet,
    #[serde(default)]
    pub variants: IndexMap<String, WeightSet>,
}

/// The weights file built into koma.
const BUILT_IN: &str = include_str!("weights.ron");

/// The largest weights file read: a set for every shipped variant is a few kilobytes.
pub const MAX_WEIGHTS_BYTES: usize = 16 << 20;

static BUILT_IN_FILE: LazyLock<Arc<WeightFile>> = LazyLock::new(|| {
    Arc::new(WeightFile::parse("weights.ron", BUILT_IN).expect("the built-in weights file parses (a test checks it)"))
});

/// Why a weights file cannot be used.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum WeightsError {
    #[error("cannot read the weights file {path}: {reason}")]
    #[diagnostic(code(koma::weights::read))]
    Read { path: String, reason: String },
    #[error("not a weights file: {message}")]
    #[diagnostic(
        code(koma::weights::syntax),
        help(
            "a weights file is RON: `(default: (weights: (...), source: (...)), variants: {{...}})`, as docs/strength.md, \"The weights\", shows"
        )
    )]
    Syntax {
        message: String,
        #[source_code]
        text: NamedSource<String>,
        #[label("here")]
        at: SourceSpan,
    },
    #[error("unusable weights: {message}")]
    #[diagnostic(
        code(koma::weights::kinds),
        help(
            "`values` and `hand_values` name kinds as the variant file declares them (`piece P \"Pawn\" ...`), in the set of a variant koma ships; a variant of your own declares its values in its file"
        )
    )]
    Kinds {
        message: String,
        #[source_code]
        text: NamedSource<String>,
        #[label("here")]
        at: SourceSpan,
    },
}

impl WeightFile {
    /// The weights built into koma (`src/engine/weights.ron`).
    pub fn built_in() -> Arc<WeightFile> {
        BUILT_IN_FILE.clone()
    }

    /// Reads a weights file from its text; `name` names it in the error.
    pub fn parse(name: &str, text: &str) -> Result<WeightFile, WeightsError> {
        let file: WeightFile = ron::from_str(text).map_err(|e| WeightsError::Syntax {
            message: e.code.to_string(),
            text: NamedSource::new(name, text.to_string()),
            at: span_of(text, &e.span),
        })?;
        file.check_kinds().map_err(|(set, message, word)| WeightsError::Kinds {
            at: quoted_span(text, &set, &word),
            message: format!("{set}: {message}"),
            text: NamedSource::new(name, text.to_string()),
        })?;
        Ok(file)
    }

    /// Checks the kinds each set's `values` and `hand_values` name against its variant's:
    /// on a fault, the set's name, what is wrong, and the word to point at.
    fn check_kinds(&self) -> Result<(), (String, String, String)> {
        let default = &self.default.weights;
        if let Some(kind) = default.values.keys().chain(default.hand_values.keys()).next() {
            let why = "the default set serves every variant, so it cannot value a kind".to_string();
            return Err(("the default set".into(), why, kind.clone()));
        }
        for (variant, set) in &self.variants {
            let w = &set.weights;
            if w.values.is_empty() && w.hand_values.is_empty() {
                continue;
            }
            let fault = |message: String, word: &str| (format!("\"{variant}\""), message, word.to_string());
            let Some(rules) = shipped_rules(variant) else {
                return Err(fault(
                    format!("no variant koma ships is declared as \"{variant}\""),
                    variant,
                ));
            };
            let named = |kind: &str| rules.pieces.iter().find(|p| p.name == kind);
            let kinds = || {
                rules
                    .pieces
                    .iter()
                    .map(|p| p.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            for (kind, &value) in w.values.iter().chain(&w.hand_values) {
                if named(kind).is_none() {
                    return Err(fault(
                        format!("{variant} has no kind \"{kind}\" (its kinds: {})", kinds()),
                        kind,
                    ));
                }
                if !(0..=100_000).contains(&value) {
                    return Err(fault(
                        format!("{kind}'s value {value} is not between 0 and 100000"),
                        kind,
                    ));
                }
            }
            let tables = crate::game::MoveTables::new(rules.clone());
            let held = |kind: &str| {
                rules.piece_ids().any(|k| {
                    let piece = &rules.pieces[k.index()];
                    piece.name == kind && rules.drops && !piece.royal && tables.kind(k).unpromoted == k
                })
            };
            if let Some(kind) = w.hand_values.keys().find(|k| !held(k)) {
                return Err(fault(
                    format!("a {kind} of {variant} is never held in hand as itself"),
                    kind,
                ));
            }
        }
        Ok(())
    }

    /// Reads a weights file from disk (a regular file of at most 16 MiB).
    pub fn load(path: &Path) -> Result<WeightFile, WeightsError> {
        let read = |reason: String| WeightsError::Read {
            path: path.display().to_string(),
            reason,
        };
        let bytes = crate::files::read_regular(path, MAX_WEIGHTS_BYTES).map_err(read)?;
        if bytes.len() > MAX_WEIGHTS_BYTES {
            return Err(read(format!("it is larger than {MAX_WEIGHTS_BYTES} bytes")));
        }
        let text = String::from_utf8(bytes).map_err(|_| read("it is not UTF-8 text".into()))?;
        WeightFile::parse(&path.display().to_string(), &text)
    }

    /// The set for the variant declared under `name`: its own, or the default.
    pub fn for_variant(&self, name: &str) -> &WeightSet {
        self.variants.get(name).unwrap_or(&self.default)
    }
}

/// The rules of the shipped variant declared as `name` (`variant "NAME"` in its file).
fn shipped_rules(name: &str) -> Option<crate::rules::Rules> {
    let declared = format!("variant \"{name}\"");
    let (stem, _) = crate::compile::source::SHIPPED
        .iter()
        .find(|(_, text)| text.lines().any(|line| line.trim() == declared))?;
    crate::compile::compile_named(stem, &[]).rules
}

/// The span of `"word"` in the text, after the first `"set"` (the set's key) if any.
fn quoted_span(text: &str, set: &str, word: &str) -> SourceSpan {
    let from = text.find(set).unwrap_or(0);
    let quoted = format!("\"{word}\"");
    match text[from..].find(&quoted) {
        Some(at) => SourceSpan::new((from + at).into(), quoted.len()),
        None => SourceSpan::new(from.into(), 0),
    }
}

/// The byte span of a RON error's place (lines and columns from 1).
fn span_of(text: &str, span: &ron::error::Span) -> SourceSpan {
    let offset = |p: &ron::error::Position| -> usize {
        let line_start: usize = text
            .split_inclusive('\n')
            .take(p.line.saturating_sub(1))
            .map(str::len)
            .sum();
        let line = text[line_start.min(text.len())..].lines().next().unwrap_or("");
        let col: usize = line.chars().take(p.col.saturating_sub(1)).map(char::len_utf8).sum();
        (line_start + col).min(text.len())
    };
    let start = offset(&span.start);
    let end = offset(&span.end).max(start);
    SourceSpan::new(start.into(), (end - start).max(usize::from(start < text.len())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_weights_file_parses() {
        let file = WeightFile::parse("weights.ron", BUILT_IN).unwrap();
        assert!(file.default.weights.hand_percent > 0);
    }

    #[test]
    fn a_variant_without_its_own_set_gets_the_default() {
        let file = WeightFile::built_in();
        assert_eq!(file.for_variant("No Such Shogi"), &file.default);
        for (name, set) in &file.variants {
            assert_eq!(file.for_variant(name), set);
        }
    }

    #[test]
    fn a_misspelt_weight_is_an_error_at_its_place() {
        let text = BUILT_IN.replacen("mobility", "mobilty", 1);
        let err = WeightFile::parse("w.ron", &text).unwrap_err();
        let WeightsError::Syntax { message, at, .. } = &err else {
            panic!("{err:?}")
        };
        assert!(message.contains("mobilty"), "{message}");
        let place = text.find("mobilty").unwrap();
        assert!(
            at.offset() <= place && place <= at.offset() + at.len(),
            "{at:?} {place}"
        );
    }
}
