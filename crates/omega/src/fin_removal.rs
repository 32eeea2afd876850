//! Emerson–Lei acceptance (Rabin, Streett, parity, any `Fin`/`Inf` formula) to generalized Büchi
//! acceptance by one guessed copy per clause of the condition's disjunctive normal form.
//!
//! Paper: A. Duret-Lutz, A. Lewkowicz, A. Fauchille, T. Michaud, E. Renault, L. Xu, "Spot 2.0 —
//! a framework for LTL and ω-automata manipulation", ATVA 2016, §3 (Emerson–Lei acceptance and
//! the `remove_fin` step that lets generalized-Büchi algorithms read it); the construction is the
//! classical one for Rabin-to-Büchi (e.g. Safra's and Piterman's papers reduce Rabin/Streett the
//! same way): a run is accepting iff some DNF clause `Fin(f₁)∧…∧Inf(i₁)∧…` holds, i.e. from some
//! point on it avoids the clause's `Fin` marks and sees each of its `Inf` marks infinitely often.
//!
//! The result has the input's states (copy 0, no marks) plus one copy per clause. Every edge of
//! copy 0 is also duplicated into every clause's copy (the guess "from here on, this clause");
//! inside clause `c`'s copy only the edges without `c`'s `Fin` marks remain, and they carry the
//! generalized Büchi mark `j` iff they carry the clause's `j`-th `Inf` mark (every mark when the
//! clause has fewer `Inf` marks than the widest clause). The result is nondeterministic: the
//! route of `aut determinize` for a nondeterministic non-Büchi input is this step followed by
//! [`crate::determinize`].

use crate::twa::{Marks, Twa};

/// The most DNF clauses handled (a copy of the automaton each).
pub(crate) const MAX_CLAUSES: usize = 16;

/// A generalized Büchi automaton of `aut`'s language; `None` beyond [`MAX_CLAUSES`] clauses.
pub(crate) fn remove_fin(aut: &Twa) -> Option<Twa> {
    if aut.is_generalized_buchi() {
        return Some(aut.clone());
    }
    let clauses = aut.acceptance().dnf(MAX_CLAUSES)?;
    let widths: Vec<Vec<u32>> = clauses
        .iter()
        .map(|&(_, inf)| (0..64).filter(|i| (inf >> i) & 1 == 1).collect())
        .collect();
    let k = widths.iter().map(Vec::len).max().unwrap_or(0).max(1) as u32;
    let all: Marks = if k >= 64 { u64::MAX } else { (1u64 << k) - 1 };
    let n = aut.num_states() as u32;
    let mut out = aut.quotient_shell(&[]);
    out.acc = None;
    out.acc_false = false;
    out.num_sets = k;
    out.state_based = false;
    for _ in 0..(n as usize) * (clauses.len() + 1) {
        out.add_state();
    }
    for q in 0..n as usize {
        out.state_names[q] = aut.state_names.get(q).cloned().flatten();
    }
    out.init = aut.init.clone();
    for (q, es) in aut.states.iter().enumerate() {
        let q = q as u32;
        for e in es {
            out.add_edge(q, e.dst, e.label.clone(), 0);
            for (c, (&(fin, _), inf)) in clauses.iter().zip(&widths).enumerate() {
                let base = n * (c as u32 + 1);
                out.add_edge(q, base + e.dst, e.label.clone(), 0);
                if e.marks & fin != 0 {
                    continue;
                }
                let mut m: Marks = all;
                for (j, &i) in inf.iter().enumerate() {
                    if (e.marks >> i) & 1 == 0 {
                        m &= !(1u64 << j);
                    }
                }
                out.add_edge(base + q, base + e.dst, e.label.clone(), m);
            }
        }
    }
    Some(crate::prune::prune(&out))
}
