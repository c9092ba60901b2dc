//! The static evaluation: material at the values the variant file declares (or those its
//! weights set gives by kind name), pieces in hand worth a share of their value on the board
//! (or the set's value in hand), a small bonus for advancing pieces (and for
//! keeping royal pieces home), and terms every variant gets from its compiled tables: the
//! mobility of each piece along its runs of squares, attacks on the squares next to the
//! royals, the danger a sole royal stands in (counted quadratically: the pieces attacking
//! next to it, the pieces held in hand, the squares next to it only the royal defends, the
//! safe drop checks), pressure on the promotion zone, and the protection of the pieces the
//! Lion-trading rules single out. The weights are data ([`Weights`], from `weights.ron` or a file the user
//! gives); everything else is read from the rules. Nothing names a piece.
//!
//! Given a position, the evaluation is linear in the weights: [`Eval::terms`] gives what each
//! weight multiplies, the numbers a tuning run fits the weights to.

use super::weights::Weights;
use crate::game::{MoveTables, Piece, Position, Sq};
use crate::rules::{LionRole, Mode, PieceId, PromotionEvent, Side, Square};
use std::sync::Arc;

/// The most squares a board has (the attack map's size).
const MAX_SQUARES: usize = crate::rules::MAX_BOARD_SIDE as usize * crate::rules::MAX_BOARD_SIDE as usize;

/// The attack map's bits, per side (shifted by the side's index): the side attacks the
/// square (any piece, its royals included).
const ATTACKED: u8 = 1;
/// The side attacks the square with a piece that is not royal.
const ATTACKED_BY_PIECE: u8 = 4;
/// The square is next to the side's sole royal (whose danger is counted).
const NEXT_TO_ROYAL: u8 = 16;

/// King danger is counted per this many of the square of the danger's units.
const DANGER_SCALE: i32 = 10_000;

/// Declared values are capped here, so that no material sum reaches a mate score.
const MAX_VALUE: u32 = 100_000;
/// What ordering counts a royal as when it can be captured: more than any piece.
pub(crate) const ROYAL_ORDER: i32 = 1_000_000;

/// What each weight multiplies in a position's evaluation, from Black's point of view (Black's
/// share less White's): the evaluation is `material` plus the sum of each weight times its
/// term (up to rounding to whole units).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Terms {
    /// The values of the pieces on the board (the set's, else the declared ones), and of the
    /// pieces in hand whose value in hand the set gives.
    pub material: f64,
    /// Per piece in hand, its value in hundredths ([`Weights::hand_percent`]).
    pub hand_percent: f64,
    /// Per ordinary piece, how far it stands from its own back rank (0 there, 1 on the far
    /// rank) ([`Weights::advance`]).
    pub advance: f64,
    /// Per piece, how near the centre file it stands (1 there, 0 on an edge) ([`Weights::centre`]).
    pub centre: f64,
    /// Per royal piece, how far it stands from its own back rank, negated
    /// ([`Weights::royal_advance`]).
    pub royal_advance: f64,
    /// Per piece that may promote, what promoting gains in hundredths, in the zone; half of
    /// it one rank short ([`Weights::zone_percent`]).
    pub zone_percent: f64,
    /// The squares the pieces (not royals) can move to ([`Weights::mobility`]).
    pub mobility: f64,
    /// The squares next to the royals the opponent attacks, negated ([`Weights::royal_attack`]).
    pub royal_attack: f64,
    /// The square of a sole royal's danger, per [`DANGER_SCALE`], negated
    /// ([`Weights::king_danger`]).
    pub king_danger: f64,
    /// The values in hundredths of the Lions their side protects, under the Lion-trading
    /// rules ([`Weights::protected_lion_percent`]).
    pub protected_lion_percent: f64,
}

impl Terms {
    /// The weighted terms, by the weights' names (material first, weighed 1).
    pub fn columns(&self) -> [(&'static str, f64); 10] {
        [
            ("material", self.material),
            ("hand_percent", self.hand_percent),
            ("advance", self.advance),
            ("centre", self.centre),
            ("royal_advance", self.royal_advance),
            ("zone_percent", self.zone_percent),
            ("mobility", self.mobility),
            ("royal_attack", self.royal_attack),
            ("king_danger", self.king_danger),
            ("protected_lion_percent", self.protected_lion_percent),
        ]
    }

    /// The evaluation these terms give under `w`, before rounding.
    pub fn weighed(&self, w: &Weights) -> f64 {
        self.material
            + self.hand_percent * f64::from(w.hand_percent)
            + self.advance * f64::from(w.advance)
            + self.centre * f64::from(w.centre)
            + self.royal_advance * f64::from(w.royal_advance)
            + self.zone_percent * f64::from(w.zone_percent)
            + self.mobility * f64::from(w.mobility)
            + self.royal_attack * f64::from(w.royal_attack)
            + self.king_danger * f64::from(w.king_danger)
            + self.protected_lion_percent * f64::from(w.protected_lion_percent)
    }
}

/// The square terms of one piece on one square: advance, centre, royal advance, zone.
#[derive(Debug, Clone, Copy, Default)]
struct SquareTerms {
    advance: f64,
    centre: f64,
    royal_advance: f64,
    zone_percent: f64,
}

impl SquareTerms {
    fn weighed(&self, w: &Weights) -> i32 {
        let sum = self.advance * f64::from(w.advance)
            + self.centre * f64::from(w.centre)
            + self.royal_advance * f64::from(w.royal_advance)
            + self.zone_percent * f64::from(w.zone_percent);
        sum.round() as i32
    }
}

/// What the positional terms count on the board as it stands, per side.
#[derive(Debug, Default, PartialEq)]
struct Positional {
    /// Squares the pieces (not royals) can move to.
    reach: [i32; 2],
    /// Squares next to the side's royals that the opponent attacks.
    royal_attacks: [i32; 2],
    /// The side's pieces (not royals) that attack a square next to the opponent's sole royal.
    ring_attackers: [i32; 2],
    /// The danger of the side's sole royal, in the `danger_*` weights' units (0 when king
    /// danger is not counted).
    danger: [i32; 2],
    /// The declared values of the side's protected Lions (under the Lion-trading rules).
    protected: [i32; 2],
}

/// A piece whose runs of squares the positional terms walk: its side, kind and square, and
/// `held`, the bits of its neighbourhood where its own side stands whose runs are left out.
#[derive(Debug, Clone, Copy)]
struct Walked {
    side: Side,
    kind: PieceId,
    sq: Sq,
    held: u16,
}

/// Per-variant tables for evaluation and move ordering, built once from the rules.
pub(crate) struct Eval {
    pub tables: Arc<MoveTables>,
    /// Declared value per kind.
    pub value: Vec<i32>,
    /// Value per kind for ordering captures (royals above everything).
    pub order_value: Vec<i32>,
    /// Value gained per kind by promoting (0 when it cannot).
    pub promote_gain: Vec<i32>,
    /// The most any kind gains by promoting.
    pub most_promote_gain: i32,
    /// The least ordering value of the kinds with movements attack detection cannot look up
    /// ([`KindInfo::slow_attacker`](crate::game::KindInfo)); above every value without one.
    pub least_slow_order: i32,
    /// Value of one piece in hand, per kind.
    hand_value: Vec<i32>,
    /// Per kind, its value in hand where the weights set one (not a share of its value).
    hand_fixed: Vec<Option<i32>>,
    /// Per kind, what taking it gains: its value, and where captured pieces go to the
    /// capturer's hand, the value in hand of the kind it enters the hand as.
    pub captured_value: Vec<i32>,
    /// The kinds that can be held in hand.
    hand_kinds: Vec<PieceId>,
    /// Per kind of `hand_kinds`: the faces it may be dropped on (itself, and under `drops
    /// either-face` its promotion).
    drop_faces: Vec<Vec<PieceId>>,
    /// Whether king danger is counted (its weight is not 0).
    king_danger: bool,
    royal: Vec<bool>,
    /// Whether some kind burns its neighbours (a move may then change squares around its
    /// destination).
    pub burners: bool,
    /// Every square by index.
    pub squares: Vec<Square>,
    /// The weights of the terms.
    weights: Weights,
    /// The square terms per (kind, side, square): advance and centre (royals: staying home),
    /// and the promotion zone's pressure.
    square_terms: Vec<SquareTerms>,
    /// Their weighed sum, the position bonus per (kind, side, square).
    square_bonus: Vec<i32>,
    /// The kinds the Lion-trading rules protect from a distant Lion.
    protected: Vec<bool>,
    /// Whether any kind is so protected.
    any_protected: bool,
    pub has_royals: bool,
    pub bare_king: bool,
    /// The first check wins: a side to move in check has lost.
    pub check_wins: bool,
}

impl Eval {
    /// The evaluation of the variant `tables` compile, with the weights `weights`.
    pub fn new(tables: Arc<MoveTables>, weights: &Weights) -> Eval {
        let rules = tables.rules();
        let geo = tables.geometry();
        // The set's values by kind name, else the declared ones.
        let value: Vec<i32> = rules
            .pieces
            .iter()
            .map(|p| {
                weights
                    .values
                    .get(&p.name)
                    .map_or(p.value.min(MAX_VALUE) as i32, |&v| v)
            })
            .collect();
        let royal: Vec<bool> = rules.pieces.iter().map(|p| p.royal).collect();
        let order_value: Vec<i32> = value
            .iter()
            .zip(&royal)
            .map(|(&v, &r)| if r { ROYAL_ORDER } else { v })
            .collect();
        let least_slow_order = tables
            .kinds()
            .iter()
            .zip(&order_value)
            .filter(|(kind, _)| kind.slow_attacker)
            .map(|(_, &v)| v)
            .min()
            .unwrap_or(i32::MAX);
        let promote_gain: Vec<i32> = tables
            .kinds()
            .iter()
            .enumerate()
            .map(|(k, info)| info.promotion.to.map_or(0, |p| (value[p.index()] - value[k]).max(0)))
            .collect();
        let hand_fixed: Vec<Option<i32>> = rules
            .pieces
            .iter()
            .map(|p| weights.hand_values.get(&p.name).copied())
            .collect();
        let hand_value: Vec<i32> = value
            .iter()
            .zip(&hand_fixed)
            .map(|(v, fixed)| fixed.unwrap_or(v * weights.hand_percent / 100))
            .collect();
        let hand_kinds = if rules.drops {
            rules
                .piece_ids()
                .filter(|&k| tables.kind(k).unpromoted == k && !royal[k.index()])
                .collect()
        } else {
            Vec::new()
        };
        let drop_faces = hand_kinds
            .iter()
            .map(|&k| {
                let promoted = tables.kind(k).promotion.to.filter(|_| rules.drop_either_face);
                std::iter::once(k).chain(promoted).collect()
            })
            .collect();
        let captured_value = rules
            .piece_ids()
            .map(|k| {
                let held = tables.kind(k).hand;
                let in_hand = (rules.drops && !royal[k.index()]).then(|| hand_value[held.index()]);
                value[k.index()] + in_hand.unwrap_or(0)
            })
            .collect();
        let squares: Vec<Square> = geo.squares().map(|sq| geo.square(sq)).collect();
        let n = geo.len();
        let zone = rules
            .promotion
            .iter()
            .filter_map(|trigger| match trigger.when {
                PromotionEvent::Zone { depth, .. } => Some(i32::from(depth)),
                PromotionEvent::Capture => None,
            })
            .max()
            .unwrap_or(0);
        let mut square_terms = vec![SquareTerms::default(); value.len() * 2 * n];
        for (k, &gain) in promote_gain.iter().enumerate() {
            for side in [Side::Black, Side::White] {
                for sq in (0..n).map(Sq::new) {
                    square_terms[(k * 2 + side.index()) * n + sq.index()] =
                        square_terms_of(&tables, zone, royal[k], gain, side, sq);
                }
            }
        }
        let square_bonus = square_terms.iter().map(|t| t.weighed(weights)).collect();
        let protected: Vec<bool> = rules
            .pieces
            .iter()
            .map(|p| rules.end.lion_trading && p.lion == LionRole::Lion)
            .collect();
        Eval {
            any_protected: protected.iter().any(|&p| p),
            weights: weights.clone(),
            value,
            order_value,
            most_promote_gain: promote_gain.iter().copied().max().unwrap_or(0).max(0),
            least_slow_order,
            promote_gain,
            hand_value,
            hand_fixed,
            captured_value,
            hand_kinds,
            drop_faces,
            king_danger: weights.king_danger != 0,
            royal,
            squares,
            square_terms,
            square_bonus,
            protected,
            burners: tables.kinds().iter().any(|k| k.burns),
            has_royals: rules.pieces.iter().any(|p| p.royal),
            bare_king: rules.end.bare_king,
            check_wins: rules.end.check_wins,
            tables,
        }
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
        pos.geometry()
            .squares()
            .map(|sq| self.square_share(pos.piece(sq), sq))
            .sum()
    }

    /// What the piece standing on `sq` (if any) adds to [`Eval::board_share`].
    #[inline]
    pub fn square_share(&self, piece: Option<Piece>, sq: Sq) -> i32 {
        let Some(piece) = piece else {
            return 0;
        };
        let (side, kind) = (piece.side(), piece.kind());
        let (s, k) = (side.index(), kind.index());
        let share = self.value[k] + self.square_bonus[(k * 2 + s) * self.squares.len() + sq.index()];
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
        let counted = self.count_positional(pos);
        let w = &self.weights;
        let side_score = |s: usize| {
            w.mobility * counted.reach[s] - w.royal_attack * counted.royal_attacks[s]
                + counted.protected[s] * w.protected_lion_percent / 100
                - w.king_danger * counted.danger[s] * counted.danger[s] / DANGER_SCALE
        };
        side_score(0) - side_score(1)
    }

    /// Counts what the positional terms weigh, per side.
    fn count_positional(&self, pos: &Position) -> Positional {
        let mut counted = Positional::default();
        // Per square: the bits ATTACKED, ATTACKED_BY_PIECE and NEXT_TO_ROYAL of each side.
        let mut attacks = [0u8; MAX_SQUARES];
        self.mark_sole_royals(pos, &mut attacks);
        let near = pos.knows_held_neighbours().then(|| self.near_watched(pos));
        for (sq, piece) in pos.pieces() {
            let (side, kind) = (piece.side(), piece.kind());
            // The runs that begin on a neighbour of the piece's own side end at once: they
            // reach nothing, and protect only that neighbour, which counts only next to a
            // watched square.
            let held = match &near {
                Some(near) if !near[sq.index()] => pos.held_neighbours(side, sq),
                _ => 0,
            };
            if held != 0 && self.tables.hemmed_in(kind, side, sq, held) {
                continue;
            }
            let walked = Walked { side, kind, sq, held };
            self.count_piece(pos, walked, &mut attacks, &mut counted);
        }
        self.tally(pos, &attacks, &mut counted);
        counted
    }

    /// Walks the runs of a piece (but those beginning on the neighbours it holds) and counts
    /// its reach and whether it attacks next to the opponent's sole royal.
    fn count_piece(&self, pos: &Position, piece: Walked, attacks: &mut [u8], counted: &mut Positional) {
        let s = piece.side.index();
        if self.royal[piece.kind.index()] {
            self.walk_runs(pos, piece, ATTACKED << s, attacks);
        } else {
            let mark = (ATTACKED | ATTACKED_BY_PIECE) << s;
            let (reach, seen) = self.walk_runs(pos, piece, mark, attacks);
            counted.reach[s] += reach;
            counted.ring_attackers[s] += i32::from(seen & (NEXT_TO_ROYAL << (1 - s)) != 0);
        }
    }

    /// Where king danger is counted, marks the squares next to each side's sole royal.
    fn mark_sole_royals(&self, pos: &Position, attacks: &mut [u8]) {
        if !self.king_danger {
            return;
        }
        for side in [Side::Black, Side::White] {
            if let &[royal] = pos.royal_squares(side) {
                for sq in self.neighbours(royal) {
                    attacks[sq.index()] |= NEXT_TO_ROYAL << side.index();
                }
            }
        }
    }

    /// Counts, from the attack map of the whole board, the attacks next to the royals, the
    /// sole royals' danger and the protected Lions.
    fn tally(&self, pos: &Position, attacks: &[u8], counted: &mut Positional) {
        for side in [Side::Black, Side::White] {
            let s = side.index();
            let enemy_bit = ATTACKED << (1 - s);
            for &royal in pos.royal_squares(side) {
                let near = self
                    .neighbours(royal)
                    .filter(|&sq| attacks[sq.index()] & enemy_bit != 0);
                counted.royal_attacks[s] += near.count() as i32;
            }
            if let (true, &[royal]) = (self.king_danger, pos.royal_squares(side)) {
                counted.danger[s] = self.danger(pos, attacks, side, royal, counted.ring_attackers[1 - s]);
            }
        }
        if self.any_protected {
            for (sq, piece) in pos.pieces() {
                let (side, kind) = (piece.side(), piece.kind());
                if self.protected[kind.index()] && attacks[sq.index()] & (ATTACKED << side.index()) != 0 {
                    counted.protected[side.index()] += self.value[kind.index()];
                }
            }
        }
    }

    /// The danger `side`'s sole royal on `royal` stands in, in the `danger_*` weights' units,
    /// where `attackers` of the opponent's pieces attack next to it.
    fn danger(&self, pos: &Position, attacks: &[u8], side: Side, royal: Sq, attackers: i32) -> i32 {
        let w = &self.weights;
        let opponent = side.opponent();
        let weak = self
            .neighbours(royal)
            .filter(|&sq| {
                let bits = attacks[sq.index()];
                bits & (ATTACKED << opponent.index()) != 0 && bits & (ATTACKED_BY_PIECE << side.index()) == 0
            })
            .count() as i32;
        let held: u32 = self.hand_kinds.iter().map(|&k| pos.in_hand(opponent, k)).sum();
        let checks = if held == 0 {
            0
        } else {
            self.safe_drop_checks(pos, attacks, side, royal)
        };
        w.danger_attacker * attackers + w.danger_hand * held as i32 + w.danger_weak * weak + w.danger_check * checks
    }

    /// The safe drop checks on `side`'s royal on `royal`: per kind the opponent holds, on
    /// each face it may be dropped on, the empty squares it may be dropped on that would
    /// attack the royal, and that `side` does not defend (or its royal alone, where the
    /// opponent attacks the square too), at most two per face.
    fn safe_drop_checks(&self, pos: &Position, attacks: &[u8], side: Side, royal: Sq) -> i32 {
        let opponent = side.opponent();
        let safe = |bits: u8| {
            bits & (ATTACKED_BY_PIECE << side.index()) == 0
                && (bits & (ATTACKED << side.index()) == 0 || bits & (ATTACKED << opponent.index()) != 0)
        };
        let mut checks = 0;
        for (&kind, faces) in self.hand_kinds.iter().zip(&self.drop_faces) {
            if pos.in_hand(opponent, kind) == 0 {
                continue;
            }
            for &face in faces {
                let drop = &self.tables.kind(face).drop;
                let banned = drop.banned_ranks();
                let limit = match (drop.per_file, self.tables.kind(face).piece_limit) {
                    (Some(a), Some(b)) => Some(a.min(b)),
                    (a, b) => a.or(b),
                };
                let mut found = 0;
                // A piece of the opponent's attacks the royal from the squares the same kind
                // of `side`'s reaches from the royal's square (the sides' movements mirror).
                'runs: for ray in self.tables.rays(face, side, royal) {
                    if ray.mode == Mode::MoveOnly {
                        continue;
                    }
                    for to in ray.squares() {
                        if pos.piece(to).is_some() {
                            break;
                        }
                        if safe(attacks[to.index()])
                            && self.tables.depth(opponent, to) > banned
                            && !limit.is_some_and(|limit| self.file_holds(pos, opponent, face, to, limit))
                        {
                            found += 1;
                            if found == 2 {
                                break 'runs;
                            }
                        }
                    }
                }
                checks += found;
            }
        }
        checks
    }

    /// Whether `limit` pieces of `kind` of `side` stand on the file of `sq`.
    fn file_holds(&self, pos: &Position, side: Side, kind: PieceId, sq: Sq, limit: u8) -> bool {
        let files = usize::from(self.tables.geometry().files);
        let held = (sq.index() % files..self.squares.len())
            .step_by(files)
            .filter(|&i| {
                pos.piece(Sq::new(i))
                    .is_some_and(|p| p.side() == side && p.kind() == kind)
            })
            .count();
        held >= usize::from(limit)
    }

    /// The squares next to a watched square or on one, where a piece's protection of its
    /// own side counts: the squares the terms read the attacks on are the royals' neighbours
    /// and the protected Lions' squares, so these are the squares within two of a royal and
    /// within one of a protected Lion.
    fn near_watched(&self, pos: &Position) -> [bool; MAX_SQUARES] {
        let mut near = [false; MAX_SQUARES];
        let geo = self.tables.geometry();
        let mut mark = |centre: Sq, radius: i32| {
            for df in -radius..=radius {
                for dr in -radius..=radius {
                    if let Some(sq) = geo.step(centre, df, dr) {
                        near[sq.index()] = true;
                    }
                }
            }
        };
        for side in [Side::Black, Side::White] {
            for &royal in pos.royal_squares(side) {
                mark(royal, 2);
            }
        }
        if self.any_protected {
            for (sq, piece) in pos.pieces() {
                if self.protected[piece.kind().index()] {
                    mark(sq, 1);
                }
            }
        }
        near
    }

    /// The whole evaluation from Black's point of view, counted afresh.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        self.board_share(pos) + self.hand_share(pos) + self.positional(pos)
    }

    /// What each weight multiplies in the evaluation of `pos`, from Black's point of view.
    pub fn terms(&self, pos: &Position) -> Terms {
        let mut terms = Terms::default();
        let n = self.squares.len();
        for (sq, piece) in pos.pieces() {
            let (side, kind) = (piece.side(), piece.kind());
            let sign = if side == Side::Black { 1.0 } else { -1.0 };
            let t = &self.square_terms[(kind.index() * 2 + side.index()) * n + sq.index()];
            terms.material += sign * f64::from(self.value[kind.index()]);
            terms.advance += sign * t.advance;
            terms.centre += sign * t.centre;
            terms.royal_advance += sign * t.royal_advance;
            terms.zone_percent += sign * t.zone_percent;
        }
        for &k in &self.hand_kinds {
            let held = f64::from(pos.in_hand(Side::Black, k)) - f64::from(pos.in_hand(Side::White, k));
            match self.hand_fixed[k.index()] {
                Some(value) => terms.material += held * f64::from(value),
                None => terms.hand_percent += held * f64::from(self.value[k.index()]) / 100.0,
            }
        }
        let counted = self.count_positional(pos);
        let difference = |per_side: [i32; 2]| f64::from(per_side[0] - per_side[1]);
        terms.mobility = difference(counted.reach);
        terms.royal_attack = -difference(counted.royal_attacks);
        let squared = counted.danger.map(|d| d * d);
        terms.king_danger = -f64::from(squared[0] - squared[1]) / f64::from(DANGER_SCALE);
        terms.protected_lion_percent = difference(counted.protected) / 100.0;
        terms
    }

    /// The kind columns, by the names the variant file declares: `board:NAME` per kind, its
    /// value on the board, then `hand:NAME` per kind that can be held, its value in hand.
    pub fn kind_values(&self) -> Vec<(String, i32)> {
        let pieces = &self.tables.rules().pieces;
        let board = pieces
            .iter()
            .zip(&self.value)
            .map(|(p, &v)| (format!("board:{}", p.name), v));
        let hand = self.hand_kinds.iter().map(|&k| {
            let name = &pieces[k.index()].name;
            (format!("hand:{name}"), self.hand_value[k.index()])
        });
        board.chain(hand).collect()
    }

    /// Per column of [`Eval::kind_values`], what its value multiplies in `pos` from Black's
    /// point of view: Black's pieces of the kind on the board (in hand) less White's.
    pub fn kind_counts(&self, pos: &Position) -> Vec<i32> {
        let mut board = vec![0; self.value.len()];
        for (_, piece) in pos.pieces() {
            board[piece.kind().index()] += if piece.side() == Side::Black { 1 } else { -1 };
        }
        let hand = self.hand_kinds.iter().map(|&k| {
            i32::try_from(pos.in_hand(Side::Black, k)).unwrap_or(i32::MAX)
                - i32::try_from(pos.in_hand(Side::White, k)).unwrap_or(i32::MAX)
        });
        board.into_iter().chain(hand).collect()
    }

    /// Walks the runs of squares of a piece on the board as it stands, but those beginning on
    /// the neighbours it holds: marks the squares it attacks (its own pieces it protects
    /// included) with `mark`, and returns how many squares it can move to and the bits the
    /// squares it attacks held before.
    fn walk_runs(&self, pos: &Position, piece: Walked, mark: u8, attacks: &mut [u8]) -> (i32, u8) {
        let Walked { side, kind, sq, held } = piece;
        let mut reach = 0;
        let mut seen = 0;
        for ray in self.tables.open_rays(kind, side, sq, held) {
            let (moves, captures) = match ray.mode {
                Mode::Any | Mode::CaptureUnprotected => (true, true),
                Mode::MoveOnly => (true, false),
                Mode::CaptureOnly => (false, true),
            };
            for to in ray.squares() {
                match pos.piece(to) {
                    None => {
                        reach += i32::from(moves);
                        if captures {
                            seen |= attacks[to.index()];
                            attacks[to.index()] |= mark;
                        }
                    }
                    Some(piece) => {
                        if captures {
                            seen |= attacks[to.index()];
                            attacks[to.index()] |= mark;
                            reach += i32::from(piece.side() != side);
                        }
                        break;
                    }
                }
            }
        }
        (reach, seen)
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

/// The square terms of a piece of the kind with value gain `gain` on promoting (royal or not),
/// standing for `side` on `sq`, where the promotion zone is `zone` ranks deep (0: none).
fn square_terms_of(tables: &MoveTables, zone: i32, royal: bool, gain: i32, side: Side, sq: Sq) -> SquareTerms {
    let geo = tables.geometry();
    let ranks = i32::from(geo.ranks);
    let files = i32::from(geo.files);
    let span = f64::from((ranks - 1).max(1));
    let half = ((files - 1) / 2).max(1);
    // 0 on the side's own back rank, 1 on the far rank.
    let advance = f64::from(ranks - i32::from(geo.depth(side, sq))) / span;
    if royal {
        return SquareTerms {
            royal_advance: -advance,
            ..SquareTerms::default()
        };
    }
    let file = i32::from(geo.square(sq).file);
    let off_centre = (2 * file - files - 1).abs() / 2;
    let centre = f64::from(half - off_centre.min(half)) / f64::from(half);
    // Ranks short of the zone (0 inside it).
    let short = (i32::from(geo.depth(side, sq)) - zone).max(0);
    let zone_percent = match (zone, short) {
        (0, _) => 0.0,
        (_, 0) => f64::from(gain) / 100.0,
        (_, 1) => f64::from(gain) / 200.0,
        _ => 0.0,
    };
    SquareTerms {
        advance,
        centre,
        royal_advance: 0.0,
        zone_percent,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile::compile_named;
    use crate::engine::search::tests::positions;
    use crate::engine::weights::WeightFile;
    use crate::game::{LionCounting, MoveTables};

    /// The weights by their names in [`Terms::columns`].
    fn weight<'a>(w: &'a mut Weights, name: &str) -> &'a mut i32 {
        match name {
            "hand_percent" => &mut w.hand_percent,
            "advance" => &mut w.advance,
            "centre" => &mut w.centre,
            "royal_advance" => &mut w.royal_advance,
            "zone_percent" => &mut w.zone_percent,
            "mobility" => &mut w.mobility,
            "royal_attack" => &mut w.royal_attack,
            "king_danger" => &mut w.king_danger,
            "protected_lion_percent" => &mut w.protected_lion_percent,
            other => panic!("no weight {other}"),
        }
    }

    /// What the positional terms count, walking every run of every piece (no run left out
    /// for beginning on a neighbour of the piece's own side).
    fn counted_walking_every_run(ev: &Eval, pos: &Position) -> Positional {
        let mut counted = Positional::default();
        let mut attacks = [0u8; MAX_SQUARES];
        ev.mark_sole_royals(pos, &mut attacks);
        for (sq, piece) in pos.pieces() {
            let walked = Walked {
                side: piece.side(),
                kind: piece.kind(),
                sq,
                held: 0,
            };
            ev.count_piece(pos, walked, &mut attacks, &mut counted);
        }
        ev.tally(pos, &attacks, &mut counted);
        counted
    }

    /// Where captured pieces go to the hand, taking a piece gains its value and the value in
    /// hand of the kind the capturer then holds (a promoted piece held unpromoted); where
    /// they do not, its value alone.
    #[test]
    fn taking_a_piece_gains_what_the_capturer_then_holds_where_captures_go_to_the_hand() {
        let weights = WeightFile::built_in().default.weights.clone();
        let eval = |variant: &str| {
            let rules = compile_named(variant, &[]).rules.expect("a shipped variant compiles");
            Eval::new(Arc::new(MoveTables::new(rules)), &weights)
        };
        let shogi = eval("shogi");
        let rules = shogi.tables.rules();
        let id = |abbrev: &str| rules.piece_by_abbrev(abbrev).expect("a Shogi piece").index();
        let held = |v: i32| v * weights.hand_percent / 100;
        assert_eq!(shogi.captured_value[id("G")], 600 + held(600));
        assert_eq!(shogi.captured_value[id("+P")], 600 + held(100));
        let chu = eval("chu");
        assert_eq!(chu.captured_value, chu.value);
    }

    /// The positional terms leave out the runs that begin on a neighbour of the piece's own
    /// side (and the pieces hemmed in by their own side) and count what walking every run
    /// counts, along random games of the packed large boards, and of Chu's protected Lions.
    #[test]
    fn runs_left_out_next_to_the_own_side_count_as_walking_every_run() {
        let weights = WeightFile::built_in().default.weights.clone();
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for variant in ["chu", "tenjiku", "dai-dai", "maka-dai-dai", "tai", "taikyoku"] {
            let rules = compile_named(variant, &[]).rules.expect("a shipped variant compiles");
            let mut pos = Position::start(Arc::new(MoveTables::new(rules)));
            let ev = Eval::new(pos.tables().clone(), &weights);
            for ply in 0..40 {
                assert_eq!(
                    ev.count_positional(&pos),
                    counted_walking_every_run(&ev, &pos),
                    "{variant} ply {ply}"
                );
                let mut moves = Vec::new();
                pos.pseudo_moves(&mut moves, LionCounting::Distinct);
                if moves.is_empty() || pos.royal_squares(pos.side_to_move()).is_empty() {
                    break;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                pos.make(&moves[(seed >> 8) as usize % moves.len()]);
            }
        }
    }

    /// Given a position, the evaluation is linear in the weights: raising one weight moves it
    /// by the weight's term times the rise (in the term's direction), and the evaluation is
    /// the material plus the weighed terms, up to each piece's rounding to whole units; along
    /// random games of variants with drops, Lions, hooks and large boards.
    #[test]
    fn each_weight_moves_the_evaluation_by_its_term() {
        let base = WeightFile::built_in().default.weights.clone();
        for pos in positions() {
            let ev = Eval::new(pos.tables().clone(), &base);
            let terms = ev.terms(&pos);
            let pieces = pos.piece_count() as f64;
            let rounding = pieces + ev.hand_kinds.len() as f64 + 1.0;
            let evaluation = f64::from(ev.evaluate(&pos));
            assert!((evaluation - terms.weighed(&base)).abs() <= rounding, "{terms:?}");
            for (name, term) in terms.columns().into_iter().skip(1) {
                let mut raised = base.clone();
                *weight(&mut raised, name) += 100;
                let moved = f64::from(Eval::new(pos.tables().clone(), &raised).evaluate(&pos)) - evaluation;
                assert!(
                    (moved - 100.0 * term).abs() <= 2.0 * rounding,
                    "{name}: {moved} for {term}"
                );
            }
        }
    }
}
