//! Printing in the rule language: expressions with minimal parentheses, and whole resolved
//! rulesets (`print_ruleset`) such that parsing the text back yields an equal ruleset. Also
//! the canonical form the content hash is computed over (no name, files or sources).

use super::lexer::is_bare_name;
use super::registry::{Area, QUIET_AT_DEFAULT};
use crate::ruleset::{Expr, Ruleset};
use crate::tiles::{FeatureKind, HalfEdge, Side, TileType};
use std::fmt::Write;

fn prec(e: &Expr) -> u8 {
    match e {
        Expr::Add(..) | Expr::Sub(..) => 1,
        Expr::Mul(..) | Expr::Div(..) => 2,
        _ => 3,
    }
}

fn operand(out: &mut String, e: &Expr, parent: u8, right: bool) {
    let p = prec(e);
    if p < parent || (right && p == parent) {
        out.push('(');
        write_expr(out, e);
        out.push(')');
    } else {
        write_expr(out, e);
    }
}

fn write_expr(out: &mut String, e: &Expr) {
    let bin = |out: &mut String, a: &Expr, op: &str, b: &Expr, p: u8| {
        operand(out, a, p, false);
        let _ = write!(out, " {op} ");
        operand(out, b, p, true);
    };
    match e {
        Expr::Num(n) => {
            let _ = write!(out, "{n}");
        }
        Expr::Var(v) => out.push_str(v.name()),
        Expr::Add(a, b) => bin(out, a, "+", b, 1),
        Expr::Sub(a, b) => bin(out, a, "-", b, 1),
        Expr::Mul(a, b) => bin(out, a, "*", b, 2),
        Expr::Div(a, b) => bin(out, a, "/", b, 2),
        Expr::DivUp(a, b) => {
            out.push_str("ceil(");
            bin(out, a, "/", b, 2);
            out.push(')');
        }
        Expr::Min(a, b) | Expr::Max(a, b) => {
            out.push_str(if matches!(e, Expr::Min(..)) {
                "min("
            } else {
                "max("
            });
            write_expr(out, a);
            out.push_str(", ");
            write_expr(out, b);
            out.push(')');
        }
        Expr::Table(x, t) => {
            out.push_str("table(");
            write_expr(out, x);
            out.push_str(") { ");
            for (k, (lo, hi, v)) in t.rows.iter().enumerate() {
                if k > 0 {
                    out.push_str(", ");
                }
                match hi {
                    Some(h) => {
                        let _ = write!(out, "{lo}..{h}: {v}");
                    }
                    None => {
                        let _ = write!(out, "{lo}..: {v}");
                    }
                }
            }
            out.push_str(" }");
        }
    }
}

/// An expression in the rule language, with only the parentheses it needs.
pub fn expr(e: &Expr) -> String {
    let mut s = String::new();
    write_expr(&mut s, e);
    s
}

/// A string literal with escapes.
pub fn quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\0' => out.push_str("\\0"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A tile id or set name: bare when possible, quoted otherwise.
pub fn name(s: &str) -> String {
    if is_bare_name(s) {
        s.to_string()
    } else {
        quote(s)
    }
}

fn sides(mask: u8) -> String {
    Side::ALL
        .iter()
        .filter(|s| mask & s.bit() != 0)
        .map(|s| s.name())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The segment marks of a segment, each after a space (` inn`), or nothing.
fn segment_marks(marks: u8) -> String {
    crate::engine::expansions::SEGMENT_MARKS
        .iter()
        .enumerate()
        .filter(|&(i, _)| marks & (1 << i) != 0)
        .map(|(_, m)| format!(" {}", m.0))
        .collect()
}

/// One tile definition.
pub fn tile(out: &mut String, t: &TileType) {
    let _ = writeln!(out, "tile {} {{", name(&t.id));
    if let Some(j) = &t.jcz_id {
        let _ = writeln!(out, "  jcz {}", name(j));
    }
    let _ = writeln!(out, "  edges {}", t.edge_string());
    for f in &t.features {
        match f.kind {
            FeatureKind::City => {
                let p = match f.pennants {
                    0 => String::new(),
                    1 => " pennant".to_string(),
                    n => format!(" pennants {n}"),
                };
                let m = segment_marks(f.marks);
                let _ = writeln!(out, "  city {}{p}{m}", sides(f.sides));
            }
            FeatureKind::Road => {
                let m = segment_marks(f.marks);
                let _ = writeln!(out, "  road {}{m}", sides(f.sides));
            }
            FeatureKind::Field => {
                let halves: Vec<&str> = HalfEdge::ALL
                    .iter()
                    .filter(|h| f.halves & h.bit() != 0)
                    .map(|h| h.name())
                    .collect();
                let cities: Vec<&str> = f
                    .cities
                    .iter()
                    .filter_map(|&c| t.features.get(c as usize))
                    .filter_map(|c| Side::ALL.iter().find(|s| c.sides & s.bit() != 0))
                    .map(|s| s.name())
                    .collect();
                let link = if cities.is_empty() {
                    String::new()
                } else {
                    format!(" -> {}", cities.join(" "))
                };
                // a field enclosed on the tile names only its cities (`field -> N E S W`)
                let halves = halves.join(" ");
                let gap = if halves.is_empty() { "" } else { " " };
                let m = segment_marks(f.marks);
                let _ = writeln!(out, "  field{gap}{halves}{link}{m}");
            }
            FeatureKind::Cloister => out.push_str("  cloister\n"),
        }
    }
    for (i, (name, _)) in crate::engine::expansions::TILE_MARKS.iter().enumerate() {
        if t.marks & (1 << i) != 0 {
            let _ = writeln!(out, "  {name}");
        }
    }
    if !t.decor.is_empty() {
        let _ = writeln!(out, "  decor {}", t.decor.join(", "));
    }
    out.push_str("}\n");
}

fn area_in_play(rs: &Ruleset, area: Area) -> bool {
    match area {
        Area::General | Area::Scoring => true,
        Area::Expansion(_) => rs
            .ext
            .keys()
            .any(|k| crate::dsl::registry::lookup(k).is_some_and(|d| d.area == area)),
    }
}

fn body(rs: &Ruleset, meta: bool) -> String {
    let mut out = String::new();
    if meta {
        let _ = writeln!(out, "ruleset {}\n", quote(&rs.name));
    }
    for t in &rs.tiles {
        tile(&mut out, t);
    }
    out.push_str("\ntileset all {\n");
    for d in &rs.deck {
        if let Some(t) = rs.tiles.get(d.tile as usize) {
            let _ = writeln!(out, "  {} x{}", name(&t.id), d.count);
        }
    }
    out.push_str("}\ndeck { all x1 }\n");
    if let Some(t) = rs.tiles.get(rs.start as usize) {
        let _ = writeln!(out, "start {}\n", name(&t.id));
    }
    for o in crate::dsl::registry::all_options() {
        let shown = area_in_play(rs, o.area) || (meta && rs.options.contains_key(o.key));
        if !shown {
            continue;
        }
        let Some(set) = rs.options.get(o.key) else {
            continue;
        };
        if !meta && QUIET_AT_DEFAULT.contains(&o.key) && set.value == o.default {
            continue; // the same rules as without the line: the same hash
        }
        let _ = write!(out, "{} = {}", o.key, set.value);
        match (&set.source, meta) {
            (Some(s), true) => {
                let _ = writeln!(out, " source {}", quote(s));
            }
            _ => out.push('\n'),
        }
    }
    out
}

/// The resolved ruleset in the rule language; parsing it back gives an equal ruleset.
pub fn print_ruleset(rs: &Ruleset) -> String {
    let mut s = String::from("# resolved by meeplab: every tile, the deck and every option\n");
    s.push_str(&body(rs, true));
    s
}

/// The canonical text the content hash is computed over: tiles, deck, start and the
/// options in play — no name, file names or sources.
pub fn canonical(rs: &Ruleset) -> String {
    body(rs, false)
}

/// FNV-1a 64 of `s` (the `fnv` crate), as 16 hex digits (stable across Rust versions and
/// platforms): the published content hash of a ruleset.
pub fn fnv1a_hex(s: &str) -> String {
    use std::hash::Hasher;
    let mut h = fnv::FnvHasher::default();
    h.write(s.as_bytes());
    format!("{:016x}", h.finish())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ruleset::{Table, Var};

    #[test]
    fn minimal_parentheses() {
        let e = Expr::sum(Expr::times(2, Var::Tiles), Expr::times(2, Var::Pennants));
        assert_eq!(expr(&e), "2 * tiles + 2 * pennants");
        let e = Expr::Sub(
            Box::new(Expr::num(1)),
            Box::new(Expr::Sub(Box::new(Expr::num(2)), Box::new(Expr::num(-3)))),
        );
        assert_eq!(expr(&e), "1 - (2 - -3)");
        let table = Expr::product(
            Expr::var(Var::Tiles),
            Expr::Table(
                Box::new(Expr::var(Var::Tiles)),
                Table {
                    rows: vec![(1, Some(3), 1), (4, Some(6), 2), (10, None, 4)],
                },
            ),
        );
        assert_eq!(
            expr(&table),
            "tiles * table(tiles) { 1..3: 1, 4..6: 2, 10..: 4 }"
        );
    }

    #[test]
    fn fnv_known_value() {
        assert_eq!(fnv1a_hex(""), "cbf29ce484222325");
        assert_eq!(fnv1a_hex("a"), "af63dc4c8601ec8c");
    }
}
