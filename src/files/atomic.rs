//! Atomic file output: every file is written to a temporary file in the same directory and
//! renamed over its final name, so readers never see a half-written report, and an
//! interrupted run leaves the previous file (or none), never a truncated one.
//!
//! Only regular files are replaced that way. `-` means standard output, and a target that
//! is a named pipe, a device (`/dev/stdout`, `/dev/null`, `/dev/full`) or a socket is written
//! directly: renaming over it would replace the pipe or device with a plain file. A symbolic
//! link is followed, so the file it points to is replaced and the link stays.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// The temporary name used for `path`: hidden, in the same directory, tagged with the
/// process id, keeping the extension (some encoders pick the format from it).
pub fn temp_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".to_string());
    path.with_file_name(format!(".tmp-{}-{}", std::process::id(), name))
}

/// Where [`write_atomic`] puts bytes for a given target path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// `-`: standard output.
    Stdout,
    /// An existing file that is not a regular file (pipe, device, socket): written in place.
    Special(PathBuf),
    /// A regular file, or none yet: temporary file and rename (symbolic links resolved).
    Regular(PathBuf),
}

/// Classifies `path` for writing (see the module doc).
pub fn target(path: &Path) -> Target {
    if path.as_os_str() == "-" {
        return Target::Stdout;
    }
    match fs::metadata(path) {
        Ok(meta) if !meta.is_file() && !meta.is_dir() => Target::Special(path.to_path_buf()),
        Ok(_) => {
            // a link to a regular file: replace the file it points to, keep the link
            let real = if fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
                fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
            } else {
                path.to_path_buf()
            };
            Target::Regular(real)
        }
        Err(_) => Target::Regular(path.to_path_buf()),
    }
}

/// Writes `bytes` to `path`: atomically (temporary file + `fsync` + rename) for a regular
/// file, directly for `-` (standard output) and for pipes and devices.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    match target(path) {
        Target::Stdout => {
            let mut out = io::stdout().lock();
            out.write_all(bytes)?;
            out.flush()
        }
        Target::Special(p) => {
            let mut f = OpenOptions::new().write(true).open(p)?;
            f.write_all(bytes)?;
            f.flush()
        }
        Target::Regular(p) => {
            let mut f = AtomicFile::create(&p)?;
            f.write_all(bytes)?;
            f.commit()
        }
    }
}

/// Renames an already written temporary file onto `path` (for writers that insist on
/// writing to a path themselves, such as the PNG encoder).
pub fn commit_temp(temp: &Path, path: &Path) -> io::Result<()> {
    fs::rename(temp, path).inspect_err(|_| {
        let _ = fs::remove_file(temp);
    })
}

/// A buffered file that only appears under its final name on [`AtomicFile::commit`].
/// Dropped without commit, the temporary file is removed.
pub struct AtomicFile {
    path: PathBuf,
    temp: PathBuf,
    out: Option<BufWriter<File>>,
}

impl AtomicFile {
    pub fn create(path: &Path) -> io::Result<AtomicFile> {
        let temp = temp_path(path);
        let file = File::create(&temp)?;
        Ok(AtomicFile {
            path: path.to_path_buf(),
            temp,
            out: Some(BufWriter::with_capacity(1 << 16, file)),
        })
    }

    /// Flushes, syncs and renames the file onto its final name. On any failure the
    /// temporary file is removed.
    pub fn commit(mut self) -> io::Result<()> {
        let Some(out) = self.out.take() else {
            return Err(io::Error::other("file already committed"));
        };
        let synced = out
            .into_inner()
            .map_err(|e| e.into_error())
            .and_then(|file| file.sync_all());
        if let Err(e) = synced {
            let _ = fs::remove_file(&self.temp);
            return Err(e);
        }
        commit_temp(&self.temp, &self.path)
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.out.as_mut().expect("not committed").write(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.out.as_mut().expect("not committed").flush()
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.out.take().is_some() {
            let _ = fs::remove_file(&self.temp);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uncommitted_files_leave_nothing_behind() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.txt");
        {
            let mut f = AtomicFile::create(&path).unwrap();
            f.write_all(b"half").unwrap();
        }
        assert!(!path.exists());
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
        write_atomic(&path, b"whole").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"whole");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn special_files_are_written_in_place_not_replaced() {
        use std::os::unix::fs::FileTypeExt;
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("pipe");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.is_ok_and(|s| s.success()), "mkfifo");
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || fs::read(&fifo).unwrap())
        };
        write_atomic(&fifo, b"through the pipe").unwrap();
        assert_eq!(reader.join().unwrap(), b"through the pipe");
        let kind = fs::symlink_metadata(&fifo).unwrap().file_type();
        assert!(kind.is_fifo(), "the named pipe is still a pipe");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1, "no temp file");
        // devices: written in place (an error from the device itself, not a rename)
        write_atomic(Path::new("/dev/null"), b"gone").unwrap();
        let full = write_atomic(Path::new("/dev/full"), b"no room").unwrap_err();
        assert_eq!(
            full.raw_os_error(),
            Some(28),
            "ENOSPC from /dev/full: {full}"
        );
        assert!(fs::metadata("/dev/null")
            .unwrap()
            .file_type()
            .is_char_device());
        assert_eq!(target(Path::new("-")), Target::Stdout);
        // a link to a regular file: the file is replaced, the link stays a link
        let real = dir.path().join("real.txt");
        fs::write(&real, b"old").unwrap();
        let link = dir.path().join("link.txt");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        write_atomic(&link, b"new").unwrap();
        assert_eq!(fs::read(&real).unwrap(), b"new");
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
    }
}
