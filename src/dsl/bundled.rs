//! The bundled rulesets and tile catalogues (`rulesets/`), embedded in the binary so an
//! installed `meeplab` finds them from any folder, and the one locator every command uses to
//! turn an argument into a ruleset file; [`rulesets_dir`], the folder the `.jcz` import's
//! mapped rulesets extend.
//!
//! Embedded files have virtual paths under [`PREFIX`] (`<bundled>/rulesets/base.rules`), so
//! `extends` and `include` inside them resolve like files on disk. A file on disk always
//! wins: the bundle is consulted only when the disk has nothing at that path.
//!
//! What names a bundled file:
//! - a bare name: `base`, `goldmines-rgg` (→ `rulesets/NAME.rules`), or `base.rules`;
//! - a path whose tail after a `rulesets` folder names one: `rulesets/base.rules`,
//!   `../../rulesets/goldmines-hig-2012.rules` (how the example house rules extend them);
//! - from inside a file, a reference relative to `rulesets/` (`tiles/base.tiles`).

use include_dir::{include_dir, Dir};
use std::path::{Component, Path, PathBuf};

static BUNDLE: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/rulesets");

/// The root of the virtual paths of embedded files.
pub const PREFIX: &str = "<bundled>";

/// The folder of the bundle under [`PREFIX`].
const FOLDER: &str = "rulesets";

/// Whether `path` is a virtual path into the bundle.
pub fn is_bundled(path: &Path) -> bool {
    path.components().next() == Some(Component::Normal(PREFIX.as_ref()))
}

/// `path` with `.` and `..` resolved lexically (no file system access).
pub fn normalize(path: &Path) -> PathBuf {
    let mut out: Vec<Component> = Vec::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => match out.last() {
                Some(Component::Normal(_)) => {
                    out.pop();
                }
                Some(Component::RootDir) | Some(Component::Prefix(_)) => {}
                _ => out.push(c),
            },
            other => out.push(other),
        }
    }
    out.iter().collect()
}

/// The text of a bundled file by virtual path, `None` when the bundle has no such file.
pub fn read(path: &Path) -> Option<&'static str> {
    let rest = normalize(path);
    let rest = rest.strip_prefix(PREFIX).ok()?.strip_prefix(FOLDER).ok()?;
    let key = rest.to_str()?.replace('\\', "/");
    BUNDLE.get_file(&key)?.contents_utf8()
}

/// The virtual path of bundle file `rel` (relative to `rulesets/`), if it exists.
fn entry(rel: &Path) -> Option<PathBuf> {
    let rel = normalize(rel);
    if rel.as_os_str().is_empty() || rel.is_absolute() {
        return None;
    }
    let key = rel.to_str()?.replace('\\', "/");
    BUNDLE
        .get_file(&key)
        .map(|_| Path::new(PREFIX).join(FOLDER).join(rel))
}

/// The bundled file a reference names, if any: `rel` itself relative to `rulesets/`, the
/// tail after its last `rulesets` folder, or `NAME.rules` for a bare name.
pub fn find(reference: &str) -> Option<PathBuf> {
    let path = normalize(Path::new(reference));
    let parts: Vec<&str> = path
        .components()
        .filter_map(|c| match c {
            Component::Normal(s) => s.to_str(),
            _ => None,
        })
        .collect();
    if let Some(k) = parts.iter().rposition(|p| *p == FOLDER) {
        if let Some(found) = entry(&parts[k + 1..].iter().collect::<PathBuf>()) {
            return Some(found);
        }
    }
    if !path.is_absolute() && !reference.starts_with("..") {
        if let Some(found) = entry(&path) {
            return Some(found);
        }
    }
    if parts.len() == 1 && !reference.ends_with(".rules") {
        return entry(Path::new(&format!("{reference}.rules")));
    }
    None
}

/// Names of the bundled rulesets (`base`, `goldmines-rgg`, …), sorted.
pub fn ruleset_names() -> Vec<&'static str> {
    let mut names: Vec<&str> = BUNDLE
        .files()
        .filter_map(|f| f.path().to_str()?.strip_suffix(".rules"))
        .collect();
    names.sort_unstable();
    names
}

/// Find the ruleset a command-line argument names: the path itself when it exists on disk,
/// else `rulesets/NAME.rules` or `NAME.rules` on disk, else the bundled file it names (see the
/// module docs). Anything else is returned as given, and loading it reports that it cannot
/// be read.
pub fn locate(arg: &str) -> PathBuf {
    let p = PathBuf::from(arg);
    if p.exists() {
        return p;
    }
    for cand in [
        format!("rulesets/{arg}.rules"),
        format!("{arg}.rules"),
        format!("rulesets/{arg}"),
    ] {
        let c = PathBuf::from(cand);
        if c.is_file() {
            return c;
        }
    }
    find(arg).unwrap_or(p)
}

/// Whether a located ruleset path can be read: a file on disk, or a bundled file.
pub fn exists(path: &Path) -> bool {
    if is_bundled(path) {
        read(path).is_some()
    } else {
        path.is_file()
    }
}

/// The folder of the bundled rulesets: `$MEEPLAB_RULESETS`, else `rulesets/` in the current
/// directory, else the bundled rulesets embedded in the binary (this module).
pub fn rulesets_dir() -> PathBuf {
    let mut cands = Vec::new();
    if let Some(d) = std::env::var_os("MEEPLAB_RULESETS") {
        cands.push(PathBuf::from(d));
    }
    cands.push(PathBuf::from("rulesets"));
    for c in &cands {
        if c.join("base.rules").is_file() {
            return std::fs::canonicalize(c).unwrap_or_else(|_| c.clone());
        }
    }
    // the bundled rulesets embedded in the binary
    PathBuf::from(PREFIX).join(FOLDER)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bundled_ruleset_is_embedded() {
        let names = ruleset_names();
        assert!(names.contains(&"base"), "{names:?}");
        assert!(names.contains(&"goldmines-rgg"), "{names:?}");
        assert_eq!(names.len(), 39, "{names:?}");
        for n in names {
            let p = find(n).unwrap_or_else(|| panic!("{n}"));
            assert!(read(&p).is_some_and(|t| t.contains("ruleset")), "{n}");
        }
    }

    #[test]
    fn references_name_bundled_files() {
        let want = Path::new(PREFIX).join("rulesets/goldmines-hig-2012.rules");
        assert_eq!(find("goldmines-hig-2012"), Some(want.clone()));
        assert_eq!(find("goldmines-hig-2012.rules"), Some(want.clone()));
        assert_eq!(
            find("rulesets/goldmines-hig-2012.rules"),
            Some(want.clone())
        );
        assert_eq!(
            find("../../rulesets/goldmines-hig-2012.rules"),
            Some(want.clone())
        );
        assert_eq!(
            find("tiles/base.tiles"),
            Some(Path::new(PREFIX).join("rulesets/tiles/base.tiles"))
        );
        assert_eq!(find("no-such-ruleset"), None);
        assert_eq!(find("/etc/passwd"), None);
        assert_eq!(find("../base.rules"), None);
    }

    #[test]
    fn virtual_paths_resolve_relative_references() {
        let base = Path::new(PREFIX).join("rulesets/goldmines-rgg.rules");
        let tiles = base.parent().unwrap().join("tiles/../tiles/base.tiles");
        assert!(read(&tiles).is_some());
        assert!(is_bundled(&tiles));
        assert!(!is_bundled(Path::new("rulesets/base.rules")));
        assert!(read(Path::new("<bundled>/rulesets/../../etc/passwd")).is_none());
    }
}
