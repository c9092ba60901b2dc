//! Perft: the number of legal move sequences of a given length, counted with the last ply
//! in bulk. Buffers are allocated once per depth, not per move, and one scratch serves the
//! whole count. The repetition rule is not
//! applied: a position's counts do not depend on how it was reached.

use super::movegen::LionCounting;
use super::moves::Move;
use super::position::Position;
use super::scratch::Scratch;

/// The number of leaf nodes `depth` plies from `pos`.
pub fn perft(pos: &Position, depth: u32, counting: LionCounting) -> u64 {
    let mut pos = pos.clone();
    let mut buffers: Vec<Vec<Move>> = (0..depth.max(1)).map(|_| Vec::with_capacity(256)).collect();
    count(&mut pos, &mut Scratch::default(), depth, counting, &mut buffers)
}

/// The count under each legal root move.
pub fn perft_divide(pos: &Position, depth: u32, counting: LionCounting) -> Vec<(Move, u64)> {
    let mut pos = pos.clone();
    let mut scratch = Scratch::default();
    let mut moves = Vec::new();
    scratch.legal_moves_ignoring_history_into(&mut pos, &mut moves, counting);
    let mut buffers: Vec<Vec<Move>> = (0..depth.max(1)).map(|_| Vec::with_capacity(256)).collect();
    moves
        .into_iter()
        .map(|m| {
            let undo = pos.make(&m);
            let n = if depth <= 1 {
                1
            } else {
                count(&mut pos, &mut scratch, depth - 1, counting, &mut buffers)
            };
            pos.unmake(&m, &undo);
            (m, n)
        })
        .collect()
}

fn count(
    pos: &mut Position,
    scratch: &mut Scratch,
    depth: u32,
    counting: LionCounting,
    buffers: &mut [Vec<Move>],
) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (buffer, rest) = buffers.split_first_mut().expect("a buffer per ply");
    if depth == 1 {
        return scratch.count_legal(pos, buffer, counting);
    }
    scratch.legal_moves_ignoring_history_into(pos, buffer, counting);
    let mut total = 0;
    for &m in buffer.iter() {
        let undo = pos.make(&m);
        total += count(pos, scratch, depth - 1, counting, rest);
        pos.unmake(&m, &undo);
    }
    total
}
