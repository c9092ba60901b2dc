//! Perft: the number of legal move sequences of a given length, counted with the last ply
//! in bulk. Buffers are allocated once per depth, not per move. The repetition rule is not
//! applied: a position's counts do not depend on how it was reached.

use super::movegen::LionCounting;
use super::moves::Move;
use super::position::Position;

/// The number of leaf nodes `depth` plies from `pos`.
pub fn perft(pos: &mut Position, depth: u32, counting: LionCounting) -> u64 {
    let mut buffers: Vec<Vec<Move>> = (0..depth.max(1)).map(|_| Vec::with_capacity(256)).collect();
    count(pos, depth, counting, &mut buffers)
}

/// The count under each legal root move.
pub fn perft_divide(pos: &mut Position, depth: u32, counting: LionCounting) -> Vec<(Move, u64)> {
    let mut moves = Vec::new();
    pos.legal_moves_ignoring_history_into(&mut moves, counting);
    let mut buffers: Vec<Vec<Move>> = (0..depth.max(1)).map(|_| Vec::with_capacity(256)).collect();
    moves
        .into_iter()
        .map(|m| {
            let undo = pos.make(&m);
            let n = if depth <= 1 {
                1
            } else {
                count(pos, depth - 1, counting, &mut buffers)
            };
            pos.unmake(&m, &undo);
            (m, n)
        })
        .collect()
}

fn count(pos: &mut Position, depth: u32, counting: LionCounting, buffers: &mut [Vec<Move>]) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (buffer, rest) = buffers.split_first_mut().expect("a buffer per ply");
    if depth == 1 {
        return pos.count_legal(buffer, counting);
    }
    pos.legal_moves_ignoring_history_into(buffer, counting);
    let mut total = 0;
    for &m in buffer.iter() {
        let undo = pos.make(&m);
        total += count(pos, depth - 1, counting, rest);
        pos.unmake(&m, &undo);
    }
    total
}
