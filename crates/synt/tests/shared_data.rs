//! Shared SYNTCOMP specifications against EXPECTED.tsv: every answer's controller or
//! counter-strategy was model-checked by the engine (it refuses to answer otherwise), and no
//! verdict may disagree with the published status.
//!
//! By default (CI) the specifications listed in `tests/ci-specs.tsv` are solved, each under a
//! generous budget, and every one of them must be decided — so the test does not depend on how
//! loaded the machine is. With `VERIKIT_SYNT_ALL=1` every shared specification is tried under a
//! small budget (`unknown`/timeouts allowed) and a floor on the number decided guards against
//! regressions; `bench/engines/synt.py` runs that full set through the CLI.
//!
//! Every controller of a realizable specification is also checked for the whole specification,
//! liveness included, by a code path other than the engine's own model check: the AIGER circuit
//! is simulated by `verikit_aiger::Sim` on every input letter from every reachable latch
//! valuation, in product with omega's Büchi automaton of `¬φ` (translated here), and the product
//! must have no reachable strongly connected component visiting every acceptance set (SCCs by
//! `verikit_graph::tarjan`).

use std::collections::BTreeMap;
use std::time::Duration;
use verikit_aiger::{Aig, Sim, Ternary};
use verikit_diag::{Budget, Params};
use verikit_omega::{Arena, Marks, TranslateOptions};
use verikit_synt::{parse_tlsf, solve_problem, Problem};

/// Explicit product of the controller with the Büchi automaton of `¬φ`: `Ok(states)` when no
/// run of the closed loop is accepted (the controller satisfies `φ` against every environment),
/// `Err` with a description otherwise.
fn check_controller(p: &Problem, c: &Aig) -> Result<usize, String> {
    let mut arena = Arena::new();
    let f = verikit_omega::task::parse_formula(&p.formula, 0, &mut arena)
        .map_err(|e| format!("formula: {e:?}"))?;
    let neg = arena.not(f);
    let aut = verikit_omega::translate(&mut arena, neg, &TranslateOptions::default())
        .map_err(|e| format!("translation: {e:?}"))?;
    // Where each of the automaton's propositions comes from: input `k` or output `k`.
    let find = |kind: char, n: usize, name: &str| (0..n).find(|&k| c.symbol(kind, k) == Some(name));
    let mut source = Vec::new();
    for ap in &aut.aps {
        match (
            find('i', c.inputs.len(), ap),
            find('o', c.outputs.len(), ap),
        ) {
            (Some(k), _) => source.push((true, k)),
            (None, Some(k)) => source.push((false, k)),
            _ => return Err(format!("the circuit has no signal {ap}")),
        }
    }
    let ni = c.inputs.len();
    if ni > 16 {
        return Err(format!("{ni} inputs: too many letters to enumerate"));
    }
    let letters: u64 = 1 << ni;
    // Product states: (latch valuation, automaton state), explored from the initial ones.
    let mut index: BTreeMap<(Vec<bool>, u32), u32> = BTreeMap::new();
    let mut states: Vec<(Vec<bool>, u32)> = Vec::new();
    let mut edges: Vec<(u32, u32, Marks)> = Vec::new();
    let reset = vec![false; c.latches.len()];
    for &q in &aut.init {
        index.insert((reset.clone(), q), states.len() as u32);
        states.push((reset.clone(), q));
    }
    let mut sim = Sim::new(c);
    let mut i = 0;
    while i < states.len() {
        let (latches, q) = states[i].clone();
        let src = i as u32;
        i += 1;
        if states.len() > 2_000_000 {
            return Err("more than 2e6 product states".into());
        }
        // 64 input letters at a time, one per simulation lane.
        let mut base = 0;
        while base < letters {
            let inputs: Vec<Ternary> = (0..ni)
                .map(|k| {
                    let mut one = 0u64;
                    for lane in 0..64u64.min(letters - base) {
                        if (base + lane) >> k & 1 == 1 {
                            one |= 1 << lane;
                        }
                    }
                    Ternary { one, zero: !one }
                })
                .collect();
            let lat: Vec<Ternary> = latches.iter().map(|&b| Ternary::from_bool(b)).collect();
            sim.set_latches(&lat);
            sim.eval(&inputs);
            for lane in 0..64u32.min((letters - base) as u32) {
                let letter = base + u64::from(lane);
                let bit = |l: u32| sim.lit(l).lane(lane).ok_or("an X value".to_string());
                let mut bits = 0u64;
                for (j, &(is_input, k)) in source.iter().enumerate() {
                    let v = if is_input {
                        letter >> k & 1 == 1
                    } else {
                        bit(c.outputs[k])?
                    };
                    if v {
                        bits |= 1 << j;
                    }
                }
                let next: Vec<bool> = c
                    .latches
                    .iter()
                    .map(|l| bit(l.next))
                    .collect::<Result<_, _>>()?;
                for e in aut.states[q as usize].iter() {
                    if !aut.eval_label(&e.label, bits) {
                        continue;
                    }
                    let key = (next.clone(), e.dst);
                    let dst = *index.entry(key.clone()).or_insert_with(|| {
                        states.push(key);
                        states.len() as u32 - 1
                    });
                    edges.push((src, dst, e.marks));
                }
            }
            base += 64;
        }
    }
    // An accepting cycle: an SCC whose inner edges visit every acceptance set.
    let mut succ: Vec<Vec<u32>> = vec![Vec::new(); states.len()];
    for &(a, b, _) in &edges {
        succ[a as usize].push(b);
    }
    let sccs = verikit_graph::tarjan(states.len(), |v| succ[v as usize].clone());
    let mut marks: Vec<Option<Marks>> = vec![None; sccs.len()];
    for &(a, b, m) in &edges {
        let (ca, cb) = (sccs.comp[a as usize], sccs.comp[b as usize]);
        if ca == cb {
            let slot = &mut marks[ca as usize];
            *slot = Some(slot.unwrap_or_default() | m);
        }
    }
    for m in marks.into_iter().flatten() {
        if aut.accepting_marks(m) {
            return Err("the closed loop has a run accepted by the automaton of ¬φ".into());
        }
    }
    Ok(states.len())
}

/// Whether to try every shared specification instead of the CI list.
fn all() -> bool {
    std::env::var("VERIKIT_SYNT_ALL").is_ok_and(|v| v == "1")
}

/// Seconds per specification (override with `VERIKIT_SYNT_SECS`): small for the full set, large
/// for the CI list (whose specifications take well under a second on a quiet machine).
fn per_spec() -> f64 {
    std::env::var("VERIKIT_SYNT_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(if all() { 1.0 } else { 20.0 })
}

/// The CI list: specification paths (relative to the data folder) with their expected status.
const CI_SPECS: &str = include_str!("ci-specs.tsv");

#[test]
fn shared_specs_agree_with_expected() {
    let Some(dir) = verikit_testkit::shared_path("synt") else {
        eprintln!("skipping: ../shared/data/synt is missing");
        return;
    };
    let expected = std::fs::read_to_string(dir.join("EXPECTED.tsv")).unwrap();
    let filter = std::env::var("VERIKIT_SYNT_FILTER").unwrap_or_default();
    let mut rows: BTreeMap<String, String> = BTreeMap::new();
    for line in expected.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        rows.insert(cols[0].to_string(), cols[1].to_string());
    }
    let ci: BTreeMap<&str, &str> = CI_SPECS
        .lines()
        .filter_map(|l| l.split_once('\t'))
        .collect();
    for (spec, want) in &ci {
        assert_eq!(
            rows.get(*spec).map(String::as_str),
            Some(*want),
            "{spec}: the CI list disagrees with EXPECTED.tsv"
        );
    }
    if !all() {
        rows.retain(|spec, _| ci.contains_key(spec.as_str()));
    }
    let mut not_decided = Vec::new();
    let (mut solved, mut wrong, mut undecided) = (0, Vec::new(), 0);
    for (spec, want) in &rows {
        if !spec.contains(&filter) {
            continue;
        }
        let text = std::fs::read_to_string(dir.join(spec)).unwrap();
        let budget = Budget::with_timeout(Duration::from_secs_f64(per_spec()));
        let p = match parse_tlsf(&text, &budget) {
            Ok(s) => Problem::from(s),
            Err(e) => {
                eprintln!("{spec}\tnot read: {e}");
                undecided += 1;
                not_decided.push(spec.clone());
                continue;
            }
        };
        let t = std::time::Instant::now();
        let got = match solve_problem(&p, &Params::default(), &budget) {
            Ok(s) if s.realizable == Some(true) && !all() => {
                let c = s
                    .circuit
                    .as_ref()
                    .expect("a realizable answer has a controller");
                match check_controller(&p, c) {
                    Ok(n) => eprintln!("{spec}\tcontroller checked: {n} product states"),
                    Err(e) => panic!("{spec}: controller rejected by the product check: {e}"),
                }
                "realizable"
            }
            Ok(s) => match s.realizable {
                Some(true) => "realizable",
                Some(false) => "unrealizable",
                None => "unknown",
            },
            Err(verikit_synt::SyntError::Internal(e)) => panic!("{spec}: {e}"),
            Err(_) => "timeout",
        };
        eprintln!("{spec}\t{want}\t{got}\t{:.2}s", t.elapsed().as_secs_f64());
        match got {
            "realizable" | "unrealizable" => {
                if want == "realizable" || want == "unrealizable" {
                    if got != want {
                        wrong.push(format!("{spec}: expected {want}, got {got}"));
                    } else {
                        solved += 1;
                    }
                }
            }
            _ => {
                undecided += 1;
                not_decided.push(spec.clone());
            }
        }
    }
    eprintln!(
        "solved {solved}, undecided {undecided}, wrong {}",
        wrong.len()
    );
    assert!(wrong.is_empty(), "{wrong:#?}");
    if !filter.is_empty() {
        return;
    }
    if all() {
        assert!(solved >= FLOOR, "only {solved} decided (floor {FLOOR})");
    } else {
        assert!(
            not_decided.is_empty(),
            "CI specs not decided: {not_decided:#?}"
        );
        assert_eq!(solved, ci.len());
    }
}

/// For the full set: measured 74 decided through the CLI with 2 s per spec on a loaded 2-core
/// machine (bench/results/synt.md); the floor leaves room for the 1 s budget here and for load.
const FLOOR: usize = 60;

/// The product check itself: it rejects a controller that never answers a request (a liveness
/// violation no finite prefix shows) and accepts one that answers at once.
#[test]
fn the_product_check_rejects_a_liveness_violation() {
    let p = Problem::from_formula(
        "G(r -> F g)",
        Some(vec!["r".into()]),
        Some(vec!["g".into()]),
        verikit_synt::Semantics::Mealy,
    )
    .unwrap();
    let circuit = |g: fn(u32) -> u32| {
        let mut c = Aig::new();
        let r = c.add_input();
        c.outputs.push(g(r));
        c.symbols.push(('i', 0, "r".into()));
        c.symbols.push(('o', 0, "g".into()));
        c
    };
    assert!(check_controller(&p, &circuit(|_| 0)).is_err());
    assert!(check_controller(&p, &circuit(|r| r)).is_ok());
    // A latch delaying the answer by one step is still correct.
    let mut c = circuit(|_| 0);
    let l = c.add_latch(2, verikit_aiger::Reset::Zero);
    c.outputs[0] = l;
    c.symbols.push(('l', 0, "d".into()));
    assert!(check_controller(&p, &c).is_ok());
}

/// Controller sizes the SAT-based minimisation (`memin`, decision 0807) brings down: machines
/// of 10, 6, 4 and 5 states before (54, 11, 19 and 32 AND gates), within ltlsynt's range now.
/// Each controller is also checked by `check_controller`.
#[test]
fn minimised_controller_sizes() {
    let dir = std::path::Path::new("../shared/data/synt/tlsf");
    if !dir.exists() {
        eprintln!("skipping: ../shared/data/synt is missing");
        return;
    }
    for (spec, states, ands) in [
        ("ltl2dba/ltl2dba17.tlsf", 4, 8),
        ("tsl_smart_home_jarvis/test3_efe2feaf.tlsf", 3, 1),
        ("ltl2dpa/ltl2dpa11.tlsf", 2, 9),
        ("ltl2dpa/ltl2dpa17.tlsf", 4, 10),
    ] {
        let text = std::fs::read_to_string(dir.join(spec)).unwrap();
        let p = Problem::from(parse_tlsf(&text, &Budget::unlimited()).unwrap());
        let budget = Budget::with_timeout(Duration::from_secs(60));
        let s = solve_problem(&p, &Params::default(), &budget).unwrap();
        assert_eq!(s.realizable, Some(true), "{spec}");
        let c = s.circuit.unwrap();
        assert!(
            s.machine_states <= states && c.ands.len() <= ands,
            "{spec}: {} states, {} AND gates",
            s.machine_states,
            c.ands.len()
        );
        check_controller(&p, &c).unwrap();
    }
}

/// A decided problem is answered even when its minimisation could not finish (decision 0808):
/// prioritized_arbiter_3's bounded game is won at bound 3 in a small fraction of a second, then
/// the SAT minimisation of its 122-state machine refutes sizes 1–5 (sizes 4 and 5 each run into
/// a one-second slice without a limit: about 3 s of wall clock in all). Under a 3 s limit the
/// minimisation and state merging get their shares of the time left and fall back to the
/// machine at hand; the controller is still checked (by the engine, and here by
/// `check_controller`).
#[test]
fn an_expensive_minimisation_still_answers_within_a_short_limit() {
    let dir = std::path::Path::new("../shared/data/synt/tlsf");
    if !dir.exists() {
        eprintln!("skipping: ../shared/data/synt is missing");
        return;
    }
    let text = std::fs::read_to_string(dir.join("prioritized_arbiter/prioritized_arbiter_3.tlsf"))
        .unwrap();
    let p = Problem::from(parse_tlsf(&text, &Budget::unlimited()).unwrap());
    let params = Params::parse(&["synt.engine=bounded"]).unwrap();
    let budget = Budget::with_timeout(Duration::from_secs(3));
    let s = solve_problem(&p, &params, &budget).unwrap();
    assert_eq!(s.realizable, Some(true));
    check_controller(&p, &s.circuit.unwrap()).unwrap();
}
