//! The walks of the movement kinds that depend on what stands on the board beyond the first
//! piece met, or that reach a square by several paths: area moves (`area N`), range jumps
//! (`range-jump`, with the jumping order of `jump-rank`), range captures (`range-capture`,
//! with the same order), passing slides (`passing N`) and igui captures (`igui`). Each
//! is one function over the board that hands every destination (its square, and whether the move captures there) to a visitor, so that move
//! generation (which emits moves) and attack detection (which asks whether a square is
//! reached) walk them the same way. Allocation-free: an area walk keeps its frontier on the
//! stack.

use super::board::{DIRS, Geometry, NO_SQ, Sq, code_kind, code_side};
use super::tables::{KindInfo, MoveTables};
use crate::rules::{KingSteps, MAX_AREA_STEPS, Mode, Offset, Side};

/// The most squares an area walk can visit: the square of side `2 * MAX_AREA_STEPS + 1`.
const AREA: usize = (2 * MAX_AREA_STEPS as usize + 1) * (2 * MAX_AREA_STEPS as usize + 1);

/// The board a walk reads: `empty` counts as an empty square (a piece lifted off it), and
/// the piece on `foe` as an enemy of the mover whatever its side (the square attack
/// detection asks about). Either may be [`NO_SQ`].
#[derive(Clone, Copy)]
pub(super) struct Cells<'a> {
    pub board: &'a [u16],
    pub empty: Sq,
    pub foe: Sq,
}

impl Cells<'_> {
    /// The board as it stands.
    pub fn plain(board: &[u16]) -> Cells<'_> {
        Cells {
            board,
            empty: NO_SQ,
            foe: NO_SQ,
        }
    }

    fn at(&self, sq: Sq) -> u16 {
        if sq == self.empty { 0 } else { self.board[sq.index()] }
    }

    /// Whether the piece `code` on `sq` is an enemy of `side`.
    fn enemy(&self, code: u16, sq: Sq, side: Side) -> bool {
        sq == self.foe || code_side(code) != side
    }
}

/// A walk's context: the tables, the board as the walk reads it, and the moving piece's
/// side and square. The walks are its methods.
#[derive(Clone, Copy)]
pub(super) struct Walker<'a> {
    pub t: &'a MoveTables,
    pub cells: Cells<'a>,
    pub side: Side,
    pub from: Sq,
}

impl<'a> Walker<'a> {
    /// The area move of a piece of `side` on `from`: up to `steps` king steps along the steps of
    /// `dirs`, through empty squares only, ending on an empty square
    /// or on the first capture; never on `from`. Each destination is visited once.
    pub fn area(self, steps: u8, dirs: KingSteps, mode: Mode, mut visit: impl FnMut(Sq, bool)) {
        let Walker { t, cells, side, from } = self;
        let geo = t.geometry();
        let k = i32::from(steps);
        let width = 2 * k + 1;
        let slot = |sq: Sq| {
            let (a, b) = (geo.square(from), geo.square(sq));
            let df = i32::from(b.file) - i32::from(a.file) + k;
            let dr = i32::from(b.rank) - i32::from(a.rank) + k;
            (dr * width + df) as usize
        };
        let vectors = unit_vectors(side, dirs);
        let mut seen = [false; AREA];
        let mut frontier = [NO_SQ; AREA];
        seen[slot(from)] = true;
        frontier[0] = from;
        let (mut start, mut end) = (0, 1);
        for _ in 0..steps {
            let layer_end = end;
            for i in start..layer_end {
                let at = frontier[i];
                for &(df, dr) in vectors.iter().flatten() {
                    let Some(next) = geo.step(at, df, dr) else {
                        continue;
                    };
                    let s = slot(next);
                    if seen[s] {
                        continue;
                    }
                    seen[s] = true;
                    let target = cells.at(next);
                    if target == 0 {
                        if mode.can_move() {
                            visit(next, false);
                        }
                        frontier[end] = next;
                        end += 1;
                    } else if cells.enemy(target, next, side) && mode.can_capture() {
                        visit(next, true);
                    }
                }
            }
            start = layer_end;
        }
    }

    /// A range jump of a piece of `side` on `from`, of jump rank `rank`, along `dir`: a slide
    /// through empty squares; the first piece met may be captured (an enemy); past a piece
    /// ranked below the mover it goes on, over empty squares and lower-ranked pieces of either
    /// side, capturing any lower-ranked enemy; a piece of the mover's rank or higher ends it.
    pub fn range_jump(self, dir: Offset, rank: u8, mode: Mode, mut visit: impl FnMut(Sq, bool)) {
        let Walker { t, cells, side, from } = self;
        let Some(d) = Geometry::dir_index(Geometry::board_vector(side, dir)) else {
            return;
        };
        let rank_of = |code: u16| t.code(code).jump_rank;
        let mut jumping = false;
        for &to in t.line(from, d) {
            let target = cells.at(to);
            if target == 0 {
                if !jumping && mode.can_move() {
                    visit(to, false);
                }
                continue;
            }
            let lower = rank_of(target) > rank;
            if cells.enemy(target, to, side) && mode.can_capture() && (lower || !jumping) {
                visit(to, true);
            }
            if !lower {
                return;
            }
            jumping = true;
        }
    }

    /// A passing slide of a piece of `side` on `from`, along `dir` up to `max` squares (`None`:
    /// to the edge): it passes over up to `pieces` pieces of either side, ending on any empty
    /// square on the way or capturing an enemy among the first `pieces + 1` pieces met; the
    /// piece after the last it may pass ends it. It takes only the piece it ends on.
    pub fn passing(self, (dir, max): (Offset, Option<u8>), pieces: u8, mode: Mode, mut visit: impl FnMut(Sq, bool)) {
        let Walker { t, cells, side, from } = self;
        let Some(d) = Geometry::dir_index(Geometry::board_vector(side, dir)) else {
            return;
        };
        let reach = max.map_or(usize::MAX, usize::from);
        let mut passed = 0;
        for &to in t.line(from, d).iter().take(reach) {
            let target = cells.at(to);
            if target == 0 {
                if mode.can_move() {
                    visit(to, false);
                }
                continue;
            }
            if cells.enemy(target, to, side) && mode.can_capture() {
                visit(to, true);
            }
            if passed == pieces {
                return;
            }
            passed += 1;
        }
    }

    /// A hop of a piece of `side` on `from`, along `dir` up to `max` squares from it (`None`:
    /// to the edge): over exactly one piece of either side (the screen), which it does not
    /// take, to each empty square beyond it, or to the first piece beyond it, taken if an
    /// enemy, which ends it.
    #[inline]
    pub fn hop(self, (dir, max): (Offset, Option<u8>), mode: Mode, mut visit: impl FnMut(Sq, bool)) {
        let Walker { t, cells, side, from } = self;
        let Some(d) = Geometry::dir_index(Geometry::board_vector(side, dir)) else {
            return;
        };
        let reach = max.map_or(usize::MAX, usize::from);
        let mut screened = false;
        for &to in t.line(from, d).iter().take(reach) {
            let target = cells.at(to);
            if !screened {
                screened = target != 0;
            } else if target == 0 {
                if mode.can_move() {
                    visit(to, false);
                }
            } else {
                if cells.enemy(target, to, side) && mode.can_capture() {
                    visit(to, true);
                }
                return;
            }
        }
    }

    /// A range capture of a piece of `side` on `from`, of jump rank `rank`, along `dir`: a slide
    /// that passes over pieces of either side ranked below the mover, capturing each; it may end
    /// on any square it reaches, empty or holding a lower-ranked piece of either side (taken
    /// too); a piece of the mover's rank or higher ends it, and is not taken. A `capture-only`
    /// one must take a piece. `visit` gets each destination's square, whether the move captures,
    /// and whether it sweeps (takes more than an enemy on the square: see
    /// [`Move::sweep`](super::Move::sweep)).
    pub fn range_capture(self, dir: Offset, rank: u8, mode: Mode, mut visit: impl FnMut(Sq, bool, bool)) {
        let Some(walk) = self.range_capture_walk(dir, rank) else {
            return;
        };
        if mode.can_move() {
            for &to in walk.slide() {
                visit(to, false, false);
            }
        }
        let Some(first) = walk.first() else {
            return;
        };
        visit(first, true, !self.cells.enemy(self.cells.at(first), first, self.side));
        for &to in walk.sweeps() {
            visit(to, true, true);
        }
    }

    /// The walk of a range capture (see [`range_capture`](Self::range_capture)) along `dir`,
    /// for a mover of jump rank `rank`; `None` where `dir` is no line.
    #[inline]
    pub fn range_capture_walk(self, dir: Offset, rank: u8) -> Option<RangeWalk<'a>> {
        let Walker { t, cells, side, from } = self;
        let d = Geometry::dir_index(Geometry::board_vector(side, dir))?;
        Some(if cells.empty == NO_SQ {
            RangeWalk::along(t, t.line(from, d), rank, |sq| cells.board[sq.index()])
        } else {
            RangeWalk::along(t, t.line(from, d), rank, |sq| cells.at(sq))
        })
    }

    /// The igui capture of a piece of `side` on `from` towards `dir`: the adjacent square, when
    /// an enemy stands there.
    pub fn igui(self, dir: Offset, mode: Mode, mut visit: impl FnMut(Sq, bool)) {
        let Walker { t, cells, side, from } = self;
        let (df, dr) = Geometry::board_vector(side, dir);
        if let Some(to) = t.geometry().step(from, df, dr) {
            let target = cells.at(to);
            if target != 0 && cells.enemy(target, to, side) && mode.can_capture() {
                visit(to, true);
            }
        }
    }
}

/// A range capture's walk along a line from the mover: the empty squares it slides over up
/// to the first piece it meets (`line[..slide]`), then, unless that piece ends the walk, the
/// pieces and squares it takes or sweeps to (`line[slide..end]`), `line[end]` the piece of
/// the mover's rank or higher that ends it, if any.
pub(super) struct RangeWalk<'a> {
    pub line: &'a [Sq],
    pub slide: usize,
    pub end: usize,
}

impl<'a> RangeWalk<'a> {
    /// The walk along `line` of a mover of jump rank `rank`, `at` reading the squares.
    #[inline(always)]
    fn along(t: &MoveTables, line: &'a [Sq], rank: u8, at: impl Fn(Sq) -> u16) -> RangeWalk<'a> {
        let mut slide = 0;
        while slide < line.len() && at(line[slide]) == 0 {
            slide += 1;
        }
        let mut end = slide;
        while end < line.len() {
            let target = at(line[end]);
            if target != 0 && t.code(target).jump_rank <= rank {
                break;
            }
            end += 1;
        }
        RangeWalk { line, slide, end }
    }

    /// The empty squares before the first piece met: moves without a capture.
    pub fn slide(&self) -> &[Sq] {
        &self.line[..self.slide]
    }

    /// The first piece met, where it does not end the walk: taken, by a sweep where it is
    /// the mover's own.
    pub fn first(&self) -> Option<Sq> {
        (self.slide < self.end).then(|| self.line[self.slide])
    }

    /// The squares after the first piece met, up to the end of the walk: sweeps.
    pub fn sweeps(&self) -> &[Sq] {
        &self.line[(self.slide + 1).min(self.end)..self.end]
    }
}

/// The board vectors of the king steps in `dirs` for `side`.
fn unit_vectors(side: Side, dirs: KingSteps) -> [Option<(i32, i32)>; 8] {
    let mut out = [None; 8];
    for (slot, unit) in out.iter_mut().zip(dirs.offsets()) {
        *slot = Some(Geometry::board_vector(side, unit));
    }
    out
}

/// Whether a piece of `side` ending its move on `to` would be burnt there by an enemy
/// burner next to it.
pub(super) fn burnt_on(t: &MoveTables, cells: Cells, side: Side, to: Sq) -> bool {
    neighbours(t.geometry(), to).any(|n| {
        let code = cells.at(n);
        code != 0 && code_side(code) != side && info(t, code).burns
    })
}

/// The squares next to `sq`.
pub(super) fn neighbours(geo: Geometry, sq: Sq) -> impl Iterator<Item = Sq> {
    DIRS.iter()
        .filter_map(move |&(df, dr)| geo.step(sq, i32::from(df), i32::from(dr)))
}

fn info(t: &MoveTables, code: u16) -> &KindInfo {
    t.kind(code_kind(code))
}
