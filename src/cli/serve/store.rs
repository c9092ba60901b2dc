//! What the server keeps in memory: the variants it offers (shipped, given on the command
//! line, pasted into the page), the variants compiled (shared by their games) and the games
//! in progress, each bounded, the least recently used dropped first; and the slots of the
//! expensive work.

use super::error::{ApiError, excerpt};
use indexmap::IndexMap;
use koma::compile::{self, Choice, FileLoader, MemoryLoader, Report, Source};
use koma::game::Game;
use koma::rules::Side;
use koma::variant::{Player, Variant};
use std::sync::Arc;
use tokio::sync::Semaphore;

/// The most games kept; a new game past it drops the least recently used one.
pub const MAX_GAMES: usize = 64;
/// The most pasted variant files kept; a new one past it drops the least recently used.
pub const MAX_PASTED: usize = 16;
/// The most compiled variants kept; past it the least recently used is dropped (its games
/// keep their tables).
pub const MAX_BUILT: usize = 16;
/// The most engine searches (moves and draw judgements) running at once.
pub const MAX_SEARCHES: usize = 2;
/// The most compilations and piece helps being drawn at once.
pub const MAX_BUILDS: usize = 1;

/// Where a variant's text comes from.
#[derive(Clone)]
pub enum VariantSource {
    /// Shipped inside koma, by name.
    Shipped(String),
    /// A file named on the command line (read again at each use, so edits show).
    File(String),
    /// Text pasted or opened in the page; it may `use` the shipped variants only.
    Pasted(Source),
}

impl VariantSource {
    /// The variant's text, read now for a file; `None` when it cannot be read (compiling then
    /// reports why).
    fn text(&self) -> Option<Source> {
        match self {
            VariantSource::Shipped(name) => compile::source::shipped(name),
            VariantSource::File(path) => compile::source::read_file(std::path::Path::new(path)).ok(),
            VariantSource::Pasted(source) => Some(source.clone()),
        }
    }

    /// Compiles the variant's text, read by [`VariantSource::text`], with these options.
    fn compile(&self, text: Option<Source>, choices: &[Choice]) -> Result<Variant, Report> {
        match (self, text) {
            (VariantSource::File(_), Some(source)) => Variant::compile(source, &FileLoader, choices),
            (VariantSource::Shipped(_) | VariantSource::Pasted(_), Some(source)) => {
                Variant::compile(source, &MemoryLoader::default(), choices)
            }
            (VariantSource::Shipped(name) | VariantSource::File(name), None) => Variant::named(name, choices),
            (VariantSource::Pasted(source), None) => {
                Variant::compile(source.clone(), &MemoryLoader::default(), choices)
            }
        }
    }
}

/// A variant compiled with some options (its tables shared by all its games), or its report
/// when it has errors; and the text compiled (for showing the report's spans).
#[derive(Clone)]
pub struct Built {
    pub variant: Result<Variant, Report>,
    pub source: Option<Source>,
}

/// What a compilation depends on: the variant's name, its text and the options chosen.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct BuildKey {
    name: String,
    text: Option<Arc<str>>,
    options: Vec<(String, String)>,
}

/// A game in progress.
pub struct Entry {
    /// The key of its variant in the store.
    pub variant: String,
    pub options: Vec<Choice>,
    pub game: Game,
    /// The record's tags (Variant, Black, White, Date, Handicap, SFEN); the result is the
    /// game's.
    pub tags: IndexMap<String, String>,
    pub players: [Player; 2],
}

impl Entry {
    pub fn player(&self, side: Side) -> Player {
        self.players[side.index()]
    }
}

/// Variants and games.
pub struct Store {
    /// Shipped and command-line variants, by key; never dropped.
    variants: IndexMap<String, VariantSource>,
    /// Pasted variants by key, the most recently used last.
    pasted: IndexMap<String, Source>,
    next_pasted: u64,
    /// Games by id, the most recently used last.
    games: IndexMap<u64, Entry>,
    next_game: u64,
    /// Compiled variants, the most recently used last.
    built: IndexMap<BuildKey, Built>,
    /// A slot for each engine search; a search holds one while it runs.
    pub searches: Arc<Semaphore>,
    /// A slot for each compilation or piece help being drawn.
    pub builds: Arc<Semaphore>,
}

impl Store {
    /// The shipped variants, then the files given (by their path).
    pub fn new(files: &[String]) -> Store {
        let mut variants = IndexMap::new();
        for (name, _) in compile::source::SHIPPED {
            variants.insert(name.to_string(), VariantSource::Shipped(name.to_string()));
        }
        for file in files {
            let source = match compile::source::shipped(file) {
                Some(_) if !std::path::Path::new(file).exists() => VariantSource::Shipped(file.clone()),
                _ => VariantSource::File(file.clone()),
            };
            variants.insert(file.clone(), source);
        }
        Store {
            variants,
            pasted: IndexMap::new(),
            next_pasted: 1,
            games: IndexMap::new(),
            next_game: 1,
            built: IndexMap::new(),
            searches: Arc::new(Semaphore::new(MAX_SEARCHES)),
            builds: Arc::new(Semaphore::new(MAX_BUILDS)),
        }
    }

    /// The variant the page opens on: the first named on the command line, else Shogi.
    pub fn first_variant(&self) -> String {
        let shipped = compile::source::SHIPPED.len();
        self.variants
            .get_index(shipped)
            .map_or_else(|| "shogi".to_string(), |(key, _)| key.clone())
    }

    /// The variants offered, shipped and command-line ones first, then the pasted ones.
    pub fn variant_keys(&self) -> Vec<String> {
        self.variants.keys().chain(self.pasted.keys()).cloned().collect()
    }

    pub fn variant(&mut self, key: &str) -> Result<VariantSource, ApiError> {
        if let Some(source) = self.variants.get(key) {
            return Ok(source.clone());
        }
        let index = self.pasted.get_index_of(key).ok_or_else(|| {
            ApiError::not_found(format!(
                "no variant `{}`: the server offers {} (a pasted one is kept while among the last {MAX_PASTED} used)",
                excerpt(key),
                self.variant_keys().join(", ")
            ))
        })?;
        let last = self.pasted.len() - 1;
        self.pasted.move_index(index, last);
        Ok(VariantSource::Pasted(self.pasted[last].clone()))
    }

    /// Keeps a pasted variant; returns its key (`pasted-N:NAME`).
    pub fn add_pasted(&mut self, source: Source) -> String {
        let key = format!("pasted-{}:{}", self.next_pasted, source.name);
        self.next_pasted += 1;
        if self.pasted.len() >= MAX_PASTED {
            self.pasted.shift_remove_index(0);
        }
        self.pasted.insert(key.clone(), source);
        key
    }

    /// The compiled variant kept for this key, marked as the most recently used.
    pub fn built(&mut self, key: &BuildKey) -> Option<Built> {
        let index = self.built.get_index_of(key)?;
        let last = self.built.len() - 1;
        self.built.move_index(index, last);
        Some(self.built[last].clone())
    }

    /// Keeps a compiled variant, dropping the least recently used past [`MAX_BUILT`].
    pub fn keep_built(&mut self, key: BuildKey, built: Built) {
        if self.built.len() >= MAX_BUILT {
            self.built.shift_remove_index(0);
        }
        self.built.insert(key, built);
    }

    pub fn add_game(&mut self, entry: Entry) -> u64 {
        let id = self.next_game;
        self.next_game += 1;
        if self.games.len() >= MAX_GAMES {
            self.games.shift_remove_index(0);
        }
        self.games.insert(id, entry);
        id
    }

    /// A game by id, marked as the most recently used.
    pub fn game(&mut self, id: u64) -> Result<&mut Entry, ApiError> {
        let index = self.games.get_index_of(&id).ok_or_else(|| {
            ApiError::not_found(format!(
                "no game {id}: it ended with the server, or was dropped as one of more than {MAX_GAMES} games"
            ))
        })?;
        let last = self.games.len() - 1;
        self.games.move_index(index, last);
        Ok(&mut self.games[last])
    }

    /// Replaces a game (a position set from SFEN), keeping its id.
    pub fn replace_game(&mut self, id: u64, entry: Entry) {
        self.games.insert(id, entry);
    }
}

/// The variant's text and what its compilation depends on: read on a blocking thread (a
/// file is read from disk).
pub fn build_key(variant: &VariantSource, choices: &[Choice]) -> (Option<Source>, BuildKey) {
    let text = variant.text();
    let name = match variant {
        VariantSource::Shipped(name) | VariantSource::File(name) => name.clone(),
        VariantSource::Pasted(source) => source.name.clone(),
    };
    let key = BuildKey {
        name,
        text: text.as_ref().map(|s| s.text.clone()),
        options: choices.iter().map(|c| (c.name.clone(), c.value.clone())).collect(),
    };
    (text, key)
}

/// Compiles a variant and builds its tables: the expensive part, run on a blocking thread.
pub fn build(variant: &VariantSource, text: Option<Source>, choices: &[Choice]) -> Built {
    let source = text.clone();
    Built {
        variant: variant.compile(text, choices),
        source,
    }
}
