//! The static evaluation: material at the values the variant file declares, pieces in hand
//! worth a little more than on the board, a small bonus for advancing pieces (and for
//! keeping royal pieces home), and terms every variant gets from its compiled tables: the
//! mobility of each piece along its runs of squares, attacks on the squares next to the
//! royals, pressure on the promotion zone, and the protection of the pieces the Lion-trading
//! rules single out. The weights are data ([`WEIGHTS`]), the same for every variant;
//! everything else is read from the rules. Nothing names a piece.

use crate::game::tables::{code_kind, code_side};
use crate::game::{MoveTables, Position, Sq};
use crate::rules::{LionRole, Mode, PieceId, PromotionEvent, Side, Square};
use std::sync::Arc;

/// The weights of the evaluation's terms, in the units of the declared values (a Pawn is 100
/// in every shipped variant).
pub(crate) struct Weights {
    /// Per square a piece (not a royal) can move to along its runs of squares (steps, slides,
    /// leaps; not the Lion's walked moves), counted on the board as it stands.
    pub mobility: i32,
    /// Per square next to a royal that the opponent attacks.
    pub royal_attack: i32,
    /// Hundredths of what promoting gains, for a piece that may promote standing in the
    /// promotion zone; half of it one rank short of the zone.
    pub zone_percent: i32,
    /// Hundredths of its value, for a Lion (under the Lion-trading rules) its own side
    /// protects: the opponent's Lion may not take it from afar.
    pub protected_lion_percent: i32,
}

/// The weights every variant is evaluated with.
pub(crate) const WEIGHTS: Weights = Weights {
    mobility: 2,
    royal_attack: 10,
    zone_percent: 20,
    protected_lion_percent: 5,
};

/// The most squares a board has (the attack map's size).
const MAX_SQUARES: usize = crate::rules::MAX_BOARD_SIDE as usize * crate::rules::MAX_BOARD_SIDE as usize;

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
    /// Whether some kind burns its neighbours (a move may then change squares around its
    /// destination).
    pub burners: bool,
    /// Every square by index.
    pub squares: Vec<Square>,
    /// Position bonus per (kind, side, square): advance and centre (royals: staying home),
    /// and the promotion zone's pressure.
    square_bonus: Vec<i32>,
    /// The kinds the Lion-trading rules protect from a distant Lion (0 for the others): the
    /// bonus when their side protects them.
    protected_bonus: Vec<i32>,
    /// Whether any kind has a protection bonus.
    any_protected: bool,
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
        let promote_gain: Vec<i32> = tables
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
        let zone = rules
            .promotion
            .iter()
            .filter_map(|trigger| match trigger.when {
                PromotionEvent::Zone { depth, .. } => Some(i32::from(depth)),
                PromotionEvent::Capture => None,
            })
            .max()
            .unwrap_or(0);
        let n = geo.len();
        let mut square_bonus = vec![0; value.len() * 2 * n];
        for (k, &gain) in promote_gain.iter().enumerate() {
            for side in [Side::Black, Side::White] {
                for sq in 0..n as Sq {
                    // 0 on the side's own back rank, `span` on the far rank.
                    let advance = ranks - i32::from(geo.depth(side, sq));
                    let file = i32::from(geo.square(sq).file);
                    let off_centre = (2 * file - files - 1).abs() / 2;
                    let centre = CENTRE * (half - off_centre.min(half)) / half;
                    // Ranks short of the zone (0 inside it).
                    let short = (i32::from(geo.depth(side, sq)) - zone).max(0);
                    let pressure = match (zone, short) {
                        (0, _) => 0,
                        (_, 0) => gain * WEIGHTS.zone_percent / 100,
                        (_, 1) => gain * WEIGHTS.zone_percent / 200,
                        _ => 0,
                    };
                    let bonus = if royal[k] {
                        -ROYAL_ADVANCE * advance / span
                    } else {
                        ADVANCE * advance / span + centre + pressure
                    };
                    square_bonus[(k * 2 + side.index()) * n + usize::from(sq)] = bonus;
                }
            }
        }
        let protected_bonus: Vec<i32> = rules
            .pieces
            .iter()
            .enumerate()
            .map(|(k, p)| {
                if rules.end.lion_trading && p.lion == LionRole::Lion {
                    value[k] * WEIGHTS.protected_lion_percent / 100
                } else {
                    0
                }
            })
            .collect();
        Eval {
            any_protected: protected_bonus.iter().any(|&b| b != 0),
            value,
            order_value,
            promote_gain,
            hand_value,
            hand_kinds,
            royal,
            squares,
            square_bonus,
            protected_bonus,
            burners: tables.kinds().iter().any(|k| k.burns),
            has_royals: rules.pieces.iter().any(|p| p.royal),
            bare_king: rules.end.bare_king,
            check_wins: rules.end.check_wins,
            tables,
        }
    }

    /// The piece on a square by index: owner and kind.
    #[inline]
    pub fn piece(&self, pos: &Position, sq: Sq) -> Option<(Side, PieceId)> {
        pos.piece_on(sq)
    }

    /// Whether the kind is royal.
    pub fn is_royal(&self, kind: PieceId) -> bool {
        self.royal[kind.index()]
    }

    /// A score from Black's point of view, seen by the side to move.
    #[inline]
    pub fn for_side_to_move(&self, pos: &Position, black: i32) -> i32 {
        match pos.side_to_move() {
            Side::Black => black,
            Side::White => -black,
        }
    }

    /// The declared values and square bonuses of the pieces on the board, from Black's point
    /// of view: the part of the evaluation the search keeps up to date move by move
    /// ([`Eval::square_share`]).
    pub fn board_share(&self, pos: &Position) -> i32 {
        (0..pos.board.len() as Sq)
            .map(|sq| self.square_share(pos.board[usize::from(sq)], sq))
            .sum()
    }

    /// What the piece `code` (0: none) standing on `sq` adds to [`Eval::board_share`].
    #[inline]
    pub fn square_share(&self, code: u16, sq: Sq) -> i32 {
        if code == 0 {
            return 0;
        }
        let (side, kind) = (code_side(code), code_kind(code));
        let (s, k) = (side.index(), kind.index());
        let share = self.value[k] + self.square_bonus[(k * 2 + s) * self.squares.len() + usize::from(sq)];
        match side {
            Side::Black => share,
            Side::White => -share,
        }
    }

    /// The pieces in hand, from Black's point of view.
    pub fn hand_share(&self, pos: &Position) -> i32 {
        let mut score = 0;
        for &k in &self.hand_kinds {
            let held = pos.in_hand(Side::Black, k) as i32 - pos.in_hand(Side::White, k) as i32;
            score += held * self.hand_value[k.index()];
        }
        score
    }

    /// The terms read from the pieces' runs of squares as the board stands, from Black's
    /// point of view: mobility, attacks next to the royals, protected Lions. The costly part
    /// of the evaluation (every piece's runs are walked).
    pub fn positional(&self, pos: &Position) -> i32 {
        let mut score = [0i32; 2];
        // Per square: which sides attack it (bit 1 Black, bit 2 White).
        let mut attacks = [0u8; MAX_SQUARES];
        for (sq, &code) in pos.board.iter().enumerate() {
            if code == 0 {
                continue;
            }
            let (side, kind) = (code_side(code), code_kind(code));
            let reach = self.walk_runs(&pos.board, side, kind, sq as Sq, &mut attacks);
            if !self.royal[kind.index()] {
                score[side.index()] += WEIGHTS.mobility * reach;
            }
        }
        for side in [Side::Black, Side::White] {
            let s = side.index();
            let enemy_bit = 1u8 << (1 - s);
            for &royal in pos.royal_squares(side) {
                let near = self
                    .neighbours(royal)
                    .filter(|&sq| attacks[usize::from(sq)] & enemy_bit != 0);
                score[s] -= WEIGHTS.royal_attack * near.count() as i32;
            }
        }
        if self.any_protected {
            for (sq, &code) in pos.board.iter().enumerate() {
                if code == 0 {
                    continue;
                }
                let (side, kind) = (code_side(code), code_kind(code));
                let bonus = self.protected_bonus[kind.index()];
                if bonus != 0 && attacks[sq] & (1u8 << side.index()) != 0 {
                    score[side.index()] += bonus;
                }
            }
        }
        score[0] - score[1]
    }

    /// Walks the runs of squares of a piece on the board as it stands: marks the squares it
    /// attacks (its own pieces it protects included) and returns how many squares it can
    /// move to.
    fn walk_runs(&self, board: &[u16], side: Side, kind: PieceId, sq: Sq, attacks: &mut [u8]) -> i32 {
        let bit = 1u8 << side.index();
        let mut reach = 0;
        for ray in self.tables.rays(kind, side, sq) {
            let (moves, captures) = match ray.mode {
                Mode::Any | Mode::CaptureUnprotected => (true, true),
                Mode::MoveOnly => (true, false),
                Mode::CaptureOnly => (false, true),
            };
            for to in ray.squares() {
                let code = board[usize::from(to)];
                if code == 0 {
                    reach += i32::from(moves);
                    if captures {
                        attacks[usize::from(to)] |= bit;
                    }
                } else {
                    if captures {
                        attacks[usize::from(to)] |= bit;
                        reach += i32::from(code_side(code) != side);
                    }
                    break;
                }
            }
        }
        reach
    }

    /// The squares next to `sq`.
    pub fn neighbours(&self, sq: Sq) -> impl Iterator<Item = Sq> + '_ {
        let geo = self.tables.geometry();
        (-1..=1)
            .flat_map(|df| (-1..=1).map(move |dr| (df, dr)))
            .filter(|&d| d != (0, 0))
            .filter_map(move |(df, dr)| geo.step(sq, df, dr))
    }
}
