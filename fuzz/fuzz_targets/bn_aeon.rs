#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        if let Ok(net) = verikit_boolnet::aeon::parse(s) {
            let _ = verikit_boolnet::aeon::parse(&verikit_boolnet::aeon::write(&net));
        }
    }
});
