//! Building the typed ruleset from a ruleset's scope: the tile sets checked, the deck counted
//! from tile sets × multipliers, the start tile found in it, every option typed (set, or the
//! registry default for the parts of the game in play; warnings for options without effect),
//! then [`assemble`](super::assemble) and the content hash.

use super::assemble::assemble;
use super::ast::{Item, Sp};
use super::codes;
use super::diagnostic::Severity;
use super::load::Loader;
use super::parse::parse_file;
use super::print;
use super::registry::{self, closest_first, Area, OptionDef};
use super::scope::{OptVal, Origin, Scope};
use super::typing::{type_value, Typed};
use crate::engine::hooks::ConflictAbout;
use crate::ruleset::*;
use crate::tiles::TileType;
use std::collections::{BTreeMap, HashMap, HashSet};

/// Most tiles in a resolved deck, the start tile included (E0509). Real editions have fewer
/// than 200; the engine's board and tile indices are sized from the deck. Every tile type in
/// the deck has at least one copy, so this also bounds the number of tile types.
pub const MAX_DECK_TILES: u64 = 1000;

impl Loader {
    /// Build the typed ruleset from the top-level scope: tile sets, deck, start tile,
    /// options, then [`assemble`] and the content hash.
    pub(super) fn build(
        &mut self,
        scope: Scope,
        top: usize,
        file: Option<String>,
    ) -> Option<Ruleset> {
        let errors_before = self.has_errors();
        let sets = self.tile_sets(&scope);
        let counts = self.deck_counts(&scope, &sets, top);
        let start = self.start_tile(&scope, &counts, top, errors_before);
        let tiles: Vec<TileType> = counts
            .iter()
            .map(|(id, _)| scope.tiles[scope.tile_index[id]].0.clone())
            .collect();
        let (values, options) = self.option_values(&scope, &tiles)?;
        if self.has_errors() {
            return None;
        }
        let start = start?;
        // in range after E0507 and E0509; checked anyway rather than wrapped
        let deck = counts
            .iter()
            .enumerate()
            .map(|(k, (_, n))| {
                Some(DeckEntry {
                    tile: TileIdx::try_from(k).ok()?,
                    count: u16::try_from(*n).ok()?,
                })
            })
            .collect::<Option<Vec<_>>>()?;
        let start = TileIdx::try_from(start).ok()?;
        let mut rs = assemble(&values, tiles, deck, start)?;
        let conflicts = crate::engine::expansions::conflicts(&rs);
        if !conflicts.is_empty() {
            let start = scope.start.as_ref().map(|(t, fid)| (t.span, *fid));
            let deck = scope.deck.last().map(|(item, fid)| (item.set.span, *fid));
            for c in conflicts {
                let at = match c.about {
                    ConflictAbout::Start => start,
                    ConflictAbout::Deck => deck,
                };
                let at = at.map_or(
                    Origin {
                        file: top,
                        span: Sp::new(0, 0),
                    },
                    |(span, file)| Origin { file, span },
                );
                self.err_at(at, &codes::EXPANSIONS_CONFLICT, c.text);
            }
            return None;
        }
        self.warn_if_the_deal_empties_the_pack(&scope, &rs);
        rs.name = scope.name.clone().unwrap_or_default();
        rs.file = file;
        rs.options = options;
        rs.hash = print::fnv1a_hex(&print::canonical(&rs));
        Some(rs)
    }

    /// The tile sets, each as its (tile id, count) entries: tiles exist, counts positive, no
    /// tile twice.
    fn tile_sets(&mut self, scope: &Scope) -> HashMap<String, Vec<(String, u64)>> {
        let mut sets: HashMap<String, Vec<(String, u64)>> = HashMap::new();
        for (def, fid) in &scope.tilesets {
            let mut entries: Vec<(String, u64)> = Vec::new();
            let mut seen: HashSet<&str> = HashSet::new();
            for e in &def.entries {
                let o = Origin {
                    file: *fid,
                    span: e.id.span,
                };
                if scope.broken.contains(&e.id.text) {
                    continue;
                }
                if !scope.tile_index.contains_key(&e.id.text) {
                    let help = self.tile_suggestions(scope, &e.id.text);
                    self.err_at(
                        o,
                        &codes::UNKNOWN_TILE,
                        format!(
                            "unknown tile `{}` in tile set `{}`",
                            e.id.text, def.name.text
                        ),
                    )
                    .help = help;
                    continue;
                }
                if e.count.0 <= 0 {
                    self.err_at(
                        Origin {
                            file: *fid,
                            span: e.count.1,
                        },
                        &codes::COUNT_NOT_POSITIVE,
                        format!("count must be positive, found {}", e.count.0),
                    );
                    continue;
                }
                if !seen.insert(&e.id.text) {
                    self.err_at(
                        o,
                        &codes::TILE_TWICE_IN_SET,
                        format!(
                            "tile `{}` listed twice in tile set `{}`",
                            e.id.text, def.name.text
                        ),
                    );
                    continue;
                }
                entries.push((e.id.text.clone(), e.count.0 as u64));
            }
            sets.insert(def.name.text.clone(), entries);
        }
        sets
    }

    /// The deck as (tile id, copies) in first-seen order, from the deck items (tile set ×
    /// multiplier, or only some of its tiles): sets exist, multipliers positive, at most
    /// [`MAX_DECK_TILES`] tiles and `u16::MAX` copies of a tile; an empty deck is an error.
    fn deck_counts(
        &mut self,
        scope: &Scope,
        sets: &HashMap<String, Vec<(String, u64)>>,
        top: usize,
    ) -> Vec<(String, u64)> {
        let mut counts: Vec<(String, u64)> = Vec::new();
        let mut count_of: HashMap<String, usize> = HashMap::new();
        let mut total: u64 = 0;
        // the deck item that took the total over MAX_DECK_TILES (later items are still
        // checked, but no longer counted)
        let mut too_big: Option<(Origin, u64)> = None;
        for (item, fid) in &scope.deck {
            let o = Origin {
                file: *fid,
                span: item.set.span,
            };
            let Some(entries) = sets.get(&item.set.text) else {
                if self.full() {
                    self.dropped += 1;
                    continue;
                }
                let names = closest_first(
                    &item.set.text,
                    scope.tilesets.iter().map(|(s, _)| s.name.text.as_str()),
                );
                let help = if names.is_empty() {
                    "no tile sets are defined; include a .tiles file".to_string()
                } else {
                    format!("tile sets: {}", names.join(", "))
                };
                self.err_at(
                    o,
                    &codes::UNKNOWN_TILE_SET,
                    format!("unknown tile set `{}`", item.set.text),
                )
                .help = Some(help);
                continue;
            };
            if item.mult.0 <= 0 {
                self.err_at(
                    Origin {
                        file: *fid,
                        span: item.mult.1,
                    },
                    &codes::COUNT_NOT_POSITIVE,
                    format!("multiplier must be positive, found {}", item.mult.0),
                );
                continue;
            }
            let chosen: Vec<&(String, u64)> = match &item.only {
                None => entries.iter().collect(),
                Some(only) => {
                    // the named tiles, in the set's order
                    let pos: HashMap<&str, usize> = entries
                        .iter()
                        .enumerate()
                        .map(|(k, (id, _))| (id.as_str(), k))
                        .collect();
                    let mut picked: Vec<usize> = Vec::new();
                    for t in only {
                        match pos.get(t.text.as_str()) {
                            Some(&k) => picked.push(k),
                            None => {
                                let help = if self.full() {
                                    String::new()
                                } else {
                                    format!(
                                        "tiles of `{}`: {}",
                                        item.set.text,
                                        closest_first(
                                            &t.text,
                                            entries.iter().map(|(i, _)| i.as_str())
                                        )
                                        .join(", ")
                                    )
                                };
                                self.err_at(
                                    Origin {
                                        file: *fid,
                                        span: t.span,
                                    },
                                    &codes::UNKNOWN_TILE,
                                    format!(
                                        "tile `{}` is not in tile set `{}`",
                                        t.text, item.set.text
                                    ),
                                )
                                .help = Some(help);
                            }
                        }
                    }
                    picked.sort_unstable();
                    picked.dedup();
                    picked.into_iter().map(|k| &entries[k]).collect()
                }
            };
            if too_big.is_some() {
                continue;
            }
            for (id, n) in chosen {
                let add = n.saturating_mul(item.mult.0 as u64);
                total = total.saturating_add(add);
                match count_of.get(id) {
                    Some(&k) => counts[k].1 = counts[k].1.saturating_add(add),
                    None => {
                        count_of.insert(id.clone(), counts.len());
                        counts.push((id.clone(), add));
                    }
                }
            }
            if total > MAX_DECK_TILES {
                let o = Origin {
                    file: *fid,
                    span: item.span,
                };
                too_big = Some((o, total));
            }
        }
        let mut too_many_copies = false;
        for (id, n) in &counts {
            if *n > u64::from(u16::MAX) {
                too_many_copies = true;
                let o = scope.tiles[scope.tile_index[id]].1;
                self.err_at(
                    o,
                    &codes::TOO_MANY_COPIES,
                    format!(
                        "{n} copies of tile `{id}` is too many (at most {})",
                        u16::MAX
                    ),
                );
            }
        }
        if let Some((o, total)) = too_big.filter(|_| !too_many_copies) {
            self.err_at(
                o,
                &codes::DECK_TOO_LARGE,
                format!("the deck has more than {MAX_DECK_TILES} tiles: {total} with this item"),
            )
            .help = Some(format!(
                "a deck may hold at most {MAX_DECK_TILES} tiles, the start tile included \
                 (real editions have fewer than 200); lower this multiplier or the counts"
            ));
        }
        let top_o = Origin {
            file: top,
            span: Sp::new(0, 0),
        };
        if counts.is_empty() && !self.has_errors() {
            self.err_at(top_o, &codes::EMPTY_DECK, "the deck is empty").help =
                Some("add e.g. `include \"tiles/base.tiles\"` and `deck { base x1 }`, or extend a bundled ruleset".into());
        }
        counts
    }

    /// The start tile's index in the deck counts: it exists and is in the deck.
    fn start_tile(
        &mut self,
        scope: &Scope,
        counts: &[(String, u64)],
        top: usize,
        errors_before: bool,
    ) -> Option<usize> {
        let top_o = Origin {
            file: top,
            span: Sp::new(0, 0),
        };
        match &scope.start {
            None => {
                if !errors_before {
                    self.err_at(top_o, &codes::EMPTY_DECK, "no start tile").help =
                        Some("add e.g. `start BA/RCr`".into());
                }
                None
            }
            Some((t, fid)) => {
                let o = Origin {
                    file: *fid,
                    span: t.span,
                };
                if !scope.tile_index.contains_key(&t.text) {
                    let help = self.tile_suggestions(scope, &t.text);
                    self.err_at(
                        o,
                        &codes::UNKNOWN_TILE,
                        format!("unknown start tile `{}`", t.text),
                    )
                    .help = help;
                    None
                } else if let Some(k) = counts.iter().position(|(id, _)| *id == t.text) {
                    Some(k)
                } else if self.has_errors() {
                    None // the deck is incomplete: do not guess
                } else {
                    self.err_at(
                        o,
                        &codes::START_NOT_IN_DECK,
                        format!("start tile `{}` is not in the deck", t.text),
                    )
                    .help = Some(
                        "the start tile is one copy of a deck tile; add its tile set to the deck"
                            .into(),
                    );
                    None
                }
            }
        }
    }

    /// Every option typed, by key, and the ruleset's option list (value, source, file): the
    /// options set, and the registry default of each option of a part of the game in play.
    /// Warns about options set for a part not in play. `None` when a default does not type
    /// (a registry bug).
    #[allow(clippy::type_complexity)]
    fn option_values(
        &mut self,
        scope: &Scope,
        tiles: &[TileType],
    ) -> Option<(
        HashMap<&'static str, Typed>,
        BTreeMap<String, OptionSetting>,
    )> {
        let in_play = |a: Area| match a {
            Area::General | Area::Scoring => true,
            // an expansion its tiles bring in is in play when the deck holds one of them;
            // another with its own options when any of them is set
            Area::Expansion(_) => match registry::played_with_tiles(a) {
                Some((_, marks)) => tiles.iter().any(|t| t.marks & marks != 0),
                None => scope
                    .options
                    .keys()
                    .any(|k| registry::lookup(k).is_some_and(|d| d.area == a)),
            },
        };
        let mut values: HashMap<&'static str, Typed> = HashMap::new();
        let mut options = BTreeMap::new();
        for def in registry::all_options() {
            let set = scope.options.get(def.key);
            if !in_play(def.area) {
                if let Some(v) = set {
                    let what = registry::played_with_tiles(def.area).map_or("", |(w, _)| w);
                    let mut d = self.files[v.origin.file].diag(
                        Severity::Warning,
                        &codes::EXPANSION_NOT_IN_DECK,
                        v.origin.span.start,
                        v.origin.span.end,
                        format!(
                            "`{}` is set, but the deck has no {what} tiles, so it has no effect",
                            def.key
                        ),
                    );
                    d.help = Some(format!(
                        "add the {} tiles to the deck, or remove this option",
                        registry::area_title(def.area)
                    ));
                    self.push(d);
                    options.insert(def.key.to_string(), self.setting(v));
                }
                continue;
            }
            if let (Some(v), Some(needed)) = (set, def.requires) {
                if !in_play(needed) {
                    let mut d = self.files[v.origin.file].diag(
                        Severity::Warning,
                        &codes::AREA_NOT_IN_PLAY,
                        v.origin.span.start,
                        v.origin.span.end,
                        format!(
                            "`{}` only acts with {}, which this ruleset does not play, so it \
                             has no effect",
                            def.key,
                            registry::area_title(needed)
                        ),
                    );
                    d.help = Some(format!(
                        "add the {} to the ruleset, or remove this option",
                        registry::area_title(needed)
                    ));
                    self.push(d);
                }
            }
            let typed = match set {
                Some(v) => {
                    options.insert(def.key.to_string(), self.setting(v));
                    v.typed.clone()
                }
                None if registry::QUIET_AT_DEFAULT.contains(&def.key) => default_of(def)?,
                None => {
                    let t = default_of(def)?;
                    options.insert(
                        def.key.to_string(),
                        OptionSetting {
                            value: t.text(),
                            source: None,
                            file: None,
                        },
                    );
                    t
                }
            };
            values.insert(def.key, typed);
        }
        Some((values, options))
    }

    /// W0102: a hand deal that takes every tile of the pack before the first turn.
    fn warn_if_the_deal_empties_the_pack(&mut self, scope: &Scope, rs: &Ruleset) {
        let pack = rs.total_tiles().saturating_sub(1);
        let dealt = rs.max_players as usize * (rs.hand as usize).saturating_sub(1);
        if let (Some(v), true) = (scope.options.get("hand"), rs.hand > 1 && dealt >= pack) {
            let mut d = self.files[v.origin.file].diag(
                Severity::Warning,
                &codes::HAND_EMPTIES_PACK,
                v.origin.span.start,
                v.origin.span.end,
                format!(
                    "a hand of {} for {} players deals {dealt} tiles, but the pack holds only {pack}",
                    rs.hand, rs.max_players
                ),
            );
            d.help = Some(
                "the players would draw nothing and only play their dealt hands down; use a \
                 smaller hand or a larger deck"
                    .into(),
            );
            self.push(d);
        }
    }

    pub(super) fn setting(&self, v: &OptVal) -> OptionSetting {
        OptionSetting {
            value: v.typed.text(),
            source: v.source.clone(),
            file: Some(self.files[v.origin.file].name.clone()),
        }
    }

    pub(super) fn tile_suggestions(&self, scope: &Scope, id: &str) -> Option<String> {
        if self.full() {
            return None; // the diagnostic is dropped: skip the search
        }
        let near: Vec<String> = closest_first(id, scope.tiles.iter().map(|(t, _)| t.id.as_str()))
            .into_iter()
            .take(5)
            .collect();
        if near.is_empty() {
            Some("no tiles are defined; include a .tiles file".into())
        } else {
            Some(format!("closest tile ids: {}", near.join(", ")))
        }
    }
}

/// The registry default of `def`, typed.
fn default_of(def: &OptionDef) -> Option<Typed> {
    let (v, errs) = parse_value_text(def.default);
    if !errs.is_empty() {
        return None;
    }
    type_value(def, &v?).ok()
}

/// Parse a standalone value (registry defaults).
fn parse_value_text(text: &str) -> (Option<super::ast::Value>, Vec<super::lexer::PErr>) {
    let (f, errs) = parse_file(&format!("x = {text}"));
    match f.items.into_iter().next() {
        Some(Item::Option(o)) => (Some(o.value), errs),
        _ => (None, errs),
    }
}
