//! Tree compression of the visited-state table, after LTSmin: Blom, Lisser, van de Pol, Weber,
//! "A database approach to distributed state-space generation" (J. Logic Comput. 2009, §4, the
//! tree database), and Laarman, van de Pol, Weber, "Parallel recursive state compression for
//! free" (SPIN 2011, §3, the binary tree of tables).
//!
//! A packed state is read as a vector of 32-bit words (little-endian, the last one padded with
//! zeros). The vector is split recursively into halves: every inner node of that fixed binary
//! tree has its own table of distinct pairs `(left, right)`, where a child covering one word is
//! the word's value and a child covering more is an index into the child node's table. A state is
//! its root pair; the root table numbers its pairs in insertion order, so a state's index is the
//! same as [`crate::state_store`]'s hash table gives it. Sub-vectors that many states share
//! (the variables a transition did not touch) are stored once, so a state costs about one root
//! entry (8 bytes of pair, 4 of index, 1 of control byte) plus the new pairs its changed parts
//! add below the root.
//!
//! Each table is a dense vector of pairs (the index of a pair is its position) and a
//! `hashbrown::HashTable` of indices into it. Insertion inserts the whole tree bottom-up (no
//! incremental insertion from the predecessor's tree, which the second paper adds).

use hashbrown::hash_table::Entry;
use hashbrown::HashTable;

/// The distinct pairs of one tree node, numbered in insertion order.
#[derive(Default)]
struct PairTable {
    pairs: Vec<u64>,
    index: HashTable<u32>,
}

/// Mixes a pair into a table hash (murmur3's 64-bit finaliser: hashbrown takes the bucket from
/// the low bits and the tag from the top 7).
#[inline]
fn mix(p: u64) -> u64 {
    let mut x = p ^ (p >> 33);
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}

#[inline]
fn pair(l: u32, r: u32) -> u64 {
    u64::from(l) | (u64::from(r) << 32)
}

impl PairTable {
    /// The index of `p`, inserted if new; and whether it was new.
    fn insert(&mut self, p: u64) -> (u32, bool) {
        let PairTable { pairs, index } = self;
        let at = |i: u32| pairs.get(i as usize).copied();
        match index.entry(mix(p), |&i| at(i) == Some(p), |&i| mix(at(i).unwrap_or(0))) {
            Entry::Occupied(e) => (*e.get(), false),
            Entry::Vacant(v) => {
                let i = pairs.len() as u32;
                v.insert(i);
                pairs.push(p);
                (i, true)
            }
        }
    }

    fn find(&self, p: u64) -> Option<u32> {
        let at = |i: u32| self.pairs.get(i as usize).copied();
        self.index.find(mix(p), |&i| at(i) == Some(p)).copied()
    }

    fn get(&self, i: u32) -> (u32, u32) {
        let p = self.pairs.get(i as usize).copied().unwrap_or(0);
        (p as u32, (p >> 32) as u32)
    }

    fn memory(&self) -> usize {
        self.pairs.capacity() * 8 + table_bytes(self.index.capacity(), std::mem::size_of::<u32>())
    }
}

/// The bytes of a `hashbrown` table (this store's and [`crate::state_store`]'s) that holds up to
/// `capacity` entries of `entry` bytes: its buckets (a power of two, filled to at most 7/8 once
/// there are 8 or more) and one control byte per bucket. `capacity` counts entries, not buckets.
pub(crate) fn table_bytes(capacity: usize, entry: usize) -> usize {
    if capacity == 0 {
        return 0;
    }
    (capacity * 8).div_ceil(7).next_power_of_two() * (entry + 1)
}

/// A child of a tree node: one word of the vector (its value is stored in the pair) or an
/// inner node (an index into that node's table is stored).
#[derive(Clone, Copy, Debug)]
enum Child {
    Word(usize),
    Node(usize),
}

#[derive(Clone, Copy, Debug)]
struct Node {
    left: Child,
    right: Child,
}

/// The tree-compressed visited-state table (same interface as the hash table of
/// [`crate::state_store`]).
pub(crate) struct TreeStore {
    width: usize,
    /// The fixed tree in preorder: `nodes[0]` is the root.
    nodes: Vec<Node>,
    /// One table per node of `nodes`.
    tables: Vec<PairTable>,
}

/// Appends to `nodes` the subtree over words `lo..lo + len` (`len >= 2`) and returns its node.
fn layout(nodes: &mut Vec<Node>, lo: usize, len: usize) -> usize {
    let me = nodes.len();
    nodes.push(Node {
        left: Child::Word(lo),
        right: Child::Word(lo),
    });
    let half = len.div_ceil(2);
    let mut side = |lo: usize, len: usize| {
        if len == 1 {
            Child::Word(lo)
        } else {
            Child::Node(layout(nodes, lo, len))
        }
    };
    let left = side(lo, half);
    let right = side(lo + half, len - half);
    if let Some(n) = nodes.get_mut(me) {
        *n = Node { left, right };
    }
    me
}

/// Word `k` of a packed state (little-endian, zero past the end).
#[inline]
fn word(st: &[u8], k: usize) -> u32 {
    let mut b = [0u8; 4];
    for (d, s) in b.iter_mut().zip(st.iter().skip(4 * k)) {
        *d = *s;
    }
    u32::from_le_bytes(b)
}

impl TreeStore {
    pub(crate) fn new(width: usize) -> TreeStore {
        // At least two words, so that the root is a pair.
        let words = width.div_ceil(4).max(2);
        let mut nodes = Vec::with_capacity(words - 1);
        layout(&mut nodes, 0, words);
        let tables = nodes.iter().map(|_| PairTable::default()).collect();
        TreeStore {
            width,
            nodes,
            tables,
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.tables.first().map_or(0, |t| t.pairs.len())
    }

    /// The value a child stands for: a word or the index of its sub-vector (inserted).
    fn put(&mut self, c: Child, st: &[u8]) -> u32 {
        match c {
            Child::Word(k) => word(st, k),
            Child::Node(n) => self.put_node(n, st).0,
        }
    }

    fn put_node(&mut self, n: usize, st: &[u8]) -> (u32, bool) {
        let Some(&Node { left, right }) = self.nodes.get(n) else {
            return (0, false);
        };
        let l = self.put(left, st);
        let r = self.put(right, st);
        match self.tables.get_mut(n) {
            Some(t) => t.insert(pair(l, r)),
            None => (0, false),
        }
    }

    /// Inserts a state; returns its index and whether it was new.
    pub(crate) fn insert(&mut self, st: &[u8]) -> (u32, bool) {
        self.put_node(0, st)
    }

    fn find_child(&self, c: Child, st: &[u8]) -> Option<u32> {
        match c {
            Child::Word(k) => Some(word(st, k)),
            Child::Node(n) => self.find_node(n, st),
        }
    }

    fn find_node(&self, n: usize, st: &[u8]) -> Option<u32> {
        let node = self.nodes.get(n)?;
        let l = self.find_child(node.left, st)?;
        let r = self.find_child(node.right, st)?;
        self.tables.get(n)?.find(pair(l, r))
    }

    /// The index of a stored state.
    pub(crate) fn find(&self, st: &[u8]) -> Option<u32> {
        if st.len() != self.width {
            return None;
        }
        self.find_node(0, st)
    }

    fn fill_child(&self, c: Child, v: u32, out: &mut [u8]) {
        match c {
            Child::Word(k) => {
                for (d, s) in out.iter_mut().skip(4 * k).zip(v.to_le_bytes()) {
                    *d = s;
                }
            }
            Child::Node(n) => self.fill_node(n, v, out),
        }
    }

    fn fill_node(&self, n: usize, i: u32, out: &mut [u8]) {
        if let (Some(node), Some(t)) = (self.nodes.get(n), self.tables.get(n)) {
            let (l, r) = t.get(i);
            self.fill_child(node.left, l, out);
            self.fill_child(node.right, r, out);
        }
    }

    /// Writes the state with index `i` into `out` (cleared first).
    pub(crate) fn read(&self, i: u32, out: &mut Vec<u8>) {
        out.clear();
        if (i as usize) < self.len() {
            out.resize(self.width, 0);
            self.fill_node(0, i, out);
        }
    }

    /// Bytes in use (every node's pairs and index).
    pub(crate) fn memory(&self) -> usize {
        self.tables.iter().map(PairTable::memory).sum::<usize>()
            + self.tables.capacity() * std::mem::size_of::<PairTable>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state_store::HashStore;
    use proptest::prelude::*;

    #[test]
    fn table_bytes_counts_buckets_not_entries() {
        // hashbrown: 4 or 8 buckets below 8 entries, else a power of two filled to 7/8.
        for (want, buckets) in [(1, 4), (5, 8), (14, 16), (100, 128), (1000, 2048)] {
            let t: HashTable<u64> = HashTable::with_capacity(want);
            assert_eq!(table_bytes(t.capacity(), 8), buckets * 9, "{want}");
        }
        assert_eq!(table_bytes(0, 8), 0);
    }

    /// States of a random width (1–3 bytes included, odd widths) over a small alphabet, so that
    /// duplicates and shared halves are frequent.
    fn states() -> impl Strategy<Value = (usize, Vec<Vec<u8>>, Vec<Vec<u8>>)> {
        (1usize..40).prop_flat_map(|w| {
            let st = proptest::collection::vec(
                prop_oneof![Just(0u8), Just(1), Just(255), any::<u8>()],
                w,
            );
            (
                Just(w),
                proptest::collection::vec(st.clone(), 0..200),
                proptest::collection::vec(st, 0..20),
            )
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]
        #[test]
        fn tree_store_agrees_with_the_hash_store((w, ins, probes) in states()) {
            let (mut h, mut t) = (HashStore::new(w), TreeStore::new(w));
            for s in &ins {
                prop_assert_eq!(t.insert(s), h.insert(s));
            }
            prop_assert_eq!(t.len(), h.len());
            let mut out = Vec::new();
            for i in 0..=h.len() as u32 {
                t.read(i, &mut out);
                prop_assert_eq!(&out[..], h.get(i));
            }
            for s in ins.iter().chain(&probes) {
                prop_assert_eq!(t.find(s), h.find(s));
            }
            // A state of another width is never found.
            prop_assert_eq!(t.find(&vec![0; w + 1]), None);
        }
    }

    #[test]
    fn layout_covers_every_word_once() {
        for words in 2..40 {
            let mut nodes = Vec::new();
            layout(&mut nodes, 0, words);
            assert_eq!(nodes.len(), words - 1);
            let mut seen: Vec<usize> = nodes
                .iter()
                .flat_map(|n| [n.left, n.right])
                .filter_map(|c| match c {
                    Child::Word(k) => Some(k),
                    Child::Node(_) => None,
                })
                .collect();
            seen.sort_unstable();
            assert_eq!(seen, (0..words).collect::<Vec<_>>());
        }
    }

    #[test]
    fn shared_halves_are_stored_once() {
        // 16-byte states that differ only in their first word: the right half is one pair.
        let mut t = TreeStore::new(16);
        for x in 0u8..100 {
            let mut st = [7u8; 16];
            st[0] = x;
            assert_eq!(t.insert(&st), (u32::from(x), true));
        }
        assert_eq!(t.len(), 100);
        // Root, left half (100 pairs) and right half (1 pair).
        let sizes: Vec<usize> = t.tables.iter().map(|t| t.pairs.len()).collect();
        assert_eq!(sizes, vec![100, 100, 1]);
        let mut out = Vec::new();
        t.read(42, &mut out);
        assert_eq!(out.first(), Some(&42));
        assert_eq!(out.get(1..), Some(&[7u8; 15][..]));
        assert_eq!(t.find(&out), Some(42));
        t.read(100, &mut out);
        assert!(out.is_empty());
    }
}
