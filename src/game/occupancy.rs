//! The squares one side occupies, as bits: move generation visits a side's pieces in square
//! order without reading the empty squares, and reads which neighbours of a square the side
//! holds in three word reads.

use super::board::Sq;
use crate::rules::MAX_BOARD_SIDE;

/// The most squares a board has.
const MAX_SQUARES: usize = MAX_BOARD_SIDE as usize * MAX_BOARD_SIDE as usize;

/// Words enough for the largest board with its padding, and one to read past the end.
const WORDS: usize = (MAX_SQUARES + 2 * (MAX_BOARD_SIDE as usize + 1)).div_ceil(64) + 1;

/// The bit of square `sq` on a board of `files` files.
#[inline(always)]
pub(crate) fn square_bit(sq: Sq, files: usize) -> usize {
    sq.index() + files + 1
}

/// Whether every square of a board of `len` squares, `files` to a rank, is among the first
/// 128 bits ([`Occupancy::low_bits`]).
pub(crate) fn fits_low_bits(len: usize, files: usize) -> bool {
    // The last square's bit, `len - 1 + files + 1`, below 128.
    len + files < 128
}

/// One side's occupied squares. Square `sq` is bit `sq + pad`, with `pad` one row and one
/// square of clear bits before the board (and as many after it), so that the three rows
/// around any square read as plain bit windows.
#[derive(Debug, Clone)]
pub(crate) struct Occupancy {
    words: [u64; WORDS],
    files: usize,
    /// Words holding a square of the board.
    used: usize,
}

impl Occupancy {
    /// No square occupied on a board of `len` squares, `files` to a rank.
    pub fn new(len: usize, files: usize) -> Occupancy {
        Occupancy {
            words: [0; WORDS],
            files,
            used: (len + files + 1).div_ceil(64),
        }
    }

    fn bit(&self, sq: Sq) -> usize {
        square_bit(sq, self.files)
    }

    /// The first 128 bits: every square of a board with [`fits_low_bits`].
    #[inline(always)]
    pub fn low_bits(&self) -> u128 {
        u128::from(self.words[0]) | u128::from(self.words[1]) << 64
    }

    #[inline]
    pub fn insert(&mut self, sq: Sq) {
        let bit = self.bit(sq);
        self.words[bit / 64] |= 1 << (bit % 64);
    }

    #[inline]
    pub fn remove(&mut self, sq: Sq) {
        let bit = self.bit(sq);
        self.words[bit / 64] &= !(1 << (bit % 64));
    }

    /// How many squares are occupied.
    #[inline]
    pub fn count(&self) -> usize {
        self.words[..self.used].iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The occupied squares, in ascending order.
    #[inline]
    pub fn squares(&self) -> Squares<'_> {
        Squares {
            words: &self.words[..self.used],
            word: 0,
            bits: self.words[0],
            pad: self.files + 1,
        }
    }

    /// The occupied neighbours of `sq` (and `sq` itself), as the bits of
    /// [`MoveTables::neighbourhoods`](super::tables::MoveTables::neighbourhoods): the square
    /// at index `sq + dr * files + dc` is bit `(dr + 1) * 3 + dc + 1`. Squares off the
    /// board may read as occupied; mask them with the neighbourhood.
    #[inline(always)]
    pub fn neighbours(&self, sq: Sq) -> u16 {
        let centre = self.bit(sq);
        let row = |first: usize| -> u16 {
            let (word, shift) = (first / 64, first % 64);
            let mut bits = self.words[word] >> shift;
            if shift > 61 {
                bits |= self.words[word + 1] << (64 - shift);
            }
            (bits & 7) as u16
        };
        row(centre - self.files - 1) | row(centre - 1) << 3 | row(centre + self.files - 1) << 6
    }
}

/// The squares of an [`Occupancy`], in ascending order.
pub(crate) struct Squares<'a> {
    words: &'a [u64],
    /// The index of the word `bits` is left of.
    word: usize,
    bits: u64,
    pad: usize,
}

impl Iterator for Squares<'_> {
    type Item = Sq;

    #[inline]
    fn next(&mut self) -> Option<Sq> {
        while self.bits == 0 {
            self.word += 1;
            self.bits = *self.words.get(self.word)?;
        }
        let bit = self.bits.trailing_zeros() as usize;
        self.bits &= self.bits - 1;
        Some(Sq::new(self.word * 64 + bit - self.pad))
    }
}
