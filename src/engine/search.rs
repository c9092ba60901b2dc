//! The search proper: iterative deepening at the root, principal-variation alpha-beta
//! below it, and a quiescence search on captures at the leaves. With more than one thread
//! (lazy SMP), helper threads search the same position at the same time, sharing only the
//! transposition table; the main thread's result is the one returned.

use super::eval::Eval;
use super::tt::{Bound, Table};
use super::weights::WeightFile;
use super::{DEFAULT_DEPTH, DEFAULT_TIME, Info, Limits, MATE, MAX_PLY, SearchResult};
use crate::game::{LionCounting, Move, Piece, Position, Scratch, Sq, Undo, verdict_winner};
use crate::rules::{PieceId, Side, Verdict};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Above every real score.
const INF: i32 = MATE + 1;
/// Scores at least this far from zero are mates.
const MATE_BOUND: i32 = MATE - MAX_PLY as i32;

/// Move-ordering scores, in decreasing order of priority.
const TT_MOVE: i32 = 1_000_000_000;
const CAPTURE: i32 = 500_000_000;
const PROMOTION: i32 = 400_000_000;
const KILLER: i32 = 300_000_000;
/// Captures that lose material by static exchange, ordered after the killers (plus the
/// exchange's loss, which is negative).
const LOSING_CAPTURE: i32 = 200_000_000;
/// History scores stay below this.
const HISTORY_MAX: i32 = 100_000_000;

/// The time is checked once every this many nodes.
const CHECK_EVERY: u64 = 4;
/// The most of a search's time kept for unwinding and returning (at most a fiftieth of it).
const UNWIND: Duration = Duration::from_millis(20);
/// The default transposition table: 2^19 entries.
const DEFAULT_TT_BITS: u32 = 19;
/// The most threads a search uses.
pub const MAX_THREADS: usize = 64;

/// A search that keeps what it learnt (the transposition table, history of good quiet
/// moves) from one call to the next: use one per game. It may be handed positions of any
/// variant; a new variant clears what it learnt.
pub struct Searcher {
    tt: Arc<Table>,
    /// How many threads search (1: this one alone).
    threads: usize,
    /// A helper thread's searcher: it shares the table and never clears it.
    helper: bool,
    eval: Option<Eval>,
    /// The weights the evaluation is built with.
    weights: Arc<WeightFile>,
    /// Per ply: the moves of the node, their ordering scores, and whether a move's score
    /// still awaits its exchange evaluation (a capture by a piece worth more than its
    /// victims, scored as if the exchange did not lose until it comes up to be searched).
    moves: Vec<Vec<Move>>,
    scores: Vec<Vec<i32>>,
    unweighed: Vec<Vec<bool>>,
    /// What this thread's move generation and legality checks work in.
    scratch: Scratch,
    /// Per ply: the principal variation from that node.
    pv: Vec<Vec<Move>>,
    killers: Vec<[Option<Move>; 2]>,
    /// Per (kind, side, destination): how often a quiet move caused a cut-off, less how
    /// often it was searched before another quiet move's cut-off.
    history: Vec<i32>,
    /// Per ply: the quiet moves searched so far in the node.
    tried_quiets: Vec<Vec<Move>>,
    /// Late-move reduction per (depth, move number), both capped at 63.
    lmr: Vec<[u8; 64]>,
    nodes: u64,
    max_nodes: u64,
    deadline: Option<Instant>,
    /// The flag another thread sets to stop the search.
    stop: Option<Arc<AtomicBool>>,
    stopped: bool,
    /// Out of time or nodes: the search stops, unless it is completing its first iteration.
    over_budget: bool,
    /// Completing the first iteration: out of time or nodes, it goes on with its quiescence
    /// searches cut to the standing score, so that every move is searched one ply.
    completing: bool,
    root_depth: i32,
    /// The moves generated while evaluating an exchange.
    exchange_moves: Vec<Move>,
    /// The squares of the pieces that can take back, while evaluating an exchange.
    exchange_attackers: Vec<Sq>,
    /// Per ply: whether the move into the node was a null move.
    after_null: Vec<bool>,
    /// Per ply: where the move into the node went, and whether it took a piece of the
    /// opponent's (`None` at the root and after a null move).
    arrivals: Vec<Option<Arrival>>,
    /// Per ply: the node's [`Eval::board_share`], kept up to date move by move.
    board_share: Vec<i32>,
    /// The squares a move being made may change, with what stood on them before.
    changed: Vec<(Sq, Option<Piece>)>,
    /// The first iteration's depth (helper threads start at different depths).
    first_depth: i32,
    /// How far the positional terms may take the score from the material and square
    /// bonuses: the most they have reached in this search, plus [`LAZY_SLACK`].
    lazy_margin: i32,
    /// The positional terms of positions met before, by hash (one per slot, the latest
    /// kept): iterative deepening meets the same leaves again.
    positional_cache: Vec<(u64, i32)>,
}

impl Default for Searcher {
    fn default() -> Self {
        Searcher::new()
    }
}

impl Searcher {
    /// A searcher with the default transposition table (2^19 slots).
    pub fn new() -> Searcher {
        Searcher::with_table_bits(DEFAULT_TT_BITS)
    }

    /// A searcher whose transposition table has `2^bits` entries of
    /// [`TABLE_SLOT_BYTES`](super::TABLE_SLOT_BYTES) bytes.
    pub fn with_table_bits(bits: u32) -> Searcher {
        Searcher::sharing(Arc::new(Table::new(bits)), false)
    }

    /// As [`with_table_bits`](Searcher::with_table_bits), but `None` when the memory for
    /// the table cannot be had (a size a user asks for), where that one aborts.
    pub fn try_with_table_bits(bits: u32) -> Option<Searcher> {
        Some(Searcher::sharing(Arc::new(Table::try_new(bits)?), false))
    }

    /// The number of threads that search (lazy SMP; 1 by default).
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Searches with `threads` threads from now on (at least 1): the others help by filling
    /// the shared transposition table.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.clamp(1, MAX_THREADS);
    }

    /// Evaluates with these weights from now on (each variant with its own set, or the
    /// file's default).
    pub fn set_weights(&mut self, weights: Arc<WeightFile>) {
        if !Arc::ptr_eq(&self.weights, &weights) {
            self.weights = weights;
            self.eval = None;
        }
    }

    /// Whether `pos` is quiet: the side to move is not in check and has no capture that wins
    /// material by static exchange (a position a tuning run can judge by its evaluation).
    pub fn is_quiet(&mut self, pos: &Position) -> bool {
        let pos = &mut pos.clone();
        let side = pos.side_to_move();
        if pos.royal_in_check(side) {
            return false;
        }
        self.prepare(pos);
        let eval = self.eval.take().expect("prepared");
        let mut captures = Vec::new();
        self.scratch.pseudo_captures(pos, &mut captures, LionCounting::Distinct);
        let quiet = captures.iter().all(|m| {
            let undo = pos.make(m);
            let legal = !pos.royal_in_check(side);
            pos.unmake(m, &undo);
            !legal || self.exchange(&eval, pos, m) <= 0
        });
        self.eval = Some(eval);
        quiet
    }

    /// Builds the evaluation for the variant of `pos` unless it is the one built.
    fn prepare(&mut self, pos: &Position) {
        let same_variant = self.eval.as_ref().is_some_and(|e| Arc::ptr_eq(&e.tables, pos.tables()));
        if !same_variant {
            let weights = &self.weights.for_variant(&pos.rules().name).weights;
            let eval = Eval::new(pos.tables().clone(), weights);
            let kinds = pos.tables().kind_count();
            self.history = vec![0; kinds * 2 * eval.squares.len()];
            self.eval = Some(eval);
            self.positional_cache.fill((0, 0));
            self.clear();
        }
    }

    fn sharing(tt: Arc<Table>, helper: bool) -> Searcher {
        let lmr = (0..64)
            .map(|depth| {
                let mut row = [0u8; 64];
                for (n, r) in row.iter_mut().enumerate() {
                    if depth >= 3 && n >= 3 {
                        let x = (depth as f64).ln() * (n as f64).ln() / 2.0;
                        *r = (x as u8).clamp(1, 6);
                    }
                }
                row
            })
            .collect();
        Searcher {
            tt,
            threads: 1,
            helper,
            eval: None,
            weights: WeightFile::built_in(),
            moves: (0..MAX_PLY + 1).map(|_| Vec::new()).collect(),
            scores: (0..MAX_PLY + 1).map(|_| Vec::new()).collect(),
            unweighed: (0..MAX_PLY + 1).map(|_| Vec::new()).collect(),
            scratch: Scratch::default(),
            pv: (0..MAX_PLY + 1).map(|_| Vec::new()).collect(),
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: Vec::new(),
            tried_quiets: (0..MAX_PLY + 1).map(|_| Vec::new()).collect(),
            lmr,
            nodes: 0,
            max_nodes: u64::MAX,
            deadline: None,
            stop: None,
            stopped: false,
            over_budget: false,
            completing: false,
            root_depth: 0,
            exchange_moves: Vec::new(),
            exchange_attackers: Vec::new(),
            after_null: vec![false; MAX_PLY + 1],
            arrivals: vec![None; MAX_PLY + 1],
            board_share: vec![0; MAX_PLY + 1],
            changed: Vec::new(),
            first_depth: 1,
            lazy_margin: LAZY_SLACK,
            positional_cache: vec![(0, 0); POSITIONAL_CACHE],
        }
    }

    /// Forgets everything learnt (for a new game).
    pub fn clear(&mut self) {
        if !self.helper {
            self.tt.clear();
        }
        self.history.fill(0);
        self.killers.fill([None; 2]);
    }

    /// Searches `pos` within `limits` and returns the best move found. When there is a legal move, `best` is one, however short the time. With
    /// more than one thread, the helpers stop when this search does; their nodes count in
    /// the result's (not in the progress reports').
    pub fn search(&mut self, pos: &Position, limits: &Limits) -> SearchResult {
        // The search plays its moves on its own copy.
        let pos = &mut pos.clone();
        if self.threads <= 1 {
            return self.search_alone(pos, limits);
        }
        let done = Arc::new(AtomicBool::new(false));
        let helper_nodes = AtomicU64::new(0);
        let mut result = std::thread::scope(|scope| {
            for i in 1..self.threads {
                let mut helper = Searcher::sharing(self.tt.clone(), true);
                helper.first_depth = 1 + (i % 2) as i32;
                helper.weights = self.weights.clone();
                let mut pos = pos.clone();
                let limits = Limits {
                    nodes: None,
                    stop: Some(done.clone()),
                    progress: None,
                    ..limits.clone()
                };
                let helper_nodes = &helper_nodes;
                scope.spawn(move || {
                    let found = helper.search_alone(&mut pos, &limits);
                    helper_nodes.fetch_add(found.nodes, Ordering::Relaxed);
                });
            }
            let result = self.search_alone(pos, limits);
            done.store(true, Ordering::Relaxed);
            result
        });
        result.nodes += helper_nodes.into_inner();
        result
    }

    fn search_alone(&mut self, pos: &mut Position, limits: &Limits) -> SearchResult {
        let started = Instant::now();
        self.prepare(pos);
        for h in &mut self.history {
            *h /= 4;
        }
        self.killers.fill([None; 2]);
        self.tt.new_search();
        self.nodes = 0;
        self.stopped = false;
        self.over_budget = false;
        self.max_nodes = limits.nodes.unwrap_or(u64::MAX);
        let time = match limits {
            Limits {
                depth: None,
                time: None,
                nodes: None,
                ..
            } => Some(DEFAULT_TIME),
            _ => limits.time,
        };
        // A little of the time is kept for unwinding and returning.
        self.deadline = time.map(|t| started + t.saturating_sub((t / 50).min(UNWIND)));
        self.stop.clone_from(&limits.stop);
        let eval = self.eval.take().expect("set above");
        let result = self.root(&eval, pos, limits, started);
        self.eval = Some(eval);
        result
    }

    fn root(&mut self, ev: &Eval, pos: &mut Position, limits: &Limits, started: Instant) -> SearchResult {
        let side = pos.side_to_move();
        let mut root_moves = Vec::new();
        self.scratch
            .legal_moves_into(pos, &mut root_moves, LionCounting::Distinct);
        if root_moves.is_empty() {
            let in_check = pos.royal_in_check(side);
            return SearchResult {
                best: None,
                score: no_move_score(pos, in_check, 0),
                depth: 0,
                nodes: 0,
                pv: Vec::new(),
            };
        }
        let max_depth = match limits {
            Limits {
                depth: None,
                time: None,
                nodes: None,
                ..
            } => DEFAULT_DEPTH,
            _ => limits.depth.unwrap_or(MAX_PLY as u32 / 2),
        }
        .clamp(1, MAX_PLY as u32 / 2);

        // The initial order: the table's move, then captures and promotions.
        let tt_move = self.tt.probe(pos.hash()).and_then(|e| e.mv);
        let mut scores = Vec::new();
        self.score_moves(ev, pos, &root_moves, &mut scores, None, tt_move, 0);
        let mut order: Vec<(i32, Move)> = scores.iter().copied().zip(root_moves.iter().copied()).collect();
        order.sort_by_key(|&(s, _)| std::cmp::Reverse(s));
        root_moves = order.into_iter().map(|(_, m)| m).collect();

        self.nodes += 1;
        self.board_share[0] = ev.board_share(pos);
        self.lazy_margin = LAZY_SLACK;
        let mut best = root_moves[0];
        let mut best_score = self.evaluate(ev, pos, 0);
        let mut best_pv = vec![best];
        let mut completed = 0;
        let mut pace = Pace::default();
        for depth in self.first_depth.min(max_depth as i32)..=max_depth as i32 {
            let (best_before, score_before) = (best, best_score);
            self.root_depth = depth;
            self.completing = depth == 1;
            // The iteration first searches a window around the last one's score (aspiration),
            // widened on the side the score falls out of until it falls inside.
            let mut delta = ASPIRATION;
            let mut window = if depth >= ASPIRATION_DEPTH && best_score.abs() < MATE_BOUND {
                (best_score - delta, best_score + delta)
            } else {
                (-INF, INF)
            };
            loop {
                let (found, alpha) = self.root_pass(ev, pos, &mut root_moves, depth, window);
                if let Some(i) = found {
                    // Moves that completed and beat the previous best are better, even when
                    // the iteration was cut short.
                    let m = root_moves.remove(i);
                    root_moves.insert(0, m);
                    best = m;
                    best_score = alpha;
                    best_pv.clone_from(&self.pv[0]);
                }
                if self.stopped {
                    break;
                }
                delta = delta.saturating_mul(2);
                if found.is_none() && window.0 > -INF {
                    window.0 = window.0.saturating_sub(delta).max(-INF);
                } else if alpha >= window.1 && window.1 < INF {
                    window.1 = window.1.saturating_add(delta).min(INF);
                } else {
                    break;
                }
            }
            if self.stopped {
                break;
            }
            completed = depth as u32;
            self.tt
                .store(pos.hash(), Some(best), best_score, depth as i16, Bound::Exact);
            if let Some(progress) = &limits.progress {
                progress(&Info {
                    depth: completed,
                    score: best_score,
                    nodes: self.nodes,
                    time: started.elapsed(),
                    pv: best_pv.clone(),
                });
            }
            if self.over_budget || super::mate_in(best_score).is_some_and(|n| n.unsigned_abs() <= depth as u32) {
                break;
            }
            let elapsed = started.elapsed();
            pace.completed(elapsed, best != best_before, score_before - best_score);
            if let Some(time) = limits.time {
                // On a clock, an iteration is started only if it is likely to end near the
                // target; a move's own time is used to the end.
                let target = limits.target.unwrap_or(time);
                if root_moves.len() == 1 || (!limits.fixed_time && !pace.starts_next(elapsed, target, time)) {
                    break;
                }
            }
        }
        SearchResult {
            best: Some(best),
            score: best_score,
            depth: completed,
            nodes: self.nodes,
            pv: best_pv,
        }
    }

    /// One pass over the root moves at `depth` within `window`: the index of the move whose
    /// score rose above the window's low end highest (if any), and that score. A score at
    /// or above the window's high end ends the pass. A pass that completes leaves the moves
    /// in the order of their scores (bounds for all but the best, which comes first).
    fn root_pass(
        &mut self,
        ev: &Eval,
        pos: &mut Position,
        root_moves: &mut Vec<Move>,
        depth: i32,
        (low, high): (i32, i32),
    ) -> (Option<usize>, i32) {
        let mut alpha = low;
        let mut found: Option<usize> = None;
        let mut scores = vec![-INF; root_moves.len()];
        for (i, &m) in root_moves.iter().enumerate() {
            let undo = self.play(ev, pos, &m, 0);
            let mut score;
            if i == 0 {
                score = -self.negamax(ev, pos, depth - 1, -high, -alpha, 1);
            } else {
                score = -self.negamax(ev, pos, depth - 1, -alpha - 1, -alpha, 1);
                if score > alpha && score < high && !self.stopped {
                    score = -self.negamax(ev, pos, depth - 1, -high, -alpha, 1);
                }
            }
            pos.unmake(&m, &undo);
            if self.stopped {
                break;
            }
            scores[i] = score;
            if score > alpha {
                alpha = score;
                found = Some(i);
                let (head, tail) = self.pv.split_at_mut(1);
                head[0].clear();
                head[0].push(m);
                head[0].extend_from_slice(&tail[0]);
                if score >= high {
                    break;
                }
            }
        }
        if !self.stopped {
            let mut order: Vec<(i32, Move)> = scores.into_iter().zip(root_moves.iter().copied()).collect();
            order.sort_by_key(|&(s, _)| std::cmp::Reverse(s));
            *root_moves = order.into_iter().map(|(_, m)| m).collect();
            found = found.map(|_| 0);
        }
        (found, alpha)
    }

    /// The evaluation of the node at `ply` for the side to move: [`Eval::evaluate`], with the
    /// board's material and square bonuses kept up to date move by move.
    fn evaluate(&mut self, ev: &Eval, pos: &Position, ply: usize) -> i32 {
        let key = pos.hash();
        let slot = &mut self.positional_cache[(key as usize) & (POSITIONAL_CACHE - 1)];
        let positional = if slot.0 == key {
            slot.1
        } else {
            let positional = ev.positional(pos);
            *slot = (key, positional);
            positional
        };
        self.lazy_margin = self.lazy_margin.max(positional.abs() + LAZY_SLACK);
        ev.for_side_to_move(pos, self.board_share[ply] + ev.hand_share(pos) + positional)
    }

    /// The evaluation where only its place against the window (`alpha`, `beta`) matters
    /// (lazy evaluation): when the material and square bonuses alone lie further outside the
    /// window than the positional terms have reached in this search (plus
    /// [`LAZY_SLACK`]), the runs of squares are not walked and the bound they give is
    /// returned instead (at most `alpha`, or at least `beta`).
    fn lazy_evaluate(&mut self, ev: &Eval, pos: &Position, ply: usize, alpha: i32, beta: i32) -> i32 {
        let cheap = ev.for_side_to_move(pos, self.board_share[ply] + ev.hand_share(pos));
        if cheap - self.lazy_margin >= beta {
            cheap - self.lazy_margin
        } else if cheap + self.lazy_margin <= alpha {
            cheap + self.lazy_margin
        } else {
            self.evaluate(ev, pos, ply)
        }
    }

    /// Makes `m` in the node at `ply` and brings the child's [`Eval::board_share`] up to date
    /// from the squares the move may change: its start, its destination and the squares it
    /// passes through, the squares between start and destination on a line, and, where pieces
    /// burn, the destination's neighbours.
    fn play(&mut self, ev: &Eval, pos: &mut Position, m: &Move, ply: usize) -> Undo {
        let mut changed = std::mem::take(&mut self.changed);
        changed.clear();
        let geo = ev.tables.geometry();
        let mut note = |sq: Sq| {
            if !changed.iter().any(|&(s, _)| s == sq) {
                changed.push((sq, pos.piece(sq)));
            }
        };
        m.from.into_iter().for_each(&mut note);
        note(m.to);
        m.via_squares().for_each(&mut note);
        if let Some(from) = m.from {
            let (a, b) = (geo.square(from), geo.square(m.to));
            let (df, dr) = (
                i32::from(b.file) - i32::from(a.file),
                i32::from(b.rank) - i32::from(a.rank),
            );
            if df == 0 || dr == 0 || df.abs() == dr.abs() {
                let (sf, sr) = (df.signum(), dr.signum());
                let mut sq = from;
                while let Some(next) = geo.step(sq, sf, sr).filter(|&next| next != m.to) {
                    note(next);
                    sq = next;
                }
            }
        }
        if ev.burners {
            ev.neighbours(m.to).for_each(&mut note);
        }
        let before: i32 = changed.iter().map(|&(sq, code)| ev.square_share(code, sq)).sum();
        let mover = pos.side_to_move();
        let undo = pos.make(m);
        let after: i32 = changed.iter().map(|&(sq, _)| ev.square_share(pos.piece(sq), sq)).sum();
        let took = changed
            .iter()
            .any(|&(sq, was)| was.is_some_and(|p| p.side() != mover) && pos.piece(sq) != was);
        self.arrivals[ply + 1] = Some(Arrival { to: m.to, took });
        self.changed = changed;
        self.board_share[ply + 1] = self.board_share[ply] - before + after;
        debug_assert_eq!(
            self.board_share[ply + 1],
            ev.board_share(pos),
            "a move changed a square not noted"
        );
        undo
    }

    /// Whether to stop now: out of nodes or out of time (except while completing the first
    /// iteration), or told to stop.
    #[inline]
    fn should_stop(&mut self) -> bool {
        if !self.stopped {
            if self.nodes >= self.max_nodes {
                self.over_budget = true;
            } else if self.nodes.is_multiple_of(CHECK_EVERY) {
                self.over_budget |= self.deadline.is_some_and(|deadline| Instant::now() >= deadline);
                self.stopped = self.stop.as_ref().is_some_and(|stop| stop.load(Ordering::Relaxed));
            }
            self.stopped |= self.over_budget && !self.completing;
        }
        self.stopped
    }

    fn negamax(&mut self, ev: &Eval, pos: &mut Position, mut depth: i32, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.pv[ply].clear();
        if self.should_stop() {
            return 0;
        }
        self.nodes += 1;
        if let Some(score) = terminal(ev, pos, ply) {
            return score;
        }
        if pos.repetitions() > 0 {
            return repetition_score(pos, ply);
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate(ev, pos, ply);
        }
        // No line can do better than a mate at once, or worse than being mated now.
        let mated_now = -MATE + ply as i32;
        let alpha_floor = alpha.max(mated_now);
        let beta_ceiling = beta.min(MATE - ply as i32 - 1);
        if alpha_floor >= beta_ceiling {
            return alpha_floor;
        }
        let pv_node = beta - alpha > 1;
        let side = pos.side_to_move();
        let in_check = last_royal_in_check(pos, side);
        if in_check && self.extends_check(ev, pos, depth, ply) {
            depth += 1;
        }
        if depth <= 0 {
            return self.quiesce(ev, pos, alpha, beta, ply, Recapture::ENTERED);
        }

        let key = pos.hash();
        let entry = self.tt.probe(key);
        let tt_move = entry.and_then(|e| e.mv);
        if let Some(e) = entry
            && !pv_node
            && i32::from(e.depth) >= depth
        {
            let score = from_tt(e.score, ply);
            match e.bound {
                Bound::Exact => return score,
                Bound::Lower if score >= beta => return score,
                Bound::Upper if score <= alpha => return score,
                _ => {}
            }
        }

        // Near the leaves, a standing score far enough above beta that no quiet move of the
        // opponent's is likely to bring it back is taken as a cut (reverse futility pruning).
        if !pv_node && !in_check && depth <= REVERSE_FUTILITY_DEPTH && beta.abs() < MATE_BOUND {
            let margin = REVERSE_FUTILITY_MARGIN * depth;
            if self.lazy_evaluate(ev, pos, ply, beta + margin - 1, beta + margin) >= beta + margin {
                return beta;
            }
        }
        if let Some(score) = self.null_move(ev, pos, depth, beta, ply, pv_node || in_check) {
            return score;
        }
        // A node the table knows no move for is searched a ply shallower: its first search
        // finds the move to try first for the next (internal iterative reduction).
        if tt_move.is_none() && depth >= IIR_DEPTH {
            depth -= 1;
        }

        let mut moves = std::mem::take(&mut self.moves[ply]);
        let mut scores = std::mem::take(&mut self.scores[ply]);
        let mut unweighed = std::mem::take(&mut self.unweighed[ply]);
        // Moves are checked for legality only as they come up (a node cut off early checks
        // no other).
        moves.clear();
        self.scratch.pseudo_moves(pos, &mut moves, LionCounting::Distinct);
        let legality = self.scratch.legality_ignoring_history(pos);
        if moves.is_empty() {
            self.moves[ply] = moves;
            self.scores[ply] = scores;
            self.unweighed[ply] = unweighed;
            return no_move_score(pos, pos.royal_in_check(side), ply);
        }
        self.score_moves(ev, pos, &moves, &mut scores, Some(&mut unweighed), tt_move, ply);

        // Near the leaves, quiet moves that give no check cannot lift a hopeless score to
        // alpha (futility pruning).
        let futile = if !pv_node && !in_check && depth <= 2 && alpha.abs() < MATE_BOUND {
            {
                let hopeless = alpha - FUTILITY_MARGIN * depth;
                Some(self.lazy_evaluate(ev, pos, ply, hopeless, hopeless + 1) + FUTILITY_MARGIN * depth)
            }
        } else {
            None
        };
        // Near the leaves, quiet moves after the first few are not searched (move-count
        // pruning), unless they give check.
        let late_moves = if !pv_node && !in_check && depth <= 2 && alpha.abs() < MATE_BOUND {
            LATE_MOVES[depth as usize]
        } else {
            usize::MAX
        };
        let mut quiets = 0;
        let mut tried_quiets = std::mem::take(&mut self.tried_quiets[ply]);
        tried_quiets.clear();
        let original_alpha = alpha;
        let mut best = -INF;
        let mut best_move = None;
        let mut legal = 0;
        for i in 0..moves.len() {
            self.pick_weighed(ev, pos, &mut moves, &mut scores, &mut unweighed, i);
            let m = moves[i];
            if !self.scratch.passes_legality(pos, &legality, &m) {
                continue;
            }
            let quiet = scores[i] < KILLER;
            // Where the opponent has other than one royal no move gives check: a late quiet
            // move is pruned without being made, and so is every move after it (they come
            // in the order of their scores, which weighing only lowers: all are quiet, and
            // prune alike), so none is picked.
            if legal > 0 && quiet && !in_check && pos.royal_squares(side.opponent()).len() != 1 {
                if let Some(optimistic) = futile
                    && optimistic <= alpha
                {
                    best = best.max(optimistic);
                    break;
                }
                if quiets >= late_moves {
                    break;
                }
            }
            let undo = self.play(ev, pos, &m, ply);
            // The repetition rule, where it forbids moves, is applied to the moves played.
            if pos.repetition_breach().is_err() {
                pos.unmake(&m, &undo);
                continue;
            }
            legal += 1;
            // Whether the move checks is asked only of late quiet moves, the ones pruned
            // or reduced (with slow attackers on the board the question is costly).
            let late_quiet = legal > 1 && quiet && !in_check;
            let gives_check = |pos: &Position| last_royal_in_check(pos, side.opponent());
            if let Some(optimistic) = futile
                && late_quiet
                && optimistic <= alpha
                && !gives_check(pos)
            {
                pos.unmake(&m, &undo);
                best = best.max(optimistic);
                continue;
            }
            if late_quiet && quiets >= late_moves && !gives_check(pos) {
                pos.unmake(&m, &undo);
                continue;
            }
            quiets += usize::from(quiet);
            let mut score;
            if legal == 1 {
                score = -self.negamax(ev, pos, depth - 1, -beta, -alpha, ply + 1);
            } else {
                let mut r = if late_quiet && depth >= 3 {
                    i32::from(self.lmr[(depth as usize).min(63)][i.min(63)]).min(depth - 2)
                } else {
                    0
                };
                if r > 0 && gives_check(pos) {
                    r = 0;
                }
                score = -self.negamax(ev, pos, depth - 1 - r, -alpha - 1, -alpha, ply + 1);
                if score > alpha && r > 0 && !self.stopped {
                    score = -self.negamax(ev, pos, depth - 1, -alpha - 1, -alpha, ply + 1);
                }
                if score > alpha && score < beta && !self.stopped {
                    score = -self.negamax(ev, pos, depth - 1, -beta, -alpha, ply + 1);
                }
            }
            pos.unmake(&m, &undo);
            if self.stopped {
                self.moves[ply] = moves;
                self.scores[ply] = scores;
                self.unweighed[ply] = unweighed;
                self.tried_quiets[ply] = tried_quiets;
                return 0;
            }
            let rewardable = !is_capture(ev, pos, &m) && !m.promote;
            if score > best {
                best = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(m);
                    head[ply].extend_from_slice(&tail[0]);
                    if score >= beta {
                        if rewardable {
                            self.reward_quiet(ev, pos, &m, &tried_quiets, depth, ply);
                        }
                        break;
                    }
                }
            }
            if rewardable {
                tried_quiets.push(m);
            }
        }
        self.moves[ply] = moves;
        self.scores[ply] = scores;
        self.unweighed[ply] = unweighed;
        self.tried_quiets[ply] = tried_quiets;
        if legal == 0 {
            return no_move_score(pos, pos.royal_in_check(side), ply);
        }

        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(key, best_move, to_tt(best, ply), depth as i16, bound);
        best
    }

    /// Null-move pruning: when giving the opponent a free move still leaves the side to move
    /// at or above beta in a shallower search, the node is cut. Not in principal-variation
    /// nodes or in check, not twice in a row, nor with fewer than [`NULL_MOVE_PIECES`]
    /// pieces besides the royals (where zugzwang is likelier). The free move is
    /// [`Position::make_null`], which changes nothing but the side to move.
    fn null_move(
        &mut self,
        ev: &Eval,
        pos: &mut Position,
        depth: i32,
        beta: i32,
        ply: usize,
        excluded: bool,
    ) -> Option<i32> {
        if excluded
            || depth < 3
            || self.after_null[ply]
            || beta.abs() >= MATE_BOUND
            || self.evaluate(ev, pos, ply) < beta
        {
            return None;
        }
        if !has_null_move_pieces(ev, pos) {
            return None;
        }
        let reduction = 2 + depth / 4;
        self.arrivals[ply + 1] = None;
        let undo = pos.make_null();
        self.board_share[ply + 1] = self.board_share[ply];
        self.after_null[ply + 1] = true;
        let score = -self.negamax(ev, pos, depth - 1 - reduction, -beta, -beta + 1, ply + 1);
        self.after_null[ply + 1] = false;
        pos.unmake_null(&undo);
        (score >= beta && !self.stopped).then_some(beta)
    }

    /// Whether checks met at `ply` may be extended: within twice the iteration's depth (and
    /// two plies more), so that checks cannot make a line endless.
    fn extends_checks(&self, ply: usize) -> bool {
        ply < 2 * self.root_depth as usize + 2
    }

    /// Whether the check the side to move is in, at `ply` with `depth` left, is extended:
    /// at the horizon always (the side in check answers it, every evasion searched one
    /// ply), above it only when the check is safe by exchange: the move that gave it took a
    /// piece, or the side in check cannot win the piece that moved by taking it. A check that
    /// gives its piece away (drops make them many) costs its line a ply like any other move.
    fn extends_check(&mut self, ev: &Eval, pos: &mut Position, depth: i32, ply: usize) -> bool {
        if !self.extends_checks(ply) {
            return false;
        }
        depth <= 0
            || match self.arrivals[ply] {
                Some(arrival) => arrival.took || self.take_back(ev, pos, arrival.to) <= 0,
                None => true,
            }
    }

    /// Captures only, from a standing score, to the end of the exchanges (after
    /// [`QUIESCE_ALL_PLIES`] captures, only those that take back on the last one's square,
    /// generated from the square's attackers): captures that lose material by static
    /// exchange are not searched, nor those that could not bring
    /// the score near alpha even winning what they take for nothing (delta pruning). Moves
    /// are checked for the safety of the only royal; Chu's Lion-trading rules are not
    /// applied here (the moves searched at full depth are all legal). A side whose only
    /// royal is in check does not stand on its score (it may be mated): where checks are
    /// extended, the node is searched as one of the main search at no depth, which the
    /// check extension makes one ply, every evasion.
    fn quiesce(
        &mut self,
        ev: &Eval,
        pos: &mut Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        recapture: Recapture,
    ) -> i32 {
        self.pv[ply].clear();
        if self.should_stop() {
            return 0;
        }
        if !self.over_budget && self.extends_checks(ply) && last_royal_in_check(pos, pos.side_to_move()) {
            return self.negamax(ev, pos, 0, alpha, beta, ply);
        }
        self.nodes += 1;
        if let Some(score) = terminal(ev, pos, ply) {
            return score;
        }
        let stand = self.lazy_evaluate(ev, pos, ply, alpha, beta);
        // Completing the first iteration out of time or nodes: no more captures are tried.
        if stand >= beta || ply >= MAX_PLY - 1 || self.over_budget {
            return stand;
        }
        alpha = alpha.max(stand);

        let side = pos.side_to_move();
        let mut moves = std::mem::take(&mut self.moves[ply]);
        let mut scores = std::mem::take(&mut self.scores[ply]);
        let mut unweighed = std::mem::take(&mut self.unweighed[ply]);
        match recapture.only_on {
            None => self.scratch.pseudo_captures(pos, &mut moves, LionCounting::Distinct),
            Some(sq) => self.captures_of(pos, sq, &mut moves),
        }
        scores.clear();
        unweighed.clear();
        let mut kept = 0;
        let mut sweep = None;
        for i in 0..moves.len() {
            let m = moves[i];
            let taken = capture_gain_along(ev, pos, &m, side, &mut sweep);
            // A move that takes only pieces of its own side is no capture, and one that takes
            // as much of its own side as of the opponent's cannot win by exchange.
            if !taken.captures() || taken.own >= taken.order {
                continue;
            }
            // Even winning the piece for nothing would not reach alpha.
            if taken.order < super::eval::ROYAL_ORDER && stand + taken.gain + DELTA_MARGIN <= alpha {
                continue;
            }
            let mover = m.from.and_then(|from| pos.piece(from)).map_or(0, |p| p.kind().index());
            moves[kept] = m;
            scores.push(taken.order * 8 - ev.value[mover] / 8);
            unweighed.push(taken.to_weigh(ev.order_value[mover]));
            kept += 1;
        }
        moves.truncate(kept);

        let guard = !pos.rules().end.royal_capture_allowed && pos.royal_squares(side).len() == 1;
        let mut best = stand;
        let mut i = 0;
        while let Some(m) = self.pick_not_losing(ev, pos, &mut moves, &mut scores, &mut unweighed, i) {
            i += 1;
            let undo = self.play(ev, pos, &m, ply);
            if guard && pos.royal_in_check(side) {
                pos.unmake(&m, &undo);
                continue;
            }
            let score = -self.quiesce(ev, pos, -beta, -alpha, ply + 1, recapture.after(&m));
            pos.unmake(&m, &undo);
            if self.stopped {
                self.moves[ply] = moves;
                self.scores[ply] = scores;
                self.unweighed[ply] = unweighed;
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.moves[ply] = moves;
        self.scores[ply] = scores;
        self.unweighed[ply] = unweighed;
        best
    }

    /// The moves of the side to move that take the piece on `sq`, into `out`: the moves of
    /// the pieces that attack it (found by the position's attack detection), in the board's
    /// order.
    fn captures_of(&mut self, pos: &Position, sq: Sq, out: &mut Vec<Move>) {
        out.clear();
        let mut attackers = std::mem::take(&mut self.exchange_attackers);
        let mut moves = std::mem::take(&mut self.exchange_moves);
        pos.attackers(sq, pos.side_to_move(), &mut attackers);
        for &from in &attackers {
            self.scratch
                .pseudo_moves_from(pos, from, &mut moves, LionCounting::Distinct);
            out.extend(moves.iter().filter(|m| pos.taken(m).any(|t| t == sq)));
        }
        self.exchange_attackers = attackers;
        self.exchange_moves = moves;
    }

    /// The quiescence search's next capture, brought to index `i` (the best score, the first
    /// of equals, swapped into place) among the captures that do not lose by exchange (`None` when none is left). Captures are
    /// weighed by exchange only as they come up, and those that lose are taken out of the
    /// list, the others keeping their places: a capture is swapped out of its place only
    /// once weighed, so the list is at each step the one that weighing all first gives.
    fn pick_not_losing(
        &mut self,
        ev: &Eval,
        pos: &mut Position,
        moves: &mut Vec<Move>,
        scores: &mut Vec<i32>,
        unweighed: &mut Vec<bool>,
        i: usize,
    ) -> Option<Move> {
        while i < moves.len() {
            let j = if unweighed[i] { i } else { best_index(scores, i) };
            if !unweighed[j] {
                moves.swap(i, j);
                scores.swap(i, j);
                unweighed.swap(i, j);
                return Some(moves[i]);
            }
            unweighed[j] = false;
            if self.exchange(ev, pos, &moves[j]) < 0 {
                moves.remove(j);
                scores.remove(j);
                unweighed.remove(j);
            }
        }
        None
    }

    /// Fills `scores` with each move's ordering score. With `unweighed`, the exchange
    /// evaluations of captures are left for [`Searcher::pick_weighed`] (marked there);
    /// without, they are made now.
    #[allow(clippy::too_many_arguments)]
    fn score_moves(
        &mut self,
        ev: &Eval,
        pos: &mut Position,
        moves: &[Move],
        scores: &mut Vec<i32>,
        mut unweighed: Option<&mut Vec<bool>>,
        tt: Option<Move>,
        ply: usize,
    ) {
        scores.clear();
        if let Some(marks) = unweighed.as_deref_mut() {
            marks.clear();
        }
        let mut sweep = None;
        for m in moves {
            let (mut score, to_weigh) = self.order_score(ev, pos, m, tt, ply, &mut sweep);
            match unweighed.as_deref_mut() {
                Some(marks) => marks.push(to_weigh),
                None if to_weigh => score = self.weighed(ev, pos, m, score),
                None => {}
            }
            scores.push(score);
        }
    }

    /// The ordering score of a capture once weighed by exchange: a losing capture's if it
    /// loses material, else its score as it was.
    fn weighed(&mut self, ev: &Eval, pos: &mut Position, m: &Move, score: i32) -> i32 {
        let exchange = self.exchange(ev, pos, m);
        if exchange < 0 {
            LOSING_CAPTURE + exchange.max(-10_000_000)
        } else {
            score
        }
    }

    /// Brings the best remaining move (by score, the first of equals) to index `i`, weighing
    /// by exchange each capture that comes up first until the move that comes up is weighed: the order is the one all weighed at once would give (a capture's
    /// score only falls when weighed), and a node cut off early weighs only the captures it
    /// tried.
    fn pick_weighed(
        &mut self,
        ev: &Eval,
        pos: &mut Position,
        moves: &mut [Move],
        scores: &mut [i32],
        unweighed: &mut [bool],
        i: usize,
    ) {
        loop {
            let best = best_index(scores, i);
            if !unweighed[best] {
                moves.swap(i, best);
                scores.swap(i, best);
                unweighed.swap(i, best);
                return;
            }
            unweighed[best] = false;
            scores[best] = self.weighed(ev, pos, &moves[best], scores[best]);
        }
    }

    /// One move's ordering score: the table's move, captures that do not lose material by
    /// most valuable victim / least valuable attacker, promotions, killers, captures that
    /// lose material, then quiet moves by history.
    /// Also whether the score awaits the capture's exchange evaluation: a capture by a piece
    /// worth more than its victims is scored as if the exchange did not lose.
    fn order_score(
        &mut self,
        ev: &Eval,
        pos: &mut Position,
        m: &Move,
        tt: Option<Move>,
        ply: usize,
        sweep: &mut Option<Sweep>,
    ) -> (i32, bool) {
        if tt == Some(*m) {
            return (TT_MOVE, false);
        }
        let side = pos.side_to_move();
        let mover = mover_kind(pos, m);
        let promotion = if m.promote { ev.promote_gain[mover.index()] } else { 0 };
        let taken = if m.is_drop() {
            Taken {
                gain: 0,
                order: 0,
                own: 0,
            }
        } else {
            capture_gain_along(ev, pos, m, side, sweep)
        };
        let victims = taken.order;
        let to_weigh = taken.captures() && taken.to_weigh(ev.order_value[mover.index()]);
        let killers = self.killers[ply];
        let score = if victims > 0 {
            CAPTURE + victims.min(10_000_000) * 8 + promotion - ev.value[mover.index()] / 8
        } else if m.promote {
            PROMOTION + promotion
        } else if killers[0] == Some(*m) {
            KILLER + 1
        } else if killers[1] == Some(*m) {
            KILLER
        } else if taken.own > 0 {
            // Takes pieces of its own side only: after every quiet move.
            -taken.own.min(10_000_000)
        } else {
            self.history[history_index(ev, mover, side, m.to)] + SQUARE_GAIN_WEIGHT * square_gain(ev, pos, m)
        };
        (score, to_weigh)
    }

    /// Static exchange evaluation of the capture `m`: what the side to move gains (in
    /// ordering values: a royal is worth more than everything) when, after `m`, both sides
    /// take back on its square with their least valuable piece for as long as it pays.
    /// The pieces that can take back are found by the position's own attack detection and
    /// move generation, so every movement of every variant counts. Only its sign is used: a
    /// capture that wins whatever is taken back is told by a lower bound of the same sign.
    fn exchange(&mut self, ev: &Eval, pos: &mut Position, m: &Move) -> i32 {
        let side = pos.side_to_move();
        let mut gain = 0;
        // A range capture may take pieces of the mover's side too: they count against it.
        for sq in pos.taken(m) {
            if let Some(piece) = pos.piece(sq) {
                let value = ev.order_value[piece.kind().index()];
                gain += if piece.side() != side { value } else { -value };
            }
        }
        if m.promote {
            gain += ev.promote_gain[mover_kind(pos, m).index()];
        }
        let undo = pos.make(m);
        // What taking back can win at most: the piece that moved, and a promotion of the piece
        // that takes it. A capture gaining more than that wins however the exchange goes: the
        // attackers are not looked for (on the largest boards, the costliest part), and the
        // gain is told less that bound, which keeps its sign.
        let most_lost = pos
            .piece(m.to)
            .map_or(0, |p| ev.order_value[p.kind().index()])
            .saturating_add(ev.most_promote_gain);
        let lost = if gain > most_lost {
            most_lost
        } else {
            self.take_back(ev, pos, m.to)
        };
        pos.unmake(m, &undo);
        gain - lost
    }

    /// What the side to move gains by taking the piece on `sq` with its least valuable
    /// piece that can, and the exchange going on from there (0 when it does not pay).
    fn take_back(&mut self, ev: &Eval, pos: &mut Position, sq: Sq) -> i32 {
        let side = pos.side_to_move();
        let Some(piece) = pos.piece(sq) else {
            return 0;
        };
        let victim = piece.kind();
        if piece.side() == side {
            return 0;
        }
        let Some(c) = self.cheapest_capture(ev, pos, sq) else {
            return 0;
        };
        let mut gain = ev.order_value[victim.index()];
        if c.promote {
            gain += ev.promote_gain[mover_kind(pos, &c).index()];
        }
        let undo = pos.make(&c);
        let lost = self.take_back(ev, pos, sq);
        pos.unmake(&c, &undo);
        (gain - lost).max(0)
    }

    /// The capture on `sq` by the least valuable piece of the side to move that can take
    /// there, promoting where it may choose (the first such move in the order of generation).
    /// The pieces that attack the square are found by the position's attack detection (the
    /// slow attackers looked for only when they could be the cheapest), and only their moves
    /// are generated, the cheapest first.
    fn cheapest_capture(&mut self, ev: &Eval, pos: &mut Position, sq: Sq) -> Option<Move> {
        let side = pos.side_to_move();
        let mut attackers = std::mem::take(&mut self.exchange_attackers);
        let mut moves = std::mem::take(&mut self.exchange_moves);
        let value = |pos: &Position, from: Sq| pos.piece(from).map_or(0, |p| ev.order_value[p.kind().index()]);
        // The attackers looked up in tables first: when one is worth less than any slow
        // attacker, the slow attackers (the costliest to look for) cannot be the cheapest.
        pos.attackers_looked_up(sq, side, &mut attackers);
        let cheapest_looked_up = attackers.iter().map(|&from| value(pos, from)).min();
        if cheapest_looked_up.is_none_or(|v| v >= ev.least_slow_order) {
            pos.add_slow_attackers(sq, side, &mut attackers);
        }
        // Stable: the board's order within one value.
        attackers.sort_by_key(|&from| value(pos, from));
        let mut found: Option<Move> = None;
        let mut group = None;
        for &from in &attackers {
            let v = value(pos, from);
            if found.is_some() && group != Some(v) {
                break;
            }
            group = Some(v);
            self.scratch
                .pseudo_moves_from(pos, from, &mut moves, LionCounting::Distinct);
            for c in moves.iter().filter(|c| c.to == sq) {
                if found.is_none_or(|f| c.promote && !f.promote) {
                    found = Some(*c);
                }
            }
        }
        self.exchange_attackers = attackers;
        self.exchange_moves = moves;
        found
    }

    /// A quiet move `m` caused a cut-off after the quiet moves `tried` were searched in
    /// vain: it becomes the ply's first killer, and its history gains what theirs lose.
    fn reward_quiet(&mut self, ev: &Eval, pos: &Position, m: &Move, tried: &[Move], depth: i32, ply: usize) {
        let killers = &mut self.killers[ply];
        if killers[0] != Some(*m) {
            killers[1] = killers[0];
            killers[0] = Some(*m);
        }
        let side = pos.side_to_move();
        let bonus = depth * depth;
        let index = history_index(ev, mover_kind(pos, m), side, m.to);
        self.history[index] += bonus;
        let mut largest = self.history[index].abs();
        for t in tried {
            let index = history_index(ev, mover_kind(pos, t), side, t.to);
            self.history[index] -= bonus;
            largest = largest.max(self.history[index].abs());
        }
        if largest >= HISTORY_MAX {
            for h in &mut self.history {
                *h /= 2;
            }
        }
    }
}

/// Where the move into a node went, and whether it took a piece of the opponent's.
#[derive(Debug, Clone, Copy)]
struct Arrival {
    to: Sq,
    took: bool,
}

/// The quiescence plies in which every capture is searched; below them, only the captures
/// that take the piece that made the last capture (the exchange on its square goes on, other
/// exchanges are judged by the standing score).
const QUIESCE_ALL_PLIES: u8 = 3;

/// Where a quiescence node stands in its exchanges: how many captures led to it since the
/// quiescence search began, and, once past [`QUIESCE_ALL_PLIES`], the square whose piece the
/// next capture must take.
#[derive(Debug, Clone, Copy)]
struct Recapture {
    plies: u8,
    only_on: Option<Sq>,
}

impl Recapture {
    /// The first node of a quiescence search: every capture.
    const ENTERED: Recapture = Recapture {
        plies: 0,
        only_on: None,
    };

    /// The child's after the capture `m`.
    fn after(self, m: &Move) -> Recapture {
        let plies = self.plies.saturating_add(1);
        Recapture {
            plies,
            only_on: (plies >= QUIESCE_ALL_PLIES).then_some(m.to),
        }
    }
}

/// On a clock, what the root knows of the iterations so far to decide whether to start
/// another: when each ended, whether the last changed the best move or lowered the score,
/// and for how many the best move has stood.
#[derive(Debug, Default)]
struct Pace {
    /// The time since the search started at the end of each completed iteration.
    ends: Vec<Duration>,
    /// The last iteration changed the best move.
    changed: bool,
    /// The last iteration's score fell by at least [`PACE_FALL`].
    fell: bool,
    /// How many iterations in a row (the last included) kept the best move.
    stable: u32,
}

/// An iteration costs at least this many times the one before it, at most the second.
const PACE_GROWTH: (f64, f64) = (1.5, 4.0);
/// What an iteration is assumed to cost against the one before when there is none to tell
/// (or the last took under a millisecond, too short to measure).
const PACE_DEFAULT_GROWTH: f64 = 2.5;
/// A fall in score, in centipawns, that makes the search take longer over a move.
const PACE_FALL: i32 = 30;
/// The budget, as a share of the target: after an iteration that changed the best move,
/// after one whose score fell, and once the best move has stood for [`PACE_STABLE`]
/// iterations.
const PACE_CHANGED: f64 = 1.4;
const PACE_FALLEN: f64 = 1.3;
const PACE_SETTLED: f64 = 0.7;
const PACE_STABLE: u32 = 4;

impl Pace {
    /// An iteration completed `elapsed` after the search started; it changed the best move
    /// or not, and its score is `fall` below the last one's.
    fn completed(&mut self, elapsed: Duration, changed: bool, fall: i32) {
        self.ends.push(elapsed);
        self.changed = changed && self.ends.len() > 1;
        self.fell = fall >= PACE_FALL && self.ends.len() > 1;
        self.stable = if changed { 1 } else { self.stable + 1 };
    }

    /// What the next iteration is likely to take: the last one's time, times its growth
    /// over the one before (within [`PACE_GROWTH`]).
    fn predicted_next(&self) -> Duration {
        let n = self.ends.len();
        let cost = |i: usize| self.ends[i] - if i == 0 { Duration::ZERO } else { self.ends[i - 1] };
        let Some(last) = n.checked_sub(1).map(cost) else {
            return Duration::ZERO;
        };
        let growth = match n.checked_sub(2).map(cost) {
            Some(before) if before >= Duration::from_millis(1) => {
                (last.as_secs_f64() / before.as_secs_f64()).clamp(PACE_GROWTH.0, PACE_GROWTH.1)
            }
            _ => PACE_DEFAULT_GROWTH,
        };
        last.mul_f64(growth)
    }

    /// The time the move should take, from its `target`: more when the last iteration
    /// changed the best move or its score fell, less once the best move has stood for
    /// [`PACE_STABLE`] iterations; never more than `most`.
    fn budget(&self, target: Duration, most: Duration) -> Duration {
        let mut share = 1.0;
        if self.changed {
            share *= PACE_CHANGED;
        }
        if self.fell {
            share *= PACE_FALLEN;
        }
        if !self.changed && !self.fell && self.stable >= PACE_STABLE {
            share *= PACE_SETTLED;
        }
        target.mul_f64(share).min(most)
    }

    /// Whether to start another iteration `elapsed` after the search started: when it is
    /// likely to be half done within the budget ([`Pace::budget`]). One begun may run on to
    /// `most`, the search's hard bound, and its moves that completed count.
    fn starts_next(&self, elapsed: Duration, target: Duration, most: Duration) -> bool {
        elapsed + self.predicted_next() / 2 <= self.budget(target, most)
    }
}

/// The fewest pieces besides the royals a side has for null-move pruning.
const NULL_MOVE_PIECES: usize = 3;

/// Whether the side to move has at least [`NULL_MOVE_PIECES`] pieces on the board besides
/// its royals.
fn has_null_move_pieces(ev: &Eval, pos: &Position) -> bool {
    let side = pos.side_to_move();
    let count = (0..ev.squares.len())
        .filter_map(|i| pos.piece(Sq::new(i)))
        .filter(|piece| piece.side() == side && !ev.is_royal(piece.kind()))
        .take(NULL_MOVE_PIECES)
        .count();
    count >= NULL_MOVE_PIECES
}

/// By depth left (1 and 2), how many quiet moves a node that is not on the principal
/// variation searches before it prunes the quiet moves that give no check.
const LATE_MOVES: [usize; 3] = [usize::MAX, 8, 16];

/// How much a quiet move is assumed to gain at most, per ply of depth left, when pruning
/// near the leaves.
const FUTILITY_MARGIN: i32 = 200;

/// The first iteration that searches a window around the last one's score.
const ASPIRATION_DEPTH: i32 = 4;

/// The aspiration window's half-width at first, in centipawns (doubled at each widening).
const ASPIRATION: i32 = 40;

/// The deepest nodes (in plies left) cut by reverse futility pruning.
const REVERSE_FUTILITY_DEPTH: i32 = 5;

/// How far above beta, per ply of depth left, a standing score must be for reverse futility
/// pruning.
const REVERSE_FUTILITY_MARGIN: i32 = 120;

/// The shallowest nodes (in plies left) searched a ply shallower when the table knows no
/// move for them.
const IIR_DEPTH: i32 = 4;

/// The slots of the positional terms' cache (a power of two).
const POSITIONAL_CACHE: usize = 1 << 16;

/// What the lazy evaluation's margin adds to the most the positional terms have reached.
const LAZY_SLACK: i32 = 100;

/// A capture that cannot bring the score within this much of alpha is skipped.
const DELTA_MARGIN: i32 = 200;

/// The kind that moves (or is dropped).
fn mover_kind(pos: &Position, m: &Move) -> PieceId {
    m.drop
        .or_else(|| m.from.and_then(|from| pos.piece(from)).map(|p| p.kind()))
        .unwrap_or(PieceId(0))
}

fn history_index(ev: &Eval, kind: PieceId, side: Side, to: crate::game::Sq) -> usize {
    (kind.index() * 2 + side.index()) * ev.squares.len() + to.index()
}

/// How much the square bonus a quiet move gains counts in its ordering, beside the history
/// of cut-offs (which grows by the square of the depth with each).
const SQUARE_GAIN_WEIGHT: i32 = 4;

/// What a board move gains in square bonus for the side that makes it (0 for a drop): among
/// quiet moves equal in history, those that improve the piece's square come first.
fn square_gain(ev: &Eval, pos: &Position, m: &Move) -> i32 {
    let Some(from) = m.from else {
        return 0;
    };
    let piece = pos.piece(from);
    let black = ev.square_share(piece, m.to) - ev.square_share(piece, from);
    ev.for_side_to_move(pos, black)
}

/// What a move removes from the board besides the mover: the pieces of both sides, weighed.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Taken {
    /// The value gained: the opponent's pieces, each with the piece the capturer then holds
    /// where captured pieces go to the hand (`Eval::captured_value`), and the promotion when
    /// it takes one; less the pieces of the mover's own side a range capture or burning takes.
    gain: i32,
    /// The ordering value of the opponent's pieces taken (0 when it takes none).
    order: i32,
    /// The ordering value of the mover's own pieces taken.
    own: i32,
}

impl Taken {
    /// Nothing taken.
    const NOTHING: Taken = Taken {
        gain: 0,
        order: 0,
        own: 0,
    };

    /// Counts the piece on `sq` (if any), taken by a move of `side`.
    fn add(&mut self, ev: &Eval, pos: &Position, sq: Sq, side: Side) {
        let Some(piece) = pos.piece(sq) else {
            return;
        };
        let kind = piece.kind();
        if piece.side() != side {
            self.gain += ev.captured_value[kind.index()];
            self.order += ev.order_value[kind.index()].max(1);
        } else {
            self.gain -= ev.value[kind.index()];
            self.own += ev.order_value[kind.index()].max(1);
        }
    }

    /// What was taken by `m`, with its promotion's gain when it takes a piece of the opponent.
    fn promoting(mut self, ev: &Eval, pos: &Position, m: &Move) -> Taken {
        if self.captures() && m.promote {
            self.gain += ev.promote_gain[mover_kind(pos, m).index()];
        }
        self
    }

    /// Whether the move takes at least one piece of the opponent.
    fn captures(self) -> bool {
        self.order > 0
    }

    /// Whether the move needs an exchange evaluation before it is trusted not to lose: it
    /// takes pieces of its own side, or a piece worth more than its victims makes it.
    fn to_weigh(self, mover_order: i32) -> bool {
        self.own > 0 || self.order < mover_order
    }
}

/// What a move takes, of both sides (see [`Taken`]).
fn capture_gain(ev: &Eval, pos: &Position, m: &Move, side: Side) -> Taken {
    let mut taken = Taken::NOTHING;
    if m.via[0].is_none() && !m.sweep && !m.is_drop() {
        // A plain move takes at most the piece on its destination.
        if m.from != Some(m.to) {
            taken.add(ev, pos, m.to, side);
        }
        return taken.promoting(ev, pos, m);
    }
    for sq in pos.taken(m) {
        taken.add(ev, pos, sq, side);
    }
    taken.promoting(ev, pos, m)
}

/// A sweep already weighed: its origin, its step along the line, its destination, and what
/// it takes before promotion.
#[derive(Debug, Clone, Copy)]
struct Sweep {
    from: Sq,
    step: (i32, i32),
    to: Sq,
    taken: Taken,
}

/// What a move takes, as [`capture_gain`] counts it, for the moves of one node in their order
/// of generation: a sweep ([`Move::sweep`]) along the line of the last sweep weighed (`last`),
/// from the same square and no shorter, takes what that one took and the pieces between the two
/// destinations, so only those are looked at (the sweeps to a line's successive stops walk it
/// once, not once each).
fn capture_gain_along(ev: &Eval, pos: &Position, m: &Move, side: Side, last: &mut Option<Sweep>) -> Taken {
    let geo = pos.geometry();
    let Some((from, step)) = m
        .from
        .filter(|_| m.sweep)
        .and_then(|from| Some((from, line_step(geo, from, m.to)?)))
    else {
        return capture_gain(ev, pos, m, side);
    };
    let reach = |to: Sq| {
        let (a, b) = (geo.square(from), geo.square(to));
        (i32::from(b.file) - i32::from(a.file))
            .abs()
            .max((i32::from(b.rank) - i32::from(a.rank)).abs())
    };
    let (mut taken, start) = match *last {
        Some(s) if s.from == from && s.step == step && reach(s.to) <= reach(m.to) => (s.taken, s.to),
        _ => (Taken::NOTHING, from),
    };
    for sq in geo.line_to(start, m.to).filter(|&sq| pos.piece(sq).is_some()) {
        taken.add(ev, pos, sq, side);
    }
    *last = Some(Sweep {
        from,
        step,
        to: m.to,
        taken,
    });
    taken.promoting(ev, pos, m)
}

/// The step (files, ranks; each -1, 0 or 1) from `from` along a straight or diagonal line
/// to `to` (`None` when they are not on one, or are the same square).
fn line_step(geo: crate::game::Geometry, from: Sq, to: Sq) -> Option<(i32, i32)> {
    let (a, b) = (geo.square(from), geo.square(to));
    let (df, dr) = (
        i32::from(b.file) - i32::from(a.file),
        i32::from(b.rank) - i32::from(a.rank),
    );
    let aligned = (df == 0 || dr == 0 || df.abs() == dr.abs()) && (df, dr) != (0, 0);
    aligned.then_some((df.signum(), dr.signum()))
}

fn is_capture(ev: &Eval, pos: &Position, m: &Move) -> bool {
    !m.is_drop() && capture_gain(ev, pos, m, pos.side_to_move()).captures()
}

/// The index of the best score from `i` on (the first of equals).
#[inline]
fn best_index(scores: &[i32], i: usize) -> usize {
    let mut best = i;
    for j in i + 1..scores.len() {
        if scores[j] > scores[best] {
            best = j;
        }
    }
    best
}

/// The game's end for the side to move, when it has ended whatever the moves: no royal
/// left, a check given where the first check wins, the try, extinction, or the bare-king
/// rule.
fn terminal(ev: &Eval, pos: &Position, ply: usize) -> Option<i32> {
    let side = pos.side_to_move();
    if ev.has_royals && pos.royal_squares(side).is_empty() {
        return Some(-MATE + ply as i32);
    }
    if ev.check_wins && pos.royal_in_check(side) {
        return Some(-MATE + ply as i32);
    }
    if let Some(winner) = pos.try_winner() {
        return Some(if winner == side {
            MATE - ply as i32
        } else {
            -MATE + ply as i32
        });
    }
    if let Some((extinct, verdict)) = pos.extinct() {
        return Some(match verdict_winner(extinct, verdict) {
            Some(winner) if winner == side => MATE - ply as i32,
            Some(_) => -MATE + ply as i32,
            None => 0,
        });
    }
    if ev.bare_king {
        return match (pos.is_bare(side), pos.is_bare(side.opponent())) {
            (true, true) => Some(0),
            (false, true) => Some(MATE - ply as i32),
            (true, false) => Some(-MATE + ply as i32),
            (false, false) => None,
        };
    }
    None
}

/// Whether `side` has one royal piece and it is attacked: a check that must be answered, for
/// the search's check extension and its pruning. A side with more royals may leave one
/// attacked (it loses the game only with the last), so that is no such check.
fn last_royal_in_check(pos: &Position, side: Side) -> bool {
    pos.royal_squares(side).len() == 1 && pos.royal_in_check(side)
}

/// The score when the side to move has no legal move: checkmate, or stalemate as the
/// rules say.
fn no_move_score(pos: &Position, in_check: bool, ply: usize) -> i32 {
    let lost = -MATE + ply as i32;
    if in_check {
        return lost;
    }
    match pos.rules().end.stalemate {
        Verdict::Loss => lost,
        Verdict::Win => -lost,
        Verdict::Draw => 0,
    }
}

/// Mate scores are stored relative to the node, not the root.
/// A position met again on the path: a draw, unless the repetition came from continuous
/// checks where the rules make perpetual check lose; then a loss for the checking side, as
/// certain as a mate.
fn repetition_score(pos: &Position, ply: usize) -> i32 {
    match pos.perpetual_checker() {
        Some(checker) if checker == pos.side_to_move() => -MATE + ply as i32,
        Some(_) => MATE - ply as i32,
        None => 0,
    }
}

fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::compile::compile_named;
    use crate::game::MoveTables;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    /// Iterations that ended at `ends` (in milliseconds), each keeping the best move and
    /// the score.
    fn pace(ends: &[u64]) -> Pace {
        let mut pace = Pace::default();
        for &end in ends {
            pace.completed(ms(end), false, 0);
        }
        pace
    }

    /// The next iteration is predicted to cost the last one's time times its growth over
    /// the one before, within 1.5 and 4 times.
    #[test]
    fn the_next_iteration_costs_the_last_times_its_growth() {
        assert_eq!(pace(&[10, 30]).predicted_next(), ms(40));
        assert_eq!(pace(&[10, 12]).predicted_next(), ms(3));
        assert_eq!(pace(&[10, 110]).predicted_next(), ms(400));
        assert_eq!(pace(&[8]).predicted_next(), ms(20));
    }

    /// On a clock an iteration is started when it is likely to be half done within the
    /// target, not past it.
    #[test]
    fn an_iteration_starts_when_half_of_it_fits_in_the_target() {
        let (target, most) = (ms(100), ms(400));
        assert!(pace(&[10, 30]).starts_next(ms(30), target, most));
        assert!(pace(&[20, 60]).starts_next(ms(60), target, most));
        assert!(!pace(&[25, 75]).starts_next(ms(75), target, most));
    }

    /// An iteration that changed the best move, or whose score fell, earns the move more
    /// time; a best move that has stood four iterations, less; never past the hard bound.
    #[test]
    fn a_changed_best_move_or_a_falling_score_takes_longer_a_settled_one_shorter() {
        let (target, most) = (ms(100), ms(400));
        let mut changed = pace(&[25]);
        changed.completed(ms(75), true, 0);
        assert!(changed.starts_next(ms(75), target, most));
        assert!(!changed.starts_next(ms(75), target, ms(120)));
        let mut fallen = pace(&[25]);
        fallen.completed(ms(75), false, PACE_FALL);
        assert!(fallen.starts_next(ms(75), target, most));
        let settled = pace(&[5, 12, 25, 50]);
        assert_eq!(settled.budget(target, most), ms(70));
        assert!(!settled.starts_next(ms(50), target, most));
        assert!(pace(&[12, 25, 50]).starts_next(ms(50), target, most));
    }

    /// Positions along random games of variants with drops, Lions, hooks and large boards.
    pub(in crate::engine) fn positions() -> Vec<Position> {
        let mut out = Vec::new();
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        for variant in ["shogi", "chu", "dai", "maka-dai-dai", "tori"] {
            let rules = compile_named(variant, &[]).rules.expect("a shipped variant compiles");
            let mut pos = Position::start(Arc::new(MoveTables::new(rules)));
            for _ in 0..60 {
                let moves = pos.legal_moves();
                if moves.is_empty() || pos.royal_squares(pos.side_to_move()).is_empty() {
                    break;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                // Captures more often than not, to reach exchanges.
                let captures: Vec<Move> = moves
                    .iter()
                    .filter(|m| !m.is_drop() && pos.piece(m.to).is_some())
                    .copied()
                    .collect();
                let pool = if captures.is_empty() || seed.is_multiple_of(3) {
                    &moves
                } else {
                    &captures
                };
                pos.make(&pool[(seed >> 8) as usize % pool.len()]);
                out.push(pos.clone());
            }
        }
        out
    }

    /// Minishogi: White's King alone on 3a; Black's Rook on 5b guards rank b, and Black
    /// holds a Gold. Dropped beside the King (2a, 4a) the Gold checks and is taken by it;
    /// dropped on rank b it checks guarded by the Rook.
    #[test]
    fn a_check_that_gives_its_piece_away_is_extended_only_at_the_horizon() {
        let rules = compile_named("minishogi", &[])
            .rules
            .expect("a shipped variant compiles");
        let tables = Arc::new(MoveTables::new(rules));
        let id = |abbrev: &str| tables.rules().piece_by_abbrev(abbrev).expect("a Minishogi piece");
        let at = |text: &str| crate::rules::Square::parse(text).expect("a square");
        let setup = crate::game::Setup {
            pieces: vec![
                (at("3a"), Side::White, id("K"), false),
                (at("3e"), Side::Black, id("K"), false),
                (at("5b"), Side::Black, id("R"), false),
            ],
            hands: vec![(Side::Black, id("G"), 1)],
            side_to_move: Side::Black,
            move_number: 1,
            lion_capture: None,
            deferred: [None, None],
        };
        let mut pos = Position::from_setup(tables.clone(), &setup).expect("a legal position");
        let ev = Eval::new(tables.clone(), &WeightFile::built_in().default.weights);
        let mut searcher = Searcher::new();
        searcher.board_share[0] = ev.board_share(&pos);
        let (mut safe, mut given_away) = (0, 0);
        for m in pos.legal_moves().iter().filter(|m| m.is_drop()) {
            let undo = searcher.play(&ev, &mut pos, m, 0);
            if pos.royal_in_check(Side::White) {
                let king_takes = pos.legal_moves().iter().any(|reply| reply.to == m.to);
                assert_eq!(searcher.extends_check(&ev, &mut pos, 3, 1), !king_takes, "{m:?}");
                assert!(searcher.extends_check(&ev, &mut pos, 0, 1), "at the horizon: {m:?}");
                if king_takes {
                    given_away += 1;
                } else {
                    safe += 1;
                }
            }
            pos.unmake(m, &undo);
        }
        assert_eq!((safe, given_away), (3, 2), "checks from rank b and beside the King");
    }

    /// The material and square bonuses the search keeps up to date move by move are those
    /// counted afresh, along random games of variants with drops, Lions, burning and hooks.
    #[test]
    fn the_board_share_kept_move_by_move_is_the_one_counted_afresh() {
        let mut searcher = Searcher::new();
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for variant in ["shogi", "chu", "tenjiku", "maka-dai-dai", "dai-dai"] {
            let rules = compile_named(variant, &[]).rules.expect("a shipped variant compiles");
            let mut pos = Position::start(Arc::new(MoveTables::new(rules)));
            let ev = Eval::new(pos.tables().clone(), &WeightFile::built_in().default.weights);
            for _ in 0..80 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                searcher.board_share[0] = ev.board_share(&pos);
                for m in &moves {
                    let undo = searcher.play(&ev, &mut pos, m, 0);
                    assert_eq!(searcher.board_share[1], ev.board_share(&pos), "{variant}: {m:?}");
                    pos.unmake(m, &undo);
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                // Captures first, to reach burning and multiple captures.
                let captures: Vec<&Move> = moves
                    .iter()
                    .filter(|m| !m.is_drop() && pos.piece(m.to).is_some())
                    .collect();
                let m = match captures.len() {
                    0 => moves[(seed >> 8) as usize % moves.len()],
                    n => *captures[(seed >> 8) as usize % n],
                };
                pos.make(&m);
            }
        }
    }

    /// What each capture takes, counted along the node's captures in their order of
    /// generation (a sweep extending the last one walks only the squares between), is what
    /// counting it alone gives, along random games of the variants with range captures.
    #[test]
    fn sweeps_weighed_along_their_line_take_what_each_alone_takes() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut extended = 0;
        for variant in ["tenjiku", "dai-dai", "tai", "taikyoku"] {
            let rules = compile_named(variant, &[]).rules.expect("a shipped variant compiles");
            let mut pos = Position::start(Arc::new(MoveTables::new(rules)));
            let ev = Eval::new(pos.tables().clone(), &WeightFile::built_in().default.weights);
            let mut moves = Vec::new();
            for _ in 0..40 {
                let side = pos.side_to_move();
                pos.pseudo_captures(&mut moves, LionCounting::Distinct);
                let mut last = None;
                for m in &moves {
                    let before = last;
                    let along = capture_gain_along(&ev, &pos, m, side, &mut last);
                    assert_eq!(along, capture_gain(&ev, &pos, m, side), "{variant}: {m:?}");
                    extended += usize::from(before.is_some_and(|s: Sweep| s.from == m.from.unwrap() && m.sweep));
                }
                pos.pseudo_moves(&mut moves, LionCounting::Distinct);
                if moves.is_empty() {
                    break;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                // Captures first, to open the lines.
                let captures: Vec<&Move> = moves
                    .iter()
                    .filter(|m| capture_gain(&ev, &pos, m, side).captures())
                    .collect();
                let m = match captures.len() {
                    0 => moves[(seed >> 8) as usize % moves.len()],
                    n => *captures[(seed >> 8) as usize % n],
                };
                pos.make(&m);
            }
        }
        assert!(extended > 100, "sweeps extended: {extended}");
    }

    /// The order of a node's moves: weighed all at once and picked by `best_index`, or
    /// weighed as they come up by `pick_weighed`, is the same.
    #[test]
    fn captures_weighed_as_they_come_up_keep_the_order_of_weighing_all_first() {
        let mut searcher = Searcher::new();
        let mut losing = false;
        for mut pos in positions() {
            let ev = Eval::new(pos.tables().clone(), &WeightFile::built_in().default.weights);
            searcher.history = vec![0; pos.tables().kind_count() * 2 * ev.squares.len()];
            let mut moves = Vec::new();
            pos.legal_moves_ignoring_history_into(&mut moves, LionCounting::Distinct);
            let (mut eager, mut lazy) = (moves.clone(), moves.clone());
            let (mut eager_scores, mut lazy_scores, mut unweighed) = (Vec::new(), Vec::new(), Vec::new());
            searcher.score_moves(&ev, &mut pos, &moves, &mut eager_scores, None, None, 0);
            searcher.score_moves(&ev, &mut pos, &moves, &mut lazy_scores, Some(&mut unweighed), None, 0);
            for i in 0..moves.len() {
                let best = best_index(&eager_scores, i);
                eager.swap(i, best);
                eager_scores.swap(i, best);
                searcher.pick_weighed(&ev, &mut pos, &mut lazy, &mut lazy_scores, &mut unweighed, i);
            }
            assert_eq!(lazy, eager);
            assert_eq!(lazy_scores, eager_scores);
            losing |= eager_scores
                .iter()
                .any(|&s| (LOSING_CAPTURE - 10_000_000..KILLER).contains(&s));
        }
        assert!(losing, "some capture lost by exchange");
    }

    /// The quiescence search's captures: those that do not lose by exchange, in the order
    /// of picking among them, whether weighed first or as they come up.
    #[test]
    fn quiescence_captures_weighed_as_they_come_up_keep_the_order_of_weighing_all_first() {
        let mut searcher = Searcher::new();
        let mut weighed_some = false;
        for mut pos in positions() {
            let ev = Eval::new(pos.tables().clone(), &WeightFile::built_in().default.weights);
            let mut moves = Vec::new();
            pos.pseudo_captures(&mut moves, LionCounting::Distinct);
            let mover_value =
                |pos: &Position, m: &Move| m.from.and_then(|from| pos.piece(from)).map_or(0, |p| p.kind().index());
            let score = |pos: &Position, m: &Move| {
                capture_gain(&ev, pos, m, pos.side_to_move()).order * 8 - ev.value[mover_value(pos, m)] / 8
            };
            let needs = |pos: &Position, m: &Move| {
                capture_gain(&ev, pos, m, pos.side_to_move()).to_weigh(ev.order_value[mover_value(pos, m)])
            };
            let mut eager: Vec<Move> = Vec::new();
            for m in &moves {
                if !needs(&pos, m) || searcher.exchange(&ev, &mut pos, m) >= 0 {
                    eager.push(*m);
                }
            }
            weighed_some |= eager.len() < moves.len();
            let mut eager_scores: Vec<i32> = eager.iter().map(|m| score(&pos, m)).collect();
            for i in 0..eager.len() {
                let best = best_index(&eager_scores, i);
                eager.swap(i, best);
                eager_scores.swap(i, best);
            }
            let mut scores: Vec<i32> = moves.iter().map(|m| score(&pos, m)).collect();
            let mut unweighed: Vec<bool> = moves.iter().map(|m| needs(&pos, m)).collect();
            let mut lazy = Vec::new();
            while let Some(m) =
                searcher.pick_not_losing(&ev, &mut pos, &mut moves, &mut scores, &mut unweighed, lazy.len())
            {
                lazy.push(m);
            }
            assert_eq!(lazy, eager);
        }
        assert!(weighed_some, "some capture lost by exchange");
    }
}
