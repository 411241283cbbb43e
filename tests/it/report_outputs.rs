//! The report files: `report.md` structure, charts as valid SVG and PNG naming what they
//! show, the ingot chart only with gold, and the printed summary table.
//!
//! Set `MEEPLAB_KEEP_REPORT=DIR` to keep the generated files for a look.

use crate::compare_support;

use compare_support::*;
use meeplab::compare::session::{run_to_dir, FolderOptions};
use meeplab::compare::CompareSpec;
use meeplab::report::chart::{charts_for, ChartKind};
use meeplab::report::ReportFiles;
use meeplab::report::{summary_table, ChartFormat};
use std::fs;
use std::path::PathBuf;

fn two_rulesets(gold: bool) -> CompareSpec {
    spec(
        vec![
            ruleset(
                "Gold Mines (HiG 2012)",
                "h-hig",
                gold,
                &[
                    ("gold.split", "draft", Some("HiG 2012")),
                    ("gold.pick", "player", Some("HiG 2012")),
                    ("scoring.farm", "per_field", None),
                ],
            ),
            ruleset(
                "Gold Mines (RGG wording)",
                "h-rgg",
                gold,
                &[
                    ("gold.split", "one_per_feature", Some("RGG")),
                    ("gold.pick", "player", Some("HiG 2012")),
                    ("scoring.farm", "per_field", None),
                ],
            ),
        ],
        400,
        4,
    )
}

fn out_dir(tmp: &tempfile::TempDir, name: &str) -> PathBuf {
    match std::env::var_os("MEEPLAB_KEEP_REPORT") {
        Some(d) => PathBuf::from(d).join(name),
        None => tmp.path().join(name),
    }
}

#[test]
fn report_md_has_every_section() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = out_dir(&tmp, "md");
    let opts = FolderOptions {
        dir: dir.clone(),
        ..FolderOptions::default()
    };
    let writer = ReportFiles {
        format: ChartFormat::Svg,
        ..ReportFiles::default()
    };
    let s = two_rulesets(true);
    let out = run_to_dir(&s, player(4, &[1], true), &opts, &writer, &|_| {}).unwrap();
    let md = fs::read_to_string(dir.join("report.md")).unwrap();
    let expected_in_order = [
        "# How often does “Gold Mines (RGG wording)” instead of “Gold Mines (HiG 2012)” change who wins?\n",
        "- **Gold Mines (RGG wording)** instead of **Gold Mines (HiG 2012)**: the winner changes in **",
        "_N = 400 games per ruleset · 4 players · policy `random` · seed 42",
        "## Rulesets\n",
        "| A | Gold Mines (HiG 2012) | `rulesets/Gold Mines (HiG 2012).rules` | `h-hig` | HiG 2012 |",
        "| B | Gold Mines (RGG wording) |",
        "### Options that differ\n",
        "| `gold.split` | draft (HiG 2012) | one_per_feature (RGG) |",
        "## Results\n",
        "### Per pair\n",
        "| A vs B |",
        "### Mean paired score difference per seat\n",
        "| B − A |",
        "### Balance\n",
        "| first-seat advantage |",
        "### Per ruleset\n",
        "## Charts\n",
        "![How often the rule difference changes the winner](winner_changed.svg)",
        "![Share of games still identical, by turn](identical_by_turn.svg)",
        "![Mean paired score difference per seat](score_delta.svg)",
        "![Seat win rates](win_rates.svg)",
        "![Final score distribution (all seats)](scores.svg)",
        "![Gold: mean ingots held at the end, per seat](ingots.svg)",
        "## Method\n",
        "95 % Wilson score interval",
        "95 % Student t interval",
        "## Reproduce\n",
        "```sh\nmeeplab compare 'rulesets/Gold Mines (HiG 2012).rules' 'rulesets/Gold Mines (RGG wording).rules' --games 400 --players 4 --seed 42 --policy random\n```",
        "| tile catalogue | `tiles0` |",
    ];
    let mut from = 0;
    for e in expected_in_order {
        match md[from..].find(e) {
            Some(at) => from += at + e.len(),
            None => panic!("report.md lacks (in order) {e:?}:\n{md}"),
        }
    }
    // Options that agree are not listed as differences.
    assert!(!md.contains("| `gold.pick` |"));
    for chart in charts_for(&out.report) {
        assert!(dir.join(format!("{}.svg", chart.stem())).is_file());
        // the chart draws its title: no heading repeats it (issue 43: every chart was titled
        // twice in report.html)
        let charts = &md[md.find("## Charts\n").expect("a Charts section")..];
        assert!(
            !charts.contains(&format!("### {}\n", chart.title())),
            "{} titled twice",
            chart.stem()
        );
    }
}

#[test]
fn charts_are_valid_svg_and_png_and_name_what_they_show() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = out_dir(&tmp, "charts");
    let opts = FolderOptions {
        dir: dir.clone(),
        ..FolderOptions::default()
    };
    let writer = ReportFiles {
        format: ChartFormat::Both,
        ..ReportFiles::default()
    };
    run_to_dir(
        &two_rulesets(true),
        player(4, &[1], true),
        &opts,
        &writer,
        &|_| {},
    )
    .unwrap();
    let kinds = [
        ChartKind::Scores,
        ChartKind::IdenticalByTurn,
        ChartKind::ScoreDelta,
        ChartKind::WinnerChanged,
        ChartKind::WinRates,
        ChartKind::SeatCount(meeplab::engine::expansions::gold::INGOTS),
    ];
    for kind in kinds {
        let svg = fs::read_to_string(dir.join(format!("{}.svg", kind.stem()))).unwrap();
        assert!(svg.starts_with("<svg"), "{}: not SVG", kind.stem());
        assert!(
            svg.trim_end().ends_with("</svg>"),
            "{}: truncated",
            kind.stem()
        );
        assert_eq!(svg.matches("<svg").count(), svg.matches("</svg>").count());
        assert_eq!(svg.matches("<text").count(), svg.matches("</text>").count());
        for needle in [
            kind.title(),
            "A = Gold Mines (HiG 2012)",
            "B = Gold Mines (RGG wording)",
            "N = 400 games · 4 players · policy random",
        ] {
            assert!(svg.contains(needle), "{}.svg lacks {needle:?}", kind.stem());
        }
        let interval = match kind {
            ChartKind::WinnerChanged | ChartKind::WinRates => "95 % Wilson score interval",
            ChartKind::ScoreDelta | ChartKind::SeatCount(_) => "95 % Student t interval",
            _ => "no intervals",
        };
        assert!(
            svg.contains(interval),
            "{}.svg lacks {interval:?}",
            kind.stem()
        );

        let png = fs::read(dir.join(format!("{}.png", kind.stem()))).unwrap();
        assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "{}.png", kind.stem());
        assert!(png.len() > 10_000, "{}.png suspiciously small", kind.stem());
    }
    // No temporary files are left behind.
    for entry in fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        assert!(!name.starts_with(".tmp-"), "left over: {name}");
    }
}

#[test]
fn no_ingot_chart_without_gold_and_a_readable_table() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = out_dir(&tmp, "nogold");
    let opts = FolderOptions {
        dir: dir.clone(),
        ..FolderOptions::default()
    };
    let writer = ReportFiles {
        format: ChartFormat::Svg,
        ..ReportFiles::default()
    };
    let out = run_to_dir(
        &two_rulesets(false),
        player(4, &[1], false),
        &opts,
        &writer,
        &|_| {},
    )
    .unwrap();
    assert!(!dir.join("ingots.svg").exists());
    assert!(!fs::read_to_string(dir.join("report.md"))
        .unwrap()
        .contains("ingots.svg"));
    let table = summary_table(&out.report);
    for needle in [
        "meeplab compare: 400 games · 4 players · policy random · seed 42",
        "A = Gold Mines (HiG 2012) (h-hig, rulesets/Gold Mines (HiG 2012).rules)",
        "A vs B",
        "B − A",
        "B − A [95 % t]",
        "decided at (share of game)",
        "95 % Wilson score interval (shares), 95 % Student t interval (means)",
    ] {
        assert!(table.contains(needle), "table lacks {needle:?}:\n{table}");
    }
    if std::env::var_os("MEEPLAB_KEEP_REPORT").is_some() {
        println!("{table}");
    }
}
