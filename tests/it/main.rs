//! The integration tests, one binary (as ripgrep and cargo lay theirs out): each module was
//! once its own test crate. Run one module with `cargo test --test it MODULE::`; the long checks
//! are `#[ignore]`d (`cargo test --release --test it -- --ignored`).

mod cli_support;
mod compare_support;
mod scenario_support;

mod cli_conventions;
mod compare_balance;
mod compare_benefits;
mod compare_boards;
mod compare_cli;
mod compare_driver;
mod compare_interrupt;
mod compare_levels;
mod compare_luck;
mod compare_merge_checks;
mod compare_placebo;
mod compare_shards;
mod dsl_bundled;
mod dsl_cli;
mod dsl_errors;
mod dsl_explain;
mod dsl_props;
mod engine_properties;
mod engine_segments;
mod golden_outcomes;
mod golden_playthroughs;
mod jcz_generated;
mod ladder_cli;
mod perft;
mod plan_cli;
mod replay_jcz;
mod replay_jcz_bcb;
mod replay_jcz_ic;
mod replay_jcz_river;
mod replay_jcz_tb;
mod replay_roundtrip;
mod report_outputs;
mod robust_limits;
mod scenarios_base;
mod scenarios_bazaars;
mod scenarios_bridges;
mod scenarios_castles;
mod scenarios_crop;
mod scenarios_gold;
mod scenarios_hand;
mod scenarios_inns;
mod scenarios_messengers;
mod scenarios_river;
mod scenarios_robbers;
mod scenarios_traders;
mod sweep_cli;
mod verdicts;
