//! `verikit sat` library calls against brute-force oracles: answers, models, DRAT proofs checked
//! by the independent checker, every core re-checked unsatisfiable by brute force, MUS cores
//! minimal, Trimmer's cores never larger than the proof core they start from.

use crate::{bmc_cnf, core_cnf, solve_cnf, CoreMethod, SatOptions};
use proptest::prelude::*;
use verikit_diag::{Budget, Verdict};
use verikit_sat::{check_drat, dimacs, parse_drat, Cnf, Lit, ProofLog};

fn brute(n: u32, cls: &[Vec<Lit>]) -> bool {
    (0u64..1 << n).any(|m| {
        cls.iter()
            .all(|c| c.iter().any(|l| ((m >> l.var()) & 1 == 1) != l.is_neg()))
    })
}

fn random_cnf(seed: u64, n: u32, m: usize) -> Cnf {
    // splitmix64, so the instances do not depend on a random crate
    let mut x = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut next = move || {
        x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = x;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    let clauses = (0..m)
        .map(|_| {
            (0..3)
                .map(|_| Lit::new((next() % u64::from(n)) as u32, next() % 2 == 0))
                .collect()
        })
        .collect();
    Cnf {
        num_vars: n,
        clauses,
    }
}

struct SharedBuf(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);
impl std::io::Write for SharedBuf {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .map_err(|_| std::io::Error::other("poisoned"))?
            .extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn solve_answers_with_checked_model_and_proof() {
    let sat = "p cnf 3 2\n1 -2 0\n2 3 0\n";
    let r = solve_cnf(
        sat,
        SatOptions {
            proof: None,
            competition: true,
            ..SatOptions::default()
        },
        &Budget::unlimited(),
    )
    .unwrap();
    assert_eq!(r.competition_exit, Some(10));
    assert!(r.answer.text.starts_with("s SATISFIABLE\nv "));
    let unsat = "p cnf 2 4\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n";
    for binary in [false, true] {
        let buf = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let opts = SatOptions {
            proof: Some(ProofLog::to_writer(
                Box::new(SharedBuf(buf.clone())),
                binary,
            )),
            competition: false,
            ..SatOptions::default()
        };
        let r = solve_cnf(unsat, opts, &Budget::unlimited()).unwrap();
        assert_eq!(r.answer.verdict, Some(Verdict::False));
        let cnf = dimacs::parse(unsat).unwrap();
        let bytes = buf.lock().unwrap().clone();
        check_drat(
            2,
            &cnf.clauses,
            &parse_drat(&bytes).unwrap(),
            &Budget::unlimited(),
        )
        .unwrap();
    }
}

fn core_clauses(text: &str) -> Vec<Vec<Lit>> {
    dimacs::parse(text).unwrap().clauses
}

#[test]
fn trimmer_shrinks_some_proof_cores() {
    let (mut smaller, mut unsat) = (0, 0);
    for seed in 0..40 {
        let cnf = random_cnf(seed, 14, 80);
        let text = cnf.to_dimacs();
        let p = core_cnf(&text, CoreMethod::Proof, &Budget::unlimited()).unwrap();
        if p.answer.verdict != Some(Verdict::False) {
            continue;
        }
        unsat += 1;
        let t = core_cnf(&text, CoreMethod::Trimmer, &Budget::unlimited()).unwrap();
        assert_eq!(t.answer.verdict, Some(Verdict::False));
        let core = core_clauses(t.core_text.as_deref().unwrap());
        assert!(
            !brute(14, &core),
            "seed {seed}: Trimmer core is satisfiable"
        );
        let v = t.answer.to_json();
        let (size, init) = (
            v["core_size"].as_u64().unwrap(),
            v["initial_core_size"].as_u64().unwrap(),
        );
        assert!(size <= init);
        if size < init {
            smaller += 1;
        }
    }
    assert!(unsat >= 10, "{unsat}");
    assert!(
        smaller > 0,
        "Trimmer never removed a clause in {unsat} unsatisfiable formulas"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]
    #[test]
    fn every_core_is_unsat_and_mus_is_minimal(seed in 0u64..1_000_000) {
        let n = 10;
        let cnf = random_cnf(seed, n, 55);
        let text = cnf.to_dimacs();
        let is_sat = brute(n, &cnf.clauses);
        for method in [CoreMethod::Mus, CoreMethod::MusRotate, CoreMethod::Proof, CoreMethod::Trimmer, CoreMethod::TrimTillFix] {
            let r = core_cnf(&text, method, &Budget::unlimited()).unwrap();
            if is_sat {
                prop_assert_eq!(r.answer.verdict, Some(Verdict::True));
                continue;
            }
            prop_assert_eq!(r.answer.verdict, Some(Verdict::False), "{:?}", method);
            let core = core_clauses(r.core_text.as_deref().unwrap());
            prop_assert!(!brute(n, &core), "{:?}: core satisfiable", method);
            prop_assert_eq!(r.answer.to_json()["core_checked"].as_bool(), Some(true));
            if matches!(method, CoreMethod::Mus | CoreMethod::MusRotate) {
                for i in 0..core.len() {
                    let mut less = core.clone();
                    less.remove(i);
                    prop_assert!(brute(n, &less), "MUS not minimal");
                }
            }
        }
    }

    #[test]
    fn group_cores_respect_groups(seed in 0u64..1_000_000) {
        let n = 9;
        let cnf = random_cnf(seed, n, 50);
        // groups: clause i in group i % 7 (group 0 hard)
        let mut text = format!("p gcnf {} {} 6\n", n, cnf.clauses.len());
        for (i, c) in cnf.clauses.iter().enumerate() {
            text.push_str(&format!("{{{}}}", i % 7));
            for l in c {
                let v = i64::from(l.var()) + 1;
                text.push_str(&format!(" {}", if l.is_neg() { -v } else { v }));
            }
            text.push_str(" 0\n");
        }
        let hard: Vec<Vec<Lit>> = cnf.clauses.iter().enumerate().filter(|(i, _)| i % 7 == 0).map(|(_, c)| c.clone()).collect();
        let with = |gs: &[u32]| -> Vec<Vec<Lit>> {
            cnf.clauses.iter().enumerate()
                .filter(|(i, _)| i % 7 == 0 || gs.contains(&((i % 7) as u32)))
                .map(|(_, c)| c.clone()).collect()
        };
        for method in [CoreMethod::Mus, CoreMethod::MusRotate, CoreMethod::Trimmer, CoreMethod::TrimTillFix] {
            let r = core_cnf(&text, method, &Budget::unlimited()).unwrap();
            if brute(n, &cnf.clauses) {
                prop_assert_eq!(r.answer.verdict, Some(Verdict::True));
                continue;
            }
            prop_assert_eq!(r.answer.verdict, Some(Verdict::False));
            let gs = r.groups.clone();
            prop_assert!(!brute(n, &with(&gs)));
            if matches!(method, CoreMethod::Mus | CoreMethod::MusRotate) {
                if !gs.is_empty() {
                    for i in 0..gs.len() {
                        let mut less = gs.clone();
                        less.remove(i);
                        prop_assert!(brute(n, &with(&less)), "group MUS not minimal");
                    }
                } else {
                    prop_assert!(!brute(n, &hard));
                }
            }
        }
    }
}

#[test]
fn bmc_cnf_of_the_counter_is_unsat_below_its_depth() {
    let text = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../cli/demo/aig/counter.aag"
    ))
    .unwrap();
    let aig = verikit_aiger::parse("counter.aag", &text).unwrap();
    for (k, want) in [(2, Verdict::False), (3, Verdict::True)] {
        let cnf = bmc_cnf(&aig, 0, k).unwrap();
        let r = solve_cnf(
            &cnf.to_dimacs(),
            SatOptions::default(),
            &Budget::unlimited(),
        )
        .unwrap();
        assert_eq!(r.answer.verdict, Some(want), "k = {k}");
    }
    assert!(bmc_cnf(&aig, 5, 1).is_err());
}

#[test]
fn cadical_backend_agrees_or_is_refused_without_the_feature() {
    use crate::Backend;
    let unsat = "p cnf 2 4\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n";
    let sat = "p cnf 3 2\n1 -2 0\n2 3 0\n";
    for (text, want) in [(unsat, "false"), (sat, "true")] {
        let opts = SatOptions {
            backend: Backend::Cadical,
            ..SatOptions::default()
        };
        match solve_cnf(text, opts, &Budget::unlimited()) {
            Ok(r) => {
                assert!(Backend::Cadical.available());
                let j = r.answer.to_json();
                assert_eq!(j["verdict"], want, "{j}");
                assert_eq!(j["backend"], "cadical");
            }
            Err(e) => {
                assert!(!Backend::Cadical.available());
                assert!(e.message.contains("cadical"), "{}", e.message);
            }
        }
    }
}
