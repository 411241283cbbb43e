//! The summary table `meeplab compare` prints: rulesets, per-pair divergence and winner
//! changes, paired score differences per seat, and per-ruleset means. Plain text, no colour.

use super::chart::key;
use super::fmt::{
    align, benefit, broken_pairing_note, decision_rows, decision_skips, detectable,
    first_difference_split, identical_statement, lead_cells, mean_ci, pct, pct_range, placebo_row,
    ruleset_row, DECISION_HEADER, PLACEBO_HEADER, SEQUENTIAL_DETECTABLE,
};
use crate::compare::Report;
use crate::engine::SeatCounter;

/// The printed summary of `report`.
pub fn summary_table(report: &Report) -> String {
    let mut out = format!(
        "meeplab compare: {} games · {} players · policy {} · seed {}\n",
        report.games, report.players, report.policy, report.seed
    );
    for (i, (label, r)) in report.labels().iter().zip(&report.rulesets).enumerate() {
        let file = r
            .file
            .as_deref()
            .map(|f| format!(", {f}"))
            .unwrap_or_default();
        out.push_str(&format!("  {} = {label} ({}{file})\n", key(i), r.hash));
    }

    out.push('\n');
    let mut rows = vec![vec![
        "pair".to_string(),
        "diverged".to_string(),
        "first divergent turn q1/median/q3".to_string(),
        "play differed".to_string(),
        "first difference".to_string(),
        "winner changed".to_string(),
        "95 % Wilson".to_string(),
    ]];
    for p in &report.pairs {
        let turns = p
            .first_divergence_turn
            .map(|q| format!("{}/{}/{}", q.q1, q.median, q.q3))
            .unwrap_or_else(|| "never".to_string());
        rows.push(vec![
            format!("{} vs {}", key(p.a_index), key(p.b_index)),
            pct(p.diverged_share),
            turns,
            pct(p.play_differed_share),
            first_difference_split(p),
            pct(p.winner_changed_share),
            pct_range(p.winner_changed_ci),
        ]);
    }
    out.push_str(&align(&rows));
    out.push_str(
        "diverged: some end-of-turn position differs; play differed: the events differ, \
         perhaps only in order; first difference: a player's choice or a rule event\n",
    );
    for p in &report.pairs {
        if let Some(line) = broken_pairing_note(p) {
            out.push_str(&format!("\n{line}\n"));
        }
    }

    if report.pairs.iter().any(|p| p.placebo.is_some()) {
        out.push_str(
            "\nthe rule against chance alone: A′, B′ replay each ruleset with the players' own \
             luck (and the deal, where the decks differ) redrawn from the turn the pair parted; \
             rule+luck = A vs B′ and A′ vs B, luck \
             alone = A vs A′ and B vs B′; excess = rule+luck − luck alone, paired 95 % t \
             interval over seeds; |Δscore| a seat; ρ of A vs B per seat\n",
        );
        let mut rows = vec![PLACEBO_HEADER.map(String::from).to_vec()];
        rows.extend(
            report
                .pairs
                .iter()
                .filter_map(placebo_row)
                .map(|r| r.to_vec()),
        );
        out.push_str(&align(&rows));
        for p in &report.pairs {
            if let Some(v) = &p.placebo_verdict {
                out.push_str(&format!("{} vs {}: {v}\n", key(p.a_index), key(p.b_index)));
            }
        }
    }

    if report.pairs.iter().any(|p| p.decisions.is_some()) {
        out.push_str(
            "\nthe effect on decisions: sampled positions asked of the policy under each \
             ruleset with the same luck (decision changed), with the luck redrawn on one side \
             (rule+luck) and under the same rules (luck alone); excess = rule+luck − luck alone, \
             paired 95 % t interval; value shift: the policy's value of its choice, later − \
             earlier ruleset\n",
        );
        let mut rows = vec![DECISION_HEADER.map(String::from).to_vec()];
        for p in &report.pairs {
            rows.extend(decision_rows(p));
        }
        out.push_str(&align(&rows));
        for p in &report.pairs {
            if let Some(line) = decision_skips(p) {
                out.push_str(&format!("{line}\n"));
            }
        }
    }

    out.push_str("\nmean paired score difference (later − earlier ruleset), 95 % t interval\n");
    let mut rows = vec![std::iter::once("pair".to_string())
        .chain((1..=report.players).map(|s| format!("seat {s}")))
        .collect::<Vec<_>>()];
    for p in &report.pairs {
        rows.push(
            std::iter::once(format!("{} − {}", key(p.b_index), key(p.a_index)))
                .chain(p.mean_score_delta.iter().map(|m| mean_ci(m, true)))
                .collect(),
        );
    }
    out.push_str(&align(&rows));

    out.push_str(if report.stopping.is_some() {
        SEQUENTIAL_DETECTABLE
    } else {
        "\nthe smallest shifts these games could detect (80 % power, two-sided 5 %; from the \
         observed discordant pairs and the spread of the paired score differences):\n"
    });
    for p in &report.pairs {
        out.push_str(&format!(
            "{} − {}: {}\n",
            key(p.b_index),
            key(p.a_index),
            detectable(p)
        ));
    }

    out.push_str(
        "\nwho benefits: win rate later − earlier ruleset (percentage points), Newcombe 95 % \
         interval, McNemar exact p\n",
    );
    let mut rows = vec![std::iter::once("pair".to_string())
        .chain((1..=report.players).map(|s| format!("seat {s}")))
        .collect::<Vec<_>>()];
    for p in &report.pairs {
        rows.push(
            std::iter::once(format!("{} − {}", key(p.b_index), key(p.a_index)))
                .chain(p.who_benefits.iter().map(benefit))
                .collect(),
        );
    }
    out.push_str(&align(&rows));

    out.push_str(
        "\nwinner changed: where the seat that gained stood at the end of the turn before the \
         positions diverged\n",
    );
    let mut rows = vec![[
        "pair",
        "games",
        "to the leader",
        "to a trailing seat",
        "tied before",
    ]
    .map(String::from)
    .to_vec()];
    for p in &report.pairs {
        rows.push(
            std::iter::once(format!("{} vs {}", key(p.a_index), key(p.b_index)))
                .chain(lead_cells(p))
                .collect(),
        );
    }
    out.push_str(&align(&rows));
    for p in &report.pairs {
        if let Some(line) = identical_statement(p, &report.policy) {
            out.push_str(&format!("\n{line}\n"));
        }
    }

    out.push_str(&super::balance::table_section(report));
    out.push_str(&super::luck::table_section(report));

    out.push('\n');
    let mut rows = vec![vec![
        "ruleset".to_string(),
        "mean score by seat".to_string(),
        "win rate by seat".to_string(),
        "ties".to_string(),
    ]];
    rows[0].extend(SeatCounter::all().map(|c| format!("{} per game", c.name())));
    rows[0].push("turns".to_string());
    rows[0].push("lead changes in play".to_string());
    for (i, r) in report.per_ruleset.iter().enumerate() {
        rows.push(ruleset_row(i, r, " ", true));
    }
    out.push_str(&align(&rows));
    if let Some(rows) = super::fmt::counter_rows(&report.per_ruleset) {
        out.push_str("\nexpansion counters, mean per game:\n");
        out.push_str(&align(&rows));
    }
    out.push_str(&format!(
        "\nintervals: {} (shares), {} (means); seat 1 plays first\n",
        report.intervals.proportions, report.intervals.means
    ));
    out
}
