//! Positions and moves as text: SFEN position strings and USI moves.

mod sfen;
mod usi;

pub use sfen::{SfenError, read_sfen, write_sfen};
pub use usi::{UsiError, legal_usi, read_usi, write_usi};
