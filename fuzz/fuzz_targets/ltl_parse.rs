#![no_main]
use libfuzzer_sys::fuzz_target;
use verikit_omega::{ltl_to_string as to_string, parse_ltl as parse, simplify_ltl as simplify, Arena};

// Parsing never panics; what parses prints back to a formula that parses to the same formula,
// and small formulas translate.
fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        let mut a = Arena::new();
        if let Ok(f) = parse(s, &mut a) {
            let text = to_string(&a, f);
            let g = parse(&text, &mut a).expect("printed formula must parse");
            assert_eq!(f, g, "{text}");
            if a.tree_size(f) < 30 {
                let h = simplify(&mut a, f);
                let _ = verikit_omega::translate(&mut a, h, &Default::default());
            }
        }
    }
});
