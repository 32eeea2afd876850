#![no_main]
use libfuzzer_sys::fuzz_target;

// DRAT proofs (text or binary) must never panic the reader, and checking whatever it accepts
// against a fixed small formula must not panic either (only accept or reject).
fuzz_target!(|data: &[u8]| {
    if let Ok(steps) = verikit_sat::parse_drat(data) {
        let f = verikit_sat::dimacs::parse("p cnf 3 4\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 3 0\n")
            .unwrap_or_default();
        let budget = verikit_diag::Budget::unlimited().with_work_limit(100_000);
        let _ = verikit_sat::check_drat(f.num_vars, &f.clauses, &steps, &budget);
    }
});
