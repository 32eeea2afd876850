#![no_main]
use libfuzzer_sys::fuzz_target;

// DIMACS CNF: the reader must never panic; whatever it accepts is re-read identically.
fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        if let Ok(cnf) = verikit_sat::dimacs::parse(s) {
            assert_eq!(verikit_sat::dimacs::parse(&cnf.to_dimacs()).ok(), Some(cnf));
        }
    }
});
