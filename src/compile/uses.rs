//! `use` resolution: the files a variant builds on, read through the [`Loader`], their piece
//! declarations gathered (with those of the files they use in turn), the pieces a `use "x": A, B`
//! picks, and the chains of `use` that come back to a file or run too deep.

use super::diagnostic::Check;
use super::pieces::references;
use super::source::{LoadError, Loader, SHIPPED};
use super::suggest::{Meant, did_you_mean_or, did_you_mean_pieces, meant_pieces};
use super::{Ctx, Entry, Table};
use crate::parse::ast::{File, Spanned, Statement};
use indexmap::IndexMap;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

/// The longest chain of files that `use` one another.
const MAX_USE_DEPTH: usize = 16;

/// The files used so far.
#[derive(Default)]
pub(super) struct Uses {
    /// The pieces of each file used (with what it uses), by the file's identity.
    tables: HashMap<String, Rc<Table>>,
    /// For a source and the name a `use` in it gives, the identity of the file found.
    names: HashMap<(usize, String), String>,
}

/// What identifies a source, to find a `use` that comes back to it: the file itself when the
/// name is a path on disk (however it is spelt), else the name.
fn identity(name: &str) -> String {
    std::fs::canonicalize(name).map_or_else(|_| name.to_string(), |p| p.display().to_string())
}

impl Ctx {
    /// Reads the files named by `use` statements and returns their piece declarations.
    pub(super) fn imports(&mut self, file: &File, loader: &dyn Loader, stack: &mut Vec<String>) -> Vec<Entry> {
        let mut entries = Vec::new();
        let current = self.sink.sources.len() - 1;
        for statement in &file.statements {
            let Statement::Use { source, pieces } = &statement.node else {
                continue;
            };
            // The same `use` again in this file: the file is not looked for again.
            let key = (current, source.node.clone());
            if let Some(table) = self
                .uses
                .names
                .get(&key)
                .and_then(|id| self.uses.tables.get(id))
                .cloned()
            {
                entries.extend(self.select(&table, pieces, current));
                continue;
            }
            let from = self.sink.sources[current].clone();
            let loaded = match loader.load(&source.node, Some(&from)) {
                Ok(loaded) => loaded,
                Err(error) => {
                    let help = match error {
                        LoadError::NotFound(_) => {
                            did_you_mean_or(&source.node, SHIPPED.iter().map(|(n, _)| *n), || {
                                "give a path to a .var file (relative to this one), or a shipped variant's name".into()
                            })
                        }
                        _ => error.help().to_string(),
                    };
                    // Its pieces are missing: what refers to them is not reported again.
                    self.cascade.use_failed = true;
                    self.cascade.pieces_incomplete = true;
                    self.error_in(
                        error.check(),
                        current,
                        source.span.clone(),
                        error.message().to_string(),
                        error.label(),
                        Some(help),
                    );
                    continue;
                }
            };
            let loaded_identity = identity(&loaded.name);
            self.uses.names.insert(key, loaded_identity.clone());
            if let Some(from) = stack.iter().position(|s| identity(s) == loaded_identity) {
                let mut chain: Vec<&str> = stack[from..].iter().map(String::as_str).collect();
                chain.push(&loaded.name);
                let message = if chain.len() == 2 && current == 0 {
                    format!("`{}` uses itself", loaded.name)
                } else {
                    format!("`use` goes round in a circle: {}", chain.join(" → "))
                };
                self.error_in(
                    Check::RecursiveUse,
                    current,
                    source.span.clone(),
                    message,
                    &format!("uses `{}` again", loaded.name),
                    Some("a variant builds on others only when the chain of `use` ends: remove this `use`".into()),
                );
                continue;
            }
            if stack.len() > MAX_USE_DEPTH {
                let message = format!("`use` goes more than {MAX_USE_DEPTH} files deep");
                let help = Some("koma follows a chain of `use` only so far; shorten it".to_string());
                self.error_in(
                    Check::Limit,
                    current,
                    source.span.clone(),
                    message,
                    "one file too many",
                    help,
                );
                continue;
            }
            // A file used again is not read again: its pieces are as they were.
            if let Some(table) = self.uses.tables.get(&loaded_identity).cloned() {
                entries.extend(self.select(&table, pieces, current));
                continue;
            }
            stack.push(loaded.name.clone());
            self.sink.sources.push(loaded);
            let index = self.sink.sources.len() - 1;
            let used = self.parse_source(index);
            let mut table: Table = IndexMap::new();
            for entry in self.imports(&used, loader, stack) {
                table.insert(entry.decl.abbrev.node.clone(), entry);
            }
            for decl in used.statements.iter().filter_map(|s| match &s.node {
                Statement::Piece(decl) => Some(decl),
                _ => None,
            }) {
                table.insert(
                    decl.abbrev.node.clone(),
                    Entry {
                        decl: Rc::new(decl.clone()),
                        source: index,
                    },
                );
            }
            stack.pop();
            let table = Rc::new(table);
            self.uses.tables.insert(loaded_identity, table.clone());
            entries.extend(self.select(&table, pieces, current));
        }
        entries
    }

    /// The pieces picked by `use "x": A, B` and every piece they refer to; all when none is named.
    fn select(&mut self, table: &Table, picked: &[Spanned<String>], source: usize) -> Vec<Entry> {
        if picked.is_empty() {
            return table.values().cloned().collect();
        }
        let mut wanted: HashSet<String> = HashSet::new();
        let mut queue: Vec<String> = Vec::new();
        for abbrev in picked {
            if table.contains_key(&abbrev.node) {
                queue.push(abbrev.node.clone());
            } else {
                let help = match meant_pieces(table, &abbrev.node) {
                    Meant::Abbreviations(meant) => Some(did_you_mean_pieces(&meant)),
                    _ => None,
                };
                self.error_in(
                    Check::UnknownPiece,
                    source,
                    abbrev.span.clone(),
                    format!("the used variant has no piece `{}`", abbrev.node),
                    "not defined there",
                    help,
                );
            }
        }
        while let Some(abbrev) = queue.pop() {
            if wanted.contains(&abbrev) {
                continue;
            }
            if let Some(entry) = table.get(&abbrev) {
                queue.extend(references(&entry.decl));
            }
            wanted.insert(abbrev);
        }
        table
            .iter()
            .filter(|(k, _)| wanted.contains(*k))
            .map(|(_, v)| v.clone())
            .collect()
    }
}
