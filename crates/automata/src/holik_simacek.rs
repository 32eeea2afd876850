//! The simulation preorder by the partition–relation algorithm of Holík and Šimáček, "Optimizing an
//! LTS-simulation algorithm" (Computing and Informatics 29(6), 2010; MEMICS 2009): LRT (the
//! labelled version of Henzinger, Henzinger and Kopke's algorithm, Abdulla, Bouajjani, Holík, Kaati,
//! Vojnar, TACAS 2008) run on a partition–relation pair in the style of Ranzato and Tapparo
//! (LICS 2007). "On Equivalence Checking of Nondeterministic Finite Automata" (Fu, Deng, Jansen,
//! Zhang, SETTA 2017) computes similarity "according to [8]" — this algorithm (Section 4) — for the
//! saturation of Section 3.5 ([`crate::saturation`]) and the antichains with simulation subsumption
//! of Section 3.6 ([`crate::antichain_sim`]); similarity is its Definition 1 (Section 2).
//!
//! The over-approximation of `≾` is a pair `(P, Rel)`: a partition `P` of the states into blocks of
//! (so far) simulation-equivalent states and a reflexive relation `Rel ⊆ P × P` (`D ∈ Rel(C)`: the
//! states of `D` may simulate those of `C`). It starts from the blocks of states with the same
//! acceptance and the same outgoing letters, `D ∈ Rel(C)` iff `C` accepting ⇒ `D` accepting and `D`
//! reads every letter `C` reads. For each block `C` and letter `a` entering `C`:
//! * `Count_a(v, C) = |post_a(v) ∩ ⋃Rel(C)|` for every state `v` with an `a`-successor;
//! * `Remove_a(C)`: the states whose counter dropped to zero (no `a`-successor can simulate one of
//!   `C`'s states any more).
//!
//! Processing `Remove_a(B)`: split `P` so that `Remove` is a union of blocks (a new block inherits
//! its parent's row and column of `Rel`, its counters and its pending `Remove` sets); then for every
//! block `C` holding an `a`-predecessor of `B`, remove each block `D ⊆ Remove` from `Rel(C)` and,
//! for every letter `b` entering both `D` and `C`, decrement `Count_b(v, C)` for each
//! `b`-predecessor `v` of each state of `D`. A pair of blocks is removed at most once, so the
//! counter updates cost `O(|P_sim|·|δ|)` instead of LRT's `O(n·|δ|)` ([`crate::lrt`]).
//!
//! As in Holík and Šimáček, counters are kept only for the letters entering a block, and a new
//! block shares its parent's counter rows copy-on-write (rows are cut into chunks of about
//! `√n/2` counters, and a chunk is copied only when one side writes to it). Memory is checked as it
//! is allocated: above the budget [`simulation_within`] returns [`AutomataError::Limit`].

use crate::error::AutomataError;
use crate::nfa::{Letter, Nfa, State};
use crate::simulation::Simulation;
use fixedbitset::FixedBitSet;
use rustc_hash::FxHashMap;
use std::rc::Rc;

/// One counter row `Count_a(·, C)` over `dom_a`, in shared chunks.
#[derive(Clone)]
struct Row {
    chunks: Vec<Rc<Vec<u32>>>,
}

struct Engine<'a> {
    a: &'a Nfa,
    /// `dom[a]`: the states with an `a`-successor; `didx[a][v]`: `v`'s position in it.
    didx: Vec<Vec<u32>>,
    dom_len: Vec<usize>,
    chunk: usize,
    block_of: Vec<u32>,
    members: Vec<Vec<State>>,
    /// `rel[C]`: the blocks `D ∈ Rel(C)`, as bits over block ids (capacity `n`).
    rel: Vec<FixedBitSet>,
    /// The transpose: `col[D]` = the blocks `C` with `D ∈ Rel(C)`.
    col: Vec<FixedBitSet>,
    /// Scratch: states of the Remove set being processed, and how many fall in each block.
    in_remove: FixedBitSet,
    hits: Vec<u32>,
    /// Letters entering each block (sorted), with the block's counter row for each.
    counters: Vec<Vec<(Letter, Row)>>,
    remove: FxHashMap<(u32, Letter), Vec<State>>,
    queue: Vec<(u32, Letter)>,
    bytes: usize,
    budget: usize,
}

impl<'a> Engine<'a> {
    fn n(&self) -> usize {
        self.a.num_states()
    }

    /// Letters entering the states of `members`, sorted.
    fn inset(&self, members: &[State]) -> Vec<Letter> {
        let mut seen = FixedBitSet::with_capacity(self.a.num_letters());
        for &q in members {
            for (l, _) in self.a.backward().out(q) {
                seen.insert(l as usize);
            }
        }
        seen.ones().map(|l| l as Letter).collect()
    }

    fn charge(&mut self, bytes: usize) -> Result<(), AutomataError> {
        self.bytes = self.bytes.saturating_add(bytes);
        crate::simulation::within_memory(self.n(), self.bytes, self.budget)
    }

    fn enqueue(&mut self, c: u32, l: Letter, v: State) {
        let e = self.remove.entry((c, l)).or_default();
        if e.is_empty() {
            self.queue.push((c, l));
        }
        e.push(v);
    }

    /// Splits `P` so that `remove` is a union of blocks; returns the blocks inside `remove`.
    fn split(&mut self, remove: &[State]) -> Result<FixedBitSet, AutomataError> {
        let mut hits = std::mem::take(&mut self.hits);
        let mut touched = Vec::new();
        for &v in remove {
            let b = self.block_of[v as usize];
            let h = &mut hits[b as usize];
            if *h == 0 {
                touched.push(b);
            }
            *h += 1;
        }
        let mut inside = Vec::new();
        let mut in_remove = std::mem::take(&mut self.in_remove);
        for &v in remove {
            in_remove.insert(v as usize);
        }
        for x in touched {
            let h = std::mem::take(&mut hits[x as usize]);
            if h as usize == self.members[x as usize].len() {
                inside.push(x);
                continue;
            }
            // Split: the states of x in `remove` form the new block x2.
            let x2 = self.members.len() as u32;
            let (moved, kept): (Vec<State>, Vec<State>) = self.members[x as usize]
                .iter()
                .partition(|&&q| in_remove.contains(q as usize));
            for &q in &moved {
                self.block_of[q as usize] = x2;
            }
            let n = self.n();
            self.charge(n / 4 + 16)?;
            // x2 inherits x's row and column (and so relates to x and itself both ways).
            let row = self.rel[x as usize].clone();
            let column = self.col[x as usize].clone();
            for d in row.ones() {
                self.col[d].insert(x2 as usize);
            }
            for c in column.ones() {
                self.rel[c].insert(x2 as usize);
            }
            self.rel.push(row);
            self.col.push(column);
            self.rel[x2 as usize].insert(x2 as usize);
            self.col[x2 as usize].insert(x2 as usize);
            self.rel[x2 as usize].insert(x as usize);
            self.col[x as usize].insert(x2 as usize);
            let in_new = self.inset(&moved);
            let in_old = self.inset(&kept);
            let parent = std::mem::take(&mut self.counters[x as usize]);
            let mut new_rows = Vec::with_capacity(in_new.len());
            let mut old_rows = Vec::with_capacity(in_old.len());
            for (l, row) in parent {
                if in_new.binary_search(&l).is_ok() {
                    new_rows.push((l, row.clone()));
                    if let Some(pending) = self.remove.get(&(x, l)) {
                        if !pending.is_empty() {
                            let copy = pending.clone();
                            self.remove.insert((x2, l), copy);
                            self.queue.push((x2, l));
                        }
                    }
                }
                if in_old.binary_search(&l).is_ok() {
                    old_rows.push((l, row));
                } else {
                    self.remove.remove(&(x, l));
                }
            }
            self.counters[x as usize] = old_rows;
            self.counters.push(new_rows);
            self.members[x as usize] = kept;
            self.members.push(moved);
            inside.push(x2);
        }
        for &v in remove {
            in_remove.set(v as usize, false);
        }
        self.in_remove = in_remove;
        self.hits = hits;
        let mut mask = FixedBitSet::with_capacity(self.members.len());
        for b in inside {
            mask.insert(b as usize);
        }
        Ok(mask)
    }

    fn process(&mut self, b: u32, l: Letter) -> Result<(), AutomataError> {
        let Some(remove) = self.remove.remove(&(b, l)) else {
            return Ok(());
        };
        if remove.is_empty() {
            return Ok(());
        }
        // Blocks holding an `l`-predecessor of B (before the split: the parts split off lie in
        // `remove`, which holds no `l`-predecessor of B).
        let mut seen = FixedBitSet::with_capacity(self.members.len());
        let mut pre_blocks = Vec::new();
        for &u2 in &self.members[b as usize] {
            for &u in self.a.pre(u2, l) {
                let c = self.block_of[u as usize];
                if !seen.put(c as usize) {
                    pre_blocks.push(c);
                }
            }
        }
        let mask = self.split(&remove)?;
        let mut cols: Vec<usize> = Vec::new();
        let mut zeros: Vec<State> = Vec::new();
        for c in pre_blocks {
            let c = c as usize;
            cols.clear();
            cols.extend(self.rel[c].intersection(&mask));
            for &d in &cols {
                self.rel[c].set(d, false);
                self.col[d].set(c, false);
                // For each letter entering both D and C (a merge of the two sorted lists), the
                // predecessors of D's states lose successors in ⋃Rel(C).
                let (mut i, mut k) = (0usize, 0usize);
                while let (Some(&(ld, _)), Some(&(lc, _))) =
                    (self.counters[d].get(i), self.counters[c].get(k))
                {
                    if ld < lc {
                        i += 1;
                        continue;
                    }
                    if lc < ld {
                        k += 1;
                        continue;
                    }
                    let l2 = ld;
                    zeros.clear();
                    let mut copied = 0usize;
                    {
                        let chunk = self.chunk;
                        let didx = &self.didx[l2 as usize];
                        let row = &mut self.counters[c][k].1;
                        for &w in &self.members[d] {
                            for &v in self.a.pre(w, l2) {
                                let at = didx[v as usize] as usize;
                                let ch = &mut row.chunks[at / chunk];
                                if Rc::strong_count(ch) > 1 {
                                    copied += 1;
                                }
                                let cell = &mut Rc::make_mut(ch)[at % chunk];
                                *cell -= 1;
                                if *cell == 0 {
                                    zeros.push(v);
                                }
                            }
                        }
                    }
                    if copied > 0 {
                        self.charge(copied * (self.chunk * 4 + 16))?;
                    }
                    for &v in &zeros {
                        self.enqueue(c as u32, l2, v);
                    }
                    i += 1;
                    k += 1;
                }
            }
        }
        Ok(())
    }
}

/// The simulation preorder of `a` within a memory budget of `budget` bytes
/// ([`AutomataError::Limit`] above it), polling `poll` (deadline, cancellation) in the refinement
/// loop.
pub(crate) fn simulation_within(
    a: &Nfa,
    budget: usize,
    poll: &verikit_diag::Budget,
) -> Result<Simulation, AutomataError> {
    let mut ticker = poll.ticker(64);
    let n = a.num_states();
    let nl = a.num_letters();
    if n == 0 {
        return Ok(Simulation::from_rows(Vec::new()));
    }
    let maps = nl.saturating_mul(n).saturating_mul(4);
    let rel_bytes = crate::simulation::relation_bytes(n);
    crate::simulation::within_memory(n, maps.saturating_add(2 * rel_bytes), budget)?;
    // dom_a and positions.
    let mut didx = vec![vec![u32::MAX; n]; nl];
    let mut dom: Vec<Vec<State>> = vec![Vec::new(); nl];
    for q in 0..n as State {
        for (l, _) in a.forward().out(q) {
            didx[l as usize][q as usize] = dom[l as usize].len() as u32;
            dom[l as usize].push(q);
        }
    }
    let dom_len: Vec<usize> = dom.iter().map(Vec::len).collect();
    // Initial partition: same acceptance and same outgoing letters.
    let mut reads_of: Vec<FixedBitSet> = Vec::new();
    let mut final_of: Vec<bool> = Vec::new();
    let mut key: FxHashMap<(bool, Vec<Letter>), u32> = FxHashMap::default();
    let mut block_of = vec![0u32; n];
    let mut members: Vec<Vec<State>> = Vec::new();
    for q in 0..n as State {
        let letters: Vec<Letter> = a.forward().out(q).map(|(l, _)| l).collect();
        let fin = a.is_final(q);
        let next = members.len() as u32;
        let b = *key.entry((fin, letters.clone())).or_insert(next);
        if b == next {
            members.push(Vec::new());
            let mut r = FixedBitSet::with_capacity(nl);
            letters.iter().for_each(|&l| r.insert(l as usize));
            reads_of.push(r);
            final_of.push(fin);
        }
        block_of[q as usize] = b;
        members[b as usize].push(q);
    }
    let k = members.len();
    let rel: Vec<FixedBitSet> = (0..k)
        .map(|c| {
            let mut r = FixedBitSet::with_capacity(n);
            for d in 0..k {
                if (!final_of[c] || final_of[d]) && reads_of[c].is_subset(&reads_of[d]) {
                    r.insert(d);
                }
            }
            r
        })
        .collect();
    let chunk = {
        let t = ((n as f64).sqrt() as usize) >> 1;
        let mut s = 32usize;
        while s <= t {
            s <<= 1;
        }
        s
    };
    let mut col: Vec<FixedBitSet> = (0..k).map(|_| FixedBitSet::with_capacity(n)).collect();
    for (c, r) in rel.iter().enumerate() {
        for d in r.ones() {
            col[d].insert(c);
        }
    }
    let mut e = Engine {
        a,
        didx,
        dom_len,
        chunk,
        block_of,
        members,
        rel,
        col,
        in_remove: FixedBitSet::with_capacity(n),
        hits: vec![0; n],
        counters: Vec::new(),
        remove: {
            let mut m = FxHashMap::default();
            m.reserve(2 * n);
            m
        },
        queue: Vec::new(),
        bytes: maps.saturating_add(2 * rel_bytes),
        budget,
    };
    // Initial counters and Remove sets: Count_l(v, C) = |post_l(v) ∩ ⋃Rel(C)|.
    for c in 0..k {
        let letters = e.inset(&e.members[c]);
        let mut rows = Vec::with_capacity(letters.len());
        for l in letters {
            let len = e.dom_len[l as usize];
            e.charge(len * 4 + 16 * len.div_ceil(chunk))?;
            let mut flat = vec![0u32; len];
            let mut zeros = Vec::new();
            for (i, &v) in dom[l as usize].iter().enumerate() {
                let cnt = a
                    .post(v, l)
                    .iter()
                    .filter(|&&r| e.rel[c].contains(e.block_of[r as usize] as usize))
                    .count() as u32;
                flat[i] = cnt;
                if cnt == 0 {
                    zeros.push(v);
                }
            }
            let chunks = flat.chunks(chunk).map(|s| Rc::new(s.to_vec())).collect();
            rows.push((l, Row { chunks }));
            if !zeros.is_empty() {
                e.remove.insert((c as u32, l), zeros);
                e.queue.push((c as u32, l));
            }
        }
        e.counters.push(rows);
    }
    let mut steps = 0usize;
    while let Some((b, l)) = e.queue.pop() {
        ticker.tick()?;
        e.process(b, l)?;
        steps += 1;
    }
    tracing::debug!(
        states = n,
        blocks = e.members.len(),
        steps,
        "Holík–Šimáček simulation done"
    );
    // ⋃Rel(C) per block, then one row per state.
    let nb = e.members.len();
    let mut block_rows: Vec<FixedBitSet> = Vec::with_capacity(nb);
    for c in 0..nb {
        let mut r = FixedBitSet::with_capacity(n);
        for d in e.rel[c].ones() {
            for &y in &e.members[d] {
                r.insert(y as usize);
            }
        }
        block_rows.push(r);
    }
    let rows = (0..n)
        .map(|x| block_rows[e.block_of[x] as usize].clone())
        .collect();
    Ok(Simulation::from_rows(rows))
}
