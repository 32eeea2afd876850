#![no_main]
use libfuzzer_sys::fuzz_target;

// The hostfile reader of the distributed engine (`--hostfile`): any text, any process count.
fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        let n = data.first().map_or(1, |b| usize::from(b % 5));
        let _ = verikit_explicit::Cluster::from_hostfile(2, n, n / 2, s);
    }
});
