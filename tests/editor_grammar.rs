//! The TextMate grammar of `editors/vscode/` is built from the language's keyword table:
//! this test builds it and compares it with the file, so that a word added to the table
//! and not to the grammar fails here. `KOMA_UPDATE_GRAMMAR=1 cargo test --test
//! editor_grammar` writes the file anew.

use koma::parse::keywords::{Kind, WORDS};
use serde_json::{Value, json};

const PATH: &str = "editors/vscode/syntaxes/var.tmLanguage.json";

/// A pattern matching whole words of the table of the kinds `wanted` picks (a word ends at
/// neither a letter, a digit nor `-`, so that `forward` is not read inside `forward-left`).
fn words(scope: &str, wanted: fn(&Kind) -> bool) -> Value {
    let mut texts: Vec<&str> = WORDS.iter().filter(|w| wanted(&w.kind)).map(|w| w.text).collect();
    texts.sort_by_key(|t| std::cmp::Reverse(t.len()));
    json!({
        "name": scope,
        "match": format!("(?<![\\w+-])(?:{})(?![\\w-])", texts.join("|")),
    })
}

fn grammar() -> Value {
    json!({
        "$schema": "https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json",
        "name": "koma variant",
        "scopeName": "source.var",
        "fileTypes": ["var"],
        "patterns": [
            {"name": "comment.line.number-sign.var", "match": "#.*$"},
            {"name": "string.quoted.double.var", "match": "\"[^\"]*\"?"},
            words("keyword.control.statement.var", |k| matches!(k, Kind::Statement { .. })),
            words("keyword.other.movement.var", |k| matches!(k, Kind::Movement | Kind::Modifier)),
            words("storage.modifier.attribute.var", |k| matches!(k, Kind::Attribute)),
            words("constant.language.direction.var", |k| matches!(k, Kind::Direction { .. })),
            words("keyword.other.var", |k| matches!(k, Kind::Part)),
            {"name": "entity.name.type.piece.var", "match": "(?<![\\w+-])\\+?[A-Z][A-Za-z0-9']*"},
            {"name": "constant.numeric.var", "match": "(?<![\\w-])-?[0-9]+(?![\\w-])"},
        ],
    })
}

#[test]
fn the_editor_grammar_holds_the_keyword_tables_words() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(PATH);
    let built = serde_json::to_string_pretty(&grammar()).unwrap() + "\n";
    if std::env::var_os("KOMA_UPDATE_GRAMMAR").is_some() {
        std::fs::write(&path, &built).unwrap();
    }
    let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        on_disk == built,
        "{PATH} is not the grammar the keyword table gives; run KOMA_UPDATE_GRAMMAR=1 cargo test --test editor_grammar"
    );
}
