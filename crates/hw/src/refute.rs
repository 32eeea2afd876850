//! One refutation with a checked proof: the CDCL core of `verikit-sat` solves a clause list with
//! DRAT logging, and the independent checker (`verikit_sat::check_drat`) verifies the proof and
//! reads the clause-implication graph off it (each used lemma with the clauses its RUP check
//! needed). Trimmer (C13) builds its resolution graph from this, and the `proof` core method
//! takes the checker's core.

use verikit_diag::{Budget, Exhausted};
use verikit_sat::{check_drat, parse_drat, Cdcl, DratCheck, Lit, NoTheory, ProofLog, SatResult};

pub(crate) enum Refutation {
    /// A model (one value per variable), checked against the clauses.
    Sat(Vec<bool>),
    /// The checked proof: steps (to look lemmas up) and what the checker found.
    Unsat(Vec<verikit_sat::Step>, DratCheck),
    Stopped(Exhausted),
    /// The solver's proof did not check (a bug in the solver): the checker's message.
    BadProof(String),
}

pub(crate) fn refute(num_vars: u32, clauses: &[Vec<Lit>], budget: &Budget) -> Refutation {
    let mut s = Cdcl::new();
    s.set_proof(ProofLog::in_memory(true));
    for _ in 0..num_vars {
        s.new_var();
    }
    for c in clauses {
        if let Some(m) = c.iter().map(|l| l.var()).max() {
            while s.num_vars() <= m {
                s.new_var();
            }
        }
        s.add_clause(&mut NoTheory, c);
    }
    s.set_budget(budget.clone());
    match s.solve(&mut NoTheory, &[]) {
        SatResult::Sat => {
            let model: Vec<bool> = (0..s.num_vars())
                .map(|v| s.value(Lit::pos(v)) == Some(true))
                .collect();
            if clauses.iter().all(|c| {
                c.iter()
                    .any(|l| model.get(l.var() as usize).copied() != Some(l.is_neg()))
            }) {
                Refutation::Sat(model)
            } else {
                Refutation::BadProof("the model does not satisfy the clauses".into())
            }
        }
        SatResult::Unknown => Refutation::Stopped(s.exhausted().unwrap_or(Exhausted::Timeout)),
        SatResult::Unsat => {
            let bytes = match s.take_proof().map(ProofLog::finish) {
                Some(Ok(b)) => b,
                _ => return Refutation::BadProof("no proof".into()),
            };
            let steps = match parse_drat(&bytes) {
                Ok(st) => st,
                Err(d) => return Refutation::BadProof(d.message),
            };
            match check_drat(num_vars, clauses, &steps, budget) {
                Ok(ck) => Refutation::Unsat(steps, ck),
                Err(verikit_sat::DratError::Exhausted(e)) => Refutation::Stopped(e),
                Err(e) => Refutation::BadProof(e.to_string()),
            }
        }
    }
}
