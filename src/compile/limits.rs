//! koma's limits on what a compiled variant asks of the interpreter, checked once the whole
//! variant is known. Past a limit the report has an error with a span (`koma::limit`);
//! nothing is ever allocated without bound. The limits that apply while reading (file size,
//! piece kinds, board size, lion steps, `use` depth) are checked where they are read.

use super::diagnostic::{Check, Label};
use super::{Ctx, Table};
use crate::rules::{MAX_ROYALS, Movement, Rules, Side};

/// The most runs the interpreter's movement tables may hold: one for each step, slide and
/// leap of each kind, for each side (eight bytes each: 32 MB). The lines of squares the runs
/// are looked up on are shared by every run along one vector, and bounded by the board.
pub const MAX_TABLE_RUNS: u64 = 1 << 22;

/// With drops, the most pieces of one kind (both sides, promoted ones with their unpromoted
/// kind): a hand counts up to 255.
pub const MAX_PIECES_OF_A_KIND: usize = 255;

/// The runs a movement adds to the movement tables for one side: one for a step, slide or
/// leap; none for the walked kinds (lions, hooks, `anywhere`), walked on the board.
pub fn table_runs(movement: &Movement) -> u64 {
    u64::from(movement.is_unrolled())
}

impl Ctx {
    /// The limits of a compiled variant: the size of its movement tables, the royal pieces a
    /// side may come to have, and the pieces of a kind a hand may hold.
    pub(super) fn limits(&mut self, table: &Table, rules: &Rules) {
        self.table_size(table, rules);
        self.royal_limit(rules);
        self.hand_limit(rules);
    }

    fn table_size(&mut self, table: &Table, rules: &Rules) {
        let per_kind: Vec<u64> = rules
            .pieces
            .iter()
            .map(|p| p.moves.iter().map(|m| 2 * table_runs(m)).sum())
            .collect();
        let runs: u64 = per_kind.iter().sum();
        if runs <= MAX_TABLE_RUNS {
            return;
        }
        let biggest = (0..per_kind.len()).max_by_key(|&i| (per_kind[i], std::cmp::Reverse(i)));
        let message = format!(
            "the steps, slides and leaps of the {} kinds of piece, for both sides, come to {runs} runs of \
             squares: past koma's limit of {MAX_TABLE_RUNS}",
            rules.pieces.len(),
        );
        let help = Some("koma keeps every step, slide and leap of every kind: fewer kinds, or fewer moves".to_string());
        match biggest.and_then(|i| table.get_index(i).map(|(_, e)| (i, e))) {
            Some((i, entry)) => {
                let label = format!("the most of any kind: {} runs", per_kind[i]);
                let span = entry.decl.abbrev.span.clone();
                self.error_in(Check::Limit, entry.source, span, message, &label, help);
            }
            None => self.report(Check::Limit, 0, message, vec![], help),
        }
    }

    /// A position keeps the squares of at most [`MAX_ROYALS`] royal pieces a side. Count,
    /// per side, the pieces that are royal or promote to a royal; with drops, every such
    /// piece of either side, since a captured piece changes sides.
    fn royal_limit(&mut self, rules: &Rules) {
        let may_be_royal = rules.may_be_royal();
        let count = |side: Option<Side>| {
            rules
                .start_pieces()
                .filter(|(s, piece)| may_be_royal[piece.index()] && side.is_none_or(|side| side == *s))
                .count()
        };
        let worst = if rules.drops {
            Some((count(None), "either side, with drops,"))
        } else {
            [Side::Black, Side::White]
                .into_iter()
                .map(|s| (count(Some(s)), if s == Side::Black { "Black" } else { "White" }))
                .max_by_key(|c| c.0)
        };
        let Some((n, who)) = worst.filter(|(n, _)| *n > MAX_ROYALS) else {
            return;
        };
        let message = format!(
            "{who} could have {n} royal pieces (royal, or promoting to a royal piece): past koma's limit of \
             {MAX_ROYALS} a side"
        );
        let labels = self.setup_label(format!("{n} royal pieces or pieces that promote to one"));
        let help = Some(format!("keep at most {MAX_ROYALS} such pieces a side in the setup"));
        self.report(Check::Limit, 0, message, labels, help);
    }

    /// With drops, a hand counts each kind up to [`MAX_PIECES_OF_A_KIND`].
    fn hand_limit(&mut self, rules: &Rules) {
        if !rules.drops {
            return;
        }
        let mut count = vec![0usize; rules.pieces.len()];
        for (_, piece) in rules.start_pieces() {
            let base = rules.piece(piece).promotion.reverts_to.unwrap_or(piece);
            let hand = rules.piece(base).captured_as.unwrap_or(base);
            count[hand.index()] += 1;
        }
        let Some((kind, &n)) = count.iter().enumerate().max_by_key(|(_, n)| **n) else {
            return;
        };
        if n <= MAX_PIECES_OF_A_KIND {
            return;
        }
        let abbrev = &rules.pieces[kind].abbrev;
        let message = format!(
            "{n} pieces of kind `{abbrev}` start the game: with drops, past koma's limit of \
             {MAX_PIECES_OF_A_KIND} of a kind"
        );
        let labels = self.setup_label(format!("{n} `{abbrev}`"));
        let help = Some(format!(
            "a hand holds at most {MAX_PIECES_OF_A_KIND} pieces of a kind: use fewer, or no drops"
        ));
        self.report(Check::Limit, 0, message, labels, help);
    }

    fn setup_label(&self, text: String) -> Vec<Label> {
        self.anchors
            .setup
            .clone()
            .map(|span| Label { span, text })
            .into_iter()
            .collect()
    }
}
