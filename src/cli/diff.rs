//! `meeplab diff A B [--json]`: the resolved differences between two rulesets, option by
//! option with each side's value, source tag and file, then tile counts by tile id (and
//! tiles whose layout differs under the same id). Exit 0 whether or not they differ (with
//! `--exit-code`, 1 when they differ, as `git diff --exit-code`); 1 when either ruleset is
//! invalid.

use crate::cli::args;
use meeplab::dsl;
use meeplab::ruleset::{OptionSetting, Ruleset};
use std::collections::BTreeSet;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// First ruleset (a bare name like `base` also finds `rulesets/base.rules`; `-` reads
    /// standard input).
    pub a: String,
    /// Second ruleset.
    pub b: String,
    /// Print the differences as JSON.
    #[arg(long)]
    pub json: bool,
    /// Exit 1 when the rulesets differ, 0 when they are the same (as `git diff --exit-code`).
    #[arg(long)]
    pub exit_code: bool,
}

/// One option that differs.
struct OptDiff<'a> {
    key: &'a str,
    a: Option<&'a OptionSetting>,
    b: Option<&'a OptionSetting>,
}

/// One tile id whose count or layout differs.
struct TileDiff {
    id: String,
    a: u32,
    b: u32,
    layout_differs: bool,
}

fn count(rs: &Ruleset, id: &str) -> u32 {
    rs.tile_index(id)
        .and_then(|k| rs.deck.iter().find(|d| d.tile == k))
        .map_or(0, |d| d.count as u32)
}

/// The default setting of an option a ruleset leaves out of its list while it holds its
/// default (`hand`, see `dsl::registry::QUIET_AT_DEFAULT`): a ruleset without the line plays
/// by the default, so it is shown and compared as such.
fn quiet_default(key: &str) -> Option<&'static OptionSetting> {
    static DEFAULTS: std::sync::OnceLock<Vec<(&'static str, OptionSetting)>> =
        std::sync::OnceLock::new();
    let all = DEFAULTS.get_or_init(|| {
        dsl::registry::all_options()
            .filter(|o| dsl::registry::QUIET_AT_DEFAULT.contains(&o.key))
            .map(|o| {
                let setting = OptionSetting {
                    value: o.default.to_string(),
                    source: None,
                    file: None,
                };
                (o.key, setting)
            })
            .collect()
    });
    all.iter().find(|(k, _)| *k == key).map(|(_, s)| s)
}

fn options_diff<'a>(a: &'a Ruleset, b: &'a Ruleset) -> Vec<OptDiff<'a>> {
    let keys: BTreeSet<&String> = a.options.keys().chain(b.options.keys()).collect();
    let order = |k: &str| {
        dsl::registry::all_options()
            .position(|o| o.key == k)
            .unwrap_or(usize::MAX)
    };
    let mut out: Vec<OptDiff<'a>> = keys
        .into_iter()
        .filter_map(|k| {
            let x = a.options.get(k).or_else(|| quiet_default(k));
            let y = b.options.get(k).or_else(|| quiet_default(k));
            let same = x.map(|o| &o.value) == y.map(|o| &o.value);
            (!same).then_some(OptDiff {
                key: k.as_str(),
                a: x,
                b: y,
            })
        })
        .collect();
    out.sort_by_key(|d| order(d.key));
    out
}

fn tiles_diff(a: &Ruleset, b: &Ruleset) -> Vec<TileDiff> {
    let mut ids: Vec<&str> = a.tiles.iter().map(|t| t.id.as_str()).collect();
    for t in &b.tiles {
        if !ids.contains(&t.id.as_str()) {
            ids.push(&t.id);
        }
    }
    ids.into_iter()
        .filter_map(|id| {
            let (ca, cb) = (count(a, id), count(b, id));
            let layout_differs = match (a.tile_index(id), b.tile_index(id)) {
                (Some(x), Some(y)) => a.tiles[x as usize] != b.tiles[y as usize],
                _ => false,
            };
            (ca != cb || layout_differs).then(|| TileDiff {
                id: id.to_string(),
                a: ca,
                b: cb,
                layout_differs,
            })
        })
        .collect()
}

fn side(o: Option<&OptionSetting>) -> String {
    match o {
        None => "(not in play)".to_string(),
        Some(o) => {
            let mut s = o.value.clone();
            let src = o.source.as_deref().unwrap_or("no source");
            match &o.file {
                Some(f) => s.push_str(&format!("    [{src}; {f}]")),
                None => s.push_str("    [default]"),
            }
            s
        }
    }
}

fn setting_json(o: Option<&OptionSetting>) -> serde_json::Value {
    match o {
        None => serde_json::Value::Null,
        Some(o) => serde_json::json!({ "value": o.value, "source": o.source, "file": o.file }),
    }
}

pub fn run(args: Args) -> ExitCode {
    let mut loaded = Vec::new();
    let mut failed = false;
    for arg in [&args.a, &args.b] {
        let path = if arg == "-" {
            std::path::PathBuf::from("-")
        } else {
            dsl::locate(arg)
        };
        match args::load_ruleset(&path) {
            Ok(l) => {
                args::print_warnings(&l);
                loaded.push(l.ruleset);
            }
            Err(d) => {
                args::print_diagnostics(&d);
                failed = true;
            }
        }
    }
    if failed || loaded.len() != 2 {
        return ExitCode::from(1);
    }
    let (a, b) = (&loaded[0], &loaded[1]);
    let opts = options_diff(a, b);
    let tiles = tiles_diff(a, b);
    let start_differs = a.tiles[a.start as usize].id != b.tiles[b.start as usize].id;
    let same = opts.is_empty() && tiles.is_empty() && !start_differs;
    let done = if args.exit_code && !same {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    };
    if args.json {
        let head = |r: &Ruleset| serde_json::json!({ "file": r.file, "name": r.name, "hash": r.hash, "tiles": r.total_tiles() });
        let v = serde_json::json!({
            "a": head(a),
            "b": head(b),
            "same_hash": a.hash == b.hash,
            "options": opts.iter().map(|d| serde_json::json!({ "key": d.key, "a": setting_json(d.a), "b": setting_json(d.b) })).collect::<Vec<_>>(),
            "tiles": tiles.iter().map(|t| serde_json::json!({ "id": t.id, "a": t.a, "b": t.b, "layout_differs": t.layout_differs })).collect::<Vec<_>>(),
            "start": { "a": a.tiles[a.start as usize].id, "b": b.tiles[b.start as usize].id },
        });
        match serde_json::to_string_pretty(&v) {
            Ok(s) => outln!("{s}"),
            Err(e) => {
                eprintln!("meeplab diff: {e}");
                return ExitCode::from(1);
            }
        }
        return done;
    }
    outln!(
        "A: {} \"{}\" ({} tiles, hash {})",
        a.file.as_deref().unwrap_or("-"),
        a.name,
        a.total_tiles(),
        a.hash
    );
    outln!(
        "B: {} \"{}\" ({} tiles, hash {})",
        b.file.as_deref().unwrap_or("-"),
        b.name,
        b.total_tiles(),
        b.hash
    );
    if same {
        outln!("\nno differences in the resolved rules");
        return done;
    }
    if !opts.is_empty() {
        outln!(
            "\noptions ({}):",
            differ_count(opts.len(), "option", "options")
        );
        for d in &opts {
            outln!("  {}", d.key);
            outln!("    A: {}", side(d.a));
            outln!("    B: {}", side(d.b));
        }
    }
    if !tiles.is_empty() || start_differs {
        outln!("\ntiles ({}):", differ_count(tiles.len(), "id", "ids"));
        for t in &tiles {
            let note = if t.layout_differs {
                "  (layout differs)"
            } else {
                ""
            };
            outln!("  {:<14} A: {:>2}  B: {:>2}{note}", t.id, t.a, t.b);
        }
        if start_differs {
            outln!(
                "  start tile     A: {}  B: {}",
                a.tiles[a.start as usize].id,
                b.tiles[b.start as usize].id
            );
        }
    } else {
        outln!("\ntiles: identical");
    }
    done
}

/// "1 option differs", "3 options differ".
fn differ_count(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one} differs")
    } else {
        format!("{n} {many} differ")
    }
}
