//! The AIGER reader, writers, simulator and witness format: every shared circuit parses, both
//! writers round-trip (on the shared files and on random circuits), malformed files are located
//! errors, the parsers never panic, and replay accepts exactly the traces that violate.

use proptest::prelude::*;
use std::path::{Path, PathBuf};
use verikit_aiger::{parse, replay, Aig, Reset, Sim, Ternary, Witness};
use verikit_diag::SourceFile;

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|x| x == "aag" || x == "aig") {
            out.push(p);
        }
    }
}

#[test]
fn every_shared_circuit_parses_and_round_trips() {
    let dir = verikit_testkit::require_data!("aiger");
    let mut fs = Vec::new();
    files(&dir, &mut fs);
    assert!(fs.len() >= 269, "found only {} AIGER files", fs.len());
    for f in &fs {
        let bytes = std::fs::read(f).unwrap();
        let name = f.display().to_string();
        let a = match parse(&name, &bytes) {
            Ok(a) => a,
            Err(d) => panic!("{}", d.render(&SourceFile::new(name.clone(), ""))),
        };
        assert!(!a.properties().is_empty(), "{name}: no property");
        let back = parse("x.aag", a.to_aag().as_bytes()).unwrap();
        assert_eq!(back, a, "{name}: aag round trip");
        let bin = parse("x.aig", &a.to_aig()).unwrap();
        assert_eq!(bin, a.renumbered(), "{name}: aig round trip");
        if bytes.starts_with(b"aig") {
            // the binary files are already in binary order: written back byte for byte
            assert_eq!(a.to_aig(), bytes, "{name}: binary rewrite differs");
        }
    }
}

fn err(text: &[u8]) -> String {
    let d = parse("t.aag", text).unwrap_err();
    let src = SourceFile::new("t.aag", "");
    d.render(&src)
}

#[test]
fn malformed_files_are_located_errors() {
    let e = err(b"aag 1 1 0 1 0\n2\n4\n");
    assert!(e.contains("out of range") && e.contains("t.aag:3:1"), "{e}");
    let e = err(b"aag 3 1 0 1 2\n2\n6\n4 2 6\n6 4 3\n");
    assert!(e.contains("cyclic"), "{e}");
    let e = err(b"aag 1 2 0 0 0\n2\n");
    assert!(e.contains("M = 1 is smaller"), "{e}");
    let e = err(b"aag 2 1 0 1 0\n2\n4\n");
    assert!(e.contains("never defined") && e.contains(":3:1"), "{e}");
    let e = err(b"aag 2 2 0 0 0\n2\n2\n");
    assert!(e.contains("defined twice") && e.contains(":3:1"), "{e}");
    let e = err(b"aag 1 0 1 0 0\n2 3 5\n");
    assert!(e.contains("reset value"), "{e}");
    // binary: byte offsets
    let d = parse("t.aig", b"aig 3 1 1 0 1 1\n6\n6\n\x00\x02").unwrap_err();
    assert!(d.message.contains("byte offset 20"), "{}", d.message);
    let d = parse("t.aig", b"aig 3 1 1 0 1 1\n6\n6\n\x02").unwrap_err();
    assert!(d.message.contains("end of file"), "{}", d.message);
    let d = parse("t.aig", b"aig 4 1 1 0 1\n6\n").unwrap_err();
    assert!(d.message.contains("M must be I + L + A"), "{}", d.message);
    assert!(parse("t", b"p cnf 1 1\n").is_err());
}

const TOGGLE: &str = "aag 3 1 1 1 1 1 1\n2\n4 6 4\n4\n4\n2\n6 5 3\ni0 en\nl0 q\nb0 bad\nc\nhello\n";

#[test]
fn parsers_are_total() {
    let bin = parse("t", TOGGLE.as_bytes()).unwrap().to_aig();
    let bin = String::from_utf8_lossy(&bin).into_owned();
    verikit_testkit::assert_parser_total(&[TOGGLE, &bin], 3000, |s| parse("t", s.as_bytes()));
    verikit_testkit::assert_parser_total(&["1\nb0\n0x\n01\n.\n"], 500, Witness::parse);
}

#[test]
fn reads_sections_symbols_and_uninitialised_latches() {
    let a = parse("t", TOGGLE.as_bytes()).unwrap();
    assert_eq!(a.latches[0].reset, Reset::Uninit);
    assert_eq!(a.bad, vec![4]);
    assert_eq!(a.constraints, vec![2]);
    assert_eq!(a.symbol('i', 0), Some("en"));
    assert_eq!(a.symbol('b', 0), Some("bad"));
    assert_eq!(a.comments, vec!["hello".to_string()]);
    let j = parse("t", b"aag 1 1 0 0 0 0 0 1 1\n2\n2\n2\n3\n3\n").unwrap();
    assert_eq!(j.justice, vec![vec![2, 3]]);
    assert_eq!(j.fairness, vec![3]);
    // old format: the output is the property
    let o = parse("t", b"aag 1 1 0 1 0\n2\n3\n").unwrap();
    assert_eq!(o.properties(), &[3]);
}

#[test]
fn replay_checks_resets_constraints_and_the_bad_frame() {
    // counter of two latches, bad when both are 1; constraint: input en must be 1
    let mut a = Aig::new();
    let en = a.add_input();
    let q0 = a.add_latch(0, Reset::Zero);
    let q1 = a.add_latch(0, Reset::Zero);
    let n0 = a.and(q0 ^ 1, en);
    let t = a.and(q0, en);
    let n1x = a.and(q1, t ^ 1);
    let n1y = a.and(q1 ^ 1, t);
    let n1 = a.or(n1x, n1y);
    let n0b = a.and(q0, en ^ 1);
    let n0 = a.or(n0, n0b);
    a.set_next(0, n0);
    a.set_next(1, n1);
    let b = a.and(q0, q1);
    a.bad = vec![b];
    a.constraints.push(en);
    a.validate().unwrap();
    let w = |lines: &[&str]| Witness {
        props: vec![('b', 0)],
        latches: vec![Some(false), Some(false)],
        inputs: lines
            .iter()
            .map(|l| l.chars().map(|c| Some(c == '1')).collect())
            .collect(),
    };
    assert_eq!(
        replay(&a, &w(&["1", "1", "1", "1"]), 0),
        Ok(verikit_aiger::Replay { frame: 3 })
    );
    assert!(replay(&a, &w(&["1", "1"]), 0).is_err());
    assert!(replay(&a, &w(&["1", "0", "1", "1"]), 0)
        .unwrap_err()
        .contains("constraint"));
    let mut bad_init = w(&["1"]);
    bad_init.latches = vec![Some(true), Some(true)];
    assert!(replay(&a, &bad_init, 0).unwrap_err().contains("reset"));
    let text = w(&["1", "1", "1", "1"]).to_text();
    assert_eq!(text, "1\nb0\n00\n1\n1\n1\n1\n.\n");
    assert_eq!(Witness::parse(&text).unwrap(), w(&["1", "1", "1", "1"]));
}

/// A random circuit: `ni` inputs, `nl` latches, gates over earlier signals, one bad, maybe a
/// constraint.
fn random_aig(ni: usize, nl: usize, gates: &[(u16, u16)], resets: &[u8], extra: (u16, u16)) -> Aig {
    let mut a = Aig::new();
    let mut sig = vec![0u32, 1u32];
    for _ in 0..ni {
        sig.push(a.add_input());
    }
    for k in 0..nl {
        let r = match resets.get(k).copied().unwrap_or(0) % 3 {
            0 => Reset::Zero,
            1 => Reset::One,
            _ => Reset::Uninit,
        };
        sig.push(a.add_latch(0, r));
    }
    for &(x, y) in gates {
        let p = sig[x as usize % sig.len()] ^ (x as u32 >> 15);
        let q = sig[y as usize % sig.len()] ^ (y as u32 & 1);
        let g = a.and(p, q);
        sig.push(g);
    }
    for k in 0..nl {
        let n = sig[(gates.len() * 7 + k * 13) % sig.len()] ^ (k as u32 & 1);
        a.set_next(k, n);
    }
    a.bad.push(sig[extra.0 as usize % sig.len()]);
    if extra.1 % 2 == 1 {
        a.constraints.push(sig[extra.1 as usize % sig.len()]);
    }
    a.outputs.push(sig[(extra.0 as usize + 1) % sig.len()]);
    a.symbols.push(('i', 0, "x y".into()));
    a.symbols.retain(|_| ni > 0);
    a
}

/// Reference: simulate one lane concretely by recursive evaluation (independent of `Sim`).
fn eval(a: &Aig, vals: &std::collections::HashMap<u32, bool>, l: u32) -> bool {
    let v = l >> 1;
    let x = if v == 0 {
        false
    } else if let Some(&b) = vals.get(&v) {
        b
    } else {
        let g = a.ands.iter().find(|g| g.lhs >> 1 == v).unwrap();
        eval(a, vals, g.rhs0) && eval(a, vals, g.rhs1)
    };
    x ^ (l & 1 == 1)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    #[test]
    fn writers_round_trip_and_sim_matches_reference(
        ni in 0usize..4, nl in 0usize..4,
        gates in proptest::collection::vec((any::<u16>(), any::<u16>()), 0..20),
        resets in proptest::collection::vec(any::<u8>(), 4),
        extra in (any::<u16>(), any::<u16>()),
        frames in proptest::collection::vec(any::<u8>(), 1..5),
    ) {
        let a = random_aig(ni, nl, &gates, &resets, extra);
        let back = parse("r.aag", a.to_aag().as_bytes()).unwrap();
        prop_assert_eq!(&back, &a);
        let bin = parse("r.aig", &a.to_aig()).unwrap();
        prop_assert_eq!(&bin, &a.renumbered());
        // binary order preserves behaviour: same bad values on the same inputs
        let r = a.renumbered();
        let mut s1 = Sim::new(&a);
        let mut s2 = Sim::new(&r);
        let mut state: Vec<bool> = a.latches.iter().map(|l| l.reset == Reset::One).collect();
        let lv: Vec<Ternary> = state.iter().map(|&b| Ternary::from_bool(b)).collect();
        s1.set_latches(&lv);
        s2.set_latches(&lv);
        for f in frames {
            let inp: Vec<bool> = (0..ni).map(|k| f >> k & 1 == 1).collect();
            let it: Vec<Ternary> = inp.iter().map(|&b| Ternary::from_bool(b)).collect();
            s1.eval(&it);
            s2.eval(&it);
            let mut vals = std::collections::HashMap::new();
            for (k, &l) in a.inputs.iter().enumerate() { vals.insert(l >> 1, inp[k]); }
            for (k, l) in a.latches.iter().enumerate() { vals.insert(l.lit >> 1, state[k]); }
            let want = eval(&a, &vals, a.bad[0]);
            prop_assert_eq!(s1.lit(a.bad[0]).lane(5), Some(want));
            prop_assert_eq!(s2.lit(r.bad[0]).lane(5), Some(want));
            state = a.latches.iter().map(|l| eval(&a, &vals, l.next)).collect();
            s1.step();
            s2.step();
        }
    }
}
