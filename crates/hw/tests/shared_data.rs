//! The shared AIGER circuits (`../shared/data/aiger`): every circuit gets a short budget with the
//! default engine (the portfolio); every verdict found must agree with `EXPECTED.tsv`, every
//! counterexample replays on the circuit, every invariant passes the independent check, and the
//! number decided must not fall below a floor set conservatively below the count measured when
//! this test was written (wall-clock budgets on a shared machine vary with its load).

mod common;

use std::path::Path;
use std::time::Duration;
use verikit_aiger::{parse, replay};
use verikit_diag::{Budget, Verdict};
use verikit_hw::{check, Engine, Options};

const PER_CIRCUIT: Duration = Duration::from_millis(500);

fn rows(root: &Path) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(root.join("EXPECTED.tsv")).unwrap();
    text.lines()
        .skip(1)
        .filter_map(|l| {
            let c: Vec<&str> = l.split('\t').collect();
            Some((c.first()?.to_string(), c.get(1)?.to_string()))
        })
        .collect()
}

fn run(root: &Path, engine: Engine, filter: &dyn Fn(&str) -> bool) -> (usize, usize, usize) {
    let (mut safe, mut unsafe_, mut undecided) = (0, 0, 0);
    for (file, expected) in rows(root) {
        if !filter(&file) {
            continue;
        }
        let bytes = std::fs::read(root.join(&file)).unwrap();
        let aig = parse(&file, &bytes).unwrap();
        let opts = Options {
            engine,
            ..Options::default()
        };
        let r = check(&aig, &opts, &Budget::with_timeout(PER_CIRCUIT));
        let a = &r.answer;
        match a.verdict {
            Some(Verdict::True) => {
                assert_eq!(expected, "safe", "{file}: verikit says safe");
                let w = a.to_json()["witness"].clone();
                if let Some(inv) = w.get("invariant") {
                    let cl: Vec<Vec<u32>> = serde_json::from_value(inv.clone()).unwrap();
                    if let Err(e) = common::check_invariant_independently(&aig, 0, &cl) {
                        panic!("{file}: invariant rejected: {e}");
                    }
                }
                safe += 1;
            }
            Some(Verdict::False) => {
                assert_eq!(expected, "unsafe", "{file}: verikit says unsafe");
                let w = r.witness.as_ref().expect("unsafe answer without witness");
                let text = w.to_text();
                let back = verikit_aiger::Witness::parse(&text).unwrap();
                if let Err(e) = replay(&aig, &back, 0) {
                    panic!("{file}: witness does not replay: {e}");
                }
                unsafe_ += 1;
            }
            Some(Verdict::Timeout) | Some(Verdict::Unknown) => undecided += 1,
            v => panic!("{file}: unexpected verdict {v:?}: {}", a.to_json()),
        }
        eprintln!("{file}\t{expected}\t{:?}", a.verdict);
    }
    (safe, unsafe_, undecided)
}

#[test]
fn portfolio_agrees_with_expected_on_shared_circuits() {
    let root = verikit_testkit::require_data!("aiger");
    // CI runs every sixth circuit of EXPECTED.tsv (in file order); `VERIKIT_HW_ALL=1` runs all.
    let all = std::env::var("VERIKIT_HW_ALL").is_ok_and(|v| v == "1");
    let picked = std::cell::Cell::new(0usize);
    let (s, u, n) = run(&root, Engine::Portfolio, &|_| {
        let i = picked.get();
        picked.set(i + 1);
        all || i.is_multiple_of(6)
    });
    eprintln!("portfolio: {s} safe, {u} unsafe, {n} undecided");
    // measured on all circuits: 58 decided (26 safe, 32 unsafe) at 0.5 s each on the loaded
    // shared 2-core machine; the floors keep the same margin (about 70 %) on the CI sixth.
    let floor = if all { 40 } else { 7 };
    assert!(s + u >= floor, "decided only {} circuits", s + u);
}

/// IC3 switching between cone and whole-circuit queries at a low stall threshold
/// (`hw.ic3-cone-switch`), in latch order and in activity order (`hw.ic3-order`), on two shared
/// safe circuits: safe, with an invariant the independent check accepts; in latch order the
/// query mode did switch.
#[test]
fn ic3_switching_query_modes_proves_shared_circuits() {
    let root = verikit_testkit::require_data!("aiger");
    for file in ["hwmcc20/cal41.aig", "hwmcc20/zipcpu-busdelay-p43.aig"] {
        let aig = parse(file, &std::fs::read(root.join(file)).unwrap()).unwrap();
        for activity in [false, true] {
            let opts = Options {
                engine: Engine::Ic3,
                ic3_cone_switch: 200,
                ic3_activity: activity,
                ..Options::default()
            };
            let r = check(&aig, &opts, &Budget::with_timeout(Duration::from_secs(120)));
            let j = r.answer.to_json();
            assert_eq!(r.answer.verdict, Some(Verdict::True), "{file}: {j}");
            let switches: u64 = j["stats"]["ic3_cone_switches"]
                .as_str()
                .and_then(|s| s.parse().ok())
                .unwrap();
            assert!(activity || switches > 0, "{file}: no switch: {j}");
            let cl: Vec<Vec<u32>> = serde_json::from_value(j["witness"]["invariant"].clone())
                .unwrap_or_else(|_| panic!("{file}: no invariant: {j}"));
            if let Err(e) = common::check_invariant_independently(&aig, 0, &cl) {
                panic!("{file}: invariant rejected: {e}");
            }
        }
    }
}

/// IC3 with and without syntactic containment (`hw.ic3-subsume`) and with unbounded joins
/// (`hw.ic3-join`) on a shared safe circuit: safe, with an invariant the independent check
/// accepts; the per-phase query counts add up to the total; containment blocked obligations and
/// removed subsumed clauses only when it is on.
#[test]
fn ic3_containment_and_joins_prove_a_shared_circuit() {
    let root = verikit_testkit::require_data!("aiger");
    let file = "hwmcc20/zipcpu-busdelay-p43.aig";
    let aig = parse(file, &std::fs::read(root.join(file)).unwrap()).unwrap();
    for (subsume, join) in [(true, 0), (false, 0), (true, 1_000_000)] {
        let opts = Options {
            engine: Engine::Ic3,
            ic3_subsume: subsume,
            ic3_join: join,
            ..Options::default()
        };
        let r = check(&aig, &opts, &Budget::with_timeout(Duration::from_secs(120)));
        let j = r.answer.to_json();
        assert_eq!(r.answer.verdict, Some(Verdict::True), "{file}: {j}");
        let stat = |k: &str| -> u64 {
            j["stats"][k]
                .as_str()
                .and_then(|s| s.parse().ok())
                .unwrap_or_else(|| panic!("{file}: no {k}: {j}"))
        };
        let phases: u64 = ["bad", "block", "generalise", "push", "propagate"]
            .iter()
            .map(|p| stat(&format!("ic3_queries_{p}")))
            .sum();
        assert_eq!(phases, stat("ic3_queries"), "{file}: {j}");
        let contained = stat("ic3_contained") + stat("ic3_subsumed");
        assert_eq!(contained > 0, subsume, "{file}: {j}");
        let cl: Vec<Vec<u32>> = serde_json::from_value(j["witness"]["invariant"].clone())
            .unwrap_or_else(|_| panic!("{file}: no invariant: {j}"));
        if let Err(e) = common::check_invariant_independently(&aig, 0, &cl) {
            panic!("{file}: invariant rejected: {e}");
        }
    }
}
