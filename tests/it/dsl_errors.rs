//! One test per diagnostic kind: the stable code and the span it points at (byte range,
//! line, column) — not the rendered text, except in the few snapshot tests at the end.

use meeplab::dsl::{
    load_ruleset, load_ruleset_str, load_ruleset_str_isolated, Diagnostic, Diagnostics,
};
use std::path::Path;

/// A small valid ruleset the error cases append to.
const OK: &str = "ruleset \"t\"\ntile A { edges FFFF field NL NR EL ER SL SR WL WR }\ntileset s { A x2 }\ndeck { s x1 }\nstart A\n";

fn errs(text: &str) -> Diagnostics {
    match load_ruleset_str_isolated("t.rules", text) {
        Ok(l) => panic!("expected errors, got a ruleset (warnings {:?})", l.warnings),
        Err(d) => d,
    }
}

/// The only diagnostic has `code` and spans the last occurrence of `needle`.
#[track_caller]
fn one(text: &str, code: &str, needle: &str) -> Diagnostic {
    let d = errs(text);
    assert_eq!(d.codes(), vec![code], "{d}");
    let at = text.rfind(needle).expect("needle in text");
    let item = d.items()[0].clone();
    assert_eq!(item.span, at..at + needle.len(), "{d}");
    let line = text[..at].matches('\n').count() + 1;
    assert_eq!(item.line, line, "{d}");
    item
}

fn with(extra: &str) -> String {
    format!("{OK}{extra}")
}

#[test]
fn valid_base_text_has_no_errors() {
    assert!(load_ruleset_str_isolated("t.rules", OK).is_ok());
}

// ---- syntax (E01xx) ----

#[test]
fn e0101_unexpected_token() {
    let d = one(&with("followers = 7 ?\n"), "E0101", "?");
    assert_eq!(d.col, 15);
}

#[test]
fn e0101_recovers_at_the_next_item_without_cascades() {
    let text = with("players = 2..5 @@@ junk junk\nfollowers = 7\ntile B { edges FFFF bogus prop here }\nunknown.key = 3\n");
    let d = errs(&text);
    assert_eq!(d.codes(), vec!["E0101", "E0101", "E0201"], "{d}");
}

#[test]
fn e0101_unknown_tile_property() {
    let d = one(
        &with("tile B { edges FFFF cloistre }\n"),
        "E0101",
        "cloistre",
    );
    assert!(d.help.unwrap().starts_with("valid properties: cloister"));
}

/// A tile mark written as a keyword and its argument (`crop city`, declared by the crop
/// circles' module): an unknown or missing argument, and a second mark of the keyword.
#[test]
fn e0101_and_e0409_a_keyword_mark_and_its_argument() {
    let d = one(&with("tile B { edges FFFF crop cty }\n"), "E0101", "cty");
    assert_eq!(d.message, "unknown crop-circle kind `cty`");
    assert_eq!(
        d.help.as_deref(),
        Some("expected one of: city, road, field")
    );
    let d = errs(&with("tile B { edges FFFF crop }\n"));
    assert_eq!(d.codes(), vec!["E0101"], "{d}");
    assert_eq!(
        d.items()[0].message,
        "expected the crop-circle kind: city, road or field, found `}`"
    );
    let text = with("tile B { edges FFFF field NL NR EL ER SL SR WL WR crop city crop road }\n");
    let d = one(&text, "E0409", "crop road");
    assert_eq!(d.message, "`crop` given twice in tile `B`");
}

#[test]
fn e0102_unterminated_string() {
    one(&with("ruleset \"oops\n"), "E0102", "\"oops");
}

#[test]
fn e0103_unterminated_block() {
    one(
        &with("tile B { edges FFFF\n  field NL NR EL ER SL SR WL WR\n"),
        "E0103",
        "{",
    );
}

#[test]
fn e0103_unclosed_block_before_next_item() {
    let text = with("gold {\n  ingots = 2\ntile B { edges FFFF field NL NR EL ER SL SR WL WR }\n");
    let d = errs(&text);
    assert_eq!(d.codes(), vec!["E0103"], "{d}");
    let at = text.find("gold {").unwrap() + 5;
    assert_eq!(d.items()[0].span, at..at + 1);
}

#[test]
fn e0104_bad_escape() {
    one(&with("ruleset \"a\\qb\"\n"), "E0104", "\\q");
}

#[test]
fn e0105_number_literal_out_of_range() {
    one(
        &with("followers = 123456789012345678901234567890\n"),
        "E0105",
        "123456789012345678901234567890",
    );
}

#[test]
fn e0106_not_utf8() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("latin1.rules");
    std::fs::write(&p, b"ruleset \"caf\xe9\"\n").unwrap();
    let d = load_ruleset(&p).unwrap_err();
    assert_eq!(d.codes(), vec!["E0106"]);
    assert_eq!(d.items()[0].span, 12..13);
    assert_eq!((d.items()[0].line, d.items()[0].col), (1, 13));
}

#[test]
fn e0107_binary_file() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("x.rules");
    std::fs::write(&p, [0x7f, b'E', b'L', b'F', 0, 0, 1, 2]).unwrap();
    assert_eq!(load_ruleset(&p).unwrap_err().codes(), vec!["E0107"]);
    assert_eq!(errs("ruleset \"a\"\0").codes(), vec!["E0107"]);
}

#[test]
fn e0108_ten_megabyte_file() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("big.rules");
    std::fs::write(&p, "# padding\n".repeat(1_048_576)).unwrap();
    let t = std::time::Instant::now();
    assert_eq!(load_ruleset(&p).unwrap_err().codes(), vec!["E0108"]);
    assert!(t.elapsed().as_secs() < 5);
}

#[test]
fn e0110_deep_nesting() {
    let text = with(&format!(
        "followers = {}7{}\n",
        "(".repeat(500),
        ")".repeat(500)
    ));
    assert_eq!(errs(&text).codes(), vec!["E0110"]);
}

#[test]
fn e0110_deeply_nested_blocks() {
    let text = with(&format!(
        "{}x = 1{}\n",
        "a { ".repeat(100_000),
        " }".repeat(100_000)
    ));
    assert_eq!(errs(&text).codes(), vec!["E0110"]);
}

#[test]
fn e0108_large_in_memory_text() {
    let text = with(&"#\n".repeat(600_000));
    assert_eq!(errs(&text).codes(), vec!["E0108"]);
}

#[test]
fn e0111_too_many_errors_stops() {
    let text = with(&"? \n".repeat(500));
    let d = errs(&text);
    assert!(d.items().len() <= 52);
    assert_eq!(d.codes().last(), Some(&"E0111"));
}

#[test]
fn e0105_formula_literal_beyond_a_billion() {
    let d = one(
        &with("score.road.complete = tiles * 1000000001\n"),
        "E0105",
        "1000000001",
    );
    assert!(d.help.unwrap().contains("-1000000000..=1000000000"));
    one(
        &with("gold.value = table(ingots) { 1..3: -2000000000 }\n"),
        "E0105",
        "-2000000000",
    );
    // the reproducers that reached i64::MIN / -1 through literals
    one(
        &with("score.road.complete = (0 - 9223372036854775807 - 1 + tiles - tiles) / (0 - 1)\n"),
        "E0105",
        "9223372036854775807",
    );
    assert!(
        load_ruleset_str_isolated("t", &with("score.road.complete = -1000000000 * tiles\n"))
            .is_ok()
    );
}

#[test]
fn e0112_expression_too_long() {
    // 257 operands: the span is the whole expression
    let long = format!("tiles{}", " + 1".repeat(256));
    let d = one(
        &with(&format!("score.road.complete = {long}\n")),
        "E0112",
        &long,
    );
    assert!(d.help.unwrap().contains("at most 256 operands"));
    // 256 are fine
    let ok = format!("tiles{}", " + 1".repeat(255));
    assert!(
        load_ruleset_str_isolated("t", &with(&format!("score.road.complete = {ok}\n"))).is_ok()
    );
    // ~30,000 terms inside a block (the stack-overflow reproducer): one error, and the
    // items after the block are still checked
    let long = format!("tiles{}", " + 1".repeat(30_000));
    let text = with(&format!(
        "score {{ road.complete = {long} }}\nfollowrs = 7\n"
    ));
    let d = errs(&text);
    assert_eq!(d.codes(), vec!["E0112", "E0201"], "{d}");
    let at = text.find(&long).unwrap();
    assert_eq!(d.items()[0].span, at..at + long.len());
    // and spread over lines, operands in calls and parentheses count too
    let text = with(&format!(
        "score.road.complete = max(tiles,\n (1{}))\nfollowrs = 7\n",
        " *\n 1".repeat(5_000)
    ));
    assert_eq!(errs(&text).codes(), vec!["E0112", "E0201"]);
}

#[test]
fn e0111_too_many_errors_in_one_load() {
    // 150,000 unknown tiles on one 900 KB line: each diagnostic copies its line, so all of
    // them would need over 100 GB; 200 are kept and the rest counted
    let text = with(&format!("tileset t {{ {} }}\n", "X x1, ".repeat(150_000)));
    let d = errs(&text);
    let codes = d.codes();
    assert_eq!(codes.len(), 201);
    assert!(codes[..200].iter().all(|c| *c == "E0501"));
    let last = &d.items()[200];
    assert_eq!((last.code, last.file.as_str()), ("E0111", "t.rules"));
    assert!(last.message.contains("149800 more"), "{}", last.message);
}

// ---- options (E02xx) ----

#[test]
fn e0201_unknown_key_suggests_closest() {
    let d = one(&with("gold { splt = draft }\n"), "E0201", "splt");
    assert!(d
        .help
        .unwrap()
        .starts_with("valid keys, closest first: `gold.split`"));
}

#[test]
fn e0202_type_mismatch() {
    one(&with("followers = \"seven\"\n"), "E0202", "\"seven\"");
    one(&with("players = 2..\n"), "E0202", "2..");
    one(&with("robbers.active_may_move = 1\n"), "E0202", "1");
}

#[test]
fn e0203_unknown_choice() {
    let d = one(&with("unplaceable = discrad\n"), "E0203", "discrad");
    assert!(d.help.unwrap().contains("discard"));
    one(
        &with("gold.split = draft(pick: nobody)\n"),
        "E0203",
        "nobody",
    );
}

#[test]
fn e0204_out_of_range() {
    one(&with("followers = 0\n"), "E0204", "0");
    one(&with("players = 5..2\n"), "E0204", "5..2");
    one(&with("players = 2..9\n"), "E0204", "2..9");
    one(&with("hand = 5\n"), "E0204", "5");
    one(&with("hand = 0\n"), "E0204", "0");
}

/// The hand-of-tiles house rule: 1..=4, and a warning when the deal would empty the pack.
#[test]
fn hand_sizes_and_a_deal_that_empties_the_pack() {
    let l = load_ruleset_str_isolated("t.rules", &with("hand = 4\n")).expect("valid");
    assert_eq!(l.ruleset.hand, 4);
    // 2 tiles, the start one of them: a deal of 3 per player empties the pack
    assert_eq!(l.warnings.len(), 1, "{:?}", l.warnings);
    assert_eq!(l.warnings[0].code, "W0102");
    let text = with("hand = 4\n");
    let at = text.rfind("hand").unwrap();
    assert_eq!(l.warnings[0].span, at..at + 4, "the option's key");
    let l = load_ruleset_str_isolated("t.rules", OK).expect("valid");
    assert_eq!(l.ruleset.hand, 1);
    assert!(l.warnings.is_empty());
}

#[test]
fn e0205_set_twice() {
    let text = with("followers = 6\nfollowers = 8\n");
    let d = errs(&text);
    assert_eq!(d.codes(), vec!["E0205"]);
    let at = text.rfind("followers").unwrap();
    assert_eq!(d.items()[0].span, at..at + 9);
}

#[test]
fn e0206_unknown_variable() {
    one(
        &with("score.road.complete = 2 * pennants\n"),
        "E0206",
        "pennants",
    );
}

#[test]
fn e0207_bad_table() {
    one(
        &with("gold.value = table(ingots) { 1..5: 1, 3..6: 2 }\n"),
        "E0207",
        "3..6: 2",
    );
}

#[test]
fn e0208_bad_call() {
    one(
        &with("robbers.share = floor(points / 2)\n"),
        "E0208",
        "floor",
    );
    one(&with("gold.split = draft(pik: player)\n"), "E0208", "pik");
    one(&with("robbers.share = ceil(points)\n"), "E0208", "points");
}

// ---- files (E03xx) ----

#[test]
fn e0301_missing_include() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("a.rules");
    let text = with("include \"nope.tiles\"\n");
    std::fs::write(&p, &text).unwrap();
    let d = load_ruleset(&p).unwrap_err();
    assert_eq!(d.codes(), vec!["E0301"]);
    let at = text.find("include").unwrap();
    assert_eq!(d.items()[0].span, at..at + "include \"nope.tiles\"".len());
    assert!(d.items()[0].message.contains("nope.tiles"));
}

#[test]
fn e0301_missing_top_file() {
    let d = load_ruleset(Path::new("/nonexistent/x.rules")).unwrap_err();
    assert_eq!(d.codes(), vec!["E0301"]);
}

#[test]
fn e0302_extends_cycle() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("a.rules"),
        "ruleset \"a\"\nextends \"b.rules\"\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("b.rules"),
        "ruleset \"b\"\nextends \"a.rules\"\n",
    )
    .unwrap();
    let d = load_ruleset(&dir.path().join("a.rules")).unwrap_err();
    assert_eq!(d.codes(), vec!["E0302"], "{d}");
    assert!(d.items()[0].file.ends_with("b.rules"));
    assert_eq!(d.items()[0].line, 2);
}

#[test]
fn e0302_include_cycle() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.rules"), with("include \"x.tiles\"\n")).unwrap();
    std::fs::write(dir.path().join("x.tiles"), "include \"x.tiles\"\n").unwrap();
    let d = load_ruleset(&dir.path().join("a.rules")).unwrap_err();
    assert_eq!(d.codes(), vec!["E0302"], "{d}");
}

#[test]
fn e0303_ruleset_in_included_file_and_double_extends() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.rules"), with("include \"x.tiles\"\n")).unwrap();
    std::fs::write(dir.path().join("x.tiles"), "ruleset \"x\"\n").unwrap();
    let d = load_ruleset(&dir.path().join("a.rules")).unwrap_err();
    assert_eq!(d.codes(), vec!["E0303"], "{d}");
    assert_eq!(d.items()[0].span, 0..11);
}

#[test]
fn e0304_no_file_access() {
    one(
        &with("include \"x.tiles\"\n"),
        "E0304",
        "include \"x.tiles\"",
    );
}

#[test]
fn in_memory_text_resolves_relative_to_the_current_directory() {
    let l = load_ruleset_str(
        "mem",
        "ruleset \"m\"\nextends \"rulesets/base.rules\"\nfollowers = 8\n",
    )
    .unwrap();
    assert_eq!(l.ruleset.followers, 8);
    assert_eq!(l.ruleset.total_tiles(), 72);
}

// ---- tiles (E04xx) ----

#[test]
fn e0401_duplicate_tile_id() {
    let text = with("tile A { edges FFFF field NL NR EL ER SL SR WL WR }\n");
    let d = errs(&text);
    assert_eq!(d.codes(), vec!["E0401"]);
    let at = text.rfind("tile A").unwrap() + 5;
    assert_eq!(d.items()[0].span, at..at + 1);
    assert!(d.items()[0].notes[0].starts_with("first defined at t.rules:2:6"));
}

#[test]
fn e0402_edge_without_feature() {
    one(
        &with("tile B { edges CFFF field EL ER SL SR WL WR }\n"),
        "E0402",
        "B",
    );
    one(
        &with("tile B { edges FFFF field NL NR EL ER SL SR WL }\n"),
        "E0402",
        "B",
    );
}

#[test]
fn e0403_edge_claimed_twice() {
    one(
        &with("tile B { edges CFFF city N city N field EL ER SL SR WL WR }\n"),
        "E0403",
        "city N",
    );
    one(
        &with("tile B { edges FFFF field NL NR EL ER field SL SR WL WR NL }\n"),
        "E0403",
        "field SL SR WL WR NL",
    );
}

#[test]
fn e0404_feature_on_wrong_edge_kind() {
    one(
        &with("tile B { edges FFFF road N field NL NR EL ER SL SR WL WR }\n"),
        "E0404",
        "road N",
    );
    one(
        &with("tile B { edges CFFF city N field NL NR EL ER SL SR WL WR }\n"),
        "E0404",
        "field NL NR EL ER SL SR WL WR",
    );
}

#[test]
fn e0405_through_road_must_split_fields() {
    one(
        &with("tile B { edges FRFR road W E field WR NL NR EL ER field SL SR WL }\n"),
        "E0405",
        "road W E",
    );
}

#[test]
fn e0406_field_links_a_city_of_the_same_tile() {
    one(
        &with("tile B { edges CFFF city N field EL ER SL SR WL WR -> S }\n"),
        "E0406",
        "S",
    );
}

#[test]
fn crossing_features_are_expressible() {
    let text = with("tile X { edges RCRC city W E road N S field NL -> E field NR -> W field SL -> E field SR -> E }\n");
    assert!(load_ruleset_str_isolated("t", &text).is_ok());
    let text = with(
        "tile Y { edges RRRR road N S road W E field WR NL field NR EL field ER SL field SR WL }\n",
    );
    assert!(load_ruleset_str_isolated("t", &text).is_ok());
}

#[test]
fn e0407_bad_edges() {
    one(
        &with("tile B { edges FFXF field NL NR EL ER SL SR WL WR }\n"),
        "E0407",
        "FFXF",
    );
}

#[test]
fn e0408_missing_edges() {
    one(&with("tile B { field NL }\n"), "E0408", "B");
}

#[test]
fn e0409_property_twice() {
    one(
        &with("tile B { edges FFFF edges FFFF field NL NR EL ER SL SR WL WR }\n"),
        "E0409",
        "FFFF",
    );
}

// ---- deck (E05xx) ----

#[test]
fn e0501_unknown_tile() {
    let d = one(&with("tileset t { AA x1 }\n"), "E0501", "AA");
    assert!(d.help.unwrap().contains("A"));
    one(&OK.replace("start A", "start Z"), "E0501", "Z");
}

#[test]
fn e0502_unknown_tile_set() {
    one(
        &OK.replace("deck { s x1 }", "deck { ss x1 }"),
        "E0502",
        "ss",
    );
}

#[test]
fn e0503_counts_positive() {
    one(&OK.replace("A x2", "A x0"), "E0503", "0");
    one(&OK.replace("s x1", "s x-1"), "E0503", "-1");
}

#[test]
fn e0504_start_not_in_deck() {
    let text =
        with("tile B { edges FFFF field NL NR EL ER SL SR WL WR }\n").replace("start A", "start B");
    let d = errs(&text);
    assert_eq!(d.codes(), vec!["E0504"]);
    let at = text.find("start B").unwrap() + 6;
    assert_eq!(d.items()[0].span, at..at + 1);
}

#[test]
fn e0505_empty_deck_and_no_start() {
    let d = errs("ruleset \"t\"\n");
    assert_eq!(d.codes(), vec!["E0505", "E0505"]);
}

#[test]
fn e0506_duplicate_tile_set() {
    let text = with("tileset s { A x1 }\n");
    let d = errs(&text);
    assert_eq!(d.codes(), vec!["E0506"]);
    let at = text.rfind("s { A").unwrap();
    assert_eq!(d.items()[0].span, at..at + 1);
}

#[test]
fn e0507_too_many_copies() {
    let d = errs(&OK.replace("s x1", "s x40000"));
    assert_eq!(d.codes(), vec!["E0507"]);
    assert_eq!((d.items()[0].line, d.items()[0].col), (2, 6));
}

#[test]
fn e0508_tile_twice_in_a_set() {
    let text = OK.replace("A x2", "A x2, A x1");
    let d = errs(&text);
    assert_eq!(d.codes(), vec!["E0508"]);
}

#[test]
fn e0509_deck_too_large() {
    // 2 tiles × 501 = 1002 > 1000: the error points at the deck item
    let d = one(&OK.replace("s x1", "s x501"), "E0509", "s x501");
    assert!(d.help.unwrap().contains("at most 1000 tiles"));
    // exactly 1000 (start tile included) is fine
    let rs = load_ruleset_str_isolated("t", &OK.replace("s x1", "s x500"))
        .unwrap()
        .ruleset;
    assert_eq!(rs.total_tiles(), 1000);
    // across items: the one that goes over is blamed
    let text = OK.replace("deck { s x1 }", "deck { s x400 }\ndeck += { s x50, s x60 }");
    one(&text, "E0509", "s x60");
    // the reproducer: the base game ×400 (28,800 tiles)
    let text = "ruleset \"b\"\nextends \"rulesets/base.rules\"\ndeck { base x400 }\n";
    let d = load_ruleset_str("b.rules", text).unwrap_err();
    assert_eq!(d.codes(), vec!["E0509"], "{d}");
    let at = text.find("base x400").unwrap();
    assert_eq!(d.items()[0].span, at..at + "base x400".len());
    assert!(d.items()[0].message.contains("28800"), "{d}");
}

#[test]
fn e0509_long_decks_are_linear() {
    // a 5,000-tile set named 20,000 times in the deck, and once with every tile in `only`:
    // once quadratic or worse (minutes), now one error at the first item
    let k = 5_000;
    let tiles: String = (0..k)
        .map(|i| format!("tile T{i} {{ edges FFFF field NL NR EL ER SL SR WL WR }}\n"))
        .collect();
    let set: Vec<String> = (0..k).map(|i| format!("T{i}")).collect();
    let head = format!(
        "ruleset \"t\"\n{tiles}tileset t {{ {} }}\nstart T0\n",
        set.join(", ")
    );
    let text = format!("{head}deck {{ {} }}\n", "t x1, ".repeat(20_000));
    let d = errs(&text);
    assert_eq!(d.codes(), vec!["E0509"]);
    let at = text.find("t x1").unwrap();
    assert_eq!(d.items()[0].span, at..at + 4);
    let text = format!("{head}deck {{ t only [{}] }}\n", set.join(", "));
    assert_eq!(errs(&text).codes(), vec!["E0509"]);
}

// ---- ruleset (E06xx, W01xx) ----

#[test]
fn e0602_missing_name() {
    let d = errs(&OK.replace("ruleset \"t\"\n", ""));
    assert_eq!(d.codes(), vec!["E0602"]);
}

#[test]
fn w0101_expansion_options_without_its_tiles() {
    let text = with("gold.split = draft(pick: player)\n");
    let l = load_ruleset_str_isolated("t", &text).unwrap();
    assert_eq!(l.warnings.len(), 1);
    assert_eq!(l.warnings[0].code, "W0101");
    assert!(meeplab::engine::expansions::gold::GoldRules::of(&l.ruleset).is_none());
}

/// An expansion declared in its own module is in play when one of its options is set (its
/// defaults then fill the rest); an option that acts only with another area warns without it.
#[test]
fn w0103_an_option_needing_an_area_not_in_play() {
    let text = with("castles.gold = vicinity\n");
    let l = load_ruleset_str_isolated("t", &text).unwrap();
    assert_eq!(l.warnings.len(), 1, "{:?}", l.warnings);
    assert_eq!(l.warnings[0].code, "W0103");
    // castles are in play all the same, with their defaults
    assert!(l.ruleset.ext_in_play("castles."));
    assert_eq!(l.ruleset.ext_int("castles.supply"), Some(3));
    // out of range and unknown values are errors of the castle options as of any other
    let d = load_ruleset_str_isolated("t", &with("castles.supply = 13\n")).unwrap_err();
    assert_eq!(d.codes(), vec!["E0204"], "{d}");
    let d = load_ruleset_str_isolated("t", &with("castles.gold = sometimes\n")).unwrap_err();
    assert_eq!(d.codes().len(), 1, "{d}");
}

#[test]
fn all_problems_at_once_across_files() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("x.tiles"),
        "tile Q { edges QQQQ }\ntileset q { Q x1 }\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("a.rules"),
        with("include \"x.tiles\"\nfollowrs = 7\n"),
    )
    .unwrap();
    let d = load_ruleset(&dir.path().join("a.rules")).unwrap_err();
    // the broken tile is reported once; the tile set naming it does not cascade
    assert_eq!(d.codes(), vec!["E0407", "E0201"], "{d}");
}

// ---- rendered snapshots ----

#[test]
fn snapshot_unknown_key() {
    let d = errs(&with("gold {\n  splt = draft\n}\n"));
    let expected = "error[E0201]: unknown option `gold.splt`
 --> t.rules:7:3
  |
7 |   splt = draft
  |   ^^^^
  |
  = help: valid keys, closest first: `gold.split`, `gold.value`, `gold.ingots`, `gold.at_end`, `gold.unclaimed`, `crop.deploy`, `castles.supply`, `bridges.supply`, … (see `meeplab check --list-options`)
  = note: for more information about this error, run `meeplab explain E0201`

1 error
";
    assert_eq!(d.to_string(), expected);
}

#[test]
fn snapshot_type_error_and_duplicate() {
    let d = errs(&with(
        "farms = per_feld\ntile A { edges FFFF field NL NR EL ER SL SR WL WR }\n",
    ));
    let expected = "error[E0203]: `per_feld` is not a value of `farms`
 --> t.rules:6:9
  |
6 | farms = per_feld
  |         ^^^^^^^^
  |
  = help: expected one of: per_field, once_per_player, city_centric, off
  = note: for more information about this error, run `meeplab explain E0203`

error[E0401]: duplicate tile id `A`
 --> t.rules:7:6
  |
7 | tile A { edges FFFF field NL NR EL ER SL SR WL WR }
  |      ^
  |
  = note: first defined at t.rules:2:6
  = note: for more information about this error, run `meeplab explain E0401`

2 errors
";
    assert_eq!(d.to_string(), expected);
}

#[test]
fn snapshot_missing_file() {
    let d = load_ruleset(Path::new("/nonexistent/x.rules")).unwrap_err();
    let s = d.to_string();
    assert!(
        s.starts_with("error[E0301]: cannot read `/nonexistent/x.rules`: "),
        "{s}"
    );
    assert!(s.contains("--> /nonexistent/x.rules:1:1\n"), "{s}");
}

#[test]
fn e0411_a_river_running_through_must_split_fields() {
    one(
        &with("tile B { edges FWFW field WR NL NR EL ER SL SR WL }\n"),
        "E0411",
        "field WR NL NR EL ER SL SR WL",
    );
}

#[test]
fn river_edges_are_accepted_and_checked_like_the_others() {
    // a spring (one river side) lets its field wrap around the river's end
    let text = with("tile S { edges FWFF field NL NR EL ER SL SR WL WR }\n");
    assert!(load_ruleset_str_isolated("t", &text).is_ok());
    // a river through the tile with its banks apart
    let text = with("tile I { edges FWFW field WR NL NR EL field ER SL SR WL }\n");
    assert!(load_ruleset_str_isolated("t", &text).is_ok());
    // a road may not run on a river edge
    one(
        &with("tile R { edges FWFW road E field WR NL NR EL field ER SL SR WL }\n"),
        "E0404",
        "road E",
    );
    // a lower-case letter is no edge
    one(
        &with("tile L { edges FwFW field WR NL NR EL field ER SL SR WL }\n"),
        "E0407",
        "FwFW",
    );
}

// ---- ruleset (E06xx) ----

/// The river's tiles behind a start tile that is no river tile: the river expansion names the
/// conflict (every river tile would be discarded), at the start tile; the spring is fine.
#[test]
fn e0603_the_river_needs_its_spring_as_start_tile() {
    let text = "ruleset \"x\"\nextends \"rulesets/river.rules\"\nstart BA/RCr\n";
    let d = meeplab::dsl::load_ruleset_str("river-from-the-crossroads", text)
        .expect_err("a river behind the crossroads");
    assert_eq!(d.codes(), vec!["E0603"], "{d}");
    let s = d.to_string();
    assert!(
        s.contains("the river") && s.contains("`BA/RCr` is no river tile"),
        "{s}"
    );
    let item = d.items()[0].clone();
    let at = text.rfind("BA/RCr").expect("start");
    assert_eq!(item.span, at..at + "BA/RCr".len(), "{d}");
    let fine = "ruleset \"x\"\nextends \"rulesets/river.rules\"\nstart RI/s\n";
    assert!(meeplab::dsl::load_ruleset_str("river", fine).is_ok());
}

/// Both rivers with every tile: a second spring and a second lake have no end to close, so the
/// C1 FAQ leaves one of each out (`examples/variants/river-both.rules` does).
#[test]
fn e0603_more_river_ends_than_the_river_opens() {
    let text = "ruleset \"x\"\nextends \"rulesets/river2.rules\"\ndeck += { river x1 }\n";
    let d = meeplab::dsl::load_ruleset_str("both-rivers-whole", text)
        .expect_err("two springs and three river ends");
    assert_eq!(d.codes(), vec!["E0603"], "{d}");
    let s = d.to_string();
    assert!(
        s.contains("4 tiles that end the river")
            && s.contains("for 2 open ends")
            && s.contains("`RI/s` ×1")
            && s.contains("`RI.1/I.e` ×1")
            && s.contains("so 2 could only be discarded"),
        "{s}"
    );
    let at = text.rfind("river x1").expect("deck item");
    assert_eq!(d.items()[0].span, at..at + "river".len(), "{d}");
    for fine in [
        "rulesets/river.rules",
        "rulesets/river2.rules",
        "rulesets/bigbox.rules",
        "examples/variants/river-both.rules",
    ] {
        let text = format!("ruleset \"x\"\nextends \"{fine}\"\n");
        assert!(
            meeplab::dsl::load_ruleset_str("fine", &text).is_ok(),
            "{fine}"
        );
    }
}
