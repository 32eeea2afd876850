//! The DVE reader never panics: garbage, truncations and mutations of real models.

use verikit_explicit::{load_model, load_promela, parse_dve_expr};

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

#[test]
fn promela_reader_is_total() {
    let mut samples = vec![
        "byte a[2]; int x = -1; chan c = [0] of {int}; chan q = [2] of {byte, int};\n\
         active proctype P() { byte l = 1;\n\
         s: if :: d_step { a[0] == 1 && !(x > 2); q!l+1, x; x = x / l; } goto t;\n\
         :: atomic { c?0; a[1] = 2 } -> goto s; fi;\n\
         if :: x > 5 -> skip :: else -> l++ fi;\n\
         t: do :: c!x :: q?l, x; break :: assert(x < 3) od; goto s }\n\
         proctype Q() { end: c?eval(x) }\n\
         init { d_step { a[1] = 3 } atomic { run Q() } }\n\
         never { T0: if :: (x > 0) -> goto accept_S1 :: true -> goto T0 fi; accept_S1: skip }"
            .to_string(),
    ];
    if let Some(dir) = verikit_testkit::shared_path("beem") {
        for f in ["at/at.1.pm", "bopdp/bopdp.1.pm", "gear/gear.1.pm"] {
            if let Ok(t) = std::fs::read_to_string(dir.join(f)) {
                samples.push(t);
            }
        }
    }
    let refs: Vec<&str> = samples.iter().map(|s| s.as_str()).collect();
    verikit_testkit::assert_parser_total(&refs, 3000, load_promela);
}
