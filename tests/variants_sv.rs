//! Wa, Whale, Heian and Heian-Dai Shogi, the 'Shogi Variants' (SV) games with no other
//! program to count against but Wa (HaChu, `tests/perft/wa.perft`): every piece's
//! destinations on an empty board as SV's piece tables give them (transcribed, with their
//! source, in `tests/destinations/`), and one test per special rule of each game, named
//! after the rule.

mod support;

use koma::game::{EndReason, Game, Illegal};
use koma::rules::Side;
use std::collections::BTreeSet;
use support::*;

fn game(variant: &str, options: &[&str], sfen: &str) -> Game {
    Game::new(position(variant, options, sfen))
}

// ------------------------------------------------------------------ Wa

/// Wa, drops off (the default, SV's piece table and HaChu): a captured piece leaves the game.
#[test]
fn wa_optional_drops_off_captured_pieces_leave_the_game() {
    let mut pos = position("wa", &[], "k10/11/11/11/11/5p5/5P5/11/11/11/10K b - 1");
    play(&mut pos, "6g6f");
    assert_eq!(in_hand(&pos, Side::Black, "SP"), 0);
    assert_eq!(legal_drops(&mut pos), Vec::<String>::new());
}

/// Wa, drops on (SV's option): a captured piece goes to the hand, with Shogi's limits for the
/// Sparrow Pawn: none on a file that holds an unpromoted one, none on the last rank.
#[test]
fn wa_optional_drops_on_captured_pieces_are_dropped_with_the_sparrow_pawn_limits() {
    let mut pos = position("wa", &["drops=on"], "k10/11/11/11/11/5p5/5P5/11/11/11/10K b - 1");
    play(&mut pos, "6g6f");
    assert_eq!(in_hand(&pos, Side::Black, "SP"), 1);
    play(&mut pos, "11a11b");
    let drops = legal_drops(&mut pos);
    assert!(drops.contains(&"P*5e".to_string()), "{drops:?}");
    assert!(!drops.contains(&"P*6e".to_string()), "a Sparrow Pawn stands on file 6: {drops:?}");
    assert!(!drops.contains(&"P*5a".to_string()), "no move from the last rank: {drops:?}");
}
