//! Building the syntax tree ([`ast`](super::ast)) from the pairs of a parse, with spans
//! counted in bytes of the whole file.

use super::Token;
use super::ast::{
    Attribute, Cell, Clause, CountedModifier, DropFreedom, File, FlipEvent, Guard, Modifier, ModifierWord,
    MovementSyntax, Obligation, OptionDecl, PieceDecl, PromotionSyntax, RepetitionEffect, Row, RuleStatement,
    SetupDecl, SetupSide, Span, Spanned, Statement, TryReading, Verdict, ZoneEvent,
};
use pest::iterators::Pair;

/// Keyword tokens carry nothing the tree needs.
fn not_keyword(pair: &Pair<Token>) -> bool {
    pair.as_rule() != Token::kw
}

/// Builds syntax-tree nodes from the pairs of a text that starts at byte `base` of the file.
#[derive(Clone, Copy)]
pub(super) struct Build {
    pub(super) base: usize,
}

impl Build {
    fn span_of(&self, pair: &Pair<Token>) -> Span {
        let s = pair.as_span();
        self.base + s.start()..self.base + s.end()
    }

    pub(super) fn spanned_str(&self, pair: &Pair<Token>) -> Spanned<String> {
        Spanned::new(pair.as_str().to_string(), self.span_of(pair))
    }

    /// A number, saturating: an enormous number is kept as `u32::MAX` for the compiler to reject.
    fn number(&self, pair: &Pair<Token>) -> Spanned<u32> {
        let value = pair.as_str().trim().parse::<u32>().unwrap_or(u32::MAX);
        Spanned::new(value, self.span_of(pair))
    }

    /// A word of one of the grammar's closed sets, as the value it stands for (the grammar
    /// reads no other word there; the syntax tree's tests hold the sets to the grammar).
    pub(super) fn closed<T>(&self, pair: &Pair<Token>, from_word: fn(&str) -> Option<T>) -> Spanned<T> {
        let word = from_word(pair.as_str().trim()).expect("grammar: a word of the set");
        Spanned::new(word, self.span_of(pair))
    }

    fn string_value(&self, pair: Pair<Token>) -> Spanned<String> {
        let span = self.span_of(&pair);
        let inner = pair
            .into_inner()
            .find(not_keyword)
            .map(|p| p.as_str().to_string())
            .unwrap_or_default();
        Spanned::new(inner, span)
    }

    pub(super) fn file(&self, pair: Pair<Token>) -> File {
        let statements = pair
            .into_inner()
            .filter(not_keyword)
            .filter(|p| p.as_rule() != Token::EOI)
            .map(|p| {
                let span = self.span_of(&p);
                Spanned::new(self.build_statement(p), span)
            })
            .collect();
        File { statements }
    }

    fn build_statement(&self, pair: Pair<Token>) -> Statement {
        match pair.as_rule() {
            Token::variant_stmt => {
                Statement::Variant(self.string_value(pair.into_inner().find(not_keyword).expect("grammar: name")))
            }
            Token::use_stmt => {
                let mut inner = pair.into_inner().filter(not_keyword);
                let source = self.string_value(inner.next().expect("grammar: source"));
                let pieces = inner.map(|p| self.spanned_str(&p)).collect();
                Statement::Use { source, pieces }
            }
            Token::board_stmt => {
                let mut inner = pair.into_inner().filter(not_keyword);
                let files = self.number(&inner.next().expect("grammar: files"));
                let ranks = self.number(&inner.next().expect("grammar: ranks"));
                Statement::Board { files, ranks }
            }
            Token::option_stmt => Statement::Option(self.build_option(pair)),
            Token::piece_stmt => Statement::Piece(self.build_piece(pair)),
            Token::setup_stmt => Statement::Setup(self.build_setup(pair)),
            Token::rule_stmt => {
                let mut inner = pair.into_inner().filter(not_keyword);
                let body = inner.next().expect("grammar: rule body");
                let span = self.span_of(&body);
                let rule = Spanned::new(self.build_rule_statement(body), span);
                let guard = inner.next().map(|p| self.build_guard(p));
                Statement::Rule { rule, guard }
            }
            other => unreachable!("grammar: unexpected statement {other:?}"),
        }
    }

    fn build_option(&self, pair: Pair<Token>) -> OptionDecl {
        let mut name = None;
        let mut description = None;
        let mut values = Vec::new();
        for p in pair.into_inner().filter(not_keyword) {
            match p.as_rule() {
                Token::ident => name = Some(self.spanned_str(&p)),
                Token::string => description = Some(self.string_value(p).node),
                _ => values.push(self.spanned_str(&p)),
            }
        }
        OptionDecl {
            name: name.expect("grammar: option name"),
            description,
            values,
        }
    }

    pub(super) fn build_guard(&self, pair: Pair<Token>) -> Guard {
        let span = self.span_of(&pair);
        let mut inner = pair.into_inner().filter(not_keyword);
        let option = self.spanned_str(&inner.next().expect("grammar: guard option"));
        let values = inner.map(|p| self.spanned_str(&p)).collect();
        Guard { option, values, span }
    }

    fn build_piece(&self, pair: Pair<Token>) -> PieceDecl {
        let mut inner = pair.into_inner().filter(not_keyword);
        let abbrev = self.spanned_str(&inner.next().expect("grammar: abbreviation"));
        let name = self.string_value(inner.next().expect("grammar: name"));
        let mut attributes = Vec::new();
        let mut clauses = Vec::new();
        let mut moves_span = 0..0;
        for p in inner {
            let span = self.span_of(&p);
            match p.as_rule() {
                Token::moves => {
                    moves_span = span;
                    clauses = p
                        .into_inner()
                        .filter(not_keyword)
                        .map(|p| self.build_clause(p))
                        .collect();
                }
                _ => attributes.push(Spanned::new(self.build_attribute(p), span)),
            }
        }
        PieceDecl {
            abbrev,
            name,
            attributes,
            clauses,
            moves_span,
        }
    }

    fn build_attribute(&self, pair: Pair<Token>) -> Attribute {
        let rule = pair.as_rule();
        let text = pair.as_str().to_string();
        let arg = pair.into_inner().find(not_keyword);
        match rule {
            Token::attr_sfen => Attribute::Sfen(arg.expect("grammar: letter").as_str().to_string()),
            Token::attr_kanji => Attribute::Kanji(self.string_value(arg.expect("grammar: kanji")).node),
            Token::attr_value => Attribute::Value(self.number(&arg.expect("grammar: value")).node),
            Token::attr_royal => Attribute::Royal,
            Token::attr_promotes => Attribute::Promotes(self.spanned_str(&arg.expect("grammar: target"))),
            Token::attr_must_promote => Attribute::MustPromote(self.number(&arg.expect("grammar: ranks"))),
            Token::attr_jump_rank => Attribute::JumpRank(self.number(&arg.expect("grammar: rank"))),
            Token::attr_burns => Attribute::Burns,
            _ => Attribute::Unknown(text.split_whitespace().next().unwrap_or_default().to_string()),
        }
    }

    fn build_clause(&self, pair: Pair<Token>) -> Clause {
        let span = self.span_of(&pair);
        let mut modifiers = Vec::new();
        let mut movement = None;
        let mut guard = None;
        for p in pair.into_inner().filter(not_keyword) {
            match p.as_rule() {
                Token::modifier => {
                    let span = self.span_of(&p);
                    modifiers.push(Spanned::new(self.build_modifier(p), span));
                }
                Token::guard => guard = Some(self.build_guard(p)),
                _ => {
                    let span = self.span_of(&p);
                    movement = Some(Spanned::new(self.build_movement(p), span));
                }
            }
        }
        Clause {
            modifiers,
            movement: movement.expect("grammar: movement"),
            guard,
            span,
        }
    }

    /// A modifier: a word, or a word and its number (`beyond 2`).
    fn build_modifier(&self, pair: Pair<Token>) -> Modifier {
        let mut inner = pair.into_inner().filter(not_keyword);
        let word = inner.next().expect("grammar: modifier word");
        if word.as_rule() == Token::modifier_count {
            let count = self.number(&inner.next().expect("grammar: count")).node;
            return match self.closed(&word, CountedModifier::from_word).node {
                CountedModifier::Beyond => Modifier::Beyond(count),
                CountedModifier::Passing => Modifier::Passing(count),
            };
        }
        match self.closed(&word, ModifierWord::from_word).node {
            ModifierWord::MoveOnly => Modifier::MoveOnly,
            ModifierWord::CaptureOnly => Modifier::CaptureOnly,
            ModifierWord::CaptureUnprotected => Modifier::CaptureUnprotected,
            ModifierWord::FromLastRank => Modifier::FromLastRank,
        }
    }

    fn directions(&self, pair: Option<Pair<Token>>) -> Vec<Spanned<String>> {
        pair.map(|p| {
            p.into_inner()
                .filter(not_keyword)
                .map(|d| self.spanned_str(&d))
                .collect()
        })
        .unwrap_or_default()
    }

    fn build_movement(&self, pair: Pair<Token>) -> MovementSyntax {
        let rule = pair.as_rule();
        let text = pair.as_str().to_string();
        let mut inner = pair.into_inner().filter(not_keyword).peekable();
        match rule {
            Token::step => MovementSyntax::Step(self.directions(inner.next())),
            Token::slide => MovementSyntax::Slide(self.directions(inner.next())),
            Token::hook => {
                let dirs = self.directions(inner.next());
                let turning = inner.next().map(|t| {
                    let span = self.span_of(&t);
                    let dirs = self.directions(t.into_inner().find(|p| p.as_rule() == Token::directions));
                    Spanned::new(dirs, span)
                });
                MovementSyntax::Hook(dirs, turning)
            }
            Token::range => {
                let n = self.number(&inner.next().expect("grammar: range"));
                MovementSyntax::Range(n, self.directions(inner.next()))
            }
            Token::jump => {
                let n = self.number(&inner.next().expect("grammar: distance"));
                MovementSyntax::Jump(n, self.directions(inner.next()))
            }
            Token::lion => {
                let steps = inner.next_if(|p| p.as_rule() == Token::int).map(|p| self.number(&p));
                MovementSyntax::Lion(steps, self.directions(inner.next()))
            }
            Token::leap => MovementSyntax::Leap(inner.map(|p| self.build_offset(p)).collect()),
            Token::anywhere => MovementSyntax::Anywhere,
            Token::area => {
                let n = self.number(&inner.next().expect("grammar: steps"));
                MovementSyntax::Area(n, self.directions(inner.next()))
            }
            Token::range_jump => MovementSyntax::RangeJump(self.directions(inner.next())),
            Token::range_capture => MovementSyntax::RangeCapture(self.directions(inner.next())),
            Token::igui => MovementSyntax::Igui(self.directions(inner.next())),
            Token::hop => {
                let most = inner.next_if(|p| p.as_rule() == Token::int).map(|p| self.number(&p));
                MovementSyntax::Hop(most, self.directions(inner.next()))
            }
            Token::as_piece => MovementSyntax::As(self.spanned_str(&inner.next().expect("grammar: piece"))),
            _ => MovementSyntax::Unknown(text.split_whitespace().next().unwrap_or_default().to_string()),
        }
    }

    fn build_offset(&self, pair: Pair<Token>) -> Spanned<(i64, i64)> {
        let span = self.span_of(&pair);
        let mut inner = pair.into_inner().filter(not_keyword);
        let mut coord = || {
            inner
                .next()
                .and_then(|p| p.as_str().parse::<i64>().ok())
                .unwrap_or(i64::MAX)
        };
        let x = coord();
        let y = coord();
        Spanned::new((x, y), span)
    }

    fn build_setup(&self, pair: Pair<Token>) -> SetupDecl {
        let mut side = None;
        let mut guard = None;
        let mut rows = Vec::new();
        for p in pair.into_inner().filter(not_keyword) {
            match p.as_rule() {
                Token::side => side = Some(self.closed(&p, SetupSide::from_word)),
                Token::guard => guard = Some(self.build_guard(p)),
                _ => rows.push(self.row(p)),
            }
        }
        SetupDecl { side, guard, rows }
    }

    pub(super) fn row(&self, pair: Pair<Token>) -> Row {
        let mut inner = pair.into_inner().filter(not_keyword);
        let rank = self.spanned_str(&inner.next().expect("grammar: rank"));
        let cells = inner
            .map(|p| {
                let span = self.span_of(&p);
                let cell = match p.as_rule() {
                    Token::empty => Cell::Empty,
                    Token::empty_run => Cell::EmptyRun(self.number(&p).node),
                    Token::abbr => Cell::Piece(p.as_str().to_string()),
                    _ => Cell::Bad(p.as_str().to_string()),
                };
                Spanned::new(cell, span)
            })
            .collect();
        Row { rank, cells }
    }

    fn build_rule_statement(&self, pair: Pair<Token>) -> RuleStatement {
        let rule = pair.as_rule();
        let span = self.span_of(&pair);
        let first_word = Spanned::new(
            pair.as_str().split_whitespace().next().unwrap_or_default().to_string(),
            span.start..span.start + pair.as_str().split_whitespace().next().map_or(0, str::len),
        );
        let inner: Vec<Pair<Token>> = pair.into_inner().filter(not_keyword).collect();
        let strs = |ps: &[Pair<Token>]| ps.iter().map(|p| self.spanned_str(p)).collect::<Vec<_>>();
        match rule {
            Token::promotion_rule => {
                let trigger_pair = &inner[0];
                let trigger = match trigger_pair.as_rule() {
                    Token::zone_trigger => {
                        let parts: Vec<Pair<Token>> = trigger_pair.clone().into_inner().filter(not_keyword).collect();
                        PromotionSyntax::Zone {
                            depth: self.number(&parts[0]),
                            events: parts[1..]
                                .iter()
                                .map(|p| self.closed(p, ZoneEvent::from_word))
                                .collect(),
                        }
                    }
                    _ => PromotionSyntax::Capture,
                };
                let obligation = inner.get(1).map(|p| self.closed(p, Obligation::from_word));
                RuleStatement::Promotion { trigger, obligation }
            }
            Token::deferral_rule => RuleStatement::Deferral,
            Token::declined_rule => RuleStatement::DeclinedWaitsForLastRank(strs(&inner)),
            Token::last_rank_rule => RuleStatement::LastRankPromotionOptional(strs(&inner)),
            Token::no_forced_promotion_rule => RuleStatement::NoForcedPromotion(strs(&inner)),
            Token::drops_rule => {
                RuleStatement::Drops(inner.iter().map(|p| self.closed(p, DropFreedom::from_word)).collect())
            }
            Token::flip_rule => RuleStatement::Flip(self.closed(&inner[0], FlipEvent::from_word)),
            Token::drop_limit_rule => RuleStatement::DropLimit {
                piece: self.spanned_str(&inner[0]),
                count: self.number(&inner[1]),
            },
            Token::no_drop_mate_rule => RuleStatement::NoDropMate(strs(&inner)),
            Token::no_drop_last_rank_rule => RuleStatement::NoDropLastRank(strs(&inner)),
            Token::piece_limit_rule => RuleStatement::PieceLimit {
                piece: self.spanned_str(&inner[0]),
                count: self.number(&inner[1]),
            },
            Token::captured_as_rule => RuleStatement::CapturedAs {
                captured: self.spanned_str(&inner[0]),
                enters_as: self.spanned_str(&inner[1]),
            },
            Token::stalemate_rule => RuleStatement::Stalemate(self.closed(&inner[0], Verdict::from_word)),
            Token::bare_king_rule => RuleStatement::BareKing,
            Token::check_wins_rule => RuleStatement::CheckWins,
            Token::try_rule => RuleStatement::Try {
                depth: self.number(&inner[0]),
                reading: inner.get(1).map(|p| self.closed(p, TryReading::from_word)),
            },
            Token::extinction_rule => RuleStatement::Extinction {
                verdict: self.closed(&inner[0], Verdict::from_word),
                kinds: strs(&inner[1..]),
            },
            Token::must_capture_rule => RuleStatement::MustCapture,
            Token::repetition_rule => RuleStatement::Repetition {
                count: self.number(&inner[0]),
                effect: self.closed(&inner[1], RepetitionEffect::from_word),
                perpetual_check_loses: inner.len() > 2,
            },
            Token::lion_trading_rule => {
                let defended_after_move = inner.iter().any(|p| p.as_rule() == Token::defended_after_move);
                let split = inner
                    .iter()
                    .position(|p| matches!(p.as_rule(), Token::weak_bridges | Token::defended_after_move))
                    .unwrap_or(inner.len());
                let weak_bridges = inner
                    .get(split)
                    .filter(|p| p.as_rule() == Token::weak_bridges)
                    .map(|p| {
                        p.clone()
                            .into_inner()
                            .filter(not_keyword)
                            .map(|b| self.spanned_str(&b))
                            .collect()
                    });
                RuleStatement::LionTrading {
                    lions: strs(&inner[..split]),
                    weak_bridges: weak_bridges.unwrap_or_default(),
                    defended_after_move,
                }
            }
            Token::counter_strike_rule => RuleStatement::CounterStrike(strs(&inner)),
            Token::royal_capture_rule => RuleStatement::RoyalCaptureAllowed,
            Token::stuck_rule => RuleStatement::StuckPiecesStay,
            Token::burns_before_burnt_rule => RuleStatement::BurnsBeforeBurnt,
            Token::piece_behind_rule => RuleStatement::MovesAsPieceBehind,
            Token::unprotected_protects_rule => RuleStatement::CaptureUnprotectedProtects,
            Token::handicap_rule => RuleStatement::Handicap {
                name: self.string_value(inner[0].clone()),
                squares: strs(&inner[1..]),
            },
            _ => RuleStatement::Unknown(first_word),
        }
    }
}
