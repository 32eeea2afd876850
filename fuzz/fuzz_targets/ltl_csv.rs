#![no_main]
use libfuzzer_sys::fuzz_target;
use verikit_omega::task::csv_column;

// Reading a CSV column (`ltl translate -F FILE/COL`) never panics, and every field's offset
// points into the input.
fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        for col in [1, 2, -1, -3] {
            if let Ok(fields) = csv_column(s, col) {
                for (off, _) in fields {
                    assert!(off <= s.len());
                }
            }
        }
    }
});
