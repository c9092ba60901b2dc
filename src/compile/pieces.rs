//! The piece table: declarations gathered from a file and the files it uses, their
//! attributes checked, their moves lowered (`as` resolved), promotions linked, and what the
//! movement implies derived (the ranks where a piece would have no further move).

use super::diagnostic::{Check, Label};
use super::movement::Lowered;
use super::suggest::{Meant, did_you_mean_or_list, did_you_mean_pieces, meant_pieces};
use super::{Ctx, Entry, Table};
use crate::parse::ast::{Attribute, File, MovementSyntax, PieceDecl, Span, Spanned, Statement};
use crate::parse::keywords;
use crate::rules::{BoardSize, DropRestrictions, LionRole, Movement, PieceId, PieceKind, PiecePromotion, Side, Square};
use indexmap::IndexMap;

/// Most piece kinds in one variant.
pub const MAX_PIECE_KINDS: usize = 1000;

/// The lowest place in the range-jumping order (`jump-rank`).
pub const MAX_JUMP_RANK: u32 = 254;

/// The largest `value` of a piece.
pub const MAX_VALUE: u32 = 1_000_000;

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
                let labels = Label::again("defined", decl.abbrev.span.clone(), first.span.clone());
                let help = Some(
                    "each piece needs its own abbreviation; a promoted piece's is usually `+` and the original's \
                     (`+P` for `P`)"
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
                    decl: std::rc::Rc::new(decl.clone()),
                    source: 0,
                },
            );
        }
        if table.len() > MAX_PIECE_KINDS {
            let message = format!(
                "{} piece kinds are more than koma's limit of {MAX_PIECE_KINDS}",
                table.len()
            );
            let first_past = table.get_index(MAX_PIECE_KINDS).map(|(_, e)| e);
            let labels = first_past
                .filter(|e| e.source == 0)
                .map(|e| Label {
                    span: e.decl.abbrev.span.clone(),
                    text: format!("piece number {}", MAX_PIECE_KINDS + 1),
                })
                .into_iter()
                .collect();
            let help = Some("a variant has at most 1000 kinds of piece, promoted ones included".into());
            self.report(Check::Limit, 0, message, labels, help);
            table.truncate(MAX_PIECE_KINDS);
        }
        table
    }

    /// Compiles every declaration of the table, in order; ids are positions in the table.
    pub(super) fn pieces(&mut self, table: &Table, board: BoardSize) -> Vec<PieceKind> {
        let mut kinds: Vec<PieceKind> = table.values().map(|e| self.attributes(e, table)).collect();
        let (moves, tainted) = self.resolve_moves(table, board);
        for (kind, moves) in kinds.iter_mut().zip(moves) {
            kind.moves = moves;
        }
        self.check_range_jumpers(table, &kinds);
        self.link_promotions(table, &mut kinds);
        self.derive_stuck_ranks(table, &mut kinds, board, &tainted);
        self.check_names(table, &mut kinds);
        kinds
    }

    /// A piece with `range-jump` or `range-capture` moves and no `jump-rank` could jump
    /// nothing: reported.
    fn check_range_jumpers(&mut self, table: &Table, kinds: &[PieceKind]) {
        for (entry, kind) in table.values().zip(kinds) {
            let has = |word: fn(&Movement) -> bool| kind.moves.iter().any(word);
            let word = if has(|m| matches!(m, Movement::RangeJump { .. })) {
                Some(("range-jump", "range-jumps"))
            } else if has(|m| matches!(m, Movement::RangeCapture { .. })) {
                Some(("range-capture", "range-captures"))
            } else {
                None
            };
            let Some((word, verb)) = word.filter(|_| kind.jump_rank.is_none()) else {
                continue;
            };
            let labels = vec![Label {
                span: entry.decl.abbrev.span.clone(),
                text: format!("has `{word}` moves but no `jump-rank`"),
            }];
            self.report(
                Check::RuleNeedsAnother,
                entry.source,
                format!("`{}` {verb} without a place in the jumping order", kind.abbrev),
                labels,
                Some(
                    "give it `jump-rank N` (1 is the highest): it jumps only pieces ranked below it, and a \
                     piece without a rank ranks below every ranked one, so it could jump nothing"
                        .into(),
                ),
            );
        }
    }

    /// The piece `abbrev` names, or `None` when no piece has that abbreviation (reported).
    pub(super) fn lookup(&mut self, table: &Table, abbrev: &Spanned<String>, source: usize) -> Option<PieceId> {
        if let Some(index) = table.get_index_of(&abbrev.node) {
            return Some(PieceId(index as u16));
        }
        self.unknown_piece(table, &abbrev.node, abbrev.span.clone(), source);
        None
    }

    /// Reports a word used as a piece abbreviation that no piece has, suggesting the piece
    /// that was probably meant (an abbreviation written in another case or with a typo, or
    /// the name of a piece instead of its abbreviation) and pointing at its definition.
    pub(super) fn unknown_piece(&mut self, table: &Table, word: &str, span: Span, source: usize) {
        let mut labels = vec![Label {
            span,
            text: "unknown piece".into(),
        }];
        let help = match meant_pieces(table, word) {
            Meant::Abbreviations(meant) => {
                for &(abbrev, entry) in &meant {
                    if entry.source == source {
                        labels.push(Label {
                            span: entry.decl.abbrev.span.clone(),
                            text: format!("`{abbrev}` is defined here"),
                        });
                    }
                }
                Some(did_you_mean_pieces(&meant))
            }
            Meant::Name(abbrev, entry) => {
                if entry.source == source {
                    labels.push(Label {
                        span: entry.decl.abbrev.span.clone(),
                        text: format!("`{abbrev}` is defined here"),
                    });
                }
                Some(format!(
                    "\"{}\" is the name of `{abbrev}`; pieces are referred to by their abbreviation",
                    entry.decl.name.node
                ))
            }
            Meant::Nothing if table.is_empty() => {
                Some("no piece is defined; define one with `piece ABBR \"Name\" : MOVES`".into())
            }
            Meant::Nothing if table.len() <= 24 => Some(format!(
                "the pieces are: {}",
                table.keys().map(String::as_str).collect::<Vec<_>>().join(", ")
            )),
            Meant::Nothing => Some("define it with `piece ABBR \"Name\" : MOVES`, or check the spelling".into()),
        };
        self.report(
            Check::UnknownPiece,
            source,
            format!("no piece is abbreviated `{word}`"),
            labels,
            help,
        );
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
            piece_limit: None,
            captured_as: None,
            jump_rank: None,
            burns: false,
        };
        let mut seen: Vec<(std::mem::Discriminant<Attribute>, &Spanned<Attribute>)> = Vec::new();
        for attribute in &decl.attributes {
            let discriminant = std::mem::discriminant(&attribute.node);
            let unknown = matches!(attribute.node, Attribute::Unknown(_));
            if let Some((_, first)) = seen.iter().find(|(d, _)| *d == discriminant).filter(|_| !unknown) {
                let labels = Label::again("given", attribute.span.clone(), first.span.clone());
                let source = &self.sink.sources[entry.source].text;
                let word = source
                    .get(attribute.span.clone())
                    .and_then(|t| t.split_whitespace().next())
                    .unwrap_or("attribute")
                    .to_string();
                self.report(
                    Check::DuplicateAttribute,
                    entry.source,
                    format!("`{}` is given `{word}` twice", kind.abbrev),
                    labels,
                    Some(format!("keep one `{word}`")),
                );
                continue;
            }
            seen.push((discriminant, attribute));
            match &attribute.node {
                Attribute::Sfen(letter) => kind.sfen = Some(letter.to_lowercase()),
                Attribute::Kanji(text) => kind.kanji = Some(text.clone()),
                Attribute::Value(v) if *v > MAX_VALUE => {
                    let span = attribute.span.clone();
                    let message = format!("a value of {v} is past koma's largest, {MAX_VALUE}");
                    self.error_in(Check::BadValue, entry.source, span, message, "too large", None);
                }
                Attribute::Value(v) => kind.value = *v,
                Attribute::Royal => kind.royal = true,
                Attribute::Promotes(target) => {
                    kind.promotion.to = self.lookup(table, target, entry.source);
                }
                Attribute::MustPromote(_) => {}
                Attribute::JumpRank(rank) if rank.node == 0 || rank.node > MAX_JUMP_RANK => {
                    let message = format!("a jump rank of {} is out of range", rank.node);
                    let help = Some(format!(
                        "ranks run from 1 (the highest: it jumps every lower-ranked piece) to {MAX_JUMP_RANK}"
                    ));
                    self.error_in(
                        Check::BadValue,
                        entry.source,
                        rank.span.clone(),
                        message,
                        "1 to 254",
                        help,
                    );
                    // Ranked all the same: no second report that it has no rank.
                    kind.jump_rank = Some(1);
                }
                Attribute::JumpRank(rank) => kind.jump_rank = Some(rank.node as u8),
                Attribute::Burns => kind.burns = true,
                Attribute::Unknown(word) => {
                    let help = did_you_mean_or_list(word, keywords::attributes(), "piece attributes are");
                    let span = attribute.span.start..attribute.span.start + word.len();
                    self.error_in(
                        Check::UnknownAttribute,
                        entry.source,
                        span,
                        format!("`{word}` is not a piece attribute"),
                        "unknown attribute",
                        Some(help),
                    );
                }
            }
        }
        kind
    }

    /// Lowers every piece's clauses and resolves `as`, reporting cycles. Also says which
    /// pieces have a mistake in their moves (or move as one that has): what is derived from
    /// their moves is not reported then.
    fn resolve_moves(&mut self, table: &Table, board: BoardSize) -> (Vec<Vec<Movement>>, Vec<bool>) {
        let mut tainted = vec![false; table.len()];
        let lowered: Vec<Vec<Lowered>> = table
            .values()
            .enumerate()
            .map(|(index, entry)| {
                let errors_before = self.sink.error_count();
                let mut out = Vec::new();
                for clause in &entry.decl.clauses {
                    let lowered = self.lower_clause(clause, entry.source, board);
                    if self.active(&clause.guard, entry.source) {
                        out.push(lowered);
                    }
                }
                tainted[index] = self.sink.error_count() > errors_before;
                out
            })
            .collect();
        let mut done: Vec<Option<Vec<Movement>>> = vec![None; table.len()];
        for index in 0..table.len() {
            let mut stack = Vec::new();
            self.moves_of(index, table, &lowered, &mut done, &mut stack, &mut tainted);
        }
        (done.into_iter().map(Option::unwrap_or_default).collect(), tainted)
    }

    fn moves_of(
        &mut self,
        index: usize,
        table: &Table,
        lowered: &[Vec<Lowered>],
        done: &mut Vec<Option<Vec<Movement>>>,
        stack: &mut Vec<usize>,
        tainted: &mut Vec<bool>,
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
                        tainted[index] = true;
                        continue;
                    };
                    if let Some(from) = stack.iter().position(|&i| i == id.index()) {
                        let cycle = stack[from..].to_vec();
                        for &i in &cycle {
                            tainted[i] = true;
                        }
                        self.movement_cycle(table, &cycle, index, target);
                        continue;
                    }
                    moves.extend(self.moves_of(id.index(), table, lowered, done, stack, tainted));
                    if tainted[id.index()] {
                        tainted[index] = true;
                    }
                }
            }
        }
        stack.pop();
        // One `as` alone gives a list already without repeats.
        let unique: Vec<Movement> = if matches!(lowered[index].as_slice(), [Lowered::As(_)]) {
            moves
        } else {
            let mut seen = std::collections::HashSet::new();
            moves.into_iter().filter(|m| seen.insert(*m)).collect()
        };
        done[index] = Some(unique.clone());
        unique
    }

    /// Reports pieces that move `as` one another round a circle, with a label on each `as`.
    /// `cycle` is the pieces in order, the last of which (`last`) moves as the first (`target`).
    fn movement_cycle(&mut self, table: &Table, cycle: &[usize], last: usize, target: &Spanned<String>) {
        let source = table[last].source;
        let mut names: Vec<&str> = cycle.iter().map(|&i| table[i].decl.abbrev.node.as_str()).collect();
        names.push(target.node.as_str());
        let mut labels = vec![Label {
            span: target.span.clone(),
            text: format!(
                "…and `{}` moves as `{}` again",
                table[last].decl.abbrev.node, target.node
            ),
        }];
        for pair in cycle.windows(2) {
            let (from, to) = (&table[pair[0]], &table[pair[1]]);
            let step = from.decl.clauses.iter().find_map(|c| match &c.movement.node {
                MovementSyntax::As(t) if t.node == to.decl.abbrev.node => Some(t.span.clone()),
                _ => None,
            });
            if let Some(span) = step.filter(|_| from.source == source) {
                labels.push(Label {
                    span,
                    text: format!("`{}` moves as `{}`", from.decl.abbrev.node, to.decl.abbrev.node),
                });
            }
        }
        let message = if cycle.len() == 1 {
            format!("`{}` moves as itself", names[0])
        } else {
            format!("`as` goes round in a circle: {}", names.join(" → "))
        };
        self.report(
            Check::MovementCycle,
            source,
            message,
            labels,
            Some("`as` must lead to a piece with moves of its own".into()),
        );
    }

    /// Sets `reverts_to`, reports cycles and shared targets where they matter.
    fn link_promotions(&mut self, table: &Table, kinds: &mut [PieceKind]) {
        for start in 0..kinds.len() {
            let mut seen = vec![start];
            let mut current = start;
            while let Some(next) = kinds[current].promotion.to {
                if seen.contains(&next.index()) {
                    // Each cycle is reported once: from its first piece in the table.
                    let smallest = seen.iter().skip_while(|&&i| i != next.index()).min() == Some(&start);
                    if next.index() == start && smallest {
                        self.promotion_cycle(table, kinds, &seen);
                    }
                    break;
                }
                seen.push(next.index());
                current = next.index();
            }
        }
        for index in 0..kinds.len() {
            if let Some(target) = kinds[index].promotion.to
                && target.index() != index
                && kinds[target.index()].promotion.reverts_to.is_none()
            {
                kinds[target.index()].promotion.reverts_to = Some(PieceId(index as u16));
            }
        }
    }

    /// Reports pieces that promote round a circle, with a label on each `promotes`.
    fn promotion_cycle(&mut self, table: &Table, kinds: &[PieceKind], cycle: &[usize]) {
        let source = table[cycle[0]].source;
        let mut labels = Vec::new();
        for (n, &i) in cycle.iter().enumerate() {
            let next = cycle[(n + 1) % cycle.len()];
            let entry = &table[i];
            let Some(span) = promotes_span(&entry.decl).filter(|_| entry.source == source) else {
                continue;
            };
            let text = if n + 1 == cycle.len() && cycle.len() > 1 {
                format!("…and `{}` promotes back to `{}`", kinds[i].abbrev, kinds[next].abbrev)
            } else {
                format!("`{}` promotes to `{}`", kinds[i].abbrev, kinds[next].abbrev)
            };
            labels.push(Label { span, text });
        }
        let message = if cycle.len() == 1 {
            format!("`{}` promotes to itself", kinds[cycle[0]].abbrev)
        } else {
            let mut path: Vec<&str> = cycle.iter().map(|&i| kinds[i].abbrev.as_str()).collect();
            path.push(&kinds[cycle[0]].abbrev);
            format!("promotion goes round in a circle: {}", path.join(" → "))
        };
        self.report(
            Check::PromotionCycle,
            source,
            message,
            labels,
            Some("a promoted piece does not promote again: remove `promotes` from the promoted piece".into()),
        );
    }

    /// Derives where each piece has no further move (on an empty board), and so where it
    /// must promote and may not be dropped; applies `must-promote` overrides.
    fn derive_stuck_ranks(&mut self, table: &Table, kinds: &mut [PieceKind], board: BoardSize, tainted: &[bool]) {
        // A piece that moves only as one that cannot move is not reported again.
        let immobile: Vec<bool> = kinds
            .iter()
            .map(|k| k.moves.is_empty() || stuck_ranks(&k.moves, board) == board.ranks)
            .collect();
        let through_immobile = |entry: &Entry| {
            entry.decl.clauses.iter().any(|c| match &c.movement.node {
                MovementSyntax::As(t) => table.get_index_of(&t.node).is_some_and(|i| immobile[i]),
                _ => false,
            })
        };
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
                        format!("`must-promote {}` on a board of only {} ranks", n.node, board.ranks),
                        "more ranks than the board has",
                        Some("`must-promote N`: the piece must promote on the last N ranks".into()),
                    );
                } else if kind.promotion.to.is_none() {
                    self.error_in(
                        Check::RuleNeedsAnother,
                        entry.source,
                        n.span.clone(),
                        format!("`must-promote` on `{}`, which never promotes", kind.abbrev),
                        "needs `promotes`",
                        Some("give the piece `promotes ABBR`, or remove `must-promote`".into()),
                    );
                } else {
                    kind.promotion.forced_ranks = n.node as u8;
                }
            }
            if (kind.moves.is_empty() || stuck == board.ranks) && !tainted[index] && !through_immobile(entry) {
                let guarded = !entry.decl.clauses.is_empty() && entry.decl.clauses.iter().all(|c| c.guard.is_some());
                let (message, label, help) = if kind.moves.is_empty() && guarded {
                    (
                        format!("`{}` has no move with the options chosen", kind.abbrev),
                        "every clause has a `when` that is off",
                        "give the piece a move without `when`, or one for each value of the option",
                    )
                } else {
                    (
                        format!(
                            "`{}` cannot move from any square of the {} × {} board",
                            kind.abbrev, board.files, board.ranks
                        ),
                        "every one of these moves leaves the board",
                        "give the piece at least one move that stays on the board",
                    )
                };
                let span = entry.decl.moves_span.clone();
                self.error_in(Check::NoMove, entry.source, span, message, label, Some(help.into()));
            }
        }
    }

    /// Derives SFEN letters of promoted pieces and checks names and letters are unique.
    fn check_names(&mut self, table: &Table, kinds: &mut [PieceKind]) {
        for index in 0..kinds.len() {
            if kinds[index].sfen.is_none()
                && let Some(base) = kinds[index].promotion.reverts_to
                && let Some(letter) = kinds[base.index()].sfen.clone().filter(|l| !l.starts_with('+'))
            {
                kinds[index].sfen = Some(format!("+{letter}"));
            }
        }
        let mut names: IndexMap<String, usize> = IndexMap::new();
        let mut letters: IndexMap<String, usize> = IndexMap::new();
        let mut brackets: IndexMap<String, usize> = IndexMap::new();
        for (index, kind) in kinds.iter().enumerate() {
            // A promoted kind may share its name with another piece (Chu's promoted Kylin is
            // a "Lion"; Yari's Bishop and Knight both promote to a "Yari Gold").
            let promoted = kind.promotion.reverts_to.is_some();
            if let Some(&first) = names.get(&kind.name).filter(|_| !promoted) {
                let message = format!(
                    "`{}` and `{}` are both named \"{}\"",
                    kinds[first].abbrev, kind.abbrev, kind.name
                );
                self.duplicate(table, index, first, Check::DuplicateName, message, |d| {
                    d.name.span.clone()
                });
            } else if !promoted {
                names.insert(kind.name.clone(), index);
            }
            if kind.sfen.is_none() && !promoted {
                self.distinct_bracket_token(table, kinds, index, &mut brackets);
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

    /// A piece without an SFEN letter is written `[ABBR]` in position strings, in upper case
    /// for Black and lower case for White: two unpromoted pieces whose abbreviations differ
    /// only in case (`ST`, `St`) would be written alike.
    fn distinct_bracket_token(
        &mut self,
        table: &Table,
        kinds: &[PieceKind],
        index: usize,
        brackets: &mut IndexMap<String, usize>,
    ) {
        let token = format!("[{}]", kinds[index].abbrev.to_uppercase());
        let Some(&first) = brackets.get(&token) else {
            brackets.insert(token, index);
            return;
        };
        let (here, there) = (&table[index], &table[first]);
        let mut labels = vec![Label {
            span: here.decl.abbrev.span.clone(),
            text: format!("`{}` too", here.decl.abbrev.node),
        }];
        if here.source == there.source {
            labels.push(Label {
                span: there.decl.abbrev.span.clone(),
                text: format!("`{}` is written `{token}`", there.decl.abbrev.node),
            });
        }
        let message = format!(
            "`{}` and `{}` are both written `{token}` in position strings, which cannot tell them apart",
            kinds[first].abbrev, kinds[index].abbrev
        );
        let help = "make the abbreviations differ by more than case, or give one an `sfen` letter".to_string();
        self.report(Check::DuplicateSfen, here.source, message, labels, Some(help));
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
        let what = match check {
            Check::DuplicateName => format!("is named \"{}\"", there.decl.name.node),
            _ => "has this SFEN letter".to_string(),
        };
        let mut labels = vec![Label {
            span: span(&here.decl),
            text: format!("`{}` too", here.decl.abbrev.node),
        }];
        let mut help = Some(match check {
            Check::DuplicateName => "give each piece a name of its own (a promoted piece may share one)".to_string(),
            _ => "give each piece a letter of its own; a promoted piece's is `+` and its original's".to_string(),
        });
        if here.source == there.source {
            labels.push(Label {
                span: span(&there.decl),
                text: format!("`{}` {what}", there.decl.abbrev.node),
            });
        } else {
            help = Some(format!(
                "the other is `{}` in {}",
                there.decl.abbrev.node, self.sink.sources[there.source].name
            ));
        }
        self.report(check, here.source, message, labels, help);
    }
}

/// The span of the abbreviation after `promotes` in a declaration.
pub(super) fn promotes_span(decl: &PieceDecl) -> Option<Span> {
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
