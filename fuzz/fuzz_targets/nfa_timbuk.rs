#![no_main]
use libfuzzer_sys::fuzz_target;
use verikit_automata::timbuk;

fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        if let Ok(n) = timbuk::parse(s) {
            let _ = timbuk::parse(&timbuk::write(&n));
        }
    }
});
