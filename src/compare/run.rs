//! The compare driver: plays every seed of the run (or of its shard) under every ruleset, in
//! parallel across games, and folds the outcomes into an [`Accumulator`].
//!
//! The game player is injected as a [`SeedPlayer`] — any closure `play(ruleset_index,
//! game_seed)` is one — so the CLI wires the real engine and tests inject synthetic outcomes.
//! With [`CompareSpec::placebo`] set, every pair whose play differed is played again under
//! each of its rulesets with the players' keys salted from the turn it parted
//! ([`crate::compare::placebo`]). Games are played in batches of
//! consecutive indices; within a batch rayon plays them in parallel and the results come back
//! in index order, so the per-game callback (the CSV writer) sees games in seed order and
//! memory stays bounded by one batch, whatever the number of games.

use super::accumulate::Accumulator;
use super::decisions::PairProbe;
use super::seeds::{block_range, game_seed, BLOCK_SIZE};
use super::skill::SkillSeed;
use super::spec::CompareSpec;
use crate::engine::GameOutcome;
use crate::policy::luck::Luck;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::io;
use std::ops::Range;

/// Games per parallel batch (a divisor of [`BLOCK_SIZE`]): also the progress granularity.
pub const BATCH_SIZE: u64 = 250;

/// One seed played under every ruleset.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// 0-based game index in the run.
    pub index: u64,
    pub seed: u64,
    /// `outcomes[r]`: the game under ruleset `r`.
    pub outcomes: Vec<GameOutcome>,
    /// With a placebo: per pair (in [`Accumulator::pairs`] order), the games A′ and B′, or
    /// `None` when the pair played identically. Empty without a placebo.
    pub placebo: Vec<Option<[GameOutcome; 2]>>,
    /// The decision probes of the position this game hosts (one per pair), if it hosts one.
    pub probes: Vec<PairProbe>,
    /// With the luck meter: `luck[r]`, the tile luck of the game under ruleset `r` (`None`
    /// where it was not measured). Empty without it.
    pub luck: Vec<Option<Luck>>,
    /// With `--skill`: the seed's duplicate set under each ruleset. Empty without it.
    pub skill: Vec<SkillSeed>,
}

/// Who plays the games of a run.
pub trait SeedPlayer: Sync {
    /// The game of `seed` under ruleset `ruleset`.
    fn play(&self, ruleset: usize, seed: u64) -> GameOutcome;

    /// The same game with the players' own keys salted with `salt` from turn `from_turn`
    /// on ([`crate::play::Salted`]), and with `deal` the unseen tiles redrawn there too
    /// ([`crate::play::GamePlayer::play_salted`]). A player that has no keys to salt (a
    /// synthetic test player) plays the game itself.
    fn play_salted(
        &self,
        ruleset: usize,
        seed: u64,
        salt: u64,
        from_turn: u32,
        deal: bool,
    ) -> GameOutcome {
        let _ = (salt, from_turn, deal);
        self.play(ruleset, seed)
    }

    /// Whether rulesets `a` and `b` deal seed `seed` differently (their packs' tiles, by id,
    /// in another order): then a placebo must redraw the deal as well as the players' luck.
    /// A synthetic test player deals nothing: false.
    fn deals_differ(&self, a: usize, b: usize, seed: u64) -> bool {
        let _ = (a, b, seed);
        false
    }

    /// The game of `seed` under ruleset `ruleset`, which hosts decision-probe position
    /// `position` ([`crate::compare::decisions`]): the same outcome as [`SeedPlayer::play`],
    /// and the probes, one per pair. A player without a policy to ask (a synthetic test
    /// player) probes nothing.
    fn play_probed(
        &self,
        ruleset: usize,
        seed: u64,
        position: u64,
        metered: bool,
    ) -> (GameOutcome, Vec<PairProbe>, Option<Luck>) {
        let _ = position;
        let (outcome, luck) = self.play_metered(ruleset, seed, metered);
        (outcome, Vec::new(), luck)
    }

    /// [`SeedPlayer::play`], with the game's tile luck when `metered`
    /// ([`crate::policy::luck`]). A player that cannot measure luck (a synthetic test player,
    /// a ruleset the heuristic cannot value) gives `None`.
    fn play_metered(
        &self,
        ruleset: usize,
        seed: u64,
        metered: bool,
    ) -> (GameOutcome, Option<Luck>) {
        let _ = metered;
        (self.play(ruleset, seed), None)
    }

    /// The game of `seed` under ruleset `ruleset` with the skill study's strong policy in
    /// seat `strong` and the weak one in every other ([`crate::compare::skill`]), with its
    /// luck when `metered`. `None` from a player that has no skill study.
    fn play_skill(
        &self,
        ruleset: usize,
        seed: u64,
        strong: u8,
        metered: bool,
    ) -> Option<(GameOutcome, Option<Luck>)> {
        let _ = (ruleset, seed, strong, metered);
        None
    }
}

/// The duplicate sets of one seed, one per ruleset: `players` games each, the strong policy
/// in each seat in turn. Empty when the player has no skill study.
fn skill_sets<P: SeedPlayer + ?Sized>(
    player: &P,
    seed: u64,
    rulesets: usize,
    players: u8,
    metered: bool,
) -> Vec<SkillSeed> {
    let mut sets = Vec::with_capacity(rulesets);
    for r in 0..rulesets {
        let mut games = Vec::with_capacity(players as usize);
        for strong in 0..players {
            match player.play_skill(r, seed, strong, metered) {
                Some(g) => games.push(g),
                None => return Vec::new(),
            }
        }
        sets.push(SkillSeed::of(&games));
    }
    sets
}

impl<F: Fn(usize, u64) -> GameOutcome + Sync> SeedPlayer for F {
    fn play(&self, ruleset: usize, seed: u64) -> GameOutcome {
        self(ruleset, seed)
    }
}

/// The placebo games of one seed: for each pair whose play differed (at turn `t`, its first
/// differing events), A and B played again with the players' keys salted from `t` on, and
/// the unseen tiles redrawn there too when the two rulesets deal the seed differently
/// ([`SeedPlayer::deals_differ`]; see [`super::placebo`] for why).
fn placebo_games<P: SeedPlayer + ?Sized>(
    player: &P,
    seed: u64,
    outcomes: &[GameOutcome],
) -> Vec<Option<[GameOutcome; 2]>> {
    let n = outcomes.len();
    let mut out = Vec::with_capacity(n * n.saturating_sub(1) / 2);
    for a in 0..n {
        for b in a + 1..n {
            out.push(outcomes[a].first_divergence(&outcomes[b]).map(|t| {
                let deal = player.deals_differ(a, b, seed);
                [a, b].map(|r| player.play_salted(r, seed, super::placebo::PLACEBO_SALT, t, deal))
            }));
        }
    }
    out
}

/// The game-index ranges the run plays, in increasing order, produced lazily (a run of a
/// trillion games needs no list of its blocks).
pub fn run_ranges(spec: &CompareSpec) -> Box<dyn Iterator<Item = Range<u64>> + '_> {
    match spec.shard {
        Some(s) => Box::new(s.block_ranges(spec.games)),
        None => Box::new((0..spec.games.div_ceil(BLOCK_SIZE)).map(|b| block_range(b, spec.games))),
    }
}

/// The end of the batch that game `begin` falls in, within the seed block `range`: batches
/// end at fixed indices (`range.start + k·BATCH_SIZE`, and the block's end), however a run is
/// cut, threaded or resumed.
fn batch_end(range: &Range<u64>, begin: u64) -> u64 {
    let k = (begin - range.start) / BATCH_SIZE + 1;
    range
        .start
        .saturating_add(k.saturating_mul(BATCH_SIZE))
        .min(range.end)
}

/// The game indices at which the batches of a run of `spec` end, in increasing order: where
/// [`run_from`] asks `--until`'s rule ([`super::verdict::settled`]). For an unsharded run these
/// are the numbers of seeds played at each look, the last one `spec.games` (the cap).
/// [`super::forecast`] simulates the rule at the same points.
pub fn batch_ends(spec: &CompareSpec) -> impl Iterator<Item = u64> + '_ {
    run_ranges(spec).flat_map(|range| {
        std::iter::successors(
            (range.start < range.end).then(|| batch_end(&range, range.start)),
            move |&end| (end < range.end).then(|| batch_end(&range, end)),
        )
    })
}

/// Where a run starts: from scratch, or from a checkpoint (the aggregate of every game
/// before `next_game` that the run plays).
#[derive(Clone, Debug)]
pub struct Start {
    pub accumulator: Accumulator,
    /// The first game index still to play.
    pub next_game: u64,
}

impl Start {
    pub fn fresh(spec: &CompareSpec) -> Start {
        Start {
            accumulator: Accumulator::new(spec.rulesets.len(), spec.players),
            next_game: 0,
        }
    }
}

/// What the caller says after each batch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    /// Stop before the next batch (an interrupt): the run ends [`Ended::Stopped`].
    Stop,
}

/// How a run ended.
#[derive(Clone, Debug)]
pub enum Ended {
    /// Every game of the run was played.
    Done(Accumulator),
    /// Stopped between batches; `next_game` is where to resume.
    Stopped {
        accumulator: Accumulator,
        next_game: u64,
    },
}

/// Plays the run. `on_game` receives every game in increasing index order (to stream
/// `games.csv`); `progress` receives the number of games finished so far, after each batch.
/// The result depends only on the spec's seeds and rulesets, never on `spec.threads`.
///
/// # Errors
/// The first error `on_game` returns, or a failure to start the thread pool.
pub fn run_compare<F>(
    spec: &CompareSpec,
    play: F,
    on_game: &mut dyn FnMut(&GameRecord) -> io::Result<()>,
    progress: &dyn Fn(u64),
) -> io::Result<Accumulator>
where
    F: SeedPlayer,
{
    let mut after = |_: &Accumulator, _: u64, done: u64| {
        progress(done);
        Ok(Flow::Continue)
    };
    match run_from(spec, play, Start::fresh(spec), on_game, &mut after, &|| {
        false
    })? {
        Ended::Done(acc) => Ok(acc),
        Ended::Stopped { .. } => Err(io::Error::from(io::ErrorKind::Interrupted)),
    }
}

/// Plays the run from `start` (a fresh start or a checkpoint). After each batch,
/// `after_batch(aggregate so far, next game index, games done)` may checkpoint and may stop
/// the run; with `spec.until` the run ends [`Ended::Done`] early once
/// [`super::verdict::settled`] says the answer is known. Batches never straddle a seed block, so a stop or a crash loses at most the
/// batch in flight.
///
/// `cut` is asked before each game of a batch starts (but its first, so a batch always gets
/// somewhere): once it says yes, the batch ends early, with the games finished so far —
/// an interrupt then waits for the games in flight only, not for the whole batch, and a
/// checkpoint can be taken every few seconds however slow the games are. The batch's
/// aggregate takes the games in index order up to the first one not played; games finished
/// beyond it are kept for the next batch. So `cut` (the wall clock, an interrupt) decides
/// only when the run pauses, never what is played: every game still depends on its index
/// alone, and the result is the same however the batches are cut.
///
/// # Errors
/// The first error `on_game` or `after_batch` returns, or a failure to start the pool.
pub fn run_from<F>(
    spec: &CompareSpec,
    play: F,
    start: Start,
    on_game: &mut dyn FnMut(&GameRecord) -> io::Result<()>,
    after_batch: &mut dyn FnMut(&Accumulator, u64, u64) -> io::Result<Flow>,
    cut: &(dyn Fn() -> bool + Sync),
) -> io::Result<Ended>
where
    F: SeedPlayer,
{
    spec.validate().map_err(io::Error::other)?;
    let pool = match spec.threads {
        Some(n) => Some(
            rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .map_err(io::Error::other)?,
        ),
        None => None,
    };
    let rulesets = spec.rulesets.len();
    let play_batch = |todo: Vec<u64>, first: u64| -> Vec<Option<GameRecord>> {
        todo.into_par_iter()
            .map(|index| {
                if index != first && cut() {
                    return None;
                }
                let seed = game_seed(spec.seed, index);
                let host = (index < spec.positions).then(|| (index % rulesets as u64) as usize);
                let mut probes = Vec::new();
                let mut luck = Vec::new();
                let outcomes: Vec<GameOutcome> = (0..rulesets)
                    .map(|r| {
                        let (outcome, l) = if host == Some(r) {
                            let (outcome, p, l) = play.play_probed(r, seed, index, spec.luck);
                            probes = p;
                            (outcome, l)
                        } else if spec.luck {
                            play.play_metered(r, seed, true)
                        } else {
                            (play.play(r, seed), None)
                        };
                        if spec.luck {
                            luck.push(l);
                        }
                        outcome
                    })
                    .collect();
                let skill = if spec.skill.is_some() {
                    skill_sets(&play, seed, rulesets, spec.players, spec.luck)
                } else {
                    Vec::new()
                };
                let placebo = if spec.placebo {
                    placebo_games(&play, seed, &outcomes)
                } else {
                    Vec::new()
                };
                Some(GameRecord {
                    index,
                    seed,
                    outcomes,
                    placebo,
                    probes,
                    luck,
                    skill,
                })
            })
            .collect()
    };

    let mut acc = start.accumulator;
    let mut done = acc.games;
    for range in run_ranges(spec) {
        if range.end <= start.next_game {
            continue;
        }
        let mut begin = range.start.max(start.next_game);
        // games of a cut batch finished beyond its first gap, by index
        let mut ahead: BTreeMap<u64, GameRecord> = BTreeMap::new();
        while begin < range.end {
            // batches end at fixed indices (range.start + k·BATCH_SIZE): a batch cut short
            // is finished by a shorter one up to the same boundary
            let batch = begin..batch_end(&range, begin);
            let todo: Vec<u64> = batch.clone().filter(|i| !ahead.contains_key(i)).collect();
            let played = match &pool {
                Some(pool) => pool.install(|| play_batch(todo, batch.start)),
                None => play_batch(todo, batch.start),
            };
            ahead.extend(played.into_iter().flatten().map(|r| (r.index, r)));
            while let Some(rec) = ahead.remove(&begin) {
                acc.add_seed(&rec.outcomes, spec.placebo.then_some(&rec.placebo[..]));
                acc.add_probes(&rec.probes);
                acc.add_luck(&rec.outcomes, &rec.luck);
                acc.add_skill(&rec.skill);
                on_game(&rec)?;
                begin += 1;
                done += 1;
            }
            let flow = after_batch(&acc, begin, done)?;
            // `--until`: the answer is known (a pure function of the aggregate). Asked only
            // where a whole batch ended: batches end at the same indices whatever the threads,
            // resumes or wall-clock cuts (a cut batch's rest runs up to the same boundary), so
            // the stop is deterministic.
            if begin == batch.end && super::verdict::settled(spec, &acc) {
                return Ok(Ended::Done(acc));
            }
            if flow == Flow::Stop && done < spec.games_in_run() {
                return Ok(Ended::Stopped {
                    accumulator: acc,
                    next_game: begin,
                });
            }
        }
    }
    Ok(Ended::Done(acc))
}
