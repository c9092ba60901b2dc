//! The starting position: setup rows to placements, White's as the 180° rotation of
//! Black's unless `setup white` gives them, and the `hand:` rows to the pieces in hand at
//! the start (White's the same as Black's unless `setup white` gives its own). A setup with
//! `when` counts under its option value only (its rows are checked under every choice).

use super::diagnostic::{Check, Label};
use super::suggest::{Meant, meant_pieces};
use super::{Ctx, Table};
use crate::parse::ast::{Cell, File, Row, SetupSide, Span, Statement};
use crate::rules::{BoardSize, InHand, PieceId, Placement, Rules, Side, Square, rank_name, rank_number};
use indexmap::IndexMap;

/// The name of a setup row that lists pieces in hand at the start instead of a rank.
pub(super) const HAND_ROW: &str = "hand";

/// The pieces in hand at the start, each with the span of its cell.
pub(super) type StartHand = Vec<(InHand, Span)>;

impl Ctx {
    pub(super) fn setup(&mut self, file: &File, table: &Table, board: BoardSize) -> (Vec<Placement>, StartHand) {
        let mut rows: [Vec<&Row>; 2] = [vec![], vec![]];
        let mut hand_rows: [Vec<&Row>; 2] = [vec![], vec![]];
        let mut any = false;
        for statement in &file.statements {
            let Statement::Setup(decl) = &statement.node else {
                continue;
            };
            any = true;
            let (hands, ranks): (Vec<&Row>, Vec<&Row>) = decl.rows.iter().partition(|r| r.rank.node == HAND_ROW);
            if !self.active(&decl.guard, 0) {
                self.side_setup(&ranks, table, board);
                self.hand_rows(&hands, table);
                continue;
            }
            let side = match decl.side.as_ref().map(|s| s.node) {
                Some(SetupSide::White) => Side::White,
                Some(SetupSide::Black) | None => Side::Black,
            };
            rows[side.index()].extend(ranks);
            hand_rows[side.index()].extend(hands);
        }
        let black_hand = self.hand_rows(&hand_rows[0], table);
        // White's hand is Black's unless White's setup is given.
        let white_hand = if rows[1].is_empty() && hand_rows[1].is_empty() {
            black_hand.clone()
        } else {
            self.hand_rows(&hand_rows[1], table)
        };
        let hand = [(Side::Black, black_hand), (Side::White, white_hand)]
            .into_iter()
            .flat_map(|(side, list)| {
                list.into_iter()
                    .map(move |(piece, span)| (InHand { side, piece }, span))
            })
            .collect();
        (self.placements(any, &rows, table, board), hand)
    }

    /// The pieces of one side's `hand:` rows (at most one), with the span of each cell.
    fn hand_rows(&mut self, rows: &[&Row], table: &Table) -> Vec<(PieceId, Span)> {
        let mut out = Vec::new();
        for (i, row) in rows.iter().enumerate() {
            if i > 0 {
                let labels = Label::again("listed", row.rank.span.clone(), rows[0].rank.span.clone());
                let help = Some("list a side's pieces in hand on one `hand:` row".into());
                self.report(
                    Check::DuplicateStatement,
                    0,
                    "the hand is set up twice".into(),
                    labels,
                    help,
                );
                continue;
            }
            for cell in &row.cells {
                match &cell.node {
                    Cell::Piece(abbrev) => match table.get_index_of(abbrev) {
                        Some(index) => out.push((PieceId(index as u16), cell.span.clone())),
                        None => self.unknown_cell(abbrev, cell.span.clone(), table),
                    },
                    Cell::Empty | Cell::EmptyRun(_) => self.error(
                        Check::BadValue,
                        cell.span.clone(),
                        "a hand has no squares: `hand:` lists pieces only".into(),
                        "not a piece",
                        Some("list each piece in hand once per piece, such as `hand: P P L`".into()),
                    ),
                    Cell::Bad(text) => self.unknown_cell(text, cell.span.clone(), table),
                }
            }
        }
        out
    }

    /// The pieces on the board at the start, White's turned from Black's unless given.
    fn placements(&mut self, any: bool, rows: &[Vec<&Row>; 2], table: &Table, board: BoardSize) -> Vec<Placement> {
        let black = self.side_setup(&rows[0], table, board);
        let white: Vec<(Square, PieceId, Span)> = if rows[1].is_empty() {
            black
                .iter()
                .map(|(sq, id, span)| (board.rotate(*sq), *id, span.clone()))
                .collect()
        } else {
            self.side_setup(&rows[1], table, board)
        };
        let rotated = rows[1].is_empty();
        let abbrev = |id: &PieceId| table.get_index(id.index()).map_or("?", |(k, _)| k.as_str()).to_string();
        let mut taken: IndexMap<Square, (Span, PieceId)> = IndexMap::new();
        let mut placements = Vec::new();
        for (side, list) in [(Side::Black, &black), (Side::White, &white)] {
            for (square, piece, span) in list {
                if let Some((first, first_piece)) = taken.get(square) {
                    let (theirs, ours) = (abbrev(first_piece), abbrev(piece));
                    let labels = if rotated && span == first {
                        vec![Label {
                            span: span.clone(),
                            text: format!("Black's `{ours}` on {square}, and White's turned 180° onto the same square"),
                        }]
                    } else if rotated {
                        vec![
                            Label {
                                span: span.clone(),
                                text: format!("this `{ours}`, turned 180° for White, lands on {square}"),
                            },
                            Label {
                                span: first.clone(),
                                text: format!("where Black's `{theirs}` stands"),
                            },
                        ]
                    } else {
                        vec![
                            Label {
                                span: span.clone(),
                                text: format!("White's `{ours}` on {square}"),
                            },
                            Label {
                                span: first.clone(),
                                text: format!("Black's `{theirs}` on {square}"),
                            },
                        ]
                    };
                    let help = Some(if rotated {
                        "White's setup is the 180° rotation of Black's: keep Black's pieces off the squares its own \
                         pieces turn onto, or give White's setup with `setup white`"
                            .to_string()
                    } else {
                        "each square holds one piece at the start".to_string()
                    });
                    self.report(
                        Check::SquareTaken,
                        0,
                        format!("Black's `{theirs}` and White's `{ours}` both start on {square}"),
                        labels,
                        help,
                    );
                    continue;
                }
                taken.insert(*square, (span.clone(), *piece));
                placements.push(Placement {
                    square: *square,
                    side,
                    piece: *piece,
                });
            }
        }
        if placements.is_empty() && black.is_empty() {
            let help = Some("add a `setup` block: one line per rank, such as `i: L N S G K G S N L`".to_string());
            let message = if any {
                "the setup places no piece"
            } else {
                "the variant has no setup"
            };
            let labels = vec![Label {
                span: self.anchors.setup.clone().unwrap_or(self.anchors.first.clone()),
                text: if any {
                    "no piece placed here"
                } else {
                    "no `setup` in this file"
                }
                .into(),
            }];
            self.report(Check::MissingSetup, 0, message.into(), labels, help);
        }
        placements
    }

    /// The pieces of one side's rows, with the span of each cell.
    fn side_setup(&mut self, rows: &[&Row], table: &Table, board: BoardSize) -> Vec<(Square, PieceId, Span)> {
        let mut seen: IndexMap<u8, Span> = IndexMap::new();
        let mut out = Vec::new();
        for row in rows {
            let Some(rank) = rank_number(&row.rank.node).filter(|&r| r <= board.ranks) else {
                let last = rank_name(board.ranks);
                let message = format!(
                    "rank `{}` is not on the board (ranks run from a to {last})",
                    row.rank.node
                );
                let labels = self.with_board_label(
                    Label {
                        span: row.rank.span.clone(),
                        text: "no such rank".into(),
                    },
                    |(_, ranks)| (ranks, format!("the board has {} ranks", board.ranks)),
                );
                self.report(Check::SquareOffBoard, 0, message, labels, None);
                continue;
            };
            if let Some(first) = seen.get(&rank) {
                let labels = Label::again("listed", row.rank.span.clone(), first.clone());
                self.report(
                    Check::SquareTaken,
                    0,
                    format!("rank {} is set up twice", row.rank.node),
                    labels,
                    Some("each rank has one row in a side's setup; leave out the ranks with no piece".into()),
                );
                continue;
            }
            seen.insert(rank, row.rank.span.clone());
            out.extend(self.row(row, rank, table, board));
        }
        out
    }

    fn row(&mut self, row: &Row, rank: u8, table: &Table, board: BoardSize) -> Vec<(Square, PieceId, Span)> {
        let mut out = Vec::new();
        let mut file = i64::from(board.files);
        for cell in &row.cells {
            if file < 1 {
                let message = format!(
                    "rank {} has more squares than the board's {} files",
                    row.rank.node, board.files
                );
                let labels = self.with_board_label(
                    Label {
                        span: cell.span.clone(),
                        text: "past file 1".into(),
                    },
                    |(files, _)| (files, format!("the board has {} files", board.files)),
                );
                let help = Some("list the squares from the highest file down to file 1".into());
                self.report(Check::SquareOffBoard, 0, message, labels, help);
                break;
            }
            match &cell.node {
                Cell::Empty => file -= 1,
                Cell::EmptyRun(n) => file -= i64::from(*n),
                Cell::Piece(abbrev) => {
                    let square = Square::new(file as u8, rank);
                    match table.get_index_of(abbrev) {
                        Some(index) => out.push((square, PieceId(index as u16), cell.span.clone())),
                        None => self.unknown_cell(abbrev, cell.span.clone(), table),
                    }
                    file -= 1;
                }
                Cell::Bad(text) => {
                    self.unknown_cell(text, cell.span.clone(), table);
                    file -= 1;
                }
            }
        }
        if file > 0 {
            let count = i64::from(board.files) - file;
            let message = format!(
                "rank {} lists {count} squares; the board has {} files",
                row.rank.node, board.files
            );
            let end = row.cells.last().map_or(row.rank.span.end, |c| c.span.end);
            let labels = self.with_board_label(
                Label {
                    span: end..end,
                    text: "row ends here".into(),
                },
                |(files, _)| (files, format!("the board has {} files", board.files)),
            );
            let help = Some("mark every empty square with `.` (or a number of empty squares)".into());
            self.report(Check::ShortRow, 0, message, labels, help);
        }
        out
    }

    /// A label on a setup row, and one on the `board` statement's number it disagrees with
    /// (`pick` chooses the files or the ranks), so that a board changed without its setup is
    /// seen from either side.
    fn with_board_label(&self, row: Label, pick: impl Fn((Span, Span)) -> (Span, String)) -> Vec<Label> {
        let board = self
            .anchors
            .board
            .clone()
            .filter(|_| self.cascade.board_known)
            .map(pick);
        let mut labels = vec![row];
        labels.extend(board.map(|(span, text)| Label { span, text }));
        labels
    }

    fn unknown_cell(&mut self, text: &str, span: Span, table: &Table) {
        let meant = !matches!(meant_pieces(table, text), Meant::Nothing);
        if meant || text.starts_with(|c: char| c.is_alphabetic()) {
            self.unknown_piece(table, text, span, 0);
            return;
        }
        let help =
            Some("a setup square holds a piece abbreviation, `.` for empty, or a number of empty squares".into());
        self.error(
            Check::UnknownPiece,
            span,
            format!("`{text}` is not a piece abbreviation"),
            "not a piece",
            help,
        );
    }
}

impl Ctx {
    /// The pieces in hand at the start must be pieces a hand can hold: drops are on, and the
    /// kind is one that captured pieces turn back into (not a promoted kind).
    pub(super) fn check_hand(&mut self, rules: &Rules) {
        let spans = std::mem::take(&mut self.anchors.hand);
        // White's hand copied from Black's shares its cells: each cell is reported once.
        let mut seen = std::collections::HashSet::new();
        for (in_hand, span) in rules.hand.iter().zip(&spans) {
            if !seen.insert(span.start) {
                continue;
            }
            let kind = rules.piece(in_hand.piece);
            let (message, label, help) = if !rules.drops {
                (
                    format!("`{}` starts in hand, but this variant has no drops", kind.abbrev),
                    "in hand at the start".to_string(),
                    "pieces in hand are for dropping: state `drops`, or put the piece on the board".to_string(),
                )
            } else if let Some(base) = kind.promotion.reverts_to {
                let base = &rules.piece(base).abbrev;
                (
                    format!(
                        "`{}` is a promoted piece: a hand holds unpromoted pieces only",
                        kind.abbrev
                    ),
                    format!("a promoted `{base}`"),
                    format!("put `{base}` in the hand instead"),
                )
            } else if let Some(other) = kind.captured_as {
                let other = &rules.piece(other).abbrev;
                (
                    format!(
                        "`{}` enters a hand as `{other}` (`captured-as`), so no hand holds a `{}`",
                        kind.abbrev, kind.abbrev
                    ),
                    format!("held as `{other}`"),
                    format!("put `{other}` in the hand instead"),
                )
            } else {
                continue;
            };
            self.error(Check::NotInHand, span.clone(), message, &label, Some(help));
            // One report per row is enough for a hand without drops.
            if !rules.drops {
                break;
            }
        }
        self.anchors.hand = spans;
    }
}
