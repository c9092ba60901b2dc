//! The syntax tree of a `.var` file: what was written, where (byte spans), nothing resolved.

use std::ops::Range;

/// A byte range in the source text.
pub type Span = Range<usize>;

/// A value with the span it was read from.
#[derive(Debug, Clone, PartialEq)]
pub struct Spanned<T> {
    pub node: T,
    pub span: Span,
}

impl<T> Spanned<T> {
    pub fn new(node: T, span: Span) -> Self {
        Spanned { node, span }
    }
}

/// A whole file: its statements in order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct File {
    pub statements: Vec<Spanned<Statement>>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Statement {
    /// `variant "Chu Shogi"`
    Variant(Spanned<String>),
    /// `use "chu"` or `use "chu": K, DE`
    Use {
        source: Spanned<String>,
        pieces: Vec<Spanned<String>>,
    },
    /// `board 12 x 12`
    Board {
        files: Spanned<u32>,
        ranks: Spanned<u32>,
    },
    /// `option teaching-king "Teaching King version" = 1 | 2`
    Option(OptionDecl),
    Piece(PieceDecl),
    Setup(SetupDecl),
    /// A rule statement, possibly only in force under some option value.
    Rule {
        rule: Spanned<RuleStatement>,
        guard: Option<Guard>,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub struct OptionDecl {
    pub name: Spanned<String>,
    pub description: Option<String>,
    pub values: Vec<Spanned<String>>,
}

/// `when NAME = VALUE | VALUE`
#[derive(Debug, Clone, PartialEq)]
pub struct Guard {
    pub option: Spanned<String>,
    pub values: Vec<Spanned<String>>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub struct PieceDecl {
    pub abbrev: Spanned<String>,
    pub name: Spanned<String>,
    pub attributes: Vec<Spanned<Attribute>>,
    pub clauses: Vec<Clause>,
    pub moves_span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Attribute {
    Sfen(String),
    Kanji(String),
    Value(u32),
    Royal,
    Promotes(Spanned<String>),
    MustPromote(Spanned<u32>),
    /// `jump-rank N`: its place in the range-jumping order.
    JumpRank(Spanned<u32>),
    /// `burns`: it burns the enemy pieces next to it.
    Burns,
    /// A word that is not an attribute.
    Unknown(String),
}

/// One clause of a piece's moves: `capture-only step diagonal when x = y`.
#[derive(Debug, Clone, PartialEq)]
pub struct Clause {
    pub modifiers: Vec<Spanned<Modifier>>,
    pub movement: Spanned<MovementSyntax>,
    pub guard: Option<Guard>,
    pub span: Span,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Modifier {
    MoveOnly,
    CaptureOnly,
    CaptureUnprotected,
    /// `from-last-rank`: only from the mover's last rank (the far one).
    FromLastRank,
    /// `beyond N`: the slide or range starts on square N + 1, jumping the first N.
    Beyond(u32),
    /// `passing N`: the slide or range may pass over up to N pieces (the three-barred arrow).
    Passing(u32),
}

impl Modifier {
    /// The word the modifier is written with.
    pub fn word(self) -> &'static str {
        match self {
            Modifier::MoveOnly => "move-only",
            Modifier::CaptureOnly => "capture-only",
            Modifier::CaptureUnprotected => "capture-unprotected",
            Modifier::FromLastRank => "from-last-rank",
            Modifier::Beyond(_) => "beyond",
            Modifier::Passing(_) => "passing",
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum MovementSyntax {
    Step(Vec<Spanned<String>>),
    Slide(Vec<Spanned<String>>),
    Range(Spanned<u32>, Vec<Spanned<String>>),
    Jump(Spanned<u32>, Vec<Spanned<String>>),
    Leap(Vec<Spanned<(i64, i64)>>),
    /// `lion`, `lion 3`, `lion forward`, `lion 3 forward`.
    Lion(Option<Spanned<u32>>, Vec<Spanned<String>>),
    /// `hook DIRS`, and the directions after `turning` (the second leg only along those).
    Hook(Vec<Spanned<String>>, Option<Spanned<Vec<Spanned<String>>>>),
    Anywhere,
    /// `area N`, `area N DIRS`.
    Area(Spanned<u32>, Vec<Spanned<String>>),
    RangeJump(Vec<Spanned<String>>),
    /// `range-capture DIRS`.
    RangeCapture(Vec<Spanned<String>>),
    Igui(Vec<Spanned<String>>),
    As(Spanned<String>),
    /// A word that is not a kind of movement.
    Unknown(String),
}

#[derive(Debug, Clone, PartialEq)]
pub struct SetupDecl {
    /// `None` for Black's setup (White's then being its rotation), or the side named.
    pub side: Option<Spanned<String>>,
    /// `setup when NAME = VALUE`: the setup under that option.
    pub guard: Option<Guard>,
    pub rows: Vec<Row>,
}

/// `i: L N S G K G S N L`
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub rank: Spanned<String>,
    pub cells: Vec<Spanned<Cell>>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    Empty,
    /// A number of empty squares.
    EmptyRun(u32),
    Piece(String),
    /// Something that is neither a piece abbreviation nor an empty square.
    Bad(String),
}

/// A rule statement: one of the rules of the game (promotion, drops, how a game ends, …).
#[derive(Debug, Clone, PartialEq)]
pub enum RuleStatement {
    Promotion {
        trigger: PromotionSyntax,
        obligation: Option<Spanned<String>>,
    },
    /// `flip on capture|move`: two-faced pieces turn over on every capture, or every move.
    Flip(Spanned<String>),
    Deferral,
    DeclinedWaitsForLastRank(Vec<Spanned<String>>),
    LastRankPromotionOptional(Vec<Spanned<String>>),
    /// `no-forced-promotion ABBR...`: these are never forced to promote; one that reaches a
    /// rank where it has no move stays there.
    NoForcedPromotion(Vec<Spanned<String>>),
    /// `drops`, with the freedoms that follow it (`either-face`, `anywhere`).
    Drops(Vec<Spanned<String>>),
    DropLimit {
        piece: Spanned<String>,
        count: Spanned<u32>,
    },
    NoDropMate(Vec<Spanned<String>>),
    /// `no-drop-last-rank ABBR...`: these may not be dropped on the last rank.
    NoDropLastRank(Vec<Spanned<String>>),
    /// `piece-limit ABBR N per file`: at most N unpromoted pieces of the kind of one side on a
    /// file, after a move as after a drop.
    PieceLimit {
        piece: Spanned<String>,
        count: Spanned<u32>,
    },
    /// `captured-as ABBR ABBR`: a captured piece of the first kind enters the hand as the second.
    CapturedAs {
        captured: Spanned<String>,
        enters_as: Spanned<String>,
    },
    Stalemate(Spanned<String>),
    BareKing,
    /// `check-wins`: a side that gives check wins at once.
    CheckWins,
    /// `try N [unattacked|unless-taken]`: a royal piece on the far N ranks wins.
    Try {
        depth: Spanned<u32>,
        reading: Option<Spanned<String>>,
    },
    /// `extinction win|loss|draw [ABBR...]`: a side left with no piece (on the board or in
    /// hand), or with none of one of the kinds listed, wins, loses or draws.
    Extinction {
        outcome: Spanned<String>,
        kinds: Vec<Spanned<String>>,
    },
    /// `must-capture`: a side that can capture must.
    MustCapture,
    Repetition {
        count: Spanned<u32>,
        effect: Spanned<String>,
        perpetual_check_loses: bool,
    },
    LionTrading {
        lions: Vec<Spanned<String>>,
        weak_bridges: Vec<Spanned<String>>,
        /// `defended-after-move`: protection is judged after the move.
        defended_after_move: bool,
    },
    CounterStrike(Vec<Spanned<String>>),
    RoyalCaptureAllowed,
    /// `capture-unprotected-protects`: a capture-unprotected mover protects the pieces of
    /// its side it could take back on (when the capturer would stand there unprotected).
    CaptureUnprotectedProtects,
    StuckPiecesStay,
    /// `burns-before-burnt`: a burner that ends its move next to an enemy burner burns its
    /// other neighbours before it is burnt.
    BurnsBeforeBurnt,
    /// `moves-as-piece-behind`: a piece with a friendly piece directly behind it moves (and
    /// attacks) as that piece.
    MovesAsPieceBehind,
    Handicap {
        name: Spanned<String>,
        squares: Vec<Spanned<String>>,
    },
    /// A line starting with a word that is no keyword.
    Unknown(Spanned<String>),
}

#[derive(Debug, Clone, PartialEq)]
pub enum PromotionSyntax {
    Zone {
        depth: Spanned<u32>,
        events: Vec<Spanned<String>>,
    },
    Capture,
}
