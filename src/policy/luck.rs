//! The luck of the tile draws: control variates for luck-corrected estimates, after AIVAT
//! (Burch, Schmid, Moravčík, Morrill & Bowling, "AIVAT: A New Variance Reduction Technique for
//! Agent Evaluation in Imperfect Information Games", AAAI 2018).
//!
//! The chance event is the top tile of the pack at each draw. Before the draw the
//! [`LuckMeter`] values every tile that could be on top: for each tile type among the unseen
//! pack, a copy of the game has the rest of its pack shuffled by a fixed key (so nothing of the
//! real order leaks in), that tile put on top, and the draw made and the turn played by a fixed
//! reference player (the `heuristic`, its keyed tie-breaks; a tile that fits nowhere goes by
//! the ruleset's rule and the next comes from the shuffled rest; with a hand of tiles the tile
//! joins the hand and the reference picks what to play). The position after the turn is valued
//! per seat by the heuristic's expected final totals (points) and by a win chance (a softmax of
//! those totals whose temperature shrinks with the tiles left, [`win_chances`]). The tile that
//! was on top is one of them: its **luck** for a seat is its value minus the mean over the
//! tiles that could have been, each type weighted by its copies.
//!
//! Why the correction is unbiased: the pack is a keyed uniform shuffle, so given everything
//! seen so far the top tile is uniform over the unseen copies, and each value is a fixed
//! function of the history and that tile. Each luck term therefore has expectation zero given
//! the history, whatever the reference player or the valuation, and `score − Σ luck` has the
//! same mean as the score. A valuation
//! that follows the game closely takes most of the tile luck out of the variance; a poor one
//! only takes out less. Only the draws are treated as chance: the players' own keyed draws
//! (random moves, tie-breaks, a search's determinizations) stay in.
//!
//! The meter is a measuring instrument, not a player: it sees the true game (the pack's
//! tiles, to value each that could come; the seed, for its fixed keys), where every policy
//! sees only its seat's view (`engine::SeatView`). The reference player it plays the turns
//! with is a policy like any other, and decides from the seat's view of the meter's copy.
//!
//! The sums are kept in fixed point ([`POINT_UNIT`], [`WIN_UNIT`]) so the accumulators that
//! add them up merge exactly over threads, shards and resumes.

use super::heuristic::{self, Scratch, Supply};
use super::{Policy, PolicyKind, SpareGame};
use crate::engine::rng;
use crate::engine::{Chooser, Compiled, Game, NoEvents, Pending, MAX_PLAYERS};
use crate::ruleset::TileIdx;
use serde::{Deserialize, Serialize};

/// Luck in points is summed in thousandths of a point.
pub const POINT_UNIT: f64 = 1000.0;
/// Luck in win chance is summed in millionths.
pub const WIN_UNIT: f64 = 1_000_000.0;

/// The salt of the key that shuffles a copy's pack below the tile put on top.
const SHUFFLE_SALT: u64 = 0x4C55_434B_5348_5546;

/// The win chance's temperature, in points, with `u` tiles left: `WIN_TAU_BASE +
/// WIN_TAU_PER_ROOT · √u`. Any temperature keeps the correction unbiased; this one follows how
/// far the expected totals still move (about 2 points a draw early, a few at the end).
const WIN_TAU_BASE: f64 = 3.0;
const WIN_TAU_PER_ROOT: f64 = 2.0;

/// One game's luck per seat: the sum over its draws of the drawn tile's value minus the mean
/// value of the tiles that could have come.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Luck {
    /// Per seat, in expected final points × [`POINT_UNIT`].
    pub points: [i64; MAX_PLAYERS],
    /// Per seat, in win chance × [`WIN_UNIT`].
    pub wins: [i64; MAX_PLAYERS],
    /// Draws valued (each time the pack's top tile was drawn at a turn boundary).
    pub draws: u32,
}

/// Whether the heuristic can value positions of `rules` (every expansion in it is one the
/// evaluation knows). `Err` names what it does not know: such a ruleset gets the uncorrected
/// figures, never a wrong correction.
pub fn can_value(rules: &Compiled) -> Result<(), String> {
    // Every rule the engine plays today is valued by `heuristic::totals` (gold by its split
    // rule and value table; robbers and crop circles move points and followers, which the
    // totals read). An expansion added later lists itself here until the evaluation knows it.
    let _ = rules;
    Ok(())
}

/// What one tile type would be worth if it came now.
#[derive(Clone, Copy, Debug)]
struct TileValue {
    tile: TileIdx,
    points: [f64; MAX_PLAYERS],
    wins: [f64; MAX_PLAYERS],
}

/// Values the draws of a game as it is played (see the module docs). Reusable across games;
/// no allocation per draw once warm. Its cost is one reference move per distinct tile type
/// unseen at each draw: with the `heuristic` reference about 0.3 s of CPU for a Gold Mines
/// game here (a `heuristic` game itself is about 0.03 s).
#[derive(Debug)]
pub struct LuckMeter {
    reference: Policy,
    scratch: Scratch,
    spare: SpareGame,
    /// Copies per tile type among the unseen (scratch, indexed by tile).
    copies: Vec<u32>,
    /// The values of the tiles that could come at the pending draw.
    table: Vec<TileValue>,
    /// The tile on top of the pack at the pending draw, and the seats of the game.
    top: Option<TileIdx>,
    players: usize,
    /// Their copy-weighted means.
    mean_points: [f64; MAX_PLAYERS],
    mean_wins: [f64; MAX_PLAYERS],
    /// Running sums of the game (folded into a [`Luck`] by [`LuckMeter::finish`]).
    sum_points: [f64; MAX_PLAYERS],
    sum_wins: [f64; MAX_PLAYERS],
    draws: u32,
}

impl Default for LuckMeter {
    fn default() -> Self {
        LuckMeter::new()
    }
}

impl LuckMeter {
    /// The meter compare uses: the `heuristic` plays each possible tile. At the `heuristic`
    /// level that is the players' own move, so the drawn tile's value is exactly the position
    /// the game goes on from.
    pub fn new() -> LuckMeter {
        LuckMeter::with_reference(PolicyKind::Heuristic)
    }

    /// A meter whose reference player is `reference` (any player keeps the correction
    /// unbiased; a stronger one follows the game more closely and costs more). In a 100-seed
    /// probe of HiG vs RGG Gold Mines at `heuristic`, a `greedy` reference cost about a
    /// twentieth as much and its luck correlated 0.14–0.25 with the paired score shift, the
    /// `heuristic`'s 0.39–0.48.
    pub fn with_reference(reference: PolicyKind) -> LuckMeter {
        LuckMeter {
            reference: Policy::new(reference),
            scratch: Scratch::default(),
            spare: SpareGame::default(),
            copies: Vec::new(),
            table: Vec::new(),
            top: None,
            players: 0,
            mean_points: [0.0; MAX_PLAYERS],
            mean_wins: [0.0; MAX_PLAYERS],
            sum_points: [0.0; MAX_PLAYERS],
            sum_wins: [0.0; MAX_PLAYERS],
            draws: 0,
        }
    }

    /// Start a new game's sums.
    pub fn begin(&mut self) {
        self.sum_points = [0.0; MAX_PLAYERS];
        self.sum_wins = [0.0; MAX_PLAYERS];
        self.draws = 0;
        self.table.clear();
    }

    /// At a turn boundary, before [`Game::draw`]: value every tile that could be on top of
    /// the pack.
    pub fn before_draw(&mut self, g: &Game) {
        self.table.clear();
        self.top = g.unseen().first().copied();
        self.players = g.players() as usize;
        if self.top.is_none() {
            return;
        }
        let types = g.rules().tiles.len();
        self.copies.clear();
        self.copies.resize(types, 0);
        for &t in g.unseen() {
            self.copies[t as usize] += 1;
        }
        let key = rng::key(g.seed() ^ SHUFFLE_SALT, g.turn() as u64);
        let players = self.players;
        let mut total_copies = 0u32;
        self.mean_points = [0.0; MAX_PLAYERS];
        self.mean_wins = [0.0; MAX_PLAYERS];
        for tile in 0..types {
            let copies = self.copies[tile];
            if copies == 0 {
                continue;
            }
            let mut copy = self.spare.copy_of(g);
            copy.determinize(key);
            copy.stack_next(tile as TileIdx);
            if copy.draw(&mut NoEvents) {
                while let Pending::Decision(d) = copy.pending() {
                    let i = self.reference.choose(&copy, &d);
                    copy.apply_unchecked(i);
                }
            }
            let supply = Supply::of(&copy);
            let points = heuristic::totals(&copy, &supply, &mut self.scratch);
            let wins = win_chances(&points, players, copy.remaining());
            self.spare.put(copy);
            for q in 0..players {
                self.mean_points[q] += copies as f64 * points[q];
                self.mean_wins[q] += copies as f64 * wins[q];
            }
            total_copies += copies;
            self.table.push(TileValue {
                tile: tile as TileIdx,
                points,
                wins,
            });
        }
        for q in 0..players {
            self.mean_points[q] /= total_copies.max(1) as f64;
            self.mean_wins[q] /= total_copies.max(1) as f64;
        }
    }

    /// After the [`Game::draw`] that [`LuckMeter::before_draw`] prepared: add the luck of the
    /// tile that was on top (its value minus the table's mean).
    pub fn after_draw(&mut self) {
        let Some(top) = self.top.take() else {
            return;
        };
        let Some(v) = self.table.iter().find(|v| v.tile == top) else {
            return; // cannot happen: the top tile was unseen, so it was valued
        };
        for q in 0..self.players {
            self.sum_points[q] += v.points[q] - self.mean_points[q];
            self.sum_wins[q] += v.wins[q] - self.mean_wins[q];
        }
        self.draws += 1;
    }

    /// The game's luck, in fixed point.
    pub fn finish(&self) -> Luck {
        Luck {
            points: self.sum_points.map(|x| (x * POINT_UNIT).round() as i64),
            wins: self.sum_wins.map(|x| (x * WIN_UNIT).round() as i64),
            draws: self.draws,
        }
    }

    /// Play `game` (fresh or part-way, at a turn boundary or a decision) to its end with
    /// `chooser`, valuing every draw: the outcome is exactly [`Game::play`]'s.
    pub fn play<C: Chooser>(&mut self, game: &mut Game, chooser: &mut C) -> Luck {
        self.begin();
        game.setup(&mut NoEvents);
        loop {
            match game.pending() {
                Pending::Decision(d) => {
                    let i = chooser.choose(game, &d);
                    game.apply_unchecked(i);
                }
                Pending::Draw => {
                    self.before_draw(game);
                    let drew = game.draw(&mut NoEvents);
                    self.after_draw();
                    if !drew {
                        game.finish_now(&mut NoEvents);
                    }
                }
                Pending::End => return self.finish(),
            }
        }
    }
}

/// Each seat's chance to win from expected final totals with `left` tiles to come: a softmax
/// of the totals at temperature `WIN_TAU_BASE + WIN_TAU_PER_ROOT · √left`.
pub fn win_chances(totals: &[f64; MAX_PLAYERS], players: usize, left: usize) -> [f64; MAX_PLAYERS] {
    let mut out = [0.0; MAX_PLAYERS];
    if players == 0 {
        return out;
    }
    let tau = WIN_TAU_BASE + WIN_TAU_PER_ROOT * (left as f64).sqrt();
    let top = totals[..players]
        .iter()
        .copied()
        .fold(f64::NEG_INFINITY, f64::max);
    let mut sum = 0.0;
    for q in 0..players {
        out[q] = ((totals[q] - top) / tau).exp();
        sum += out[q];
    }
    for x in out.iter_mut().take(players) {
        *x /= sum;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::compile;
    use crate::play::Choosers;
    use std::path::Path;
    use std::sync::Arc;

    fn rules(path: &str) -> Arc<Compiled> {
        let loaded = crate::dsl::load_ruleset(Path::new(path)).unwrap_or_else(|d| panic!("{d}"));
        compile(&loaded.ruleset)
    }

    #[test]
    fn metering_leaves_the_game_as_it_is() {
        let r = rules("rulesets/goldmines-hig-2012.rules");
        let seats = crate::play::Seats::all(PolicyKind::Greedy);
        let mut meter = LuckMeter::new();
        for seed in 0..4 {
            let plain = crate::play::play(&r, seed, 2, seats);
            let mut g = Game::new(r.clone(), seed, 2);
            let luck = meter.play(&mut g, &mut Choosers::new(seats));
            assert_eq!(g.outcome(), plain, "seed {seed}");
            assert!(luck.draws > 60, "every draw valued: {}", luck.draws);
            assert!(luck.points[0] != 0 || luck.points[1] != 0);
        }
    }

    #[test]
    fn win_chances_sum_to_one_and_follow_the_totals() {
        let mut t = [0.0; MAX_PLAYERS];
        t[0] = 50.0;
        t[1] = 40.0;
        t[2] = 40.0;
        let p = win_chances(&t, 3, 30);
        assert!((p[..3].iter().sum::<f64>() - 1.0).abs() < 1e-12);
        assert!(p[0] > p[1] && (p[1] - p[2]).abs() < 1e-12);
        assert_eq!(p[3], 0.0);
        let late = win_chances(&t, 3, 0);
        assert!(late[0] > p[0], "fewer tiles left, surer leader");
    }

    /// The correction's premise: each draw's luck has expectation zero, so over many games the
    /// mean luck per seat is 0 within its interval (fixed seeds: the same figures every run).
    /// `games` for the base game; half as many with Gold Mines and with a hand of three.
    fn mean_luck_is_zero_within_its_interval(games: u64) {
        use crate::compare::stats::Moments;
        for (path, games) in [
            ("rulesets/base.rules", games),
            ("rulesets/goldmines-hig-2012.rules", games / 2),
            ("rulesets/house-hand3.rules", games / 2),
        ] {
            let r = rules(path);
            let seats = crate::play::Seats::all(PolicyKind::Random);
            let mut meter = LuckMeter::with_reference(PolicyKind::Greedy);
            let mut per_seat = [Moments::default(); 2];
            for seed in 0..games {
                let mut g = Game::new(r.clone(), 1000 + seed, 2);
                let luck = meter.play(&mut g, &mut Choosers::new(seats));
                for (q, m) in per_seat.iter_mut().enumerate() {
                    m.push(luck.points[q]);
                }
            }
            for (q, m) in per_seat.iter().enumerate() {
                let ci = m.mean_ci().ci.expect("many games");
                assert!(
                    ci[0] <= 0.0 && 0.0 <= ci[1],
                    "{path} seat {q}: mean luck {:.3} points, interval [{:.3}, {:.3}]",
                    m.mean() / POINT_UNIT,
                    ci[0] / POINT_UNIT,
                    ci[1] / POINT_UNIT
                );
                assert!(
                    m.sd().expect("spread") > 1000.0,
                    "the luck is not trivially 0"
                );
            }
        }
    }

    #[test]
    fn the_mean_luck_is_zero_within_its_interval() {
        // (400 games: 800 in all took 22 s of a test build's CI run; the thorough check below
        // plays ten times as many)
        mean_luck_is_zero_within_its_interval(200);
    }

    #[test]
    #[ignore = "long: 8,000 metered games (cargo test --release -- --ignored)"]
    fn the_mean_luck_is_zero_within_its_interval_over_many_games() {
        mean_luck_is_zero_within_its_interval(4000);
    }

    #[test]
    fn the_luck_of_a_seat_is_exact_in_fixed_point_and_the_same_every_time() {
        let r = rules("rulesets/base.rules");
        let seats = crate::play::Seats::all(PolicyKind::Random);
        let once = |seed| {
            let mut g = Game::new(r.clone(), seed, 3);
            LuckMeter::new().play(&mut g, &mut Choosers::new(seats))
        };
        for seed in [3, 77] {
            assert_eq!(once(seed), once(seed));
        }
    }
}
