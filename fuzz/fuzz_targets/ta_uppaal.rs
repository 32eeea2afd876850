#![no_main]
use libfuzzer_sys::fuzz_target;

// The UPPAAL XML reader and its queries, then (for small models) a short bounded check of each.
fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        if let Ok(um) = verikit_ta::parse_uppaal(s) {
            if um.model.clocks.len() <= 4 && um.model.processes.len() <= 4 {
                let budget = verikit_diag::Budget::from_secs(Some(0.05));
                for q in um.embedded_queries().into_iter().flatten() {
                    let _ = verikit_ta::check_query(&um, &q, verikit_ta::Options::default(), &budget);
                }
            }
        }
    }
});
