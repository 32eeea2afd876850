//! Regression scripts (from differential fuzzing against z3 and hand-made corner cases): the
//! answer must equal the `:status` recorded in each file, with models and certificates checked.

use verikit_smt::{run_script, RunOptions};

#[test]
fn regression_scripts_answer_their_status() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/regress");
    let mut n = 0;
    let mut entries: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/regress")
        .flatten()
        .map(|e| e.path())
        .collect();
    entries.sort();
    for p in entries {
        if p.extension().and_then(|e| e.to_str()) != Some("smt2") {
            continue;
        }
        let text = std::fs::read_to_string(&p).expect("read");
        let out = run_script(
            &text,
            RunOptions {
                check: true,
                ..Default::default()
            },
        );
        assert!(out.errors.is_empty(), "{}: {:?}", p.display(), out.errors);
        let status = out.status.clone().unwrap_or_default();
        for c in &out.checks {
            assert_ne!(c.model_valid, Some(false), "{}: invalid model", p.display());
            assert!(
                c.certificate_failures.is_empty(),
                "{}: {:?}",
                p.display(),
                c.certificate_failures
            );
        }
        let last = out
            .checks
            .last()
            .map(|c| c.answer.clone())
            .unwrap_or_default();
        assert_eq!(last, status, "{}", p.display());
        n += 1;
    }
    assert!(n > 0);
}
