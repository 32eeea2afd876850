//! The visited-state table: fixed-width packed states stored back to back in one arena, and a
//! `hashbrown::HashTable` of (32-bit index, 32-bit hash) pairs (8 bytes of table per state plus
//! the state itself; no per-state allocation). The stored hash lets a lookup skip the arena for
//! all but matching hashes and lets the table grow without re-hashing states.

use hashbrown::hash_table::Entry;
use hashbrown::HashTable;
use std::hash::Hasher;

pub(crate) struct StateStore {
    width: usize,
    arena: Vec<u8>,
    table: HashTable<(u32, u32)>,
}

/// The 32-bit hash of a state that the table keeps.
#[inline]
fn hash32(bytes: &[u8]) -> u32 {
    let mut h = rustc_hash::FxHasher::default();
    h.write(bytes);
    let x = h.finish();
    let x = x ^ (x >> 29).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (x ^ (x >> 32)) as u32
}

/// The table's 64-bit hash of a stored 32-bit one (hashbrown takes buckets from the low bits and
/// tags from the top 7).
#[inline]
fn spread(h: u32) -> u64 {
    u64::from(h).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ u64::from(h)
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
        let h = hash32(st);
        self.table
            .find(spread(h), |&(i, hi)| {
                let s = i as usize * width;
                hi == h && arena.get(s..s + width).unwrap_or(&[]) == st
            })
            .map(|&(i, _)| i)
    }

    /// Is the state already stored?
    pub(crate) fn contains(&self, st: &[u8]) -> bool {
        self.find(st).is_some()
    }

    /// Inserts a state; returns its index and whether it was new (one probe of the table: a
    /// new state goes into the slot the failed lookup ended in).
    pub(crate) fn insert(&mut self, st: &[u8]) -> (u32, bool) {
        let h = hash32(st);
        let (arena, width) = (&self.arena, self.width);
        let next = self.table.len() as u32;
        let entry = self.table.entry(
            spread(h),
            |&(i, hi)| {
                let s = i as usize * width;
                hi == h && arena.get(s..s + width).unwrap_or(&[]) == st
            },
            |&(_, hj)| spread(hj),
        );
        match entry {
            Entry::Occupied(e) => (e.get().0, false),
            Entry::Vacant(v) => {
                v.insert((next, h));
                self.arena.extend_from_slice(st);
                (next, true)
            }
        }
    }

    /// Bytes in use (arena and table).
    pub(crate) fn memory(&self) -> usize {
        self.arena.capacity() + self.table.capacity() * (std::mem::size_of::<(u32, u32)>() + 1)
    }
}
