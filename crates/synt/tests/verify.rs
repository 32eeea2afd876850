//! Independent checks of the engine's witnesses and verdicts.
//!
//! * The AIGER text of every answer is parsed here, simulated from its initial latch state on
//!   every input valuation, and its reachable behaviour (a ω-automaton accepting every play of the
//!   circuit) is intersected with omega's automaton of the forbidden behaviours (`¬φ` for a
//!   controller, `φ` for a counter-strategy) by omega's `product` and `is_empty` — code shared with
//!   neither the games nor the engine's own model check.
//! * Property test against a brute-force oracle: for random formulas over one input and one output,
//!   every Mealy machine with at most two states is tried for each side; a verdict contradicted by
//!   such a machine of the other side fails the test.

use proptest::prelude::*;
use std::collections::{BTreeMap, VecDeque};
use verikit_diag::{Budget, Params};
use verikit_omega::{Arena, Twa};
use verikit_synt::{solve_problem, Problem, Semantics};

/// A formula, its inputs, its outputs, the semantics and whether it is realizable.
type Case = (
    &'static str,
    &'static [&'static str],
    &'static [&'static str],
    Semantics,
    bool,
);

struct Circuit {
    inputs: Vec<String>,
    latches: Vec<u32>,
    outputs: Vec<(String, u32)>,
    ands: Vec<(u32, u32, u32)>,
}

fn parse_aag(text: &str) -> Circuit {
    let mut lines = text.lines();
    let h: Vec<usize> = lines
        .next()
        .unwrap()
        .split_whitespace()
        .skip(1)
        .map(|x| x.parse().unwrap())
        .collect();
    let (i, l, o, a) = (h[1], h[2], h[3], h[4]);
    let mut ins = Vec::new();
    for _ in 0..i {
        ins.push(lines.next().unwrap().trim().parse::<u32>().unwrap());
    }
    let nums = |line: Option<&str>| -> Vec<u32> {
        line.unwrap()
            .split_whitespace()
            .map(|x| x.parse().unwrap())
            .collect()
    };
    let mut latches = Vec::new();
    for _ in 0..l {
        latches.push(nums(lines.next())[1]);
    }
    let mut outs = Vec::new();
    for _ in 0..o {
        outs.push(lines.next().unwrap().trim().parse::<u32>().unwrap());
    }
    let mut ands = Vec::new();
    for _ in 0..a {
        let v = nums(lines.next());
        ands.push((v[0], v[1], v[2]));
    }
    let mut in_names = vec![String::new(); i];
    let mut out_names = vec![String::new(); o];
    for line in lines {
        let (k, name) = line.split_once(' ').unwrap();
        let idx: usize = k[1..].parse().unwrap();
        match &k[..1] {
            "i" => in_names[idx] = name.to_string(),
            "o" => out_names[idx] = name.to_string(),
            _ => {}
        }
    }
    Circuit {
        inputs: in_names,
        latches,
        outputs: out_names.into_iter().zip(outs).collect(),
        ands,
    }
}

impl Circuit {
    fn step(&self, ins: &[bool], state: &[bool]) -> (Vec<bool>, Vec<bool>) {
        let mut val: BTreeMap<u32, bool> = BTreeMap::new();
        val.insert(0, false);
        for (k, &x) in ins.iter().enumerate() {
            val.insert(k as u32 + 1, x);
        }
        for (k, &x) in state.iter().enumerate() {
            val.insert((ins.len() + k) as u32 + 1, x);
        }
        let get = |val: &BTreeMap<u32, bool>, l: u32| val[&(l / 2)] ^ (l & 1 == 1);
        for &(lhs, a, b) in &self.ands {
            let v = get(&val, a) && get(&val, b);
            val.insert(lhs / 2, v);
        }
        (
            self.outputs.iter().map(|(_, l)| get(&val, *l)).collect(),
            self.latches.iter().map(|&l| get(&val, l)).collect(),
        )
    }

    /// The plays of the circuit as an automaton (every run accepting) over `aps`.
    fn plays(&self, aps: &[String]) -> Twa {
        let mut t = Twa::new(aps.to_vec());
        let mut index: BTreeMap<Vec<bool>, u32> = BTreeMap::new();
        let s0 = vec![false; self.latches.len()];
        index.insert(s0.clone(), t.add_state());
        t.init = vec![0];
        let mut todo = VecDeque::from([s0]);
        while let Some(s) = todo.pop_front() {
            let src = index[&s];
            for x in 0..(1usize << self.inputs.len()) {
                let ins: Vec<bool> = (0..self.inputs.len()).map(|k| x >> k & 1 == 1).collect();
                let (outs, next) = self.step(&ins, &s);
                let dst = match index.get(&next) {
                    Some(&d) => d,
                    None => {
                        let d = t.add_state();
                        index.insert(next.clone(), d);
                        todo.push_back(next);
                        d
                    }
                };
                let mut label = t.tt();
                for (k, ap) in aps.iter().enumerate() {
                    let v = if let Some(p) = self.inputs.iter().position(|n| n == ap) {
                        ins[p]
                    } else if let Some(p) = self.outputs.iter().position(|(n, _)| n == ap) {
                        outs[p]
                    } else {
                        panic!("{ap} is not a signal of the circuit")
                    };
                    let lit = if v { t.ap_var(k) } else { t.ap_var(k).not() };
                    label = label.and(&lit);
                }
                t.add_edge(src, dst, label, 0);
            }
        }
        t
    }

    /// With Moore semantics the outputs must not depend on the current inputs.
    fn is_moore(&self) -> bool {
        let n = self.latches.len();
        (0..(1usize << n.min(10))).all(|s| {
            let st: Vec<bool> = (0..n).map(|k| s >> k & 1 == 1).collect();
            let first = self.step(&vec![false; self.inputs.len()], &st).0;
            (0..(1usize << self.inputs.len())).all(|x| {
                let ins: Vec<bool> = (0..self.inputs.len()).map(|k| x >> k & 1 == 1).collect();
                self.step(&ins, &st).0 == first
            })
        })
    }
}

/// Every play of the circuit avoids the language of `bad` (a formula).
fn circuit_avoids(c: &Circuit, bad: &str) -> bool {
    let mut arena = Arena::new();
    let f = verikit_omega::task::parse_formula(bad, 0, &mut arena).unwrap();
    let aut = verikit_omega::translate(&mut arena, f, &Default::default()).unwrap();
    let aps: Vec<String> = c
        .inputs
        .iter()
        .cloned()
        .chain(c.outputs.iter().map(|(n, _)| n.clone()))
        .collect();
    let plays = c.plays(&aps);
    let p = verikit_omega::product(&plays, &aut).unwrap();
    verikit_omega::is_empty(&p)
}

/// Solves and checks the witness independently; returns the verdict.
fn solve_checked(formula: &str, ins: &[&str], outs: &[&str], sem: Semantics) -> Option<bool> {
    solve_checked_with(formula, ins, outs, sem, &Params::default())
}

/// [`solve_checked`] with tuning parameters.
fn solve_checked_with(
    formula: &str,
    ins: &[&str],
    outs: &[&str],
    sem: Semantics,
    params: &Params,
) -> Option<bool> {
    let p = Problem {
        formula: formula.into(),
        inputs: ins.iter().map(|s| s.to_string()).collect(),
        outputs: outs.iter().map(|s| s.to_string()).collect(),
        semantics: sem,
    };
    let s = solve_problem(&p, params, &Budget::unlimited()).unwrap();
    let r = s.realizable?;
    let c = s.circuit.expect("a decided answer has a circuit");
    let c = parse_aag(&c.to_aag());
    if r {
        assert_eq!(c.inputs, p.inputs, "{formula}");
        assert!(
            circuit_avoids(&c, &format!("!({formula})")),
            "controller fails {formula}"
        );
        if sem == Semantics::Moore {
            assert!(
                c.is_moore(),
                "{formula}: Moore controller reads the current input"
            );
        }
    } else {
        // The environment's strategy reads the system's outputs and answers inputs.
        assert_eq!(c.inputs, p.outputs, "{formula}");
        assert!(
            circuit_avoids(&c, formula),
            "counter-strategy fails {formula}"
        );
        if sem == Semantics::Mealy {
            assert!(
                c.is_moore(),
                "{formula}: the environment of a Mealy game moves first"
            );
        }
    }
    Some(r)
}

#[test]
fn known_specifications() {
    use Semantics::*;
    let cases: &[Case] = &[
        (
            "G(r1 -> F g1) & G(r2 -> F g2) & G!(g1 & g2)",
            &["r1", "r2"],
            &["g1", "g2"],
            Mealy,
            true,
        ),
        ("G(r <-> g)", &["r"], &["g"], Mealy, true),
        ("G(r <-> g)", &["r"], &["g"], Moore, false),
        ("G(r <-> X g)", &["r"], &["g"], Moore, true),
        ("G(g <-> X r)", &["r"], &["g"], Mealy, false),
        ("GF r -> GF g", &["r"], &["g"], Mealy, true),
        ("GF g -> GF r", &["r"], &["g"], Mealy, true),
        // The environment keeps r up: g may never rise.
        ("GF r -> GF g & G(g -> !r)", &["r"], &["g"], Mealy, false),
        // Strong until: the environment never repeats r.
        ("G(r -> X(!g U r))", &["r"], &["g"], Mealy, false),
        ("F G r", &["r"], &["g"], Mealy, false),
        (
            "(G F r) -> G(g -> X(!g U r)) & GF g",
            &["r"],
            &["g"],
            Mealy,
            true,
        ),
        ("true", &["r"], &["g"], Mealy, true),
        ("false", &["r"], &["g"], Mealy, false),
        // One conjunct alone is unrealizable (C06 §5: the environment's game on a component).
        (
            "G(r1 -> F g1) & G(g2 <-> X r2)",
            &["r1", "r2"],
            &["g1", "g2"],
            Mealy,
            false,
        ),
        // Only the conjunction is unrealizable.
        ("G(r -> g) & G(r -> !g)", &["r"], &["g"], Mealy, false),
        // Assumptions distributed over the guarantees; realizable, and unrealizable when `h`
        // must predict `g`, which may only follow `r`.
        (
            "GF r -> (GF g & G(g -> r) & G(h <-> g))",
            &["r"],
            &["g", "h"],
            Mealy,
            true,
        ),
        (
            "GF r -> (GF g & G(g -> r) & G(h <-> X g))",
            &["r"],
            &["g", "h"],
            Mealy,
            false,
        ),
    ];
    let whole = Params::parse(&["synt.compositional=0"]).unwrap();
    let bounded = Params::parse(&["synt.engine=bounded"]).unwrap();
    let parity = Params::parse(&["synt.engine=parity"]).unwrap();
    for &(f, i, o, sem, want) in cases {
        assert_eq!(solve_checked(f, i, o, sem), Some(want), "{f} ({sem:?})");
        assert_eq!(
            solve_checked_with(f, i, o, sem, &whole),
            Some(want),
            "{f} ({sem:?}, whole)"
        );
        assert_eq!(
            solve_checked_with(f, i, o, sem, &bounded),
            Some(want),
            "{f} ({sem:?}, bounded)"
        );
        assert_eq!(
            solve_checked_with(f, i, o, sem, &parity),
            Some(want),
            "{f} ({sem:?}, parity)"
        );
    }
}

/// Specifications split into parts over disjoint outputs (`synt.decompose`, with the polarity
/// simplification off so that the parts are not trivial): composed controllers and a part's
/// counter-strategy are checked against the whole formula; an unrealizable part that dropped an
/// assumption conjunct (about another part's output) does not decide, the whole does.
#[test]
fn decomposed_specifications() {
    use Semantics::*;
    let cases: &[(Case, usize)] = &[
        (
            (
                "G(r0 <-> X g0) & G(r1 <-> X g1)",
                &["r0", "r1"],
                &["g0", "g1"],
                Mealy,
                true,
            ),
            2,
        ),
        (
            (
                "G(r0 <-> X g0) & G(g1 <-> X r1)",
                &["r0", "r1"],
                &["g0", "g1"],
                Mealy,
                false,
            ),
            2,
        ),
        (
            (
                "GF r -> (G(g0 <-> X g0) & GF g1 & G(g1 -> r))",
                &["r"],
                &["g0", "g1"],
                Mealy,
                true,
            ),
            2,
        ),
        (
            (
                "GF r -> (G(g0 <-> X g0) & GF g1 & G(g1 -> r))",
                &["r"],
                &["g0", "g1"],
                Moore,
                false,
            ),
            2,
        ),
        // Alone, the g1 part (without the assumption about g0) is unrealizable; the whole is
        // realizable: g0 always up, g1 copying r.
        (
            (
                "G(g0 -> F r) -> (G g0 & GF(r & g1) & G(g1 <-> r))",
                &["r"],
                &["g0", "g1"],
                Mealy,
                true,
            ),
            1,
        ),
    ];
    let split = Params::parse(&["synt.polarity=0"]).unwrap();
    let whole = Params::parse(&["synt.polarity=0", "synt.decompose=0"]).unwrap();
    for &((f, i, o, sem, want), parts) in cases {
        assert_eq!(
            solve_checked_with(f, i, o, sem, &split),
            Some(want),
            "{f} ({sem:?}, parts)"
        );
        assert_eq!(
            solve_checked_with(f, i, o, sem, &whole),
            Some(want),
            "{f} ({sem:?}, whole)"
        );
        let p = Problem {
            formula: f.into(),
            inputs: i.iter().map(|s| s.to_string()).collect(),
            outputs: o.iter().map(|s| s.to_string()).collect(),
            semantics: sem,
        };
        let s = solve_problem(&p, &split, &Budget::unlimited()).unwrap();
        assert_eq!(s.parts, parts, "{f}");
    }
}

/// Propositions fixed by polarity (`synt.polarity`): the circuits wire them as constants and are
/// checked against the original formula.
#[test]
fn polarity_fixed_specifications() {
    use Semantics::*;
    let cases: &[Case] = &[
        // i fixed true (its only occurrence is negative), a fixed true.
        (
            "(GF i -> GF g) & G(g <-> X !g) & G(i2 -> a)",
            &["i", "i2"],
            &["g", "a"],
            Mealy,
            true,
        ),
        // The environment's worst: r fixed false makes F r impossible.
        ("F r & G(g <-> X g)", &["r"], &["g"], Mealy, false),
        ("G(r -> X g) & G(g -> r)", &["r"], &["g"], Moore, false),
    ];
    let off = Params::parse(&["synt.polarity=0"]).unwrap();
    for &(f, i, o, sem, want) in cases {
        assert_eq!(solve_checked(f, i, o, sem), Some(want), "{f} ({sem:?})");
        assert_eq!(
            solve_checked_with(f, i, o, sem, &off),
            Some(want),
            "{f} ({sem:?}, off)"
        );
    }
}

/// More propositions than letters could be enumerated for (the games work on BDD classes):
/// twelve requests and twelve grants, a grant one step after all requests (realizable), or all
/// requests one step after a grant (unrealizable); both answers' circuits checked
/// independently.
#[test]
fn many_propositions() {
    let n = 12;
    let ins: Vec<String> = (0..n).map(|i| format!("r{i}")).collect();
    let outs: Vec<String> = (0..n).map(|i| format!("g{i}")).collect();
    let all_r = ins.join(" & ");
    let any_g = outs.join(" | ");
    let ins: Vec<&str> = ins.iter().map(String::as_str).collect();
    let outs: Vec<&str> = outs.iter().map(String::as_str).collect();
    let good = format!("G(({all_r}) <-> X({any_g}))");
    assert_eq!(
        solve_checked(&good, &ins, &outs, Semantics::Mealy),
        Some(true)
    );
    let bad = format!("G(({any_g}) <-> X({all_r}))");
    assert_eq!(
        solve_checked(&bad, &ins, &outs, Semantics::Mealy),
        Some(false)
    );
}

/// Every Mealy machine with at most two states, for the side answering `x` with `y`: does one
/// of them keep every play inside `good`? (Brute force: 2-state machines over one bit each way.)
fn small_machine_wins(good: &str, x: &str, y: &str, first_moves: bool) -> bool {
    let mut arena = Arena::new();
    let f = verikit_omega::task::parse_formula(&format!("!({good})"), 0, &mut arena).unwrap();
    let bad = verikit_omega::translate(&mut arena, f, &Default::default()).unwrap();
    let aps = vec![x.to_string(), y.to_string()];
    // A machine: per state s and read bit b: (answer, next). With `first_moves` the answer
    // depends on the state only.
    for code in 0u32..(1 << 8) {
        let (states, bits) = (2usize, |k: u32| code >> k & 1 == 1);
        let mut t = Twa::new(aps.clone());
        for _ in 0..states {
            t.add_state();
        }
        t.init = vec![0];
        for s in 0..states {
            for b in 0..2u32 {
                let k = (s as u32) * 4 + b * 2;
                let ans = if first_moves {
                    bits(s as u32 * 4)
                } else {
                    bits(k)
                };
                let next = bits(k + 1) as u32;
                let lx = if b == 1 {
                    t.ap_var(0)
                } else {
                    t.ap_var(0).not()
                };
                let ly = if ans { t.ap_var(1) } else { t.ap_var(1).not() };
                t.add_edge(s as u32, next, lx.and(&ly), 0);
            }
        }
        let p = verikit_omega::product(&t, &bad).unwrap();
        if verikit_omega::is_empty(&p) {
            return true;
        }
    }
    false
}

fn formula() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![Just("r".to_string()), Just("g".to_string())];
    leaf.prop_recursive(3, 12, 2, |inner| {
        prop_oneof![
            inner.clone().prop_map(|a| format!("!{a}")),
            inner.clone().prop_map(|a| format!("X{a}")),
            inner.clone().prop_map(|a| format!("F{a}")),
            inner.clone().prop_map(|a| format!("G{a}")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a} & {b})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a} | {b})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a} U {b})")),
            (inner.clone(), inner).prop_map(|(a, b)| format!("({a} <-> {b})")),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]
    #[test]
    fn verdicts_never_contradicted_by_small_strategies(f in formula(), moore in any::<bool>()) {
        let sem = if moore { Semantics::Moore } else { Semantics::Mealy };
        // The deterministic route decides every formula of this size; its witnesses are
        // checked independently inside `solve_checked_with`, and the bounded route may not
        // contradict it.
        let parity = Params::parse(&["synt.engine=parity"]).unwrap();
        let rp = solve_checked_with(&f, &["r"], &["g"], sem, &parity);
        prop_assert!(rp.is_some(), "{f}: the parity route gave no answer");
        let bounded = Params::parse(&["synt.engine=bounded"]).unwrap();
        if let Some(rb) = solve_checked_with(&f, &["r"], &["g"], sem, &bounded) {
            prop_assert_eq!(Some(rb), rp, "{}", f);
        }
        let Some(r) = rp else { return Ok(()); };
        if r {
            // No small environment strategy may force ¬φ.
            prop_assert!(!small_machine_wins(&format!("!({f})"), "g", "r", !moore), "{f}");
        } else {
            // No small controller may ensure φ.
            prop_assert!(!small_machine_wins(&f, "r", "g", moore), "{f}");
        }
    }
}
