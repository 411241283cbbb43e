//! File output below both the run and the report layers: single files written atomically
//! ([`atomic`]), JSON read and written whole ([`json`]), output folders that appear whole or
//! not at all ([`folder`]) and the names of what a run writes into one ([`names`]). Nothing
//! here knows what a run or a report is; [`crate::compare`] and [`crate::report`] both write
//! through it.

pub mod atomic;
pub mod folder;
pub mod json;
pub mod names;
