//! Positions and moves as text: SFEN position strings, USI moves, the Shogi
//! Association's (TSA) move notation, game records, and a variant as XBoard sees it
//! ([`xboard`]: its squares, moves, FEN and each piece's moves in XBetza).

mod record;
mod sfen;
mod taken;
mod tsa;
mod usi;
pub mod xboard;

pub use record::{
    EXCERPT_CHARS, MAX_RECORD_BYTES, MAX_RECORD_MOVES, Record, RecordError, excerpt, parse_record, played_text,
    read_record_file, replay, result_token, tags_with_outcome, write_record,
};
pub use sfen::{SfenError, read_sfen, write_sfen};
pub use taken::describe_taken;
pub use tsa::{MoveError, legal_tsa, read_move, write_tsa, write_tsa_all};
pub use usi::{UsiError, distinct_move, legal_usi, read_usi, write_usi};
