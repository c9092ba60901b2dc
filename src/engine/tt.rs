//! The transposition table: a fixed number of slots indexed by the position's hash, one
//! entry each, replaced by depth and age. It never grows.

use crate::game::Move;

/// What a stored score says about the true score.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Bound {
    #[default]
    Exact,
    /// The true score is at least this (a beta cut-off).
    Lower,
    /// The true score is at most this (no move raised alpha).
    Upper,
}

#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Entry {
    pub key: u64,
    pub mv: Option<Move>,
    pub score: i32,
    pub depth: i16,
    pub bound: Bound,
    age: u8,
}

pub(crate) struct Table {
    slots: Vec<Entry>,
    mask: usize,
    age: u8,
}

impl Table {
    /// A table of `2^bits` slots.
    pub fn new(bits: u32) -> Table {
        let len = 1usize << bits.clamp(4, 30);
        Table {
            slots: vec![Entry::default(); len],
            mask: len - 1,
            age: 0,
        }
    }

    /// Called at the start of each search: older entries give way first.
    pub fn new_search(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    pub fn clear(&mut self) {
        self.slots.fill(Entry::default());
    }

    pub fn probe(&self, key: u64) -> Option<Entry> {
        let e = self.slots[(key as usize) & self.mask];
        (e.key == key).then_some(e)
    }

    pub fn store(&mut self, key: u64, mv: Option<Move>, score: i32, depth: i16, bound: Bound) {
        let age = self.age;
        let slot = &mut self.slots[(key as usize) & self.mask];
        let same = slot.key == key;
        if !same && slot.age == age && slot.depth > depth {
            return;
        }
        if same && slot.age == age && slot.depth > depth && bound != Bound::Exact {
            return;
        }
        let mv = if mv.is_none() && same { slot.mv } else { mv };
        *slot = Entry {
            key,
            mv,
            score,
            depth,
            bound,
            age,
        };
    }
}
