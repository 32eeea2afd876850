#![no_main]
use libfuzzer_sys::fuzz_target;
use verikit_automata::ba;

fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        if let Ok(n) = ba::parse(s) {
            let _ = ba::parse(&ba::write(&n));
        }
    }
});
