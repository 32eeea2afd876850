//! Elimination of unused predicate arguments — z3's slicing before Spacer (`fp.xform.slice`,
//! `src/muz/transforms/dl_mk_slice.cpp`, and `dl_mk_unused_vars`). Argument `i` of `P` is
//! unused when, in every body application of `P`, it is a variable occurring nowhere else in
//! the clause (not in the constraint, the other applications or the kept head arguments): the
//! clause is then `(∃v. P(…, v, …)) ∧ rest ⇒ head`, so `P` can be replaced by its projection
//! onto the other arguments. The set of unused arguments is the greatest fixpoint: every
//! argument starts unused and is kept as soon as one of its uses needs it (a head argument
//! that is kept makes its variables used).
//!
//! Answers are translated back: a model ignores the dropped arguments; a derivation step's
//! facts get their dropped arguments from the clause's head terms (the variables are all
//! kept), and a body variable at a dropped position takes the value of an earlier fact that
//! agrees with the application on the kept positions.

use crate::horn::{eval, mentions, App, Clause, HornSystem, Pred};
use crate::horn_check::ChcStep;

/// The system without its unused arguments.
pub(crate) struct Sliced {
    pub(crate) sys: HornSystem,
    /// Per predicate, the original positions of its kept arguments.
    kept: Vec<Vec<usize>>,
}

fn occurrences(c: &Clause, v: &str, dropped: &[Vec<bool>]) -> usize {
    let count = |e: &verikit_smt::SExpr| usize::from(mentions(e, v));
    let mut n: usize = c.constraint.iter().map(count).sum();
    n += c
        .body
        .iter()
        .flat_map(|a| &a.args)
        .map(count)
        .sum::<usize>();
    if let Some(h) = &c.head {
        let d = dropped.get(h.pred);
        n += h
            .args
            .iter()
            .enumerate()
            .filter(|(i, _)| !d.and_then(|d| d.get(*i)).copied().unwrap_or(false))
            .map(|(_, e)| count(e))
            .sum::<usize>();
    }
    n
}

impl Sliced {
    /// Number of arguments dropped.
    pub(crate) fn count(&self, sys: &HornSystem) -> usize {
        sys.preds.iter().map(|p| p.bools.len()).sum::<usize>()
            - self.kept.iter().map(Vec::len).sum::<usize>()
    }

    /// The original position of argument `x` of predicate `p`.
    pub(crate) fn position(&self, p: usize, x: usize) -> Option<usize> {
        self.kept.get(p).and_then(|k| k.get(x)).copied()
    }

    /// The derivation over the system before slicing (`orig`); `None` when a value cannot be
    /// evaluated or no earlier fact matches.
    pub(crate) fn derivation(&self, orig: &HornSystem, steps: &[ChcStep]) -> Option<Vec<ChcStep>> {
        let mut facts: Vec<Vec<Vec<i128>>> = vec![Vec::new(); orig.preds.len()];
        let mut out = Vec::new();
        for st in steps {
            let c = orig.clauses.get(st.clause)?;
            let mut vals = st.vars.clone();
            let index = |n: &str| c.vars.iter().position(|(v, _)| v == n);
            for a in &c.body {
                let kept = self.kept.get(a.pred)?;
                let arity = orig.preds.get(a.pred)?.bools.len();
                if kept.len() == arity {
                    continue;
                }
                let env = |n: &str| index(n).and_then(|i| vals.get(i).copied());
                let want = kept
                    .iter()
                    .map(|&j| a.args.get(j).and_then(|e| eval(e, &env)))
                    .collect::<Option<Vec<i128>>>()?;
                let f = facts
                    .get(a.pred)?
                    .iter()
                    .find(|f| kept.iter().zip(&want).all(|(&j, w)| f.get(j) == Some(w)))?;
                for (i, e) in a.args.iter().enumerate() {
                    if kept.contains(&i) {
                        continue;
                    }
                    let x = e.symbol().and_then(index)?;
                    *vals.get_mut(x)? = *f.get(i)?;
                }
            }
            let env = |n: &str| index(n).and_then(|i| vals.get(i).copied());
            let fact = match &c.head {
                Some(h) => {
                    let f = h
                        .args
                        .iter()
                        .map(|e| eval(e, &env))
                        .collect::<Option<Vec<i128>>>()?;
                    facts.get_mut(h.pred)?.push(f.clone());
                    f
                }
                None => Vec::new(),
            };
            out.push(ChcStep {
                clause: st.clause,
                vars: vals,
                fact,
            });
        }
        Some(out)
    }
}

/// Drops every unused argument (see the module documentation).
pub(crate) fn slice(sys: &HornSystem) -> Sliced {
    let mut dropped: Vec<Vec<bool>> = sys
        .preds
        .iter()
        .map(|p| vec![true; p.bools.len()])
        .collect();
    let mut changed = true;
    while changed {
        changed = false;
        for c in &sys.clauses {
            for a in &c.body {
                for (i, e) in a.args.iter().enumerate() {
                    if !dropped
                        .get(a.pred)
                        .and_then(|d| d.get(i))
                        .copied()
                        .unwrap_or(false)
                    {
                        continue;
                    }
                    let free = e.symbol().is_some_and(|v| {
                        c.vars.iter().any(|(n, _)| n == v) && occurrences(c, v, &dropped) == 1
                    });
                    if !free {
                        if let Some(d) = dropped.get_mut(a.pred).and_then(|d| d.get_mut(i)) {
                            *d = false;
                            changed = true;
                        }
                    }
                }
            }
        }
    }
    let kept: Vec<Vec<usize>> = dropped
        .iter()
        .map(|d| {
            (0..d.len())
                .filter(|&i| !d.get(i).copied().unwrap_or(false))
                .collect()
        })
        .collect();
    let cut = |a: &App| App {
        pred: a.pred,
        args: kept
            .get(a.pred)
            .map(|k| k.iter().filter_map(|&i| a.args.get(i).cloned()).collect())
            .unwrap_or_default(),
    };
    let preds = sys
        .preds
        .iter()
        .zip(&kept)
        .map(|(p, k)| Pred {
            name: p.name.clone(),
            bools: k.iter().filter_map(|&i| p.bools.get(i).copied()).collect(),
        })
        .collect();
    let clauses = sys
        .clauses
        .iter()
        .map(|c| Clause {
            body: c.body.iter().map(cut).collect(),
            head: c.head.as_ref().map(cut),
            ..c.clone()
        })
        .collect();
    Sliced {
        sys: HornSystem { preds, clauses },
        kept,
    }
}

#[cfg(test)]
mod tests {
    use crate::chc_task::Preprocess;
    use crate::horn::read_horn;
    use crate::horn_inline::tests::{agrees, arb_system};
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]
        #[test]
        fn slicing_keeps_the_answer_and_translates_the_witness_back(sys in arb_system()) {
            agrees(&sys, Preprocess { inline: false, slice: true })?;
        }

        #[test]
        fn both_steps_keep_the_answer_and_translate_the_witness_back(sys in arb_system()) {
            agrees(&sys, Preprocess { inline: true, slice: true })?;
        }
    }

    #[test]
    fn an_argument_no_use_reads_is_dropped_and_one_that_is_read_is_kept() {
        // `p`'s second argument is read by no clause (`z` occurs once in each body).
        let text = "(set-logic HORN)
(declare-fun p (Int Int) Bool)
(assert (forall ((x Int) (z Int)) (=> (and (= x 0) (= z 7)) (p x z))))
(assert (forall ((x Int) (z Int) (y Int) (w Int)) (=> (and (p x z) (= y (+ x 1)) (= w (+ y 1))) (p y w))))
(assert (forall ((x Int) (z Int)) (=> (and (p x z) (< x 0)) false)))
(check-sat)
";
        let sys = read_horn(text).expect("read");
        let s = super::slice(&sys);
        assert_eq!(s.count(&sys), 1);
        assert_eq!(s.position(0, 0), Some(0));
        assert_eq!(s.sys.preds[0].bools.len(), 1);
        // Reading it (`z > 7` in the query) keeps it.
        let kept = text.replace("(< x 0)", "(> z 7)");
        let sys = read_horn(&kept).expect("read");
        assert_eq!(super::slice(&sys).count(&sys), 0);
    }
}
