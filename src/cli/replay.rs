//! `meeplab replay RECORD`: replay a meeplab record (`play --record`) or a JCloisterZone 5.x
//! save (`.jcz`) under the ruleset it was played under, or under `--ruleset R` — then it
//! reports where the game first diverges and how the result changes. `--check` verifies a
//! save's `test.assertions`, `--json` prints the `play --json` object plus scoring events
//! per player and category, `--svg` draws the board at the end (or after `--turn N`).
//!
//! Exit codes: 0 success; 1 unreadable/unsupported/illegal/ambiguous record, failed
//! `--check`, or a comparison left incomplete by a replay stopped at an illegal decision;
//! 2 usage errors.

use crate::cli::common::{io_error, load, write_atomic};
use crate::cli::play::game_json;
use meeplab::dsl::bundled::rulesets_dir;
use meeplab::engine::script::describe;
use meeplab::engine::{compile, Category, Compiled, Event, OnIllegal};
use meeplab::import::assertions::{self, Verdict};
use meeplab::import::jcz::{self, JczGame};
use meeplab::import::replay::{
    first_divergence, replay_jcz, replay_record, Divergence, JczMode, Run,
};
use meeplab::policy::PolicyKind;
use meeplab::record::{GameRecord, Replayed, FORMAT};
use meeplab::render::{board_svg::board_svg, narrate, seat_name};
use meeplab::ruleset::Ruleset;
use serde_json::{json, Value};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The record: a `play --record` file or a JCloisterZone `.jcz` save.
    pub record: PathBuf,
    /// Replay the same tiles and decisions under this ruleset (file or bundled name).
    #[arg(long)]
    pub ruleset: Option<String>,
    /// What to do with a recorded decision that is illegal under `--ruleset` (stop: the
    /// comparison is then incomplete and the exit code 1). For a `.jcz`, `policy` also lets
    /// the policy fill in what the save does not settle (each gap is a warning); otherwise
    /// such a gap is an error naming the message.
    #[arg(long, default_value = "stop", value_parser = crate::cli::args::on_illegal_parser())]
    pub on_illegal: OnIllegal,
    /// Policy for decisions the record does not have (another ruleset asks more).
    #[arg(long, default_value = "random", value_parser = crate::cli::args::PolicyParser)]
    pub policy: PolicyKind,
    /// Print one JSON object instead of the log.
    #[arg(long)]
    pub json: bool,
    /// Check the record's `test.assertions`; exit 1 listing each one that fails.
    #[arg(long)]
    pub check: bool,
    /// Draw the board as SVG to this file.
    #[arg(long)]
    pub svg: Option<PathBuf>,
    /// Stop after this turn (no final scoring): the log, scores and picture at that point.
    #[arg(long)]
    pub turn: Option<u32>,
}

fn on_illegal_name(o: OnIllegal) -> &'static str {
    match o {
        OnIllegal::Stop => "stop",
        OnIllegal::Skip => "skip",
        OnIllegal::Policy => "policy",
    }
}

/// Read the record with the size cap.
fn read_text(path: &Path) -> Result<String, String> {
    let f =
        std::fs::File::open(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut buf = Vec::new();
    f.take(jcz::MAX_BYTES as u64 + 1)
        .read_to_end(&mut buf)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if buf.len() > jcz::MAX_BYTES {
        return Err(format!(
            "{}: larger than {} MiB; refused",
            path.display(),
            jcz::MAX_BYTES >> 20
        ));
    }
    String::from_utf8(buf).map_err(|_| format!("{}: not UTF-8 text", path.display()))
}

/// A replayed game ready for output.
struct Side {
    rules: Ruleset,
    run: Run,
}

/// Everything `replay` found.
struct Outcome {
    format: &'static str,
    app_version: Option<String>,
    names: Vec<String>,
    /// The record under its own ruleset (None when that ruleset is not available).
    original: Option<Side>,
    /// The record under `--ruleset`.
    other: Option<Side>,
    test: Option<jcz::TestSpec>,
    warnings: Vec<String>,
    /// The record reached the end of the pack.
    complete: bool,
}

impl Outcome {
    fn primary(&self) -> &Side {
        match (&self.other, &self.original) {
            (Some(s), _) => s,
            (None, Some(s)) => s,
            (None, None) => unreachable!("checked when built"),
        }
    }
}

fn load_other(args: &Args) -> Result<Option<Ruleset>, ExitCode> {
    match &args.ruleset {
        None => Ok(None),
        Some(r) => load(&meeplab::dsl::locate(r)).map(Some),
    }
}

fn run_own(args: &Args, v: Value) -> Result<Outcome, ExitCode> {
    let record: GameRecord = serde_json::from_value(v).map_err(|e| {
        eprintln!(
            "error: {}: not a valid meeplab record: {e}",
            args.record.display()
        );
        ExitCode::from(1)
    })?;
    let mut warnings = Vec::new();
    let original = match &record.ruleset.file {
        Some(f) if meeplab::dsl::bundled::exists(&meeplab::dsl::locate(f)) => {
            let rules = load(&meeplab::dsl::locate(f))?;
            if rules.hash != record.ruleset.hash {
                warnings.push(format!(
                    "{f} has changed since the game was recorded (hash {} → {})",
                    record.ruleset.hash, rules.hash
                ));
            }
            Some(rules)
        }
        _ => None,
    };
    let other = load_other(args)?;
    if original.is_none() && other.is_none() {
        eprintln!(
            "error: the record's ruleset `{}` ({}) is not available here; name one with --ruleset",
            record.ruleset.name,
            record.ruleset.file.as_deref().unwrap_or("no file")
        );
        return Err(ExitCode::from(1));
    }
    if record.players == 0 || record.players as usize > meeplab::engine::MAX_PLAYERS {
        eprintln!("error: the record has {} players", record.players);
        return Err(ExitCode::from(1));
    }
    let side = |rules: Ruleset, on_illegal| {
        let c = compile(&rules);
        let run = replay_record(&c, &record, on_illegal, args.policy, args.turn);
        Side { rules, run }
    };
    let original = original.map(|r| side(r, OnIllegal::Stop));
    let other = other.map(|r| side(r, args.on_illegal));
    Ok(Outcome {
        format: "meeplab",
        app_version: None,
        names: (0..record.players)
            .map(|p| seat_name(p).to_string())
            .collect(),
        original,
        other,
        test: None,
        warnings,
        complete: record.complete,
    })
}

fn jcz_error(args: &Args, e: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {}: {e}", args.record.display());
    ExitCode::from(1)
}

fn run_jcz(args: &Args, v: Value) -> Result<Outcome, ExitCode> {
    let game: JczGame = jcz::parse(&v).map_err(|e| jcz_error(args, e))?;
    let dir = rulesets_dir();
    let rules = jcz::load_ruleset(&game.setup, &dir).map_err(|e| jcz_error(args, e))?;
    let tr = jcz::translate(&game, &rules).map_err(|e| jcz_error(args, e))?;
    let players = game.players.len() as u8;
    let compiled: Arc<Compiled> = compile(&rules);
    let run = replay_jcz(
        &compiled,
        &tr,
        players,
        args.on_illegal,
        args.policy,
        JczMode::Own,
        args.turn,
    )
    .map_err(|e| jcz_error(args, e))?;
    let mut warnings = game.warnings.clone();
    warnings.extend(run.warnings.iter().cloned());
    let record_over = run.record_over;
    if run.replayed.unrecorded > 0 {
        warnings.push(format!(
            "{} decision(s) the save does not record were taken by the {} policy",
            run.replayed.unrecorded, args.policy
        ));
    }
    let other = match load_other(args)? {
        None => None,
        Some(r) => {
            if (players as usize) < r.min_players as usize
                || players as usize > r.max_players as usize
            {
                warnings.push(format!(
                    "{} is for {}–{} players; replaying {players} anyway",
                    r.name, r.min_players, r.max_players
                ));
            }
            let c = compile(&r);
            let run = replay_jcz(
                &c,
                &tr,
                players,
                args.on_illegal,
                args.policy,
                JczMode::Other { record_over },
                args.turn,
            )
            .map_err(|e| jcz_error(args, e))?;
            warnings.extend(run.warnings.iter().cloned());
            Some(Side { rules: r, run })
        }
    };
    Ok(Outcome {
        format: "jcz",
        app_version: Some(game.app_version.clone()),
        names: game.players.clone(),
        original: Some(Side { rules, run }),
        other,
        test: game.test.clone(),
        warnings,
        complete: record_over,
    })
}

/// What `replay` reads, said when the file is not one: a meeplab record or a .jcz save,
/// and what to do with a ruleset file given in a record's place.
fn not_a_record_hint(path: &Path) -> String {
    let mut hint = String::from(
        "replay reads a game record: a meeplab record (JSON, written by `meeplab play \
         --record FILE`) or a JCloisterZone save (.jcz)",
    );
    let name = path.to_string_lossy();
    if name.ends_with(".rules") || name.ends_with(".tiles") || name.ends_with(".sweep") {
        hint.push_str(
            "; this looks like a rule file: replay a record under it with \
             `meeplab replay RECORD --ruleset FILE`, or play a game with `meeplab play FILE`",
        );
    }
    hint
}

pub fn run(args: Args) -> ExitCode {
    let text = match read_text(&args.record) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    let v = match jcz::parse_json(&text) {
        Ok(v) => v,
        Err(e) => {
            eprintln!(
                "error: {}: {e}\n{}",
                args.record.display(),
                not_a_record_hint(&args.record)
            );
            return ExitCode::from(1);
        }
    };
    let result = if v.get("format").and_then(Value::as_str) == Some(FORMAT) {
        run_own(&args, v)
    } else if jcz::looks_like_jcz(&v) {
        run_jcz(&args, v)
    } else {
        eprintln!(
            "error: {}: neither a meeplab record (format {FORMAT}) nor a JCloisterZone save (setup + replay)\n{}",
            args.record.display(),
            not_a_record_hint(&args.record)
        );
        return ExitCode::from(1);
    };
    let out = match result {
        Ok(o) => o,
        Err(code) => return code,
    };
    for w in out.warnings.iter().filter(|_| !crate::cli::args::quiet()) {
        eprintln!("warning: {w}");
    }
    let verdicts: Option<Vec<Verdict>> = out.test.as_ref().map(|t| {
        let p = out.primary();
        let r = &p.run.replayed;
        let end = if r.finished {
            assertions::EndState::Over
        } else if r.halted || p.run.record_over || args.turn.is_some() {
            assertions::EndState::Unknown
        } else {
            assertions::EndState::BetweenTurns
        };
        assertions::check(&t.assertions, &out.names, &r.outcome, &r.events, end)
    });
    let divergence = match (&out.original, &out.other) {
        (Some(a), Some(b)) => first_divergence(
            &a.rules,
            &a.run.replayed.events,
            &b.rules,
            &b.run.replayed.events,
        ),
        _ => None,
    };
    if let Some(path) = &args.svg {
        let p = out.primary();
        let title = match args.turn {
            Some(t) => format!(
                "{} — {} after turn {t}",
                args.record.display(),
                p.rules.name
            ),
            None => format!("{} — {}", args.record.display(), p.rules.name),
        };
        let svg = board_svg(&p.run.replayed.game, &title);
        if let Err(e) = write_atomic(path, svg.as_bytes()) {
            return io_error(path, e);
        }
    }
    if args.json {
        let v = to_json(&args, &out, verdicts.as_deref(), divergence.as_ref());
        outln!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
    } else {
        print_text(&args, &out, divergence.as_ref());
    }
    if args.check {
        match &verdicts {
            None => eprintln!("check: the record has no test.assertions"),
            Some(vs) => {
                let failed: Vec<&Verdict> = vs.iter().filter(|v| !v.ok && !v.skipped).collect();
                let skipped: Vec<&Verdict> = vs.iter().filter(|v| v.skipped).collect();
                for v in &skipped {
                    eprintln!("  SKIP  {}  ({})", v.assertion, v.detail);
                }
                if failed.is_empty() && skipped.is_empty() {
                    eprintln!("check: all {} assertion(s) hold", vs.len());
                } else if failed.is_empty() {
                    eprintln!(
                        "check: all {} assertion(s) checked hold; {} skipped (listed above)",
                        vs.len() - skipped.len(),
                        skipped.len()
                    );
                } else {
                    eprintln!("check: {} of {} assertion(s) fail:", failed.len(), vs.len());
                    for v in failed {
                        eprintln!("  FAIL  {}  ({})", v.assertion, v.detail);
                    }
                    return ExitCode::from(1);
                }
            }
        }
    }
    if let Some(why) = incomplete_comparison(&out) {
        eprintln!("error: {why}");
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}

/// Why the two replays' results cannot be compared (one stopped at an illegal decision and
/// has no final scoring while the other has), or `None`.
fn incomplete_comparison(out: &Outcome) -> Option<String> {
    let (a, b) = (out.original.as_ref()?, out.other.as_ref()?);
    let (ra, rb) = (&a.run.replayed, &b.run.replayed);
    if !ra.halted && !rb.halted && ra.finished == rb.finished {
        return None;
    }
    let (side, r) = if rb.halted || !rb.finished {
        (b, rb)
    } else {
        (a, ra)
    };
    let turn = r
        .problems
        .last()
        .map_or(String::new(), |p| format!(" in turn {}", p.turn));
    Some(format!(
        "the comparison is incomplete: under {} the replay stopped at an illegal decision{turn} and has no final scoring, so its result is not comparable (--on-illegal skip or policy plays on)",
        side.rules.name
    ))
}

fn state_line(out: &Outcome, side: &Side, turn: Option<u32>) -> String {
    let r = &side.run.replayed;
    if r.finished {
        "final scoring done".into()
    } else if r.halted {
        "stopped at an illegal decision: scores so far, no final scoring".into()
    } else if let Some(t) = turn.filter(|_| r.outcome.turns >= 1) {
        format!("stopped after turn {t} (--turn): scores so far, no final scoring")
    } else if !out.complete {
        format!(
            "game in progress after {} turns (the record stops before the pack is empty): scores so far, no final scoring",
            r.outcome.turns
        )
    } else {
        "no final scoring".into()
    }
}

/// The scores and the winner, or who leads when the replay did not reach final scoring.
fn scores_line(names: &[String], r: &Replayed) -> String {
    let o = &r.outcome;
    let scores: Vec<String> = o
        .seats
        .iter()
        .enumerate()
        .map(|(p, s)| format!("{} {}", name(names, p), s.total))
        .collect();
    let winners: Vec<String> = o.winners.iter().map(|&w| name(names, w as usize)).collect();
    let who = if r.finished {
        "winner"
    } else {
        "leading, not ended"
    };
    format!("{} ({who}: {})", scores.join(", "), winners.join(" + "))
}

fn name(names: &[String], p: usize) -> String {
    names
        .get(p)
        .cloned()
        .unwrap_or_else(|| seat_name(p as u8).to_string())
}

fn print_text(args: &Args, out: &Outcome, div: Option<&Divergence>) {
    let p = out.primary();
    let r = &p.run.replayed;
    let what = match &out.app_version {
        Some(v) => format!("JCloisterZone {v} save"),
        None => "meeplab record".into(),
    };
    outln!("{} ({what}) under {}", args.record.display(), p.rules.name);
    let seats: Vec<String> = out
        .names
        .iter()
        .enumerate()
        .map(|(i, n)| format!("{} = {n}", seat_name(i as u8)))
        .collect();
    outln!("Seats: {}", seats.join(", "));
    out!("{}", narrate::log(&p.rules, &r.events));
    outln!();
    out!("{}", narrate::score_table(&r.outcome, r.finished));
    outln!("State: {}", state_line(out, p, args.turn));
    for n in &p.run.notes {
        outln!("Note: {n}");
    }
    if let (Some(a), Some(b)) = (&out.original, &out.other) {
        outln!();
        outln!("Compared with the record's own ruleset ({}):", a.rules.name);
        match div {
            None => outln!("  no divergence: the same events under both rulesets"),
            Some(d) => {
                let turn = d
                    .turn
                    .map_or("set-up/final".into(), |t| format!("turn {t}"));
                outln!("  first divergence: event {} ({turn})", d.index);
                outln!("    recorded rules: {}", d.a_text);
                outln!("    {}: {}", b.rules.name, d.b_text);
            }
        }
        let (ra, rb) = (&a.run.replayed, &b.run.replayed);
        let (oa, ob) = (&ra.outcome, &rb.outcome);
        outln!("  result, recorded rules: {}", scores_line(&out.names, ra));
        outln!(
            "  result, {}: {}",
            b.rules.name,
            scores_line(&out.names, rb)
        );
        match incomplete_comparison(out) {
            Some(why) => outln!("  winner changed: unknown — {why}"),
            None => outln!(
                "  winner changed: {}",
                if oa.winners != ob.winners {
                    "yes"
                } else {
                    "no"
                }
            ),
        }
        let br = &b.run.replayed;
        for pr in &br.problems {
            outln!(
                "  illegal under {}: turn {}, {} {:?}: {} — {} (--on-illegal {})",
                b.rules.name,
                pr.turn,
                name(&out.names, pr.player as usize),
                pr.kind,
                describe(pr.kind, &pr.recorded),
                pr.why,
                on_illegal_name(args.on_illegal)
            );
        }
        if br.unrecorded > 0 {
            outln!(
                "  {} decision(s) the record lacks were taken by the {} policy",
                br.unrecorded,
                args.policy
            );
        }
        if !b.run.unused.is_empty() {
            outln!(
                "  {} recorded decision(s) were never asked under {}",
                b.run.unused.len(),
                b.rules.name
            );
        }
    }
    if let Some(t) = &out.test {
        if let Some(d) = &t.description {
            outln!();
            outln!("Test: {d}");
        }
    }
}

fn scoring_events(events: &[Event], player: u8) -> Value {
    let list = assertions::scorings(events, player);
    let mut by = serde_json::Map::new();
    for c in Category::ALL {
        let items: Vec<Value> = list
            .iter()
            .filter(|s| s.category == c)
            .map(|s| {
                json!({
                    "turn": s.turn,
                    "final": s.final_scoring,
                    "points": s.points,
                })
            })
            .collect();
        by.insert(c.name().into(), Value::Array(items));
    }
    Value::Object(by)
}

fn side_json(args: &Args, out: &Outcome, side: &Side) -> Value {
    let r = &side.run.replayed;
    let mut v = game_json(&side.rules, &r.outcome, &r.events, 0, &args.policy);
    if let Some(players) = v.get_mut("players").and_then(Value::as_array_mut) {
        for (p, pj) in players.iter_mut().enumerate() {
            if let Some(o) = pj.as_object_mut() {
                o.insert("seat_name".into(), json!(seat_name(p as u8)));
                o.insert("name".into(), json!(name(&out.names, p)));
                o.insert("scoring_events".into(), scoring_events(&r.events, p as u8));
            }
        }
    }
    if let Some(o) = v.as_object_mut() {
        let problems: Vec<Value> = r
            .problems
            .iter()
            .map(|p| {
                json!({
                    "turn": p.turn,
                    "player": p.player,
                    "decision": p.kind,
                    "recorded": describe(p.kind, &p.recorded),
                    "why": p.why,
                })
            })
            .collect();
        o.insert(
            "replay".into(),
            json!({
                "finished": r.finished,
                "halted": r.halted,
                "state": state_line(out, side, args.turn),
                "illegal": problems,
                "unrecorded_decisions": r.unrecorded,
                "unused_decisions": side.run.unused.len(),
                "notes": side.run.notes,
            }),
        );
    }
    v
}

fn to_json(
    args: &Args,
    out: &Outcome,
    verdicts: Option<&[Verdict]>,
    div: Option<&Divergence>,
) -> Value {
    let p = out.primary();
    let mut v = side_json(args, out, p);
    if let Some(o) = v.as_object_mut() {
        o.insert(
            "record".into(),
            json!({
                "file": args.record.display().to_string(),
                "format": out.format,
                "app_version": out.app_version,
                "complete": out.complete,
                "on_illegal": on_illegal_name(args.on_illegal),
                "fallback_policy": args.policy.name(),
            }),
        );
        if let Some(vs) = verdicts {
            o.insert("check".into(), json!(vs));
        }
        if let (Some(a), Some(b)) = (&out.original, &out.other) {
            let (oa, ob) = (&a.run.replayed.outcome, &b.run.replayed.outcome);
            let incomplete = incomplete_comparison(out);
            o.insert(
                "comparison".into(),
                json!({
                    "complete": incomplete.is_none(),
                    "incomplete_why": incomplete,
                    "original": side_json(args, out, a),
                    "first_divergence": div.map(|d| json!({
                        "event_index": d.index,
                        "turn": d.turn,
                        "original": d.a,
                        "replayed": d.b,
                        "original_text": d.a_text,
                        "replayed_text": d.b_text,
                    })),
                    "winner_changed": incomplete.is_none().then(|| oa.winners != ob.winners),
                    "score_delta": oa.seats.iter().zip(&ob.seats)
                        .map(|(x, y)| y.total - x.total).collect::<Vec<_>>(),
                }),
            );
        }
    }
    v
}
