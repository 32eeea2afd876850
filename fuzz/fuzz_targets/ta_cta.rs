#![no_main]
use libfuzzer_sys::fuzz_target;

// The .cta reader, then (for small models) a short bounded reachability run with every label.
fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        if let Ok(m) = verikit_ta::parse_cta(s) {
            if m.clocks.len() <= 4 && m.processes.len() <= 4 {
                let budget = verikit_diag::Budget::from_secs(Some(0.05));
                let labels: Vec<u32> = (0..m.labels.len() as u32).collect();
                let opts = verikit_ta::CtaOptions { channel_bound: 4 };
                if let Ok(r) = verikit_ta::cta_reach(&m, &labels, &opts, &budget) {
                    if r.reachable == Some(true) {
                        assert!(verikit_ta::replay_cta(&m, &r.trace, &labels).is_ok());
                    }
                }
            }
        }
    }
});
