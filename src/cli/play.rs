//! `meeplab play`: one seeded game, as a readable turn log and final table, or JSON; writes
//! the game record (`--record`) and a picture of the final board (`--svg`).

use crate::cli::common::{check_players, io_error, load, write_atomic};
use meeplab::engine::expansions::gold;
use meeplab::engine::{compile, Category, Counter, Event, GameOutcome, SeatCounter};
use meeplab::policy::spec::SeatPolicies;
use meeplab::record::play_recorded;
use meeplab::render::{board_svg::board_svg, narrate};
use meeplab::ruleset::Ruleset;
use serde_json::json;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Ruleset file (e.g. rulesets/base.rules).
    pub ruleset: PathBuf,
    /// Game seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Number of players.
    #[arg(long, default_value_t = 2)]
    pub players: u8,
    /// Player policy: one for every seat, or a comma-separated list with one per seat.
    #[arg(long, default_value = "random", value_parser = crate::cli::args::SeatPolicyParser)]
    pub policy: SeatPolicies,
    /// Print one JSON object instead of the log.
    #[arg(long)]
    pub json: bool,
    /// Write the game record (for `meeplab replay`) to this file.
    #[arg(long)]
    pub record: Option<PathBuf>,
    /// Draw the final board as SVG to this file.
    #[arg(long)]
    pub svg: Option<PathBuf>,
}

pub fn run(args: Args) -> ExitCode {
    let rules = match load(&args.ruleset) {
        Ok(r) => r,
        Err(code) => return code,
    };
    if let Err(code) = check_players(std::slice::from_ref(&rules), args.players) {
        return code;
    }
    let compiled = compile(&rules);
    let (outcome, events, record) =
        match play_recorded(&compiled, args.seed, args.players, &args.policy) {
            Ok(played) => played,
            Err(e) => {
                eprintln!("error: --policy {}: {e}", args.policy);
                return ExitCode::from(2);
            }
        };
    if let Some(path) = &args.record {
        let text = match serde_json::to_string_pretty(&record) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("error: cannot encode the record: {e}");
                return ExitCode::from(1);
            }
        };
        if let Err(e) = write_atomic(path, text.as_bytes()) {
            return io_error(path, e);
        }
    }
    if let Some(path) = &args.svg {
        // re-create the final position for the picture (the record covers every decision)
        let replayed = meeplab::record::replay(
            &compiled,
            &record,
            meeplab::engine::OnIllegal::Stop,
            meeplab::policy::PolicyKind::Random,
        );
        let title = format!(
            "{} — seed {}, {} players, {} policy",
            rules.name, args.seed, args.players, args.policy
        );
        let svg = board_svg(&replayed.game, &title);
        if let Err(e) = write_atomic(path, svg.as_bytes()) {
            return io_error(path, e);
        }
    }
    if args.json {
        let v = game_json(&rules, &outcome, &events, args.seed, &args.policy);
        outln!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
    } else {
        outln!(
            "{} — seed {}, {} players, {} policy",
            rules.name,
            args.seed,
            args.players,
            args.policy
        );
        out!("{}", narrate::log(&rules, &events));
        outln!();
        out!("{}", narrate::final_table(&outcome));
    }
    ExitCode::SUCCESS
}

/// The `play --json` object (also the base of `replay --json`).
pub fn game_json(
    rules: &Ruleset,
    outcome: &GameOutcome,
    events: &[Event],
    seed: u64,
    policy: &dyn std::fmt::Display,
) -> serde_json::Value {
    let players: Vec<serde_json::Value> = outcome
        .seats
        .iter()
        .enumerate()
        .map(|(p, s)| {
            let mut by = serde_json::Map::new();
            for c in Category::ALL {
                by.insert(c.name().into(), json!(s.by_category.get(c)));
            }
            let mut seat = json!({
                "seat": p,
                "name": meeplab::render::seat_name(p as u8),
                "total": s.total,
                "by_category": by,
                "followers_placed": s.followers_placed,
            });
            // the expansions' per-seat counts, by name
            if let Some(map) = seat.as_object_mut() {
                for c in SeatCounter::all() {
                    map.insert(c.name().to_string(), json!(s.counts.get(c)));
                }
            }
            seat
        })
        .collect();
    let followers_placed: u32 = outcome.seats.iter().map(|s| s.followers_placed).sum();
    // Ingot accounting from the events: every ingot placed is held, was removed unclaimed
    // during play, or was left on the board at the end.
    let gold_tiles = events
        .iter()
        .filter(|e| matches!(e, Event::Placed { tile, .. } if rules.tiles[*tile as usize].marks & meeplab::engine::expansions::gold::GOLD_MARK != 0))
        .count();
    let placed = events
        .iter()
        .filter(|e| e.of(gold::INGOT_PLACED).is_some())
        .count() as u32;
    let removed: u32 = events
        .iter()
        .filter_map(|e| e.of(gold::INGOTS_REMOVED).map(|v| v[3] as u32))
        .sum();
    let held: u32 = outcome
        .seats
        .iter()
        .map(|s| s.counts.get(gold::INGOTS))
        .sum();
    let left = outcome.counters.get(gold::INGOTS_ON_BOARD);
    let removed_in_play = removed.saturating_sub(left);
    let mut v = json!({
        "seed": seed,
        "ruleset": { "name": rules.name, "hash": rules.hash, "file": rules.file },
        "policy": policy.to_string(),
        "player_count": outcome.seats.len(),
        "turns": outcome.turns,
        "tiles_placed": outcome.tiles_placed,
        "tiles_discarded": outcome.tiles_discarded,
        "players": players,
        "gold": {
            "gold_tiles_placed": gold_tiles,
            "ingots_placed": placed,
            "ingots_held": held,
            "ingots_removed_unclaimed": removed_in_play,
            "ingots_left_at_end": left,
            "conserved": held + removed == placed,
        },
        "winners": outcome.winners,
        "lead_changes": outcome.lead_changes,
        "followers_placed": followers_placed,
        "events": events.len(),
    });
    // every expansion's counters, by name (`ingots_on_board`, `robber_placements`, …)
    if let Some(map) = v.as_object_mut() {
        for c in Counter::all() {
            map.insert(c.name().to_string(), json!(outcome.counters.get(c)));
        }
    }
    v
}
