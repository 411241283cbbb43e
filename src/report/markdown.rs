//! `report.md`: a page ready for a rules FAQ. It asks the question, names the rulesets and
//! the sources of their options, gives the summary tables and charts (relative links), the
//! interval types, the method, and the exact command that reproduces it.

use super::boards::{DecisionBoard, ExampleBoards};
use super::chart::{key, ChartFile};
use super::fmt::{
    benefit, decision_rows, decision_skips, detectable, first_difference_split,
    identical_statement, lead_cells, mean_ci, pct, pct_range, placebo_row, rho, rhos, ruleset_row,
    seat_shifts, DECISION_HEADER, PLACEBO_HEADER,
};
use crate::compare::Report;
use crate::engine::SeatCounter;
use std::collections::BTreeSet;
use std::fmt::Write as _;

/// Escapes characters that would break a Markdown table cell.
pub(super) fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

fn quoted_list(names: &[String]) -> String {
    let q: Vec<String> = names.iter().map(|n| format!("“{n}”")).collect();
    match q.len() {
        0 => String::new(),
        1 => q[0].clone(),
        _ => format!("{} and {}", q[..q.len() - 1].join(", "), q[q.len() - 1]),
    }
}

/// The FAQ question for `report`.
pub fn question(report: &Report) -> String {
    let labels = report.labels();
    // Merged and compared runs have at least two rulesets (`CompareSpec::validate`).
    let Some((first, rest)) = labels.split_first().filter(|(_, rest)| !rest.is_empty()) else {
        return "How often do the rulesets change who wins?".to_string();
    };
    if rest.len() == 1 {
        format!(
            "How often does {} instead of “{first}” change who wins?",
            quoted_list(rest)
        )
    } else {
        format!(
            "How often do {} instead of “{first}” change who wins?",
            quoted_list(rest)
        )
    }
}

/// Renders `report.md`; `charts` are the files written next to it.
pub fn render(report: &Report, charts: &[ChartFile]) -> String {
    render_with_boards(report, charts, &[])
}

/// Renders `report.md` with the boards of the example games (files next to it) shown under
/// each example.
pub fn render_with_boards(
    report: &Report,
    charts: &[ChartFile],
    boards: &[ExampleBoards],
) -> String {
    render_with_decisions(report, charts, boards, &[])
}

/// Renders `report.md` with the boards of the example games and of the example positions of
/// the decision probes (files next to it).
pub fn render_with_decisions(
    report: &Report,
    charts: &[ChartFile],
    boards: &[ExampleBoards],
    decision_boards: &[DecisionBoard],
) -> String {
    let labels = report.labels();
    let mut md = String::new();
    let _ = writeln!(md, "# {}\n", question(report));
    for w in &report.warnings {
        let _ = writeln!(md, "> **Warning:** {w}\n");
    }
    // the answer first: the headline paragraph, its chart and the verdicts
    md.push_str(&super::verdicts::markdown(report, charts));
    if !report.headline.is_empty() {
        md.push_str("## Detail\n\n");
    }

    // The short answer, one line per pair: where the pairing has broken, the per-seat
    // shifts lead and the winner-changed share follows with the placebo beside it.
    for p in &report.pairs {
        if p.pairing_broken {
            let _ = writeln!(
                md,
                "- **{}** instead of **{}** shifts each seat's result by: {} ({} paired games; \
                 the games have become nearly independent, score correlation {}, so these \
                 shifts are the rule's effect). The winner changes in {} ({}){}.",
                p.b,
                p.a,
                seat_shifts(p),
                report.games,
                rho(p.outcome_correlation.mean_score),
                pct(p.winner_changed_share),
                pct_range(p.winner_changed_ci),
                p.placebo.as_ref().map_or_else(String::new, |pl| format!(
                    "; with the luck redrawn from the turn the games parted, in {} \
                     across the rulesets against {} within each",
                    pct(pl.rule_luck_winner_changed_share),
                    pct(pl.winner_changed_share)
                )),
            );
            continue;
        }
        let _ = writeln!(
            md,
            "- **{}** instead of **{}**: the winner changes in **{}** of {} paired games \
             ({}: {}); the positions diverge at all in {} (play differs in {}).",
            p.b,
            p.a,
            pct(p.winner_changed_share),
            report.games,
            report.intervals.proportions,
            pct_range(p.winner_changed_ci),
            pct(p.diverged_share),
            pct(p.play_differed_share),
        );
    }
    let _ = writeln!(
        md,
        "\n_N = {} games per ruleset · {} players · policy `{}` · seed {} · intervals: {} for \
         shares, {} for means._\n",
        report.games,
        report.players,
        report.policy,
        report.seed,
        report.intervals.proportions,
        report.intervals.means
    );

    // Rulesets and their sources.
    md.push_str(
        "## Rulesets\n\n| Key | Ruleset | File | Content hash | Sources |\n|---|---|---|---|---|\n",
    );
    for (i, (label, r)) in labels.iter().zip(&report.rulesets).enumerate() {
        let sources = r
            .options
            .values()
            .filter_map(|o| o.source.as_deref())
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect::<Vec<_>>()
            .join(", ");
        let _ = writeln!(
            md,
            "| {} | {} | {} | `{}` | {} |",
            key(i),
            cell(label),
            r.file
                .as_deref()
                .map(|f| format!("`{}`", cell(f)))
                .unwrap_or_else(|| "—".into()),
            r.hash,
            if sources.is_empty() {
                "—".into()
            } else {
                cell(&sources)
            }
        );
    }
    let keys: BTreeSet<&String> = report
        .rulesets
        .iter()
        .flat_map(|r| r.options.keys())
        .collect();
    let differing: Vec<&String> = keys
        .into_iter()
        .filter(|k| {
            let vals: Vec<_> = report.rulesets.iter().map(|r| r.options.get(*k)).collect();
            vals.windows(2)
                .any(|w| w[0].map(|o| &o.value) != w[1].map(|o| &o.value))
        })
        .collect();
    md.push_str("\n### Options that differ\n\n");
    if differing.is_empty() {
        md.push_str("No option value differs between the rulesets.\n");
    } else {
        md.push_str("| Option |");
        for i in 0..labels.len() {
            let _ = write!(md, " {} |", key(i));
        }
        md.push_str("\n|---|");
        md.push_str(&"---|".repeat(labels.len()));
        md.push('\n');
        for k in differing {
            let _ = write!(md, "| `{}` |", cell(k));
            for r in &report.rulesets {
                let v = match r.options.get(k) {
                    Some(o) => match &o.source {
                        Some(s) => format!("{} ({})", o.value, s),
                        None => o.value.clone(),
                    },
                    None => "—".into(),
                };
                let _ = write!(md, " {} |", cell(&v));
            }
            md.push('\n');
        }
    }

    // Results.
    md.push_str("\n## Results\n\n### Per pair\n\n");
    md.push_str("| Pair | Games diverged | First divergent turn (q1 / median / q3) | Play differed | First difference | Winner changed | 95 % Wilson interval |\n|---|---|---|---|---|---|---|\n");
    for p in &report.pairs {
        let turns = p
            .first_divergence_turn
            .map(|q| format!("{} / {} / {}", q.q1, q.median, q.q3))
            .unwrap_or_else(|| "never".to_string());
        let _ = writeln!(
            md,
            "| {} vs {} | {} | {} | {} | {} | {} | {} |",
            key(p.a_index),
            key(p.b_index),
            pct(p.diverged_share),
            turns,
            pct(p.play_differed_share),
            first_difference_split(p),
            pct(p.winner_changed_share),
            pct_range(p.winner_changed_ci)
        );
    }
    md.push_str("\n### Mean paired score difference per seat\n\n");
    md.push_str(
        "Later ruleset minus earlier one, same seed; mean [95 % Student t interval].\n\n| Pair |",
    );
    seat_columns(&mut md, report.players, 1);
    for p in &report.pairs {
        let _ = write!(md, "| {} − {} |", key(p.b_index), key(p.a_index));
        for m in &p.mean_score_delta {
            let _ = write!(md, " {} |", mean_ci(m, true));
        }
        md.push('\n');
    }
    md.push_str("\n### Who benefits\n\n");
    md.push_str(
        "Per seat: the win rate under the later ruleset minus the earlier one (percentage \
         points), Newcombe's 95 % interval for paired proportions, and McNemar's exact test on \
         the games the seat won under one ruleset only.\n\n| Pair |",
    );
    seat_columns(&mut md, report.players, 1);
    for p in &report.pairs {
        let _ = write!(md, "| {} − {} |", key(p.b_index), key(p.a_index));
        for b in &p.who_benefits {
            let _ = write!(
                md,
                " {} ({} won only under {}, {} only under {}) |",
                benefit(b),
                b.won_a_only,
                key(p.a_index),
                b.won_b_only,
                key(p.b_index)
            );
        }
        md.push('\n');
    }
    md.push_str(
        "\nWhen the winner changed: where the seat that gained stood at the end of the turn \
         before the positions diverged.\n\n| Pair | Winner changed (games) | To the leader | To a \
         trailing seat | Tied before |\n|---|---|---|---|---|\n",
    );
    for p in &report.pairs {
        let _ = writeln!(
            md,
            "| {} vs {} | {} |",
            key(p.a_index),
            key(p.b_index),
            lead_cells(p).join(" | ")
        );
    }
    for p in &report.pairs {
        if let Some(line) = identical_statement(p, &report.policy) {
            let _ = writeln!(md, "\n**{line}.**");
        }
    }
    if report.pairs.iter().any(|p| p.placebo.is_some()) {
        md.push_str(
            "\n### The rule against chance alone\n\nThe placebo replays each ruleset against \
             itself: A′ and B′ have the same rules and tiles, the same choices until the turn \
             the pair's play first differed, and from that turn the players' own keyed luck \
             (random moves, tie-breaks, search determinizations) drawn anew. *Luck alone* \
             compares A with A′ and B with B′; *rule + luck* compares A with B′ and A′ with B \
             (each averaged): both redraw the luck from the same turn, so their difference, the \
             *excess*, is what the rule does beyond sending the game another way (paired 95 % \
             Student t interval over seeds). *Winner changed* is the plain pair A vs B, which \
             shares its luck. |Δscore| is per seat; ρ is the correlation of the paired outcomes \
             of A vs B per seat (scores, win indicators).\n\n",
        );
        let header: Vec<String> = PLACEBO_HEADER.iter().map(|h| cell(h)).collect();
        let _ = writeln!(md, "| {} |", header.join(" | "));
        let _ = writeln!(md, "|{}", "---|".repeat(PLACEBO_HEADER.len()));
        for row in report.pairs.iter().filter_map(placebo_row) {
            let row: Vec<String> = row.iter().map(|c| cell(c)).collect();
            let _ = writeln!(md, "| {} |", row.join(" | "));
        }
        md.push('\n');
        for p in &report.pairs {
            if let (Some(v), Some(pl)) = (&p.placebo_verdict, &p.placebo) {
                let _ = writeln!(
                    md,
                    "- {} vs {}: {v}. Placebo games played: {} seeds × 2; placebo outcome \
                     correlation: scores {}, wins {}.",
                    key(p.a_index),
                    key(p.b_index),
                    pl.games_played,
                    rhos(&pl.outcome_correlation.scores),
                    rhos(&pl.outcome_correlation.wins),
                );
            }
        }
    }
    if report.pairs.iter().any(|p| p.decisions.is_some()) {
        decisions_section(&mut md, report, decision_boards);
    }
    md.push_str(if report.stopping.is_some() {
        "\n### What these games could detect\n\nThis run stopped on its data (`--until`), so \
         no power figure for a fixed number of games holds for it. What holds at the seeds it \
         played: per seat, the half-width of the anytime-valid 95 % interval of its win rate \
         and of its score (the confidence sequences it stopped on, before the Holm \
         adjustment), valid had it played on too; an estimate closer to 0 than this is not a \
         difference. `meeplab plan --until` forecasts how many games such a run needs.\n\n"
    } else {
        "\n### What these games could detect\n\nPer seat, the smallest win-rate shift and \
         mean score shift this many paired games detect with 80 % power at two-sided 5 % \
         (Connor 1987 for the paired wins, from the observed share of games the seat won under \
         one ruleset only; the normal approximation for the paired score differences). \
         `meeplab plan` sizes a run for a given effect.\n\n"
    });
    for p in &report.pairs {
        let _ = writeln!(
            md,
            "- {} − {}: {}",
            key(p.b_index),
            key(p.a_index),
            detectable(p)
        );
    }
    if report.pairs.iter().any(|p| !p.examples.is_empty()) {
        md.push_str(
            "\n### Example games\n\nGames whose winner changed, largest swing (points that \
             changed hands) first; replay one side by side with its command.\n",
        );
        for (pi, p) in report.pairs.iter().enumerate() {
            if p.examples.is_empty() {
                continue;
            }
            let _ = writeln!(md, "\n**{} vs {}**\n", key(p.a_index), key(p.b_index));
            for e in &p.examples {
                let g = &e.game;
                let seats = |v: &[u8]| {
                    v.iter()
                        .map(|w| format!("seat {}", w + 1))
                        .collect::<Vec<_>>()
                        .join(" and ")
                };
                let _ = writeln!(
                    md,
                    "- seed {}: play first differs at turn {}, the positions at turn {}; {} {} \
                     (winner {}) → {} {} (winner {}); swing {} points. `{}`",
                    g.seed,
                    g.first_difference_turn
                        .map_or_else(|| "—".to_string(), |t| t.to_string()),
                    g.first_state_divergence_turn
                        .map_or_else(|| "—".to_string(), |t| t.to_string()),
                    key(p.a_index),
                    join_scores(&g.scores_a),
                    seats(&g.winners_a),
                    key(p.b_index),
                    join_scores(&g.scores_b),
                    seats(&g.winners_b),
                    g.swing,
                    e.trace_command
                );
                example_boards(&mut md, boards, pi, g.seed, [p.a_index, p.b_index]);
            }
        }
    }
    md.push_str(&super::balance::markdown_section(report));
    md.push_str(&super::luck::markdown_section(report));
    md.push_str("\n### Per ruleset\n\n");
    let mut head = vec!["Ruleset", "Mean score by seat", "Win rate by seat", "Ties"]
        .into_iter()
        .map(String::from)
        .collect::<Vec<_>>();
    head.extend(SeatCounter::all().map(|c| format!("Mean {} per game", c.name())));
    head.push("Game length (turns)".into());
    head.push("Lead changes in play (before final scoring)".into());
    let _ = writeln!(
        md,
        "| {} |\n|{}",
        head.join(" | "),
        "---|".repeat(head.len())
    );
    for (i, r) in report.per_ruleset.iter().enumerate() {
        let _ = writeln!(md, "| {} |", ruleset_row(i, r, " · ", false).join(" | "));
    }
    if let Some(rows) = super::fmt::counter_rows(&report.per_ruleset) {
        md.push_str("\nThe expansions' counters, mean per game:\n\n");
        let _ = writeln!(md, "| {} |", rows[0].join(" | "));
        let _ = writeln!(md, "|{}", "---|".repeat(rows[0].len()));
        for row in &rows[1..] {
            let _ = writeln!(md, "| {} |", row.join(" | "));
        }
    }

    // Charts: each draws its own title, so no heading repeats it (issue 43).
    md.push_str("\n## Charts\n\n");
    // (the verdicts chart is shown with the headline, at the top)
    for c in charts
        .iter()
        .filter(|c| c.kind != super::chart::ChartKind::Verdicts)
    {
        if let Some(file) = c.files.first() {
            let _ = writeln!(md, "![{}]({})\n", c.kind.title(), file);
        }
    }

    // Method.
    md.push_str("## Method\n\n");
    match &report.stopping {
        None => {
            let _ = writeln!(
                md,
                "- Every seed is played under every ruleset with coupled decks and coupled \
                 decisions, so each seed is one paired observation. The number of games is \
                 fixed in advance ({}); there is no early stopping.",
                report.games
            );
        }
        Some(s) => {
            let _ = writeln!(
                md,
                "- Every seed is played under every ruleset with coupled decks and coupled \
                 decisions, so each seed is one paired observation. The number of games was \
                 not fixed: the run looked at its data after every batch and stopped on `--until \
                 {}` ({} of at most {} seeds); its headline verdicts use anytime-valid \
                 confidence sequences, valid whenever it stopped.",
                s.rule, s.games, s.cap
            );
        }
    }
    md.push_str(
        "- **Divergence**: the first turn at whose end the two games' positions differ (turn 0 \
         is the set-up), compared through an order-independent hash of the board (tiles, \
         followers and the expansions' pieces), the scores, the supply and what the expansions \
         hold per seat. Events that only come in another order reach the same position and do \
         not count. A pair of games whose positions never \
         differ has not diverged.\n\
         - **Play differed**: the two games' event streams differ at all, in kind or only in \
         order. Its **first difference** is a *player's choice* when both games had just asked \
         the same player the same kind of decision (with two options or more) and the answers \
         differ, else a *rule event* (a scoring, an expansion's own step, a decision asked \
         under one ruleset only).\n\
         - **Lead before divergence**: when the winner changed, the seats that gained (winning \
         under the later ruleset only, or its winners when a tie was resolved) are looked up \
         in the scores at the end of the turn before the positions diverged: one of them led \
         alone (to the leader), shared the lead (tied before; always so for a divergence at \
         the set-up) or none led (to a trailing seat).\n\
         - **Winner changed**: the set of winning seats differs (a new tie counts as a change).\n\
         - **Win rate**: share of games a seat is among the winners; ties count for every tied \
         seat.\n",
    );
    let _ = writeln!(
        md,
        "- **Intervals**: shares use the {}; means and paired differences use the {} \
         (mean ± t(0.975, n − 1) · sd / √n). Quartiles are nearest-rank.",
        report.intervals.proportions, report.intervals.means
    );
    md.push_str("- Seat 1 plays first (seat 0 in `report.json` and `games.csv`).\n");

    // Reproduce.
    let r = &report.reproducibility;
    let _ = writeln!(
        md,
        "\n## Reproduce\n\n```sh\n{}\n```\n\nSharded runs (`--shard k/n`) merged with \
         `meeplab merge` give exactly this report.\n\n| Key | Value |\n|---|---|\n\
         | meeplab | {} |\n| engine | {} |\n| tile catalogue | `{}` |\n| ruleset hashes | {} |\n\
         | policy | `{}` |\n| players | {} |\n| seed | {} |\n| games | {} (indices {}..{}) |\n\
         | seed derivation | {} |",
        r.command,
        r.meeplab_version,
        r.engine_version,
        r.tile_catalogue_hash,
        r.ruleset_hashes
            .iter()
            .map(|h| format!("`{h}`"))
            .collect::<Vec<_>>()
            .join(", "),
        r.policy,
        r.players,
        r.seed,
        r.games,
        r.game_indices[0],
        r.game_indices[1],
        r.seed_derivation
    );
    md
}

/// The per-seat columns of a table whose first `leading` cells (`| Pair |`) are written: the
/// seat headers, then the separator line.
pub(super) fn seat_columns(md: &mut String, players: u8, leading: usize) {
    for s in 1..=players {
        let _ = write!(md, " Seat {s} |");
    }
    md.push_str("\n|");
    md.push_str(&"---|".repeat(leading));
    md.push_str(&"---|".repeat(players as usize));
    md.push('\n');
}

/// The boards of example `seed` of pair `pair` (if drawn), as images under its list item.
fn example_boards(
    md: &mut String,
    boards: &[ExampleBoards],
    pair: usize,
    seed: u64,
    sides: [usize; 2],
) {
    let Some(b) = boards.iter().find(|b| b.pair == pair && b.seed == seed) else {
        return;
    };
    md.push('\n');
    for (file, side) in b.files.iter().zip(sides) {
        let _ = writeln!(
            md,
            "  ![board under {}, seed {seed}, end of turn {}]({file})",
            key(side),
            b.turn
        );
    }
    md.push('\n');
}

/// The effect on decisions: what the probes found, by kind and stage, the skips, and the
/// example positions with both choices drawn.
fn decisions_section(md: &mut String, report: &Report, boards: &[DecisionBoard]) {
    md.push_str(
        "\n### The effect on decisions\n\nPositions sampled from the games (position p in \
         game p, spread over the early, middle and late game, hosted by each ruleset in turn) \
         are asked of the policy under each ruleset of the pair. *Decision changed*: the same \
         position, the same key, another choice — every such change is the rule's. *Luck \
         alone*: the same rules with the player's own luck redrawn (A vs A′, B vs B′). \
         *Rule + luck*: A vs B′ and A′ vs B. *Excess* = rule + luck − luck alone, with a \
         paired 95 % Student t interval over positions: the rule's effect on play beyond the \
         player's own luck, meaningful at every skill level. *Value shift*: the policy's own \
         value of its choice, later − earlier ruleset (greedy and heuristic: points; mcts: \
         mean reward).\n\n",
    );
    let header: Vec<String> = DECISION_HEADER.iter().map(|h| cell(h)).collect();
    let _ = writeln!(md, "| {} |", header.join(" | "));
    let _ = writeln!(md, "|{}", "---|".repeat(DECISION_HEADER.len()));
    for p in &report.pairs {
        for row in decision_rows(p) {
            let row: Vec<String> = row.iter().map(|c| cell(c.trim())).collect();
            let _ = writeln!(md, "| {} |", row.join(" | "));
        }
    }
    for p in &report.pairs {
        if let Some(line) = decision_skips(p) {
            let _ = writeln!(md, "\n{line}.");
        }
    }
    for (pi, p) in report.pairs.iter().enumerate() {
        let Some(d) = &p.decisions else {
            continue;
        };
        if d.examples.is_empty() {
            continue;
        }
        let _ = writeln!(
            md,
            "\n**Positions where the rule changed the decision, {} vs {}**\n",
            key(p.a_index),
            key(p.b_index)
        );
        for e in &d.examples {
            let _ = writeln!(
                md,
                "- position {} (seed {}, hosted by {}, turn {}, {} game): {} of seat {} — \
                 under {}: {}; under {}: {}",
                e.position,
                e.seed,
                key(e.host),
                e.turn,
                e.stage.name(),
                e.kind.name(),
                e.player + 1,
                key(p.a_index),
                e.choice_a.phrase(e.kind),
                key(p.b_index),
                e.choice_b.phrase(e.kind),
            );
            if let Some(b) = boards
                .iter()
                .find(|b| b.pair == pi && b.position == e.position)
            {
                let _ = writeln!(
                    md,
                    "\n  ![position {}: the choice under {} and under {}]({})\n",
                    e.position,
                    key(p.a_index),
                    key(p.b_index),
                    b.file
                );
            }
        }
    }
}

/// Final scores by seat: `61–58`.
fn join_scores(scores: &[i64]) -> String {
    scores
        .iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join("–")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::{summarize, Accumulator, CompareSpec};

    #[test]
    fn a_report_without_two_rulesets_still_renders() {
        let spec = CompareSpec {
            rulesets: vec![],
            games: 1,
            players: 2,
            seed: 0,
            policy: "random".into(),
            shard: None,
            threads: None,
            command_line: String::new(),
            engine_version: String::new(),
            tile_catalogue_hash: String::new(),
            placebo: false,
            positions: 0,
            luck: false,
            skill: None,
            negligible: Default::default(),
            until: None,
        };
        let report = summarize(&spec, &Accumulator::new(0, 2));
        assert_eq!(
            question(&report),
            "How often do the rulesets change who wins?"
        );
        assert!(render(&report, &[]).starts_with("# How often do the rulesets"));
    }
}
