//! The two Büchi products nested DFS runs on: a model with its own property process (BEEM's
//! `.prop<k>.dve`: accepting = the property process in an `accept` state), and a model × the
//! state-based Büchi automaton of ¬φ from `verikit-omega` (product state = packed model state +
//! automaton state; the automaton reads the propositions of the model state it leaves, as the
//! property process's guards do). A deadlocked model state stutters (repeats forever) in both
//! products, as in DiVinE and SPIN: a run that ends in a deadlock is an infinite run.

use crate::bytecode::Prog;
use crate::model::Label;
use crate::model::Model;
use crate::nested_dfs::BuchiGraph;
use crate::por::{in_ample, Por};
use crate::successors::Generator;
use verikit_omega::Twa;

/// A model whose property process is the negative claim.
pub(crate) struct PropertyGraph<'m> {
    pub(crate) gen: Generator<'m>,
    pub(crate) prop: u32,
}

impl<'m> PropertyGraph<'m> {
    pub(crate) fn new(m: &'m Model, prop: u32) -> PropertyGraph<'m> {
        let mut gen = Generator::new(m);
        gen.stutter = true;
        PropertyGraph { gen, prop }
    }
}

impl BuchiGraph for PropertyGraph<'_> {
    fn initial(&mut self) -> Vec<u8> {
        self.gen.m.init.clone()
    }
    fn width(&self) -> usize {
        self.gen.m.state_size()
    }
    fn successors(&mut self, s: &[u8], out: &mut Vec<Vec<u8>>) {
        self.gen
            .successors(s, |t, _| out.push(t.to_vec()), |_, _| {});
    }
    fn accepting(&self, s: &[u8]) -> bool {
        self.gen.m.accepting(self.prop, s)
    }
}

/// Model × Büchi automaton of ¬φ.
pub(crate) struct AutomatonGraph<'m> {
    pub(crate) gen: Generator<'m>,
    /// One compiled predicate per automaton proposition.
    pub(crate) aps: Vec<Prog>,
    /// Per automaton state: its edges as (target, allowed valuations as a bit set over
    /// `2^|aps|` letters).
    pub(crate) edges: Vec<Vec<(u32, Vec<u64>)>>,
    pub(crate) accepting: Vec<bool>,
    pub(crate) init: u32,
    stack: Vec<i32>,
    scratch: Vec<u8>,
    sys: Vec<Vec<u8>>,
    /// Partial-order reduction (for a stutter-invariant formula), if on.
    pub(crate) por: Option<Por>,
    labelled: Vec<(Vec<u8>, Label)>,
}

/// Largest number of propositions (the letter tables have `2^n` bits per edge).
pub(crate) const MAX_APS: usize = 16;

impl<'m> AutomatonGraph<'m> {
    pub(crate) fn new(m: &'m Model, aut: &Twa, aps: Vec<Prog>) -> AutomatonGraph<'m> {
        let n = aps.len();
        let letters = 1usize << n;
        let all = aut.all_marks();
        let edges = aut
            .states
            .iter()
            .map(|es| {
                es.iter()
                    .map(|e| {
                        let mut bits = vec![0u64; letters.div_ceil(64)];
                        for v in 0..letters {
                            if aut.eval_label(&e.label, v as u64) {
                                bits[v / 64] |= 1 << (v % 64);
                            }
                        }
                        (e.dst, bits)
                    })
                    .collect()
            })
            .collect();
        let accepting = (0..aut.num_states())
            .map(|q| !aut.acc_false && aut.state_marks(q as u32) & all == all)
            .collect();
        let mut gen = Generator::new(m);
        gen.stutter = true;
        AutomatonGraph {
            gen,
            aps,
            edges,
            accepting,
            init: aut.init.first().copied().unwrap_or(0),
            stack: Vec::new(),
            scratch: Vec::new(),
            sys: Vec::new(),
            por: None,
            labelled: Vec::new(),
        }
    }

    /// The valuation of the propositions in a model state (bit i = proposition i); evaluation
    /// errors make a proposition false.
    pub(crate) fn letter(&mut self, s: &[u8]) -> usize {
        self.scratch.clear();
        self.scratch.extend_from_slice(s);
        let mut v = 0usize;
        for (i, p) in self.aps.iter().enumerate() {
            self.stack.clear();
            if p.exec(&mut self.scratch, &mut self.stack).unwrap_or(0) != 0 {
                v |= 1 << i;
            }
        }
        v
    }
}

fn split(s: &[u8]) -> (&[u8], u32) {
    let n = s.len().saturating_sub(4);
    let (a, b) = s.split_at(n);
    let q = b.try_into().map(u32::from_le_bytes).unwrap_or_default();
    (a, q)
}

/// The model state and automaton state of a product state.
pub(crate) fn split_product(s: &[u8]) -> (&[u8], u32) {
    split(s)
}

impl AutomatonGraph<'_> {
    /// The product successors of `(sys, q)` given the model successors `succ` of `sys`.
    fn pair(&mut self, sys: &[u8], q: u32, succ: &[Vec<u8>], out: &mut Vec<Vec<u8>>) {
        let letter = self.letter(sys);
        if let Some(es) = self.edges.get(q as usize) {
            for (dst, bits) in es {
                if bits
                    .get(letter / 64)
                    .is_some_and(|w| w >> (letter % 64) & 1 == 1)
                {
                    for t in succ {
                        let mut v = t.clone();
                        v.extend_from_slice(&dst.to_le_bytes());
                        out.push(v);
                    }
                }
            }
        }
    }
}

impl BuchiGraph for AutomatonGraph<'_> {
    fn initial(&mut self) -> Vec<u8> {
        let mut v = self.gen.m.init.clone();
        v.extend_from_slice(&self.init.to_le_bytes());
        v
    }
    fn width(&self) -> usize {
        self.gen.m.state_size() + 4
    }
    fn successors(&mut self, s: &[u8], out: &mut Vec<Vec<u8>>) {
        let (sys, q) = split(s);
        let mut succ = std::mem::take(&mut self.sys);
        succ.clear();
        self.gen
            .successors(sys, |t, _| succ.push(t.to_vec()), |_, _| {});
        self.pair(sys, q, &succ, out);
        self.sys = succ;
    }
    fn reduced_successors(&mut self, s: &[u8], out: &mut Vec<Vec<u8>>) -> bool {
        let Some(por) = &self.por else {
            return false;
        };
        let (sys, q) = split(s);
        let mut all = std::mem::take(&mut self.labelled);
        all.clear();
        let mut error = false;
        self.gen.successors(
            sys,
            |t, l| all.push((t.to_vec(), l.clone())),
            |_, _| error = true,
        );
        let m = self.gen.m;
        let pick = if error {
            None
        } else {
            por.ample(m, sys, all.iter().map(|(_, l)| l))
        };
        if let Some(p) = pick {
            let mut succ = std::mem::take(&mut self.sys);
            succ.clear();
            succ.extend(
                all.iter()
                    .filter(|(_, l)| in_ample(m, p, l))
                    .map(|(t, _)| t.clone()),
            );
            self.pair(sys, q, &succ, out);
            self.sys = succ;
        }
        self.labelled = all;
        pick.is_some()
    }
    fn accepting(&self, s: &[u8]) -> bool {
        let (_, q) = split(s);
        self.accepting.get(q as usize).copied().unwrap_or(false)
    }
}
