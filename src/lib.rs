//! koma: a data-driven rules interpreter for the shogi family of games.
//!
//! The pipeline, one module per stage, each importing only the one before it:
//! [`parse`] (text to syntax tree) → [`compile`] (names resolved, movement lowered,
//! every diagnostic collected) → [`rules`] (span-free tables). [`files`], below them all, is
//! how any stage reads and writes files on disk.

pub mod compile;
pub mod engine;
pub mod files;
pub mod fuzzing;
pub mod game;
pub mod notation;
pub mod parse;
pub mod rules;
pub mod show;
