//! Checked state merges of deterministic automata: state `q` of a deterministic automaton `D`
//! is merged into state `p` by sending every edge into `q` (and `q`'s initial mark) to `p` and
//! dropping what became unreachable; the merge is kept iff the result `M` has the language of
//! `D`, decided exactly by two emptiness checks, `M ⊗ ¬D` and `D ⊗ ¬M`. Redirecting edges keeps
//! a deterministic automaton deterministic, its acceptance condition and its colours, so `¬M`
//! is the dual of `M` ([`crate::dual`]) and both checks are linear in the products.
//!
//! This is the "merge, then verify by language checks" scheme of the checked reductions of
//! Spot's post-processor (A. Duret-Lutz et al., "Spot 2.0 — a framework for LTL and
//! ω-automata manipulation", ATVA'16, §3), which [`crate::checked_merge`] applies to
//! nondeterministic automata against the automaton of `¬φ`; on deterministic automata the
//! complement is free, so the check is an equivalence rather than a one-sided containment and
//! any acceptance condition (parity after determinisation) is kept as it is. Unlike the
//! bisimulation quotient ([`crate::bisim`]), which only merges states whose futures carry the
//! same colours letter by letter, a checked merge also joins states whose colours differ but
//! whose runs decide every word alike (a deterministic parity automaton's minimal size is
//! NP-hard to reach, so this is a greedy search, not a minimisation).
//!
//! Rejected candidates leave a distinguishing word (one side accepts it, the other rejects);
//! up to [`MAX_WORDS`] of them are replayed on later candidates before any product is built:
//! the candidate's run on a lasso is followed in a table of the automaton's moves on the words'
//! letters, with the merge applied on the fly, which refutes most candidates without building
//! them.
//!
//! Only for small automata: at most [`MAX_STATES`] states, [`MAX_CHECKS`] product checks and
//! [`MAX_WORK`] product elements per automaton; the budget is polled per candidate. Every
//! intermediate automaton has the input's language, so stopping early is always safe.

use crate::acc::Acc;
use crate::dual::complement_deterministic;
use crate::emptiness::accepting_lasso_within;
use crate::error::OmegaError;
use crate::ltl::eval::Lasso;
use crate::product::product;
use crate::prune::trim;
use crate::twa::{Marks, Twa};
use verikit_diag::Budget;

/// Largest automaton (states) whose merges are tried.
pub(crate) const MAX_STATES: usize = 80;
/// Largest number of product checks per automaton.
pub(crate) const MAX_CHECKS: usize = 256;
/// Work budget per automaton: the total size (states + edges) of the products checked.
pub(crate) const MAX_WORK: usize = 400_000;
/// Largest number of distinguishing words kept.
pub(crate) const MAX_WORDS: usize = 128;

/// What [`reduce`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub(crate) struct Stats {
    /// Merges kept.
    pub merged: usize,
    /// Candidates decided by products.
    pub checks: usize,
    /// Candidates skipped because their two states decide a sampled lasso differently.
    pub refuted_by_residuals: usize,
    /// Candidates refuted by a stored distinguishing word.
    pub refuted_by_words: usize,
    /// Total size (states + edges) of the products built.
    pub work: usize,
    /// The search stopped at a bound (states, checks, work) or on the budget.
    pub capped: bool,
}

/// `aut` with states merged greedily as long as the language stays that of `aut` (see the
/// module documentation); `aut` itself when it is nondeterministic or too large. `Err` only on
/// an error of the products other than the budget (the budget stops the search, and the
/// automaton reached so far is returned).
pub(crate) fn reduce(aut: &Twa, budget: &Budget) -> Result<(Twa, Stats), OmegaError> {
    let mut st = Stats::default();
    if !aut.is_deterministic() || aut.init.len() != 1 || aut.num_states() > MAX_STATES {
        st.capped = aut.num_states() > MAX_STATES;
        return Ok((aut.clone(), st));
    }
    let orig = trim(aut);
    let Ok(orig_c) = complement_deterministic(&orig, budget) else {
        // Deterministic, so only the budget can stop the complement.
        st.capped = true;
        return Ok((aut.clone(), st));
    };
    let acc = orig.acceptance();
    let mut cur = orig.clone();
    let mut words = Words::default();
    'restart: loop {
        let n = cur.num_states() as u32;
        let mut moves = words.moves(&cur);
        let sig = residual_signatures(&cur, &acc);
        for q in (0..n).rev() {
            for p in 0..n {
                if p == q {
                    continue;
                }
                if sig[p as usize] != sig[q as usize] {
                    st.refuted_by_residuals += 1;
                    continue;
                }
                if budget.check().is_err() || st.checks >= MAX_CHECKS || st.work >= MAX_WORK {
                    st.capped = true;
                    break 'restart;
                }
                if words.refute(&moves, cur.init[0], (p, q), &acc) {
                    st.refuted_by_words += 1;
                    continue;
                }
                let m = merge(&cur, p, q);
                st.checks += 1;
                match compare(&m, &orig, &orig_c, budget, &mut st.work)? {
                    Comparison::Same => {
                        cur = m;
                        st.merged += 1;
                        continue 'restart;
                    }
                    Comparison::Differ(w) => {
                        if words.words.len() < MAX_WORDS && w.aps == orig.aps {
                            words.add(&w.word, w.orig_accepts);
                            moves = words.moves(&cur);
                        }
                    }
                    Comparison::Stopped => {
                        st.capped = true;
                        break 'restart;
                    }
                }
            }
        }
        break;
    }
    Ok((cur, st))
}

/// The distinguishing words found so far, as indices into their distinct letters, each with
/// the input's verdict on it.
#[derive(Default)]
struct Words {
    letters: Vec<u64>,
    words: Vec<(Vec<u32>, Vec<u32>, bool)>,
}

/// The moves of a deterministic automaton on the letters of [`Words`]: entry `s·L + l` is the
/// successor of state `s` on letter `l` and the marks of that edge (`None`: no edge).
pub(crate) struct Moves {
    pub(crate) letters: usize,
    pub(crate) table: Vec<Option<(u32, Marks)>>,
}

impl Moves {
    /// The moves of `aut` on `letters` (bit `i` = AP `i`).
    pub(crate) fn of(aut: &Twa, letters: &[u64]) -> Moves {
        let vals: Vec<_> = letters.iter().map(|&b| aut.valuation(b)).collect();
        let mut table = Vec::with_capacity(aut.num_states() * vals.len());
        for es in &aut.states {
            for v in &vals {
                table.push(
                    es.iter()
                        .find(|e| e.label.eval_in(v))
                        .map(|e| (e.dst, e.marks)),
                );
            }
        }
        Moves {
            letters: vals.len(),
            table,
        }
    }
}

impl Words {
    /// Stores `w` (letters over the input's propositions) with the input's verdict on it.
    fn add(&mut self, w: &Lasso, orig_accepts: bool) {
        let mut index = |b: u64| match self.letters.iter().position(|&x| x == b) {
            Some(i) => i as u32,
            None => {
                self.letters.push(b);
                (self.letters.len() - 1) as u32
            }
        };
        let prefix: Vec<u32> = w.prefix.iter().map(|&b| index(b)).collect();
        let cycle: Vec<u32> = w.cycle.iter().map(|&b| index(b)).collect();
        self.words.push((prefix, cycle, orig_accepts));
    }

    fn moves(&self, aut: &Twa) -> Moves {
        Moves::of(aut, &self.letters)
    }

    /// True if some stored word is decided differently by the automaton of `moves` with `q`
    /// merged into `p` than by the input.
    fn refute(&self, moves: &Moves, init: u32, pq: (u32, u32), acc: &Acc) -> bool {
        self.words
            .iter()
            .any(|(u, v, verdict)| run(moves, init, Some(pq), u, v, acc) != *verdict)
    }
}

/// Number of sampled lassos of [`residual_signatures`].
const SAMPLES: usize = 64;

/// For each state `s`, bit `k` says whether the automaton started in `s` accepts the `k`-th of
/// [`SAMPLES`] lassos drawn (with a fixed seed) over up to 16 letters. A merge of `q` into `p`
/// that keeps the language makes the language of `p` that of `q` (every word reaching `q`
/// first now reaches `p`), so states whose signatures differ are not tried: a filter that may
/// skip a merge, never admit one (every merge is still decided by the products).
fn residual_signatures(aut: &Twa, acc: &Acc) -> Vec<u64> {
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let mask = if aut.aps.len() >= 64 {
        u64::MAX
    } else {
        (1u64 << aut.aps.len()) - 1
    };
    let mut sample = Words::default();
    let letters = (mask.min(15) + 1) as usize;
    while sample.letters.len() < letters {
        let b = next() & mask;
        if !sample.letters.contains(&b) {
            sample.letters.push(b);
        }
    }
    let nl = sample.letters.len() as u64;
    let lassos: Vec<(Vec<u32>, Vec<u32>)> = (0..SAMPLES)
        .map(|_| {
            let u = (0..next() % 4).map(|_| (next() % nl) as u32).collect();
            let v = (0..1 + next() % 4).map(|_| (next() % nl) as u32).collect();
            (u, v)
        })
        .collect();
    let moves = sample.moves(aut);
    (0..aut.num_states() as u32)
        .map(|s| {
            lassos.iter().enumerate().fold(0u64, |sig, (k, (u, v))| {
                sig | (u64::from(run(&moves, s, None, u, v, acc)) << k)
            })
        })
        .collect()
}

/// Whether the deterministic automaton of `moves` (with `q` merged into `p` for
/// `merged = Some((p, q))`) accepts `u·v^ω`: its run is followed until a state repeats at the
/// start of `v`; the marks of the repeated part are those seen infinitely often. A missing
/// edge rejects.
fn run(
    moves: &Moves,
    init: u32,
    merged: Option<(u32, u32)>,
    u: &[u32],
    v: &[u32],
    acc: &Acc,
) -> bool {
    let redirect = |s: u32| match merged {
        Some((p, q)) if s == q => p,
        _ => s,
    };
    let step = |s: u32, l: u32| moves.table[s as usize * moves.letters + l as usize];
    let mut s = redirect(init);
    for &l in u {
        match step(s, l) {
            Some((d, _)) => s = redirect(d),
            None => return false,
        }
    }
    // The state at the start of each round of `v`, and the marks each round collects.
    let mut starts: Vec<u32> = Vec::new();
    let mut rounds: Vec<Marks> = Vec::new();
    loop {
        if let Some(k) = starts.iter().position(|&x| x == s) {
            let inf = rounds[k..].iter().fold(0, |a, &m| a | m);
            return acc.accepting(inf);
        }
        starts.push(s);
        let mut marks: Marks = 0;
        for &l in v {
            match step(s, l) {
                Some((d, m)) => {
                    marks |= m;
                    s = redirect(d);
                }
                None => return false,
            }
        }
        rounds.push(marks);
    }
}

/// The outcome of comparing a candidate with the input.
pub(crate) enum Comparison {
    Same,
    /// A word one side accepts and the other rejects, over the product's propositions.
    Differ(Refutation),
    /// The budget ran out: undecided, so the candidate is not kept.
    Stopped,
}

/// A distinguishing word and the propositions its letters' bits stand for.
pub(crate) struct Refutation {
    word: Lasso,
    aps: Vec<String>,
    /// Whether the input accepts the word (the side whose product found it).
    orig_accepts: bool,
}

/// Whether `m` and `orig` (whose complement is `orig_c`) have the same language.
pub(crate) fn compare(
    m: &Twa,
    orig: &Twa,
    orig_c: &Twa,
    budget: &Budget,
    work: &mut usize,
) -> Result<Comparison, OmegaError> {
    let Ok(m_c) = complement_deterministic(m, budget) else {
        return Ok(Comparison::Stopped);
    };
    // A word of `m ⊗ ¬orig` is rejected by the input, one of `orig ⊗ ¬m` accepted.
    for (l, r, orig_accepts) in [(m, orig_c, false), (orig, &m_c, true)] {
        let p = product(l, r)?;
        *work += p.num_states() + p.num_edges();
        match accepting_lasso_within(&p, budget) {
            Ok(Some(run)) => {
                return Ok(Comparison::Differ(Refutation {
                    word: run.word(&p),
                    aps: p.aps.clone(),
                    orig_accepts,
                }))
            }
            Ok(None) => {}
            Err(_) => return Ok(Comparison::Stopped),
        }
    }
    Ok(Comparison::Same)
}

/// `a` with `q` merged into `p`: edges into `q` and an initial `q` go to `p`; then trimmed.
fn merge(a: &Twa, p: u32, q: u32) -> Twa {
    let mut b = a.clone();
    for es in b.states.iter_mut() {
        for e in es.iter_mut() {
            if e.dst == q {
                e.dst = p;
            }
        }
    }
    for s in b.init.iter_mut() {
        if *s == q {
            *s = p;
        }
    }
    trim(&b)
}

#[cfg(test)]
mod tests {
    use super::{reduce, run, Words};
    use crate::accepts::accepts_lasso;
    use crate::ltl::eval::Lasso;
    use crate::twa::Twa;
    use proptest::prelude::*;
    use verikit_diag::Budget;

    /// A deterministic automaton over two propositions with `n` states and 3 marks, partial
    /// (one edge in five dropped) when `partial`.
    fn random_det(seed: u64, n: u32, acc: &str, partial: bool) -> Twa {
        crate::tests::random_det(seed, n, 3, acc, partial)
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]
        /// On random deterministic automata with parity, Rabin, Streett and generalized Büchi
        /// conditions, the merged automaton is deterministic, no larger, and decides every
        /// lasso with a prefix of at most 2 and a cycle of at most 3 letters as the input does
        /// (run by the lasso membership check, not by the products the merges are checked with).
        #[test]
        fn merges_keep_the_language(seed in any::<u64>(), n in 2u32..9, c in 0usize..4, partial in any::<bool>()) {
            let acc = [
                "Inf(0) | (Fin(1) & Inf(2))",
                "(Fin(0) & Inf(1)) | Inf(2)",
                "(Fin(0) | Inf(1)) & (Fin(1) | Inf(2))",
                "Inf(0) & Inf(1) & Inf(2)",
            ][c];
            let a = random_det(seed, n, acc, partial);
            let (m, st) = reduce(&a, &Budget::unlimited()).unwrap();
            prop_assert!(m.is_deterministic());
            prop_assert!(m.num_states() <= a.num_states());
            prop_assert!(st.checks >= st.merged);
            for w in Lasso::all(4, 2, 3) {
                prop_assert_eq!(accepts_lasso(&m, &w), accepts_lasso(&a, &w), "{:?}", w);
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]
        /// The table-driven run that replays stored words (with and without a merge applied on
        /// the fly) decides lassos as the lasso membership check does on the built automaton.
        #[test]
        fn table_runs_decide_as_membership(seed in any::<u64>(), n in 2u32..7, partial in any::<bool>(), p in 0u32..7, q in 0u32..7) {
            let a = crate::prune::trim(&random_det(seed, n, "Inf(0) | (Fin(1) & Inf(2))", partial));
            let n = a.num_states() as u32;
            let (p, q) = (p % n, q % n);
            let acc = a.acceptance();
            let mut words = Words::default();
            for w in Lasso::all(4, 1, 2) {
                words.add(&w, accepts_lasso(&a, &w));
            }
            let moves = words.moves(&a);
            let merged = super::merge(&a, p, q);
            for (k, w) in Lasso::all(4, 1, 2).iter().enumerate() {
                let (u, v, verdict) = &words.words[k];
                prop_assert_eq!(run(&moves, a.init[0], None, u, v, &acc), *verdict);
                if p != q {
                    prop_assert_eq!(run(&moves, a.init[0], Some((p, q)), u, v, &acc), accepts_lasso(&merged, w));
                }
            }
        }
    }

    /// `FG a | GF b` style redundancy: a Büchi automaton with two copies of the same state is
    /// merged to one state.
    #[test]
    fn duplicate_states_merge() {
        let text = "HOA: v1\nStates: 3\nStart: 0\nAP: 1 \"a\"\nAcceptance: 1 Inf(0)\n--BODY--\n\
                    State: 0\n[0] 1 {0}\n[!0] 2\nState: 1\n[0] 2 {0}\n[!0] 1\n\
                    State: 2\n[0] 1 {0}\n[!0] 2\n--END--\n";
        let a = crate::hoa::parse(text).unwrap();
        let (m, st) = reduce(&a, &Budget::unlimited()).unwrap();
        assert_eq!(m.num_states(), 1, "{st:?}");
        for w in Lasso::all(2, 2, 3) {
            assert_eq!(accepts_lasso(&m, &w), accepts_lasso(&a, &w));
        }
    }

    /// A budget already spent leaves the automaton as it is (every kept merge is checked).
    #[test]
    fn a_spent_budget_keeps_the_input() {
        let a = random_det(7, 6, "Inf(0) | (Fin(1) & Inf(2))", false);
        let b = Budget::with_timeout(std::time::Duration::ZERO);
        let (m, st) = reduce(&a, &b).unwrap();
        assert!(st.capped);
        assert_eq!(m.num_states(), a.num_states());
    }
}
