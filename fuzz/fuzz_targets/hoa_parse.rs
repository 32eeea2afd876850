#![no_main]
use libfuzzer_sys::fuzz_target;

// Parsing never panics (one automaton or a stream); what parses is printed and parses back to an
// isomorphic automaton.
fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        let _ = verikit_omega::hoa::parse::parse_stream(s);
        if let Ok(a) = verikit_omega::hoa::parse(s) {
            if a.num_states() < 1000 {
                let text = verikit_omega::hoa::to_hoa(&a);
                let b = verikit_omega::hoa::parse(&text).expect("printed HOA must parse");
                assert!(verikit_omega::twa::isomorphic(&a, &b));
                let _ = verikit_omega::emptiness::accepting_lasso(&a);
            }
        }
    }
});
