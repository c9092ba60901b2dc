//! koma: a data-driven rules interpreter for the shogi family of games.
//!
//! The pipeline, one module per stage, each importing only the one before it:
//! [`parse`] (text to syntax tree) → [`compile`] (names resolved, movement lowered,
//! every diagnostic collected) → [`rules`] (span-free tables).

pub mod compile;
pub mod engine;
#[cfg(feature = "test-support")]
pub mod fuzzing;
pub mod game;
pub mod notation;
pub mod parse;
pub mod rules;
pub mod show;
