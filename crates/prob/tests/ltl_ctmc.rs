//! LTL inside `P[…]` and co-safe LTL inside `R[…]` on CTMCs (checked on the embedded DTMC, as
//! PRISM does), and a brute-force oracle for LTL on absorbing chains: every path of a chain whose
//! transitions only go forward (to a higher state) or loop in an absorbing state is enumerated
//! with its probability, and the formula is evaluated on its ultimately constant word by an own
//! evaluator — no automaton, no product, no numerical solver.

#[allow(dead_code)] // each test binary uses part of the shared helpers
mod common;

use proptest::prelude::*;

/// The value of `prop` on `model`, iterated to a relative precision of 1e-12.
fn check(model: &str, prop: &str) -> Result<f64, String> {
    let opts = verikit_prob::CheckOptions {
        eps: 1e-12,
        ..verikit_prob::CheckOptions::default()
    };
    common::check_opts(model, &[], prop, opts)
}

/// Rates 0→1: 2, 0→2: 3, 1→3: 1, 2→3: 4, 2→0: 1, 3→0: 5 (embedded: 0→1 0.4, 0→2 0.6, 2→3 0.8,
/// 2→0 0.2); state rewards 2 in x=0 and 1 in x=1 per time unit, 3 per transition out of x=2.
const CTMC: &str = "ctmc\nmodule M\n x : [0..3] init 0;\n [] x=0 -> 2:(x'=1) + 3:(x'=2);\n \
                    [] x=1 -> 1:(x'=3);\n [] x=2 -> 4:(x'=3) + 1:(x'=0);\n [] x=3 -> 5:(x'=0);\n\
                    endmodule\nlabel \"a\" = x=1;\nlabel \"b\" = x=3;\n\
                    rewards \"r\"\n x=0 : 2;\n x=1 : 1;\n [] x=2 : 3;\nendrewards\n";

/// Values by hand on the embedded chain; the `P` values and `R [ F "b" ]` are also Storm's
/// (stormpy 2.0.0, sparse engine: 1, 1, 0.88, 2.9545456165731023).
#[test]
fn ctmc_hand_computed() {
    // Reward per visit of the embedded chain: x=0 2/5, x=1 1/1, x=2 3 (impulse), x=3 0.
    // R[F b]: R0 = 0.4 + 0.4·1 + 0.6·R2, R2 = 3 + 0.2·R0 → R0 = 2.6/0.88.
    // R[F (a & X b)]: T0 = 0.4 + 0.4·1 + 0.6·T2, T2 = 3 + 0.8·T0 + 0.2·T0 → T0 = 6.5.
    for (prop, want) in [
        ("P=? [ G F \"a\" ]", 1.0),
        ("P=? [ F (\"a\" & X \"b\") ]", 1.0),
        ("P=? [ X X \"b\" ]", 0.88),
        ("P=? [ X (x=2 & X x=0) ]", 0.12),
        // From x=0: to x=2 (0.6), then to x=3 (0.8) or back to x=0 (0.2) and again.
        ("P=? [ (!\"a\" U \"b\") & true ]", 0.48 / 0.88),
        ("P=? [ F G \"a\" ]", 0.0),
        ("R{\"r\"}=? [ (F \"b\") & true ]", 2.6 / 0.88),
        ("R{\"r\"}=? [ F (\"a\" & X \"b\") ]", 6.5),
        ("R{\"r\"}=? [ X (\"a\" | x=2) ]", 0.4),
        // Not read almost surely (x=0 → x=2 falsifies it): infinite, as for `R [ F φ ]`.
        ("R{\"r\"}=? [ X \"a\" ]", f64::INFINITY),
    ] {
        let got = check(CTMC, prop).unwrap_or_else(|e| panic!("{prop}: {e}"));
        assert!(
            got == want || (got - want).abs() < 1e-9,
            "{prop}: {got} vs {want}"
        );
    }
    // The co-safe route agrees with the reachability-reward route on `F b`.
    let reach = check(CTMC, "R{\"r\"}=? [ F \"b\" ]").unwrap();
    assert!((reach - 2.6 / 0.88).abs() < 1e-9, "{reach}");
}

/// A deadlock state gets a self-loop of rate 1 (as PRISM adds it), whose jumps the embedded
/// chain counts: one visit of x=1 earns its state reward 1/1 before the next position.
#[test]
fn ctmc_deadlock_self_loops() {
    let m = "ctmc\nmodule M\n x : [0..2] init 0;\n [] x=0 -> 3:(x'=1);\nendmodule\n\
             rewards true : 1; endrewards\n";
    assert_eq!(check(m, "P=? [ X G x=1 ]").unwrap(), 1.0);
    assert!((check(m, "R=? [ X x=1 ]").unwrap() - 1.0 / 3.0).abs() < 1e-12);
    assert!((check(m, "R=? [ X X x=1 ]").unwrap() - 4.0 / 3.0).abs() < 1e-12);
    assert_eq!(check(m, "R=? [ X X x=2 ]").unwrap(), f64::INFINITY);
}

/// Time bounds inside LTL on a CTMC are refused by name (at the bound: the CLI test checks the
/// location), as PRISM does not support them either; bounds outside LTL keep their CSL meaning.
#[test]
fn ctmc_time_bounds_refused() {
    for prop in [
        "P=? [ G F<=2 \"a\" ]",
        "P=? [ X (\"a\" U<=1.5 \"b\") ]",
        "R{\"r\"}=? [ (F<=3 \"b\") & (F \"a\") ]",
        "P=? [ F (\"a\" & F[1,2] \"b\") ]",
        "P=? [ F (\"a\" & F>=1 \"b\") ]",
    ] {
        let e = check(CTMC, prop).unwrap_err();
        assert!(
            e.contains("time-bounded operators inside LTL formulas are not supported on CTMCs"),
            "{prop}: {e}"
        );
    }
    assert!(check(CTMC, "P=? [ F<=2 \"b\" ]").is_ok());
}

/// An LTL formula over the labels `a`, `b`.
#[derive(Clone, Debug)]
enum F {
    A,
    B,
    Not(Box<F>),
    And(Box<F>, Box<F>),
    Or(Box<F>, Box<F>),
    X(Box<F>),
    Ev(Box<F>),
    Gl(Box<F>),
    U(Box<F>, Box<F>),
}

impl F {
    fn text(&self) -> String {
        match self {
            F::A => "\"a\"".into(),
            F::B => "\"b\"".into(),
            F::Not(x) => format!("!({})", x.text()),
            F::And(x, y) => format!("({}) & ({})", x.text(), y.text()),
            F::Or(x, y) => format!("({}) | ({})", x.text(), y.text()),
            F::X(x) => format!("X ({})", x.text()),
            F::Ev(x) => format!("F ({})", x.text()),
            F::Gl(x) => format!("G ({})", x.text()),
            F::U(x, y) => format!("({}) U ({})", x.text(), y.text()),
        }
    }

    /// Truth at every position of the word `w[0] … w[k-1] w[k-1]^ω` (`k ≥ 1`); the last entry
    /// stands for every position from `k-1` on, which all see the same suffix.
    fn eval(&self, w: &[(bool, bool)]) -> Vec<bool> {
        let k = w.len();
        match self {
            F::A => w.iter().map(|l| l.0).collect(),
            F::B => w.iter().map(|l| l.1).collect(),
            F::Not(x) => x.eval(w).into_iter().map(|b| !b).collect(),
            F::And(x, y) | F::Or(x, y) => {
                let (vx, vy) = (x.eval(w), y.eval(w));
                let and = matches!(self, F::And(..));
                (0..k)
                    .map(|i| if and { vx[i] && vy[i] } else { vx[i] || vy[i] })
                    .collect()
            }
            F::X(x) => {
                let v = x.eval(w);
                (0..k).map(|i| v[(i + 1).min(k - 1)]).collect()
            }
            F::Ev(x) | F::Gl(x) => {
                let v = x.eval(w);
                let ev = matches!(self, F::Ev(..));
                let mut out = v.clone();
                for i in (0..k - 1).rev() {
                    out[i] = if ev {
                        v[i] || out[i + 1]
                    } else {
                        v[i] && out[i + 1]
                    };
                }
                out
            }
            F::U(x, y) => {
                let (vx, vy) = (x.eval(w), y.eval(w));
                let mut out = vy.clone();
                for i in (0..k - 1).rev() {
                    out[i] = vy[i] || (vx[i] && out[i + 1]);
                }
                out
            }
        }
    }
}

fn formula() -> impl Strategy<Value = F> {
    prop_oneof![Just(F::A), Just(F::B)].prop_recursive(4, 12, 2, |inner| {
        prop_oneof![
            inner.clone().prop_map(|x| F::Not(Box::new(x))),
            (inner.clone(), inner.clone()).prop_map(|(x, y)| F::And(Box::new(x), Box::new(y))),
            (inner.clone(), inner.clone()).prop_map(|(x, y)| F::Or(Box::new(x), Box::new(y))),
            inner.clone().prop_map(|x| F::X(Box::new(x))),
            inner.clone().prop_map(|x| F::Ev(Box::new(x))),
            inner.clone().prop_map(|x| F::Gl(Box::new(x))),
            (inner.clone(), inner).prop_map(|(x, y)| F::U(Box::new(x), Box::new(y))),
        ]
    })
}

/// An absorbing chain over `x : [0..n-1]`: state `s < n-1` moves to up to three higher states
/// with weights (probabilities for a DTMC, rates for a CTMC); states with no successor loop.
/// Returns the PRISM text, per state its successors with embedded probabilities, and the labels.
#[allow(clippy::type_complexity)]
fn absorbing_chain(
    ctmc: bool,
    n: usize,
    seed: &[u32],
) -> (String, Vec<Vec<(usize, f64)>>, Vec<(bool, bool)>) {
    let mut it = seed.iter().copied().cycle();
    let mut next = move || it.next().unwrap_or(0) as usize;
    let ty = if ctmc { "ctmc" } else { "dtmc" };
    let mut text = format!("{ty}\nmodule M\n x : [0..{}] init 0;\n", n - 1);
    let mut succ = Vec::new();
    for s in 0..n {
        let higher = n - 1 - s;
        let k = if higher == 0 || next() % 5 == 0 {
            0
        } else {
            1 + next() % 3
        };
        let mut out: Vec<(usize, f64)> = Vec::new();
        for _ in 0..k {
            let t = s + 1 + next() % higher;
            let w = (1 + next() % 4) as f64;
            match out.iter_mut().find(|x| x.0 == t) {
                Some(x) => x.1 += w,
                None => out.push((t, w)),
            }
        }
        if out.is_empty() {
            text.push_str(&format!(" [] x={s} -> 1:(x'={s});\n"));
            succ.push(vec![(s, 1.0)]);
            continue;
        }
        let total: f64 = out.iter().map(|x| x.1).sum();
        let upd: Vec<String> = out
            .iter()
            .map(|(t, w)| {
                let w = if ctmc { *w } else { w / total };
                format!("{w}:(x'={t})")
            })
            .collect();
        text.push_str(&format!(" [] x={s} -> {};\n", upd.join(" + ")));
        succ.push(out.into_iter().map(|(t, w)| (t, w / total)).collect());
    }
    text.push_str("endmodule\n");
    let labels: Vec<(bool, bool)> = (0..n).map(|_| (next() % 2 == 0, next() % 3 == 0)).collect();
    let set = |f: &dyn Fn(&(bool, bool)) -> bool| common::x_in((0..n).filter(|&i| f(&labels[i])));
    text.push_str(&format!(
        "label \"a\" = {};\nlabel \"b\" = {};\n",
        set(&|l| l.0),
        set(&|l| l.1)
    ));
    (text, succ, labels)
}

/// The probability that `f` holds, summed over every path of the absorbing chain from state 0.
fn enumerate(succ: &[Vec<(usize, f64)>], labels: &[(bool, bool)], f: &F) -> f64 {
    fn go(
        s: usize,
        p: f64,
        word: &mut Vec<(bool, bool)>,
        succ: &[Vec<(usize, f64)>],
        labels: &[(bool, bool)],
        f: &F,
    ) -> f64 {
        word.push(labels[s]);
        let out = if succ[s] == [(s, 1.0)] {
            if f.eval(word)[0] {
                p
            } else {
                0.0
            }
        } else {
            succ[s]
                .iter()
                .map(|&(t, q)| go(t, p * q, word, succ, labels, f))
                .sum()
        };
        word.pop();
        out
    }
    go(0, 1.0, &mut Vec::new(), succ, labels, f)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// `P=? [ φ ]` for random LTL formulas on random absorbing DTMCs and CTMCs equals the sum
    /// over the enumerated paths on which the formula holds.
    #[test]
    fn ltl_on_absorbing_chains_against_path_enumeration(
        seed in prop::collection::vec(0u32..1000, 48),
        n in 2usize..7,
        ctmc in any::<bool>(),
        f in formula(),
    ) {
        let (text, succ, labels) = absorbing_chain(ctmc, n, &seed);
        let want = enumerate(&succ, &labels, &f);
        // `(G true) &` keeps the formula on the LTL route even when it is a PCTL path formula,
        // and gives the path formula a temporal operator (the parser wants one).
        let prop = format!("P=? [ (G true) & ({}) ]", f.text());
        let got = check(&text, &prop).unwrap();
        prop_assert!((got - want).abs() < 1e-6, "{}: {} vs {}\n{}", prop, got, want, text);
    }
}
