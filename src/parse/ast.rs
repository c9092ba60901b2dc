//! The syntax tree of a `.var` file: what was written, where (byte spans), nothing resolved.
//! The grammar's closed sets of words (a stalemate's outcome, a flip's event, …) are enums,
//! so that the compiler matches every word: a word added to the grammar is a new variant
//! every `match` over it must handle.

use std::ops::Range;

/// An enum of the words of one closed set of the grammar, each with the word it is written as.
macro_rules! closed_words {
    ($(#[$meta:meta])* $name:ident { $($(#[$vmeta:meta])* $variant:ident = $word:literal,)+ }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum $name {
            $($(#[$vmeta])* $variant,)+
        }

        impl $name {
            /// Every word of the set.
            pub const ALL: &'static [$name] = &[$($name::$variant,)+];

            /// The word as written.
            pub fn word(self) -> &'static str {
                match self {
                    $($name::$variant => $word,)+
                }
            }

            /// The value the word stands for; `None` for a word not in the set.
            pub fn from_word(word: &str) -> Option<$name> {
                $name::ALL.iter().copied().find(|v| v.word() == word)
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.word())
            }
        }
    };
}

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
    /// `hop DIRS`, `hop N DIRS`: over exactly one piece (the screen).
    Hop(Option<Spanned<u32>>, Vec<Spanned<String>>),
    As(Spanned<String>),
    /// A word that is not a kind of movement.
    Unknown(String),
}

closed_words! {
    /// The side a `setup` is for.
    SetupSide {
        Black = "black",
        White = "white",
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct SetupDecl {
    /// `None` for Black's setup (White's then being its rotation), or the side named.
    pub side: Option<Spanned<SetupSide>>,
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
        obligation: Option<Spanned<Obligation>>,
    },
    /// `flip on capture|move`: two-faced pieces turn over on every capture, or every move.
    Flip(Spanned<FlipEvent>),
    Deferral,
    DeclinedWaitsForLastRank(Vec<Spanned<String>>),
    LastRankPromotionOptional(Vec<Spanned<String>>),
    /// `no-forced-promotion ABBR...`: these are never forced to promote; one that reaches a
    /// rank where it has no move stays there.
    NoForcedPromotion(Vec<Spanned<String>>),
    /// `drops`, with the freedoms that follow it (`either-face`, `anywhere`).
    Drops(Vec<Spanned<DropFreedom>>),
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
    Stalemate(Spanned<Verdict>),
    BareKing,
    /// `check-wins`: a side that gives check wins at once.
    CheckWins,
    /// `try N [unattacked|unless-taken]`: a royal piece on the far N ranks wins.
    Try {
        depth: Spanned<u32>,
        reading: Option<Spanned<TryReading>>,
    },
    /// `extinction win|loss|draw [ABBR...]`: a side left with no piece (on the board or in
    /// hand), or with none of one of the kinds listed, wins, loses or draws.
    Extinction {
        verdict: Spanned<Verdict>,
        kinds: Vec<Spanned<String>>,
    },
    /// `must-capture`: a side that can capture must.
    MustCapture,
    Repetition {
        count: Spanned<u32>,
        effect: Spanned<RepetitionEffect>,
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
        events: Vec<Spanned<ZoneEvent>>,
    },
    Capture,
}

closed_words! {
    /// When a piece may promote in a zone (`promotion zone 3 on enter leave`).
    ZoneEvent {
        Enter = "enter",
        Within = "within",
        Leave = "leave",
        Capture = "capture",
    }
}

closed_words! {
    /// Whether promotion is forced (`promotion zone 3 compulsory`).
    Obligation {
        CompulsoryOnPromoted = "compulsory-on-promoted",
        Optional = "optional",
        Compulsory = "compulsory",
    }
}

closed_words! {
    /// What turns two-faced pieces over (`flip on capture`).
    FlipEvent {
        Capture = "capture",
        Move = "move",
    }
}

closed_words! {
    /// A freedom of `drops`.
    DropFreedom {
        /// A two-faced piece may be dropped with either face up.
        EitherFace = "either-face",
        /// A piece may be dropped where it has no move.
        Anywhere = "anywhere",
    }
}

closed_words! {
    /// The result for the side to move a rule declares (`stalemate loss`, `extinction win`):
    /// the grammar's `outcome` words.
    Verdict {
        Draw = "draw",
        Loss = "loss",
        Win = "win",
    }
}

closed_words! {
    /// What a repetition does (`repetition 4 draw`).
    RepetitionEffect {
        Draw = "draw",
        Illegal = "illegal",
        StarterVaries = "starter-varies",
    }
}

closed_words! {
    /// How a try is read (`try 1 unattacked`).
    TryReading {
        Unattacked = "unattacked",
        UnlessTaken = "unless-taken",
    }
}

closed_words! {
    /// A modifier written as a word alone (`move-only`).
    ModifierWord {
        MoveOnly = "move-only",
        CaptureOnly = "capture-only",
        CaptureUnprotected = "capture-unprotected",
        FromLastRank = "from-last-rank",
    }
}

closed_words! {
    /// A modifier written with a count (`beyond 2`).
    CountedModifier {
        Passing = "passing",
        Beyond = "beyond",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The words of the grammar's rule `name`: its quoted alternatives.
    fn grammar_words(name: &str) -> Vec<String> {
        let grammar = include_str!("../../grammar/variant.pest");
        let line = grammar
            .lines()
            .find(|l| l.split_whitespace().next() == Some(name) && l.contains('='))
            .unwrap_or_else(|| panic!("the grammar has a rule {name}"));
        line.split('"').skip(1).step_by(2).map(str::to_string).collect()
    }

    /// Checks that the words of `all` are exactly those of the grammar's rule `rule`.
    fn same_words<T: Copy>(rule: &str, all: &[T], word: fn(T) -> &'static str) {
        let mut ours: Vec<String> = all.iter().map(|&w| word(w).to_string()).collect();
        let mut grammar = grammar_words(rule);
        ours.sort();
        grammar.sort();
        assert_eq!(ours, grammar, "the words of `{rule}`");
    }

    /// Each closed set of words in the syntax tree is exactly its grammar rule's words, so a
    /// word added to the grammar cannot be read as another.
    #[test]
    fn every_closed_set_is_the_grammars_words() {
        same_words("side", SetupSide::ALL, SetupSide::word);
        same_words("zone_event", ZoneEvent::ALL, ZoneEvent::word);
        same_words("obligation", Obligation::ALL, Obligation::word);
        same_words("flip_event", FlipEvent::ALL, FlipEvent::word);
        same_words("drop_freedom", DropFreedom::ALL, DropFreedom::word);
        same_words("outcome", Verdict::ALL, Verdict::word);
        same_words("repetition_effect", RepetitionEffect::ALL, RepetitionEffect::word);
        same_words("try_reading", TryReading::ALL, TryReading::word);
        same_words("modifier_word", ModifierWord::ALL, ModifierWord::word);
        same_words("modifier_count", CountedModifier::ALL, CountedModifier::word);
    }
}
