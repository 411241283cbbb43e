//! The rule language: lexer and parser (nom, spans kept), AST, the option registry, value
//! typing, resolution of `extends`/`include` into one typed [`Ruleset`], validation,
//! diagnostics and printing back. This module is the public front door:
//!
//! - [`load_ruleset`] / [`load_ruleset_str`] → [`Loaded`] (ruleset + warnings) or
//!   [`Diagnostics`] (every problem found, rendered rustc-style by `Display`);
//! - [`print_ruleset`] writes a resolved ruleset back in the language;
//! - [`registry`] documents every option (`meeplab check --list-options`);
//! - [`codes`] explains every diagnostic code (`meeplab explain CODE`).
//!
//! The way from text to a [`Ruleset`], one module a step: [`lexer`] and [`parse`] (items,
//! recovery) with [`parse_value`] (values and formulas) → [`ast`]; [`resolve`] runs the load:
//! `load` (files, `extends`/`include`), `scope` (the items applied in order, each option
//! typed by [`typing`] against the [`registry`], each tile checked by [`validate`]), `build`
//! (tile sets, deck, start tile, defaults, warnings) and `assemble` (typed options onto the
//! [`Ruleset`]). [`diagnostic`] renders what goes wrong; [`mod@print`] writes a ruleset back.

mod assemble;
pub mod ast;
mod build;
pub mod bundled;
pub mod codes;
pub mod diagnostic;
pub mod lexer;
mod load;
pub mod parse;
pub mod parse_value;
pub mod print;
pub mod registry;
pub mod resolve;
mod scope;
pub mod typing;
pub mod validate;

pub use bundled::locate;
pub use diagnostic::{Diagnostic, Diagnostics, Severity};
pub use print::print_ruleset;
pub use resolve::{load_ruleset, load_ruleset_str, load_ruleset_str_isolated, Loaded};

#[allow(unused_imports)]
use crate::ruleset::Ruleset;
