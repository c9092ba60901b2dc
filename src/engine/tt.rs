//! The transposition table: a fixed number of slots indexed by the position's hash, one
//! entry each, replaced by depth and age. It never grows. The search threads share it: each
//! slot has its own lock, held only to copy an entry in or out.

use crate::game::Move;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU8, Ordering};

/// The bytes one slot takes (for sizing the table from a memory budget).
pub const SLOT_BYTES: usize = std::mem::size_of::<Mutex<Entry>>();

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
    slots: Vec<Mutex<Entry>>,
    mask: usize,
    age: AtomicU8,
}

impl Table {
    /// A table of `2^bits` slots.
    pub fn new(bits: u32) -> Table {
        // As an allocation that fails does: koma's own sizes are small.
        Table::try_new(bits).expect("memory for the transposition table")
    }

    /// A table of `2^bits` slots, or `None` when the memory cannot be had.
    pub fn try_new(bits: u32) -> Option<Table> {
        let len = 1usize << bits.clamp(4, 30);
        let mut slots = Vec::new();
        slots.try_reserve_exact(len).ok()?;
        slots.extend((0..len).map(|_| Mutex::new(Entry::default())));
        Some(Table {
            slots,
            mask: len - 1,
            age: AtomicU8::new(0),
        })
    }

    /// Called at the start of each search: older entries give way first.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    pub fn clear(&self) {
        for slot in &self.slots {
            *lock(slot) = Entry::default();
        }
    }

    pub fn probe(&self, key: u64) -> Option<Entry> {
        let e = *lock(&self.slots[(key as usize) & self.mask]);
        (e.key == key).then_some(e)
    }

    pub fn store(&self, key: u64, mv: Option<Move>, score: i32, depth: i16, bound: Bound) {
        let age = self.age.load(Ordering::Relaxed);
        let mut slot = lock(&self.slots[(key as usize) & self.mask]);
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

/// A slot's entry, locked. A thread that panicked while holding the lock left a whole entry
/// (entries are copied in one assignment), so the lock's poisoning is ignored.
fn lock(slot: &Mutex<Entry>) -> std::sync::MutexGuard<'_, Entry> {
    slot.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}
