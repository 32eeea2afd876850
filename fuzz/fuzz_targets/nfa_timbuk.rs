#![no_main]
use libfuzzer_sys::fuzz_target;
use verikit_diag::SourceFile;

// The timbuk reader (through the crate's loading policy), then writing and re-reading what it read.
fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        if let Ok((v, _)) = verikit_automata::load(&[&SourceFile::new("input", s)], Some("timbuk")) {
            for n in v {
                if let Ok(text) = verikit_automata::write(&n, "timbuk") {
                    let _ = verikit_automata::load(&[&SourceFile::new("output", &text)], Some("timbuk"));
                }
            }
        }
    }
});
