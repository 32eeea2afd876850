//! Property test against a brute-force oracle: random closed timed automata (guards and invariants
//! with `<=`, `>=`, `==` only, so integer delays reach every reachable discrete state — digitization,
//! Henzinger–Manna–Pnueli 1992) are explored explicitly with unit delays and clock values capped above
//! the largest constant; every algorithm, order and extrapolation must give the oracle's verdict, and
//! every reachable answer's timed trace must replay. Plus: a tampered trace is rejected.

use proptest::prelude::*;
use std::sync::atomic::{AtomicUsize, Ordering};

static REACHABLE: AtomicUsize = AtomicUsize::new(0);
static UNREACHABLE: AtomicUsize = AtomicUsize::new(0);
use std::collections::{HashSet, VecDeque};
use verikit_diag::Budget;
use verikit_ta::{check_labels, parse_tck, replay, Algo, Extrapolation, Options, Search};

const CLOCKS: usize = 2;
const MAXC: i64 = 3;

#[derive(Clone, Debug)]
struct Cons {
    clock: usize,
    op: u8, // 0: <=, 1: >=, 2: ==
    c: i64,
}

#[derive(Clone, Debug)]
struct E {
    src: usize,
    tgt: usize,
    guard: Vec<Cons>,
    int_eq: Option<i64>,
    inc: bool,
    resets: Vec<usize>,
}

#[derive(Clone, Debug)]
struct P {
    nloc: usize,
    inv: Vec<Option<(usize, i64)>>, // x <= c
    urgent: Vec<bool>,
    edges: Vec<E>,
}

fn holds(c: &Cons, v: &[i64]) -> bool {
    let x = v[c.clock];
    match c.op {
        0 => x <= c.c,
        1 => x >= c.c,
        _ => x == c.c,
    }
}

fn op_text(op: u8) -> &'static str {
    match op {
        0 => "<=",
        1 => ">=",
        _ => "==",
    }
}

fn to_tck(ps: &[P]) -> String {
    let mut s = String::from("system:rnd\nevent:tau\nint:1:0:2:0:n\nclock:1:x0\nclock:1:x1\n");
    for (pi, p) in ps.iter().enumerate() {
        s += &format!("process:P{pi}\n");
        for l in 0..p.nloc {
            let mut attrs = Vec::new();
            if l == 0 {
                attrs.push("initial:".to_string());
            }
            if let Some((x, c)) = p.inv[l] {
                attrs.push(format!("invariant: x{x} <= {c}"));
            }
            if p.urgent[l] {
                attrs.push("urgent:".to_string());
            }
            attrs.push(format!("labels: p{pi}l{l}"));
            s += &format!("location:P{pi}:l{l}{{{}}}\n", attrs.join(" : "));
        }
        for e in &p.edges {
            let mut g: Vec<String> = e
                .guard
                .iter()
                .map(|c| format!("x{} {} {}", c.clock, op_text(c.op), c.c))
                .collect();
            if let Some(k) = e.int_eq {
                g.push(format!("n == {k}"));
            }
            let mut d: Vec<String> = e.resets.iter().map(|x| format!("x{x} = 0")).collect();
            if e.inc {
                d.push("n = n + 1".into());
            }
            let mut attrs = Vec::new();
            if !g.is_empty() {
                attrs.push(format!("provided: {}", g.join(" && ")));
            }
            if !d.is_empty() {
                attrs.push(format!("do: {}", d.join("; ")));
            }
            s += &format!(
                "edge:P{pi}:l{}:l{}:tau{{{}}}\n",
                e.src,
                e.tgt,
                attrs.join(" : ")
            );
        }
    }
    s
}

/// Explicit reachability of `(process, location)` with unit delays.
fn oracle(ps: &[P], target: (usize, usize)) -> bool {
    type St = (Vec<usize>, i64, Vec<i64>);
    let inv_ok = |locs: &[usize], v: &[i64]| {
        ps.iter()
            .zip(locs)
            .all(|(p, &l)| p.inv[l].is_none_or(|(x, c)| v[x] <= c))
    };
    let start: St = (vec![0; ps.len()], 0, vec![0; CLOCKS]);
    if !inv_ok(&start.0, &start.2) {
        return false;
    }
    let mut seen = HashSet::new();
    let mut q = VecDeque::new();
    seen.insert(start.clone());
    q.push_back(start);
    while let Some((locs, n, v)) = q.pop_front() {
        if locs[target.0] == target.1 {
            return true;
        }
        let mut next: Vec<St> = Vec::new();
        let urgent = ps.iter().zip(&locs).any(|(p, &l)| p.urgent[l]);
        if !urgent {
            let w: Vec<i64> = v.iter().map(|x| (x + 1).min(MAXC + 1)).collect();
            if inv_ok(&locs, &w) {
                next.push((locs.clone(), n, w));
            }
        }
        for (pi, p) in ps.iter().enumerate() {
            for e in p.edges.iter().filter(|e| e.src == locs[pi]) {
                if !e.guard.iter().all(|c| holds(c, &v)) || e.int_eq.is_some_and(|k| k != n) {
                    continue;
                }
                let m = if e.inc { n + 1 } else { n };
                if m > 2 {
                    continue;
                }
                let mut w = v.clone();
                for &x in &e.resets {
                    w[x] = 0;
                }
                let mut l2 = locs.clone();
                l2[pi] = e.tgt;
                if inv_ok(&l2, &w) {
                    next.push((l2, m, w));
                }
            }
        }
        for s in next {
            if seen.insert(s.clone()) {
                q.push_back(s);
            }
        }
    }
    false
}

fn arb_cons() -> impl Strategy<Value = Cons> {
    (0..CLOCKS, 0u8..3, 0..=MAXC).prop_map(|(clock, op, c)| Cons { clock, op, c })
}

fn arb_process() -> impl Strategy<Value = P> {
    (2usize..=4).prop_flat_map(|nloc| {
        let edge = (
            0..nloc,
            0..nloc,
            proptest::collection::vec(arb_cons(), 0..=2),
            proptest::option::weighted(0.3, 0i64..=2),
            proptest::bool::weighted(0.3),
            proptest::collection::vec(0..CLOCKS, 0..=2),
        )
            .prop_map(|(src, tgt, guard, int_eq, inc, resets)| E {
                src,
                tgt,
                guard,
                int_eq,
                inc,
                resets,
            });
        (
            proptest::collection::vec(proptest::option::weighted(0.4, (0..CLOCKS, 1..=MAXC)), nloc),
            proptest::collection::vec(proptest::bool::weighted(0.15), nloc),
            proptest::collection::vec(edge, 1..=6),
        )
            .prop_map(move |(inv, urgent, edges)| P {
                nloc,
                inv,
                urgent,
                edges,
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    #[test]
    fn reachability_matches_the_digital_oracle(
        ps in proptest::collection::vec(arb_process(), 1..=2),
        tp in 0usize..2,
        tl in 0usize..4,
    ) {
        let tp = tp % ps.len();
        let tl = tl % ps[tp].nloc;
        let text = to_tck(&ps);
        let model = parse_tck(&text).unwrap();
        let want = oracle(&ps, (tp, tl));
        if want { REACHABLE.fetch_add(1, Ordering::Relaxed); } else { UNREACHABLE.fetch_add(1, Ordering::Relaxed); }
        let labels = vec![format!("p{tp}l{tl}")];
        for algo in [Algo::Reach, Algo::Covreach, Algo::AluCovreach] {
            for search in [Search::Bfs, Search::Dfs] {
                for extrapolation in [Extrapolation::LuLocal, Extrapolation::LuGlobal, Extrapolation::MGlobal, Extrapolation::MLocal] {
                    let o = Options { search, algo, extrapolation };
                    let r = check_labels(&model, &labels, o, &Budget::unlimited()).unwrap();
                    prop_assert_eq!(r.reachable, Some(want), "{:?}\n{}", o, text);
                    if let Some(t) = &r.timed {
                        let rep = replay(&model, t, &r.labels);
                        prop_assert!(rep.is_ok(), "{:?}: {:?}\n{}", o, rep, text);
                    }
                }
            }
        }
    }
}

#[test]
fn the_random_models_are_not_trivial() {
    reachability_matches_the_digital_oracle();
    let (r, u) = (
        REACHABLE.load(Ordering::Relaxed),
        UNREACHABLE.load(Ordering::Relaxed),
    );
    eprintln!("oracle: {r} reachable, {u} unreachable");
    assert!(r >= 20 && u >= 20, "{r} reachable, {u} unreachable");
}

#[test]
fn a_tampered_trace_is_rejected() {
    let text = "system:s\nevent:a\nclock:1:x\nprocess:P\nlocation:P:l0{initial:}\n\
                location:P:l1{labels: done}\nedge:P:l0:l1:a{provided: x > 2 && x < 3}\n";
    let m = parse_tck(text).unwrap();
    let r = check_labels(
        &m,
        &["done".to_string()],
        Options::default(),
        &Budget::unlimited(),
    )
    .unwrap();
    assert_eq!(r.reachable, Some(true));
    let t = r.timed.clone().unwrap();
    replay(&m, &t, &r.labels).unwrap();
    // the delay is strictly between 2 and 3
    let d = &t.steps[0].delay;
    assert!(*d > num_rational::BigRational::from_integer(2.into()));
    let mut bad = t.clone();
    bad.steps[0].delay = num_rational::BigRational::from_integer(3.into());
    assert!(replay(&m, &bad, &r.labels).is_err());
    let mut bad = t;
    bad.steps.clear();
    assert!(replay(&m, &bad, &r.labels).is_err());
}
