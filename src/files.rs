//! Files on disk, the one place koma reads and writes them: it reads only regular files (never
//! a FIFO, a device or a directory, which could block or never end), opened without blocking
//! and checked once open, of bounded size; it writes a file whole or not at all (a temporary
//! file renamed over it), only over a regular file or at a new path, keeping the mode of the
//! file it replaces. A file koma read and rewrites (`koma fmt`) is left as it is when it
//! changed since, or is read-only, and keeps its owner and hard links.

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
/// enough to tell that it is too long, without reading a file of any size into memory.
pub fn read_regular(path: &Path, most: usize) -> Result<Vec<u8>, String> {
    read_stamped(path, most).map(|(bytes, _)| bytes)
}

/// What identifies a version of a file: which file it is, its length and when it was last
/// written. A file whose stamp differs from the one koma read it with has changed since.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stamp {
    device: u64,
    inode: u64,
    len: u64,
    modified: Option<std::time::SystemTime>,
}

impl Stamp {
    pub fn of(metadata: &Metadata) -> Stamp {
        #[cfg(unix)]
        let (device, inode) = {
            use std::os::unix::fs::MetadataExt;
            (metadata.dev(), metadata.ino())
        };
        #[cfg(not(unix))]
        let (device, inode) = (0, 0);
        Stamp {
            device,
            inode,
            len: metadata.len(),
            modified: metadata.modified().ok(),
        }
    }
}

/// As [`read_regular`], with the stamp of the file read. The file is opened without blocking
/// (a FIFO opened for reading would wait for a writer) and what was opened is checked, not the
/// path beforehand: anything but a regular file is refused, even one swapped in between.
pub fn read_stamped(path: &Path, most: usize) -> Result<(Vec<u8>, Stamp), String> {
    let shown = path.display();
    let file = open_nonblocking(path).map_err(|e| format!("cannot read {shown}: {}", reason(&e)))?;
    let metadata = file
        .metadata()
        .map_err(|e| format!("cannot read {shown}: {}", reason(&e)))?;
    if !metadata.is_file() {
        return Err(format!(
            "cannot read {shown}: it is {}, and koma reads only regular files",
            kind_of(&metadata)
        ));
    }
    let mut bytes = Vec::new();
    file.take(most as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {shown}: {}", reason(&e)))?;
    Ok((bytes, Stamp::of(&metadata)))
}

#[cfg(unix)]
fn open_nonblocking(path: &Path) -> std::io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)
}

#[cfg(not(unix))]
fn open_nonblocking(path: &Path) -> std::io::Result<File> {
    File::open(path)
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

/// Replaces the regular file at `path` (through a symbolic link, as an editor saves), which
/// koma read with `stamp`, by `text`, keeping what makes the file the user's:
///
/// - a file that changed since it was read (another stamp) is left as it is: replacing it
///   would lose the edit saved meanwhile;
/// - a read-only file (no write permission for anyone), or one this user may not write, is
///   left as it is;
/// - a file with other hard links, or whose owner the new file could not be given, is written
///   in place, so that its links and owner stay; any other file is written whole to a
///   temporary file (with its mode and owner) renamed over it, so that a write cut short
///   leaves the previous text whole.
pub fn replace_read(path: &Path, text: &str, stamp: &Stamp) -> Result<(), String> {
    let shown = path.display();
    let real = path
        .canonicalize()
        .map_err(|e| format!("cannot write {shown}: {}", reason(&e)))?;
    let unchanged = |metadata: &Metadata| {
        if Stamp::of(metadata) == *stamp {
            Ok(())
        } else {
            Err(format!(
                "{shown} changed since koma read it, and was left as it is (run koma again to format the new text)"
            ))
        }
    };
    let metadata = std::fs::metadata(&real).map_err(|e| format!("cannot write {shown}: {}", reason(&e)))?;
    unchanged(&metadata)?;
    if metadata.permissions().readonly() {
        return Err(format!("{shown} is read-only, and was left as it is"));
    }
    let file = OpenOptions::new()
        .write(true)
        .open(&real)
        .map_err(|e| format!("cannot write {shown}: {}", reason(&e)))?;
    if links(&metadata) > 1 {
        return write_in_place(path, file, text, unchanged);
    }
    clean_stale_temporaries(&real);
    let temporary = temporary_name(&real, std::process::id());
    let written = write_new(&temporary, text, Some(metadata.permissions()));
    if written.is_err() || !keep_owner(&temporary, &metadata) {
        let _ = std::fs::remove_file(&temporary);
        return write_in_place(path, file, text, unchanged);
    }
    let renamed = std::fs::metadata(&real)
        .map_err(|e| format!("cannot write {shown}: {}", reason(&e)))
        .and_then(|now| unchanged(&now))
        .and_then(|()| std::fs::rename(&temporary, &real).map_err(|e| format!("cannot write {shown}: {}", reason(&e))));
    if renamed.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    renamed?;
    sync_folder(&real).map_err(|e| {
        format!(
            "wrote {shown}, but its folder could not be synced to disk: {}",
            reason(&e)
        )
    })
}

/// Overwrites an open file with `text`, after checking (on the file opened) that it is still
/// the version read.
fn write_in_place(
    path: &Path,
    mut file: File,
    text: &str,
    unchanged: impl Fn(&Metadata) -> Result<(), String>,
) -> Result<(), String> {
    let failed = |e: std::io::Error| format!("cannot write {}: {}", path.display(), reason(&e));
    unchanged(&file.metadata().map_err(failed)?)?;
    file.write_all(text.as_bytes())
        .and_then(|()| file.set_len(text.len() as u64))
        .and_then(|()| file.sync_all())
        .map_err(failed)
}

/// How many names (hard links) a file has.
#[cfg(unix)]
fn links(metadata: &Metadata) -> u64 {
    std::os::unix::fs::MetadataExt::nlink(metadata)
}

#[cfg(not(unix))]
fn links(_metadata: &Metadata) -> u64 {
    1
}

/// Gives the file at `path` the owner and group of `original`; whether it has them.
#[cfg(unix)]
fn keep_owner(path: &Path, original: &Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    let Ok(now) = std::fs::metadata(path) else {
        return false;
    };
    (now.uid(), now.gid()) == (original.uid(), original.gid())
        || std::os::unix::fs::chown(path, Some(original.uid()), Some(original.gid())).is_ok()
}

#[cfg(not(unix))]
fn keep_owner(_path: &Path, _original: &Metadata) -> bool {
    true
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
