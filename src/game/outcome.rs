//! A game in progress: the moves played from a start position, each kept as played, and how
//! the game ends: by the rules (checkmate, capture of every royal, the first check, the try,
//! extinction, stalemate, bare king, the repetition rules), or as declared (a resignation, an
//! agreed draw, a referee's adjudication, a record's result).

use super::board::{Sq, code_kind, code_side};
use super::movegen::LionCounting;
use super::moves::{Illegal, Move};
use super::played::{self, Notation, Played};
use super::position::Position;
use super::scratch::Scratch;
use crate::rules::{self, PieceId, RepetitionEffect, Side, TryReading};

/// Why a game ended.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EndReason {
    #[error("checkmate")]
    Checkmate,
    /// The loser has no royal piece left.
    #[error("every royal piece captured")]
    RoyalsCaptured,
    #[error("stalemate")]
    Stalemate,
    /// The loser is in check where the first check wins (`check-wins`).
    #[error("check")]
    Check,
    /// The winner's royal piece made the try: it reached its far ranks (`try N`).
    #[error("the try")]
    Try,
    /// A side lost every piece, or every piece of a kind (`extinction`).
    #[error("extinction")]
    Extinction,
    /// The loser has nothing left but royal pieces (Chu's bare-king rule).
    #[error("bare king")]
    BareKing,
    /// Both sides bared: a draw.
    #[error("both kings bare")]
    BothBare,
    /// The position repeated as often as the variant allows.
    #[error("repetition")]
    Repetition,
    /// The repetition came from continuous checks: the checking side loses.
    #[error("perpetual check")]
    PerpetualCheck,
    /// The loser resigned.
    #[error("resignation")]
    Resignation,
    /// The players agreed a draw.
    #[error("agreement")]
    AgreedDraw,
    /// A referee judged the game (`koma selfplay`, when both engines' scores agree).
    #[error("adjudication")]
    Adjudication,
    /// The game reached the most moves it was to be played for: a draw.
    #[error("the move limit")]
    MoveLimit,
    /// A record's result that its moves do not decide, with the record's own words for why
    /// (its `Termination`).
    #[error("{0}")]
    Recorded(String),
}

/// How a game ended: the winner (none for a draw) and why. Shown, it is the sentence players
/// read: `Black wins by checkmate`, `White resigns`, `draw agreed`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    pub winner: Option<Side>,
    pub reason: EndReason,
}

impl Outcome {
    /// The side to move resigns: the other side wins.
    pub fn resignation(side: Side) -> Outcome {
        Outcome {
            winner: Some(side.opponent()),
            reason: EndReason::Resignation,
        }
    }

    /// The players agree a draw.
    pub fn agreed_draw() -> Outcome {
        Outcome {
            winner: None,
            reason: EndReason::AgreedDraw,
        }
    }
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (&self.reason, self.winner) {
            (EndReason::Resignation, Some(winner)) => write!(f, "{} resigns", winner.opponent()),
            (EndReason::AgreedDraw, None) => f.write_str("draw agreed"),
            (EndReason::Recorded(words), _) => f.write_str(words),
            (
                EndReason::Checkmate
                | EndReason::RoyalsCaptured
                | EndReason::Stalemate
                | EndReason::Check
                | EndReason::Try
                | EndReason::Extinction
                | EndReason::BareKing
                | EndReason::BothBare
                | EndReason::Repetition
                | EndReason::PerpetualCheck
                | EndReason::Resignation
                | EndReason::AgreedDraw
                | EndReason::Adjudication
                | EndReason::MoveLimit,
                winner,
            ) => match winner {
                Some(side) => write!(f, "{side} wins by {}", self.reason),
                None => write!(f, "draw by {}", self.reason),
            },
        }
    }
}

/// A game: the start position, the moves played (each with what it took and, in a game with
/// a notation, its text), the current position, and an outcome declared.
#[derive(Debug, Clone)]
pub struct Game {
    start: Position,
    position: Position,
    moves: Vec<Played>,
    /// An outcome the rules do not decide (a resignation, an agreed draw…), until taken back.
    declared: Option<Outcome>,
    /// How the game writes its moves; none for a game that keeps no text.
    notation: Option<Notation>,
}

impl Game {
    /// A game from `start` that keeps no text of its moves (engines, the protocols).
    pub fn new(start: Position) -> Game {
        Game {
            position: start.clone(),
            start,
            moves: Vec::new(),
            declared: None,
            notation: None,
        }
    }

    /// A game from `start` that keeps each move's text as `notation` writes it when played.
    pub fn with_notation(start: Position, notation: Notation) -> Game {
        Game {
            notation: Some(notation),
            ..Game::new(start)
        }
    }

    pub fn position(&self) -> &Position {
        &self.position
    }

    pub fn start(&self) -> &Position {
        &self.start
    }

    pub fn moves(&self) -> impl Iterator<Item = &Move> {
        self.moves.iter().map(|p| &p.m)
    }

    /// The moves played, as the game keeps them: who made each, what it took, its text.
    pub fn played(&self) -> &[Played] {
        &self.moves
    }

    pub fn len(&self) -> usize {
        self.moves.len()
    }

    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// Plays a move if it is legal (keeping its text, in a game with a notation, and what it
    /// took); otherwise says which rule forbids it.
    pub fn play(&mut self, m: Move) -> Result<(), Illegal> {
        Scratch::default().check_legal(&mut self.position, &m)?;
        let text = self.notation.map(|write| write(&self.position, &m));
        let side = self.position.side_to_move();
        let before = played::board(&self.position);
        let undo = self.position.make(&m);
        let taken = played::pieces_taken(&before, &self.position, &m);
        self.moves.push(Played {
            m,
            side,
            taken,
            text,
            undo,
        });
        Ok(())
    }

    /// Takes back the last move, and an outcome declared after it.
    pub fn undo(&mut self) -> Option<Move> {
        let played = self.moves.pop()?;
        self.position.unmake(&played.m, &played.undo);
        self.declared = None;
        Some(played.m)
    }

    /// Ends the game with an outcome the rules do not decide (a resignation, an agreed draw,
    /// an adjudication, a record's result); a game already over keeps its outcome, the error.
    pub fn declare(&mut self, outcome: Outcome) -> Result<(), Outcome> {
        match self.outcome() {
            Some(over) => Err(over),
            None => {
                self.declared = Some(outcome);
                Ok(())
            }
        }
    }

    /// Takes back the outcome declared, if one was: the game goes on.
    pub fn take_back_declared(&mut self) -> Option<Outcome> {
        self.declared.take()
    }

    /// The legal moves of the current position.
    pub fn legal_moves(&self) -> Vec<Move> {
        self.position.legal_moves()
    }

    /// How the game has ended, if it has: as declared, else as the rules decide.
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(declared) = &self.declared {
            return Some(declared.clone());
        }
        self.judged()
    }

    /// How the rules end the game, if they do.
    fn judged(&self) -> Option<Outcome> {
        let side = self.position.side_to_move();
        let rules = self.position.rules();
        let has_royals = rules.pieces.iter().any(|p| p.royal);
        if has_royals && self.position.royal_squares(side).is_empty() {
            return Some(Outcome {
                winner: Some(side.opponent()),
                reason: EndReason::RoyalsCaptured,
            });
        }
        if rules.end.check_wins && self.position.royal_in_check(side) {
            return Some(Outcome {
                winner: Some(side.opponent()),
                reason: EndReason::Check,
            });
        }
        if let Some(winner) = self.position.try_winner() {
            return Some(Outcome {
                winner: Some(winner),
                reason: EndReason::Try,
            });
        }
        if let Some((side, verdict)) = self.position.extinct() {
            return Some(Outcome {
                winner: verdict_winner(side, verdict),
                reason: EndReason::Extinction,
            });
        }
        if rules.end.bare_king
            && let Some(result) = self.bare_king()
        {
            return Some(result);
        }
        if let Some(result) = self.repetition() {
            return Some(result);
        }
        if Scratch::default().has_legal_move(&mut self.position.trial()) {
            return None;
        }
        if self.position.royal_in_check(side) {
            return Some(Outcome {
                winner: Some(side.opponent()),
                reason: EndReason::Checkmate,
            });
        }
        Some(Outcome {
            winner: verdict_winner(side, self.position.rules().end.stalemate),
            reason: EndReason::Stalemate,
        })
    }

    /// Chu's bare-king rule, judged for the side to move.
    fn bare_king(&self) -> Option<Outcome> {
        let side = self.position.side_to_move();
        let (me, them) = (self.position.is_bare(side), self.position.is_bare(side.opponent()));
        match (me, them) {
            (true, true) => Some(Outcome {
                winner: None,
                reason: EndReason::BothBare,
            }),
            (false, true) => Some(Outcome {
                winner: Some(side),
                reason: EndReason::BareKing,
            }),
            (true, false) if !self.can_bare(side) => Some(Outcome {
                winner: Some(side.opponent()),
                reason: EndReason::BareKing,
            }),
            _ => None,
        }
    }

    /// Whether `side` (to move, bare) can bare the other side at once, saving a draw.
    fn can_bare(&self, side: Side) -> bool {
        let mut trial = self.position.trial();
        let mut moves = Vec::new();
        Scratch::default().legal_moves_into(&mut trial, &mut moves, LionCounting::Distinct);
        moves.iter().any(|m| {
            let undo = trial.make(m);
            let bared = trial.is_bare(side.opponent());
            trial.unmake(m, &undo);
            bared
        })
    }

    /// A repetition that ends the game: a draw, or a loss for perpetual check. (Where the
    /// rule forbids the repeating move, only the side in perpetual check may make it, and the
    /// checking side loses.)
    fn repetition(&self) -> Option<Outcome> {
        let rule = self.position.rules().end.repetition.clone()?;
        if rule.effect == RepetitionEffect::StarterVaries || self.position.repetitions() + 1 < usize::from(rule.count) {
            return None;
        }
        if let Some(checker) = self.position.perpetual_checker() {
            return Some(Outcome {
                winner: Some(checker.opponent()),
                reason: EndReason::PerpetualCheck,
            });
        }
        (rule.effect == RepetitionEffect::Draw).then_some(Outcome {
            winner: None,
            reason: EndReason::Repetition,
        })
    }
}

/// The winner when `side` gets `verdict` (none for a draw).
pub fn verdict_winner(side: Side, verdict: rules::Verdict) -> Option<Side> {
    match verdict {
        rules::Verdict::Loss => Some(side.opponent()),
        rules::Verdict::Win => Some(side),
        rules::Verdict::Draw => None,
    }
}

impl Position {
    /// The side that has won by the try (`try N`), if one has: a side whose royal piece
    /// stands on its far ranks wins at once (campmate), or at once where no enemy piece
    /// attacks it there (`unattacked`), or when it is to move again, the opponent having had
    /// one move to take it (`unless-taken`). The side that just moved is judged first.
    pub(crate) fn try_winner(&self) -> Option<Side> {
        let rule = self.rules().end.try_rule?;
        let judged = match rule.reading {
            TryReading::UnlessTaken => [Some(self.side_to_move()), None],
            TryReading::Reached | TryReading::Unattacked => {
                [Some(self.side_to_move().opponent()), Some(self.side_to_move())]
            }
        };
        judged.into_iter().flatten().find(|&side| {
            self.royal_squares(side).iter().any(|&sq| {
                self.tables().depth(side, sq) <= rule.depth
                    && (rule.reading != TryReading::Unattacked || !self.attacked(sq, side.opponent()))
            })
        })
    }

    /// Extinction (`extinction`): the first side, the one that just moved judged first, left
    /// with no piece (on the board or in hand) of any kind watched, with the verdict the rule
    /// gives it.
    pub fn extinct(&self) -> Option<(Side, rules::Verdict)> {
        let rule = self.rules().end.extinction.as_ref()?;
        [self.side_to_move().opponent(), self.side_to_move()]
            .into_iter()
            .find(|&side| self.has_none_of(side, &rule.kinds))
            .map(|side| (side, rule.verdict))
    }

    /// Whether `side` has no piece, on the board or in hand, of one of `kinds` (unpromoted
    /// kinds, each counted with its promoted faces); of any kind, when `kinds` is empty.
    fn has_none_of(&self, side: Side, kinds: &[PieceId]) -> bool {
        let t = self.tables();
        let held = |watched: Option<PieceId>| {
            t.rules()
                .piece_ids()
                .filter(|&k| watched.is_none_or(|w| t.kind(k).unpromoted == w))
                .any(|k| self.count(side, k) > 0 || self.in_hand(side, k) > 0)
        };
        if kinds.is_empty() {
            !held(None)
        } else {
            kinds.iter().any(|&k| !held(Some(k)))
        }
    }

    /// Whether `side` has nothing on the board but royal pieces, and pieces left without a
    /// move where they stand (a Pawn on the last rank, where the rules let it stay).
    pub(crate) fn is_bare(&self, side: Side) -> bool {
        let t = self.tables();
        let mut only_stuck_kinds = false;
        for k in t.rules().piece_ids() {
            let info = &t.kind(k);
            if info.royal || self.count(side, k) == 0 {
                continue;
            }
            if info.drop.dead_ranks == 0 {
                return false;
            }
            only_stuck_kinds = true;
        }
        // Every other piece left is of a kind that can be stuck: are they all?
        !only_stuck_kinds
            || self.codes().iter().enumerate().all(|(sq, &code)| {
                if code == 0 || code_side(code) != side {
                    return true;
                }
                let info = &t.kind(code_kind(code));
                info.royal || t.depth(side, Sq::new(sq)) <= info.drop.dead_ranks
            })
    }
}
