//! Files on disk, the one place koma reads and writes them: it reads only regular files (never
//! a FIFO, a device or a directory, which could block or never end), of bounded size; it writes
//! a file whole or not at all (a temporary file renamed over it), only over a regular file or
//! at a new path, keeping the mode of the file it replaces.

use std::fs::{File, Metadata, OpenOptions};
use std::io::{ErrorKind, Read, Write};
use std::path::{Path, PathBuf};

/// What stands at a path that is not a regular file, in words.
pub fn kind_of(metadata: &Metadata) -> &'static str {
    let file_type = metadata.file_type();
    if file_type.is_dir() {
        return "a directory";
    }
    if file_type.is_symlink() {
        return "a symbolic link";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if file_type.is_socket() {
            return "a socket";
        }
        if file_type.is_block_device() || file_type.is_char_device() {
            return "a device";
        }
    }
    "not a regular file"
}

/// Reads at most `most + 1` bytes of the regular file at `path` (following symbolic links):
/// enough to tell that it is too long, without reading a file of any size into memory. Anything
/// but a regular file is refused before it is opened, so that a FIFO cannot block.
pub fn read_regular(path: &Path, most: usize) -> Result<Vec<u8>, String> {
    let shown = path.display();
    let metadata = std::fs::metadata(path).map_err(|e| format!("cannot read {shown}: {}", reason(&e)))?;
    if !metadata.is_file() {
        return Err(format!(
            "cannot read {shown}: it is {}, and koma reads only regular files",
            kind_of(&metadata)
        ));
    }
    let mut bytes = Vec::new();
    File::open(path)
        .and_then(|file| file.take(most as u64 + 1).read_to_end(&mut bytes))
        .map_err(|e| format!("cannot read {shown}: {}", reason(&e)))?;
    Ok(bytes)
}

/// What stands at a path koma is asked to write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// Nothing: the file will be created.
    New,
    /// A regular file of this many bytes.
    Regular(u64),
}

/// What stands at `path`, refusing anything koma must not replace: a symbolic link, a folder,
/// a FIFO, a device.
pub fn target(path: &Path) -> Result<Target, String> {
    match std::fs::symlink_metadata(path) {
        Ok(metadata) if metadata.is_file() => Ok(Target::Regular(metadata.len())),
        Ok(metadata) => Err(format!(
            "{} is {}, and koma writes only to a regular file or a new path",
            path.display(),
            kind_of(&metadata)
        )),
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(Target::New),
        Err(e) => Err(format!("cannot use {}: {}", path.display(), reason(&e))),
    }
}

/// Whether two paths name the same existing file.
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// The folder a file is in (`.` for a bare name).
fn folder_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// The temporary file a save of `path` by process `pid` writes first.
fn temporary_name(path: &Path, pid: u32) -> PathBuf {
    let name = path
        .file_name()
        .map_or_else(|| "game".into(), |n| n.to_string_lossy().to_string());
    path.with_file_name(format!(".{name}.{pid}.tmp"))
}

/// Writes `text` to `path` through a temporary file renamed over it, then syncs the folder: a
/// save that is cut short leaves the previous file whole, and a save that returned survives a
/// crash. Only a regular file or a new path is written; the file replaced keeps its mode.
pub fn save_atomic(path: &Path, text: &str) -> Result<(), String> {
    let mode = match target(path).map_err(|e| format!("cannot save: {e}"))? {
        Target::New => None,
        Target::Regular(_) => std::fs::metadata(path).ok().map(|m| m.permissions()),
    };
    clean_stale_temporaries(path);
    let temporary = temporary_name(path, std::process::id());
    let written = write_new(&temporary, text, mode);
    let renamed = written.and_then(|()| std::fs::rename(&temporary, path));
    if let Err(e) = renamed {
        let _ = std::fs::remove_file(&temporary);
        return Err(write_error(path, &e));
    }
    sync_folder(path).map_err(|e| {
        format!(
            "saved {}, but its folder could not be synced to disk: {}",
            path.display(),
            reason(&e)
        )
    })
}

/// Creates `temporary` (never through a link left at its name), writes and syncs it.
fn write_new(temporary: &Path, text: &str, mode: Option<std::fs::Permissions>) -> std::io::Result<()> {
    let create = || OpenOptions::new().write(true).create_new(true).open(temporary);
    let mut file = match create() {
        Err(e) if e.kind() == ErrorKind::AlreadyExists => {
            // This process's own leftover (or a link planted at its name): removed, not followed.
            std::fs::remove_file(temporary)?;
            create()?
        }
        other => other?,
    };
    if let Some(mode) = mode {
        file.set_permissions(mode)?;
    }
    file.write_all(text.as_bytes())?;
    file.sync_all()
}

#[cfg(unix)]
fn sync_folder(path: &Path) -> std::io::Result<()> {
    File::open(folder_of(path))?.sync_all()
}

#[cfg(not(unix))]
fn sync_folder(_path: &Path) -> std::io::Result<()> {
    Ok(())
}

/// Why a save of `path` failed. The record itself is never opened for writing (a new file is
/// made beside it and renamed over it), so a permission refused is the folder's.
fn write_error(path: &Path, e: &std::io::Error) -> String {
    if e.kind() == ErrorKind::PermissionDenied {
        return format!(
            "cannot save {}: the folder {} cannot be written (permission denied); koma saves a record \
             through a new file beside it",
            path.display(),
            folder_of(path).display()
        );
    }
    format!("cannot save {}: {}", path.display(), reason(e))
}

/// An I/O error in words, without the OS error number.
fn reason(e: &std::io::Error) -> String {
    let text = e.to_string();
    match text.find(" (os error") {
        Some(at) => text[..at].to_string(),
        None => text,
    }
}

/// Removes the temporary files a save of `path` left behind when its process died
/// (`.NAME.PID.tmp` where no process PID runs). Where processes cannot be seen (no `/proc`),
/// nothing is removed.
pub fn clean_stale_temporaries(path: &Path) {
    let Some(name) = path.file_name().map(|n| n.to_string_lossy().to_string()) else {
        return;
    };
    if !Path::new("/proc/self").exists() {
        return;
    }
    let Ok(entries) = std::fs::read_dir(folder_of(path)) else {
        return;
    };
    let prefix = format!(".{name}.");
    for entry in entries.flatten() {
        let entry_name = entry.file_name().to_string_lossy().to_string();
        let pid = entry_name
            .strip_prefix(&prefix)
            .and_then(|rest| rest.strip_suffix(".tmp"))
            .and_then(|pid| pid.parse::<u32>().ok());
        let stale = pid.is_some_and(|pid| !Path::new(&format!("/proc/{pid}")).exists());
        if stale && entry.file_type().is_ok_and(|t| t.is_file()) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}
