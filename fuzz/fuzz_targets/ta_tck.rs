#![no_main]
use libfuzzer_sys::fuzz_target;

// The .tck reader, then (for small models) a short bounded reachability run with every label.
fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        if let Ok(m) = verikit_ta::parse_tck(s) {
            if m.clocks.len() <= 4 && m.processes.len() <= 4 {
                let budget = verikit_diag::Budget::from_secs(Some(0.05));
                let labels = m.labels.clone();
                let _ = verikit_ta::check_labels(&m, &labels, verikit_ta::Options::default(), &budget);
            }
        }
    }
});
