//! Every engine against a brute-force oracle (explicit breadth-first search over all latch
//! valuations and input vectors, with the `aiger` simulator) on random small circuits with
//! uninitialised latches, latches resetting to 1 and invariant constraints: the verdicts agree,
//! witnesses replay, invariants pass the independent check.

mod common;

use proptest::prelude::*;
use std::collections::{HashSet, VecDeque};
use verikit_aiger::{replay, Aig, Reset, Sim, Ternary};
use verikit_diag::{Budget, Verdict};
use verikit_hw::{check, Engine, Lift, Options};

fn build(
    ni: usize,
    resets: &[u8],
    gates: &[(u16, u16)],
    nexts: &[u16],
    bad: u16,
    cons: Option<u16>,
) -> Aig {
    let mut a = Aig::new();
    let mut sig = vec![0u32, 1];
    for _ in 0..ni {
        sig.push(a.add_input());
    }
    for r in resets {
        let reset = match r % 3 {
            0 => Reset::Zero,
            1 => Reset::One,
            _ => Reset::Uninit,
        };
        sig.push(a.add_latch(0, reset));
    }
    for &(x, y) in gates {
        let p = sig[x as usize % sig.len()] ^ u32::from(x >> 15);
        let q = sig[y as usize % sig.len()] ^ u32::from(y & 1);
        let g = a.and(p, q);
        sig.push(g);
    }
    for k in 0..resets.len() {
        let n = nexts[k % nexts.len()];
        a.set_next(k, sig[n as usize % sig.len()] ^ u32::from(n >> 15));
    }
    a.bad
        .push(sig[bad as usize % sig.len()] ^ u32::from(bad >> 15));
    if let Some(c) = cons {
        a.constraints
            .push(sig[c as usize % sig.len()] ^ u32::from(c >> 15));
    }
    a
}

/// Explicit reachability: is a bad step (constraints holding at every step) reachable?
fn oracle(a: &Aig) -> bool {
    let nl = a.latches.len();
    let ni = a.inputs.len();
    let mut seen = HashSet::new();
    let mut q = VecDeque::new();
    for s in 0u32..(1 << nl) {
        let ok = a.latches.iter().enumerate().all(|(j, l)| match l.reset {
            Reset::Zero => s >> j & 1 == 0,
            Reset::One => s >> j & 1 == 1,
            Reset::Uninit => true,
        });
        if ok && seen.insert(s) {
            q.push_back(s);
        }
    }
    let mut sim = Sim::new(a);
    while let Some(s) = q.pop_front() {
        for i in 0u32..(1 << ni) {
            let lv: Vec<Ternary> = (0..nl)
                .map(|j| Ternary::from_bool(s >> j & 1 == 1))
                .collect();
            let iv: Vec<Ternary> = (0..ni)
                .map(|j| Ternary::from_bool(i >> j & 1 == 1))
                .collect();
            sim.set_latches(&lv);
            sim.eval(&iv);
            if !a
                .constraints
                .iter()
                .all(|&c| sim.lit(c).lane(0) == Some(true))
            {
                continue;
            }
            if sim.lit(a.bad[0]).lane(0) == Some(true) {
                return true;
            }
            let n: u32 = a
                .latches
                .iter()
                .enumerate()
                .map(|(j, l)| u32::from(sim.lit(l.next).lane(0) == Some(true)) << j)
                .sum();
            if seen.insert(n) {
                q.push_back(n);
            }
        }
    }
    false
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]
    #[test]
    fn engines_agree_with_explicit_reachability(
        ni in 0usize..3,
        resets in proptest::collection::vec(any::<u8>(), 1..5),
        gates in proptest::collection::vec((any::<u16>(), any::<u16>()), 1..14),
        nexts in proptest::collection::vec(any::<u16>(), 1..5),
        bad in any::<u16>(),
        cons in proptest::option::of(any::<u16>()),
    ) {
        let a = build(ni, &resets, &gates, &nexts, bad, cons);
        let want = oracle(&a);
        // EverLost finds bugs only; its work budget (batches of 64 traces) keeps it
        // deterministic. A found counterexample must be real and replay; it never says safe.
        let mut eo = Options { engine: Engine::EverLost, ..Options::default() };
        eo.everlost.seed = u64::from(bad);
        let r = check(&a, &eo, &Budget::unlimited().with_work_limit(3_000));
        let v = r.answer.verdict;
        prop_assert_ne!(v, Some(Verdict::True));
        if v == Some(Verdict::False) {
            prop_assert!(want, "everlost: unsafe on a safe circuit: {}", a.to_aag());
            prop_assert!(replay(&a, r.witness.as_ref().unwrap(), 0).is_ok());
        } else if want {
            // every reachable state of these circuits is within a few steps: the guided
            // simulation finds the bug
            prop_assert!(false, "everlost missed a bug: {} {}", r.answer.to_json(), a.to_aag());
        }
        // IC3 four times: plain MIC, with counterexamples to generalisation (`hw.ic3-ctg`) and
        // a solver rebuild at almost every block, on the unreduced circuit (`hw.reduce`) and
        // without fraiging (`hw.fraig`), once with whole-circuit queries (`hw.ic3-cone`), three
        // times switching the query mode at every stall, three times ordering generalisation by
        // latch activity, lifting three ways (`hw.ic3-lift`), with and without containment
        // (`hw.ic3-subsume`), with none, one or unbounded joins (`hw.ic3-join`), twice deciding
        // only the cone's inputs and latches (`hw.ic3-decide-sources`); the portfolio in two
        // threads and in one
        let ic3 = [
            Engine::Bmc,
            Engine::Kind,
            Engine::Ic3,
            Engine::Ic3,
            Engine::Portfolio,
            Engine::Ic3,
            Engine::Portfolio,
            Engine::Ic3,
        ];
        for (k, engine) in ic3.into_iter().enumerate() {
            let mut opts = Options { engine, ..Options::default() };
            opts.ic3_ctg = if k == 3 { 3 } else { 0 };
            opts.ic3_rebuild = if k == 3 { 1 } else { opts.ic3_rebuild };
            opts.reduce = k != 5;
            opts.portfolio_parallel = k != 6;
            opts.fraig = k != 7;
            // the per-query cone of influence off once (plain MIC on the reduced circuit)
            opts.ic3_cone = k != 2;
            // the stall rule switching between cone and whole-circuit queries (`hw.ic3-cone-switch`)
            // at its most eager, starting either way
            opts.ic3_cone_switch = if matches!(k, 2 | 4 | 7) { 1 } else { 0 };
            // generalisation dropping the least active latches first (`hw.ic3-order`)
            opts.ic3_activity = matches!(k, 3 | 5 | 7);
            // without syntactic containment of lemmas and obligations (`hw.ic3-subsume`) twice
            opts.ic3_subsume = !matches!(k, 3 | 6);
            // joins per dropped literal (`hw.ic3-join`): none (the default), one, unbounded
            opts.ic3_join = match k {
                2 | 3 | 7 => 1_000_000,
                5 => 1,
                _ => 0,
            };
            // cone queries deciding only the cone's inputs and latches
            opts.ic3_decide_sources = matches!(k, 4 | 5);
            // lifting by SAT (the default), by ternary simulation, by both
            opts.ic3_lift = match k {
                2 | 5 => Lift::Ternary,
                3 => Lift::Both,
                _ => Lift::Sat,
            };
            if engine == Engine::Bmc {
                // no counterexample is longer than the number of states
                opts.bmc_max_depth = Some(1 << resets.len());
            }
            let r = check(&a, &opts, &Budget::unlimited());
            let v = r.answer.verdict;
            if want {
                prop_assert_eq!(v, Some(Verdict::False), "{:?}: {}", engine, a.to_aag());
                let w = r.witness.as_ref().unwrap();
                prop_assert!(replay(&a, w, 0).is_ok());
            } else if engine == Engine::Bmc {
                prop_assert_eq!(v, Some(Verdict::Unknown), "{}", a.to_aag());
            } else {
                prop_assert_eq!(v, Some(Verdict::True), "{:?}: {}", engine, a.to_aag());
                let j = r.answer.to_json();
                if let Some(inv) = j["witness"].get("invariant") {
                    let cl: Vec<Vec<u32>> = serde_json::from_value(inv.clone()).unwrap();
                    let res = common::check_invariant_independently(&a, 0, &cl);
                    prop_assert!(res.is_ok(), "{:?}: {}", res, a.to_aag());
                }
            }
        }
    }
}
