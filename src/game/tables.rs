//! Lookup tables built once per variant from its [`Rules`]: the squares each movement
//! reaches from each square (per side), and the reverse view that attack detection needs.
//!
//! A step, slide or leap is kept once per kind and side, as a stretch of the line along its
//! vector; the lines from every square along every vector the variant uses are kept once,
//! shared by all the runs along them. So the tables grow with the board and the number of
//! vectors, not with kinds × squares, and stay small enough for the caches on a 36 × 36
//! board.
//!
//! Squares are numbered 0.. from the top-left corner (highest file, rank `a`), left to right
//! then down. Nothing here knows about particular pieces: it only lays the movement entries
//! of the rules over the board.

use super::board::{DIRS, Geometry, NO_SQ, Sq, code_kind, code_side};
use super::movement::{self, Reach, attack_vectors};
use super::occupancy::{fits_low_bits, square_bit};
use super::random::SplitMix64;
use crate::rules::{
    DropRestrictions, FlipEvent, LionRole, Mode, Movement, Offset, PieceId, PiecePromotion, PromotionEvent, Rules, Side,
};

/// A run of squares from a start square, walked in order and blocked by the first piece.
/// A leap is a run of one square.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Ray {
    /// The run's first square.
    first: Sq,
    /// From one square of the run to the next, in square indices.
    delta: i32,
    /// How many squares it has (at least one).
    len: u8,
    pub mode: Mode,
    /// Attack detection walks this run (it is capture-unprotected, or only from the last
    /// rank) rather than looking it up in reverse.
    pub slow: bool,
}

impl Ray {
    /// The run's squares, in order.
    #[inline]
    pub fn squares(&self) -> impl Iterator<Item = Sq> + use<> {
        let (first, delta) = (self.first.index() as i32, self.delta);
        (0..i32::from(self.len)).map(move |k| Sq::new((first + k * delta) as usize))
    }
}

/// A movement's run for one side, the same from every square: a stretch of the line along
/// one of the variant's vectors, laid from the square the piece stands on.
#[derive(Debug, Clone, Copy)]
struct Stretch {
    /// The vector's index in [`MoveTables::vectors`].
    vector: u16,
    /// The first step of the line the run reaches, counted from 0.
    first: u8,
    /// One past the last step it may reach.
    end: u8,
    mode: Mode,
    slow: bool,
    from_last_rank: bool,
    /// The bit of [`MoveTables::neighbourhoods`] of the run's first square, when that is a
    /// neighbour; 0 otherwise.
    ring_bit: u16,
}

/// The runs of squares of a piece on a square ([`MoveTables::rays`]).
pub(crate) struct Rays<'a> {
    stretches: std::slice::Iter<'a, Stretch>,
    /// How many steps stay on the board from the square, by vector.
    steps: &'a [u8],
    deltas: &'a [i32],
    from: Sq,
    /// The square's distance from the side's far edge (the runs only from the last rank).
    depth: u8,
    /// The neighbours (bits of [`MoveTables::neighbourhoods`]) whose runs are left out.
    held: u16,
}

impl Iterator for Rays<'_> {
    type Item = Ray;

    #[inline]
    fn next(&mut self) -> Option<Ray> {
        for stretch in self.stretches.by_ref() {
            if stretch.from_last_rank && self.depth != 1 || stretch.ring_bit & self.held != 0 {
                continue;
            }
            let vector = usize::from(stretch.vector);
            let end = self.steps[vector].min(stretch.end);
            if end > stretch.first {
                let delta = self.deltas[vector];
                return Some(Ray {
                    first: Sq::new((self.from.index() as i32 + (i32::from(stretch.first) + 1) * delta) as usize),
                    delta,
                    len: end - stretch.first,
                    mode: stretch.mode,
                    slow: stretch.slow,
                });
            }
        }
        None
    }
}

/// A leap vector in board terms, and which kinds leap so (by kind index).
pub(crate) type Leap = ((i32, i32), Vec<bool>);

/// Per-kind facts move generation needs, copied from the rules under the rules' names, and
/// derived from them.
#[derive(Debug, Clone)]
pub struct KindInfo {
    pub royal: bool,
    /// The piece's promotion rules ([`PieceKind::promotion`](crate::rules::PieceKind::promotion)).
    pub promotion: PiecePromotion,
    /// The piece's drop rules ([`PieceKind::drop`](crate::rules::PieceKind::drop)).
    pub drop: DropRestrictions,
    /// The unpromoted kind it reverts to when captured: the root of `promotion.reverts_to`,
    /// itself when it is unpromoted.
    pub unpromoted: PieceId,
    /// The kind it becomes when it turns over on a move (a move's `promote`): its promotion,
    /// or under a flip rule, for a promoted kind, its unpromoted face.
    pub turns_to: Option<PieceId>,
    /// The kind it enters the capturer's hand as: its unpromoted kind, or the kind
    /// `captured-as` names.
    pub hand: PieceId,
    /// At most this many of the kind (unpromoted) of a side on a file, after moves and drops.
    pub piece_limit: Option<u8>,
    pub lion: LionRole,
    /// Its movements can reach one square in two ways: targets must be de-duplicated.
    pub overlapping: bool,
    /// It has movements that attack detection cannot look up (hooks, `anywhere`,
    /// capture-unprotected moves): they are checked by generating the piece's moves.
    pub slow_attacker: bool,
    /// Its only slow movements are hooks: a move can expose a royal to it only by emptying a
    /// square on a line through the hook piece or through the royal.
    pub hook_attacker_only: bool,
    /// Its only slow movements are from its last rank: elsewhere it is no slow attacker.
    pub last_rank_attacker_only: bool,
    /// Its walked movements, in the order of the rules.
    pub walked: Vec<Movement>,
    /// Its place in the range-jumping order (`jump-rank`; 1 the highest), [`u8::MAX`]
    /// without one: a range jump passes only pieces of a greater number than the mover's.
    pub jump_rank: u8,
    /// It burns the enemy pieces next to it (`burns`).
    pub burns: bool,
    /// Its only movement is one `anywhere`: no other reaches a square, so its moves to
    /// empty squares are as many as the empty squares.
    pub anywhere_alone: bool,
}

/// The facts about a piece kind that move generation and `make` read for every piece or
/// square they visit: a copy of [`KindInfo`]'s, a few bytes a piece code.
#[derive(Debug, Clone, Copy)]
pub(crate) struct CodeFacts {
    /// [`KindInfo::jump_rank`].
    pub jump_rank: u8,
    /// [`KindInfo::royal`].
    pub royal: bool,
    /// [`KindInfo::slow_attacker`].
    pub slow_attacker: bool,
    /// Under the hemmed-in test ([`MoveTables::hem_check`]; false without it): the kind has
    /// a move that begins beyond its neighbours, or moves as the piece behind it, so that
    /// whether it can move is not read from its neighbours alone (see
    /// [`MoveTables::hemmed_in`]).
    pub reaches_past_neighbours: bool,
}

impl CodeFacts {
    fn of(info: &KindInfo) -> CodeFacts {
        CodeFacts {
            jump_rank: info.jump_rank,
            royal: info.royal,
            slow_attacker: info.slow_attacker,
            reaches_past_neighbours: false,
        }
    }
}

impl Default for CodeFacts {
    /// An empty square's: no rank, nothing to count.
    fn default() -> CodeFacts {
        CodeFacts {
            jump_rank: u8::MAX,
            royal: false,
            slow_attacker: false,
            reaches_past_neighbours: false,
        }
    }
}

/// The move tables: a variant's [`Rules`] unrolled over its board for move generation and
/// attack detection, with the per-kind facts, the zone rule and the hash keys those read.
#[derive(Debug)]
pub struct MoveTables {
    rules: Rules,
    pub(super) geo: Geometry,
    kinds: Vec<KindInfo>,
    /// For (kind, side): the range of `stretches`, the kind's runs in the order of its
    /// movements.
    stretch_ranges: Vec<(u32, u32)>,
    stretches: Vec<Stretch>,
    /// For (kind, side): the neighbouring squares its moves begin on (bits of
    /// [`MoveTables::neighbourhoods`]), when each of its moves begins on one and goes no
    /// farther when its side holds that square (see [`walked_ring`]); `None` when some move
    /// begins farther out (a leap, a jump, a Lion's move) or may pass a piece of its side.
    rings: Vec<Option<u16>>,
    /// For (kind, side): its ring ([`rings`](Self::rings)) when every move it has is one step
    /// onto a neighbour that it may move to or capture on (a stepper), one move a neighbour.
    steppers: Vec<Option<u16>>,
    /// For each piece code: the facts about its kind read on every move, packed densely.
    codes: Vec<CodeFacts>,
    /// For each kind: its promotion reach ([`promotion_reach`](Self::promotion_reach)) from
    /// a square outside the promotion zone, and from one in it.
    promotion_reaches: Vec<[u8; 2]>,
    /// For each square: its neighbours on the board, one bit each: the neighbour at index
    /// `sq + dr * files + dc` (`dr`, `dc` in -1..=1) is bit `(dr + 1) * 3 + dc + 1`.
    neighbourhoods: Vec<u16>,
    /// The distinct board vectors the runs step along, as changes of square index.
    deltas: Vec<i32>,
    /// For (square, vector): how many steps along the vector stay on the board.
    steps: Vec<u8>,
    /// Each square's file and rank numbers.
    coordinates: Vec<(i16, i16)>,
    /// Per side, each square's distance from the side's far edge ([`Geometry::depth`]).
    depths: [Vec<u8>; 2],
    /// For (square, direction of [`DIRS`]): the squares walking out from it, in order.
    lines: Vec<(u32, u16)>,
    line_squares: Vec<Sq>,
    /// For (side, direction, kind): how far the kind rides along the direction (capturing), 0 if not.
    ride_reach: Vec<u8>,
    /// For (side, direction): the longest ride of any kind.
    pub(super) longest_ride: [[u8; 8]; 2],
    /// Per side: distinct leap vectors (board terms) and, per vector, which kinds leap so.
    pub(super) leaps: [Vec<Leap>; 2],
    /// For (side, leap index, square): the square a leaper would stand on to reach it.
    leap_sources: [Vec<Sq>; 2],
    /// Whether each side has any slow attacker kind.
    pub(super) has_slow: [bool; 2],
    /// `moves-as-piece-behind`: per side, the square directly behind each square (one square
    /// towards that side), [`NO_SQ`] off the board; empty without the rule.
    behind: [Vec<Sq>; 2],
    /// Zone depth (0 when there is no zone promotion) and the zone triggers.
    pub(super) zone: Option<ZoneRule>,
    /// Promotion on any capture: (compulsory, compulsory when taking a promoted piece).
    pub(super) capture_promotion: Option<(bool, bool)>,
    /// The flip rule: two-faced pieces turn over on every capture or every move.
    pub(super) flip: Option<FlipEvent>,
    /// Whether positions remember, move by move, whether the side to move was in check: the
    /// repetition rule makes perpetual check lose.
    pub(super) track_checks: bool,
    /// Whether some kind has a `piece-limit`: moves are then checked against it.
    pub(super) piece_limits: bool,
    /// Whether some kind burns: moves then burn, and may be burnt.
    pub(super) burners: bool,
    /// Attack detection looks at a square's neighbours before the lines beyond them: on the
    /// boards of more than [`NEIGHBOURS_FIRST_SQUARES`] squares, where the pieces stand
    /// crowded and lines are long (Tai perft 3 8% faster; Shogi's 3% slower with it).
    pub(super) neighbours_first: bool,
    /// Whether some kind may not be dropped to give mate (`no-drop-mate`): drops are then
    /// checked against it.
    pub(super) drop_mate: bool,
    /// Whether some kind is royal.
    pub(super) royals: bool,
    /// Whether generation first asks whether a piece is hemmed in by its own side
    /// ([`hemmed_in`](Self::hemmed_in)), reading the occupied squares that positions then
    /// keep as bits: where a fifth of the starting pieces are, in the large games with
    /// their packed camps. Elsewhere the test and the bits cost more than they save.
    pub(super) hem_check: bool,
    /// For (kind, side, square), on a board whose squares all fit in 128 bits of an
    /// [`Occupancy`](super::occupancy::Occupancy) (none elsewhere): the squares a leaper reaches, as those bits, where
    /// every run of the kind is one square that it may move to or capture on, and it has no
    /// walked movement; 0 for any other kind (an empty set: [`MoveTables::leaper_targets`]
    /// tells them apart).
    leaper_targets: Vec<u128>,
    /// For (kind, side): whether it is such a leaper.
    leapers: Vec<bool>,
    /// Per side, for each distance from the far edge `d` (0 to the number of ranks): the
    /// bits of the squares farther than `d` from it.
    beyond: [Vec<u128>; 2],
    pub(super) zobrist: Zobrist,
}

#[derive(Debug, Clone, Copy)]
pub(crate) struct ZoneRule {
    pub depth: u8,
    pub enter: bool,
    pub within: bool,
    pub leave: bool,
    /// Captures touching the zone may promote, whatever the events above say.
    pub capture: bool,
    pub compulsory: bool,
}

/// Random keys for incremental position hashing.
#[derive(Debug)]
pub(crate) struct Zobrist {
    /// For (piece code, square).
    pub piece: Vec<u64>,
    /// For (side, kind, count in hand).
    pub hand: Vec<u64>,
    pub white_to_move: u64,
    /// For the square of the last Lion capture (Chu's counter-strike rule), and deferral.
    pub state: Vec<u64>,
    pub max_hand: usize,
}

/// The most squares of a board on which attack detection scans lines from the square
/// outwards, one at a time, without looking at all the neighbours first
/// ([`MoveTables::neighbours_first`]): 16 × 16.
const NEIGHBOURS_FIRST_SQUARES: usize = 256;

/// The largest number of one kind a hand can hold that the hash distinguishes.
const HASHED_HAND: usize = 64;

impl Zobrist {
    fn new(codes: usize, squares: usize, kinds: usize) -> Zobrist {
        let mut random = SplitMix64::new(0x9E37_79B9_7F4A_7C15);
        let mut next = move || random.next_u64();
        let piece = (0..codes * squares).map(|_| next()).collect();
        let hand = (0..2 * kinds * HASHED_HAND).map(|_| next()).collect();
        let white_to_move = next();
        let state = (0..3 * (squares + 1)).map(|_| next()).collect();
        Zobrist {
            piece,
            hand,
            white_to_move,
            state,
            max_hand: HASHED_HAND,
        }
    }
}

/// Under `moves-as-piece-behind`, per side, the square directly behind each square.
fn squares_behind(rules: &Rules, geo: Geometry) -> [Vec<Sq>; 2] {
    if !rules.moves_as_piece_behind {
        return [vec![], vec![]];
    }
    [Side::Black, Side::White].map(|side| {
        let (df, dr) = Geometry::board_vector(side, Offset::new(0, -1));
        geo.squares().map(|sq| geo.step(sq, df, dr).unwrap_or(NO_SQ)).collect()
    })
}

impl MoveTables {
    pub fn new(rules: Rules) -> MoveTables {
        let geo = Geometry::new(rules.board);
        let kinds: Vec<KindInfo> = rules.piece_ids().map(|id| kind_info(&rules, id, geo)).collect();
        let mut tables = MoveTables {
            geo,
            stretch_ranges: vec![],
            rings: vec![],
            steppers: vec![],
            codes: (0..4 * (kinds.len() + 1))
                .map(|code| match code {
                    0..4 => CodeFacts::default(),
                    _ => CodeFacts::of(&kinds[code_kind(code as u16).index()]),
                })
                .collect(),
            neighbourhoods: vec![],
            promotion_reaches: vec![],
            stretches: vec![],
            deltas: vec![],
            steps: vec![],
            coordinates: geo
                .squares()
                .map(|sq| geo.square(sq))
                .map(|s| (i16::from(s.file), i16::from(s.rank)))
                .collect(),
            depths: [Side::Black, Side::White].map(|side| geo.squares().map(|sq| geo.depth(side, sq)).collect()),
            lines: vec![],
            line_squares: vec![],
            ride_reach: vec![0; 2 * 8 * kinds.len()],
            longest_ride: [[0; 8]; 2],
            leaps: [vec![], vec![]],
            leap_sources: [vec![], vec![]],
            has_slow: [false; 2],
            behind: squares_behind(&rules, geo),
            zone: zone_rule(&rules),
            capture_promotion: rules
                .promotion
                .iter()
                .find(|t| t.when == PromotionEvent::Capture)
                .map(|t| (t.compulsory, t.compulsory_on_promoted)),
            flip: rules.flip,
            track_checks: rules.end.repetition.as_ref().is_some_and(|r| r.perpetual_check_loses),
            piece_limits: rules.pieces.iter().any(|p| p.piece_limit.is_some()),
            burners: rules.pieces.iter().any(|p| p.burns),
            neighbours_first: geo.len() > NEIGHBOURS_FIRST_SQUARES,
            drop_mate: kinds.iter().any(|k| k.drop.no_drop_mate),
            royals: kinds.iter().any(|k| k.royal),
            hem_check: false,
            leaper_targets: vec![],
            leapers: vec![],
            beyond: [vec![], vec![]],
            zobrist: Zobrist::new(4 * (kinds.len() + 1), geo.len(), kinds.len()),
            kinds,
            rules,
        };
        tables.promotion_reaches = tables.kinds.iter().map(|info| tables.reaches_of(info)).collect();
        tables.build_rays();
        tables.build_lines();
        tables.build_attacks();
        tables.hem_check = 5 * tables.hemmed_at_start() >= tables.rules.setup.len();
        tables.mark_reaches_past_neighbours();
        tables.build_leaper_targets();
        tables
    }

    /// A kind's promotion reach from outside the zone and from within it: 0 for a kind with
    /// nothing to turn into; every distance where a move in the zone, any move (a flip) or
    /// any capture may give the choice; else the zone's depth, and the last rank where the
    /// kind may turn there.
    fn reaches_of(&self, info: &KindInfo) -> [u8; 2] {
        if info.turns_to.is_none() {
            return [0, 0];
        }
        let outside = if self.flip.is_some() || self.capture_promotion.is_some() {
            u8::MAX
        } else {
            self.zone
                .map_or(0, |zone| zone.depth)
                .max(u8::from(info.promotion.last_rank_optional))
        };
        [outside, u8::MAX]
    }

    /// How far from `side`'s far edge a move of `kind` from `from` may end and give a
    /// promotion choice: a move ending farther out gives none.
    #[inline]
    pub(crate) fn promotion_reach(&self, kind: PieceId, side: Side, from: Sq) -> u8 {
        self.promotion_reaches[kind.index()][usize::from(self.in_zone(side, from))]
    }

    /// Whether `sq` is in `side`'s promotion zone.
    #[inline]
    pub(crate) fn in_zone(&self, side: Side, sq: Sq) -> bool {
        self.zone.is_some_and(|zone| self.depth(side, sq) <= zone.depth)
    }

    /// Sets [`CodeFacts::reaches_past_neighbours`] of the piece codes under the hemmed-in
    /// test (none without it): a kind without a ring of neighbours its moves begin on, or
    /// every kind under `moves-as-piece-behind` (a piece may move as another).
    fn mark_reaches_past_neighbours(&mut self) {
        for code in 4..self.codes.len() {
            let code16 = code as u16;
            let ring = self.rings[code_kind(code16).index() * 2 + code_side(code16).index()];
            self.codes[code].reaches_past_neighbours =
                self.hem_check && (ring.is_none() || self.rules.moves_as_piece_behind);
        }
    }

    /// Turns the hemmed-in test on or off (tests compare generation with and without it).
    #[cfg(test)]
    pub(super) fn set_hem_check(&mut self, on: bool) {
        self.hem_check = on;
        self.mark_reaches_past_neighbours();
    }

    /// The leapers' target sets and the squares beyond each distance from the far edge, on
    /// a board whose squares fit in 128 bits.
    fn build_leaper_targets(&mut self) {
        let (len, files) = (self.geo.len(), usize::from(self.geo.files));
        if !fits_low_bits(len, files) {
            return;
        }
        let bit = |sq: Sq| 1u128 << square_bit(sq, files);
        for kind in 0..self.kinds.len() {
            for side in [Side::Black, Side::White] {
                let (a, b) = self.stretch_ranges[kind * 2 + side.index()];
                let leaper = self.kinds[kind].walked.is_empty()
                    && self.stretches[a as usize..b as usize]
                        .iter()
                        .all(|s| s.end == s.first + 1 && s.mode == Mode::Any && !s.slow && !s.from_last_rank);
                self.leapers.push(leaper);
                for sq in self.geo.squares() {
                    let targets = if leaper {
                        self.rays(PieceId(kind as u16), side, sq)
                            .flat_map(|ray| ray.squares())
                            .fold(0, |set, to| set | bit(to))
                    } else {
                        0
                    };
                    self.leaper_targets.push(targets);
                }
            }
        }
        self.beyond = [Side::Black, Side::White].map(|side| {
            (0..=self.geo.ranks)
                .map(|d| {
                    self.geo
                        .squares()
                        .filter(|&sq| self.depth(side, sq) > d)
                        .fold(0, |set, sq| set | bit(sq))
                })
                .collect()
        });
    }

    /// The squares `kind` of `side` on `sq` reaches, as bits of an [`Occupancy`](super::occupancy::Occupancy)'s
    /// [`low_bits`](super::occupancy::Occupancy::low_bits), where it is a leaper whose every run is one square
    /// it may move to or capture on; `None` for any other kind, or on a larger board.
    #[inline]
    pub(crate) fn leaper_targets(&self, kind: PieceId, side: Side, sq: Sq) -> Option<u128> {
        let i = kind.index() * 2 + side.index();
        if !*self.leapers.get(i)? {
            return None;
        }
        Some(self.leaper_targets[i * self.geo.len() + sq.index()])
    }

    /// Whether positions keep the squares each side occupies
    /// ([`Occupancy`](super::occupancy::Occupancy)): for the hemmed-in test, or where the
    /// squares fit in 128 bits (the leapers' targets, the drops counted on the empty squares).
    #[inline]
    pub(crate) fn keeps_occupancy(&self) -> bool {
        self.hem_check || self.has_low_bits()
    }

    /// Whether the board's squares fit in 128 bits, where the tables keep the leapers'
    /// targets and [`beyond`](Self::beyond).
    #[inline]
    pub(crate) fn has_low_bits(&self) -> bool {
        !self.beyond[0].is_empty()
    }

    /// The bits of the squares farther than `depth` from `side`'s far edge (all of them past
    /// the number of ranks: none), on a board whose squares fit in 128 bits.
    #[inline]
    pub(crate) fn beyond(&self, side: Side, depth: u8) -> u128 {
        let row = &self.beyond[side.index()];
        row[usize::from(depth).min(row.len() - 1)]
    }

    /// How many pieces of the starting position are hemmed in by their own side.
    fn hemmed_at_start(&self) -> usize {
        let geo = self.geo;
        let mut owner = vec![None; geo.len()];
        for p in &self.rules.setup {
            owner[(geo.index(p.square)).index()] = Some(p.side);
        }
        let held = |sq: Sq, side: Side| neighbours_where(geo, sq, |n| owner[n.index()] == Some(side));
        self.rules
            .setup
            .iter()
            .filter(|p| {
                let sq = geo.index(p.square);
                self.hemmed_in(p.piece, p.side, sq, held(sq, p.side))
            })
            .count()
    }

    /// The rules these tables were built from.
    #[inline]
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    #[inline]
    pub fn geometry(&self) -> Geometry {
        self.geo
    }

    /// The kind whose movements the piece `code` on `sq` moves and attacks with: its own,
    /// or under `moves-as-piece-behind` that of a piece of its side directly behind it
    /// (`ignore` counting as an empty square).
    #[inline]
    pub(crate) fn moving_kind(&self, board: &[u16], sq: Sq, code: u16, ignore: Sq) -> PieceId {
        let own = code_kind(code);
        if self.behind[0].is_empty() {
            return own;
        }
        let side = code_side(code);
        let behind = self.behind[side.index()][sq.index()];
        if behind == NO_SQ || behind == ignore {
            return own;
        }
        let friend = board[behind.index()];
        if friend != 0 && code_side(friend) == side {
            code_kind(friend)
        } else {
            own
        }
    }

    /// The facts move generation reads about a piece kind.
    #[inline]
    pub fn kind(&self, id: PieceId) -> &KindInfo {
        &self.kinds[id.index()]
    }

    /// The facts read on every move about the kind of the piece `code`.
    #[inline]
    pub(crate) fn code(&self, code: u16) -> CodeFacts {
        self.codes[usize::from(code)]
    }

    /// The facts about every kind, by [`PieceId`] index.
    #[inline]
    pub fn kinds(&self) -> &[KindInfo] {
        &self.kinds
    }

    #[inline]
    pub fn kind_count(&self) -> usize {
        self.kinds.len()
    }

    /// Whether `kind` of `side` on `sq` has no move because every move it has begins on a
    /// neighbouring square, and each of those is off the board or in `own` (the neighbours
    /// its side holds, as bits of [`neighbourhood`](Self::neighbourhoods)).
    #[inline]
    pub(crate) fn hemmed_in(&self, kind: PieceId, side: Side, sq: Sq, own: u16) -> bool {
        self.rings[kind.index() * 2 + side.index()]
            .is_some_and(|ring| ring & self.neighbourhoods[sq.index()] & !own == 0)
    }

    /// The number of moves of `kind` of `side` on `sq` when it is a stepper (see
    /// [`steppers`](Self::steppers)), `held` its neighbours its side holds (bits of
    /// [`neighbourhoods`](Self::neighbourhoods)), not counting promotion choices; `None`
    /// for any other kind.
    #[inline]
    pub(crate) fn stepper_moves(&self, kind: PieceId, side: Side, sq: Sq, held: u16) -> Option<u64> {
        self.steppers[kind.index() * 2 + side.index()]
            .map(|ring| u64::from((ring & self.neighbourhoods[sq.index()] & !held).count_ones()))
    }

    /// The runs of squares of `kind` for `side` from `sq`, in the order of its movements.
    #[inline]
    pub(crate) fn rays(&self, kind: PieceId, side: Side, sq: Sq) -> Rays<'_> {
        self.open_rays(kind, side, sq, 0)
    }

    /// The runs of [`rays`](Self::rays) but those that begin on a neighbour of `held`
    /// (bits of [`neighbourhood`](Self::neighbourhoods)): the neighbours the piece's own side
    /// holds, where those runs end at once.
    #[inline]
    pub(crate) fn open_rays(&self, kind: PieceId, side: Side, sq: Sq, held: u16) -> Rays<'_> {
        let (a, b) = self.stretch_ranges[kind.index() * 2 + side.index()];
        let row = sq.index() * self.deltas.len();
        Rays {
            stretches: self.stretches[a as usize..b as usize].iter(),
            steps: &self.steps[row..row + self.deltas.len()],
            deltas: &self.deltas,
            from: sq,
            depth: self.depth(side, sq),
            held,
        }
    }

    /// Whether one of `squares` is on the line from `from` (not included) to `to`
    /// (included): a sweep over one of a side's royals.
    #[inline]
    pub(crate) fn line_holds(&self, from: Sq, to: Sq, squares: &[Sq]) -> bool {
        squares.iter().any(|&sq| self.on_line_to(from, to, sq))
    }

    /// Whether `sq` is on the line from `from` (not included) to `to` (included), where `to`
    /// is on a line through `from` (a file, rank or diagonal).
    #[inline]
    pub(crate) fn on_line_to(&self, from: Sq, to: Sq, sq: Sq) -> bool {
        let at = |s: Sq| self.coordinates[s.index()];
        let ((fa, ra), (fb, rb), (fc, rc)) = (at(from), at(to), at(sq));
        let (dx, dy, ex, ey) = (fb - fa, rb - ra, fc - fa, rc - ra);
        let (n, k) = (dx.abs().max(dy.abs()), ex.abs().max(ey.abs()));
        (1..=n).contains(&k) && ex * n == dx * k && ey * n == dy * k
    }

    /// How far `sq` is from `side`'s far edge: 1 on the last rank.
    #[inline]
    pub(crate) fn depth(&self, side: Side, sq: Sq) -> u8 {
        self.depths[side.index()][sq.index()]
    }

    /// The squares walking out from `sq` in direction `dir` (index into [`DIRS`]).
    #[inline]
    pub(crate) fn line(&self, sq: Sq, dir: usize) -> &[Sq] {
        let (start, len) = self.lines[sq.index() * 8 + dir];
        &self.line_squares[start as usize..start as usize + usize::from(len)]
    }

    /// How far `kind` of `side` rides (capturing) along board direction `dir`.
    #[inline]
    pub(crate) fn ride_reach(&self, side: Side, dir: usize, kind: PieceId) -> u8 {
        self.ride_reach[(side.index() * 8 + dir) * self.kinds.len() + kind.index()]
    }

    /// Where a leaper of `side` using leap `index` stands to reach `sq`.
    #[inline]
    pub(crate) fn leap_source(&self, side: Side, index: usize, sq: Sq) -> Sq {
        self.leap_sources[side.index()][index * self.geo.len() + sq.index()]
    }

    /// The runs of every kind for each side as stretches of lines, then how far the line
    /// along each vector goes from every square.
    fn build_rays(&mut self) {
        let longest = self.geo.files.max(self.geo.ranks);
        let mut vectors: Vec<(i32, i32)> = Vec::new();
        for kind in 0..self.kinds.len() {
            for side in [Side::Black, Side::White] {
                let start = self.stretches.len() as u32;
                for movement in &self.rules.pieces[kind].moves {
                    let Some((offset, first, last)) = movement.stretch(longest) else {
                        continue;
                    };
                    let board_vector = Geometry::board_vector(side, offset);
                    let vector = vectors.iter().position(|&v| v == board_vector).unwrap_or_else(|| {
                        vectors.push(board_vector);
                        vectors.len() - 1
                    });
                    let (df, dr) = board_vector;
                    let neighbour = first == 1 && df.abs() <= 1 && dr.abs() <= 1;
                    self.stretches.push(Stretch {
                        vector: vector as u16,
                        first: first - 1,
                        end: last,
                        mode: movement.mode(),
                        slow: movement::unrolled_walked_by_attack(movement),
                        from_last_rank: movement.from_last_rank(),
                        ring_bit: if neighbour { neighbour_bit(df, dr) } else { 0 },
                    });
                }
                self.stretch_ranges.push((start, self.stretches.len() as u32));
                let ring = self.stretches[start as usize..].iter().try_fold(0, |ring, stretch| {
                    (stretch.ring_bit != 0).then_some(ring | stretch.ring_bit)
                });
                let walked_ring = self.kinds[kind]
                    .walked
                    .iter()
                    .try_fold(0, |ring, movement| walked_ring(movement, side).map(|bits| ring | bits));
                self.rings.push(ring.zip(walked_ring).map(|(runs, walks)| runs | walks));
                let walks = self.kinds[kind].walked.is_empty();
                let steps = self.stretches[start as usize..].iter().all(|stretch| {
                    stretch.end == stretch.first + 1
                        && stretch.mode == Mode::Any
                        && !stretch.slow
                        && !stretch.from_last_rank
                });
                let overlapping = self.kinds[kind].overlapping;
                self.steppers.push(ring.filter(|_| walks && steps && !overlapping));
            }
        }
        let files = i32::from(self.geo.files);
        // A file to the left (a higher file number) is one index less; a rank down, a row more.
        self.deltas = vectors.iter().map(|&(df, dr)| dr * files - df).collect();
        self.neighbourhoods = self
            .geo
            .squares()
            .map(|sq| neighbours_where(self.geo, sq, |_| true))
            .collect();
        for sq in self.geo.squares() {
            for &(df, dr) in &vectors {
                let mut at = sq;
                let mut steps = 0u8;
                while steps < longest
                    && let Some(next) = self.geo.step(at, df, dr)
                {
                    at = next;
                    steps += 1;
                }
                self.steps.push(steps);
            }
        }
    }

    fn build_lines(&mut self) {
        for sq in self.geo.squares() {
            for (df, dr) in DIRS {
                let start = self.line_squares.len() as u32;
                let mut at = sq;
                while let Some(next) = self.geo.step(at, i32::from(df), i32::from(dr)) {
                    self.line_squares.push(next);
                    at = next;
                }
                self.lines
                    .push((start, (self.line_squares.len() as u32 - start) as u16));
            }
        }
    }

    fn build_attacks(&mut self) {
        let kinds = self.kinds.len();
        for side in [Side::Black, Side::White] {
            let mut leaps: Vec<Leap> = Vec::new();
            let mut leap_index: std::collections::HashMap<(i32, i32), usize> = std::collections::HashMap::new();
            for kind in 0..kinds {
                self.has_slow[side.index()] |= self.kinds[kind].slow_attacker;
                for movement in &self.rules.pieces[kind].moves {
                    for (vector, reach) in attack_vectors(movement, side, self.geo) {
                        match reach {
                            Reach::Ride(max) => {
                                let dir = DIRS
                                    .iter()
                                    .position(|&(df, dr)| (i32::from(df), i32::from(dr)) == vector)
                                    .expect("a ride goes along one of the eight king steps: the compiler makes rides only from the language's directions");
                                let slot = &mut self.ride_reach[(side.index() * 8 + dir) * kinds + kind];
                                *slot = (*slot).max(max);
                                let longest = &mut self.longest_ride[side.index()][dir];
                                *longest = (*longest).max(max);
                            }
                            Reach::Leap => {
                                let index = *leap_index.entry(vector).or_insert_with(|| {
                                    leaps.push((vector, vec![false; kinds]));
                                    leaps.len() - 1
                                });
                                leaps[index].1[kind] = true;
                            }
                        }
                    }
                }
            }
            let n = self.geo.len();
            let mut sources = vec![NO_SQ; leaps.len() * n];
            for (index, ((df, dr), _)) in leaps.iter().enumerate() {
                for sq in (0..n).map(Sq::new) {
                    sources[index * n + sq.index()] = self.geo.step(sq, -df, -dr).unwrap_or(NO_SQ);
                }
            }
            self.leaps[side.index()] = leaps;
            self.leap_sources[side.index()] = sources;
        }
    }
}

/// The bit of [`MoveTables::neighbourhoods`] for the neighbour one board step `(df, dr)`
/// away (a file to the left is one index less).
fn neighbour_bit(df: i32, dr: i32) -> u16 {
    1 << ((dr + 1) * 3 + 1 - df)
}

/// The neighbours (bits of [`MoveTables::neighbourhoods`]) on which every move of the walked
/// movement begins for `side`, where none of its moves goes on from there when the mover's
/// side holds the square: a hook's first square (a piece there ends its first leg), an
/// igui's target (an enemy's square), an area move's first steps (through empty squares).
/// `None` for the movements that may begin farther out or pass a piece.
fn walked_ring(movement: &Movement, side: Side) -> Option<u16> {
    let step = |dir: Offset| {
        let (df, dr) = Geometry::board_vector(side, dir);
        (df.abs() <= 1 && dr.abs() <= 1 && (df, dr) != (0, 0)).then(|| neighbour_bit(df, dr))
    };
    match *movement {
        Movement::Hook { dir, .. } | Movement::Igui { dir, .. } => step(dir),
        Movement::Area { dirs, .. } => dirs.offsets().try_fold(0, |ring, dir| step(dir).map(|bit| ring | bit)),
        // Unrolled into the tables: never among the walked movements.
        Movement::Ride { .. } | Movement::Leap { .. } => None,
        Movement::AreaLion { .. }
        | Movement::LineLion { .. }
        | Movement::Anywhere { .. }
        | Movement::RangeJump { .. }
        | Movement::RangeCapture { .. }
        | Movement::Passing { .. }
        | Movement::Hop { .. } => None,
    }
}

/// The neighbours of `sq` on the board that `wanted` picks, as bits of
/// [`MoveTables::neighbourhoods`].
fn neighbours_where(geo: Geometry, sq: Sq, wanted: impl Fn(Sq) -> bool) -> u16 {
    DIRS.iter()
        .filter(|&&(df, dr)| geo.step(sq, i32::from(df), i32::from(dr)).is_some_and(&wanted))
        .fold(0, |bits, &(df, dr)| bits | neighbour_bit(i32::from(df), i32::from(dr)))
}

fn kind_info(rules: &Rules, id: PieceId, geo: Geometry) -> KindInfo {
    let kind = rules.piece(id);
    KindInfo {
        royal: kind.royal,
        promotion: kind.promotion.clone(),
        drop: kind.drop.clone(),
        unpromoted: kind.promotion.reverts_to.map_or(id, |p| base_of(rules, p)),
        turns_to: kind
            .promotion
            .to
            .or(kind.promotion.reverts_to.filter(|_| rules.flip.is_some())),
        hand: {
            let base = kind.promotion.reverts_to.map_or(id, |p| base_of(rules, p));
            rules.piece(base).captured_as.unwrap_or(base)
        },
        piece_limit: kind.piece_limit,
        lion: kind.lion,
        overlapping: movement::overlapping(&kind.moves, geo),
        slow_attacker: movement::slow_attacker(&kind.moves, kind.burns),
        hook_attacker_only: !kind.burns && movement::hook_attacker_only(&kind.moves),
        last_rank_attacker_only: !kind.burns && movement::last_rank_attacker_only(&kind.moves),
        jump_rank: kind.jump_rank.unwrap_or(u8::MAX),
        burns: kind.burns,
        anywhere_alone: matches!(kind.moves[..], [Movement::Anywhere { .. }]),
        walked: movement::walked(&kind.moves),
    }
}

/// The unpromoted root of a promotion chain.
fn base_of(rules: &Rules, mut id: PieceId) -> PieceId {
    let mut guard = 0;
    while let Some(prev) = rules.piece(id).promotion.reverts_to {
        id = prev;
        guard += 1;
        if guard > rules.pieces.len() {
            break;
        }
    }
    id
}

fn zone_rule(rules: &Rules) -> Option<ZoneRule> {
    rules.promotion.iter().find_map(|t| match t.when {
        PromotionEvent::Zone {
            depth,
            enter,
            within,
            leave,
            capture,
        } => Some(ZoneRule {
            depth,
            enter,
            within,
            leave,
            capture,
            compulsory: t.compulsory,
        }),
        PromotionEvent::Capture => None,
    })
}

#[cfg(test)]
mod tests {
    use super::MoveTables;
    use crate::compile::{compile_named, limits::table_runs};

    /// The compiler sizes the tables (for koma's limits) by the model the tables are built with.
    #[test]
    fn table_sizes_match_the_compilers_count() {
        for &(name, _) in crate::compile::source::SHIPPED {
            let rules = compile_named(name, &[]).rules.expect("a shipped variant compiles");
            let runs: u64 = rules
                .pieces
                .iter()
                .flat_map(|p| &p.moves)
                .map(|m| 2 * table_runs(m))
                .sum();
            let tables = MoveTables::new(rules);
            assert_eq!(tables.stretches.len() as u64, runs, "{name}");
        }
    }
}
