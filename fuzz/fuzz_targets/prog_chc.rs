#![no_main]
use libfuzzer_sys::fuzz_target;

// CHC text through the Horn-clause reader, the clause automaton and a few steps of the engines
// (a small work budget), and the model checker on a fixed model.
fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        let params = verikit_diag::Params::default();
        if let Ok(opts) =
            verikit_prog::VerifyOptions::from_params(verikit_prog::Engine::Portfolio, &params)
        {
            let budget = verikit_diag::Budget::unlimited().with_work_limit(200);
            let _ = verikit_prog::solve_chc_text(s, &opts, &budget);
        }
        let model = verikit_prog::ChcModel { defs: Vec::new() };
        let _ = verikit_prog::check_chc_model(s, &model);
    }
});
