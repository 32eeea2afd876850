//! Explicit letters over a game's propositions and the automaton's edges as truth tables.
//!
//! A letter is a bit vector over the game's propositions: the *first mover*'s ones in the low
//! bits, the second mover's above them (`letter = first | second << n_first`). Every edge label
//! (a BDD over the automaton's propositions) becomes a bit set over all letters, filled from the
//! label's cubes; letters that enable exactly the same edges form one *class* (for every counter
//! function they lead to the same successor), which is what the games iterate over.

use crate::error::SyntError;
use verikit_diag::Budget;
use verikit_omega::Twa;

/// Largest number of propositions of an explicit game (2^n letters).
pub(crate) const MAX_BITS: usize = 22;

pub(crate) struct Letters {
    pub(crate) n_first: usize,
    pub(crate) n_second: usize,
    /// Per automaton state, its edges: `(destination, acceptance marks, truth table)`.
    pub(crate) edges: Vec<Vec<(u32, u64, Vec<u64>)>>,
    /// Class of each letter.
    pub(crate) class: Vec<u32>,
    /// Per class, its enabled edges `(source, destination, marked)`.
    pub(crate) class_edges: Vec<Vec<(u32, u32, bool)>>,
}

fn get(t: &[u64], i: usize) -> bool {
    t.get(i / 64).is_some_and(|w| w >> (i % 64) & 1 == 1)
}

impl Letters {
    /// `names` = the game's propositions (first mover first); the automaton's propositions must
    /// be among them.
    pub(crate) fn new(
        aut: &Twa,
        names: &[String],
        n_first: usize,
        budget: &Budget,
    ) -> Result<Letters, SyntError> {
        let bits = names.len();
        if bits > MAX_BITS {
            return Err(SyntError::Limit(format!(
                "{bits} propositions: the explicit game handles at most {MAX_BITS}"
            )));
        }
        let count = 1usize << bits;
        let words = count.div_ceil(64);
        // Automaton proposition index -> letter bit.
        let mut pos = Vec::with_capacity(aut.aps.len());
        for ap in &aut.aps {
            match names.iter().position(|n| n == ap) {
                Some(p) => pos.push(p),
                None => {
                    return Err(SyntError::Internal(format!(
                        "proposition {ap} not in the game"
                    )))
                }
            }
        }
        let mut edges = Vec::with_capacity(aut.states.len());
        let mut n_edges = 0usize;
        for st in &aut.states {
            let mut v = Vec::with_capacity(st.len());
            for e in st {
                budget.check()?;
                let mut table = vec![0u64; words];
                for cube in e.label.sat_clauses() {
                    let mut fixed_mask = 0usize;
                    let mut fixed_val = 0usize;
                    for (var, val) in cube.to_values() {
                        let b = pos.get(var.to_index()).copied().ok_or_else(|| {
                            SyntError::Internal("label variable outside the propositions".into())
                        })?;
                        fixed_mask |= 1 << b;
                        if val {
                            fixed_val |= 1 << b;
                        }
                    }
                    // Enumerate the completions of the free bits.
                    let free = (count - 1) & !fixed_mask;
                    let mut sub = free;
                    let mut ticker = budget.ticker(1 << 16);
                    loop {
                        ticker.tick()?;
                        let l = fixed_val | sub;
                        table[l / 64] |= 1 << (l % 64);
                        if sub == 0 {
                            break;
                        }
                        sub = (sub - 1) & free;
                    }
                }
                v.push((e.dst, e.marks, table));
                n_edges += 1;
            }
            edges.push(v);
        }
        // Classes: refine by one edge at a time.
        let mut class = vec![0u32; count];
        let mut n_classes = 1usize;
        let mut remap = vec![u32::MAX; 2];
        for st in &edges {
            for (_, _, t) in st {
                budget.check()?;
                remap.clear();
                remap.resize(2 * n_classes, u32::MAX);
                let mut next = 0u32;
                let mut ticker = budget.ticker(1 << 16);
                for (l, c) in class.iter_mut().enumerate() {
                    ticker.tick()?;
                    let key = 2 * *c as usize + usize::from(get(t, l));
                    if remap[key] == u32::MAX {
                        remap[key] = next;
                        next += 1;
                    }
                    *c = remap[key];
                }
                n_classes = next as usize;
            }
        }
        let mut rep = vec![usize::MAX; n_classes];
        for (l, &c) in class.iter().enumerate() {
            if rep[c as usize] == usize::MAX {
                rep[c as usize] = l;
            }
        }
        // The edges the game counts: with acceptance `t` (no sets) every infinite run is accepting,
        // so every edge counts; with acceptance `f` none does (the language is empty).
        let counted = |marks: u64| !aut.acc_false && (aut.num_sets == 0 || marks != 0);
        let class_edges = rep
            .iter()
            .map(|&l| {
                let mut v = Vec::new();
                for (q, st) in edges.iter().enumerate() {
                    for (dst, marks, t) in st {
                        if get(t, l) {
                            v.push((q as u32, *dst, counted(*marks)));
                        }
                    }
                }
                v
            })
            .collect();
        tracing::debug!(
            letters = count,
            edges = n_edges,
            classes = n_classes,
            "letter classes"
        );
        Ok(Letters {
            n_first,
            n_second: bits - n_first,
            edges,
            class,
            class_edges,
        })
    }

    pub(crate) fn letter(&self, first: usize, second: usize) -> usize {
        first | second << self.n_first
    }

    pub(crate) fn class_of(&self, first: usize, second: usize) -> u32 {
        self.class
            .get(self.letter(first, second))
            .copied()
            .unwrap_or(0)
    }

    /// The edges of state `q` enabled by `letter`: `(destination, marks)`.
    pub(crate) fn enabled(&self, q: usize, letter: usize) -> impl Iterator<Item = (u32, u64)> + '_ {
        self.edges
            .get(q)
            .into_iter()
            .flatten()
            .filter(move |(_, _, t)| get(t, letter))
            .map(|(d, m, _)| (*d, *m))
    }
}
