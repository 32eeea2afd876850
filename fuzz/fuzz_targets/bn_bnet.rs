#![no_main]
use libfuzzer_sys::fuzz_target;

// The .bnet reader, then (for small networks) writing and re-reading, and one attractor search.
fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        if let Ok(net) = verikit_boolnet::parse(s, verikit_boolnet::Format::Bnet) {
            let _ = verikit_boolnet::parse(&verikit_boolnet::write(&net, None), verikit_boolnet::Format::Bnet);
            if net.len() <= 10 {
                let _ = verikit_boolnet::attractors(&net, &verikit_boolnet::Options::default());
            }
        }
    }
});
