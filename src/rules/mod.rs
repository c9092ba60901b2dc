//! The compiled rules of a variant: flat, span-free, serialisable data.
//!
//! This is what the compiler produces from a `.var` file and what the interpreter reads.
//! Pieces are numbered by [`PieceId`] (their order of definition); every reference between
//! pieces is such an id. Geometry is stated from the mover's point of view: an [`Offset`]
//! counts squares to the mover's right (`dx`) and forward (`dy`). Nothing here refers back
//! to the source text, so two files that mean the same game compile to equal rules.

mod geometry;
mod movement;

pub use geometry::{BoardSize, MAX_BOARD_SIDE, Offset, Side, Square, rank_name, rank_number};
pub use movement::{KingSteps, Movement, hook_turns};

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

/// Index of a piece kind in [`Rules::pieces`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PieceId(pub u16);

impl PieceId {
    #[inline]
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

/// A whole variant, compiled for one choice of its options.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Rules {
    pub name: String,
    /// The options a player picks at the start, with the value chosen for these rules.
    pub options: IndexMap<String, GameOption>,
    pub board: BoardSize,
    pub pieces: Vec<PieceKind>,
    /// The starting position, Black's pieces first.
    pub setup: Vec<Placement>,
    /// The pieces in hand at the start (the setup's `hand:` rows), one entry per piece,
    /// Black's first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hand: Vec<InHand>,
    pub promotion: Vec<PromotionTrigger>,
    /// Chu's deferral rule: a piece that declines to promote on entering the zone may not
    /// promote on its next move unless that move captures.
    pub deferral: bool,
    /// Captured pieces go to the capturer's hand and may be dropped.
    pub drops: bool,
    /// A piece in hand may be dropped as either of its faces: unpromoted, or promoted.
    #[serde(default, skip_serializing_if = "is_false")]
    pub drop_either_face: bool,
    /// Two-faced pieces turn over on every capture, or on every move, both ways: an unpromoted
    /// piece promotes and a promoted one turns back, always (in place of promotion triggers).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flip: Option<FlipEvent>,
    /// A capture-unprotected mover (the Emperor) protects the pieces of its side it could
    /// take back on: a piece counts as protected when such a mover reaches its square and
    /// the capturer would stand there unprotected by its own side (judged without
    /// capture-unprotected movers). Otherwise capture-unprotected movers protect nothing.
    #[serde(default, skip_serializing_if = "is_false")]
    pub capture_unprotected_protects: bool,
    /// A piece with a friendly piece directly behind it (one square back, from its owner's
    /// side) moves and attacks as that piece, promoted or not; otherwise as itself. No piece
    /// is ever without a move for good, so nothing is derived as forced promotion or as a
    /// rank where drops are barred.
    #[serde(default, skip_serializing_if = "is_false")]
    pub moves_as_piece_behind: bool,
    /// Compulsory capture (`must-capture`): while a side has a legal move that captures, its
    /// other moves (drops among them) are illegal.
    #[serde(default, skip_serializing_if = "is_false")]
    pub must_capture: bool,
    pub end: EndRules,
    pub handicaps: Vec<Handicap>,
}

/// An option of the variant, as declared, with the value in force.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameOption {
    pub description: Option<String>,
    pub values: Vec<String>,
    pub chosen: String,
}

/// One piece on a square at the start.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Placement {
    pub square: Square,
    pub side: Side,
    pub piece: PieceId,
}

/// One piece in a side's hand at the start.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct InHand {
    pub side: Side,
    pub piece: PieceId,
}

/// A kind of piece: its names, its value and how it moves.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PieceKind {
    /// Notation abbreviation as the rule texts use it (`K`, `Ln`, `+P`).
    pub abbrev: String,
    pub name: String,
    pub kanji: Option<String>,
    /// SFEN letter in lower case (White's form), `+` first for a promoted piece.
    pub sfen: Option<String>,
    /// Worth for the computer player.
    pub value: u32,
    /// Must be captured (all royals of a side) to win.
    pub royal: bool,
    pub moves: Vec<Movement>,
    pub promotion: PiecePromotion,
    pub drop: DropRestrictions,
    pub lion: LionRole,
    /// At most this many unpromoted pieces of the kind of one side on a file, after a move
    /// as after a drop (`piece-limit`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub piece_limit: Option<u8>,
    /// Captured, it enters the capturer's hand as this kind instead of its own unpromoted
    /// kind (`captured-as`: Whale Shogi's Porpoise becomes a Killer Whale).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub captured_as: Option<PieceId>,
    /// Its place in the range-jumping order, 1 the highest (`jump-rank N`): a `range-jump`
    /// move jumps over, and jump-captures, only pieces ranked strictly below the mover, and a
    /// `range-capture` move passes over and captures only those. A
    /// piece without one ranks below every ranked piece.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub jump_rank: Option<u8>,
    /// It burns (`burns`): after its move, every enemy piece next to it is captured, and an
    /// enemy piece that ends its move next to it is removed (an enemy burner too).
    #[serde(default, skip_serializing_if = "is_false")]
    pub burns: bool,
}

/// How a piece promotes and reverts.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct PiecePromotion {
    /// The kind it turns into on promotion.
    pub to: Option<PieceId>,
    /// The kind it reverts to when captured (itself when `None`).
    pub reverts_to: Option<PieceId>,
    /// Promotion is compulsory on a move that ends on one of the last `forced_ranks`
    /// ranks (derived: where the unpromoted piece would have no further move).
    pub forced_ranks: u8,
    /// Chu's pawn rule: once it declines on entering the zone, it may promote again only on
    /// the last rank, where it must.
    pub declined_waits_for_last_rank: bool,
    /// The Chu Shogi Renmei's last-rank rule: a move to the last rank may promote, whatever
    /// the promotion triggers say and even after declining before, and may decline (the
    /// piece then stays there without a move); never forced.
    pub last_rank_optional: bool,
}

/// Where and how often a piece may be dropped.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct DropRestrictions {
    /// No drop on the last `dead_ranks` ranks (derived: no further move from there).
    pub dead_ranks: u8,
    /// At most this many unpromoted pieces of the kind on one file, of one side.
    pub per_file: Option<u8>,
    /// A drop of this kind may not give immediate mate.
    pub no_drop_mate: bool,
    /// No drop on the last rank, whatever the piece could do from there (`no-drop-last-rank`).
    #[serde(default, skip_serializing_if = "is_false")]
    pub not_on_last_rank: bool,
}

impl DropRestrictions {
    /// The number of last ranks where the piece may not be dropped.
    pub fn banned_ranks(&self) -> u8 {
        self.dead_ranks.max(u8::from(self.not_on_last_rank))
    }
}

/// The part a piece plays in Chu's lion-trading rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum LionRole {
    /// No part.
    #[default]
    NotLion,
    /// A Lion: protected by the lion-trading rules.
    Lion,
    /// Capturing it first does not let a Lion take a protected Lion two squares away.
    WeakBridge,
}

/// What a move may do on its destination.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum Mode {
    /// Move to an empty square or capture.
    #[default]
    Any,
    MoveOnly,
    CaptureOnly,
    /// Move to an empty square, or capture a piece no other enemy piece protects.
    CaptureUnprotected,
}

impl Mode {
    pub fn is_any(&self) -> bool {
        *self == Mode::Any
    }

    pub fn can_move(self) -> bool {
        !matches!(self, Mode::CaptureOnly)
    }
    pub fn can_capture(self) -> bool {
        !matches!(self, Mode::MoveOnly)
    }
}

/// The most royal pieces a side may have (or come to have by promotion or drops) that a
/// position keeps track of.
pub const MAX_ROYALS: usize = 4;

/// The most steps of a lion move (the Teaching King's three): a move records the squares
/// it captures on before its destination in two slots.
pub const MAX_LION_STEPS: u8 = 3;

/// The most king steps of an area move (`area N`).
pub const MAX_AREA_STEPS: u8 = 5;

/// When a move gives the chance (or the duty) to promote.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PromotionTrigger {
    pub when: PromotionEvent,
    /// The piece must promote whenever the event happens.
    pub compulsory: bool,
    /// On a capture trigger: the piece must promote when a piece it captures is promoted,
    /// and may otherwise (`promotion capture compulsory-on-promoted`).
    #[serde(default, skip_serializing_if = "is_false")]
    pub compulsory_on_promoted: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum PromotionEvent {
    /// A move touching the far `depth` ranks: entering them, moving within them, leaving them.
    Zone {
        depth: u8,
        enter: bool,
        within: bool,
        leave: bool,
        /// Any capture whose start or end is in the zone (Chu Shogi Renmei's rule beside
        /// promotion on entering).
        #[serde(default, skip_serializing_if = "is_false")]
        capture: bool,
    },
    /// Any capture, anywhere on the board.
    Capture,
}

/// When two-faced pieces turn over under a flip rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum FlipEvent {
    /// Each time the piece captures.
    Capture,
    /// Each time the piece moves on the board.
    Move,
}

fn is_false(value: &bool) -> bool {
    !*value
}

/// How a game ends.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EndRules {
    /// What it means for the side to move to have no legal move and not be in check.
    pub stalemate: Verdict,
    /// Chu: a side left with only royal pieces loses, unless it bares the other side's
    /// royal at once (then it is a draw).
    pub bare_king: bool,
    /// A side that gives check wins at once: a position whose side to move is in check is
    /// over (the first check wins).
    #[serde(default, skip_serializing_if = "is_false")]
    pub check_wins: bool,
    /// The try (`try N`): a side whose royal piece stands on one of its far ranks wins.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub try_rule: Option<Try>,
    /// Extinction (`extinction`): a side left without pieces, or without every piece of one
    /// kind, has won, lost or drawn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extinction: Option<Extinction>,
    pub repetition: Option<Repetition>,
    /// Moves that leave the mover's last royal capturable are legal (they just lose).
    pub royal_capture_allowed: bool,
    /// Chu's rule: a Lion may not take a protected Lion two squares away unless it first
    /// captured a piece that is not a weak bridge.
    pub lion_trading: bool,
    /// When the Lion taken is judged protected under `lion_trading`.
    #[serde(default, skip_serializing_if = "LionDefence::is_defended")]
    pub lion_defence: LionDefence,
    /// Chu's rule: after a non-Lion captures a Lion, the opponent may not capture a Lion with
    /// a non-Lion on the next move.
    pub counter_strike: bool,
    /// A burner that ends its move next to an enemy burner burns its other neighbours before
    /// it is burnt (`burns-before-burnt`); otherwise it is burnt at once and burns nothing.
    #[serde(default, skip_serializing_if = "is_false")]
    pub burns_before_burnt: bool,
}

/// The try: a side whose royal piece stands on one of its far `depth` ranks wins, as
/// `reading` says when (Dobutsu Shogi's Lion; campmate in chess variants).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Try {
    pub depth: u8,
    pub reading: TryReading,
}

/// Extinction: a side with no piece left of the kinds in `kinds` (of any kind, when it is
/// empty), on the board or in hand, promoted or not, gets `verdict` (antichess's and
/// Anti-Minishogi's win by losing every piece; Extinction chess's loss of a whole kind).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Extinction {
    pub verdict: Verdict,
    /// The unpromoted kinds watched (each with its promoted face); empty: every piece.
    pub kinds: Vec<PieceId>,
}

/// When a royal piece on its far ranks wins under [`Try`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum TryReading {
    /// As soon as it stands there (`try N`: campmate).
    Reached,
    /// As soon as it stands there where no enemy piece attacks it, whoever is to move
    /// (`try N unattacked`: Fairy-Stockfish's reading of Dobutsu's try).
    Unattacked,
    /// When its side is to move again: the opponent had one move to take it
    /// (`try N unless-taken`: Dobutsu's rules).
    UnlessTaken,
}

/// When a Lion taken two squares away counts as protected, under Chu's Lion-trading rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum LionDefence {
    /// A piece of its side could capture on its square were the capturing Lion there, the
    /// pieces the move captures first included (a Pawn taken on the way still defends: the
    /// Chu Shogi Renmei's reading, lishogi's).
    #[default]
    Defended,
    /// A piece of its side could capture the capturing Lion after the whole move, the pieces
    /// it took on the way gone (`defended-after-move`: H. G. Muller's reading, HaChu's).
    AfterMove,
}

impl LionDefence {
    pub fn is_defended(&self) -> bool {
        *self == LionDefence::Defended
    }
}

/// The result for the side to move a rule declares: what stalemate is for the side
/// stalemated, what extinction is for the side left without the pieces watched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Verdict {
    Win,
    Draw,
    Loss,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Repetition {
    /// The occurrence of the same position that the rule is about (3 or 4).
    pub count: u8,
    pub effect: RepetitionEffect,
    /// A repetition produced by continuous checks loses for the checking side.
    pub perpetual_check_loses: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum RepetitionEffect {
    /// The game is drawn.
    Draw,
    /// A move that would repeat the position for the `count`-th time is illegal.
    Illegal,
    /// The player who started the cycle must vary: that player's repeating move is illegal.
    StarterVaries,
}

/// A named handicap: White's pieces removed from these squares; White then moves first.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Handicap {
    pub name: String,
    pub squares: Vec<Square>,
}

impl Rules {
    /// A piece kind as a player reads it: its name and abbreviation, `Lion (Ln)`.
    pub fn piece_name(&self, kind: PieceId) -> String {
        let piece = &self.pieces[kind.index()];
        format!("{} ({})", piece.name, piece.abbrev)
    }

    /// The rules as RON, one movement or placement per line.
    pub fn to_ron(&self) -> String {
        let config = ron::ser::PrettyConfig::default().depth_limit(4).struct_names(false);
        ron::ser::to_string_pretty(self, config).unwrap_or_else(|e| format!("/* cannot serialise: {e} */"))
    }

    #[inline]
    pub fn piece(&self, id: PieceId) -> &PieceKind {
        &self.pieces[id.index()]
    }

    /// Finds a piece kind by its abbreviation.
    /// Per kind: royal, or promoting (in any number of steps) to a royal kind.
    pub fn may_be_royal(&self) -> Vec<bool> {
        self.pieces
            .iter()
            .map(|p| {
                let mut kind = p;
                for _ in 0..=self.pieces.len() {
                    if kind.royal {
                        return true;
                    }
                    match kind.promotion.to {
                        Some(next) => kind = self.piece(next),
                        None => return false,
                    }
                }
                false
            })
            .collect()
    }

    /// Every piece of the start, on the board and in hand: its side and kind.
    pub fn start_pieces(&self) -> impl Iterator<Item = (Side, PieceId)> + '_ {
        let board = self.setup.iter().map(|p| (p.side, p.piece));
        board.chain(self.hand.iter().map(|h| (h.side, h.piece)))
    }

    pub fn piece_by_abbrev(&self, abbrev: &str) -> Option<PieceId> {
        self.pieces
            .iter()
            .position(|p| p.abbrev == abbrev)
            .map(|i| PieceId(i as u16))
    }

    #[inline]
    pub fn piece_ids(&self) -> impl Iterator<Item = PieceId> + '_ {
        (0..self.pieces.len()).map(|i| PieceId(i as u16))
    }
}
