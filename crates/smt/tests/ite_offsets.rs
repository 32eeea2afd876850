//! Integer `ite` trees whose leaves share one linear part (`ite(c, x + 1, ite(d, x − 3, x + 5))`,
//! the modular-arithmetic encodings of the rings family), which the linearisation writes as
//! `x + 1 + 2·z` with `z` a tree over constants: the solver's answers against brute-force
//! enumeration of every point of a small box and every Boolean assignment, with models checked
//! against the original assertions.

mod common;

use common::solve_checked as solve;
use proptest::prelude::*;

const BOX: i64 = 3;

/// An integer term: a tree of `ite` over linear leaves.
#[derive(Clone, Debug)]
enum T {
    /// `a·x + b·y + k`
    Leaf(i64, i64, i64),
    Ite(Box<C>, Box<T>, Box<T>),
}

/// A condition: a Boolean variable, or `t ⋈ k`.
#[derive(Clone, Debug)]
enum C {
    P(u8),
    Cmp(u8, T, i64),
}

#[derive(Clone, Copy)]
struct Pt {
    x: i64,
    y: i64,
    p: [bool; 2],
}

fn lit(n: i64) -> String {
    if n < 0 {
        format!("(- {})", -n)
    } else {
        n.to_string()
    }
}

fn rel(r: u8, a: i64, b: i64) -> bool {
    match r {
        0 => a == b,
        1 => a <= b,
        2 => a < b,
        _ => a != b,
    }
}

fn rel_smt(r: u8, a: &str, b: &str) -> String {
    match r {
        0 => format!("(= {a} {b})"),
        1 => format!("(<= {a} {b})"),
        2 => format!("(< {a} {b})"),
        _ => format!("(distinct {a} {b})"),
    }
}

impl T {
    fn eval(&self, pt: Pt) -> i64 {
        match self {
            T::Leaf(a, b, k) => a * pt.x + b * pt.y + k,
            T::Ite(c, t, e) => {
                if c.eval(pt) {
                    t.eval(pt)
                } else {
                    e.eval(pt)
                }
            }
        }
    }
    fn smt(&self) -> String {
        match self {
            T::Leaf(a, b, k) => format!("(+ (* {} x) (* {} y) {})", lit(*a), lit(*b), lit(*k)),
            T::Ite(c, t, e) => format!("(ite {} {} {})", c.smt(), t.smt(), e.smt()),
        }
    }
}

impl C {
    fn eval(&self, pt: Pt) -> bool {
        match self {
            C::P(i) => pt.p[*i as usize],
            C::Cmp(r, t, k) => rel(*r, t.eval(pt), *k),
        }
    }
    fn smt(&self) -> String {
        match self {
            C::P(i) => format!("p{i}"),
            C::Cmp(r, t, k) => rel_smt(*r, &t.smt(), &lit(*k)),
        }
    }
}

/// Leaves: mostly one shared linear part plus an offset (a multiple of `m` sometimes), so most
/// trees have a common base; sometimes another linear part or a constant.
fn tree(a: i64, b: i64, m: i64) -> impl Strategy<Value = T> {
    let leaf = prop_oneof![
        6 => (-3i64..=3).prop_map(move |k| T::Leaf(a, b, k * m)),
        2 => (-4i64..=4).prop_map(move |k| T::Leaf(a, b, k)),
        1 => (-2i64..=2, -2i64..=2, -3i64..=3).prop_map(|(a, b, k)| T::Leaf(a, b, k)),
    ];
    leaf.prop_recursive(3, 12, 2, |inner| {
        let cond = prop_oneof![
            2 => (0u8..2).prop_map(C::P),
            3 => (0u8..3, inner.clone(), -4i64..=4).prop_map(|(r, t, k)| C::Cmp(r, t, k)),
        ];
        (cond, inner.clone(), inner)
            .prop_map(|(c, t, e)| T::Ite(Box::new(c), Box::new(t), Box::new(e)))
    })
}

/// An atom `t + c·x ⋈ k` or `t ⋈ t'`.
#[derive(Clone, Debug)]
enum A {
    Lin(T, i64, u8, i64),
    Two(T, u8, T),
}

impl A {
    fn eval(&self, pt: Pt) -> bool {
        match self {
            A::Lin(t, c, r, k) => rel(*r, t.eval(pt) + c * pt.x, *k),
            A::Two(t, r, u) => rel(*r, t.eval(pt), u.eval(pt)),
        }
    }
    fn smt(&self) -> String {
        match self {
            A::Lin(t, c, r, k) => {
                rel_smt(*r, &format!("(+ {} (* {} x))", t.smt(), lit(*c)), &lit(*k))
            }
            A::Two(t, r, u) => rel_smt(*r, &t.smt(), &u.smt()),
        }
    }
}

fn formula() -> impl Strategy<Value = Vec<Vec<A>>> {
    (
        -2i64..=2,
        -1i64..=1,
        prop::sample::select(vec![1i64, 2, 3, 4, 8]),
    )
        .prop_flat_map(|(a, b, m)| {
            let atom = prop_oneof![
                3 => (tree(a, b, m), -2i64..=2, 0u8..4, -6i64..=6)
                    .prop_map(|(t, c, r, k)| A::Lin(t, c, r, k)),
                1 => (tree(a, b, m), 0u8..4, tree(a, b, m)).prop_map(|(t, r, u)| A::Two(t, r, u)),
            ];
            prop::collection::vec(prop::collection::vec(atom, 1..=2), 1..=4)
        })
}

fn brute_force(f: &[Vec<A>]) -> bool {
    for x in -BOX..=BOX {
        for y in -BOX..=BOX {
            for m in 0..4u8 {
                let pt = Pt {
                    x,
                    y,
                    p: [m & 1 == 1, m & 2 == 2],
                };
                if f.iter().all(|cl| cl.iter().any(|a| a.eval(pt))) {
                    return true;
                }
            }
        }
    }
    false
}

fn script(f: &[Vec<A>]) -> String {
    let clauses: Vec<Vec<String>> = f.iter().map(|cl| cl.iter().map(A::smt).collect()).collect();
    let decls = "(declare-fun p0 () Bool)(declare-fun p1 () Bool)\n";
    common::clause_script(decls, &["x", "y"], BOX, &clauses)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]
    #[test]
    fn agrees_with_enumeration(f in formula()) {
        let text = script(&f);
        let (answer, model_ok, bad_certs) = solve(&text);
        let expected = if brute_force(&f) { "sat" } else { "unsat" };
        prop_assert_eq!(&answer, expected, "{}", text);
        prop_assert_eq!(bad_certs, 0, "{}", text);
        if answer == "sat" {
            prop_assert_eq!(model_ok, Some(true), "{}", text);
        }
    }
}

#[test]
fn modular_reduction_needs_no_case_split() {
    // v = x + 2y reduced modulo 8 twice through different ite chains; the two reductions are
    // equal, so their difference is unsat at once (both are v + 8·z).
    let text = "(set-logic QF_LIA)(declare-fun x () Int)(declare-fun y () Int)
        (assert (<= 0 x 7))(assert (<= 0 y 7))
        (define-fun v () Int (+ x (* 2 y)))
        (define-fun r1 () Int (ite (< v 8) v (ite (< v 16) (- v 8) (- v 16))))
        (define-fun r2 () Int (ite (>= v 16) (- v 16) (ite (>= v 8) (- v 8) v)))
        (assert (distinct r1 r2))(check-sat)";
    assert_eq!(solve(text).0, "unsat");
    let text = "(set-logic QF_LIA)(declare-fun x () Int)(declare-fun y () Int)
        (assert (<= 0 x 7))(assert (<= 0 y 7))
        (define-fun v () Int (+ x (* 2 y)))
        (define-fun r1 () Int (ite (< v 8) v (ite (< v 16) (- v 8) (- v 16))))
        (assert (= r1 5))(assert (> v 8))(check-sat)";
    assert_eq!(solve(text), ("sat".to_string(), Some(true), 0));
}

#[test]
fn rings_close_without_search() {
    let f = verikit_testkit::require_data!("smt/QF_LIA/rings/ring_2exp16_9vars_8ite_unsat.smt2");
    let text = std::fs::read_to_string(&f).expect("readable benchmark");
    assert_eq!(solve(&text).0, "unsat");
}
