//! `meeplab trace`: one seed under several rulesets side by side — the shared prefix, the
//! first differing event, each side's events after it, the final results — with the
//! divergence tree as Graphviz DOT (`--dot`) and the boards at the divergence turn (`--svg`).

use crate::cli::common::{io_error, write_atomic};
use meeplab::compare::divergence_tree;
use meeplab::engine::{compile, Event, GameOutcome};
use meeplab::play::play_turns;
use meeplab::policy::spec::SeatPolicies;
use meeplab::render::{board_svg::board_svg_highlighted, narrate};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Ruleset files (two or more); the first is the reference.
    #[arg(required = true, num_args = 2..)]
    pub rulesets: Vec<PathBuf>,
    /// Game seed (the `seed` column of games.csv).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Players per game.
    #[arg(long, default_value_t = 2)]
    pub players: u8,
    /// Player policy: one for every seat, or a comma-separated list with one per seat.
    #[arg(long, default_value = "random", value_parser = crate::cli::args::SeatPolicyParser)]
    pub policy: SeatPolicies,
    /// Events shown after the divergence point, per ruleset.
    #[arg(long, default_value_t = 12)]
    pub after: usize,
    /// Write the divergence tree as Graphviz DOT.
    #[arg(long)]
    pub dot: Option<PathBuf>,
    /// Draw the boards at the divergence turn side by side, as SVG.
    #[arg(long)]
    pub svg: Option<PathBuf>,
    /// Print one JSON object on stdout (rulesets, each pair's first difference with the events
    /// after it, the final results) instead of the text.
    #[arg(long)]
    pub json: bool,
}

/// Events split by turn: index 0 = set-up, t = turn t, last = final scoring.
fn by_turn(events: &[Event]) -> Vec<Vec<&Event>> {
    let mut turns: Vec<Vec<&Event>> = vec![Vec::new()];
    for e in events {
        if let Some(t) = turns.last_mut() {
            t.push(e);
        }
        if matches!(e, Event::TurnEnd { .. } | Event::Start { .. }) {
            turns.push(Vec::new());
        }
    }
    turns
}

pub fn run(args: Args) -> ExitCode {
    let (rules, seats) =
        match crate::cli::common::load_coupled(&args.rulesets, args.players, &args.policy) {
            Ok(x) => x,
            Err(code) => return code,
        };
    let compiled: Vec<_> = rules.iter().map(compile).collect();
    let mut runs: Vec<(GameOutcome, Vec<Event>)> = Vec::new();
    for c in &compiled {
        runs.push(meeplab::play::play_with_events(
            c,
            args.seed,
            args.players,
            seats,
        ));
    }
    let key = meeplab::report::chart::key;
    let reference = &runs[0];
    let mut first_split: Option<u32> = None;
    let mut pairs = Vec::new();
    for (i, run) in runs.iter().enumerate().skip(1) {
        let idx = reference
            .1
            .iter()
            .zip(&run.1)
            .position(|(a, b)| a != b)
            .or_else(|| {
                (reference.1.len() != run.1.len()).then(|| reference.1.len().min(run.1.len()))
            });
        let turn = idx.and_then(|k| reference.1.get(k).or(run.1.get(k)).and_then(|e| e.turn()));
        if idx.is_some() {
            first_split = Some(first_split.map_or(turn.unwrap_or(0), |f| f.min(turn.unwrap_or(0))));
        }
        pairs.push((i, idx, turn));
    }
    if args.json {
        let after = args.after;
        fn sides(events: &[Event], k: usize, after: usize) -> Vec<&Event> {
            events.iter().skip(k).take(after).collect()
        }
        let v = serde_json::json!({
            "seed": args.seed,
            "players": args.players,
            "policy": args.policy.to_string(),
            "rulesets": rules.iter().enumerate().map(|(i, r)| serde_json::json!({
                "key": key(i), "name": r.name, "hash": r.hash, "file": r.file,
            })).collect::<Vec<_>>(),
            "pairs": pairs.iter().map(|&(i, idx, turn)| serde_json::json!({
                "a": key(0),
                "b": key(i),
                "identical": idx.is_none(),
                "identical_events": idx,
                "first_difference_turn": turn,
                "a_after": idx.map(|k| sides(&reference.1, k, after)),
                "b_after": idx.map(|k| sides(&runs[i].1, k, after)),
            })).collect::<Vec<_>>(),
            "results": runs.iter().map(|(o, _)| o).collect::<Vec<_>>(),
        });
        let code = crate::cli::common::print_json(&v);
        if code != ExitCode::SUCCESS {
            return code;
        }
    } else {
        outln!(
            "trace: seed {}, {} players, {} policy",
            args.seed,
            args.players,
            args.policy
        );
        for (i, r) in rules.iter().enumerate() {
            outln!("  {} = {}", key(i), r.name);
        }
        for &(i, idx, turn) in &pairs {
            let label = key(i);
            outln!();
            match idx {
                None => outln!("A and {label}: identical games (no divergence)"),
                Some(k) => {
                    outln!(
                        "A and {label}: identical for {k} events; first difference in turn {}",
                        turn.map_or("?".into(), |t| t.to_string())
                    );
                    for (side, name, r) in [
                        ("A".to_string(), &rules[0], &reference.1),
                        (label.clone(), &rules[i], &runs[i].1),
                    ] {
                        outln!("  {side} ({}):", name.name);
                        for e in r.iter().skip(k).take(args.after) {
                            if let Some(line) = narrate::describe(name, e) {
                                outln!("    {}", line.trim_start());
                            }
                        }
                    }
                }
            }
        }
        outln!();
        for (i, (o, _)) in runs.iter().enumerate() {
            outln!("{} final:", key(i));
            out!("{}", narrate::final_table(o));
        }
    }
    if let Some(path) = &args.dot {
        let input: Vec<(String, Vec<(u64, String)>)> = runs
            .iter()
            .zip(&rules)
            .map(|((o, events), r)| {
                let turns = by_turn(events);
                let seq = o
                    .turn_hashes
                    .iter()
                    .enumerate()
                    .map(|(t, &h)| {
                        let label = turns
                            .get(t)
                            .map(|evs| {
                                evs.iter()
                                    .filter_map(|e| narrate::describe(r, e))
                                    .flat_map(|l| {
                                        l.lines()
                                            .map(|l| without_turn_prefix(l.trim()).to_string())
                                            .collect::<Vec<_>>()
                                    })
                                    .collect::<Vec<_>>()
                                    .join("\n")
                            })
                            .unwrap_or_default();
                        (h, label)
                    })
                    .collect();
                (r.name.clone(), seq)
            })
            .collect();
        let tree = divergence_tree(&input);
        if let Err(e) = write_atomic(path, tree.to_dot(false).as_bytes()) {
            return io_error(path, e);
        }
        if !crate::cli::args::quiet() && !args.json {
            outln!("wrote {}", path.display());
        }
    }
    if let Some(path) = &args.svg {
        let turn = first_split.unwrap_or(runs[0].0.turns);
        let boards: Vec<String> = compiled
            .iter()
            .zip(&rules)
            .map(|(c, r)| {
                // the state at the end of the divergent turn, replayed from the seed
                let g = play_turns(c, args.seed, args.players, seats, turn);
                // outline the tile of the divergent turn
                let mark: Vec<(i32, i32)> = g
                    .placed_tiles()
                    .last()
                    .map(|t| (t.x, t.y))
                    .into_iter()
                    .collect();
                board_svg_highlighted(&g, &format!("{} — after turn {turn}", r.name), &mark)
            })
            .collect();
        let svg = side_by_side(&boards, turn);
        if let Err(e) = write_atomic(path, svg.as_bytes()) {
            return io_error(path, e);
        }
        if !crate::cli::args::quiet() && !args.json {
            outln!("wrote {}", path.display());
        }
    }
    ExitCode::SUCCESS
}

/// A log line without its "Turn 14: " prefix (the tree's box names the turn already).
fn without_turn_prefix(line: &str) -> &str {
    let Some(rest) = line.strip_prefix("Turn ") else {
        return line;
    };
    let rest = rest.trim_start();
    let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    match rest[digits..].strip_prefix(':') {
        Some(after) if digits > 0 => after.trim_start(),
        _ => line,
    }
}

/// Put several standalone SVG boards next to each other in one picture.
fn side_by_side(boards: &[String], turn: u32) -> String {
    fn dim(svg: &str, attr: &str) -> f64 {
        svg.split(&format!("{attr}=\""))
            .nth(1)
            .and_then(|s| s.split('"').next())
            .and_then(|s| s.parse().ok())
            .unwrap_or(600.0)
    }
    let mut x = 0.0;
    let mut h: f64 = 0.0;
    let mut body = String::new();
    for b in boards {
        let w = dim(b, "width");
        h = h.max(dim(b, "height"));
        let inner = b.replacen("<svg ", &format!("<svg x=\"{x}\" y=\"30\" "), 1);
        body.push_str(&inner);
        x += w + 20.0;
    }
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{x}\" height=\"{}\" font-family=\"sans-serif\">\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\
         <text x=\"20\" y=\"20\" font-size=\"16\" fill=\"#b00\">boards at the end of the first divergent turn ({turn}); its tile outlined in red</text>{body}</svg>\n",
        h + 30.0
    )
}
