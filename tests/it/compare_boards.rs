//! The boards of a report's example games: two per example (one per ruleset of the pair) at the
//! end of the first differing turn, well-formed SVG with a grid, a legend and the gold drawn,
//! linked from report.md and inline in a report.html that needs no other file.

use crate::cli_support;

use std::path::Path;

fn bundled(name: &str) -> String {
    format!("{}/rulesets/{name}.rules", env!("CARGO_MANIFEST_DIR"))
}

/// `compare` HiG vs RGG Gold Mines, greedy, 3 players, 200 games into `out`.
fn gold_run(out: &Path) {
    let o = cli_support::meeplab(&[
        "compare",
        &bundled("goldmines-hig-2012"),
        &bundled("goldmines-rgg"),
        "--games",
        "200",
        "--players",
        "3",
        "--policy",
        "greedy",
        "--out",
        out.to_str().expect("utf-8 path"),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn every_example_has_two_boards_with_grid_legend_and_ingots() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    gold_run(&out);
    let report: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(out.join("report.json")).expect("report.json"),
    )
    .expect("JSON");
    let examples = report["pairs"][0]["examples"].as_array().expect("examples");
    assert!(
        !examples.is_empty(),
        "HiG vs RGG under greedy changes winners"
    );
    let md = std::fs::read_to_string(out.join("report.md")).expect("report.md");
    let mut most_ingots = 0;
    for e in examples {
        let seed = e["seed"].as_u64().expect("seed");
        let turn = e["first_difference_turn"].as_u64().expect("turn");
        for side in ["A", "B"] {
            let name = format!("example-A-B-seed-{seed}-{side}.svg");
            assert!(
                md.contains(&format!(
                    "![board under {side}, seed {seed}, end of turn {turn}]({name})"
                )),
                "report.md links {name}"
            );
            let svg = std::fs::read_to_string(out.join(&name)).expect("board file");
            let doc = roxmltree::Document::parse(&svg).expect("the board is well-formed XML");
            assert_eq!(doc.root_element().tag_name().name(), "svg");
            let texts: Vec<&str> = doc
                .descendants()
                .filter_map(|n| n.text())
                .map(str::trim)
                .collect();
            assert!(texts.contains(&"legend"), "{name} has a legend");
            assert!(texts.contains(&"x→ y↓"), "{name} has the grid's axes");
            assert!(
                texts.contains(&"ingot on the tile"),
                "{name} explains ingots"
            );
            assert!(
                texts
                    .iter()
                    .any(|t| t.contains(&format!("end of turn {turn}"))),
                "{name} says which turn it shows"
            );
            // ingots drawn on tiles: gold rectangles besides the legend's one
            let gold = svg.matches("fill=\"#ffd700\"").count() - 1;
            most_ingots = most_ingots.max(gold);
        }
    }
    assert!(most_ingots > 0, "some example board shows ingots on tiles");
}

#[test]
fn report_html_inlines_the_boards_and_links_no_file() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    gold_run(&out);
    let boards = std::fs::read_dir(&out)
        .expect("out")
        .filter(|e| {
            e.as_ref()
                .is_ok_and(|e| e.file_name().to_string_lossy().starts_with("example-"))
        })
        .count();
    assert!(boards >= 2 && boards % 2 == 0, "{boards} board files");
    let html = std::fs::read_to_string(out.join("report.html")).expect("report.html");
    assert_eq!(
        html.matches("<figure class=\"board\"").count(),
        boards,
        "every board is inline"
    );
    for attr in ["src=\"", "href=\""] {
        for (at, _) in html.match_indices(attr) {
            let value = &html[at + attr.len()..];
            assert!(
                value.starts_with("data:") || value.starts_with('#'),
                "report.html refers to another file: {}",
                &value[..value.len().min(80)]
            );
        }
    }
    assert!(
        !html.contains("example-A-B-seed-"),
        "no board is left as a link"
    );
}
