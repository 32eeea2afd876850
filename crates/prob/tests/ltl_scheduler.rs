//! Schedulers with memory for `Pmax`/`Pmin [ ltl ]` on MDPs are replayed: the DTMC a scheduler
//! induces on the model with memory is built here from the exported rows alone (each row's
//! choice must exist, each successor must come with its next memory, each (state, memory) pair
//! reached must have a row), with the model's variable values in every state, and the formula
//! is checked on it by the DTMC route — the value must be the checker's Pmax/Pmin within 1e-9.

#[allow(dead_code)] // each test binary uses part of the shared helpers
mod common;

use proptest::prelude::*;
use std::collections::HashMap;
use verikit_prob::{
    parse_properties, write_memory_scheduler, Answer, CheckOptions, Checker, MemoryScheduler,
    Model, ModelType,
};

fn precise() -> CheckOptions {
    CheckOptions {
        eps: 1e-12,
        ..CheckOptions::default()
    }
}

/// The DTMC that `sched` induces on `m` with memory: one state per row, the model state's
/// variable values, the row's choice with each successor's memory.
fn induced(m: &Model, sched: &MemoryScheduler) -> Result<Model, String> {
    let index: HashMap<(u32, u32), u32> = sched
        .rows
        .iter()
        .enumerate()
        .map(|(i, r)| ((r.state, r.memory), i as u32))
        .collect();
    let w = m.layout.words;
    let mut d = Model::empty(ModelType::Dtmc);
    d.vars = m.vars.clone();
    d.layout = m.layout.clone();
    d.trans_rewards = vec![Vec::new(); m.trans_rewards.len()];
    for r in &sched.rows {
        let s = r.state as usize;
        let choices = m.choices(s);
        let c = choices.start + r.choice as usize;
        if c >= choices.end {
            return Err(format!("state {s}: choice {} out of range", r.choice));
        }
        let mut succ: Vec<(u32, f64, f64)> = Vec::new();
        for k in m.trans(c) {
            let t = m.cols[k];
            let q = r
                .next
                .iter()
                .find(|x| x.0 == t)
                .ok_or_else(|| format!("row ({s}, {}): no memory for successor {t}", r.memory))?
                .1;
            let id = *index
                .get(&(t, q))
                .ok_or_else(|| format!("no row for ({t}, {q})"))?;
            match succ.iter_mut().find(|x| x.0 == id) {
                Some(x) => x.1 += m.vals[k],
                None => succ.push((id, m.vals[k], 0.0)),
            }
        }
        d.push_interval_choice(succ);
        d.end_state();
        d.states.extend_from_slice(&m.states[s * w..(s + 1) * w]);
    }
    d.upper.clear();
    for &(s, q) in &sched.initial {
        let id = *index
            .get(&(s, q))
            .ok_or_else(|| format!("no row for the initial pair ({s}, {q})"))?;
        d.initial.push(id);
    }
    Ok(d)
}

fn value(c: &mut Checker, p: &verikit_prob::Property) -> f64 {
    match c.check(p, "").unwrap().answer {
        Answer::Num(x) => x,
        a => panic!("numeric answer expected, got {a:?}"),
    }
}

/// Checks every `Pmin`/`Pmax` LTL property of `props` on `text`, exports its scheduler and
/// replays it; returns the schedulers.
fn replay(text: &str, props: &str) -> Vec<MemoryScheduler> {
    let (prog, m) = common::load(text);
    let pf = parse_properties(props).unwrap();
    let plain = parse_properties(&props.replace("Pmin", "P").replace("Pmax", "P")).unwrap();
    let mut c = Checker::new(&m, &prog, &pf, &[], precise()).unwrap();
    let mut out = Vec::new();
    for (i, p) in pf.properties.iter().enumerate() {
        let want = value(&mut c, p);
        let sched = c.ltl_scheduler(p).unwrap();
        let written = write_memory_scheduler(&m, &sched, "p");
        assert_eq!(
            written.lines().count(),
            3 + sched.initial.len() + sched.rows.len()
        );
        let d = induced(&m, &sched).unwrap_or_else(|e| panic!("property {i}: {e}\n{text}"));
        let mut cd = Checker::new(&d, &prog, &plain, &[], precise()).unwrap();
        let got = value(&mut cd, &plain.properties[i]);
        assert!(
            (got - want).abs() <= 1e-9,
            "property {i}: the scheduler gives {got}, the checker said {want}\n{text}"
        );
        out.push(sched);
    }
    out
}

/// The MDP of `tests/ltl.rs`: in x=0, `l` leads to the `a`-loop x=1, `r` to a coin between
/// x=2 (`b`) and x=3, which returns to x=0 or x=2.
const MDP: &str = "mdp\nmodule M\n x : [0..3] init 0;\n [l] x=0 -> (x'=1);\n [r] x=0 -> 0.5:(x'=2) + 0.5:(x'=3);\n \
                   [] x=1 -> (x'=1);\n [] x=2 -> (x'=3);\n [] x=3 -> 0.5:(x'=2) + 0.5:(x'=0);\nendmodule\n\
                   label \"a\" = x=1;\nlabel \"b\" = x=2;\n";

#[test]
fn hand_written_mdp() {
    let s = replay(
        MDP,
        "Pmax=? [ G F \"a\" ];\nPmin=? [ G F \"a\" ];\nPmax=? [ (G F \"b\") & (G F x=0) ];\n\
         Pmax=? [ X X \"b\" ];\nPmin=? [ F \"a\" | G F \"b\" ];\n",
    );
    // G F a: take `l` in x=0; its negation's maximiser (Pmin) takes `r`.
    let first = |s: &MemoryScheduler| s.rows.iter().find(|r| r.state == 0).map(|r| r.choice);
    assert_eq!(first(&s[0]), Some(0));
    assert_eq!(first(&s[1]), Some(1));
    // G F b & G F x=0 needs the `r` loop through x=0 again and again.
    assert!(s[2]
        .rows
        .iter()
        .filter(|r| r.state == 0)
        .all(|r| r.choice == 1));
}

#[test]
fn refused_outside_mdps() {
    let dtmc =
        "dtmc\nmodule M\n x : [0..1] init 0;\n [] true -> 0.5:(x'=0) + 0.5:(x'=1);\nendmodule\n";
    let (prog, m) = common::load(dtmc);
    let pf = parse_properties("P=? [ G F x=1 ];\n").unwrap();
    let mut c = Checker::new(&m, &prog, &pf, &[], CheckOptions::default()).unwrap();
    let e = c.ltl_scheduler(&pf.properties[0]).unwrap_err().to_string();
    assert!(e.contains("on an MDP"), "{e}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// Random MDPs and LTL formulas over `a`, `b`: every exported scheduler attains the value.
    #[test]
    fn schedulers_replay_on_random_mdps(seed in prop::collection::vec(0u32..1000, 40), n in 2usize..7) {
        let (text, _, _, _) = common::random_model(true, n, &seed);
        replay(
            &text,
            "Pmax=? [ G F \"a\" ];\nPmin=? [ G F \"a\" ];\nPmax=? [ F G \"a\" ];\n\
             Pmax=? [ (G F \"a\") & (G F \"b\") ];\nPmin=? [ F (\"a\" & X \"b\") ];\n\
             Pmax=? [ (\"a\" U \"b\") | (G F !\"b\") ];\nPmin=? [ G (\"a\" => F \"b\") ];\n",
        );
    }
}
