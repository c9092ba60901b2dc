//! Finding variant sources: files on disk, and the variants shipped inside koma.
//!
//! A VARIANT anywhere in koma (the command line, `use "…"` in a file) is a path or the name
//! of a shipped variant: `chu` means `variants/chu.var`. A path is tried first (relative to
//! the file that names it), then the shipped name.

use super::diagnostic::{Check, Source};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The largest variant file koma reads, in bytes.
pub const MAX_SOURCE_BYTES: usize = 4 << 20;

/// The variants shipped with koma, by name, with their text.
pub const SHIPPED: &[(&str, &str)] = &[
    ("shogi", include_str!("../../variants/shogi.var")),
    ("yari", include_str!("../../variants/yari.var")),
    ("tori", include_str!("../../variants/tori.var")),
    ("chu", include_str!("../../variants/chu.var")),
    ("dai", include_str!("../../variants/dai.var")),
    ("maka-dai-dai", include_str!("../../variants/maka-dai-dai.var")),
    ("minishogi", include_str!("../../variants/minishogi.var")),
    ("judkins", include_str!("../../variants/judkins.var")),
    ("sho", include_str!("../../variants/sho.var")),
    ("micro", include_str!("../../variants/micro.var")),
    ("kyoto", include_str!("../../variants/kyoto.var")),
    ("checkshogi", include_str!("../../variants/checkshogi.var")),
    ("annan", include_str!("../../variants/annan.var")),
    ("wa", include_str!("../../variants/wa.var")),
    ("whale", include_str!("../../variants/whale.var")),
    ("heian", include_str!("../../variants/heian.var")),
    ("heian-dai", include_str!("../../variants/heian-dai.var")),
    ("dai-dai", include_str!("../../variants/dai-dai.var")),
    ("tai", include_str!("../../variants/tai.var")),
    ("taikyoku", include_str!("../../variants/taikyoku.var")),
    ("tenjiku", include_str!("../../variants/tenjiku.var")),
    ("gorogoro", include_str!("../../variants/gorogoro.var")),
    ("gorogoroplus", include_str!("../../variants/gorogoroplus.var")),
    ("euroshogi", include_str!("../../variants/euroshogi.var")),
    ("okisaki", include_str!("../../variants/okisaki.var")),
    ("dobutsu", include_str!("../../variants/dobutsu.var")),
    ("antiminishogi", include_str!("../../variants/antiminishogi.var")),
    ("cannon", include_str!("../../variants/cannon.var")),
];

/// Where sources come from. Tests give their own, to compile text that is not on disk.
pub trait Loader {
    /// Loads `name` as named in `from` (or on the command line when `from` is `None`).
    fn load(&self, name: &str, from: Option<&Source>) -> Result<Source, LoadError>;
}

/// Why a variant could not be loaded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LoadError {
    /// No file of that name and no shipped variant.
    #[error("{0}")]
    NotFound(String),
    /// Something is there but cannot be read as a variant file: a directory, a FIFO, a
    /// device, a file koma may not open, or one that is not UTF-8.
    #[error("{0}")]
    Unreadable(String),
    /// A file past [`MAX_SOURCE_BYTES`].
    #[error("{0}")]
    TooLarge(String),
}

impl LoadError {
    /// The check a report of it falls under: past the size limit is `koma::limit`.
    pub fn check(&self) -> Check {
        match self {
            LoadError::NotFound(_) | LoadError::Unreadable(_) => Check::UnknownVariant,
            LoadError::TooLarge(_) => Check::Limit,
        }
    }

    /// What went wrong, in a sentence.
    pub fn message(&self) -> &str {
        match self {
            LoadError::NotFound(m) | LoadError::Unreadable(m) | LoadError::TooLarge(m) => m,
        }
    }

    /// What to do about it.
    pub fn help(&self) -> &'static str {
        match self {
            LoadError::NotFound(_) => "give a path to a .var file, or a shipped variant's name",
            LoadError::Unreadable(_) => "give the path of a variant file: a regular file of UTF-8 text",
            LoadError::TooLarge(_) => "is this a variant file? koma reads none larger than 4 MiB",
        }
    }

    /// A label for the `use` that names it.
    pub fn label(&self) -> &'static str {
        match self {
            LoadError::NotFound(_) => "not found",
            LoadError::Unreadable(_) => "cannot be read",
            LoadError::TooLarge(_) => "too large",
        }
    }
}

impl From<LoadError> for String {
    fn from(error: LoadError) -> String {
        error.message().to_string()
    }
}

/// Loads from disk, falling back to the shipped variants.
#[derive(Debug, Default, Clone, Copy)]
pub struct FileLoader;

impl Loader for FileLoader {
    /// A regular file at a candidate path is read; else a shipped variant of that name; else
    /// whatever was found at a candidate path (a directory, a FIFO) is reported as such.
    fn load(&self, name: &str, from: Option<&Source>) -> Result<Source, LoadError> {
        let base = from
            .and_then(|s| Path::new(&s.name).parent().map(Path::to_path_buf))
            .unwrap_or_default();
        let mut not_a_file = None;
        for candidate in candidates(&base, name) {
            match regular_file(&candidate) {
                Ok(()) => return read_file(&candidate),
                Err(LoadError::NotFound(_)) => {}
                Err(error) => {
                    not_a_file.get_or_insert(error);
                }
            }
        }
        if let Some(source) = shipped(name) {
            return Ok(source);
        }
        Err(not_a_file.unwrap_or_else(|| {
            LoadError::NotFound(format!(
                "no file `{name}` and no shipped variant of that name (shipped: {})",
                SHIPPED.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ")
            ))
        }))
    }
}

/// koma reads variant files only from regular files (or links to one): a directory, a FIFO
/// (which would block reading) or a device is refused, named for what it is.
pub fn regular_file(path: &Path) -> Result<(), LoadError> {
    let meta = match std::fs::metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(LoadError::NotFound(format!("no file {}", path.display())));
        }
        Err(e) => return Err(LoadError::Unreadable(format!("cannot read {}: {e}", path.display()))),
    };
    if meta.is_file() {
        return Ok(());
    }
    Err(LoadError::Unreadable(format!(
        "{} is {}, not a variant file",
        path.display(),
        crate::files::kind_of(&meta)
    )))
}

fn candidates(base: &Path, name: &str) -> Vec<PathBuf> {
    let mut list = vec![base.join(name)];
    if !name.ends_with(".var") {
        list.push(base.join(format!("{name}.var")));
    }
    list
}

/// A shipped variant by name (`chu`, `maka-dai-dai`), or by its file name (`chu.var`).
pub fn shipped(name: &str) -> Option<Source> {
    let key = name.strip_prefix("variants/").unwrap_or(name);
    let key = key.strip_suffix(".var").unwrap_or(key);
    SHIPPED.iter().find(|(n, _)| *n == key).map(|(n, text)| Source {
        name: format!("{n}.var"),
        text: Arc::from(*text),
    })
}

/// Reads a regular file as UTF-8, refusing anything else and files past [`MAX_SOURCE_BYTES`].
pub fn read_file(path: &Path) -> Result<Source, LoadError> {
    regular_file(path)?;
    let bytes = crate::files::read_regular(path, MAX_SOURCE_BYTES).map_err(LoadError::Unreadable)?;
    if bytes.len() > MAX_SOURCE_BYTES {
        return Err(LoadError::TooLarge(format!(
            "{} is larger than {MAX_SOURCE_BYTES} bytes; koma reads variant files of at most {MAX_SOURCE_BYTES} bytes",
            path.display(),
        )));
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        LoadError::Unreadable(format!(
            "{} is not UTF-8 text (invalid byte at offset {})",
            path.display(),
            e.utf8_error().valid_up_to()
        ))
    })?;
    Ok(Source {
        name: path.display().to_string(),
        text: Arc::from(text),
    })
}

/// Serves sources from memory (for tests and tools), falling back to the shipped variants.
#[derive(Debug, Default, Clone)]
pub struct MemoryLoader {
    pub files: Vec<(String, String)>,
}

impl Loader for MemoryLoader {
    fn load(&self, name: &str, _from: Option<&Source>) -> Result<Source, LoadError> {
        self.files
            .iter()
            .find(|(n, _)| n == name || n.strip_suffix(".var") == Some(name))
            .map(|(n, t)| Source {
                name: n.clone(),
                text: Arc::from(t.as_str()),
            })
            .or_else(|| shipped(name))
            .ok_or_else(|| LoadError::NotFound(format!("no variant `{name}`")))
    }
}
