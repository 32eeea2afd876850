#![no_main]
use libfuzzer_sys::fuzz_target;

// The AIGER reader (ASCII and binary), then both writers must read back to the same circuit.
fuzz_target!(|data: &[u8]| {
    if let Ok(a) = verikit_aiger::parse("fuzz", data) {
        let back = verikit_aiger::parse("fuzz.aag", a.to_aag().as_bytes());
        assert_eq!(back.ok().as_ref(), Some(&a));
        let bin = verikit_aiger::parse("fuzz.aig", &a.to_aig());
        assert_eq!(bin.ok(), Some(a.renumbered()));
    }
    if let Ok(s) = std::str::from_utf8(data) {
        let _ = verikit_aiger::Witness::parse(s);
    }
});
