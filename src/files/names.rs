//! The names of the files and folders meeplab's runs write into an output folder, in one
//! list: the run's own state (`accumulator.json`, `timing.json`, the streamed `games.csv`),
//! the report's files and a sweep's or a multi-level compare's additions. The folder guard
//! ([`super::folder::is_run_file`]) replaces a folder only when it holds nothing else.

/// The summary, deterministic (written by the report layer).
pub const REPORT_JSON: &str = "report.json";
pub const REPORT_MD: &str = "report.md";
/// `report.md` as a self-contained page (charts inline).
pub const REPORT_HTML: &str = "report.html";
/// One row per game, streamed while the run plays.
pub const GAMES_CSV: &str = "games.csv";
/// The exact mergeable aggregate and the spec of the run.
pub const ACCUMULATOR_JSON: &str = "accumulator.json";
/// Wall-clock facts, kept out of the deterministic files.
pub const TIMING_JSON: &str = "timing.json";

/// A sweep's report.
pub const SWEEP_JSON: &str = "sweep.json";
pub const SWEEP_MD: &str = "sweep.md";
pub const SWEEP_HTML: &str = "sweep.html";
/// What a sweep played (its variants and where each stands in the comparison), kept in every
/// output folder so `meeplab merge` of sweep shards writes the sweep report too.
pub const SWEEP_PLAN: &str = "sweep-plan.json";
/// The folder of a sweep's generated rulesets inside its output folder.
pub const RULES_FOLDER: &str = "rulesets";

/// The folder of the levels inside a multi-level run's output folder (one run folder each).
pub const LEVELS_FOLDER: &str = "levels";
