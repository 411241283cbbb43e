//! Playing games with policies: the layer above both [`crate::engine`] (the game as a value you
//! drive) and [`crate::policy`] (who chooses). Each function here plays one game (or its first
//! turns) from a seed, a small loop over [`Game::pending`] / [`Game::apply`]; every seat may
//! have its own policy ([`Seats`]). Running many games (threads, progress, checkpoints) is
//! [`crate::compare::run`]'s and [`crate::ladder::run`]'s job.
//!
//! - [`play`], [`play_with_events`]: one game;
//! - [`play_cached`], [`GamePlayer`]: many games on one thread, reusing the board allocations
//!   (bulk comparisons and benchmarks).

use crate::engine::{Chooser, Decision};
use crate::engine::{Compiled, Event, Game, GameOutcome, NoEvents, Pending, MAX_PLAYERS};
use crate::policy::luck::{Luck, LuckMeter};
use crate::policy::spec::{PolicyError, SeatPolicies};
use crate::policy::{Policy, PolicyKind};
use std::sync::Arc;

/// One policy per seat; a single policy plays every seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Seats([PolicyKind; MAX_PLAYERS]);

impl Seats {
    /// Every seat plays `kind`.
    pub fn all(kind: PolicyKind) -> Seats {
        Seats([kind; MAX_PLAYERS])
    }

    /// Seat `i` plays `kinds[i]`; seats past the list repeat its last entry (a list of one
    /// = the same policy everywhere). `None` for an empty list or one longer than
    /// [`MAX_PLAYERS`].
    pub fn per_seat(kinds: &[PolicyKind]) -> Option<Seats> {
        let last = *kinds.last()?;
        if kinds.len() > MAX_PLAYERS {
            return None;
        }
        let mut seats = [last; MAX_PLAYERS];
        seats[..kinds.len()].copy_from_slice(kinds);
        Some(Seats(seats))
    }

    /// The policy of seat `seat`.
    pub fn of(&self, seat: u8) -> PolicyKind {
        self.0[seat as usize % MAX_PLAYERS]
    }

    /// The seats of a game of `players` under `--policy` (one policy for every seat, or one
    /// per seat; a list of another length is an error naming both numbers).
    pub fn for_players(policy: &SeatPolicies, players: u8) -> Result<Seats, PolicyError> {
        let kinds = policy.kinds(players)?;
        Seats::per_seat(&kinds).ok_or(PolicyError::SeatCount {
            given: kinds.len(),
            players,
        })
    }
}

impl From<PolicyKind> for Seats {
    fn from(kind: PolicyKind) -> Seats {
        Seats::all(kind)
    }
}

/// The policies of one game, one per seat: a [`Chooser`] that hands each decision to the
/// deciding seat's policy.
pub struct Choosers([Policy; MAX_PLAYERS]);

impl Choosers {
    pub fn new(seats: Seats) -> Choosers {
        Choosers(seats.0.map(Policy::new))
    }
}

impl Chooser for Choosers {
    #[inline]
    fn choose(&mut self, game: &Game, d: &Decision) -> usize {
        self.0[d.player as usize % MAX_PLAYERS].choose(game, d)
    }
}

/// A chooser whose decisions from turn `from_turn` on are [`salted`](crate::policy::salted):
/// the players' half of a coupled comparison's placebo, their own luck drawn anew from the
/// turn where the rule pair parted ([`GamePlayer::play_salted`] redraws the deal too).
/// Decisions before `from_turn` are exactly the inner chooser's, so the game is the
/// unsalted one up to there.
pub struct Salted<C> {
    pub inner: C,
    pub salt: u64,
    pub from_turn: u32,
}

impl<C: Chooser> Chooser for Salted<C> {
    #[inline]
    fn choose(&mut self, game: &Game, d: &Decision) -> usize {
        if game.turn() >= self.from_turn {
            self.inner
                .choose(game, &crate::policy::salted(d, self.salt))
        } else {
            self.inner.choose(game, d)
        }
    }
}

/// The key of a placebo's redrawn deal ([`Game::redraw_pack`]): the seed's deck key salted.
/// Every ruleset of a run redraws with the same key, so the tiles they share keep one
/// relative order in the placebo games as in the real ones.
pub fn redeal_key(seed: u64, salt: u64) -> u64 {
    use crate::engine::rng::{domain, key};
    key(key(seed, domain::DECK), salt)
}

/// Play one complete game and return its summary (no events kept).
pub fn play(
    rules: &Arc<Compiled>,
    seed: u64,
    players: u8,
    policy: impl Into<Seats>,
) -> GameOutcome {
    let mut game = Game::new(rules.clone(), seed, players);
    game.play(&mut Choosers::new(policy.into()), &mut NoEvents)
}

/// Play one complete game keeping every event.
pub fn play_with_events(
    rules: &Arc<Compiled>,
    seed: u64,
    players: u8,
    policy: impl Into<Seats>,
) -> (GameOutcome, Vec<Event>) {
    let mut game = Game::new(rules.clone(), seed, players);
    let mut events = Vec::new();
    let outcome = game.play(&mut Choosers::new(policy.into()), &mut events);
    (outcome, events)
}

/// Play one game valuing every draw with `meter` ([`LuckMeter::play`]): the same game as
/// [`play`], and its tile luck.
pub fn play_metered(
    rules: &Arc<Compiled>,
    seed: u64,
    players: u8,
    policy: impl Into<Seats>,
    meter: &mut LuckMeter,
) -> (GameOutcome, Luck) {
    let seats = policy.into();
    with_player(rules, seats, |r| r.play_metered(seed, players, meter))
}

thread_local! {
    static GAME_PLAYERS: std::cell::RefCell<Vec<(Seats, GamePlayer)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// Play one game reusing this thread's board allocations for `rules` (bulk comparisons).
/// Gives exactly what [`play`] gives.
pub fn play_cached(
    rules: &Arc<Compiled>,
    seed: u64,
    players: u8,
    policy: impl Into<Seats>,
) -> GameOutcome {
    with_player(rules, policy.into(), |r| r.play(seed, players))
}

/// What a placebo game redraws, from which turn: the players' own keys salted with `salt`
/// from turn `from_turn` on, and with `deal` the unseen tiles redrawn there too
/// ([`GamePlayer::play_salted`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Redraw {
    pub salt: u64,
    pub from_turn: u32,
    pub deal: bool,
}

/// Play one complete game with chance redrawn as `redraw` says ([`GamePlayer::play_salted`];
/// salt 0 gives exactly [`play`]'s game), reusing this thread's board allocations (the
/// placebo games of a bulk comparison).
pub fn play_salted(
    rules: &Arc<Compiled>,
    seed: u64,
    players: u8,
    policy: impl Into<Seats>,
    redraw: Redraw,
) -> GameOutcome {
    with_player(rules, policy.into(), |r| {
        r.play_salted(seed, players, redraw)
    })
}

/// Whether `a` and `b` deal seed `seed` differently: their packs, as tile ids, in another
/// order (other tiles, other counts, a renamed id). Rulesets with the same deck deal every
/// seed alike (the coupled deck), so their placebo need not redraw the deal.
pub fn deals_differ(a: &Arc<Compiled>, b: &Arc<Compiled>, seed: u64) -> bool {
    let pack = |rules: &Arc<Compiled>| {
        let g = Game::new(rules.clone(), seed, 2);
        let ids: Vec<u64> = g
            .unseen()
            .iter()
            .map(|&t| rules.tiles[t as usize].id_hash)
            .collect();
        ids
    };
    !Arc::ptr_eq(a, b) && pack(a) != pack(b)
}

/// Calls `f` with this thread's cached [`GamePlayer`] for `rules` and `seats` (made on first use;
/// the eight most recent are kept).
fn with_player<T>(rules: &Arc<Compiled>, seats: Seats, f: impl FnOnce(&mut GamePlayer) -> T) -> T {
    GAME_PLAYERS.with(|cell| {
        let mut cache = cell.borrow_mut();
        let i = match cache
            .iter()
            .position(|(p, r)| *p == seats && Arc::ptr_eq(r.game.rules(), rules))
        {
            Some(i) => i,
            None => {
                if cache.len() >= 8 {
                    cache.remove(0);
                }
                cache.push((seats, GamePlayer::new(rules, seats)));
                cache.len() - 1
            }
        };
        f(&mut cache[i].1)
    })
}

/// A reusable player of many games on one thread (keeps the board allocations).
pub struct GamePlayer {
    game: Game,
    choosers: Choosers,
    /// Whether its games keep the divergence records (a copy played on may have brought
    /// another setting: each new game restores this one).
    records: bool,
}

impl GamePlayer {
    pub fn new(rules: &Arc<Compiled>, policy: impl Into<Seats>) -> GamePlayer {
        GamePlayer {
            game: Game::new(rules.clone(), 0, 2),
            choosers: Choosers::new(policy.into()),
            records: true,
        }
    }

    /// The same player playing without the divergence records
    /// ([`Game::keep_divergence_records`]): scores only, as benchmarks and ladders need.
    pub fn without_divergence_records(mut self) -> GamePlayer {
        self.game.keep_divergence_records(false);
        self.records = false;
        self
    }

    /// Game `seed` set up afresh, keeping this player's record setting.
    fn start(&mut self, seed: u64, players: u8) {
        self.game.keep_divergence_records(self.records);
        self.game.reset(seed, players);
    }

    pub fn play(&mut self, seed: u64, players: u8) -> GameOutcome {
        self.start(seed, players);
        self.game.play(&mut self.choosers, &mut NoEvents)
    }

    /// Play game `seed` valuing every draw with `meter` ([`LuckMeter::play`]): the same game
    /// as [`GamePlayer::play`], and its tile luck.
    pub fn play_metered(
        &mut self,
        seed: u64,
        players: u8,
        meter: &mut LuckMeter,
    ) -> (GameOutcome, Luck) {
        self.start(seed, players);
        let luck = meter.play(&mut self.game, &mut self.choosers);
        (self.game.outcome(), luck)
    }

    /// Play game `seed` with chance redrawn from turn `redraw.from_turn` on: the players'
    /// keys salted with `redraw.salt` ([`Salted`]) and, with `redraw.deal`, the deal redrawn
    /// too — the unseen tiles of the pack put in a new order keyed by the seed and the salt
    /// ([`Game::redraw_pack`], key [`redeal_key`]) at the boundary before that turn (before
    /// the set-up's deal when it is 0). Up to there the game is the unsalted one; salt 0
    /// gives exactly [`GamePlayer::play`]'s game.
    pub fn play_salted(&mut self, seed: u64, players: u8, redraw: Redraw) -> GameOutcome {
        let Redraw {
            salt,
            from_turn,
            deal,
        } = redraw;
        self.start(seed, players);
        let mut chooser = Salted {
            inner: &mut self.choosers,
            salt,
            from_turn,
        };
        if salt != 0 && deal {
            let game = &mut self.game;
            if from_turn > 0 {
                game.setup(&mut NoEvents);
                // the turns before the parting one, as the unsalted game plays them
                loop {
                    match game.pending() {
                        Pending::Decision(d) => {
                            let i = chooser.choose(game, &d);
                            game.apply_unchecked(i);
                        }
                        Pending::Draw if game.turn() + 1 < from_turn => {
                            if !game.draw(&mut NoEvents) {
                                game.finish_now(&mut NoEvents);
                            }
                        }
                        Pending::Draw | Pending::End => break,
                    }
                }
            }
            if game.pending() != Pending::End {
                game.redraw_pack(redeal_key(seed, salt));
            }
        }
        self.game.play(&mut chooser, &mut NoEvents)
    }

    /// Play on to the end from a copy of `from` (a position part-way; the original is left
    /// as it is): the copy's decisions go to this player's policies. A player without the
    /// divergence records copies the position only, and stays without them.
    pub fn play_on(&mut self, from: &Game) -> GameOutcome {
        if self.records {
            self.game.clone_from(from);
        } else {
            self.game.copy_position_from(from);
        }
        self.game.play(&mut self.choosers, &mut NoEvents)
    }
}

/// The position of `seed` after `turns` turns (or at its end, if sooner), at a turn
/// boundary: a mid-game state for search and benchmarks.
pub fn play_turns(
    rules: &Arc<Compiled>,
    seed: u64,
    players: u8,
    policy: impl Into<Seats>,
    turns: u32,
) -> Game {
    let mut choosers = Choosers::new(policy.into());
    let mut game = Game::new(rules.clone(), seed, players);
    game.setup(&mut NoEvents);
    while game.turn() < turns && game.draw(&mut NoEvents) {
        while let Pending::Decision(d) = game.pending() {
            let i = choosers.choose(&game, &d);
            game.apply_unchecked(i);
        }
    }
    game
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::compile;
    use crate::ruleset::TileIdx;
    use std::path::Path;

    fn base() -> Arc<Compiled> {
        let loaded = crate::dsl::load_ruleset(Path::new("rulesets/base.rules"))
            .unwrap_or_else(|d| panic!("{d}"));
        compile(&loaded.ruleset)
    }

    /// The placebo's deal: the unseen tiles are permuted (the same tiles, the drawn ones
    /// untouched), the same key gives the same order, another key another order.
    #[test]
    fn redrawing_the_pack_permutes_the_unseen_tiles_by_key() {
        let rules = base();
        let mut g = play_turns(&rules, 11, 2, PolicyKind::Greedy, 10);
        let (drawn, unseen) = (g.drawn_tiles().to_vec(), g.unseen().to_vec());
        let mut again = g.clone();
        let mut other = g.clone();
        g.redraw_pack(redeal_key(11, 0xABCD));
        again.redraw_pack(redeal_key(11, 0xABCD));
        other.redraw_pack(redeal_key(11, 0xABCE));
        assert_eq!(g.drawn_tiles(), &drawn[..], "the drawn tiles stay");
        assert_eq!(g.unseen(), again.unseen(), "deterministic per key");
        assert_ne!(g.unseen(), &unseen[..], "the pack is redrawn");
        assert_ne!(g.unseen(), other.unseen(), "another key, another order");
        let sorted = |t: &[TileIdx]| {
            let mut v = t.to_vec();
            v.sort_unstable();
            v
        };
        assert_eq!(sorted(g.unseen()), sorted(&unseen), "the same tiles");
    }

    /// A placebo game is the real one up to the parting turn, then draws other tiles; salt 0
    /// is the real game.
    #[test]
    fn a_salted_game_redraws_the_deal_from_its_turn() {
        let rules = base();
        let seats = Seats::all(PolicyKind::Greedy);
        let real = play(&rules, 5, 2, seats);
        let redraw = |salt, from_turn| Redraw {
            salt,
            from_turn,
            deal: true,
        };
        assert_eq!(play_salted(&rules, 5, 2, seats, redraw(0, 9)), real);
        let placebo = play_salted(&rules, 5, 2, seats, redraw(0x5EED, 9));
        assert_eq!(placebo, play_salted(&rules, 5, 2, seats, redraw(0x5EED, 9)));
        // turn_hashes[t] closes turn t: equal through turn 8, then the draws differ
        assert_eq!(placebo.turn_hashes[..9], real.turn_hashes[..9]);
        assert_ne!(placebo.turn_hashes[9..], real.turn_hashes[9..]);
        let mut a = GamePlayer::new(&rules, seats);
        let mut b = GamePlayer::new(&rules, seats);
        let (x, y) = (
            a.play_salted(5, 2, redraw(0x5EED, 0)),
            b.play_salted(5, 2, redraw(0x5EED, 0)),
        );
        assert_eq!(x, y, "from the set-up on: deterministic too");
        assert_ne!(x.turn_hashes, real.turn_hashes);
    }

    /// The same deck deals every seed alike; a ruleset with other tiles deals otherwise.
    #[test]
    fn deals_differ_only_between_other_decks() {
        let load = |f: &str| {
            let loaded = crate::dsl::load_ruleset(Path::new(f)).unwrap_or_else(|d| panic!("{d}"));
            compile(&loaded.ruleset)
        };
        let (hig, rgg) = (
            load("rulesets/goldmines-hig-2012.rules"),
            load("rulesets/goldmines-rgg.rules"),
        );
        let base = base();
        for seed in 0..8 {
            assert!(!deals_differ(&hig, &rgg, seed), "the same Gold Mines deck");
            assert!(!deals_differ(&base, &base, seed));
            assert!(deals_differ(&base, &hig, seed), "the gold tiles are extra");
        }
    }

    /// A game player goes by value onto a worker thread's stack (rayon's `map_init` in
    /// `bench`, `ladder`): with the searches' spare games inline it was 82 KB and `bench`
    /// overflowed rayon's 2 MiB stacks now and then. Played on a 256 KiB thread, every policy
    /// on the Big Box ruleset must finish.
    #[test]
    fn a_game_player_plays_on_a_small_stack() {
        assert!(
            std::mem::size_of::<GamePlayer>() < 16 * 1024,
            "{} bytes",
            std::mem::size_of::<GamePlayer>()
        );
        let loaded = crate::dsl::load_ruleset(Path::new("rulesets/bigbox.rules"))
            .unwrap_or_else(|d| panic!("{d}"));
        let rules = compile(&loaded.ruleset);
        let played = std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(move || {
                let seats = Seats(std::array::from_fn(|i| match i % 3 {
                    0 => PolicyKind::Greedy,
                    1 => PolicyKind::Heuristic,
                    _ => PolicyKind::Mcts(8, Default::default()),
                }));
                let mut player = GamePlayer::new(&rules, seats);
                player.play(7, 3).seats.len()
            })
            .expect("a thread")
            .join()
            .expect("the game finished");
        assert_eq!(played, 3);
    }

    /// `--skill`: game `strong` of a duplicate set has the strong policy in seat `strong` and
    /// the weak one everywhere else, on the seed's deal; metered or not, the same game.
    #[test]
    fn one_policy_is_the_same_as_a_list_of_it() {
        let seats = |text: &str| {
            let policy: SeatPolicies = text.parse().expect("a valid --policy");
            Seats::for_players(&policy, 3).expect("three seats")
        };
        let every = Seats::all(PolicyKind::Greedy);
        assert_eq!(seats("greedy"), every);
        assert_eq!(seats("greedy,greedy,greedy"), every);
        assert_eq!(Seats::per_seat(&[PolicyKind::Greedy]), Some(every));
        let rules = base();
        for seed in 0..20 {
            let a = play(&rules, seed, 3, PolicyKind::Greedy);
            assert_eq!(a, play(&rules, seed, 3, seats("greedy,greedy,greedy")));
        }
    }

    #[test]
    fn each_seat_plays_its_own_policy() {
        let rules = base();
        let mixed = Seats::per_seat(&[PolicyKind::Greedy, PolicyKind::Random]).expect("two");
        assert_eq!(mixed.of(0), PolicyKind::Greedy);
        assert_eq!(mixed.of(1), PolicyKind::Random);
        let differs = (0..20).any(|seed| {
            play(&rules, seed, 2, mixed) != play(&rules, seed, 2, PolicyKind::Greedy)
                && play(&rules, seed, 2, mixed) != play(&rules, seed, 2, PolicyKind::Random)
        });
        assert!(differs, "a mixed table plays unlike both pure tables");
        assert!(Seats::per_seat(&[]).is_none());
    }

    #[test]
    fn a_determinized_copy_reorders_only_its_own_unseen_tiles() {
        let rules = base();
        let game = play_turns(&rules, 3, 2, PolicyKind::Random, 20);
        let unseen = game.unseen().to_vec();
        assert!(unseen.len() > 10);
        let mut a = game.clone();
        a.determinize(42);
        let mut b = game.clone();
        b.determinize(42);
        assert_eq!(
            game.unseen(),
            &unseen[..],
            "the original keeps the real order"
        );
        assert_eq!(a.unseen(), b.unseen(), "the same key, the same order");
        assert_ne!(a.unseen(), &unseen[..], "another order");
        let (mut x, mut y) = (a.unseen().to_vec(), unseen.clone());
        x.sort_unstable();
        y.sort_unstable();
        assert_eq!(x, y, "the same tiles");
        let mut player = GamePlayer::new(&rules, PolicyKind::Random);
        let end = player.play_on(&a);
        assert!(end.turns > game.turn(), "the copy plays on to its end");
    }

    #[test]
    fn a_copy_played_on_does_not_touch_the_original() {
        let rules = base();
        let game = play_turns(&rules, 7, 2, PolicyKind::Random, 10);
        assert_eq!(game.turn(), 10);
        let before = game.outcome();
        let mut player = GamePlayer::new(&rules, PolicyKind::Random);
        let from_copy = player.play_on(&game);
        assert_eq!(game.outcome(), before, "the original is untouched");
        assert_eq!(from_copy, play(&rules, 7, 2, PolicyKind::Random));
    }

    #[test]
    fn without_divergence_records_the_games_and_scores_are_the_same() {
        for name in ["base", "goldmines-hig-2012", "robbers-2012", "cropcircles"] {
            let path = format!("rulesets/{name}.rules");
            let loaded =
                crate::dsl::load_ruleset(Path::new(&path)).unwrap_or_else(|d| panic!("{d}"));
            let rules = compile(&loaded.ruleset);
            for policy in [PolicyKind::Random, PolicyKind::Greedy] {
                let mut kept = GamePlayer::new(&rules, policy);
                let mut skipped = GamePlayer::new(&rules, policy).without_divergence_records();
                for seed in 0..12 {
                    let players = 2 + (seed % 3) as u8;
                    let mut full = kept.play(seed, players);
                    let bare = skipped.play(seed, players);
                    assert!(!full.turn_hashes.is_empty() && !full.choice_marks.is_empty());
                    full.turn_hashes.clear();
                    full.state_hashes.clear();
                    full.leaders.clear();
                    full.choice_marks.clear();
                    assert_eq!(full, bare, "{name} {policy} seed {seed}");
                }
            }
        }
    }

    #[test]
    fn a_game_player_keeps_its_own_records_setting_across_copies() {
        let rules = base();
        let with = play_turns(&rules, 3, 2, PolicyKind::Random, 12);
        let mut without = with.clone();
        without.copy_position_from(&with);
        // a player without records plays a copy of a recorded position without them
        let mut bare = GamePlayer::new(&rules, PolicyKind::Random).without_divergence_records();
        let on = bare.play_on(&with);
        assert!(on.turn_hashes.is_empty() && on.choice_marks.is_empty());
        // a recording player that played on from a copy without records records its next game
        let mut full = GamePlayer::new(&rules, PolicyKind::Random);
        full.play_on(&without);
        let next = full.play(4, 2);
        assert_eq!(next.turn_hashes.len() as u32, next.turns + 2);
        assert_eq!(next, play(&rules, 4, 2, PolicyKind::Random));
    }
}
