//! The DVE reader never panics: garbage, truncations and mutations of real models.

use verikit_explicit::{load_model, parse_dve_expr};

#[test]
fn dve_reader_is_total() {
    let mut samples = vec![
        "byte a[2] = {1, 0}; int x = -1; channel c; channel {byte, int} q[2];\n\
         process P { byte l; state s, t; init s; accept t; commit t; assert t: x < 3;\n\
         trans s -> t { guard a[0] == 1 && not P.t; sync q!l+1, x; effect x = x / l, a[1] = 2; },\n\
         t -> s { sync c?l; }; }\n\
         process Q { state u; init u; trans u -> u { sync c!P->l; }; }\n system async;"
            .to_string(),
    ];
    if let Some(dir) = verikit_testkit::shared_path("beem") {
        for f in [
            "bakery/bakery.1.dve",
            "anderson/anderson.1.prop2.dve",
            "brp/brp.1.dve",
        ] {
            if let Ok(t) = std::fs::read_to_string(dir.join(f)) {
                samples.push(t);
            }
        }
    }
    let refs: Vec<&str> = samples.iter().map(|s| s.as_str()).collect();
    verikit_testkit::assert_parser_total(&refs, 3000, load_model);
    verikit_testkit::assert_parser_total(&["P_0.cs && x[2] > 3 imply not y"], 500, parse_dve_expr);
}
