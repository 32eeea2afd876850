//! Exact SAT-based minimisation of small deterministic automata with a one-mark acceptance
//! condition (Büchi `Inf(m)` or co-Büchi `Fin(m)`, on transitions or on states), after
//! S. Baarir and A. Duret-Lutz, "Mechanizing the minimization of deterministic generalized
//! Büchi automata" (FORTE 2014, §3–4), the encoding Spot's `--sat-minimize` runs, itself a
//! revision of R. Ehlers, "Minimising deterministic Büchi automata precisely using SAT solving"
//! (SAT 2010).
//!
//! The question "is there a deterministic automaton with `n` states and the language of the
//! reference `R`?" is a SAT instance over transition variables `t(q, c, q')` (at most one
//! successor per state and letter class) and mark variables `a(q, c)` (`a(q)` for state-based
//! acceptance). The language condition is stated on the product of the candidate with `R`
//! (completed by a rejecting sink): reachability variables `r(q, s)`, an edge wherever `R`'s
//! successor has a non-empty language, and every reachable product cycle carries the mark on the
//! candidate's side iff it carries it on `R`'s. For the latter, path variables `π(q1, s1, q2, s2)`
//! ("a product path from (q1, s1) to (q2, s2) inside `R`'s SCC of `s1` whose edges lack the
//! mark on one side") are propagated from every reachable pair; a cycle is "rotated" so that
//! the edge that carries the mark on the other side closes it, where a clause forbids it
//! (Baarir and Duret-Lutz, §4, the DTBA encoding). Path variables exist only for pairs of
//! states of one SCC of `R`, so automata whose SCCs are small (as weak or nearly weak
//! automata from LTL are) give small instances whatever their size.
//!
//! Every symmetric candidate is cut by breadth-first numbering (see
//! [`Encoding::break_symmetries`]). The search asks for `|R| − 1` states, then fewer while it
//! succeeds; each satisfying assignment is decoded and checked for language equivalence with
//! `R` by the product-with-dual route of [`crate::det_merge`] before it is kept (the encoding is
//! never trusted); an unsatisfiable query proves that no equivalent automaton is smaller.
//!
//! Letters are the classes of the reference's alphabet (letters that take the same edge from
//! every state): swapping letters inside a class changes no word's membership, so a minimal
//! automaton over classes exists whenever one over letters does.
//!
//! Only for small instances: at most [`MAX_STATES`] states over at most [`MAX_APS`]
//! propositions, at most [`MAX_CLAUSES`] clauses per query (estimated before building it) and
//! a given number of SAT conflicts per automaton (`-x omega.det-satmin-conflicts`); the budget is polled between queries and by
//! the solver. Stopping early returns the smallest automaton checked so far.

use crate::det_merge::{compare, Comparison, Moves};
use crate::dual::complement_deterministic;
use crate::error::OmegaError;
use crate::prune::trim;
use crate::twa::{Marks, Twa};
use std::collections::HashMap;
use verikit_bdd::Bdd;
use verikit_diag::Budget;
use verikit_sat::{CdclBackend, Lit, SatBackend, SatResult};

/// Largest automaton (states) minimised.
pub(crate) const MAX_STATES: usize = 16;
/// Largest number of atomic propositions (the letter classes are found letter by letter).
pub(crate) const MAX_APS: usize = 8;
/// Largest estimated number of clauses of one query.
pub(crate) const MAX_CLAUSES: usize = 400_000;

/// What [`minimize`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub(crate) struct Stats {
    /// States of the (trimmed) input.
    pub input_states: usize,
    /// States of the result.
    pub states: usize,
    /// SAT queries.
    pub sat_calls: usize,
    /// Clauses of the largest query.
    pub clauses: usize,
    /// SAT conflicts over all queries.
    pub conflicts: u64,
    /// A query for one state fewer than the result was unsatisfiable: no equivalent
    /// deterministic automaton is smaller.
    pub minimal: bool,
    /// The search stopped at a bound (conflicts, clauses) or on the budget.
    pub capped: bool,
    /// Satisfying assignments whose automaton the equivalence check refuted (an encoding
    /// error; the search stops and keeps the last checked automaton).
    pub refuted: usize,
    /// Why the automaton was not tried, when it was not.
    pub skipped: Option<&'static str>,
}

/// How the one mark of the condition decides a cycle.
#[derive(Clone, Copy)]
struct OneMark {
    /// The mark's bit.
    bit: Marks,
    /// `Inf(m)`: a cycle with the mark accepts; `Fin(m)`: a cycle with the mark rejects.
    accepts: bool,
}

/// `aut` as a smallest equivalent deterministic automaton found within the bounds and
/// `max_conflicts` (see the
/// module documentation), or `aut` itself when it is not a small deterministic automaton with a
/// one-mark condition (`skipped` says why). `Err` only on an error of the equivalence check
/// other than the budget.
pub(crate) fn minimize(
    aut: &Twa,
    max_conflicts: u64,
    budget: &Budget,
) -> Result<(Twa, Stats), OmegaError> {
    let mut st = Stats {
        input_states: aut.num_states(),
        states: aut.num_states(),
        ..Stats::default()
    };
    let skip = |mut st: Stats, why| {
        st.skipped = Some(why);
        Ok((aut.clone(), st))
    };
    if !aut.is_deterministic() || aut.init.len() != 1 {
        return skip(st, "not deterministic with one initial state");
    }
    if aut.aps.len() > MAX_APS {
        return skip(st, "too many atomic propositions");
    }
    let acc = aut.acceptance();
    let bit = acc.used_marks();
    if bit.count_ones() != 1 || acc.accepting(0) == acc.accepting(bit) {
        return skip(st, "acceptance is not Büchi or co-Büchi");
    }
    let one = OneMark {
        bit,
        accepts: acc.accepting(bit),
    };
    let orig = trim(aut);
    st.input_states = orig.num_states();
    st.states = orig.num_states();
    if orig.num_states() > MAX_STATES {
        return skip(st, "too many states");
    }
    if orig.num_states() <= 1 {
        return Ok((orig, st));
    }
    let Ok(orig_c) = complement_deterministic(&orig, budget) else {
        st.capped = true;
        return Ok((aut.clone(), st));
    };
    let alpha = Alphabet::of(&orig);
    let reference = Reference::new(&orig, &alpha, one, budget);
    let mut best = orig.clone();
    let mut work = 0usize;
    while best.num_states() > 1 {
        let n = best.num_states() - 1;
        if reference.clauses(n, alpha.labels.len()) > MAX_CLAUSES {
            st.capped = true;
            break;
        }
        if budget.check().is_err() || st.conflicts >= max_conflicts {
            st.capped = true;
            break;
        }
        let mut enc = Encoding::new(n, alpha.labels.len(), orig.state_based, one);
        enc.add_product(&reference);
        st.clauses = st.clauses.max(enc.clauses);
        enc.sat
            .set_conflict_limit(Some(max_conflicts - st.conflicts));
        let r = enc.sat.solve(&[], budget);
        st.sat_calls += 1;
        st.conflicts += enc.sat.stats().conflicts;
        match r {
            SatResult::Unsat => {
                st.minimal = true;
                break;
            }
            SatResult::Unknown => {
                st.capped = true;
                break;
            }
            SatResult::Sat => {}
        }
        let cand = enc.decode(&orig, &alpha);
        match compare(&cand, &orig, &orig_c, budget, &mut work)? {
            Comparison::Same => best = cand,
            Comparison::Differ(_) => {
                st.refuted += 1;
                break;
            }
            Comparison::Stopped => {
                st.capped = true;
                break;
            }
        }
    }
    st.states = best.num_states();
    Ok((best, st))
}

/// The reference automaton on letter classes, completed by a rejecting sink, with its SCCs.
struct Reference {
    /// Successor and whether the edge carries the mark, per state and class.
    next: Vec<Vec<(usize, bool)>>,
    init: usize,
    /// Whether the language from each state is non-empty.
    live: Vec<bool>,
    /// The SCC of each state.
    comp: Vec<u32>,
    /// States of each SCC.
    members: Vec<Vec<u32>>,
}

impl Reference {
    fn new(aut: &Twa, alpha: &Alphabet, one: OneMark, budget: &Budget) -> Reference {
        let m = aut.num_states();
        let moves = alpha.moves(aut);
        let sink = m;
        let mut next: Vec<Vec<(usize, bool)>> = (0..m)
            .map(|s| {
                (0..moves.letters)
                    .map(|c| match moves.table[s * moves.letters + c] {
                        Some((d, marks)) => (d as usize, marks & one.bit != 0),
                        None => (sink, !one.accepts),
                    })
                    .collect()
            })
            .collect();
        next.push(vec![(sink, !one.accepts); moves.letters]);
        let mut live: Vec<bool> = (0..m)
            .map(|s| {
                let mut from = aut.clone();
                from.init = vec![s as u32];
                // Undecided under the budget: assume live (only adds constraints).
                crate::emptiness::accepting_lasso_within(&from, budget)
                    .map_or(true, |r| r.is_some())
            })
            .collect();
        live.push(false);
        let edges: Vec<(u32, u32)> = next
            .iter()
            .enumerate()
            .flat_map(|(s, ns)| ns.iter().map(move |&(d, _)| (s as u32, d as u32)))
            .collect();
        let sccs = verikit_graph::sccs(&verikit_graph::Csr::from_edges(m + 1, &edges));
        Reference {
            next,
            init: aut.init[0] as usize,
            live,
            comp: sccs.comp,
            members: sccs.members,
        }
    }

    /// The internal edges `(s, c, s', marked)` of the SCC of `s`.
    fn inner(&self, s: usize) -> impl Iterator<Item = (usize, usize, bool)> + '_ {
        self.next[s]
            .iter()
            .enumerate()
            .filter(move |(_, &(d, _))| self.comp[d] == self.comp[s])
            .map(|(c, &(d, mk))| (c, d, mk))
    }

    /// An estimate (from above) of the clauses of the query for `n` states: per SCC, for each
    /// start state and candidate state, the path propagation along each inner edge, two kinds;
    /// then the reachability clauses.
    fn clauses(&self, n: usize, classes: usize) -> usize {
        let paths: usize = self
            .members
            .iter()
            .map(|scc| {
                let inner: usize = scc.iter().map(|&s| self.inner(s as usize).count()).sum();
                scc.len() * inner
            })
            .sum();
        2 * paths * n * n * n + 2 * self.next.len() * classes * n * n
    }
}

/// The letter classes of an automaton: letters that take the same edge from every state.
struct Alphabet {
    /// The label (set of letters) of each class.
    labels: Vec<Bdd>,
    /// A letter of each class.
    reps: Vec<u64>,
    /// The class of each letter (bit `i` = AP `i`).
    class_of: Vec<u32>,
}

impl Alphabet {
    fn of(aut: &Twa) -> Alphabet {
        let k = aut.aps.len();
        let mut index: HashMap<Vec<u32>, u32> = HashMap::new();
        let mut a = Alphabet {
            labels: Vec::new(),
            reps: Vec::new(),
            class_of: Vec::with_capacity(1 << k),
        };
        for bits in 0..(1u64 << k) {
            let v = aut.valuation(bits);
            let sig: Vec<u32> = aut
                .states
                .iter()
                .map(|es| {
                    es.iter()
                        .position(|e| e.label.eval_in(&v))
                        .map_or(u32::MAX, |i| i as u32)
                })
                .collect();
            let cube = (0..k).fold(aut.tt(), |c, i| {
                let x = aut.ap_var(i);
                c.and(&if (bits >> i) & 1 == 1 { x } else { x.not() })
            });
            let c = *index.entry(sig).or_insert_with(|| {
                a.labels.push(aut.ff());
                a.reps.push(bits);
                (a.labels.len() - 1) as u32
            });
            a.labels[c as usize] = a.labels[c as usize].or(&cube);
            a.class_of.push(c);
        }
        a
    }

    /// The moves of `aut` on the classes (one representative letter each).
    fn moves(&self, aut: &Twa) -> Moves {
        Moves::of(aut, &self.reps)
    }
}

/// The SAT instance "a deterministic automaton with `n` states (state 0 initial) over
/// `classes` letters with the reference's language".
struct Encoding {
    sat: CdclBackend,
    n: usize,
    classes: usize,
    state_based: bool,
    one: OneMark,
    /// `t(q, c, q')` at `(q·classes + c)·n + q'`.
    t: Vec<Lit>,
    /// `a(q, c)` at `q·classes + c` (`a(q)` at `q` for state-based acceptance).
    a: Vec<Lit>,
    /// Clauses added.
    clauses: usize,
}

impl Encoding {
    fn new(n: usize, classes: usize, state_based: bool, one: OneMark) -> Encoding {
        let mut sat = CdclBackend::new();
        let t: Vec<Lit> = (0..n * classes * n)
            .map(|_| Lit::pos(sat.new_var()))
            .collect();
        let marks = if state_based { n } else { n * classes };
        let a: Vec<Lit> = (0..marks).map(|_| Lit::pos(sat.new_var())).collect();
        let mut e = Encoding {
            sat,
            n,
            classes,
            state_based,
            one,
            t,
            a,
            clauses: 0,
        };
        // Deterministic: at most one successor per state and class.
        for q in 0..n {
            for c in 0..classes {
                for x in 0..n {
                    for y in x + 1..n {
                        let cl = [!e.t(q, c, x), !e.t(q, c, y)];
                        e.clause(&cl);
                    }
                }
            }
        }
        e.break_symmetries();
        e
    }

    /// Numbers the candidate's states in breadth-first order from state 0, letter classes in
    /// their order (the BFS symmetry-breaking predicates of V. Ulyantsev, I. Zakirzyanov and
    /// A. Shalyto, "BFS-based symmetry breaking predicates for DFA identification", LATA 2015):
    /// `p(j, i)`, state `j`'s parent is `i < j`, the smallest state with an edge into `j`; parents
    /// do not decrease with `j`; siblings are ordered by the smallest class leading to them.
    /// Every trim deterministic automaton has one such numbering, and every equivalent
    /// automaton with fewer states (and an edge) extends to one with `n` reachable states by
    /// copying an edge's target, so unsatisfiability still means "no equivalent automaton with
    /// at most `n` states".
    fn break_symmetries(&mut self) {
        let (n, classes) = (self.n, self.classes);
        // `e(i, j)`: some edge from `i` to `j`.
        let mut edge = vec![Lit::pos(0); n * n];
        for i in 0..n {
            for j in 1..n {
                let x = Lit::pos(self.sat.new_var());
                edge[i * n + j] = x;
                let mut any = vec![!x];
                for c in 0..classes {
                    let t = self.t(i, c, j);
                    self.clause(&[!t, x]);
                    any.push(t);
                }
                self.clause(&any);
            }
        }
        // `p(j, i)` ⇔ e(i, j) ∧ ¬e(k, j) for every k < i.
        let mut parent = vec![Lit::pos(0); n * n];
        for j in 1..n {
            let mut one = Vec::new();
            for i in 0..j {
                let p = Lit::pos(self.sat.new_var());
                parent[j * n + i] = p;
                one.push(p);
                self.clause(&[!p, edge[i * n + j]]);
                let mut back = vec![p, !edge[i * n + j]];
                for k in 0..i {
                    self.clause(&[!p, !edge[k * n + j]]);
                    back.push(edge[k * n + j]);
                }
                self.clause(&back);
            }
            // Every state but 0 has a parent below it.
            self.clause(&one);
        }
        // Parents do not decrease: p(j, i) → ¬p(j+1, k) for k < i.
        for j in 1..n.saturating_sub(1) {
            for i in 0..j {
                for k in 0..i {
                    self.clause(&[!parent[j * n + i], !parent[(j + 1) * n + k]]);
                }
            }
        }
        // `m(i, c, j)`: `c` is the smallest class from `i` into `j`; siblings `j`, `j+1` of the
        // same parent `i` have increasing smallest classes.
        let mut first = vec![Lit::pos(0); n * classes * n];
        for i in 0..n {
            for j in 1..n {
                for c in 0..classes {
                    let m = Lit::pos(self.sat.new_var());
                    first[(i * classes + c) * n + j] = m;
                    self.clause(&[!m, self.t(i, c, j)]);
                    let mut back = vec![m, !self.t(i, c, j)];
                    for d in 0..c {
                        self.clause(&[!m, !self.t(i, d, j)]);
                        back.push(self.t(i, d, j));
                    }
                    self.clause(&back);
                }
            }
        }
        for j in 1..n.saturating_sub(1) {
            for i in 0..j {
                for c in 0..classes {
                    for d in 0..c {
                        self.clause(&[
                            !parent[j * n + i],
                            !parent[(j + 1) * n + i],
                            !first[(i * classes + c) * n + j],
                            !first[(i * classes + d) * n + j + 1],
                        ]);
                    }
                }
            }
        }
    }

    fn t(&self, q: usize, c: usize, q2: usize) -> Lit {
        self.t[(q * self.classes + c) * self.n + q2]
    }

    fn a(&self, q: usize, c: usize) -> Lit {
        if self.state_based {
            self.a[q]
        } else {
            self.a[q * self.classes + c]
        }
    }

    fn fresh(&mut self, count: usize) -> Vec<Lit> {
        (0..count).map(|_| Lit::pos(self.sat.new_var())).collect()
    }

    fn clause(&mut self, lits: &[Lit]) {
        self.clauses += 1;
        self.sat.add_clause(lits);
    }

    /// The product constraints with the reference (see the module documentation).
    fn add_product(&mut self, r: &Reference) {
        let (n, m) = (self.n, r.next.len());
        let classes = self.classes;
        // Reachable pairs.
        let reach = self.fresh(n * m);
        let rv = |q: usize, s: usize| reach[q * m + s];
        self.clause(&[rv(0, r.init)]);
        for q in 0..n {
            for s in 0..m {
                for c in 0..classes {
                    let (d, _) = r.next[s][c];
                    for q2 in 0..n {
                        let cl = [!rv(q, s), !self.t(q, c, q2), rv(q2, d)];
                        self.clause(&cl);
                    }
                    if r.live[d] {
                        let mut cl: Vec<Lit> = (0..n).map(|q2| self.t(q, c, q2)).collect();
                        cl.push(!rv(q, s));
                        self.clause(&cl);
                    }
                }
            }
        }
        // Path variables, per kind: `false`, paths whose candidate edges lack the mark (a
        // reference-marked closing edge forces the mark); `true`, paths whose reference edges
        // lack it (a reference-unmarked closing edge forbids it).
        for by_ref in [false, true] {
            for s1 in 0..m {
                // Start only where a closing edge of the kind can end.
                let starts = (0..m).any(|s2| {
                    r.comp[s2] == r.comp[s1]
                        && r.inner(s2).any(|(_, d, mk)| d == s1 && mk != by_ref)
                });
                if !starts {
                    continue;
                }
                let scc = &r.members[r.comp[s1] as usize];
                let mut index = vec![usize::MAX; m];
                for (i, &s) in scc.iter().enumerate() {
                    index[s as usize] = i;
                }
                for q1 in 0..n {
                    let p = self.fresh(n * scc.len());
                    let pv = |q: usize, s: usize| p[q * scc.len() + index[s]];
                    self.clause(&[!rv(q1, s1), pv(q1, s1)]);
                    for &s2 in scc {
                        let s2 = s2 as usize;
                        for (c, s3, mk) in r.inner(s2) {
                            for q2 in 0..n {
                                let mark = self.a(q2, c);
                                for q3 in 0..n {
                                    let t = self.t(q2, c, q3);
                                    if by_ref {
                                        if mk {
                                            continue;
                                        }
                                        if s3 == s1 && q3 == q1 {
                                            self.clause(&[!pv(q2, s2), !t, !mark]);
                                        }
                                        self.clause(&[!pv(q2, s2), !t, pv(q3, s3)]);
                                    } else {
                                        if mk && s3 == s1 && q3 == q1 {
                                            self.clause(&[!pv(q2, s2), !t, mark]);
                                        }
                                        self.clause(&[!pv(q2, s2), !t, mark, pv(q3, s3)]);
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// The candidate of the last satisfying assignment, over `orig`'s propositions and
    /// acceptance, trimmed.
    fn decode(&self, orig: &Twa, alpha: &Alphabet) -> Twa {
        let mut out = Twa::new(orig.aps.clone());
        out.vars = orig.vars.clone();
        out.num_sets = orig.num_sets;
        out.acc = orig.acc.clone();
        out.acc_false = orig.acc_false;
        out.state_based = orig.state_based;
        out.name = orig.name.clone();
        for _ in 0..self.n {
            out.add_state();
        }
        out.init = vec![0];
        let holds = |l: Lit| self.sat.model_value(l) == Some(true);
        for q in 0..self.n {
            let mut edges: Vec<(u32, Marks, Bdd)> = Vec::new();
            for (c, label) in alpha.labels.iter().enumerate() {
                let Some(q2) = (0..self.n).find(|&q2| holds(self.t(q, c, q2))) else {
                    continue;
                };
                let marks = if holds(self.a(q, c)) { self.one.bit } else { 0 };
                match edges
                    .iter_mut()
                    .find(|(d, m, _)| *d == q2 as u32 && *m == marks)
                {
                    Some(e) => e.2 = e.2.or(label),
                    None => edges.push((q2 as u32, marks, label.clone())),
                }
            }
            for (d, m, label) in edges {
                out.add_edge(q as u32, d, label, m);
            }
        }
        trim(&out)
    }
}

#[cfg(test)]
mod tests {
    use super::{minimize, Alphabet};
    use crate::accepts::accepts_lasso;
    use crate::det_merge::{compare, Comparison};
    use crate::ltl::eval::Lasso;
    use crate::twa::Twa;
    use proptest::prelude::*;
    use verikit_diag::Budget;

    /// A deterministic automaton over two propositions with `n` states and one mark.
    fn random_det(seed: u64, n: u32, acc: &str, partial: bool) -> Twa {
        crate::tests::random_det(seed, n, 1, acc, partial)
    }

    /// Every deterministic automaton with `n` states (state 0 initial) over the letter classes
    /// of `alpha`, with one mark on transitions, partial or complete, each given to `f`; the
    /// exhaustive oracle of minimality for tiny cases.
    fn every_automaton(
        reference: &Twa,
        alpha: &Alphabet,
        n: usize,
        f: &mut dyn FnMut(&Twa) -> bool,
    ) -> bool {
        let classes = alpha.labels.len();
        let slots = n * classes;
        // Each slot: no edge, or a successor with or without the mark.
        let choices = 2 * n + 1;
        let total = (choices as u64).pow(slots as u32);
        for code in 0..total {
            let mut a = Twa::new(reference.aps.clone());
            a.vars = reference.vars.clone();
            a.num_sets = reference.num_sets;
            a.acc = reference.acc.clone();
            a.acc_false = reference.acc_false;
            for _ in 0..n {
                a.add_state();
            }
            a.init = vec![0];
            let mut x = code;
            for s in 0..slots {
                let ch = (x % choices as u64) as usize;
                x /= choices as u64;
                if ch == 0 {
                    continue;
                }
                let (q, c) = (s / classes, s % classes);
                let (d, m) = ((ch - 1) / 2, (ch - 1) % 2);
                a.add_edge(q as u32, d as u32, alpha.labels[c].clone(), m as u64);
            }
            if f(&a) {
                return true;
            }
        }
        false
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]
        /// On random deterministic Büchi and co-Büchi automata (on transitions, partial or
        /// complete), the result is deterministic, no larger, and decides every lasso with a
        /// prefix ≤ 2 and a cycle ≤ 3 as the input does (by the lasso membership check, not by
        /// the products the candidates are checked with).
        #[test]
        fn minimisation_keeps_the_language(seed in any::<u64>(), n in 2u32..6, fin in any::<bool>(), partial in any::<bool>()) {
            let a = random_det(seed, n, if fin { "Fin(0)" } else { "Inf(0)" }, partial);
            let (m, st) = minimize(&a, 20_000, &Budget::unlimited()).unwrap();
            prop_assert!(m.is_deterministic());
            prop_assert!(m.num_states() <= a.num_states());
            prop_assert_eq!(st.states, m.num_states());
            prop_assert!(st.skipped.is_none());
            for w in Lasso::all(4, 2, 3) {
                prop_assert_eq!(accepts_lasso(&m, &w), accepts_lasso(&a, &w), "{:?}", w);
            }
        }
    }

    /// Minimality against exhaustive search: on tiny random automata over one proposition, no
    /// deterministic automaton with fewer states than the result has the input's language
    /// (candidates agreeing on short lassos are decided by the equivalence check).
    #[test]
    fn no_smaller_automaton_exists() {
        let mut tried = 0;
        for seed in 0..60u64 {
            let acc = if seed % 2 == 0 { "Inf(0)" } else { "Fin(0)" };
            let a = crate::prune::trim(&crate::tests::random_det_over(
                1,
                seed,
                4,
                1,
                acc,
                seed % 3 == 0,
            ));
            let (m, st) = minimize(&a, 100_000, &Budget::unlimited()).unwrap();
            if st.skipped.is_some() || m.num_states() < 2 || m.num_states() > 3 {
                continue;
            }
            tried += 1;
            assert!(st.minimal, "seed {seed}: {st:?}");
            let words = Lasso::all(2, 3, 4);
            let alpha = Alphabet::of(&a);
            let a_c = crate::dual::complement_deterministic(&a, &Budget::unlimited()).unwrap();
            let smaller = every_automaton(&a, &alpha, m.num_states() - 1, &mut |b| {
                words
                    .iter()
                    .all(|w| accepts_lasso(b, w) == accepts_lasso(&a, w))
                    && matches!(
                        compare(
                            &crate::prune::trim(b),
                            &a,
                            &a_c,
                            &Budget::unlimited(),
                            &mut 0
                        ),
                        Ok(Comparison::Same)
                    )
            });
            assert!(
                !smaller,
                "seed {seed}: an automaton with {} states exists",
                m.num_states() - 1
            );
        }
        assert!(tried >= 5, "{tried}");
    }

    /// A Büchi automaton with two copies of the same state is minimised to one state.
    #[test]
    fn duplicate_states_minimise() {
        let text = "HOA: v1\nStates: 3\nStart: 0\nAP: 1 \"a\"\nAcceptance: 1 Inf(0)\n--BODY--\n\
                    State: 0\n[0] 1 {0}\n[!0] 2\nState: 1\n[0] 2 {0}\n[!0] 1\n\
                    State: 2\n[0] 1 {0}\n[!0] 2\n--END--\n";
        let a = crate::hoa::parse(text).unwrap();
        let (m, st) = minimize(&a, 100_000, &Budget::unlimited()).unwrap();
        assert_eq!(m.num_states(), 1, "{st:?}");
        for w in Lasso::all(2, 2, 3) {
            assert_eq!(accepts_lasso(&m, &w), accepts_lasso(&a, &w));
        }
    }

    /// Conditions other than one-mark Büchi or co-Büchi are refused by name, the input kept.
    #[test]
    fn other_conditions_are_skipped() {
        let a = crate::tests::random_det(3, 4, 3, "Inf(0) | (Fin(1) & Inf(2))", false);
        let (m, st) = minimize(&a, 100_000, &Budget::unlimited()).unwrap();
        assert_eq!(m.num_states(), a.num_states());
        assert_eq!(st.skipped, Some("acceptance is not Büchi or co-Büchi"));
    }

    /// A budget already spent leaves the automaton as it is.
    #[test]
    fn a_spent_budget_keeps_the_input() {
        let a = random_det(7, 6, "Inf(0)", false);
        let b = Budget::with_timeout(std::time::Duration::ZERO);
        let (m, st) = minimize(&a, 100_000, &b).unwrap();
        assert!(st.capped);
        assert_eq!(m.num_states(), crate::prune::trim(&a).num_states());
    }
}
