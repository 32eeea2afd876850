//! Alternating probabilistic bisimulation of interval MDPs (SETTA 2017, Hashemi et al.):
//! hand-made models, a brute-force oracle over all partitions of tiny random IMDPs, and robust
//! reachability values preserved by the quotient on benchmark models.

use proptest::prelude::*;
use verikit_prob::quotient;
use verikit_prob::widen;
use verikit_prob::Model;
use verikit_prob::ModelType;
use verikit_prob::{bisimulation, label_partition, Bisimulation};
use verikit_prob::{contained_farkas, fixed, Polytope};
use verikit_prob::{load_model, BuildOptions};
use verikit_prob::{reach, Goal};

type Choice = Vec<(u32, f64, f64)>;

fn imdp(states: &[Vec<Choice>]) -> Model {
    let mut m = Model {
        states: vec![0; states.len()],
        initial: vec![0],
        ..Model::empty(ModelType::Imdp)
    };
    for cs in states {
        for c in cs {
            m.push_interval_choice(c.iter().copied());
        }
        m.end_state();
    }
    m
}

fn same(b: &Bisimulation, s: usize, t: usize) -> bool {
    b.class[s] == b.class[t]
}

#[test]
fn paper_figure_1() {
    // Fig. 1: s -a-> t∈[1/3,2/3], u∈[1/10,1];  s -b-> t∈[2/5,3/5], u∈[1/4,2/3];
    // t and u loop. With t, u equally labelled, everything is one class.
    let m = imdp(&[
        vec![
            vec![(1, 1.0 / 3.0, 2.0 / 3.0), (2, 0.1, 1.0)],
            vec![(1, 0.4, 0.6), (2, 0.25, 2.0 / 3.0)],
        ],
        vec![vec![(1, 1.0, 1.0)]],
        vec![vec![(2, 1.0, 1.0)]],
    ]);
    let b = bisimulation(&m, &[0, 1, 1]);
    assert_eq!(b.num_classes, 2);
    assert!(same(&b, 1, 2));
    let b = bisimulation(&m, &[0, 1, 2]);
    assert_eq!(b.num_classes, 3);
    // The quotient keeps only action b at s (a's polytope contains b's).
    let q = quotient(&m, &b);
    assert_eq!(q.choices(b.class[0] as usize).len(), 1);
}

#[test]
fn dominated_action_does_not_separate() {
    // s0 has an extra action whose polytope contains that of the shared action: s0 ∼ s1.
    // s2 differs (a tighter interval it can force).
    let m = imdp(&[
        vec![
            vec![(3, 0.4, 0.6), (4, 0.4, 0.6)],
            vec![(3, 0.2, 0.8), (4, 0.2, 0.8)],
        ],
        vec![vec![(3, 0.4, 0.6), (4, 0.4, 0.6)]],
        vec![
            vec![(3, 0.5, 0.5), (4, 0.5, 0.5)],
            vec![(3, 0.4, 0.6), (4, 0.4, 0.6)],
        ],
        vec![vec![(3, 1.0, 1.0)]],
        vec![vec![(4, 1.0, 1.0)]],
    ]);
    let b = bisimulation(&m, &[0, 0, 0, 1, 2]);
    assert!(same(&b, 0, 1));
    assert!(!same(&b, 0, 2));
    assert_eq!(b.num_classes, 4);
}

#[test]
fn convex_combination_dominates() {
    // s0's middle action [0.4,0.6]² contains ½·(1,0) + ½·(0,1): it is not strictly minimal,
    // so s0 ∼ s1 which only has the two Dirac actions.
    let m = imdp(&[
        vec![
            vec![(2, 1.0, 1.0)],
            vec![(2, 0.4, 0.6), (3, 0.4, 0.6)],
            vec![(3, 1.0, 1.0)],
        ],
        vec![vec![(2, 1.0, 1.0)], vec![(3, 1.0, 1.0)]],
        vec![vec![(2, 1.0, 1.0)]],
        vec![vec![(3, 1.0, 1.0)]],
    ]);
    let b = bisimulation(&m, &[0, 0, 1, 2]);
    assert!(same(&b, 0, 1));
    assert_eq!(b.num_classes, 3);
}

// ---- brute-force oracle: all partitions, stability by Lemma 6 with the paper's LP (3)–(6) ----

fn partitions(n: usize) -> Vec<Vec<u32>> {
    fn rec(i: usize, n: usize, cur: &mut Vec<u32>, max: u32, out: &mut Vec<Vec<u32>>) {
        if i == n {
            out.push(cur.clone());
            return;
        }
        for c in 0..=max + 1 {
            cur.push(c);
            rec(i + 1, n, cur, max.max(c), out);
            cur.pop();
        }
    }
    let mut out = Vec::new();
    if n > 0 {
        let mut cur = vec![0];
        rec(1, n, &mut cur, 0, &mut out);
    }
    out
}

fn minimal_set_oracle(m: &Model, part: &[u32], s: usize) -> Vec<Polytope> {
    let mut ps: Vec<Polytope> = m
        .choices(s)
        .filter_map(|c| {
            Polytope::from_bounds(
                m.trans(c)
                    .map(|t| {
                        (
                            part[m.cols[t] as usize],
                            fixed(m.vals[t]),
                            fixed(m.upper[t]),
                        )
                    })
                    .collect(),
            )
        })
        .collect();
    ps.sort();
    ps.dedup();
    let keep: Vec<bool> = (0..ps.len())
        .map(|i| {
            let others: Vec<&Polytope> =
                (0..ps.len()).filter(|&j| j != i).map(|j| &ps[j]).collect();
            !contained_farkas(&ps[i], &others)
        })
        .collect();
    ps.into_iter()
        .zip(keep)
        .filter(|x| x.1)
        .map(|x| x.0)
        .collect()
}

fn stable(m: &Model, labels: &[u32], part: &[u32]) -> bool {
    let n = part.len();
    let sets: Vec<Vec<Polytope>> = (0..n).map(|s| minimal_set_oracle(m, part, s)).collect();
    (0..n).all(|s| {
        (0..n).all(|t| part[s] != part[t] || (labels[s] == labels[t] && sets[s] == sets[t]))
    })
}

fn random_imdp(bytes: &[u8], n: usize) -> (Model, Vec<u32>) {
    let mut it = bytes.iter().copied().cycle();
    let mut next = move |k: u8| it.next().unwrap_or(0) % k;
    let labels: Vec<u32> = (0..n).map(|_| next(2) as u32).collect();
    // A pool of choices shared between states, so that states differ by dominated actions.
    let mut pool: Vec<Choice> = Vec::new();
    for _ in 0..4 {
        // A point distribution in quarters, then widened by 0, 1/4 or 1/2 on each side.
        let mut mass = [0u8; 4];
        for _ in 0..4 {
            mass[next(n as u8) as usize] += 1;
        }
        let mut c: Choice = Vec::new();
        for (d, &k) in mass.iter().enumerate().take(n) {
            if k > 0 || next(4) == 0 {
                let p = k as f64 / 4.0;
                let l = (p - next(3) as f64 / 4.0).max(0.0);
                let u = (p + next(3) as f64 / 4.0).min(1.0);
                c.push((d as u32, l, u));
            }
        }
        pool.push(c);
    }
    let mut states = Vec::new();
    for _ in 0..n {
        let mask = 1 + next(15);
        let cs: Vec<Choice> = (0..4)
            .filter(|i| mask & (1 << i) != 0)
            .map(|i| pool[i].clone())
            .collect();
        states.push(cs);
    }
    (imdp(&states), labels)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn coarsest_bisimulation_matches_brute_force(bytes in proptest::collection::vec(any::<u8>(), 96), n in 2usize..=4) {
        let (m, labels) = random_imdp(&bytes, n);
        let b = bisimulation(&m, &labels);
        prop_assert!(stable(&m, &labels, &b.class), "computed partition is not a bisimulation");
        for p in partitions(n) {
            if stable(&m, &labels, &p) {
                // Every bisimulation refines the computed one (so no two classes can merge).
                for s in 0..n {
                    for t in 0..n {
                        if p[s] == p[t] {
                            prop_assert!(b.class[s] == b.class[t], "stable {:?} not below {:?}", p, b.class);
                        }
                    }
                }
            }
        }
        // Robust values agree on the quotient.
        let q = quotient(&m, &b);
        let target: Vec<bool> = labels.iter().map(|&l| l == 1).collect();
        let mut qt = vec![false; b.num_classes];
        for s in 0..n { qt[b.class[s] as usize] = target[s]; }
        for goal in [Goal::Max, Goal::Min] {
            let v = reach(&m, &target, goal, 1e-12, 100_000);
            let w = reach(&q, &qt, goal, 1e-12, 100_000);
            for s in 0..n {
                prop_assert!((v[s] - w[b.class[s] as usize]).abs() < 1e-6);
            }
        }
    }
}

// ---- benchmark models: values on the model equal values on the quotient ----

fn check_model(rel: &str, consts: &[(&str, &str)], eps: Option<f64>) {
    let Some(path) = verikit_testkit::shared_path(rel) else {
        eprintln!("skipping: {rel} not available");
        return;
    };
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("skipping: {rel} not available");
        return;
    };
    let ov: Vec<(String, String)> = consts
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    let (prog, m) = load_model(&text, &ov, &BuildOptions::default()).unwrap();
    let m = match eps {
        Some(e) => widen(&m, e).unwrap(),
        None => m,
    };
    let labels = label_partition(&m, &prog).unwrap();
    let b = bisimulation(&m, &labels);
    let q = quotient(&m, &b);
    assert!(q.num_states() <= m.num_states());
    for (_, e) in &prog.labels {
        let target = verikit_prob::eval_states(&m, e).unwrap();
        let mut qt = vec![false; b.num_classes];
        for s in 0..m.num_states() {
            qt[b.class[s] as usize] = target[s];
        }
        for goal in [Goal::Max, Goal::Min] {
            let v = reach(&m, &target, goal, 1e-10, 20_000);
            let w = reach(&q, &qt, goal, 1e-10, 20_000);
            for s in 0..m.num_states() {
                let d = (v[s] - w[b.class[s] as usize]).abs();
                assert!(
                    d < 1e-6,
                    "{rel}: state {s} {goal:?}: {} vs {}",
                    v[s],
                    w[b.class[s] as usize]
                );
            }
        }
    }
    eprintln!("{rel}: {} -> {} states", m.num_states(), q.num_states());
}

#[test]
fn prism_imdp_robot() {
    check_model(
        "prism-examples/imdps/simple/robot.prism",
        &[("delta", "0.1")],
        None,
    );
}

#[test]
fn prism_imdp_coin2() {
    check_model(
        "prism-examples/imdps/consensus/coin2.prism",
        &[("K", "2"), ("bias1", "0.1")],
        None,
    );
}

#[test]
fn widened_consensus_2() {
    check_model(
        "qvbs/mdp/consensus/consensus.2.prism",
        &[("K", "2")],
        Some(0.01),
    );
}

#[test]
fn widened_crowds_small() {
    check_model(
        "qvbs/dtmc/crowds/crowds.prism",
        &[("TotalRuns", "3"), ("CrowdSize", "5")],
        Some(0.01),
    );
}

#[test]
fn widened_mutual_3() {
    check_model("prism-examples/mdps/mutual/mutual3.nm", &[], Some(0.01));
}

#[test]
fn widened_phil_nofair_3() {
    check_model(
        "prism-examples/mdps/phil/nofair/phil-nofair3.nm",
        &[],
        Some(0.01),
    );
}

// ---- nature's inner problem by sorting vs. a generic LP ----

fn nature_lp(c: &Choice, v: &[f64], minimise: bool) -> Option<f64> {
    use microlp::{ComparisonOp, OptimizationDirection, Problem};
    let dir = if minimise {
        OptimizationDirection::Minimize
    } else {
        OptimizationDirection::Maximize
    };
    let mut lp = Problem::new(dir);
    let xs: Vec<_> = c
        .iter()
        .map(|&(d, l, u)| lp.add_var(v[d as usize], (l, u)))
        .collect();
    lp.add_constraint(
        xs.iter().map(|&x| (x, 1.0)).collect::<Vec<_>>(),
        ComparisonOp::Eq,
        1.0,
    );
    lp.solve().ok()?.into_solution().ok().map(|s| s.objective())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    #[test]
    fn nature_by_sorting_equals_lp(bytes in proptest::collection::vec(any::<u8>(), 32), n in 1usize..=4) {
        let (m, _) = random_imdp(&bytes, n);
        let v: Vec<f64> = (0..n).map(|i| (bytes[i] as f64) / 255.0).collect();
        let mut buf = Vec::new();
        for s in 0..n {
            for c in m.choices(s) {
                let ch: Choice = m.trans(c).map(|t| (m.cols[t], m.vals[t], m.upper[t])).collect();
                for minimise in [true, false] {
                    let a = verikit_prob::nature_value(&m, c, &v, minimise, &mut buf);
                    let b = nature_lp(&ch, &v, minimise);
                    match (a, b) {
                        (Some(a), Some(b)) => prop_assert!((a - b).abs() < 1e-7, "{a} vs {b}"),
                        (a, b) => prop_assert!(a.is_none() && b.is_none(), "{a:?} vs {b:?}"),
                    }
                }
            }
        }
    }
}
