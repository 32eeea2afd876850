//! LTL → transition-based generalized Büchi automaton by Couvreur's tableau.
//!
//! Paper: J.-M. Couvreur, "On-the-fly verification of linear temporal logic", FM'99 (LNCS 1708),
//! §3 (the symbolic tableau with acceptance on transitions), in the explicit form used by Spot's
//! `ltl2tgba_fm` (Duret-Lutz, Poitrenaud, "SPOT: an extensible model checking library using
//! transition-based generalized Büchi automata", MASCOTS'04).
//!
//! A state is a formula (the conjunction of the obligations left for the future, hash-consed).
//! Its *expansion* is a set of terms `(letters, next obligations, promises)`: the disjunctive
//! normal form of the formula after the fixpoint unfoldings
//! `a U b = b | (a & X(a U b) & P(a U b))`, `F b = b | (X F b & P(F b))`,
//! `a R b = (a & b) | (b & X(a R b))`, `G b = b & X G b`, `a W b = b | (a & X(a W b))`,
//! `a M b = (a & b) | (b & X(a M b) & P(a M b))`, where the promise `P(e)` records that the
//! eventuality `e` was postponed. Boolean subformulas become one BDD each. An edge `s -> N` with
//! promises `P` belongs to acceptance set `e` iff `e ∉ P`: a run is accepting iff no eventuality is
//! postponed forever. The input is first put through [`crate::ltl::simplify::simplify`], and the
//! result through [`crate::postproc`] (useless states, acceptance cleanup, bisimulation merge,
//! iterated simulation and co-simulation).

use crate::error::OmegaError;
use crate::ltl::ast::{Arena, Node, F};
use crate::ltl::linear_form::LinearForms;
use crate::ltl::sere::S;
use crate::ltl::synt_impl::implies;
use crate::twa::{Marks, Twa, MAX_SETS};
use biodivine_lib_bdd::Bdd;
use std::collections::{BTreeMap, HashMap, HashSet};
use verikit_diag::{Budget, Exhausted};

/// Options of the translation.
#[derive(Clone, Debug)]
pub struct Options {
    /// Run the formula simplifier first.
    pub simplify_formula: bool,
    /// Run the automaton simplifications afterwards.
    pub postprocess: bool,
    /// State-based Büchi output (degeneralised).
    pub sba: bool,
    /// Try the WDBA minimisation of obligation properties ([`crate::wdba`]).
    pub wdba: bool,
    /// Give up beyond this many states.
    pub max_states: usize,
    /// After the checked merges, also run [`crate::redirect_merge::reduce`] (merges and
    /// redirects checked by inclusion both ways) from the winner and from the simplified raw
    /// tableau (the latter stopped when its merges reproduce the winner), within the counted
    /// budgets of [`crate::redirect_merge::Budget::default`]. On by default (as Spot's `--high`
    /// spends effort on size): it removes the last formula of the shared benchmark where the
    /// tableau pipeline is larger than Spot's automaton; the cost is about 3× the CPU time of the
    /// random set and up to 6 s of CPU on the largest automata (decision 0333).
    pub redirect_merges: bool,
    /// Optimisation effort, as Spot's `--low`/`--medium`/`--high` (decision 0341): `Low` is one
    /// tableau of the simplified formula with the simplification pipeline of [`crate::postproc`];
    /// `Medium` adds the portfolio (the unsimplified and the containment-simplified formula, the
    /// fair-simulation reduction, the automaton of `GF g`, the degeneralisation portfolio) but not
    /// the merges checked against the negation; `High` adds those (and the redirect merges when
    /// [`Options::redirect_merges`] is set).
    pub level: Level,
    /// Polled by the tableau (per state) and between the steps of the portfolio. When it runs out
    /// during the first tableau the translation fails with [`OmegaError::Exhausted`]; after that,
    /// the remaining optional steps are skipped and the best automaton so far is returned (it has
    /// the language of the formula, and is state-based Büchi with `sba`).
    pub budget: Budget,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            simplify_formula: true,
            postprocess: true,
            sba: false,
            wdba: true,
            max_states: 200_000,
            redirect_merges: true,
            level: Level::High,
            budget: Budget::unlimited(),
        }
    }
}

/// Optimisation level of the translation ([`Options::level`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    Low,
    Medium,
    #[default]
    High,
}

impl Level {
    pub fn name(self) -> &'static str {
        match self {
            Level::Low => "low",
            Level::Medium => "medium",
            Level::High => "high",
        }
    }
}

#[derive(Clone, Debug)]
struct Term {
    label: Bdd,
    next: Vec<F>,
    promises: Vec<F>,
}

struct Tableau<'a> {
    arena: &'a mut Arena,
    aut: Twa,
    memo: HashMap<F, Vec<Term>>,
    bool_memo: HashMap<F, Bdd>,
    remap: Vec<u32>,
    /// Linear forms of the SEREs met (PSL), and their non-emptiness.
    lf: LinearForms,
    nonempty: HashMap<S, bool>,
    /// Polled by the merges of the expansion; when it runs out they return nothing, and
    /// `translate_once` stops with the exhaustion at its next poll (the tableau is dropped).
    budget: Budget,
}

fn union(a: &[F], b: &[F]) -> Vec<F> {
    let mut v: Vec<F> = a.iter().chain(b.iter()).copied().collect();
    v.sort_unstable();
    v.dedup();
    v
}

impl Tableau<'_> {
    fn bool_bdd(&mut self, f: F) -> Bdd {
        if let Some(b) = self.bool_memo.get(&f) {
            return b.clone();
        }
        let r = match self.arena.node(f).clone() {
            Node::True => self.aut.tt(),
            Node::False => self.aut.ff(),
            Node::Ap(i) => self
                .aut
                .ap_var(self.remap.get(i as usize).copied().unwrap_or(0) as usize),
            Node::Not(x) => self.bool_bdd(x).not(),
            Node::And(v) => {
                let mut acc = self.aut.tt();
                for x in v {
                    acc = acc.and(&self.bool_bdd(x));
                }
                acc
            }
            Node::Or(v) => {
                let mut acc = self.aut.ff();
                for x in v {
                    acc = acc.or(&self.bool_bdd(x));
                }
                acc
            }
            Node::Xor(x, y) => self.bool_bdd(x).xor(&self.bool_bdd(y)),
            Node::Implies(x, y) => self.bool_bdd(x).imp(&self.bool_bdd(y)),
            Node::Equiv(x, y) => self.bool_bdd(x).iff(&self.bool_bdd(y)),
            _ => self.aut.ff(),
        };
        self.bool_memo.insert(f, r.clone());
        r
    }

    fn single(&self, label: Bdd, next: Vec<F>, promises: Vec<F>) -> Vec<Term> {
        vec![Term {
            label,
            next,
            promises,
        }]
    }

    /// Conjunction of two term sets.
    fn product(&self, x: &[Term], y: &[Term]) -> Vec<Term> {
        let mut out = Vec::with_capacity(x.len() * y.len());
        for s in x {
            for t in y {
                let l = s.label.and(&t.label);
                if l.is_false() {
                    continue;
                }
                out.push(Term {
                    label: l,
                    next: union(&s.next, &t.next),
                    promises: union(&s.promises, &t.promises),
                });
            }
        }
        merge_within(out, &self.budget).unwrap_or_default()
    }

    fn expand(&mut self, f: F) -> Vec<Term> {
        if let Some(t) = self.memo.get(&f) {
            return t.clone();
        }
        let tt = self.aut.tt();
        let r = if self.arena.is_boolean(f) {
            let b = self.bool_bdd(f);
            if b.is_false() {
                vec![]
            } else {
                self.single(b, vec![], vec![])
            }
        } else {
            match self.arena.node(f).clone() {
                Node::X(x) => self.single(tt, vec![x], vec![]),
                Node::And(v) => {
                    let mut acc = self.single(tt, vec![], vec![]);
                    for x in v {
                        let ex = self.expand(x);
                        acc = self.product(&acc, &ex);
                        if acc.is_empty() {
                            break;
                        }
                    }
                    acc
                }
                Node::Or(v) => {
                    let mut acc = Vec::new();
                    for x in v {
                        acc.extend(self.expand(x));
                    }
                    merge_within(acc, &self.budget).unwrap_or_default()
                }
                Node::U(a, b) => {
                    let mut acc = self.expand(b);
                    let ea = self.expand(a);
                    let post = self.single(tt, vec![f], vec![f]);
                    acc.extend(self.product(&ea, &post));
                    merge_within(acc, &self.budget).unwrap_or_default()
                }
                Node::Ev(b) => {
                    let mut acc = self.expand(b);
                    acc.extend(self.single(tt, vec![f], vec![f]));
                    merge_within(acc, &self.budget).unwrap_or_default()
                }
                Node::M(a, b) => {
                    let ea = self.expand(a);
                    let eb = self.expand(b);
                    let mut acc = self.product(&ea, &eb);
                    let post = self.single(tt, vec![f], vec![f]);
                    acc.extend(self.product(&eb, &post));
                    merge_within(acc, &self.budget).unwrap_or_default()
                }
                Node::R(a, b) => {
                    let ea = self.expand(a);
                    let eb = self.expand(b);
                    let mut acc = self.product(&ea, &eb);
                    let post = self.single(tt, vec![f], vec![]);
                    acc.extend(self.product(&eb, &post));
                    merge_within(acc, &self.budget).unwrap_or_default()
                }
                Node::W(a, b) => {
                    let mut acc = self.expand(b);
                    let ea = self.expand(a);
                    let post = self.single(tt, vec![f], vec![]);
                    acc.extend(self.product(&ea, &post));
                    merge_within(acc, &self.budget).unwrap_or_default()
                }
                Node::Gl(b) => {
                    let eb = self.expand(b);
                    let post = self.single(tt, vec![f], vec![]);
                    self.product(&eb, &post)
                }
                Node::Closure(_) | Node::NegClosure(..) | Node::EConcat(..) | Node::UConcat(..) => {
                    self.expand_sere(f)
                }
                // Not in NNF (not reached after `nnf`): expand through the equivalent NNF formula.
                _ => {
                    let g = crate::ltl::nnf::nnf(self.arena, f);
                    if g == f {
                        vec![]
                    } else {
                        self.expand(g)
                    }
                }
            }
        };
        self.memo.insert(f, r.clone());
        r
    }
}

impl Tableau<'_> {
    /// The linear form of `r` with BDD letters, satisfiable letters only.
    fn lf_bdd(&mut self, r: S) -> Vec<(Bdd, S)> {
        let pairs = self.lf.lf(self.arena, r);
        let mut out = Vec::with_capacity(pairs.len());
        for (b, t) in pairs {
            let l = self.bool_bdd(b);
            if !l.is_false() {
                out.push((l, t));
            }
        }
        out
    }

    /// True when `r` matches some word (memoised).
    fn sere_nonempty(&mut self, r: S) -> bool {
        if let Some(&v) = self.nonempty.get(&r) {
            return v;
        }
        let mut seen = HashSet::new();
        let mut todo = vec![r];
        let mut found = false;
        while let Some(s) = todo.pop() {
            if !seen.insert(s) {
                continue;
            }
            if self.arena.nullable(s) {
                found = true;
                break;
            }
            for (_, t) in self.lf_bdd(s) {
                todo.push(t);
            }
        }
        self.nonempty.insert(r, found);
        found
    }

    /// One step of a SERE binding operator through the linear form of its SERE (Spot's
    /// `ltl2tgba_fm` rewriting, Duret-Lutz ATVA'13 §3). The eventualities (`<>->`, `!{r}`) carry
    /// no promise here: [`breakpoint`] gives them their acceptance.
    fn expand_sere(&mut self, f: F) -> Vec<Term> {
        let tt = self.aut.tt();
        match self.arena.node(f).clone() {
            // {r} = ⋁ b ∧ (nullable(r') ∨ X{r'}) over r' with a non-empty language.
            Node::Closure(r) => {
                let mut acc = Vec::new();
                for (b, t) in self.lf_bdd(r) {
                    if self.arena.nullable(t) {
                        acc.extend(self.single(b, vec![], vec![]));
                    } else if self.sere_nonempty(t) {
                        let g = self.arena.closure(t);
                        acc.extend(self.single(b, vec![g], vec![]));
                    }
                }
                merge_within(acc, &self.budget).unwrap_or_default()
            }
            // !{r} = ⋀ b → (¬nullable(r') ∧ X !{r'}) (with X !{r'} true when r' is empty).
            Node::NegClosure(r, m) => {
                let mut acc = self.single(tt, vec![], vec![]);
                for (b, t) in self.lf_bdd(r) {
                    let mut alt = self.single(b.not(), vec![], vec![]);
                    if !self.arena.nullable(t) {
                        let next = if self.sere_nonempty(t) {
                            vec![self.arena.neg_closure(t, m)]
                        } else {
                            vec![]
                        };
                        alt.extend(self.single(b, next, vec![]));
                    }
                    acc = self.product(&acc, &alt);
                    if acc.is_empty() {
                        break;
                    }
                }
                acc
            }
            // {r}<>-> g = ⋁ b ∧ ((nullable(r') ∧ g) ∨ X {r'}<>-> g).
            Node::EConcat(r, g, m) => {
                let mut acc = Vec::new();
                let eg = self.expand(g);
                for (b, t) in self.lf_bdd(r) {
                    let here = self.single(b.clone(), vec![], vec![]);
                    if self.arena.nullable(t) {
                        acc.extend(self.product(&here, &eg));
                    }
                    if self.sere_nonempty(t) {
                        let next = self.arena.econcat(t, g, m);
                        acc.extend(self.single(b, vec![next], vec![]));
                    }
                }
                merge_within(acc, &self.budget).unwrap_or_default()
            }
            // {r}[]-> g = ⋀ b → ((nullable(r') → g) ∧ X {r'}[]-> g).
            Node::UConcat(r, g) => {
                let mut acc = self.single(tt.clone(), vec![], vec![]);
                let eg = self.expand(g);
                for (b, t) in self.lf_bdd(r) {
                    let next = if self.sere_nonempty(t) {
                        vec![self.arena.uconcat(t, g)]
                    } else {
                        vec![]
                    };
                    let mut taken = self.single(b.clone(), next, vec![]);
                    if self.arena.nullable(t) {
                        taken = self.product(&taken, &eg);
                    }
                    let mut alt = self.single(b.not(), vec![], vec![]);
                    alt.extend(taken);
                    acc = self.product(&acc, &alt);
                    if acc.is_empty() {
                        break;
                    }
                }
                acc
            }
            _ => vec![],
        }
    }
}

/// True for the eventualities of PSL whose acceptance is given by [`breakpoint`].
fn watched(a: &Arena, f: F) -> Option<bool> {
    match a.node(f) {
        Node::EConcat(_, _, m) | Node::NegClosure(_, m) => Some(*m),
        _ => None,
    }
}

/// Acceptance of the PSL eventualities by a breakpoint (Miyano–Hayashi): the obligations
/// `{r}<>-> g` and `!{r}` of a state are marked (watched) or not; a transition to a state with
/// marked obligations promises `token` (it is not accepting for that set); a transition to a
/// state without marked obligations is accepting and marks every obligation of the target.
/// An obligation pending forever is eventually marked and keeps its marked successors, so the
/// set is visited finitely often; if every obligation is fulfilled, each watched set empties.
/// (A promise per obligation, as for `U`, is not enough: the derivatives of a SERE change the
/// obligation at every step, and overlapping obligations of bounded length can pend forever.)
fn breakpoint(a: &mut Arena, t: &mut Term, token: F) {
    let mut any = false;
    let mut has_marked = false;
    for &g in &t.next {
        if let Some(m) = watched(a, g) {
            any = true;
            has_marked |= m;
        }
    }
    if !any {
        return;
    }
    if has_marked {
        t.promises.push(token);
        t.promises.sort_unstable();
        t.promises.dedup();
        return;
    }
    let next: Vec<F> = t
        .next
        .iter()
        .map(|&g| match a.node(g).clone() {
            Node::EConcat(r, x, false) => a.econcat(r, x, true),
            Node::NegClosure(r, false) => a.neg_closure(r, true),
            _ => g,
        })
        .collect();
    let mut next = next;
    next.sort_unstable();
    next.dedup();
    t.next = next;
}

/// Merges terms with the same obligations and promises (disjunction of their letters), then
/// removes dominated letters: when term `j` has a subset of term `i`'s obligations and of its
/// promises, every letter of `j` is better taken by `j` (the target state has a larger language
/// and the edge is at least as accepting), so `i` keeps only `label_i & !label_j`. This is the
/// pruning that makes the tableau's edges mostly deterministic (`G(a -> Fb)` gets 2 states and
/// disjoint edges); it preserves the language because the run that always takes a
/// non-dominated term and postpones an eventuality only when it must is accepting.
/// Polls `budget`: the merge of a state's terms is quadratic in their number.
fn merge_within(terms: Vec<Term>, budget: &Budget) -> Result<Vec<Term>, Exhausted> {
    // Checked first even for no terms: an expansion cut short by the budget returned none, and
    // its state must not be taken as a state without successors.
    budget.check()?;
    let mut by_key: BTreeMap<(Vec<F>, Vec<F>), Bdd> = BTreeMap::new();
    for t in terms {
        match by_key.get_mut(&(t.next.clone(), t.promises.clone())) {
            Some(l) => *l = l.or(&t.label),
            None => {
                by_key.insert((t.next, t.promises), t.label);
            }
        }
    }
    let v: Vec<Term> = by_key
        .into_iter()
        .map(|((next, promises), label)| Term {
            label,
            next,
            promises,
        })
        .collect();
    let subset = |a: &[F], b: &[F]| a.iter().all(|x| b.binary_search(x).is_ok());
    let mut out = Vec::with_capacity(v.len());
    for i in 0..v.len() {
        // Quadratic in the terms of one state: poll the budget per term.
        budget.check()?;
        let mut l = v[i].label.clone();
        for j in 0..v.len() {
            if i != j && subset(&v[j].next, &v[i].next) && subset(&v[j].promises, &v[i].promises) {
                l = l.and_not(&v[j].label);
                if l.is_false() {
                    break;
                }
            }
        }
        if !l.is_false() {
            out.push(Term {
                label: l,
                next: v[i].next.clone(),
                promises: v[i].promises.clone(),
            });
        }
    }
    Ok(out)
}

/// The obligations of a successor state without those implied by another kept obligation
/// (`F(a) & (F(a) | G b)` keeps `F(a)`; `G b & b` keeps `G b`). The state formula is equivalent,
/// and no eventuality is rewritten, only dropped when another obligation already implies it.
fn absorb(a: &mut Arena, next: &[F]) -> Vec<F> {
    let conj = a.and(next.to_vec());
    let items: Vec<F> = match a.node(conj) {
        Node::And(v) => v.clone(),
        Node::True => return vec![],
        _ => return vec![conj],
    };
    let mut keep = vec![true; items.len()];
    // The syntactic implication is written for LTL: PSL obligations are neither dropped nor
    // used to drop others (a marked and an unmarked `<>->` must both stay).
    let psl: Vec<bool> = items.iter().map(|&f| a.has_sere(f)).collect();
    for i in 0..items.len() {
        if psl[i] {
            continue;
        }
        for j in 0..items.len() {
            if i != j && keep[j] && !psl[j] && implies(a, items[j], items[i], 6) {
                keep[i] = false;
                break;
            }
        }
    }
    items
        .into_iter()
        .zip(keep)
        .filter(|(_, k)| *k)
        .map(|(f, _)| f)
        .collect()
}

/// Translates `f` (in `arena`) into a TGBA (or, with `opts.sba`, a state-based Büchi automaton).
/// The automaton's APs are all APs of the arena that occur in `f`, in arena order.
///
/// With both simplifications on, the formula is translated up to three times — simplified, only in
/// negation normal form, and (for formulas of tree size at most [`CONTAINMENT_MAX_SIZE`])
/// simplified with the language-containment checks of [`crate::containment`] — and the smallest
/// TGBA (states, then edges, then sets) is kept: the rewritings usually help, but not always (a
/// small portfolio, as Spot's `--small` does with its own variants). The winner then goes
/// through the fair-simulation reduction of [`crate::gba_reduce`] (small automata), the merges of
/// [`crate::checked_merge`] (checked against an automaton of `¬f`), and competes with the
/// deterministic automaton of [`crate::gf_guarantee`] when `f = GF g`. With `opts.sba` the
/// candidates are degeneralised by [`crate::postproc::to_sba`] (then fair-reduced and merged
/// again) and compared as state-based automata.
pub fn translate(arena: &mut Arena, f: F, opts: &Options) -> Result<Twa, OmegaError> {
    if !(opts.simplify_formula && opts.postprocess) || opts.level == Level::Low {
        return translate_once(arena, f, opts);
    }
    let high = opts.level == Level::High;
    // The variants are compared as TGBA; the winner is degeneralised at the end.
    let tgba = Options {
        sba: false,
        ..opts.clone()
    };
    let key = |a: &Twa| (a.num_states(), a.num_edges(), a.num_sets);
    let budget = &opts.budget;
    // The optional steps run only while the budget lasts.
    let live = || budget.check().is_ok();
    let mut best = translate_once(arena, f, &tgba)?;
    if best.num_states() > 1 && live() {
        let plain = Options {
            simplify_formula: false,
            ..tgba.clone()
        };
        if let Ok(b) = translate_once(arena, f, &plain) {
            if key(&b) < key(&best) {
                best = b;
            }
        }
    }
    // Third variant: the formula simplified with language-containment checks.
    if best.num_states() > 1
        && arena.tree_size(f) <= CONTAINMENT_MAX_SIZE
        && !arena.has_sere(f)
        && live()
    {
        let simplified = crate::ltl::simplify::simplify(arena, f);
        // Implications decided by the emptiness of the tableau of `p ∧ ¬o`.
        let mut is_empty = |a: &mut Arena, q: F| {
            let o = Options {
                postprocess: false,
                wdba: false,
                sba: false,
                max_states: 400,
                budget: budget.clone(),
                ..Options::default()
            };
            translate(a, q, &o).is_ok_and(|aut| crate::emptiness::is_empty(&aut))
        };
        let g = crate::containment::simplify_by_containment(arena, f, &mut is_empty);
        if g != simplified {
            if let Ok(c) = translate_once(arena, g, &tgba) {
                if key(&c) < key(&best) {
                    best = c;
                }
            }
        }
    }
    best = fair_reduced(&best, budget);
    // Merges checked against an automaton of the negation, for small automata.
    let in_scope = |a: &Twa, max: usize| a.num_states() > 2 && a.num_states() <= max;
    let mut neg: Option<Twa> = None;
    let mut negation = |arena: &mut Arena| -> Option<Twa> {
        if neg.is_none() {
            let nf = arena.not(f);
            let neg_opts = Options {
                wdba: false,
                sba: false,
                postprocess: false,
                ..opts.clone()
            };
            neg = translate(arena, nf, &neg_opts)
                .ok()
                .map(|n| crate::prune::prune(&n));
        }
        neg.clone()
    };
    // The automaton before the merges: its degeneralisation may be the smaller one for `-B`.
    let mut before_merges = None;
    if high && in_scope(&best, crate::checked_merge::MAX_STATES) && live() {
        if let Some(n) = negation(arena) {
            let m = crate::checked_merge::merge_states(&best, &n, &crate::postproc::simplify);
            if key(&m) < key(&best) {
                before_merges = Some(std::mem::replace(&mut best, m));
            }
        }
    }
    // The winner before the redirect merges: with `opts.sba` it competes after degeneralisation
    // (a redirected TGBA with fewer states may degeneralise into a larger Büchi automaton).
    let mut before_redirects = None;
    if high && opts.redirect_merges && best.num_states() > 2 && live() {
        if let Some(n) = negation(arena) {
            let raw = Options {
                postprocess: false,
                wdba: false,
                sba: false,
                ..opts.clone()
            };
            let mut starts = vec![best.clone()];
            if let Ok(t) = translate_once(arena, f, &raw) {
                starts.push(crate::postproc::simplify(&t));
            }
            let simplify = &crate::postproc::simplify;
            let first = best.clone();
            for (k, s) in starts.into_iter().enumerate() {
                if s.num_states() > crate::redirect_merge::MAX_STATES {
                    continue;
                }
                let limits = crate::redirect_merge::Limits {
                    // The winner went through the checked merges already.
                    merge_first: k > 0,
                    ..crate::redirect_merge::Limits::default()
                };
                let t0 = std::time::Instant::now();
                let seen = if k > 0 {
                    std::slice::from_ref(&first)
                } else {
                    &[]
                };
                let (m, st) = crate::redirect_merge::reduce_unless_seen(
                    &s, &n, simplify, &limits, budget, seen,
                );
                tracing::debug!(
                    "redirect merges from start {k}: {} -> {} states, {st:?}, {:.3} s",
                    s.num_states(),
                    m.num_states(),
                    t0.elapsed().as_secs_f64()
                );
                if key(&m) < key(&best) {
                    let old = std::mem::replace(&mut best, m);
                    before_redirects.get_or_insert(old);
                }
            }
        }
    }
    // The deterministic automaton of `GF g` competes with the winner; with `opts.sba` the two are
    // compared after degeneralisation (a smaller TGBA may degeneralise into a larger automaton).
    let gf = if best.num_states() > 1 && live() {
        gf_guarantee(arena, f, &tgba)
    } else {
        None
    };
    if opts.sba {
        best = sba_of(&best, budget);
        // The automaton before the merges has more states than the merged one; its
        // degeneralisation is only tried when it has at most as many states as the degeneralised
        // winner (otherwise it never won on the 699 benchmark formulas, and on a 6-set formula it
        // cost a second round of game-checked removals and the whole degeneralisation portfolio).
        let before_merges = before_merges.filter(|c| c.num_states() <= best.num_states());
        for c in before_merges.into_iter().chain(before_redirects).chain(gf) {
            if !live() {
                break;
            }
            let c = sba_of(&c, budget);
            if key(&c) < key(&best) {
                best = c;
            }
        }
        if high && in_scope(&best, crate::checked_merge::MAX_STATES_SBA) && live() {
            if let Some(n) = negation(arena) {
                let m = crate::checked_merge::merge_states(&best, &n, &crate::postproc::simplify);
                if m.state_based && m.num_sets <= 1 && key(&m) < key(&best) {
                    best = m;
                }
            }
        }
    } else if let Some(c) = gf {
        if key(&c) < key(&best) {
            best = c;
        }
    }
    Ok(best)
}

/// The state-based Büchi automaton of [`crate::postproc::to_sba`], then the fair-simulation
/// reduction (which keeps state-based automata state-based; checked, the result is kept only if
/// it is still a state-based Büchi automaton and smaller).
fn sba_of(aut: &Twa, budget: &Budget) -> Twa {
    let b = crate::postproc::to_sba(aut, budget);
    let r = fair_reduced(&b, budget);
    if r.state_based && r.num_sets <= 1 {
        r
    } else {
        b
    }
}

/// For `f = GF g` (after simplification) with `g` a guarantee formula, the deterministic
/// automaton of [`crate::gf_guarantee`], simplified; `None` for other formulas or when the
/// automaton of `F g` is not terminal.
fn gf_guarantee(arena: &mut Arena, f: F, opts: &Options) -> Option<Twa> {
    let s = crate::ltl::simplify::simplify(arena, f);
    let Node::Gl(fg) = arena.node(s).clone() else {
        return None;
    };
    let Node::Ev(g) = arena.node(fg).clone() else {
        return None;
    };
    if !crate::gf_guarantee::is_guarantee(arena, g) {
        return None;
    }
    let d = translate_once(arena, fg, opts).ok()?;
    let r = crate::gf_guarantee::from_terminal(&d)?;
    Some(fair_reduced(&crate::postproc::simplify(&r), &opts.budget))
}

/// Largest automaton (states) given to the fair-simulation reduction of the translation.
pub(crate) const FAIR_MAX_STATES: usize = 30;
/// Largest number of acceptance sets given to the fair-simulation reduction (its games grow with
/// the number of sets: a 41-state automaton with 6 sets takes seconds).
pub(crate) const FAIR_MAX_SETS: u32 = 4;

/// The fair-simulation minimisation of [`crate::gba_reduce`] (Juvekar–Piterman CAV'06 §4.2:
/// merges and edge removals, each checked by fair-simulation equivalence) followed by the
/// simplifications of [`crate::postproc`], kept when smaller. It merges states that only
/// simulation *up to acceptance* relates (e.g. `F(d & XFc) | GFc`: the waiting state and the
/// state of `GFc`), which the direct simulation of the post-processor cannot.
fn fair_reduced(aut: &Twa, budget: &Budget) -> Twa {
    if aut.num_states() <= 1
        || aut.num_states() > FAIR_MAX_STATES
        || aut.num_sets > FAIR_MAX_SETS
        || budget.check().is_err()
    {
        return aut.clone();
    }
    let (r, _) = crate::gba_reduce::reduce(aut, crate::gba_reduce::Method::Fair, budget);
    let r = crate::postproc::simplify(&r);
    let key = |a: &Twa| (a.num_states(), a.num_edges(), a.num_sets);
    if key(&r) < key(aut) {
        r
    } else {
        aut.clone()
    }
}

/// Largest formula (tree size) simplified with containment checks.
pub(crate) const CONTAINMENT_MAX_SIZE: usize = 60;

fn translate_once(arena: &mut Arena, f: F, opts: &Options) -> Result<Twa, OmegaError> {
    let original = f;
    let f = if opts.simplify_formula {
        crate::ltl::simplify::simplify(arena, f)
    } else {
        crate::ltl::nnf::nnf(arena, f)
    };
    // APs of the original formula's arena that occur in f, keeping arena order.
    let used = arena.aps_of(f);
    let mut remap = vec![u32::MAX; arena.aps().len()];
    let mut names = Vec::new();
    for (k, &i) in used.iter().enumerate() {
        remap[i as usize] = k as u32;
        names.push(arena.ap_name(i).to_string());
    }
    // APs are indexed densely: the BDD variable of arena AP i is remap[i].
    let g = f;
    let mut tab = Tableau {
        arena,
        aut: Twa::new(names),
        memo: HashMap::new(),
        bool_memo: HashMap::new(),
        remap,
        lf: LinearForms::new(),
        nonempty: HashMap::new(),
        budget: opts.budget.clone(),
    };
    let token = tab.arena.breakpoint_token();
    let mut index: HashMap<F, u32> = HashMap::new();
    let mut order: Vec<F> = Vec::new();
    let mut raw: Vec<Vec<Term>> = Vec::new();
    index.insert(g, 0);
    order.push(g);
    let mut k = 0;
    while k < order.len() {
        opts.budget.check()?;
        if order.len() > opts.max_states {
            return Err(OmegaError::Limit(format!(
                "the translation exceeds {} states",
                opts.max_states
            )));
        }
        let s = order[k];
        let terms = tab.expand(s);
        let terms: Vec<Term> = merge_within(
            terms
                .into_iter()
                .map(|t| {
                    let mut t = Term {
                        next: absorb(tab.arena, &t.next),
                        ..t
                    };
                    breakpoint(tab.arena, &mut t, token);
                    t
                })
                .collect(),
            &opts.budget,
        )?;
        for t in &terms {
            let dst = tab.arena.and(t.next.clone());
            if let std::collections::hash_map::Entry::Vacant(v) = index.entry(dst) {
                v.insert(order.len() as u32);
                order.push(dst);
            }
        }
        raw.push(terms);
        k += 1;
    }
    // Acceptance sets: one per eventuality that is ever promised.
    let mut evs: Vec<F> = raw
        .iter()
        .flatten()
        .flat_map(|t| t.promises.iter().copied())
        .collect();
    evs.sort_unstable();
    evs.dedup();
    if evs.len() > MAX_SETS as usize {
        return Err(OmegaError::Limit(format!(
            "the translation needs {} acceptance sets (at most {MAX_SETS})",
            evs.len()
        )));
    }
    let ev_index: HashMap<F, u32> = evs
        .iter()
        .enumerate()
        .map(|(i, &e)| (e, i as u32))
        .collect();
    let mut aut = std::mem::replace(&mut tab.aut, Twa::new(Vec::new()));
    aut.num_sets = evs.len() as u32;
    let all: Marks = aut.all_marks();
    for (i, s) in order.iter().enumerate() {
        aut.add_state();
        aut.state_names[i] = Some(crate::ltl::print::to_string(tab.arena, *s));
    }
    for (i, terms) in raw.into_iter().enumerate() {
        for t in terms {
            let dst = tab.arena.and(t.next.clone());
            let mut m = all;
            for p in &t.promises {
                if let Some(&j) = ev_index.get(p) {
                    m &= !(1u64 << j);
                }
            }
            aut.add_edge(i as u32, index[&dst], t.label, m);
        }
    }
    aut.init = vec![0];
    let mut aut = if opts.postprocess {
        crate::postproc::simplify(&aut)
    } else {
        aut
    };
    if opts.postprocess
        && opts.wdba
        && !(aut.num_states() == 1 && aut.is_deterministic())
        && opts.budget.check().is_ok()
    {
        let nf = tab.arena.not(original);
        // Any automaton of the negation will do for the check: skip its post-processing.
        let neg_opts = Options {
            wdba: false,
            sba: false,
            postprocess: false,
            ..opts.clone()
        };
        let neg = match translate(&mut *tab.arena, nf, &neg_opts) {
            Ok(n) => Some(crate::prune::prune(&n)),
            // Out of budget: the minimisation is optional, keep the automaton.
            Err(OmegaError::Exhausted(_)) => None,
            Err(e) => return Err(e),
        };
        if let Some(d) =
            neg.and_then(|neg| crate::wdba::minimize_obligation(&aut, &neg, &opts.budget))
        {
            let d = crate::postproc::simplify(&d);
            if d.num_states() <= aut.num_states() {
                aut = d;
            }
        }
    }
    if opts.sba {
        aut = if opts.postprocess {
            crate::postproc::to_sba(&aut, &opts.budget)
        } else {
            crate::degen::degeneralize(&aut)
        };
    }
    Ok(aut)
}

/// The translation without WDBA minimisation and post-processing: the raw tableau the merge
/// tests start from.
#[cfg(test)]
pub(crate) fn raw_options() -> Options {
    Options {
        wdba: false,
        postprocess: false,
        ..Options::default()
    }
}
