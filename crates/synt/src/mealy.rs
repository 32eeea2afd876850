//! Finite-state strategies (Mealy/Moore machines) and their minimisation by partition
//! refinement (Moore's algorithm: states with the same outputs whose successors are equivalent
//! are merged).
//!
//! A machine reads the *uncontrolled* player's letters and answers with the *controlled* player's
//! letter: `table[s][x] = (answer, next state)`, state 0 initial. In a Moore machine the answer
//! does not depend on `x` (the controlled player moved first).

use rustc_hash::FxHashMap;

#[derive(Clone, Debug)]
pub(crate) struct Machine {
    pub(crate) moore: bool,
    pub(crate) table: Vec<Vec<(u32, u32)>>,
}

impl Machine {
    pub(crate) fn states(&self) -> usize {
        self.table.len()
    }

    /// The smallest machine with the same input/output behaviour from state 0.
    pub(crate) fn minimise(&self) -> Machine {
        let n = self.table.len();
        if n <= 1 {
            return self.clone();
        }
        let mut block: Vec<u32> = vec![0; n];
        let mut count = 0usize;
        {
            let mut ids: FxHashMap<Vec<u32>, u32> = FxHashMap::default();
            for (s, row) in self.table.iter().enumerate() {
                let sig: Vec<u32> = row.iter().map(|&(o, _)| o).collect();
                let len = ids.len() as u32;
                block[s] = *ids.entry(sig).or_insert(len);
            }
            count = count.max(ids.len());
        }
        loop {
            let mut ids: FxHashMap<(u32, Vec<u32>), u32> = FxHashMap::default();
            let mut next = vec![0u32; n];
            for (s, row) in self.table.iter().enumerate() {
                let sig: Vec<u32> = row.iter().map(|&(_, t)| block[t as usize]).collect();
                let len = ids.len() as u32;
                next[s] = *ids.entry((block[s], sig)).or_insert(len);
            }
            let new_count = ids.len();
            block = next;
            if new_count == count {
                break;
            }
            count = new_count;
        }
        // Renumber so that the initial state's block is 0 (in order of first appearance).
        let mut order: FxHashMap<u32, u32> = FxHashMap::default();
        order.insert(block[0], 0);
        let mut rep: Vec<usize> = vec![0];
        for (s, &b) in block.iter().enumerate() {
            if let std::collections::hash_map::Entry::Vacant(e) = order.entry(b) {
                e.insert(rep.len() as u32);
                rep.push(s);
            }
        }
        let table = rep
            .iter()
            .map(|&s| {
                self.table[s]
                    .iter()
                    .map(|&(o, t)| (o, order.get(&block[t as usize]).copied().unwrap_or(0)))
                    .collect()
            })
            .collect();
        Machine {
            moore: self.moore,
            table,
        }
    }
}
