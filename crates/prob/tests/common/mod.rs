//! Test support shared by the engine's test suites.

use verikit_prob::Model;
use verikit_prob::ModelType;

/// A random IMDP with `n` states, 1–2 choices each, 1–3 successors with interval bounds from
/// the bytes (infeasible choices repaired by widening the last upper bound).
pub fn random_imdp(bytes: &[u8], n: usize) -> (Model, Vec<bool>) {
    let mut it = bytes.iter().cycle().copied();
    let mut next = move || it.next().unwrap_or(0);
    let mut m = Model {
        states: vec![0; n],
        initial: vec![0],
        ..Model::empty(ModelType::Imdp)
    };
    for _ in 0..n {
        let k = 1 + next() as usize % 2;
        for _ in 0..k {
            let succ = 1 + next() as usize % 3;
            let mut dsts: Vec<u32> = (0..succ).map(|_| (next() as usize % n) as u32).collect();
            dsts.sort_unstable();
            dsts.dedup();
            let succ: Vec<(u32, f64, f64)> = dsts
                .iter()
                .map(|&d| {
                    let a = (next() % 5) as f64 / 5.0;
                    let w = (next() % 4) as f64 / 5.0;
                    (d, a, (a + w).min(1.0))
                })
                .collect();
            let ls: f64 = succ.iter().map(|t| t.1).sum();
            let us: f64 = succ.iter().map(|t| t.2).sum();
            let start = m.cols.len();
            m.push_interval_choice(succ);
            if ls > 1.0 {
                m.vals[start..].iter_mut().for_each(|l| *l = 0.0);
            }
            if us < 1.0 {
                let last = m.cols.len() - 1;
                m.upper[last] = (m.upper[last] + 1.0 - us).min(1.0);
            }
        }
        m.end_state();
    }
    let target: Vec<bool> = (0..n).map(|_| next() % 3 == 0).collect();
    (m, target)
}

/// The value of the first property of `prop` on `model` with `consts` (through the public
/// pipeline: parse, check, build, `Checker`), errors as text.
#[allow(dead_code)] // not every test binary that shares this module checks properties
pub fn check(model: &str, consts: &[(String, String)], prop: &str) -> Result<f64, String> {
    check_opts(model, consts, prop, verikit_prob::CheckOptions::default())
}

/// [`check`] with the checker's options (precision, budget).
#[allow(dead_code)]
pub fn check_opts(
    model: &str,
    consts: &[(String, String)],
    prop: &str,
    opts: verikit_prob::CheckOptions,
) -> Result<f64, String> {
    use verikit_prob::{
        build, check_model, parse_model, parse_properties, Answer, BuildOptions, Checker,
    };
    let mf = parse_model(model).map_err(|e| e.to_string())?;
    let prog = check_model(&mf, consts).map_err(|e| e.to_string())?;
    let m = build(&prog, &BuildOptions::default()).map_err(|e| e.to_string())?;
    let pf = parse_properties(prop).map_err(|e| e.to_string())?;
    let mut c = Checker::new(&m, &prog, &pf, consts, opts).map_err(|e| e.to_string())?;
    match c
        .check(&pf.properties[0], "p")
        .map_err(|e| e.to_string())?
        .answer
    {
        Answer::Num(x) => Ok(x),
        Answer::Bool(b) => Ok(b as u8 as f64),
    }
}

/// Builds `prog` (when its semantic checks passed) with a small state bound, for parser
/// totality tests: only the absence of panics matters.
#[allow(dead_code)]
pub fn build_small<E>(prog: Result<verikit_prob::Program, E>) {
    if let Ok(prog) = prog {
        let _ = verikit_prob::build(
            &prog,
            &verikit_prob::BuildOptions {
                max_states: 10_000,
                ..verikit_prob::BuildOptions::default()
            },
        );
    }
}

/// A random MDP with `n` states; state n-1 is the target, state n-2 a trap (n >= 3).
#[allow(dead_code)]
pub fn mdp_text(n: usize, choices: &[Vec<(usize, usize, u32)>]) -> String {
    let mut s = format!("mdp\nmodule M\n s : [0..{}] init 0;\n", n - 1);
    for (i, cs) in choices.iter().enumerate().take(n - 2) {
        for &(a, b, w) in cs {
            let p = w as f64 / 10.0;
            s.push_str(&format!(
                " [] s={i} -> {p}:(s'={a}) + {}:(s'={b});\n",
                1.0 - p
            ));
        }
    }
    s.push_str(&format!(" [] s>={} -> true;\nendmodule\n", n - 2));
    s
}

/// The state formula `x=v1 | x=v2 | …` of the values `xs` (`false` when there are none).
#[allow(dead_code)]
pub fn x_in<T: std::fmt::Display>(xs: impl IntoIterator<Item = T>) -> String {
    let xs: Vec<String> = xs.into_iter().map(|v| format!("x={v}")).collect();
    if xs.is_empty() {
        "false".to_string()
    } else {
        xs.join(" | ")
    }
}

/// Per state, per choice: (successor, probability).
pub type Trans = Vec<Vec<Vec<(usize, f64)>>>;

/// A random model over `x : [0..n-1]` as PRISM text: per state, one or two commands (two
/// make it an MDP), each with up to three successors; `a` and `b` are random state sets.
#[allow(dead_code)]
pub fn random_model(mdp: bool, n: usize, seed: &[u32]) -> (String, Trans, Vec<bool>, Vec<bool>) {
    let mut it = seed.iter().copied().cycle();
    let mut next = move || it.next().unwrap_or(0) as usize;
    let mut text = format!(
        "{}\nmodule M\n x : [0..{}] init 0;\n",
        if mdp { "mdp" } else { "dtmc" },
        n - 1
    );
    let mut trans = Vec::new();
    for s in 0..n {
        let nchoices = if mdp { 1 + next() % 2 } else { 1 };
        let mut choices = Vec::new();
        for _ in 0..nchoices {
            let k = 1 + next() % 3;
            let mut succ: Vec<(usize, f64)> = Vec::new();
            let weights: Vec<usize> = (0..k).map(|_| 1 + next() % 4).collect();
            let total: usize = weights.iter().sum();
            for w in weights {
                let t = next() % n;
                let p = w as f64 / total as f64;
                match succ.iter_mut().find(|x| x.0 == t) {
                    Some(x) => x.1 += p,
                    None => succ.push((t, p)),
                }
            }
            let upd: Vec<String> = succ.iter().map(|(t, p)| format!("{p}:(x'={t})")).collect();
            text.push_str(&format!(" [] x={s} -> {};\n", upd.join(" + ")));
            choices.push(succ);
        }
        trans.push(choices);
    }
    text.push_str("endmodule\n");
    let a: Vec<bool> = (0..n).map(|_| next() % 2 == 0).collect();
    let b: Vec<bool> = (0..n).map(|_| next() % 3 == 0).collect();
    let set = |v: &[bool]| x_in((0..n).filter(|&i| v[i]));
    text.push_str(&format!(
        "label \"a\" = {};\nlabel \"b\" = {};\n",
        set(&a),
        set(&b)
    ));
    (text, trans, a, b)
}

/// `text` parsed, checked (no constants) and built.
#[allow(dead_code)]
pub fn load(text: &str) -> (verikit_prob::Program, Model) {
    let mf = verikit_prob::parse_model(text).unwrap();
    let prog = verikit_prob::check_model(&mf, &[]).unwrap();
    let m = verikit_prob::build(&prog, &verikit_prob::BuildOptions::default()).unwrap();
    (prog, m)
}
