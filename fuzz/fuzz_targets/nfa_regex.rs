#![no_main]
use libfuzzer_sys::fuzz_target;
use verikit_automata::regex;

fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        let _ = regex::parse(s);
    }
});
