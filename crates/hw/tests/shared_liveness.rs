//! Liveness on the shared circuits (`../shared/data/aiger`), which have no justice sections of
//! their own: on unsafe circuits without invariant constraints, the LTL property `G !o0` (the
//! bad output is never 1) must be violated by a lasso that replays on the circuit and hits the
//! bad output; on small safe ones, the justice property "the bad output is 1 infinitely often"
//! must be proved by liveness-to-safety with an invariant that passes the independent check.
//! A representative subset (the full set is what `bench/engines/hw.py` runs).

use std::time::Duration;
use verikit_aiger::{parse, replay_lasso, Sim, Ternary, Witness};
use verikit_diag::{Budget, Verdict};
use verikit_hw::{check_property, Engine, Liveness, Options};

const UNSAFE: &[&str] = &[
    "tniessen/trivial/latch.aag",
    "tniessen/unary-counter-maximum/unary-counter-maximum-5.aag",
    "tniessen/counter-overflow/counter-overflow-4.aag",
];

const SAFE: &[&str] = &[
    "tniessen/traffic-light/traffic-light-cycle-prescale-bits-0.aag",
    "tniessen/hamming-code/hamming-code-distance-03-01.aag",
    "tniessen/lfsr-period/fibonacci-04-0xc.aag",
];

#[test]
fn ltl_lassos_and_justice_proofs_on_shared_circuits() {
    let root = verikit_testkit::require_data!("aiger");
    let mut decided = 0;
    for file in UNSAFE {
        let Ok(bytes) = std::fs::read(root.join(file)) else {
            eprintln!("skipping {file}: missing");
            continue;
        };
        let aig = parse(file, &bytes).unwrap();
        let opts = Options {
            engine: Engine::Bmc,
            live: Some(Liveness::Ltl("G !o0".into())),
            ..Options::default()
        };
        let r = check_property(&aig, &opts, &Budget::with_timeout(Duration::from_secs(5))).unwrap();
        match r.answer.verdict {
            Some(Verdict::False) => {
                let w = r.witness.unwrap();
                replay_lasso(&aig, &w, &[]).unwrap();
                assert!(
                    hits(&aig, &w, aig.outputs[0]),
                    "{file}: the lasso never raises o0"
                );
                decided += 1;
            }
            Some(Verdict::Timeout) => eprintln!("{file}: timeout"),
            v => panic!("{file}: {v:?} {}", r.answer.to_json()),
        }
    }
    for file in SAFE {
        let Ok(bytes) = std::fs::read(root.join(file)) else {
            eprintln!("skipping {file}: missing");
            continue;
        };
        let mut aig = parse(file, &bytes).unwrap();
        aig.justice.push(vec![aig.outputs[0]]);
        let opts = Options {
            engine: Engine::Ic3,
            live: Some(Liveness::Justice(0)),
            ..Options::default()
        };
        let r = check_property(&aig, &opts, &Budget::with_timeout(Duration::from_secs(5))).unwrap();
        match r.answer.verdict {
            Some(Verdict::True) => decided += 1,
            Some(Verdict::Timeout) => eprintln!("{file}: timeout"),
            v => panic!("{file}: {v:?} {}", r.answer.to_json()),
        }
    }
    assert!(decided >= 4, "only {decided} of 6 decided");
}

/// Whether literal `l` is 1 in some frame of the witness (simulated independently).
fn hits(aig: &verikit_aiger::Aig, w: &Witness, l: u32) -> bool {
    let mut sim = Sim::new(aig);
    let init: Vec<Ternary> = w.latches.iter().map(|&b| Ternary::from_opt(b)).collect();
    sim.set_latches(&init);
    for inp in &w.inputs {
        let iv: Vec<Ternary> = inp.iter().map(|&b| Ternary::from_opt(b)).collect();
        sim.eval(&iv);
        if sim.lit(l).lane(0) == Some(true) {
            return true;
        }
        sim.step();
    }
    false
}
