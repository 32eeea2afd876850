//! EverLost (de Paula, Hu, CAV'06 C27): abstraction-guided simulation reaches a deep target that
//! random simulation does not, every counterexample replays, and it never claims safety. Budgets
//! are counted in work units (one per batch of 64 traces), so the runs are deterministic.

use verikit_aiger::{replay, Aig, Reset};
use verikit_diag::{Budget, Verdict};
use verikit_hw::{check, Engine, Options};

/// An `n`-bit counter with inputs `inc` and `rst`: `c' = rst ? 0 : c + inc`; bad when all ones.
/// A random input sequence resets it every other cycle on average.
fn counter_with_reset(n: usize) -> Aig {
    let mut a = Aig::new();
    let inc = a.add_input();
    let rst = a.add_input();
    let c: Vec<u32> = (0..n).map(|_| a.add_latch(0, Reset::Zero)).collect();
    let mut carry = inc;
    for (i, &ci) in c.iter().enumerate() {
        let x1 = a.and(ci, carry ^ 1);
        let x2 = a.and(ci ^ 1, carry);
        let sum = a.or(x1, x2);
        carry = a.and(ci, carry);
        let next = a.and(sum, rst ^ 1);
        a.set_next(i, next);
    }
    let mut all = 1;
    for &ci in &c {
        all = a.and(all, ci);
    }
    a.bad.push(all);
    a
}

fn run(aig: &Aig, work: u64, seed: u64) -> verikit_hw::Report {
    let mut opts = Options {
        engine: Engine::EverLost,
        ..Options::default()
    };
    opts.everlost.seed = seed;
    check(aig, &opts, &Budget::unlimited().with_work_limit(work))
}

#[test]
fn guided_simulation_reaches_a_deep_counter_value() {
    let aig = counter_with_reset(8);
    let r = run(&aig, 20_000, 7);
    assert_eq!(
        r.answer.verdict,
        Some(Verdict::False),
        "{}",
        r.answer.to_json()
    );
    let w = r.witness.expect("a witness");
    let frame = replay(&aig, &w, 0).expect("replays").frame;
    assert!(
        frame >= 255,
        "the counter needs 255 increments, got {frame}"
    );
    // Without rings (an empty abstraction) the same budget is plain random simulation, which
    // does not get there: the guidance is what finds it.
    let mut opts = Options {
        engine: Engine::EverLost,
        ..Options::default()
    };
    opts.everlost.latches = 0;
    let r = check(&aig, &opts, &Budget::unlimited().with_work_limit(2_000));
    assert_ne!(
        r.answer.verdict,
        Some(Verdict::False),
        "{}",
        r.answer.to_json()
    );
}

#[test]
fn an_unreachable_target_stops_at_once_and_is_never_claimed_safe() {
    // bad = c ∧ ¬c through a latch pair that always agrees: the abstract model proves it.
    let mut a = Aig::new();
    let i = a.add_input();
    let l1 = a.add_latch(i, Reset::Zero);
    let l2 = a.add_latch(i, Reset::Zero);
    let x = a.and(l1, l2 ^ 1);
    a.bad.push(x);
    let r = run(&a, 1_000_000, 1);
    assert_eq!(
        r.answer.verdict,
        Some(Verdict::Unknown),
        "{}",
        r.answer.to_json()
    );
}
