//! Sides, squares, offsets and board sizes, named as the rule texts name them.
//!
//! Files are numbered from 1 on Black's right; ranks are lettered from `a` at the top
//! (White's side). `1a` is the top-right square. Ranks past `z` are written `aa`, `ab`, ….

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// The largest board side koma accepts.
pub const MAX_BOARD_SIDE: u8 = 36;

/// Black moves first and starts at the bottom (high rank letters); White at the top.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Side {
    Black,
    White,
}

impl Side {
    pub fn opponent(self) -> Side {
        match self {
            Side::Black => Side::White,
            Side::White => Side::Black,
        }
    }

    pub fn index(self) -> usize {
        self as usize
    }
}

/// The side's name, as players read it: `Black`, `White`.
impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::Black => "Black",
            Side::White => "White",
        })
    }
}

/// Width (files) and height (ranks) of the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardSize {
    pub files: u8,
    pub ranks: u8,
}

impl BoardSize {
    pub fn contains(self, square: Square) -> bool {
        (1..=self.files).contains(&square.file) && (1..=self.ranks).contains(&square.rank)
    }

    /// The square of the 180° rotation.
    pub fn rotate(self, square: Square) -> Square {
        Square {
            file: self.files + 1 - square.file,
            rank: self.ranks + 1 - square.rank,
        }
    }

    /// How many ranks from the far edge `square` is, for `side`: 1 on the last rank.
    pub fn depth_from_far_edge(self, side: Side, square: Square) -> u8 {
        match side {
            Side::Black => square.rank,
            Side::White => self.ranks + 1 - square.rank,
        }
    }

    /// The square reached from `from` by `offset`, seen by `side`, if it is on the board.
    pub fn offset(self, side: Side, from: Square, offset: Offset) -> Option<Square> {
        let (dx, dy) = match side {
            Side::Black => (-i32::from(offset.dx), -i32::from(offset.dy)),
            Side::White => (i32::from(offset.dx), i32::from(offset.dy)),
        };
        let file = i32::from(from.file) + dx;
        let rank = i32::from(from.rank) + dy;
        let in_range = |v: i32, max: u8| (1..=i32::from(max)).contains(&v);
        (in_range(file, self.files) && in_range(rank, self.ranks)).then_some(Square {
            file: file as u8,
            rank: rank as u8,
        })
    }

    pub fn squares(self) -> impl Iterator<Item = Square> {
        (1..=self.ranks).flat_map(move |rank| (1..=self.files).rev().map(move |file| Square { file, rank }))
    }
}

/// A square: file number (1 = Black's right) and rank number (1 = rank `a`, the top).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square {
    pub file: u8,
    pub rank: u8,
}

impl Square {
    pub fn new(file: u8, rank: u8) -> Square {
        Square { file, rank }
    }

    /// Parses `7g`, `12a`, `1aa`. Does not check the board size.
    pub fn parse(text: &str) -> Option<Square> {
        let split = text.find(|c: char| !c.is_ascii_digit())?;
        let (digits, letters) = text.split_at(split);
        let file: u8 = digits.parse().ok()?;
        let rank = rank_number(letters)?;
        (file >= 1).then_some(Square { file, rank })
    }
}

/// The rank number of a rank name (`a` = 1, `z` = 26, `aa` = 27).
pub fn rank_number(name: &str) -> Option<u8> {
    let bytes = name.as_bytes();
    let letter = |b: u8| b.is_ascii_lowercase().then(|| b - b'a' + 1);
    match bytes {
        [one] => letter(*one),
        [b'a', two] => letter(*two).map(|n| 26 + n).filter(|&n| n <= MAX_BOARD_SIDE),
        _ => None,
    }
}

/// The rank name of a rank number.
pub fn rank_name(rank: u8) -> String {
    if rank <= 26 {
        char::from(b'a' + rank - 1).to_string()
    } else {
        format!("a{}", char::from(b'a' + rank - 27))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file, rank_name(self.rank))
    }
}

impl Serialize for Square {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Square {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        Square::parse(&text).ok_or_else(|| serde::de::Error::custom(format!("not a square: {text}")))
    }
}

/// A displacement from the mover's point of view: `dx` squares to its right, `dy` forward.
/// Written `(dx, dy)` in the rules as RON.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(from = "(i8, i8)", into = "(i8, i8)")]
pub struct Offset {
    pub dx: i8,
    pub dy: i8,
}

impl From<(i8, i8)> for Offset {
    fn from((dx, dy): (i8, i8)) -> Offset {
        Offset { dx, dy }
    }
}

impl From<Offset> for (i8, i8) {
    fn from(o: Offset) -> (i8, i8) {
        (o.dx, o.dy)
    }
}

impl Offset {
    /// The eight king steps, from the mover's point of view: the bits of [`Offset::unit_mask`].
    pub const UNIT: [Offset; 8] = [
        Offset::new(0, 1),
        Offset::new(0, -1),
        Offset::new(-1, 0),
        Offset::new(1, 0),
        Offset::new(-1, 1),
        Offset::new(1, 1),
        Offset::new(-1, -1),
        Offset::new(1, -1),
    ];

    pub const fn new(dx: i8, dy: i8) -> Offset {
        Offset { dx, dy }
    }

    /// The king steps among `dirs` as bits of [`Offset::UNIT`]; all eight when `dirs` is empty.
    pub fn unit_mask(dirs: &[Offset]) -> u8 {
        if dirs.is_empty() {
            return u8::MAX;
        }
        Offset::UNIT
            .iter()
            .enumerate()
            .filter(|(_, unit)| dirs.contains(unit))
            .fold(0, |mask, (i, _)| mask | 1 << i)
    }

    pub fn scale(self, k: i8) -> Offset {
        Offset::new(self.dx * k, self.dy * k)
    }

    /// Chebyshev (king-step) distance.
    pub fn king_distance(self) -> u8 {
        self.dx.unsigned_abs().max(self.dy.unsigned_abs())
    }

    /// The two directions at right angles.
    pub fn perpendiculars(self) -> [Offset; 2] {
        [Offset::new(-self.dy, self.dx), Offset::new(self.dy, -self.dx)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_print_and_parse() {
        for text in ["1a", "7g", "12l", "19s", "36aj"] {
            assert_eq!(Square::parse(text).unwrap().to_string(), text);
        }
        assert_eq!(Square::parse("0a"), None);
        assert_eq!(Square::parse("5"), None);
        assert_eq!(Square::parse("5A"), None);
    }

    #[test]
    fn black_forward_is_toward_rank_a() {
        let board = BoardSize { files: 9, ranks: 9 };
        let from = Square::parse("5e").unwrap();
        let forward = Offset::new(0, 1);
        assert_eq!(board.offset(Side::Black, from, forward).unwrap().to_string(), "5d");
        assert_eq!(board.offset(Side::White, from, forward).unwrap().to_string(), "5f");
        let right = Offset::new(1, 0);
        assert_eq!(board.offset(Side::Black, from, right).unwrap().to_string(), "4e");
        assert_eq!(board.offset(Side::White, from, right).unwrap().to_string(), "6e");
        assert_eq!(board.offset(Side::Black, Square::parse("1a").unwrap(), forward), None);
    }
}
