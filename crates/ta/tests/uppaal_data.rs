//! The shared UPPAAL models: every non-SMC `.xml` parses or is refused by name with a located
//! error; a floor on how many parse.

use std::path::{Path, PathBuf};
use verikit_diag::SourceFile;
use verikit_ta::parse_uppaal;

fn xml_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            xml_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "xml") {
            out.push(p);
        }
    }
}

#[test]
fn every_shared_uppaal_model_parses_or_is_refused_with_a_location() {
    let dir = verikit_testkit::require_data!("ta/uppaal");
    let mut files = Vec::new();
    xml_files(&dir, &mut files);
    files.sort();
    assert!(files.len() >= 100, "found only {} .xml files", files.len());
    let mut ok = 0;
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let t0 = std::time::Instant::now();
        let r = parse_uppaal(&text);
        if t0.elapsed().as_secs_f64() > 0.5 {
            eprintln!("slow: {} {:?}", f.display(), t0.elapsed());
        }
        match r {
            Ok(_) => ok += 1,
            Err(d) => {
                let src = SourceFile::new(f.display().to_string(), text);
                let loc = d.location(&src);
                eprintln!("refused: {}", d.one_line(&src));
                assert!(loc.is_some(), "{}: error without a location", f.display());
            }
        }
    }
    eprintln!("{ok} of {} UPPAAL models parse", files.len());
    assert!(ok >= 73, "only {ok} of {} parse", files.len());
}

/// Every UPPAAL row of EXPECTED.tsv with a stated verdict whose model and query we accept is
/// answered within a small budget: 0 wrong, a floor on how many agree; every trace replays and
/// its last state satisfies (`E<>`) or violates (`A[]`) the formula.
#[test]
fn expected_uppaal_verdicts_agree() {
    let root = verikit_testkit::require_data!("ta");
    let text = std::fs::read_to_string(root.join("EXPECTED.tsv")).unwrap();
    let (mut agree, mut wrong, mut undecided) = (0, Vec::new(), 0);
    for line in text.lines().skip(1) {
        let c: Vec<&str> = line.split('\t').collect();
        if c.len() < 4 || c[1] != "uppaal-xml" || !(c[3] == "satisfied" || c[3] == "not satisfied")
        {
            continue;
        }
        let Ok(src) = std::fs::read_to_string(root.join(c[0])) else {
            continue;
        };
        let Ok(um) = parse_uppaal(&src) else { continue };
        let formula = c[2].split("   /*").next().unwrap_or("").trim();
        let Ok(q) = um.query_text(formula) else {
            continue;
        };
        let budget = verikit_diag::Budget::with_timeout(std::time::Duration::from_secs(5));
        let r = verikit_ta::check_query(&um, &q, verikit_ta::Options::default(), &budget).unwrap();
        let Some(sat) = r.satisfied else {
            undecided += 1;
            continue;
        };
        if sat != (c[3] == "satisfied") {
            wrong.push(format!("{} {}: got {sat}", c[0], formula));
            continue;
        }
        if let Some(tt) = &r.search.timed {
            let end = verikit_ta::replay_end(&um.model, tt).unwrap();
            let n = um.model.processes.len();
            let holds = q
                .holds_at(n, &end.state, end.deadlocked, &end.clocks)
                .unwrap();
            assert_eq!(
                holds,
                q.kind == verikit_ta::QueryKind::Reach,
                "{}: trace end",
                c[0]
            );
        }
        agree += 1;
    }
    eprintln!(
        "UPPAAL rows: {agree} agree, {undecided} undecided in 5 s, {} wrong",
        wrong.len()
    );
    assert!(wrong.is_empty(), "wrong verdicts: {wrong:#?}");
    assert!(agree >= 29, "only {agree} rows agree");
}

/// Every UPPAAL row of EXPECTED.tsv whose query mentions `deadlock` (none has a recorded
/// verdict): answered within a small budget; a query its comment calls deadlock-free is never
/// answered `false`; every witness replays and the independent checker confirms that its end
/// satisfies (`E<>`) or violates (`A[]`) the formula, `deadlock` decided on the exact valuation.
#[test]
fn deadlock_rows_are_answered_and_witnesses_replay() {
    let root = verikit_testkit::require_data!("ta");
    let text = std::fs::read_to_string(root.join("EXPECTED.tsv")).unwrap();
    let (mut decided, mut undecided, mut deadlocks) = (0, 0, 0);
    for line in text.lines().skip(1) {
        let c: Vec<&str> = line.split('\t').collect();
        if c.len() < 4 || c[1] != "uppaal-xml" || !c[2].contains("deadlock") {
            continue;
        }
        let Ok(src) = std::fs::read_to_string(root.join(c[0])) else {
            continue;
        };
        let Ok(um) = parse_uppaal(&src) else { continue };
        let mut parts = c[2].splitn(2, "/*");
        let formula = parts.next().unwrap_or("").trim();
        let comment = parts.next().unwrap_or("").to_lowercase();
        let q = um.query_text(formula).unwrap();
        assert!(q.mentions_deadlock());
        // small budget: the larger instances (fischer 6+, gossip 5+, tcp) stay undecided
        let budget = verikit_diag::Budget::with_timeout(std::time::Duration::from_millis(1500));
        let r = verikit_ta::check_query(&um, &q, verikit_ta::Options::default(), &budget).unwrap();
        let Some(sat) = r.satisfied else {
            undecided += 1;
            continue;
        };
        decided += 1;
        let claimed_free = comment.contains("deadlock free")
            || comment.contains("deadlock-free")
            || comment.contains("no deadlock")
            || comment.contains("never deadlock");
        assert!(sat || !claimed_free, "{} {formula}: a deadlock", c[0]);
        if let Some(tt) = &r.search.timed {
            let end = verikit_ta::replay_end(&um.model, tt).unwrap();
            let n = um.model.processes.len();
            let reach = q.kind == verikit_ta::QueryKind::Reach;
            let holds = q
                .holds_at(n, &end.state, end.deadlocked, &end.clocks)
                .unwrap();
            assert_eq!(holds, reach, "{}: trace end", c[0]);
            deadlocks += usize::from(end.deadlocked);
        }
        eprintln!("{} {formula}: {sat}", c[0]);
    }
    eprintln!("deadlock rows: {decided} decided, {undecided} undecided in 1.5 s, {deadlocks} deadlock witnesses");
    // 17 decided in 5 s on a loaded machine (bench/results/ta-uppaal.md); the small instances
    // (2doors, bridge, fischer 2/4, scheduler 2/4/6, gossip 3, templates) take milliseconds
    assert!(decided >= 10, "only {decided} deadlock rows decided");
}
