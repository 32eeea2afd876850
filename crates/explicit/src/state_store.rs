//! The visited-state table: fixed-width packed states stored back to back in one arena, and a
//! `hashbrown::HashTable` of 32-bit indices into it (4 bytes of table per state plus the state
//! itself; no per-state allocation).

use hashbrown::HashTable;
use std::hash::Hasher;

pub(crate) struct StateStore {
    width: usize,
    arena: Vec<u8>,
    table: HashTable<u32>,
}

#[inline]
fn hash(bytes: &[u8]) -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    h.write(bytes);
    // Spread the FxHash bits (hashbrown uses the top 7 bits as tags).
    let x = h.finish();
    x ^ (x >> 29).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

impl StateStore {
    pub(crate) fn new(width: usize) -> StateStore {
        StateStore {
            width,
            arena: Vec::new(),
            table: HashTable::new(),
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.table.len()
    }

    /// The state with index `i` (states are numbered in insertion order).
    pub(crate) fn get(&self, i: u32) -> &[u8] {
        let s = i as usize * self.width;
        self.arena.get(s..s + self.width).unwrap_or(&[])
    }

    /// The index of a stored state.
    pub(crate) fn find(&self, st: &[u8]) -> Option<u32> {
        let (arena, width) = (&self.arena, self.width);
        self.table
            .find(hash(st), |&i| {
                let s = i as usize * width;
                arena.get(s..s + width).unwrap_or(&[]) == st
            })
            .copied()
    }

    /// Is the state already stored?
    pub(crate) fn contains(&self, st: &[u8]) -> bool {
        self.find(st).is_some()
    }

    /// Inserts a state; returns its index and whether it was new.
    pub(crate) fn insert(&mut self, st: &[u8]) -> (u32, bool) {
        let h = hash(st);
        let (arena, width) = (&self.arena, self.width);
        let at = |i: u32| {
            let s = i as usize * width;
            arena.get(s..s + width).unwrap_or(&[])
        };
        if let Some(&i) = self.table.find(h, |&i| at(i) == st) {
            return (i, false);
        }
        let i = self.table.len() as u32;
        self.arena.extend_from_slice(st);
        let (arena, width) = (&self.arena, self.width);
        self.table.insert_unique(h, i, |&j| {
            let s = j as usize * width;
            hash(arena.get(s..s + width).unwrap_or(&[]))
        });
        (i, true)
    }

    /// Bytes in use (arena and table).
    pub(crate) fn memory(&self) -> usize {
        self.arena.capacity() + self.table.capacity() * (std::mem::size_of::<u32>() + 1)
    }
}
