//! What a document answers about itself: hover on a piece abbreviation (its `koma show`
//! section: name, value, promotion and the move diagram), go to definition of a piece or a
//! `use`d file, the references to a piece (across the files that use one another), the
//! document in `koma fmt`'s layout, completion of the language's words, pieces and options, and its symbols.

use super::position::LineIndex;
use super::{Document, Files};
use koma::compile::{Loader, Source};
use koma::parse::ast::{Attribute, Cell, File, MovementSyntax, PieceDecl, RuleStatement, Span, Spanned, Statement};
use koma::parse::keywords::{Kind, WORDS};
use lsp_types::{
    CompletionItem, CompletionItemKind, DocumentSymbol, DocumentSymbolResponse, GotoDefinitionResponse, Hover,
    HoverContents, Location, MarkupContent, MarkupKind, Position, Range, SymbolKind, TextEdit,
};

/// The hover of the word at `position`: a piece's section of `koma show` (from the rules of
/// the document's last version that compiled, else what its declaration says), or how the
/// statement a keyword starts is written.
pub fn hover(document: &Document, position: Position) -> Option<Hover> {
    let index = LineIndex::new(&document.text);
    let span = word_at(&document.text, index.offset(position))?;
    let word = &document.text[span.clone()];
    let text = piece_text(document, word)
        .or_else(|| koma::parse::keywords::form_of(word).map(|form| format!("`{word}` statement: {form}")))?;
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: text,
        }),
        range: Some(index.range(&span)),
    })
}

fn piece_text(document: &Document, abbrev: &str) -> Option<String> {
    if let Some(rules) = document.rules.as_ref().filter(|r| r.piece_by_abbrev(abbrev).is_some())
        && let Ok(shown) = koma::show::show(rules, Some(abbrev))
    {
        return Some(format!("```text\n{}```", shown));
    }
    let file = parsed(document);
    let decl = pieces(&file).find(|d| d.abbrev.node == abbrev)?;
    Some(declared_text(decl))
}

/// A piece as its declaration states it, for a document that has never compiled.
fn declared_text(decl: &PieceDecl) -> String {
    let mut lines = vec![format!("**{}** {}", decl.abbrev.node, decl.name.node)];
    for attribute in &decl.attributes {
        match &attribute.node {
            Attribute::Value(v) => lines.push(format!("value {v}")),
            Attribute::Promotes(to) => lines.push(format!("promotes to {}", to.node)),
            Attribute::Royal => lines.push("royal".into()),
            Attribute::Burns => lines.push("burns".into()),
            Attribute::JumpRank(rank) => lines.push(format!("jump rank {}", rank.node)),
            Attribute::Sfen(_) | Attribute::Kanji(_) | Attribute::MustPromote(_) | Attribute::Unknown(_) => {}
        }
    }
    lines.push("(the move diagram shows once the file compiles)".into());
    lines.join("\n\n")
}

/// Where the piece abbreviation at `position` is defined: in the document, or in a file it
/// `use`s (or one those use in turn); or the file a `use` at `position` names. Files are read
/// through `loader`, which reads an open file as the editor has it.
pub fn definition(document: &Document, position: Position, loader: &Files) -> Option<GotoDefinitionResponse> {
    let index = LineIndex::new(&document.text);
    let offset = index.offset(position);
    let file = parsed(document);
    let source = document.source();
    for statement in &file.statements {
        if let Statement::Use { source: used, .. } = &statement.node
            && used.span.start <= offset
            && offset <= used.span.end
        {
            let loaded = loader.load(&used.node, Some(&source)).ok()?;
            let uri = loader.uri(&loaded.name)?;
            return Some(GotoDefinitionResponse::Scalar(Location::new(uri, Range::default())));
        }
    }
    let span = word_at(&document.text, offset)?;
    let word = &document.text[span];
    closure(source, loader).into_iter().find_map(|source| {
        let file = super::parsed(&source.text);
        let decl = pieces(&file).find(|d| d.abbrev.node == word)?;
        let uri = loader.uri(&source.name)?;
        let range = LineIndex::new(&source.text).range(&decl.abbrev.span);
        Some(GotoDefinitionResponse::Scalar(Location::new(uri, range)))
    })
}

/// A source and the files it `use`s, and those they use in turn (each once, as far as
/// [`MAX_USE_DEPTH`] files deep), the source first.
fn closure(source: Source, loader: &Files) -> Vec<Source> {
    let mut found = vec![source];
    let mut next = 0;
    let mut depth = vec![0usize];
    while next < found.len() {
        let from = found[next].clone();
        let level = depth[next];
        next += 1;
        if level >= MAX_USE_DEPTH {
            continue;
        }
        let file = super::parsed(&from.text);
        for statement in &file.statements {
            let Statement::Use { source: used, .. } = &statement.node else {
                continue;
            };
            let Ok(loaded) = loader.load(&used.node, Some(&from)) else {
                continue;
            };
            if !found.iter().any(|s| super::same_file(&s.name, &loaded.name)) {
                found.push(loaded);
                depth.push(level + 1);
            }
        }
    }
    found
}

/// The longest chain of `use` followed for definitions and references (as the compiler's).
const MAX_USE_DEPTH: usize = 16;

/// Every place where the piece abbreviation at `position` is written: its declaration (when
/// `declaration` is asked for), promotions, `as`, the setup, the rule statements and `use`
/// lists; in the document, the files it uses (and those they use), and the open documents
/// that use it. Comments and names are not searched.
pub fn references(document: &Document, position: Position, declaration: bool, loader: &Files) -> Option<Vec<Location>> {
    let index = LineIndex::new(&document.text);
    let span = word_at(&document.text, index.offset(position))?;
    let abbrev = &document.text[span];
    let mut sources = closure(document.source(), loader);
    for other in loader.documents() {
        let theirs = closure(other.source(), loader);
        if theirs.iter().skip(1).any(|s| super::same_file(&s.name, &document.name)) {
            for source in theirs {
                if !sources.iter().any(|s| super::same_file(&s.name, &source.name)) {
                    sources.push(source);
                }
            }
        }
    }
    let mut locations = Vec::new();
    for source in &sources {
        let Some(uri) = loader.uri(&source.name) else {
            continue;
        };
        let file = super::parsed(&source.text);
        let mut spans = Vec::new();
        for statement in &file.statements {
            abbreviations_in(&statement.node, declaration, &mut spans);
        }
        let index = LineIndex::new(&source.text);
        locations.extend(
            spans
                .into_iter()
                .filter(|s| s.node == abbrev)
                .map(|s| Location::new(uri.clone(), index.range(&s.span))),
        );
    }
    (!locations.is_empty()).then_some(locations)
}

/// The document in the canonical layout of `koma fmt`, as one edit of the whole text (none
/// when it is already so); nothing when the text does not parse (its diagnostics say why).
pub fn formatting(document: &Document) -> Option<Vec<TextEdit>> {
    let formatted = koma::format::format(&document.text).ok()?;
    if formatted == *document.text {
        return Some(vec![]);
    }
    let whole = LineIndex::new(&document.text).range(&(0..document.text.len()));
    Some(vec![TextEdit::new(whole, formatted)])
}

/// The piece abbreviations a statement names, with where.
fn abbreviations_in<'a>(statement: &'a Statement, declaration: bool, out: &mut Vec<Spanned<&'a str>>) {
    let mut add = |s: &'a Spanned<String>| out.push(Spanned::new(s.node.as_str(), s.span.clone()));
    match statement {
        Statement::Piece(decl) => {
            if declaration {
                add(&decl.abbrev);
            }
            for attribute in &decl.attributes {
                if let Attribute::Promotes(to) = &attribute.node {
                    add(to);
                }
            }
            for clause in &decl.clauses {
                if let MovementSyntax::As(other) = &clause.movement.node {
                    add(other);
                }
            }
        }
        Statement::Setup(decl) => {
            for cell in decl.rows.iter().flat_map(|r| &r.cells) {
                if let Cell::Piece(abbrev) = &cell.node {
                    out.push(Spanned::new(abbrev.as_str(), cell.span.clone()));
                }
            }
        }
        Statement::Use { pieces, .. } => pieces.iter().for_each(add),
        Statement::Rule { rule, .. } => rule_abbreviations(&rule.node).for_each(add),
        Statement::Variant(_) | Statement::Board { .. } | Statement::Option(_) => {}
    }
}

fn rule_abbreviations(rule: &RuleStatement) -> impl Iterator<Item = &Spanned<String>> {
    let lists: Vec<&[Spanned<String>]> = match rule {
        RuleStatement::DeclinedWaitsForLastRank(list)
        | RuleStatement::LastRankPromotionOptional(list)
        | RuleStatement::NoDropMate(list)
        | RuleStatement::NoDropLastRank(list)
        | RuleStatement::NoForcedPromotion(list)
        | RuleStatement::CounterStrike(list)
        | RuleStatement::Extinction { kinds: list, .. } => vec![list],
        RuleStatement::DropLimit { piece, .. } | RuleStatement::PieceLimit { piece, .. } => {
            vec![std::slice::from_ref(piece)]
        }
        RuleStatement::CapturedAs { captured, enters_as } => {
            vec![std::slice::from_ref(captured), std::slice::from_ref(enters_as)]
        }
        RuleStatement::LionTrading {
            lions, weak_bridges, ..
        } => vec![lions, weak_bridges],
        RuleStatement::Promotion { .. }
        | RuleStatement::Flip(_)
        | RuleStatement::Deferral
        | RuleStatement::Drops(_)
        | RuleStatement::Stalemate(_)
        | RuleStatement::BareKing
        | RuleStatement::CheckWins
        | RuleStatement::Try { .. }
        | RuleStatement::MustCapture
        | RuleStatement::MovesAsPieceBehind
        | RuleStatement::Repetition { .. }
        | RuleStatement::RoyalCaptureAllowed
        | RuleStatement::CaptureUnprotectedProtects
        | RuleStatement::StuckPiecesStay
        | RuleStatement::BurnsBeforeBurnt
        | RuleStatement::Handicap { .. }
        | RuleStatement::Unknown(_) => vec![],
    };
    lists.into_iter().flatten()
}

/// The words of the language, then the document's pieces and options.
pub fn completion(document: &Document) -> Vec<CompletionItem> {
    let mut items: Vec<CompletionItem> = WORDS.iter().map(|w| word_item(w.text, w.kind)).collect();
    let file = parsed(document);
    let mut pieces: Vec<(String, String)> = pieces(&file)
        .map(|d| (d.abbrev.node.clone(), d.name.node.clone()))
        .collect();
    let mut options: Vec<(String, Option<String>)> = options(&file).collect();
    if let Some(rules) = &document.rules {
        for piece in &rules.pieces {
            if !pieces.iter().any(|(a, _)| *a == piece.abbrev) {
                pieces.push((piece.abbrev.clone(), piece.name.clone()));
            }
        }
        for (name, option) in &rules.options {
            if !options.iter().any(|(n, _)| n == name) {
                options.push((name.clone(), option.description.clone()));
            }
        }
    }
    items.extend(pieces.into_iter().map(|(abbrev, name)| CompletionItem {
        label: abbrev,
        kind: Some(CompletionItemKind::CLASS),
        detail: Some(name),
        ..CompletionItem::default()
    }));
    items.extend(options.into_iter().map(|(name, description)| CompletionItem {
        label: name,
        kind: Some(CompletionItemKind::PROPERTY),
        detail: Some(description.unwrap_or_else(|| "option".into())),
        ..CompletionItem::default()
    }));
    items
}

fn word_item(text: &str, kind: Kind) -> CompletionItem {
    let (item_kind, detail) = match kind {
        Kind::Statement { form } => (CompletionItemKind::KEYWORD, form.to_string()),
        Kind::Movement => (CompletionItemKind::KEYWORD, "kind of movement".into()),
        Kind::Modifier => (CompletionItemKind::KEYWORD, "modifier of a move clause".into()),
        Kind::Attribute => (CompletionItemKind::KEYWORD, "piece attribute".into()),
        Kind::Direction { .. } => (CompletionItemKind::ENUM_MEMBER, "direction".into()),
        Kind::Part => (CompletionItemKind::KEYWORD, "keyword".into()),
    };
    CompletionItem {
        label: text.to_string(),
        kind: Some(item_kind),
        detail: Some(detail),
        ..CompletionItem::default()
    }
}

/// The document's pieces, options and setups.
pub fn symbols(document: &Document) -> DocumentSymbolResponse {
    let index = LineIndex::new(&document.text);
    let file = parsed(document);
    let symbols = file
        .statements
        .iter()
        .filter_map(|statement| {
            let (name, detail, kind, selection) = match &statement.node {
                Statement::Piece(decl) => (
                    decl.abbrev.node.clone(),
                    Some(decl.name.node.clone()),
                    SymbolKind::CLASS,
                    decl.abbrev.span.clone(),
                ),
                Statement::Option(decl) => (
                    decl.name.node.clone(),
                    decl.description.clone(),
                    SymbolKind::PROPERTY,
                    decl.name.span.clone(),
                ),
                Statement::Setup(decl) => (
                    decl.side
                        .as_ref()
                        .map_or("setup".into(), |s| format!("setup {}", s.node)),
                    None,
                    SymbolKind::NAMESPACE,
                    statement.span.start..statement.span.start + "setup".len(),
                ),
                Statement::Variant(_) | Statement::Use { .. } | Statement::Board { .. } | Statement::Rule { .. } => {
                    return None;
                }
            };
            Some(symbol(
                name,
                detail,
                kind,
                index.range(&statement.span),
                index.range(&selection),
            ))
        })
        .collect();
    DocumentSymbolResponse::Nested(symbols)
}

// `deprecated` is a field the protocol keeps for old clients; koma leaves it unset.
#[allow(deprecated)]
fn symbol(name: String, detail: Option<String>, kind: SymbolKind, range: Range, selection: Range) -> DocumentSymbol {
    DocumentSymbol {
        name,
        detail,
        kind,
        tags: None,
        deprecated: None,
        range,
        selection_range: selection,
        children: None,
    }
}

fn parsed(document: &Document) -> File {
    super::parsed(&document.text)
}

fn pieces(file: &File) -> impl Iterator<Item = &PieceDecl> {
    file.statements.iter().filter_map(|s| match &s.node {
        Statement::Piece(decl) => Some(decl),
        _ => None,
    })
}

fn options(file: &File) -> impl Iterator<Item = (String, Option<String>)> + '_ {
    file.statements.iter().filter_map(|s| match &s.node {
        Statement::Option(decl) => Some((decl.name.node.clone(), decl.description.clone())),
        _ => None,
    })
}

/// The span of the word (a piece abbreviation or a keyword) around byte `offset`.
fn word_at(text: &str, offset: usize) -> Option<Span> {
    let is_word = |c: char| c.is_alphanumeric() || c == '+' || c == '-' || c == '_';
    let start = text[..offset]
        .char_indices()
        .rev()
        .take_while(|&(_, c)| is_word(c))
        .last()
        .map_or(offset, |(i, _)| i);
    let end = text[offset..]
        .find(|c: char| !is_word(c))
        .map_or(text.len(), |i| offset + i);
    (start < end).then_some(start..end)
}
