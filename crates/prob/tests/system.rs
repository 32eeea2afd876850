//! `system … endsystem` (PRISM manual, "Process Algebra Operators"): `||`, `|||`, `|[a,b]|`,
//! hiding `/{a}` and renaming `{a<-b}`, checked on hand-computed models and against Storm's
//! answers on the models in `tests/models/system` (recorded by
//! `bench/peers/prism_record_system.py`).

use std::path::PathBuf;
use verikit_prob::{
    build, check_model, parse_model, parse_properties, Answer, BuildOptions, CheckOptions, Checker,
    Model, Program,
};

fn load(text: &str) -> Result<(Model, Program), String> {
    let mf = parse_model(text).map_err(|e| e.to_string())?;
    let prog = check_model(&mf, &[]).map_err(|e| e.to_string())?;
    let m = build(&prog, &BuildOptions::default()).map_err(|e| e.to_string())?;
    Ok((m, prog))
}

fn value(text: &str, prop: &str) -> f64 {
    let (m, prog) = load(text).unwrap();
    let pf = parse_properties(prop).unwrap();
    let mut c = Checker::new(&m, &prog, &pf, &[], CheckOptions::default()).unwrap();
    match c.check(&pf.properties[0], "p").unwrap().answer {
        Answer::Num(x) => x,
        Answer::Bool(b) => b as i32 as f64,
    }
}

const TWO: &str = "dtmc\nmodule M\n x : [0..1] init 0;\n [a] x=0 -> (x'=1);\nendmodule\n\
                   module N = M [x=y] endmodule\n";

/// Hand-computed state counts: with `||` the two `a` moves synchronise (2 states), with `|||` or
/// `|[]|` they interleave (4 states); after renaming M's `a` to `b`, `|[b]|` blocks M's `b`
/// (N has none) while N's `a` interleaves (2 states).
#[test]
fn hand_computed_compositions() {
    for (sys, states, both_at_once) in [
        ("M || N", 2, 1.0),
        ("N || M", 2, 1.0),
        ("M ||| N", 4, 0.0),
        ("M |[]| N", 4, 0.0),
        ("M |[a]| N", 2, 1.0),
        ("(M ||| N) / {a}", 4, 0.0),
        ("M {a<-b} || N", 4, 0.0),
        ("M {a<-b} |[b]| N", 2, 0.0),
        ("M {a<-b} || N {a<-b}", 2, 1.0),
        ("(M / {a}) || N", 4, 0.0),
    ] {
        let text = format!("{TWO}system {sys} endsystem\n");
        let (m, _) = load(&text).unwrap_or_else(|e| panic!("{sys}: {e}"));
        assert_eq!(m.num_states(), states, "{sys}");
        let p = value(&text, "P=? [ X x=1 & y=1 ]");
        assert!((p - both_at_once).abs() < 1e-12, "{sys}: {p}");
    }
}

/// Synchronised CTMC rates multiply (PRISM manual, "Synchronisation"): with `||` the joint move
/// has rate 2·3 = 6; with `|||` each module moves at its own rate.
#[test]
fn ctmc_rates_multiply_only_when_synchronised() {
    let base = "ctmc\nmodule M\n x : [0..1] init 0;\n [a] x=0 -> 2:(x'=1);\nendmodule\n\
                module N\n y : [0..1] init 0;\n [a] y=0 -> 3:(y'=1);\nendmodule\n";
    let sync = value(
        &format!("{base}system M || N endsystem\n"),
        "P=? [ F<=0.1 x=1 ]",
    );
    assert!((sync - (1.0 - (-0.6f64).exp())).abs() < 1e-6, "{sync}");
    let inter = value(
        &format!("{base}system M ||| N endsystem\n"),
        "P=? [ F<=0.1 x=1 ]",
    );
    assert!((inter - (1.0 - (-0.2f64).exp())).abs() < 1e-6, "{inter}");
}

/// Transition rewards follow the composed action: after renaming, `[b]` rewards count M's moves.
#[test]
fn rewards_see_renamed_actions() {
    let text =
        format!("{TWO}system M {{a<-b}} ||| N endsystem\nrewards \"r\" [b] true : 1; endrewards\n");
    // The reward block after `endsystem` is read too (PRISM accepts the block anywhere).
    let (m, _) = load(&text).unwrap();
    assert_eq!(m.num_states(), 4);
    let r = value(&text, "R{\"r\"}=? [ C<=5 ]");
    assert!((r - 1.0).abs() < 1e-9, "{r}");
}

#[test]
fn system_parser_is_total() {
    let sample = format!("{TWO}system ((M |[a]| N) {{a<-b}}) / {{b}} ||| (N2 || M2) endsystem\n");
    verikit_testkit::assert_parser_total(&[sample.as_str()], 1500, parse_model);
}

#[test]
fn system_errors_are_located() {
    for (sys, what) in [
        ("M endsystem", "missing"),
        ("M || M || N endsystem", "twice"),
        ("M || Z endsystem", "unknown module"),
        ("M |[a| N endsystem", "expected"),
        ("M {a<-b, a<-c} || N endsystem", "renamed twice"),
        ("M / a || N endsystem", "expected `{`"),
    ] {
        let text = format!("{TWO}system {sys}\n");
        let e = load(&text)
            .err()
            .unwrap_or_else(|| panic!("{sys} accepted"));
        assert!(e.contains(what), "{sys}: {e}");
    }
}

/// Storm (symbolic builder, hybrid engine) on the models of `tests/models/system`: same state
/// and transition counts, values within 1e-5 relative (Storm's iterative solvers stop at an
/// absolute difference of 1e-6 without a soundness guarantee).
#[test]
fn storm_recorded_answers() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/models/system");
    let tsv = std::fs::read_to_string(verikit_testkit::expected("prism-system.tsv")).unwrap();
    let mut checked = 0;
    for line in tsv.lines().filter(|l| !l.starts_with('#') && !l.is_empty()) {
        let f: Vec<&str> = line.split('\t').collect();
        let (model, ix, states, trans, want) = (
            f[0],
            f[1].parse::<usize>().unwrap(),
            f[2].parse::<usize>().unwrap(),
            f[3].parse::<usize>().unwrap(),
            f[4].parse::<f64>().unwrap(),
        );
        let text = std::fs::read_to_string(dir.join(model)).unwrap();
        let props = std::fs::read_to_string(dir.join(model.replace(".prism", ".props"))).unwrap();
        let (m, prog) = load(&text).unwrap();
        assert_eq!(m.num_states(), states, "{model}");
        assert_eq!(m.num_transitions(), trans, "{model}");
        let pf = parse_properties(&props).unwrap();
        let mut c = Checker::new(&m, &prog, &pf, &[], CheckOptions::default()).unwrap();
        let got = match c.check(&pf.properties[ix], "p").unwrap().answer {
            Answer::Num(x) => x,
            other => panic!("{model} {ix}: {other:?}"),
        };
        assert!(
            (got - want).abs() <= 1e-5 * want.abs().max(1e-3),
            "{model} property {ix}: verikit {got}, Storm {want}"
        );
        checked += 1;
    }
    assert!(checked >= 15, "only {checked} rows");
}

use proptest::prelude::*;

/// A random command: action (none, `a`, `b`), guard value, two targets and a weight.
type RandomCommand = (u8, u8, u8, u8, u32);

/// Random modules over shared actions `a`, `b` and unlabelled commands.
fn random_model(kind: &str, mods: &[Vec<RandomCommand>]) -> String {
    let mut s = format!("{kind}\n");
    for (i, cmds) in mods.iter().enumerate() {
        s.push_str(&format!("module M{i}\n x{i} : [0..2] init 0;\n"));
        for &(act, g, t1, t2, w) in cmds {
            let a = ["", "a", "b"][act as usize % 3];
            let p = w as f64 / 10.0;
            let (l, r) = if kind == "ctmc" {
                (format!("{}", w), format!("{}", 10 - w))
            } else {
                (format!("{p}"), format!("{}", 1.0 - p))
            };
            s.push_str(&format!(
                " [{a}] x{i}={} -> {l}:(x{i}'={}) + {r}:(x{i}'={});\n",
                g % 3,
                t1 % 3,
                t2 % 3
            ));
        }
        s.push_str("endmodule\n");
    }
    s
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]
    /// The system-term builder (forced by an empty hiding, which changes nothing) agrees with
    /// the default composition's fast path: same states, transitions and probabilities.
    #[test]
    fn term_builder_matches_default_composition(
        kind in prop::sample::select(vec!["dtmc", "mdp", "ctmc"]),
        mods in proptest::collection::vec(
            proptest::collection::vec((0u8..3, 0u8..3, 0u8..3, 0u8..3, 1u32..10), 1..4), 2..4),
    ) {
        let base = random_model(kind, &mods);
        let names: Vec<String> = (0..mods.len()).map(|i| format!("M{i}")).collect();
        let forced = format!("{base}system ({}) / {{}} endsystem\n", names.join(" || "));
        let (m1, _) = load(&base).unwrap();
        let (m2, _) = load(&forced).unwrap();
        prop_assert_eq!(m1.num_states(), m2.num_states());
        prop_assert_eq!(m1.num_transitions(), m2.num_transitions());
        prop_assert_eq!(m1.num_choices(), m2.num_choices());
        let prop = if kind == "mdp" {
            "Pmax=? [ F<=3 x0=2 & x1=2 ]"
        } else {
            "P=? [ F<=3 x0=2 & x1=2 ]"
        };
        let (v1, v2) = (value(&base, prop), value(&forced, prop));
        prop_assert!((v1 - v2).abs() < 1e-9, "{} vs {}", v1, v2);
    }
}
