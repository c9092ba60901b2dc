//! Move generation by interpreting the tables: rides and leaps from the unrolled runs,
//! Lion moves, hooks and the Emperor's move by walking the board, drops with their
//! restrictions, and every promotion choice. The moves are pseudo-legal: the legality rules
//! are applied in [`legality`](super::legality).

use super::attack::View;
use super::board::{Geometry, NO_SQ, Sq, code_declined, code_kind, code_side};
use super::legality::Pins;
use super::moves::Move;
use super::occupancy::{Occupancy, square_bit};
use super::position::{Position, taken_squares};
use super::scratch::{LionScratch, Scratch, WalkResult};
use super::tables::{KindInfo, MoveTables, Rays};
use super::walks;
use crate::rules::{FlipEvent, Mode, Movement, Offset, PieceId, Side, hook_turns};

/// One more than the most files a board has (file numbers index the per-file counts).
pub(super) const MAX_FILES: usize = crate::rules::MAX_BOARD_SIDE as usize + 1;

/// How Lion moves are counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LionCounting {
    /// One move per distinct result (koma's convention): captures in order, destination.
    Distinct,
    /// One move per (from, middle, to) path, as lishogi counts them.
    Paths,
}

/// Which pseudo-legal moves of the side to move a generation pass produces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Wanted {
    /// Every move of the pieces on the board.
    All,
    /// Only the moves that capture.
    Captures,
    /// The moves of the piece on this square.
    From(Sq),
    /// Every move counted rather than kept but, unless these say they are counted too, the
    /// moves of royals (which may end where the royal is burnt) and the sweeps over a royal
    /// of the mover's side (which may take one of several): perft's last ply, where only
    /// those could break a rule.
    Counted {
        royal_moves: bool,
        sweeps_over_royals: bool,
    },
    /// Every move, but the plain moves (neither a sweep nor through squares on the way) of
    /// pieces that are neither royal nor among these pinned ones are counted rather than
    /// kept: perft's last ply where the only royal is guarded, not in check and safe from
    /// slow attackers, so that only the others could break a rule.
    CountedUnpinned(Pins),
}

/// A generator over one position: borrows the tables, the board and the scratch.
struct Gen<'a> {
    t: &'a MoveTables,
    board: &'a [u16],
    slow: [u16; 2],
    slow_squares: &'a [Occupancy; 2],
    marks: &'a mut [u32],
    mark: u32,
    side: Side,
    deferred: Sq,
    paths: bool,
    out: &'a mut Vec<Move>,
    /// Lion walk results and the Lion moves already emitted for the current piece (its Lion
    /// movements may reach the same result: two Lion lines both pass).
    scratch: &'a mut LionScratch,
    /// Whether a pass was emitted: a position has one pass, however many pieces may pass.
    passed: bool,
    /// Only the moves that capture are wanted.
    captures_only: bool,
    /// Counted, not kept: the moves of pieces that are not royal, but sweeps over a royal of
    /// the mover's side (perft's last ply, where only the others could break a rule), and
    /// those too where `royal_moves_settle`, `sweeps_settle` say.
    settle: bool,
    /// Only plain moves (neither a sweep nor through squares on the way) are counted, and
    /// not those of these pinned pieces.
    pinned: Option<Pins>,
    /// The moves of royals are counted too ([`Wanted::Counted`]).
    royal_moves_settle: bool,
    /// The sweeps over a royal of the mover's side are counted too ([`Wanted::Counted`]).
    sweeps_settle: bool,
    /// The royals of the side to move.
    royals: &'a [Sq],
    /// The squares each side occupies, where positions keep them
    /// ([`MoveTables::keeps_occupancy`]).
    occupancy: Option<&'a [Occupancy; 2]>,
    /// The squares of the side to move as the low bits of its [`Occupancy`], where the
    /// tables have leapers' targets (0 elsewhere).
    own: u128,
    /// The current piece's moves are counted.
    piece_settles: bool,
    /// The moves counted.
    settled: u64,
    /// What promotion reads of the current piece.
    mover: Mover,
}

/// What a move's promotion choice reads of the moving piece, worked out once per piece.
#[derive(Clone, Copy, Default)]
struct Mover {
    /// It has a kind to turn into.
    turns: bool,
    /// It stands in the promotion zone.
    in_zone: bool,
    /// It declined promotion and waits for the last rank (`code_declined`).
    declined: bool,
    /// It is the piece that declined on entering the zone on its side's last move.
    deferred: bool,
    forced_ranks: u8,
    last_rank_optional: bool,
    /// A move ending farther than this from the far edge gives no choice: the piece cannot
    /// turn, or only the zone (which it stands outside) or the last rank would let it.
    reach: u8,
}

impl Mover {
    fn new(t: &MoveTables, side: Side, from: Sq, code: u16, deferred: Sq) -> Mover {
        let kind = code_kind(code);
        let info = t.kind(kind);
        Mover {
            turns: info.turns_to.is_some(),
            in_zone: t.in_zone(side, from),
            declined: code_declined(code),
            deferred: deferred == from,
            forced_ranks: info.promotion.forced_ranks,
            last_rank_optional: info.promotion.last_rank_optional,
            reach: t.promotion_reach(kind, side, from),
        }
    }
}

impl Position {
    /// Every move the pieces' movements allow, before the legality rules. A position has
    /// one pass, however many pieces may pass: it changes nothing but the side to move. It
    /// is written as the pass of the first piece that may pass, in the board's reading order
    /// (rank `a` first, each rank from its highest file).
    ///
    /// A side that has lost its last royal piece where the rules let it be captured has lost
    /// the game: it has no move. So has a side in check where the first check wins.
    pub fn pseudo_moves(&self, out: &mut Vec<Move>, counting: LionCounting) {
        Scratch::default().pseudo_moves(self, out, counting);
    }

    /// The moves of [`Position::pseudo_moves`] that capture, in the same order: the moves
    /// a search of exchanges looks at, found without making the others.
    pub fn pseudo_captures(&self, out: &mut Vec<Move>, counting: LionCounting) {
        Scratch::default().pseudo_captures(self, out, counting);
    }

    /// The pseudo-legal moves of the piece on `from`, in the order of
    /// [`Position::pseudo_moves`] (with its own pass where it may pass, though the
    /// position's pass may be written as another piece's).
    pub fn pseudo_moves_from(&self, from: Sq, out: &mut Vec<Move>, counting: LionCounting) {
        Scratch::default().pseudo_moves_from(self, from, out, counting);
    }

    /// The moves of the pieces on the board and in hand, whether or not the game is over.
    pub(super) fn piece_moves(&self, scratch: &mut Scratch, out: &mut Vec<Move>, counting: LionCounting) {
        self.generate(scratch, out, counting, Wanted::All);
        if self.rules().drops {
            self.drops(out);
        }
    }

    /// The pseudo-legal moves of the pieces of the side to move that are `wanted`, into
    /// `out`; the number of moves counted rather than kept ([`Wanted::Counted`] and
    /// [`Wanted::CountedUnpinned`]).
    pub(super) fn generate(
        &self,
        scratch: &mut Scratch,
        out: &mut Vec<Move>,
        counting: LionCounting,
        wanted: Wanted,
    ) -> u64 {
        let (only, captures_only, settle, pinned) = match wanted {
            Wanted::All => (None, false, false, None),
            Wanted::Captures => (None, true, false, None),
            Wanted::From(sq) => (Some(sq), false, false, None),
            Wanted::Counted { .. } => (None, false, true, None),
            Wanted::CountedUnpinned(pins) => (None, false, true, Some(pins)),
        };
        let (royal_moves_settle, sweeps_settle) = match wanted {
            Wanted::Counted {
                royal_moves,
                sweeps_over_royals,
            } => (royal_moves, sweeps_over_royals),
            Wanted::All | Wanted::Captures | Wanted::From(_) | Wanted::CountedUnpinned(_) => (false, false),
        };
        let side = self.side_to_move();
        let (t, board) = (self.tables(), self.codes());
        scratch.fit(board.len());
        let Scratch { marks, mark, lion, .. } = scratch;
        let mut generator = Gen {
            t,
            board,
            slow: self.slow_counts(),
            slow_squares: self.slow_squares(),
            marks,
            mark: *mark,
            side,
            deferred: self.deferred(side),
            paths: counting == LionCounting::Paths,
            out,
            scratch: lion,
            passed: false,
            captures_only,
            settle,
            pinned,
            royal_moves_settle,
            sweeps_settle,
            royals: self.royal_squares(side),
            occupancy: t.keeps_occupancy().then(|| self.occupancy()),
            own: if t.has_low_bits() {
                self.occupied(side).low_bits()
            } else {
                0
            },
            piece_settles: false,
            settled: 0,
            mover: Mover::default(),
        };
        let hem_check = t.hem_check;
        match only {
            Some(sq) => {
                let code = board[sq.index()];
                if code != 0 && code_side(code) == side {
                    let held = if hem_check {
                        self.occupied(side).neighbours(sq)
                    } else {
                        0
                    };
                    generator.piece(sq, code, t.moving_kind(board, sq, code, NO_SQ), held);
                }
            }
            None if hem_check => {
                let own = self.occupied(side);
                for sq in self.unhemmed_candidates(side).squares() {
                    let code = board[sq.index()];
                    let kind = t.moving_kind(board, sq, code, NO_SQ);
                    let held = own.neighbours(sq);
                    if !t.hemmed_in(kind, side, sq, held) {
                        generator.piece(sq, code, kind, held);
                    }
                }
            }
            // The side's squares, where positions keep them, without reading the others.
            None if t.keeps_occupancy() => {
                for sq in self.occupied(side).squares() {
                    let code = board[sq.index()];
                    generator.piece(sq, code, t.moving_kind(board, sq, code, NO_SQ), 0);
                }
            }
            None => {
                for sq in t.geometry().squares() {
                    let code = board[sq.index()];
                    if code != 0 && code_side(code) == side {
                        generator.piece(sq, code, t.moving_kind(board, sq, code, NO_SQ), 0);
                    }
                }
            }
        }
        *mark = generator.mark;
        generator.settled
    }

    /// The position's one pass standing for `m`, when `m` is a pass by a piece that may
    /// pass (whichever piece it names); otherwise `m` itself. Readers of moves use it: any
    /// passing piece's pass is the pass.
    pub(crate) fn the_pass(&self, m: &Move) -> Move {
        let Some(from) = m.from.filter(|&from| m.is_pass() && self.is_on_board(from)) else {
            return *m;
        };
        let mut scratch = Scratch::default();
        let mut own = Vec::new();
        self.generate(&mut scratch, &mut own, LionCounting::Distinct, Wanted::From(from));
        if !own.contains(m) {
            return *m;
        }
        let mut all = Vec::new();
        self.generate(&mut scratch, &mut all, LionCounting::Distinct, Wanted::All);
        all.into_iter().find(Move::is_pass).unwrap_or(*m)
    }

    /// The drops of the side to move, into `out`.
    pub(super) fn drops(&self, out: &mut Vec<Move>) {
        self.each_drop(|m| out.push(m));
    }

    /// Tells `found` each drop of the side to move, in the order of [`Position::drops`].
    #[inline]
    pub(super) fn each_drop(&self, mut found: impl FnMut(Move)) {
        let t: &MoveTables = self.tables();
        let side = self.side_to_move();
        for kind in t.rules().piece_ids() {
            if self.in_hand(side, kind) == 0 {
                continue;
            }
            self.drops_of(kind, &mut found);
            // The piece's other face, under `drops either-face`.
            if let Some(promoted) = t.kind(kind).promotion.to.filter(|_| t.rules().drop_either_face) {
                self.drops_of(promoted, &mut found);
            }
        }
    }

    /// The number of drops of the side to move ([`Position::each_drop`]'s), counted on the
    /// bits of the empty squares where the tables keep them and a kind's drops are limited
    /// by rank alone.
    pub(super) fn count_drops(&self) -> u64 {
        let t: &MoveTables = self.tables();
        if !t.has_low_bits() {
            let mut n = 0;
            self.each_drop(|_| n += 1);
            return n;
        }
        let side = self.side_to_move();
        let empty = !(self.occupied(side).low_bits() | self.occupied(side.opponent()).low_bits());
        let mut n = 0;
        let mut count = |kind: PieceId| {
            let info = &t.kind(kind);
            if info.drop.per_file.is_some() || info.piece_limit.is_some() {
                self.drops_of(kind, &mut |_| n += 1);
            } else {
                n += bit_count(empty & t.beyond(side, info.drop.banned_ranks()));
            }
        };
        for kind in t.rules().piece_ids() {
            if self.in_hand(side, kind) == 0 {
                continue;
            }
            count(kind);
            if let Some(promoted) = t.kind(kind).promotion.to.filter(|_| t.rules().drop_either_face) {
                count(promoted);
            }
        }
        n
    }

    /// The drops of a piece on the face `kind`.
    #[inline]
    fn drops_of(&self, kind: PieceId, found: &mut impl FnMut(Move)) {
        let t: &MoveTables = self.tables();
        let side = self.side_to_move();
        let info = &t.kind(kind);
        let limit = match (info.drop.per_file, info.piece_limit) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let full_files = limit.map(|limit| self.full_files(kind, limit));
        let banned = info.drop.banned_ranks();
        for sq in t.geometry().squares() {
            if self.code(sq) != 0 || t.depth(side, sq) <= banned {
                continue;
            }
            let file = t.geometry().square(sq).file;
            if full_files.as_ref().is_some_and(|full| full[usize::from(file)]) {
                continue;
            }
            found(Move::drop(kind, sq));
        }
    }

    /// Per file number: whether `limit` unpromoted pieces of `kind` of the side to move stand on it.
    pub(super) fn full_files(&self, kind: PieceId, limit: u8) -> [bool; MAX_FILES] {
        let t: &MoveTables = self.tables();
        let side = self.side_to_move();
        let mut count = [0u8; MAX_FILES];
        let mut add = |sq: Sq| {
            let file = usize::from(t.geometry().square(sq).file);
            count[file] = count[file].saturating_add(1);
        };
        if t.keeps_occupancy() {
            for sq in self.occupied(side).squares() {
                if code_kind(self.code(sq)) == kind {
                    add(sq);
                }
            }
        } else {
            for (sq, &code) in self.codes().iter().enumerate() {
                if code != 0 && code_side(code) == side && code_kind(code) == kind {
                    add(Sq::new(sq));
                }
            }
        }
        count.map(|n| n >= limit)
    }
}

impl<'a> Gen<'a> {
    /// The moves of the piece `code` on `from`: by its movements, or by those of the piece it
    /// moves as (`moves-as-piece-behind`); it promotes as itself.
    fn piece(&mut self, from: Sq, code: u16, kind: PieceId, held: u16) {
        let t = self.t;
        let info = &t.kind(kind);
        self.piece_settles = self.settle
            && (self.royal_moves_settle || !t.code(code).royal)
            && !self.pinned.is_some_and(|pins| pins.holds(from));
        // A stepper whose every target lies beyond the reach of promotion: one move for each
        // neighbour its side does not hold (its promotion facts unread).
        if self.piece_settles
            && t.hem_check
            && let Some(n) = t.stepper_moves(kind, self.side, from, held)
            && t.depth(self.side, from) > t.promotion_reach(code_kind(code), self.side, from).saturating_add(1)
        {
            self.settled += n;
            return;
        }
        self.mover = Mover::new(t, self.side, from, code, self.deferred);
        if info.overlapping {
            self.next_mark();
        }
        if !info.walked.is_empty() {
            self.scratch.walked.clear();
        }
        if self.piece_settles
            && let Some(targets) = t.leaper_targets(kind, self.side, from)
        {
            self.settle_leaps(from, targets & !self.own);
            return;
        }
        let rays = t.open_rays(kind, self.side, from, held);
        if self.piece_settles {
            self.settle_rays(from, rays, info.overlapping);
        } else {
            self.rays(from, rays, info.overlapping);
        }
        self.walked(from, code, info);
    }

    /// The moves along the piece's runs, each emitted.
    fn rays(&mut self, from: Sq, rays: Rays<'_>, overlapping: bool) {
        for ray in rays {
            for to in ray.squares() {
                let target = self.board[to.index()];
                if target == 0 {
                    if ray.mode.can_move() {
                        self.simple(from, to, false, overlapping);
                    }
                    continue;
                }
                if code_side(target) != self.side && self.may_capture(ray.mode, to, from) {
                    self.simple(from, to, true, overlapping);
                }
                break;
            }
        }
    }

    /// Counts the moves along the piece's runs, as [`rays`](Self::rays) would emit them
    /// (each target once, marked, where the piece's movements `overlap`), without making
    /// them: perft's last ply, for a piece whose moves no rule can forbid.
    #[inline]
    fn settle_rays(&mut self, from: Sq, rays: Rays<'_>, overlap: bool) {
        let mut n = 0;
        for ray in rays {
            for to in ray.squares() {
                let target = self.board[to.index()];
                if target == 0 {
                    if ray.mode.can_move() && self.first_time(to, overlap) {
                        n += self.choices(from, to, false);
                    }
                    continue;
                }
                if code_side(target) != self.side
                    && self.may_capture(ray.mode, to, from)
                    && self.first_time(to, overlap)
                {
                    n += self.choices(from, to, true);
                }
                break;
            }
        }
        self.settled += n;
    }

    /// Whether the current piece reaches `to` for the first time, marking it, where its
    /// movements overlap (`dedup`); always where they do not.
    #[inline(always)]
    fn first_time(&mut self, to: Sq, dedup: bool) -> bool {
        if !dedup {
            return true;
        }
        let slot = &mut self.marks[to.index()];
        std::mem::replace(slot, self.mark) != self.mark
    }

    /// Counts the moves of a leaper (see [`MoveTables::leaper_targets`]) to `targets`, the
    /// squares it reaches that its side does not hold: one each, but where it may promote.
    #[inline]
    fn settle_leaps(&mut self, from: Sq, targets: u128) {
        let far = targets & self.t.beyond(self.side, self.mover.reach);
        let mut n = bit_count(far);
        let mut near = targets & !far;
        let pad = square_bit(Sq::new(0), usize::from(self.t.geometry().files));
        while near != 0 {
            let to = Sq::new(near.trailing_zeros() as usize - pad);
            near &= near - 1;
            n += self.choices(from, to, self.board[to.index()] != 0);
        }
        self.settled += n;
    }

    /// The moves a move of the current piece without captures on the way stands for: one,
    /// or two when it may promote.
    #[inline(always)]
    fn choices(&self, from: Sq, to: Sq, capture: bool) -> u64 {
        if self.t.depth(self.side, to) > self.mover.reach {
            return 1;
        }
        self.promotion_in_reach(&Move::board(from, to, false), capture)
            .choices()
    }

    /// The moves of the piece's walked movements (see [`KindInfo::walked`]).
    fn walked(&mut self, from: Sq, code: u16, info: &KindInfo) {
        for walked in &info.walked {
            match *walked {
                // Unrolled into the tables: never among the walked movements.
                Movement::Ride { .. } | Movement::Leap { .. } => {}
                Movement::AreaLion { steps, mode } => self.area_lion(from, steps, mode),
                Movement::LineLion { dir, steps, mode } => self.line_lion(from, dir, steps, mode),
                Movement::Hook { dir, only_turn, mode } => self.hook(from, dir, only_turn, mode),
                Movement::Anywhere { mode } => self.anywhere(from, mode, info.anywhere_alone),
                Movement::Area { steps, dirs, mode } => {
                    let walker = self.walker(from);
                    walker.area(steps, dirs, mode, |to, capture| {
                        if !capture || self.may_capture(mode, to, from) {
                            self.simple(from, to, capture, true);
                        }
                    });
                }
                Movement::RangeJump { dir, mode } => {
                    let walker = self.walker(from);
                    let rank = self.t.kind(code_kind(code)).jump_rank;
                    walker.range_jump(dir, rank, mode, |to, capture| {
                        if !capture || self.may_capture(mode, to, from) {
                            self.simple(from, to, capture, true);
                        }
                    });
                }
                Movement::Passing { dir, max, pieces, mode } => {
                    let walker = self.walker(from);
                    walker.passing((dir, max), pieces, mode, |to, capture| {
                        if !capture || self.may_capture(mode, to, from) {
                            self.simple(from, to, capture, true);
                        }
                    });
                }
                Movement::Hop { dir, max, mode } => {
                    let walker = self.walker(from);
                    walker.hop((dir, max), mode, |to, capture| {
                        if !capture || self.may_capture(mode, to, from) {
                            self.simple(from, to, capture, true);
                        }
                    });
                }
                Movement::RangeCapture { dir, mode } => {
                    let rank = self.t.kind(code_kind(code)).jump_rank;
                    if self.piece_settles && self.pinned.is_none() {
                        self.settle_range_capture(from, dir, rank, mode);
                        continue;
                    }
                    let walker = self.walker(from);
                    // Whether the walk has met one of the mover's royals: a sweep from there
                    // on takes it.
                    let mut over_royal = false;
                    walker.range_capture(dir, rank, mode, |to, capture, sweep| {
                        over_royal |= !self.sweeps_settle && self.holds_royal(to);
                        self.range_capture(from, to, capture, sweep, sweep && over_royal);
                    });
                }
                Movement::Igui { dir, mode } => {
                    let walker = self.walker(from);
                    walker.igui(dir, mode, |target, _| {
                        self.igui(from, target, mode);
                    });
                }
            }
        }
    }

    /// The context of the walks of the piece on `from`, over the board as it stands.
    fn walker(&self, from: Sq) -> walks::Walker<'a> {
        walks::Walker {
            t: self.t,
            cells: walks::Cells::plain(self.board),
            side: self.side,
            from,
        }
    }

    /// Whether one of the mover's royals stands on `sq`. (`contains` on a slice of `u16`
    /// is not inlined: Taikyoku's perft 3 takes 8% longer with it.)
    #[allow(clippy::manual_contains)]
    #[inline]
    fn holds_royal(&self, sq: Sq) -> bool {
        self.royals.iter().any(|&royal| royal == sq)
    }

    /// A capture on `target` without moving, once per target (a Lion's igui is the same move).
    fn igui(&mut self, from: Sq, target: Sq, mode: Mode) {
        let result = (from, [target, NO_SQ], true);
        if self.scratch.walked.contains(&result) || !self.may_capture(mode, target, from) {
            return;
        }
        self.scratch.walked.push(result);
        self.emit(from, from, [target, NO_SQ], true);
    }

    fn next_mark(&mut self) {
        self.mark = self.mark.wrapping_add(1);
        if self.mark == 0 {
            self.marks.fill(0);
            self.mark = 1;
        }
    }

    fn may_capture(&self, mode: Mode, target: Sq, from: Sq) -> bool {
        match mode {
            Mode::Any | Mode::CaptureOnly => true,
            Mode::MoveOnly => false,
            Mode::CaptureUnprotected => !self.protected(target, from),
        }
    }

    /// Protection of the piece on `target`, with the mover lifted from `from`.
    fn protected(&self, target: Sq, from: Sq) -> bool {
        View {
            t: self.t,
            board: self.board,
            slow: self.slow,
            slow_squares: self.slow_squares,
        }
        .protected(target, from)
    }

    /// A move without intermediate captures, once per target when de-duplicating.
    fn simple(&mut self, from: Sq, to: Sq, capture: bool, dedup: bool) {
        if self.first_time(to, dedup) {
            self.emit(from, to, [NO_SQ; 2], capture);
        }
    }

    /// Pushes a move with each promotion choice it allows.
    fn emit(&mut self, from: Sq, to: Sq, via: [Sq; 2], capture: bool) {
        self.emit_move(
            Move {
                via: via.map(Sq::known),
                ..Move::board(from, to, false)
            },
            capture,
            self.piece_settles && (self.pinned.is_none() || via == [NO_SQ; 2]),
        );
    }

    /// Pushes `base` (not promoting) with each promotion choice it allows, or counts them
    /// when the move `settles`.
    fn emit_move(&mut self, base: Move, capture: bool, settles: bool) {
        if self.captures_only && !capture {
            return;
        }
        let promotion = self.promotion(&base, capture);
        if settles {
            self.settled += promotion.choices();
            return;
        }
        match promotion {
            Promotion::No => self.out.push(base),
            Promotion::May => {
                self.out.push(Move { promote: true, ..base });
                self.out.push(base);
            }
            Promotion::Must => self.out.push(Move { promote: true, ..base }),
        }
    }

    /// The moves of a range capture along `dir` (the walk of
    /// [`Walker::range_capture`](walks::Walker::range_capture)), for a piece whose moves are
    /// counted and that is not pinned: the sweeps are counted in bulk, but those over one of
    /// the mover's royals (which may take it) where such sweeps are not counted; the others
    /// go through [`range_capture`](Self::range_capture). Perft's last ply: on the largest
    /// boards the range capturers' sweeps are most of a position's moves.
    fn settle_range_capture(&mut self, from: Sq, dir: Offset, rank: u8, mode: Mode) {
        let Some(walk) = self.walker(from).range_capture_walk(dir, rank) else {
            return;
        };
        if mode.can_move() {
            for &to in walk.slide() {
                self.range_capture(from, to, false, false, false);
            }
        }
        let Some(first) = walk.first() else {
            return;
        };
        // From the first of the mover's royals the walk takes on, the sweeps are made and
        // checked.
        let taken = &walk.line[walk.slide..walk.end];
        let royal = walk.slide + self.first_royal(taken).unwrap_or(taken.len());
        let sweep = code_side(self.board[first.index()]) == self.side;
        let start = if sweep && royal > walk.slide {
            walk.slide
        } else {
            self.range_capture(from, first, true, sweep, sweep && royal == walk.slide);
            walk.slide + 1
        };
        let checked = royal.max(start);
        self.settle_sweeps(from, &walk.line[start..checked]);
        for &to in &walk.line[checked..walk.end] {
            self.range_capture(from, to, true, true, true);
        }
    }

    /// Where the first of the mover's royals stands among `squares`, when sweeps over them
    /// are not counted ([`Wanted::Counted`]).
    #[inline]
    fn first_royal(&self, squares: &[Sq]) -> Option<usize> {
        if self.sweeps_settle {
            return None;
        }
        squares.iter().position(|&sq| self.holds_royal(sq))
    }

    /// Counts the sweeps from `from` to each of `squares`, a stretch of a line from it, with
    /// their promotion choices: one each where the stretch's ends (and so every square
    /// between, the distance from the far edge changing steadily along a line) are out of the
    /// mover's reach.
    #[inline]
    fn settle_sweeps(&mut self, from: Sq, squares: &[Sq]) {
        let (Some(&a), Some(&b)) = (squares.first(), squares.last()) else {
            return;
        };
        let reach = self.mover.reach;
        if self.t.depth(self.side, a) > reach && self.t.depth(self.side, b) > reach {
            self.settled += squares.len() as u64;
            return;
        }
        for &to in squares {
            self.settled += self.promotion(&Move::board(from, to, true), true).choices();
        }
    }

    /// A range capture to `to`: a sweep when it takes more than an enemy there. Only a sweep
    /// takes the pieces on its line, so it is a move of its own, never a duplicate (its line
    /// is one direction, and a piece has one range capture a direction); the others are
    /// emitted once per target.
    /// `over_royal` tells a sweep that takes one of the mover's royals.
    fn range_capture(&mut self, from: Sq, to: Sq, capture: bool, sweep: bool, over_royal: bool) {
        if !sweep {
            let slot = &mut self.marks[to.index()];
            if *slot == self.mark {
                return;
            }
            *slot = self.mark;
        }
        let settles = self.piece_settles && !over_royal && !(sweep && self.pinned.is_some());
        self.emit_move(Move::board(from, to, sweep), capture, settles);
    }

    /// The promotion choice a move of the current piece gives.
    #[inline(always)]
    fn promotion(&self, m: &Move, capture: bool) -> Promotion {
        if self.t.depth(self.side, m.to) > self.mover.reach {
            return Promotion::No;
        }
        self.promotion_in_reach(m, capture)
    }

    fn promotion_in_reach(&self, m: &Move, capture: bool) -> Promotion {
        let to = m.to;
        let t = self.t;
        let mover = self.mover;
        if !mover.turns || m.from == Some(to) && !capture {
            return Promotion::No;
        }
        if let Some(event) = t.flip {
            return match event {
                FlipEvent::Move => Promotion::Must,
                FlipEvent::Capture if capture => Promotion::Must,
                FlipEvent::Capture => Promotion::No,
            };
        }
        let side = self.side;
        let depth_to = t.depth(side, to);
        let mut eligible = false;
        let mut must = false;
        if let Some(zone) = t.zone {
            let was_in = mover.in_zone;
            let is_in = depth_to <= zone.depth;
            let allowed = match (was_in, is_in) {
                (false, true) => zone.enter,
                (true, true) => zone.within,
                (true, false) => zone.leave,
                (false, false) => false,
            };
            let allowed = allowed || (zone.capture && capture && (was_in || is_in));
            if allowed {
                eligible = true;
                must |= zone.compulsory;
            }
        }
        if capture && let Some((compulsory, on_promoted)) = t.capture_promotion {
            eligible = true;
            must |= compulsory || on_promoted && self.takes_promoted(m);
        }
        let last_rank_choice = mover.last_rank_optional && depth_to == 1;
        if !eligible && !last_rank_choice {
            return Promotion::No;
        }
        if depth_to <= mover.forced_ranks {
            return Promotion::Must;
        }
        // The Renmei's last-rank rule: a choice on any move there, even after declining.
        if last_rank_choice {
            return if must { Promotion::Must } else { Promotion::May };
        }
        if mover.declined || (mover.deferred && !capture) {
            return Promotion::No;
        }
        if must { Promotion::Must } else { Promotion::May }
    }

    /// Whether a move takes a promoted piece of the other side.
    fn takes_promoted(&self, m: &Move) -> bool {
        let t = self.t;
        let promoted_enemy = |sq: Sq| {
            let code = self.board[sq.index()];
            code != 0 && code_side(code) != self.side && {
                let kind = code_kind(code);
                t.kind(kind).unpromoted != kind
            }
        };
        if m.sweep {
            taken_squares(t.geometry(), self.board, *m).any(promoted_enemy)
        } else {
            m.captures().any(promoted_enemy)
        }
    }

    /// The Lion: straight to any square within `steps`, or up to `steps` king steps
    /// capturing on the way (igui, double capture), or a pass.
    fn area_lion(&mut self, from: Sq, steps: u8, mode: Mode) {
        let n = i32::from(steps);
        for dr in -n..=n {
            for df in -n..=n {
                if (df, dr) == (0, 0) {
                    continue;
                }
                if let Some(to) = self.t.geometry().step(from, df, dr) {
                    self.direct(from, to, mode);
                }
            }
        }
        self.lion_walks(from, steps, mode, Neighbours::Area);
    }

    /// Lion power along one line: the squares up to `steps` away, jumping, or stepping
    /// along the line and back with captures.
    fn line_lion(&mut self, from: Sq, dir: Offset, steps: u8, mode: Mode) {
        let (df, dr) = Geometry::board_vector(self.side, dir);
        let mut line = Line {
            squares: [NO_SQ; MAX_LINE],
            len: 1,
        };
        line.squares[0] = from;
        while line.len <= usize::from(steps) && line.len < MAX_LINE {
            let Some(next) = self.t.geometry().step(line.squares[line.len - 1], df, dr) else {
                break;
            };
            line.squares[line.len] = next;
            line.len += 1;
        }
        for i in 1..line.len {
            self.direct(from, line.squares[i], mode);
        }
        self.lion_walks(from, steps, mode, Neighbours::Line(line));
    }

    fn lion_walks(&mut self, from: Sq, steps: u8, mode: Mode, neighbours: Neighbours) {
        if self.paths && steps == 2 {
            self.lion_paths(from, mode, &neighbours);
            return;
        }
        // Up to two king steps with no enemy next to the piece: nothing is taken on the
        // way, and the only result that is not a direct move is two steps out to an empty
        // square and back, the pass.
        if steps <= 2 && matches!(neighbours, Neighbours::Area) {
            let (enemy, empty) = self.around(from);
            if !enemy {
                if steps == 2 && empty && mode.can_move() {
                    self.pass(from);
                }
                return;
            }
        }
        let mut results = std::mem::take(&mut self.scratch.results);
        results.clear();
        let mut path = Walk {
            from,
            mode,
            captures: [NO_SQ; 3],
            count: 0,
            results,
        };
        self.walk(&mut path, from, steps, &neighbours);
        self.emit_walks(&path);
        self.scratch.results = path.results;
    }

    /// lishogi's count: every (from, middle, to) path through a first square that is empty
    /// or holds an enemy, one move each.
    fn lion_paths(&mut self, from: Sq, mode: Mode, neighbours: &Neighbours) {
        let (first, n) = neighbours.of(self.t.geometry(), from);
        for &mid in &first[..n] {
            let at_mid = self.board[mid.index()];
            if at_mid != 0 && (code_side(at_mid) == self.side || !self.may_capture(mode, mid, from)) {
                continue;
            }
            let (second, m) = neighbours.of(self.t.geometry(), mid);
            for &to in &second[..m] {
                let target = if to == from { 0 } else { self.board[to.index()] };
                if target != 0 && code_side(target) == self.side {
                    continue;
                }
                self.emit(from, to, [mid, NO_SQ], at_mid != 0 || target != 0);
            }
        }
    }

    /// A move straight to `to` (jumping), if the square is free or holds an enemy.
    fn direct(&mut self, from: Sq, to: Sq, mode: Mode) {
        let target = self.board[to.index()];
        if target == 0 {
            if mode.can_move() {
                self.simple(from, to, false, true);
            }
        } else if code_side(target) != self.side && self.may_capture(mode, to, from) {
            self.simple(from, to, true, true);
        }
    }

    /// Walks every sequence of up to `left` steps from `at`, recording the results that
    /// capture on the way or come back to the start.
    fn walk(&mut self, path: &mut Walk, at: Sq, left: u8, neighbours: &Neighbours) {
        let (next_squares, n) = neighbours.of(self.t.geometry(), at);
        for &next in &next_squares[..n] {
            let vacated = next == path.from || path.captures[..path.count].contains(&next);
            let target = if vacated { 0 } else { self.board[next.index()] };
            if target != 0 && code_side(target) == self.side {
                continue;
            }
            let capture = target != 0;
            if (capture && !self.may_capture(path.mode, next, path.from)) || (!capture && !path.mode.can_move()) {
                continue;
            }
            if capture {
                path.captures[path.count] = next;
                path.count += 1;
            }
            path.record(next);
            if left > 1 {
                self.walk(path, next, left - 1, neighbours);
            }
            if capture {
                path.count -= 1;
                path.captures[path.count] = NO_SQ;
            }
        }
    }

    fn emit_walks(&mut self, path: &Walk) {
        for &result in &path.results {
            if self.scratch.walked.contains(&result) {
                continue;
            }
            self.scratch.walked.push(result);
            let (to, via, capture) = result;
            if to == path.from && via[0] == NO_SQ {
                self.pass(path.from);
            } else {
                self.emit(path.from, to, via, capture);
            }
        }
    }

    /// The position's one pass, as the piece on `from`'s, unless a pass was emitted already
    /// or only captures are wanted.
    fn pass(&mut self, from: Sq) {
        if self.captures_only || std::mem::replace(&mut self.passed, true) {
            return;
        }
        self.out.push(Move::board(from, from, false));
    }

    /// Whether an enemy stands on a square next to `from`, and whether one of them is empty.
    fn around(&self, from: Sq) -> (bool, bool) {
        let geo = self.t.geometry();
        let (mut enemy, mut empty) = (false, false);
        for &(df, dr) in &super::board::DIRS {
            if let Some(sq) = geo.step(from, i32::from(df), i32::from(dr)) {
                let code = self.board[sq.index()];
                empty |= code == 0;
                enemy |= code != 0 && code_side(code) != self.side;
            }
        }
        (enemy, empty)
    }

    /// Slide, then optionally turn 90° (onto `only_turn`, if given) at an empty square and
    /// slide again.
    fn hook(&mut self, from: Sq, dir: Offset, only_turn: Option<Offset>, mode: Mode) {
        let t = self.t;
        let leg = |sq: Sq, o: Offset, side: Side| {
            Geometry::dir_index(Geometry::board_vector(side, o)).map_or(&[][..], |d| t.line(sq, d))
        };
        for &s1 in leg(from, dir, self.side) {
            self.direct(from, s1, mode);
            if self.board[s1.index()] != 0 {
                return;
            }
            for perp in hook_turns(dir, only_turn) {
                for &s2 in leg(s1, perp, self.side) {
                    self.direct(from, s2, mode);
                    if self.board[s2.index()] != 0 {
                        break;
                    }
                }
            }
        }
    }

    /// To any square of the board (`alone`: the piece's only movement).
    fn anywhere(&mut self, from: Sq, mode: Mode, alone: bool) {
        // No move of a piece that cannot promote gives a promotion choice.
        if self.piece_settles && self.mover.reach == 0 {
            match self.occupancy {
                Some(occupancy) if alone => self.settle_anywhere_alone(from, mode, occupancy),
                _ => self.settle_anywhere(from, mode),
            }
            return;
        }
        for to in self.t.geometry().squares() {
            if to != from {
                self.direct(from, to, mode);
            }
        }
    }

    /// Counts the moves of [`anywhere`](Self::anywhere), once per target as it would emit
    /// them, without making them: perft's last ply, for a piece whose moves are counted and
    /// give no promotion choice (one move a target). On the largest boards it is most of a
    /// position's moves.
    fn settle_anywhere(&mut self, from: Sq, mode: Mode) {
        let mut n = 0;
        for to in self.t.geometry().squares() {
            if to == from || self.marks[to.index()] == self.mark {
                continue;
            }
            let target = self.board[to.index()];
            let reaches = if target == 0 {
                mode.can_move()
            } else {
                code_side(target) != self.side && self.may_capture(mode, to, from)
            };
            if reaches {
                self.marks[to.index()] = self.mark;
                n += 1;
            }
        }
        self.settled += n;
    }

    /// [`settle_anywhere`](Self::settle_anywhere) for a piece whose only movement it is (no
    /// target to de-duplicate): as many moves as empty squares, and a capture of each enemy
    /// piece it may take, found from the squares each side occupies.
    fn settle_anywhere_alone(&mut self, from: Sq, mode: Mode, occupancy: &[Occupancy; 2]) {
        let (own, enemy) = (&occupancy[self.side.index()], &occupancy[self.side.opponent().index()]);
        let mut n = 0;
        if mode.can_move() {
            n += self.t.geometry().len() - own.count() - enemy.count();
        }
        for to in enemy.squares() {
            if self.may_capture(mode, to, from) {
                n += 1;
            }
        }
        self.settled += n as u64;
    }
}

/// The number of bits set, counting the high half only where it has any: on a board of up to
/// 64 squares with padding it never has, and counting bits is done by arithmetic where the
/// build does not assume the processor's instruction for it.
#[inline(always)]
pub(super) fn bit_count(bits: u128) -> u64 {
    let (low, high) = (bits as u64, (bits >> 64) as u64);
    let n = u64::from(low.count_ones());
    if high == 0 { n } else { n + u64::from(high.count_ones()) }
}

enum Promotion {
    No,
    May,
    Must,
}

impl Promotion {
    /// The moves a move stands for: two when it may promote.
    fn choices(&self) -> u64 {
        match self {
            Promotion::May => 2,
            Promotion::No | Promotion::Must => 1,
        }
    }
}

/// The state of a Lion walk: captures so far and the results found.
struct Walk {
    from: Sq,
    mode: Mode,
    captures: [Sq; 3],
    count: usize,
    /// (destination, captures before it, whether it captures at all).
    results: Vec<WalkResult>,
}

impl Walk {
    /// Records stopping on `at`: moves that capture before their destination, and passes.
    fn record(&mut self, at: Sq) {
        let caps = &self.captures[..self.count];
        let last_is_here = caps.last() == Some(&at);
        let before: &[Sq] = if last_is_here { &caps[..caps.len() - 1] } else { caps };
        if before.len() > 2 {
            return;
        }
        if before.is_empty() && at != self.from {
            // Same as the direct move.
            return;
        }
        let mut via = [NO_SQ; 2];
        via[..before.len()].copy_from_slice(before);
        self.results.push((at, via, !caps.is_empty()));
    }
}

/// The longest line a line Lion walks, counting its start.
const MAX_LINE: usize = 37;

/// The squares of a line Lion's line, from its start.
struct Line {
    squares: [Sq; MAX_LINE],
    len: usize,
}

/// Where a Lion step may go from a square.
enum Neighbours {
    /// The eight squares around it.
    Area,
    /// The squares before and after it on the line.
    Line(Line),
}

impl Neighbours {
    fn of(&self, geo: Geometry, at: Sq) -> ([Sq; 8], usize) {
        let mut out = [NO_SQ; 8];
        let mut n = 0;
        match self {
            Neighbours::Area => {
                for &(df, dr) in &super::board::DIRS {
                    if let Some(sq) = geo.step(at, i32::from(df), i32::from(dr)) {
                        out[n] = sq;
                        n += 1;
                    }
                }
            }
            Neighbours::Line(line) => {
                if let Some(i) = line.squares[..line.len].iter().position(|&s| s == at) {
                    if i + 1 < line.len {
                        out[n] = line.squares[i + 1];
                        n += 1;
                    }
                    if i > 0 {
                        out[n] = line.squares[i - 1];
                        n += 1;
                    }
                }
            }
        }
        (out, n)
    }
}

#[cfg(test)]
mod tests {
    use super::{LionCounting, Position};
    use crate::compile::compile_named;
    use crate::game::MoveTables;
    use crate::game::random::SplitMix64;
    use std::sync::Arc;

    /// Generation's shortcut for the large games, leaving out the pieces hemmed in by their
    /// own side and the runs that begin on a neighbour the side holds, changes no move: in
    /// every shipped variant, along a random game, the moves are those generated without it,
    /// in the same order.
    #[test]
    fn hemmed_in_pieces_and_held_neighbours_change_no_move() {
        for &(name, _) in crate::compile::source::SHIPPED {
            let rules = compile_named(name, &[]).rules.expect("a shipped variant compiles");
            let mut with = MoveTables::new(rules.clone());
            let mut without = MoveTables::new(rules);
            with.set_hem_check(true);
            without.set_hem_check(false);
            let (mut a, mut b) = (Position::start(Arc::new(with)), Position::start(Arc::new(without)));
            let mut rng = SplitMix64::new(name.len() as u64);
            let (mut moves_a, mut moves_b) = (Vec::new(), Vec::new());
            for ply in 0..60 {
                a.pseudo_moves(&mut moves_a, LionCounting::Distinct);
                b.pseudo_moves(&mut moves_b, LionCounting::Distinct);
                assert_eq!(moves_a, moves_b, "{name}, ply {ply}");
                let legal = a.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let m = legal[(rng.next_u64() % legal.len() as u64) as usize];
                a.make(&m);
                b.make(&m);
            }
        }
    }
}
