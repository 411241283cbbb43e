//! Tests of the decision probes: capture leaves the game alone, a renamed ruleset never
//! changes a decision, HiG and RGG Gold Mines do, base and Gold Mines are skipped in words,
//! and the aggregate merges exactly.

use super::*;
use crate::compare::seeds::game_seed;
use crate::engine::{compile, Compiled};
use crate::play::{play, play_cached, Seats};
use crate::policy::{MctsStyle, PolicyKind};
use std::path::Path;
use std::sync::Arc;

fn load(name: &str) -> crate::ruleset::Ruleset {
    let path = format!("rulesets/{name}.rules");
    crate::dsl::load_ruleset(Path::new(&path))
        .unwrap_or_else(|d| panic!("{d}"))
        .ruleset
}

fn rules(name: &str) -> Arc<Compiled> {
    compile(&load(name))
}

/// HiG Gold Mines and a copy with only its name changed.
fn hig_and_renamed() -> Vec<Arc<Compiled>> {
    let hig = load("goldmines-hig-2012");
    let mut renamed = hig.clone();
    renamed.name = "renamed copy".into();
    vec![compile(&hig), compile(&renamed)]
}

/// Probes positions `0..positions` of a run (master seed 7, 2 players): the host games played
/// by `host`, the probes asked of `probe` (the run uses one policy for both; a test may host
/// with a cheaper one). Each position's probes, in position order.
fn run(
    all: &[Arc<Compiled>],
    positions: u64,
    host: PolicyKind,
    probe: PolicyKind,
) -> Vec<Vec<PairProbe>> {
    (0..positions)
        .map(|p| {
            let seed = game_seed(7, p);
            let target = ProbeTarget::new(p, seed, all).expect("rulesets");
            let (_, caught) =
                play_capturing(&all[target.host], seed, 2, host.into(), &target, None);
            probe_or_skip(&caught, &target, all, Seats::all(probe))
        })
        .collect()
}

fn total(probes: &[Vec<PairProbe>], rulesets: usize) -> DecisionAcc {
    let mut acc = DecisionAcc::new(rulesets);
    for p in probes {
        acc.add(p);
    }
    acc
}

#[test]
fn capturing_plays_the_same_game() {
    for name in ["base", "goldmines-hig-2012", "robbers-2012", "cropcircles"] {
        let all = vec![rules(name)];
        for policy in [
            PolicyKind::Random,
            PolicyKind::Greedy,
            PolicyKind::Heuristic,
        ] {
            for p in 0..6 {
                let seed = game_seed(3, p);
                let target = ProbeTarget::new(p, seed, &all).expect("one ruleset");
                let (out, caught) = play_capturing(&all[0], seed, 3, policy.into(), &target, None);
                assert_eq!(out, play(&all[0], seed, 3, policy), "{name} {policy} {p}");
                assert_eq!(
                    out,
                    play_cached(&all[0], seed, 3, policy),
                    "{name} {policy}"
                );
                let c = caught.unwrap_or_else(|s| panic!("{name} {p}: {s}"));
                assert_eq!(c.target.turn, target.turn);
                assert!(c.at.decision.options >= 2);
                // rebuilt under its own rules: the same decision, and the policy's same choice
                let (g, d) = c.position_under(&all[0]).expect("the host holds it");
                assert_eq!(d, c.at.decision);
                let i = crate::policy::Policy::new(policy).choose_valued(&g, &d).0;
                assert_eq!(g.choice(d.kind, i), c.at.choice, "{name} {policy} {p}");
            }
        }
    }
}

#[test]
fn targets_fall_in_their_third_of_the_pack() {
    let all = vec![rules("base"), rules("goldmines-hig-2012")];
    let turns = [71u32, 80];
    for p in 0..300u64 {
        let t = ProbeTarget::new(p, game_seed(1, p), &all).expect("rulesets");
        assert_eq!(t.host, (p % 2) as usize);
        assert_eq!(t.stage, Stage::of_position(p));
        let n = turns[t.host];
        let third = t.stage as u32;
        assert!(
            t.turn > third * n / 3 && t.turn <= (third + 1) * n / 3,
            "{t:?}"
        );
    }
    // a game too short for its turn: skipped in words
    let target = ProbeTarget {
        turn: 500,
        ..ProbeTarget::new(0, 1, &all).expect("rulesets")
    };
    let (_, caught) = play_capturing(&all[0], 1, 2, PolicyKind::Random.into(), &target, None);
    let skip = caught.expect_err("no turn 500");
    assert_eq!(skip.reason, SkipReason::GameEnded);
    assert!(skip.detail.contains("before turn 500"), "{skip}");
}

#[test]
fn a_renamed_copy_changes_no_decision() {
    let all = hig_and_renamed();
    for (host, probe_with, positions) in [
        (PolicyKind::Greedy, PolicyKind::Greedy, 30),
        (PolicyKind::Heuristic, PolicyKind::Heuristic, 30),
        (
            PolicyKind::Greedy,
            PolicyKind::Mcts(50, MctsStyle::Points),
            24,
        ),
    ] {
        let probes = run(&all, positions, host, probe_with);
        let acc = total(&probes, 2);
        acc.check(2, positions).expect("consistent");
        let pair = &acc.pairs[0];
        assert_eq!(pair.positions, positions);
        assert!(pair.all.probed >= positions - 3, "{probe_with}: {pair:?}");
        assert_eq!(pair.all.rule_changed, 0, "{probe_with}");
        let s = summarize_pair(pair);
        // the renamed copy is the same game: the crossings are the null, exactly
        assert_eq!(s.all.excess, 0.0, "{probe_with}: {s:?}");
        assert_eq!(s.all.rule_luck_changed_share, s.all.placebo_changed_share);
        assert_eq!(s.all.changed_share, 0.0);
        if probe_with != PolicyKind::Greedy {
            assert_eq!(s.mean_value_shift, Some(0.0), "{probe_with}");
        }
    }
}

#[test]
fn hig_and_rgg_gold_mines_change_some_heuristic_decisions() {
    let all = vec![rules("goldmines-hig-2012"), rules("goldmines-rgg")];
    let probes = run(&all, 36, PolicyKind::Heuristic, PolicyKind::Heuristic);
    let acc = total(&probes, 2);
    acc.check(2, 36).expect("consistent");
    let pair = &acc.pairs[0];
    assert!(pair.all.probed >= 20, "{pair:?}");
    assert!(pair.all.rule_changed > 0, "{pair:?}");
    assert!(!pair.examples.is_empty());
    let e = &pair.examples[0];
    assert_ne!(e.choice_a, e.choice_b);
    assert!(pair.value_shift_milli.n > 0);
    // every stage is probed
    assert_eq!(pair.by_stage.len(), 3, "{:?}", pair.by_stage.keys());
}

#[test]
fn base_and_gold_mines_are_skipped_with_the_reason() {
    let all = vec![rules("base"), rules("goldmines-hig-2012")];
    let probes = run(&all, 6, PolicyKind::Greedy, PolicyKind::Greedy);
    let acc = total(&probes, 2);
    acc.check(2, 6).expect("consistent");
    let pair = &acc.pairs[0];
    assert_eq!(pair.all.probed, 0);
    assert_eq!(pair.skipped.get("incompatible"), Some(&6));
    let s = summarize_pair(pair);
    let detail = s.skipped["incompatible"].detail.clone().unwrap_or_default();
    assert!(detail.contains("has no gold expansion"), "{detail}");
    assert_eq!(s.skipped["incompatible"].position, Some(0));
}

#[test]
fn merging_partitions_gives_the_whole() {
    let all = vec![
        rules("goldmines-hig-2012"),
        rules("goldmines-rgg"),
        hig_and_renamed()[1].clone(),
    ];
    let probes = run(&all, 30, PolicyKind::Greedy, PolicyKind::Heuristic);
    let whole = total(&probes, 3);
    whole.check(3, 30).expect("consistent");
    assert_eq!(whole.pairs.len(), 3);
    for parts in [2usize, 3, 7] {
        // interleaved partitions, merged in reverse order into a default aggregate
        let mut accs: Vec<DecisionAcc> = (0..parts).map(|_| DecisionAcc::new(3)).collect();
        for (p, probe) in probes.iter().enumerate() {
            accs[p % parts].add(probe);
        }
        let mut merged = DecisionAcc::default();
        for a in accs.iter().rev() {
            a.check(3, 30).expect("a part is consistent");
            merged.merge(a).expect("same shape");
        }
        assert_eq!(merged, whole, "{parts} parts");
        assert_eq!(summarize_decisions(&merged), summarize_decisions(&whole));
    }
    let json = serde_json::to_string(&whole).expect("serialises");
    let back: DecisionAcc = serde_json::from_str(&json).expect("reads back");
    assert_eq!(back, whole);
    serde_json::to_string(&summarize_decisions(&whole)).expect("summary serialises");
    // a broken aggregate is caught
    let mut broken = whole.clone();
    broken.pairs[1].all.rule_changed += 1;
    assert!(broken.check(3, 30).is_err());
    assert!(whole.check(3, 10).is_err(), "more positions than games");
    assert!(whole.merge_check_shape_differs());
}

impl DecisionAcc {
    /// Merging aggregates of different runs is refused.
    fn merge_check_shape_differs(&self) -> bool {
        self.clone().merge(&DecisionAcc::new(2)).is_err()
    }
}
