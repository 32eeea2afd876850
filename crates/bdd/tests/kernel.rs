//! The kernel against `BoolExpr` evaluation (the oracle) on every valuation of small formulas.

use proptest::prelude::*;
use verikit_bdd::{
    from_expr, to_expr, to_text, BddDict, BddError, BddValuation, Limits, TextStyle,
};
use verikit_diag::Budget;
use verikit_logic::BoolExpr;

const N: u32 = 5;

fn expr() -> impl Strategy<Value = BoolExpr> {
    let leaf = prop_oneof![
        any::<bool>().prop_map(BoolExpr::Const),
        (0..N).prop_map(BoolExpr::Var),
    ];
    leaf.prop_recursive(4, 32, 4, |inner| {
        prop_oneof![
            inner.clone().prop_map(|e| BoolExpr::Not(Box::new(e))),
            prop::collection::vec(inner.clone(), 0..4).prop_map(BoolExpr::And),
            prop::collection::vec(inner.clone(), 0..4).prop_map(BoolExpr::Or),
            (inner.clone(), inner.clone())
                .prop_map(|(a, b)| BoolExpr::Xor(Box::new(a), Box::new(b))),
            (inner.clone(), inner.clone())
                .prop_map(|(a, b)| BoolExpr::Imp(Box::new(a), Box::new(b))),
            (inner.clone(), inner).prop_map(|(a, b)| BoolExpr::Iff(Box::new(a), Box::new(b))),
        ]
    })
}

fn dict(names: &[&str]) -> BddDict {
    BddDict::new(names.iter().copied())
}

fn convert(d: &BddDict, e: &BoolExpr) -> verikit_bdd::Bdd {
    from_expr(e, d.vars(), &|v| d.ap(v as usize), &Limits::unlimited()).unwrap()
}

fn valuation(bits: u64, n: usize) -> BddValuation {
    BddValuation::new((0..n).map(|i| (bits >> i) & 1 == 1).collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn conversion_agrees_with_evaluation(e in expr()) {
        let d = BddDict::anonymous(N as usize);
        let b = convert(&d, &e);
        for bits in 0..(1u64 << N) {
            prop_assert_eq!(b.eval_in(&valuation(bits, N as usize)), e.eval_bits(bits), "{:?} at {:b}", e, bits);
        }
    }

    #[test]
    fn printing_round_trips(e in expr()) {
        let d = BddDict::anonymous(N as usize);
        let b = convert(&d, &e);
        let back = to_expr(&b, &Limits::unlimited()).unwrap();
        for bits in 0..(1u64 << N) {
            prop_assert_eq!(back.eval_bits(bits), e.eval_bits(bits));
        }
        // The text parses back (with the infix parser of verikit-logic) to the same function.
        let text = to_text(&b, &|i| format!("v{i}"), TextStyle::SPOT, &Limits::unlimited()).unwrap();
        let parsed = verikit_logic::parse_infix(&text, 0, &mut |name, _| match name {
            "1" => Ok(BoolExpr::Const(true)),
            "0" => Ok(BoolExpr::Const(false)),
            _ => Ok(BoolExpr::Var(name[1..].parse().unwrap())),
        }).unwrap();
        for bits in 0..(1u64 << N) {
            prop_assert_eq!(parsed.eval_bits(bits), e.eval_bits(bits), "{}", text);
        }
    }

    /// Importing by name between dictionaries with the names in another order (a rebuild) or
    /// with other names interleaved (a relabelling) keeps the function.
    #[test]
    fn import_keeps_the_function(e in expr(), perm in Just((0..N as usize).collect::<Vec<usize>>()).prop_shuffle()) {
        let names: Vec<String> = (0..N).map(|i| format!("p{i}")).collect();
        let from = BddDict::new(names.clone());
        let b = convert(&from, &e);
        // Permuted, with two extra names in between.
        let mut to_names: Vec<String> = perm.iter().map(|&i| names[i].clone()).collect();
        to_names.insert(2, "extra0".into());
        to_names.push("extra1".into());
        let to = BddDict::new(to_names.clone());
        let c = to.import(&from, &b, &Limits::unlimited()).unwrap();
        prop_assert_eq!(c.num_vars() as usize, to.len());
        for bits in 0..(1u64 << N) {
            // The valuation of `to` giving each name its value under `bits`.
            let vals: Vec<bool> = to_names.iter().map(|n| {
                n.strip_prefix('p').and_then(|k| k.parse::<u32>().ok()).is_some_and(|k| (bits >> k) & 1 == 1)
            }).collect();
            prop_assert_eq!(c.eval_in(&BddValuation::new(vals)), e.eval_bits(bits));
        }
        // And back again.
        let d = from.import(&to, &c, &Limits::unlimited()).unwrap();
        prop_assert!(d.iff(&b).is_true());
    }
}

#[test]
fn extension_keeps_variables_and_lifts() {
    let a = dict(&["a", "b"]);
    let ab = a.extend(["c", "a"]).unwrap();
    assert_eq!(ab.names(), &["a", "b", "c"]);
    assert!(a.is_prefix_of(&ab));
    assert!(!ab.is_prefix_of(&a));
    assert_eq!(ab.var_of("c").map(|v| v.to_index()), Some(2));
    let x = a.ap(0).and(&a.ap(1).not());
    let y = ab.lift(&x);
    assert_eq!(y.num_vars(), 3);
    assert_eq!(y.size(), x.size(), "lifting keeps the nodes");
    // Combines with BDDs of the extension directly, no re-encoding.
    let z = y.and(&ab.ap(2));
    assert!(!z.is_false());
    assert!(ab
        .import(&a, &x, &Limits::unlimited())
        .unwrap()
        .iff(&y)
        .is_true());
    // Same dictionary: nothing new.
    assert!(a.extend(["b"]).unwrap().same(&a));
    let j = dict(&["b", "d"]).join(&a).unwrap();
    assert_eq!(j.names(), &["b", "d", "a"]);
}

#[test]
fn order_preserving_import_relabels() {
    // `b` and `d` keep their relative order in the target: the nodes are reused.
    let from = dict(&["b", "d"]);
    let to = dict(&["a", "b", "c", "d"]);
    let x = from.ap(0).xor(&from.ap(1));
    let y = to.import(&from, &x, &Limits::unlimited()).unwrap();
    assert_eq!(y.size(), x.size());
    assert!(y.iff(&to.ap(1).xor(&to.ap(3))).is_true());
    // The reverse order needs a rebuild, with the same function.
    let rev = dict(&["d", "b"]);
    let z = rev
        .import(
            &from,
            &from.ap(0).and(&from.ap(1).not()),
            &Limits::unlimited(),
        )
        .unwrap();
    assert!(z.iff(&rev.ap(1).and(&rev.ap(0).not())).is_true());
}

#[test]
fn import_quantifies_missing_propositions() {
    let from = dict(&["a", "b"]);
    let to = dict(&["b"]);
    let x = from.ap(0).and(&from.ap(1));
    let y = to.import(&from, &x, &Limits::unlimited()).unwrap();
    assert!(y.iff(&to.ap(0)).is_true());
    let only_a = to.import(&from, &from.ap(0), &Limits::unlimited()).unwrap();
    assert!(only_a.is_true());
}

#[test]
fn out_of_range_literals_are_false_and_text_constants() {
    let d = BddDict::anonymous(2);
    assert!(d.ap(7).is_false());
    let l = Limits::unlimited();
    assert_eq!(
        to_text(&d.tt(), &|i| i.to_string(), TextStyle::HOA, &l).unwrap(),
        "t"
    );
    assert_eq!(
        to_text(&d.ff(), &|i| i.to_string(), TextStyle::SPOT, &l).unwrap(),
        "0"
    );
    let x = d.ap(0).and(&d.ap(1).not());
    assert_eq!(
        to_text(&x, &|i| i.to_string(), TextStyle::HOA, &l).unwrap(),
        "0&!1"
    );
    assert_eq!(to_expr(&d.ff(), &l).unwrap(), BoolExpr::Const(false));
    assert_eq!(to_expr(&d.tt(), &l).unwrap(), BoolExpr::Const(true));
}

/// A formula whose BDD is large under the given order: `(x0 ⇔ y0) ∧ … ∧ (x_{k-1} ⇔ y_{k-1})` with
/// all x before all y needs 2^k nodes.
fn wide(k: u32) -> BoolExpr {
    BoolExpr::And(
        (0..k)
            .map(|i| BoolExpr::Iff(Box::new(BoolExpr::Var(i)), Box::new(BoolExpr::Var(i + k))))
            .collect(),
    )
}

#[test]
fn node_limit_stops_growth() {
    let d = BddDict::anonymous(24);
    let e = wide(12);
    let l = Limits::new(Some(1000), Budget::unlimited());
    match from_expr(&e, d.vars(), &|v| d.ap(v as usize), &l) {
        Err(BddError::NodeLimit { limit, .. }) => assert_eq!(limit, 1000),
        other => panic!("expected a node-limit error, got {other:?}"),
    }
    // Without the limit it is built (and is large).
    let b = from_expr(&e, d.vars(), &|v| d.ap(v as usize), &Limits::unlimited()).unwrap();
    assert!(b.size() > 1000);
    // A rebuild on import honours the limit too: reversing the order of a small-under-order BDD.
    let names: Vec<String> = (0..24).map(|i| format!("v{i}")).collect();
    let from = BddDict::new(names.clone());
    let interleaved = BoolExpr::And(
        (0..12)
            .map(|i| {
                BoolExpr::Iff(
                    Box::new(BoolExpr::Var(2 * i)),
                    Box::new(BoolExpr::Var(2 * i + 1)),
                )
            })
            .collect(),
    );
    let small = from_expr(
        &interleaved,
        from.vars(),
        &|v| from.ap(v as usize),
        &Limits::unlimited(),
    )
    .unwrap();
    assert!(small.size() < 100);
    // Target order: even names first, then odd names: the same function needs 2^12 nodes.
    let to_names: Vec<String> = (0..12)
        .map(|i| format!("v{}", 2 * i))
        .chain((0..12).map(|i| format!("v{}", 2 * i + 1)))
        .collect();
    let to = BddDict::new(to_names);
    let got = to.import(&from, &small, &Limits::new(Some(500), Budget::unlimited()));
    assert!(matches!(got, Err(BddError::NodeLimit { .. })), "{got:?}");
}

#[test]
fn cancelled_budget_stops_conversion() {
    let d = BddDict::anonymous(8);
    let budget = Budget::unlimited();
    budget.cancel();
    let l = Limits::new(None, budget);
    let got = from_expr(&wide(4), d.vars(), &|v| d.ap(v as usize), &l);
    assert!(matches!(
        got,
        Err(BddError::Exhausted(verikit_diag::Exhausted::Cancelled))
    ));
}

#[test]
fn too_many_names_is_an_error() {
    let names = (0..verikit_bdd::MAX_VARS + 1).map(|i| i.to_string());
    assert!(matches!(
        BddDict::try_new(names),
        Err(BddError::TooManyVariables(_))
    ));
}
