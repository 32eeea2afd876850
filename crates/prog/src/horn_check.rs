//! The independent checks of a CHC answer, done by the SMT solver on the clauses *as written in
//! the file* (the text below each clause's quantifier), not on verikit's translation of them:
//!
//! - a **model** (`sat`): with every predicate defined by its interpretation (`define-fun`), the
//!   negation of every clause is unsatisfiable;
//! - a **derivation** (`unsat`): a sequence of steps, each a clause with values for its
//!   variables and the fact it derives. With the predicates defined as the facts of the earlier
//!   steps, the negated clause is satisfiable under the step's values (the body holds and the
//!   head is new); with the step's own fact added, it is unsatisfiable (the head is that fact).
//!   The last step is a query (head `false`).

use crate::horn::{read_horn, slice, HornSystem};
use verikit_diag::Budget;
use verikit_smt::{run_script, OnError, RunOptions, Tuning};

/// A model: one `define-fun` per predicate (declaration order), SMT-LIB text.
#[derive(Clone, Debug, serde::Serialize)]
pub struct ChcModel {
    pub defs: Vec<String>,
}

/// One step of a derivation of `false`.
#[derive(Clone, Debug, serde::Serialize)]
pub struct ChcStep {
    /// Index of the clause (its position among the file's `assert`s).
    pub clause: usize,
    /// Values of the clause's variables, in declaration order (`Bool`: 0/1).
    pub vars: Vec<i128>,
    /// The derived fact (the head's arguments; empty for a query or a 0-ary head).
    pub fact: Vec<i128>,
}

fn quote(n: &str) -> String {
    format!("|{n}|")
}

fn value(v: i128, is_bool: bool) -> String {
    match (is_bool, v) {
        (true, 0) => "false".into(),
        (true, _) => "true".into(),
        (false, v) => crate::cfa::smt_int(v),
    }
}

/// `define-fun` of a predicate as the disjunction of conjunctions `body` over its parameters
/// `|p!i|`.
pub(crate) fn define(sys: &HornSystem, pred: usize, body: &str) -> String {
    let Some(p) = sys.preds.get(pred) else {
        return String::new();
    };
    let params: Vec<String> = p
        .bools
        .iter()
        .enumerate()
        .map(|(i, b)| format!("(|p!{i}| {})", if *b { "Bool" } else { "Int" }))
        .collect();
    format!(
        "(define-fun {} ({}) Bool {body})",
        quote(&p.name),
        params.join(" ")
    )
}

fn facts_def(sys: &HornSystem, pred: usize, facts: &[&[i128]]) -> String {
    let bools = sys
        .preds
        .get(pred)
        .map(|p| p.bools.clone())
        .unwrap_or_default();
    let disj: Vec<String> = facts
        .iter()
        .map(|f| {
            let eqs: Vec<String> = f
                .iter()
                .zip(&bools)
                .enumerate()
                .map(|(i, (v, b))| format!("(= |p!{i}| {})", value(*v, *b)))
                .collect();
            match eqs.len() {
                0 => "true".to_string(),
                1 => eqs.concat(),
                _ => format!("(and {})", eqs.join(" ")),
            }
        })
        .collect();
    let body = match disj.len() {
        0 => "false".to_string(),
        1 => disj.concat(),
        _ => format!("(or {})", disj.join(" ")),
    };
    define(sys, pred, &body)
}

/// Runs `script` and returns the answers of its `check-sat`s.
fn answers(script: &str) -> Result<Vec<String>, String> {
    let out = run_script(
        script,
        RunOptions {
            check: false,
            budget: Budget::unlimited(),
            on_error: OnError::Stop,
            tuning: Tuning::default(),
        },
    );
    if let Some(e) = out.errors.first() {
        return Err(format!("the SMT check failed: {}", e.message));
    }
    Ok(out.checks.into_iter().map(|c| c.answer).collect())
}

/// The negated clause `ci` under fixed values (or free variables when `vals` is `None`).
fn negated_clause(sys: &HornSystem, text: &str, ci: usize, vals: Option<&[i128]>) -> String {
    let Some(c) = sys.clauses.get(ci) else {
        return String::new();
    };
    let mut s = String::from("(push 1)\n");
    for (i, (n, b)) in c.vars.iter().enumerate() {
        let sort = if *b { "Bool" } else { "Int" };
        s.push_str(&format!("(declare-const {} {sort})\n", quote(n)));
        if let Some(v) = vals.and_then(|v| v.get(i)) {
            s.push_str(&format!("(assert (= {} {}))\n", quote(n), value(*v, *b)));
        }
    }
    s.push_str(&format!(
        "(assert (not {}))\n(check-sat)\n(pop 1)\n",
        slice(text, c.matrix)
    ));
    s
}

/// Checks a model against every clause of the CHC text.
pub fn check_chc_model(text: &str, model: &ChcModel) -> Result<(), String> {
    let sys = read_horn(text).map_err(|e| e.to_string())?;
    if model.defs.len() != sys.preds.len() {
        return Err(format!(
            "the model defines {} predicates, the system declares {}",
            model.defs.len(),
            sys.preds.len()
        ));
    }
    let mut script = String::from("(set-logic ALL)\n");
    for d in &model.defs {
        script.push_str(d);
        script.push('\n');
    }
    for ci in 0..sys.clauses.len() {
        script.push_str(&negated_clause(&sys, text, ci, None));
    }
    let got = answers(&script)?;
    if got.len() != sys.clauses.len() {
        return Err("the SMT check did not answer every clause".into());
    }
    match got.iter().position(|a| a != "unsat") {
        None => Ok(()),
        Some(i) => Err(format!(
            "clause {i} (line {}) is not valid under the model: {}",
            sys.clauses
                .get(i)
                .map(|c| crate::horn::line_of(text, c.span.start))
                .unwrap_or(0),
            got.get(i).cloned().unwrap_or_default()
        )),
    }
}

/// Checks a derivation of `false` from the CHC text.
pub fn check_chc_derivation(text: &str, steps: &[ChcStep]) -> Result<(), String> {
    let sys = read_horn(text).map_err(|e| e.to_string())?;
    let Some(last) = steps.last() else {
        return Err("empty derivation".into());
    };
    if sys
        .clauses
        .get(last.clause)
        .is_none_or(|c| c.head.is_some())
    {
        return Err("the last step is not a query".into());
    }
    let mut facts: Vec<Vec<&[i128]>> = vec![Vec::new(); sys.preds.len()];
    for (i, st) in steps.iter().enumerate() {
        let Some(c) = sys.clauses.get(st.clause) else {
            return Err(format!("step {i}: no clause {}", st.clause));
        };
        if st.vars.len() != c.vars.len() {
            return Err(format!("step {i}: wrong number of values"));
        }
        if c.head.is_none() && i + 1 != steps.len() {
            return Err(format!("step {i}: a query before the last step"));
        }
        let defs = |facts: &Vec<Vec<&[i128]>>| {
            let mut s = String::from("(set-logic ALL)\n");
            for (p, f) in facts.iter().enumerate() {
                s.push_str(&facts_def(&sys, p, f));
                s.push('\n');
            }
            s
        };
        // Under the earlier facts: the body holds and the head does not.
        let script = defs(&facts) + &negated_clause(&sys, text, st.clause, Some(&st.vars));
        if answers(&script)?.first().map(String::as_str) != Some("sat") {
            return Err(format!(
                "step {i}: the body of clause {} does not hold under the earlier facts (or the fact is not new)",
                st.clause
            ));
        }
        if let Some(h) = &c.head {
            let arity = sys.preds.get(h.pred).map(|p| p.bools.len()).unwrap_or(0);
            if st.fact.len() != arity {
                return Err(format!("step {i}: the fact has the wrong arity"));
            }
            if let Some(f) = facts.get_mut(h.pred) {
                f.push(&st.fact);
            }
            let script = defs(&facts) + &negated_clause(&sys, text, st.clause, Some(&st.vars));
            if answers(&script)?.first().map(String::as_str) != Some("unsat") {
                return Err(format!(
                    "step {i}: clause {} does not derive the stated fact",
                    st.clause
                ));
            }
        }
    }
    Ok(())
}
