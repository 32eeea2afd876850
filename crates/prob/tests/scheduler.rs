//! Exported schedulers are replayed: the Markov chain a scheduler induces must give the value the
//! checker reported for the Pmin/Pmax property (evaluated by an independent Gauss–Seidel solver on
//! the induced chain, and by the checker on the induced chain read as a DTMC).

#[allow(dead_code)] // each test binary uses part of the shared helpers
mod common;

use common::mdp_text;
use proptest::prelude::*;
use verikit_prob::{
    build, check_model, parse_model, parse_properties, Answer, BuildOptions, CheckOptions, Checker,
    Model, ModelType,
};

/// The DTMC induced by a memoryless scheduler (one choice per state).
fn induced(m: &Model, sched: &[u32]) -> Model {
    let mut d = m.clone();
    d.model_type = ModelType::Dtmc;
    d.row_choices = (0..=m.num_states() as u32).collect();
    d.choice_start = vec![0];
    d.cols.clear();
    d.vals.clear();
    d.choice_action.clear();
    for r in d.trans_rewards.iter_mut() {
        r.clear();
    }
    for (s, &k) in sched.iter().enumerate() {
        let c = m.choices(s).start + k as usize;
        assert!(c < m.choices(s).end, "state {s}: choice {k} out of range");
        for t in m.trans(c) {
            d.cols.push(m.cols[t]);
            d.vals.push(m.vals[t]);
        }
        d.choice_start.push(d.cols.len() as u64);
        d.choice_action
            .push(m.choice_action.get(c).copied().unwrap_or(u32::MAX));
        for (r, full) in d.trans_rewards.iter_mut().zip(&m.trans_rewards) {
            if !full.is_empty() {
                r.push(full[c]);
            }
        }
    }
    d
}

/// Independent oracle: probability of reaching `target` in a DTMC (graph step for the states that
/// cannot reach it, then Gauss–Seidel to a fixpoint).
fn reach_prob(d: &Model, target: &[bool]) -> Vec<f64> {
    let n = d.num_states();
    let mut can = target.to_vec();
    loop {
        let mut changed = false;
        for s in 0..n {
            if !can[s] && d.trans(s).any(|t| can[d.cols[t] as usize]) {
                can[s] = true;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let mut x: Vec<f64> = target.iter().map(|&b| b as u8 as f64).collect();
    for _ in 0..2_000_000 {
        let mut diff: f64 = 0.0;
        for s in 0..n {
            if target[s] || !can[s] {
                continue;
            }
            let v: f64 = d.trans(s).map(|t| d.vals[t] * x[d.cols[t] as usize]).sum();
            diff = diff.max((v - x[s]).abs());
            x[s] = v;
        }
        if diff < 1e-15 {
            break;
        }
    }
    x
}

fn value(c: &mut Checker, p: &verikit_prob::Property) -> f64 {
    match c.check(p, "").unwrap().answer {
        Answer::Num(x) => x,
        a => panic!("numeric answer expected, got {a:?}"),
    }
}

/// A state predicate on variable valuations.
type Target<'a> = dyn Fn(&[i64]) -> bool + 'a;

/// Checks `props` (Pmin/Pmax of F/U), exports each scheduler, replays it on the induced chain with
/// the checker (property text with `Pmin`/`Pmax` replaced by `P`) and, when `target` is given,
/// with the independent oracle.
fn replay(text: &str, consts: &[(String, String)], props: &str, target: Option<&Target<'_>>) {
    let mf = parse_model(text).unwrap();
    let prog = check_model(&mf, consts).unwrap();
    let m = build(&prog, &BuildOptions::default()).unwrap();
    let pf = parse_properties(props).unwrap();
    let plain = parse_properties(&props.replace("Pmin", "P").replace("Pmax", "P")).unwrap();
    let mut c = Checker::new(&m, &prog, &pf, consts, CheckOptions::default()).unwrap();
    for (i, p) in pf.properties.iter().enumerate() {
        let want = value(&mut c, p);
        let sched = c.scheduler(p).unwrap();
        assert_eq!(sched.len(), m.num_states());
        let d = induced(&m, &sched);
        let mut cd = Checker::new(&d, &prog, &plain, consts, CheckOptions::default()).unwrap();
        let got = value(&mut cd, &plain.properties[i]);
        assert!(
            (got - want).abs() <= 1e-5 * want.abs() + 1e-9,
            "property {i}: scheduler gives {got}, checker said {want}"
        );
        if let Some(tf) = target {
            let mut cur = vec![0i64; m.vars.len()];
            let tgt: Vec<bool> = (0..m.num_states())
                .map(|s| {
                    m.valuation(s, &mut cur);
                    tf(&cur)
                })
                .collect();
            let x = reach_prob(&d, &tgt);
            let s0 = m.initial[0] as usize;
            assert!(
                (x[s0] - want).abs() <= 1e-5 * want.abs() + 1e-9,
                "property {i}: oracle on the induced chain gives {}, checker said {want}",
                x[s0]
            );
        }
    }
}

/// A greedy choice is not enough for Pmax: the self-loop `a` attains the value of state 0 without
/// ever reaching the target.
#[test]
fn pmax_scheduler_leaves_end_components() {
    let text = "mdp\nmodule M\n s : [0..3] init 0;\n [a] s=0 -> (s'=0);\n [b] s=0 -> 0.5:(s'=1) + 0.5:(s'=2);\n \
                [c] s=1 -> (s'=3);\n [d] s=1 -> (s'=1);\n [] s>=2 -> true;\nendmodule\n";
    replay(
        text,
        &[],
        "Pmax=? [ F s=3 ]; Pmin=? [ F s=3 ];",
        Some(&|v: &[i64]| v[0] == 3),
    );
    let (prog, m) = common::load(text);
    let pf = parse_properties("Pmax=? [ F s=3 ];").unwrap();
    let mut c = Checker::new(&m, &prog, &pf, &[], CheckOptions::default()).unwrap();
    assert!((value(&mut c, &pf.properties[0]) - 0.5).abs() < 1e-9);
    let sched = c.scheduler(&pf.properties[0]).unwrap();
    let text = verikit_prob::write_scheduler(&m, &sched, "Pmax=? [ F s=3 ]");
    // State 0 must take `b`, state 1 must take `c`.
    let mut cur = vec![0i64; 1];
    for (s, &k) in sched.iter().enumerate() {
        m.valuation(s, &mut cur);
        let a = m.choice_action[m.choices(s).start + k as usize];
        let act = m.actions.get(a as usize).map_or("", |a| a.as_str());
        match cur[0] {
            0 => assert_eq!(act, "b", "{text}"),
            1 => assert_eq!(act, "c", "{text}"),
            _ => {}
        }
    }
}

#[test]
fn scheduler_refused_for_other_properties() {
    let text =
        "mdp\nmodule M\n s : [0..1] init 0;\n [] s=0 -> (s'=1);\n [] s=1 -> true;\nendmodule\n";
    let (prog, m) = common::load(text);
    let pf = parse_properties("Pmax=? [ F<=3 s=1 ]; Pmax=? [ X s=1 ];").unwrap();
    let mut c = Checker::new(&m, &prog, &pf, &[], CheckOptions::default()).unwrap();
    for p in &pf.properties {
        assert!(c.scheduler(p).is_err());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn random_mdp_schedulers_replay(
        n in 3usize..8,
        raw in proptest::collection::vec(proptest::collection::vec((0usize..8, 0usize..8, 1u32..10), 1..4), 6)
    ) {
        let choices: Vec<Vec<(usize, usize, u32)>> =
            raw.iter().map(|cs| cs.iter().map(|&(a, b, w)| (a % n, b % n, w)).collect()).collect();
        let text = mdp_text(n, &choices);
        let last = (n - 1) as i64;
        replay(&text, &[], &format!("Pmax=? [ F s={last} ]; Pmin=? [ F s={last} ];"),
            Some(&|v: &[i64]| v[0] == last));
    }
}

/// QVBS MDPs: every Pmin/Pmax reachability property, replayed on the induced chain.
#[test]
fn qvbs_schedulers_replay() {
    let q = verikit_testkit::require_data!("qvbs");
    let cases = [
        (
            "mdp/consensus/consensus.2.prism",
            "K=2",
            vec![
                "Pmin=? [ F \"finished\"&\"all_coins_equal_1\" ]",
                "Pmax=? [ F \"finished\"&!\"agree\" ]",
            ],
        ),
        (
            "mdp/firewire_abst/firewire_abst.prism",
            "delay=3",
            vec!["Pmin=? [ F \"done\" ]"],
        ),
        (
            "mdp/csma/csma.2-2.prism",
            "",
            vec![
                "Pmin=? [ F \"all_delivered\" ]",
                "Pmax=? [ !\"collision_max_backoff\" U \"all_delivered\" ]",
            ],
        ),
        (
            "mdp/zeroconf/zeroconf.prism",
            "N=20,K=2,reset=false",
            vec!["Pmax=? [ F (l=4 & ip=1) ]", "Pmin=? [ F (l=4 & ip=1) ]"],
        ),
        (
            "mdp/philosophers-mdp/philosophers-mdp.3.prism",
            "",
            vec!["Pmax=? [ F (((p1>=8)&(p1<=9))|((p2>=8)&(p2<=9))|((p3>=8)&(p3<=9))) ]"],
        ),
    ];
    for (file, consts, props) in cases {
        let path = q.join(file);
        let Ok(text) = std::fs::read_to_string(&path) else {
            eprintln!("skipping {file}: not found");
            continue;
        };
        let ov: Vec<(String, String)> = consts
            .split(',')
            .filter(|s| !s.is_empty())
            .filter_map(|kv| kv.split_once('='))
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let props_text = props.join(";\n") + ";\n";
        replay(&text, &ov, &props_text, None);
        eprintln!("{file}: {} scheduler(s) replayed", props.len());
    }
}
