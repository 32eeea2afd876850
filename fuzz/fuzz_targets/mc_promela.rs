#![no_main]
use libfuzzer_sys::fuzz_target;

// The Promela reader, its lowering and the compiler, then (for small models) a short bounded
// exploration.
fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        if let Ok(m) = verikit_explicit::load_promela(s) {
            if m.state_size() <= 64 {
                let budget = verikit_diag::Budget::from_secs(Some(0.05));
                let _ = verikit_explicit::bfs(&m, verikit_explicit::Goal::Assert, &budget);
            }
        }
    }
});
