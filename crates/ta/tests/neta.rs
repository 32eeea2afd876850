//! Nested timed automata with invariants (Wang–Li–Yuen SETTA'17): frozen and proceeding frames,
//! good stacks, global clocks, the stack bound, witnesses replayed by the independent checker,
//! located errors.

use proptest::prelude::*;
use verikit_diag::Budget;
use verikit_ta::{
    neta_reach, neta_summaries, parse_neta, replay_neta, resolve_neta_labels, run_neta, NetaClass,
    NetaOptions, NetaResult, NetaSummaryResult,
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
/// height must find a witness, which the independent checker replays.
fn exact(text: &str, labels: &[&str]) -> NetaSummaryResult {
    let n = parse_neta(text).unwrap();
    let names: Vec<String> = labels.iter().map(|s| s.to_string()).collect();
    let ids = resolve_neta_labels(&n, &names).unwrap();
    let s = neta_summaries(&n, &ids, &Budget::unlimited());
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
fn summaries_refuse_global_clocks_and_f_push_by_name() {
    for (name, why) in [
        ("frozen.neta", "global clocks"),
        ("global.neta", "global clocks"),
    ] {
        let s = exact(&model(name), &[]);
        assert!(s.refused.is_some_and(|r| r.starts_with(why)), "{name}");
        assert_eq!(s.reachable, None);
    }
    let fpush = model("call.neta").replace("do: push", "do: fpush");
    let s = exact(&fpush, &["back"]);
    assert!(s.refused.is_some_and(|r| r.starts_with("F-push")));
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

/// A random NeTA-I without global clocks or F-push: `auts` automata of 3 locations, clocks x, y.
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
        0..4u8,
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
    /// The exact procedure never disagrees with the bounded search where that one answers, and a
    /// reachable answer always has a witness within the derived stack height.
    #[test]
    fn summaries_agree_with_the_bounded_search(text in random_neta()) {
        let n = parse_neta(&text).map_err(|e| TestCaseError::fail(format!("{}\n{text}", e.message)))?;
        let ids = resolve_neta_labels(&n, &["goal".to_string()]).unwrap();
        let s = neta_summaries(&n, &ids, &Budget::unlimited());
        prop_assert!(s.refused.is_none());
        let b = neta_reach(&n, &ids, &NetaOptions { stack_bound: 3 }, &Budget::unlimited());
        if let Some(v) = b.reachable {
            prop_assert_eq!(s.reachable, Some(v), "{}", text);
        }
        if s.reachable == Some(true) {
            let w = neta_reach(&n, &ids, &NetaOptions { stack_bound: s.depth }, &Budget::unlimited());
            prop_assert_eq!(w.reachable, Some(true), "depth {}\n{}", s.depth, text);
            prop_assert!(replay_neta(&n, &w.trace, &ids).is_ok());
        }
        prop_assert!(s.reachable.is_some());
    }
}
