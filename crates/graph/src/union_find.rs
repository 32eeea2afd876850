//! Disjoint sets with path halving: the union–find structure of Tarjan, "Efficiency of a good but
//! not linear set union algorithm" (JACM 22(2), 1975), as Tarjan and van Leeuwen's "Worst-case
//! analysis of set union algorithms" (JACM 31(2), 1984) name the halving variant. Callers choose
//! which root survives a union (the representative of the merged set), because several of them
//! name things after it.

/// Disjoint sets over `0..len()`.
#[derive(Clone, Debug, Default)]
pub struct UnionFind {
    parent: Vec<usize>,
}

impl UnionFind {
    /// `n` singleton sets.
    pub fn new(n: usize) -> UnionFind {
        UnionFind {
            parent: (0..n).collect(),
        }
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.parent.len()
    }

    /// Whether there are no elements.
    pub fn is_empty(&self) -> bool {
        self.parent.is_empty()
    }

    /// Adds a singleton set and returns its element.
    pub fn push(&mut self) -> usize {
        self.parent.push(self.parent.len());
        self.parent.len() - 1
    }

    /// The representative of `x`'s set (`x` itself when it is out of range).
    pub fn find(&mut self, mut x: usize) -> usize {
        while let Some(&p) = self.parent.get(x) {
            if p == x {
                break;
            }
            let grandparent = self.parent.get(p).copied().unwrap_or(p);
            if let Some(slot) = self.parent.get_mut(x) {
                *slot = grandparent;
            }
            x = p;
        }
        x
    }

    /// Merges the sets of `keep` and `merge`; the representative of `keep`'s set represents the
    /// union. Returns both former representatives `(keep's, merge's)` when the sets were
    /// different, `None` when they were one set already.
    pub fn union(&mut self, keep: usize, merge: usize) -> Option<(usize, usize)> {
        let (a, b) = (self.find(keep), self.find(merge));
        if a == b {
            return None;
        }
        let slot = self.parent.get_mut(b)?;
        *slot = a;
        Some((a, b))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Same set after any unions exactly when the undirected graph of the unions connects
        /// the two elements (brute force: label propagation to a fixed point).
        #[test]
        fn sets_are_the_connected_components(
            n in 1usize..12,
            unions in proptest::collection::vec((0usize..12, 0usize..12), 0..20),
        ) {
            let mut uf = UnionFind::new(n);
            let mut label: Vec<usize> = (0..n).collect();
            for &(a, b) in &unions {
                let (a, b) = (a % n, b % n);
                let before = uf.find(a);
                let merged = uf.union(a, b);
                prop_assert_eq!(merged.is_some(), label[a] != label[b]);
                prop_assert_eq!(uf.find(b), before);
                let (la, lb) = (label[a], label[b]);
                for l in label.iter_mut() {
                    if *l == lb {
                        *l = la;
                    }
                }
            }
            for x in 0..n {
                for y in 0..n {
                    prop_assert_eq!(uf.find(x) == uf.find(y), label[x] == label[y]);
                }
            }
        }
    }

    #[test]
    fn push_and_out_of_range() {
        let mut uf = UnionFind::default();
        assert!(uf.is_empty());
        let (a, b) = (uf.push(), uf.push());
        assert_eq!((a, b, uf.len()), (0, 1, 2));
        assert_eq!(uf.union(b, a), Some((1, 0)));
        assert_eq!(uf.find(a), 1);
        assert_eq!(uf.union(a, b), None);
        assert_eq!(uf.find(7), 7);
    }
}
