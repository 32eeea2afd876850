//! Robust (∃σ∀π) checking of interval models: hand-computed values, Storm's answers on point
//! models, a brute-force oracle over memoryless strategies and polytope vertices, and the
//! issue's correctness line: every property has the same value on a model and on its quotient.

#![allow(clippy::needless_range_loop)]

mod common;
use common::random_imdp;
use proptest::prelude::*;
use verikit_prob::quotient;
use verikit_prob::widen;
use verikit_prob::Model;
use verikit_prob::ModelType;
use verikit_prob::{bisimulation, label_partition, partition_by};
use verikit_prob::{
    load_model, parse_properties, Answer, BuildOptions, CheckOptions, PropertyResult,
};
use verikit_prob::{until, Dir, RobustChecker};

fn read(rel: &str) -> Option<String> {
    let p = verikit_testkit::shared_path(rel)?;
    std::fs::read_to_string(p).ok()
}

fn ov(consts: &str) -> Vec<(String, String)> {
    consts
        .split(',')
        .filter(|c| !c.is_empty())
        .filter_map(|c| c.split_once('='))
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

fn check_text(
    m: &Model,
    prog: &verikit_prob::Program,
    props: &str,
    consts: &str,
) -> Vec<PropertyResult> {
    let pf = parse_properties(props).unwrap();
    let o = ov(consts);
    let mut c = RobustChecker::new(m, prog, &pf, props, &o, CheckOptions::default()).unwrap();
    pf.properties
        .iter()
        .map(|p| {
            let text = &props[p.span.start..p.span.end];
            c.check(p, text).unwrap()
        })
        .collect()
}

fn num(r: &PropertyResult) -> f64 {
    match r.answer {
        Answer::Num(x) => x,
        Answer::Bool(b) => b as u8 as f64,
    }
}

fn close(a: f64, b: f64, rel: f64) -> bool {
    a == b || (a - b).abs() <= rel * a.abs().max(b.abs()).max(1e-12)
}

#[test]
fn robot_values_by_hand() {
    let Some(text) = read("prism-examples/imdps/simple/robot.prism") else {
        eprintln!("skipping: data not available");
        return;
    };
    let (prog, m) = load_model(&text, &ov("delta=0.1"), &BuildOptions::default()).unwrap();
    assert_eq!(m.model_type, ModelType::Imdp);
    // Worked out on paper from the model (p = 0.4, q = 0.6).
    let props = "Pmaxmin=? [ F \"goal1\" ];\nPmaxmax=? [ F \"goal1\" ];\nPmin=? [ F \"goal1\" ];\n\
        Pmax=? [ F<=3 \"goal1\" ];\nPmax=? [ X \"hazard\" ];\nPmaxmin=? [ G !\"hazard\" ];\n\
        Rminmax=? [ F \"goal1\"|\"goal2\" ];\nRminmin=? [ F \"goal1\"|\"goal2\" ];\n\
        Rmax=? [ F \"goal1\"|\"goal2\" ];\nR{\"time\"}minmax=? [ C<=5 ];\n\
        Pmax>=0.39 [ F \"goal1\" ];\nPmax>=0.41 [ F \"goal1\" ];\nP>=0.39 [ F \"goal1\" ];\n\
        P<=0 [ F \"goal1\" ];\n";
    let want = [
        0.4,
        0.6,
        0.0,
        0.28,
        0.6,
        0.9,
        1.225,
        1.0 + 0.1 / 0.9 + 0.1,
        10.0 / 3.0,
        5.0,
        1.0,
        0.0,
        // Bounds hold for every scheduler and nature (PRISM): min-min 0 < 0.39, max-max 0.6 > 0.
        0.0,
        0.0,
    ];
    let got = check_text(&m, &prog, props, "");
    for (i, (r, w)) in got.iter().zip(want).enumerate() {
        assert!(r.sound, "property {i} not verified");
        assert!(close(num(r), w, 2e-6), "property {i}: {} vs {w}", r.answer);
    }
}

/// Storm's answers (recorded by the benchmark script) on the point models, read as IMDPs with
/// point intervals: the robust engine must agree with the classical one there (bounds `P≥p` on
/// MDPs mean ∀σ in both).
#[test]
fn point_models_agree_with_storm() {
    let path = verikit_testkit::expected("prism-storm.tsv");
    let Ok(tsv) = std::fs::read_to_string(&path) else {
        eprintln!("skipping: no expected results");
        return;
    };
    let mut checked = 0;
    for line in tsv.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() < 4 || !(f[0].contains("/dtmc/") || f[0].contains("/mdp/")) {
            continue;
        }
        // Larger instances are covered by the benchmark; keep the test fast.
        if f[0].contains("wlan") || f[0].contains("zeroconf") || f[0].contains("brp") {
            continue;
        }
        let Some(text) = read(f[0]) else { continue };
        let (pfile, pname) = f[2].split_once(':').unwrap();
        let dir = std::path::Path::new(f[0]).parent().unwrap();
        let Some(ptext) = read(dir.join(pfile).to_str().unwrap()) else {
            continue;
        };
        let o = ov(f[1]);
        let (prog, m) = load_model(&text, &o, &BuildOptions::default()).unwrap();
        let pf = parse_properties(&ptext).unwrap();
        let p = verikit_prob::select_properties(&pf, Some(pname)).unwrap()[0];
        let mut c =
            RobustChecker::new(&m, &prog, &pf, &ptext, &o, CheckOptions::default()).unwrap();
        let r = match c.check(p, pname) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("{} {pname}: {e} (skipped)", f[0]);
                continue;
            }
        };
        let want = f[3];
        match r.answer {
            Answer::Bool(b) => assert_eq!(b.to_string(), want.to_lowercase(), "{line}"),
            Answer::Num(x) => {
                let w: f64 = want.parse().unwrap();
                assert!(close(x, w, 1e-5), "{line}: got {x}");
            }
        }
        checked += 1;
    }
    if verikit_testkit::shared_data().is_some() {
        assert!(checked >= 15, "only {checked} rows checked");
    }
}

// ---- brute force: memoryless deterministic strategies, nature over polytope vertices ----

/// Vertices of `{ h | l ≤ h ≤ u, Σh = 1 }`: all but one coordinate at a bound.
fn vertices(b: &[(usize, f64, f64)]) -> Vec<Vec<f64>> {
    let k = b.len();
    let mut out = Vec::new();
    for free in 0..k {
        for mask in 0..(1u32 << k) {
            let mut h = vec![0.0; k];
            let mut sum = 0.0;
            for j in 0..k {
                if j != free {
                    h[j] = if mask >> j & 1 == 1 { b[j].2 } else { b[j].1 };
                    sum += h[j];
                }
            }
            h[free] = 1.0 - sum;
            if h[free] >= b[free].1 - 1e-12 && h[free] <= b[free].2 + 1e-12 {
                out.push(h);
            }
        }
    }
    out
}

fn brute_until(m: &Model, target: &[bool], dir: Dir) -> Vec<f64> {
    let n = m.num_states();
    let counts: Vec<usize> = (0..n).map(|s| m.choices(s).len()).collect();
    let total: usize = counts.iter().product();
    let mut best: Vec<Option<f64>> = vec![None; n];
    let verts: Vec<Vec<Vec<f64>>> = (0..m.num_choices())
        .map(|c| {
            let b: Vec<(usize, f64, f64)> = m
                .trans(c)
                .map(|t| (m.cols[t] as usize, m.vals[t], m.upper[t]))
                .collect();
            vertices(&b)
        })
        .collect();
    for code in 0..total {
        let mut sigma = vec![0usize; n];
        let mut x = code;
        for s in 0..n {
            sigma[s] = m.choices(s).start + x % counts[s];
            x /= counts[s];
        }
        // Nature's MDP under σ: value iteration from 0 to the least fixpoint.
        let mut v: Vec<f64> = target.iter().map(|&b| b as u8 as f64).collect();
        for _ in 0..200_000 {
            let mut delta: f64 = 0.0;
            for s in 0..n {
                if target[s] {
                    continue;
                }
                let c = sigma[s];
                let succ: Vec<usize> = m.trans(c).map(|t| m.cols[t] as usize).collect();
                let vals = verts[c]
                    .iter()
                    .map(|h| h.iter().zip(&succ).map(|(p, &d)| p * v[d]).sum::<f64>());
                let y = if dir.nature_max {
                    vals.fold(0.0, f64::max)
                } else {
                    vals.fold(1.0, f64::min)
                };
                delta = delta.max((y - v[s]).abs());
                v[s] = y;
            }
            if delta < 1e-15 {
                break;
            }
        }
        for s in 0..n {
            best[s] = Some(match best[s] {
                None => v[s],
                Some(b) if dir.ctrl_max => b.max(v[s]),
                Some(b) => b.min(v[s]),
            });
        }
    }
    best.into_iter().map(|b| b.unwrap_or(0.0)).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]
    #[test]
    fn robust_until_matches_brute_force(bytes in proptest::collection::vec(any::<u8>(), 64), n in 2usize..=4) {
        let (m, target) = random_imdp(&bytes, n);
        let all = vec![true; n];
        for (ctrl_max, nature_max) in [(true, false), (false, true), (true, true), (false, false)] {
            let dir = Dir { ctrl_max, nature_max };
            let r = until(&m, &all, &target, dir, 1e-9, 1_000_000);
            let want = brute_until(&m, &target, dir);
            prop_assert!(r.sound);
            for s in 0..n {
                prop_assert!((r.values[s] - want[s]).abs() < 1e-6,
                    "state {} {:?}: {} vs brute force {}", s, dir, r.values[s], want[s]);
            }
        }
    }
}

// ---- the correctness line: model and quotient agree ----

/// Checks every property of `props` on the (widened) model and on its quotient by the coarsest
/// alternating bisimulation respecting the properties' atomic propositions (and, separately,
/// all labels when the properties use labels only), and asserts the values agree.
fn model_and_quotient_agree(
    rel: &str,
    consts: &str,
    eps: Option<f64>,
    props: &str,
    labels_too: bool,
) {
    let Some(text) = read(rel) else {
        eprintln!("skipping: {rel} not available");
        return;
    };
    let o = ov(consts);
    let (prog, m) = load_model(&text, &o, &BuildOptions::default()).unwrap();
    let m = match eps {
        Some(e) => widen(&m, e).unwrap(),
        None => m,
    };
    let pf = parse_properties(props).unwrap();
    let mut keys = Vec::new();
    {
        let mut c = RobustChecker::new(&m, &prog, &pf, props, &o, CheckOptions::default()).unwrap();
        for p in &pf.properties {
            keys.extend(c.atoms(&p.expr).unwrap());
        }
    }
    let mut parts = vec![partition_by(m.num_states(), &keys)];
    if labels_too {
        parts.push(label_partition(&m, &prog).unwrap());
    }
    let on_model = check_text(&m, &prog, props, consts);
    for part in parts {
        let b = bisimulation(&m, &part);
        let q = quotient(&m, &b);
        assert!(q.num_states() <= m.num_states());
        let on_quot = check_text(&q, &prog, props, consts);
        for (x, y) in on_model.iter().zip(&on_quot) {
            assert!(x.sound && y.sound, "{rel} {}: not verified", x.text);
            // Theorem 4 covers ∃σ∀π; a cooperative nature is outside what the quotient preserves.
            if x.cooperative_nature {
                continue;
            }
            let agree = match (&x.answer, &y.answer) {
                (Answer::Bool(a), Answer::Bool(b)) => a == b,
                (Answer::Num(a), Answer::Num(b)) => close(*a, *b, 2.1e-6),
                _ => false,
            };
            assert!(
                agree,
                "{rel} {}: model {} vs quotient {}",
                x.text, x.answer, y.answer
            );
        }
        eprintln!(
            "{rel}: {} -> {} states, {} properties agree",
            m.num_states(),
            q.num_states(),
            on_model.len()
        );
    }
}

const CONSENSUS_PROPS: &str =
    "P>=1 [ F \"finished\" ];\nPmin=? [ F \"finished\"&\"all_coins_equal_1\" ];\n\
    Pmax=? [ F \"finished\"&!\"agree\" ];\nR{\"steps\"}max=? [ F \"finished\" ];\n\
    R{\"steps\"}min=? [ F \"finished\" ];\nPmaxmax=? [ F<=20 \"finished\" ];\n";

#[test]
fn quotient_preserves_values_robot() {
    let props = std::fs::read_to_string(
        verikit_testkit::shared_path("prism-examples/imdps/simple/robot.props").unwrap_or_default(),
    )
    .unwrap_or_default();
    let extra = "Pmax=? [ X \"hazard\" ];\nPmaxmin=? [ G !\"hazard\" ];\nPmin=? [ !\"hazard\" U<=4 \"goal2\" ];\n";
    model_and_quotient_agree(
        "prism-examples/imdps/simple/robot.prism",
        "delta=0.1",
        None,
        &(props + extra),
        true,
    );
}

#[test]
fn quotient_preserves_values_coin() {
    let props = "Pminmin=? [ F \"finished\"&\"all_coins_equal_1\" ];\nPminmax=? [ F \"finished\"&\"all_coins_equal_1\" ];\n\
        Pmaxmin=? [ F \"finished\"&\"agree\" ];\nRmaxmin=? [ F \"finished\" ];\nRminmax=? [ F \"finished\" ];\n";
    model_and_quotient_agree(
        "prism-examples/imdps/consensus/coin2.prism",
        "K=2,bias1=0.1",
        None,
        props,
        true,
    );
    model_and_quotient_agree(
        "prism-examples/imdps/consensus/coin4.prism",
        "K=2,bias1=0.1",
        None,
        props,
        false,
    );
}

#[test]
fn quotient_preserves_values_widened_consensus() {
    model_and_quotient_agree(
        "qvbs/mdp/consensus/consensus.2.prism",
        "K=2",
        Some(0.01),
        CONSENSUS_PROPS,
        true,
    );
    model_and_quotient_agree(
        "qvbs/mdp/consensus/consensus.2.prism",
        "K=4",
        Some(0.01),
        CONSENSUS_PROPS,
        true,
    );
}

#[test]
fn quotient_preserves_values_widened_crowds() {
    let props = "Pmax=? [ F observe0>1 ];\nPmin=? [ F observe0>1 ];\nP<=0.1 [ F observe0>1 ];\nPmax=? [ F<=30 observe0>1 ];\n";
    model_and_quotient_agree(
        "qvbs/dtmc/crowds/crowds.prism",
        "TotalRuns=3,CrowdSize=5",
        Some(0.01),
        props,
        false,
    );
}

#[test]
fn quotient_preserves_values_widened_mutual_and_phil() {
    let Some(pz) = read("prism-examples/mdps/mutual/mutual.pctl") else {
        eprintln!("skipping: data not available");
        return;
    };
    let pz = pz + "Pmin=? [ F num_crit>0 ];\nPmax=? [ F<=6 p1=10 ];\n";
    model_and_quotient_agree(
        "prism-examples/mdps/mutual/mutual3.nm",
        "",
        Some(0.01),
        &pz,
        false,
    );
    let phil =
        "Pmin=? [ F \"eat\" ];\nPmax=? [ F<=10 \"eat\" ];\nPmin=? [ !\"hungry\" U \"eat\" ];\n\
filter(forall, \"hungry\" => P>=1 [ F \"eat\" ]);\n";
    model_and_quotient_agree(
        "prism-examples/mdps/phil/nofair/phil-nofair3.nm",
        "",
        Some(0.01),
        phil,
        true,
    );
}
