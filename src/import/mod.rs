//! Foreign and own game records for `meeplab replay`. Each expansion's part of the
//! JCloisterZone importer implements [`jcz::JczPart`] and is registered once, in
//! [`jcz::parts::PARTS`]:
//! - [`jcz`]: JCloisterZone 5.x saves — parsing, the mapping of their set-up to a ruleset,
//!   and the translation of their message log into engine decisions;
//! - [`bcb`]: Bridges, Castles & Bazaars beyond castles (tiles, bridges, bazaars) in
//!   `.jcz` saves: the mapping and translation the importer delegates to it;
//! - [`inns`]: Inns & Cathedrals in `.jcz` saves: its sets, elements and big follower;
//! - [`river`]: The River and The River II in `.jcz` saves (sets, the spring as the start
//!   tile, the mapping onto the bundled river tiles);
//! - [`traders`]: Traders & Builders (tiles, goods, builders, pigs) in `.jcz` saves: the
//!   mapping the importer delegates to it;
//! - [`abbot`]: The Abbot and gardens in `.jcz` saves (elements, garden tiles, the
//!   abbot's deployment and return);
//! - [`magewitch`]: Mage & Witch in `.jcz` saves: its sets, elements and figure moves;
//! - [`flier`]: The Flying Machines in `.jcz` saves: its sets, element, flights and
//!   landings;
//! - [`ferries`]: The Ferries in `.jcz` saves: its set, element and ferry messages;
//! - [`castles`], [`gold`], [`crop`]: the castles of BC&B, Gold Mines and Crop Circles in
//!   `.jcz` saves (sets, elements, their tokens and messages, the mapping's parent ruleset);
//! - [`robbers`]: the Robbers in a save's test assertions (their scoring's category);
//! - `dummy` (with the `test-dummy` feature only): the tests' dummy expansion's made-up
//!   element;
//! - [`draws`]: JCloisterZone's tile pack and random draws, reproduced (discards, the end
//!   of the game);
//! - [`assertions`]: the `test.assertions` of a save, checked against a replay;
//! - [`replay`]: driving the engine through a record (own or `.jcz`), under its own ruleset
//!   or another one, and the first divergence between two replays.

pub mod abbot;
pub mod assertions;
pub mod bcb;
pub mod castles;
pub mod crop;
pub mod draws;
#[cfg(feature = "test-dummy")]
pub mod dummy;
pub mod ferries;
pub mod flier;
pub mod gold;
pub mod inns;
pub mod jcz;
pub mod magewitch;
pub mod replay;
pub mod river;
pub mod robbers;
pub mod traders;
