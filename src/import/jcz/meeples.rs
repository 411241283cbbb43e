//! JCloisterZone's meeple ids (`P.small.N`, `P.big.1`, `P.builder.N`, `P.pig.N`) as the
//! translation reads them: the seat a figure belongs to, the check that a message's figure is
//! one the sender holds under the save's set-up, and the kind of follower it is; the figures
//! of expansions are their importer parts' ([`JczPart::meeple`]).

#[cfg(doc)]
use super::part::JczPart;
use super::parts::PARTS;
use crate::engine::FollowerKind;

/// The seat a `meepleId` (`P.small.N`) belongs to.
pub(super) fn meeple_owner(id: &str) -> Option<u8> {
    id.split('.').next()?.parse().ok()
}

/// A `meepleId` must be one of the sender's small followers, `P.small.N` with N from 1, or a
/// figure an importer part deals under the save's set-up ([`JczPart::meeple`]: the big
/// follower `P.big.1`, the abbot, builders and pigs).
pub(super) fn check_meeple(id: &str, player: u8, setup: &super::Setup) -> Result<(), String> {
    let mut parts = id.split('.');
    let (Some(p), Some(kind), Some(n), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(format!(
            "payload meepleId `{id}` is not a JCloisterZone meeple id (`P.small.N`)"
        ));
    };
    let (count, what) = if kind == "small" {
        (setup.followers, "small followers")
    } else if let Some((_, n, what)) = PARTS.iter().find_map(|part| part.meeple(setup, kind)) {
        (n, what)
    } else {
        return Err(format!(
            "meeple `{id}` is not a small follower nor a figure the set-up deals ({} with their elements); other figures are not supported",
            figure_names()
        ));
    };
    if p.parse::<u8>().ok() != Some(player) {
        return Err(format!(
            "meeple `{id}` belongs to seat {p}, but player {player} sends the message"
        ));
    }
    match n.parse::<u8>() {
        Ok(n) if (1..=count).contains(&n) => Ok(()),
        _ => Err(format!(
            "meeple `{id}`: JCloisterZone numbers a player's {count} {what} from 1 to {count}"
        )),
    }
}

/// The kinds of figure the parts know, for errors (`big, abbot, builder, pig`).
fn figure_names() -> String {
    let names: Vec<&str> = PARTS
        .iter()
        .flat_map(|p| p.meeple_kinds().iter().copied())
        .collect();
    names.join(", ")
}

/// The kind of follower a checked `meepleId` is under the set-up: the plain follower for
/// `P.small.N`, else what its part says (`P.big.1`: the large follower; `P.builder.N`,
/// `P.pig.N`: Traders & Builders').
pub(super) fn meeple_follower_kind(id: &str, setup: &super::Setup) -> FollowerKind {
    let kind = id.split('.').nth(1).unwrap_or("small");
    PARTS
        .iter()
        .find_map(|part| part.meeple(setup, kind))
        .map_or(FollowerKind::PLAIN, |(k, _, _)| k)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meeple_ids_are_jcloisterzones() {
        let seven = super::super::Setup {
            followers: 7,
            ..Default::default()
        };
        assert!(check_meeple("0.small.1", 0, &seven).is_ok());
        assert!(check_meeple("1.small.7", 1, &seven).is_ok());
        assert!(check_meeple("0.small.0", 0, &seven).is_err());
        assert!(check_meeple("0.small.8", 0, &seven).is_err());
        assert!(check_meeple("1.small.1", 0, &seven).is_err());
        assert!(check_meeple("0.big.1", 0, &seven).is_err());
        assert!(check_meeple("small", 0, &seven).is_err());
        // the big follower of Inns & Cathedrals, when the set-up deals one
        let mut ic = seven.clone();
        ic.part_mut::<crate::import::inns::InnsSetup>()
            .big_followers = 1;
        assert!(check_meeple("0.big.1", 0, &ic).is_ok());
        assert!(check_meeple("0.big.2", 0, &ic).is_err());
        assert_eq!(
            meeple_follower_kind("1.big.1", &ic),
            crate::engine::expansions::inns::LARGE_FOLLOWER
        );
        assert!(meeple_follower_kind("1.small.1", &ic).is_plain());
        assert_eq!(meeple_owner("2.small.3"), Some(2));
        // Traders & Builders' figures, with their elements
        assert!(check_meeple("0.pig.1", 0, &seven).is_err());
        let mut tb = seven.clone();
        tb.part_mut::<crate::import::traders::TradersSetup>()
            .element("pig", Some(2));
        assert!(check_meeple("0.pig.2", 0, &tb).is_ok());
        assert_eq!(
            meeple_follower_kind("1.pig.1", &tb),
            crate::engine::expansions::traders::PIG
        );
        assert!(check_meeple("0.pig.3", 0, &tb).is_err());
        assert!(check_meeple("0.builder.1", 0, &tb).is_err());
    }
}
