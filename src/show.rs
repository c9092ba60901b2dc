//! `koma show`: each piece's moves drawn on a small board around it, as the Piece Help
//! screens of the rule texts draw them, and a one-screen summary of a variant's rules.
//!
//! A diagram is centred on the piece (`@`), drawn as Black's: forward is up, the piece's
//! right is to the right. Every square a move reaches on an empty board carries one mark;
//! where several moves reach a square, the most particular kind is drawn (see `Kind`).
//! Lines of unlimited length end in an arrow on the rim of the small board. A square where
//! the piece may only move, only capture, or capture only unprotected pieces (whichever
//! move it uses) gets a mark of its own.

use crate::rules::{
    FlipEvent, KingSteps, LionDefence, LionRole, Mode, Movement, Offset, Outcome, PieceId, PieceKind, PromotionEvent,
    Repetition, RepetitionEffect, Rules, Side, Square, Try, TryReading, rank_name,
};
use std::collections::BTreeMap;

/// The summary and every piece, or only the pieces `piece` names (an abbreviation or a
/// name, in any case). An unknown piece is an error that names close matches.
pub fn show(rules: &Rules, piece: Option<&str>) -> Result<String, String> {
    let ids = match piece {
        Some(query) => find_pieces(rules, query)?,
        None => rules.piece_ids().collect(),
    };
    let mut sections: Vec<String> = ids.into_iter().map(|id| piece_section(rules, id)).collect();
    if piece.is_none() {
        sections.insert(0, summary(rules));
    }
    Ok(sections.join("\n"))
}

// ---------------------------------------------------------------------------------------
// Finding pieces

/// The pieces a query names: an exact abbreviation, else abbreviations or names equal to it
/// ignoring case (several kinds may share a name).
fn find_pieces(rules: &Rules, query: &str) -> Result<Vec<PieceId>, String> {
    if let Some(id) = rules.piece_by_abbrev(query) {
        return Ok(vec![id]);
    }
    let matching = |text: fn(&PieceKind) -> &str| -> Vec<PieceId> {
        rules
            .piece_ids()
            .filter(|&id| text(rules.piece(id)).eq_ignore_ascii_case(query))
            .collect()
    };
    [matching(|p| &p.abbrev), matching(|p| &p.name)]
        .into_iter()
        .find(|ids| !ids.is_empty())
        .ok_or_else(|| unknown_piece(rules, query))
}

fn unknown_piece(rules: &Rules, query: &str) -> String {
    let close = close_matches(rules, query);
    let listed = if close.is_empty() {
        let all: Vec<&str> = rules.pieces.iter().map(|p| p.abbrev.as_str()).collect();
        format!("its pieces are {}", all.join(", "))
    } else {
        let named: Vec<String> = close.iter().map(|&id| abbrev_and_name(rules.piece(id))).collect();
        format!("did you mean {}?", named.join(", "))
    };
    format!("{} has no piece `{query}`; {listed}", rules.name)
}

/// Pieces whose abbreviation or name contains the query or is one small edit from it.
fn close_matches(rules: &Rules, query: &str) -> Vec<PieceId> {
    let lower = query.to_lowercase();
    rules
        .piece_ids()
        .filter(|&id| {
            let p = rules.piece(id);
            let name = p.name.to_lowercase();
            name.contains(&lower) || small_edit(&lower, &p.abbrev.to_lowercase()) || small_edit(&lower, &name)
        })
        .collect()
}

/// Whether `text` is a likely typo of `query` (both in lower case): one edit in three
/// letters, a swap of two neighbouring letters counting as one edit (strsim's optimal string
/// alignment distance). A query of one or two letters has no typos, and one longer than any
/// name is not compared.
fn small_edit(query: &str, text: &str) -> bool {
    let len = query.trim_start_matches('+').chars().count();
    (3..=64).contains(&len) && strsim::osa_distance(query, text) <= len / 3
}

fn abbrev_and_name(piece: &PieceKind) -> String {
    format!("{} ({})", piece.abbrev, piece.name)
}

// ---------------------------------------------------------------------------------------
// One piece

fn piece_section(rules: &Rules, id: PieceId) -> String {
    let piece = rules.piece(id);
    let mut lines = vec![title(piece)];
    lines.extend(piece_facts(rules, id).into_iter().map(|f| format!("    {f}")));
    let diagram = Diagram::of(piece);
    lines.extend(diagram.rows());
    lines.extend(diagram.legend(format!("@  {}, forward is up", piece.abbrev)));
    lines.join("\n") + "\n"
}

fn title(piece: &PieceKind) -> String {
    let mut parts = vec![piece.abbrev.clone(), piece.name.clone()];
    parts.extend(piece.kanji.clone());
    if piece.value > 0 {
        parts.push(format!("value {}", piece.value));
    }
    if piece.royal {
        parts.push("royal".into());
    }
    parts.join("  ")
}

/// Promotion, reverting, drops and lion rules, one fact per line.
fn piece_facts(rules: &Rules, id: PieceId) -> Vec<String> {
    let piece = rules.piece(id);
    let promotion = &piece.promotion;
    let mut facts: Vec<String> = promotion
        .to
        .map(|to| format!("promotes to {}", abbrev_and_name(rules.piece(to))))
        .into_iter()
        .collect();
    let from = abbrevs_where(rules, |p| p.promotion.to == Some(id));
    if !from.is_empty() {
        facts.push(format!("promoted from {from}"));
    }
    if let (Some(event), Some(back)) = (rules.flip, promotion.reverts_to) {
        let when = match event {
            FlipEvent::Capture => "capture",
            FlipEvent::Move => "move",
        };
        facts.push(format!(
            "turns back into {} on its next {when}",
            rules.piece(back).abbrev
        ));
    }
    if facts.is_empty() {
        facts.push("does not promote".into());
    }
    if promotion.to.is_some() && promotion.forced_ranks > 0 {
        facts.push(format!("must promote on {}", last_ranks(promotion.forced_ranks)));
    }
    if promotion.declined_waits_for_last_rank {
        facts.push("once it declines to promote on entering the zone, promotes only on the last rank".into());
    }
    if promotion.last_rank_optional {
        facts.push("may promote on any move to the last rank, and may decline there (staying without a move)".into());
    }
    facts.extend(last_rank_fact(piece));
    facts.extend(beyond_facts(piece));
    if let Some(n) = piece.piece_limit {
        facts.push(format!(
            "at most {n} unpromoted of a side on a file, after a move or a drop"
        ));
    }
    if rules.drops {
        facts.extend(drop_facts(rules, piece));
    }
    facts.extend(lion_fact(rules, piece));
    if let Some(rank) = piece.jump_rank {
        let sweeps = piece.moves.iter().any(|m| matches!(m, Movement::RangeCapture { .. }));
        let word = if sweeps { "range capture" } else { "range jump" };
        facts.push(format!(
            "jump rank {rank} (1 the highest): a {word} passes only pieces ranked below it"
        ));
    }
    if piece.burns {
        facts.push(
            "burns: after its move every enemy piece next to it is captured, and an enemy piece that ends its \
             move next to it is burnt"
                .into(),
        );
    }
    facts
}

/// The moves a piece has only from its last rank (not drawn on its diagram).
fn last_rank_fact(piece: &PieceKind) -> Option<String> {
    let moves: Vec<String> = piece
        .moves
        .iter()
        .filter(|m| m.from_last_rank())
        .map(|m| match *m {
            Movement::Ride { dir, max: None, .. } => format!("slide ({}, {})", dir.dx, dir.dy),
            Movement::Ride { dir, max: Some(n), .. } => format!("up to {n} along ({}, {})", dir.dx, dir.dy),
            Movement::Leap { to, .. } => format!("leap to ({}, {})", to.dx, to.dy),
            Movement::AreaLion { .. }
            | Movement::LineLion { .. }
            | Movement::Hook { .. }
            | Movement::Anywhere { .. }
            | Movement::Area { .. }
            | Movement::RangeJump { .. }
            | Movement::Igui { .. }
            | Movement::RangeCapture { .. }
            | Movement::Passing { .. } => String::new(),
        })
        .collect();
    (!moves.is_empty()).then(|| format!("from its last rank only, also: {}", moves.join(", ")))
}

/// The moves that start past jumped squares (`beyond N`), in words: the diagram marks the
/// squares they reach as it marks slides and ranges, and not the squares they jump.
fn beyond_facts(piece: &PieceKind) -> Vec<String> {
    let mut groups: BTreeMap<(u8, Option<u8>), Vec<Offset>> = BTreeMap::new();
    for movement in piece.moves.iter().filter(|m| !m.from_last_rank()) {
        if let Movement::Ride {
            dir,
            max,
            beyond: beyond @ 1..,
            ..
        } = *movement
        {
            groups.entry((beyond, max)).or_default().push(dir);
        }
    }
    groups
        .into_iter()
        .map(|((beyond, max), dirs)| {
            let clause = match max {
                None => format!("beyond {beyond} slide {}", direction_words(&dirs)),
                Some(n) => format!("beyond {beyond} range {n} {}", direction_words(&dirs)),
            };
            let jumped = if beyond == 1 {
                "square".to_string()
            } else {
                format!("{beyond} squares")
            };
            format!(
                "{clause}: jumps the first {jumped}, whatever stands there, and goes on from the {}",
                ordinal(beyond + 1)
            )
        })
        .collect()
}

/// Directions in the language's words: the one word for all of them, or a word for each.
fn direction_words(dirs: &[Offset]) -> String {
    let wanted: Vec<(i8, i8)> = dirs.iter().map(|d| (d.dx, d.dy)).collect();
    let same = |offsets: &[(i8, i8)]| offsets.len() == wanted.len() && offsets.iter().all(|o| wanted.contains(o));
    if let Some((word, _)) = crate::parse::keywords::directions().find(|(_, offsets)| same(offsets)) {
        return word.to_string();
    }
    let words: Vec<&str> = wanted
        .iter()
        .filter_map(|o| {
            crate::parse::keywords::directions()
                .find(|(_, offsets)| *offsets == [*o])
                .map(|(word, _)| word)
        })
        .collect();
    words.join(" ")
}

fn drop_facts(rules: &Rules, piece: &PieceKind) -> Vec<String> {
    let drop = &piece.drop;
    let mut facts = Vec::new();
    if let Some(to) = piece.captured_as.or(piece.promotion.reverts_to) {
        facts.push(format!("when captured, goes to the hand as {}", rules.piece(to).abbrev));
    }
    if drop.banned_ranks() > 0 {
        facts.push(format!("may not be dropped on {}", last_ranks(drop.banned_ranks())));
    }
    if let Some(n) = drop.per_file {
        facts.push(format!("at most {n} unpromoted of a side on a file"));
    }
    if drop.no_drop_mate {
        facts.push("may not be dropped to give immediate mate".into());
    }
    facts
}

fn lion_fact(rules: &Rules, piece: &PieceKind) -> Option<String> {
    let in_force = rules.end.lion_trading || rules.end.counter_strike;
    match piece.lion {
        LionRole::Lion if in_force => Some("counts as a Lion for the lion-capture rules".into()),
        LionRole::WeakBridge if in_force => Some("a weak bridge for the lion-trading rule".into()),
        _ => None,
    }
}

fn last_ranks(n: u8) -> String {
    if n == 1 {
        "the last rank".into()
    } else {
        format!("the last {n} ranks")
    }
}

// ---------------------------------------------------------------------------------------
// The diagram

/// What reaches a square, from the least to the most particular: where two moves reach
/// the same square, the greater kind is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Anywhere,
    HookTurn,
    Step,
    Range,
    /// Within an area move's king steps.
    Area,
    Slide,
    /// Along a range jump's line.
    RangeJump,
    /// Along a passing slide's line, passing over so many pieces.
    Passing(u8),
    /// Along a range capture's line.
    RangeCapture,
    HookLeg,
    /// The last square of an unlimited line on the small board: an arrow.
    Edge(Offset),
    Jump,
    /// A capture without moving.
    Igui,
    /// A lion square, so many king steps away.
    Lion(u8),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Mark {
    kind: Kind,
    mode: Mode,
}

impl Mark {
    /// The mode its symbol shows: an arrow only says that its line goes on.
    fn shown_mode(self) -> Mode {
        match self.kind {
            Kind::Edge(_) => Mode::Any,
            _ => self.mode,
        }
    }
}

/// A square board of side `2 * radius + 1` centred on the piece.
struct Diagram {
    radius: i8,
    cells: Vec<Option<Mark>>,
}

impl Diagram {
    fn of(piece: &PieceKind) -> Diagram {
        let radius = radius(&piece.moves);
        let side = usize::from(radius.unsigned_abs()) * 2 + 1;
        let mut diagram = Diagram {
            radius,
            cells: vec![None; side * side],
        };
        // Moves only from the last rank are said in words (see `piece_facts`), not drawn.
        for movement in piece.moves.iter().filter(|m| !m.from_last_rank()) {
            diagram.draw(movement);
        }
        diagram
    }

    fn draw(&mut self, movement: &Movement) {
        let mode = movement.mode();
        match *movement {
            Movement::Ride {
                dir,
                max,
                beyond: beyond @ 1..,
                ..
            } => self.line_beyond(dir, max, beyond, mode),
            Movement::Ride { dir, max: None, .. } => self.line(dir, None, Kind::Slide, mode),
            Movement::Ride { dir, max: Some(1), .. } => self.line(dir, Some(1), Kind::Step, mode),
            Movement::Ride { dir, max, .. } => self.line(dir, max, Kind::Range, mode),
            Movement::Area { steps, dirs, .. } => self.area(steps, dirs, mode),
            Movement::RangeJump { dir, .. } => self.line(dir, None, Kind::RangeJump, mode),
            Movement::RangeCapture { dir, .. } => self.line(dir, None, Kind::RangeCapture, mode),
            Movement::Igui { dir, .. } => self.put(dir, Kind::Igui, mode),
            Movement::Passing { dir, max, pieces, .. } => self.line(dir, max, Kind::Passing(pieces), mode),
            Movement::Leap { to, .. } => self.put(to, Kind::Jump, mode),
            Movement::AreaLion { steps, .. } => self.area_lion(steps, mode),
            Movement::LineLion { dir, steps, .. } => self.line_lion(dir, steps, mode),
            Movement::Hook { dir, only_turn, .. } => self.hook(dir, only_turn, mode),
            Movement::Anywhere { .. } => self.anywhere(mode),
        }
    }

    /// Up to `max` squares along `dir` (to the rim when `None`, ending in an arrow).
    fn line(&mut self, dir: Offset, max: Option<u8>, kind: Kind, mode: Mode) {
        let squares: Vec<Offset> = self.ray(ORIGIN, dir).collect();
        let count = max.map_or(squares.len(), usize::from);
        for &at in squares.iter().take(count) {
            let arrow = max.is_none() && !self.inside(plus(at, dir));
            self.put(at, if arrow { Kind::Edge(dir) } else { kind }, mode);
        }
    }

    /// A slide or range that starts on square `beyond + 1` (`beyond N`): the squares before
    /// it are jumped, not marked.
    fn line_beyond(&mut self, dir: Offset, max: Option<u8>, beyond: u8, mode: Mode) {
        let squares: Vec<Offset> = self.ray(ORIGIN, dir).collect();
        let count = max.map_or(squares.len(), usize::from);
        let kind = if max.is_none() { Kind::Slide } else { Kind::Range };
        for &at in squares.iter().take(count).skip(usize::from(beyond)) {
            let arrow = max.is_none() && !self.inside(plus(at, dir));
            self.put(at, if arrow { Kind::Edge(dir) } else { kind }, mode);
        }
    }

    /// Every square an area move reaches on an empty board: within `steps` king steps made
    /// of the steps `dirs` allows.
    fn area(&mut self, steps: u8, dirs: KingSteps, mode: Mode) {
        let units: Vec<Offset> = dirs.offsets().collect();
        let mut reached = vec![ORIGIN];
        let mut frontier = vec![ORIGIN];
        for _ in 0..steps {
            let mut next = Vec::new();
            for &at in &frontier {
                for &unit in &units {
                    let to = plus(at, unit);
                    if self.inside(to) && !reached.contains(&to) {
                        reached.push(to);
                        next.push(to);
                    }
                }
            }
            frontier = next;
        }
        for at in reached.into_iter().filter(|&at| at != ORIGIN) {
            self.put(at, Kind::Area, mode);
        }
    }

    fn area_lion(&mut self, steps: u8, mode: Mode) {
        for at in self.squares() {
            let distance = at.king_distance();
            if (1..=steps).contains(&distance) {
                self.put(at, Kind::Lion(distance), mode);
            }
        }
    }

    fn line_lion(&mut self, dir: Offset, steps: u8, mode: Mode) {
        for k in 1..=steps {
            self.put(dir.scale(k as i8), Kind::Lion(k), mode);
        }
    }

    /// The first leg to the rim, and every square a 90° turn from it (onto `only_turn`, if
    /// given) reaches.
    fn hook(&mut self, dir: Offset, only_turn: Option<Offset>, mode: Mode) {
        self.line(dir, None, Kind::HookLeg, mode);
        let corners: Vec<Offset> = self.ray(ORIGIN, dir).collect();
        for corner in corners {
            for turn in crate::rules::hook_turns(dir, only_turn) {
                let leg: Vec<Offset> = self.ray(corner, turn).collect();
                for at in leg {
                    self.put(at, Kind::HookTurn, mode);
                }
            }
        }
    }

    fn anywhere(&mut self, mode: Mode) {
        for at in self.squares().filter(|&at| at != ORIGIN) {
            self.put(at, Kind::Anywhere, mode);
        }
    }

    /// Marks a square with the more particular kind of the moves reaching it, and with
    /// everything any of them may do there.
    fn put(&mut self, at: Offset, kind: Kind, mode: Mode) {
        let index = self.index(at);
        let cell = &mut self.cells[index];
        *cell = Some(match *cell {
            Some(old) => Mark {
                kind: old.kind.max(kind),
                mode: union(old.mode, mode),
            },
            None => Mark { kind, mode },
        });
    }

    fn inside(&self, at: Offset) -> bool {
        at.king_distance() <= self.radius.unsigned_abs()
    }

    fn index(&self, at: Offset) -> usize {
        let side = self.radius as isize * 2 + 1;
        let row = (self.radius - at.dy) as isize;
        let column = (at.dx + self.radius) as isize;
        (row * side + column) as usize
    }

    /// The squares from `from` (not included) along `dir` to the rim.
    fn ray(&self, from: Offset, dir: Offset) -> impl Iterator<Item = Offset> + '_ {
        std::iter::successors(Some(plus(from, dir)), move |&at| Some(plus(at, dir))).take_while(|&at| self.inside(at))
    }

    /// Every square, from the top-left, row by row.
    fn squares(&self) -> impl Iterator<Item = Offset> + use<> {
        let r = self.radius;
        (-r..=r)
            .rev()
            .flat_map(move |dy| (-r..=r).map(move |dx| Offset::new(dx, dy)))
    }

    fn rows(&self) -> Vec<String> {
        let width = self.radius as usize * 4 + 3;
        let mut rows = vec![format!("┌{}┐", "─".repeat(width))];
        let marks: Vec<char> = self.squares().map(|at| self.symbol_at(at)).collect();
        for row in marks.chunks(self.radius as usize * 2 + 1) {
            let cells: Vec<String> = row.iter().map(char::to_string).collect();
            rows.push(format!("│ {} │", cells.join(" ")));
        }
        rows.push(format!("└{}┘", "─".repeat(width)));
        rows
    }

    fn symbol_at(&self, at: Offset) -> char {
        if at == ORIGIN {
            return '@';
        }
        self.cells[self.index(at)].map_or('.', symbol)
    }

    /// One line for the piece's square (`centre`: how the drawing shows it), then one per
    /// mark used: its symbol(s) and what it means.
    fn legend(&self, centre: String) -> Vec<String> {
        let mut entries: BTreeMap<u8, Entry> = BTreeMap::new();
        for mark in self.cells.iter().flatten() {
            let entry = entries.entry(order(*mark)).or_insert_with(|| Entry::of(*mark));
            entry.add(*mark);
        }
        let mut lines = vec![centre];
        lines.extend(entries.values().map(Entry::line));
        lines
    }
}

const ORIGIN: Offset = Offset::new(0, 0);

fn plus(a: Offset, b: Offset) -> Offset {
    Offset::new(a.dx + b.dx, a.dy + b.dy)
}

/// How far the diagram must reach: the longest limited move, and one square more when a
/// move goes on without limit (so its arrow stands beyond every limited move); at least 2,
/// and 3 for a hook, to show where its turns lead.
fn radius(moves: &[Movement]) -> i8 {
    let extents: Vec<Extent> = moves.iter().map(extent).collect();
    let limited = extents
        .iter()
        .filter_map(|e| match e {
            Extent::Limited(n) => Some(*n),
            Extent::Unlimited | Extent::Hook | Extent::Board => None,
        })
        .max()
        .unwrap_or(0)
        .max(1);
    let unlimited = extents.contains(&Extent::Unlimited);
    let hook = extents.contains(&Extent::Hook);
    let least = if hook { 3 } else { 2 };
    (limited + u8::from(unlimited || hook)).max(least) as i8
}

/// How far a movement reaches, for the size of the diagram.
#[derive(PartialEq)]
enum Extent {
    /// At most this many king steps.
    Limited(u8),
    /// A slide: to the edge.
    Unlimited,
    Hook,
    /// Any square of the board (`anywhere`).
    Board,
}

fn extent(movement: &Movement) -> Extent {
    match *movement {
        Movement::Ride { dir, max: Some(n), .. } => Extent::Limited(n * dir.king_distance()),
        Movement::Leap { to, .. } => Extent::Limited(to.king_distance()),
        Movement::AreaLion { steps, .. } => Extent::Limited(steps),
        Movement::LineLion { dir, steps, .. } => Extent::Limited(steps * dir.king_distance()),
        Movement::Ride { max: None, .. }
        | Movement::RangeJump { .. }
        | Movement::Passing { max: None, .. }
        | Movement::RangeCapture { .. } => Extent::Unlimited,
        Movement::Passing { dir, max: Some(n), .. } => Extent::Limited(n * dir.king_distance()),
        Movement::Area { steps, .. } => Extent::Limited(steps),
        Movement::Igui { .. } => Extent::Limited(1),
        Movement::Hook { .. } => Extent::Hook,
        Movement::Anywhere { .. } => Extent::Board,
    }
}

/// What two moves reaching one square may do there together.
fn union(a: Mode, b: Mode) -> Mode {
    match (a, b) {
        _ if a == b => a,
        (Mode::MoveOnly, Mode::CaptureUnprotected) | (Mode::CaptureUnprotected, Mode::MoveOnly) => {
            Mode::CaptureUnprotected
        }
        _ => Mode::Any,
    }
}

/// Lion squares beyond this many steps share one mark.
const LION_MARKS: &[char] = &['A', 'B', 'C', 'D'];

fn symbol(mark: Mark) -> char {
    match mark.shown_mode() {
        Mode::MoveOnly => return 'm',
        Mode::CaptureOnly => return 'x',
        Mode::CaptureUnprotected => return 'u',
        Mode::Any => {}
    }
    match mark.kind {
        Kind::Anywhere => 'E',
        Kind::HookTurn => 'h',
        Kind::Step => 'o',
        Kind::Range => '+',
        Kind::Area => 'a',
        Kind::Slide => '*',
        Kind::RangeJump => 'G',
        Kind::Passing(_) => '#',
        Kind::RangeCapture => 'X',
        Kind::Igui => '!',
        Kind::HookLeg => 'H',
        Kind::Edge(dir) => arrow(dir),
        Kind::Jump => 'J',
        Kind::Lion(n) => LION_MARKS.get(usize::from(n) - 1).copied().unwrap_or('L'),
    }
}

fn arrow(dir: Offset) -> char {
    match (dir.dx.signum(), dir.dy.signum()) {
        (-1, 1) => '↖',
        (0, 1) => '↑',
        (1, 1) => '↗',
        (-1, 0) => '←',
        (1, 0) => '→',
        (-1, -1) => '↙',
        (0, -1) => '↓',
        _ => '↘',
    }
}

/// The legend's order; marks of one order share a legend line.
fn order(mark: Mark) -> u8 {
    let restricted = match mark.shown_mode() {
        Mode::Any => 0,
        Mode::MoveOnly => 100,
        Mode::CaptureOnly => 101,
        Mode::CaptureUnprotected => 102,
    };
    if restricted > 0 {
        return restricted;
    }
    match mark.kind {
        Kind::Step => 1,
        Kind::Range => 2,
        Kind::Slide => 3,
        Kind::Edge(_) => 4,
        Kind::Jump => 5,
        Kind::Lion(n) => 10 + n.min(LION_MARKS.len() as u8 + 1),
        Kind::HookLeg => 20,
        Kind::HookTurn => 21,
        Kind::Anywhere => 22,
        Kind::Area => 23,
        Kind::RangeJump => 24,
        Kind::Igui => 25,
        Kind::Passing(_) => 26,
        Kind::RangeCapture => 27,
    }
}

/// One line of a legend: the symbols, what they mean, and (for a restricted mode) which
/// kinds of move carry it.
struct Entry {
    symbols: Vec<char>,
    text: String,
    kinds: Vec<&'static str>,
}

impl Entry {
    fn of(mark: Mark) -> Entry {
        let text = match mark.shown_mode() {
            Mode::Any => kind_text(mark.kind),
            Mode::MoveOnly => "moves there, but may not capture".into(),
            Mode::CaptureOnly => "may only capture there".into(),
            Mode::CaptureUnprotected => "moves there, or captures a piece no other enemy piece protects".into(),
        };
        Entry {
            symbols: vec![],
            text,
            kinds: vec![],
        }
    }

    fn add(&mut self, mark: Mark) {
        let symbol = symbol(mark);
        if !self.symbols.contains(&symbol) {
            self.symbols.push(symbol);
        }
        let kind = kind_name(mark.kind);
        if !mark.shown_mode().is_any() && !self.kinds.contains(&kind) {
            self.kinds.push(kind);
        }
    }

    fn line(&self) -> String {
        let mut symbols: Vec<char> = self.symbols.clone();
        symbols.sort_by_key(|&c| ARROWS.find(c));
        let symbols: Vec<String> = symbols.iter().map(char::to_string).collect();
        let kinds = if self.kinds.is_empty() {
            String::new()
        } else {
            format!("{}: ", self.kinds.join(", "))
        };
        format!("{}  {kinds}{}", symbols.join(" "), self.text)
    }
}

/// Arrows in the legend's order.
const ARROWS: &str = "↖↑↗←→↙↓↘";

fn kind_text(kind: Kind) -> String {
    match kind {
        Kind::Step => "step: one square".into(),
        Kind::Range => "range: through empty squares, as far as the marks go".into(),
        Kind::Slide => "slide: any distance through empty squares".into(),
        Kind::Edge(_) => "the line goes on to the edge of the board".into(),
        Kind::Jump => "jump: straight there, over anything in between".into(),
        Kind::Lion(1) => {
            "lion, 1 step away: move or capture there, and may step on (back to the start: igui or pass)".into()
        }
        Kind::Lion(n) if usize::from(n) <= LION_MARKS.len() => {
            format!("lion, {n} steps away: straight there (jumping), or step by step, capturing on the way")
        }
        Kind::Lion(_) => format!(
            "lion, {} or more steps away: straight there (jumping), or step by step, capturing on the way",
            LION_MARKS.len() + 1
        ),
        Kind::HookLeg => "hook: slide through empty squares; may turn 90° at an empty one".into(),
        Kind::HookTurn => "hook, after its 90° turn: slides on through empty squares".into(),
        Kind::Anywhere => "anywhere: any square of the board, jumping".into(),
        Kind::Area => {
            "area: as many king steps as the marks go, through empty squares, turning freely; a capture ends it".into()
        }
        Kind::RangeJump => {
            "range jump: slides; to capture, may jump pieces ranked below it (jump-rank) to take one farther on".into()
        }
        Kind::RangeCapture => "range capture: slides over pieces ranked below it (jump-rank), of either side, \
                               capturing every one it passes; ends on an empty square or on such a piece"
            .into(),
        Kind::Igui => "igui: captures there without moving".into(),
        Kind::Passing(n) => format!(
            "passing: slides on past up to {n} pieces of either side, to an empty square or an enemy beyond them"
        ),
    }
}

fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Anywhere => "anywhere",
        Kind::HookTurn | Kind::HookLeg => "hook",
        Kind::Step => "step",
        Kind::Range => "range",
        Kind::Slide | Kind::Edge(_) => "slide",
        Kind::Jump => "jump",
        Kind::Lion(_) => "lion",
        Kind::Area => "area",
        Kind::RangeJump => "range-jump",
        Kind::Passing(_) => "passing",
        Kind::RangeCapture => "range-capture",
        Kind::Igui => "igui",
    }
}

// ---------------------------------------------------------------------------------------
// The diagram as SVG

/// Each piece (or the pieces `piece` names) drawn as SVG, one below the other: the same
/// title, facts, diagram and legend as the text, the diagram as a grid of squares.
pub fn show_svg(rules: &Rules, piece: Option<&str>) -> Result<String, String> {
    let ids = match piece {
        Some(query) => find_pieces(rules, query)?,
        None => rules.piece_ids().collect(),
    };
    let drawings: Vec<Drawing> = ids.into_iter().map(|id| Drawing::of(rules, id)).collect();
    let width = drawings.iter().map(|d| d.width).max().unwrap_or(0);
    let mut body = String::new();
    let mut y = 0;
    for drawing in &drawings {
        body.push_str(&format!("<g transform=\"translate(0 {y})\">{}</g>\n", drawing.body));
        y += drawing.height + SVG_GAP;
    }
    Ok(svg_document(width, y.saturating_sub(SVG_GAP), &body))
}

/// One piece's drawing as an SVG document.
pub fn piece_svg(rules: &Rules, id: PieceId) -> String {
    let drawing = Drawing::of(rules, id);
    svg_document(drawing.width, drawing.height, &drawing.body)
}

/// The side of a square of the diagram, and the height of a line of text, in pixels.
const SVG_CELL: usize = 26;
const SVG_LINE: usize = 18;
/// The space between two pieces' drawings, and around the text.
const SVG_GAP: usize = 24;
const SVG_MARGIN: usize = 8;
/// The width of a character of text, roughly, for sizing the drawing.
const SVG_CHAR: usize = 9;
/// How far the facts under a piece's title are indented.
const SVG_INDENT: usize = 2 * SVG_CHAR;

fn svg_document(width: usize, height: usize, body: &str) -> String {
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         viewBox=\"0 0 {width} {height}\" font-family=\"monospace\" font-size=\"14\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n{body}</svg>\n"
    )
}

/// One piece's drawing: an SVG group and its size.
struct Drawing {
    body: String,
    width: usize,
    height: usize,
}

impl Drawing {
    fn of(rules: &Rules, id: PieceId) -> Drawing {
        let piece = rules.piece(id);
        let diagram = Diagram::of(piece);
        let mut above = vec![title(piece)];
        above.extend(piece_facts(rules, id));
        // The piece stands on the dark square, named there.
        let below = diagram.legend(format!("{} on the dark square, forward is up", piece.abbrev));
        let mut body = String::new();
        let mut y = SVG_MARGIN;
        for (index, line) in above.iter().enumerate() {
            // The title in bold; the facts below it indented, as the text indents them.
            let (x, weight) = match index {
                0 => (SVG_MARGIN, " font-weight=\"bold\""),
                _ => (SVG_MARGIN + SVG_INDENT, ""),
            };
            body.push_str(&svg_text(x, y + SVG_LINE - 4, line, weight));
            y += SVG_LINE;
        }
        y += SVG_MARGIN;
        let (grid, side) = diagram.svg_grid(SVG_MARGIN, y, piece);
        body.push_str(&grid);
        y += side + SVG_MARGIN;
        for line in &below {
            body.push_str(&svg_text(SVG_MARGIN, y + SVG_LINE - 4, line, ""));
            y += SVG_LINE;
        }
        let longest = above
            .iter()
            .chain(&below)
            .map(|l| l.chars().count() + 2)
            .max()
            .unwrap_or(0);
        Drawing {
            body,
            width: (longest * SVG_CHAR).max(side) + 2 * SVG_MARGIN,
            height: y + SVG_MARGIN,
        }
    }
}

fn svg_text(x: usize, y: usize, text: &str, attributes: &str) -> String {
    format!("<text x=\"{x}\" y=\"{y}\"{attributes}>{}</text>\n", xml_escape(text))
}

fn xml_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

impl Diagram {
    /// The grid at (x, y): every square, the piece in the middle, each mark as its symbol
    /// on a square coloured by what the piece may do there. Returns it and its side.
    fn svg_grid(&self, x: usize, y: usize, piece: &PieceKind) -> (String, usize) {
        let per_side = self.radius as usize * 2 + 1;
        let mut out = String::new();
        for (index, at) in self.squares().enumerate() {
            let cx = x + (index % per_side) * SVG_CELL;
            let cy = y + (index / per_side) * SVG_CELL;
            let (fill, label) = if at == ORIGIN {
                ("#333", piece.abbrev.clone())
            } else {
                match self.cells[self.index(at)] {
                    Some(mark) => (svg_fill(mark), symbol(mark).to_string()),
                    None => ("#f4ecd8", String::new()),
                }
            };
            out.push_str(&format!(
                "<rect x=\"{cx}\" y=\"{cy}\" width=\"{SVG_CELL}\" height=\"{SVG_CELL}\" fill=\"{fill}\" stroke=\"#8a7a5a\"/>\n"
            ));
            if !label.is_empty() {
                let colour = if at == ORIGIN { "white" } else { "black" };
                out.push_str(&format!(
                    "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"{colour}\">{}</text>\n",
                    cx + SVG_CELL / 2,
                    cy + SVG_CELL / 2 + 5,
                    xml_escape(&label)
                ));
            }
        }
        (out, per_side * SVG_CELL)
    }
}

/// A square's colour: by what the piece may do there, lion squares apart.
fn svg_fill(mark: Mark) -> &'static str {
    match mark.shown_mode() {
        Mode::MoveOnly => "#b8e0b0",
        Mode::CaptureOnly => "#f0a8a0",
        Mode::CaptureUnprotected => "#f4cc88",
        Mode::Any => match mark.kind {
            Kind::Lion(_) => "#d8b8f0",
            Kind::Jump => "#a8d0f0",
            Kind::Igui => "#f0a8a0",
            Kind::Anywhere
            | Kind::HookTurn
            | Kind::Step
            | Kind::Range
            | Kind::Area
            | Kind::Slide
            | Kind::RangeJump
            | Kind::Passing(_)
            | Kind::RangeCapture
            | Kind::HookLeg
            | Kind::Edge(_) => "#c8d8f8",
        },
    }
}

// ---------------------------------------------------------------------------------------
// The rules summary

fn summary(rules: &Rules) -> String {
    let rows: Vec<(&str, Vec<String>)> = vec![
        ("board", vec![board_line(rules)]),
        ("options", option_lines(rules)),
        ("pieces", vec![kinds_line(rules)]),
        ("moves", movement_rule_lines(rules)),
        ("setup", vec![setup_line(rules)]),
        ("promotion", promotion_lines(rules)),
        ("drops", drop_lines(rules)),
        ("royal", vec![royal_line(rules)]),
        ("game end", end_lines(rules)),
        ("handicaps", handicap_lines(rules)),
    ];
    let mut lines = vec![rules.name.clone()];
    for (label, texts) in rows {
        for (i, text) in texts.iter().enumerate() {
            lines.push(format!("  {:<11}{text}", if i == 0 { label } else { "" }));
        }
    }
    lines.push(String::new());
    lines.extend(start_position(rules));
    lines.join("\n") + "\n"
}

fn board_line(rules: &Rules) -> String {
    let b = rules.board;
    format!(
        "{} x {}: files {}..1 from the left, ranks a..{} from the top; Black below, moving first",
        b.files,
        b.ranks,
        b.files,
        rank_name(b.ranks)
    )
}

fn option_lines(rules: &Rules) -> Vec<String> {
    if rules.options.is_empty() {
        return vec!["none".into()];
    }
    rules
        .options
        .iter()
        .map(|(name, option)| {
            let others: Vec<&str> = option
                .values
                .iter()
                .filter(|v| **v != option.chosen)
                .map(String::as_str)
                .collect();
            let description = option
                .description
                .as_ref()
                .map(|d| format!(": {d}"))
                .unwrap_or_default();
            format!("{name} = {} (or {}){description}", option.chosen, others.join(" | "))
        })
        .collect()
}

fn kinds_line(rules: &Rules) -> String {
    let in_setup = |id: PieceId| rules.start_pieces().any(|(_, piece)| piece == id);
    let promoted = |id: PieceId| rules.pieces.iter().any(|p| p.promotion.to == Some(id));
    // Under a flip rule a promoted face turns back into its unpromoted one.
    let turned_back =
        |id: PieceId| rules.flip.is_some() && rules.pieces.iter().any(|p| p.promotion.reverts_to == Some(id));
    let start = rules.piece_ids().filter(|&id| in_setup(id)).count();
    let later = rules
        .piece_ids()
        .filter(|&id| !in_setup(id) && (promoted(id) || turned_back(id)))
        .count();
    let other = rules.pieces.len() - start - later;
    let by = if rules.flip.is_some() {
        "by turning over"
    } else {
        "by promotion"
    };
    let mut text = format!("{} kinds: {start} in the setup, {later} more {by}", rules.pieces.len());
    if other > 0 {
        text += &format!(", {other} in neither");
    }
    text
}

fn setup_line(rules: &Rules) -> String {
    let count = |side: Side| rules.setup.iter().filter(|p| p.side == side).count();
    let (black, white) = (count(Side::Black), count(Side::White));
    let board = if black == white {
        format!("{} a side", pieces(black))
    } else {
        format!("Black {}, White {}", pieces(black), pieces(white))
    };
    let (black_hand, white_hand) = (hand_text(rules, Side::Black), hand_text(rules, Side::White));
    match (black_hand.is_empty() && white_hand.is_empty(), black_hand == white_hand) {
        (true, _) => board,
        (false, true) => format!("{board}; in hand at the start: {black_hand} a side"),
        (false, false) => format!(
            "{board}; in hand at the start: Black {}, White {}",
            or_none(black_hand),
            or_none(white_hand)
        ),
    }
}

/// A side's pieces in hand at the start, as `L N` (empty for none).
fn hand_text(rules: &Rules, side: Side) -> String {
    let held: Vec<&str> = rules
        .hand
        .iter()
        .filter(|h| h.side == side)
        .map(|h| rules.piece(h.piece).abbrev.as_str())
        .collect();
    held.join(" ")
}

fn or_none(text: String) -> String {
    if text.is_empty() { "none".into() } else { text }
}

fn pieces(n: usize) -> String {
    if n == 1 {
        "1 piece".into()
    } else {
        format!("{n} pieces")
    }
}

fn promotion_lines(rules: &Rules) -> Vec<String> {
    let mut lines: Vec<String> = rules
        .promotion
        .iter()
        .map(|t| {
            let duty = if t.compulsory { "compulsory" } else { "optional" };
            format!("{duty} on {}", event_text(&t.when))
        })
        .collect();
    if let Some(event) = rules.flip {
        let when = match event {
            FlipEvent::Capture => "capture",
            FlipEvent::Move => "move on the board",
        };
        lines.push(format!(
            "flip: a two-faced piece turns over on every {when}, both ways (a promoted piece turns back)"
        ));
    }
    if lines.is_empty() {
        lines.push("none".into());
    }
    if rules.deferral {
        lines.push(
            "deferral: a piece that declines on entering may not promote on its next move unless it captures".into(),
        );
    }
    let forced = rank_groups(rules, |p| {
        if p.promotion.to.is_some() {
            p.promotion.forced_ranks
        } else {
            0
        }
    });
    if !forced.is_empty() {
        lines.push(format!("must promote: {forced}"));
    }
    let waits = abbrevs_where(rules, |p| p.promotion.declined_waits_for_last_rank);
    if !waits.is_empty() {
        lines.push(format!("{waits}: once declined on entering, only on the last rank"));
    }
    let last_rank = abbrevs_where(rules, |p| p.promotion.last_rank_optional);
    if !last_rank.is_empty() {
        lines.push(format!(
            "{last_rank}: may promote on any move to the last rank, or decline and stay"
        ));
    }
    lines
}

fn event_text(event: &PromotionEvent) -> String {
    match *event {
        PromotionEvent::Capture => "any capture".into(),
        PromotionEvent::Zone {
            depth,
            enter,
            within,
            leave,
            capture,
        } => {
            let ways: Vec<&str> = [(enter, "enters"), (within, "moves within"), (leave, "leaves")]
                .into_iter()
                .filter_map(|(on, word)| on.then_some(word))
                .collect();
            let moves = format!("a move that {} the far {depth} ranks", or_list(&ways));
            match (ways.is_empty(), capture) {
                (_, false) => moves,
                (true, true) => format!("a capture starting or ending in the far {depth} ranks"),
                (false, true) => format!("{moves}, or a capture starting or ending in them"),
            }
        }
    }
}

fn or_list(words: &[&str]) -> String {
    match words {
        [] => String::new(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// `N on the last 2 ranks; L, P on the last rank` for a per-piece number of last ranks.
fn rank_groups(rules: &Rules, ranks: impl Fn(&PieceKind) -> u8) -> String {
    let mut groups: BTreeMap<u8, Vec<&str>> = BTreeMap::new();
    for piece in &rules.pieces {
        let n = ranks(piece);
        if n > 0 {
            groups.entry(n).or_default().push(&piece.abbrev);
        }
    }
    let parts: Vec<String> = groups
        .iter()
        .rev()
        .map(|(&n, abbrevs)| format!("{} on {}", abbrevs.join(", "), last_ranks(n)))
        .collect();
    parts.join("; ")
}

fn abbrevs_where(rules: &Rules, test: impl Fn(&PieceKind) -> bool) -> String {
    let abbrevs: Vec<&str> = rules
        .pieces
        .iter()
        .filter(|p| test(p))
        .map(|p| p.abbrev.as_str())
        .collect();
    abbrevs.join(", ")
}

fn drop_lines(rules: &Rules) -> Vec<String> {
    if !rules.drops {
        return vec!["none: captured pieces leave the game".into()];
    }
    let mut lines = vec!["captured pieces go to the capturer's hand, unpromoted, and may be dropped".into()];
    if rules.drop_either_face {
        lines.push("on either face: unpromoted, or promoted".into());
    }
    let dead = rank_groups(rules, |p| p.drop.banned_ranks());
    if !dead.is_empty() {
        lines.push(format!("not where it could never move: {dead}"));
    }
    for piece in rules.pieces.iter().filter(|p| p.drop.per_file.is_some()) {
        let n = piece.drop.per_file.unwrap_or_default();
        lines.push(format!("{}: at most {n} unpromoted of a side on a file", piece.abbrev));
    }
    let no_mate = abbrevs_where(rules, |p| p.drop.no_drop_mate);
    if !no_mate.is_empty() {
        lines.push(format!("{no_mate}: may not be dropped to give immediate mate"));
    }
    lines
}

/// Rules about how every piece moves (none for most variants).
fn movement_rule_lines(rules: &Rules) -> Vec<String> {
    if rules.moves_as_piece_behind {
        vec!["a piece with a piece of its side directly behind it moves and attacks as that piece".into()]
    } else {
        vec![]
    }
}

fn royal_line(rules: &Rules) -> String {
    let royals: Vec<String> = rules.pieces.iter().filter(|p| p.royal).map(abbrev_and_name).collect();
    if royals.is_empty() {
        "none".into()
    } else {
        royals.join(", ")
    }
}

/// The try, in words: where, and when it wins.
fn try_line(rule: Try) -> String {
    let zone = if rule.depth == 1 {
        "its far rank".to_string()
    } else {
        format!("its far {} ranks", rule.depth)
    };
    let when = match rule.reading {
        TryReading::Reached => "at once",
        TryReading::Unattacked => "at once where no enemy piece attacks it (whoever is to move)",
        TryReading::UnlessTaken => "unless the opponent takes it with the next move",
    };
    format!("the try: a royal piece on {zone} wins, {when}")
}

fn end_lines(rules: &Rules) -> Vec<String> {
    let end = &rules.end;
    let mut lines = vec![if end.royal_capture_allowed {
        "capture every royal of the other side; a move may leave one's last royal capturable (and lose)".into()
    } else {
        "checkmate: capture every royal of the other side; no move may leave one's last royal capturable".into()
    }];
    let stalemate = match end.stalemate {
        Outcome::Win => "wins",
        Outcome::Draw => "draws",
        Outcome::Loss => "loses",
    };
    if end.check_wins {
        lines.push("first check wins: a side whose royal is attacked when it is to move has lost".into());
    }
    if let Some(rule) = end.try_rule {
        lines.push(try_line(rule));
    }
    lines.push(format!("stalemate: the side with no legal move {stalemate}"));
    if end.bare_king {
        lines.push("bare king: a side left with only royals loses, unless it bares the other at once (draw)".into());
    }
    lines.push(
        end.repetition
            .as_ref()
            .map_or("repetition: no rule".into(), repetition_text),
    );
    if end.lion_trading {
        let bridges = abbrevs_where(rules, |p| p.lion == LionRole::WeakBridge);
        lines.push(format!(
            "lion trading: a Lion may not take a protected Lion two squares away unless it first captures a piece other than {}",
            if bridges.is_empty() { "none".into() } else { bridges }
        ));
        lines.push(
            match end.lion_defence {
                LionDefence::Defended => "lion protection: the pieces the move takes first still defend",
                LionDefence::AfterMove => "lion protection: only a piece that could recapture after the move defends",
            }
            .into(),
        );
    }
    if rules.capture_unprotected_protects {
        lines.push(
            "protection: a capture-unprotected mover protects where it could take back a capturer left unprotected"
                .into(),
        );
    }
    if end.counter_strike {
        lines.push(
            "counter-strike: after a non-Lion takes a Lion, the other side may not take a Lion with a non-Lion at once"
                .into(),
        );
    }
    let lions = abbrevs_where(rules, |p| p.lion == LionRole::Lion);
    if end.lion_trading || end.counter_strike {
        lines.push(format!("Lions for these rules: {lions}"));
    }
    lines
}

fn repetition_text(repetition: &Repetition) -> String {
    let n = repetition.count;
    let mut text = match repetition.effect {
        RepetitionEffect::Draw => format!("repetition: the {} occurrence of a position draws", ordinal(n)),
        RepetitionEffect::Illegal => format!("repetition: no move may make a position occur a {} time", ordinal(n)),
        RepetitionEffect::StarterVaries => {
            format!(
                "repetition: before a {} occurrence, who started the cycle must vary",
                ordinal(n)
            )
        }
    };
    if repetition.perpetual_check_loses {
        text += "; perpetual check loses";
    }
    text
}

fn ordinal(n: u8) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

fn handicap_lines(rules: &Rules) -> Vec<String> {
    if rules.handicaps.is_empty() {
        return vec!["none".into()];
    }
    let mut lines: Vec<String> = rules
        .handicaps
        .iter()
        .map(|h| {
            let squares: Vec<String> = h.squares.iter().map(Square::to_string).collect();
            format!("{}: {}", h.name, squares.join(" "))
        })
        .collect();
    lines.push("(White's pieces on these squares are removed; White moves first)".into());
    lines
}

/// The starting position: files numbered from the right, ranks lettered down the right
/// side; Black's pieces as written, White's in lower case.
fn start_position(rules: &Rules) -> Vec<String> {
    let board = rules.board;
    let width = rules
        .setup
        .iter()
        .map(|p| rules.piece(p.piece).abbrev.chars().count())
        .chain([board.files.to_string().len()])
        .max()
        .unwrap_or(1);
    let cell = |text: String| format!("{text:>width$}");
    let files: Vec<String> = (1..=board.files).rev().map(|f| cell(f.to_string())).collect();
    let mut lines = vec![files.join(" ")];
    for rank in 1..=board.ranks {
        let squares: Vec<String> = (1..=board.files)
            .rev()
            .map(|file| cell(occupant(rules, Square::new(file, rank))))
            .collect();
        lines.push(format!("{}  {}", squares.join(" "), rank_name(rank)));
    }
    lines.push("Black's pieces (below) as written, White's in lower case".into());
    lines
}

fn occupant(rules: &Rules, square: Square) -> String {
    match rules.setup.iter().find(|p| p.square == square) {
        Some(p) if p.side == Side::White => rules.piece(p.piece).abbrev.to_lowercase(),
        Some(p) => rules.piece(p.piece).abbrev.clone(),
        None => ".".into(),
    }
}
