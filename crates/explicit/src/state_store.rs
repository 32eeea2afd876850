//! The visited-state table, in one of two layouts chosen by `-x mc.store` ([`StoreKind`]):
//!
//! - `hash` ([`HashStore`]): fixed-width packed states stored back to back in one arena, and a
//!   `hashbrown::HashTable` of (32-bit index, 32-bit hash) pairs (8 bytes of table per state
//!   plus the state itself; no per-state allocation). The stored hash lets a lookup skip the
//!   arena for all but matching hashes and lets the table grow without re-hashing states.
//! - `tree` ([`crate::tree_store::TreeStore`]): LTSmin's tree compression, for when memory is
//!   the bottleneck.
//!
//! Both number states in insertion order, so a search sees the same indices with either.

use crate::tree_store::TreeStore;
use hashbrown::hash_table::Entry;
use hashbrown::HashTable;
use std::borrow::Cow;
use std::hash::Hasher;

/// The layout of the visited-state table (`-x mc.store=hash|tree`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum StoreKind {
    /// Whole states in an arena and a hash table of indices.
    #[default]
    Hash,
    /// LTSmin's tree of pair tables.
    Tree,
}

impl StoreKind {
    /// The name `-x mc.store` takes and the answers show.
    pub fn name(self) -> &'static str {
        match self {
            StoreKind::Hash => "hash",
            StoreKind::Tree => "tree",
        }
    }
}

/// The visited-state table of a search: either layout behind one interface.
pub(crate) enum StateStore {
    Hash(HashStore),
    Tree(TreeStore),
}

impl StateStore {
    pub(crate) fn new(width: usize, kind: StoreKind) -> StateStore {
        match kind {
            StoreKind::Hash => StateStore::Hash(HashStore::new(width)),
            StoreKind::Tree => StateStore::Tree(TreeStore::new(width)),
        }
    }

    pub(crate) fn len(&self) -> usize {
        match self {
            StateStore::Hash(s) => s.len(),
            StateStore::Tree(s) => s.len(),
        }
    }

    /// The state with index `i` (borrowed from the hash table's arena, rebuilt from the tree).
    pub(crate) fn get(&self, i: u32) -> Cow<'_, [u8]> {
        match self {
            StateStore::Hash(s) => Cow::Borrowed(s.get(i)),
            StateStore::Tree(s) => {
                let mut out = Vec::new();
                s.read(i, &mut out);
                Cow::Owned(out)
            }
        }
    }

    /// Writes the state with index `i` into `out` (cleared first; no allocation once `out` has
    /// the width).
    pub(crate) fn read(&self, i: u32, out: &mut Vec<u8>) {
        match self {
            StateStore::Hash(s) => {
                out.clear();
                out.extend_from_slice(s.get(i));
            }
            StateStore::Tree(s) => s.read(i, out),
        }
    }

    /// The index of a stored state.
    pub(crate) fn find(&self, st: &[u8]) -> Option<u32> {
        match self {
            StateStore::Hash(s) => s.find(st),
            StateStore::Tree(s) => s.find(st),
        }
    }

    /// Is the state already stored?
    pub(crate) fn contains(&self, st: &[u8]) -> bool {
        self.find(st).is_some()
    }

    /// Inserts a state; returns its index and whether it was new.
    pub(crate) fn insert(&mut self, st: &[u8]) -> (u32, bool) {
        match self {
            StateStore::Hash(s) => s.insert(st),
            StateStore::Tree(s) => s.insert(st),
        }
    }

    /// Bytes in use.
    pub(crate) fn memory(&self) -> usize {
        match self {
            StateStore::Hash(s) => s.memory(),
            StateStore::Tree(s) => s.memory(),
        }
    }
}

/// Whole states in an arena and a hash table of their indices.
pub(crate) struct HashStore {
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

impl HashStore {
    pub(crate) fn new(width: usize) -> HashStore {
        HashStore {
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
        self.arena.capacity()
            + crate::tree_store::table_bytes(
                self.table.capacity(),
                std::mem::size_of::<(u32, u32)>(),
            )
    }
}
