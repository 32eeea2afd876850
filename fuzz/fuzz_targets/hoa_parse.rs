#![no_main]
use libfuzzer_sys::fuzz_target;

// Parsing never panics (one automaton or a stream); what parses is printed and parses back to an
// isomorphic automaton.
fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        let _ = verikit_omega::parse_hoa_stream(s);
        if let Ok(a) = verikit_omega::parse_hoa(s) {
            if a.num_states() < 1000 {
                let text = verikit_omega::to_hoa(&a);
                let b = verikit_omega::parse_hoa(&text).expect("printed HOA must parse");
                assert!(verikit_omega::isomorphic(&a, &b));
                let _ = verikit_omega::accepting_lasso(&a);
            }
        }
    }
});
