//! The bounded model checking query as SMT-LIB (`verikit prog to-smt`): the script that other
//! solvers get is read back by the SMT front end and answers as the task's expected verdict says
//! (`sat` = the error is reachable), with the model checked against the assertions as written.

use verikit_diag::Budget;
use verikit_prog::to_smt_text;
use verikit_smt::{run_script, RunOptions};

#[test]
fn xcsp_queries_answer_the_expected_verdict() {
    let root = verikit_testkit::require_data!("sv");
    // (task, expected verdict of unreach-call): a 0/1 CSP that holds, one that does not, and
    // one with differences of bounded integers and `?:` (the absolute value).
    for (task, safe) in [
        ("aim-100-1-6-sat-1", false),
        ("Dubois-015", true),
        ("AllInterval-006", false),
    ] {
        let c = root.join("xcsp").join(format!("{task}.c"));
        let text = to_smt_text(&c, false, 1, &Budget::unlimited()).expect("query");
        assert!(text.starts_with("(set-logic QF_LIA)"), "{task}");
        let out = run_script(
            &text,
            RunOptions {
                check: true,
                ..Default::default()
            },
        );
        assert!(out.errors.is_empty(), "{task}: {:?}", out.errors);
        let check = out.checks.last().expect("one check-sat");
        assert_eq!(check.answer, if safe { "unsat" } else { "sat" }, "{task}");
        assert_ne!(check.model_valid, Some(false), "{task}: invalid model");
        assert!(check.certificate_failures.is_empty(), "{task}");
    }
}
