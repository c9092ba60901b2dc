//! The move generation the search uses instead of generating every move, checked against
//! every move on random positions of every variant the fuzz targets play (the shipped ones,
//! with their contested options, and the test menageries of special movers):
//! - `pseudo_captures` gives the moves of `pseudo_moves` that capture, in the same order;
//! - `pseudo_moves_from` gives the moves of `pseudo_moves` that the piece on its square
//!   makes, in the same order (passes aside: a position writes its one pass as the first
//!   passing piece's);
//! - `passes_legality`, asked of each pseudo-legal move as it comes up (the moves found
//!   legal played and taken back in between, as the search does), keeps exactly the moves
//!   `legal_moves_ignoring_history_into` keeps;
//! - `attackers` names exactly the pieces that have a move ending on the square, for every
//!   square an enemy piece stands on (in a game not yet over), and so do the attackers
//!   looked up in tables with the slow attackers added.

use koma::fuzzing::{self, Bytes, VARIANTS};
use koma::game::{LionCounting, Move, Position, Scratch, Sq};
use koma::notation::write_sfen;

/// Random positions of each variant: a few games, positions along each.
fn each_position(mut check: impl FnMut(&mut Position)) {
    // The variant's name is in each failure's message: `rules().name`.
    for index in 0..VARIANTS.len() {
        let tables = fuzzing::tables(index);
        let mut choose = Bytes::from_seed(index as u64 * 7919 + 1);
        for _ in 0..4 {
            let mut pos = Position::start(tables.clone());
            for _ in 0..8 {
                pos = fuzzing::random_position(pos, 10, &mut choose);
                check(&mut pos);
            }
        }
    }
}

/// Whether a move takes an enemy piece.
fn captures(pos: &Position, m: &Move) -> bool {
    let side = pos.side_to_move();
    !m.is_drop() && m.captures().any(|sq| pos.piece(sq).is_some_and(|p| p.side() != side))
}

#[test]
fn pseudo_captures_are_the_capturing_pseudo_moves() {
    let (mut all, mut caps) = (Vec::new(), Vec::new());
    each_position(|pos| {
        for counting in [LionCounting::Distinct, LionCounting::Paths] {
            all.clear();
            pos.pseudo_moves(&mut all, counting);
            pos.pseudo_captures(&mut caps, counting);
            let expected: Vec<Move> = all.iter().filter(|m| captures(pos, m)).copied().collect();
            assert_eq!(caps, expected, "{counting:?} in {}", write_sfen(pos));
        }
    });
}

#[test]
fn moves_checked_for_legality_one_at_a_time_are_the_legal_moves() {
    let (mut pseudo, mut legal) = (Vec::new(), Vec::new());
    each_position(|pos| {
        pos.legal_moves_ignoring_history_into(&mut legal, LionCounting::Distinct);
        pseudo.clear();
        pos.pseudo_moves(&mut pseudo, LionCounting::Distinct);
        let mut scratch = Scratch::default();
        let legality = scratch.legality_ignoring_history(pos);
        let mut kept = Vec::new();
        for m in &pseudo {
            if scratch.passes_legality(pos, &legality, m) {
                kept.push(*m);
                let undo = pos.make(m);
                pos.unmake(m, &undo);
            }
        }
        legal.sort_by_key(|m| pseudo.iter().position(|p| p == m));
        assert_eq!(kept, legal, "in {}", write_sfen(pos));
    });
}

#[test]
fn pseudo_moves_from_a_square_are_that_pieces_pseudo_moves() {
    let (mut all, mut own) = (Vec::new(), Vec::new());
    each_position(|pos| {
        all.clear();
        pos.pseudo_moves(&mut all, LionCounting::Distinct);
        for from in pos.geometry().squares() {
            pos.pseudo_moves_from(from, &mut own, LionCounting::Distinct);
            let expected: Vec<Move> = all
                .iter()
                .filter(|m| m.from == Some(from) && !m.is_pass())
                .copied()
                .collect();
            own.retain(|m| !m.is_pass());
            assert_eq!(own, expected, "from {from:?} in {}", write_sfen(pos));
        }
    });
}

#[test]
fn attackers_are_the_pieces_that_can_take_on_the_square() {
    let (mut all, mut attackers) = (Vec::new(), Vec::new());
    each_position(|pos| {
        let side = pos.side_to_move();
        if pos.over_before_moving() {
            // The game is over: no piece moves, whatever attacks what.
            return;
        }
        all.clear();
        pos.pseudo_moves(&mut all, LionCounting::Distinct);
        for sq in pos.geometry().squares() {
            if pos.piece(sq).is_none_or(|p| p.side() == side) {
                continue;
            }
            let mut expected: Vec<Sq> = all.iter().filter(|m| m.to == sq).filter_map(|m| m.from).collect();
            expected.dedup();
            pos.attackers(sq, side, &mut attackers);
            assert_eq!(
                attackers,
                expected,
                "on {sq:?} in {} {}",
                pos.rules().name,
                write_sfen(pos)
            );
            assert_eq!(pos.attacked(sq, side), !expected.is_empty());
            pos.attackers_looked_up(sq, side, &mut attackers);
            pos.add_slow_attackers(sq, side, &mut attackers);
            assert_eq!(
                attackers,
                expected,
                "looked up, then slow, on {sq:?} in {}",
                write_sfen(pos)
            );
        }
    });
}
