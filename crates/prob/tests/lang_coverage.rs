//! PRISM language coverage (issue 18, item 13): interval DTMCs, models without a type keyword,
//! the `^` operator, weak until and release, references to named properties, total rewards
//! `R=? [ C ]` and CTL's `A`/`E`. Values come from Storm where Storm has the feature
//! (`tests/expected/prism-lang-storm.tsv`, recorded by `bench/peers/prism_record_lang.py` on the
//! models of `tests/models/lang`), otherwise from hand computation (noted at each test).

use verikit_prob::RobustChecker;
use verikit_prob::{
    load_model, parse_properties, Answer, BuildOptions, CheckOptions, Checker, ModelType, ProbError,
};

fn lang_model(name: &str) -> String {
    let p = verikit_testkit::repo_root()
        .join("crates/prob/tests/models/lang")
        .join(name);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Checks every property of `props` on `model`, keyed by name (or text).
fn check_all(model: &str, props: &str) -> Vec<(String, Result<Answer, ProbError>)> {
    let (prog, m) = load_model(model, &[], &BuildOptions::default()).unwrap();
    let pf = parse_properties(props).unwrap();
    let name = |p: &verikit_prob::Property| {
        p.name
            .clone()
            .unwrap_or_else(|| props[p.span.start..p.span.end].to_string())
    };
    if m.is_interval() {
        let mut c =
            RobustChecker::new(&m, &prog, &pf, props, &[], CheckOptions::default()).unwrap();
        pf.properties
            .iter()
            .map(|p| (name(p), c.check(p, "").map(|r| r.answer)))
            .collect()
    } else {
        let mut c = Checker::new(&m, &prog, &pf, &[], CheckOptions::default()).unwrap();
        pf.properties
            .iter()
            .map(|p| (name(p), c.check(p, "").map(|r| r.answer)))
            .collect()
    }
}

fn answers(model: &str, props: &str) -> Vec<(String, Answer)> {
    check_all(model, props)
        .into_iter()
        .map(|(n, r)| {
            let a = r.unwrap_or_else(|e| panic!("{n}: {e}"));
            (n, a)
        })
        .collect()
}

fn num(a: &Answer) -> f64 {
    match a {
        Answer::Num(x) => *x,
        Answer::Bool(b) => panic!("expected a number, got {b}"),
    }
}

fn close(got: f64, want: f64) -> bool {
    (got.is_infinite() && want.is_infinite() && got.signum() == want.signum())
        || (got - want).abs() <= 3e-6 * want.abs() + 1e-9
}

/// The error of a property, rendered with its location in the properties text.
fn prop_error(model: &str, props: &str) -> String {
    let r = check_all(model, props);
    match r.into_iter().next() {
        Some((_, Err(e @ ProbError::Input(_)))) => {
            let d = verikit_diag::Reportable::diagnostic(&e).cloned().unwrap();
            assert!(d.span.is_some(), "the error has no location: {}", d.message);
            d.render(&verikit_diag::SourceFile::new("p.props", props))
        }
        Some((_, Ok(a))) => panic!("the property was accepted: {a}"),
        other => panic!("not an input error: {other:?}"),
    }
}

/// Every value Storm recorded for the models of `tests/models/lang` (relative tolerance 3e-6,
/// as for the other Storm recordings: Storm's value iteration is itself only that accurate).
#[test]
fn storm_recorded_values() {
    let path = verikit_testkit::expected("prism-lang-storm.tsv");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut rows = 0;
    let mut by_model: std::collections::BTreeMap<String, Vec<(String, String)>> =
        Default::default();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let f: Vec<&str> = line.split('\t').collect();
        assert_eq!(f.len(), 3, "bad row {line}");
        by_model
            .entry(f[0].to_string())
            .or_default()
            .push((f[1].to_string(), f[2].to_string()));
        rows += 1;
    }
    assert!(rows >= 20, "only {rows} recorded values");
    let mut failures = Vec::new();
    for (model_path, want) in &by_model {
        let model = std::fs::read_to_string(verikit_testkit::repo_root().join(model_path)).unwrap();
        let props_path = verikit_testkit::repo_root().join(model_path.replace(".prism", ".props"));
        let props = std::fs::read_to_string(props_path).unwrap();
        let got = answers(&model, &props);
        for (name, w) in want {
            let Some((_, a)) = got.iter().find(|(n, _)| n == name) else {
                failures.push(format!("{model_path}:{name}: not checked"));
                continue;
            };
            let ok = match (a, w.as_str()) {
                (Answer::Bool(b), w) => w == b.to_string(),
                (Answer::Num(x), "Infinity") => x.is_infinite() && *x > 0.0,
                (Answer::Num(x), w) => w.parse::<f64>().is_ok_and(|y| close(*x, y)),
            };
            if !ok {
                failures.push(format!("{model_path}:{name}: verikit {a}, Storm {w}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

// ------------------------------------------------------------------ 1. idtmc

/// Storm cannot read `idtmc` models; hand-computed: from s=0 nature picks a distribution with
/// goal ∈ [0.3,0.6], trap ∈ [0.2,0.5], stay ∈ [0.1,0.4] each step, so P(F goal) = g/(g+t):
/// minimum 0.3/0.8 (stay 0.2), maximum 0.6/0.8; X: the goal's bounds; F<=2 maximum
/// 0.6 + 0.2·0.6 (g=0.6 leaves at most 0.2 to stay).
#[test]
fn idtmc_values_follow_prism_semantics() {
    let got = answers(&lang_model("idtmc.prism"), &lang_model("idtmc.props"));
    let want = [
        ("pmin", 0.375),
        ("pmax", 0.75),
        ("pmin_x", 0.3),
        ("pmax_b", 0.72),
    ];
    for (n, w) in want {
        let (_, a) = got.iter().find(|(x, _)| x == n).unwrap();
        assert!(close(num(a), w), "{n}: {a} (want {w})");
    }
    // Bounds hold for every resolution of the intervals.
    let b = answers(
        &lang_model("idtmc.prism"),
        "P>=0.37 [ F \"goal\" ];\nP>0.38 [ F \"goal\" ];\nP<=0.76 [ F \"goal\" ];\n\
         P<0.74 [ F \"goal\" ];\n",
    );
    let bools: Vec<Answer> = b.into_iter().map(|(_, a)| a).collect();
    assert_eq!(
        bools,
        [true, false, true, false].map(Answer::Bool),
        "bounded properties"
    );
}

#[test]
fn idtmc_refuses_p_query_as_prism_does() {
    // PRISM's manual: IDTMCs take MDP-style queries `Pmin=?`/`Pmax=?`, not `P=?`.
    let msg = prop_error(&lang_model("idtmc.prism"), "\n  P=? [ F \"goal\" ]\n");
    assert!(msg.contains("Pmin=?/Pmax=?"), "{msg}");
    assert!(msg.contains("p.props:2:3"), "{msg}");
    // Features without an interval semantics are refused with their location, not guessed.
    let msg = prop_error(&lang_model("idtmc.prism"), "E [ F \"goal\" ]");
    assert!(msg.contains("interval"), "{msg}");
    let with_rewards = lang_model("idtmc.prism") + "rewards \"r\" true : 1; endrewards\n";
    let msg = prop_error(&with_rewards, "Rmax=? [ C ]");
    assert!(msg.contains("interval models"), "{msg}");
}

// ------------------------------------------------------------------ 2. no type keyword

#[test]
fn a_model_without_type_is_an_mdp() {
    let (prog, m) = load_model(&lang_model("notype.prism"), &[], &BuildOptions::default()).unwrap();
    assert_eq!(prog.model_type, ModelType::Mdp);
    assert_eq!(m.model_type, ModelType::Mdp);
    // As for any MDP, `P=?` needs a direction.
    let msg = prop_error(&lang_model("notype.prism"), "P=? [ F \"goal\" ]");
    assert!(msg.contains("Pmin=?/Pmax=?"), "{msg}");
}

// ------------------------------------------------------------------ 3. `^`

fn const_values(decls: &str) -> Vec<(String, String)> {
    let model =
        format!("dtmc\n{decls}\nmodule m x : [0..1] init 0; [] true -> (x'=x); endmodule\n");
    let (prog, _) = load_model(&model, &[], &BuildOptions::default()).unwrap();
    prog.constants
        .iter()
        .map(|(n, v)| (n.clone(), format!("{v:?}")))
        .collect()
}

#[test]
fn power_operator_precedence_and_types() {
    // PRISM's precedence: times/divide < power < unary minus (Storm agrees: -2^2 = 4).
    let got = const_values(
        "const int a = -2^2;\nconst int b = 2^3^2;\nconst int c = 2*3^2;\nconst int d = 2^3+1;\n\
         const double e = 2.0^-1;\nconst double f = 9^0.5;\nconst int g = pow(2, 10) - 2^10;\n",
    );
    let want = [
        ("a", "I(4)"),
        ("b", "I(512)"),
        ("c", "I(18)"),
        ("d", "I(9)"),
        ("e", "D(0.5)"),
        ("f", "D(3.0)"),
        ("g", "I(0)"),
    ];
    for (n, w) in want {
        let v = got.iter().find(|(x, _)| x == n).map(|(_, v)| v.as_str());
        assert_eq!(v, Some(w), "constant {n}");
    }
}

fn model_error(model: &str) -> String {
    match load_model(model, &[], &BuildOptions::default()) {
        Ok(_) => panic!("the model was accepted"),
        Err(e) => {
            let d = verikit_diag::Reportable::diagnostic(&e).cloned().unwrap();
            assert!(d.span.is_some(), "the error has no location: {}", d.message);
            d.render(&verikit_diag::SourceFile::new("m.prism", model))
        }
    }
}

#[test]
fn power_operator_is_type_checked() {
    // int ^ int is an int: a double there is a type error.
    let m =
        "dtmc\nconst int a = 2^0.5;\nmodule m x : [0..1] init 0; [] true -> (x'=x); endmodule\n";
    let msg = model_error(m);
    assert!(msg.contains("m.prism:2:"), "{msg}");
    // Booleans are not numbers.
    let m =
        "dtmc\nconst int a = 2^true;\nmodule m x : [0..1] init 0; [] true -> (x'=x); endmodule\n";
    let msg = model_error(m);
    assert!(msg.contains("m.prism:2:"), "{msg}");
    // A negative integer exponent has no integer value (PRISM refuses it).
    let m = "dtmc\nconst int a = 2^-1;\nmodule m x : [0..1] init 0; [] true -> (x'=x); endmodule\n";
    let msg = model_error(m);
    assert!(msg.contains("negative exponent"), "{msg}");
    assert!(msg.contains("m.prism:2:"), "{msg}");
}

// ------------------------------------------------------------------ 5. property references

#[test]
fn named_properties_can_be_referenced() {
    // notype.prism: Pmax [ F "goal" ] = 2/3 (Storm), Pmin = 0.2.
    let props = "\"pmax\": Pmax=? [ F \"goal\" ];\n\"twice\": 2 * \"pmax\";\n\
                 \"big\": \"pmax\" > 0.5;\n\"chain\": \"twice\" - \"pmax\";\n\
                 \"inside\": Pmin=? [ F \"big\" ];\n";
    let got = answers(&lang_model("notype.prism"), props);
    let get = |n: &str| {
        got.iter()
            .find(|(x, _)| x == n)
            .map(|(_, a)| a.clone())
            .unwrap()
    };
    let pmax = num(&get("pmax"));
    assert!(close(pmax, 2.0 / 3.0), "{pmax}");
    assert!(close(num(&get("twice")), 2.0 * pmax));
    assert!(close(num(&get("chain")), pmax));
    assert_eq!(get("big"), Answer::Bool(true));
    // "big" holds in the initial state, so F "big" holds at once there.
    assert!(close(num(&get("inside")), 1.0));
}

#[test]
fn cyclic_property_references_are_refused() {
    let props = "\"a\": \"b\" + 1;\n\"b\": 2 * \"a\";\n";
    let pf = parse_properties(props).unwrap();
    let (prog, m) = load_model(&lang_model("notype.prism"), &[], &BuildOptions::default()).unwrap();
    let err = match Checker::new(&m, &prog, &pf, &[], CheckOptions::default()) {
        Ok(_) => panic!("a cycle was accepted"),
        Err(e) => e,
    };
    let d = verikit_diag::Reportable::diagnostic(&err).cloned().unwrap();
    let msg = d.render(&verikit_diag::SourceFile::new("p.props", props));
    assert!(msg.contains("cyclic reference"), "{msg}");
    assert!(msg.contains("p.props:2:"), "{msg}");
    // A self-reference too.
    let props = "\"a\": Pmax=? [ F \"a\" ];\n";
    let pf = parse_properties(props).unwrap();
    assert!(Checker::new(&m, &prog, &pf, &[], CheckOptions::default()).is_err());
}

// ------------------------------------------------------------------ 6. total rewards

#[test]
fn total_reward_infinity_and_refusals() {
    // Hand-computed for total.prism "r": V0 = 3 + V1/2 + V2/2, V1 = 1 + V0/5, V2 = 5: 20/3
    // (Storm agrees in the recorded file).
    let got = answers(&lang_model("total.prism"), &lang_model("total.props"));
    assert!(close(num(&got[0].1), 20.0 / 3.0), "{}", got[0].1);
    assert!(num(&got[1].1).is_infinite());
    // total_mdp.prism: Rmax = 8 (loop 0 → 1 → 0 via a, c), Rmin = 3 (b, then stay in 3).
    let got = answers(
        &lang_model("total_mdp.prism"),
        &lang_model("total_mdp.props"),
    );
    assert!(close(num(&got[0].1), 3.0), "{}", got[0].1);
    assert!(close(num(&got[1].1), 8.0), "{}", got[1].1);
    // An MDP needs a direction; a CTMC's total reward is refused with its location.
    let msg = prop_error(&lang_model("total_mdp.prism"), "R{\"r\"}=? [ C ]");
    assert!(msg.contains("Rmin=?/Rmax=?"), "{msg}");
    let ctmc = "ctmc\nmodule m s : [0..1] init 0; [] s=0 -> 2:(s'=1); endmodule\n\
                rewards s=0 : 1; endrewards\n";
    let msg = prop_error(ctmc, "R=? [ C ]");
    assert!(msg.contains("CTMC"), "{msg}");
}

// ------------------------------------------------------------------ 7. CTL A/E

/// Hand-computed on the graph of until.prism (x=1 initially; 1–3 step down, up or stay; 0 and
/// 4 absorbing) and until_mdp.prism (x=0: `stay` loops, `go` reaches 1 or 2; 1 loops or
/// reaches 3; 2 and 3 absorbing).
#[test]
fn ctl_quantifiers_on_the_underlying_graph() {
    let dtmc = [
        ("E [ F x=0 ]", true),
        ("A [ F x=0 ]", false),
        ("A [ F (x=0 | x=4) ]", false),
        ("E [ G x>0 ]", true),
        ("A [ G x<4 ]", false),
        ("A [ G x<=4 ]", true),
        ("A [ X x<=2 ]", true),
        ("E [ X x=2 ]", true),
        ("A [ X x=2 ]", false),
        ("E [ \"safe\" U \"top\" ]", true),
        ("A [ \"safe\" U \"top\" ]", false),
        ("E [ x<3 W x=4 ]", true),
        ("A [ x>0 W x=4 ]", false),
        ("A [ x<4 R x>=0 ]", true),
        ("E [ x=4 R x>0 ]", true),
        ("!E [ F x=0 ] | A [ X x<=2 ]", true),
        ("P>0.4 [ F E [ X x=4 ] ]", true),
    ];
    let m = lang_model("until.prism");
    for (p, want) in dtmc {
        let got = answers(&m, p);
        assert_eq!(got[0].1, Answer::Bool(want), "{p}");
    }
    let mdp = [
        ("A [ F x=3 ]", false),
        ("E [ F x=3 ]", true),
        ("A [ G x!=2 ]", false),
        ("E [ G x!=2 ]", true),
        ("E [ X x=2 ]", true),
        ("A [ X x<=2 ]", true),
        ("A [ x<=1 U x>=2 ]", false),
    ];
    let m = lang_model("until_mdp.prism");
    for (p, want) in mdp {
        let got = answers(&m, p);
        assert_eq!(got[0].1, Answer::Bool(want), "{p}");
    }
    // Bounds inside A/E are refused with a location.
    let msg = prop_error(&lang_model("until.prism"), "A [ F<=3 x=4 ]");
    assert!(msg.contains("bounded"), "{msg}");
}

/// The parsers stay total (no panic, a located error or a result) on mutations of the new
/// syntax: `^`, `W`/`R`, `A`/`E`, `C`, property references, a model without a type.
#[test]
fn parsers_are_total_on_the_new_syntax() {
    let props = "\"p\": Pmax=? [ x<=1 W<=2^2 x=3 ];\n\"q\": 2^-\"p\" + A [ x>0 R !(x=2) ];\n\
                 R{\"r\"}min=? [ C ];\nE [ X x^2>1 ] & !E [ \"q\" U x=3 ];\n";
    verikit_testkit::assert_parser_total(&[props], 2000, parse_properties);
    let model = lang_model("notype.prism") + "const double c = (-2)^0.5^2;\n";
    verikit_testkit::assert_parser_total(&[model.as_str()], 2000, verikit_prob::parse_model);
}
