//! Finite-state strategies (Mealy/Moore machines) with symbolic transitions, and their
//! minimisation by partition refinement (Moore's algorithm: states with the same input/output
//! relation whose successors are equivalent are merged).
//!
//! A machine reads the *uncontrolled* player's letters and answers with the *controlled* player's
//! letter. State `s` has rows `(guard, answer, target)`: the guards (BDDs over the uncontrolled
//! player's propositions of the game dictionary) partition the uncontrolled letters, `answer[j]`
//! is the value of the controlled player's `j`-th proposition as a function of the uncontrolled
//! letter, and `target` the next state; state 0 is initial. In a Moore machine the answers are
//! constants (the controlled player moved first).

use verikit_bdd::{Bdd, BddDict, BddVariable};
use verikit_diag::Budget;

use crate::error::SyntError;

#[derive(Clone, Debug)]
pub(crate) struct Row {
    pub(crate) guard: Bdd,
    pub(crate) answer: Vec<Bdd>,
    pub(crate) target: u32,
}

/// A move the game allows: letters (uncontrolled × controlled) and the states it may go to.
pub(crate) type Move = (Bdd, Vec<u32>);

#[derive(Clone, Debug)]
pub(crate) struct Machine {
    pub(crate) moore: bool,
    /// The game's dictionary (all propositions of the game).
    pub(crate) dict: BddDict,
    /// The uncontrolled player's propositions (variables of `dict`).
    pub(crate) unc: Vec<BddVariable>,
    /// The controlled player's propositions, in the order of `Row::answer`.
    pub(crate) ctl: Vec<BddVariable>,
    pub(crate) rows: Vec<Vec<Row>>,
    /// Per state, the moves the game allows there: `(letters, next states)` with disjoint letter
    /// sets (uncontrolled × controlled) covering every uncontrolled letter; answering inside
    /// them and moving to one of the move's states keeps every play in the winner's region, so the
    /// machine is one choice of an incompletely specified one (`memin`). Only a second mover's
    /// machine as the game built it has them; every transformation of the machine drops them.
    pub(crate) allowed: Option<Vec<Vec<Move>>>,
}

fn equal(a: &Bdd, b: &Bdd) -> bool {
    a == b || a.iff(b).is_true()
}

impl Machine {
    pub(crate) fn states(&self) -> usize {
        self.rows.len()
    }

    /// A row as one relation over the game's letters: `guard ∧ ⋀ⱼ (ctlⱼ ↔ answerⱼ)`.
    pub(crate) fn relation(&self, r: &Row) -> Bdd {
        let mut rel = r.guard.clone();
        for (&v, f) in self.ctl.iter().zip(&r.answer) {
            rel = rel.and(&self.dict.vars().mk_var(v).iff(f));
        }
        rel
    }

    /// Per state, `(target, relation)` of each row.
    pub(crate) fn relations(&self) -> Vec<Vec<(u32, Bdd)>> {
        self.rows
            .iter()
            .map(|rs| rs.iter().map(|r| (r.target, self.relation(r))).collect())
            .collect()
    }

    /// The smallest machine with the same input/output behaviour from state 0.
    pub(crate) fn minimise(&self, budget: &Budget) -> Result<Machine, SyntError> {
        let n = self.rows.len();
        if n <= 1 {
            return Ok(self.clone());
        }
        let rels = self.relations();
        let ff = self.dict.ff();
        // Signature of a state under a block assignment: per block, the letters leading there.
        let signature = |s: usize, block: &[u32], nb: usize| -> Vec<Bdd> {
            let mut sig = vec![ff.clone(); nb];
            for (t, rel) in rels.get(s).into_iter().flatten() {
                let b = block.get(*t as usize).copied().unwrap_or(0) as usize;
                if let Some(x) = sig.get_mut(b) {
                    *x = x.or(rel);
                }
            }
            sig
        };
        let mut block: Vec<u32> = vec![0; n];
        let mut count = 1usize;
        loop {
            budget.check()?;
            // States are split by their old block and their signature.
            let mut reps: Vec<(u32, Vec<Bdd>)> = Vec::new();
            let mut next = vec![0u32; n];
            for s in 0..n {
                let sig = signature(s, &block, count);
                let found = reps.iter().position(|(b, r)| {
                    *b == block[s]
                        && r.len() == sig.len()
                        && r.iter().zip(&sig).all(|(x, y)| equal(x, y))
                });
                next[s] = match found {
                    Some(i) => i as u32,
                    None => {
                        reps.push((block[s], sig));
                        (reps.len() - 1) as u32
                    }
                };
            }
            let new_count = reps.len();
            block = next;
            if new_count == count {
                break;
            }
            count = new_count;
        }
        // Renumber so that the initial state's block is 0 (in order of first appearance).
        let mut order: Vec<u32> = vec![u32::MAX; count];
        let mut rep: Vec<usize> = Vec::new();
        for (s, &b) in block.iter().enumerate() {
            if order[b as usize] == u32::MAX {
                order[b as usize] = rep.len() as u32;
                rep.push(s);
            }
        }
        let rows = rep
            .iter()
            .map(|&s| {
                self.rows[s]
                    .iter()
                    .map(|r| Row {
                        guard: r.guard.clone(),
                        answer: r.answer.clone(),
                        target: block
                            .get(r.target as usize)
                            .and_then(|&b| order.get(b as usize).copied())
                            .unwrap_or(0),
                    })
                    .collect()
            })
            .collect();
        Ok(Machine {
            moore: self.moore,
            dict: self.dict.clone(),
            unc: self.unc.clone(),
            ctl: self.ctl.clone(),
            rows,
            allowed: None,
        })
    }
}
