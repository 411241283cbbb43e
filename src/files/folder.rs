//! Output folders that appear whole or not at all.
//!
//! A run writes every file into a fresh hidden sibling, `.NAME.tmp-PID`, and only when all
//! of them are written swaps it in for `NAME` (the previous run, if any, is moved aside to
//! `.NAME.old-PID` and removed). So a failure or a kill never leaves new files beside an
//! earlier run's, nor a folder with some files missing: `NAME` holds one complete run or
//! nothing new. Siblings left by a process that died are removed by the next run.
//!
//! A folder is only replaced when it holds nothing but what a run writes (see
//! [`is_run_file`]; a sweep's `rulesets/`, a multi-level compare's `levels/` of run folders),
//! so `--out ~` or `--out src` is refused rather than swapped away.

use super::names;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// Whether `name` is a file a compare or merge run writes into its folder.
pub fn is_run_file(name: &str) -> bool {
    const NAMES: [&str; 10] = [
        names::REPORT_JSON,
        names::REPORT_MD,
        names::REPORT_HTML,
        names::GAMES_CSV,
        names::ACCUMULATOR_JSON,
        names::TIMING_JSON,
        names::SWEEP_JSON,
        names::SWEEP_MD,
        names::SWEEP_HTML,
        names::SWEEP_PLAN,
    ];
    NAMES.contains(&name)
        || name.starts_with(".tmp-")
        || name.ends_with(".svg")
        || name.ends_with(".png")
}

/// Whether folder `dir` holds nothing but `.rules` files (a sweep's generated rulesets).
fn holds_only_rules(dir: &Path) -> io::Result<bool> {
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if !entry.file_type()?.is_file() || !name.ends_with(".rules") {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Whether folder `dir` holds nothing but run folders (the levels of a multi-level compare),
/// each of which a new run may replace.
fn holds_only_runs(dir: &Path) -> io::Result<bool> {
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        if !entry.file_type()?.is_dir() || check_replaceable(&entry.path()).is_err() {
            return Ok(false);
        }
    }
    Ok(true)
}

/// The parent folder and the name of `dir`; an error for `.`, `/` and the like.
pub fn split(dir: &Path) -> io::Result<(PathBuf, String)> {
    let name = dir
        .file_name()
        .and_then(|n| n.to_str())
        .filter(|n| !n.is_empty() && *n != "." && *n != "..")
        .ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "output folder {} needs a plain name (e.g. out/compare)",
                    dir.display()
                ),
            )
        })?;
    let parent = match dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    Ok((parent, name.to_string()))
}

/// A hidden sibling of `dir` with the given tag: `.NAME.TAG`.
pub fn sibling(dir: &Path, tag: &str) -> io::Result<PathBuf> {
    let (parent, name) = split(dir)?;
    Ok(parent.join(format!(".{name}.{tag}")))
}

/// Checks that `dir` may be replaced by a new run: it is missing, or a folder holding only
/// files a run writes.
pub fn check_replaceable(dir: &Path) -> io::Result<()> {
    let meta = match fs::symlink_metadata(dir) {
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e),
    };
    let refuse = |what: String| {
        Err(io::Error::new(
            io::ErrorKind::AlreadyExists,
            format!(
                "will not replace {}: {what}; choose a new or empty folder for --out",
                dir.display()
            ),
        ))
    };
    if !meta.is_dir() {
        return refuse("it is not a folder".into());
    }
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if entry.file_type()?.is_dir()
            && name == names::RULES_FOLDER
            && holds_only_rules(&entry.path())?
        {
            continue;
        }
        if entry.file_type()?.is_dir()
            && name == names::LEVELS_FOLDER
            && holds_only_runs(&entry.path())?
        {
            continue;
        }
        if !entry.file_type()?.is_file() || !is_run_file(&name) {
            return refuse(format!("it holds {name}, which no meeplab run writes"));
        }
    }
    Ok(())
}

/// Whether the process `pid` is alive (Linux `/proc`; elsewhere every process counts as
/// dead, so leftovers are removed).
fn alive(pid: u32) -> bool {
    pid == std::process::id() || Path::new("/proc").join(pid.to_string()).exists()
}

/// Removes `.NAME.tmp-PID` and `.NAME.old-PID` siblings of `dir` whose process is gone.
pub fn remove_stale(dir: &Path) -> io::Result<()> {
    let (parent, name) = split(dir)?;
    let Ok(entries) = fs::read_dir(&parent) else {
        return Ok(());
    };
    for entry in entries.flatten() {
        let file = entry.file_name().to_string_lossy().into_owned();
        let Some(rest) = file.strip_prefix(&format!(".{name}.")) else {
            continue;
        };
        let pid = rest
            .strip_prefix("tmp-")
            .or_else(|| rest.strip_prefix("old-"))
            .and_then(|p| p.parse::<u32>().ok());
        if pid.is_some_and(|p| p != std::process::id() && !alive(p)) {
            let _ = fs::remove_dir_all(entry.path());
        }
    }
    Ok(())
}

/// A run's files being written; they replace the output folder on [`Staging::commit`].
/// Dropped without commit, the staging folder and everything in it is removed.
pub struct Staging {
    target: PathBuf,
    temp: PathBuf,
    committed: bool,
}

impl Staging {
    /// Starts a run into `dir`: removes leftovers of dead runs, checks `dir` may be
    /// replaced, and creates the empty staging folder.
    pub fn create(dir: &Path) -> io::Result<Staging> {
        let (parent, _) = split(dir)?;
        fs::create_dir_all(&parent)?;
        remove_stale(dir)?;
        check_replaceable(dir)?;
        let temp = sibling(dir, &format!("tmp-{}", std::process::id()))?;
        if temp.exists() {
            fs::remove_dir_all(&temp)?;
        }
        fs::create_dir(&temp)?;
        Ok(Staging {
            target: dir.to_path_buf(),
            temp,
            committed: false,
        })
    }

    /// Where to write the run's files.
    pub fn path(&self) -> &Path {
        &self.temp
    }

    /// Swaps the staging folder in for the output folder.
    pub fn commit(mut self) -> io::Result<()> {
        if let Ok(d) = fs::File::open(&self.temp) {
            let _ = d.sync_all();
        }
        // the folder may have changed since create(): check again right before replacing
        check_replaceable(&self.target)?;
        if self.target.exists() {
            let old = sibling(&self.target, &format!("old-{}", std::process::id()))?;
            fs::rename(&self.target, &old)?;
            if let Err(e) = fs::rename(&self.temp, &self.target) {
                let _ = fs::rename(&old, &self.target);
                return Err(e);
            }
            self.committed = true;
            fs::remove_dir_all(&old)?;
        } else {
            fs::rename(&self.temp, &self.target)?;
            self.committed = true;
        }
        Ok(())
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        if !self.committed {
            let _ = fs::remove_dir_all(&self.temp);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_run_replaces_the_old_one_whole_or_not_at_all() {
        let root = tempfile::tempdir().unwrap();
        let out = root.path().join("out");
        fs::create_dir(&out).unwrap();
        fs::write(out.join("report.json"), "old").unwrap();
        fs::write(out.join("report.md"), "old").unwrap();
        // a run that fails before commit changes nothing and leaves nothing
        {
            let s = Staging::create(&out).unwrap();
            fs::write(s.path().join("games.csv"), "new").unwrap();
        }
        assert_eq!(fs::read_to_string(out.join("report.json")).unwrap(), "old");
        assert_eq!(fs::read_dir(root.path()).unwrap().count(), 1);
        // a committed run replaces every file: nothing of the old run stays beside it
        let s = Staging::create(&out).unwrap();
        fs::write(s.path().join("games.csv"), "new").unwrap();
        s.commit().unwrap();
        let names: Vec<String> = fs::read_dir(&out)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["games.csv"]);
        assert_eq!(fs::read_dir(root.path()).unwrap().count(), 1);
        // leftovers of a dead process are removed; a folder with foreign files is refused
        let dead = root.path().join(".out.tmp-4000000000");
        fs::create_dir(&dead).unwrap();
        fs::write(out.join("notes.txt"), "mine").unwrap();
        let err = Staging::create(&out).err().unwrap();
        assert!(err.to_string().contains("holds notes.txt"), "{err}");
        assert!(!dead.exists());
        assert!(split(Path::new(".")).is_err());
    }

    #[test]
    fn a_multi_level_run_may_be_replaced_but_not_a_folder_beside_it() {
        let root = tempfile::tempdir().unwrap();
        let out = root.path().join("out");
        let level = out.join("levels").join("greedy");
        fs::create_dir_all(&level).unwrap();
        fs::write(out.join("report.md"), "top").unwrap();
        fs::write(level.join("report.json"), "level").unwrap();
        fs::write(level.join("example-A-B-seed-1-A.svg"), "<svg/>").unwrap();
        check_replaceable(&out).unwrap();
        fs::write(level.join("notes.txt"), "mine").unwrap();
        let err = check_replaceable(&out).unwrap_err();
        assert!(err.to_string().contains("holds levels"), "{err}");
        fs::remove_file(level.join("notes.txt")).unwrap();
        fs::write(out.join("levels").join("stray.txt"), "mine").unwrap();
        assert!(
            check_replaceable(&out).is_err(),
            "only run folders in levels/"
        );
    }
}
