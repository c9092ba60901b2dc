//! Legality: which pseudo-legal moves the rules allow (royal safety, the Lion-trading
//! rules, drop mate, piece limits, repetition), and why a move is illegal.

use super::attack::{Checkers, OPPOSITE};
use super::board::{Geometry, NO_SQ, Sq, code_kind, code_side};
use super::movegen::{LionCounting, MAX_FILES, Wanted};
use super::moves::{Illegal, Move};
use super::position::Position;
use super::scratch::Scratch;
use super::tables::MoveTables;
use crate::rules::{LionDefence, LionRole, RepetitionEffect, Side};

impl Position {
    /// Every legal move, sorted as generated (board squares in order, then drops).
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut out = Vec::new();
        self.legal_moves_into(&mut out, LionCounting::Distinct);
        out
    }

    /// Fills `out` with the legal moves.
    pub fn legal_moves_into(&self, out: &mut Vec<Move>, counting: LionCounting) {
        Scratch::default().legal_moves_into(&mut self.trial(), out, counting);
    }

    /// Fills `out` with the moves legal whatever the history: every legality rule but the
    /// repetition rule. Perft counts these (a position's counts do not depend on how it was
    /// reached); the search takes them and applies the repetition rule to the moves it plays.
    pub fn legal_moves_ignoring_history_into(&self, out: &mut Vec<Move>, counting: LionCounting) {
        Scratch::default().legal_moves_ignoring_history_into(&mut self.trial(), out, counting);
    }

    /// Checks one move against the rules, naming the rule it breaks.
    pub fn check_legal(&self, m: &Move) -> Result<(), Illegal> {
        Scratch::default().check_legal(&mut self.trial(), m)
    }

    /// A copy of the position for the legality check to try moves on (it makes and unmakes
    /// them): what a question asked of a position it may not change works on.
    pub(super) fn trial(&self) -> Position {
        self.clone()
    }

    pub(super) fn filtered_moves_into(
        &mut self,
        scratch: &mut Scratch,
        out: &mut Vec<Move>,
        counting: LionCounting,
        history: History,
    ) {
        scratch.pseudo_moves(self, out, counting);
        let filter = self.legality_filter(scratch, history);
        let mut i = 0;
        while i < out.len() {
            if self.passes(scratch, &filter, &out[i]).is_ok() {
                i += 1;
            } else {
                out.swap_remove(i);
            }
        }
    }

    /// The number of moves legal whatever the history (perft's last ply), without keeping
    /// them. Where only a royal's move or a sweep could break a rule, the other moves are
    /// counted as they are generated; where the only royal is guarded with its pins known,
    /// so are the plain moves of the pieces neither royal nor pinned, and the drops that
    /// the drop-mate rule leaves alone.
    pub(super) fn count_legal(&mut self, scratch: &mut Scratch, buffer: &mut Vec<Move>, counting: LionCounting) -> u64 {
        buffer.clear();
        if self.over_before_moving() {
            return 0;
        }
        let filter = self.legality_filter(scratch, History::Ignored);
        let wanted = filter.counted(self.tables());
        let mut n = self.generate(scratch, buffer, counting, wanted);
        if self.rules().drops {
            match wanted {
                // Only a royal's move or a sweep could break a rule: no drop does.
                Wanted::Counted { .. } => n += self.count_drops(),
                // No drop exposes the royal: only the drop-mate rule may forbid one.
                Wanted::CountedUnpinned(_) if !filter.drop_mate => n += self.count_drops(),
                Wanted::CountedUnpinned(_) => {
                    let t = self.tables();
                    self.each_drop(|m| match m.drop {
                        Some(kind) if filter.drop_mate && t.kind(kind).drop.no_drop_mate => buffer.push(m),
                        _ => n += 1,
                    })
                }
                Wanted::All | Wanted::Captures | Wanted::From(_) => self.drops(buffer),
            }
        }
        for m in buffer.iter() {
            if self.passes(scratch, &filter, m).is_ok() {
                n += 1;
            }
        }
        n
    }

    /// What the legality check of this position's moves one at a time shares.
    pub(super) fn legality(&mut self, scratch: &mut Scratch, history: History) -> Legality {
        Legality(self.legality_filter(scratch, history))
    }

    /// Whether the pseudo-legal move `m` passes the rules `legality` was prepared with.
    pub(super) fn passes_legality(&mut self, scratch: &mut Scratch, legality: &Legality, m: &Move) -> bool {
        self.passes(scratch, &legality.0, m).is_ok()
    }

    /// Whether the side to move has any legal move.
    pub(super) fn has_legal_move(&mut self, scratch: &mut Scratch) -> bool {
        self.any_legal(scratch, |pos, scratch, out| {
            scratch.pseudo_moves(pos, out, LionCounting::Distinct)
        })
    }

    /// Whether one of the pseudo-legal moves `moves` lists passes every legality rule.
    fn any_legal(&mut self, scratch: &mut Scratch, moves: fn(&Position, &mut Scratch, &mut Vec<Move>)) -> bool {
        let mut buffer = scratch.take_moves();
        moves(self, scratch, &mut buffer);
        let filter = self.legality_filter(scratch, History::Applies);
        let any = buffer.iter().any(|m| self.passes(scratch, &filter, m).is_ok());
        scratch.give_back(buffer);
        any
    }

    /// Whether the game is over before the side to move moves: its last royal taken where
    /// the rules let it be, a check given where the first check wins, a try made, or a side
    /// extinct.
    pub fn over_before_moving(&self) -> bool {
        self.royals_lost() || self.check_given() || self.try_winner().is_some() || self.extinct().is_some()
    }

    /// Whether the game is over because the side to move is in check where the first check
    /// wins (`check-wins`).
    pub(crate) fn check_given(&self) -> bool {
        self.rules().end.check_wins && self.royal_in_check(self.side_to_move())
    }

    /// Whether the side to move, in check, has a legal move out of it: the moves it could
    /// make were the game not over by the check (`check-wins`), which is what a drop mate is
    /// judged by.
    fn can_meet_check(&mut self, scratch: &mut Scratch) -> bool {
        if self.royals_lost() {
            return false;
        }
        self.any_legal(scratch, |pos, scratch, out| {
            pos.piece_moves(scratch, out, LionCounting::Distinct)
        })
    }

    /// Whether the game is over because the side to move, under `royal-capture-allowed`, has
    /// no royal piece left (in a variant that has royal pieces).
    pub(crate) fn royals_lost(&self) -> bool {
        let t: &MoveTables = self.tables();
        t.rules().end.royal_capture_allowed && self.royal_squares(self.side_to_move()).is_empty() && t.royals
    }

    /// What the legality check needs to know about the position, computed once. The filter
    /// is built as it is returned, in its caller's frame: a filter built and then copied out
    /// is read back before its fields are written (a stall that cost small boards several
    /// percent of perft).
    #[inline(never)]
    fn legality_filter(&mut self, scratch: &mut Scratch, history: History) -> Filter {
        let t: &MoveTables = self.tables();
        let side = self.side_to_move();
        let royals = self.royal_squares(side);
        let only = if royals.len() == 1 { royals[0] } else { NO_SQ };
        let guard_royal = !t.rules().end.royal_capture_allowed && only != NO_SQ;
        // Whether the only royal is attacked: what the filter guards, or what making the
        // next move keeps where the rules track checks.
        let only_attacked = (guard_royal || t.track_checks) && only != NO_SQ && self.attacked(only, side.opponent());
        let royal = if guard_royal { only } else { NO_SQ };
        let in_check = guard_royal && only_attacked;
        let repetition = t
            .rules()
            .end
            .repetition
            .as_ref()
            .filter(|r| history == History::Applies && r.effect != RepetitionEffect::Draw)
            .map(|r| r.count)
            .filter(|&count| self.some_position_seen(usize::from(count) - 1, &mut scratch.hashes));
        // Any move may change how the pieces move where each moves as the piece behind it.
        let slow = if t.rules().moves_as_piece_behind {
            SlowThreat::Unrestricted
        } else {
            self.slow_threat(side.opponent())
        };
        let no_royal = !t.rules().end.royal_capture_allowed && royals.is_empty();
        let royal_burnable = t.burners && !t.rules().end.royal_capture_allowed && royals.len() > 1;
        let royal_sweepable = !t.rules().end.royal_capture_allowed && royals.len() > 1;
        let lion_rules = t.rules().end.lion_trading || t.rules().end.counter_strike;
        let drop_mate = t.drop_mate;
        let compulsory_capture = t.rules().must_capture;
        // In check from pieces that only ride and leap, where no move burns: what a move
        // must do to meet it.
        let checkers =
            (in_check && slow == SlowThreat::None && !t.burners).then(|| self.view().checkers(only, side.opponent()));
        let pins = (guard_royal && !in_check && slow == SlowThreat::None).then(|| self.pins(only, side));
        if guard_royal || (t.track_checks && only != NO_SQ) {
            self.know_check(only_attacked);
        }
        // Compulsory capture holds where a capture passes the filter without it.
        let must_capture = compulsory_capture && {
            let without = Filter {
                must_capture: false,
                royal,
                no_royal,
                royal_burnable,
                royal_sweepable,
                in_check,
                slow: slow.clone(),
                lion_rules,
                drop_mate,
                repetition,
                pins,
                checkers,
            };
            self.can_capture_legally(scratch, &without)
        };
        Filter {
            must_capture,
            royal,
            no_royal,
            royal_burnable,
            royal_sweepable,
            in_check,
            slow,
            lion_rules,
            drop_mate,
            repetition,
            pins,
            checkers,
        }
    }

    /// Whether some pseudo-legal capture passes `filter` (compulsory capture then holds).
    fn can_capture_legally(&mut self, scratch: &mut Scratch, filter: &Filter) -> bool {
        let mut captures = scratch.take_moves();
        self.generate(scratch, &mut captures, LionCounting::Distinct, Wanted::Captures);
        let any = captures.iter().any(|m| self.passes(scratch, filter, m).is_ok());
        scratch.give_back(captures);
        any
    }

    /// Whether a move takes a piece.
    fn is_capture(&self, m: &Move) -> bool {
        self.taken(m).next().is_some()
    }

    /// Checks a pseudo-legal move against every legality rule.
    fn passes(&mut self, scratch: &mut Scratch, f: &Filter, m: &Move) -> Result<(), Illegal> {
        if f.must_capture && !self.is_capture(m) {
            return Err(Illegal::MustCapture);
        }
        if let (true, Some(from)) = (f.lion_rules, m.from) {
            self.lion_trading(m, from)?;
        }
        let exposure = if f.royal == NO_SQ {
            Exposure::Safe
        } else {
            self.exposure(f, m)
        };
        if exposure == Exposure::Attacked {
            return Err(Illegal::LeavesRoyalInCheck);
        }
        if exposure == Exposure::Unknown
            || (f.no_royal && self.makes_royal(m))
            || (f.royal_burnable && self.moves_royal(m))
            || (f.royal_sweepable
                && m.sweep
                && m.from.is_some_and(|from| {
                    self.tables()
                        .line_holds(from, m.to, self.royal_squares(self.side_to_move()))
                }))
        {
            let undo = self.try_move(m);
            let royals = self.royal_squares(self.side_to_move().opponent());
            // A royal burnt for ending its move next to an enemy burner leaves none.
            let exposed = (royals.len() == 1 && self.attacked(royals[0], self.side_to_move()))
                || (royals.is_empty() && !f.no_royal);
            self.take_back(m, &undo);
            if exposed {
                return Err(Illegal::LeavesRoyalInCheck);
            }
        }
        if f.drop_mate
            && m.drop.is_some_and(|kind| self.tables().kind(kind).drop.no_drop_mate)
            && self.drop_mates(scratch, m)
        {
            return Err(Illegal::DropMate);
        }
        if self.tables().piece_limits && self.breaks_piece_limit(m) {
            return Err(Illegal::FileLimit);
        }
        if let Some(count) = f.repetition {
            self.repetition(m, count)?;
        }
        Ok(())
    }

    /// `piece-limit`: whether a move takes a piece of a limited kind to another file that
    /// already holds the most of its kind allowed.
    fn breaks_piece_limit(&self, m: &Move) -> bool {
        let Some(from) = m.from else {
            return false;
        };
        let kind = code_kind(self.code(from));
        let Some(limit) = self.tables().kind(kind).piece_limit else {
            return false;
        };
        let geo = self.tables().geometry();
        let file = geo.square(m.to).file;
        file != geo.square(from).file && self.full_files(kind, limit)[usize::from(file)]
    }

    /// Whether a move moves a royal piece on the board.
    fn moves_royal(&self, m: &Move) -> bool {
        m.from
            .is_some_and(|from| self.tables().kind(code_kind(self.code(from))).royal)
    }

    /// Whether a move puts a royal piece on the board: a drop of one, or a promotion to one.
    fn makes_royal(&self, m: &Move) -> bool {
        let kinds = &self.tables().kinds();
        match (m.drop, m.from) {
            (Some(kind), _) => kinds[kind.index()].royal,
            (None, Some(from)) => {
                let moved = code_kind(self.code(from)).index();
                m.promote && kinds[moved].turns_to.is_some_and(|p| kinds[p.index()].royal)
            }
            (None, None) => false,
        }
    }

    /// Whether a move leaves the only royal capturable: surely not, surely, or not known
    /// without trying it.
    fn exposure(&self, f: &Filter, m: &Move) -> Exposure {
        if let Some(checkers) = f.checkers
            && !self.may_meet_check(f.royal, checkers, m)
        {
            return Exposure::Attacked;
        }
        if f.in_check || f.slow == SlowThreat::Unrestricted {
            return Exposure::Unknown;
        }
        let Some(from) = m.from else {
            return Exposure::Safe;
        };
        // A move that empties its start alone: where pins are known, only the royal's own
        // moves and those of the pieces pinned to it can expose it.
        let plain = !m.sweep && m.via_squares().next().is_none();
        if let (Some(pins), true) = (&f.pins, plain) {
            if from != f.royal {
                return if pins.holds(from) {
                    Exposure::Unknown
                } else {
                    Exposure::Safe
                };
            }
            // Burning or a promotion may take the royal off the board.
            if m.promote || self.tables().burners {
                return Exposure::Unknown;
            }
            let by = self.side_to_move().opponent();
            return if self.view().attacked_ignoring(m.to, by, from, true) {
                Exposure::Attacked
            } else {
                Exposure::Safe
            };
        }
        // A move opens lines from the squares it empties: its start, and the squares a Lion
        // captures on before its destination. A hook's path runs along a line through the
        // hook piece and then along a line through the royal.
        let geo = self.tables().geometry();
        let hooks = match &f.slow {
            SlowThreat::Hooks(squares, n) => &squares[..*n],
            _ => &[][..],
        };
        let opened = |sq: Sq| aligned(geo, sq, f.royal) || hooks.iter().any(|&h| aligned(geo, sq, h));
        // A sweep empties its whole line.
        if m.sweep || from == f.royal || opened(from) || m.via_squares().any(opened) {
            Exposure::Unknown
        } else {
            Exposure::Safe
        }
    }

    /// Whether the move `m` may meet the check `checkers` give to the only royal, on
    /// `royal`: a move of another piece that empties its start alone, promoting to nothing,
    /// or a drop of a piece that is not royal, meets it only by taking the only checker or
    /// standing between it and the royal on the line it attacks along. Any other move may.
    fn may_meet_check(&self, royal: Sq, checkers: Checkers, m: &Move) -> bool {
        let t: &MoveTables = self.tables();
        let blocks = |to: Sq| {
            checkers.first == NO_SQ
                || !checkers.more
                    && (to == checkers.first || checkers.along_line && t.on_line_to(royal, checkers.first, to))
        };
        match (m.drop, m.from) {
            (Some(kind), _) => t.kind(kind).royal || blocks(m.to),
            (None, Some(from)) => {
                from == royal || m.promote || m.sweep || m.via_squares().next().is_some() || blocks(m.to)
            }
            (None, None) => true,
        }
    }

    /// The pieces of `side` pinned to its royal on `royal`: each the only piece between the
    /// royal and an enemy piece whose ride would reach it (pieces are pinned by rides alone
    /// where the enemy has no slow attacker: leaps jump).
    fn pins(&self, royal: Sq, side: Side) -> Pins {
        let t: &MoveTables = self.tables();
        let board = self.codes();
        let by = side.opponent();
        let mut pins = Pins {
            squares: [NO_SQ; 8],
            n: 0,
        };
        for (dir, &opposite) in OPPOSITE.iter().enumerate() {
            let longest = t.longest_ride[by.index()][dir];
            let mut shield = NO_SQ;
            for (k, &p) in t.line(royal, opposite).iter().enumerate().take(usize::from(longest)) {
                let code = board[p.index()];
                if code == 0 {
                    continue;
                }
                if shield == NO_SQ && code_side(code) == side {
                    shield = p;
                    continue;
                }
                let reach = t.ride_reach(by, dir, t.moving_kind(board, p, code, NO_SQ));
                if shield != NO_SQ && code_side(code) == by && usize::from(reach) > k {
                    pins.squares[usize::from(pins.n)] = shield;
                    pins.n += 1;
                }
                break;
            }
        }
        pins
    }

    /// Whether some earlier position occurred at least `times` times: only then can a move
    /// make a position occur once more than that. The hashes are sorted in `sorted`, a list
    /// kept from call to call, so that no call allocates once it has grown.
    fn some_position_seen(&self, times: usize, sorted: &mut Vec<u64>) -> bool {
        if times <= 1 {
            return !self.history().is_empty();
        }
        sorted.clear();
        sorted.extend_from_slice(self.history());
        sorted.sort_unstable();
        sorted.chunk_by(|a, b| a == b).any(|run| run.len() >= times)
    }

    fn drop_mates(&mut self, scratch: &mut Scratch, m: &Move) -> bool {
        if !self.drop_gives_check(m) {
            return false;
        }
        let undo = self.make(m);
        let mates = self.royal_in_check(self.side_to_move()) && !self.can_meet_check(scratch);
        self.unmake(m, &undo);
        mates
    }

    /// Whether a dropped piece would attack an enemy royal (by its rides and leaps; pieces
    /// with other movements, and any piece where pieces move as the piece behind them, are
    /// assumed to).
    fn drop_gives_check(&self, m: &Move) -> bool {
        let t: &MoveTables = self.tables();
        let Some(kind) = m.drop else {
            return false;
        };
        if !t.kind(kind).walked.is_empty() || t.rules().moves_as_piece_behind {
            return true;
        }
        let royals = self.royal_squares(self.side_to_move().opponent());
        t.rays(kind, self.side_to_move(), m.to)
            .filter(|r| r.mode.can_capture())
            .any(|ray| {
                for sq in ray.squares() {
                    if royals.contains(&sq) {
                        return true;
                    }
                    if self.code(sq) != 0 {
                        return false;
                    }
                }
                false
            })
    }

    fn repetition(&mut self, m: &Move, count: u8) -> Result<(), Illegal> {
        if self.history().is_empty() {
            return Ok(());
        }
        let undo = self.make(m);
        let breach = self.repetition_breach_of(count);
        self.unmake(m, &undo);
        breach
    }

    /// Whether the move just made broke the repetition rule, where the rule forbids moves:
    /// the position it reached occurs once too often, by the mover's fault (the rule's
    /// reason as the error). `Ok` where the rule only ends the game, or there is none.
    pub(crate) fn repetition_breach(&self) -> Result<(), Illegal> {
        match &self.rules().end.repetition {
            Some(rule) if rule.effect != RepetitionEffect::Draw => self.repetition_breach_of(rule.count),
            _ => Ok(()),
        }
    }

    fn repetition_breach_of(&self, count: u8) -> Result<(), Illegal> {
        if self.history().is_empty() || self.repetitions() + 1 < usize::from(count) {
            return Ok(());
        }
        let effect = self.rules().end.repetition.as_ref().map(|r| r.effect);
        let mover = self.side_to_move().opponent();
        match (effect, self.perpetual_checker()) {
            (Some(RepetitionEffect::StarterVaries), _) if self.cycle_starter() != Some(mover) => Ok(()),
            // The side in perpetual check may repeat: the checking side loses.
            (_, Some(checker)) if checker != mover => Ok(()),
            (_, Some(_)) => Err(Illegal::PerpetualCheck),
            _ => Err(Illegal::Repetition),
        }
    }

    /// The side that started the cycle now repeating: the side to move at the start of the
    /// repeating sequence that ends in the current position. That is the first occurrence of
    /// the current position, moved back as long as the positions before it repeat with the
    /// same period (the distance between its first two occurrences); an older cycle, ended
    /// since, does not count.
    fn cycle_starter(&self) -> Option<Side> {
        let mut all = self.history().to_vec();
        all.push(self.hash());
        let first = all.iter().position(|&h| h == self.hash())?;
        let period = 1 + all[first + 1..].iter().position(|&h| h == self.hash())?;
        let mut start = first;
        while start > 0 && all[start - 1] == all[start - 1 + period] {
            start -= 1;
        }
        let plies_ago = all.len() - 1 - start;
        Some(if plies_ago.is_multiple_of(2) {
            self.side_to_move()
        } else {
            self.side_to_move().opponent()
        })
    }

    /// Chu's Lion-trading rules.
    fn lion_trading(&mut self, m: &Move, from: Sq) -> Result<(), Illegal> {
        let end = &self.rules().end;
        let (lion_trading, counter_strike) = (end.lion_trading, end.counter_strike);
        let geometry = self.tables().geometry();
        let mover_is_lion = self.tables().kind(code_kind(self.code(from))).lion == LionRole::Lion;
        let side = self.side_to_move();
        let mut bridge = false;
        // The squares taken, gathered first: judging a Lion's protection makes the move. Only
        // a sweep's depend on the board.
        let mut taken = [NO_SQ; MAX_FILES];
        if m.sweep {
            for (slot, sq) in taken.iter_mut().zip(self.taken(m)) {
                *slot = sq;
            }
        } else {
            for (slot, sq) in taken.iter_mut().zip(m.captures()) {
                *slot = sq;
            }
        }
        for sq in taken.into_iter().take_while(|&sq| sq != NO_SQ) {
            let code = self.code(sq);
            if code == 0 || code_side(code) == side {
                continue;
            }
            let role = self.tables().kind(code_kind(code)).lion;
            if role == LionRole::Lion {
                if counter_strike && !mover_is_lion && self.lion_capture().is_some() {
                    return Err(Illegal::CounterStrike);
                }
                let distant = geometry.distance(from, sq) >= 2;
                if lion_trading && mover_is_lion && distant && !bridge && self.lion_defended(m, from, sq) {
                    return Err(Illegal::ProtectedLion);
                }
            }
            bridge |= role != LionRole::WeakBridge;
        }
        Ok(())
    }
}

impl Position {
    /// Whether the Lion on `sq`, which the Lion move `m` from `from` takes, counts as protected.
    fn lion_defended(&mut self, m: &Move, from: Sq, sq: Sq) -> bool {
        match self.rules().end.lion_defence {
            LionDefence::Defended => self.protected(sq, from),
            LionDefence::AfterMove => {
                let undo = self.try_move(m);
                let defended = self.attacked(sq, self.side_to_move());
                self.take_back(m, &undo);
                defended
            }
        }
    }
}

/// Whether the legality rules include the one on the game's history (repetition).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum History {
    Applies,
    Ignored,
}

/// What the legality check of one position's moves shares, computed once
/// ([`Scratch::legality_ignoring_history`]).
pub struct Legality(Filter);

/// Facts about the position that every move's legality check shares.
struct Filter {
    /// Compulsory capture holds (`must-capture`) and the side to move has a legal capture:
    /// every other move is illegal.
    must_capture: bool,
    /// The only royal of the side to move, when its safety matters.
    royal: Sq,
    /// The side to move has no royal, and its safety would matter: a move that makes one
    /// (a promotion or a drop) must not leave it capturable.
    no_royal: bool,
    /// The side to move has several royals and there are burners: a royal that moves may be
    /// burnt, and must then not leave the last one capturable.
    royal_burnable: bool,
    /// The side to move has several royals: a sweep (range capture) may take all of them,
    /// and must then not.
    royal_sweepable: bool,
    in_check: bool,
    slow: SlowThreat,
    lion_rules: bool,
    drop_mate: bool,
    repetition: Option<u8>,
    /// The pieces pinned to the only royal, where they are all a move can expose it by: the
    /// royal guarded, not in check, and no slow attacker of the opponent's on the board.
    pins: Option<Pins>,
    /// The pieces giving check to the only royal, where their attacks are rides and leaps
    /// of the tables and no move burns: the royal in check, no slow attacker of the
    /// opponent's on the board.
    checkers: Option<Checkers>,
}

/// The squares of the pieces pinned to a royal (at most one a direction).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Pins {
    squares: [Sq; 8],
    n: u8,
}

impl Pins {
    /// Whether the piece on `sq` is pinned. (`contains` on a slice of squares is not
    /// inlined: a call for every piece of perft's last ply.)
    #[allow(clippy::manual_contains)]
    #[inline]
    pub(super) fn holds(&self, sq: Sq) -> bool {
        self.squares[..usize::from(self.n)].iter().any(|&pinned| pinned == sq)
    }
}

/// What a move does to the safety of the only royal of the side that makes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Exposure {
    /// It cannot leave the royal attacked.
    Safe,
    /// It leaves the royal attacked.
    Attacked,
    /// Only trying it tells.
    Unknown,
}

impl Filter {
    /// Which moves perft's last ply may count as they are generated, unchecked.
    fn counted(&self, t: &MoveTables) -> Wanted {
        if self.only_royals_and_sweeps(t) {
            // A royal's move is tried only for burning, a sweep over one only where its side
            // has several.
            return Wanted::Counted {
                royal_moves: !self.royal_burnable,
                sweeps_over_royals: !self.royal_sweepable,
            };
        }
        match self.pins {
            Some(pins) if self.only_royal_and_pinned(t) => Wanted::CountedUnpinned(pins),
            _ => Wanted::All,
        }
    }

    /// Whether, the royal guarded with its pins known, only the moves of the royal, of the
    /// pieces pinned to it, sweeps, moves through squares on the way and drops under the
    /// drop-mate rule can break a rule (the checks of `passes`).
    fn only_royal_and_pinned(&self, t: &MoveTables) -> bool {
        !self.must_capture
            && !self.no_royal
            && !self.royal_burnable
            && !self.royal_sweepable
            && !self.lion_rules
            && self.repetition.is_none()
            && !t.piece_limits
    }

    /// Whether only a move of a royal (which may be burnt) or a sweep over a royal of its
    /// own side can break a rule (the checks of `passes`).
    fn only_royals_and_sweeps(&self, t: &MoveTables) -> bool {
        self.royal == NO_SQ
            && !self.must_capture
            && !self.no_royal
            && !self.lion_rules
            && !self.drop_mate
            && self.repetition.is_none()
            && !t.piece_limits
    }
}

/// The most hook pieces whose squares the legality filter keeps; past it, every move is checked.
const MAX_HOOKS: usize = 8;

/// What the opponent's slow attackers (hooks, Emperors) mean for the royal's safety.
#[derive(Debug, Clone, PartialEq, Eq)]
enum SlowThreat {
    None,
    /// Only hook pieces, on these squares.
    Hooks([Sq; MAX_HOOKS], usize),
    /// Pieces whose attacks can change in any way: check every move.
    Unrestricted,
}

impl Position {
    fn slow_threat(&self, by: Side) -> SlowThreat {
        if self.slow_counts()[by.index()] == 0 {
            return SlowThreat::None;
        }
        let mut squares = [NO_SQ; MAX_HOOKS];
        let mut n = 0;
        for sq in self.slow_squares()[by.index()].squares() {
            let info = &self.tables().kind(code_kind(self.code(sq)));
            if info.last_rank_attacker_only && self.tables().depth(by, sq) != 1 {
                continue;
            }
            if !info.hook_attacker_only || n == MAX_HOOKS {
                return SlowThreat::Unrestricted;
            }
            squares[n] = sq;
            n += 1;
        }
        SlowThreat::Hooks(squares, n)
    }
}

/// Whether two squares share a file, rank or diagonal.
fn aligned(geo: Geometry, a: Sq, b: Sq) -> bool {
    let (x, y) = (geo.square(a), geo.square(b));
    x.file == y.file || x.rank == y.rank || x.file.abs_diff(y.file) == x.rank.abs_diff(y.rank)
}

impl Position {
    /// Checks one move against the rules, naming the rule it breaks.
    pub(super) fn check_legal_in(&mut self, scratch: &mut Scratch, m: &Move) -> Result<(), Illegal> {
        if self.royals_lost() {
            return Err(Illegal::GameOver);
        }
        if self.check_given() {
            return Err(Illegal::CheckGiven);
        }
        if self.try_winner().is_some() {
            return Err(Illegal::TryMade);
        }
        if self.extinct().is_some() {
            return Err(Illegal::Extinct);
        }
        let mut pseudo = scratch.take_moves();
        scratch.pseudo_moves(self, &mut pseudo, LionCounting::Distinct);
        let verdict = if pseudo.contains(m) {
            let filter = self.legality_filter(scratch, History::Applies);
            self.passes(scratch, &filter, m)
        } else {
            Err(self.why_not_generated(m, &pseudo))
        };
        scratch.give_back(pseudo);
        verdict
    }

    /// The reason a move is not among the moves the pieces can make.
    fn why_not_generated(&self, m: &Move, pseudo: &[Move]) -> Illegal {
        let t: &MoveTables = self.tables();
        if let Some(kind) = m.drop {
            let free = self.is_on_board(m.to) && self.code(m.to) == 0;
            let in_hand =
                kind.index() < t.kind_count() && self.in_hand(self.side_to_move(), t.kind(kind).unpromoted) > 0;
            let face = t.kind(kind).unpromoted == kind || t.rules().drop_either_face;
            if !(free && in_hand && face && t.rules().drops) {
                return Illegal::NotAMove;
            }
            if t.depth(self.side_to_move(), m.to) <= t.kind(kind).drop.banned_ranks() {
                return Illegal::NoFurtherMove;
            }
            return Illegal::FileLimit;
        }
        let same_path = |p: &&Move| p.from == m.from && p.to == m.to && p.via == m.via;
        if pseudo.iter().any(|p| same_path(&p)) {
            Illegal::Promotion
        } else {
            Illegal::NotAMove
        }
    }
}
