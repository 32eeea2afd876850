#![no_main]
use libfuzzer_sys::fuzz_target;

// The .neta reader, then (for small models) a short bounded reachability run with every label.
fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        if let Ok(m) = verikit_ta::parse_neta(s) {
            if m.locals.len() + m.globals.len() <= 4 {
                let budget = verikit_diag::Budget::from_secs(Some(0.05));
                let labels: Vec<u32> = (0..m.labels.len() as u32).collect();
                let opts = verikit_ta::NetaOptions { stack_bound: 3 };
                let r = verikit_ta::neta_reach(&m, &labels, &opts, &budget);
                if r.reachable == Some(true) {
                    assert!(verikit_ta::replay_neta(&m, &r.trace, &labels).is_ok());
                }
            }
        }
    }
});
