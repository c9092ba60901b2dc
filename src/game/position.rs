//! Positions: an unvalidated [`Setup`] (what a position string says) and a validated
//! [`Position`] (what the interpreter plays on), with make and unmake, and an incremental
//! Zobrist hash.

use super::board::{Geometry, NO_SQ, Piece, Sq, code_declined, code_kind, code_side, piece_code};
use super::moves::Move;
use super::occupancy::Occupancy;
use super::tables::MoveTables;
use super::walks;
use crate::rules::{LionRole, MAX_ROYALS, PieceId, Rules, Side, Square};
use std::fmt;
use std::sync::Arc;

/// A position as written down, not yet checked against the rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setup {
    /// Pieces on the board: square, owner, kind, and whether it declined promotion on
    /// entering the zone (Chu's pawn rule).
    pub pieces: Vec<(Square, Side, PieceId, bool)>,
    /// Pieces in hand: owner, kind, count.
    pub hands: Vec<(Side, PieceId, u32)>,
    pub side_to_move: Side,
    /// The move number, from 1.
    pub move_number: u32,
    /// Chu: the square where a non-Lion just captured a Lion.
    pub lion_capture: Option<Square>,
    /// Chu's deferral rule, per side (Black's first): the square of that side's piece that
    /// declined to promote on entering the zone on that side's last move.
    pub deferred: [Option<Square>; 2],
}

/// Why a [`Setup`] is not a playable position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    #[error("square {0} is not on the board")]
    SquareOffBoard(Square),
    #[error("two pieces on {0}")]
    TwoPiecesOnSquare(Square),
    #[error("pieces in hand, but this variant has no drops")]
    HandWithoutDrops,
    /// A promoted kind in hand: captured pieces revert.
    #[error("a promoted {0} in hand (captured pieces revert)")]
    PromotedInHand(String),
    /// More pieces of a kind (on the board and in hand) than the variant's setup has: with
    /// drops, pieces change hands but none come from elsewhere.
    #[error(
        "{count} pieces of kind {piece}, but the variant's setup (its board and hands at the start) has only {most}: with drops, no other piece can come into play"
    )]
    TooManyPieces { piece: String, count: u32, most: u32 },
    /// The side not to move is in check: the side to move could capture its last royal at
    /// once (with two royals, one may be left attacked, as a move may leave it).
    #[error("the side to move could capture the other side's royal piece at once")]
    OpponentInCheck,
    /// A side has, or could come to have by promotion (or, with drops, by capturing and
    /// dropping), more royal pieces than a position keeps track of.
    #[error(
        "{side} could have {count} royal pieces (royal, or promoting to one): koma keeps track of at most {MAX_ROYALS} a side"
    )]
    TooManyRoyals { side: Side, count: usize },
    #[error("the move number must lie between 1 and {MAX_MOVE_NUMBER}")]
    BadMoveNumber,
    /// A deferred promotion on a square without a piece of that side that promotes, outside
    /// that side's zone, or in a variant without the deferral rule.
    #[error(
        "no piece on {0} can have declined promotion on the last move: that takes a piece of the side that moved, which promotes, in its zone (and a variant with the deferral rule)"
    )]
    BadDeferral(Square),
    /// A piece marked as having declined promotion under a rule it is not under
    /// (`declined-waits-for-last-rank`).
    #[error(
        "the piece on {0} is marked as having declined promotion, but no rule of this variant (`declined-waits-for-last-rank`) keeps it waiting"
    )]
    NotUnderDeclineRule(Square),
}

/// The largest move number of a position: far from the end of its counter, so that moves
/// made from it can always be counted.
pub const MAX_MOVE_NUMBER: u32 = 1_000_000_000;

/// What [`Position::make`] needs to undo a move.
#[derive(Debug, Clone, Copy)]
pub struct Undo {
    moved: u16,
    captured: [(Sq, u16); 3],
    captures: u8,
    /// The pieces the move burnt (`burns`), and whether the mover itself was burnt.
    burnt: [(Sq, u16); 8],
    burns: u8,
    mover_burnt: bool,
    /// How many pieces the move swept (a range capture), on the position's stack of them.
    swept: u8,
    lion_capture: Sq,
    deferred: [Sq; 2],
    hash: u64,
    royals: [[Sq; MAX_ROYALS]; 2],
    royal_count: [u8; 2],
}

/// A playable position.
#[derive(Clone)]
pub struct Position {
    t: Arc<MoveTables>,
    board: Vec<u16>,
    /// The squares each side occupies, kept where the tables ask for them
    /// ([`MoveTables::keeps_occupancy`]).
    occupied: [Occupancy; 2],
    /// Pieces in hand, by (side, kind).
    hands: Vec<u8>,
    side: Side,
    move_number: u32,
    hash: u64,
    royals: [[Sq; MAX_ROYALS]; 2],
    royal_count: [u8; 2],
    /// Pieces on the board per (side, kind).
    counts: Vec<u16>,
    /// Slow attackers (hooks, Emperors) on the board per side.
    slow_count: [u16; 2],
    /// Their squares per side: attack detection visits them without scanning the board.
    slow_squares: [Occupancy; 2],
    /// Per side, under the hemmed-in test ([`MoveTables::hem_check`]): the squares of the
    /// pieces whose every move does not begin on a neighbour
    /// ([`CodeFacts::reaches_past_neighbours`]): generation visits them, and of the others
    /// only those with a neighbour their side does not hold. Empty without the test (kept
    /// off the position's inline fields, which the small boards' perft reads on every move).
    far_squares: Vec<Occupancy>,
    lion_capture: Sq,
    /// Per side: the square of its piece that declined to promote on entering the zone on
    /// that side's last move (Chu's deferral rule).
    deferred: [Sq; 2],
    /// Hashes of the positions before this one, oldest first.
    history: Vec<u64>,
    /// For each position of `history`: was its side to move in check? Kept only when the
    /// tables track checks (perpetual check loses); empty otherwise.
    checks: Vec<bool>,
    /// Whether the side to move is in check, when already worked out for this position (by
    /// the legality filter, or kept in `checks` while a move was tried): spares `make` the
    /// work of tracking checks.
    known_check: Option<bool>,
    /// The pieces the range captures made on the way here took, with their squares, the
    /// last move's last: what unmaking them puts back (empty in variants without
    /// `range-capture`).
    swept: Vec<(Sq, u16)>,
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Position")
            .field("side", &self.side)
            .field("hash", &self.hash)
            .finish()
    }
}

impl Position {
    /// The variant's starting position. It is the variant's own: it is taken as it is even
    /// where the side to move could capture the other's royal at once (which
    /// [`from_setup`](Self::from_setup) refuses in a position string).
    pub fn start(t: Arc<MoveTables>) -> Position {
        let setup = start_setup(&t, None).expect("no handicap to look up");
        Position::build(t, &setup, false).expect("a compiled setup is valid")
    }

    /// The starting position with a handicap: White's pieces removed, White to move.
    pub fn handicap(t: Arc<MoveTables>, name: &str) -> Option<Position> {
        let setup = start_setup(&t, Some(name))?;
        Position::build(t, &setup, false).ok()
    }

    #[inline]
    pub fn tables(&self) -> &Arc<MoveTables> {
        &self.t
    }

    /// The rules of the game.
    #[inline]
    pub fn rules(&self) -> &Rules {
        self.t.rules()
    }

    /// The piece on the square `sq` of the board, if any.
    #[inline]
    pub fn piece(&self, sq: Sq) -> Option<Piece> {
        Piece::from_code(self.board[sq.index()])
    }

    /// Every piece on the board with its square, in square order.
    pub fn pieces(&self) -> impl Iterator<Item = (Sq, Piece)> + '_ {
        self.board
            .iter()
            .enumerate()
            .filter_map(|(sq, &code)| Piece::from_code(code).map(|piece| (Sq::new(sq), piece)))
    }

    /// How many pieces stand on the board.
    pub fn piece_count(&self) -> usize {
        self.board.iter().filter(|&&code| code != 0).count()
    }

    #[inline]
    pub fn side_to_move(&self) -> Side {
        self.side
    }

    pub fn move_number(&self) -> u32 {
        self.move_number
    }

    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    pub fn geometry(&self) -> Geometry {
        self.t.geometry()
    }

    /// The piece on a square, none for an empty square or one off the board.
    pub fn piece_at(&self, square: Square) -> Option<Piece> {
        if !self.t.rules().board.contains(square) {
            return None;
        }
        self.piece(self.t.geometry().index(square))
    }

    /// Whether `sq` is a square of this position's board.
    #[inline]
    pub(crate) fn is_on_board(&self, sq: Sq) -> bool {
        sq.index() < self.board.len()
    }

    #[inline]
    pub fn in_hand(&self, side: Side, kind: PieceId) -> u32 {
        u32::from(self.hands[self.hand_index(side, kind)])
    }

    pub fn lion_capture(&self) -> Option<Square> {
        (self.lion_capture != NO_SQ).then(|| self.t.geometry().square(self.lion_capture))
    }

    /// The position as an unvalidated setup (for printing).
    pub fn to_setup(&self) -> Setup {
        let geo = self.t.geometry();
        let pieces = geo
            .squares()
            .filter(|&sq| self.board[sq.index()] != 0)
            .map(|sq| {
                let code = self.board[sq.index()];
                (geo.square(sq), code_side(code), code_kind(code), code_declined(code))
            })
            .collect();
        let mut hands = Vec::new();
        for side in [Side::Black, Side::White] {
            for kind in self.t.rules().piece_ids() {
                let n = self.hands[self.hand_index(side, kind)];
                if n > 0 {
                    hands.push((side, kind, u32::from(n)));
                }
            }
        }
        Setup {
            pieces,
            hands,
            side_to_move: self.side,
            move_number: self.move_number,
            lion_capture: self.lion_capture(),
            deferred: self.deferred.map(|sq| (sq != NO_SQ).then(|| geo.square(sq))),
        }
    }

    #[inline]
    pub(crate) fn hand_index(&self, side: Side, kind: PieceId) -> usize {
        side.index() * self.t.kind_count() + kind.index()
    }

    /// Checks a setup against the rules and builds the position.
    pub fn from_setup(t: Arc<MoveTables>, setup: &Setup) -> Result<Position, PositionError> {
        Position::build(t, setup, true)
    }

    /// Builds a position, refusing one where the side to move could capture the other's
    /// last royal at once when `opponent_check` is set.
    fn build(t: Arc<MoveTables>, setup: &Setup, opponent_check: bool) -> Result<Position, PositionError> {
        if !(1..=MAX_MOVE_NUMBER).contains(&setup.move_number) {
            return Err(PositionError::BadMoveNumber);
        }
        let geo = t.geometry();
        let kinds = t.kind_count();
        let mut pos = Position {
            board: vec![0; geo.len()],
            occupied: [0, 1].map(|_| Occupancy::new(geo.len(), usize::from(geo.files))),
            hands: vec![0; 2 * kinds],
            side: setup.side_to_move,
            move_number: setup.move_number,
            hash: 0,
            royals: [[NO_SQ; MAX_ROYALS]; 2],
            royal_count: [0; 2],
            counts: vec![0; 2 * kinds],
            slow_count: [0; 2],
            slow_squares: [0, 1].map(|_| Occupancy::new(geo.len(), usize::from(geo.files))),
            far_squares: if t.hem_check {
                vec![Occupancy::new(geo.len(), usize::from(geo.files)); 2]
            } else {
                vec![]
            },
            lion_capture: NO_SQ,
            deferred: [NO_SQ; 2],
            history: Vec::new(),
            checks: Vec::new(),
            known_check: None,
            swept: Vec::new(),
            t: t.clone(),
        };
        for &(square, side, kind, declined) in &setup.pieces {
            if !t.rules().board.contains(square) {
                return Err(PositionError::SquareOffBoard(square));
            }
            let sq = geo.index(square);
            if pos.board[sq.index()] != 0 {
                return Err(PositionError::TwoPiecesOnSquare(square));
            }
            if declined && !t.kind(kind).promotion.declined_waits_for_last_rank {
                return Err(PositionError::NotUnderDeclineRule(square));
            }
            pos.put(sq, piece_code(kind, side, declined));
        }
        for &(side, kind, count) in &setup.hands {
            if count == 0 {
                continue;
            }
            if !t.rules().drops {
                return Err(PositionError::HandWithoutDrops);
            }
            if t.kind(kind).hand != kind {
                return Err(PositionError::PromotedInHand(t.rules().piece(kind).abbrev.clone()));
            }
            let index = pos.hand_index(side, kind);
            let total = u32::from(pos.hands[index]).saturating_add(count);
            // A hand counts up to 255 of a kind (the compiler keeps every kind below that).
            pos.hands[index] = u8::try_from(total).map_err(|_| PositionError::TooManyPieces {
                piece: t.rules().piece(kind).abbrev.clone(),
                count: total,
                most: t
                    .rules()
                    .start_pieces()
                    .filter(|(_, p)| t.kind(*p).hand == kind)
                    .count() as u32,
            })?;
        }
        pos.check_piece_totals()?;
        pos.check_royal_count()?;
        if let Some(square) = setup.lion_capture {
            if !t.rules().board.contains(square) {
                return Err(PositionError::SquareOffBoard(square));
            }
            pos.lion_capture = geo.index(square);
        }
        for (side, square) in [Side::Black, Side::White].into_iter().zip(setup.deferred) {
            let Some(square) = square else {
                continue;
            };
            // A piece of that side that can still promote, in its zone (where it declined).
            let could_decline = pos
                .piece_at(square)
                .is_some_and(|p| p.side() == side && t.kind(p.kind()).promotion.to.is_some());
            let in_zone = || {
                t.zone
                    .is_some_and(|zone| t.depth(side, geo.index(square)) <= zone.depth)
            };
            if !t.rules().deferral || !could_decline || !in_zone() {
                return Err(PositionError::BadDeferral(square));
            }
            pos.deferred[side.index()] = geo.index(square);
        }
        pos.hash = pos.full_hash();
        let last_royal = pos.royal_squares(pos.side.opponent()).len() == 1;
        if opponent_check
            && !t.rules().end.royal_capture_allowed
            && last_royal
            && pos.royal_in_check(pos.side.opponent())
        {
            return Err(PositionError::OpponentInCheck);
        }
        Ok(pos)
    }

    /// A position keeps the squares of at most [`MAX_ROYALS`] royals a side: no side may have,
    /// or come to have, more. With drops, any piece may change sides.
    fn check_royal_count(&self) -> Result<(), PositionError> {
        let may_be_royal = self.t.rules().may_be_royal();
        let mut count = [0usize; 2];
        for &code in &self.board {
            if code != 0 && may_be_royal[code_kind(code).index()] {
                count[code_side(code).index()] += 1;
            }
        }
        for side in [Side::Black, Side::White] {
            for kind in self.t.rules().piece_ids().filter(|kind| may_be_royal[kind.index()]) {
                {
                    count[side.index()] += usize::from(self.hands[self.hand_index(side, kind)]);
                }
            }
        }
        let (side, most) = if self.t.rules().drops {
            (self.side, count[0] + count[1])
        } else if count[1] > count[0] {
            (Side::White, count[1])
        } else {
            (Side::Black, count[0])
        };
        if most > MAX_ROYALS {
            return Err(PositionError::TooManyRoyals { side, count: most });
        }
        Ok(())
    }

    /// With drops, the pieces of a kind can only be those the setup has (on the board and in
    /// hand): none appear from nowhere.
    fn check_piece_totals(&self) -> Result<(), PositionError> {
        if !self.t.rules().drops {
            return Ok(());
        }
        let kinds = self.t.kind_count();
        let mut most = vec![0u32; kinds];
        for (_, piece) in self.t.rules().start_pieces() {
            most[self.t.kind(piece).hand.index()] += 1;
        }
        let mut have = vec![0u32; kinds];
        for &code in &self.board {
            if code != 0 {
                have[self.t.kind(code_kind(code)).hand.index()] += 1;
            }
        }
        for side in [Side::Black, Side::White] {
            for (kind, count) in self.t.rules().piece_ids().zip(have.iter_mut()) {
                *count += u32::from(self.hands[self.hand_index(side, kind)]);
            }
        }
        for kind in self.t.rules().piece_ids() {
            let i = kind.index();
            if have[i] > most[i] && self.t.kind(kind).hand == kind {
                let piece = self.t.rules().piece(kind).abbrev.clone();
                return Err(PositionError::TooManyPieces {
                    piece,
                    count: have[i],
                    most: most[i],
                });
            }
        }
        Ok(())
    }

    /// The hash computed from scratch (the incremental one must always equal it).
    pub fn full_hash(&self) -> u64 {
        let z = &self.t.zobrist;
        let n = self.t.geometry().len();
        let mut hash = 0;
        for (sq, &code) in self.board.iter().enumerate() {
            if code != 0 {
                hash ^= z.piece[usize::from(code) * n + sq];
            }
        }
        for (index, &count) in self.hands.iter().enumerate() {
            hash ^= self.hand_key(index, count);
        }
        if self.side == Side::White {
            hash ^= z.white_to_move;
        }
        hash ^ self.state_key()
    }

    fn hand_key(&self, index: usize, count: u8) -> u64 {
        if count == 0 {
            return 0;
        }
        let z = &self.t.zobrist;
        z.hand[index * z.max_hand + (usize::from(count) - 1).min(z.max_hand - 1)]
    }

    fn state_key(&self) -> u64 {
        let z = &self.t.zobrist;
        let slot = |sq: Sq| if sq == NO_SQ { 0 } else { sq.index() + 1 };
        let n = self.t.geometry().len() + 1;
        let key = |i: usize, sq: Sq| if sq == NO_SQ { 0 } else { z.state[i * n + slot(sq)] };
        key(0, self.lion_capture) ^ key(1, self.deferred[0]) ^ key(2, self.deferred[1])
    }

    #[inline]
    fn piece_key(&self, code: u16, sq: Sq) -> u64 {
        self.t.zobrist.piece[usize::from(code) * self.t.geometry().len() + sq.index()]
    }

    /// Puts a piece on an empty square, keeping counts and royals (not the hash).
    fn put(&mut self, sq: Sq, code: u16) {
        self.board[sq.index()] = code;
        let (side, kind) = (code_side(code), code_kind(code));
        let info = self.t.code(code);
        if self.t.keeps_occupancy() {
            self.occupied[side.index()].insert(sq);
            if info.reaches_past_neighbours {
                self.far_squares[side.index()].insert(sq);
            }
        }
        self.counts[side.index() * self.t.kind_count() + kind.index()] += 1;
        if info.slow_attacker {
            self.slow_count[side.index()] += 1;
            self.slow_squares[side.index()].insert(sq);
        }
        if info.royal {
            let n = &mut self.royal_count[side.index()];
            if usize::from(*n) < MAX_ROYALS {
                self.royals[side.index()][usize::from(*n)] = sq;
                *n += 1;
            }
        }
    }

    /// Takes a piece off, keeping counts and royals (not the hash).
    fn take(&mut self, sq: Sq) -> u16 {
        let code = std::mem::take(&mut self.board[sq.index()]);
        let (side, kind) = (code_side(code), code_kind(code));
        let info = self.t.code(code);
        if self.t.keeps_occupancy() {
            self.occupied[side.index()].remove(sq);
            if info.reaches_past_neighbours {
                self.far_squares[side.index()].remove(sq);
            }
        }
        self.counts[side.index() * self.t.kind_count() + kind.index()] -= 1;
        if info.slow_attacker {
            self.slow_count[side.index()] -= 1;
            self.slow_squares[side.index()].remove(sq);
        }
        if info.royal {
            let list = &mut self.royals[side.index()];
            let n = &mut self.royal_count[side.index()];
            if let Some(i) = list[..usize::from(*n)].iter().position(|&s| s == sq) {
                list[i] = list[usize::from(*n) - 1];
                *n -= 1;
            }
        }
        code
    }

    /// Plays a move (assumed pseudo-legal) and returns what undoes it.
    pub fn make(&mut self, m: &Move) -> Undo {
        self.keep_history();
        self.play::<true>(m)
    }

    /// Before a move: the hash onto the history, and where checks are tracked, whether the
    /// side to move is in check.
    fn keep_history(&mut self) {
        let known_check = self.known_check.take();
        if self.t.track_checks {
            let side = self.side;
            let check = known_check.unwrap_or_else(|| self.royal_in_check(side));
            debug_assert_eq!(check, self.royal_in_check(side), "a stale known check");
            self.checks.push(check);
        }
        self.history.push(self.hash);
    }

    /// Plays a move (assumed pseudo-legal) only to look at the board it leads to, as the
    /// legality check does: the history, the hash and the known check are left as they were
    /// (the position's hash no longer matches its board until [`Position::take_back`]).
    pub(super) fn try_move(&mut self, m: &Move) -> Undo {
        self.play::<false>(m)
    }

    /// Takes back a move played by [`Position::try_move`].
    pub(super) fn take_back(&mut self, m: &Move, undo: &Undo) {
        self.restore(m, undo);
    }

    /// Moves the pieces and changes the side to move, keeping the hash up to date when
    /// `HASHED`.
    fn play<const HASHED: bool>(&mut self, m: &Move) -> Undo {
        let side = self.side;
        let undo = self.undo_record();
        if HASHED {
            self.hash ^= self.state_key();
        }
        let undo = match (m.drop, m.from) {
            (Some(kind), _) => self.make_drop::<HASHED>(m, kind, undo),
            (None, Some(from)) => self.make_board_move::<HASHED>(m, from, undo),
            // Neither a drop nor a move on the board: nothing moves.
            (None, None) => undo,
        };
        self.side = side.opponent();
        self.move_number += 1;
        if HASHED {
            self.hash ^= self.t.zobrist.white_to_move ^ self.state_key();
        }
        undo
    }

    fn make_drop<const HASHED: bool>(&mut self, m: &Move, kind: PieceId, mut undo: Undo) -> Undo {
        let side = self.side;
        // A piece dropped on its promoted face (`drops either-face`) comes from the hand's
        // unpromoted kind.
        let index = self.hand_index(side, self.t.kind(kind).unpromoted);
        let count = self.hands[index];
        if HASHED {
            self.hash ^= self.hand_key(index, count) ^ self.hand_key(index, count - 1);
        }
        self.hands[index] = count - 1;
        let code = piece_code(kind, side, false);
        self.put(m.to, code);
        if HASHED {
            self.hash ^= self.piece_key(code, m.to);
        }
        undo.moved = code;
        self.lion_capture = NO_SQ;
        self.deferred[side.index()] = NO_SQ;
        undo
    }

    fn make_board_move<const HASHED: bool>(&mut self, m: &Move, from: Sq, mut undo: Undo) -> Undo {
        let side = self.side;
        let moved = self.take(from);
        if HASHED {
            self.hash ^= self.piece_key(moved, from);
        }
        undo.moved = moved;
        let mut lion_taken = m.sweep && self.sweep::<HASHED>(from, m.to, &mut undo);
        for sq in m.captures() {
            let code = self.board[sq.index()];
            if code == 0 || code_side(code) == side {
                continue;
            }
            let captured = self.remove_taken::<HASHED>(sq);
            undo.captured[usize::from(undo.captures)] = (sq, captured);
            undo.captures += 1;
            let info = self.t.kind(code_kind(captured));
            lion_taken |= info.lion == LionRole::Lion;
            self.add_to_hand::<HASHED>(side, info.hand);
        }
        let kind = code_kind(moved);
        let info = &self.t.kind(kind);
        let declined_entry = !m.promote && info.promotion.to.is_some() && self.entered_zone(side, from, m.to);
        let placed = if m.promote {
            piece_code(info.turns_to.unwrap_or(kind), side, false)
        } else {
            piece_code(
                kind,
                side,
                code_declined(moved) || (declined_entry && info.promotion.declined_waits_for_last_rank),
            )
        };
        let mover_is_lion = info.lion == LionRole::Lion;
        self.put(m.to, placed);
        if HASHED {
            self.hash ^= self.piece_key(placed, m.to);
        }
        self.lion_capture = if lion_taken && !mover_is_lion { m.to } else { NO_SQ };
        self.deferred[side.index()] = if declined_entry && self.t.rules().deferral {
            m.to
        } else {
            NO_SQ
        };
        if self.t.burners {
            self.burn::<HASHED>(m.to, placed, &mut undo);
        }
        undo
    }

    /// A range capture's sweep ([`Move::sweep`]): takes every piece on the line from `from`
    /// (not included) to `to` (included), whatever its side, onto the stack of swept
    /// pieces; with drops each goes to the mover's hand. Returns whether it took an enemy Lion.
    fn sweep<const HASHED: bool>(&mut self, from: Sq, to: Sq, undo: &mut Undo) -> bool {
        let side = self.side;
        let mut lion_taken = false;
        for at in self.t.geometry().line_to(from, to) {
            if self.board[at.index()] == 0 {
                continue;
            }
            let code = self.remove_taken::<HASHED>(at);
            self.swept.push((at, code));
            undo.swept += 1;
            let info = self.t.kind(code_kind(code));
            lion_taken |= code_side(code) != side && info.lion == LionRole::Lion;
            self.add_to_hand::<HASHED>(side, info.hand);
        }
        lion_taken
    }

    /// Takes off the piece on `sq` that a move captures, sweeps or burns, keeping the hash:
    /// a piece under deferral that is taken no longer defers anything.
    #[inline]
    fn remove_taken<const HASHED: bool>(&mut self, sq: Sq) -> u16 {
        let code = self.take(sq);
        if HASHED {
            self.hash ^= self.piece_key(code, sq);
        }
        for deferred in &mut self.deferred {
            if *deferred == sq {
                *deferred = NO_SQ;
            }
        }
        code
    }

    /// With drops, a piece taken goes to the hand of `side` as `kind`, keeping the hash.
    #[inline]
    fn add_to_hand<const HASHED: bool>(&mut self, side: Side, kind: PieceId) {
        if !self.t.rules().drops {
            return;
        }
        let index = self.hand_index(side, kind);
        let count = self.hands[index];
        if HASHED {
            self.hash ^= self.hand_key(index, count) ^ self.hand_key(index, count.saturating_add(1));
        }
        self.hands[index] = count.saturating_add(1);
    }

    /// Burning, after the piece `placed` of the side to move ended its move on `to`: next to
    /// an enemy burner it is burnt (removed); a burner that is not burnt burns (captures)
    /// every enemy piece next to it. Under `burns-before-burnt` a burner next to an enemy
    /// burner first burns its other neighbours, then is burnt.
    fn burn<const HASHED: bool>(&mut self, to: Sq, placed: u16, undo: &mut Undo) {
        let side = self.side;
        let geo = self.t.geometry();
        let enemy_burner = |pos: &Position, n: Sq| {
            let code = pos.board[n.index()];
            code != 0 && code_side(code) != side && pos.t.kind(code_kind(code)).burns
        };
        let burnt = walks::neighbours(geo, to).any(|n| enemy_burner(self, n));
        let burns = self.t.kind(code_kind(placed)).burns && (!burnt || self.t.rules().end.burns_before_burnt);
        if burns {
            for n in walks::neighbours(geo, to) {
                let code = self.board[n.index()];
                if code == 0 || code_side(code) == side || (burnt && enemy_burner(self, n)) {
                    continue;
                }
                let victim = self.remove_taken::<HASHED>(n);
                undo.burnt[usize::from(undo.burns)] = (n, victim);
                undo.burns += 1;
            }
        }
        if burnt {
            self.remove_taken::<HASHED>(to);
            undo.mover_burnt = true;
        }
    }

    /// Whether a move from `from` to `to` enters `side`'s promotion zone from outside.
    pub(crate) fn entered_zone(&self, side: Side, from: Sq, to: Sq) -> bool {
        match self.t.zone {
            Some(zone) => self.t.depth(side, from) > zone.depth && self.t.depth(side, to) <= zone.depth,
            None => false,
        }
    }

    /// What a move keeps to be taken back: the state before it, nothing moved or taken yet.
    fn undo_record(&self) -> Undo {
        Undo {
            moved: 0,
            captured: [(NO_SQ, 0); 3],
            captures: 0,
            burnt: [(NO_SQ, 0); 8],
            burns: 0,
            mover_burnt: false,
            swept: 0,
            lion_capture: self.lion_capture,
            deferred: self.deferred,
            hash: self.hash,
            royals: self.royals,
            royal_count: self.royal_count,
        }
    }

    /// Passes the turn (the search's null move; no rule gives a side this move): nothing on
    /// the board or in hand changes, a deferred promotion stays deferred, and the side to
    /// move changes; the bar a Lion capture puts on the next move ends, as after any move.
    /// Unlike a piece "moving" to its own square, nothing burns and no piece is burnt.
    pub fn make_null(&mut self) -> Undo {
        self.keep_history();
        let undo = self.undo_record();
        self.hash ^= self.state_key();
        self.lion_capture = NO_SQ;
        self.side = self.side.opponent();
        self.move_number += 1;
        self.hash ^= self.t.zobrist.white_to_move ^ self.state_key();
        undo
    }

    /// Takes back a null move, given what [`make_null`](Self::make_null) returned.
    pub fn unmake_null(&mut self, undo: &Undo) {
        self.side = self.side.opponent();
        self.move_number -= 1;
        self.lion_capture = undo.lion_capture;
        self.hash = undo.hash;
        self.pop_history();
    }

    /// Takes back the move `m`, given what [`make`](Self::make) returned.
    pub fn unmake(&mut self, m: &Move, undo: &Undo) {
        self.restore(m, undo);
        self.pop_history();
    }

    /// After taking a move back: what [`keep_history`](Self::keep_history) kept comes off.
    fn pop_history(&mut self) {
        self.history.pop();
        self.known_check = if self.t.track_checks { self.checks.pop() } else { None };
    }

    /// Puts the pieces back as they were before `m`, and the side to move, the hash and the
    /// state `undo` keeps.
    fn restore(&mut self, m: &Move, undo: &Undo) {
        self.side = self.side.opponent();
        self.move_number -= 1;
        let side = self.side;
        if !undo.mover_burnt {
            self.take(m.to);
        }
        for &(sq, code) in &undo.burnt[..usize::from(undo.burns)] {
            self.put(sq, code);
        }
        if let Some(kind) = m.drop {
            let index = self.hand_index(side, self.t.kind(kind).unpromoted);
            self.hands[index] += 1;
        } else if let Some(from) = m.from {
            self.put(from, undo.moved);
            for &(sq, code) in &undo.captured[..usize::from(undo.captures)] {
                self.put(sq, code);
                if self.t.rules().drops {
                    let index = self.hand_index(side, self.t.kind(code_kind(code)).hand);
                    self.hands[index] -= 1;
                }
            }
            for _ in 0..undo.swept {
                let (sq, code) = self.swept.pop().expect("a swept piece for each counted");
                self.put(sq, code);
                if self.t.rules().drops {
                    let index = self.hand_index(side, self.t.kind(code_kind(code)).hand);
                    self.hands[index] -= 1;
                }
            }
        }
        self.royals = undo.royals;
        self.royal_count = undo.royal_count;
        self.lion_capture = undo.lion_capture;
        self.deferred = undo.deferred;
        self.hash = undo.hash;
    }

    /// How many times the current position has occurred before (same hash).
    pub fn repetitions(&self) -> usize {
        self.history.iter().filter(|&&h| h == self.hash).count()
    }

    /// The side that gave check with every one of its moves since the current position first
    /// occurred (the cycle that repeats it), if any; none when the tables do not track checks.
    pub(crate) fn perpetual_checker(&self) -> Option<Side> {
        if !self.t.track_checks {
            return None;
        }
        let first = self.history.iter().position(|&h| h == self.hash)?;
        let now = self.history.len();
        let in_check = |i: usize| {
            if i == now {
                self.royal_in_check(self.side)
            } else {
                self.checks[i]
            }
        };
        // Position i has the side to move of now when it is an even number of plies back.
        let side_at = |i: usize| {
            if (now - i).is_multiple_of(2) {
                self.side
            } else {
                self.side.opponent()
            }
        };
        [self.side, self.side.opponent()].into_iter().find(|&checker| {
            let mut checked = (first + 1..=now)
                .filter(|&i| side_at(i) == checker.opponent())
                .peekable();
            checked.peek().is_some() && checked.all(in_check)
        })
    }

    /// The squares whose pieces the move `m` (pseudo-legal here) takes, in order, whatever
    /// their side: a Lion's squares before its destination, then its destination; for a
    /// sweep ([`Move::sweep`]), every piece on its line up to and including its destination.
    /// Burning is not counted.
    pub fn taken(&self, m: &Move) -> impl Iterator<Item = Sq> + '_ {
        taken_squares(self.t.geometry(), &self.board, *m)
    }

    /// The squares of `side`'s royal pieces.
    #[inline]
    pub fn royal_squares(&self, side: Side) -> &[Sq] {
        &self.royals[side.index()][..usize::from(self.royal_count[side.index()])]
    }

    /// Pieces of `side` on the board, by kind.
    #[inline]
    pub fn count(&self, side: Side, kind: PieceId) -> u16 {
        self.counts[side.index() * self.t.kind_count() + kind.index()]
    }
}

/// What the other rooms of the stage (generation, legality, attack detection, the end of
/// the game) read of a position, and the one thing they write: the check they worked out.
impl Position {
    /// The board: each square's piece code (0 for an empty square), in square order.
    #[inline]
    pub(super) fn codes(&self) -> &[u16] {
        &self.board
    }

    /// The code of the piece on `sq` (0 for an empty square).
    #[inline]
    pub(super) fn code(&self, sq: Sq) -> u16 {
        self.board[sq.index()]
    }

    /// The squares `side` occupies, kept where the tables ask for them
    /// ([`MoveTables::keeps_occupancy`]).
    #[inline]
    pub(super) fn occupied(&self, side: Side) -> &Occupancy {
        &self.occupied[side.index()]
    }

    /// The squares of `side`'s pieces that generation visits under the hemmed-in test, found
    /// as sets of squares: those with a neighbour their side does not hold, and those with a
    /// move that does not begin on a neighbour. Every piece left out is hemmed in.
    #[inline]
    pub(super) fn unhemmed_candidates(&self, side: Side) -> Occupancy {
        self.occupied(side)
            .unenclosed(self.t.geometry().len())
            .union(&self.far_squares[side.index()])
    }

    /// Whether the position keeps the squares each side occupies for the hemmed-in test, so
    /// that [`held_neighbours`](Self::held_neighbours) knows them.
    #[inline]
    pub(crate) fn knows_held_neighbours(&self) -> bool {
        self.t.hem_check
    }

    /// The neighbours of `sq` that `side` occupies, as bits of
    /// [`MoveTables::neighbourhoods`](super::tables::MoveTables::neighbourhoods), where
    /// [`knows_held_neighbours`](Self::knows_held_neighbours) (0 elsewhere: none known).
    #[inline]
    pub(crate) fn held_neighbours(&self, side: Side, sq: Sq) -> u16 {
        if self.t.hem_check {
            self.occupied(side).neighbours(sq)
        } else {
            0
        }
    }

    /// The squares of both sides, by [`Side::index`] (see [`Position::occupied`]).
    #[inline]
    pub(super) fn occupancy(&self) -> &[Occupancy; 2] {
        &self.occupied
    }

    /// Per side: how many slow attackers (hooks, Emperors) it has on the board.
    #[inline]
    pub(super) fn slow_counts(&self) -> [u16; 2] {
        self.slow_count
    }

    /// Per side: the squares of its slow attackers.
    #[inline]
    pub(super) fn slow_squares(&self) -> &[Occupancy; 2] {
        &self.slow_squares
    }

    /// The square of `side`'s piece that declined to promote on entering the zone on that
    /// side's last move (Chu's deferral rule), [`NO_SQ`] if none.
    #[inline]
    pub(super) fn deferred(&self, side: Side) -> Sq {
        self.deferred[side.index()]
    }

    /// Hashes of the positions before this one, oldest first.
    #[inline]
    pub(super) fn history(&self) -> &[u64] {
        &self.history
    }

    /// For each position of [`history`](Self::history): was its side to move in check? Kept
    /// only when the tables track checks; empty otherwise.
    #[cfg(feature = "test-support")]
    pub(super) fn check_history(&self) -> &[bool] {
        &self.checks
    }

    /// Keeps whether the side to move is in check, as worked out (by the legality filter),
    /// sparing [`make`](Self::make) the work.
    #[inline]
    pub(super) fn know_check(&mut self, in_check: bool) {
        self.known_check = Some(in_check);
    }
}

/// The occupied squares whose pieces a move on `board` takes, in order: a Lion's squares
/// before its destination, then its destination; for a sweep ([`Move::sweep`]), every
/// piece on its line up to and including its destination. Burning is not counted.
pub(crate) fn taken_squares(geo: Geometry, board: &[u16], m: Move) -> impl Iterator<Item = Sq> + '_ {
    let plain = m
        .via
        .into_iter()
        .flatten()
        .chain(std::iter::once(m.to))
        .filter(move |&s| !m.sweep && Some(s) != m.from && !m.is_drop());
    let line = m
        .from
        .filter(|_| m.sweep)
        .map(|from| geo.line_to(from, m.to))
        .into_iter()
        .flatten();
    plain.chain(line).filter(move |&s| board[s.index()] != 0)
}

/// The starting setup and hands, with a handicap's pieces removed (White then to move).
fn start_setup(t: &MoveTables, handicap: Option<&str>) -> Option<Setup> {
    let removed: Vec<Square> = match handicap {
        Some(name) => t.rules().handicaps.iter().find(|h| h.name == name)?.squares.clone(),
        None => vec![],
    };
    let pieces = t
        .rules()
        .setup
        .iter()
        .filter(|p| !(p.side == Side::White && removed.contains(&p.square)))
        .map(|p| (p.square, p.side, p.piece, false))
        .collect();
    let mut hands: Vec<(Side, PieceId, u32)> = Vec::new();
    for h in &t.rules().hand {
        match hands
            .iter_mut()
            .find(|(side, piece, _)| (*side, *piece) == (h.side, h.piece))
        {
            Some((_, _, count)) => *count += 1,
            None => hands.push((h.side, h.piece, 1)),
        }
    }
    let side_to_move = if handicap.is_some() { Side::White } else { Side::Black };
    Some(Setup {
        pieces,
        hands,
        side_to_move,
        move_number: 1,
        lion_capture: None,
        deferred: [None; 2],
    })
}
