//! Attack detection: can a side capture on a square? Rides and leaps are looked up in
//! reverse from the square; hooks, the Emperor's move, capture-unprotected moves and the
//! other kinds that depend on more than the first piece met (area moves, range jumps,
//! passing slides, runs beyond jumped squares) are checked by walking the attacking piece's
//! own moves.

use super::board::{Geometry, NO_SQ, Sq, code_kind, code_side};
use super::movement::unrolled_walked_by_attack;
use super::occupancy::Occupancy;
use super::position::Position;
use super::tables::MoveTables;
use super::walks::{self, Cells, Walker};
use crate::rules::{Mode, Movement, PieceId, Side};

/// The direction opposite each of [`DIRS`](super::board::DIRS).
pub(super) const OPPOSITE: [usize; 8] = [1, 0, 3, 2, 7, 6, 5, 4];

impl Position {
    /// A read-only view for attack questions.
    pub(crate) fn view(&self) -> View<'_> {
        View {
            t: self.tables(),
            board: self.codes(),
            slow: self.slow_counts(),
            slow_squares: self.slow_squares(),
        }
    }

    /// Whether `by` could capture a piece on `sq`.
    pub fn attacked(&self, sq: Sq, by: Side) -> bool {
        self.view().attacked_ignoring(sq, by, NO_SQ, true)
    }

    /// The squares of the pieces of `by` that could capture a piece on `sq`, each once, in
    /// the board's order (what [`Position::attacked`] asks about, every attacker found).
    pub fn attackers(&self, sq: Sq, by: Side, out: &mut Vec<Sq>) {
        out.clear();
        self.view().find_attacker(sq, by, NO_SQ, true, &mut |p| {
            out.push(p);
            false
        });
        out.sort_unstable();
        out.dedup();
    }

    /// The squares of the pieces of `by` that could capture a piece on `sq` by the moves
    /// attack detection looks up in tables (rides and leaps), each once, in the board's
    /// order: [`Position::attackers`] without the slow attackers' other movements (hooks,
    /// area moves, capture-unprotected moves...), which cost the most to look for.
    pub fn attackers_looked_up(&self, sq: Sq, by: Side, out: &mut Vec<Sq>) {
        out.clear();
        self.view().looked_up_attacker(sq, by, NO_SQ, &mut |p| {
            out.push(p);
            false
        });
        out.sort_unstable();
        out.dedup();
    }

    /// Adds to `out` (the squares [`Position::attackers_looked_up`] gave) the slow attackers
    /// of `by` that could capture a piece on `sq`: together, [`Position::attackers`].
    pub fn add_slow_attackers(&self, sq: Sq, by: Side, out: &mut Vec<Sq>) {
        let view = self.view();
        if view.slow[by.index()] == 0 {
            return;
        }
        view.slow_attack(sq, by, NO_SQ, true, &mut |p| {
            out.push(p);
            false
        });
        out.sort_unstable();
        out.dedup();
    }

    /// Whether any royal of `side` is attacked.
    pub fn royal_in_check(&self, side: Side) -> bool {
        self.royal_squares(side)
            .iter()
            .any(|&sq| self.attacked(sq, side.opponent()))
    }

    /// Whether the piece on `sq` is protected by its owner, treating `ignore` as empty.
    pub(crate) fn protected(&self, sq: Sq, ignore: Sq) -> bool {
        self.view().protected(sq, ignore)
    }
}

/// The board and tables, borrowed for attack questions.
#[derive(Clone, Copy)]
pub(crate) struct View<'a> {
    pub t: &'a MoveTables,
    pub board: &'a [u16],
    /// Slow attackers on the board per side.
    pub slow: [u16; 2],
    /// Their squares per side.
    pub slow_squares: &'a [Occupancy; 2],
}

impl View<'_> {
    /// Whether the piece on `sq` is protected by its owner (another piece could recapture),
    /// treating `ignore` as empty.
    pub fn protected(&self, sq: Sq, ignore: Sq) -> bool {
        let owner = code_side(self.board[sq.index()]);
        self.attacked_ignoring(sq, owner, ignore, false)
            || (self.t.rules().capture_unprotected_protects && self.takes_back_unprotected(sq, owner, ignore))
    }

    /// `capture-unprotected-protects`: whether a capture-unprotected mover of `owner` could
    /// take back on `sq` from a capturer come from `ignore`: it reaches `sq`, and the
    /// capturer would stand there unprotected by its own side. That protection is judged
    /// without capture-unprotected movers, which ends the regress.
    fn takes_back_unprotected(&self, sq: Sq, owner: Side, ignore: Sq) -> bool {
        self.slow[owner.index()] > 0
            && !self.attacked_ignoring(sq, owner.opponent(), ignore, false)
            && self.slow_attack(sq, owner, ignore, true, &mut |_| true)
    }

    /// Attack detection treating `ignore` as an empty square. Capture-unprotected moves
    /// count only when `unprotected_moves` is set (protection itself ignores them).
    pub fn attacked_ignoring(&self, sq: Sq, by: Side, ignore: Sq, unprotected_moves: bool) -> bool {
        self.find_attacker(sq, by, ignore, unprotected_moves, &mut |_| true)
    }

    /// Attack detection that tells `found` the square of each attacker until it answers
    /// true (the attacker sought); whether one did. An attacker may be told more than once.
    #[inline]
    fn find_attacker(
        &self,
        sq: Sq,
        by: Side,
        ignore: Sq,
        unprotected_moves: bool,
        found: &mut impl FnMut(Sq) -> bool,
    ) -> bool {
        self.looked_up_attacker(sq, by, ignore, found)
            || (self.slow[by.index()] > 0 && self.slow_attack(sq, by, ignore, unprotected_moves, found))
    }

    /// The rides and leaps of [`View::find_attacker`], looked up in reverse from the square.
    #[inline]
    fn looked_up_attacker(&self, sq: Sq, by: Side, ignore: Sq, found: &mut impl FnMut(Sq) -> bool) -> bool {
        let t = self.t;
        let occupied = |p: Sq| p != ignore && self.board[p.index()] != 0;
        if t.neighbours_first {
            if self.ride_attacker_neighbours_first(sq, by, ignore, found) {
                return true;
            }
        } else {
            for (dir, &opposite) in OPPOSITE.iter().enumerate() {
                let longest = t.longest_ride[by.index()][dir];
                if longest == 0 {
                    continue;
                }
                for (k, &p) in t.line(sq, opposite).iter().enumerate().take(usize::from(longest)) {
                    if occupied(p) {
                        if self.rides_to(p, by, dir, k, ignore) && found(p) {
                            return true;
                        }
                        break;
                    }
                }
            }
        }
        for (index, (_, kinds)) in t.leaps[by.index()].iter().enumerate() {
            let p = t.leap_source(by, index, sq);
            if p != NO_SQ && occupied(p) {
                let code = self.board[p.index()];
                if code_side(code) == by && kinds[t.moving_kind(self.board, p, code, ignore).index()] && found(p) {
                    return true;
                }
            }
        }
        false
    }

    /// Whether the piece on `p`, the `k`th square (counted from 0) out from the attacked
    /// square on the line its riders in direction `dir` come along, is `by`'s and rides in
    /// that direction at least that far. Always inlined: left to the compiler, Shogi's perft 5
    /// took 5% longer.
    #[inline(always)]
    fn rides_to(&self, p: Sq, by: Side, dir: usize, k: usize, ignore: Sq) -> bool {
        let code = self.board[p.index()];
        code_side(code) == by
            && usize::from(
                self.t
                    .ride_reach(by, dir, self.t.moving_kind(self.board, p, code, ignore)),
            ) > k
    }

    /// The rides of [`View::looked_up_attacker`] where the tables look at the neighbours
    /// first ([`MoveTables::neighbours_first`]): each neighbour of `sq`, then the lines
    /// beyond the empty ones.
    #[inline]
    fn ride_attacker_neighbours_first(&self, sq: Sq, by: Side, ignore: Sq, found: &mut impl FnMut(Sq) -> bool) -> bool {
        let t = self.t;
        let occupied = |p: Sq| p != ignore && self.board[p.index()] != 0;
        // The directions whose neighbour is empty: their lines are still to scan.
        let mut open = 0u8;
        for (dir, &opposite) in OPPOSITE.iter().enumerate() {
            if t.longest_ride[by.index()][dir] == 0 {
                continue;
            }
            let Some(&p) = t.line(sq, opposite).first() else {
                continue;
            };
            if !occupied(p) {
                open |= 1 << dir;
                continue;
            }
            if self.rides_to(p, by, dir, 0, ignore) && found(p) {
                return true;
            }
        }
        while open != 0 {
            let dir = open.trailing_zeros() as usize;
            open &= open - 1;
            let longest = t.longest_ride[by.index()][dir];
            for (k, &p) in t
                .line(sq, OPPOSITE[dir])
                .iter()
                .enumerate()
                .take(usize::from(longest))
                .skip(1)
            {
                if occupied(p) {
                    if self.rides_to(p, by, dir, k, ignore) && found(p) {
                        return true;
                    }
                    break;
                }
            }
        }
        false
    }

    /// The pieces of `by` giving check to a royal on `sq`, where `by` has no slow attacker
    /// on the board (every attack is a ride or a leap of the tables).
    pub fn checkers(&self, sq: Sq, by: Side) -> Checkers {
        let t = self.t;
        let mut checkers = Checkers {
            first: NO_SQ,
            along_line: false,
            more: false,
        };
        for (dir, &opposite) in OPPOSITE.iter().enumerate() {
            let longest = t.longest_ride[by.index()][dir];
            for (k, &p) in t.line(sq, opposite).iter().enumerate().take(usize::from(longest)) {
                let code = self.board[p.index()];
                if code == 0 {
                    continue;
                }
                if code_side(code) == by
                    && usize::from(t.ride_reach(by, dir, t.moving_kind(self.board, p, code, NO_SQ))) > k
                {
                    checkers.add(p, true);
                }
                break;
            }
        }
        for (index, (_, kinds)) in t.leaps[by.index()].iter().enumerate() {
            let p = t.leap_source(by, index, sq);
            if p == NO_SQ {
                continue;
            }
            let code = self.board[p.index()];
            if code != 0 && code_side(code) == by && kinds[t.moving_kind(self.board, p, code, NO_SQ).index()] {
                checkers.add(p, false);
            }
        }
        checkers
    }

    /// Hooks, the Emperor and capture-unprotected moves of `by` that reach `sq`, each told to
    /// `found` as in [`View::find_attacker`]. The slow attackers of `by` are visited by their
    /// squares, each asked in full.
    fn slow_attack(
        &self,
        sq: Sq,
        by: Side,
        ignore: Sq,
        unprotected_moves: bool,
        found: &mut impl FnMut(Sq) -> bool,
    ) -> bool {
        for p in self.slow_squares[by.index()].squares() {
            let code = self.board[p.index()];
            if p != ignore
                && p != sq
                && self.slow_piece_attacks(p, code_kind(code), sq, by, ignore, unprotected_moves)
                && found(p)
            {
                return true;
            }
        }
        false
    }

    /// Whether the slow attacker of `by` on `p`, of `kind`, reaches `sq` by a movement attack
    /// detection cannot look up, or (where capture-unprotected moves count: an attack, not
    /// protection) burns it.
    fn slow_piece_attacks(&self, p: Sq, kind: PieceId, sq: Sq, by: Side, ignore: Sq, unprotected_moves: bool) -> bool {
        let t = self.t;
        if unprotected_moves && t.kind(kind).burns && self.burns(p, kind, sq, by, ignore) {
            return true;
        }
        let cells = Cells {
            board: self.board,
            empty: ignore,
            foe: sq,
        };
        let walker = Walker {
            t,
            cells,
            side: by,
            from: p,
        };
        let rank = t.kind(kind).jump_rank;
        let geo = t.geometry();
        // The modes whose rides and leaps `simple_reaches` has already looked along (it looks
        // along all of a mode's at once).
        let mut rides_looked = [false; 4];
        t.rules().pieces[kind.index()].moves.iter().any(|m| {
            let mode = m.mode();
            let counted = match mode {
                Mode::MoveOnly => false,
                Mode::CaptureUnprotected => unprotected_moves,
                Mode::Any | Mode::CaptureOnly => true,
            };
            // Lions are looked up in the tables, like rides and leaps that are not
            // capture-unprotected.
            let reaches = counted
                && match *m {
                    Movement::Hook { dir, only_turn, .. } => self.hook_reaches(t, p, by, (dir, only_turn), sq, ignore),
                    Movement::Anywhere { .. } => true,
                    Movement::Ride { .. } | Movement::Leap { .. } => {
                        unrolled_walked_by_attack(m)
                            && !std::mem::replace(&mut rides_looked[mode as usize], true)
                            && self.simple_reaches(kind, p, by, sq, ignore, mode)
                    }
                    Movement::Area { steps, dirs, mode } => {
                        let mut hit = false;
                        if geo.distance(p, sq) <= steps {
                            walker.area(steps, dirs, mode, |to, _| hit |= to == sq);
                        }
                        hit
                    }
                    Movement::RangeJump { dir, mode } => {
                        let mut hit = false;
                        if on_line(geo, by, dir, p, sq) {
                            walker.range_jump(dir, rank, mode, |to, _| hit |= to == sq);
                        }
                        hit
                    }
                    Movement::RangeCapture { dir, mode } => {
                        let mut hit = false;
                        if on_line(geo, by, dir, p, sq) {
                            walker.range_capture(dir, rank, mode, |to, capture, _| hit |= capture && to == sq);
                        }
                        hit
                    }
                    Movement::Igui { dir, mode } => {
                        let mut hit = false;
                        walker.igui(dir, mode, |to, _| hit |= to == sq);
                        hit
                    }
                    Movement::Passing { dir, max, pieces, mode } => {
                        let mut hit = false;
                        if on_line(geo, by, dir, p, sq) {
                            walker.passing((dir, max), pieces, mode, |to, _| hit |= to == sq);
                        }
                        hit
                    }
                    Movement::Hop { dir, max, mode } => {
                        let mut hit = false;
                        walker.hop((dir, max), mode, |to, _| hit |= to == sq);
                        hit
                    }
                    Movement::AreaLion { .. } | Movement::LineLion { .. } => false,
                };
            reaches && (mode != Mode::CaptureUnprotected || !self.protected_for(sq, by, p))
        })
    }

    /// Whether the burner of `by` on `p`, of `kind`, can end a move next to `sq` without being
    /// burnt there first (unless it burns before it is burnt): its burning then takes the
    /// piece on `sq`. The compiler allows burners only steps, slides, ranges, jumps, leaps,
    /// area moves and range jumps.
    fn burns(&self, p: Sq, kind: PieceId, sq: Sq, by: Side, ignore: Sq) -> bool {
        let t = self.t;
        let geo = t.geometry();
        let cells = Cells {
            board: self.board,
            empty: ignore,
            foe: sq,
        };
        let before = t.rules().end.burns_before_burnt;
        let mut hit = false;
        let mut land = |to: Sq, _| {
            hit |= to != sq && geo.distance(to, sq) == 1 && (before || !walks::burnt_on(t, cells, by, to));
        };
        for ray in t.rays(kind, by, p) {
            for to in ray.squares() {
                let code = if to == ignore { 0 } else { self.board[to.index()] };
                if code == 0 {
                    if ray.mode.can_move() {
                        land(to, false);
                    }
                    continue;
                }
                if (to == sq || code_side(code) != by) && ray.mode.can_capture() {
                    land(to, true);
                }
                break;
            }
        }
        let rank = t.kind(kind).jump_rank;
        let walker = Walker {
            t,
            cells,
            side: by,
            from: p,
        };
        for walked in &t.kind(kind).walked {
            match *walked {
                Movement::Area { steps, dirs, mode } => walker.area(steps, dirs, mode, &mut land),
                Movement::RangeJump { dir, mode } => walker.range_jump(dir, rank, mode, &mut land),
                Movement::Passing { dir, max, pieces, mode } => walker.passing((dir, max), pieces, mode, &mut land),
                Movement::Hop { dir, max, mode } => walker.hop((dir, max), mode, &mut land),
                // The compiler allows burners no range captures.
                Movement::Ride { .. }
                | Movement::Leap { .. }
                | Movement::AreaLion { .. }
                | Movement::LineLion { .. }
                | Movement::Hook { .. }
                | Movement::Anywhere { .. }
                | Movement::RangeCapture { .. }
                | Movement::Igui { .. } => {}
            }
        }
        hit
    }

    /// Protection of the piece on `sq` against `by`'s attacker standing on `attacker`.
    fn protected_for(&self, sq: Sq, by: Side, attacker: Sq) -> bool {
        let code = self.board[sq.index()];
        if code == 0 || code_side(code) == by {
            return false;
        }
        self.protected(sq, attacker)
    }

    fn hook_reaches(
        &self,
        t: &MoveTables,
        from: Sq,
        side: Side,
        (dir, only_turn): (crate::rules::Offset, Option<crate::rules::Offset>),
        sq: Sq,
        ignore: Sq,
    ) -> bool {
        let clear = |squares: &[Sq]| squares.iter().all(|&p| p == ignore || self.board[p.index()] == 0);
        let v = Geometry::board_vector(side, dir);
        let Some(first) = Geometry::dir_index(v).map(|d| t.line(from, d)) else {
            return false;
        };
        // Most hooks are stopped at once.
        match first.first() {
            None => return false,
            Some(&next) if next != sq && !clear(&[next]) => return false,
            Some(_) => {}
        }
        let geo = t.geometry();
        let (a, b) = (geo.square(from), geo.square(sq));
        let d = (
            i32::from(b.file) - i32::from(a.file),
            i32::from(b.rank) - i32::from(a.rank),
        );
        // The target lies on the first leg, or beyond the one square of it that lines up
        // with the target across the turn (the legs' steps are perpendicular and of one
        // length, so the target's offset splits into so many steps of each).
        if let Some(k) = steps_of(d, v, (0, 0)) {
            return first.get(k - 1) == Some(&sq) && clear(&first[..k - 1]);
        }
        for perp in crate::rules::hook_turns(dir, only_turn) {
            let w = Geometry::board_vector(side, perp);
            let (Some(k), Some(j)) = (steps_of(d, v, w), steps_of(d, w, v)) else {
                continue;
            };
            let Some(second) = first
                .get(k - 1)
                .zip(Geometry::dir_index(w))
                .map(|(&corner, w)| t.line(corner, w))
            else {
                return false;
            };
            return clear(&first[..k]) && second.get(j - 1) == Some(&sq) && clear(&second[..j - 1]);
        }
        false
    }

    /// Whether a ride or leap of `kind` from `from` that attack detection walks, of `mode`,
    /// reaches `sq` (capture-unprotected moves, moves only from the last rank).
    fn simple_reaches(&self, kind: PieceId, from: Sq, side: Side, sq: Sq, ignore: Sq, mode: Mode) -> bool {
        let t = self.t;
        t.rays(kind, side, from)
            .filter(|r| r.slow && r.mode == mode)
            .any(|ray| {
                for p in ray.squares() {
                    if p == sq {
                        return true;
                    }
                    if p != ignore && self.board[p.index()] != 0 {
                        return false;
                    }
                }
                false
            })
    }
}

/// How many steps of the king step `v` the offset `d` takes, with some whole number of steps
/// of `w` (a king step perpendicular to `v`, or none: `(0, 0)`) after them: `None` unless `d`
/// is at least one step of `v` and whole steps of `w` from the start (none when `w` is none).
fn steps_of(d: (i32, i32), v: (i32, i32), w: (i32, i32)) -> Option<usize> {
    // King steps: 1 long squared straight, 2 diagonally (a shift, not a division).
    let shift = match v.0 * v.0 + v.1 * v.1 {
        1 => 0,
        2 => 1,
        _ => return None,
    };
    let along = d.0 * v.0 + d.1 * v.1;
    let across = d.0 * w.0 + d.1 * w.1;
    let (k, j) = (along >> shift, across >> shift);
    let exact = (along | across) & shift == 0;
    let back = (k * v.0 + j * w.0, k * v.1 + j * w.1);
    let beyond = w == (0, 0) || j >= 1;
    (exact && k >= 1 && beyond && back == d).then_some(k as usize)
}

/// Whether `sq` lies beyond `p` on the line in the direction `dir` as `side` sees it: the only
/// squares a range jump, range capture or passing slide from `p` along `dir` can reach (they
/// walk [`MoveTables::line`]s, which a direction that is no king step does not have).
fn on_line(geo: Geometry, side: Side, dir: crate::rules::Offset, p: Sq, sq: Sq) -> bool {
    let (vf, vr) = Geometry::board_vector(side, dir);
    let (a, b) = (geo.square(p), geo.square(sq));
    let (df, dr) = (
        i32::from(b.file) - i32::from(a.file),
        i32::from(b.rank) - i32::from(a.rank),
    );
    let k = df.abs().max(dr.abs());
    k > 0 && (df, dr) == (k * vf, k * vr)
}

/// The pieces giving check to a royal ([`View::checkers`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Checkers {
    /// The first found, [`NO_SQ`] if none.
    pub first: Sq,
    /// It attacks only along a line, which a piece put between would stop (not by a leap).
    pub along_line: bool,
    /// Another piece gives check too.
    pub more: bool,
}

impl Checkers {
    fn add(&mut self, p: Sq, along_line: bool) {
        if self.first == NO_SQ {
            (self.first, self.along_line) = (p, along_line);
        } else if self.first == p {
            // Leaping as well as riding: a piece put between does not stop it.
            self.along_line &= along_line;
        } else {
            self.more = true;
        }
    }
}
