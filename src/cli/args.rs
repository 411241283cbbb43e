//! Arguments and output settings every command shares: the global flags (`--color`,
//! `--quiet`, `-v`), the `--policy` argument with its forms documented in one table, the
//! flags of every command that runs coupled games ([`RunFlags`]), the closed sets as clap
//! `ValueEnum`s (so `--help` and completions list them), reading a ruleset from standard
//! input (`-`) and printing diagnostics (coloured on a terminal).

use clap::builder::{PossibleValue, TypedValueParser};
use meeplab::dsl::{Diagnostics, Loaded};
use meeplab::engine::OnIllegal;
use meeplab::policy::spec::SeatPolicies;
use meeplab::policy::PolicyKind;
use std::ffi::OsStr;
use std::io::Read;
use std::path::Path;
use std::sync::atomic::{AtomicU8, Ordering};

/// When to colour the output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum ColorWhen {
    /// Colour when the output is a terminal and `NO_COLOR` is not set.
    #[default]
    Auto,
    /// Always colour (also into a pipe or a file).
    Always,
    /// Never colour.
    Never,
}

/// Flags every command takes (before or after the command name).
#[derive(clap::Args, Debug)]
pub struct GlobalArgs {
    /// When to colour diagnostics.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorWhen::Auto, global = true)]
    pub color: ColorWhen,
    /// Quiet: errors only. No progress bar, notes, warnings, timings, summary tables or
    /// `wrote …` lines; a command that writes a folder (compare, merge, sweep, ladder) prints
    /// nothing else. What a command exists to print (diff, play, trace, replay, plan, explain,
    /// bench, completions, man, and any --json) still goes to stdout.
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    pub quiet: bool,
    /// Say more: which file each ruleset came from, and how long the command took.
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    pub verbose: u8,
}

/// 0 quiet, 1 normal, 2 and up verbose.
static VERBOSITY: AtomicU8 = AtomicU8::new(1);

impl GlobalArgs {
    /// Make these settings the program's: colour choice for stderr and stdout, verbosity.
    pub fn apply(&self) {
        match self.color {
            ColorWhen::Auto => {}
            ColorWhen::Always => anstream::ColorChoice::Always.write_global(),
            ColorWhen::Never => anstream::ColorChoice::Never.write_global(),
        }
        let level = if self.quiet {
            0
        } else {
            1 + self.verbose.min(3)
        };
        VERBOSITY.store(level, Ordering::Relaxed);
    }
}

/// `--quiet` was given: print errors only.
pub fn quiet() -> bool {
    VERBOSITY.load(Ordering::Relaxed) == 0
}

/// `-v` was given.
pub fn verbose() -> bool {
    VERBOSITY.load(Ordering::Relaxed) >= 2
}

/// Print diagnostics on stderr: coloured when `--color` and the terminal allow (anstream
/// strips the colours for a pipe, a file or `NO_COLOR`); warnings are dropped by
/// `--quiet`.
pub fn print_diagnostics(diags: &Diagnostics) {
    if quiet() && !diags.has_errors() {
        return;
    }
    anstream::eprint!("{}", diags.render(true));
}

/// Print a load's warnings on stderr (nothing under `--quiet`).
pub fn print_warnings(loaded: &Loaded) {
    if quiet() {
        return;
    }
    for w in &loaded.warnings {
        anstream::eprintln!("{}", w.render(true));
    }
}

/// The name standard input goes by in diagnostics.
pub const STDIN_NAME: &str = "<stdin>";

/// Load a ruleset from a file (a bare name like `base` also finds `rulesets/base.rules`),
/// or from standard input when `path` is `-` (its `extends` and `include` then resolve from
/// the current folder). `-v` says where it came from.
pub fn load_ruleset(path: &Path) -> Result<Loaded, Diagnostics> {
    let loaded = if path.as_os_str() == "-" {
        let mut text = String::new();
        if let Err(e) = std::io::stdin().lock().read_to_string(&mut text) {
            return Err(Diagnostics::new(vec![
                meeplab::dsl::Diagnostic::whole_file(
                    &meeplab::dsl::codes::CANNOT_READ,
                    STDIN_NAME,
                    format!("cannot read standard input: {e}"),
                ),
            ]));
        }
        meeplab::dsl::load_ruleset_str(STDIN_NAME, &text)
    } else {
        match path.to_str() {
            Some(name) => meeplab::dsl::load_ruleset(&meeplab::dsl::locate(name)),
            None => meeplab::dsl::load_ruleset(path),
        }
    }?;
    if verbose() {
        let rs = &loaded.ruleset;
        eprintln!(
            "loaded \"{}\" from {} (hash {})",
            rs.name,
            path.display(),
            rs.hash
        );
    }
    Ok(loaded)
}

/// Make sure `dir` can take a run's reports, with an error that names it: exit code 1 after
/// printing the reason. Nothing is created (a run's folder appears whole when it is done):
/// an existing `dir` must be a folder one can write into; otherwise its nearest existing
/// ancestor must be.
pub fn prepare_out_dir(dir: &Path) -> Result<(), std::process::ExitCode> {
    let fail = |why: String| {
        eprintln!("error: --out {}: {why}", dir.display());
        Err(std::process::ExitCode::from(1))
    };
    let mut at = dir;
    while !at.as_os_str().is_empty() && !at.exists() {
        match at.parent() {
            Some(p) => at = p,
            None => break,
        }
    }
    let at = if at.as_os_str().is_empty() {
        Path::new(".")
    } else {
        at
    };
    if !at.is_dir() {
        return fail(if at == dir {
            "exists and is not a folder".to_string()
        } else {
            format!("{} is not a folder", at.display())
        });
    }
    let probe = at.join(format!(".meeplab-write-test-{}", std::process::id()));
    match std::fs::File::create(&probe) {
        Ok(_) => {
            let _ = std::fs::remove_file(&probe);
            Ok(())
        }
        Err(e) => fail(format!("cannot write into {}: {e}", at.display())),
    }
}

/// Every `--policy` form: its spelling and what it does. The one place to extend when new
/// forms arrive (per-seat lists such as `greedy,random`, budgets such as `mcts:N`); the
/// text is parsed by `PolicyKind`'s `FromStr`.
pub const POLICIES: &[(&str, &str)] = &[
    (
        "random",
        "uniform over the legal moves (draws keyed by seed and turn)",
    ),
    (
        "greedy",
        "the move with the most immediate points (its follower's included), ties by the keyed draw",
    ),
    (
        "heuristic",
        "one move ahead over placement × follower, unfinished features valued by their chance to close",
    ),
    (
        "mcts",
        "Monte Carlo tree search; mcts:N for N iterations a decision, mcts:N:STYLE to play for \
         points (the default), lead or win",
    ),
];

/// A `--policy` value parsed with `FromStr`; a failure is a clap usage error naming the
/// argument and listing the forms (the parser's message).
fn parse_policy<T>(
    cmd: &clap::Command,
    arg: Option<&clap::Arg>,
    value: &OsStr,
) -> Result<T, clap::Error>
where
    T: std::str::FromStr,
    T::Err: std::fmt::Display,
{
    let text = value.to_string_lossy();
    text.parse::<T>().map_err(|e| {
        let name = arg.map_or("--policy".to_string(), |a| a.to_string());
        clap::Error::raw(
            clap::error::ErrorKind::InvalidValue,
            format!("invalid value '{text}' for '{name}': {e}\n"),
        )
        .with_cmd(cmd)
    })
}

/// Parses `--policy` with `PolicyKind::from_str` and lists [`POLICIES`] in `--help` and in
/// shell completions.
#[derive(Clone, Copy, Debug)]
pub struct PolicyParser;

/// `--policy` for commands that take one policy per seat: `greedy`, or `greedy,random` (seat 1
/// first); checked against the player count where that is known.
#[derive(Clone, Copy, Debug)]
pub struct SeatPolicyParser;

impl TypedValueParser for SeatPolicyParser {
    type Value = SeatPolicies;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<SeatPolicies, clap::Error> {
        parse_policy(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        PolicyParser.possible_values()
    }
}

impl TypedValueParser for PolicyParser {
    type Value = PolicyKind;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<PolicyKind, clap::Error> {
        parse_policy(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(
            POLICIES
                .iter()
                .map(|(name, help)| PossibleValue::new(*name).help(*help)),
        ))
    }
}

/// `--on-illegal`: what replay does with a recorded decision that is illegal under the
/// ruleset it replays with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum OnIllegalArg {
    /// Stop the replay at that decision (no final scoring).
    Stop,
    /// Skip it: take the none/pass option where there is one, else `--policy`'s choice.
    Skip,
    /// Let `--policy` decide instead.
    Policy,
}

impl From<OnIllegalArg> for OnIllegal {
    fn from(a: OnIllegalArg) -> OnIllegal {
        match a {
            OnIllegalArg::Stop => OnIllegal::Stop,
            OnIllegalArg::Skip => OnIllegal::Skip,
            OnIllegalArg::Policy => OnIllegal::Policy,
        }
    }
}

/// The `--on-illegal` parser: the [`OnIllegalArg`] values, as the engine's type.
pub fn on_illegal_parser() -> impl TypedValueParser<Value = OnIllegal> {
    clap::builder::EnumValueParser::<OnIllegalArg>::new().map(OnIllegal::from)
}

/// The flags of every command that runs coupled games (`compare`, `sweep`): how many games,
/// seeded how, and how the run is carried out (threads, shard, charts, resume).
#[derive(clap::Args, Clone, Debug)]
pub struct RunFlags {
    /// Games (seeds) to play under every ruleset [default: 10000].
    #[arg(long)]
    pub games: Option<u64>,
    /// Players per game [default: 2].
    #[arg(long)]
    pub players: Option<u8>,
    /// Master seed; game i plays a seed derived from it [default: 1].
    #[arg(long)]
    pub seed: Option<u64>,
    /// Worker threads (default: all cores). Never changes the results.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Run only shard k of n (seed blocks b with b % n == k-1); merge with `meeplab merge`.
    #[arg(long)]
    pub shard: Option<meeplab::compare::Shard>,
    /// Chart format.
    #[arg(long, default_value = "svg")]
    pub format: meeplab::report::ChartFormat,
    /// Continue an interrupted run into --out from its checkpoint (same arguments); the
    /// outputs are byte-identical to an uninterrupted run.
    #[arg(long)]
    pub resume: bool,
}

impl RunFlags {
    /// `--games`, or the default.
    pub fn games(&self) -> u64 {
        self.games.unwrap_or(10_000)
    }

    /// `--players`, or the default.
    pub fn players(&self) -> u8 {
        self.players.unwrap_or(2)
    }

    /// `--seed`, or the default.
    pub fn seed(&self) -> u64 {
        self.seed.unwrap_or(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_policy_parses() {
        for (name, _) in POLICIES {
            assert_eq!(name.parse::<PolicyKind>().map(|p| p.name()), Ok(*name));
        }
    }
}
