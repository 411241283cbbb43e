//! JCloisterZone's meeple ids (`P.small.N`, `P.big.1`, `P.builder.N`, `P.pig.N`) as the
//! translation reads them: the seat a figure belongs to, the check that a message's figure is
//! one the sender holds under the save's set-up, and the kind of follower it is.

/// The seat a `meepleId` (`P.small.N`) belongs to.
pub(super) fn meeple_owner(id: &str) -> Option<u8> {
    id.split('.').next()?.parse().ok()
}

/// A `meepleId` must be one of the sender's small followers, `P.small.N` with N from 1, or a
/// figure of an expansion the set-up deals: Inns & Cathedrals' big follower (`P.big.1`),
/// Traders & Builders' `P.builder.N` and `P.pig.N`.
pub(super) fn check_meeple(id: &str, player: u8, setup: &super::Setup) -> Result<(), String> {
    let mut parts = id.split('.');
    let (Some(p), Some(kind), Some(n), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(format!(
            "payload meepleId `{id}` is not a JCloisterZone meeple id (`P.small.N`)"
        ));
    };
    let (count, what) = if let Some((name, n)) =
        crate::import::traders::meeple_kind(&setup.part(), kind)
    {
        (n, name)
    } else if let Some((_, n)) = crate::import::abbot::meeple_kind(&setup.part(), kind) {
        (n, "abbots")
    } else if let Some((_, n)) = crate::import::inns::meeple_kind(
        kind,
        setup.followers,
        setup.part::<crate::import::inns::InnsSetup>().big_followers,
    ) {
        (
            n,
            if kind == "big" {
                "big followers"
            } else {
                "small followers"
            },
        )
    } else {
        return Err(format!(
            "meeple `{id}` is not a small follower nor a figure the set-up deals (big, builder or pig, with their elements); other figures are not supported"
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

/// The kind of follower a checked `meepleId` is (`P.big.1`: the large follower; `P.builder.N`,
/// `P.pig.N`: Traders & Builders').
pub(super) fn meeple_follower_kind(id: &str) -> crate::engine::FollowerKind {
    if id.split('.').nth(1) == Some("big") {
        crate::engine::expansions::inns::LARGE_FOLLOWER
    } else if crate::import::abbot::is_abbot(id) {
        crate::engine::expansions::abbot::ABBOT
    } else {
        crate::import::traders::follower_kind(id)
    }
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
            meeple_follower_kind("1.big.1"),
            crate::engine::expansions::inns::LARGE_FOLLOWER
        );
        assert!(meeple_follower_kind("1.small.1").is_plain());
        assert_eq!(
            meeple_follower_kind("1.pig.1"),
            crate::engine::expansions::traders::PIG
        );
        assert_eq!(meeple_owner("2.small.3"), Some(2));
        // Traders & Builders' figures, with their elements
        assert!(check_meeple("0.pig.1", 0, &seven).is_err());
        let mut tb = seven.clone();
        tb.part_mut::<crate::import::traders::TradersSetup>()
            .element("pig", Some(2));
        assert!(check_meeple("0.pig.2", 0, &tb).is_ok());
        assert!(check_meeple("0.pig.3", 0, &tb).is_err());
        assert!(check_meeple("0.builder.1", 0, &tb).is_err());
    }
}
