//! Bisimilarity in `O(m log n)` time by Paige–Tarjan relational coarsest partition refinement
//! ("Three partition refinement algorithms", SIAM J. Comput. 1987 — reference [12] of "On
//! Equivalence Checking of Nondeterministic Finite Automata", SETTA 2017, whose Section 3.5
//! quotients automata by bisimilarity before checking equivalence; the paper uses Valmari's
//! `O(m log n)` algorithm [18], which refines the same way with a different bookkeeping).
//!
//! Two partitions are kept: the fine partition `Q` of states (the answer) and a coarse partition
//! `X` whose classes ("compound blocks") are unions of `Q` blocks, with `Q` stable with respect to
//! every compound block and label. A compound block `S` with at least two `Q` blocks is split by
//! taking out its smaller first block `B` (so each state is moved `O(log n)` times); every `Q`
//! block is then split three ways per label `a`: states with `a`-successors only in `B`, in both
//! `B` and `S∖B`, and the rest. The "both" test uses a counter `|post_a(x) ∩ S|` shared by all the
//! `a`-transitions from `x` into `S`, re-pointed to a new counter for `B` as transitions into `B` are
//! visited — Paige and Tarjan's counting trick. [`crate::bisim`] (signature refinement) computes the
//! same partition and is the test oracle for this module.

use crate::nfa::{Letter, Nfa, State};

/// A refinable partition of `0..n` with marking.
struct Partition {
    elems: Vec<u32>,
    pos: Vec<u32>,
    blk: Vec<u32>,
    start: Vec<u32>,
    end: Vec<u32>,
    marked: Vec<u32>,
    touched: Vec<u32>,
}

impl Partition {
    fn new(n: usize, class: &[u32], nclasses: usize) -> Partition {
        let mut count = vec![0u32; nclasses + 1];
        for &c in class {
            count[c as usize + 1] += 1;
        }
        for i in 0..nclasses {
            count[i + 1] += count[i];
        }
        let start: Vec<u32> = count[..nclasses].to_vec();
        let end: Vec<u32> = count[1..].to_vec();
        let mut fill = start.clone();
        let mut elems = vec![0u32; n];
        let mut pos = vec![0u32; n];
        for (x, &c) in class.iter().enumerate() {
            let p = fill[c as usize];
            elems[p as usize] = x as u32;
            pos[x] = p;
            fill[c as usize] += 1;
        }
        Partition {
            elems,
            pos,
            blk: class.to_vec(),
            start,
            end,
            marked: vec![0; nclasses],
            touched: Vec::new(),
        }
    }
    fn size(&self, b: u32) -> u32 {
        self.end[b as usize] - self.start[b as usize]
    }
    fn mark(&mut self, x: u32) {
        let b = self.blk[x as usize] as usize;
        let i = self.pos[x as usize];
        let m = self.start[b] + self.marked[b];
        if i < m {
            return;
        }
        if self.marked[b] == 0 {
            self.touched.push(b as u32);
        }
        let y = self.elems[m as usize];
        self.elems.swap(i as usize, m as usize);
        self.pos[x as usize] = m;
        self.pos[y as usize] = i;
        self.marked[b] += 1;
    }
    /// Splits every touched block into its marked part (a new block) and the rest; returns
    /// `(old, new)` pairs.
    fn split(&mut self) -> Vec<(u32, u32)> {
        let mut out = Vec::new();
        let touched = std::mem::take(&mut self.touched);
        for b in touched {
            let bu = b as usize;
            let m = self.marked[bu];
            self.marked[bu] = 0;
            if m == self.size(b) {
                continue;
            }
            let nb = self.start.len() as u32;
            let s = self.start[bu];
            self.start.push(s);
            self.end.push(s + m);
            self.marked.push(0);
            self.start[bu] = s + m;
            for i in s..s + m {
                let x = self.elems[i as usize];
                self.blk[x as usize] = nb;
            }
            out.push((b, nb));
        }
        out
    }
}

/// The coarsest bisimulation as a block number per state (blocks numbered `0..k` in order of their
/// smallest state).
pub(crate) fn bisimilarity(a: &Nfa) -> Vec<u32> {
    let n = a.num_states();
    if n == 0 {
        return Vec::new();
    }
    let nl = a.num_letters() as Letter;
    // Transitions, and the incoming ones of each state grouped by label.
    let mut src: Vec<State> = Vec::new();
    let mut lab: Vec<Letter> = Vec::new();
    let mut in_off = vec![0u32; n + 1];
    let mut in_tr: Vec<u32> = Vec::new();
    {
        let mut edges: Vec<(State, Letter, State)> = a.transitions();
        edges.sort_unstable_by_key(|&(s, l, t)| (t, l, s));
        for (i, &(s, l, t)) in edges.iter().enumerate() {
            src.push(s);
            lab.push(l);
            in_off[t as usize + 1] += 1;
            in_tr.push(i as u32);
        }
        for i in 0..n {
            in_off[i + 1] += in_off[i];
        }
    }
    let m = src.len();
    // Counters: initially one per (source, label) = out-degree with that label (the single
    // compound block is all states).
    let mut rec: Vec<u32> = vec![0; m];
    let mut cnt: Vec<u32> = Vec::new();
    {
        let mut by_src: Vec<u32> = (0..m as u32).collect();
        by_src.sort_unstable_by_key(|&t| (src[t as usize], lab[t as usize]));
        let mut prev = None;
        for &t in &by_src {
            let key = (src[t as usize], lab[t as usize]);
            if prev != Some(key) {
                cnt.push(0);
                prev = Some(key);
            }
            let r = (cnt.len() - 1) as u32;
            rec[t as usize] = r;
            cnt[r as usize] += 1;
        }
    }
    // Initial partition: accepting / not, then split by which letters each state can read (stable
    // with respect to the single compound block).
    let class: Vec<u32> = (0..n as State).map(|q| a.is_final(q) as u32).collect();
    let (class, k) = {
        let any0 = class.contains(&0);
        let any1 = class.contains(&1);
        if any0 && any1 {
            (class, 2)
        } else {
            (vec![0; n], 1)
        }
    };
    let mut part = Partition::new(n, &class, k);
    for l in 0..nl {
        for q in 0..n as State {
            if !a.post(q, l).is_empty() {
                part.mark(q);
            }
        }
        part.split();
    }
    // Compound blocks: lists of Q blocks.
    let nblocks = part.start.len();
    let mut compound_of: Vec<u32> = vec![0; nblocks];
    let mut compounds: Vec<Vec<u32>> = vec![(0..nblocks as u32).collect()];
    let mut work: Vec<u32> = if nblocks > 1 { vec![0] } else { Vec::new() };
    let mut in_work: Vec<bool> = vec![nblocks > 1];
    let mut c_b: Vec<u32> = vec![0; n]; // |post_a(x) ∩ B| for the current label
    let mut new_rec: Vec<u32> = vec![u32::MAX; n];
    let mut touched_src: Vec<State> = Vec::new();
    while let Some(s) = work.pop() {
        in_work[s as usize] = false;
        let blocks = &mut compounds[s as usize];
        if blocks.len() < 2 {
            continue;
        }
        // B: the smaller of the first two blocks; take it out of S into a new compound.
        let (b0, b1) = (blocks[0], blocks[1]);
        let (bi, b) = if part.size(b0) <= part.size(b1) {
            (0, b0)
        } else {
            (1, b1)
        };
        blocks.swap_remove(bi);
        if blocks.len() >= 2 {
            work.push(s);
            in_work[s as usize] = true;
        }
        let nc = compounds.len() as u32;
        compounds.push(vec![b]);
        in_work.push(false);
        compound_of[b as usize] = nc;
        // Transitions into B, grouped by label.
        let members: Vec<State> = (part.start[b as usize]..part.end[b as usize])
            .map(|i| part.elems[i as usize])
            .collect();
        let mut into_b: Vec<u32> = Vec::new();
        for &y in &members {
            into_b.extend_from_slice(
                &in_tr[in_off[y as usize] as usize..in_off[y as usize + 1] as usize],
            );
        }
        into_b.sort_unstable_by_key(|&t| lab[t as usize]);
        let mut i = 0;
        while i < into_b.len() {
            let l = lab[into_b[i] as usize];
            let mut j = i;
            while j < into_b.len() && lab[into_b[j] as usize] == l {
                j += 1;
            }
            let group = &into_b[i..j];
            for &t in group {
                let x = src[t as usize];
                if c_b[x as usize] == 0 {
                    touched_src.push(x);
                }
                c_b[x as usize] += 1;
            }
            // Three-way split: only into B, then both B and S∖B.
            let mut rec_s: Vec<(State, u32)> = Vec::with_capacity(touched_src.len());
            for &t in group {
                let x = src[t as usize];
                rec_s.push((x, rec[t as usize]));
            }
            rec_s.sort_unstable();
            rec_s.dedup_by_key(|e| e.0);
            for &(x, r) in &rec_s {
                if c_b[x as usize] == cnt[r as usize] {
                    part.mark(x);
                }
            }
            let mut splits = part.split();
            for &(x, r) in &rec_s {
                if c_b[x as usize] < cnt[r as usize] {
                    part.mark(x);
                }
            }
            splits.extend(part.split());
            for (old, new) in splits {
                let c = compound_of[old as usize];
                compound_of.push(c);
                debug_assert_eq!(compound_of.len() - 1, new as usize);
                compounds[c as usize].push(new);
                if compounds[c as usize].len() >= 2 && !in_work[c as usize] {
                    in_work[c as usize] = true;
                    work.push(c);
                }
            }
            // Re-point the counters of these transitions from (x, a, S) to (x, a, B).
            for &t in group {
                let x = src[t as usize] as usize;
                let old = rec[t as usize];
                cnt[old as usize] -= 1;
                if new_rec[x] == u32::MAX {
                    new_rec[x] = cnt.len() as u32;
                    cnt.push(0);
                }
                rec[t as usize] = new_rec[x];
                cnt[new_rec[x] as usize] += 1;
            }
            for &x in &touched_src {
                c_b[x as usize] = 0;
                new_rec[x as usize] = u32::MAX;
            }
            touched_src.clear();
            i = j;
        }
    }
    // Renumber blocks in order of their smallest state.
    let mut id = vec![u32::MAX; part.start.len()];
    let mut next = 0u32;
    (0..n)
        .map(|q| {
            let b = part.blk[q] as usize;
            if id[b] == u32::MAX {
                id[b] = next;
                next += 1;
            }
            id[b]
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gen::{tabakov_vardi, TvParams};

    /// Same partition as signature refinement (up to block names) on random automata.
    #[test]
    fn agrees_with_signature_refinement() {
        for seed in 0..300 {
            let p = TvParams {
                states: 1 + (seed as usize % 40),
                letters: 1 + (seed as usize % 3),
                density: [0.5, 1.0, 1.5, 2.5][seed as usize % 4],
                final_density: [0.0, 0.3, 0.7, 1.0][(seed as usize / 4) % 4],
                initial: 0,
                seed,
            };
            let a = tabakov_vardi(&p);
            let x = bisimilarity(&a);
            let y = crate::bisim::bisimilarity(&a);
            for i in 0..x.len() {
                for j in 0..x.len() {
                    assert_eq!(x[i] == x[j], y[i] == y[j], "seed {seed}: states {i}, {j}");
                }
            }
        }
    }
}
