//! JCloisterZone's tile pack, reproduced: which tile its engine draws next, so a save's
//! placed tiles can be checked against its draws, the tiles it discarded (they fit nowhere;
//! the same player draws again) found, and the end of the game (pack exhausted) decided
//! exactly rather than guessed.
//!
//! What JCloisterZone 5.x does (`TilePackBuilder`, `TilePack`, `ForcedDrawTilePack`,
//! `RandomGenerator`, `TilePhase`):
//! - the pack is one group of tiles: every tile of the sets in play, each copy, sorted by
//!   tile id (Java string order); the start tile is taken out by id;
//! - a draw takes index `(int)(r * size)` and removes it; `r` is the generator's value, which
//!   then moves on by a 48-bit linear congruential step (`x = bits(r) & (2^48-1)`,
//!   `x = (25214903917 x + 11) & (2^48-1)`, `r = x / 2^48`);
//! - the generator starts at the save's `initialRandom`; each `COMMIT` (and `DEPLOY_MEEPLE`)
//!   carrying a `random` resets it before the message is applied;
//! - the first tile is drawn at set-up, the next one as soon as the previous turn ends; a tile
//!   with no legal placement is discarded and the next drawn at once;
//! - `gameAnnotations.drawOrder` forces the first draws by id (the generator is not used for
//!   them); a final `#END` makes the pack as large as the forced draws still to come;
//!   `endTurn` becomes a draw limit: the pack holds that many draws, discards included.

use crate::import::jcz::parts::PARTS;
pub use crate::import::jcz::DrawPlan;
use crate::import::jcz::PackDraws;
use std::collections::VecDeque;

/// The tiles of one JCloisterZone tile set: `(id, copies)`, as its `basic.xml`,
/// `goldmines.xml` and `corn_circles.xml` list them.
type SetList = &'static [(&'static str, u32)];

const BASIC_1: SetList = &[
    ("BA/L", 4),
    ("BA/LR", 2),
    ("BA/RCr", 4),
    ("BA/Cccc+", 1),
    ("BA/CccR+", 2),
    ("BA/CccR", 1),
    ("BA/CFc+", 2),
    ("BA/CFc.1", 1),
    ("BA/Cc.1", 3),
    ("BA/Cc+", 2),
    ("BA/CcRr", 3),
    ("BA/CcRr+", 2),
    ("BA/Ccc", 3),
    ("BA/Ccc+", 1),
    ("BA/CRr", 3),
    ("BA/CRRR", 3),
    ("BA/RrC", 3),
    ("BA/C", 5),
    ("BA/CFC.2", 3),
    ("BA/CC.2", 2),
    ("BA/RRRR", 1),
    ("BA/RRR", 4),
    ("BA/Rr", 9),
    ("BA/RFr", 8),
];

/// The C2 base: eight tiles carry a garden (their own ids).
const BASIC_2: SetList = &[
    ("BA/L", 4),
    ("BA/LR", 2),
    ("BA/RCr", 4),
    ("BA/Cccc+", 1),
    ("BA/CccR+", 2),
    ("BA/CccR", 1),
    ("BA/CFc+", 2),
    ("BA/CFc.1", 1),
    ("BA/Cc.1", 2),
    ("BA/CcG", 1),
    ("BA/Cc+", 1),
    ("BA/Cc+G", 1),
    ("BA/CcRr", 3),
    ("BA/CcRr+", 2),
    ("BA/Ccc", 2),
    ("BA/CccG", 1),
    ("BA/Ccc+", 1),
    ("BA/CRr", 3),
    ("BA/CRRR", 3),
    ("BA/RrC", 3),
    ("BA/C", 4),
    ("BA/CG", 1),
    ("BA/CFC.2", 2),
    ("BA/CFCG", 1),
    ("BA/CC.2", 1),
    ("BA/CCG", 1),
    ("BA/RRRR", 1),
    ("BA/RRR", 4),
    ("BA/Rr", 8),
    ("BA/RrG", 1),
    ("BA/RFr", 7),
    ("BA/RFrG", 1),
];

/// The tiles of a JCloisterZone set name (`basic:1`, …), or `None` for a set meeplab does
/// not play.
pub fn set_tiles(name: &str) -> Option<SetList> {
    match name {
        "basic:1" | "basic" => Some(BASIC_1),
        "basic:2" => Some(BASIC_2),
        other => PARTS.iter().find_map(|p| p.set_tiles(other)),
    }
}

/// JCloisterZone's `RandomGenerator`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JczRandom(pub f64);

const LCG_MASK: u64 = (1 << 48) - 1;
const LCG_A: u64 = 25_214_903_917;
const LCG_C: u64 = 11;

impl JczRandom {
    /// `getNextInt(bound)`: the index for this value, then the generator moves on.
    pub fn next_int(&mut self, bound: usize) -> usize {
        // Java's (int) cast truncates towards zero, as `as` does
        let next = (self.0 * bound as f64) as i64;
        let x = self.0.to_bits() & LCG_MASK;
        let x = LCG_A.wrapping_mul(x).wrapping_add(LCG_C) & LCG_MASK;
        self.0 = x as f64 / (LCG_MASK + 1) as f64;
        next.max(0) as usize
    }
}

/// The pack as the importer parts draw from it (an auction's tiles).
impl PackDraws for Pack {
    fn set_random(&mut self, random: f64) {
        Pack::set_random(self, random);
    }
    fn draw_next(&mut self) -> Result<Option<String>, String> {
        self.draw().map_err(|e| e.to_string())
    }
}

/// Why the next draw cannot be told.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DrawError {
    /// A random draw, but the save has no random value to draw with.
    NoRandom,
    /// A forced draw of a tile the pack no longer holds.
    NotInPack(String),
    /// The pack claims more draws than it has tiles (a draw limit over the pack's size).
    Empty,
}

impl std::fmt::Display for DrawError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DrawError::NoRandom => f.write_str(
                "the save has no random value to draw with (no `initialRandom`, no `random` on COMMIT)",
            ),
            DrawError::NotInPack(id) => write!(
                f,
                "gameAnnotations.drawOrder draws `{id}`, but the pack holds no `{id}` any more"
            ),
            DrawError::Empty => f.write_str("the draw limit is larger than the pack"),
        }
    }
}

/// One of JCloisterZone's tile groups (`TileGroup`): only active groups are drawn from; an
/// emptied group goes and activates its successor.
#[derive(Clone, Debug)]
struct Group {
    name: &'static str,
    tiles: Vec<String>,
    active: bool,
    next: Option<&'static str>,
}

/// The pack during a replay.
#[derive(Clone, Debug)]
pub struct Pack {
    /// The groups in JCloisterZone's order (by name); one `default` group without the river.
    groups: Vec<Group>,
    forced: VecDeque<String>,
    end_marker: bool,
    limit: Option<u32>,
    random: Option<JczRandom>,
    /// Draws so far (discards included).
    pub draws: u32,
}

impl Pack {
    /// The pack of `plan`. With the river (`plan.in_groups`), as JCloisterZone's
    /// `TilePackBuilder` and `RiverCapability.onStartGame` make it: the tiles go into
    /// groups by their XML `group` (`river-fork`, `river`, `river-lake`, `river-spring`, the
    /// rest `default`), groups ordered by name, each sorted by id; then `default` and
    /// `river-lake` are switched off, `river` is followed by `river-lake` and that by
    /// `default`, and with a fork `river` waits for `river-fork` to empty; leftover springs
    /// go.
    pub fn new(plan: &DrawPlan) -> Pack {
        let mut groups: Vec<Group> = Vec::new();
        for id in &plan.pack {
            let name = if plan.in_groups {
                crate::import::river::tile_group(id)
            } else {
                "default"
            };
            match groups.iter_mut().find(|g| g.name == name) {
                Some(g) => g.tiles.push(id.clone()),
                None => groups.push(Group {
                    name,
                    tiles: vec![id.clone()],
                    active: true,
                    next: None,
                }),
            }
        }
        groups.sort_by_key(|g| g.name);
        if plan.in_groups {
            let has_fork = groups.iter().any(|g| g.name == "river-fork");
            groups.retain(|g| g.name != "river-spring");
            for g in groups.iter_mut() {
                match g.name {
                    "default" | "river-lake" => g.active = false,
                    _ => {}
                }
                match g.name {
                    "river" => {
                        g.next = Some("river-lake");
                        g.active &= !has_fork;
                    }
                    "river-lake" => g.next = Some("default"),
                    "river-fork" => g.next = Some("river"),
                    _ => {}
                }
            }
        }
        Pack {
            groups,
            forced: plan.forced.iter().cloned().collect(),
            end_marker: plan.end_marker,
            limit: plan.limit,
            random: plan.initial_random.map(JczRandom),
            draws: 0,
        }
    }

    /// A message's `random` resets the generator.
    pub fn set_random(&mut self, r: f64) {
        self.random = Some(JczRandom(r));
    }

    /// Tiles left to draw (JCloisterZone's `size()`).
    pub fn size(&self) -> usize {
        if let Some(l) = self.limit {
            l as usize
        } else if self.end_marker {
            self.forced.len()
        } else {
            self.active_len()
        }
    }

    /// Tiles in the active groups.
    fn active_len(&self) -> usize {
        self.groups
            .iter()
            .filter(|g| g.active)
            .map(|g| g.tiles.len())
            .sum()
    }

    /// Tiles physically left (JCloisterZone ids), every group.
    pub fn tiles(&self) -> Vec<String> {
        self.groups.iter().flat_map(|g| g.tiles.clone()).collect()
    }

    /// Take tile `i` of group `g`; an emptied group goes and activates its successor
    /// (`TilePack.updateGroup`).
    fn take(&mut self, g: usize, i: usize) -> String {
        let id = self.groups[g].tiles.remove(i);
        if self.groups[g].tiles.is_empty() {
            let gone = self.groups.remove(g);
            if let Some(next) = gone.next {
                if let Some(n) = self.groups.iter_mut().find(|x| x.name == next) {
                    n.active = true;
                }
            }
        }
        id
    }

    /// A tile was placed: JCloisterZone's `RiverCapability.onTilePlaced` switches the
    /// `river` group on when the fork `RI.2/III` is placed.
    pub fn placed(&mut self, id: &str) {
        if id == "RI.2/III" {
            if let Some(g) = self.groups.iter_mut().find(|g| g.name == "river") {
                g.active = true;
            }
        }
    }

    /// The next tile, `None` when the pack is empty (the game ends).
    pub fn draw(&mut self) -> Result<Option<String>, DrawError> {
        if self.size() == 0 {
            return Ok(None);
        }
        let id = if let Some(id) = self.forced.front().cloned() {
            let (g, i) = self
                .groups
                .iter()
                .enumerate()
                .filter(|(_, g)| g.active)
                .find_map(|(gi, g)| g.tiles.iter().position(|t| *t == id).map(|i| (gi, i)))
                .ok_or_else(|| DrawError::NotInPack(id.clone()))?;
            self.forced.pop_front();
            self.take(g, i)
        } else {
            let n = self.active_len();
            if n == 0 {
                return Err(DrawError::Empty);
            }
            let r = self.random.as_mut().ok_or(DrawError::NoRandom)?;
            let mut i = r.next_int(n);
            if i >= n {
                return Err(DrawError::Empty);
            }
            let mut g = 0;
            loop {
                let grp = &self.groups[g];
                if grp.active {
                    if i < grp.tiles.len() {
                        break;
                    }
                    i -= grp.tiles.len();
                }
                g += 1;
            }
            self.take(g, i)
        };
        if let Some(l) = self.limit.as_mut() {
            *l = l.saturating_sub(1);
        }
        self.draws += 1;
        Ok(Some(id))
    }
}

/// The sorted pack of the given sets (`(set name, copies)`), the start tile taken out.
/// `None` names a set meeplab does not know.
pub fn build_pack(sets: &[(String, u32)], start: &str) -> Result<Vec<String>, String> {
    let mut counts: Vec<(&'static str, u32)> = Vec::new();
    for (name, copies) in sets {
        let list = set_tiles(name).ok_or_else(|| format!("tile set `{name}` is not known"))?;
        for &(id, n) in list {
            match counts.iter_mut().find(|(t, _)| *t == id) {
                Some((_, c)) => *c += n * copies,
                None => counts.push((id, n * copies)),
            }
        }
    }
    let mut pack: Vec<String> = Vec::new();
    for (id, n) in counts {
        for _ in 0..n {
            pack.push(id.to_string());
        }
    }
    // Java's String.compareTo on these ASCII ids is byte order
    pack.sort();
    let i = pack
        .iter()
        .position(|t| t == start)
        .ok_or_else(|| format!("the start tile `{start}` is not in the tile sets"))?;
    pack.remove(i);
    Ok(pack)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_generator_matches_jcloisterzone() {
        // getNextInt: (int)(r * bound), then the LCG step on the double's bits
        let mut r = JczRandom(0.5);
        assert_eq!(r.next_int(10), 5);
        let x = (0.5f64.to_bits() & LCG_MASK)
            .wrapping_mul(LCG_A)
            .wrapping_add(LCG_C)
            & LCG_MASK;
        assert_eq!(r.0, x as f64 / 281_474_976_710_656.0);
        // 0.5's low 48 bits are 0, so the next value is 11 / 2^48
        assert_eq!(r.0, 11.0 / 281_474_976_710_656.0);
        assert_eq!(r.next_int(71), 0);
    }

    #[test]
    fn the_base_pack_is_sorted_by_id_without_the_start_tile() {
        let p = build_pack(&[("basic:1".into(), 1)], "BA/RCr").unwrap();
        assert_eq!(p.len(), 71);
        assert_eq!(p[0], "BA/C");
        assert_eq!(&p[5..7], ["BA/CC.2", "BA/CC.2"]);
        assert_eq!(p.iter().filter(|t| *t == "BA/RCr").count(), 3);
        assert!(p.windows(2).all(|w| w[0] <= w[1]));
        let p2 = build_pack(&[("basic:2".into(), 1), ("goldmines".into(), 1)], "BA/RCr").unwrap();
        assert_eq!(p2.len(), 79);
        assert!(p2.contains(&"BA/RrG".to_string()));
        assert!(build_pack(&[("inns".into(), 1)], "BA/RCr").is_err());
    }

    #[test]
    fn forced_draws_then_end() {
        let plan = DrawPlan {
            pack: build_pack(&[("basic:1".into(), 1)], "BA/RCr").unwrap(),
            in_groups: false,
            forced: vec!["BA/L".into(), "BA/RRR".into()],
            end_marker: true,
            limit: None,
            initial_random: None,
        };
        let mut p = Pack::new(&plan);
        assert_eq!(p.size(), 2);
        assert_eq!(p.draw(), Ok(Some("BA/L".into())));
        assert_eq!(p.draw(), Ok(Some("BA/RRR".into())));
        assert_eq!(p.draw(), Ok(None));
        assert_eq!(p.tiles().len(), 69);
    }

    #[test]
    fn the_river_is_drawn_group_by_group() {
        // River II: the fork first, then the river tiles, the volcano lake, the land tiles
        let sets = [("basic:1".to_string(), 1), ("river/2:1".to_string(), 1)];
        let plan = DrawPlan {
            pack: build_pack(&sets, "RI/s").unwrap(),
            in_groups: true,
            forced: vec![],
            end_marker: false,
            limit: None,
            initial_random: None,
        };
        let mut p = Pack::new(&plan);
        assert_eq!(p.size(), 1);
        p.set_random(0.99);
        assert_eq!(p.draw(), Ok(Some("RI.2/III".into())));
        p.placed("RI.2/III");
        let mut river = Vec::new();
        for _ in 0..9 {
            p.set_random(0.0);
            river.push(p.draw().unwrap().unwrap());
        }
        // index 0 of the sorted river group each time
        assert_eq!(river[0], "RI.2/CIRI");
        assert!(river
            .iter()
            .all(|t| t.starts_with("RI.2/") && t != "RI.2/I.v"));
        assert_eq!(p.size(), 1);
        assert_eq!(p.draw(), Ok(Some("RI.2/I.v".into())));
        assert_eq!(p.size(), 72);
        assert_eq!(p.draw(), Ok(Some("BA/C".into())));
    }

    #[test]
    fn random_draws_and_limits() {
        let plan = DrawPlan {
            pack: build_pack(&[("basic:1".into(), 1)], "BA/RCr").unwrap(),
            in_groups: false,
            forced: vec![],
            end_marker: false,
            limit: Some(2),
            initial_random: None,
        };
        let mut p = Pack::new(&plan);
        assert_eq!(p.draw(), Err(DrawError::NoRandom));
        p.set_random(0.0);
        assert_eq!(p.draw(), Ok(Some("BA/C".into())));
        p.set_random(0.99999);
        assert_eq!(p.draw(), Ok(Some("BA/RrC".into())));
        assert_eq!(p.draw(), Ok(None));
        let mut p = Pack::new(&DrawPlan {
            forced: vec!["BA/Nope".into()],
            ..plan
        });
        assert_eq!(p.draw(), Err(DrawError::NotInPack("BA/Nope".into())));
    }
}
