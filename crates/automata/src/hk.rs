//! Hopcroft and Karp's algorithm for NFAs, "On Equivalence Checking of Nondeterministic Finite
//! Automata" (Fu, Deng, Jansen, Zhang, SETTA 2017), Section 3.2 ("HK Algorithm"): a pair is skipped
//! when it is in the reflexive, symmetric and transitive closure `rst(R)`, kept as a disjoint-set
//! forest (union by rank, path halving) over macrostate ids.

use crate::macrostate::SetStore;
use crate::pairs::Relation;

/// HK's relation: `rst(R)` as a disjoint-set forest (run by [`crate::pairs::run`]).
#[derive(Default)]
pub(crate) struct UnionFind {
    parent: Vec<u32>,
    rank: Vec<u8>,
    pairs: usize,
}

impl UnionFind {
    fn grow(&mut self, n: usize) {
        while self.parent.len() < n {
            self.parent.push(self.parent.len() as u32);
            self.rank.push(0);
        }
    }
    fn find(&mut self, mut x: u32) -> u32 {
        while self.parent[x as usize] != x {
            let p = self.parent[x as usize];
            self.parent[x as usize] = self.parent[p as usize];
            x = p;
        }
        x
    }
}

impl Relation for UnionFind {
    fn contains(&mut self, x: u32, y: u32, store: &SetStore<'_>, _: &[(u32, u32)]) -> bool {
        self.grow(store.len());
        self.find(x) == self.find(y)
    }
    fn insert(&mut self, x: u32, y: u32, store: &SetStore<'_>) {
        self.grow(store.len());
        let (rx, ry) = (self.find(x), self.find(y));
        if rx != ry {
            let (hi, lo) = if self.rank[rx as usize] >= self.rank[ry as usize] {
                (rx, ry)
            } else {
                (ry, rx)
            };
            self.parent[lo as usize] = hi;
            if self.rank[hi as usize] == self.rank[lo as usize] {
                self.rank[hi as usize] += 1;
            }
        }
        self.pairs += 1;
    }
    fn size(&self) -> usize {
        self.pairs
    }
}
