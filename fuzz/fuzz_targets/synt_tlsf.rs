#![no_main]
use libfuzzer_sys::fuzz_target;

// The TLSF reader (with a short budget on the expansion of parametric files), then, for small
// results, a short synthesis run.
fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        let budget = verikit_diag::Budget::from_secs(Some(0.05));
        if let Ok(spec) = verikit_synt::parse_tlsf(s, &budget) {
            if spec.formula.len() < 200 && spec.inputs.len() + spec.outputs.len() <= 4 {
                let p = verikit_synt::Problem::from(spec);
                let _ = verikit_synt::solve_problem(&p, &verikit_diag::Params::default(), &budget);
            }
        }
    }
});
