//! koma: a data-driven rules interpreter for the shogi family of games.
//!
//! Every variant is a `.var` file in koma's own small language (`docs/language.md` is its
//! reference); nothing about a particular variant or piece is written in Rust. A file goes
//! through these stages, one module each (`ARCHITECTURE.md` describes them further):
//!
//! 1. [`parse`]: `.var` text to a syntax tree with byte spans. A broken statement does not
//!    stop the parse: the others are still read.
//!    [`format`](mod@format) lays a file out in the canonical layout (`koma fmt`) from the parse
//!    stage's concrete syntax tree, keeping its words and comments.
//! 2. [`compile`]: the syntax tree to the rules. Names are resolved (pieces, options, the
//!    files a variant `use`s, read through a [`Loader`](compile::Loader)), each piece's moves
//!    are lowered to movement entries, and the whole is cross-checked. Every mistake goes
//!    into one [`Report`](compile::Report) of miette diagnostics (file, line, labelled span,
//!    help); the rules exist only when there is no error.
//! 3. [`rules`]: what the compiler produces and everything after it reads: flat, span-free,
//!    serialisable data ([`Rules`](rules::Rules); `koma compile` prints them as RON).
//! 4. [`game`]: the interpreter. [`MoveTables`](game::MoveTables) unrolls the rules' rides
//!    and leaps into runs of squares from every square; a [`Position`](game::Position)
//!    generates the legal moves (walking the lion, hook and `anywhere` moves on the board),
//!    makes and unmakes them, and names the rule an illegal move breaks; a
//!    [`Game`](game::Game) keeps the history and decides the outcome; [`perft`](game::perft)
//!    counts move sequences. The interpreter's `game/movement.rs` says how each movement
//!    kind is carried out, and how to add one.
//! 5. [`notation`] and [`engine`], side by side over the game: positions and moves as text
//!    (SFEN, USI, the rule texts' notation, game records, XBoard's moves and XBetza), and the
//!    computer player (and its answer to a draw offer).
//! 6. What every front end starts from: [`variant`] compiles a variant into a
//!    [`Variant`](variant::Variant) (the report is the error) and starts its games
//!    ([`Start`](variant::Start): the start, a handicap or a position), with who plays each
//!    side and the texts front ends share.
//! 7. Front ends: [`show`] draws each piece's moves from the rules; the `koma` binary
//!    (`src/cli`) offers the commands `check`, `fmt`, `compile`, `show`, `perft`, `moves`,
//!    `play`, `usi`, `xboard`, `betza`, `xboard-pieces`, `serve`, `lsp` and `bench` (and, for
//!    tuning the evaluation, `selfplay` and `eval-terms`) over all of the above.
//!
//! Each stage imports only earlier ones:
//!
//! | stage | imports |
//! |---|---|
//! | `parse` | nothing |
//! | `format` | `parse` |
//! | `compile` | `parse`, `rules`, `files` |
//! | `rules` | nothing |
//! | `game` | `rules` |
//! | `notation` | `game`, `rules`, `files` |
//! | `engine` | `game`, `rules`, `files` |
//! | `variant` | `compile`, `game`, `notation`, `rules` |
//! | `show` | `parse` (its table of directions), `compile` (its `suggest`), `rules` |
//! | the binary (`src/cli`) | any of them |
//!
//! [`files`], below them all, is how any stage reads and writes files on disk (regular files
//! only; saves that never leave a file half written).
//!
//! Test support is not part of the shipped library: the independent legality check
//! `Position::is_legal` and the module `fuzzing` (the checks the fuzz targets and the
//! property tests run) exist only with the cargo feature `test-support`. The library has no
//! unsafe code (`forbid(unsafe_code)`).
//!
//! # Example: a shipped variant
//!
//! Compile Shogi (a shipped variant, by name), start a game and play a move typed in the
//! rule texts' notation.
//!
//! ```
//! use koma::compile::compile_named;
//! use koma::game::{Game, MoveTables, Position};
//! use koma::notation::{read_move, write_sfen, write_usi};
//! use std::sync::Arc;
//!
//! let compiled = compile_named("shogi", &[]);
//! let rules = compiled.rules.expect("the shipped Shogi compiles");
//! let mut game = Game::new(Position::start(Arc::new(MoveTables::new(rules))));
//! assert_eq!(game.legal_moves().len(), 30);
//!
//! let pawn = read_move(game.position(), "P-7f").expect("a legal move");
//! assert_eq!(write_usi(game.position(), &pawn), "7g7f");
//! game.play(pawn).expect("legal");
//! assert_eq!(
//!     write_sfen(game.position()),
//!     "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2"
//! );
//! ```
//!
//! # Example: a variant of your own
//!
//! From `.var` text to a legal move: a Lion, a King and three Golds on a 5 × 5 board.
//!
//! ```
//! use koma::compile::{MemoryLoader, Source, compile};
//! use koma::game::{Position, MoveTables};
//! use koma::notation::{read_move, write_sfen, write_usi};
//! use std::sync::Arc;
//!
//! let text = r#"
//! variant "Tiny Lion"
//! board 5 x 5
//! piece K  "King" sfen k royal : step all
//! piece Ln "Lion" sfen n       : lion
//! piece G  "Gold" sfen g       : step orthogonal forward-diagonal
//! setup
//!   d: . G G G .
//!   e: . Ln K . .
//! "#;
//!
//! // Parse and compile (a `use` of another variant would be read through the loader).
//! let source = Source { name: "tiny.var".into(), text: text.into() };
//! let compiled = compile(source, &MemoryLoader::default(), &[]);
//! assert!(compiled.report.diagnostics.is_empty(), "{}", compiled.report.render(false));
//! let rules = compiled.rules.expect("rules when there is no error");
//!
//! // Interpret: the start position and its legal moves.
//! let mut pos = Position::start(Arc::new(MoveTables::new(rules)));
//! let moves = pos.legal_moves();
//! assert_eq!(moves.len(), 21);
//!
//! // A move in the rule texts' notation: the Lion jumps over its own Gold.
//! let lion_jump = read_move(&mut pos, "Ln-4c").expect("a legal move");
//! assert!(moves.contains(&lion_jump));
//! assert_eq!(write_usi(&pos, &lion_jump), "4e4c");
//! // Three squares away is beyond a Lion: the error says why.
//! let error = read_move(&mut pos, "Ln-4b").unwrap_err();
//! assert!(error.to_string().contains("the Lion (Ln) on 4e cannot move so"), "{error}");
//!
//! pos.make(&lion_jump);
//! assert_eq!(write_sfen(&pos), "2kn1/1ggg1/1N3/1GGG1/2K2 w - 2");
//! ```

#![forbid(unsafe_code)]

pub mod compile;
pub mod engine;
pub mod files;
pub mod format;
#[cfg(feature = "test-support")]
pub mod fuzzing;
pub mod game;
pub mod notation;
pub mod parse;
pub mod rules;
pub mod show;
pub mod variant;
