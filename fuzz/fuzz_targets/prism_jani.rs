#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        if let Ok(jf) = verikit_prob::parse_jani(s) {
            if let Ok(prog) = verikit_prob::check_model(&jf.model, &[]) {
                let opts = verikit_prob::BuildOptions {
                    max_states: 10_000,
                    ..Default::default()
                };
                let _ = verikit_prob::build(&prog, &opts);
            }
        }
    }
});
