#![no_main]
use libfuzzer_sys::fuzz_target;
use verikit_logic::{parse_infix, BoolExpr};

fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        let mut n = 0u32;
        let _ = parse_infix(s, 0, &mut |_, _| {
            n += 1;
            Ok(BoolExpr::Var(n % 8))
        });
    }
});
