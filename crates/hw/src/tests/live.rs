//! Liveness: hand-made circuits with known answers, and the lasso search (C12 §3) against an
//! exhaustive enumeration of lassos (completeness up to the bound: the encoding finds minimal
//! counterexamples) and against the liveness-to-safety proof on random small circuits.

use crate::ic3::Ic3Options;
use crate::live_task::{check_live, ltl_lasso_violates, LiveEngine, LiveSettings, Liveness};
use crate::ltl_formula::{justice_violation, parse_ltl};
use crate::vwaba::vwaba;
use crate::waba_bmc::{waba_bmc, LassoOutcome};
use proptest::prelude::*;
use std::collections::HashSet;
use verikit_aiger::{replay_lasso, Aig, Reset, Sim, Ternary};
use verikit_diag::{Budget, Verdict};
use verikit_omega::{holds, Lasso as Word};

fn settings(engine: LiveEngine) -> LiveSettings {
    LiveSettings {
        engine,
        max_bound: Some(12),
        ic3: Ic3Options {
            drop_tries: 100,
            requeue: true,
            ctg_max: 3,
            ctg_depth: 1,
            rebuild: 1000,
            cone: true,
            cone_switch: 0,
            activity: false,
            lift: crate::ic3::Lift::Sat,
            subsume: true,
            join_max: 0,
            decide_sources: false,
        },
        simple_path: true,
        reduce: true,
    }
}

/// The verdict on the circuit reduced for the property (justice), which must agree with the one
/// on the whole circuit; a lasso is replayed on the original circuit.
fn verdict(aig: &Aig, what: &Liveness, engine: LiveEngine) -> (Verdict, serde_json::Value) {
    let whole = LiveSettings {
        reduce: false,
        ..settings(engine)
    };
    let (b, _, _) = check_live(aig, what, &whole, &Budget::unlimited()).unwrap();
    let (a, w, _) = check_live(aig, what, &settings(engine), &Budget::unlimited()).unwrap();
    assert_eq!(
        a.verdict,
        b.verdict,
        "{what:?} {engine:?}: {} vs {}",
        a.to_json(),
        b.to_json()
    );
    let j = a.to_json();
    let v = a.verdict.unwrap();
    if v == Verdict::False {
        let w = w.unwrap();
        match what {
            Liveness::Justice(k) => {
                let (_, fair) = justice_violation(aig, *k).unwrap();
                replay_lasso(aig, &w, &fair).unwrap();
            }
            Liveness::Ltl(f) => {
                let p = parse_ltl(aig, f).unwrap();
                ltl_lasso_violates(aig, &p, &w).unwrap();
            }
        }
    }
    (v, j)
}

/// A latch toggling every step (reset 0), a latch stuck at 0, a sticky latch set by input 0.
fn toy() -> Aig {
    let mut a = Aig::new();
    let i = a.add_input();
    let t = a.add_latch(0, Reset::Zero);
    a.set_next(0, t ^ 1);
    let z = a.add_latch(0, Reset::Zero);
    a.set_next(1, z);
    let s = a.add_latch(0, Reset::Zero);
    let n = a.or(s, i);
    a.set_next(2, n);
    a.justice.push(vec![t]); // 0: violated (t is 1 infinitely often)
    a.justice.push(vec![z]); // 1: holds (z never 1)
    a.justice.push(vec![t, t ^ 1]); // 2: violated
    a.justice.push(vec![s, z]); // 3: holds
    a.justice.push(vec![s]); // 4: violated (set s once)
    a
}

#[test]
fn justice_on_hand_made_circuits() {
    let a = toy();
    for (j, expect) in [
        (0, Verdict::False),
        (1, Verdict::True),
        (2, Verdict::False),
        (3, Verdict::True),
        (4, Verdict::False),
    ] {
        for e in [
            LiveEngine::Ic3,
            LiveEngine::Kind,
            LiveEngine::Portfolio {
                share: 50,
                depth: 10,
            },
        ] {
            let (v, _) = verdict(&a, &Liveness::Justice(j), e);
            assert_eq!(v, expect, "justice {j} with {e:?}");
        }
        let (v, _) = verdict(&a, &Liveness::Justice(j), LiveEngine::Bmc);
        let bmc_expect = if expect == Verdict::False {
            Verdict::False
        } else {
            Verdict::Unknown
        };
        assert_eq!(v, bmc_expect, "justice {j} with BMC");
    }
}

/// Justice {t} of a toggling latch `t`, next to a `bits`-bit counter outside the property's cone:
/// the lasso of the reduced circuit (loop of 2 frames) is lifted by repeating its loop until the
/// counter comes back too (`2^bits` frames), or, beyond the repetitions tried, the whole circuit
/// is searched. A lifted lasso replays on the original circuit.
#[test]
fn lassos_of_the_reduced_circuit_loop_on_the_whole_circuit() {
    for bits in [2usize, 3, 7, 8] {
        let mut a = Aig::new();
        let t = a.add_latch(0, Reset::Zero);
        a.set_next(0, t ^ 1);
        let cs: Vec<u32> = (0..bits).map(|_| a.add_latch(0, Reset::Zero)).collect();
        let mut carry = 1;
        for (k, &c) in cs.iter().enumerate() {
            let x = a.and(c, carry ^ 1);
            let y = a.and(c ^ 1, carry);
            let s = a.or(x, y);
            a.set_next(k + 1, s);
            carry = a.and(c, carry);
        }
        a.justice.push(vec![t]);
        let set = LiveSettings {
            max_bound: Some(16),
            ..settings(LiveEngine::Bmc)
        };
        let (r, w, stats) =
            check_live(&a, &Liveness::Justice(0), &set, &Budget::unlimited()).unwrap();
        if bits <= 7 {
            // up to 64 repetitions of the 2-frame loop
            assert!(
                stats.contains(&("reduced_latches".into(), "1".into())),
                "{stats:?}"
            );
            assert_eq!(r.verdict, Some(Verdict::False), "{}", r.to_json());
            let w = w.unwrap();
            assert_eq!(w.inputs.len() % (1 << bits), 0, "{}", r.to_json());
            replay_lasso(&a, &w, &[]).unwrap();
        } else {
            // 128 repetitions are more than the lifting tries: the whole circuit is searched,
            // and has no lasso within the bound of 16 frames
            assert_eq!(r.verdict, Some(Verdict::Unknown), "{}", r.to_json());
        }
    }
}

#[test]
fn fairness_restricts_the_runs() {
    // latch l follows input i; justice {l}, fairness {¬l}: the lasso must alternate
    let mut a = Aig::new();
    let i = a.add_input();
    let l = a.add_latch(i, Reset::Zero);
    a.justice.push(vec![l]);
    a.fairness.push(l ^ 1);
    let (v, j) = verdict(&a, &Liveness::Justice(0), LiveEngine::Bmc);
    assert_eq!(v, Verdict::False);
    assert!(j["length"].as_u64().unwrap() >= 2, "{j}");
    // fairness {0}: no fair run at all, the property holds
    a.fairness = vec![0];
    assert_eq!(
        verdict(&a, &Liveness::Justice(0), LiveEngine::Ic3).0,
        Verdict::True
    );
}

#[test]
fn ltl_on_hand_made_circuits() {
    let a = toy();
    for (f, expect) in [
        ("G F l0", None),
        ("F G l0", Some(())),
        ("G F !l0", None),
        ("G !l1", None),
        ("F l2", Some(())),
        ("G F i0", Some(())),
        ("G (l0 -> X !l0)", None),
        ("l0 U l2", Some(())),
        ("G (i0 -> X l2)", None),
        ("X X X l0", None),
        ("X X l0", Some(())),
    ] {
        let (v, _) = verdict(&a, &Liveness::Ltl(f.into()), LiveEngine::Bmc);
        match expect {
            Some(()) => assert_eq!(v, Verdict::False, "{f}"),
            None => assert_eq!(v, Verdict::Unknown, "{f}: no lasso up to the bound"),
        }
        // the monitor product + liveness-to-safety decides both ways
        for e in [
            LiveEngine::Ic3,
            LiveEngine::Portfolio {
                share: 30,
                depth: 5,
            },
        ] {
            let (v, j) = verdict(&a, &Liveness::Ltl(f.into()), e);
            let want = if expect.is_some() {
                Verdict::False
            } else {
                Verdict::True
            };
            assert_eq!(v, want, "{f} with {e:?}: {j}");
        }
    }
}

#[test]
fn bad_formulas_are_errors() {
    let a = toy();
    for f in ["G F nosuch", "G (", "l9"] {
        assert!(
            check_live(
                &a,
                &Liveness::Ltl(f.into()),
                &settings(LiveEngine::Bmc),
                &Budget::unlimited()
            )
            .is_err(),
            "{f}"
        );
    }
    assert!(check_live(
        &a,
        &Liveness::Justice(9),
        &settings(LiveEngine::Bmc),
        &Budget::unlimited()
    )
    .is_err());
}

fn build(ni: usize, nl: usize, gates: &[(u16, u16)], nexts: &[u16]) -> (Aig, Vec<u32>) {
    let mut a = Aig::new();
    let mut sig = vec![0u32, 1];
    for _ in 0..ni {
        sig.push(a.add_input());
    }
    for k in 0..nl {
        sig.push(a.add_latch(0, if k == 2 { Reset::Uninit } else { Reset::Zero }));
    }
    for &(x, y) in gates {
        let p = sig[x as usize % sig.len()] ^ u32::from(x >> 15);
        let q = sig[y as usize % sig.len()] ^ u32::from(y & 1);
        let g = a.and(p, q);
        sig.push(g);
    }
    for k in 0..nl {
        let n = nexts[k % nexts.len()];
        a.set_next(k, sig[n as usize % sig.len()] ^ u32::from(n >> 15));
    }
    (a, sig)
}

/// Every lasso with `len` frames (all initial states, all input sequences): the letters of
/// `lits` per frame and each loop start whose state equals the state after the last frame.
fn lassos(a: &Aig, lits: &[u32], len: usize) -> Vec<(Vec<u64>, usize)> {
    let nl = a.latches.len();
    let ni = a.inputs.len();
    let mut out = Vec::new();
    for s0 in 0u32..(1 << nl) {
        let ok = a.latches.iter().enumerate().all(|(j, l)| match l.reset {
            Reset::Zero => s0 >> j & 1 == 0,
            Reset::One => s0 >> j & 1 == 1,
            Reset::Uninit => true,
        });
        if !ok {
            continue;
        }
        for ins in 0u64..(1 << (ni * len)) {
            let mut sim = Sim::new(a);
            let init: Vec<Ternary> = (0..nl)
                .map(|j| Ternary::from_bool(s0 >> j & 1 == 1))
                .collect();
            sim.set_latches(&init);
            let mut states = Vec::new();
            let mut letters = Vec::new();
            for f in 0..len {
                states.push(sim.latches());
                let iv: Vec<Ternary> = (0..ni)
                    .map(|k| Ternary::from_bool(ins >> (f * ni + k) & 1 == 1))
                    .collect();
                sim.eval(&iv);
                let mut w = 0u64;
                for (k, &l) in lits.iter().enumerate() {
                    if sim.lit(l).lane(0) == Some(true) {
                        w |= 1 << k;
                    }
                }
                letters.push(w);
                sim.step();
            }
            let last = sim.latches();
            for (l, s) in states.iter().enumerate() {
                if *s == last {
                    out.push((letters.clone(), l));
                }
            }
        }
    }
    out
}

const FORMULAS: &[&str] = &[
    "G F p",
    "F G p",
    "G (p -> F q)",
    "p U q",
    "G F p & G F q",
    "F (p & X q)",
    "G (p | X G q)",
    "(p R q) | F G !p",
    "X (q W p)",
    "p M F q",
    "G (p <-> X q)",
    "F G (p xor q)",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    /// Lasso BMC for LTL on random circuits: a counterexample of `n` frames exists (by
    /// exhaustive enumeration) iff BMC bounded by `n − 1` finds one, and every lasso BMC reports
    /// violates the formula by the independent evaluator.
    #[test]
    fn ltl_lasso_bmc_matches_enumeration(
        nl in 1usize..=3,
        gates in prop::collection::vec((any::<u16>(), any::<u16>()), 1..6),
        nexts in prop::collection::vec(any::<u16>(), 1..4),
        p in any::<u16>(), q in any::<u16>(),
        fi in 0usize..FORMULAS.len(),
    ) {
        let (mut a, sig) = build(1, nl, &gates, &nexts);
        let pl = sig[p as usize % sig.len()] ^ u32::from(p >> 15);
        let ql = sig[q as usize % sig.len()] ^ u32::from(q >> 15);
        a.symbols.push(('o', 0, "p".into()));
        a.symbols.push(('o', 1, "q".into()));
        a.outputs = vec![pl, ql];
        let prop = parse_ltl(&a, FORMULAS[fi]).unwrap();
        let aut = vwaba(&prop.negated);
        let mut exists = false;
        for n in 1..=3usize {
            exists |= lassos(&a, &prop.ap_lits, n).into_iter().any(|(letters, l)| {
                let w = Word { prefix: letters[..l].to_vec(), cycle: letters[l..].to_vec() };
                !holds(&prop.arena, prop.formula, &w)
            });
            let found = match waba_bmc(&a, &aut, ('j', 0), Some(n - 1), &Budget::unlimited()) {
                LassoOutcome::Found(l) => {
                    prop_assert!(l.witness.inputs.len() <= n);
                    prop_assert!(ltl_lasso_violates(&a, &prop, &l.witness).is_ok());
                    true
                }
                LassoOutcome::None(_) => false,
            };
            prop_assert_eq!(exists, found, "{} frames, formula {}", n, FORMULAS[fi]);
        }
    }

    /// Justice on random circuits: the lasso search and the liveness-to-safety proof agree
    /// with the explicit fair-cycle oracle.
    #[test]
    fn justice_engines_match_fair_cycle_oracle(
        nl in 1usize..=3,
        gates in prop::collection::vec((any::<u16>(), any::<u16>()), 1..6),
        nexts in prop::collection::vec(any::<u16>(), 1..4),
        js in prop::collection::vec(any::<u16>(), 1..3),
    ) {
        let (mut a, sig) = build(1, nl, &gates, &nexts);
        let lits: Vec<u32> = js.iter().map(|&j| sig[j as usize % sig.len()] ^ u32::from(j >> 15)).collect();
        a.justice.push(lits.clone());
        let expect = fair_cycle(&a, &lits);
        let (v, _) = verdict(&a, &Liveness::Justice(0), LiveEngine::Ic3);
        prop_assert_eq!(v, if expect { Verdict::False } else { Verdict::True });
        let (v, _) = verdict(&a, &Liveness::Justice(0), LiveEngine::Bmc);
        prop_assert_eq!(v, if expect { Verdict::False } else { Verdict::Unknown });
    }
}

/// Explicit oracle: a reachable cycle on which every literal is 1 on some edge (state, input).
fn fair_cycle(a: &Aig, lits: &[u32]) -> bool {
    let nl = a.latches.len();
    let ni = a.inputs.len();
    let step = |s: u32, i: u32| -> (u32, Vec<bool>) {
        let mut sim = Sim::new(a);
        let init: Vec<Ternary> = (0..nl)
            .map(|j| Ternary::from_bool(s >> j & 1 == 1))
            .collect();
        sim.set_latches(&init);
        let iv: Vec<Ternary> = (0..ni)
            .map(|k| Ternary::from_bool(i >> k & 1 == 1))
            .collect();
        sim.eval(&iv);
        let hit = lits
            .iter()
            .map(|&l| sim.lit(l).lane(0) == Some(true))
            .collect();
        sim.step();
        let n = sim.latches().iter().enumerate().fold(0u32, |acc, (j, t)| {
            acc | (u32::from(t.lane(0) == Some(true)) << j)
        });
        (n, hit)
    };
    let init: Vec<u32> = (0u32..(1 << nl))
        .filter(|s0| {
            a.latches.iter().enumerate().all(|(j, l)| match l.reset {
                Reset::Zero => s0 >> j & 1 == 0,
                Reset::One => s0 >> j & 1 == 1,
                Reset::Uninit => true,
            })
        })
        .collect();
    let reach = |from: &[u32]| -> HashSet<u32> {
        let mut seen: HashSet<u32> = HashSet::new();
        let mut stack: Vec<u32> = from.to_vec();
        while let Some(s) = stack.pop() {
            if seen.insert(s) {
                for i in 0..(1u32 << ni) {
                    stack.push(step(s, i).0);
                }
            }
        }
        seen
    };
    let reachable = reach(&init);
    // an edge s -i-> t lies on a cycle iff s is reachable from t; collect, per SCC, the hits
    for &s in &reachable {
        let mut covered = vec![false; lits.len()];
        let back = |t: u32| reach(&[t]).contains(&s);
        let mut any_cycle = false;
        // the SCC of s: states u with u reachable from s and s reachable from u
        let from_s = reach(&[s]);
        for &u in &from_s {
            if !reach(&[u]).contains(&s) {
                continue;
            }
            for i in 0..(1u32 << ni) {
                let (t, hit) = step(u, i);
                if from_s.contains(&t) && back(t) {
                    any_cycle = true;
                    for (c, h) in covered.iter_mut().zip(hit) {
                        *c |= h;
                    }
                }
            }
        }
        if any_cycle && covered.iter().all(|&c| c) {
            return true;
        }
    }
    false
}
