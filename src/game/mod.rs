//! The interpreter: positions, legal moves by walking the move tables unrolled from the rules, legality by the
//! rules' names, and perft.

mod attack;
mod board;
#[cfg(feature = "test-support")]
mod is_legal;
mod legality;
mod movegen;
pub mod movement;
mod moves;
mod occupancy;
mod outcome;
mod perft;
mod position;
pub(crate) mod random;
pub mod tables;
mod walks;

pub use board::{Geometry, NO_SQ, Sq, code_kind, code_side};
pub use legality::Legality;
pub use movegen::LionCounting;
pub use moves::{Illegal, Move};
pub use outcome::{EndReason, Game, GameResult};
pub use perft::{perft, perft_divide};
pub use position::{MAX_MOVE_NUMBER, Position, PositionError, Setup, Undo};
pub use tables::MoveTables;
