//! An independent legality check, to hold the move generator against.
//!
//! [`Position::is_legal`] decides whether one move is legal from the variant's
//! [`Rules`](crate::rules::Rules) alone. It shares nothing with the generator: no unrolled
//! rays, no attack tables, no Lion walk code. It reads the piece's movement definitions and
//! walks the board square by square with [`BoardSize::offset`](crate::rules::BoardSize::offset),
//! checks the promotion choice against the promotion triggers, the drop against the drop
//! rules, and then the legality rules by playing the move and asking, piece by piece and
//! movement by movement, whether the opponent could capture the mover's last royal. It is
//! slow, and meant to be obviously right rather than fast.
//!
//! Readings of the rules that are not spelt out by the rule texts, and that this check
//! shares with the generator:
//! - protection (for capture-unprotected moves and the Lion-trading rule) is judged on the
//!   board before the move with the capturing piece lifted off its square; pieces the move
//!   captures first still protect; capture-unprotected moves do not protect, unless the
//!   rules say `capture-unprotected-protects` (then they protect where they could take back
//!   a capturer its own side leaves unprotected); under `defended-after-move` the
//!   Lion-trading rule judges it after the whole move instead;
//! - a capture-unprotected piece (the Emperor) attacks a royal only when no other piece of
//!   the royal's side protects it;
//! - promotion looks at the start and end squares of a move only (Lion moves included);
//! - Chu's deferral lasts for the player's next turn (the position records the square of
//!   the piece that declined);
//! - with two royals, leaving one of them capturable is legal;
//! - under `royal-capture-allowed`, a side whose last royal piece was captured has lost and
//!   has no move;
//! - under `check-wins`, a side to move in check has lost and has no move; a drop mate is
//!   judged by the moves it would have were the game not over;
//! - under `moves-as-piece-behind`, a piece whose square directly behind it (one square
//!   towards its owner) holds a piece of its own side moves and attacks with that piece's
//!   movements, and promotes as itself;
//! - a position has one pass, the pass of the first piece that may pass in the board's
//!   reading order (rank `a` first, each rank from its highest file).
//! - under `must-capture`, a move that takes nothing is illegal while a legal move takes a
//!   piece (a drop takes nothing);
//! - a range capture that takes more than an enemy on its destination (a piece it passes,
//!   or one of its own side there) is a move of its own, marked [`Move::sweep`]; one that
//!   takes at most an enemy on its destination is an ordinary move.

use super::board::{NO_SQ, Piece, Sq};
use super::moves::Move;
use super::position::Position;
use crate::rules::{
    FlipEvent, LionDefence, LionRole, Mode, Movement, Offset, PieceId, PromotionEvent, RepetitionEffect, Rules, Side,
    Square, TryReading,
};

impl Position {
    /// Whether `m` is a legal move in this position, decided from the rules without the move
    /// generator: the piece's movements walked square by square, the promotion and drop
    /// rules, then Chu's Lion rules, royal safety (by an attack check of its own), drop mate
    /// and repetition. Slow, and meant to be obviously right; for testing the generator.
    pub fn is_legal(&mut self, m: &Move) -> bool {
        let judge = Judge::new(self);
        if judge.rules.end.check_wins
            && judge
                .royal_squares(judge.side)
                .iter()
                .any(|&r| judge.can_capture_on(judge.side.opponent(), r, None, true))
        {
            // The side to move is in check, and the first check wins: the game is over.
            return false;
        }
        if judge.try_made() || judge.extinct() {
            return false;
        }
        self.is_legal_in_play(m) && !self.capture_compulsory_forbids(m)
    }

    /// Compulsory capture (`must-capture`): whether `m` takes nothing while some legal move
    /// of the candidates takes a piece.
    fn capture_compulsory_forbids(&mut self, m: &Move) -> bool {
        let judge = Judge::new(self);
        if !judge.rules.must_capture || judge.takes(m) {
            return false;
        }
        let captures: Vec<Move> = self.candidate_moves().into_iter().filter(|c| judge.takes(c)).collect();
        captures.iter().any(|c| self.is_legal_in_play(c))
    }

    /// [`is_legal`](Self::is_legal) but for the end by check (`check-wins`): what a drop
    /// mate is judged by.
    fn is_legal_in_play(&mut self, m: &Move) -> bool {
        let judge = Judge::new(self);
        if judge.rules.end.royal_capture_allowed
            && judge.rules.pieces.iter().any(|p| p.royal)
            && judge.royal_squares(judge.side).is_empty()
        {
            // The side to move has lost its last royal: the game is over.
            return false;
        }
        let shape = if m.is_drop() {
            judge.drop_shape(m)
        } else {
            judge.board_shape(m)
        };
        let Some(captures) = shape else {
            return false;
        };
        if m.is_pass() && m.from.is_some_and(|from| judge.earlier_passer(from)) {
            return false;
        }
        if !m.is_drop() && !judge.lion_rules_allow(m, &captures) {
            return false;
        }
        if !judge.piece_limit_allows(m) {
            return false;
        }
        self.royal_stays_safe(m) && !self.drop_mates_independently(m) && !self.repetition_forbids(m)
    }

    /// Moves that might be legal here, found without the move generator: every piece of the
    /// side to move to every other square (promoting or not when its kind promotes; sweeping
    /// or not when it has range captures); for a
    /// piece with Lion moves, every square within its Lion range with no, one or two enemy
    /// squares within that range captured on the way, and the pass; every drop of every
    /// kind in hand on every empty square. A superset of the legal moves.
    pub fn candidate_moves(&self) -> Vec<Move> {
        let judge = Judge::new(self);
        let rules = judge.rules;
        let mut out = Vec::new();
        let board_move = |from: Sq, to: Sq, via: [Sq; 2], promote: bool| Move {
            from: Some(from),
            to,
            via: via.map(Sq::known),
            drop: None,
            promote,
            sweep: false,
        };
        for from in rules.board.squares() {
            let Some(p) = judge.at(from) else {
                continue;
            };
            let (owner, kind) = (p.side(), p.kind());
            if owner != judge.side {
                continue;
            }
            let piece = rules.piece(kind);
            let mover = rules.piece(judge.moving_kind(owner, from, kind, None));
            let turns_back = rules.flip.is_some() && piece.promotion.reverts_to.is_some();
            let promotions: &[bool] = if piece.promotion.to.is_some() || turns_back {
                &[false, true]
            } else {
                &[false]
            };
            let f = judge.sq(from);
            let sweeps: &[bool] = if mover.moves.iter().any(|m| matches!(m, Movement::RangeCapture { .. })) {
                &[false, true]
            } else {
                &[false]
            };
            for to in rules.board.squares().filter(|&to| to != from) {
                for &promote in promotions {
                    for &sweep in sweeps {
                        out.push(Move {
                            sweep,
                            ..board_move(f, judge.sq(to), [NO_SQ; 2], promote)
                        });
                    }
                }
            }
            if mover.moves.iter().any(|m| matches!(m, Movement::Igui { .. })) {
                let enemies_next = rules
                    .board
                    .squares()
                    .filter(|&s| distance(from, s) == 1 && judge.at(s).is_some_and(|p| p.side() != judge.side));
                for a in enemies_next {
                    for &promote in promotions {
                        out.push(board_move(f, f, [judge.sq(a), NO_SQ], promote));
                    }
                }
            }
            let reach = mover.moves.iter().filter_map(Movement::lion_steps).max().unwrap_or(0);
            if reach == 0 {
                continue;
            }
            let near: Vec<Square> = rules.board.squares().filter(|&s| distance(from, s) <= reach).collect();
            let enemies: Vec<Sq> = near
                .iter()
                .filter(|&&s| judge.at(s).is_some_and(|p| p.side() != judge.side))
                .map(|&s| judge.sq(s))
                .collect();
            for &to in &near {
                let to = judge.sq(to);
                if to == f {
                    out.push(board_move(f, f, [NO_SQ; 2], false));
                }
                for &a in &enemies {
                    for b in std::iter::once(NO_SQ).chain(enemies.iter().copied().filter(|&b| b != a)) {
                        for &promote in promotions {
                            out.push(board_move(f, to, [a, b], promote));
                        }
                    }
                }
            }
        }
        if rules.drops {
            for kind in rules.piece_ids() {
                if self.in_hand(judge.side, kind) == 0 {
                    continue;
                }
                let faces = std::iter::once(kind).chain(rules.piece(kind).promotion.to);
                for face in faces {
                    for to in rules.board.squares().filter(|&s| judge.at(s).is_none()) {
                        out.push(Move::drop(face, judge.sq(to)));
                    }
                }
            }
        }
        out
    }

    /// Whether the side to move has a legal move, the end by check aside, by
    /// [`is_legal`](Self::is_legal)'s rules over [`candidate_moves`](Self::candidate_moves).
    fn has_legal_move_independently(&mut self) -> bool {
        self.candidate_moves().iter().any(|c| self.is_legal_in_play(c))
    }

    /// Royal safety: unless the rules allow it, a move may not leave the mover's last royal
    /// piece where the opponent could capture it.
    fn royal_stays_safe(&mut self, m: &Move) -> bool {
        if self.rules().end.royal_capture_allowed {
            return true;
        }
        let side = self.side_to_move();
        let before = Judge::new(self).royal_squares(side).len();
        let undo = self.make(m);
        let judge = Judge::new(self);
        let royals = judge.royal_squares(side);
        let opponent = side.opponent();
        let exposed = (royals.len() == 1
            && (judge.can_capture_on(opponent, royals[0], None, true) || judge.can_burn_on(opponent, royals[0])))
            || (royals.is_empty() && before > 0);
        self.unmake(m, &undo);
        !exposed
    }

    /// A drop of a kind that may not give immediate mate, that does: the opponent's royal is
    /// attacked and the opponent has no legal move.
    fn drop_mates_independently(&mut self, m: &Move) -> bool {
        if !m.drop.is_some_and(|kind| self.rules().piece(kind).drop.no_drop_mate) {
            return false;
        }
        let side = self.side_to_move();
        let undo = self.make(m);
        let judge = Judge::new(self);
        let check = judge
            .royal_squares(side.opponent())
            .iter()
            .any(|&r| judge.can_capture_on(side, r, None, true));
        let mates = check && !self.has_legal_move_independently();
        self.unmake(m, &undo);
        mates
    }

    /// The repetition rule, when it forbids moves: the move may not make a position occur
    /// for the rule's count-th time (for "starter varies", only the player who started the
    /// repeating sequence is held to it; where perpetual check loses, the side in perpetual
    /// check may repeat).
    fn repetition_forbids(&mut self, m: &Move) -> bool {
        let Some(rule) = self.rules().end.repetition.clone() else {
            return false;
        };
        if rule.effect == RepetitionEffect::Draw {
            return false;
        }
        let mover = self.side_to_move();
        let undo = self.make(m);
        let mut seen = self.history().to_vec();
        seen.push(self.hash());
        let mut checks = self.check_history().to_vec();
        let judge = Judge::new(self);
        checks.push(
            judge
                .royal_squares(mover.opponent())
                .iter()
                .any(|&r| judge.can_capture_on(mover, r, None, true)),
        );
        self.unmake(m, &undo);
        let now = seen[seen.len() - 1];
        if seen.iter().filter(|&&h| h == now).count() < usize::from(rule.count) {
            return false;
        }
        if rule.perpetual_check_loses && checked_throughout(&seen, &checks) {
            return false;
        }
        match rule.effect {
            RepetitionEffect::Draw => false,
            RepetitionEffect::Illegal => true,
            RepetitionEffect::StarterVaries => {
                // Positions alternate sides; the last one has the mover's opponent to move.
                let start = sequence_start(&seen);
                let plies_back = seen.len() - 1 - start;
                let starter = if plies_back.is_multiple_of(2) {
                    mover.opponent()
                } else {
                    mover
                };
                starter == mover
            }
        }
    }
}

/// Whether the side that made the move to the last position was in check in every position
/// it had to move in since the last position first occurred (and in at least one). The
/// positions alternate sides.
fn checked_throughout(seen: &[u64], checks: &[bool]) -> bool {
    let now = seen.len() - 1;
    let first = seen.iter().position(|&h| h == seen[now]).unwrap_or(now);
    let own: Vec<bool> = (first + 1..now).rev().step_by(2).map(|i| checks[i]).collect();
    !own.is_empty() && own.iter().all(|&c| c)
}

/// Where the repeating sequence that ends in the last position began: the first occurrence
/// of the last position, moved back as long as the positions before it repeat with the same
/// period (the period is the distance between its first two occurrences).
fn sequence_start(seen: &[u64]) -> usize {
    let now = seen[seen.len() - 1];
    let first = seen.iter().position(|&h| h == now).unwrap_or(0);
    let Some(gap) = seen[first + 1..].iter().position(|&h| h == now) else {
        return first;
    };
    let period = gap + 1;
    let mut start = first;
    while start > 0 && seen[start - 1] == seen[start - 1 + period] {
        start -= 1;
    }
    start
}

/// King-step distance.
/// A piece's place in the range-jumping order, unranked pieces last.
fn jump_rank(rules: &Rules, kind: PieceId) -> u16 {
    rules.piece(kind).jump_rank.map_or(u16::MAX, u16::from)
}

fn distance(a: Square, b: Square) -> u8 {
    a.file.abs_diff(b.file).max(a.rank.abs_diff(b.rank))
}

/// What the promotion rules allow on a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Promotion {
    Never,
    May,
    Must,
}

/// The position read for one question, with the side to move.
struct Judge<'a> {
    pos: &'a Position,
    rules: &'a Rules,
    side: Side,
}

impl<'a> Judge<'a> {
    fn new(pos: &'a Position) -> Judge<'a> {
        Judge {
            pos,
            rules: pos.rules(),
            side: pos.side_to_move(),
        }
    }

    fn square(&self, sq: Sq) -> Option<Square> {
        self.pos
            .is_on_board(sq)
            .then(|| self.pos.tables().geometry().square(sq))
    }

    fn sq(&self, s: Square) -> Sq {
        self.pos.tables().geometry().index(s)
    }

    /// The piece on a square as this check destructures it: owner, kind, declined flag.
    fn at(&self, s: Square) -> Option<Piece> {
        self.pos.piece_at(s)
    }

    fn occupied(&self, s: Square, lifted: Option<Square>) -> bool {
        Some(s) != lifted && self.at(s).is_some()
    }

    fn step(&self, side: Side, from: Square, by: Offset) -> Option<Square> {
        self.rules.board.offset(side, from, by)
    }

    /// Whether a side's royal piece has made the try (`try N`): it stands on that side's far
    /// ranks and, as the reading says, the side is to move again (`unless-taken`), no enemy
    /// piece could take it there (`unattacked`), or nothing more (campmate).
    fn try_made(&self) -> bool {
        let Some(rule) = self.rules.end.try_rule else {
            return false;
        };
        let sides = match rule.reading {
            TryReading::UnlessTaken => vec![self.side],
            TryReading::Reached | TryReading::Unattacked => vec![self.side, self.side.opponent()],
        };
        sides.into_iter().any(|side| {
            self.royal_squares(side).into_iter().any(|s| {
                self.rules.board.depth_from_far_edge(side, s) <= rule.depth
                    && (rule.reading != TryReading::Unattacked || !self.can_capture_on(side.opponent(), s, None, true))
            })
        })
    }

    /// Extinction (`extinction`): whether either side has no piece left, on the board or in
    /// hand, of a kind watched (promoted faces counted with their kind), or none at all.
    fn extinct(&self) -> bool {
        let Some(rule) = &self.rules.end.extinction else {
            return false;
        };
        let unpromoted = |k: PieceId| {
            let mut k = k;
            while let Some(base) = self.rules.piece(k).promotion.reverts_to {
                k = base;
            }
            k
        };
        [self.side, self.side.opponent()].into_iter().any(|side| {
            let held = |watched: Option<PieceId>| {
                let on_board = self.rules.board.squares().any(|s| {
                    self.at(s)
                        .is_some_and(|p| p.side() == side && watched.is_none_or(|w| unpromoted(p.kind()) == w))
                });
                let in_hand = (0..self.rules.pieces.len()).any(|k| {
                    let k = PieceId(k as u16);
                    watched.is_none_or(|w| unpromoted(k) == w) && self.pos.in_hand(side, k) > 0
                });
                on_board || in_hand
            };
            if rule.kinds.is_empty() {
                !held(None)
            } else {
                rule.kinds.iter().any(|&k| !held(Some(k)))
            }
        })
    }

    /// Whether a move takes a piece: one of the squares it captures on is occupied.
    fn takes(&self, m: &Move) -> bool {
        let shape = if m.is_drop() {
            self.drop_shape(m)
        } else {
            self.board_shape(m)
        };
        shape.is_some_and(|squares| squares.iter().any(|&s| self.at(s).is_some()))
    }

    fn royal_squares(&self, side: Side) -> Vec<Square> {
        self.rules
            .board
            .squares()
            .filter(|&s| {
                self.at(s)
                    .is_some_and(|p| p.side() == side && self.rules.piece(p.kind()).royal)
            })
            .collect()
    }

    /// The kind whose movements the piece of `side` on `from`, of `kind`, moves with: under
    /// `moves-as-piece-behind`, that of a piece of its own side on the square directly
    /// behind it (one square back, from its owner's side), `lifted` counting as empty.
    fn moving_kind(&self, side: Side, from: Square, kind: PieceId, lifted: Option<Square>) -> PieceId {
        if !self.rules.moves_as_piece_behind {
            return kind;
        }
        let behind = self.step(side, from, Offset::new(0, -1)).filter(|&b| Some(b) != lifted);
        match behind.and_then(|b| self.at(b)) {
            Some(friend) if friend.side() == side => friend.kind(),
            _ => kind,
        }
    }

    /// The squares of a Lion line from `from` (not included), up to `steps` along `dir`.
    fn line(&self, side: Side, from: Square, dir: Offset, steps: u8) -> Vec<Square> {
        let mut out = Vec::new();
        let mut at = from;
        for _ in 0..steps {
            let Some(next) = self.step(side, at, dir) else {
                break;
            };
            out.push(next);
            at = next;
        }
        out
    }

    /// Whether `movement` of a piece of `side` on `from` reaches `to` in one go (the path is
    /// free; what stands on `to` is not looked at). `lifted` counts as an empty square.
    fn reaches(&self, side: Side, from: Square, movement: &Movement, to: Square, lifted: Option<Square>) -> bool {
        if movement.from_last_rank() && self.rules.board.depth_from_far_edge(side, from) != 1 {
            return false;
        }
        match *movement {
            Movement::Ride { dir, max, beyond, .. } => {
                let mut at = from;
                let mut taken = 0u32;
                while max.is_none_or(|max| taken < u32::from(max)) {
                    let Some(next) = self.step(side, at, dir) else {
                        return false;
                    };
                    taken += 1;
                    if taken <= u32::from(beyond) {
                        // Jumped, whatever stands there.
                        at = next;
                        continue;
                    }
                    if next == to {
                        return true;
                    }
                    if self.occupied(next, lifted) {
                        return false;
                    }
                    at = next;
                }
                false
            }
            Movement::Leap { to: by, .. } => self.step(side, from, by) == Some(to),
            Movement::AreaLion { steps, .. } => (1..=steps).contains(&distance(from, to)),
            Movement::LineLion { dir, steps, .. } => self.line(side, from, dir, steps).contains(&to),
            Movement::Hook { dir, only_turn, .. } => {
                // Along `dir`; at any empty square on the way, optionally turn 90° (onto
                // `only_turn`, if given) and go on.
                let mut at = from;
                while let Some(first) = self.step(side, at, dir) {
                    if first == to {
                        return true;
                    }
                    if self.occupied(first, lifted) {
                        return false;
                    }
                    for turn in crate::rules::hook_turns(dir, only_turn) {
                        let mut leg = first;
                        while let Some(second) = self.step(side, leg, turn) {
                            if second == to {
                                return true;
                            }
                            if self.occupied(second, lifted) {
                                break;
                            }
                            leg = second;
                        }
                    }
                    at = first;
                }
                false
            }
            Movement::Anywhere { .. } => from != to,
            Movement::Area { steps, dirs, .. } => {
                let units: Vec<Offset> = dirs.offsets().collect();
                from != to && self.area_walk(side, from, &units, steps, to, lifted)
            }
            Movement::RangeJump { dir, .. } => {
                let rank = |s: Square| self.at(s).map_or(u16::MAX, |p| jump_rank(self.rules, p.kind()));
                let mover = rank(from);
                let mut jumped = false;
                let mut at = from;
                while let Some(next) = self.step(side, at, dir) {
                    if next == to {
                        // Past a jumped piece it takes only a lower-ranked one.
                        return !jumped || (self.occupied(to, lifted) && rank(to) > mover);
                    }
                    if self.occupied(next, lifted) {
                        if rank(next) <= mover {
                            return false;
                        }
                        jumped = true;
                    }
                    at = next;
                }
                false
            }
            Movement::RangeCapture { dir, .. } => {
                // Over pieces ranked below the mover only, onto an empty square or another such.
                let rank = |s: Square| self.at(s).map_or(u16::MAX, |p| jump_rank(self.rules, p.kind()));
                let mover = rank(from);
                let mut at = from;
                while let Some(next) = self.step(side, at, dir) {
                    if self.occupied(next, lifted) && rank(next) <= mover {
                        return false;
                    }
                    if next == to {
                        return true;
                    }
                    at = next;
                }
                false
            }
            Movement::Igui { dir, .. } => self.step(side, from, dir) == Some(to),
            Movement::Hop { dir, max, .. } => {
                // Exactly one piece, of either side, between `from` and `to` on the line.
                let mut at = from;
                let mut taken = 0u32;
                let mut screens = 0u32;
                while max.is_none_or(|max| taken < u32::from(max)) {
                    let Some(next) = self.step(side, at, dir) else {
                        return false;
                    };
                    taken += 1;
                    if next == to {
                        return screens == 1;
                    }
                    screens += u32::from(self.occupied(next, lifted));
                    at = next;
                }
                false
            }
            Movement::Passing { dir, max, pieces, .. } => {
                // Over up to `pieces` pieces on the way, whichever side.
                let mut at = from;
                let mut taken = 0u32;
                let mut passed = 0u8;
                while max.is_none_or(|max| taken < u32::from(max)) {
                    let Some(next) = self.step(side, at, dir) else {
                        return false;
                    };
                    taken += 1;
                    if next == to {
                        return true;
                    }
                    if self.occupied(next, lifted) {
                        if passed == pieces {
                            return false;
                        }
                        passed += 1;
                    }
                    at = next;
                }
                false
            }
        }
    }

    /// The pieces standing between `from` and `to`, when they are on one line (none otherwise).
    fn between(&self, from: Square, to: Square) -> Vec<Square> {
        let (df, dr) = (
            i32::from(to.file) - i32::from(from.file),
            i32::from(to.rank) - i32::from(from.rank),
        );
        if df != 0 && dr != 0 && df.abs() != dr.abs() {
            return vec![];
        }
        let squares = (1..df.abs().max(dr.abs())).map(|k| {
            Square::new(
                (i32::from(from.file) + k * df.signum()) as u8,
                (i32::from(from.rank) + k * dr.signum()) as u8,
            )
        });
        squares.filter(|&s| self.at(s).is_some()).collect()
    }

    /// A range capture that sweeps (takes more than an enemy on `to`: every piece between
    /// `from` and `to`, and the piece on `to`, of either side): the squares it takes, in
    /// order, if a `range-capture` of the piece makes it.
    fn sweep_shape(&self, piece: &crate::rules::PieceKind, from: Square, to: Square) -> Option<Vec<Square>> {
        let mut taken = self.between(from, to);
        let on_to = self.at(to);
        if taken.is_empty() && on_to.is_none_or(|p| p.side() != self.side) {
            // Nothing but an enemy on `to`: an ordinary move, not a sweep.
            return None;
        }
        let sweeps = piece.moves.iter().any(|movement| {
            matches!(movement, Movement::RangeCapture { .. })
                && movement.mode().can_capture()
                && self.reaches(self.side, from, movement, to, None)
        });
        if !sweeps {
            return None;
        }
        taken.extend(on_to.map(|_| to));
        Some(taken)
    }

    /// Whether up to `left` king steps of `units` from `at`, through empty squares, reach `to`.
    fn area_walk(
        &self,
        side: Side,
        at: Square,
        units: &[Offset],
        left: u8,
        to: Square,
        lifted: Option<Square>,
    ) -> bool {
        units.iter().any(|&unit| {
            self.step(side, at, unit).is_some_and(|next| {
                next == to
                    || (left > 1
                        && !self.occupied(next, lifted)
                        && self.area_walk(side, next, units, left - 1, to, lifted))
            })
        })
    }

    /// Whether a burner of `by` could end a move next to `target` and not be burnt there
    /// first (unless it burns before it is burnt): its burning takes the piece on `target`.
    /// Read for the side `by` (its Judge).
    fn can_burn_on(&self, by: Side, target: Square) -> bool {
        let judge = Judge {
            pos: self.pos,
            rules: self.rules,
            side: by,
        };
        let before = self.rules.end.burns_before_burnt;
        self.rules.board.squares().any(|from| {
            let Some(p) = self.at(from) else {
                return false;
            };
            let (owner, kind) = (p.side(), p.kind());
            if owner != by || !self.rules.piece(kind).burns {
                return false;
            }
            self.rules.board.squares().any(|to| {
                to != from
                    && distance(to, target) == 1
                    && self.rules.piece(kind).moves.iter().any(|movement| {
                        let lands = match self.at(to) {
                            None => movement.mode().can_move(),
                            Some(p) => (p.side() != by || to == target) && movement.mode().can_capture(),
                        };
                        lands && judge.reaches(by, from, movement, to, None)
                    })
                    && (before || !self.burnt_at(by, to))
            })
        })
    }

    /// Whether a piece of `side` ending a move on `to` is burnt by an enemy burner next to it.
    fn burnt_at(&self, side: Side, to: Square) -> bool {
        self.rules.board.squares().filter(|&s| distance(s, to) == 1).any(|s| {
            self.at(s)
                .is_some_and(|p| p.side() != side && self.rules.piece(p.kind()).burns)
        })
    }

    /// Whether a piece of `by` could capture a piece standing on `target`, `lifted` counting
    /// as empty. Capture-unprotected moves count only when `unprotected_moves` is set (and
    /// then only if the piece on `target` is not protected).
    fn can_capture_on(&self, by: Side, target: Square, lifted: Option<Square>, unprotected_moves: bool) -> bool {
        self.rules.board.squares().any(|from| {
            if from == target || Some(from) == lifted {
                return false;
            }
            let Some(p) = self.at(from) else {
                return false;
            };
            let (owner, kind) = (p.side(), p.kind());
            owner == by
                && self
                    .rules
                    .piece(self.moving_kind(by, from, kind, lifted))
                    .moves
                    .iter()
                    .any(|movement| {
                        let mode = movement.mode();
                        let unprotected = mode == Mode::CaptureUnprotected;
                        mode.can_capture()
                            && (!unprotected || unprotected_moves)
                            && self.reaches(by, from, movement, target, lifted)
                            && (!unprotected || !self.protected(target, Some(from)))
                    })
        })
    }

    /// Whether the Lion on `target`, which the Lion move `m` from `from` takes, counts as
    /// protected: with the pieces the move takes first still there, or after the whole move
    /// (`defended-after-move`).
    fn lion_defended(&self, m: &Move, target: Square, from: Square) -> bool {
        match self.rules.end.lion_defence {
            LionDefence::Defended => self.protected(target, Some(from)),
            LionDefence::AfterMove => {
                let mut after = self.pos.clone();
                after.make(m);
                Judge::new(&after).can_capture_on(after.side_to_move(), target, None, false)
            }
        }
    }

    /// Whether the piece on `target` is protected by its owner, `lifted` counting as empty.
    fn protected(&self, target: Square, lifted: Option<Square>) -> bool {
        self.at(target).map(Piece::side).is_some_and(|owner| {
            self.can_capture_on(owner, target, lifted, false)
                || (self.rules.capture_unprotected_protects && self.takes_back_unprotected(owner, target, lifted))
        })
    }

    /// `capture-unprotected-protects`: a capture-unprotected mover of `owner` reaches
    /// `target`, and the capturer (come from `lifted`) would stand there with no piece of its
    /// own side, other than capture-unprotected movers, able to capture there.
    fn takes_back_unprotected(&self, owner: Side, target: Square, lifted: Option<Square>) -> bool {
        if self.can_capture_on(owner.opponent(), target, lifted, false) {
            return false;
        }
        self.rules.board.squares().any(|from| {
            from != target
                && Some(from) != lifted
                && self.at(from).is_some_and(|p| {
                    p.side() == owner
                        && self
                            .rules
                            .piece(self.moving_kind(owner, from, p.kind(), lifted))
                            .moves
                            .iter()
                            .any(|movement| {
                                movement.mode() == Mode::CaptureUnprotected
                                    && self.reaches(owner, from, movement, target, lifted)
                            })
                })
        })
    }

    /// Whether a move of the side to move by `mode` from `from` may end on `to`, and whether
    /// it captures there.
    fn may_land(&self, mode: Mode, from: Square, to: Square) -> Option<bool> {
        match self.at(to) {
            None => mode.can_move().then_some(false),
            Some(p) if p.side() == self.side => None,
            Some(_) => self.may_capture(mode, from, to).then_some(true),
        }
    }

    fn may_capture(&self, mode: Mode, from: Square, target: Square) -> bool {
        mode.can_capture() && (mode != Mode::CaptureUnprotected || !self.protected(target, Some(from)))
    }

    /// Whether a piece of the side to move before `from` in the board's reading order may
    /// pass: the position's one pass is then that piece's.
    fn earlier_passer(&self, from: Sq) -> bool {
        (0..from.index()).map(Sq::new).any(|sq| {
            let pass = Move::board(sq, sq, false);
            self.board_shape(&pass).is_some()
        })
    }

    /// A move on the board, if the piece's movements and the promotion rules allow it:
    /// the squares it captures on, in order.
    fn board_shape(&self, m: &Move) -> Option<Vec<Square>> {
        if m.drop.is_some() {
            return None;
        }
        let from = self.square(m.from?)?;
        let to = self.square(m.to)?;
        let piece = self.at(from)?;
        let (owner, kind, declined) = (piece.side(), piece.kind(), piece.declined());
        if owner != self.side {
            return None;
        }
        let via = match m.via {
            [None, None] => vec![],
            [Some(a), None] => vec![self.square(a)?],
            [None, Some(_)] => return None,
            [Some(a), Some(b)] => vec![self.square(a)?, self.square(b)?],
        };
        if via.contains(&from) || (via.len() == 2 && via[0] == via[1]) {
            return None;
        }
        let piece = self.rules.piece(self.moving_kind(owner, from, kind, None));
        let captures = if m.sweep {
            if !via.is_empty() {
                return None;
            }
            self.sweep_shape(piece, from, to)?
        } else if via.is_empty() && to != from {
            // Straight to `to`: a ride, leap, hook, jump within Lion range, anywhere, or a range
            // capture that passes no piece.
            let passes = !self.between(from, to).is_empty();
            let capture = piece.moves.iter().find_map(|movement| {
                let igui = matches!(movement, Movement::Igui { .. });
                let sweeps = matches!(movement, Movement::RangeCapture { .. }) && passes;
                if !igui && !sweeps && self.reaches(self.side, from, movement, to, None) {
                    self.may_land(movement.mode(), from, to)
                } else {
                    None
                }
            })?;
            if capture { vec![to] } else { vec![] }
        } else {
            // A Lion walk: captures on the `via` squares in order, then ends on `to`. A walk
            // whose last capture is on its destination is written without it (`via` holds
            // the captures before the destination), so `via` may not end with `to`.
            if via.last() == Some(&to) {
                return None;
            }
            let mut expected = via.clone();
            if to != from && !via.contains(&to) {
                match self.at(to) {
                    Some(p) if p.side() == self.side => return None,
                    Some(_) => expected.push(to),
                    None => {}
                }
            }
            let igui = |movement: &Movement| match *movement {
                Movement::Igui { dir, mode } => {
                    to == from
                        && via.len() == 1
                        && self.step(self.side, from, dir) == Some(via[0])
                        && self.at(via[0]).is_some_and(|p| p.side() != self.side)
                        && self.may_capture(mode, from, via[0])
                }
                _ => false,
            };
            let walks = piece.moves.iter().any(|movement| {
                igui(movement)
                    || movement
                        .lion_steps()
                        .is_some_and(|steps| self.walk(movement, from, from, steps, &mut Vec::new(), to, &expected))
            });
            if !walks {
                return None;
            }
            expected
        };
        let pass = to == from && captures.is_empty();
        let allowed = match self.promotion(kind, declined, from, to, &captures, pass) {
            Promotion::Never => !m.promote,
            Promotion::May => true,
            Promotion::Must => m.promote,
        };
        allowed.then_some(captures)
    }

    /// The squares a Lion step of `movement` may go to from `at` (the walk started on `from`).
    fn lion_neighbours(&self, movement: &Movement, from: Square, at: Square) -> Vec<Square> {
        match *movement {
            Movement::AreaLion { .. } => (-1..=1)
                .flat_map(|dx| (-1..=1).map(move |dy| Offset::new(dx, dy)))
                .filter(|&o| o != Offset::new(0, 0))
                .filter_map(|o| self.step(self.side, at, o))
                .collect(),
            Movement::LineLion { dir, steps, .. } => {
                let mut line = vec![from];
                line.extend(self.line(self.side, from, dir, steps));
                match line.iter().position(|&s| s == at) {
                    Some(i) => [i.checked_sub(1), Some(i + 1)]
                        .into_iter()
                        .flatten()
                        .filter_map(|j| line.get(j).copied())
                        .collect(),
                    None => vec![],
                }
            }
            Movement::Ride { .. }
            | Movement::Leap { .. }
            | Movement::Hook { .. }
            | Movement::Anywhere { .. }
            | Movement::Area { .. }
            | Movement::RangeJump { .. }
            | Movement::Igui { .. }
            | Movement::RangeCapture { .. }
            | Movement::Passing { .. }
            | Movement::Hop { .. } => vec![],
        }
    }

    /// Whether some walk of at most `left` more Lion steps from `at` ends on `to` having
    /// captured exactly `expected`, in order. Squares left by the Lion or emptied by its
    /// captures count as empty; the Lion's own pieces block.
    #[allow(clippy::too_many_arguments)]
    fn walk(
        &self,
        movement: &Movement,
        from: Square,
        at: Square,
        left: u8,
        captured: &mut Vec<Square>,
        to: Square,
        expected: &[Square],
    ) -> bool {
        let mode = movement.mode();
        for next in self.lion_neighbours(movement, from, at) {
            let vacated = next == from || captured.contains(&next);
            let capture = match if vacated { None } else { self.at(next) } {
                Some(p) if p.side() == self.side => continue,
                Some(_) if !self.may_capture(mode, from, next) => continue,
                Some(_) => true,
                None if !mode.can_move() => continue,
                None => false,
            };
            if capture {
                captured.push(next);
            }
            let found = expected.starts_with(captured)
                && ((next == to && captured.as_slice() == expected)
                    || (left > 1 && self.walk(movement, from, next, left - 1, captured, to, expected)));
            if capture {
                captured.pop();
            }
            if found {
                return true;
            }
        }
        false
    }

    /// Whether any of the enemy pieces on `captures` is promoted (it reverts to another kind).
    fn takes_promoted(&self, captures: &[Square]) -> bool {
        captures.iter().any(|&s| {
            self.at(s)
                .is_some_and(|p| p.side() != self.side && self.rules.piece(p.kind()).promotion.reverts_to.is_some())
        })
    }

    /// What the promotion rules allow for a move of a `kind` piece from `from` to `to`.
    fn promotion(
        &self,
        kind: PieceId,
        declined: bool,
        from: Square,
        to: Square,
        captures: &[Square],
        pass: bool,
    ) -> Promotion {
        let capture = !captures.is_empty();
        let piece = self.rules.piece(kind);
        if let Some(event) = self.rules.flip {
            // Both faces of a two-faced piece turn over, on every move or every capture.
            let two_faced = piece.promotion.to.is_some() || piece.promotion.reverts_to.is_some();
            let turns = two_faced && !pass && (event == FlipEvent::Move || capture);
            return if turns { Promotion::Must } else { Promotion::Never };
        }
        if piece.promotion.to.is_none() || pass {
            return Promotion::Never;
        }
        let depth = |s: Square| self.rules.board.depth_from_far_edge(self.side, s);
        let (mut chance, mut compulsory) = (false, false);
        for trigger in &self.rules.promotion {
            let fires = match trigger.when {
                PromotionEvent::Zone {
                    depth: zone,
                    enter,
                    within,
                    leave,
                    capture: on_capture,
                } => {
                    let (was_in, is_in) = (depth(from) <= zone, depth(to) <= zone);
                    let by_move = match (was_in, is_in) {
                        (false, true) => enter,
                        (true, true) => within,
                        (true, false) => leave,
                        (false, false) => false,
                    };
                    by_move || (on_capture && capture && (was_in || is_in))
                }
                PromotionEvent::Capture => capture,
            };
            if fires {
                chance = true;
                compulsory |= trigger.compulsory || trigger.compulsory_on_promoted && self.takes_promoted(captures);
            }
        }
        // The Renmei's last-rank rule: a choice on any move to the last rank, even for a
        // piece that declined before.
        let last_rank_choice = piece.promotion.last_rank_optional && depth(to) == 1;
        if !chance && !last_rank_choice {
            return Promotion::Never;
        }
        // Where the piece would have no further move it must promote; a Chu Pawn that
        // declined on entering waits for that; a piece that declined on entering may not
        // promote on its player's next turn without capturing.
        if depth(to) <= piece.promotion.forced_ranks {
            return Promotion::Must;
        }
        if last_rank_choice {
            return if compulsory { Promotion::Must } else { Promotion::May };
        }
        if declined {
            return Promotion::Never;
        }
        if self.rules.deferral && self.pos.deferred(self.side) == self.sq(from) && !capture {
            return Promotion::Never;
        }
        if compulsory { Promotion::Must } else { Promotion::May }
    }

    /// A drop, if the drop rules (all but drop mate) allow it. It captures nothing.
    fn drop_shape(&self, m: &Move) -> Option<Vec<Square>> {
        let kind = m.drop.filter(|kind| kind.index() < self.rules.pieces.len())?;
        if !self.rules.drops || m.via != [None; 2] || m.promote {
            return None;
        }
        let to = self.square(m.to)?;
        // A promoted face is dropped from its unpromoted piece in hand, under `either-face`.
        let in_hand = match self.rules.piece(kind).promotion.reverts_to {
            None => kind,
            Some(base) if self.rules.drop_either_face => base,
            Some(_) => return None,
        };
        if self.pos.in_hand(self.side, in_hand) == 0 || self.at(to).is_some() {
            return None;
        }
        let rule = &self.rules.piece(kind).drop;
        if self.rules.board.depth_from_far_edge(self.side, to) <= rule.banned_ranks() {
            return None;
        }
        if let Some(limit) = rule.per_file {
            let on_file = (1..=self.rules.board.ranks)
                .filter(|&rank| {
                    self.at(Square::new(to.file, rank))
                        .is_some_and(|p| (p.side(), p.kind(), p.declined()) == (self.side, kind, false))
                })
                .count();
            if on_file >= usize::from(limit) {
                return None;
            }
        }
        Some(vec![])
    }

    /// `piece-limit`: a move or drop may not bring a file past the limit of unpromoted pieces
    /// of its kind of the mover's side (a move within a file changes no count).
    fn piece_limit_allows(&self, m: &Move) -> bool {
        let Some(to) = self.square(m.to) else {
            return true;
        };
        let (kind, from_file) = match m.drop {
            Some(kind) => (kind, None),
            None => match m
                .from
                .and_then(|from| self.square(from))
                .and_then(|from| self.at(from).map(|p| (p.kind(), Some(from.file))))
            {
                Some(found) => found,
                None => return true,
            },
        };
        let Some(limit) = self.rules.piece(kind).piece_limit else {
            return true;
        };
        if from_file == Some(to.file) {
            return true;
        }
        let on_file = (1..=self.rules.board.ranks)
            .filter(|&rank| {
                self.at(Square::new(to.file, rank))
                    .is_some_and(|p| (p.side(), p.kind(), p.declined()) == (self.side, kind, false))
            })
            .count();
        on_file < usize::from(limit)
    }

    /// Chu's Lion rules. A Lion may not take a protected Lion two or more squares away unless
    /// it first captured a piece that is not a weak bridge (Pawn, Go-Between); after a
    /// non-Lion took a Lion, a non-Lion may not take a Lion.
    fn lion_rules_allow(&self, m: &Move, captures: &[Square]) -> bool {
        let end = &self.rules.end;
        if !end.lion_trading && !end.counter_strike {
            return true;
        }
        let Some(from) = m.from.and_then(|from| self.square(from)) else {
            return false;
        };
        let Some(mover) = self.at(from).map(Piece::kind) else {
            return false;
        };
        let mover_is_lion = self.rules.piece(mover).lion == LionRole::Lion;
        let mut bridge = false;
        for &c in captures {
            let Some(kind) = self.at(c).filter(|p| p.side() != self.side).map(Piece::kind) else {
                continue;
            };
            let role = self.rules.piece(kind).lion;
            if role == LionRole::Lion {
                if end.counter_strike && !mover_is_lion && self.pos.lion_capture().is_some() {
                    return false;
                }
                if end.lion_trading
                    && mover_is_lion
                    && distance(from, c) >= 2
                    && !bridge
                    && self.lion_defended(m, c, from)
                {
                    return false;
                }
            }
            bridge |= role != LionRole::WeakBridge;
        }
        true
    }
}
