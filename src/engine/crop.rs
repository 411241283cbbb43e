//! Crop Circles (rules.md §4): after a crop-circle tile's scoring and gold, the active player
//! chooses deploy or remove; then every player, from the left neighbour clockwise with the
//! active player last, acts once if it has a follower of the circle's type on the board:
//! deploy one more follower beside one of them (may/must; same segment or any tile of that
//! feature, by option) or return one of them.

use crate::engine::decision::{Chooser, DecisionKind};
use crate::engine::event::{Event, EventSink};
use crate::engine::game::{Game, NIL};
use crate::ruleset::{CropDeploy, CropTarget, FarmRule};
use crate::tiles::CropKind;

impl Game {
    /// Nodes where `player` has a follower on a feature of `kind` (distinct, board order).
    fn own_nodes(&self, player: u8, kind: CropKind, out: &mut Vec<u32>) {
        out.clear();
        for f in &self.followers {
            if f.player == player
                && self.seg_kind(f.node) == kind.feature()
                && !out.contains(&f.node)
            {
                out.push(f.node);
            }
        }
    }

    pub(crate) fn crop_action<C: Chooser, S: EventSink>(
        &mut self,
        c: &mut C,
        s: &mut S,
        kind: CropKind,
    ) {
        let compiled = self.rules.clone();
        let Some(rules) = compiled.rules.crop.as_ref() else {
            return;
        };
        if kind == CropKind::Field && self.rules.rules.scoring.farm == FarmRule::Off {
            return;
        }
        if self.followers.is_empty() {
            // nobody could act: JCloisterZone skips the step, and no score can change
            return;
        }
        self.crop_actions += 1;
        let active = self.active;
        let mode = self.decide(c, DecisionKind::CropMode, active, 2);
        let deploy = mode == 0;
        self.emit(
            s,
            Event::CropChoice {
                turn: self.turn,
                player: active,
                circle: kind.feature(),
                deploy,
            },
        );
        let n = self.players;
        let mut own = Vec::new();
        for k in 1..=n {
            let p = (active + k) % n;
            self.own_nodes(p, kind, &mut own);
            if own.is_empty() {
                continue;
            }
            if deploy {
                if self.supply[p as usize] == 0 {
                    continue;
                }
                self.opt_node.clear();
                if rules.deploy == CropDeploy::May {
                    self.opt_node.push(NIL);
                }
                match rules.target {
                    CropTarget::SameSegment => self.opt_node.extend_from_slice(&own),
                    CropTarget::AnyTileOfFeature => {
                        for &node in &own {
                            let r = self.root(node);
                            let mut m = self.comps[r as usize].head;
                            while m != NIL {
                                if !self.opt_node.contains(&m) {
                                    self.opt_node.push(m);
                                }
                                m = self.nodes[m as usize].next;
                            }
                        }
                    }
                }
                let count = self.opt_node.len();
                let i = self.decide(c, DecisionKind::CropDeploy, p, count);
                let node = self.opt_node[i];
                if node == NIL {
                    self.emit(
                        s,
                        Event::CropPassed {
                            turn: self.turn,
                            player: p,
                        },
                    );
                    continue;
                }
                self.deploy(s, p, node);
                let (x, y, segment) = self.node_spot(node);
                self.emit(
                    s,
                    Event::CropDeployed {
                        turn: self.turn,
                        player: p,
                        x,
                        y,
                        segment,
                    },
                );
            } else {
                self.opt_node.clear();
                self.opt_node.extend_from_slice(&own);
                let count = self.opt_node.len();
                let i = self.decide(c, DecisionKind::CropRemove, p, count);
                let node = self.opt_node[i];
                if let Some(fi) = self
                    .followers
                    .iter()
                    .position(|f| f.player == p && f.node == node)
                {
                    self.return_follower(s, fi);
                }
                let (x, y, segment) = self.node_spot(node);
                self.emit(
                    s,
                    Event::CropRemoved {
                        turn: self.turn,
                        player: p,
                        x,
                        y,
                        segment,
                    },
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::{compile, Event, Game};
    use crate::policy::{Policy, PolicyKind};
    use crate::tiles::{CropKind, FeatureKind};
    use std::path::Path;

    fn game() -> Game {
        let loaded = crate::dsl::load_ruleset(Path::new("rulesets/cropcircles.rules"))
            .unwrap_or_else(|d| panic!("{d}"));
        let mut g = Game::new(compile(&loaded.ruleset), 1, 2);
        g.setup(&mut Vec::new());
        g
    }

    fn choices(events: &[Event]) -> usize {
        events
            .iter()
            .filter(|e| matches!(e, Event::CropChoice { .. }))
            .count()
    }

    /// With no follower on the board nobody can act: the step is skipped (as JCloisterZone
    /// does); with one, the active player chooses.
    #[test]
    fn the_step_is_skipped_only_when_no_follower_is_on_the_board() {
        let mut policy = Policy::new(PolicyKind::Random);
        let mut g = game();
        let mut events = Vec::new();
        g.crop_action(&mut policy, &mut events, CropKind::Road);
        assert_eq!((choices(&events), g.crop_actions), (0, 0));

        let mut g = game();
        let start = g.placed_tiles()[0];
        let road = (0..4u32)
            .find(|&i| g.seg_kind(start.node0 + i) == FeatureKind::Road)
            .expect("the start tile has a road");
        let mut events = Vec::new();
        g.deploy(&mut events, 1, start.node0 + road);
        // a city circle: seat 1 has no knight, but the active player must still choose
        g.crop_action(&mut policy, &mut events, CropKind::City);
        assert_eq!((choices(&events), g.crop_actions), (1, 1));
    }
}
