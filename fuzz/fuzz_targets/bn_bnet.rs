#![no_main]
use libfuzzer_sys::fuzz_target;

// The .bnet reader, then (for small networks) writing and re-reading, and one attractor search.
fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        if let Ok(net) = verikit_boolnet::bnet::parse(s) {
            let _ = verikit_boolnet::bnet::parse(&verikit_boolnet::bnet::write(&net));
            if net.len() <= 10 {
                let _ = verikit_boolnet::attractors(&net, &verikit_boolnet::Options::default());
            }
        }
    }
});
