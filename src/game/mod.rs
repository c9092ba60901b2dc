//! The interpreter: positions, legal moves by walking the move tables unrolled from the
//! rules, legality by the rules' names, and perft.
//!
//! For a front end: build [`MoveTables`] once from a variant's [`Rules`](crate::rules::Rules),
//! start a [`Position`] ([`Position::start`], a handicap, or [`Position::from_setup`]) and
//! play it in a [`Game`], which keeps the moves as played ([`Played`]: what each took, and its
//! text in a game given a [`Notation`]) and says when and why the game ended
//! ([`Game::outcome`]: the rules' endings, or one declared, such as a resignation). A
//! [`Move`] names its squares as [`Sq`] (`None` where it has none: a drop's start);
//! [`Geometry`] turns them into the rule texts' [`Square`](crate::rules::Square)s and back.
//! [`Position::check_legal`] names the rule a move breaks ([`Illegal`]). Every such question
//! takes the position by `&`; a program that asks it of many positions (a search) keeps a
//! [`Scratch`] and plays on its own position, so that nothing is allocated per position.
//!
//! The rooms: `board` (squares, geometry, pieces), `moves` (moves and why one is
//! illegal), `tables` (the rules unrolled over the board), `movement` (how each movement
//! kind is carried out), `movegen` and `walks` (pseudo-legal moves), `attack` (attack
//! detection), `legality` (the legality rules), `position` (a position, making and unmaking
//! moves), `scratch` (what generation works in, owned by whoever generates), `outcome` (the
//! game and its end), `played` (a move as the game keeps it), `perft`; `is_legal` (feature
//! `test-support`) is an independent legality check the tests hold the generator against.

mod attack;
mod board;
#[cfg(feature = "test-support")]
mod is_legal;
mod legality;
mod movegen;
mod movement;
mod moves;
mod occupancy;
mod outcome;
mod perft;
mod played;
mod position;
pub(crate) mod random;
mod scratch;
mod tables;
mod walks;

pub use board::{Geometry, Piece, Sq};
pub use legality::Legality;
pub use movegen::LionCounting;
pub use moves::{Illegal, Move};
pub use outcome::{EndReason, Game, Outcome, verdict_winner};
pub use perft::{perft, perft_divide};
pub use played::{Notation, Played, TakenPiece};
pub use position::{MAX_MOVE_NUMBER, Position, PositionError, Setup, Undo};
pub use scratch::Scratch;
pub use tables::{KindInfo, MoveTables};
