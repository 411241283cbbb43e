//! `plan --until`'s forecast ([`meeplab::compare::forecast`]): it replays the compare's own
//! stopping rule (a run's seeds folded in order stop where the run stopped), and on cases
//! whose answer is known it gives that answer: a huge effect stops at the first look, a null
//! effect with a wide spread reaches the cap.

use crate::verdicts::{game, two};
use meeplab::compare::forecast::{forecast, simulate, SeedPiece, Stop, SIMULATIONS};
use meeplab::compare::verdict::{Until, MIN_LOOK};
use meeplab::compare::{run_compare, CompareSpec};

/// The pieces of every seed `spec` plays (its `--until` included), and the seeds played.
fn pieces(spec: &CompareSpec, shift: i64, spread: i64) -> (Vec<SeedPiece>, u64) {
    let mut out = Vec::new();
    let acc = run_compare(
        spec,
        move |r: usize, seed: u64| game(r, seed, shift, spread),
        &mut |rec| {
            out.push(SeedPiece::of(spec, rec));
            Ok(())
        },
        &|_| {},
    )
    .unwrap();
    (out, acc.games)
}

#[test]
fn the_simulation_stops_where_the_compare_stops() {
    // a run that settles early, one that stops on a width, one that reaches its cap
    for (until, cap, shift, spread) in [
        (Until::Decided, 20_000, 5, 1),
        (Until::parse("0.3pt").unwrap(), 20_000, 1, 6),
        (Until::Decided, 1_000, 0, 20),
    ] {
        let mut s = two(cap);
        s.until = Some(until);
        let (seeds, played) = pieces(&s, shift, spread);
        assert_eq!(seeds.len() as u64, played);
        // the run's own seeds in its own order: the simulation replays the run
        let stop = simulate(&s, &seeds, |i| i as usize);
        assert_eq!(
            stop,
            Stop {
                games: played,
                met: played < cap
            },
            "{until} cap {cap}"
        );
    }
}

#[test]
fn a_huge_effect_stops_at_the_first_look_and_a_null_reaches_the_cap() {
    // a pilot of 500 seeds with a 5-point shift to seat 1: every simulated run is settled at
    // its first look
    let pilot = two(500);
    let (seeds, _) = pieces(&pilot, 5, 1);
    let mut run = two(20_000);
    run.until = Some(Until::Decided);
    let f = forecast(&run, &seeds, 7).expect("a forecast");
    assert_eq!(
        (f.median, f.p90, f.min, f.max),
        (MIN_LOOK, MIN_LOOK, MIN_LOOK, MIN_LOOK)
    );
    assert_eq!(f.reached_cap, 0);
    assert_eq!(
        (f.simulations, f.cap, f.pilot_games),
        (SIMULATIONS, 20_000, 500)
    );
    // no shift, a spread of ±20 points: the win rates cannot be told apart from 0 or
    // declared within ±1 pp in 2,000 seeds, so (almost) every run plays its cap
    let (seeds, _) = pieces(&pilot, 0, 20);
    let mut run = two(2_000);
    run.until = Some(Until::Decided);
    let f = forecast(&run, &seeds, 7).expect("a forecast");
    assert_eq!((f.median, f.p90), (2_000, 2_000), "{f:?}");
    assert!(f.reached_cap_share >= 0.9, "{f:?}");
    // a pure function of the pilot, the spec and the key, whatever the threads
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap()
        .install(|| forecast(&run, &seeds, 7));
    assert_eq!(one.as_ref(), Some(&f));
    // without --until there is nothing to forecast
    assert!(forecast(&two(2_000), &seeds, 7).is_none());
}
