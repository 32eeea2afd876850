#![no_main]
use libfuzzer_sys::fuzz_target;

// Group CNF (`.gcnf`) must never panic; accepted inputs keep one group per clause.
fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        if let Ok(g) = verikit_sat::dimacs::parse_gcnf(s) {
            assert_eq!(g.clauses.len(), g.groups.len());
            assert!(g.groups.iter().all(|&k| k <= g.num_groups));
        }
    }
});
