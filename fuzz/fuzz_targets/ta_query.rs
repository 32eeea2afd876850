#![no_main]
use libfuzzer_sys::fuzz_target;

// UPPAAL query texts (`E<>`, `A[]`, `E[]`, `A<>`, `-->`) on a fixed small model, then a short
// bounded check of each accepted query (liveness included).
const MODEL: &str = include_str!("../../crates/cli/demo/ta/fischer2.xml");

fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        if let Ok(um) = verikit_ta::parse_uppaal(MODEL) {
            for q in um.query_file(s).into_iter().flatten() {
                let budget = verikit_diag::Budget::from_secs(Some(0.05));
                let _ = verikit_ta::check_query(&um, &q, verikit_ta::Options::default(), &budget);
            }
        }
    }
});
