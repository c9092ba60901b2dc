//! Rule statements (promotion, drops, game end, handicaps) and the checks across the whole
//! variant that can only be made once everything is compiled.

use super::diagnostic::{Check, Label, suggest};
use super::{Ctx, Table};
use crate::parse::ast::{File, RuleSyntax, Span, Spanned, Statement};
use crate::rules::{
    EndRules, Handicap, LionRole, Outcome, PieceId, PromotionEvent, PromotionTrigger, Repetition, RepetitionEffect,
    Rules, Side, Square,
};
use indexmap::IndexMap;

/// Every statement keyword, for suggestions.
const KEYWORDS: &[&str] = &[
    "variant",
    "use",
    "board",
    "option",
    "piece",
    "setup",
    "promotion",
    "deferral",
    "declined-waits-for-last-rank",
    "drops",
    "drop-limit",
    "no-drop-mate",
    "stalemate",
    "bare-king",
    "repetition",
    "lion-trading",
    "counter-strike",
    "royal-capture-allowed",
    "stuck-pieces-stay",
    "handicap",
];

/// The end rules when a file states none: stalemate loses, nothing else.
pub(super) fn default_end() -> EndRules {
    EndRules {
        stalemate: Outcome::Loss,
        bare_king: false,
        repetition: None,
        royal_capture_allowed: false,
        lion_trading: false,
        counter_strike: false,
    }
}

impl Ctx {
    pub(super) fn rule_statements(&mut self, file: &File, table: &Table, rules: &mut Rules) {
        let mut once: IndexMap<String, Span> = IndexMap::new();
        let statements: Vec<(&Spanned<RuleSyntax>, bool)> = file
            .statements
            .iter()
            .filter_map(|s| match &s.node {
                Statement::Rule { rule, guard } => Some((rule, guard)),
                _ => None,
            })
            .map(|(rule, guard)| (rule, self.active(guard, 0)))
            .collect();
        // Drops first: the drop rules below depend on them.
        for (rule, active) in &statements {
            if *active && matches!(rule.node, RuleSyntax::Drops) {
                rules.drops = true;
            }
        }
        for (rule, active) in statements {
            if active {
                self.once(rule, &mut once);
                self.rule(rule, table, rules);
            } else {
                let mut scratch = rules.clone();
                self.rule(rule, table, &mut scratch);
            }
        }
        self.stuck_pieces_stay = once.contains_key("stuck-pieces-stay");
    }

    /// Reports a statement that may appear once and appears again.
    fn once(&mut self, rule: &Spanned<RuleSyntax>, seen: &mut IndexMap<String, Span>) {
        let key = match &rule.node {
            RuleSyntax::Promotion { trigger, .. } => match trigger {
                crate::parse::ast::PromotionSyntax::Zone { .. } => "promotion zone",
                crate::parse::ast::PromotionSyntax::Capture => "promotion capture",
            },
            RuleSyntax::Deferral => "deferral",
            RuleSyntax::Drops => "drops",
            RuleSyntax::Stalemate(_) => "stalemate",
            RuleSyntax::BareKing => "bare-king",
            RuleSyntax::Repetition { .. } => "repetition",
            RuleSyntax::LionTrading { .. } => "lion-trading",
            RuleSyntax::CounterStrike(_) => "counter-strike",
            RuleSyntax::RoyalCaptureAllowed => "royal-capture-allowed",
            RuleSyntax::StuckPiecesStay => "stuck-pieces-stay",
            _ => return,
        };
        if let Some(first) = seen.get(key) {
            let labels = vec![
                Label {
                    span: rule.span.clone(),
                    text: "stated again here".into(),
                },
                Label {
                    span: first.clone(),
                    text: "first stated here".into(),
                },
            ];
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

    fn piece_list(&mut self, table: &Table, list: &[Spanned<String>]) -> Vec<(PieceId, Span)> {
        list.iter()
            .filter_map(|a| self.lookup_piece(table, a).map(|id| (id, a.span.clone())))
            .collect()
    }

    fn lookup_piece(&mut self, table: &Table, abbrev: &Spanned<String>) -> Option<PieceId> {
        if let Some(index) = table.get_index_of(&abbrev.node) {
            return Some(PieceId(index as u16));
        }
        let help = suggest(&abbrev.node, table.keys().map(String::as_str)).map(|s| format!("did you mean `{s}`?"));
        self.error(
            Check::UnknownPiece,
            abbrev.span.clone(),
            format!("no piece is abbreviated `{}`", abbrev.node),
            "unknown piece",
            help,
        );
        None
    }

    /// Checks that a drop rule's piece can be in hand.
    fn in_hand(&mut self, rules: &Rules, id: PieceId, span: &Span) -> bool {
        if !rules.drops {
            self.error(
                Check::NotInHand,
                span.clone(),
                "drop rules need drops, and this variant has none".into(),
                "never in hand",
                Some("add the line `drops`".into()),
            );
            return false;
        }
        let kind = rules.piece(id);
        if let Some(base) = kind.promotion.reverts_to {
            let message = format!(
                "`{}` is never in hand: a captured `{}` reverts to `{}`",
                kind.abbrev,
                kind.abbrev,
                rules.piece(base).abbrev
            );
            self.error(
                Check::NotInHand,
                span.clone(),
                message,
                "never in hand",
                Some(format!("name `{}` instead", rules.piece(base).abbrev)),
            );
            return false;
        }
        true
    }

    fn rule(&mut self, rule: &Spanned<RuleSyntax>, table: &Table, rules: &mut Rules) {
        match &rule.node {
            RuleSyntax::Promotion { trigger, obligation } => self.promotion(trigger, obligation, rules),
            RuleSyntax::Deferral => {
                rules.deferral = true;
                self.needs_zone(rules, &rule.span, "deferral");
            }
            RuleSyntax::DeclinedWaitsForLastRank(list) => {
                self.needs_zone(rules, &rule.span, "declined-waits-for-last-rank");
                for (id, span) in self.piece_list(table, list) {
                    if rules.piece(id).promotion.to.is_none() {
                        self.error(
                            Check::RuleNeedsAnother,
                            span,
                            format!("`{}` never promotes", rules.piece(id).abbrev),
                            "does not promote",
                            None,
                        );
                    }
                    rules.pieces[id.index()].promotion.declined_waits_for_last_rank = true;
                }
            }
            RuleSyntax::Drops => rules.drops = true,
            RuleSyntax::DropLimit { piece, count } => {
                let Some(id) = self.lookup_piece(table, piece) else {
                    return;
                };
                if !self.in_hand(rules, id, &piece.span) {
                    return;
                }
                if count.node == 0 || count.node > u32::from(rules.board.ranks) {
                    let message = format!(
                        "a limit of {} per file must lie between 1 and the {} ranks of a file",
                        count.node, rules.board.ranks
                    );
                    self.error(Check::BadValue, count.span.clone(), message, "out of range", None);
                    return;
                }
                rules.pieces[id.index()].drop.per_file = Some(count.node as u8);
            }
            RuleSyntax::NoDropMate(list) => {
                for (id, span) in self.piece_list(table, list) {
                    if self.in_hand(rules, id, &span) {
                        rules.pieces[id.index()].drop.no_drop_mate = true;
                    }
                }
            }
            RuleSyntax::Stalemate(outcome) => {
                rules.end.stalemate = match outcome.node.trim() {
                    "draw" => Outcome::Draw,
                    "win" => Outcome::Win,
                    _ => Outcome::Loss,
                }
            }
            RuleSyntax::BareKing => rules.end.bare_king = true,
            RuleSyntax::Repetition {
                count,
                effect,
                perpetual_check_loses,
            } => {
                if !(2..=10).contains(&count.node) {
                    self.error(
                        Check::BadValue,
                        count.span.clone(),
                        format!("a repetition count of {} is not between 2 and 10", count.node),
                        "out of range",
                        None,
                    );
                    return;
                }
                let effect = match effect.node.trim() {
                    "draw" => RepetitionEffect::Draw,
                    "illegal" => RepetitionEffect::Illegal,
                    _ => RepetitionEffect::StarterVaries,
                };
                rules.end.repetition = Some(Repetition {
                    count: count.node as u8,
                    effect,
                    perpetual_check_loses: *perpetual_check_loses,
                });
            }
            RuleSyntax::LionTrading { lions, weak_bridges } => {
                rules.end.lion_trading = true;
                for (id, _) in self.piece_list(table, lions) {
                    rules.pieces[id.index()].lion = LionRole::Lion;
                }
                for (id, span) in self.piece_list(table, weak_bridges) {
                    if rules.pieces[id.index()].lion == LionRole::Lion {
                        self.error(
                            Check::ContradictoryClause,
                            span,
                            format!("`{}` is listed as a Lion and as a weak bridge", rules.piece(id).abbrev),
                            "both",
                            None,
                        );
                    }
                    rules.pieces[id.index()].lion = LionRole::WeakBridge;
                }
            }
            RuleSyntax::CounterStrike(lions) => {
                rules.end.counter_strike = true;
                for (id, span) in self.piece_list(table, lions) {
                    if rules.pieces[id.index()].lion == LionRole::WeakBridge {
                        self.error(
                            Check::ContradictoryClause,
                            span,
                            format!("`{}` is listed as a Lion and as a weak bridge", rules.piece(id).abbrev),
                            "both",
                            None,
                        );
                    }
                    rules.pieces[id.index()].lion = LionRole::Lion;
                }
            }
            RuleSyntax::RoyalCaptureAllowed => rules.end.royal_capture_allowed = true,
            RuleSyntax::StuckPiecesStay => {}
            RuleSyntax::Handicap { name, squares } => self.handicap(name, squares, rules),
            RuleSyntax::Unknown(word) => {
                let help = suggest(&word.node, KEYWORDS.iter().copied())
                    .map(|s| format!("did you mean `{s}`?"))
                    .or_else(|| Some(format!("statements start with one of: {}", KEYWORDS.join(", "))));
                self.error(
                    Check::UnknownKeyword,
                    word.span.clone(),
                    format!("`{}` is not a keyword of the language", word.node),
                    "unknown keyword",
                    help,
                );
            }
        }
    }

    fn needs_zone(&mut self, rules: &Rules, span: &Span, what: &str) {
        let has_zone = rules
            .promotion
            .iter()
            .any(|t| matches!(t.when, PromotionEvent::Zone { .. }));
        if !has_zone {
            self.error(
                Check::RuleNeedsAnother,
                span.clone(),
                format!("`{what}` needs a promotion zone"),
                "no zone to enter",
                Some("state the zone first: `promotion zone N`".into()),
            );
        }
    }

    fn promotion(
        &mut self,
        trigger: &crate::parse::ast::PromotionSyntax,
        obligation: &Option<Spanned<String>>,
        rules: &mut Rules,
    ) {
        let compulsory = obligation.as_ref().is_some_and(|o| o.node.trim() == "compulsory");
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
                    self.error(Check::ZoneTooDeep, depth.span.clone(), message, "too deep", None);
                    return;
                }
                if 2 * depth.node > ranks {
                    let message = format!("zones of {} ranks overlap on a board of {ranks} ranks", depth.node);
                    self.error(
                        Check::ZonesOverlap,
                        depth.span.clone(),
                        message,
                        "overlapping zones",
                        None,
                    );
                }
                let has = |e: &str| events.is_empty() || events.iter().any(|x| x.node.trim() == e);
                PromotionEvent::Zone {
                    depth: depth.node as u8,
                    enter: has("enter"),
                    within: has("within"),
                    leave: has("leave"),
                }
            }
        };
        rules.promotion.push(PromotionTrigger { when, compulsory });
    }

    fn handicap(&mut self, name: &Spanned<String>, squares: &[Spanned<String>], rules: &mut Rules) {
        if rules.handicaps.iter().any(|h| h.name == name.node) {
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
        for text in squares {
            let Some(square) = Square::parse(&text.node).filter(|s| rules.board.contains(*s)) else {
                let message = format!(
                    "{} is not a square of the {} x {} board",
                    text.node, rules.board.files, rules.board.ranks
                );
                self.error(Check::SquareOffBoard, text.span.clone(), message, "off the board", None);
                continue;
            };
            if !rules.setup.iter().any(|p| p.square == square && p.side == Side::White) {
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
            list.push(square);
        }
        rules.handicaps.push(Handicap {
            name: name.node.clone(),
            squares: list,
        });
    }

    /// Checks that need the whole variant: royals, pieces never in play, stuck pieces.
    pub(super) fn cross_check(&mut self, table: &Table, rules: &mut Rules) {
        if !rules.pieces.iter().any(|p| p.royal) {
            self.report(
                Check::NoRoyal,
                0,
                "no piece is royal, so no game can be won".into(),
                vec![],
                Some("mark the king with the attribute `royal`".into()),
            );
        } else if !rules.pieces.is_empty() {
            for side in [Side::Black, Side::White] {
                let has = rules.setup.iter().any(|p| p.side == side && rules.piece(p.piece).royal);
                if !has && !rules.setup.is_empty() {
                    let message = format!("{side:?} starts without a royal piece");
                    self.report(
                        Check::NoRoyal,
                        0,
                        message,
                        vec![],
                        Some("put a royal piece (such as the king) in the setup".into()),
                    );
                }
            }
        }
        let in_play = pieces_in_play(rules);
        for (index, entry) in table.values().enumerate() {
            if !in_play[index] {
                let message = format!(
                    "`{}` ({}) is never in play: it is not in the setup and nothing promotes to it",
                    entry.decl.abbrev.node, entry.decl.name.node
                );
                self.error_in(
                    Check::UnusedPiece,
                    entry.source,
                    entry.decl.abbrev.span.clone(),
                    message,
                    "defined here",
                    Some("put it in the setup, make a piece promote to it, or remove it".into()),
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
            let in_setup = rules.setup.iter().any(|p| p.piece == target);
            if reverts != Some(PieceId(index as u16)) || in_setup {
                let entry = &table[index];
                let message = format!(
                    "`{}` promotes to `{}`, which is also another piece; a captured `{}` could not tell what to revert to",
                    kind.abbrev,
                    rules.piece(target).abbrev,
                    rules.piece(target).abbrev
                );
                let help = Some(format!(
                    "define a promoted kind of its own, such as `piece +{} \"…\" : as {}`",
                    kind.abbrev,
                    rules.piece(target).abbrev
                ));
                self.error_in(
                    Check::SharedPromotion,
                    entry.source,
                    entry.decl.abbrev.span.clone(),
                    message,
                    "promotes to a shared kind",
                    help,
                );
            }
        }
    }

    fn stuck_pieces(&mut self, table: &Table, rules: &Rules, in_play: &[bool]) {
        if self.stuck_pieces_stay {
            return;
        }
        let zone_depth = rules.promotion.iter().filter_map(|t| match t.when {
            PromotionEvent::Zone { depth, .. } => Some(depth),
            PromotionEvent::Capture => None,
        });
        let zone_depth = zone_depth.max().unwrap_or(0);
        for (index, kind) in rules.pieces.iter().enumerate() {
            let stuck = kind.drop.dead_ranks;
            let rescued = kind.promotion.to.is_some() && kind.promotion.forced_ranks >= stuck && zone_depth >= stuck;
            if stuck == 0 || rescued || !in_play[index] || stuck == rules.board.ranks {
                continue;
            }
            let entry = &table[index];
            let message = format!(
                "`{}` can reach the last {stuck} rank(s), where it has no further move and is not made to promote",
                kind.abbrev
            );
            let help = Some(
                "add `stuck-pieces-stay` if the rules leave such pieces on the board, or give it a promotion"
                    .to_string(),
            );
            self.error_in(
                Check::StuckPiece,
                entry.source,
                entry.decl.abbrev.span.clone(),
                message,
                "can get stuck",
                help,
            );
        }
    }
}

/// Which pieces can appear in a game: those in the setup and everything they promote to.
fn pieces_in_play(rules: &Rules) -> Vec<bool> {
    let mut in_play = vec![false; rules.pieces.len()];
    let mut queue: Vec<PieceId> = rules.setup.iter().map(|p| p.piece).collect();
    while let Some(id) = queue.pop() {
        if std::mem::replace(&mut in_play[id.index()], true) {
            continue;
        }
        if let Some(next) = rules.piece(id).promotion.to {
            queue.push(next);
        }
    }
    in_play
}
