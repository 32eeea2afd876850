//! What the property tests of random QF_LIA formulas share: the script of a formula in clause
//! form, and one checked run of it.

use verikit_smt::{run_script, RunOptions};

/// A QF_LIA script: `decls`, the integer variables `ints` each boxed to `[-bound, bound]`, one
/// assertion per clause (a disjunction of SMT-LIB literals), then `(check-sat)`.
pub fn clause_script(decls: &str, ints: &[&str], bound: i64, clauses: &[Vec<String>]) -> String {
    let mut s = format!("(set-logic QF_LIA)\n{decls}");
    for v in ints {
        s += &format!("(declare-fun {v} () Int)\n(assert (<= (- {bound}) {v} {bound}))\n");
    }
    for lits in clauses {
        if lits.len() == 1 {
            s += &format!("(assert {})\n", lits[0]);
        } else {
            s += &format!("(assert (or {}))\n", lits.join(" "));
        }
    }
    s + "(check-sat)\n"
}

/// Runs `text` with every model and certificate checked: the first `check-sat`'s answer, whether
/// its model is valid, and how many of its theory certificates failed.
pub fn solve_checked(text: &str) -> (String, Option<bool>, usize) {
    let out = run_script(
        text,
        RunOptions {
            check: true,
            ..Default::default()
        },
    );
    assert!(out.errors.is_empty(), "{:?}", out.errors);
    let c = &out.checks[0];
    (
        c.answer.clone(),
        c.model_valid,
        c.certificate_failures.len(),
    )
}
