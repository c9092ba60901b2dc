//! Each piece's moves drawn on a small board around it, as the Piece Help screens of the
//! rule texts draw them.
//!
//! A diagram is centred on the piece (`@`), drawn as Black's: forward is up, the piece's
//! right is to the right. Every square a move reaches on an empty board carries one mark;
//! where several moves reach a square, the most particular kind is drawn (see `Kind`).
//! Lines of unlimited length end in an arrow on the rim of the small board. A square where
//! the piece may only move, only capture, or capture only unprotected pieces (whichever
//! move it uses) gets a mark of its own.

use crate::rules::{KingSteps, Mode, Movement, Offset, PieceKind};
use std::collections::BTreeMap;

/// What reaches a square, from the least to the most particular: where two moves reach
/// the same square, the greater kind is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Kind {
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
    /// Along a hop's line, from the second square (the first holds the screen, at the nearest).
    Hop,
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
pub(super) struct Mark {
    pub(super) kind: Kind,
    pub(super) mode: Mode,
}

impl Mark {
    /// The mode its symbol shows: an arrow only says that its line goes on.
    pub(super) fn shown_mode(self) -> Mode {
        match self.kind {
            Kind::Edge(_) => Mode::Any,
            _ => self.mode,
        }
    }
}

/// A square board of side `2 * radius + 1` centred on the piece.
pub(super) struct Diagram {
    pub(super) radius: i8,
    pub(super) cells: Vec<Option<Mark>>,
}

impl Diagram {
    pub(super) fn of(piece: &PieceKind) -> Diagram {
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
            Movement::Hop { dir, max, .. } => self.hop(dir, max, mode),
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

    /// A hop's landing squares as if a screen stood on each square of its line: from the
    /// second square on, up to `max` squares (to the rim when `None`, ending in an arrow).
    fn hop(&mut self, dir: Offset, max: Option<u8>, mode: Mode) {
        let squares: Vec<Offset> = self.ray(ORIGIN, dir).collect();
        let count = max.map_or(squares.len(), usize::from);
        for &at in squares.iter().take(count).skip(1) {
            let arrow = max.is_none() && !self.inside(plus(at, dir));
            self.put(at, if arrow { Kind::Edge(dir) } else { Kind::Hop }, mode);
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

    pub(super) fn index(&self, at: Offset) -> usize {
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
    pub(super) fn squares(&self) -> impl Iterator<Item = Offset> + use<> {
        let r = self.radius;
        (-r..=r)
            .rev()
            .flat_map(move |dy| (-r..=r).map(move |dx| Offset::new(dx, dy)))
    }

    pub(super) fn rows(&self) -> Vec<String> {
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
    pub(super) fn legend(&self, centre: String) -> Vec<String> {
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

pub(super) const ORIGIN: Offset = Offset::new(0, 0);

fn plus(a: Offset, b: Offset) -> Offset {
    Offset::new(a.dx + b.dx, a.dy + b.dy)
}

/// How far the diagram must reach: the longest limited move, and one square more when a
/// move goes on without limit (so its arrow stands beyond every limited move); at least 2,
/// and 3 for a hook, to show where its turns lead, and for a hop of any distance, to show a
/// landing square (beyond the nearest screen) before its arrow.
fn radius(moves: &[Movement]) -> i8 {
    let extents: Vec<Extent> = moves.iter().map(extent).collect();
    let limited = extents
        .iter()
        .filter_map(|e| match e {
            Extent::Limited(n) => Some(*n),
            Extent::Unlimited | Extent::Hook | Extent::Hop | Extent::Board => None,
        })
        .max()
        .unwrap_or(0)
        .max(1);
    let unlimited = extents.contains(&Extent::Unlimited);
    let hook = extents.contains(&Extent::Hook);
    let hop = extents.contains(&Extent::Hop);
    let least = if hook || hop { 3 } else { 2 };
    (limited + u8::from(unlimited || hook || hop)).max(least) as i8
}

/// How far a movement reaches, for the size of the diagram.
#[derive(PartialEq)]
enum Extent {
    /// At most this many king steps.
    Limited(u8),
    /// A slide: to the edge.
    Unlimited,
    Hook,
    /// A hop of any distance: lands from the second square to the edge.
    Hop,
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
        Movement::Hop { max: None, .. } => Extent::Hop,
        Movement::Hop { dir, max: Some(n), .. } => Extent::Limited(n * dir.king_distance()),
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

pub(super) fn symbol(mark: Mark) -> char {
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
        Kind::Hop => '^',
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
        Kind::Hop => 28,
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
    pub(super) fn of(mark: Mark) -> Entry {
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
        Kind::Hop => "hop: over exactly one piece of either side on the line (the screen), to an empty square \
                      beyond it or the first piece beyond it"
            .into(),
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
        Kind::Hop => "hop",
        Kind::Igui => "igui",
    }
}
