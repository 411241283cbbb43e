//! Property tests: printing a resolved ruleset and parsing it back gives an equal ruleset
//! (with arbitrary option values and formulas), and no input makes parse + resolve panic.

use meeplab::dsl::registry::{all_options, OptType};
use meeplab::dsl::{load_ruleset_str, load_ruleset_str_isolated, print, print_ruleset};
use meeplab::ruleset::{Expr, Ruleset, Table, Var};
use proptest::prelude::*;
use proptest::sample::select;

fn arb_table() -> impl Strategy<Value = Table> {
    (
        -10i64..10,
        prop::collection::vec((0i64..4, 1i64..3, -9i64..9), 1..5),
        any::<bool>(),
    )
        .prop_map(|(mut lo, rows, open)| {
            let n = rows.len();
            let rows = rows
                .into_iter()
                .enumerate()
                .map(|(k, (width, gap, v))| {
                    let hi = if open && k + 1 == n {
                        None
                    } else {
                        Some(lo + width)
                    };
                    let row = (lo, hi, v);
                    lo += width + gap;
                    row
                })
                .collect();
            Table { rows }
        })
}

fn arb_expr(vars: Vec<Var>) -> impl Strategy<Value = Expr> {
    let leaf = prop_oneof![
        (-60i64..60).prop_map(Expr::Num),
        select(vars).prop_map(Expr::Var)
    ];
    leaf.prop_recursive(4, 24, 2, |inner| {
        let b = |f: fn(Box<Expr>, Box<Expr>) -> Expr| {
            (inner.clone(), inner.clone()).prop_map(move |(a, b)| f(Box::new(a), Box::new(b)))
        };
        prop_oneof![
            b(Expr::Add),
            b(Expr::Sub),
            b(Expr::Mul),
            b(Expr::Div),
            b(Expr::DivUp),
            b(Expr::Min),
            b(Expr::Max),
            (inner.clone(), arb_table()).prop_map(|(x, t)| Expr::Table(Box::new(x), t)),
        ]
    })
}

/// One value per registry option: `(key, text, expected expression if any)`. The Messengers'
/// options are left out: the base file has the Robbers, and the two together are refused
/// (E0603, `engine/expansions/messengers.rs`).
fn arb_options() -> impl Strategy<Value = Vec<(String, String, Option<Expr>)>> {
    let per: Vec<BoxedStrategy<(String, String, Option<Expr>)>> = all_options()
        .filter(|o| !o.key.starts_with("messengers."))
        .map(|o| {
            let key = o.key.to_string();
            match &o.ty {
                OptType::Int { min, max } => (*min..=*max)
                    .prop_map(move |n| (key.clone(), n.to_string(), None))
                    .boxed(),
                OptType::Range { min, max } => (*min..=*max, 0i64..8)
                    .prop_map({
                        let max = *max;
                        move |(a, w)| (key.clone(), format!("{a}..{}", (a + w).min(max)), None)
                    })
                    .boxed(),
                OptType::Bool => any::<bool>()
                    .prop_map(move |b| (key.clone(), b.to_string(), None))
                    .boxed(),
                OptType::Choice(cs) => {
                    let texts: Vec<String> = cs
                        .iter()
                        .flat_map(|c| {
                            if c.args.is_empty() {
                                vec![c.name.to_string()]
                            } else {
                                let a = &c.args[0];
                                let mut v: Vec<String> = a
                                    .values
                                    .iter()
                                    .map(|x| format!("{}({}: {x})", c.name, a.name))
                                    .collect();
                                v.push(c.name.to_string()); // defaults filled in
                                v
                            }
                        })
                        .collect();
                    select(texts)
                        .prop_map(move |t| (key.clone(), t, None))
                        .boxed()
                }
                OptType::Expr { vars, none_ok } => {
                    let none_ok = *none_ok;
                    (arb_expr(vars.to_vec()), any::<bool>())
                        .prop_map(move |(e, none)| {
                            if none_ok && none {
                                (key.clone(), "none".to_string(), None)
                            } else {
                                (key.clone(), print::expr(&e), Some(e))
                            }
                        })
                        .boxed()
                }
            }
        })
        .collect();
    per
}

/// Everything but file names (which differ between a file and its printed copy).
fn comparable(rs: &Ruleset) -> serde_json::Value {
    let mut rs = rs.clone();
    rs.file = None;
    for o in rs.options.values_mut() {
        o.file = None;
    }
    serde_json::to_value(&rs).unwrap()
}

const ALL_EXPANSIONS: &str = "ruleset \"props \\\"quoted\\\" — all expansions\"
extends \"rulesets/goldmines-hig-2012.rules\"
include \"rulesets/tiles/robbers.tiles\"
deck += { robbers x2 }
";

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn print_then_parse_round_trips(opts in arb_options(), source in "[a-zA-Z0-9 \"\\\\é]{0,12}") {
        let mut text = ALL_EXPANSIONS.to_string();
        for (k, (key, value, _)) in opts.iter().enumerate() {
            if k % 3 == 0 {
                text.push_str(&format!("{key} = {value} source {}\n", print::quote(&source)));
            } else {
                text.push_str(&format!("{key} = {value}\n"));
            }
        }
        let first = match load_ruleset_str("props.rules", &text) {
            Ok(l) => l.ruleset,
            Err(d) => panic!("{text}\n{d}"),
        };
        // the expression printer and parser agree on every generated formula
        for (key, _, expected) in &opts {
            if let Some(e) = expected {
                prop_assert_eq!(&first.options[key].value, &print::expr(e));
            }
        }
        let printed = print_ruleset(&first);
        let second = match load_ruleset_str_isolated("printed.rules", &printed) {
            Ok(l) => l.ruleset,
            Err(d) => panic!("{printed}\n{d}"),
        };
        prop_assert_eq!(comparable(&first), comparable(&second));
        prop_assert_eq!(&first.hash, &second.hash);
        prop_assert_eq!(print_ruleset(&second), printed);
    }

    #[test]
    fn arbitrary_text_never_panics(text in ".{0,400}") {
        let _ = load_ruleset_str_isolated("fuzz.rules", &text);
    }

    #[test]
    fn token_soup_never_panics(tokens in prop::collection::vec(select(vec![
        "ruleset", "extends", "include", "tile", "tileset", "deck", "start", "{", "}", "(", ")",
        "[", "]", "=", "+=", "->", ",", ":", "..", "x2", "x0", "-", "+", "*", "/", "\"s\"", "\"",
        "\\", "#", "\n", " ", "gold", "split", "draft", "pick", "player", "table", "ceil", "min",
        "N", "E", "S", "W", "NL", "SR", "city", "road", "field", "cloister", "edges", "CRFR",
        "FFFF", "pennant", "crop", "decor", "source", "A", "9999999999999999999", "7", "-3",
        "players", "followers", "score.city.complete", "tiles", "ingots", "gold.value", "only",
    ]), 0..120)) {
        let text = tokens.join(" ");
        let _ = load_ruleset_str_isolated("soup.rules", &text);
    }
}

/// A minimal valid ruleset without files: one tile type, two copies per deck multiplier.
const SMALL: &str = "ruleset \"t\"\ntile A { edges FFFF field NL NR EL ER SL SR WL WR }\ntileset s { A x2 }\nstart A\n";

/// One term of a long formula and the operands it counts.
fn term(k: usize) -> (&'static str, usize) {
    match k % 6 {
        0 => ("tiles", 1),
        1 => ("2", 1),
        2 => ("(tiles)", 1),
        3 => ("-tiles", 2),
        4 => ("min(tiles, 3)", 3),
        _ => ("- 7", 2),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Thousands of terms, deep parentheses and huge counts give diagnostics, never a
    /// panic or a stack overflow; what loads prints back to text that loads again.
    #[test]
    fn long_inputs_give_diagnostics(
        terms in prop_oneof![1usize..300, 1usize..6_000],
        shift in 0usize..6,
        ops in prop::collection::vec(select(vec![" + ", " - ", " * ", " / ", "\n+ "]), 1..6),
        parens in prop_oneof![0usize..70, 0usize..3_000],
        mult in prop_oneof![0u64..600, 0u64..40_000, any::<u64>()],
    ) {
        let mut formula = String::new();
        let (mut operands, mut depth) = (0, parens);
        for k in 0..terms {
            if k > 0 {
                formula.push_str(ops[k % ops.len()]);
            }
            let (t, n) = term(k + shift);
            formula.push_str(t);
            operands += n;
            if n > 1 || t.starts_with('(') {
                depth = parens + 1; // a parenthesis, a unary minus or a call argument
            }
        }
        let mut formula = format!("{}{formula}{}", "(".repeat(parens), ")".repeat(parens));
        let mut expected = Vec::new();
        if depth > 64 {
            expected.push("E0110");
            // reported where the value gets too deep; recovery resumes at the end of that
            // line, so keep the formula on one line (the rest would be reported too)
            formula = formula.replace('\n', " ");
        } else if operands > 256 {
            expected.push("E0112");
        }
        match mult {
            0 => expected.push("E0503"),
            1..=500 => {}
            501..=32_767 => expected.push("E0509"),
            m if m <= i64::MAX as u64 => expected.push("E0507"),
            _ => expected.push("E0105"), // the count itself; the deck is then empty
        }
        let text = format!("{SMALL}deck {{ s x{mult} }}\nscore.road.complete = {formula}\n");
        match load_ruleset_str_isolated("long.rules", &text) {
            Ok(l) => {
                prop_assert!(expected.is_empty(), "expected {expected:?}");
                let printed = print_ruleset(&l.ruleset);
                let again = load_ruleset_str_isolated("printed.rules", &printed);
                prop_assert!(again.is_ok(), "{}", again.unwrap_err());
            }
            Err(d) => {
                let mut codes = d.codes();
                // warnings (a divisor that can be zero, W0201) come with some formulas
                codes.retain(|c| c.starts_with('E'));
                codes.sort();
                expected.sort();
                prop_assert_eq!(codes, expected, "{}", d);
            }
        }
    }
}

#[test]
fn every_bundled_ruleset_round_trips() {
    for e in std::fs::read_dir("rulesets").unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "rules") {
            let a = meeplab::dsl::load_ruleset(&p).unwrap().ruleset;
            let printed = print_ruleset(&a);
            let b = load_ruleset_str_isolated("printed", &printed)
                .unwrap_or_else(|d| panic!("{}\n{d}", p.display()))
                .ruleset;
            assert_eq!(comparable(&a), comparable(&b), "{}", p.display());
            assert_eq!(a.hash, b.hash);
        }
    }
}
