//! Policy specifications: the one place where policy names are parsed, printed and turned into
//! players.
//!
//! A [`PolicySpec`] names the policy of one seat: `random`, `greedy`, `heuristic`, `mcts` (the
//! default budget) or `mcts:N` (N iterations, 1 to 10,000,000), and for `mcts` optionally what
//! it plays for, `mcts:STYLE` or `mcts:N:STYLE` ([`MctsStyle`]: `points`, the default, `lead`,
//! `win`). Its `Display` is its canonical text — the default style left out, so `mcts:1400`
//! and `mcts:1400:points` both print `mcts:1400` — and parses back to the same value. A [`SeatPolicies`] is what `--policy` takes: one
//! spec for every seat (`greedy`) or a comma-separated list, one per seat (`greedy,random`),
//! checked against the number of players by [`SeatPolicies::for_players`].
//!
//! [`PolicySpec::build`] is the single gate that turns a spec into a [`Policy`] (a policy the
//! build cannot play would answer "not available yet" there — never a silent fallback to
//! another policy).

use super::{MctsStyle, Policy, PolicyKind};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

/// The most iterations `mcts:N` accepts.
pub const MCTS_MAX_ITERATIONS: u32 = 10_000_000;

/// The accepted forms of one policy, for error messages and help texts.
pub const POLICY_FORMS: &str = "random, greedy, heuristic, mcts (default budget), mcts:N (N \
     iterations, 1 to 10000000), mcts:STYLE or mcts:N:STYLE (STYLE: points, the default; lead; \
     win)";

/// The accepted styles of `mcts:N:STYLE`, for error messages.
pub const STYLE_FORMS: &str = "points (the default: mostly own points, partly the lead), lead \
     (the lead over the best other player), win (winning only)";

/// The accepted forms of a per-seat list, for error messages and help texts.
pub const SEAT_FORMS: &str =
    "one policy for every seat, or a comma-separated list with one per seat (e.g. greedy,random)";

/// The policy of one seat, as written on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PolicySpec {
    /// Uniform over the legal options.
    Random,
    /// Maximises immediate points.
    Greedy,
    /// One move ahead with a position evaluation (issue 12).
    Heuristic,
    /// Information-set Monte Carlo tree search; `None` = the default budget.
    Mcts {
        iterations: Option<u32>,
        style: MctsStyle,
    },
}

/// Why a policy text or list was refused, or a policy cannot play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PolicyError {
    /// A name that is no policy.
    Unknown(String),
    /// `mcts:N` with an N that is not a whole number in range, or a budget on a policy
    /// that takes none.
    BadBudget { text: String, reason: String },
    /// `mcts:STYLE` or `mcts:N:STYLE` with a style that is none of [`MctsStyle::ALL`].
    UnknownStyle { text: String, style: String },
    /// An empty item in a list (`greedy,,random`) or an empty text.
    Empty(String),
    /// A per-seat list whose length is not the number of players.
    SeatCount { given: usize, players: u8 },
}

impl fmt::Display for PolicyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PolicyError::Unknown(s) => {
                write!(f, "unknown policy '{s}' (valid forms: {POLICY_FORMS})")
            }
            PolicyError::BadBudget { text, reason } => {
                write!(
                    f,
                    "bad policy '{text}': {reason} (valid forms: {POLICY_FORMS})"
                )
            }
            PolicyError::UnknownStyle { text, style } => write!(
                f,
                "bad policy '{text}': unknown style '{style}' (styles: {STYLE_FORMS}; valid \
                 forms: {POLICY_FORMS})"
            ),
            PolicyError::Empty(text) => write!(
                f,
                "empty policy in '{text}' (valid forms: {POLICY_FORMS}; {SEAT_FORMS})"
            ),
            PolicyError::SeatCount { given, players } => write!(
                f,
                "{given} policies given for {players} players: give {SEAT_FORMS}"
            ),
        }
    }
}

impl std::error::Error for PolicyError {}

impl PolicySpec {
    /// The policy's name without its budget.
    pub fn name(self) -> &'static str {
        match self {
            PolicySpec::Random => "random",
            PolicySpec::Greedy => "greedy",
            PolicySpec::Heuristic => "heuristic",
            PolicySpec::Mcts { .. } => "mcts",
        }
    }

    /// The player for this spec: the single gate between a parsed spec and the engine.
    pub fn build(self) -> Policy {
        Policy::new(self.kind())
    }

    /// The policy that plays this spec, its budget resolved (the gate [`PolicySpec::build`]
    /// goes through).
    pub fn kind(self) -> PolicyKind {
        match self {
            PolicySpec::Random => PolicyKind::Random,
            PolicySpec::Greedy => PolicyKind::Greedy,
            PolicySpec::Heuristic => PolicyKind::Heuristic,
            PolicySpec::Mcts { iterations, style } => {
                PolicyKind::Mcts(iterations.unwrap_or(super::MCTS_DEFAULT_ITERATIONS), style)
            }
        }
    }
}

impl From<PolicyKind> for PolicySpec {
    fn from(kind: PolicyKind) -> PolicySpec {
        match kind {
            PolicyKind::Random => PolicySpec::Random,
            PolicyKind::Greedy => PolicySpec::Greedy,
            PolicyKind::Heuristic => PolicySpec::Heuristic,
            PolicyKind::Mcts(n, style) => PolicySpec::Mcts {
                iterations: (n != super::MCTS_DEFAULT_ITERATIONS).then_some(n),
                style,
            },
        }
    }
}

impl fmt::Display for PolicySpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())?;
        if let PolicySpec::Mcts { iterations, style } = self {
            if let Some(n) = iterations {
                write!(f, ":{n}")?;
            }
            if *style != MctsStyle::default() {
                write!(f, ":{}", style.name())?;
            }
        }
        Ok(())
    }
}

/// Parses `N` of `mcts:N`: digits only, 1 to [`MCTS_MAX_ITERATIONS`].
fn parse_iterations(text: &str, n: &str) -> Result<u32, PolicyError> {
    let bad = |reason: String| PolicyError::BadBudget {
        text: text.to_string(),
        reason,
    };
    if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad(format!(
            "the iteration budget '{n}' is not a whole number"
        )));
    }
    match n.parse::<u64>() {
        Ok(v) if (1..=MCTS_MAX_ITERATIONS as u64).contains(&v) => Ok(v as u32),
        _ => Err(bad(format!(
            "the iteration budget must be 1 to {MCTS_MAX_ITERATIONS}, not {n}"
        ))),
    }
}

/// Parses the part of `text` after `mcts:` (`None` for plain `mcts`): `N`, `STYLE` or
/// `N:STYLE`. A part that starts with a letter is a style, anything else a budget.
fn parse_mcts(text: &str, rest: Option<&str>) -> Result<PolicySpec, PolicyError> {
    let style = |name: &str| {
        MctsStyle::from_name(name).ok_or_else(|| PolicyError::UnknownStyle {
            text: text.to_string(),
            style: name.to_string(),
        })
    };
    let (iterations, style) =
        match rest.map(|r| r.split_once(':').map_or((r, None), |(n, s)| (n, Some(s)))) {
            None => (None, MctsStyle::default()),
            Some((one, None)) if one.starts_with(|c: char| c.is_ascii_alphabetic()) => {
                (None, style(one)?)
            }
            Some((n, None)) => (Some(parse_iterations(text, n)?), MctsStyle::default()),
            Some((n, Some(s))) => (Some(parse_iterations(text, n)?), style(s)?),
        };
    Ok(PolicySpec::Mcts { iterations, style })
}

impl FromStr for PolicySpec {
    type Err = PolicyError;
    fn from_str(s: &str) -> Result<PolicySpec, PolicyError> {
        let text = s.trim();
        if text.is_empty() {
            return Err(PolicyError::Empty(s.to_string()));
        }
        let (name, budget) = match text.split_once(':') {
            Some((name, budget)) => (name, Some(budget)),
            None => (text, None),
        };
        let spec = match name {
            "random" => PolicySpec::Random,
            "greedy" => PolicySpec::Greedy,
            "heuristic" => PolicySpec::Heuristic,
            "mcts" => return parse_mcts(text, budget),
            _ => return Err(PolicyError::Unknown(text.to_string())),
        };
        match budget {
            None => Ok(spec),
            Some(_) => Err(PolicyError::BadBudget {
                text: text.to_string(),
                reason: format!("{name} takes no budget"),
            }),
        }
    }
}

impl Serialize for PolicySpec {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for PolicySpec {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<PolicySpec, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// The policies of all seats: one for every seat, or one per seat (seat 1 first).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SeatPolicies {
    Every(PolicySpec),
    /// Two or more, one per seat.
    PerSeat(Vec<PolicySpec>),
}

impl SeatPolicies {
    /// One spec per seat for a game of `players`; a list of another length is an error naming
    /// both numbers.
    pub fn for_players(&self, players: u8) -> Result<Vec<PolicySpec>, PolicyError> {
        match self {
            SeatPolicies::Every(spec) => Ok(vec![*spec; players as usize]),
            SeatPolicies::PerSeat(list) if list.len() == players as usize => Ok(list.clone()),
            SeatPolicies::PerSeat(list) => Err(PolicyError::SeatCount {
                given: list.len(),
                players,
            }),
        }
    }

    /// The policy of every seat of a game of `players` (a list of another length is an
    /// error).
    pub fn kinds(&self, players: u8) -> Result<Vec<PolicyKind>, PolicyError> {
        Ok(self
            .for_players(players)?
            .into_iter()
            .map(PolicySpec::kind)
            .collect())
    }

    /// The players of every seat, built through [`PolicySpec::build`].
    pub fn build(&self, players: u8) -> Result<Vec<Policy>, PolicyError> {
        Ok(self
            .for_players(players)?
            .into_iter()
            .map(PolicySpec::build)
            .collect())
    }
}

impl From<PolicySpec> for SeatPolicies {
    fn from(spec: PolicySpec) -> SeatPolicies {
        SeatPolicies::Every(spec)
    }
}

impl fmt::Display for SeatPolicies {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SeatPolicies::Every(spec) => write!(f, "{spec}"),
            SeatPolicies::PerSeat(list) => {
                for (i, spec) in list.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{spec}")?;
                }
                Ok(())
            }
        }
    }
}

impl FromStr for SeatPolicies {
    type Err = PolicyError;
    fn from_str(s: &str) -> Result<SeatPolicies, PolicyError> {
        let mut list = Vec::new();
        for item in s.split(',') {
            if item.trim().is_empty() {
                return Err(PolicyError::Empty(s.to_string()));
            }
            list.push(item.parse::<PolicySpec>()?);
        }
        Ok(match list.as_slice() {
            [one] => SeatPolicies::Every(*one),
            _ => SeatPolicies::PerSeat(list),
        })
    }
}

impl Serialize for SeatPolicies {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for SeatPolicies {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<SeatPolicies, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(s: &str) -> PolicySpec {
        s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    fn mcts(iterations: Option<u32>, style: MctsStyle) -> PolicySpec {
        PolicySpec::Mcts { iterations, style }
    }

    #[test]
    fn every_form_parses_and_prints_back() {
        let cases = [
            ("random", PolicySpec::Random),
            ("greedy", PolicySpec::Greedy),
            ("heuristic", PolicySpec::Heuristic),
            ("mcts", mcts(None, MctsStyle::Points)),
            ("mcts:1", mcts(Some(1), MctsStyle::Points)),
            ("mcts:10000000", mcts(Some(10_000_000), MctsStyle::Points)),
            ("mcts:lead", mcts(None, MctsStyle::Lead)),
            ("mcts:win", mcts(None, MctsStyle::Win)),
            ("mcts:1400:lead", mcts(Some(1400), MctsStyle::Lead)),
            ("mcts:50:win", mcts(Some(50), MctsStyle::Win)),
        ];
        for (text, want) in cases {
            assert_eq!(spec(text), want, "{text}");
            assert_eq!(want.to_string(), text);
            assert_eq!(spec(&want.to_string()), want);
        }
        // Surrounding blanks are ignored; the canonical text has none.
        assert_eq!(spec(" greedy ").to_string(), "greedy");
        assert_eq!(spec("mcts:0500").to_string(), "mcts:500");
    }

    #[test]
    fn bad_texts_list_the_valid_forms() {
        for bad in [
            "mcts:0",
            "mcts:abc",
            "mcts:",
            "mcts:-5",
            "mcts:+5",
            "mcts:10000001",
            "mcts:99999999999999999999",
            "unknown",
            "Greedy",
            "greedy:3",
            "",
            "  ",
        ] {
            let err = bad.parse::<PolicySpec>().expect_err(bad).to_string();
            assert!(err.contains(POLICY_FORMS), "{bad}: {err}");
        }
        let err = "mcts:0".parse::<PolicySpec>().unwrap_err().to_string();
        assert!(err.contains("1 to 10000000, not 0"), "{err}");
        let err = "mcts:-5".parse::<PolicySpec>().unwrap_err().to_string();
        assert!(err.contains("'-5' is not a whole number"), "{err}");
        let err = "unknown".parse::<PolicySpec>().unwrap_err().to_string();
        assert!(err.starts_with("unknown policy 'unknown'"), "{err}");
    }

    #[test]
    fn the_default_style_is_left_out_of_the_canonical_text() {
        for (text, canonical) in [
            ("mcts:points", "mcts"),
            ("mcts:1400:points", "mcts:1400"),
            ("mcts:1400", "mcts:1400"),
            ("mcts:0400:lead", "mcts:400:lead"),
        ] {
            assert_eq!(spec(text).to_string(), canonical, "{text}");
            assert_eq!(spec(canonical), spec(text), "{text}");
        }
        // the same level however it is written; another style is another level
        let kind = |s: &str| spec(s).kind();
        assert_eq!(kind("mcts:1400"), kind("mcts:1400:points"));
        assert_eq!(kind("mcts"), kind("mcts:1400:points"));
        assert_ne!(kind("mcts:1400"), kind("mcts:1400:lead"));
        assert_ne!(kind("mcts:1400:win"), kind("mcts:1400:lead"));
        assert_eq!(kind("mcts:1400").to_string(), "mcts");
        assert_eq!(kind("mcts:lead").to_string(), "mcts:lead");
        assert_eq!(kind("mcts:1400:lead").to_string(), "mcts:lead");
        assert_eq!(kind("mcts:20:lead").to_string(), "mcts:20:lead");
        for style in MctsStyle::ALL {
            assert_eq!(MctsStyle::from_name(style.name()), Some(style));
            let k = PolicyKind::Mcts(20, style);
            assert_eq!(k.to_string().parse::<PolicyKind>(), Ok(k));
        }
    }

    #[test]
    fn unknown_styles_list_the_valid_ones() {
        for bad in [
            "mcts:abc",
            "mcts:Lead",
            "mcts:400:fast",
            "mcts:400:",
            "mcts:400:lead:x",
        ] {
            let err = bad.parse::<PolicySpec>().expect_err(bad);
            let msg = err.to_string();
            assert!(
                matches!(err, PolicyError::UnknownStyle { .. }),
                "{bad}: {msg}"
            );
            assert!(msg.contains(STYLE_FORMS), "{bad}: {msg}");
            assert!(msg.contains(POLICY_FORMS), "{bad}: {msg}");
        }
        let msg = "mcts:400:fast"
            .parse::<PolicySpec>()
            .unwrap_err()
            .to_string();
        assert!(
            msg.starts_with("bad policy 'mcts:400:fast': unknown style 'fast' (styles: points"),
            "{msg}"
        );
        // a style on another policy, or a bad budget before a good style
        assert!(matches!(
            "greedy:lead".parse::<PolicySpec>(),
            Err(PolicyError::BadBudget { .. })
        ));
        assert!(matches!(
            "mcts:0:lead".parse::<PolicySpec>(),
            Err(PolicyError::BadBudget { .. })
        ));
        assert!(matches!(
            "mcts:lead:400".parse::<PolicySpec>(),
            Err(PolicyError::BadBudget { .. })
        ));
    }

    #[test]
    fn seat_lists_parse_print_and_check_their_length() {
        let every: SeatPolicies = "greedy".parse().unwrap();
        assert_eq!(every, SeatPolicies::Every(PolicySpec::Greedy));
        assert_eq!(every.for_players(3).unwrap(), vec![PolicySpec::Greedy; 3]);

        let list: SeatPolicies = "greedy, random,mcts:20".parse().unwrap();
        assert_eq!(list.to_string(), "greedy,random,mcts:20");
        assert_eq!(list.to_string().parse::<SeatPolicies>().unwrap(), list);
        assert_eq!(
            list.for_players(3).unwrap(),
            vec![
                PolicySpec::Greedy,
                PolicySpec::Random,
                mcts(Some(20), MctsStyle::Points)
            ]
        );
        let err = list.for_players(2).unwrap_err();
        assert_eq!(
            err,
            PolicyError::SeatCount {
                given: 3,
                players: 2
            }
        );
        let msg = err.to_string();
        assert!(msg.starts_with("3 policies given for 2 players"), "{msg}");
        assert!(msg.contains(SEAT_FORMS), "{msg}");
    }

    #[test]
    fn bad_lists_are_refused() {
        for bad in [
            "greedy,,random",
            "greedy,",
            ",greedy",
            "greedy,unknown",
            "random,mcts:0",
        ] {
            let err = bad.parse::<SeatPolicies>().expect_err(bad).to_string();
            assert!(err.contains(POLICY_FORMS), "{bad}: {err}");
        }
        let err = "greedy,,random"
            .parse::<SeatPolicies>()
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("empty policy in 'greedy,,random'"), "{err}");
    }

    #[test]
    fn every_spec_builds_with_its_budget() {
        assert_eq!(PolicySpec::Random.build().kind(), PolicyKind::Random);
        assert_eq!(PolicySpec::Greedy.build().kind(), PolicyKind::Greedy);
        assert_eq!(PolicySpec::Heuristic.build().kind(), PolicyKind::Heuristic);
        assert_eq!(
            spec("mcts").build().kind(),
            PolicyKind::Mcts(super::super::MCTS_DEFAULT_ITERATIONS, MctsStyle::Points)
        );
        assert_eq!(
            spec("mcts:100").build().kind(),
            PolicyKind::Mcts(100, MctsStyle::Points)
        );
        // the default budget prints as plain `mcts`, another as `mcts:N`
        assert_eq!(spec("mcts").kind().to_string(), "mcts");
        assert_eq!(spec("mcts:100").kind().to_string(), "mcts:100");
        assert_eq!(
            "mcts:7".parse::<PolicyKind>(),
            Ok(PolicyKind::Mcts(7, MctsStyle::Points))
        );
        let seats: SeatPolicies = "heuristic,mcts:20".parse().unwrap();
        let kinds: Vec<_> = seats.build(2).unwrap().iter().map(Policy::kind).collect();
        assert_eq!(
            kinds,
            [
                PolicyKind::Heuristic,
                PolicyKind::Mcts(20, MctsStyle::Points)
            ]
        );
        assert_eq!(
            SeatPolicies::from(PolicySpec::Random)
                .build(4)
                .map(|p| p.len()),
            Ok(4)
        );
    }

    #[test]
    fn serde_uses_the_canonical_text() {
        let list: SeatPolicies = "greedy,mcts:7".parse().unwrap();
        let json = serde_json::to_string(&list).unwrap();
        assert_eq!(json, "\"greedy,mcts:7\"");
        assert_eq!(serde_json::from_str::<SeatPolicies>(&json).unwrap(), list);
        let styled: SeatPolicies = "mcts:7:points,mcts:7:lead".parse().unwrap();
        let json = serde_json::to_string(&styled).unwrap();
        assert_eq!(json, "\"mcts:7,mcts:7:lead\"");
        assert_eq!(serde_json::from_str::<SeatPolicies>(&json).unwrap(), styled);
        let kind = PolicyKind::Mcts(7, MctsStyle::Win);
        let json = serde_json::to_string(&kind).unwrap();
        assert_eq!(json, "\"mcts:7:win\"");
        assert_eq!(serde_json::from_str::<PolicyKind>(&json).unwrap(), kind);
        assert!(serde_json::from_str::<PolicySpec>("\"mcts:7:fast\"").is_err());
        assert!(serde_json::from_str::<PolicySpec>("\"mcts:0\"").is_err());
        assert_eq!(PolicySpec::from(PolicyKind::Greedy), PolicySpec::Greedy);
    }
}
