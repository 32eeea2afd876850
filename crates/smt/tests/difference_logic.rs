//! The difference-logic solver against a brute-force oracle (every truth assignment of the atoms,
//! consistency by Floyd–Warshall on the chosen difference constraints), against the simplex, and
//! through scripts (push/pop, check-sat-assuming, fallback to the simplex).

use proptest::prelude::*;
use verikit_num::Num;
use verikit_sat::SatResult;
use verikit_smt::{run_script, RunOptions, Solver};
use verikit_smt::{Sort, TermId, TermOp as Op};

/// `x − y ≤ c/2` (`y = None`: `x ≤ c/2`), `<` when strict.
#[derive(Clone, Debug)]
struct DAtom {
    x: usize,
    y: Option<usize>,
    c2: i64,
    strict: bool,
}

#[derive(Clone, Debug)]
struct Problem {
    int: bool,
    nvars: usize,
    atoms: Vec<DAtom>,
    /// Clauses over atom indices (negative = negated, 1-based).
    clauses: Vec<Vec<i32>>,
}

fn problem() -> impl Strategy<Value = Problem> {
    (any::<bool>(), 2usize..5).prop_flat_map(|(int, nvars)| {
        let atom = (
            0..nvars,
            proptest::option::of(0..nvars),
            -8i64..8,
            any::<bool>(),
        )
            .prop_map(move |(x, y, c, strict)| DAtom {
                x,
                y: y.filter(|&y| y != x),
                // integer bounds over the integers, halves over the reals
                c2: if int { 2 * (c / 2) } else { c },
                strict,
            });
        (
            proptest::collection::vec(atom, 2..7),
            Just(int),
            Just(nvars),
        )
            .prop_flat_map(|(atoms, int, nvars)| {
                let k = atoms.len() as i32;
                let lit = (1..=k, any::<bool>()).prop_map(|(a, n)| if n { -a } else { a });
                let clause = proptest::collection::vec(lit, 1..4);
                proptest::collection::vec(clause, 1..6).prop_map(move |clauses| Problem {
                    int,
                    nvars,
                    atoms: atoms.clone(),
                    clauses,
                })
            })
    })
}

/// Weight `(c, k)` = `c/2 + k·δ` of the edge `a → b` for `a − b ≤ …`.
type Edge = (usize, usize, (i64, i64));

fn edge(p: &Problem, a: &DAtom, positive: bool) -> Edge {
    let zero = p.nvars;
    let y = a.y.unwrap_or(zero);
    // over the integers a strict bound `t < c` is `t ≤ c − 1`
    let (c2, strict) = if p.int && a.strict {
        (a.c2 - 2, false)
    } else {
        (a.c2, a.strict)
    };
    if positive {
        (a.x, y, (c2, if strict { -1 } else { 0 }))
    } else if p.int {
        (y, a.x, (-c2 - 2, 0))
    } else if strict {
        (y, a.x, (-c2, 0))
    } else {
        (y, a.x, (-c2, -1))
    }
}

fn consistent(n: usize, edges: &[Edge]) -> bool {
    const INF: (i64, i64) = (i64::MAX / 4, 0);
    let mut d = vec![vec![INF; n]; n];
    for (i, row) in d.iter_mut().enumerate() {
        row[i] = (0, 0);
    }
    for &(a, b, w) in edges {
        if w < d[a][b] {
            d[a][b] = w;
        }
    }
    for k in 0..n {
        for i in 0..n {
            for j in 0..n {
                if d[i][k] != INF && d[k][j] != INF {
                    let s = (d[i][k].0 + d[k][j].0, d[i][k].1 + d[k][j].1);
                    if s < d[i][j] {
                        d[i][j] = s;
                    }
                }
            }
        }
    }
    (0..n).all(|i| d[i][i] >= (0, 0))
}

fn brute_force(p: &Problem) -> bool {
    let k = p.atoms.len();
    (0..1u32 << k).any(|m| {
        let val = |l: i32| ((m >> (l.unsigned_abs() - 1)) & 1 == 1) == (l > 0);
        if !p.clauses.iter().all(|c| c.iter().any(|&l| val(l))) {
            return false;
        }
        let edges: Vec<Edge> = p
            .atoms
            .iter()
            .enumerate()
            .map(|(i, a)| edge(p, a, (m >> i) & 1 == 1))
            .collect();
        consistent(p.nvars + 1, &edges)
    })
}

/// Which solver decides: the simplex, or the difference-logic solver with the all-pairs matrix
/// or with potentials and searches.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mode {
    Simplex,
    Matrix,
    Graph,
}

/// Asserts the problem into a solver; returns it after `check`.
fn solve(p: &Problem, mode: Mode) -> (SatResult, Solver) {
    let mut s = Solver::new();
    s.enable_certificates();
    s.set_difference_logic(mode != Mode::Simplex);
    if mode == Mode::Graph {
        s.set_dl_matrix_limit(0);
    }
    let sort = if p.int { Sort::Int } else { Sort::Real };
    let xs: Vec<TermId> = (0..p.nvars)
        .map(|i| s.declare(&format!("x{i}"), sort))
        .collect();
    let t = &mut s.terms;
    let atoms: Vec<TermId> = p
        .atoms
        .iter()
        .map(|a| {
            let lhs = match a.y {
                Some(y) => {
                    let ny = t.mk(Op::Neg, vec![xs[y]], sort);
                    t.mk(Op::Add, vec![xs[a.x], ny], sort)
                }
                None => xs[a.x],
            };
            let c = Num::int(a.c2).div(&Num::int(2));
            let rhs = t.mk_const(c, sort);
            t.mk(
                if a.strict { Op::Lt } else { Op::Le },
                vec![lhs, rhs],
                Sort::Bool,
            )
        })
        .collect();
    let clauses: Vec<TermId> = p
        .clauses
        .iter()
        .map(|c| {
            let lits: Vec<TermId> = c
                .iter()
                .map(|&l| {
                    let a = atoms[(l.unsigned_abs() - 1) as usize];
                    if l > 0 {
                        a
                    } else {
                        t.mk_not(a)
                    }
                })
                .collect();
            if lits.len() == 1 {
                lits[0]
            } else {
                t.mk(Op::Or, lits, Sort::Bool)
            }
        })
        .collect();
    for c in clauses {
        s.assert(c);
    }
    let r = s.check(&[]);
    (r, s)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]
    #[test]
    fn agrees_with_brute_force_and_simplex(p in problem()) {
        let expect = brute_force(&p);
        let mut r = SatResult::Unknown;
        // Bounds alone are left to the simplex (decision 0228).
        let differences = p.clauses.iter().flatten().any(|&l| {
            let a = &p.atoms[(l.unsigned_abs() - 1) as usize];
            a.y.is_some_and(|y| y != a.x)
        });
        for mode in [Mode::Matrix, Mode::Graph] {
            let (rm, s) = solve(&p, mode);
            prop_assert_eq!(s.stats().dl.dl_used, differences);
            if differences {
                prop_assert_eq!(s.stats().dl.dl_matrix, mode == Mode::Matrix);
            }
            prop_assert_eq!(rm == SatResult::Sat, expect, "difference logic {:?}", mode);
            prop_assert!(rm != SatResult::Unknown);
            if rm == SatResult::Sat {
                prop_assert_eq!(s.validate_model(&[]), Some(vec![]));
            }
            let cert = s.certificates().expect("certificates on");
            prop_assert!(cert.failures.is_empty(), "{:?}", cert.failures);
            r = rm;
        }
        let (r2, s2) = solve(&p, Mode::Simplex);
        prop_assert!(!s2.stats().dl.dl_used);
        prop_assert_eq!(r2, r, "simplex");
    }
}

fn answers(script: &str) -> Vec<String> {
    let out = run_script(
        script,
        RunOptions {
            check: true,
            ..Default::default()
        },
    );
    for c in &out.checks {
        assert_ne!(c.model_valid, Some(false), "{script}");
        assert!(c.certificate_failures.is_empty(), "{script}");
    }
    out.responses
}

#[test]
fn negative_cycle_is_unsat_and_pop_restores() {
    let r = answers(
        "(set-logic QF_IDL)(declare-fun x () Int)(declare-fun y () Int)(declare-fun z () Int)
         (assert (<= (- x y) 2))(assert (<= (- y z) (- 3)))
         (push 1)(assert (< (- z x) 1))(check-sat)(pop 1)
         (check-sat)(get-value ((- x z)))
         (declare-fun p () Bool)(declare-fun q () Bool)
         (assert (= p (>= (- x z) 0)))(assert (= q (>= (- x z) (- 1))))
         (check-sat-assuming (p))
         (check-sat-assuming (q))(check-sat-assuming ((not p)))",
    );
    assert_eq!(r[0], "unsat");
    assert_eq!(r[1], "sat");
    assert_eq!(r[3], "unsat");
    assert_eq!(r[4], "sat");
    assert_eq!(r[5], "sat");
}

#[test]
fn real_strict_cycle_needs_delta() {
    // x < y < z ≤ x + 1/2: sat over the reals with a small δ.
    let r = answers(
        "(set-logic QF_RDL)(declare-fun x () Real)(declare-fun y () Real)(declare-fun z () Real)
         (assert (< (- x y) 0))(assert (< (- y z) 0))(assert (<= (- z x) (/ 1 2)))
         (check-sat)
         (assert (<= (- z x) 0))(check-sat)",
    );
    assert_eq!(r[0], "sat");
    assert_eq!(r[1], "unsat");
}

#[test]
fn non_difference_atom_falls_back_to_the_simplex() {
    // Declared QF_IDL, but `x + y` is not a difference: the simplex decides, with the root facts
    // the difference-logic solver saw in the first check.
    let r = answers(
        "(set-logic QF_IDL)(declare-fun x () Int)(declare-fun y () Int)
         (assert (>= (- x y) 3))(assert (>= y 2))(check-sat)
         (assert (<= (+ x y) 6))(check-sat)
         (assert (<= (+ x y) 6))(check-sat)",
    );
    assert_eq!(r[0], "sat");
    assert_eq!(r[1], "unsat");
}

#[test]
fn jobshop_with_checked_certificates() {
    let Some(p) = verikit_testkit::shared_path(
        "smt/QF_IDL/20220214-jobshop-BohanLi/jobshop10-2-5-5-2-4-12.smt2",
    ) else {
        eprintln!("skipping: shared smt data not present");
        return;
    };
    let Ok(text) = std::fs::read_to_string(&p) else {
        eprintln!("skipping: {} not readable", p.display());
        return;
    };
    let out = run_script(
        &text,
        RunOptions {
            check: true,
            ..Default::default()
        },
    );
    assert_eq!(out.responses, vec!["sat".to_string()]);
    assert_eq!(out.checks[0].model_valid, Some(true));
    assert!(out.checks[0].certificate_failures.is_empty());
    assert!(out.stats.dl.dl_used);
}

/// A graph that outgrows the matrix limit in an incremental run moves to the potentials and
/// searches with its root-level edges, and answers stay right (with checked certificates).
#[test]
fn matrix_hands_a_growing_graph_to_the_searches() {
    let mut s = Solver::new();
    s.enable_certificates();
    s.set_dl_matrix_limit(4);
    let xs: Vec<TermId> = (0..6)
        .map(|i| s.declare(&format!("x{i}"), Sort::Int))
        .collect();
    // x_i − x_{i+1} ≤ c
    let diff = |s: &mut Solver, i: usize, j: usize, c: i64| {
        let t = &mut s.terms;
        let ny = t.mk(Op::Neg, vec![xs[j]], Sort::Int);
        let lhs = t.mk(Op::Add, vec![xs[i], ny], Sort::Int);
        let rhs = t.mk_const(Num::int(c), Sort::Int);
        t.mk(Op::Le, vec![lhs, rhs], Sort::Bool)
    };
    let a = diff(&mut s, 0, 1, -1);
    let b = diff(&mut s, 1, 2, -1);
    s.assert(a);
    s.assert(b);
    assert_eq!(s.check(&[]), SatResult::Sat);
    assert!(s.stats().dl.dl_matrix);
    // x2 − x0 ≤ 1 contradicts x0 < x1 < x2 only under the assumption.
    let c = diff(&mut s, 2, 0, 1);
    assert_eq!(s.check(&[c]), SatResult::Unsat);
    // New variables: 6 nodes > 4.
    let d = diff(&mut s, 2, 3, -1);
    let e = diff(&mut s, 3, 4, -1);
    let f = diff(&mut s, 4, 5, 0);
    s.assert(d);
    s.assert(e);
    s.assert(f);
    assert_eq!(s.check(&[]), SatResult::Sat);
    assert!(s.stats().dl.dl_used && !s.stats().dl.dl_matrix);
    assert_eq!(s.validate_model(&[]), Some(vec![]));
    let g = diff(&mut s, 5, 0, 3);
    assert_eq!(s.check(&[g]), SatResult::Unsat);
    let g = diff(&mut s, 5, 0, 4);
    assert_eq!(s.check(&[g]), SatResult::Sat);
    let cert = s.certificates().expect("certificates on");
    assert!(cert.failures.is_empty(), "{:?}", cert.failures);
}
