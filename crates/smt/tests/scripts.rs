//! Scripted SMT-LIB sessions: responses exactly as the standard prints them, incremental use,
//! unsat cores, errors with line:col, and parser totality.

use verikit_smt::{run_script, RunOptions};

fn run(s: &str) -> Vec<String> {
    run_script(
        s,
        RunOptions {
            check: true,
            ..Default::default()
        },
    )
    .responses
}

#[test]
fn push_pop_and_get_value() {
    let r = run("(set-logic QF_LRA)(set-option :print-success false)
        (declare-const x Real)(declare-const y Real)
        (assert (< x y))
        (push 1)(assert (< y x))(check-sat)(pop 1)
        (check-sat)
        (assert (= (+ x y) 3))(assert (= (- y x) 1))
        (check-sat)(get-value (x (+ x 1) (< x y)))");
    assert_eq!(
        r,
        vec![
            "unsat",
            "sat",
            "sat",
            "((x 1.0) ((+ x 1) 2.0) ((< x y) true))"
        ]
    );
}

#[test]
fn strict_inequalities_use_delta() {
    let out = run_script(
        "(set-logic QF_LRA)(declare-fun x () Real)(assert (< 0 x))(assert (< x (/ 1 1000)))(check-sat)(get-model)",
        RunOptions { check: true, ..Default::default() },
    );
    assert_eq!(out.responses[0], "sat");
    assert_eq!(out.checks[0].model_valid, Some(true));
}

#[test]
fn integer_branch_and_bound() {
    let r = run(
        "(set-logic QF_LIA)(declare-fun x () Int)(declare-fun y () Int)
        (assert (= (+ (* 2 x) (* 2 y)) 1))(check-sat)
        (reset)(set-logic QF_LIA)(declare-fun x () Int)
        (assert (and (< 0 (* 3 x)) (< (* 3 x) 6)))(check-sat)(get-value (x))",
    );
    assert_eq!(r, vec!["unsat", "sat", "((x 1))"]);
}

#[test]
fn unsat_core_and_assumptions() {
    let r = run("(set-logic QF_LIA)(set-option :produce-unsat-cores true)
        (declare-fun a () Int)(declare-fun p () Bool)
        (assert (! (> a 5) :named big))
        (assert (! (< a 10) :named small))
        (assert (! (< a 3) :named tiny))
        (check-sat)(get-unsat-core)
        (check-sat-assuming (p (not p)))");
    assert_eq!(r[0], "unsat");
    assert_eq!(r[1], "(big tiny)");
    assert_eq!(r[2], "unsat");
}

#[test]
fn ite_let_distinct_and_defines() {
    let r = run("(set-logic QF_LIA)
        (declare-fun x () Int)(declare-fun b () Bool)
        (define-fun f ((u Int)) Int (ite b (+ u 1) (- u 1)))
        (assert (let ((z (f x))) (and (= z 5) (distinct x 4))))
        (check-sat)(get-value (b x))");
    assert_eq!(r, vec!["sat", "((b false) (x 6))"]);
}

#[test]
fn errors_are_reported_and_execution_continues() {
    let out = run_script(
        "(set-logic QF_LRA)\n(declare-const x Real)\n(assert (< x zz))\n(assert (* x x))\n(check-sat)\n(get-unsat-core)\n(set-logic QF_BV)",
        RunOptions::default(),
    );
    assert_eq!(
        out.responses[0],
        "(error \"line 3 column 14: unknown constant `zz`\")"
    );
    assert!(out.responses[1].starts_with("(error \"line 4"));
    assert_eq!(out.responses[2], "sat");
    assert!(out.responses[3].starts_with("(error"));
    assert!(out.responses[4].starts_with("(error"));
    assert_eq!(out.errors.len(), 4);
    let bad = run_script("(check-sat)\n(assert (< 1 2)", RunOptions::default());
    assert_eq!(bad.responses[0], "sat");
    assert!(bad.responses[1].contains("line 2 column 1"));
}

#[test]
fn echo_exit_and_models() {
    let r = run("(echo \"hi \"\"there\"\"\")(set-logic QF_RDL)(declare-fun |a b| () Real)(assert (> |a b| 2.5))(check-sat)(get-model)(exit)(check-sat)");
    assert_eq!(r[0], "\"hi \"\"there\"\"\"");
    assert_eq!(r[1], "sat");
    assert!(r[2].contains("(define-fun |a b| () Real"));
    assert_eq!(r.len(), 3);
}

#[test]
fn parser_is_total() {
    let samples = [
        "(set-logic QF_LRA)(declare-fun x () Real)(assert (let ((y (+ x 1))) (! (< y 2) :named n)))(check-sat)(get-model)",
        "(set-logic QF_LIA)(declare-fun x () Int)(assert (ite (> x 0) (= (mod x 3) 1) (distinct x (div x 2) (abs x))))(check-sat)(get-value (x))",
        "(set-option :produce-unsat-cores true)(push 2)(pop 1)(check-sat-assuming (a))(echo \"x\")|sym|#x1F#b01",
    ];
    verikit_testkit::assert_parser_total(&samples, 3000, |s| {
        let out = run_script(
            s,
            RunOptions {
                check: true,
                ..Default::default()
            },
        );
        if out.errors.is_empty() {
            Ok(out)
        } else {
            Err(out.errors)
        }
    });
}

/// Issue 18 item 6: with `OnError::Stop` (a script from a file) nothing runs after the first
/// error, so an `assert` dropped by an error never becomes an answer for a different problem.
#[test]
fn stop_at_first_error_answers_nothing_after_it() {
    let script = "(set-logic QF_LIA)(declare-fun x () Int)(assert (> x 0))\n(assert (< (* x x) 0))(check-sat)(get-info :error-behavior)";
    let out = run_script(
        script,
        RunOptions {
            on_error: verikit_smt::OnError::Stop,
            ..Default::default()
        },
    );
    assert_eq!(out.responses.len(), 1, "{:?}", out.responses);
    assert!(out.responses[0].starts_with("(error \"line 2 column 12"));
    assert!(out.checks.is_empty());
    let out = run_script(
        "(get-info :error-behavior)",
        RunOptions {
            on_error: verikit_smt::OnError::Stop,
            ..Default::default()
        },
    );
    assert_eq!(out.responses, vec!["(:error-behavior immediate-exit)"]);
}

/// After an unsupported logic nothing the script means can be asserted: `check-sat` answers
/// `unknown` (reason named) until a supported logic is set.
#[test]
fn unsupported_logic_answers_unknown() {
    let out = run_script(
        "(set-logic QF_BV)(declare-fun a () (_ BitVec 8))(assert (= a #x01))(check-sat)(get-info :reason-unknown)(reset)(set-logic QF_LIA)(check-sat)",
        RunOptions::default(),
    );
    let answers: Vec<&str> = out.checks.iter().map(|c| c.answer.as_str()).collect();
    assert_eq!(answers, vec!["unknown", "sat"]);
    assert_eq!(
        out.checks[0].reason.as_deref(),
        Some("unsupported logic QF_BV")
    );
    assert!(out
        .responses
        .contains(&"(:reason-unknown \"unsupported logic QF_BV\")".to_string()));
}
