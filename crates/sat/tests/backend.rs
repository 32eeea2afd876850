//! The [`SatBackend`] of the own CDCL against brute force, with every model replayed on the
//! clauses and every failed-assumption set re-checked; pigeonhole formulas; the budget.

use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use verikit_diag::{Budget, Exhausted};
use verikit_sat::{CdclBackend, Cnf, Lit, SatBackend, SatResult};

fn brute(n: u32, cls: &[Vec<Lit>], fixed: &[Lit]) -> bool {
    (0..1u32 << n).any(|m| {
        let val = |l: &Lit| ((m >> l.var()) & 1 == 1) != l.is_neg();
        fixed.iter().all(val) && cls.iter().all(|c| c.iter().any(val))
    })
}

fn random_cnf(seed: u64) -> (u32, Vec<Vec<Lit>>, Vec<Lit>) {
    let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
    let n = rng.gen_range(1..11u32);
    let m = rng.gen_range(0..50usize);
    let cls = (0..m)
        .map(|_| {
            let k = rng.gen_range(1..5);
            (0..k)
                .map(|_| Lit::new(rng.gen_range(0..n), rng.gen()))
                .collect()
        })
        .collect();
    let assumptions = (0..rng.gen_range(0..4))
        .map(|_| Lit::new(rng.gen_range(0..n), rng.gen()))
        .collect();
    (n, cls, assumptions)
}

/// Solves with a backend and checks the answer independently: a model satisfies every clause and
/// assumption; a failed-assumption set is a subset of the assumptions that is unsatisfiable with
/// the clauses (by brute force).
fn check_backend<B: SatBackend>(
    mut b: B,
    n: u32,
    cls: &[Vec<Lit>],
    assumptions: &[Lit],
) -> SatResult {
    for _ in 0..n {
        b.new_var();
    }
    for c in cls {
        b.add_clause(c);
    }
    let r = b.solve(assumptions, &Budget::unlimited());
    match r {
        SatResult::Sat => {
            let cnf = Cnf {
                num_vars: n,
                clauses: cls.to_vec(),
            };
            assert!(cnf.satisfied_by(|v| b.model_value(Lit::pos(v)) == Some(true)));
            for a in assumptions {
                assert_eq!(b.model_value(*a), Some(true));
            }
        }
        SatResult::Unsat => {
            let core = b.failed_assumptions();
            assert!(core.iter().all(|l| assumptions.contains(l)));
            assert!(!brute(n, cls, &core));
        }
        SatResult::Unknown => panic!("unknown without a budget"),
    }
    r
}

proptest! {
    #[test]
    fn cdcl_backend_matches_brute_force(seed in 0u64..600) {
        let (n, cls, assumptions) = random_cnf(seed);
        let r = check_backend(CdclBackend::new(), n, &cls, &assumptions);
        prop_assert_eq!(r == SatResult::Sat, brute(n, &cls, &assumptions));
    }
}

#[cfg(feature = "cadical")]
proptest! {
    #[test]
    fn cadical_backend_matches_brute_force(seed in 0u64..300) {
        let (n, cls, assumptions) = random_cnf(seed);
        let r = check_backend(verikit_sat::CadicalBackend::new(), n, &cls, &assumptions);
        prop_assert_eq!(r == SatResult::Sat, brute(n, &cls, &assumptions));
    }
}

/// `holes + 1` pigeons in `holes` holes.
fn pigeonhole(holes: u32) -> Cnf {
    let p = |i: u32, j: u32| Lit::pos(i * holes + j);
    let mut clauses: Vec<Vec<Lit>> = (0..=holes)
        .map(|i| (0..holes).map(|j| p(i, j)).collect())
        .collect();
    for j in 0..holes {
        for a in 0..=holes {
            for b in a + 1..=holes {
                clauses.push(vec![!p(a, j), !p(b, j)]);
            }
        }
    }
    Cnf {
        num_vars: (holes + 1) * holes,
        clauses,
    }
}

#[test]
fn pigeonhole_is_unsat_and_incremental_use_works() {
    for h in 1..6 {
        let cnf = pigeonhole(h);
        let mut b = CdclBackend::new();
        for c in &cnf.clauses {
            b.add_clause(c);
        }
        assert_eq!(
            b.solve(&[], &Budget::unlimited()),
            SatResult::Unsat,
            "php {h}"
        );
    }
    // Incremental: x ∨ y, then assume ¬x, ¬y (core both), then add ¬x and solve again.
    let mut b = CdclBackend::new();
    let (x, y) = (Lit::pos(b.new_var()), Lit::pos(b.new_var()));
    b.add_clause(&[x, y]);
    assert_eq!(b.solve(&[!x, !y], &Budget::unlimited()), SatResult::Unsat);
    let mut core = b.failed_assumptions();
    core.sort();
    assert_eq!(core, vec![!x, !y]);
    b.add_clause(&[!x]);
    assert_eq!(b.solve(&[], &Budget::unlimited()), SatResult::Sat);
    assert_eq!(b.model_value(y), Some(true));
    assert_eq!(b.model_value(x), Some(false));
}

/// A backend given pigeonhole(9) and a cancelled budget answers `Unknown` and says why.
fn assert_cancelled_budget_stops<B: SatBackend>(mut b: B) {
    let cnf = pigeonhole(9);
    for c in &cnf.clauses {
        b.add_clause(c);
    }
    let budget = Budget::unlimited();
    budget.cancel();
    assert_eq!(b.solve(&[], &budget), SatResult::Unknown);
    assert_eq!(b.exhausted(), Some(Exhausted::Cancelled));
}

#[test]
fn a_cancelled_budget_stops_the_search() {
    assert_cancelled_budget_stops(CdclBackend::new());
}

/// Random 3-SAT at the satisfiability threshold (round(4.26 n) clauses), beyond brute force.
#[cfg(feature = "cadical")]
fn random_3sat(n: u32, seed: u64) -> Cnf {
    let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
    let m = (4.26 * f64::from(n)).round() as usize;
    let clauses = (0..m)
        .map(|_| {
            let mut c: Vec<Lit> = Vec::new();
            while c.len() < 3 {
                let v = rng.gen_range(0..n);
                if c.iter().all(|l| l.var() != v) {
                    c.push(Lit::new(v, rng.gen()));
                }
            }
            c
        })
        .collect();
    Cnf {
        num_vars: n,
        clauses,
    }
}

/// Solves `cnf` under `assumptions` with a fresh backend; a model is replayed on the clauses and
/// the assumptions, a failed-assumption set must be a subset of the assumptions.
#[cfg(feature = "cadical")]
fn solve_replayed<B: SatBackend>(
    mut b: B,
    cnf: &Cnf,
    assumptions: &[Lit],
) -> (SatResult, Vec<Lit>) {
    for _ in 0..cnf.num_vars {
        b.new_var();
    }
    for c in &cnf.clauses {
        b.add_clause(c);
    }
    let r = b.solve(assumptions, &Budget::unlimited());
    match r {
        SatResult::Sat => {
            assert!(cnf.satisfied_by(|v| b.model_value(Lit::pos(v)) == Some(true)));
            assert!(assumptions.iter().all(|a| b.model_value(*a) == Some(true)));
        }
        SatResult::Unsat => assert!(b
            .failed_assumptions()
            .iter()
            .all(|l| assumptions.contains(l))),
        SatResult::Unknown => panic!("unknown without a budget"),
    }
    (r, b.failed_assumptions())
}

/// CaDiCaL and the own CDCL give the same answer on pigeonhole formulas and on random 3-SAT at the
/// threshold, without and with assumptions; every model is replayed, and each backend's
/// failed-assumption set is re-checked as unsatisfiable by the other backend.
#[cfg(feature = "cadical")]
#[test]
fn cadical_and_own_cdcl_agree() {
    use verikit_sat::CadicalBackend;
    let mut cnfs: Vec<(String, Cnf)> = (1..8).map(|h| (format!("php{h}"), pigeonhole(h))).collect();
    for n in [40u32, 60, 80] {
        for seed in 0..6 {
            cnfs.push((format!("uf{n}-s{seed}"), random_3sat(n, seed)));
        }
    }
    let (mut sat, mut unsat, mut failed) = (0, 0, 0);
    for (name, cnf) in &cnfs {
        let (own, _) = solve_replayed(CdclBackend::new(), cnf, &[]);
        let (cad, _) = solve_replayed(CadicalBackend::new(), cnf, &[]);
        assert_eq!(own, cad, "{name}");
        if own == SatResult::Unsat {
            unsat += 1;
            continue;
        }
        sat += 1;
        // Assume the first variables false: both backends answer alike; a failed-assumption set of
        // one is unsatisfiable with the clauses for the other.
        let assumptions: Vec<Lit> = (0..cnf.num_vars.min(12)).map(|v| !Lit::pos(v)).collect();
        let (own, own_core) = solve_replayed(CdclBackend::new(), cnf, &assumptions);
        let (cad, cad_core) = solve_replayed(CadicalBackend::new(), cnf, &assumptions);
        assert_eq!(own, cad, "{name} under assumptions");
        if own == SatResult::Unsat {
            failed += 1;
            let (r, _) = solve_replayed(CdclBackend::new(), cnf, &cad_core);
            assert_eq!(r, SatResult::Unsat, "{name}: CaDiCaL's failed assumptions");
            let (r, _) = solve_replayed(CadicalBackend::new(), cnf, &own_core);
            assert_eq!(
                r,
                SatResult::Unsat,
                "{name}: the own core's failed assumptions"
            );
        }
    }
    // Both answers occur, and some assumption sets fail, so the agreement is not vacuous.
    assert!(
        sat > 0 && unsat > 0 && failed > 0,
        "sat {sat}, unsat {unsat}, failed {failed}"
    );
}

#[cfg(feature = "cadical")]
#[test]
fn a_cancelled_budget_stops_cadical() {
    assert_cancelled_budget_stops(verikit_sat::CadicalBackend::new());
}

/// `CdclBackend::set_domain`: an `Unsat` answer under any domain is exact; a random circuit of
/// AND gates (Tseitin) asked about one gate with the domain restricted to that gate's cone
/// answers as brute force does, and its model, extended outside the cone by evaluating the
/// gates (open inputs 0), satisfies every clause; the domain widened back to every variable, or
/// lifted by `clear_domain`, answers every random formula as brute force does.
#[test]
fn a_decision_domain_keeps_answers_exact_on_its_cone() {
    let mut rng = rand::rngs::SmallRng::seed_from_u64(7);
    for _ in 0..300 {
        let inputs = rng.gen_range(1..6u32);
        let gates = rng.gen_range(1..10u32);
        let n = inputs + gates;
        let mut fanin = Vec::new();
        let mut cls: Vec<Vec<Lit>> = Vec::new();
        for g in inputs..n {
            let a = Lit::new(rng.gen_range(0..g), rng.gen());
            let b = Lit::new(rng.gen_range(0..g), rng.gen());
            let x = Lit::pos(g);
            cls.extend([vec![!x, a], vec![!x, b], vec![x, !a, !b]]);
            fanin.push((a, b));
        }
        let root = Lit::new(rng.gen_range(inputs..n), rng.gen());
        let mut cone = vec![false; n as usize];
        let mut stack = vec![root.var()];
        while let Some(v) = stack.pop() {
            if std::mem::replace(&mut cone[v as usize], true) || v < inputs {
                continue;
            }
            let (a, b) = fanin[(v - inputs) as usize];
            stack.extend([a.var(), b.var()]);
        }
        let dom: Vec<u32> = (0..n).filter(|&v| cone[v as usize]).collect();
        let mut b = CdclBackend::new();
        for c in &cls {
            b.add_clause(c);
        }
        b.set_domain(&dom);
        let r = b.solve(&[root], &Budget::unlimited());
        assert_eq!(r == SatResult::Sat, brute(n, &cls, &[root]));
        if r == SatResult::Sat {
            let mut val: Vec<bool> = (0..n)
                .map(|v| cone[v as usize] && b.model_value(Lit::pos(v)) == Some(true))
                .collect();
            for g in inputs..n {
                let (x, y) = fanin[(g - inputs) as usize];
                let at = |l: Lit, val: &[bool]| val[l.var() as usize] != l.is_neg();
                val[g as usize] = at(x, &val) && at(y, &val);
            }
            let cnf = Cnf {
                num_vars: n,
                clauses: cls.clone(),
            };
            assert!(cnf.satisfied_by(|v| val[v as usize]));
            assert!(val[root.var() as usize] != root.is_neg());
        }
        // widened to every variable: an ordinary solver again
        let (m, rc, ra) = random_cnf(rng.gen());
        let mut w = CdclBackend::new();
        for c in &rc {
            w.add_clause(c);
        }
        let half: Vec<u32> = (0..m).filter(|v| v % 2 == 0).collect();
        w.set_domain(&half);
        if w.solve(&ra, &Budget::unlimited()) == SatResult::Unsat {
            assert!(!brute(m, &rc, &ra));
        }
        let answers_as_brute_force = |w: &mut CdclBackend| {
            let r = w.solve(&ra, &Budget::unlimited());
            assert_eq!(r == SatResult::Sat, brute(m, &rc, &ra));
            if r == SatResult::Sat {
                let cnf = Cnf {
                    num_vars: m,
                    clauses: rc.clone(),
                };
                assert!(cnf.satisfied_by(|v| w.model_value(Lit::pos(v)) == Some(true)));
            }
        };
        w.set_domain(&(0..m).collect::<Vec<_>>());
        answers_as_brute_force(&mut w);
        // the restriction lifted by `clear_domain`: an ordinary solver again too
        w.set_domain(&half);
        w.clear_domain();
        answers_as_brute_force(&mut w);
    }
}
