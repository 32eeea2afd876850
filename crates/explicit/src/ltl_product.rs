//! The two Büchi products nested DFS runs on: a model with its own property process (BEEM's
//! `.prop<k>.dve`: accepting = the property process in an `accept` state), and a model × the
//! state-based Büchi automaton of ¬φ from `verikit-omega` (product state = packed model state +
//! automaton state; the automaton reads the propositions of the model state it leaves, as the
//! property process's guards do). A deadlocked model state stutters (repeats forever) in both
//! products, as in DiVinE and SPIN: a run that ends in a deadlock is an infinite run.
//!
//! On a Promela model whose `atomic` sequences follow SPIN's exclusivity (`Model::through_atomic`,
//! the default), the product state also carries the exclusive process (the one that moved last
//! inside its sequence, `successors`' module docs): only it moves, every process when it is
//! blocked. SPIN's never claim likewise takes a step after every step inside a sequence
//! (Holzmann, *The SPIN Model Checker*, 2003, ch. 7 and the verifier's `tau&8` exclusivity);
//! unlike SPIN, the product stores the states inside sequences (the verdict is the same).

use crate::bytecode::Prog;
use crate::model::Label;
use crate::model::Model;
use crate::nested_dfs::BuchiGraph;
use crate::por::{in_ample, owner, Por};
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

/// Model × Büchi automaton of ¬φ. A product state is the packed model state, with SPIN's
/// exclusivity [`EXCL_BYTES`] more (0: no process is exclusive, `p + 1`: process `p` is, little
/// endian), then the automaton state (4 bytes).
pub(crate) struct AutomatonGraph<'m> {
    pub(crate) gen: Generator<'m>,
    /// One compiled predicate per automaton proposition.
    pub(crate) aps: Vec<Prog>,
    /// Per automaton state: its edges as (target, allowed valuations as a bit set over
    /// `2^|aps|` letters).
    pub(crate) edges: Vec<Vec<(u32, Vec<u64>)>>,
    pub(crate) accepting: Vec<bool>,
    pub(crate) init: u32,
    /// The product follows SPIN's exclusivity in `atomic` sequences (its states carry the
    /// exclusive process).
    exclusive: bool,
    stack: Vec<i32>,
    scratch: Vec<u8>,
    sys: Vec<Vec<u8>>,
    /// Partial-order reduction (for a stutter-invariant formula), if on.
    pub(crate) por: Option<Por>,
    /// The model successors of the state being reduced, with their labels (reused).
    labelled: Vec<(Vec<u8>, Label)>,
    /// The candidates of the state being reduced (reused).
    candidates: Vec<u32>,
}

/// The width of the exclusive process in a product state (a `u16`: more processes than a byte
/// counts are possible in a lowered model).
const EXCL_BYTES: usize = 2;

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
        let exclusive = gen.through_atomic;
        gen.stutter = true;
        AutomatonGraph {
            gen,
            aps,
            edges,
            accepting,
            init: aut.init.first().copied().unwrap_or(0),
            exclusive,
            stack: Vec::new(),
            scratch: Vec::new(),
            sys: Vec::new(),
            por: None,
            labelled: Vec::new(),
            candidates: Vec::new(),
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

    /// The model part of a product state (with the exclusivity byte), its exclusive process and
    /// its automaton state.
    fn parts<'s>(&self, s: &'s [u8]) -> (&'s [u8], Option<usize>, u32) {
        let (a, q) = split(s);
        let n = self.gen.m.state_size();
        let x = if self.exclusive {
            a.get(n..n + EXCL_BYTES)
                .and_then(|b| b.try_into().ok())
                .and_then(|b| (u16::from_le_bytes(b) as usize).checked_sub(1))
        } else {
            None
        };
        (a, x, q)
    }

    /// The model successors of the model part `a` of a product state (exclusive process `x`),
    /// each with its label and, under SPIN's exclusivity, the exclusivity byte after the step,
    /// handed to `out`; evaluation errors to `on_error`.
    fn model_steps(
        &mut self,
        a: &[u8],
        x: Option<usize>,
        out: &mut impl FnMut(Vec<u8>, &Label),
        on_error: &mut impl FnMut(),
    ) {
        let n = self.gen.m.state_size();
        let sys = a.get(..n).unwrap_or(a);
        if self.exclusive {
            self.gen.exclusive_steps(
                sys,
                x,
                &mut |t, l, y| {
                    let mut v = Vec::with_capacity(t.len() + EXCL_BYTES + 4);
                    v.extend_from_slice(t);
                    let y = y.map_or(0, |p| u16::try_from(p + 1).unwrap_or(u16::MAX));
                    v.extend_from_slice(&y.to_le_bytes());
                    out(v, l)
                },
                &mut |_, _| on_error(),
            );
        } else {
            self.gen
                .successors(sys, |t, l| out(t.to_vec(), l), |_, _| on_error());
        }
    }

    /// The model successors of `a` (exclusive process `x`) with their labels into `labelled`;
    /// false when a step failed to evaluate (no reduction there).
    fn labelled_steps(&mut self, a: &[u8], x: Option<usize>) -> bool {
        let mut all = std::mem::take(&mut self.labelled);
        all.clear();
        let mut error = false;
        self.model_steps(a, x, &mut |t, l| all.push((t, l.clone())), &mut || {
            error = true
        });
        self.labelled = all;
        !error
    }

    /// The product successors of the ample set of process `p` among `labelled`, into `out`.
    fn pair_ample(&mut self, a: &[u8], q: u32, p: u32, out: &mut Vec<Vec<u8>>) {
        let m = self.gen.m;
        let mut succ = std::mem::take(&mut self.sys);
        succ.clear();
        succ.extend(
            self.labelled
                .iter()
                .filter(|(_, l)| in_ample(m, p, l))
                .map(|(t, _)| t.clone()),
        );
        self.pair(a, q, &succ, out);
        self.sys = succ;
    }
}

fn split(s: &[u8]) -> (&[u8], u32) {
    let n = s.len().saturating_sub(4);
    let (a, b) = s.split_at(n);
    let q = b.try_into().map(u32::from_le_bytes).unwrap_or_default();
    (a, q)
}

/// The model state and automaton state of a product state of model `m`.
pub(crate) fn split_product<'s>(m: &Model, s: &'s [u8]) -> (&'s [u8], u32) {
    let (a, q) = split(s);
    (a.get(..m.state_size()).unwrap_or(a), q)
}

impl AutomatonGraph<'_> {
    /// The product successors of `(a, q)` given the model successors `succ` of `a` (the model
    /// part, with the exclusivity byte if any).
    fn pair(&mut self, a: &[u8], q: u32, succ: &[Vec<u8>], out: &mut Vec<Vec<u8>>) {
        let n = self.gen.m.state_size();
        let letter = self.letter(a.get(..n).unwrap_or(a));
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
        if self.exclusive {
            v.extend_from_slice(&[0; EXCL_BYTES]);
        }
        v.extend_from_slice(&self.init.to_le_bytes());
        v
    }
    fn width(&self) -> usize {
        self.gen.m.state_size() + if self.exclusive { EXCL_BYTES } else { 0 } + 4
    }
    fn successors(&mut self, s: &[u8], out: &mut Vec<Vec<u8>>) {
        let (a, x, q) = self.parts(s);
        let mut succ = std::mem::take(&mut self.sys);
        succ.clear();
        self.model_steps(a, x, &mut |t, _| succ.push(t), &mut || {});
        self.pair(a, q, &succ, out);
        self.sys = succ;
    }
    fn reduced_successors(
        &mut self,
        s: &[u8],
        refused: &mut dyn FnMut(&[u8]) -> bool,
        out: &mut Vec<Vec<u8>>,
    ) -> Option<u32> {
        let (a, x, q) = self.parts(s);
        // Inside a sequence only the exclusive process moves: nothing to choose.
        if x.is_some() {
            return None;
        }
        let m = self.gen.m;
        let por = self.por.as_ref()?;
        let mut candidates = std::mem::take(&mut self.candidates);
        por.candidates(m, a.get(..m.state_size()).unwrap_or(a), &mut candidates);
        let mut pick = None;
        if !candidates.is_empty() && self.labelled_steps(a, x) {
            let total = self.labelled.len();
            for &p in &candidates {
                let (mut mine, mut mixed) = (0, false);
                for (_, l) in &self.labelled {
                    let (u, v) = owner(m, l);
                    if u == p || v == p {
                        if u == v {
                            mine += 1;
                        } else {
                            mixed = true;
                        }
                    }
                }
                if mine == 0 || mixed {
                    continue;
                }
                if mine == total {
                    // Its steps are every step: the full expansion.
                    break;
                }
                out.clear();
                self.pair_ample(a, q, p, out);
                // The cycle proviso is the caller's: a refused candidate leaves the next one
                // its chance (SPIN's search does the same).
                if out.iter().any(|t| refused(t)) {
                    continue;
                }
                pick = Some(p);
                break;
            }
        }
        self.candidates = candidates;
        if pick.is_none() {
            out.clear();
        }
        pick
    }
    fn ample_successors(&mut self, s: &[u8], p: u32, out: &mut Vec<Vec<u8>>) -> bool {
        let (a, x, q) = self.parts(s);
        if self.por.is_none() || x.is_some() || !self.labelled_steps(a, x) {
            return false;
        }
        self.pair_ample(a, q, p, out);
        true
    }
    fn accepting(&self, s: &[u8]) -> bool {
        let (_, q) = split(s);
        self.accepting.get(q as usize).copied().unwrap_or(false)
    }
}
