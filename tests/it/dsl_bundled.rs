//! Every bundled ruleset and house rule parses, resolves and has the expected tiles.

use meeplab::dsl::{load_ruleset, Loaded};
use meeplab::engine::expansions::crop::{CropDeploy, CropKind, CropRules, CropTarget};
use meeplab::engine::expansions::gold::{
    canonical_value, GoldAtEnd, GoldLeftover, GoldNeighbourhood, GoldPick, GoldRules, GoldSplit,
    UnclaimedGold, GOLD_MARK, INGOTS_HELD,
};
use meeplab::engine::expansions::robbers::{
    RobberPlacers, RobberRules, RobberTiming, RobberVictim, POINTS_ROBBED, ROBBER_MARK,
};
use meeplab::ruleset::*;
use meeplab::tiles::FeatureKind;
use std::path::Path;

fn load(p: &str) -> Loaded {
    match load_ruleset(Path::new(p)) {
        Ok(l) => {
            assert!(l.warnings.is_empty(), "{p}: {:?}", l.warnings);
            l
        }
        Err(d) => panic!("{p}:\n{d}"),
    }
}

fn count_where(rs: &Ruleset, f: impl Fn(&meeplab::tiles::TileType) -> bool) -> usize {
    rs.deck
        .iter()
        .filter(|d| f(&rs.tiles[d.tile as usize]))
        .map(|d| d.count as usize)
        .sum()
}

#[test]
fn base_game() {
    let rs = load("rulesets/base.rules").ruleset;
    assert_eq!(rs.total_tiles(), 72);
    assert_eq!(rs.tiles.len(), 24);
    let pennants: usize = rs
        .deck
        .iter()
        .map(|d| d.count as usize * rs.tiles[d.tile as usize].pennants() as usize)
        .sum();
    assert_eq!(pennants, 10);
    assert_eq!(count_where(&rs, |t| t.has_cloister()), 6);
    assert_eq!(rs.tiles[rs.start as usize].id, "BA/RCr");
    assert_eq!(rs.deck[rs.start as usize].count, 4);
    assert_eq!((rs.min_players, rs.max_players, rs.followers), (2, 6, 7));
    assert_eq!(rs.scoring.farm, FarmRule::PerField);
    assert_eq!(rs.scoring.farm_city, Expr::num(3));
    assert_eq!(rs.scoring.city_small_complete, None);
    assert_eq!(
        rs.scoring.city_complete,
        Expr::sum(Expr::times(2, Var::Tiles), Expr::times(2, Var::Pennants))
    );
    assert_eq!(
        rs.scoring.cloister_complete,
        Expr::sum(Expr::num(1), Expr::var(Var::Neighbours))
    );
    assert_eq!(rs.unplaceable, Unplaceable::Discard);
    assert!(
        GoldRules::of(&rs).is_none()
            && RobberRules::of(&rs).is_none()
            && CropRules::of(&rs).is_none()
    );
    // the start tile's field touching the city points at the city segment
    let d = &rs.tiles[rs.start as usize];
    let f = d
        .features
        .iter()
        .find(|f| f.kind == FeatureKind::Field && !f.cities.is_empty());
    assert_eq!(
        d.features[f.unwrap().cities[0] as usize].kind,
        FeatureKind::City
    );
    assert_eq!(rs.hash.len(), 16);
}

#[test]
fn first_edition() {
    let rs = load("rulesets/base-2000.rules").ruleset;
    assert_eq!(rs.total_tiles(), 72);
    assert_eq!(rs.scoring.farm, FarmRule::CityCentric);
    assert_eq!(rs.scoring.farm_city, Expr::num(4));
    assert_eq!(
        rs.scoring.city_small_complete,
        Some(Expr::sum(Expr::var(Var::Tiles), Expr::var(Var::Pennants)))
    );
}

#[test]
fn gold_mines() {
    let rs = load("rulesets/goldmines-hig-2012.rules").ruleset;
    assert_eq!(rs.total_tiles(), 81);
    assert_eq!(count_where(&rs, |t| t.marks & GOLD_MARK != 0), 8);
    assert_eq!(
        count_where(&rs, |t| CropKind::of_marks(t.marks).is_some()),
        1
    );
    assert!(rs.tile_index("CC.2/CFR").is_some());
    let g = GoldRules::of(&rs).unwrap();
    assert_eq!(
        g.split,
        GoldSplit::Draft {
            pick: GoldPick::Player
        }
    );
    assert_eq!(g.value, canonical_value());
    assert_eq!(g.ingots_per_tile, 2);
    assert_eq!(g.neighbourhood, GoldNeighbourhood::Eight);
    assert_eq!(g.unclaimed, UnclaimedGold::Stays);
    assert_eq!(g.at_end, GoldAtEnd::Discard);
    assert_eq!(
        CropRules::of(&rs),
        Some(CropRules {
            deploy: CropDeploy::May,
            target: CropTarget::SameSegment
        })
    );
    let rgg = load("rulesets/goldmines-rgg.rules").ruleset;
    assert_eq!(
        GoldRules::of(&rgg).unwrap().split,
        GoldSplit::OnePerFeature {
            leftover: GoldLeftover::Stay
        }
    );
    let auto = load("rulesets/goldmines-autopick.rules").ruleset;
    assert_eq!(
        GoldRules::of(&auto).unwrap().split,
        GoldSplit::Draft {
            pick: GoldPick::MostContested
        }
    );
    let bb6 = load("rulesets/goldmines-bb6-2017.rules").ruleset;
    assert_eq!(bb6.total_tiles(), 80);
    assert!(CropRules::of(&bb6).is_none());
}

#[test]
fn robbers() {
    let rs = load("rulesets/robbers-2012.rules").ruleset;
    assert_eq!(rs.total_tiles(), 80);
    assert_eq!(count_where(&rs, |t| t.marks & ROBBER_MARK != 0), 8);
    let r = RobberRules::of(&rs).unwrap();
    assert_eq!(r.placers, RobberPlacers::NextWithRobber);
    assert_eq!(r.timing, RobberTiming::AfterTile);
    assert!(r.active_may_move && r.in_final_scoring);
    assert_eq!(r.victim, RobberVictim::OwnerChooses);
    assert_eq!(
        r.share,
        Expr::DivUp(Box::new(Expr::var(POINTS_ROBBED)), Box::new(Expr::num(2)))
    );
    assert_eq!(r.track, 50);
    let z = RobberRules::of(&load("rulesets/robbers-zmg.rules").ruleset).unwrap();
    assert_eq!(z.placers, RobberPlacers::AllOthers);
    let n = RobberRules::of(&load("rulesets/robbers-2025.rules").ruleset).unwrap();
    assert_eq!(
        (n.placers, n.timing),
        (RobberPlacers::AllFromActive, RobberTiming::BeforeTile)
    );
}

#[test]
fn crop_circles() {
    let rs = load("rulesets/cropcircles.rules").ruleset;
    assert_eq!(rs.total_tiles(), 78);
    assert_eq!(
        count_where(&rs, |t| CropKind::of_marks(t.marks).is_some()),
        6
    );
    assert_eq!(CropRules::of(&rs).unwrap().deploy, CropDeploy::May);
    let z = CropRules::of(&load("rulesets/cropcircles-zmg.rules").ruleset).unwrap();
    assert_eq!(
        (z.deploy, z.target),
        (CropDeploy::Must, CropTarget::AnyTileOfFeature)
    );
}

#[test]
fn every_bundled_file_and_example_loads() {
    for (dir, least) in [
        ("rulesets", 3),
        ("examples/house-rules", 3),
        ("examples/variants", 2),
    ] {
        let mut n = 0;
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "rules") {
                let l = load(p.to_str().unwrap());
                assert!(l.ruleset.total_tiles() >= 72, "{}", p.display());
                n += 1;
            }
        }
        assert!(n >= least, "{dir}");
    }
}

#[test]
fn house_rules_change_what_they_say() {
    let rs = load("examples/house-rules/ingots-worth-2.rules").ruleset;
    assert_eq!(
        GoldRules::of(&rs).unwrap().value,
        Expr::times(2, INGOTS_HELD)
    );
    let rs = load("examples/house-rules/robbers-take-a-third.rules").ruleset;
    assert_eq!(
        RobberRules::of(&rs).unwrap().share,
        Expr::DivUp(Box::new(Expr::var(POINTS_ROBBED)), Box::new(Expr::num(3)))
    );
    let rs = load("examples/house-rules/cities-3-per-tile.rules").ruleset;
    assert_eq!(
        rs.scoring.city_complete,
        Expr::sum(Expr::times(3, Var::Tiles), Expr::times(2, Var::Pennants))
    );
}

#[test]
fn renamed_copy_hashes_equal_and_options_differ_only_where_set() {
    let a = load("rulesets/goldmines-hig-2012.rules").ruleset;
    let text = std::fs::read_to_string("rulesets/goldmines-hig-2012.rules")
        .unwrap()
        .replace("Hans im Glück, 1st edition", "a renamed copy")
        .replace("\"HiG 2012\"", "\"someone else\"");
    let dir = tempfile::tempdir().unwrap();
    // a copy elsewhere, pointing back at the bundled files
    let abs = std::fs::canonicalize("rulesets").unwrap();
    let text = text
        .replace("\"base.rules\"", &format!("{:?}", abs.join("base.rules")))
        .replace("\"tiles/", &format!("\"{}/tiles/", abs.display()));
    let p = dir.path().join("copy.rules");
    std::fs::write(&p, text).unwrap();
    let b = load_ruleset(&p).unwrap().ruleset;
    assert_ne!(a.name, b.name);
    assert_eq!(a.hash, b.hash);
    let base = load("rulesets/base.rules").ruleset;
    assert_ne!(a.hash, base.hash);
    let rgg = load("rulesets/goldmines-rgg.rules").ruleset;
    assert_ne!(a.hash, rgg.hash);
}

/// Every rule note the code cites is in the project (issue 43: `bcb.md` and a research
/// folder outside the repository were cited, and tile headers named a path of one machine):
/// each cited `docs/src/rules/…` note named in `src/`, `tests/`, `rulesets/` and `examples/` exists,
/// and no file there names a folder outside the checkout.
#[test]
fn cited_rule_notes_are_in_the_project() {
    fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| {
                ["rs", "rules", "tiles", "md", "sweep"].contains(&x.to_str().unwrap_or(""))
            }) {
                out.push(p);
            }
        }
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for d in ["src", "tests", "rulesets", "examples"] {
        walk(&root.join(d), &mut files);
    }
    // spelled in pieces so that this file does not match itself
    let outside = [
        ["/work", "/research/"].concat(),
        ["shared", "/rules/bcb.md"].concat(),
        ["/work", "/shared/rules/"].concat(),
    ];
    let mut cited = 0;
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        for o in &outside {
            assert!(!text.contains(o.as_str()), "{} cites {o}", f.display());
        }
        for (at, _) in text.match_indices("docs/src/rules/") {
            let name: String = text[at..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || "/._-".contains(*c))
                .collect();
            let name = name.trim_end_matches('.');
            if name.ends_with(".md") {
                cited += 1;
                assert!(root.join(name).is_file(), "{} cites {name}", f.display());
            }
        }
    }
    assert!(cited >= 8, "the citations were found: {cited}");
}
