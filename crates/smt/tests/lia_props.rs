//! Integer reasoning (branch and bound, GCD tests, Diophantine equations, congruence branches,
//! Gomory cuts) against brute-force enumeration of every integer point of a small box, and a few
//! hand-made instances whose proofs need the integer lemmas.

mod common;

use common::solve_checked as solve;
use proptest::prelude::*;

/// A linear constraint `Σ c_i v_i ⋈ k` over the variables `x`, `y`, `z`.
#[derive(Clone, Debug)]
struct Con {
    coefs: [i64; 3],
    rel: u8,
    k: i64,
}

const VARS: [&str; 3] = ["x", "y", "z"];
const BOX: i64 = 3;

impl Con {
    fn holds(&self, p: [i64; 3]) -> bool {
        let s: i64 = self.coefs.iter().zip(p).map(|(c, v)| c * v).sum();
        match self.rel {
            0 => s == self.k,
            1 => s <= self.k,
            2 => s >= self.k,
            _ => s != self.k,
        }
    }
    fn smt(&self) -> String {
        let terms: Vec<String> = self
            .coefs
            .iter()
            .zip(VARS)
            .filter(|(c, _)| **c != 0)
            .map(|(c, v)| format!("(* {} {v})", lit(*c)))
            .collect();
        let lhs = match terms.len() {
            0 => "0".to_string(),
            1 => terms[0].clone(),
            _ => format!("(+ {})", terms.join(" ")),
        };
        let k = lit(self.k);
        match self.rel {
            0 => format!("(= {lhs} {k})"),
            1 => format!("(<= {lhs} {k})"),
            2 => format!("(>= {lhs} {k})"),
            _ => format!("(distinct {lhs} {k})"),
        }
    }
}

fn lit(n: i64) -> String {
    if n < 0 {
        format!("(- {})", -n)
    } else {
        n.to_string()
    }
}

/// Coefficients with common factors (so GCD and Diophantine reasoning matters).
fn coef() -> impl Strategy<Value = i64> {
    prop_oneof![
        -3i64..=3,
        prop::sample::select(vec![-6i64, -4, -2, 2, 4, 6, 8, 12])
    ]
}

fn con() -> impl Strategy<Value = Con> {
    (prop::array::uniform3(coef()), 0u8..4, -12i64..=12).prop_map(|(coefs, rel, k)| Con {
        coefs,
        rel,
        k,
    })
}

/// A formula: a conjunction of clauses of one or two constraints.
fn formula() -> impl Strategy<Value = Vec<Vec<Con>>> {
    prop::collection::vec(prop::collection::vec(con(), 1..=2), 1..=5)
}

fn brute_force(f: &[Vec<Con>]) -> bool {
    for x in -BOX..=BOX {
        for y in -BOX..=BOX {
            for z in -BOX..=BOX {
                let p = [x, y, z];
                if f.iter().all(|cl| cl.iter().any(|c| c.holds(p))) {
                    return true;
                }
            }
        }
    }
    false
}

fn script(f: &[Vec<Con>]) -> String {
    let clauses: Vec<Vec<String>> = f
        .iter()
        .map(|cl| cl.iter().map(Con::smt).collect())
        .collect();
    common::clause_script("", &VARS, BOX, &clauses)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]
    #[test]
    fn agrees_with_enumeration(f in formula()) {
        let text = script(&f);
        let (answer, model_ok, _) = solve(&text);
        let expected = if brute_force(&f) { "sat" } else { "unsat" };
        prop_assert_eq!(&answer, expected, "{}", text);
        if answer == "sat" {
            prop_assert_eq!(model_ok, Some(true), "{}", text);
        }
    }
}

#[test]
fn congruence_closes_wide_interval() {
    // t = 2^16·k + 0 and 1 ≤ t ≤ 2^16 − 1: no integer solution; branch and bound on t alone
    // would enumerate.
    let text =
        "(set-logic QF_LIA)(declare-fun t () Int)(declare-fun k () Int)(declare-fun u () Int)
        (assert (= t (+ (* 65536 k) (* 131072 u))))
        (assert (<= 1 t 65535))(check-sat)";
    assert_eq!(solve(text).0, "unsat");
}

#[test]
fn diophantine_system_without_single_row_witness() {
    // 2x + 4y = a, a = 6z + 1 has no integer solution (a is even and odd); no single row shows it
    // until the equations are combined.
    let text = "(set-logic QF_LIA)(declare-fun x () Int)(declare-fun y () Int)
        (declare-fun z () Int)(declare-fun a () Int)
        (assert (= (+ (* 2 x) (* 4 y)) a))(assert (= a (+ (* 6 z) 1)))
        (assert (<= (- 1000) x 1000))(assert (<= (- 1000) y 1000))(assert (<= (- 1000) z 1000))
        (check-sat)";
    assert_eq!(solve(text).0, "unsat");
}

#[test]
fn satisfiable_congruences_give_checked_models() {
    let text = "(set-logic QF_LIA)(declare-fun x () Int)(declare-fun y () Int)
        (assert (= (+ (* 6 x) (* 10 y)) 14))(assert (<= 100 x 200))(check-sat)";
    assert_eq!(solve(text), ("sat".to_string(), Some(true), 0));
}

#[test]
fn rings_family_unsat() {
    let f = verikit_testkit::require_data!("smt/QF_LIA/rings/ring_2exp16_3vars_2ite_unsat.smt2");
    let text = std::fs::read_to_string(&f).expect("readable benchmark");
    assert_eq!(solve(&text).0, "unsat");
}
