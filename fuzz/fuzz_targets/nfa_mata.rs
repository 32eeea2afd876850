#![no_main]
use libfuzzer_sys::fuzz_target;
use verikit_automata::mata;

fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        if let Ok(a) = mata::parse(s) {
            if let Ok(v) = mata::build(&[a]) {
                // Anything that parses must also write and re-read.
                for n in v {
                    let _ = mata::parse_nfa(&mata::write(&n));
                }
            }
        }
    }
});
