#![no_main]
use libfuzzer_sys::fuzz_target;

// Preprocessed C through lang-c and the lowering to a CFA; the same bytes as an SV-COMP task file.
fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        let _ = verikit_prog::lower_preprocessed(s, "fuzz.c", verikit_prog::LowerOptions::default());
        let src = verikit_diag::SourceFile::new("fuzz.yml", s);
        let _ = verikit_prog::read_task(std::path::Path::new("fuzz.yml"), &src);
    }
});
