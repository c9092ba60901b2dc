//! Rule statements (promotion, drops, game end, handicaps) and the checks across the whole
//! variant that can only be made once everything is compiled.

use super::diagnostic::{Check, Label};
use super::pieces::promotes_span;
use super::suggest::did_you_mean_or_list;
use super::{Ctx, Table};
use crate::parse::ast::{self, File, Obligation, RuleStatement, Span, Spanned, Statement, ZoneEvent};
use crate::parse::keywords;
use crate::rules::{
    EndRules, Extinction, FlipEvent, Handicap, LionDefence, LionRole, Mode, Movement, PieceId, PromotionEvent,
    PromotionTrigger, Repetition, RepetitionEffect, Rules, Side, Square, Try, TryReading, Verdict,
};
use indexmap::IndexMap;
use std::collections::HashSet;

/// The end rules when a file states none: stalemate loses, nothing else.
pub(super) fn default_end() -> EndRules {
    EndRules {
        stalemate: Verdict::Loss,
        bare_king: false,
        check_wins: false,
        try_rule: None,
        extinction: None,
        repetition: None,
        royal_capture_allowed: false,
        lion_trading: false,
        lion_defence: LionDefence::Defended,
        counter_strike: false,
        burns_before_burnt: false,
    }
}

/// What the rule statements say that other checks ask about.
#[derive(Default)]
pub(super) struct Stated {
    /// A `promotion zone` is stated somewhere in the file (whatever its order or guard).
    pub(super) zone: bool,
    /// `drops` is stated somewhere in the file (whatever its guard): the drop rules are
    /// then about drops under some choice of options, and apply when drops do.
    pub(super) drops: bool,
    /// `stuck-pieces-stay` is in force: no warning for pieces that can get stuck.
    pub(super) stuck_pieces_stay: bool,
    /// A `stalemate` statement is in force: with `extinction`, a way to win without a royal.
    pub(super) stalemate: bool,
    /// Where each rule about royal pieces in force is stated, by its keyword: without a
    /// royal piece such a rule says nothing.
    pub(super) royal_rules: Vec<(&'static str, Span)>,
    /// The names of the handicaps defined so far.
    pub(super) handicaps: HashSet<String>,
    /// Where the rules about two-faced pieces are stated (in force with the options chosen).
    pub(super) faces: super::faces::FaceStatements,
}

/// The most bytes of blank and comment lines between a list of moves and a move that was
/// meant to continue it.
const MAX_CONTINUATION_GAP: usize = 4096;

impl Ctx {
    pub(super) fn rule_statements(&mut self, file: &File, table: &Table, rules: &mut Rules) {
        let mut once: IndexMap<String, Span> = IndexMap::new();
        let statements: Vec<(&Spanned<RuleStatement>, bool)> = file
            .statements
            .iter()
            .filter_map(|s| match &s.node {
                Statement::Rule { rule, guard } => Some((rule, guard)),
                Statement::Variant(_)
                | Statement::Use { .. }
                | Statement::Board { .. }
                | Statement::Option(_)
                | Statement::Piece(_)
                | Statement::Setup(_) => None,
            })
            .map(|(rule, guard)| (rule, self.active(guard, 0)))
            .collect();
        // Drops first: the drop rules below depend on them. Whether there is a zone at all
        // is known before the rules that need one, wherever it is stated.
        for (rule, active) in &statements {
            if matches!(rule.node, RuleStatement::Drops(_)) {
                self.stated.drops = true;
                rules.drops |= *active;
            }
            if *active {
                self.stated.faces.note(rule);
            }
            if let RuleStatement::Promotion {
                trigger: crate::parse::ast::PromotionSyntax::Zone { .. },
                ..
            } = &rule.node
            {
                self.stated.zone = true;
            }
        }
        for (rule, active) in statements {
            if active {
                self.once(rule, &mut once);
                self.note_royal_rule(rule);
                self.rule(rule, table, rules);
            } else {
                let mut scratch = rules.clone();
                self.rule(rule, table, &mut scratch);
            }
        }
        self.stated.stuck_pieces_stay = once.contains_key("stuck-pieces-stay");
        self.stated.stalemate = once.contains_key("stalemate");
        for key in ["check-wins", "try", "bare-king", "royal-capture-allowed"] {
            if let Some(span) = once.get(key) {
                self.stated.royal_rules.push((key, span.clone()));
            }
        }
        self.face_rules(table, rules);
        self.check_wins_needs_royal_safety(&once);
        self.check_burners(table, rules, &once);
    }

    /// Burning is played with the moves whose landing squares attack detection can walk
    /// (steps, slides, ranges, jumps, leaps, area moves, range jumps, passing slides, hops), on the burner's own
    /// moves (not lent by `moves-as-piece-behind`), and without drops: anything else with
    /// `burns` is reported.
    fn check_burners(&mut self, table: &Table, rules: &Rules, once: &IndexMap<String, Span>) {
        let walked_burn = |m: &Movement| match m {
            Movement::Ride { .. }
            | Movement::Leap { .. }
            | Movement::Area { .. }
            | Movement::RangeJump { .. }
            | Movement::Passing { .. }
            | Movement::Hop { .. } => false,
            Movement::AreaLion { .. }
            | Movement::LineLion { .. }
            | Movement::Hook { .. }
            | Movement::Anywhere { .. }
            | Movement::RangeCapture { .. }
            | Movement::Igui { .. } => true,
        };
        for (entry, piece) in table.values().zip(&rules.pieces) {
            if !piece.burns {
                continue;
            }
            let (message, help, rule) = if piece.moves.iter().any(walked_burn) {
                (
                    format!(
                        "`{}` burns, and moves by lion, hook, anywhere, range-capture or igui",
                        piece.abbrev
                    ),
                    "koma plays burning for burners that step, slide, range, jump, leap, move by area, \
                     range-jump, passing or hop: give the burner those moves, or leave out `burns`",
                    None,
                )
            } else if rules.drops {
                (
                    format!("`{}` burns, in a variant with drops", piece.abbrev),
                    "koma plays burning without drops: leave out `drops` or `burns`",
                    once.get("drops"),
                )
            } else if rules.moves_as_piece_behind {
                (
                    format!("`{}` burns, where pieces move as the piece behind them", piece.abbrev),
                    "koma plays burning on a burner's own moves: leave out `moves-as-piece-behind` or `burns`",
                    once.get("moves-as-piece-behind"),
                )
            } else {
                continue;
            };
            let mut labels = vec![Label {
                span: entry.decl.abbrev.span.clone(),
                text: "burns".into(),
            }];
            if let Some(span) = rule.filter(|_| entry.source == 0) {
                labels.push(Label {
                    span: span.clone(),
                    text: "stated here".into(),
                });
            }
            self.report(
                Check::ContradictoryClause,
                entry.source,
                message,
                labels,
                Some(help.into()),
            );
        }
    }

    /// Reports a statement that may appear once and appears again.
    fn once(&mut self, rule: &Spanned<RuleStatement>, seen: &mut IndexMap<String, Span>) {
        let key = match &rule.node {
            RuleStatement::Promotion { trigger, .. } => match trigger {
                crate::parse::ast::PromotionSyntax::Zone { .. } => "promotion zone",
                crate::parse::ast::PromotionSyntax::Capture => "promotion capture",
            },
            RuleStatement::Flip(_) => "flip",
            RuleStatement::Deferral => "deferral",
            RuleStatement::Drops(_) => "drops",
            RuleStatement::Stalemate(_) => "stalemate",
            RuleStatement::BareKing => "bare-king",
            RuleStatement::CheckWins => "check-wins",
            RuleStatement::Try { .. } => "try",
            RuleStatement::Extinction { .. } => "extinction",
            RuleStatement::MustCapture => "must-capture",
            RuleStatement::Repetition { .. } => "repetition",
            RuleStatement::LionTrading { .. } => "lion-trading",
            RuleStatement::CounterStrike(_) => "counter-strike",
            RuleStatement::RoyalCaptureAllowed => "royal-capture-allowed",
            RuleStatement::CaptureUnprotectedProtects => "capture-unprotected-protects",
            RuleStatement::StuckPiecesStay => "stuck-pieces-stay",
            RuleStatement::MovesAsPieceBehind => "moves-as-piece-behind",
            RuleStatement::BurnsBeforeBurnt => "burns-before-burnt",
            // Statements about pieces or names, which may be given more than once.
            RuleStatement::DeclinedWaitsForLastRank(_)
            | RuleStatement::LastRankPromotionOptional(_)
            | RuleStatement::NoForcedPromotion(_)
            | RuleStatement::DropLimit { .. }
            | RuleStatement::NoDropMate(_)
            | RuleStatement::NoDropLastRank(_)
            | RuleStatement::PieceLimit { .. }
            | RuleStatement::CapturedAs { .. }
            | RuleStatement::Handicap { .. }
            | RuleStatement::Unknown(_) => return,
        };
        if let Some(first) = seen.get(key) {
            let labels = Label::again("stated", rule.span.clone(), first.clone());
            self.report(
                Check::DuplicateStatement,
                0,
                format!("`{key}` is stated twice"),
                labels,
                Some("to make a rule depend on an option, add `when OPTION = VALUE` to each line".into()),
            );
        } else {
            seen.insert(key.to_string(), rule.span.clone());
        }
    }

    /// Where the `piece` statement ends whose list of moves a line starting with the move word
    /// at `word` was meant to continue: the statement just before it, with only blank and
    /// comment lines between.
    fn continued_moves(&self, word: &Span) -> Option<usize> {
        let text = &self.sink.sources[0].text;
        let is_move = text
            .get(word.clone())
            .is_some_and(|w| keywords::clause_starts().any(|m| m == w));
        let ends = &self.anchors.piece_ends;
        let end = *ends.get(ends.partition_point(|&e| e <= word.start).checked_sub(1)?)?;
        let gap = text.get(end..word.start)?;
        let blank = gap.len() <= MAX_CONTINUATION_GAP
            && gap.contains('\n')
            && gap
                .lines()
                .all(|l| l.trim().is_empty() || l.trim_start().starts_with('#'));
        // Before the comment on the statement's last line, if any.
        let line_start = text[..end].rfind('\n').map_or(0, |i| i + 1);
        let code_end = line_start + crate::parse::code_of(&text[line_start..end]).trim_end().len();
        (is_move && blank).then_some(code_end)
    }

    fn piece_list(&mut self, table: &Table, list: &[Spanned<String>]) -> Vec<(PieceId, Span)> {
        list.iter()
            .filter_map(|a| self.lookup(table, a, 0).map(|id| (id, a.span.clone())))
            .collect()
    }

    /// Checks that a drop rule's piece can be in hand. With optional drops (`drops when …`),
    /// the rule is checked and kept under every choice, and matters where drops are on.
    fn in_hand(&mut self, table: &Table, rules: &Rules, id: PieceId, span: &Span) -> bool {
        if !rules.drops && !self.stated.drops {
            self.error(
                Check::NotInHand,
                span.clone(),
                format!(
                    "`{}` is never in hand: captured pieces are not dropped in this variant",
                    rules.piece(id).abbrev
                ),
                "never in hand",
                Some("add the line `drops` if captured pieces may be dropped (`drops when OPTION = VALUE` if only under an option), or remove this rule".into()),
            );
            return false;
        }
        let kind = rules.piece(id);
        if let Some(base) = kind.promotion.reverts_to {
            let base_abbrev = &rules.piece(base).abbrev;
            let message = format!(
                "`{}` is never in hand: a captured `{}` reverts to `{base_abbrev}`",
                kind.abbrev, kind.abbrev
            );
            let mut labels = vec![Label {
                span: span.clone(),
                text: "a promoted piece, never in hand".into(),
            }];
            if let Some(entry) = table.get_index(base.index()).map(|(_, e)| e).filter(|e| e.source == 0)
                && let Some(promotes) = promotes_span(&entry.decl)
            {
                labels.push(Label {
                    span: promotes,
                    text: format!("`{base_abbrev}` promotes to `{}` here", kind.abbrev),
                });
            }
            self.report(
                Check::NotInHand,
                0,
                message,
                labels,
                Some(format!(
                    "name `{base_abbrev}` instead: drop rules are about the unpromoted piece"
                )),
            );
            return false;
        }
        true
    }

    /// A limit per file, if it lies between 1 and the ranks of a file; reported if not.
    fn per_file(&mut self, count: &Spanned<u32>, rules: &Rules) -> Option<u8> {
        if count.node == 0 || count.node > u32::from(rules.board.ranks) {
            let message = format!(
                "a limit of {} per file must lie between 1 and the {} ranks of a file",
                count.node, rules.board.ranks
            );
            let label = format!("between 1 and {}", rules.board.ranks);
            self.error(Check::BadValue, count.span.clone(), message, &label, None);
            return None;
        }
        Some(count.node as u8)
    }

    /// Whether `id` is a promoted kind, which a rule about unpromoted pieces may not name;
    /// reported at `span` if so.
    fn promoted_named(&mut self, rules: &Rules, id: PieceId, span: &Span, rule: &str) -> bool {
        let Some(base) = rules.piece(id).promotion.reverts_to else {
            return false;
        };
        let (kind, base) = (&rules.piece(id).abbrev, &rules.piece(base).abbrev);
        self.error(
            Check::RuleNeedsAnother,
            span.clone(),
            format!("`{rule}` is about unpromoted pieces, and `{kind}` is the promoted `{base}`"),
            "a promoted piece",
            Some(format!("name `{base}` instead")),
        );
        true
    }

    /// `captured-as`: a captured piece of one kind enters the hand as another, unpromoted kind.
    fn captured_as(
        &mut self,
        captured: &Spanned<String>,
        enters_as: &Spanned<String>,
        table: &Table,
        rules: &mut Rules,
    ) {
        let (Some(from), Some(to)) = (self.lookup(table, captured, 0), self.lookup(table, enters_as, 0)) else {
            return;
        };
        if !self.in_hand(table, rules, to, &enters_as.span)
            || self.promoted_named(rules, from, &captured.span, "captured-as")
        {
            return;
        }
        if from == to {
            self.error(
                Check::ContradictoryClause,
                enters_as.span.clone(),
                format!("a captured `{}` enters the hand as itself anyway", captured.node),
                "the same kind",
                Some("name the kind it enters the hand as instead, or leave the rule out".into()),
            );
            return;
        }
        rules.pieces[from.index()].captured_as = Some(to);
    }

    /// Whether a piece named by a rule that lifts forced promotion has `must-promote`, which
    /// forces it; reported at `span` if so.
    fn has_must_promote(&mut self, table: &Table, rules: &Rules, id: PieceId, span: &Span, rule: &str) -> bool {
        let must_promote = table[id.index()]
            .decl
            .attributes
            .iter()
            .any(|a| matches!(a.node, crate::parse::ast::Attribute::MustPromote(_)));
        if must_promote {
            self.error(
                Check::ContradictoryClause,
                span.clone(),
                format!("`{}` has `must-promote`, and `{rule}` lifts it", rules.piece(id).abbrev),
                "has `must-promote`",
                Some("keep one of the two: remove `must-promote` from the piece, or the piece from this rule".into()),
            );
        }
        must_promote
    }

    /// Whether a piece named by a promotion rule promotes; reports it at `span` if not.
    fn promotes(&mut self, rules: &Rules, id: PieceId, span: &Span) -> bool {
        let promotes = rules.piece(id).promotion.to.is_some();
        if !promotes {
            self.error(
                Check::RuleNeedsAnother,
                span.clone(),
                format!("`{}` never promotes", rules.piece(id).abbrev),
                "does not promote",
                Some("the rule is about pieces that promote: give it `promotes ABBR`, or leave it out here".into()),
            );
        }
        promotes
    }

    fn rule(&mut self, rule: &Spanned<RuleStatement>, table: &Table, rules: &mut Rules) {
        match &rule.node {
            RuleStatement::Promotion { trigger, obligation } => self.promotion(trigger, obligation, rules),
            RuleStatement::Deferral => {
                rules.deferral = true;
                self.needs_zone(rules, &rule.span, "deferral");
            }
            RuleStatement::DeclinedWaitsForLastRank(list) => {
                self.needs_zone(rules, &rule.span, "declined-waits-for-last-rank");
                for (id, span) in self.piece_list(table, list) {
                    if !self.promotes(rules, id, &span) {
                        continue;
                    }
                    rules.pieces[id.index()].promotion.declined_waits_for_last_rank = true;
                }
            }
            RuleStatement::NoForcedPromotion(list) => {
                for (id, span) in self.piece_list(table, list) {
                    if self.promotes(rules, id, &span)
                        && !self.has_must_promote(table, rules, id, &span, "no-forced-promotion")
                    {
                        rules.pieces[id.index()].promotion.forced_ranks = 0;
                    }
                }
            }
            RuleStatement::LastRankPromotionOptional(list) => {
                for (id, span) in self.piece_list(table, list) {
                    if !self.promotes(rules, id, &span) {
                        continue;
                    }
                    let must_promote = table[id.index()]
                        .decl
                        .attributes
                        .iter()
                        .any(|a| matches!(a.node, crate::parse::ast::Attribute::MustPromote(_)));
                    if must_promote {
                        self.error(
                            Check::ContradictoryClause,
                            span,
                            format!(
                                "`{}` has `must-promote`, and `last-rank-promotion-optional` lets it decline on the last rank",
                                rules.piece(id).abbrev
                            ),
                            "has `must-promote`",
                            Some("keep one of the two: remove `must-promote` from the piece, or the piece from this rule".into()),
                        );
                        continue;
                    }
                    let promotion = &mut rules.pieces[id.index()].promotion;
                    promotion.last_rank_optional = true;
                    promotion.forced_ranks = 0;
                }
            }
            RuleStatement::Drops(freedoms) => self.drops(freedoms, rules),
            RuleStatement::Flip(event) => {
                rules.flip = Some(match event.node {
                    ast::FlipEvent::Move => FlipEvent::Move,
                    ast::FlipEvent::Capture => FlipEvent::Capture,
                })
            }
            RuleStatement::DropLimit { piece, count } => {
                let Some(id) = self.lookup(table, piece, 0) else {
                    return;
                };
                if !self.in_hand(table, rules, id, &piece.span) {
                    return;
                }
                if let Some(limit) = self.per_file(count, rules) {
                    rules.pieces[id.index()].drop.per_file = Some(limit);
                }
            }
            RuleStatement::NoDropLastRank(list) => {
                for (id, span) in self.piece_list(table, list) {
                    if self.in_hand(table, rules, id, &span) {
                        rules.pieces[id.index()].drop.not_on_last_rank = true;
                    }
                }
            }
            RuleStatement::PieceLimit { piece, count } => {
                let Some(id) = self.lookup(table, piece, 0) else {
                    return;
                };
                if self.promoted_named(rules, id, &piece.span, "piece-limit") {
                    return;
                }
                if let Some(limit) = self.per_file(count, rules) {
                    rules.pieces[id.index()].piece_limit = Some(limit);
                }
            }
            RuleStatement::CapturedAs { captured, enters_as } => self.captured_as(captured, enters_as, table, rules),
            RuleStatement::NoDropMate(list) => {
                for (id, span) in self.piece_list(table, list) {
                    if self.in_hand(table, rules, id, &span) {
                        rules.pieces[id.index()].drop.no_drop_mate = true;
                    }
                }
            }
            RuleStatement::Stalemate(verdict) => rules.end.stalemate = verdict_of(verdict.node),
            RuleStatement::BareKing => rules.end.bare_king = true,
            RuleStatement::CheckWins => rules.end.check_wins = true,
            RuleStatement::Try { depth, reading } => {
                if let Some(depth) = self.try_depth(depth, rules) {
                    let reading = match reading.as_ref().map(|r| r.node) {
                        None => TryReading::Reached,
                        Some(ast::TryReading::Unattacked) => TryReading::Unattacked,
                        Some(ast::TryReading::UnlessTaken) => TryReading::UnlessTaken,
                    };
                    rules.end.try_rule = Some(Try { depth, reading });
                }
            }
            RuleStatement::Extinction { verdict, kinds } => self.extinction(verdict, kinds, table, rules),
            RuleStatement::MustCapture => rules.must_capture = true,
            RuleStatement::Repetition {
                count,
                effect,
                perpetual_check_loses,
            } => {
                if !(2..=10).contains(&count.node) {
                    self.error(
                        Check::BadValue,
                        count.span.clone(),
                        format!("a repetition count of {} is not between 2 and 10", count.node),
                        "between 2 and 10",
                        Some(
                            "the count is the occurrence of a position that the rule is about: 4 for Shogi's \
                             rule, 2 to forbid any repeat of a position (`repetition 2 illegal`)"
                                .into(),
                        ),
                    );
                    return;
                }
                let effect = match effect.node {
                    ast::RepetitionEffect::Draw => RepetitionEffect::Draw,
                    ast::RepetitionEffect::Illegal => RepetitionEffect::Illegal,
                    ast::RepetitionEffect::StarterVaries => RepetitionEffect::StarterVaries,
                };
                rules.end.repetition = Some(Repetition {
                    count: count.node as u8,
                    effect,
                    perpetual_check_loses: *perpetual_check_loses,
                });
            }
            RuleStatement::LionTrading {
                lions,
                weak_bridges,
                defended_after_move,
            } => {
                rules.end.lion_trading = true;
                if *defended_after_move {
                    rules.end.lion_defence = LionDefence::AfterMove;
                }
                for (id, _) in self.piece_list(table, lions) {
                    rules.pieces[id.index()].lion = LionRole::Lion;
                }
                for (id, span) in self.piece_list(table, weak_bridges) {
                    self.set_lion_role(rules, id, span, LionRole::WeakBridge);
                }
            }
            RuleStatement::CounterStrike(lions) => {
                rules.end.counter_strike = true;
                for (id, span) in self.piece_list(table, lions) {
                    self.set_lion_role(rules, id, span, LionRole::Lion);
                }
            }
            RuleStatement::RoyalCaptureAllowed => rules.end.royal_capture_allowed = true,
            RuleStatement::CaptureUnprotectedProtects => self.capture_unprotected_protects(&rule.span, rules),
            RuleStatement::StuckPiecesStay => {}
            RuleStatement::BurnsBeforeBurnt => self.burns_before_burnt(&rule.span, rules),
            RuleStatement::MovesAsPieceBehind => self.moves_as_piece_behind(&rule.span, table, rules),
            RuleStatement::Handicap { name, squares } => self.handicap(name, squares, rules),
            RuleStatement::Unknown(word) if self.continued_moves(&word.span).is_some() => {
                let end = self.continued_moves(&word.span).unwrap_or_default();
                let labels = vec![
                    Label {
                        span: word.span.clone(),
                        text: "a move on a line of its own".into(),
                    },
                    Label {
                        span: end..end,
                        text: "add `,` here to go on with the moves".into(),
                    },
                ];
                let message = format!(
                    "`{}` is a move, not a statement: the line before ends its list of moves without `,`",
                    word.node
                );
                let help = Some(crate::parse::CONTINUED_MOVES_HELP.to_string());
                self.report(Check::UnknownKeyword, 0, message, labels, help);
            }
            // Past the errors shown, a line of an unknown word costs no search for a keyword.
            RuleStatement::Unknown(_) if self.sink.errors_full() => {}
            RuleStatement::Unknown(word) => {
                let help = did_you_mean_or_list(&word.node, keywords::statements(), "statements start with one of");
                self.error(
                    Check::UnknownKeyword,
                    word.span.clone(),
                    format!("`{}` is not a keyword of the language", word.node),
                    "unknown keyword",
                    Some(help),
                );
            }
        }
    }

    /// Gives a piece its part in the Lion rules, reporting a piece named as both a Lion and a
    /// weak bridge.
    fn set_lion_role(&mut self, rules: &mut Rules, id: PieceId, span: Span, role: LionRole) {
        let current = rules.pieces[id.index()].lion;
        if current != LionRole::NotLion && current != role {
            self.error(
                Check::ContradictoryClause,
                span,
                format!("`{}` is listed as a Lion and as a weak bridge", rules.piece(id).abbrev),
                "listed as both",
                Some(
                    "a piece is either a Lion (`lion-trading`, `counter-strike`) or a weak bridge (`bridge-excludes`)"
                        .into(),
                ),
            );
        }
        rules.pieces[id.index()].lion = role;
    }

    /// `check-wins` ends the game when a royal is attacked: under `royal-capture-allowed` a
    /// move may leave the mover's own royal attacked, and who then gave check is no longer
    /// the one who won. The two cannot go together.
    fn check_wins_needs_royal_safety(&mut self, once: &IndexMap<String, Span>) {
        let (Some(check_wins), Some(allowed)) = (once.get("check-wins"), once.get("royal-capture-allowed")) else {
            return;
        };
        let labels = vec![
            Label {
                span: check_wins.clone(),
                text: "the first check ends the game".into(),
            },
            Label {
                span: allowed.clone(),
                text: "lets a side leave its own royal attacked".into(),
            },
        ];
        self.report(
            Check::ContradictoryClause,
            0,
            "`check-wins` and `royal-capture-allowed` cannot go together: a side could put its own royal in check"
                .into(),
            labels,
            Some(
                "under `check-wins` a move may not leave the mover's royal attacked: remove `royal-capture-allowed`"
                    .into(),
            ),
        );
    }

    /// `burns-before-burnt`: about burners, so some piece must burn.
    fn burns_before_burnt(&mut self, span: &Span, rules: &mut Rules) {
        rules.end.burns_before_burnt = true;
        if !rules.pieces.iter().any(|p| p.burns) {
            self.error(
                Check::RuleNeedsAnother,
                span.clone(),
                "`burns-before-burnt` is about burners, and no piece burns".into(),
                "no piece has `burns`",
                Some("give the burning piece the attribute `burns`, or leave the rule out".into()),
            );
        }
    }

    /// `moves-as-piece-behind`: a piece is never without a move for good (a friend may come
    /// behind it), so no rank is derived where it must promote or may not be dropped; a
    /// piece's own `must-promote` still holds.
    ///
    /// Attack detection under it looks pieces up by the kind they move as: a hook,
    /// `anywhere` or capture-unprotected move, which is found by walking the piece's own
    /// moves, cannot be lent, and is reported.
    fn moves_as_piece_behind(&mut self, span: &Span, table: &Table, rules: &mut Rules) {
        rules.moves_as_piece_behind = true;
        let walked_only = |m: &Movement| match m {
            Movement::Hook { .. }
            | Movement::Anywhere { .. }
            | Movement::Area { .. }
            | Movement::RangeJump { .. }
            | Movement::RangeCapture { .. }
            | Movement::Passing { .. }
            | Movement::Hop { .. } => true,
            Movement::Ride { mode, beyond, .. } => *beyond > 0 || *mode == Mode::CaptureUnprotected,
            Movement::Leap { mode, .. }
            | Movement::AreaLion { mode, .. }
            | Movement::LineLion { mode, .. }
            | Movement::Igui { mode, .. } => *mode == Mode::CaptureUnprotected,
        };
        if let Some(index) = rules.pieces.iter().position(|p| p.moves.iter().any(walked_only)) {
            let entry = &table[index];
            let mut labels = vec![Label {
                span: span.clone(),
                text: "pieces move as the piece behind them".into(),
            }];
            if entry.source == 0 {
                labels.push(Label {
                    span: entry.decl.abbrev.span.clone(),
                    text: "moves by `hook`, `anywhere`, `area`, `range-jump`, `range-capture`, `beyond`, `passing`, \
                           `hop` or `capture-unprotected`"
                        .into(),
                });
            }
            self.report(
                Check::ContradictoryClause,
                0,
                format!(
                    "`moves-as-piece-behind` cannot lend the moves of `{}`: koma lends steps, slides, leaps, jumps, igui and Lion moves, not `hook`, `anywhere`, `area`, `range-jump`, `range-capture`, `beyond`, `passing`, `hop` or `capture-unprotected` moves",
                    rules.pieces[index].abbrev
                ),
                labels,
                Some("remove `moves-as-piece-behind`, or give the piece moves of the kinds it can lend".into()),
            );
        }
        for (index, kind) in rules.pieces.iter_mut().enumerate() {
            kind.drop.dead_ranks = 0;
            let must_promote = table[index]
                .decl
                .attributes
                .iter()
                .any(|a| matches!(a.node, crate::parse::ast::Attribute::MustPromote(_)));
            if !must_promote {
                kind.promotion.forced_ranks = 0;
            }
        }
    }

    /// `capture-unprotected-protects`: only meaningful when some piece has a
    /// capture-unprotected move.
    fn capture_unprotected_protects(&mut self, span: &Span, rules: &mut Rules) {
        rules.capture_unprotected_protects = true;
        let any = rules.pieces.iter().any(|p| {
            p.moves
                .iter()
                .any(|m| m.mode() == crate::rules::Mode::CaptureUnprotected)
        });
        if !any {
            self.error(
                Check::RuleNeedsAnother,
                span.clone(),
                "`capture-unprotected-protects` is about capture-unprotected moves, and no piece has one".into(),
                "needs a `capture-unprotected` move",
                Some("give a piece a move such as `capture-unprotected anywhere`, or remove this rule".into()),
            );
        }
    }

    fn needs_zone(&mut self, _rules: &Rules, span: &Span, what: &str) {
        if !self.stated.zone {
            self.error(
                Check::RuleNeedsAnother,
                span.clone(),
                format!("`{what}` is about a promotion zone, and the variant has none"),
                "needs `promotion zone N`",
                Some("state the zone, such as `promotion zone 3`, or remove this rule".into()),
            );
        }
    }

    fn promotion(
        &mut self,
        trigger: &crate::parse::ast::PromotionSyntax,
        obligation: &Option<Spanned<Obligation>>,
        rules: &mut Rules,
    ) {
        let compulsory = obligation.as_ref().is_some_and(|o| o.node == Obligation::Compulsory);
        let on_promoted = obligation
            .as_ref()
            .filter(|o| o.node == Obligation::CompulsoryOnPromoted);
        if let (Some(o), crate::parse::ast::PromotionSyntax::Zone { .. }) = (on_promoted, trigger) {
            self.error(
                Check::ContradictoryClause,
                o.span.clone(),
                "`compulsory-on-promoted` applies to promotion on capture, not to a zone".into(),
                "only with `promotion capture`",
                Some(
                    "write `promotion capture compulsory-on-promoted`, or `compulsory` or `optional` for the zone"
                        .into(),
                ),
            );
            return;
        }
        let when = match trigger {
            crate::parse::ast::PromotionSyntax::Capture => PromotionEvent::Capture,
            crate::parse::ast::PromotionSyntax::Zone { depth, events } => {
                let ranks = u32::from(rules.board.ranks);
                if depth.node == 0 {
                    self.error(
                        Check::BadValue,
                        depth.span.clone(),
                        "a promotion zone of 0 ranks holds no square".into(),
                        "empty zone",
                        None,
                    );
                    return;
                }
                if depth.node > ranks {
                    let message = format!(
                        "a zone of {} ranks is deeper than the board's {ranks} ranks",
                        depth.node
                    );
                    self.error(
                        Check::ZoneTooDeep,
                        depth.span.clone(),
                        message,
                        &format!("at most {ranks}"),
                        Some("the zone is the far N ranks of the board, counted from the opponent's side".into()),
                    );
                    return;
                }
                if 2 * depth.node > ranks {
                    let message = format!(
                        "zones of {} ranks overlap on a board of {ranks} ranks: the middle ranks are in both",
                        depth.node
                    );
                    self.error(
                        Check::ZonesOverlap,
                        depth.span.clone(),
                        message,
                        &format!("more than half of {ranks}"),
                        Some(format!(
                            "if this is meant, nothing needs to change; zones of at most {} ranks do not overlap",
                            ranks / 2
                        )),
                    );
                }
                let named = |e: ZoneEvent| events.iter().any(|x| x.node == e);
                // With no event named, a piece promotes entering, within or leaving the zone.
                let has = |e: ZoneEvent| events.is_empty() || named(e);
                PromotionEvent::Zone {
                    depth: depth.node as u8,
                    enter: has(ZoneEvent::Enter),
                    within: has(ZoneEvent::Within),
                    leave: has(ZoneEvent::Leave),
                    capture: named(ZoneEvent::Capture),
                }
            }
        };
        rules.promotion.push(PromotionTrigger {
            when,
            compulsory,
            compulsory_on_promoted: on_promoted.is_some(),
        });
    }

    /// `extinction OUTCOME [ABBR...]`: the kinds watched are unpromoted ones (a promoted
    /// piece counts with the kind it comes from), each named once.
    fn extinction(
        &mut self,
        verdict: &Spanned<ast::Verdict>,
        kinds: &[Spanned<String>],
        table: &Table,
        rules: &mut Rules,
    ) {
        let mut watched: Vec<PieceId> = Vec::new();
        for (id, span) in self.piece_list(table, kinds) {
            if self.promoted_named(rules, id, &span, "extinction") {
                continue;
            }
            if watched.contains(&id) {
                let message = format!("`{}` is listed twice", rules.piece(id).abbrev);
                let help = Some("list each kind once".to_string());
                self.error(Check::BadValue, span, message, "listed again", help);
                continue;
            }
            watched.push(id);
        }
        rules.end.extinction = Some(Extinction {
            verdict: verdict_of(verdict.node),
            kinds: watched,
        });
    }

    /// The depth of a try zone: 1 to the board's ranks.
    fn try_depth(&mut self, depth: &Spanned<u32>, rules: &Rules) -> Option<u8> {
        let ranks = u32::from(rules.board.ranks);
        if (1..=ranks).contains(&depth.node) {
            return u8::try_from(depth.node).ok();
        }
        let (check, message, label) = if depth.node == 0 {
            (
                Check::BadValue,
                "a try zone of 0 ranks holds no square".to_string(),
                "empty zone".to_string(),
            )
        } else {
            (
                Check::ZoneTooDeep,
                format!(
                    "a try zone of {} ranks is deeper than the board's {ranks} ranks",
                    depth.node
                ),
                format!("at most {ranks}"),
            )
        };
        let help = Some(
            "the try zone is the far N ranks of the board, counted from the opponent's side: `try 1` \
                         is the last rank"
                .into(),
        );
        self.error(check, depth.span.clone(), message, &label, help);
        None
    }

    fn handicap(&mut self, name: &Spanned<String>, squares: &[Spanned<String>], rules: &mut Rules) {
        if !self.stated.handicaps.insert(name.node.clone()) {
            self.error(
                Check::DuplicateStatement,
                name.span.clone(),
                format!("handicap \"{}\" is defined twice", name.node),
                "defined again",
                None,
            );
            return;
        }
        let mut list = Vec::new();
        let mut listed = HashSet::new();
        let white: HashSet<Square> = rules
            .setup
            .iter()
            .filter(|p| p.side == Side::White)
            .map(|p| p.square)
            .collect();
        for text in squares {
            let Some(square) = Square::parse(&text.node).filter(|s| rules.board.contains(*s)) else {
                let message = format!(
                    "{} is not a square of the {} × {} board",
                    text.node, rules.board.files, rules.board.ranks
                );
                let help = Some(format!(
                    "files run from 1 to {} and ranks from a to {}, as in `1a`",
                    rules.board.files,
                    crate::rules::rank_name(rules.board.ranks)
                ));
                self.error(Check::SquareOffBoard, text.span.clone(), message, "off the board", help);
                continue;
            };
            if !white.contains(&square) {
                let message = format!("no White piece stands on {square} at the start");
                self.error(
                    Check::BadValue,
                    text.span.clone(),
                    message,
                    "nothing to remove",
                    Some("a handicap names the squares of the White pieces it removes".into()),
                );
                continue;
            }
            if !listed.insert(square) {
                let message = format!("{square} is listed twice in this handicap");
                let help = Some("list each square once".to_string());
                self.error(Check::BadValue, text.span.clone(), message, "listed again", help);
                continue;
            }
            list.push(square);
        }
        rules.handicaps.push(Handicap {
            name: name.node.clone(),
            squares: list,
        });
    }

    /// Whether a game without a royal piece can still be won: by extinction, or by a
    /// `stalemate` statement that gives the side without a move a win or a loss.
    fn won_without_royal(&self, rules: &Rules) -> bool {
        rules.end.extinction.is_some() || (self.stated.stalemate && rules.end.stalemate != Verdict::Draw)
    }

    /// Notes where a rule statement that may be given more than once is about royal pieces:
    /// `no-drop-mate` (mate is of a royal) and `perpetual-check loses` (a check is on a royal).
    fn note_royal_rule(&mut self, rule: &Spanned<RuleStatement>) {
        let key = if matches!(rule.node, RuleStatement::NoDropMate(_)) {
            "no-drop-mate"
        } else if matches!(
            rule.node,
            RuleStatement::Repetition {
                perpetual_check_loses: true,
                ..
            }
        ) {
            "perpetual-check loses"
        } else {
            return;
        };
        self.stated.royal_rules.push((key, rule.span.clone()));
    }

    /// In a variant without royal pieces, the rules about them say nothing: each is reported.
    fn royal_rules_without_royal(&mut self) {
        for (key, span) in std::mem::take(&mut self.stated.royal_rules) {
            self.error(
                Check::RuleNeedsAnother,
                span,
                format!("`{key}` is about royal pieces, and no piece is royal"),
                "no royal piece",
                Some(format!("mark a piece `royal`, or remove `{key}`")),
            );
        }
    }

    /// Checks that need the whole variant: royals, pieces never in play, stuck pieces.
    pub(super) fn cross_check(&mut self, table: &Table, rules: &mut Rules) {
        if rules.pieces.is_empty() {
            let labels = vec![Label {
                span: self.anchors.first.clone(),
                text: "no `piece` statement in this file".into(),
            }];
            let help = Some("define the pieces, such as `piece K \"King\" royal : step all`".into());
            self.report(Check::NoRoyal, 0, "the variant defines no piece".into(), labels, help);
        } else if !rules.pieces.iter().any(|p| p.royal) && self.won_without_royal(rules) {
            self.royal_rules_without_royal();
        } else if !rules.pieces.iter().any(|p| p.royal) {
            // Point at the king if there is one by name, else at the first piece.
            let local = table.values().filter(|e| e.source == 0);
            let king = local.clone().find(|e| e.decl.name.node.to_lowercase().contains("king"));
            let (labels, help) = match king.or_else(|| local.clone().next()) {
                Some(entry) => (
                    vec![Label {
                        span: entry.decl.abbrev.span.clone(),
                        text: "not `royal`".into(),
                    }],
                    format!(
                        "mark the piece that must be captured with `royal`: `piece {} \"{}\" royal : …`; \
                         or, for a game without one, say how it is won: `extinction win|loss` or `stalemate win|loss`",
                        entry.decl.abbrev.node, entry.decl.name.node
                    ),
                ),
                None => (vec![], "mark the king with the attribute `royal`".to_string()),
            };
            let message = "no piece is royal, so no game can be won".to_string();
            self.report(Check::NoRoyal, 0, message, labels, Some(help));
        } else {
            for side in [Side::Black, Side::White] {
                let has = rules.setup.iter().any(|p| p.side == side && rules.piece(p.piece).royal);
                if !has && !rules.setup.is_empty() {
                    let royals: Vec<&str> = rules
                        .pieces
                        .iter()
                        .filter(|p| p.royal)
                        .map(|p| p.abbrev.as_str())
                        .collect();
                    let labels = self
                        .anchors
                        .setup
                        .clone()
                        .map(|span| Label {
                            span,
                            text: format!("no royal piece of {side}'s here"),
                        })
                        .into_iter()
                        .collect();
                    let message = format!("{side} starts without a royal piece");
                    let help = format!("put a royal piece ({}) in {side}'s setup", royals.join(", "));
                    self.report(Check::NoRoyal, 0, message, labels, Some(help));
                }
            }
        }
        self.check_hand(rules);
        let in_play = pieces_in_play(rules);
        for (index, entry) in table.values().enumerate() {
            if !in_play[index] {
                let (message, help) = unused_piece_text(rules, PieceId(index as u16));
                self.error_in(
                    Check::UnusedPiece,
                    entry.source,
                    entry.decl.abbrev.span.clone(),
                    message,
                    "defined here",
                    Some(help),
                );
            }
        }
        self.shared_promotions(table, rules);
        self.stuck_pieces(table, rules, &in_play);
    }

    fn shared_promotions(&mut self, table: &Table, rules: &Rules) {
        if !rules.drops {
            return;
        }
        for (index, kind) in rules.pieces.iter().enumerate() {
            let Some(target) = kind.promotion.to else {
                continue;
            };
            let reverts = rules.piece(target).promotion.reverts_to;
            // Under a flip rule a piece's two faces are one piece: either may start the game.
            let in_setup = rules.flip.is_none() && rules.setup.iter().any(|p| p.piece == target);
            if reverts != Some(PieceId(index as u16)) || in_setup {
                let entry = &table[index];
                let target_abbrev = &rules.piece(target).abbrev;
                // Another kind promoting to the same target, if any.
                let rival = reverts.filter(|other| other.index() != index);
                let (why, other) = match rival {
                    Some(other) => (
                        format!("`{}` promotes to it too", rules.piece(other).abbrev),
                        format!("`{}` also promotes to `{target_abbrev}`", rules.piece(other).abbrev),
                    ),
                    None => (
                        "it is in the setup".to_string(),
                        format!("`{target_abbrev}` is a piece of its own: it is in the setup"),
                    ),
                };
                let message = format!(
                    "`{}` promotes to `{target_abbrev}`, which is also another piece ({why}): a captured \
                     `{target_abbrev}` could not tell what to go back to in hand",
                    kind.abbrev
                );
                let help = Some(format!(
                    "define a promoted kind of its own, such as `piece +{} \"…\" : as {target_abbrev}`",
                    kind.abbrev
                ));
                let mut labels = Vec::new();
                let primary = promotes_span(&entry.decl).unwrap_or(entry.decl.abbrev.span.clone());
                labels.push(Label {
                    span: primary,
                    text: format!("promotes to `{target_abbrev}`"),
                });
                let other_entry = match rival {
                    Some(other) => &table[other.index()],
                    None => &table[target.index()],
                };
                if other_entry.source == entry.source {
                    let span = match rival {
                        Some(_) => promotes_span(&other_entry.decl).unwrap_or(other_entry.decl.abbrev.span.clone()),
                        None => other_entry.decl.abbrev.span.clone(),
                    };
                    labels.push(Label { span, text: other });
                }
                self.report(Check::SharedPromotion, entry.source, message, labels, help);
            }
        }
    }

    fn stuck_pieces(&mut self, table: &Table, rules: &Rules, in_play: &[bool]) {
        // Under `moves-as-piece-behind` a piece may move as the one behind it: no rank leaves
        // it without a move for certain.
        if self.stated.stuck_pieces_stay || rules.moves_as_piece_behind {
            return;
        }
        let zone_depth = rules.promotion.iter().filter_map(|t| match t.when {
            PromotionEvent::Zone { depth, .. } => Some(depth),
            PromotionEvent::Capture => None,
        });
        let zone_depth = zone_depth.max().unwrap_or(0);
        for (index, kind) in rules.pieces.iter().enumerate() {
            let stuck = super::pieces::stuck_ranks(&kind.moves, rules.board);
            let promotes = kind.promotion.to.is_some();
            // Turned over by every move, a two-faced piece is never left on its stuck face.
            let flipped = rules.flip == Some(FlipEvent::Move) && (promotes || kind.promotion.reverts_to.is_some());
            let rescued = flipped || (promotes && kind.promotion.forced_ranks >= stuck && zone_depth >= stuck);
            // The rule lets the piece stay on the last rank: intended.
            let stays = kind.promotion.last_rank_optional && stuck == 1;
            if stuck == 0 || rescued || stays || !in_play[index] || stuck == rules.board.ranks {
                continue;
            }
            let entry = &table[index];
            let ranks = if stuck == 1 {
                "the last rank".to_string()
            } else {
                format!("the last {stuck} ranks")
            };
            let (why, fix) = if kind.promotion.to.is_none() {
                ("it does not promote", "give it `promotes ABBR`")
            } else if kind.promotion.last_rank_optional {
                (
                    "`last-rank-promotion-optional` forces no promotion",
                    "leave it out of `last-rank-promotion-optional`",
                )
            } else if zone_depth < stuck {
                (
                    "no promotion zone reaches there",
                    "state a promotion zone of at least that depth",
                )
            } else {
                (
                    "its `must-promote` does not cover them",
                    "remove `must-promote` or raise it",
                )
            };
            let message = format!(
                "`{}` can reach {ranks}, where it has no further move, and {why}",
                kind.abbrev
            );
            let help = Some(format!(
                "{fix}; or, if the rules leave such pieces on the board, say `stuck-pieces-stay`"
            ));
            let mut labels = vec![Label {
                span: entry.decl.abbrev.span.clone(),
                text: "can get stuck".into(),
            }];
            if !entry.decl.moves_span.is_empty() {
                labels.push(Label {
                    span: entry.decl.moves_span.clone(),
                    text: format!("no move from {ranks}"),
                });
            }
            self.report(Check::StuckPiece, entry.source, message, labels, help);
        }
    }
}

/// An outcome word of the grammar (`draw`, `loss` or `win`) as the rules' verdict.
fn verdict_of(word: ast::Verdict) -> Verdict {
    match word {
        ast::Verdict::Draw => Verdict::Draw,
        ast::Verdict::Win => Verdict::Win,
        ast::Verdict::Loss => Verdict::Loss,
    }
}

/// Why a piece is never in play, and what to do: blamed on the pieces it would come from (the
/// unpromoted piece that promotes to it, never in play itself) when there are any.
fn unused_piece_text(rules: &Rules, id: PieceId) -> (String, String) {
    let piece = rules.piece(id);
    let sources: Vec<&str> = rules
        .pieces
        .iter()
        .filter(|p| p.promotion.to == Some(id) || (rules.drops && p.captured_as == Some(id)))
        .map(|p| p.abbrev.as_str())
        .collect();
    if sources.is_empty() {
        let message = format!(
            "`{}` ({}) is never in play: it is not in the setup and nothing promotes to it",
            piece.abbrev, piece.name
        );
        let help = "put it in the setup (on the board, or in a `hand:` row with drops), make a piece promote to it, \
                    or remove it";
        return (message, help.into());
    }
    let from = sources.iter().map(|a| format!("`{a}`")).collect::<Vec<_>>().join(", ");
    let message = format!(
        "`{}` ({}) is never in play: it comes only from {from}, which is never in play either",
        piece.abbrev, piece.name
    );
    let help = format!(
        "put {from} in the setup (on the board, or in a `hand:` row with drops), or remove `{}` with it",
        piece.abbrev
    );
    (message, help)
}

/// Which pieces can appear in a game: those in the setup (on the board or in hand), everything they promote to, what a
/// promoted piece turns back into (by a flip, or captured and dropped), and the kinds captured
/// pieces enter the hand as (`captured-as`).
fn pieces_in_play(rules: &Rules) -> Vec<bool> {
    let mut in_play = vec![false; rules.pieces.len()];
    let mut queue: Vec<PieceId> = rules.start_pieces().map(|(_, piece)| piece).collect();
    let turns_back = rules.flip.is_some() || rules.drops;
    while let Some(id) = queue.pop() {
        if std::mem::replace(&mut in_play[id.index()], true) {
            continue;
        }
        let piece = rules.piece(id);
        queue.extend(piece.promotion.to);
        queue.extend(piece.promotion.reverts_to.filter(|_| turns_back));
        if rules.drops {
            queue.extend(piece.captured_as);
        }
    }
    in_play
}
