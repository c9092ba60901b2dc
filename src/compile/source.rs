//! Finding variant sources: files on disk, and the variants shipped inside koma.
//!
//! A VARIANT anywhere in koma (the command line, `use "…"` in a file) is a path or the name
//! of a shipped variant: `chu` means `variants/chu.var`. A path is tried first (relative to
//! the file that names it), then the shipped name.

use super::diagnostic::Source;
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
];

/// Where sources come from. Tests give their own, to compile text that is not on disk.
pub trait Loader {
    /// Loads `name` as named in `from` (or on the command line when `from` is `None`).
    fn load(&self, name: &str, from: Option<&Source>) -> Result<Source, String>;
}

/// Loads from disk, falling back to the shipped variants.
#[derive(Debug, Default, Clone, Copy)]
pub struct FileLoader;

impl Loader for FileLoader {
    fn load(&self, name: &str, from: Option<&Source>) -> Result<Source, String> {
        let base = from
            .and_then(|s| Path::new(&s.name).parent().map(Path::to_path_buf))
            .unwrap_or_default();
        for candidate in candidates(&base, name) {
            if candidate.is_file() {
                return read_file(&candidate);
            }
        }
        if let Some(source) = shipped(name) {
            return Ok(source);
        }
        Err(format!(
            "no file `{name}` and no shipped variant of that name (shipped: {})",
            SHIPPED.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ")
        ))
    }
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

/// Reads a file as UTF-8, refusing files past [`MAX_SOURCE_BYTES`].
pub fn read_file(path: &Path) -> Result<Source, String> {
    let bytes = crate::files::read_regular(path, MAX_SOURCE_BYTES)?;
    if bytes.len() > MAX_SOURCE_BYTES {
        return Err(format!(
            "{} is larger than {MAX_SOURCE_BYTES} bytes; koma reads variant files of at most {MAX_SOURCE_BYTES} bytes",
            path.display(),
        ));
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        format!(
            "{} is not UTF-8 text (invalid byte at offset {})",
            path.display(),
            e.utf8_error().valid_up_to()
        )
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
    fn load(&self, name: &str, _from: Option<&Source>) -> Result<Source, String> {
        self.files
            .iter()
            .find(|(n, _)| n == name || n.strip_suffix(".var") == Some(name))
            .map(|(n, t)| Source {
                name: n.clone(),
                text: Arc::from(t.as_str()),
            })
            .or_else(|| shipped(name))
            .ok_or_else(|| format!("no variant `{name}`"))
    }
}
