//! Validation passes: a tile definition's geometry (every edge in exactly one feature of its
//! kind, field halves covered exactly once, through roads splitting their fields, field→city
//! links pointing at cities of the same tile, property conflicts), producing the typed
//! [`TileType`]; and checks that look at the whole resolved ruleset (options of an expansion
//! whose tiles are not in the deck).

use super::ast::{Sp, TileDef, TileProp};
use super::codes;
use super::diagnostic::{Diagnostic, SourceFile};
use crate::tiles::{EdgeKind, FeatureKind, HalfEdge, Side, TileFeature, TileType};

fn halves_of(side: Side) -> [HalfEdge; 2] {
    [
        HalfEdge::from_index(side.index() * 2),
        HalfEdge::from_index(side.index() * 2 + 1),
    ]
}

/// Check a tile definition and build its [`TileType`]. Returns `None` when it has errors
/// (all of them pushed to `out`).
pub fn build_tile(def: &TileDef, src: &SourceFile, out: &mut Vec<Diagnostic>) -> Option<TileType> {
    let before = out.len();
    let err = |out: &mut Vec<Diagnostic>, code, sp: Sp, msg: String| {
        out.push(src.error(code, sp.start, sp.end, msg));
    };
    let mut jcz: Option<(String, Sp)> = None;
    let mut edges: Option<([EdgeKind; 4], Sp)> = None;
    let mut features: Vec<TileFeature> = Vec::new();
    let mut spans: Vec<Sp> = Vec::new();
    // field index in `features` → (city sides named, span)
    let mut links: Vec<(usize, Vec<(Side, Sp)>)> = Vec::new();
    let (mut decor, mut cloister) = (Vec::new(), None);
    let mut marks = 0u32;
    let dup = |out: &mut Vec<Diagnostic>, what: &str, sp: Sp| {
        out.push(
            src.error(
                &codes::PROPERTY_TWICE,
                sp.start,
                sp.end,
                format!("`{what}` given twice in tile `{}`", def.id.text),
            )
            .with_help("each tile property except features and decor may appear once"),
        );
    };
    for p in &def.props {
        match p {
            TileProp::Jcz(t) => {
                if jcz.is_some() {
                    dup(out, "jcz", t.span);
                }
                jcz = Some((t.text.clone(), t.span));
            }
            TileProp::Edges(t) => {
                if edges.is_some() {
                    dup(out, "edges", t.span);
                }
                let ks: Vec<Option<EdgeKind>> = t.text.chars().map(EdgeKind::from_letter).collect();
                if ks.len() != 4 || ks.iter().any(|k| k.is_none()) {
                    out.push(
                        src.error(&codes::BAD_EDGES, t.span.start, t.span.end, format!("invalid edges `{}`", t.text))
                            .with_help("write four letters for N, E, S, W, each C (city), R (road), F (field) or W (river), e.g. `CRFR`"),
                    );
                } else {
                    let mut e = [EdgeKind::Field; 4];
                    for (k, x) in ks.into_iter().enumerate() {
                        e[k] = x.unwrap_or(EdgeKind::Field);
                    }
                    edges = Some((e, t.span));
                }
            }
            TileProp::City {
                sides,
                pennants,
                marks: written,
                span,
            } => {
                let mask = side_mask(sides, src, out, "city");
                if pennants.0 < 0 || pennants.0 > 9 {
                    err(
                        out,
                        &codes::OUT_OF_RANGE,
                        pennants.1,
                        format!("{} pennants is out of range (0..9)", pennants.0),
                    );
                }
                let mut city = TileFeature::city(mask, pennants.0.clamp(0, 9) as u8);
                city.marks = segment_marks(written, FeatureKind::City, src, out);
                features.push(city);
                spans.push(*span);
            }
            TileProp::Road {
                sides,
                marks: written,
                span,
            } => {
                let mask = side_mask(sides, src, out, "road");
                let mut road = TileFeature::road(mask);
                road.marks = segment_marks(written, FeatureKind::Road, src, out);
                features.push(road);
                spans.push(*span);
            }
            TileProp::Field {
                halves,
                cities,
                marks: written,
                span,
            } => {
                let mut mask = 0u8;
                for (h, hs) in halves {
                    if mask & h.bit() != 0 {
                        err(
                            out,
                            &codes::EDGE_CLAIMED_TWICE,
                            *hs,
                            format!("half-edge {} listed twice in one field", h.name()),
                        );
                    }
                    mask |= h.bit();
                }
                links.push((features.len(), cities.clone()));
                let mut field = TileFeature::field(mask, Vec::new());
                field.marks = segment_marks(written, FeatureKind::Field, src, out);
                features.push(field);
                spans.push(*span);
            }
            TileProp::Cloister(sp) => {
                if cloister.is_some() {
                    dup(out, "cloister", *sp);
                }
                cloister = Some(*sp);
                features.push(TileFeature::cloister());
                spans.push(*sp);
            }
            TileProp::Mark(t) => {
                let bit = crate::engine::expansions::tile_mark(&t.text).map_or(0, |i| 1u32 << i);
                // the marks of a keyword (`crop city`, `crop road`) are one property
                let (what, same) = match t.text.split_once(' ') {
                    Some((keyword, _)) => (keyword, keyword_marks(keyword)),
                    None => (t.text.as_str(), bit),
                };
                if marks & same != 0 {
                    dup(out, what, t.span);
                }
                marks |= bit;
            }
            TileProp::Decor(names, _) => {
                for n in names {
                    if !decor.contains(&n.text) {
                        decor.push(n.text.clone());
                    }
                }
            }
        }
    }
    let Some((edges, _)) = edges else {
        if def.props.iter().any(|p| matches!(p, TileProp::Edges(_))) {
            return None; // an invalid `edges` was already reported
        }
        out.push(
            src.error(
                &codes::MISSING_EDGES,
                def.id.span.start,
                def.id.span.end,
                format!("tile `{}` has no `edges`", def.id.text),
            )
            .with_help("add e.g. `edges CRFR` (N, E, S, W)"),
        );
        return None;
    };
    if features.len() > u8::MAX as usize {
        err(
            out,
            &codes::PROPERTY_TWICE,
            def.span,
            "too many features on one tile".to_string(),
        );
        return None;
    }
    // field → city links
    for (fi, cities) in &links {
        let mut idx = Vec::new();
        for (s, ssp) in cities {
            let city = features
                .iter()
                .position(|f| f.kind == FeatureKind::City && f.sides & s.bit() != 0);
            match city {
                Some(c) => {
                    if !idx.contains(&(c as u8)) {
                        idx.push(c as u8);
                    }
                }
                None => out.push(
                    src.error(&codes::FIELD_CITY_LINK, ssp.start, ssp.end, format!("this field names the city on side {}, but no city of this tile reaches {}", s.name(), s.name()))
                        .with_help("a field may only point at cities of the same tile; name a side one of its cities reaches"),
                ),
            }
        }
        features[*fi].cities = idx;
    }
    // every edge in exactly one feature of its kind
    for side in Side::ALL {
        let kind = edges[side.index()];
        let on: Vec<usize> = (0..features.len())
            .filter(|&k| {
                matches!(features[k].kind, FeatureKind::City | FeatureKind::Road)
                    && features[k].sides & side.bit() != 0
            })
            .collect();
        for &k in &on {
            let fk = features[k].kind;
            let want = if fk == FeatureKind::City {
                EdgeKind::City
            } else {
                EdgeKind::Road
            };
            if want != kind {
                err(
                    out,
                    &codes::WRONG_EDGE_KIND,
                    spans[k],
                    format!(
                        "{fk} reaches side {}, but edge {} is a {} edge",
                        side.name(),
                        side.name(),
                        edge_name(kind)
                    ),
                );
            }
        }
        let matching: Vec<usize> = on
            .iter()
            .copied()
            .filter(|&k| (features[k].kind == FeatureKind::City) == (kind == EdgeKind::City))
            .collect();
        // a field or river edge belongs to no segment (a river is no feature)
        if kind != EdgeKind::Field && kind != EdgeKind::River {
            if matching.is_empty() {
                out.push(
                    src.error(
                        &codes::EDGE_WITHOUT_FEATURE,
                        def.id.span.start,
                        def.id.span.end,
                        format!(
                            "edge {} of tile `{}` is a {} edge, but no {} reaches it",
                            side.name(),
                            def.id.text,
                            edge_name(kind),
                            edge_name(kind)
                        ),
                    )
                    .with_help(format!(
                        "add `{} {}` (or add {} to an existing one)",
                        edge_name(kind),
                        side.name(),
                        side.name()
                    )),
                );
            } else if matching.len() > 1 {
                err(
                    out,
                    &codes::EDGE_CLAIMED_TWICE,
                    spans[matching[1]],
                    format!(
                        "side {} belongs to two {} segments",
                        side.name(),
                        edge_name(kind)
                    ),
                );
            }
        }
        // half-edges
        for h in halves_of(side) {
            let fs: Vec<usize> = (0..features.len())
                .filter(|&k| {
                    features[k].kind == FeatureKind::Field && features[k].halves & h.bit() != 0
                })
                .collect();
            if kind == EdgeKind::City {
                // once per field and side: on the first half it touches
                let first = halves_of(side)[0];
                for &k in &fs {
                    if h == first || features[k].halves & first.bit() == 0 {
                        err(
                            out,
                            &codes::WRONG_EDGE_KIND,
                            spans[k],
                            format!("field touches edge {}, but it is a city edge", side.name()),
                        );
                    }
                }
            } else if fs.is_empty() {
                out.push(
                    src.error(&codes::EDGE_WITHOUT_FEATURE, def.id.span.start, def.id.span.end, format!("half-edge {} of tile `{}` is in no field", h.name(), def.id.text))
                        .with_help(format!("every half of a field or road edge belongs to exactly one field; add {} to a field", h.name())),
                );
            } else if fs.len() > 1 {
                err(
                    out,
                    &codes::EDGE_CLAIMED_TWICE,
                    spans[fs[1]],
                    format!("half-edge {} is in two fields", h.name()),
                );
            }
        }
    }
    // a road running through the tile splits the halves of each edge it reaches
    for (k, f) in features.iter().enumerate() {
        if f.kind != FeatureKind::Road || f.sides.count_ones() < 2 {
            continue;
        }
        for side in Side::ALL {
            if f.sides & side.bit() == 0 || edges[side.index()] != EdgeKind::Road {
                continue;
            }
            let [a, b] = halves_of(side);
            let same = features.iter().any(|g| {
                g.kind == FeatureKind::Field && g.halves & a.bit() != 0 && g.halves & b.bit() != 0
            });
            if same {
                err(
                    out,
                    &codes::ROAD_MUST_SPLIT_FIELDS,
                    spans[k],
                    format!(
                        "this road runs through side {}, but {} and {} are in the same field",
                        side.name(),
                        a.name(),
                        b.name()
                    ),
                );
            }
        }
    }
    // a river running through the tile (two sides or more) splits the halves of each of
    // its sides; a spring or a lake (one side) lets the field wrap around it
    let river: Vec<Side> = Side::ALL
        .into_iter()
        .filter(|s| edges[s.index()] == EdgeKind::River)
        .collect();
    if river.len() >= 2 {
        let mut reported = Vec::new();
        for &side in &river {
            let [a, b] = halves_of(side);
            let same = features.iter().position(|g| {
                g.kind == FeatureKind::Field && g.halves & a.bit() != 0 && g.halves & b.bit() != 0
            });
            if let Some(k) = same.filter(|k| !reported.contains(k)) {
                reported.push(k); // once per field
                err(
                    out,
                    &codes::RIVER_MUST_SPLIT_FIELDS,
                    spans[k],
                    format!(
                        "the river runs through side {}, but {} and {} are in the same field",
                        side.name(),
                        a.name(),
                        b.name()
                    ),
                );
            }
        }
    }
    if out.len() > before {
        return None;
    }
    Some(TileType {
        id: def.id.text.clone(),
        jcz_id: jcz.map(|j| j.0),
        edges,
        features,
        decor,
        marks,
    })
}

fn edge_name(k: EdgeKind) -> &'static str {
    match k {
        EdgeKind::City => "city",
        EdgeKind::Road => "road",
        EdgeKind::Field => "field",
        EdgeKind::River => "river",
    }
}

/// The bits of the tile marks written as `keyword` and an argument (`crop city`).
fn keyword_marks(keyword: &str) -> u32 {
    crate::engine::expansions::TILE_MARKS
        .iter()
        .enumerate()
        .filter(|(_, m)| {
            m.0.strip_prefix(keyword)
                .is_some_and(|rest| rest.starts_with(' '))
        })
        .fold(0, |bits, (i, _)| bits | 1 << i)
}

/// The bits of the segment marks written after a segment of `kind` (`road W E inn`): a mark
/// of another kind of segment (an inn on a city) is an error, a mark written twice too.
fn segment_marks(
    written: &[super::ast::Text],
    kind: FeatureKind,
    src: &SourceFile,
    out: &mut Vec<Diagnostic>,
) -> u8 {
    let mut marks = 0u8;
    for t in written {
        // the parser keeps only registered names
        let Some((bit, on)) = crate::engine::expansions::segment_mark(&t.text) else {
            continue;
        };
        if on != kind {
            out.push(
                src.error(
                    &codes::SEGMENT_MARK_KIND,
                    t.span.start,
                    t.span.end,
                    format!("`{}` marks a {}, not a {}", t.text, on.name(), kind.name()),
                )
                .with_help(format!("write it after a {} segment's sides", on.name())),
            );
        } else if marks & (1 << bit) != 0 {
            out.push(src.error(
                &codes::PROPERTY_TWICE,
                t.span.start,
                t.span.end,
                format!("`{}` written twice on one {}", t.text, kind.name()),
            ));
        }
        marks |= 1 << bit;
    }
    marks
}

fn side_mask(sides: &[(Side, Sp)], src: &SourceFile, out: &mut Vec<Diagnostic>, what: &str) -> u8 {
    let mut m = 0u8;
    for (s, sp) in sides {
        if m & s.bit() != 0 {
            out.push(src.error(
                &codes::EDGE_CLAIMED_TWICE,
                sp.start,
                sp.end,
                format!("side {} listed twice in one {what}", s.name()),
            ));
        }
        m |= s.bit();
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dsl::ast::Item;
    use crate::dsl::parse::parse_file;

    fn check(text: &str) -> (Option<TileType>, Vec<&'static str>) {
        let (f, errs) = parse_file(text);
        assert!(errs.is_empty(), "{errs:?}");
        let src = SourceFile {
            name: "t".into(),
            text: text.into(),
        };
        let mut out = Vec::new();
        let Item::Tile(def) = &f.items[0] else {
            panic!()
        };
        let t = build_tile(def, &src, &mut out);
        (t, out.iter().map(|d| d.code).collect())
    }

    #[test]
    fn start_tile_is_valid() {
        let (t, codes) =
            check("tile D { edges CRFR city N road W E field EL WR -> N field ER SL SR WL }");
        assert!(codes.is_empty(), "{codes:?}");
        let t = t.unwrap();
        assert_eq!(t.features[2].cities, vec![0]);
        assert_eq!(t.features[3].cities, Vec::<u8>::new());
    }

    #[test]
    fn geometry_errors() {
        assert_eq!(
            check("tile D { edges CRFR road W E field EL WR field ER SL SR WL }").1,
            vec!["E0402"]
        );
        assert_eq!(
            check("tile D { edges CRFR city N road W E field EL WR -> N field ER SL SR }").1,
            vec!["E0402"]
        );
        assert_eq!(
            check("tile D { edges CRFR city N road W E field EL WR ER SL SR WL }").1,
            vec!["E0405", "E0405"]
        );
        assert_eq!(
            check("tile D { edges CRFR city N road W E field EL WR -> S field ER SL SR WL }").1,
            vec!["E0406"]
        );
        assert_eq!(
            check("tile D { edges CRFR city N road W E S field EL WR -> N field ER SL SR WL }").1,
            vec!["E0404"]
        );
        assert_eq!(check("tile D { city N }").1, vec!["E0408"]);
    }
}
