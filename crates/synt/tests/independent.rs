//! Controllers re-checked by other crates' public APIs only: the AIGER text `synt` writes is read
//! back by `verikit_aiger::parse`, composed with a hand-built safety monitor of the specification
//! (a bad-state literal), simulated by `verikit_aiger::Sim` on random inputs and proved safe by
//! the `verikit_hw` model checker — neither synt's own model check nor its circuit replay.

use verikit_aiger::{Aig, Reset, Sim, Ternary};
use verikit_diag::{Budget, Params, Verdict};
use verikit_synt::{solve_problem, Problem, Semantics};

/// Adds a safety monitor to a controller: `bad(c, sig)` builds the bad-state literal from the
/// controller's named inputs and outputs (`sig(name)`), with latches it may add.
type Monitor = fn(&mut Aig, &dyn Fn(&str) -> u32) -> u32;

/// A latch of the monitor holding `x` delayed by one step (reset 0).
fn delayed(a: &mut Aig, x: u32) -> u32 {
    a.add_latch(x, Reset::Zero)
}

fn xor(a: &mut Aig, x: u32, y: u32) -> u32 {
    let both = a.and(x, y);
    let none = a.and(x ^ 1, y ^ 1);
    a.and(both ^ 1, none ^ 1)
}

/// A specification, its inputs and outputs, its semantics and its monitor.
type Case = (
    &'static str,
    &'static [&'static str],
    &'static [&'static str],
    Semantics,
    Monitor,
);

/// Realizable safety specifications with their monitors.
const CASES: &[Case] = &[
    ("G(r <-> g)", &["r"], &["g"], Semantics::Mealy, |a, s| {
        xor(a, s("r"), s("g"))
    }),
    ("G(r -> X g)", &["r"], &["g"], Semantics::Mealy, |a, s| {
        let p = delayed(a, s("r"));
        a.and(p, s("g") ^ 1)
    }),
    ("G(r <-> X g)", &["r"], &["g"], Semantics::Moore, |a, s| {
        // From the second step on, g is the previous r.
        let started = delayed(a, 1);
        let p = delayed(a, s("r"));
        let differ = xor(a, p, s("g"));
        a.and(started, differ)
    }),
    (
        "G!(g0 & g1) & G((r0 & !r1) -> X g0) & G((r1 & !r0) -> X g1)",
        &["r0", "r1"],
        &["g0", "g1"],
        Semantics::Mealy,
        |a, s| {
            let only0 = a.and(s("r0"), s("r1") ^ 1);
            let only1 = a.and(s("r1"), s("r0") ^ 1);
            let p0 = delayed(a, only0);
            let p1 = delayed(a, only1);
            let both = a.and(s("g0"), s("g1"));
            let miss0 = a.and(p0, s("g0") ^ 1);
            let miss1 = a.and(p1, s("g1") ^ 1);
            let m = a.or(both, miss0);
            a.or(m, miss1)
        },
    ),
];

/// The literal of the input or output named `name` (by the AIGER symbol table).
fn signal(c: &Aig, name: &str) -> u32 {
    let find = |kind: char, lits: &[u32]| {
        (0..lits.len())
            .find(|&i| c.symbol(kind, i) == Some(name))
            .map(|i| lits[i])
    };
    find('i', &c.inputs)
        .or_else(|| find('o', &c.outputs))
        .unwrap_or_else(|| panic!("no signal {name} in the controller"))
}

#[test]
fn controllers_pass_simulation_and_the_hw_model_checker() {
    for engine in ["bounded", "parity"] {
        let x = format!("synt.engine={engine}");
        let params = Params::parse(&[x.as_str()]).unwrap();
        for &(f, ins, outs, sem, monitor) in CASES {
            let p = Problem::from_formula(
                f,
                Some(ins.iter().map(|s| s.to_string()).collect()),
                Some(outs.iter().map(|s| s.to_string()).collect()),
                sem,
            )
            .unwrap();
            let budget = Budget::with_timeout(std::time::Duration::from_secs(60));
            let sol = solve_problem(&p, &params, &budget).unwrap();
            assert_eq!(sol.realizable, Some(true), "{engine} {f}");
            let written = sol.circuit.expect("a controller").to_aag();
            // Read back by the aiger crate's own parser.
            let c = verikit_aiger::parse("controller.aag", written.as_bytes())
                .unwrap_or_else(|d| panic!("{f}: {d:?}"));
            let names: Vec<(String, u32)> = ins
                .iter()
                .chain(outs)
                .map(|n| (n.to_string(), signal(&c, n)))
                .collect();
            let mut product = c.clone();
            let sig = |n: &str| {
                names
                    .iter()
                    .find(|(m, _)| m == n)
                    .map(|(_, l)| *l)
                    .unwrap_or_else(|| panic!("{n}"))
            };
            let bad = monitor(&mut product, &sig);
            product.outputs.clear();
            product.bad = vec![bad];
            product.symbols.retain(|(k, _, _)| *k == 'i' || *k == 'l');
            product.validate().unwrap_or_else(|e| panic!("{f}: {e}"));
            // Simulation: 64 random input sequences of 40 steps never raise `bad`.
            let mut sim = Sim::new(&product);
            let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
            for step in 0..40 {
                let inputs: Vec<Ternary> = product
                    .inputs
                    .iter()
                    .map(|_| {
                        seed ^= seed << 13;
                        seed ^= seed >> 7;
                        seed ^= seed << 17;
                        Ternary {
                            one: seed,
                            zero: !seed,
                        }
                    })
                    .collect();
                sim.eval(&inputs);
                let b = sim.lit(bad);
                assert_eq!(b.one, 0, "{engine} {f}: bad at step {step}\n{written}");
                assert_eq!(b.zero, !0, "{engine} {f}: X at step {step}");
                sim.step();
            }
            // Proof: the hardware model checker finds the bad state unreachable.
            let report = verikit_hw::check(
                &product,
                &verikit_hw::Options::default(),
                &Budget::with_timeout(std::time::Duration::from_secs(60)),
            );
            assert_eq!(
                report.answer.verdict,
                Some(Verdict::True),
                "{engine} {f}: {}\n{written}",
                report.answer.to_json()
            );
        }
    }
}

#[test]
fn a_wrong_controller_is_caught() {
    // The checks above can fail: the monitor of `G(r -> X g)` on a controller of `G(r <-> g)`
    // (which answers now, not one step later) is violated, by simulation and by the checker.
    let p = Problem::from_formula(
        "G(r <-> g)",
        Some(vec!["r".into()]),
        Some(vec!["g".into()]),
        Semantics::Mealy,
    )
    .unwrap();
    let sol = solve_problem(&p, &Params::default(), &Budget::unlimited()).unwrap();
    let c = verikit_aiger::parse("c.aag", sol.circuit.unwrap().to_aag().as_bytes()).unwrap();
    let (r, g) = (signal(&c, "r"), signal(&c, "g"));
    let mut product = c.clone();
    let prev = delayed(&mut product, r);
    let bad = product.and(prev, g ^ 1);
    product.outputs.clear();
    product.bad = vec![bad];
    product.symbols.retain(|(k, _, _)| *k == 'i' || *k == 'l');
    product.validate().unwrap();
    let report = verikit_hw::check(
        &product,
        &verikit_hw::Options::default(),
        &Budget::with_timeout(std::time::Duration::from_secs(60)),
    );
    assert_eq!(report.answer.verdict, Some(Verdict::False));
}
