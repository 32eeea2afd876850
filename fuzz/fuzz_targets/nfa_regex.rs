#![no_main]
use libfuzzer_sys::fuzz_target;
use verikit_diag::SourceFile;

// The regular-expression reader (through the crate's loading policy), then writing the automaton
// as .mata and re-reading it.
fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        if let Ok((v, _)) = verikit_automata::load(&[&SourceFile::new("input", s)], Some("regex")) {
            for n in v {
                if let Ok(text) = verikit_automata::write(&n, "mata") {
                    let _ = verikit_automata::load(&[&SourceFile::new("output", &text)], Some("mata"));
                }
            }
        }
    }
});
