//! The piece table: declarations gathered from a file and the files it uses, their
//! attributes checked, their moves lowered (`as` resolved), promotions linked, and what the
//! movement implies derived (the ranks where a piece would have no further move).

use super::diagnostic::{Check, Label, suggest};
use super::movement::Lowered;
use super::{Ctx, Entry, Table};
use crate::parse::ast::{Attribute, File, MovementSyntax, PieceDecl, Spanned, Statement};
use crate::rules::{BoardSize, DropRestrictions, LionRole, Movement, PieceId, PieceKind, PiecePromotion, Side, Square};
use indexmap::IndexMap;

/// Most piece kinds in one variant.
pub const MAX_PIECE_KINDS: usize = 1000;

/// The abbreviations a declaration refers to (its promotion and the pieces it moves as).
pub(super) fn references(decl: &PieceDecl) -> Vec<String> {
    let promotes = decl.attributes.iter().filter_map(|a| match &a.node {
        Attribute::Promotes(target) => Some(target.node.clone()),
        _ => None,
    });
    let moves_as = decl.clauses.iter().filter_map(|c| match &c.movement.node {
        MovementSyntax::As(target) => Some(target.node.clone()),
        _ => None,
    });
    promotes.chain(moves_as).collect()
}

impl Ctx {
    /// All declarations in force: the used files' first, then this file's. A piece defined
    /// here with the abbreviation of a used piece replaces it.
    pub(super) fn piece_table(&mut self, imported: Vec<Entry>, file: &File) -> Table {
        let mut table: Table = IndexMap::new();
        for entry in imported {
            table.insert(entry.decl.abbrev.node.clone(), entry);
        }
        let mut local: IndexMap<String, Spanned<String>> = IndexMap::new();
        for statement in &file.statements {
            let Statement::Piece(decl) = &statement.node else {
                continue;
            };
            if let Some(first) = local.get(&decl.abbrev.node) {
                let labels = vec![
                    Label {
                        span: decl.abbrev.span.clone(),
                        text: "defined again here".into(),
                    },
                    Label {
                        span: first.span.clone(),
                        text: "first defined here".into(),
                    },
                ];
                let help = Some(
                    "each piece needs its own abbreviation; a promoted piece is usually `+` and the original's"
                        .to_string(),
                );
                self.report(
                    Check::DuplicateAbbreviation,
                    0,
                    format!("two pieces are abbreviated `{}`", decl.abbrev.node),
                    labels,
                    help,
                );
                continue;
            }
            local.insert(decl.abbrev.node.clone(), decl.abbrev.clone());
            table.insert(
                decl.abbrev.node.clone(),
                Entry {
                    decl: decl.clone(),
                    source: 0,
                },
            );
        }
        if table.len() > MAX_PIECE_KINDS {
            let message = format!(
                "{} piece kinds are more than koma's limit of {MAX_PIECE_KINDS}",
                table.len()
            );
            self.report(Check::Limit, 0, message, vec![], None);
            table.truncate(MAX_PIECE_KINDS);
        }
        table
    }

    /// Compiles every declaration of the table, in order; ids are positions in the table.
    pub(super) fn pieces(&mut self, table: &Table, board: BoardSize) -> Vec<PieceKind> {
        let mut kinds: Vec<PieceKind> = table.values().map(|e| self.attributes(e, table)).collect();
        let moves = self.resolve_moves(table, board);
        for (kind, moves) in kinds.iter_mut().zip(moves) {
            kind.moves = moves;
        }
        self.link_promotions(table, &mut kinds);
        self.derive_stuck_ranks(table, &mut kinds, board);
        self.check_names(table, &mut kinds);
        kinds
    }

    fn lookup(&mut self, table: &Table, abbrev: &Spanned<String>, source: usize) -> Option<PieceId> {
        if let Some(index) = table.get_index_of(&abbrev.node) {
            return Some(PieceId(index as u16));
        }
        let help = suggest(&abbrev.node, table.keys().map(String::as_str)).map(|s| format!("did you mean `{s}`?"));
        self.error_in(
            Check::UnknownPiece,
            source,
            abbrev.span.clone(),
            format!("no piece is abbreviated `{}`", abbrev.node),
            "unknown piece",
            help,
        );
        None
    }

    fn attributes(&mut self, entry: &Entry, table: &Table) -> PieceKind {
        let decl = &entry.decl;
        let mut kind = PieceKind {
            abbrev: decl.abbrev.node.clone(),
            name: decl.name.node.clone(),
            kanji: None,
            sfen: None,
            value: 0,
            royal: false,
            moves: vec![],
            promotion: PiecePromotion::default(),
            drop: DropRestrictions::default(),
            lion: LionRole::NotLion,
        };
        let mut seen: Vec<(std::mem::Discriminant<Attribute>, &Spanned<Attribute>)> = Vec::new();
        for attribute in &decl.attributes {
            let discriminant = std::mem::discriminant(&attribute.node);
            if let Some((_, first)) = seen.iter().find(|(d, _)| *d == discriminant) {
                let labels = vec![
                    Label {
                        span: attribute.span.clone(),
                        text: "given again here".into(),
                    },
                    Label {
                        span: first.span.clone(),
                        text: "first given here".into(),
                    },
                ];
                self.report(
                    Check::DuplicateAttribute,
                    entry.source,
                    format!("piece `{}` has this attribute twice", kind.abbrev),
                    labels,
                    None,
                );
                continue;
            }
            seen.push((discriminant, attribute));
            match &attribute.node {
                Attribute::Sfen(letter) => kind.sfen = Some(letter.to_lowercase()),
                Attribute::Kanji(text) => kind.kanji = Some(text.clone()),
                Attribute::Value(v) => kind.value = *v,
                Attribute::Royal => kind.royal = true,
                Attribute::Promotes(target) => {
                    kind.promotion.to = self.lookup(table, target, entry.source);
                }
                Attribute::MustPromote(_) => {}
                Attribute::Unknown(word) => {
                    const WORDS: &[&str] = &["sfen", "kanji", "value", "royal", "promotes", "must-promote"];
                    let help = suggest(word, WORDS.iter().copied())
                        .map(|s| format!("did you mean `{s}`?"))
                        .or_else(|| Some(format!("piece attributes are: {}", WORDS.join(", "))));
                    let span = attribute.span.start..attribute.span.start + word.len();
                    self.error_in(
                        Check::UnknownAttribute,
                        entry.source,
                        span,
                        format!("`{word}` is not a piece attribute"),
                        "unknown attribute",
                        help,
                    );
                }
            }
        }
        kind
    }

    /// Lowers every piece's clauses and resolves `as`, reporting cycles.
    fn resolve_moves(&mut self, table: &Table, board: BoardSize) -> Vec<Vec<Movement>> {
        let lowered: Vec<Vec<Lowered>> = table
            .values()
            .map(|entry| {
                let mut out = Vec::new();
                for clause in &entry.decl.clauses {
                    let lowered = self.lower_clause(clause, entry.source, board);
                    if self.active(&clause.guard, entry.source) {
                        out.push(lowered);
                    }
                }
                out
            })
            .collect();
        let mut done: Vec<Option<Vec<Movement>>> = vec![None; table.len()];
        for index in 0..table.len() {
            let mut stack = Vec::new();
            self.moves_of(index, table, &lowered, &mut done, &mut stack);
        }
        done.into_iter().map(Option::unwrap_or_default).collect()
    }

    fn moves_of(
        &mut self,
        index: usize,
        table: &Table,
        lowered: &[Vec<Lowered>],
        done: &mut Vec<Option<Vec<Movement>>>,
        stack: &mut Vec<usize>,
    ) -> Vec<Movement> {
        if let Some(moves) = &done[index] {
            return moves.clone();
        }
        stack.push(index);
        let entry = &table[index];
        let mut moves: Vec<Movement> = Vec::new();
        for item in &lowered[index] {
            match item {
                Lowered::Moves(list) => moves.extend(list.iter().cloned()),
                Lowered::As(target) => {
                    let Some(id) = self.lookup(table, target, entry.source) else {
                        continue;
                    };
                    if stack.contains(&id.index()) {
                        let path: Vec<&str> = stack
                            .iter()
                            .map(|&i| table.get_index(i).map_or("?", |(k, _)| k.as_str()))
                            .collect();
                        let message = format!(
                            "`{}` moves as itself ({} → {})",
                            entry.decl.abbrev.node,
                            path.join(" → "),
                            target.node
                        );
                        self.error_in(
                            Check::MovementCycle,
                            entry.source,
                            target.span.clone(),
                            message,
                            "leads back to the piece",
                            Some("`as` must end at a piece with moves of its own".into()),
                        );
                        continue;
                    }
                    moves.extend(self.moves_of(id.index(), table, lowered, done, stack));
                }
            }
        }
        stack.pop();
        let mut unique: Vec<Movement> = Vec::new();
        for m in moves {
            if !unique.contains(&m) {
                unique.push(m);
            }
        }
        done[index] = Some(unique.clone());
        unique
    }

    /// Sets `reverts_to`, reports cycles and shared targets where they matter.
    fn link_promotions(&mut self, table: &Table, kinds: &mut [PieceKind]) {
        for start in 0..kinds.len() {
            let mut seen = vec![start];
            let mut current = start;
            while let Some(next) = kinds[current].promotion.to {
                if seen.contains(&next.index()) {
                    let entry = &table[start];
                    let span = promotes_span(&entry.decl).unwrap_or(entry.decl.abbrev.span.clone());
                    let path: Vec<&str> = seen
                        .iter()
                        .chain(std::iter::once(&next.index()))
                        .map(|&i| kinds[i].abbrev.as_str())
                        .collect();
                    if next.index() == start {
                        let message = format!(
                            "promoting `{}` leads back to it ({})",
                            kinds[start].abbrev,
                            path.join(" → ")
                        );
                        self.error_in(
                            Check::PromotionCycle,
                            entry.source,
                            span,
                            message,
                            "cycle starts here",
                            Some("a promoted piece may not promote back".into()),
                        );
                    }
                    break;
                }
                seen.push(next.index());
                current = next.index();
            }
        }
        for index in 0..kinds.len() {
            if let Some(target) = kinds[index].promotion.to {
                if target.index() != index && kinds[target.index()].promotion.reverts_to.is_none() {
                    kinds[target.index()].promotion.reverts_to = Some(PieceId(index as u16));
                }
            }
        }
    }

    /// Derives where each piece has no further move (on an empty board), and so where it
    /// must promote and may not be dropped; applies `must-promote` overrides.
    fn derive_stuck_ranks(&mut self, table: &Table, kinds: &mut [PieceKind], board: BoardSize) {
        for (index, kind) in kinds.iter_mut().enumerate() {
            let stuck = stuck_ranks(&kind.moves, board);
            kind.drop.dead_ranks = stuck;
            if kind.promotion.to.is_some() {
                kind.promotion.forced_ranks = stuck;
            }
            let entry = &table[index];
            let override_ranks = entry.decl.attributes.iter().find_map(|a| match &a.node {
                Attribute::MustPromote(n) => Some(n.clone()),
                _ => None,
            });
            if let Some(n) = override_ranks {
                if n.node > u32::from(board.ranks) {
                    self.error_in(
                        Check::BadValue,
                        entry.source,
                        n.span.clone(),
                        format!("the board has only {} ranks", board.ranks),
                        "more ranks than the board has",
                        None,
                    );
                } else if kind.promotion.to.is_none() {
                    self.error_in(
                        Check::RuleNeedsAnother,
                        entry.source,
                        n.span.clone(),
                        format!("`{}` never promotes", kind.abbrev),
                        "needs `promotes`",
                        None,
                    );
                } else {
                    kind.promotion.forced_ranks = n.node as u8;
                }
            }
            if kind.moves.is_empty() || stuck == board.ranks {
                let message = format!("`{}` cannot move from any square of the board", kind.abbrev);
                let span = entry.decl.moves_span.clone();
                self.error_in(
                    Check::NoMove,
                    entry.source,
                    span,
                    message,
                    "no move here",
                    Some("give the piece at least one move that stays on the board".into()),
                );
            }
        }
    }

    /// Derives SFEN letters of promoted pieces and checks names and letters are unique.
    fn check_names(&mut self, table: &Table, kinds: &mut [PieceKind]) {
        for index in 0..kinds.len() {
            if kinds[index].sfen.is_none() {
                if let Some(base) = kinds[index].promotion.reverts_to {
                    if let Some(letter) = kinds[base.index()].sfen.clone().filter(|l| !l.starts_with('+')) {
                        kinds[index].sfen = Some(format!("+{letter}"));
                    }
                }
            }
        }
        let mut names: IndexMap<String, usize> = IndexMap::new();
        let mut letters: IndexMap<String, usize> = IndexMap::new();
        for (index, kind) in kinds.iter().enumerate() {
            // A promoted kind may share its name with another piece (Chu's promoted Kylin is
            // a "Lion"; Yari's Bishop and Knight both promote to a "Yari Gold").
            let promoted = kind.promotion.reverts_to.is_some();
            if let Some(&first) = names.get(&kind.name).filter(|_| !promoted) {
                self.duplicate(
                    table,
                    index,
                    first,
                    Check::DuplicateName,
                    format!("two pieces are named \"{}\"", kind.name),
                    |d| d.name.span.clone(),
                );
            } else if !promoted {
                names.insert(kind.name.clone(), index);
            }
            if let Some(letter) = &kind.sfen {
                if let Some(&first) = letters.get(letter) {
                    let message = format!(
                        "`{}` and `{}` both have the SFEN letter `{letter}`",
                        kinds[first].abbrev, kind.abbrev
                    );
                    self.duplicate(table, index, first, Check::DuplicateSfen, message, |d| {
                        sfen_span(d).unwrap_or(d.abbrev.span.clone())
                    });
                } else {
                    letters.insert(letter.clone(), index);
                }
            }
        }
    }

    fn duplicate(
        &mut self,
        table: &Table,
        index: usize,
        first: usize,
        check: Check,
        message: String,
        span: impl Fn(&PieceDecl) -> crate::parse::ast::Span,
    ) {
        let (here, there) = (&table[index], &table[first]);
        let mut labels = vec![Label {
            span: span(&here.decl),
            text: "here".into(),
        }];
        let mut help = None;
        if here.source == there.source {
            labels.push(Label {
                span: span(&there.decl),
                text: "and here".into(),
            });
        } else {
            help = Some(format!(
                "the other is `{}` in {}",
                there.decl.abbrev.node, self.sources[there.source].name
            ));
        }
        self.report(check, here.source, message, labels, help);
    }
}

fn promotes_span(decl: &PieceDecl) -> Option<crate::parse::ast::Span> {
    decl.attributes.iter().find_map(|a| match &a.node {
        Attribute::Promotes(t) => Some(t.span.clone()),
        _ => None,
    })
}

fn sfen_span(decl: &PieceDecl) -> Option<crate::parse::ast::Span> {
    decl.attributes.iter().find_map(|a| match &a.node {
        Attribute::Sfen(_) => Some(a.span.clone()),
        _ => None,
    })
}

/// How many of the far ranks a piece with these moves has no move from, on an empty board
/// (as Black; the board is symmetric for White).
pub fn stuck_ranks(moves: &[Movement], board: BoardSize) -> u8 {
    let can_move_from_rank = |rank: u8| {
        (1..=board.files).any(|file| {
            moves
                .iter()
                .any(|m| m.can_leave(board, Side::Black, Square::new(file, rank)))
        })
    };
    (1..=board.ranks).take_while(|&rank| !can_move_from_rank(rank)).count() as u8
}
