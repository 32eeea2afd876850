//! Deterministic parity automata: the parity condition (min/max, even/odd, a number of colours),
//! its HOA text, acceptance of a lasso word by a deterministic run, the change of parity type,
//! completion, and colour reduction.
//!
//! Colour reduction is the SCC-recursive recolouring of Carton and Maceiras ("Computing the Rabin
//! index of a parity automaton", RAIRO ITA 33(6), 1999, §3), in the form of Spot's
//! `reduce_parity` (Duret-Lutz et al., "From Spot 2.0 to Spot 2.10: What's new?", CAV'22, §3):
//! inside each SCC the edges of the smallest colour get the smallest new colour of their parity,
//! and the SCCs left when they are removed are recoloured recursively from that colour on. Every
//! cycle keeps the parity of its smallest colour, so the language is unchanged, and the number of
//! colours is the minimum over recolourings of the same automaton (the Rabin index).
//!
//! The automaton is a [`Twa`] whose marks are colours (bit `c` = colour `c`, at most one per
//! edge) and whose `num_sets` is the number of colours; it must not be handed to the generalized
//! Büchi algorithms. An uncoloured edge counts as colour `n` (min) or `-1` (max), as in HOA's
//! acceptance formula of `parity min/max even/odd n`; uncoloured edges outside SCCs never matter.

use crate::acc::{Acc, Parity};
use crate::twa::{Marks, Twa};

/// The parity flavour (the one type of [`crate::acc`]): the smallest (`min`) or largest (`max`)
/// colour seen infinitely often decides, and is accepting when even (`odd = false`) or odd.
pub type ParityKind = Parity;

impl Parity {
    pub const MIN_EVEN: Parity = Parity {
        max: false,
        odd: false,
    };
    pub const MIN_ODD: Parity = Parity {
        max: false,
        odd: true,
    };
    pub const MAX_EVEN: Parity = Parity {
        max: true,
        odd: false,
    };
    pub const MAX_ODD: Parity = Parity {
        max: true,
        odd: true,
    };

    /// Reads `min even`, `max odd`, … (also `min-even`).
    pub fn parse(s: &str) -> Option<ParityKind> {
        let w: Vec<&str> = s.split([' ', '-', ',']).filter(|w| !w.is_empty()).collect();
        match w.as_slice() {
            [m, p] => Some(Parity {
                max: match *m {
                    "min" => false,
                    "max" => true,
                    _ => return None,
                },
                odd: match *p {
                    "even" => false,
                    "odd" => true,
                    _ => return None,
                },
            }),
            _ => None,
        }
    }

    /// `min odd`, …
    pub fn name(self) -> &'static str {
        match (self.max, self.odd) {
            (false, false) => "min even",
            (false, true) => "min odd",
            (true, false) => "max even",
            (true, true) => "max odd",
        }
    }

    /// Is colour `c` (an effective colour, possibly `-1` or `n`) accepting?
    pub fn accepting(self, c: i64) -> bool {
        (c.rem_euclid(2) == 1) == self.odd
    }
}

/// A deterministic automaton with a parity condition (see the module documentation).
#[derive(Clone, Debug)]
pub struct ParityAut {
    /// Marks are colours; `aut.num_sets == colours`.
    pub aut: Twa,
    pub kind: ParityKind,
}

/// The colour of a mark set (its lowest mark), if any.
pub fn colour_of(m: Marks) -> Option<u32> {
    (m != 0).then(|| m.trailing_zeros())
}

impl ParityAut {
    pub fn colours(&self) -> u32 {
        self.aut.num_sets
    }

    /// The effective colour of an edge's marks: its colour, or `n` (min) / `-1` (max) if none.
    pub fn effective(&self, m: Marks) -> i64 {
        match colour_of(m) {
            Some(c) => c as i64,
            None if self.kind.max => -1,
            None => self.colours() as i64,
        }
    }

    /// Of two effective colours, the one with priority.
    fn dominant(&self, a: i64, b: i64) -> i64 {
        if self.kind.max {
            a.max(b)
        } else {
            a.min(b)
        }
    }

    /// The Emerson–Lei condition of this parity automaton (`Acc::parity`).
    pub fn acceptance(&self) -> Acc {
        Acc::parity(self.kind, self.colours())
    }

    /// The automaton with its acceptance condition set (`parity kind n`; Spot's names apply:
    /// one colour may read as Büchi or co-Büchi, none as `t` or `f`).
    pub fn into_twa(self) -> Twa {
        let mut t = self.aut;
        let n = t.num_sets;
        t.set_acceptance(n, Acc::parity(self.kind, n));
        t.state_based = false;
        t
    }

    /// A parity automaton view of `aut` if its condition is a parity condition over its sets.
    pub fn from_twa(aut: &Twa) -> Option<ParityAut> {
        let kind = aut.acceptance().parity_kind(aut.num_sets)?;
        let mut a = aut.clone();
        a.acc = None;
        a.acc_false = false;
        Some(ParityAut { aut: a, kind })
    }

    /// HOA v1 text.
    pub fn to_hoa(&self) -> String {
        crate::hoa::print::to_hoa(&self.clone().into_twa())
    }

    /// Does the (deterministic) automaton accept the lasso word `prefix cycle^ω` (letters are
    /// valuations, bit `i` = AP `i`)? A missing successor rejects.
    pub fn accepts_lasso(&self, prefix: &[u64], cycle: &[u64]) -> bool {
        let a = &self.aut;
        let Some(&mut_init) = a.init.first() else {
            return false;
        };
        if cycle.is_empty() {
            return false;
        }
        let step = |s: u32, l: u64| -> Option<(u32, Marks)> {
            a.states
                .get(s as usize)?
                .iter()
                .find(|e| a.eval_label(&e.label, l))
                .map(|e| (e.dst, e.marks))
        };
        let mut s = mut_init;
        for &l in prefix {
            match step(s, l) {
                Some((d, _)) => s = d,
                None => return false,
            }
        }
        // Iterate the cycle until a (state, position 0) repeats, recording colours per round.
        let mut seen: std::collections::HashMap<u32, usize> = std::collections::HashMap::new();
        let mut rounds: Vec<i64> = Vec::new();
        loop {
            if let Some(&r) = seen.get(&s) {
                let mut best = rounds[r];
                for &c in &rounds[r..] {
                    best = self.dominant(best, c);
                }
                return self.kind.accepting(best);
            }
            seen.insert(s, rounds.len());
            let mut best: Option<i64> = None;
            for &l in cycle {
                match step(s, l) {
                    Some((d, m)) => {
                        let c = self.effective(m);
                        best = Some(best.map_or(c, |b| self.dominant(b, c)));
                        s = d;
                    }
                    None => return false,
                }
            }
            rounds.push(best.unwrap_or(0));
        }
    }

    /// The same language under another parity type (colours renumbered; at most one more
    /// colour).
    pub fn change_kind(&self, to: ParityKind) -> ParityAut {
        let mut cur = self.clone();
        // min ↔ max: c' = n-1-c, which maps the uncoloured n (min) to -1 (max) and back; the
        // parity of every colour flips when n is even.
        if cur.kind.max != to.max {
            let n = cur.colours();
            for es in &mut cur.aut.states {
                for e in es.iter_mut() {
                    if let Some(c) = colour_of(e.marks) {
                        e.marks = 1 << (n - 1 - c);
                    }
                }
            }
            cur.kind = Parity {
                max: to.max,
                odd: if n.is_multiple_of(2) {
                    !cur.kind.odd
                } else {
                    cur.kind.odd
                },
            };
        }
        // even ↔ odd: shift every colour by one (up for min, which keeps the uncoloured `n`
        // consistent; for max, colours move up and a new top colour is not needed: the
        // uncoloured -1 flips parity with the kind, so it is given colour 0 explicitly).
        if cur.kind.odd != to.odd {
            let n = cur.colours();
            let max = cur.kind.max;
            for es in &mut cur.aut.states {
                for e in es.iter_mut() {
                    e.marks = match colour_of(e.marks) {
                        Some(c) => 1 << (c + 1),
                        None if max => 1,
                        None => 0,
                    };
                }
            }
            cur.aut.num_sets = n + 1;
            cur.kind.odd = to.odd;
        }
        cur
    }

    /// Adds a rejecting sink so that every state has a successor for every letter (no change
    /// if the automaton is already complete).
    pub fn complete(&self) -> ParityAut {
        let mut out = self.clone();
        // The sink's loop is uncoloured when that already rejects (min parity: the colour `n`),
        // else the smallest colour of rejecting parity; a colour count raised to `r + 1` keeps
        // the uncoloured edges' parity (`n` even → `r + 1 = 2`, or `n = 0` with `r = 0`).
        let n = self.colours();
        if !self.kind.max && !self.kind.accepting(n as i64) {
            complete_with_sink(&mut out.aut, 0);
            return out;
        }
        let r: u32 = if self.kind.odd { 0 } else { 1 };
        if complete_with_sink(&mut out.aut, 1 << r) {
            out.aut.num_sets = out.aut.num_sets.max(r + 1);
        }
        out
    }

    /// Carton–Maceiras colour reduction (see the module documentation); the result is a min
    /// parity automaton whose colours start at 0, with edges outside SCCs uncoloured. Each SCC
    /// starts at the smallest colour of its own parity; both global orientations (colour 0
    /// accepting or rejecting) are tried and the one with fewer colours is kept.
    pub fn reduce_colours(&self) -> ParityAut {
        let cur = if self.kind.max {
            self.change_kind(Parity {
                max: false,
                odd: self.kind.odd,
            })
        } else {
            self.clone()
        };
        let flipped = cur.change_kind(Parity {
            max: false,
            odd: !cur.kind.odd,
        });
        let (a, b) = (cur.reduce_once(), flipped.reduce_once());
        if b.colours() < a.colours() {
            b
        } else {
            a
        }
    }

    fn reduce_once(&self) -> ParityAut {
        let cur = self;
        let aut = &cur.aut;
        let n = aut.num_states();
        // Edge ids: (state, index); work items are edge sets with the base colour.
        let mut newc: Vec<Vec<Option<u32>>> =
            aut.states.iter().map(|es| vec![None; es.len()]).collect();
        let all: Vec<(u32, u32)> = aut
            .states
            .iter()
            .enumerate()
            .flat_map(|(s, es)| {
                es.iter()
                    .enumerate()
                    .filter(|(_, e)| !e.label.is_false())
                    .map(move |(i, _)| (s as u32, i as u32))
            })
            .collect();
        let par = |c: i64| -> u32 { c.rem_euclid(2) as u32 };
        let mut work: Vec<(Vec<(u32, u32)>, u32)> = vec![(all, 0)];
        let mut local = vec![u32::MAX; n];
        while let Some((edges, base)) = work.pop() {
            // SCCs of the subgraph of these edges (states renumbered locally).
            let mut verts: Vec<u32> = Vec::new();
            for &(s, i) in &edges {
                let d = aut.states[s as usize][i as usize].dst;
                for v in [s, d] {
                    if local[v as usize] == u32::MAX {
                        local[v as usize] = verts.len() as u32;
                        verts.push(v);
                    }
                }
            }
            let pairs: Vec<(u32, u32)> = edges
                .iter()
                .map(|&(s, i)| {
                    let d = aut.states[s as usize][i as usize].dst;
                    (local[s as usize], local[d as usize])
                })
                .collect();
            let g = verikit_graph::Csr::from_edges(verts.len(), &pairs);
            let sccs = verikit_graph::sccs(&g);
            let mut inside: std::collections::BTreeMap<u32, Vec<(u32, u32)>> = Default::default();
            for (k, &(ls, ld)) in pairs.iter().enumerate() {
                let c = sccs.comp[ls as usize];
                if c == sccs.comp[ld as usize] {
                    inside.entry(c).or_default().push(edges[k]);
                }
            }
            for &v in &verts {
                local[v as usize] = u32::MAX;
            }
            for (_, es) in inside {
                let eff =
                    |&(s, i): &(u32, u32)| cur.effective(aut.states[s as usize][i as usize].marks);
                let m = es.iter().map(eff).min().unwrap_or(0);
                let k = if par(m) == base % 2 { base } else { base + 1 };
                let mut rest = Vec::new();
                for &(s, i) in &es {
                    newc[s as usize][i as usize] = Some(k);
                    if eff(&(s, i)) != m {
                        rest.push((s, i));
                    }
                }
                if !rest.is_empty() {
                    work.push((rest, k));
                }
            }
        }
        let mut out = cur.clone();
        let used_zero = newc.iter().flatten().any(|c| *c == Some(0));
        let shift = u32::from(!used_zero && newc.iter().flatten().any(|c| c.is_some()));
        let mut top = 0u32;
        for (s, es) in out.aut.states.iter_mut().enumerate() {
            for (i, e) in es.iter_mut().enumerate() {
                e.marks = match newc[s][i] {
                    Some(c) => {
                        top = top.max(c - shift + 1);
                        1 << (c - shift)
                    }
                    None => 0,
                };
            }
        }
        if shift == 1 {
            out.kind.odd = !out.kind.odd;
        }
        // The largest colour becomes "uncoloured": with one colour less, an uncoloured edge
        // counts as that very colour (`n` of min parity), so e.g. Büchi needs one colour.
        if top >= 1 {
            let last = 1u64 << (top - 1);
            for es in &mut out.aut.states {
                for e in es.iter_mut() {
                    if e.marks == last {
                        e.marks = 0;
                    }
                }
            }
            out.aut.num_sets = top - 1;
        } else {
            out.aut.num_sets = 0;
            out.kind = ParityKind::MIN_EVEN;
        }
        out.aut.state_based = false;
        out
    }
}

/// Adds a sink (a self-loop on every letter with `marks`) and sends every missing letter there.
/// Returns false (and changes nothing) if the automaton is already complete.
pub(crate) fn complete_with_sink(aut: &mut Twa, marks: Marks) -> bool {
    if aut.is_complete() {
        return false;
    }
    let sink = aut.add_state();
    let tt = aut.tt();
    if aut.init.is_empty() {
        aut.init.push(sink);
    }
    for s in 0..sink {
        let mut u = aut.ff();
        for e in &aut.states[s as usize] {
            u = u.or(&e.label);
        }
        let miss = u.not();
        if !miss.is_false() {
            aut.add_edge(s, sink, miss, 0);
        }
    }
    aut.add_edge(sink, sink, tt, marks);
    aut.state_based = false;
    true
}

/// Completes a generalized Büchi automaton with a rejecting sink (for acceptance `t`, every
/// existing edge gets a new mark 0 that the sink lacks).
pub fn complete_gba(aut: &Twa) -> Twa {
    let mut out = aut.clone();
    if out.is_complete() {
        return out;
    }
    if out.num_sets == 0 && !out.acc_false {
        out.num_sets = 1;
        for es in &mut out.states {
            for e in es.iter_mut() {
                e.marks = 1;
            }
        }
    }
    complete_with_sink(&mut out, 0);
    out
}
