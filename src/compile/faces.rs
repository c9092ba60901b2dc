//! The rules about two-faced pieces (a piece and the kind it promotes to, as the two sides of
//! one piece): `flip on capture|move`, which turns them over both ways in place of promotion
//! triggers, and the freedoms of `drops` (`either-face`, `anywhere`). What they need of the
//! pieces, and what contradicts them, is checked once every statement is read.

use super::diagnostic::{Check, Label};
use super::pieces::promotes_span;
use super::{Ctx, Table};
use crate::parse::ast::{DropFreedom, RuleStatement, Span, Spanned};
use crate::rules::Rules;

/// Where the statements about two-faced pieces stand in the main file (those in force).
#[derive(Default)]
pub(super) struct FaceStatements {
    flip: Option<Span>,
    /// Every `promotion` statement.
    promotion: Vec<Span>,
    either_face: Option<Span>,
    anywhere: Option<Span>,
}

impl FaceStatements {
    /// Notes a statement in force.
    pub(super) fn note(&mut self, rule: &Spanned<RuleStatement>) {
        match &rule.node {
            RuleStatement::Flip(_) => self.flip = Some(rule.span.clone()),
            RuleStatement::Promotion { .. } => self.promotion.push(rule.span.clone()),
            RuleStatement::Drops(freedoms) => {
                for freedom in freedoms {
                    match freedom.node {
                        DropFreedom::EitherFace => self.either_face = Some(freedom.span.clone()),
                        DropFreedom::Anywhere => self.anywhere = Some(freedom.span.clone()),
                    }
                }
            }
            _ => {}
        }
    }
}

impl Ctx {
    /// `drops` and its freedoms; a freedom given twice is reported.
    pub(super) fn drops(&mut self, freedoms: &[Spanned<DropFreedom>], rules: &mut Rules) {
        rules.drops = true;
        let mut seen: Vec<&Spanned<DropFreedom>> = Vec::new();
        for freedom in freedoms {
            let word = freedom.node.word();
            if let Some(first) = seen.iter().find(|f| f.node == freedom.node) {
                let labels = Label::again("given", freedom.span.clone(), first.span.clone());
                let help = Some(format!("keep one `{word}`"));
                self.report(
                    Check::DuplicateStatement,
                    0,
                    format!("`drops` is given `{word}` twice"),
                    labels,
                    help,
                );
                continue;
            }
            seen.push(freedom);
            match freedom.node {
                DropFreedom::EitherFace => rules.drop_either_face = true,
                DropFreedom::Anywhere => {}
            }
        }
    }

    /// Applies and checks the rules about two-faced pieces, once every statement is read.
    pub(super) fn face_rules(&mut self, table: &Table, rules: &mut Rules) {
        let faces = std::mem::take(&mut self.stated.faces);
        let two_faced = rules.pieces.iter().any(|p| p.promotion.to.is_some());
        if let Some(flip) = &faces.flip {
            self.flip_rule(table, rules, flip, &faces.promotion, two_faced);
        }
        if let Some(span) = &faces.either_face
            && !two_faced
        {
            self.error(
                Check::RuleNeedsAnother,
                span.clone(),
                "`either-face` lets a piece be dropped promoted, and no piece promotes".into(),
                "needs a piece with `promotes`",
                Some("give a piece `promotes ABBR` (its other face), or remove `either-face`".into()),
            );
        }
        if let Some(span) = &faces.anywhere {
            let stuck_somewhere = rules.pieces.iter().any(|p| p.drop.dead_ranks > 0);
            for piece in &mut rules.pieces {
                piece.drop.dead_ranks = 0;
            }
            if !stuck_somewhere {
                self.error(
                    Check::RuleNeedsAnother,
                    span.clone(),
                    "`anywhere` lets a piece be dropped where it has no further move, and every piece can move from every square"
                        .into(),
                    "changes nothing here",
                    Some("remove `anywhere`: drops may already go to any empty square".into()),
                );
            }
        }
        self.stated.faces = faces;
    }

    /// `flip`: no promotion statement beside it, pieces of at most two faces, and at least
    /// one piece that has two.
    fn flip_rule(&mut self, table: &Table, rules: &mut Rules, flip: &Span, promotion: &[Span], two_faced: bool) {
        if let Some(other) = promotion.first() {
            let labels = vec![
                Label {
                    span: flip.clone(),
                    text: "turns pieces over itself".into(),
                },
                Label {
                    span: other.clone(),
                    text: "a promotion rule besides".into(),
                },
            ];
            let help = Some("a flip rule says when pieces promote and turn back: remove the `promotion` line".into());
            let message = "`flip` and `promotion` both say when pieces promote".to_string();
            self.report(Check::ContradictoryClause, 0, message, labels, help);
        }
        if !two_faced {
            self.error(
                Check::RuleNeedsAnother,
                flip.clone(),
                "`flip` turns over two-faced pieces, and no piece promotes".into(),
                "needs a piece with `promotes`",
                Some("give each piece that turns over `promotes ABBR`, naming its other face".into()),
            );
        }
        for (index, kind) in rules.pieces.iter().enumerate() {
            let (Some(base), Some(next)) = (kind.promotion.reverts_to, kind.promotion.to) else {
                continue;
            };
            let entry = &table[index];
            let span = promotes_span(&entry.decl).unwrap_or(entry.decl.abbrev.span.clone());
            let (abbrev, base, next) = (&kind.abbrev, &rules.piece(base).abbrev, &rules.piece(next).abbrev);
            let message = format!(
                "under `flip` a piece has two faces, and `{abbrev}` would have three: `{base}`, `{abbrev}` and `{next}`"
            );
            let labels = vec![
                Label {
                    span,
                    text: format!("`{abbrev}`, the promoted face of `{base}`, promotes again"),
                },
                Label {
                    span: flip.clone(),
                    text: "pieces turn over between two faces".into(),
                },
            ];
            let help = Some(format!(
                "remove `promotes {next}` from `{abbrev}`: under `flip` it turns back to `{base}`"
            ));
            self.report(Check::ContradictoryClause, entry.source, message, labels, help);
        }
        // The flip is compulsory on its event, and only then: no rank forces it.
        for piece in &mut rules.pieces {
            piece.promotion.forced_ranks = 0;
        }
    }
}
