//! The static evaluation: material at the values the variant file declares, pieces in hand
//! worth a little more than on the board, and a small bonus for advancing pieces (and for
//! keeping royal pieces home). Everything is read from the rules; nothing names a piece.

use crate::game::{MoveTables, Position, Sq};
use crate::rules::{PieceId, Side, Square};
use std::sync::Arc;

/// Declared values are capped here, so that no material sum reaches a mate score.
const MAX_VALUE: u32 = 100_000;
/// A piece in hand is worth this many hundredths of its value on the board.
const HAND_PERCENT: i32 = 115;
/// The most an ordinary piece gains by standing on the far rank rather than its own.
const ADVANCE: i32 = 24;
/// The most a piece gains by standing in the centre of the board rather than on an edge.
const CENTRE: i32 = 8;
/// The most a royal piece loses by standing on the far rank rather than its own.
const ROYAL_ADVANCE: i32 = 48;
/// What ordering counts a royal as when it can be captured: more than any piece.
pub(crate) const ROYAL_ORDER: i32 = 1_000_000;

/// Per-variant tables for evaluation and move ordering, built once from the rules.
pub(crate) struct Eval {
    pub tables: Arc<MoveTables>,
    /// Declared value per kind.
    pub value: Vec<i32>,
    /// Value per kind for ordering captures (royals above everything).
    pub order_value: Vec<i32>,
    /// Value gained per kind by promoting (0 when it cannot).
    pub promote_gain: Vec<i32>,
    /// Value of one piece in hand, per kind.
    hand_value: Vec<i32>,
    /// The kinds that can be held in hand.
    hand_kinds: Vec<PieceId>,
    royal: Vec<bool>,
    /// Every square by index.
    pub squares: Vec<Square>,
    /// Position bonus per (side, square) for ordinary pieces and for royals.
    piece_bonus: [Vec<i32>; 2],
    royal_bonus: [Vec<i32>; 2],
    drops: bool,
    pub has_royals: bool,
    pub bare_king: bool,
    /// The first check wins: a side to move in check has lost.
    pub check_wins: bool,
}

impl Eval {
    pub fn new(tables: Arc<MoveTables>) -> Eval {
        let rules = tables.rules();
        let geo = tables.geometry();
        let value: Vec<i32> = rules.pieces.iter().map(|p| p.value.min(MAX_VALUE) as i32).collect();
        let royal: Vec<bool> = rules.pieces.iter().map(|p| p.royal).collect();
        let order_value = value
            .iter()
            .zip(&royal)
            .map(|(&v, &r)| if r { ROYAL_ORDER } else { v })
            .collect();
        let promote_gain = tables
            .kinds()
            .iter()
            .enumerate()
            .map(|(k, info)| info.promotion.to.map_or(0, |p| (value[p.index()] - value[k]).max(0)))
            .collect();
        let hand_value = value.iter().map(|v| v * HAND_PERCENT / 100).collect();
        let hand_kinds = if rules.drops {
            rules
                .piece_ids()
                .filter(|&k| tables.kind(k).unpromoted == k && !royal[k.index()])
                .collect()
        } else {
            Vec::new()
        };
        let squares: Vec<Square> = (0..geo.len() as Sq).map(|sq| geo.square(sq)).collect();
        let ranks = i32::from(geo.ranks);
        let files = i32::from(geo.files);
        let span = (ranks - 1).max(1);
        let half = ((files - 1) / 2).max(1);
        let mut piece_bonus = [Vec::new(), Vec::new()];
        let mut royal_bonus = [Vec::new(), Vec::new()];
        for side in [Side::Black, Side::White] {
            for sq in 0..geo.len() as Sq {
                // 0 on the side's own back rank, `span` on the far rank.
                let advance = ranks - i32::from(geo.depth(side, sq));
                let file = i32::from(geo.square(sq).file);
                let off_centre = (2 * file - files - 1).abs() / 2;
                let centre = CENTRE * (half - off_centre.min(half)) / half;
                piece_bonus[side.index()].push(ADVANCE * advance / span + centre);
                royal_bonus[side.index()].push(-ROYAL_ADVANCE * advance / span);
            }
        }
        Eval {
            value,
            order_value,
            promote_gain,
            hand_value,
            hand_kinds,
            royal,
            squares,
            piece_bonus,
            royal_bonus,
            drops: rules.drops,
            has_royals: rules.pieces.iter().any(|p| p.royal),
            bare_king: rules.end.bare_king,
            check_wins: rules.end.check_wins,
            tables,
        }
    }

    /// The piece on a square by index: owner and kind.
    #[inline]
    pub fn piece(&self, pos: &Position, sq: Sq) -> Option<(Side, PieceId)> {
        pos.piece_at(self.squares[usize::from(sq)])
            .map(|(side, kind, _)| (side, kind))
    }

    /// Whether the kind is royal.
    pub fn is_royal(&self, kind: PieceId) -> bool {
        self.royal[kind.index()]
    }

    /// The evaluation from the point of view of the side to move.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let mut score = [0i32; 2];
        for (i, &square) in self.squares.iter().enumerate() {
            if let Some((side, kind, _)) = pos.piece_at(square) {
                let (s, k) = (side.index(), kind.index());
                let bonus = if self.royal[k] {
                    self.royal_bonus[s][i]
                } else {
                    self.piece_bonus[s][i]
                };
                score[s] += self.value[k] + bonus;
            }
        }
        if self.drops {
            for &k in &self.hand_kinds {
                for side in [Side::Black, Side::White] {
                    let n = pos.in_hand(side, k) as i32;
                    score[side.index()] += n * self.hand_value[k.index()];
                }
            }
        }
        let me = pos.side_to_move().index();
        score[me] - score[1 - me]
    }
}
