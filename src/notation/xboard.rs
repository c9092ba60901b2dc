//! A variant as XBoard sees it: squares as XBoard names them (files `a`… from Black's left,
//! ranks `1`… from Black's side, so that koma's Black is XBoard's white), piece IDs (a letter,
//! with `'` or `!` when letters run out, `+` for a promoted piece), FEN, moves in coordinates
//! with Lion moves in multi-leg form (`e5f6,f6g7`) and a pass as `@@@@`, and the `setup` and `piece` commands that
//! define a variant XBoard does not know.

mod betza;

use super::read_usi;
use crate::game::{Move, MoveTables, Position, Setup};
use crate::rules::{PieceId, PromotionEvent, Side, Square};
pub use betza::{Betza, betza};
use std::sync::Arc;

/// The variants XBoard plays without being told their rules (with the same piece letters).
const NATIVE: &[&str] = &["shogi", "chu"];

/// Kinds of piece XBoard 4.9 can tell apart per side, besides the King.
const XBOARD_KINDS: usize = 65;

/// XBoard's table of kinds is positional (Pawn, Knight, Bishop, Rook, Queen, …, Lion at 21),
/// and XBoard gives some positions rules of their own: in a variant with drops, the Pawn's
/// may not be dropped on the last rank nor twice on a file (two on a 7-rank board), must
/// promote there; the Queen's (Shogi's Lance) the same without the file rule; the Knight's
/// neither on the last two ranks; only the first nine may promote at all (so kinds that
/// promote come first). In any variant the Lion's keeps Chu's rules on trading Lions. A kind
/// goes only where those rules are its own too, so XBoard never refuses a move koma makes.
const PAWN_SLOT: usize = 0;
const KNIGHT_SLOT: usize = 1;
const LANCE_SLOT: usize = 4;
const LION_SLOT: usize = 21;
/// In a variant with drops XBoard lets only the kinds at positions below this one (its
/// Wazir's) promote.
const PROMOTING_SLOTS: usize = 9;
/// XBoard reads a table of at least six kinds a side, the King included.
const XBOARD_MIN_KINDS: usize = 5;

/// The names XBoard 4.9 gives the positions of its table of kinds, King last: it draws the
/// kind at a position from the image files `White<name>.svg` and `Black<name>.svg` of a
/// piece image directory (`pngPieceNames` in its draw.c). Positions 18 and 29 share a name.
pub const IMAGE_NAMES: [&str; XBOARD_KINDS + 1] = [
    "Pawn",
    "Knight",
    "Bishop",
    "Rook",
    "Queen",
    "Advisor",
    "Elephant",
    "Archbishop",
    "Marshall",
    "Gold",
    "Commoner",
    "Canon",
    "Nightrider",
    "CrownedBishop",
    "CrownedRook",
    "Crown",
    "Chancellor",
    "Hawk",
    "Lance",
    "Cobra",
    "Unicorn",
    "Lion",
    "Sword",
    "Zebra",
    "Camel",
    "Tower",
    "Wolf",
    "Hat",
    "Duck",
    "Lance",
    "Dragon",
    "Gnu",
    "Cub",
    "LShield",
    "Pegasus",
    "Wizard",
    "Copper",
    "Iron",
    "Viking",
    "Flag",
    "Axe",
    "Dolphin",
    "Leopard",
    "Claw",
    "Left",
    "Butterfly",
    "PromoBishop",
    "PromoRook",
    "HCrown",
    "RShield",
    "Prince",
    "Phoenix",
    "Kylin",
    "Drunk",
    "Right",
    "GoldPawn",
    "GoldKnight",
    "PromoHorse",
    "PromoDragon",
    "GoldLance",
    "GoldSilver",
    "HSword",
    "PromoSword",
    "PromoHSword",
    "Princess",
    "King",
];

/// In a variant whose parent is Shogi, on a board of other than 7 ranks, XBoard 4.9 draws
/// the first position of each pair with the image of the second (`SelectPieces` in draw.c).
const SHOGI_IMAGES: [(usize, usize); 6] = [(11, 55), (12, 56), (15, 59), (16, 60), (4, 18), (17, 50)];

/// A variant as XBoard sees it: its squares, moves and positions in XBoard's terms, and the
/// commands that define it for XBoard.
pub struct View {
    tables: Arc<MoveTables>,
    /// Each kind's ID, in Black's (upper) case.
    ids: Vec<String>,
}

impl View {
    /// The view of the variant whose tables these are.
    pub fn new(tables: Arc<MoveTables>) -> View {
        let ids = piece_ids(&tables);
        View { tables, ids }
    }

    fn files(&self) -> u8 {
        self.tables.rules().board.files
    }

    fn ranks(&self) -> u8 {
        self.tables.rules().board.ranks
    }

    /// XBoard's name of a square: `c3` for koma's `7g` in Shogi.
    pub fn square(&self, square: Square) -> String {
        let file = char::from(b'a' + (self.files() - square.file));
        let rank = u32::from(self.ranks() + 1 - square.rank) - u32::from(self.ranks() == 10);
        format!("{file}{rank}")
    }

    /// Reads a square at the start of `text`: the square and the rest of the text.
    fn read_square<'t>(&self, text: &'t str) -> Option<(Square, &'t str)> {
        let letter = text.chars().next().filter(char::is_ascii_lowercase)?;
        let digits = text[1..]
            .find(|c: char| !c.is_ascii_digit())
            .map_or(text.len(), |i| i + 1);
        let rank: u32 = text[1..digits].parse().ok()?;
        let rank = rank + u32::from(self.ranks() == 10);
        let file = u32::from(self.files()).checked_sub(u32::from(letter as u8 - b'a'))?;
        let rank = (u32::from(self.ranks()) + 1).checked_sub(rank)?;
        let square = Square::new(u8::try_from(file).ok()?, u8::try_from(rank).ok()?);
        self.tables
            .rules()
            .board
            .contains(square)
            .then_some((square, &text[digits..]))
    }

    /// The square under XBoard's name, if it is on the board.
    pub fn parse_square(&self, text: &str) -> Option<Square> {
        self.read_square(text)
            .filter(|(_, rest)| rest.is_empty())
            .map(|(s, _)| s)
    }

    fn id(&self, kind: PieceId, side: Side) -> String {
        let id = &self.ids[kind.index()];
        match side {
            Side::Black => id.clone(),
            Side::White => id.to_lowercase(),
        }
    }

    /// A move in XBoard's coordinates: `c3c4`, `b2h8+`, `P@e5`; a Lion move leg by leg,
    /// `e5f6,f6g7`; a pass `@@@@`, CECP's null move, which XBoard takes and HaChu reads as
    /// its Lion's pass (it reads a pass written leg by leg, `e5f6,f6e5`, as a capture there).
    pub fn write_move(&self, pos: &Position, m: &Move) -> String {
        let geo = pos.geometry();
        if let Some(kind) = m.drop {
            return format!("{}@{}", self.ids[kind.index()], self.square(geo.square(m.to)));
        }
        if m.is_pass() {
            return "@@@@".into();
        }
        let mut path: Vec<Square> = m.from.map(|from| geo.square(from)).into_iter().collect();
        path.extend(m.via_squares().map(|v| geo.square(v)));
        path.push(geo.square(m.to));
        let legs: Vec<String> = path
            .windows(2)
            .map(|w| format!("{}{}", self.square(w[0]), self.square(w[1])))
            .collect();
        let mut text = legs.join(",");
        if m.promote {
            text.push('+');
        }
        text
    }

    /// Reads a move in XBoard's coordinates and finds the legal move it names. `@@@@`, CECP's
    /// null move (HaChu's pass), is the position's pass, when a piece may pass.
    pub fn read_move(&self, pos: &Position, text: &str) -> Result<Move, String> {
        if text == "@@@@" {
            return pos
                .legal_moves()
                .into_iter()
                .find(Move::is_pass)
                .ok_or_else(|| "no piece may pass here".into());
        }
        if let Some((id, square)) = text.split_once('@') {
            let to = self
                .parse_square(square)
                .ok_or_else(|| format!("`{square}` is not a square of the board"))?;
            let kind = self
                .kind_of(&id.to_uppercase())
                .ok_or_else(|| format!("`{id}` is not a piece of this variant"))?;
            let m = Move::drop(kind, pos.geometry().index(to));
            return if pos.legal_moves().contains(&m) {
                Ok(m)
            } else {
                Err("not a legal drop here".into())
            };
        }
        let (body, promote) = match text.strip_suffix(['+', '=']) {
            Some(body) => (body, text.ends_with('+')),
            None => (text, false),
        };
        let mut squares = Vec::new();
        for (i, leg) in body.split(',').enumerate() {
            let (from, rest) = self.read_square(leg).ok_or("not a move in coordinates")?;
            let (to, rest) = self.read_square(rest).ok_or("not a move in coordinates")?;
            if !rest.is_empty() {
                return Err(format!("`{rest}` after the squares"));
            }
            if i == 0 {
                squares.push(from);
            } else if squares.last() != Some(&from) {
                return Err("a leg must start where the last one ended".into());
            }
            squares.push(to);
        }
        if squares.len() > 4 {
            return Err("more legs than any move has".into());
        }
        let usi: String = squares.iter().map(Square::to_string).collect::<String>() + if promote { "+" } else { "" };
        read_usi(pos, &usi).map_err(|e| match e {
            crate::notation::UsiError::NotLegal(_) => "not a legal move here".to_string(),
            crate::notation::UsiError::Breaks(rule) => rule.to_string(),
            crate::notation::UsiError::Malformed(m) => m,
        })
    }

    fn kind_of(&self, id: &str) -> Option<PieceId> {
        self.ids.iter().position(|i| i == id).map(|i| PieceId(i as u16))
    }

    /// The board part of a FEN, ranks from White's side (XBoard's black).
    fn board_fen(&self, pos: &Position) -> String {
        let mut ranks = Vec::new();
        for rank in 1..=self.ranks() {
            let mut text = String::new();
            let mut empty = 0;
            for file in (1..=self.files()).rev() {
                match pos.piece_at(Square::new(file, rank)) {
                    None => empty += 1,
                    Some(piece) => {
                        if empty > 0 {
                            text.push_str(&empty.to_string());
                            empty = 0;
                        }
                        text.push_str(&self.id(piece.kind(), piece.side()));
                    }
                }
            }
            if empty > 0 {
                text.push_str(&empty.to_string());
            }
            ranks.push(text);
        }
        ranks.join("/")
    }

    /// A position as XBoard's FEN, with the pieces in hand in brackets when there are any (a
    /// variant's starting hand: XBoard's own start has empty holdings).
    pub fn fen(&self, pos: &Position) -> String {
        let side = if pos.side_to_move() == Side::Black { "w" } else { "b" };
        let holdings = self.holdings(pos);
        let holdings = if holdings.is_empty() {
            holdings
        } else {
            format!("[{holdings}]")
        };
        format!("{}{holdings} {side} 0 1", self.board_fen(pos))
    }

    /// The pieces in hand as XBoard writes holdings: Black's (XBoard's white) first, one letter
    /// a piece.
    fn holdings(&self, pos: &Position) -> String {
        let kinds = (0..self.ids.len()).map(|i| PieceId(i as u16));
        [Side::Black, Side::White]
            .into_iter()
            .flat_map(|side| kinds.clone().map(move |kind| (side, kind)))
            .map(|(side, kind)| self.id(kind, side).repeat(pos.in_hand(side, kind) as usize))
            .collect()
    }

    /// Reads XBoard's FEN (`setboard`): the board, holdings in brackets, the side to move.
    pub fn read_fen(&self, text: &str) -> Result<Position, String> {
        let mut fields = text.split_whitespace();
        let board = fields.next().ok_or("an empty FEN")?;
        let (board, holdings) = match board.split_once('[') {
            Some((board, rest)) => (board, rest.strip_suffix(']').ok_or("holdings without `]`")?),
            None => (board, ""),
        };
        let side = match fields.next() {
            Some("w") | None => Side::Black,
            Some("b") => Side::White,
            Some(other) => return Err(format!("`{other}` is not a side to move (w or b)")),
        };
        let mut setup = Setup {
            pieces: Vec::new(),
            hands: Vec::new(),
            side_to_move: side,
            move_number: 1,
            lion_capture: None,
            deferred: [None, None],
        };
        let rows: Vec<&str> = board.split('/').collect();
        if rows.len() != usize::from(self.ranks()) {
            return Err(format!("{} ranks given; the board has {}", rows.len(), self.ranks()));
        }
        for (r, row) in rows.iter().enumerate() {
            let mut file = i32::from(self.files());
            for token in self.tokens(row)? {
                match token {
                    Token::Empty(n) => file -= n as i32,
                    Token::Piece(side, kind) => {
                        if file < 1 {
                            return Err(format!("rank {} has more than {} files", r + 1, self.files()));
                        }
                        setup
                            .pieces
                            .push((Square::new(file as u8, r as u8 + 1), side, kind, false));
                        file -= 1;
                    }
                }
            }
            if file != 0 {
                return Err(format!("rank {} does not have {} files", r + 1, self.files()));
            }
        }
        for token in self.tokens(holdings.trim_matches('-'))? {
            match token {
                Token::Piece(side, kind) => match setup.hands.iter_mut().find(|h| h.0 == side && h.1 == kind) {
                    Some(hand) => hand.2 += 1,
                    None => setup.hands.push((side, kind, 1)),
                },
                Token::Empty(_) => return Err("a number in the holdings".into()),
            }
        }
        Position::from_setup(self.tables.clone(), &setup).map_err(|e| e.to_string())
    }

    fn tokens(&self, row: &str) -> Result<Vec<Token>, String> {
        let mut out = Vec::new();
        let chars: Vec<char> = row.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            if chars[i].is_ascii_digit() {
                let start = i;
                while i < chars.len() && chars[i].is_ascii_digit() {
                    i += 1;
                }
                let n: String = chars[start..i].iter().collect();
                out.push(Token::Empty(
                    n.parse().map_err(|_| format!("`{n}` is too many squares"))?,
                ));
                continue;
            }
            let start = i;
            if chars[i] == '+' {
                i += 1;
            }
            if i >= chars.len() || !chars[i].is_ascii_alphabetic() {
                return Err(format!(
                    "`{}` is not a piece",
                    chars[start..].iter().collect::<String>()
                ));
            }
            let side = if chars[i].is_ascii_uppercase() {
                Side::Black
            } else {
                Side::White
            };
            i += 1;
            if i < chars.len() && matches!(chars[i], '\'' | '!') {
                i += 1;
            }
            let id: String = chars[start..i].iter().collect::<String>().to_uppercase();
            let kind = self
                .kind_of(&id)
                .ok_or_else(|| format!("`{id}` is not a piece of this variant"))?;
            out.push(Token::Piece(side, kind));
        }
        Ok(out)
    }

    /// Whether XBoard knows this variant's rules itself.
    pub fn is_native(name: &str) -> bool {
        NATIVE.contains(&name)
    }

    /// The `setup` command and one `piece` command per kind it names, for a variant XBoard
    /// does not know. XBoard takes at most `XBOARD_KINDS` kinds besides the King; a `piece`
    /// command for a kind left out would redefine another piece (XBoard reads `+X` as the
    /// partner it gives `X`), so kinds past the limit get none.
    pub fn definition(&self, start: &Position) -> Vec<String> {
        let rules = &self.tables.rules();
        let king = self.king();
        let slots = self.slots(king);
        let mut upper: String = slots
            .iter()
            .map(|slot| slot.map_or(".".into(), |i| self.ids[i].replacen('+', "^", 1)))
            .collect();
        upper.push_str(&king.map_or(".".into(), |k| self.ids[k].clone()));
        let holdings = self.holdings_size(king);
        let parent = if rules.drops { "shogi" } else { "chu" };
        let mut out = vec![format!(
            "setup ({upper}{}) {}x{}+{holdings}_{parent} {}",
            upper.to_lowercase(),
            self.files(),
            self.ranks(),
            self.fen(start)
        )];
        for i in slots.iter().flatten().copied().chain(king) {
            let b = betza(&rules.pieces[i]);
            if !b.text.is_empty() {
                out.push(format!("piece {}& {}", self.ids[i], b.text));
            }
        }
        out
    }

    /// How many kinds XBoard's holdings have room for: with drops, every kind but the King's
    /// and the promoted ones; none without.
    fn holdings_size(&self, king: Option<usize>) -> usize {
        let rules = &self.tables.rules();
        if !rules.drops {
            return 0;
        }
        (0..rules.pieces.len())
            .filter(|&i| Some(i) != king && !self.ids[i].starts_with('+'))
            .count()
    }

    /// Whether XBoard's own legality test, given the `setup` and `piece` commands, allows
    /// every move koma does. It does not where XBetza has no word for a move (a piece that
    /// moves as the piece behind it); nor, with drops (XBoard's Shogi rules), where more
    /// kinds promote than the positions of XBoard's table that may promote, or where XBoard's
    /// promotion zone is shallower than the game's. There a player switches XBoard's legality
    /// test off and koma is the referee.
    pub fn xboard_checks_moves(&self) -> bool {
        let rules = &self.tables.rules();
        if rules.moves_as_piece_behind {
            return false;
        }
        if !rules.drops {
            return true;
        }
        let king = self.king();
        let promotes_too_late = self.slots(king).iter().enumerate().any(|(slot, kind)| {
            slot >= PROMOTING_SLOTS && kind.is_some_and(|i| rules.pieces[i].promotion.to.is_some())
        });
        let zone = self.xboard_zone(king);
        let zone_too_shallow = rules.promotion.iter().any(|trigger| match trigger.when {
            PromotionEvent::Zone { depth, .. } => usize::from(depth) > zone,
            PromotionEvent::Capture => true,
        });
        !promotes_too_late && !zone_too_shallow
    }

    /// How many of the board's ranks XBoard's Shogi rules count as the promotion zone: a third
    /// of its ranks (three of eight), counted from the far side of a board that has at least
    /// as many ranks as the holdings have kinds. Where the holdings have more, XBoard adds
    /// ranks that hold no squares on the far side, and the zone loses as many real ranks
    /// (Cannon Shogi's eleven kinds in hand on nine ranks: the last rank only).
    fn xboard_zone(&self, king: Option<usize>) -> usize {
        let ranks = usize::from(self.ranks());
        let height = ranks.max(self.holdings_size(king));
        (height / 3 + usize::from(height == 8)).saturating_sub(height - ranks)
    }

    /// The kind in XBoard's King's place: the first royal kind that is not a promoted one.
    fn king(&self) -> Option<usize> {
        let pieces = &self.tables.rules().pieces;
        (0..pieces.len()).find(|&i| pieces[i].royal && !self.ids[i].starts_with('+'))
    }

    /// XBoard's table of kinds besides the King, position by position (`None` for a position
    /// left empty): unpromoted kinds first (with drops, those that promote first of all),
    /// then promoted ones, each position with rules of its own given a kind they fit or none.
    fn slots(&self, king: Option<usize>) -> Vec<Option<usize>> {
        let rules = &self.tables.rules();
        let promoted = |i: usize| self.ids[i].starts_with('+');
        let promotes = |i: usize| rules.pieces[i].promotion.to.is_some();
        let mut rest: Vec<usize> = (0..rules.pieces.len())
            .filter(|&i| Some(i) != king && !promoted(i))
            .collect();
        if rules.drops {
            rest.sort_by_key(|&i| !promotes(i));
        }
        rest.extend((0..rules.pieces.len()).filter(|&i| Some(i) != king && promoted(i)));
        let mut slots = Vec::new();
        let mut images: Vec<&str> = Vec::new();
        while slots.len() < XBOARD_KINDS && (!rest.is_empty() || slots.len() < XBOARD_MIN_KINDS) {
            let slot = slots.len();
            let image = self.image_name(slot);
            let pick = if images.contains(&image) {
                None
            } else {
                rest.iter().position(|&i| self.fits(slot, i))
            };
            if pick.is_some() {
                images.push(image);
            }
            slots.push(pick.map(|at| rest.remove(at)));
        }
        slots
    }

    /// The name of the image files XBoard draws position `slot` of this variant's table from:
    /// two kinds never share one, so that each is drawn as its own.
    fn image_name(&self, slot: usize) -> &'static str {
        let rules = &self.tables.rules();
        let drawn_from = SHOGI_IMAGES
            .iter()
            .find(|&&(at, _)| at == slot && rules.drops && self.ranks() != 7)
            .map_or(slot, |&(_, from)| from);
        IMAGE_NAMES[drawn_from]
    }

    /// Each kind XBoard is given, with the name of the image files it draws it from (the
    /// King's last), for a variant XBoard does not know.
    pub fn images(&self) -> Vec<(PieceId, &'static str)> {
        let king = self.king();
        let slots = self.slots(king);
        let placed = slots
            .iter()
            .enumerate()
            .filter_map(|(slot, kind)| kind.map(|i| (PieceId(i as u16), self.image_name(slot))));
        placed
            .chain(king.map(|k| (PieceId(k as u16), IMAGE_NAMES[XBOARD_KINDS])))
            .collect()
    }

    /// Whether XBoard's rules for position `slot` of its table are also koma's for kind `i`.
    fn fits(&self, slot: usize, i: usize) -> bool {
        let rules = &self.tables.rules();
        let piece = &rules.pieces[i];
        let promotes = piece.promotion.to.is_some();
        let kept_from = |ranks: u8| promotes && piece.promotion.forced_ranks >= ranks && piece.drop.dead_ranks >= ranks;
        let pawns_per_file = if self.ranks() == 7 { 2 } else { 1 };
        match slot {
            LION_SLOT => false,
            _ if !rules.drops => true,
            PAWN_SLOT => kept_from(1) && piece.drop.per_file.is_some_and(|n| n <= pawns_per_file),
            KNIGHT_SLOT => kept_from(2),
            LANCE_SLOT => kept_from(1),
            _ => true,
        }
    }

    /// The `highlight` answer to `lift SQUARE`: where the piece there may go (yellow, red for
    /// a capture, magenta where it may promote, cyan where a Lion may stop to move on). When
    /// the square holds no piece of the side to move and `lifted` was the piece picked up
    /// before, the second legs of its moves through that square.
    pub fn highlight(&self, pos: &Position, square: Square, lifted: Option<Square>) -> Option<String> {
        let geo = pos.geometry();
        let sq = geo.index(square);
        let moves = pos.legal_moves();
        let mut marks = vec![None; geo.len()];
        let mark = |pos: &Position, m: &Move, to: crate::game::Sq, marks: &mut Vec<Option<char>>| {
            let occupied = pos.piece_at(geo.square(to)).is_some();
            let colour = if m.promote {
                'M'
            } else if occupied && Some(to) != m.from {
                'R'
            } else {
                'Y'
            };
            if marks[to.index()] != Some('M') {
                marks[to.index()] = Some(colour);
            }
        };
        let from_here: Vec<&Move> = moves.iter().filter(|m| m.from == Some(sq)).collect();
        if !from_here.is_empty() {
            for m in &from_here {
                mark(pos, m, m.to, &mut marks);
            }
            for m in &from_here {
                if let Some(via) = m.via[0].filter(|&via| Some(via) != m.from) {
                    marks[via.index()] = Some('C');
                }
            }
        } else {
            let start = geo.index(lifted?);
            for m in moves.iter().filter(|m| m.from == Some(start) && m.via[0] == Some(sq)) {
                mark(pos, m, m.to, &mut marks);
            }
            for m in moves
                .iter()
                .filter(|m| m.from == Some(start) && m.to == sq && m.via[0].is_none())
            {
                mark(pos, m, sq, &mut marks);
            }
        }
        if marks.iter().all(Option::is_none) {
            return None;
        }
        let mut ranks = Vec::new();
        for rank in 1..=self.ranks() {
            let mut text = String::new();
            let mut empty = 0;
            for file in (1..=self.files()).rev() {
                match marks[geo.index(Square::new(file, rank)).index()] {
                    None => empty += 1,
                    Some(c) => {
                        if empty > 0 {
                            text.push_str(&empty.to_string());
                            empty = 0;
                        }
                        text.push(c);
                    }
                }
            }
            if empty > 0 {
                text.push_str(&empty.to_string());
            }
            ranks.push(text);
        }
        Some(format!("highlight {}", ranks.join("/")))
    }
}

enum Token {
    Empty(u32),
    Piece(Side, PieceId),
}

/// Each kind's ID: its SFEN letter when it has one of its own, otherwise the first free of
/// its abbreviation's letter, that letter with `'` or `!`, then any letter with them; a
/// promoted kind is `+` and the ID of the kind that promotes to it.
fn piece_ids(tables: &MoveTables) -> Vec<String> {
    let pieces = &tables.rules().pieces;
    let mut ids: Vec<Option<String>> = vec![None; pieces.len()];
    let base_of = |i: usize| {
        pieces
            .iter()
            .position(|p| p.promotion.to.is_some_and(|to| to.index() == i))
            .filter(|&base| base != i)
    };
    let mut used: Vec<String> = Vec::new();
    for (i, piece) in pieces.iter().enumerate() {
        if base_of(i).is_some() {
            continue;
        }
        let own = piece
            .sfen
            .as_deref()
            .filter(|s| s.len() == 1)
            .map(str::to_uppercase)
            .filter(|s| !used.contains(s));
        let first = piece
            .abbrev
            .trim_start_matches('+')
            .chars()
            .next()
            .unwrap_or('X')
            .to_ascii_uppercase();
        let candidates = own.into_iter().chain(
            std::iter::once(first)
                .chain('A'..='Z')
                .flat_map(|c| [c.to_string(), format!("{c}'"), format!("{c}!")]),
        );
        let id = candidates.into_iter().find(|c| !used.contains(c)).unwrap_or_default();
        used.push(id.clone());
        ids[i] = Some(id);
    }
    (0..pieces.len())
        .map(|i| match base_of(i) {
            Some(base) => format!("+{}", ids[base].clone().unwrap_or_default()),
            None => ids[i].clone().unwrap_or_default(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Variant;

    /// A Lion that may pass (an empty square next to it) on Chu's board.
    const LION: &str = "k11/12/12/12/12/12/9N2/9p2/10p1/12/12/K11 w 0 1";

    #[test]
    fn a_pass_is_written_as_the_null_move_and_read_back() {
        let view = View::new(Variant::named("chu", &[]).expect("chu compiles").tables().clone());
        let pos = view.read_fen(LION).expect("the position reads");
        let pass = pos
            .legal_moves()
            .into_iter()
            .find(Move::is_pass)
            .expect("the Lion may pass");
        assert_eq!(view.write_move(&pos, &pass), "@@@@");
        assert_eq!(view.read_move(&pos, "@@@@"), Ok(pass));
        let double = pos
            .legal_moves()
            .into_iter()
            .find(|m| m.via[0].is_some() && !m.is_pass())
            .expect("a Lion move of two legs");
        assert!(
            view.write_move(&pos, &double).contains(','),
            "two legs, comma-separated"
        );
    }
}
