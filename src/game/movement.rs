//! How the interpreter carries out each movement kind. The kinds are split once, by
//! [`Movement::is_unrolled`], into the kinds unrolled into runs of squares when the tables
//! are built (rides and leaps) and the kinds walked on the board as moves are generated
//! (lions, hooks, `anywhere`, ...). Every consumer matches on [`Movement`] without a
//! fallthrough arm, so a new kind does not compile until every place that must know it does.
//!
//! Here: the reverse views attack detection looks up, and the per-kind facts move
//! generation reads. Elsewhere, each matching on the split:
//! [`Position`](super::Position)'s move generation walks the walked kinds (with the walks of
//! `walks.rs`), attack detection walks the slow ones, and the independent legality check
//! (feature `test-support`) reads every kind its own way. The tables hold each run as a
//! stretch of a line ([`Movement::stretch`]); the compiler checks their number against
//! koma's limits.
//!
//! # Adding a movement kind
//!
//! Check with `cargo check --all-targets --features test-support`, so that the legality
//! check and the property tests are compiled too.
//!
//! 1. The grammar: a rule for its clause in `grammar/variant.pest`, and its word in the one
//!    keyword table, `parse/keywords.rs` (kind: movement), from which the parser phrases what
//!    it expected and the compiler suggests; a test fails until grammar and table agree.
//! 2. The syntax tree: a `MovementSyntax` variant in `parse/ast.rs`, built where the parser
//!    builds the others. The compiler then points to the lowering in `compile/movement.rs`.
//! 3. [`rules::Movement`](crate::rules::Movement): a variant, documented, lowered in
//!    `compile/movement.rs`. The compiler then points to [`Movement::is_unrolled`]: put the
//!    kind on one side, unrolled if it is a fixed run of squares from every square, blocked
//!    by the first piece (give it a [`Movement::stretch`]; the tables then follow), walked
//!    otherwise; and to the other matches on `Movement` (its mode, `can_leave`, the legality
//!    check, the diagram in `show/diagram.rs`, XBetza in `notation/xboard/betza.rs`).
//! 4. Every match the compiler then points to: this module (attack vectors and the per-kind
//!    facts), move generation (walking a walked kind, usually as a walk of `walks.rs` on its
//!    `Walker`), attack detection (`slow_attack`), the legality check, and TSA's pass
//!    squares. None has a fallthrough arm.
//! 5. A row in `docs/language.md`'s table of moves (`tests/docs.rs` fails without it), and
//!    tests: a `.var` snippet using it, its diagram snapshot, and perft counts from an oracle
//!    once a shipped variant uses it.
//!
//! [`Movement`]: crate::rules::Movement
//! [`Movement::is_unrolled`]: crate::rules::Movement::is_unrolled
//! [`Movement::stretch`]: crate::rules::Movement::stretch

use super::board::Geometry;
use crate::rules::{Mode, Movement, Offset, Side};

/// How a movement captures along one board vector, for attack detection's reverse lookup.
pub(super) enum Reach {
    /// Rides up to this many squares (at most the board's longest side).
    Ride(u8),
    Leap,
}

/// The ways a movement captures, as board vectors for `side`, that attack detection looks up
/// in reverse. Hooks, `anywhere` and capture-unprotected moves give none: attack detection
/// walks them (see [`slow_attacker`]).
pub(super) fn attack_vectors(movement: &Movement, side: Side, geo: Geometry) -> Vec<((i32, i32), Reach)> {
    if walked_by_attack(movement) || !movement.mode().can_capture() {
        return vec![];
    }
    match *movement {
        Movement::Ride { dir, max, .. } => {
            let longest = geo.files.max(geo.ranks);
            let reach = max.map_or(longest, |max| max.min(longest));
            vec![(Geometry::board_vector(side, dir), Reach::Ride(reach))]
        }
        Movement::Leap { to, .. } => vec![(Geometry::board_vector(side, to), Reach::Leap)],
        Movement::AreaLion { steps, .. } => {
            let n = i8::try_from(steps).unwrap_or(i8::MAX);
            let mut out = Vec::new();
            for dx in -n..=n {
                for dy in -n..=n {
                    if (dx, dy) != (0, 0) {
                        out.push((Geometry::board_vector(side, Offset::new(dx, dy)), Reach::Leap));
                    }
                }
            }
            out
        }
        Movement::LineLion { dir, steps, .. } => (1..=steps as i8)
            .map(|k| (Geometry::board_vector(side, dir.scale(k)), Reach::Leap))
            .collect(),
        Movement::Igui { dir, .. } => vec![(Geometry::board_vector(side, dir), Reach::Leap)],
        Movement::Hook { .. }
        | Movement::Anywhere { .. }
        | Movement::Area { .. }
        | Movement::RangeJump { .. }
        | Movement::Passing { .. }
        | Movement::Hop { .. }
        | Movement::RangeCapture { .. } => vec![],
    }
}

/// The walked movements of a piece, for move generation.
pub(super) fn walked(moves: &[Movement]) -> Vec<Movement> {
    moves.iter().filter(|m| !m.is_unrolled()).copied().collect()
}

/// Whether attack detection must walk this movement: it cannot be looked up in reverse.
fn walked_by_attack(movement: &Movement) -> bool {
    match movement {
        Movement::Hook { .. }
        | Movement::Anywhere { .. }
        | Movement::Area { .. }
        | Movement::RangeJump { .. }
        | Movement::Passing { .. }
        | Movement::Hop { .. }
        | Movement::RangeCapture { .. } => true,
        Movement::AreaLion { .. } | Movement::LineLion { .. } | Movement::Igui { .. } => {
            movement.mode() == Mode::CaptureUnprotected
        }
        Movement::Ride { .. } | Movement::Leap { .. } => unrolled_walked_by_attack(movement),
    }
}

/// Whether attack detection walks this run (of an unrolled kind) rather than looking it up
/// in reverse: it is capture-unprotected, only from the last rank, or jumps its first squares.
pub(super) fn unrolled_walked_by_attack(unrolled: &Movement) -> bool {
    unrolled.mode() == Mode::CaptureUnprotected || unrolled.from_last_rank() || unrolled.beyond() > 0
}

/// Whether a piece has movements attack detection walks (hooks, `anywhere`, area moves,
/// range jumps, range captures, passing slides, hops, capture-unprotected moves, moves only from the
/// last rank or beyond jumped squares), or burns.
pub(super) fn slow_attacker(moves: &[Movement], burns: bool) -> bool {
    burns || moves.iter().any(walked_by_attack)
}

/// Whether the only movements of a piece attack detection walks are moves from the last rank
/// (`from-last-rank`): off its last rank, the piece is no slow attacker.
pub(super) fn last_rank_attacker_only(moves: &[Movement]) -> bool {
    slow_attacker(moves, false)
        && moves
            .iter()
            .filter(|m| walked_by_attack(m))
            .all(|m| m.from_last_rank() && m.mode() != Mode::CaptureUnprotected)
}

/// Whether the only movements of a piece attack detection walks are hooks.
pub(super) fn hook_attacker_only(moves: &[Movement]) -> bool {
    slow_attacker(moves, false)
        && moves.iter().all(|m| match m {
            Movement::Hook { mode, .. } => *mode != Mode::CaptureUnprotected,
            Movement::Anywhere { .. }
            | Movement::Area { .. }
            | Movement::RangeJump { .. }
            | Movement::RangeCapture { .. }
            | Movement::Passing { .. }
            | Movement::Hop { .. } => false,
            Movement::AreaLion { mode, .. } | Movement::LineLion { mode, .. } | Movement::Igui { mode, .. } => {
                *mode != Mode::CaptureUnprotected
            }
            Movement::Ride { .. } | Movement::Leap { .. } => !unrolled_walked_by_attack(m),
        })
}

/// Whether two movements of a piece can reach the same offset (on an open board): then
/// move generation must de-duplicate its targets.
pub(super) fn overlapping(moves: &[Movement], geo: Geometry) -> bool {
    let longest = geo.files.max(geo.ranks);
    let mut seen: std::collections::HashSet<Offset> = std::collections::HashSet::new();
    for m in moves {
        match m {
            Movement::Ride { .. } | Movement::Leap { .. } => {
                if m.offsets(longest).any(|o| !seen.insert(o)) {
                    return true;
                }
            }
            // Lion, hook, area and Emperor moves reach squares in several ways: always
            // de-duplicate. (Range jumps, igui, passing slides and hops too, for simplicity.)
            Movement::AreaLion { .. }
            | Movement::LineLion { .. }
            | Movement::Hook { .. }
            | Movement::Anywhere { .. }
            | Movement::Area { .. }
            | Movement::RangeJump { .. }
            | Movement::Igui { .. }
            | Movement::RangeCapture { .. }
            | Movement::Passing { .. }
            | Movement::Hop { .. } => return true,
        }
    }
    false
}
