//! The ARMC inclusion problems of the nfa-bench suite: every algorithm must give the answer in the
//! file name (`true-`/`false-`) and libmata's recorded answer; counterexamples are replayed.

use crate::replay::{check, Claim};
use crate::*;
use std::path::Path;

fn load(lhs: &Path, rhs: &Path) -> (Nfa, Nfa) {
    let a = mata::parse(&std::fs::read_to_string(lhs).unwrap()).unwrap();
    let b = mata::parse(&std::fs::read_to_string(rhs).unwrap()).unwrap();
    let mut v = mata::build(&[a, b]).unwrap();
    let b = v.pop().unwrap();
    let a = v.pop().unwrap();
    (a, b)
}

fn problems(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|n| n.strip_suffix("-lhs.mata").map(str::to_string))
        .collect();
    v.sort();
    v
}

fn expected_libmata() -> std::collections::HashMap<String, bool> {
    let p = verikit_testkit::expected("nfa-armc-incl.tsv");
    let text = std::fs::read_to_string(&p).expect("tests/expected/nfa-armc-incl.tsv is checked in");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("problem"))
        .filter_map(|l| {
            let mut f = l.split('\t');
            Some((f.next()?.to_string(), f.next()? == "true"))
        })
        .collect()
}

#[test]
fn armc_inclusion_matches_names_and_libmata() {
    let dir = verikit_testkit::require_data!("nfa/armc-incl");
    let mata = expected_libmata();
    let probs = problems(&dir);
    assert_eq!(probs.len(), 68);
    for name in &probs {
        let (a, b) = load(
            &dir.join(format!("{name}-lhs.mata")),
            &dir.join(format!("{name}-rhs.mata")),
        );
        let want = name.starts_with("true-");
        assert_eq!(
            mata.get(name).copied(),
            Some(want),
            "{name}: libmata's recorded answer"
        );
        let r = included(&a, &b, InclAlgo::Antichain, &Budget::unlimited()).unwrap();
        assert_eq!(r.holds, want, "{name}: antichain");
        if let Some(w) = &r.witness {
            assert!(
                check(Claim::NotIncluded, &a, Some(&b), w).2,
                "{name}: witness does not replay"
            );
        }
        // The simulation variant on the smaller problems (its simulation is quadratic).
        if a.num_states() + b.num_states() <= 1500 {
            let r = included(&a, &b, InclAlgo::AntichainSim, &Budget::unlimited()).unwrap();
            assert_eq!(r.holds, want, "{name}: antichain+simulation");
            if let Some(w) = &r.witness {
                assert!(
                    check(Claim::NotIncluded, &a, Some(&b), w).2,
                    "{name}: sim witness does not replay"
                );
            }
        }
    }
}

#[test]
fn email_filter_parses_and_reduces() {
    let dir = verikit_testkit::require_data!("nfa/email-filter");
    for i in [0, 7, 33] {
        let text = std::fs::read_to_string(dir.join(format!("aut{i}.mata"))).unwrap();
        let a = mata::parse_nfa(&text).unwrap();
        assert!(a.num_letters() >= 2, "aut{i}: mintermised letters");
        let r = bisim::reduce(&a);
        assert!(
            equivalent(&a, &r, EquivAlgo::Antichain, &Budget::unlimited())
                .unwrap()
                .holds,
            "aut{i}: bisimulation quotient"
        );
    }
}

/// Pairs of email-filter automata (general formulas over 16 atoms, mintermised jointly): the
/// answers libmata gave, with every counterexample replayed.
#[test]
fn email_filter_inclusion_matches_libmata() {
    let dir = verikit_testkit::require_data!("nfa/email-filter");
    let p = verikit_testkit::expected("nfa-email-incl.tsv");
    let text =
        std::fs::read_to_string(&p).expect("tests/expected/nfa-email-incl.tsv is checked in");
    let mut n = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("lhs"))
    {
        let f: Vec<&str> = line.split('\t').collect();
        let (l, r, want) = (f[0], f[1], f[2] == "true");
        let (a, b) = load(
            &dir.join(format!("{l}.mata")),
            &dir.join(format!("{r}.mata")),
        );
        for algo in [InclAlgo::Antichain, InclAlgo::Subset] {
            let res = included(&a, &b, algo, &Budget::unlimited()).unwrap();
            assert_eq!(res.holds, want, "{l} ⊆ {r} ({algo:?})");
            if let Some(w) = &res.witness {
                assert!(
                    check(Claim::NotIncluded, &a, Some(&b), w).2,
                    "{l} ⊆ {r}: witness does not replay"
                );
            }
        }
        n += 1;
    }
    assert!(n >= 20);
}
