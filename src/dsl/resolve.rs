//! Resolution: reads files (size, encoding and binary checks), follows `extends` (parent
//! first, cycles detected) and `include` (relative to the including file, each file once),
//! applies items in order into a scope, types options through the registry, then builds and
//! validates the one typed [`Ruleset`] — deck from tile sets × multipliers, start tile,
//! defaults for unset options of the expansions in play, content hash.
//!
//! The steps, one module each: `load.rs` reads files and follows references,
//! `scope.rs` applies their items, `build.rs` checks the whole and
//! types the options, `assemble.rs` maps them onto the [`Ruleset`]. This
//! module is their entry point.

use super::codes;
use super::diagnostic::{Diagnostic, Diagnostics};
use super::load::{canonical, Loader, MAX_DIAGS};
use super::parse;
use crate::ruleset::Ruleset;
use std::path::Path;

/// A loaded ruleset and the warnings found on the way.
#[derive(Clone, Debug)]
pub struct Loaded {
    pub ruleset: Ruleset,
    pub warnings: Vec<Diagnostic>,
}

/// Order diagnostics by file (in the order files first reported) and position.
fn sort(diags: &mut [Diagnostic]) {
    let mut order: Vec<String> = Vec::new();
    for d in diags.iter() {
        if !order.contains(&d.file) {
            order.push(d.file.clone());
        }
    }
    diags.sort_by_key(|d| (order.iter().position(|f| *f == d.file), d.span.start));
}

fn finish(mut l: Loader, top: Option<usize>, file: Option<String>) -> Result<Loaded, Diagnostics> {
    let rs = match top {
        Some(id) => {
            let scope = l.ruleset_scope(id);
            l.build(scope, id, file)
        }
        None => None,
    };
    sort(&mut l.diags);
    if l.dropped > 0 {
        let name = top.map_or("", |id| l.files[id].name.as_str());
        let d = Diagnostic::whole_file(
            &codes::TOO_MANY_ERRORS,
            name,
            format!(
                "too many errors: {} more not shown (at most {MAX_DIAGS} are)",
                l.dropped
            ),
        )
        .with_help("fix the errors shown and check again");
        l.diags.push(d);
    }
    match rs {
        Some(ruleset) if !l.has_errors() => Ok(Loaded {
            ruleset,
            warnings: l.diags,
        }),
        _ => {
            if !l.has_errors() {
                l.diags.push(Diagnostic::whole_file(
                    &codes::INTERNAL,
                    "<internal>",
                    "internal error: the ruleset could not be assembled",
                ));
            }
            Err(Diagnostics::new(l.diags))
        }
    }
}

/// Load and resolve the ruleset in `path`.
pub fn load_ruleset(path: &Path) -> Result<Loaded, Diagnostics> {
    let mut l = Loader::new(true);
    let canon = canonical(path);
    let top = l.read(path, None);
    l.stack.push(canon);
    finish(l, top, Some(path.display().to_string()))
}

/// Load and resolve in-memory text named `name` (used in diagnostics). `extends` and
/// `include` paths are relative to the current directory.
pub fn load_ruleset_str(name: &str, text: &str) -> Result<Loaded, Diagnostics> {
    let mut l = Loader::new(true);
    let top = l.add_text(name, text.to_string());
    finish(l, top, None)
}

/// As [`load_ruleset_str`], but any `extends` or `include` is an error (E0304): for
/// fuzzing and untrusted text.
pub fn load_ruleset_str_isolated(name: &str, text: &str) -> Result<Loaded, Diagnostics> {
    let mut l = Loader::new(false);
    let top = l.add_text(name, text.to_string());
    finish(l, top, None)
}

/// The item keywords, re-exported for documentation.
pub fn item_keywords() -> &'static [&'static str] {
    &parse::ITEM_KEYWORDS
}
