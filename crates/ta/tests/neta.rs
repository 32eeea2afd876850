//! Nested timed automata with invariants (Wang–Li–Yuen SETTA'17): frozen and proceeding frames,
//! good stacks, global clocks, the stack bound, witnesses replayed by the independent checker,
//! located errors.

use verikit_diag::Budget;
use verikit_ta::{
    neta_reach, parse_neta, replay_neta, resolve_neta_labels, NetaClass, NetaOptions, NetaResult,
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
