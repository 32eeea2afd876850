//! Nested timed automata with invariants (Wang–Li–Yuen SETTA'17): frozen and proceeding frames,
//! good stacks, global clocks, the stack bound, witnesses replayed by the independent checker,
//! located errors.

use proptest::prelude::*;
use verikit_diag::Budget;
use verikit_ta::{
    check_neta_certificate, neta_reach, neta_summaries, parse_neta, replay_neta,
    resolve_neta_labels, run_neta, CertificateError, NetaClass, NetaOptions, NetaResult,
    NetaSummaries, NetaSummaryResult,
};

fn model(name: &str) -> String {
    let p = format!("{}/tests/neta/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{p}: {e}"))
}

fn reach(text: &str, labels: &[&str], bound: usize) -> NetaResult {
    let n = parse_neta(text).unwrap();
    let names: Vec<String> = labels.iter().map(|s| s.to_string()).collect();
    let ids = resolve_neta_labels(&n, &names).unwrap();
    let r = neta_reach(
        &n,
        &ids,
        &NetaOptions { stack_bound: bound },
        &Budget::unlimited(),
    );
    if r.reachable == Some(true) {
        replay_neta(&n, &r.trace, &ids).unwrap();
        if let Some((_, prefix)) = r.trace.split_last() {
            assert!(
                replay_neta(&n, prefix, &ids).is_err(),
                "a shorter witness also reaches"
            );
        }
    }
    r
}

#[test]
fn a_frozen_frame_waits_and_a_proceeding_one_must_keep_its_invariant() {
    let r = reach(&model("frozen.neta"), &["frozen_ok"], 4);
    assert_eq!(r.reachable, Some(true));
    assert_eq!(r.trace.len(), 5, "{:?}", r.trace);
    assert_eq!(r.max_depth, 1);
    // with push the stacked A0 keeps running: x<=1 at q1 forbids A1's wait of 2 (v⇑ fails)
    let r = reach(&model("proceeding.neta"), &["frozen_ok"], 4);
    assert_eq!(r.reachable, Some(false));
    assert!(!r.bound_hit);
    // without the invariant the proceeding frame is back at x = 3, not 1
    let free = model("proceeding.neta").replace("{invariant: x<=1}", "");
    assert_eq!(reach(&free, &["frozen_ok"], 4).reachable, Some(false));
    let free3 = free.replace("c==3 && x==1", "c==3 && x==3");
    assert_eq!(reach(&free3, &["frozen_ok"], 4).reachable, Some(true));
}

#[test]
fn global_clocks_carry_values_across_contexts() {
    let text = model("global.neta");
    assert_eq!(reach(&text, &["loaded"], 2).reachable, Some(true));
    let r = reach(&text, &["impossible"], 2);
    assert_eq!(r.reachable, Some(false));
    assert_eq!(r.max_depth, 1);
}

#[test]
fn unbounded_recursion_is_unknown_not_false() {
    let r = reach(&model("recursion.neta"), &["never"], 3);
    assert_eq!(r.reachable, None);
    assert!(r.bound_hit);
    assert_eq!(r.max_depth, 3);
}

#[test]
fn decidability_classes_of_the_paper() {
    let class = |name: &str| NetaClass::of(&parse_neta(&model(name)).unwrap());
    // one global clock and invariants: Theorem 1 (§4), undecidable
    assert_eq!(class("frozen.neta"), NetaClass::OneGlobalWithInvariants);
    assert!(!NetaClass::OneGlobalWithInvariants.decidable());
    assert_eq!(class("global.neta"), NetaClass::OneGlobalNoInvariants);
    assert_eq!(class("recursion.neta"), NetaClass::NoGlobalClocks);
    assert!(NetaClass::NoGlobalClocks.decidable());
    let two = model("global.neta").replace("global:c\n", "global:c\nglobal:d\n");
    assert_eq!(
        NetaClass::of(&parse_neta(&two).unwrap()),
        NetaClass::ManyGlobals
    );
}

#[test]
fn bad_input_is_located() {
    let base = "system:s\nclock:x\nglobal:c\nautomaton:A\nautomaton:B\nlocation:A:q{initial:}\nlocation:B:r{initial:}\nlocation:B:s\n";
    let cases = [
        (
            "edge:A:q:B:r{do: x=0}\n",
            "B:r{",
            "change the working automaton",
        ),
        (
            "edge:A:q:B:s{do: push}\n",
            "edge:A:q:B:s",
            "initial location",
        ),
        (
            "edge:A:q:A:q{do: push; x=0}\n",
            "edge:A:q:A:q",
            "last action",
        ),
        ("edge:A:q:A:q{do: c=c}\n", "c=c", "global ← global"),
        ("edge:A:q:A:q{do: y=0}\n", "y", "undeclared clock"),
        ("edge:A:q:A:zz\n", "zz", "undeclared location"),
        (
            "edge:A:q:A:q{provided: x != 2}\n",
            "x != 2",
            "invalid clock constraint",
        ),
    ];
    for (edge, at, msg) in cases {
        let text = format!("{base}{edge}");
        let e = parse_neta(&text).unwrap_err();
        assert!(e.message.contains(msg), "{edge}: {}", e.message);
        let span = e.span.unwrap_or_else(|| panic!("unlocated: {}", e.message));
        let want = text.rfind(at).unwrap();
        assert!(
            span.start <= want && want <= span.end,
            "{}: {:?} vs {want}",
            e.message,
            span
        );
    }
    assert!(parse_neta("system:s\n")
        .unwrap_err()
        .message
        .contains("automaton"));
}

#[test]
fn parser_is_total() {
    let seeds = [
        model("frozen.neta"),
        model("global.neta"),
        model("recursion.neta"),
    ];
    let seeds: Vec<&str> = seeds.iter().map(String::as_str).collect();
    verikit_testkit::assert_parser_total(&seeds, 2000, parse_neta);
}

/// The exact procedure (summaries); when reachable, the bounded search under the derived stack
/// height must find a witness, which the independent checker replays; when unreachable, the
/// region checker must accept the certificate.
fn exact(text: &str, labels: &[&str]) -> NetaSummaryResult {
    let n = parse_neta(text).unwrap();
    let names: Vec<String> = labels.iter().map(|s| s.to_string()).collect();
    let ids = resolve_neta_labels(&n, &names).unwrap();
    let s = neta_summaries(&n, &ids, &Budget::unlimited());
    if s.reachable == Some(false) {
        let c =
            check_neta_certificate(&n, &ids, s.max_constant, &s.summaries, &Budget::unlimited());
        assert_eq!(c, Ok(()), "the certificate of {labels:?} is rejected");
    }
    if s.reachable == Some(true) {
        let r = reach(text, labels, s.depth);
        assert_eq!(
            r.reachable,
            Some(true),
            "no witness within {} frames",
            s.depth
        );
    }
    s
}

#[test]
fn summaries_decide_calls_that_must_keep_the_caller_good() {
    let text = model("call.neta");
    let s = exact(&text, &["back"]);
    assert_eq!(s.refused, None);
    assert_eq!(s.reachable, Some(false));
    // the certificate: A1 returns to A0.q1 after 2 units or more, A0 reaches no target
    assert_eq!(
        s.summaries.returns,
        vec![(
            (1, 0, 1),
            ["[2,2]", "(2,3)", "[3,3]", "(3,ω)"]
                .map(String::from)
                .to_vec()
        )]
    );
    assert!(s.summaries.targets.is_empty());
    let inside = exact(&text, &["inside"]);
    assert_eq!((inside.reachable, inside.depth), (Some(true), 1));
    // a pending call is still bound by the caller's invariant: `late` is at x = 2 in A1, x = 3 in A0
    assert_eq!(exact(&text, &["late"]).reachable, Some(false));
    let free = text.replace("{invariant: x<=1}", "");
    assert_eq!(exact(&free, &["back"]).reachable, Some(true));
    assert_eq!(exact(&free, &["late"]).reachable, Some(true));
}

#[test]
fn summaries_decide_unbounded_recursion() {
    // the bounded search cannot answer: the stack grows without bound
    assert_eq!(
        reach(&model("recursion.neta"), &["never"], 3).reachable,
        None
    );
    let s = exact(&model("recursion.neta"), &["never"]);
    assert_eq!(s.reachable, Some(false));
    let deep = model("deep.neta");
    let done = exact(&deep, &["done"]);
    assert_eq!((done.reachable, done.depth), (Some(true), 1));
    let bottom = exact(&deep, &["bottom"]);
    assert_eq!((bottom.reachable, bottom.depth), (Some(true), 2));
    assert_eq!(reach(&deep, &["never"], 4).reachable, None);
    assert_eq!(exact(&deep, &["never"]).reachable, Some(false));
    let free = deep.replace(" : invariant: x<=2", "");
    let s = exact(&free, &["never"]);
    assert_eq!((s.reachable, s.depth), (Some(true), 1));
}

#[test]
fn summaries_refuse_global_clocks_by_name() {
    for name in ["frozen.neta", "global.neta"] {
        let s = exact(&model(name), &[]);
        assert!(
            s.refused.is_some_and(|r| r.starts_with("global clocks")),
            "{name}"
        );
        assert_eq!(s.reachable, None);
    }
}

/// Wang–Li–Yuen Def. 4: an F-pushed frame is frozen, so its invariant cannot be broken by the
/// callee's time, and it comes back with the clocks it had.
#[test]
fn summaries_decide_f_push_exactly() {
    let fpush = model("call.neta").replace("do: push", "do: fpush");
    let s = exact(&fpush, &["back"]);
    assert_eq!(s.refused, None);
    // A0 comes back at x = 1 (frozen), and x<=1 at q1 keeps it from x==3
    assert_eq!(s.reachable, Some(false));
    // the call of 2 units is allowed now: `late` is reachable, the frozen frame stays good
    assert_eq!(exact(&fpush, &["late"]).reachable, Some(true));
    let free = fpush.replace("{invariant: x<=1}", "");
    assert_eq!(exact(&free, &["back"]).reachable, Some(true));
    // the time of an F-pushed call still passes for a proceeding frame further down: A0 (pushed,
    // x<=1) cannot stay on the stack while A2, called by the frozen A1, waits 2 units
    let three = "system:three\nclock:x\nautomaton:A0\nautomaton:A1\nautomaton:A2\n\
        location:A0:q0{initial: : invariant: x<=1}\nlocation:A1:r0{initial:}\n\
        location:A2:s0{initial:}\nlocation:A2:s1{labels: late}\n\
        edge:A0:q0:A1:r0{do: push}\nedge:A1:r0:A2:s0{do: fpush}\nedge:A2:s0:A2:s1{provided: x==2}\n";
    let s = exact(three, &["late"]);
    assert_eq!((s.refused, s.reachable), (None, Some(false)));
    let frozen = three.replace("{do: push}", "{do: fpush}");
    let s = exact(&frozen, &["late"]);
    assert_eq!((s.reachable, s.depth), (Some(true), 2));
}

/// The unreachability certificate of `call.neta`/`back` is accepted by the region checker, and
/// every corruption of it is rejected.
#[test]
fn corrupted_certificates_are_rejected() {
    let text = model("call.neta");
    let n = parse_neta(&text).unwrap();
    let ids = resolve_neta_labels(&n, &["back".to_string()]).unwrap();
    let s = exact(&text, &["back"]);
    assert_eq!(s.reachable, Some(false));
    let check =
        |c: &NetaSummaries, m: i32| check_neta_certificate(&n, &ids, m, c, &Budget::unlimited());
    assert_eq!(check(&s.summaries, s.max_constant), Ok(()));
    let rejected =
        |r: Result<(), CertificateError>| matches!(r, Err(CertificateError::Rejected(_)));
    // a duration left out of S(A1, A0.q1)
    let mut c = s.summaries.clone();
    c.returns[0].1.retain(|d| d != "(2,3)");
    assert!(rejected(check(&c, s.max_constant)));
    // the whole summary dropped
    let mut c = s.summaries.clone();
    c.returns.clear();
    assert!(rejected(check(&c, s.max_constant)));
    // a target claimed for A0, a malformed interval, the wrong constant
    let mut c = s.summaries.clone();
    c.targets.push((0, vec!["[0,0]".to_string()]));
    assert!(rejected(check(&c, s.max_constant)));
    let mut c = s.summaries.clone();
    c.returns[0].1.push("(3,4)".to_string());
    assert!(rejected(check(&c, s.max_constant)));
    assert!(rejected(check(&s.summaries, s.max_constant + 1)));
    // with the invariant gone `back` is reachable: the old certificate must not prove it isn't
    let free = parse_neta(&text.replace("{invariant: x<=1}", "")).unwrap();
    assert!(rejected(check_neta_certificate(
        &free,
        &ids,
        s.max_constant,
        &s.summaries,
        &Budget::unlimited()
    )));
    // a superset of the fixed point is still a valid certificate when it proves the claim
    let mut c = s.summaries.clone();
    c.returns[0].1.push("[0,0]".to_string());
    assert_eq!(check(&c, s.max_constant), Ok(()));
}

#[test]
fn the_command_answers_exactly_with_a_replayed_witness_or_the_fixed_point() {
    let labels = |l: &str| vec![l.to_string()];
    let opts = NetaOptions { stack_bound: 1 };
    let a = run_neta(
        &model("deep.neta"),
        &labels("never"),
        &opts,
        &Budget::unlimited(),
    )
    .unwrap();
    let j = a.to_json();
    assert_eq!(j["verdict"], "false", "{j}");
    assert_eq!(j["procedure"], "summaries");
    assert!(j["certificate"]["returns"].is_array(), "{j}");
    let a = run_neta(
        &model("deep.neta"),
        &labels("done"),
        &opts,
        &Budget::unlimited(),
    )
    .unwrap();
    let j = a.to_json();
    assert_eq!(j["verdict"], "true", "{j}");
    assert_eq!(j["witness"]["replayed"], true);
    assert_eq!(j["stats"]["stack_bound"], 1);
    let a = run_neta(
        &model("frozen.neta"),
        &labels("frozen_ok"),
        &opts,
        &Budget::unlimited(),
    )
    .unwrap();
    let j = a.to_json();
    assert_eq!(j["procedure"], "bounded search");
    assert!(j["exact_procedure_refused"].is_string());
}

/// A random NeTA-I without global clocks (push, F-push, pop): `auts` automata of 3 locations, clocks x, y.
fn random_neta() -> impl Strategy<Value = String> {
    let guard = prop_oneof![
        Just(String::new()),
        (0..2usize, 0..5usize, 0..3i32).prop_map(|(c, o, v)| {
            let c = ["x", "y"][c];
            let o = ["<", "<=", "==", ">=", ">"][o];
            format!("provided: {c}{o}{v}")
        }),
    ];
    let action = prop_oneof![
        Just(String::new()),
        Just("x=0".to_string()),
        Just("y=0".to_string()),
        Just("x=y".to_string()),
    ];
    let edge = (
        0..2usize,
        0..3u32,
        0..2usize,
        0..3u32,
        guard,
        action,
        0..5u8,
    );
    let inv = proptest::collection::vec(
        prop_oneof![Just(None), (0..2usize, 1..3i32).prop_map(Some)],
        6,
    );
    let label = (0..2usize, 0..3u32);
    (proptest::collection::vec(edge, 1..9), inv, label).prop_map(|(edges, inv, (la, lq))| {
        let mut t = String::from("system:r\nclock:x\nclock:y\nautomaton:A\nautomaton:B\n");
        for (a, an) in ["A", "B"].iter().enumerate() {
            for q in 0..3u32 {
                let mut attrs = Vec::new();
                if q == 0 {
                    attrs.push("initial:".to_string());
                }
                if let Some(Some((c, v))) = inv.get(a * 3 + q as usize) {
                    attrs.push(format!("invariant: {}<={v}", ["x", "y"][*c]));
                }
                if (a, q) == (la, lq) {
                    attrs.push("labels: goal".to_string());
                }
                t.push_str(&format!("location:{an}:q{q}{{{}}}\n", attrs.join(" : ")));
            }
        }
        for (a, q, b, r, g, act, kind) in edges {
            let sep = if g.is_empty() { "" } else { " : " };
            let (an, bn) = (["A", "B"][a], ["A", "B"][b]);
            let line = match kind {
                // push: B or A starts at its initial location
                0 => format!("edge:{an}:q{q}:{bn}:q0{{{g}{sep}do: push}}\n"),
                4 => format!("edge:{an}:q{q}:{bn}:q0{{{g}{sep}do: fpush}}\n"),
                // pop: resume (b, r)
                1 => format!("edge:{an}:q{q}:{bn}:q{r}{{{g}{sep}do: pop}}\n"),
                _ if act.is_empty() => format!("edge:{an}:q{q}:{an}:q{r}{{{g}}}\n"),
                _ => format!("edge:{an}:q{q}:{an}:q{r}{{{g}{sep}do: {act}}}\n"),
            };
            t.push_str(&line);
        }
        t
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]
    /// The exact procedure never disagrees with the bounded search where that one answers (a
    /// bounded `true` is found, an exact `false` never contradicts it), a reachable answer always
    /// has a witness within the derived stack height, and an unreachable answer's certificate is
    /// accepted by the region checker while the same certificate with any one duration removed
    /// is rejected; a reachable answer's summaries with the targets emptied are rejected.
    #[test]
    fn summaries_agree_with_the_bounded_search(text in random_neta()) {
        let n = parse_neta(&text).map_err(|e| TestCaseError::fail(format!("{}\n{text}", e.message)))?;
        let ids = resolve_neta_labels(&n, &["goal".to_string()]).unwrap();
        let s = neta_summaries(&n, &ids, &Budget::unlimited());
        prop_assert!(s.refused.is_none());
        // with F-push the bounded search has no abstraction: a work limit keeps it short
        let limited = || Budget::unlimited().with_work_limit(20_000);
        let b = neta_reach(&n, &ids, &NetaOptions { stack_bound: 3 }, &limited());
        if let Some(v) = b.reachable {
            prop_assert_eq!(s.reachable, Some(v), "{}", text);
        }
        if s.reachable == Some(true) {
            let w = neta_reach(&n, &ids, &NetaOptions { stack_bound: s.depth }, &Budget::unlimited());
            prop_assert_eq!(w.reachable, Some(true), "depth {}\n{}", s.depth, text);
            prop_assert!(replay_neta(&n, &w.trace, &ids).is_ok());
            // no certificate can prove a reachable target unreachable: the fixed point with its
            // target sets emptied is rejected
            let mut c = s.summaries.clone();
            c.targets.clear();
            let r = check_neta_certificate(&n, &ids, s.max_constant, &c, &Budget::unlimited());
            prop_assert!(matches!(r, Err(CertificateError::Rejected(_))), "{}", text);
        }
        prop_assert!(s.reachable.is_some());
        if s.reachable == Some(false) {
            let check = |c: &NetaSummaries| check_neta_certificate(&n, &ids, s.max_constant, c, &Budget::unlimited());
            prop_assert_eq!(check(&s.summaries), Ok(()), "{}", text);
            for (r, (_, ds)) in s.summaries.returns.iter().enumerate() {
                for d in 0..ds.len() {
                    let mut c = s.summaries.clone();
                    c.returns[r].1.remove(d);
                    prop_assert!(matches!(check(&c), Err(CertificateError::Rejected(_))), "{:?} kept\n{}", c, text);
                }
            }
        }
    }
}
