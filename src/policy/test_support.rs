//! Test helpers shared by the policies' unit tests: the bundled rulesets, and a game played
//! with every choice checked against the decision's options.

use super::{Policy, PolicyKind};
use crate::engine::{compile, Chooser, Compiled, Decision, Game, NoEvents};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The ruleset at `path`, compiled (a test failure with its diagnostics if it does not load).
pub(crate) fn rules(path: impl AsRef<Path>) -> Arc<Compiled> {
    let loaded = crate::dsl::load_ruleset(path.as_ref()).unwrap_or_else(|d| panic!("{d}"));
    compile(&loaded.ruleset)
}

/// Every bundled ruleset file, sorted.
pub(crate) fn bundled() -> Vec<PathBuf> {
    let mut paths: Vec<_> = std::fs::read_dir("rulesets")
        .expect("rulesets/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "rules"))
        .collect();
    paths.sort();
    assert!(paths.len() >= 10);
    paths
}

/// Checks every choice against the decision's option count.
struct Checked(Policy, usize);

impl Chooser for Checked {
    fn choose(&mut self, game: &Game, d: &Decision) -> usize {
        let i = self.0.choose(game, d);
        assert!(i < d.options.max(1), "{:?}: {i} of {}", d.kind, d.options);
        assert_eq!(d.options, game.option_count(d.kind));
        self.1 += 1;
        i
    }
}

/// Plays one game of the ruleset at `path` with `kind` in every seat, checking that every
/// choice is one of the options and that the game ends with its outcome.
pub(crate) fn plays_legally(kind: PolicyKind, path: &Path, seed: u64, players: u8) {
    let mut g = Game::new(rules(path), seed, players);
    let mut c = Checked(Policy::new(kind), 0);
    let out = g.play(&mut c, &mut NoEvents);
    assert!(g.is_finished(), "{}", path.display());
    assert!(c.1 > 50, "{}: {} decisions", path.display(), c.1);
    assert_eq!(out, g.outcome());
}
