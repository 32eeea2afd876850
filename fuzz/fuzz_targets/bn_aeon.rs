#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        if let Ok(net) = verikit_boolnet::parse(s, verikit_boolnet::Format::Aeon) {
            let _ = verikit_boolnet::parse(&verikit_boolnet::write(&net, Some("out.aeon")), verikit_boolnet::Format::Aeon);
        }
    }
});
