//! PRISM's semantics where verikit once differed (hand-computed values): bounded `P~p` on
//! interval MDPs holds for every scheduler and every resolution of the uncertainty; negative,
//! NaN and infinite rewards are refused at build time with a located error, as PRISM does.

use verikit_prob::RobustChecker;
use verikit_prob::{load_model, parse_properties, Answer, BuildOptions, CheckOptions, ProbError};

/// Three states: from 0, action `a` reaches the goal with probability in [0.5, 0.7], action `b`
/// with probability in [0.3, 0.5]; 1 (goal) and 2 are absorbing.
const THREE_STATE_IMDP: &str = "imdp\nmodule m\n s : [0..2] init 0;\n\
 [a] s=0 -> [0.5,0.7]:(s'=1) + [0.3,0.5]:(s'=2);\n\
 [b] s=0 -> [0.3,0.5]:(s'=1) + [0.5,0.7]:(s'=2);\n\
 [] s>0 -> (s'=s);\nendmodule\nlabel \"goal\" = s=1;\n";

fn robust(model: &str, props: &str) -> Vec<Answer> {
    let (prog, m) = load_model(model, &[], &BuildOptions::default()).unwrap();
    let pf = parse_properties(props).unwrap();
    let mut c = RobustChecker::new(&m, &prog, &pf, props, &[], CheckOptions::default()).unwrap();
    pf.properties
        .iter()
        .map(|p| c.check(p, "").unwrap().answer)
        .collect()
}

#[test]
fn imdp_bounds_hold_for_all_schedulers_and_natures() {
    // P>=p: min over schedulers and natures (0.3); P<=p: max over both (0.7).
    let props = "P>=0.5 [ F \"goal\" ];\nP<=0.5 [ F \"goal\" ];\nP>=0.3 [ F \"goal\" ];\n\
        P>0.3 [ F \"goal\" ];\nP<=0.7 [ F \"goal\" ];\nP<0.7 [ F \"goal\" ];\n\
        P>=0.5 [ X \"goal\" ];\nP>=0.3 [ F<=2 \"goal\" ];\nP<=0.5 [ G !\"goal\" ];\n\
        Pmaxmin=? [ F \"goal\" ];\nPminmax=? [ F \"goal\" ];\nPminmin=? [ F \"goal\" ];\n\
        Pmaxmax=? [ F \"goal\" ];\n";
    let got = robust(THREE_STATE_IMDP, props);
    let b = |x: bool| Answer::Bool(x);
    let want = [
        b(false),
        b(false),
        b(true),
        b(false),
        b(true),
        b(false),
        b(false),
        b(true),
        // G !goal: between 0.3 and 0.7 for every scheduler and nature; at most 0.5 fails.
        b(false),
    ];
    for (i, w) in want.iter().enumerate() {
        assert_eq!(&got[i], w, "property {}", i + 1);
    }
    let nums: Vec<f64> = got[9..]
        .iter()
        .map(|a| match a {
            Answer::Num(x) => *x,
            Answer::Bool(_) => f64::NAN,
        })
        .collect();
    for (x, w) in nums.iter().zip([0.5, 0.5, 0.3, 0.7]) {
        assert!((x - w).abs() < 1e-6, "{nums:?}");
    }
}

#[test]
fn idtmc_bounds_hold_for_every_nature() {
    let model = "idtmc\nmodule m\n s : [0..2] init 0;\n\
 [] s=0 -> [0.4,0.6]:(s'=1) + [0.4,0.6]:(s'=2);\n [] s>0 -> (s'=s);\nendmodule\n\
 label \"goal\" = s=1;\n";
    let props = "P>=0.4 [ F \"goal\" ];\nP>=0.5 [ F \"goal\" ];\nP<=0.6 [ F \"goal\" ];\n\
        P<=0.5 [ F \"goal\" ];\n";
    let got = robust(model, props);
    let want = [true, false, true, false].map(Answer::Bool);
    assert_eq!(got, want);
}

fn build_error(model: &str) -> String {
    match load_model(model, &[], &BuildOptions::default()) {
        Ok(_) => panic!("the model was accepted"),
        Err(e @ ProbError::Input(_)) => {
            let src = verikit_diag::SourceFile::new("m.prism", model);
            let d = verikit_diag::Reportable::diagnostic(&e).cloned().unwrap();
            assert!(d.span.is_some(), "the error has no location: {}", d.message);
            d.render(&src)
        }
        Err(e) => panic!("not an input error: {e}"),
    }
}

#[test]
fn negative_rewards_are_refused_with_a_location() {
    // A 2-state chain looping on a reward of -1 (the model answered 0.0).
    let state = "dtmc\nmodule m\n s : [0..1] init 0;\n [] s=0 -> 0.5:(s'=0) + 0.5:(s'=1);\n\
 [] s=1 -> (s'=1);\nendmodule\nrewards \"r\"\n s=0 : -1;\nendrewards\n";
    let msg = build_error(state);
    assert!(msg.contains("negative"), "{msg}");
    assert!(msg.contains("m.prism:8:"), "{msg}");
    let trans = "mdp\nmodule m\n s : [0..1] init 0;\n [go] s=0 -> 0.5:(s'=0) + 0.5:(s'=1);\n\
 [] s=1 -> (s'=1);\nendmodule\nrewards\n [go] true : 1-2;\nendrewards\n";
    let msg = build_error(trans);
    assert!(msg.contains("negative"), "{msg}");
    assert!(msg.contains("m.prism:8:"), "{msg}");
}

#[test]
fn nan_and_infinite_rewards_are_refused_with_a_location() {
    let nan = "dtmc\nmodule m\n s : [0..1] init 0;\n [] s=0 -> (s'=1);\n [] s=1 -> (s'=1);\n\
endmodule\nrewards \"r\"\n s=0 : 0/0;\nendrewards\n";
    let msg = build_error(nan);
    assert!(msg.contains("NaN"), "{msg}");
    assert!(msg.contains("m.prism:8:"), "{msg}");
    let inf = "ctmc\nmodule m\n s : [0..1] init 0;\n [a] s=0 -> 2:(s'=1);\n [] s=1 -> 1:(s'=0);\n\
endmodule\nrewards\n [a] true : 1/0;\nendrewards\n";
    let msg = build_error(inf);
    assert!(msg.contains("inf"), "{msg}");
    assert!(msg.contains("m.prism:8:"), "{msg}");
    // Rates that are NaN are refused too.
    let rate =
        "ctmc\nmodule m\n s : [0..1] init 0;\n [] s=0 -> 0/0:(s'=1);\n [] s=1 -> 1:(s'=0);\n\
endmodule\n";
    let msg = build_error(rate);
    assert!(msg.contains("m.prism:4:"), "{msg}");
}
