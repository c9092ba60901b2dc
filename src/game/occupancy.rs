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

    /// The occupied squares with a neighbour on the board that is not occupied, and some
    /// others: read as bits, a square at one end of a rank has the square at the other end of
    /// the next or the last rank for a neighbour. Every occupied square left out has all its
    /// neighbours on the board occupied. `len` is the number of squares of the board.
    pub fn unenclosed(&self, len: usize) -> Occupancy {
        let (first, end) = (self.files + 1, self.files + 1 + len);
        let mut open = [0; WORDS];
        for (i, slot) in open[..self.used].iter_mut().enumerate() {
            // The board's bits in word `i`: from `first` up to `end`.
            let (lo, hi) = (first.saturating_sub(64 * i).min(64), end.saturating_sub(64 * i).min(64));
            let board = low_mask(hi) & !low_mask(lo);
            *slot = !self.words[i] & board;
        }
        // A square with an open square a file either way, then a rank either way of those.
        let along = |bits: &[u64; WORDS], i: usize, k: usize| {
            let before = if i == 0 { 0 } else { bits[i - 1] };
            bits[i] | bits[i] << k | before >> (64 - k) | bits[i] >> k | bits[i + 1] << (64 - k)
        };
        let mut ranks = [0; WORDS];
        for (i, slot) in ranks[..self.used].iter_mut().enumerate() {
            *slot = along(&open, i, 1);
        }
        let mut out = Occupancy {
            words: [0; WORDS],
            files: self.files,
            used: self.used,
        };
        for i in 0..self.used {
            out.words[i] = self.words[i] & along(&ranks, i, self.files);
        }
        out
    }

    /// The squares occupied in `self` or in `other` (of the same board).
    pub fn union(&self, other: &Occupancy) -> Occupancy {
        let mut out = self.clone();
        for (word, &more) in out.words[..self.used].iter_mut().zip(&other.words) {
            *word |= more;
        }
        out
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

/// The bits below bit `n` (up to 64) of a word.
fn low_mask(n: usize) -> u64 {
    if n >= 64 { !0 } else { (1 << n) - 1 }
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

#[cfg(test)]
mod tests {
    use super::Occupancy;
    use crate::game::board::Sq;
    use crate::game::random::SplitMix64;

    /// Every occupied square that [`Occupancy::unenclosed`] leaves out has all its
    /// neighbours on the board occupied, and it keeps only occupied squares: on boards from
    /// 3 × 3 to 36 × 36, with squares occupied at random densities.
    #[test]
    fn unenclosed_leaves_out_only_squares_whose_neighbours_are_all_occupied() {
        let mut rng = SplitMix64::new(30);
        for (files, ranks) in [(3, 3), (3, 4), (5, 5), (9, 9), (12, 12), (16, 8), (25, 25), (36, 36)] {
            let len = files * ranks;
            for _ in 0..30 {
                let density = rng.next_u64() % 101;
                let occupied: Vec<bool> = (0..len).map(|_| rng.next_u64() % 100 < density).collect();
                let mut occupancy = Occupancy::new(len, files);
                for sq in (0..len).filter(|&i| occupied[i]).map(Sq::new) {
                    occupancy.insert(sq);
                }
                let kept: Vec<Sq> = occupancy.unenclosed(len).squares().collect();
                assert!(kept.iter().all(|sq| occupied[sq.index()]), "{files} x {ranks}");
                for sq in occupancy.squares() {
                    let (rank, file) = ((sq.index() / files) as i32, (sq.index() % files) as i32);
                    let open = (-1..=1)
                        .flat_map(|dr| (-1..=1).map(move |df| (rank + dr, file + df)))
                        .any(|(r, f)| {
                            (0..ranks as i32).contains(&r)
                                && (0..files as i32).contains(&f)
                                && !occupied[r as usize * files + f as usize]
                        });
                    assert!(!open || kept.contains(&sq), "{files} x {ranks}: square {}", sq.index());
                }
            }
        }
    }
}
