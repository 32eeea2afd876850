//! Communicating timed automata (Krčál–Yi CAV'06): topology classification, reachability with
//! urgent reading, witnesses replayed by the independent checker, located errors.

use proptest::prelude::*;
use verikit_diag::Budget;
use verikit_ta::{
    check_topology, classify_topology, cta_one_counter, cta_reach, cta_unreachable_summarised,
    not_applicable, parse_cta, replay_cta, resolve_cta_labels, run_cta, CtaOptions, Topology,
};

fn model(name: &str) -> String {
    let p = format!("{}/tests/cta/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{p}: {e}"))
}

fn reach(text: &str, labels: &[&str], bound: usize) -> verikit_ta::CtaResult {
    let cta = parse_cta(text).unwrap();
    let names: Vec<String> = labels.iter().map(|s| s.to_string()).collect();
    let ids = resolve_cta_labels(&cta, &names).unwrap();
    let r = cta_reach(
        &cta,
        &ids,
        &CtaOptions {
            channel_bound: bound,
        },
        &Budget::unlimited(),
    )
    .unwrap();
    if r.reachable == Some(true) {
        replay_cta(&cta, &r.trace, &ids).unwrap();
        // a witness missing its last step does not reach the target
        let short = &r.trace[..r.trace.len().saturating_sub(1)];
        assert!(replay_cta(&cta, short, &ids).is_err() || r.trace.is_empty());
    }
    r
}

#[test]
fn urgent_reading_forbids_eps_while_a_read_is_enabled() {
    let text = model("urgent.cta");
    // B's eps at y>=2 once `a` (sent at time 1) is at the head: forbidden, the read is enabled
    let r = reach(&text, &["err", "sent"], 4);
    assert_eq!(r.reachable, Some(false));
    assert_eq!(r.topology, Topology::OneChannel);
    assert_eq!(r.max_channel, 1);
    // before anything is sent the eps move is free
    assert_eq!(reach(&text, &["err"], 4).reachable, Some(true));
    assert_eq!(reach(&text, &["ok"], 4).reachable, Some(true));
    // when the read is disabled after time 1 (guard y<=1) the eps move is allowed again
    let relaxed = text.replace("c?a{provided: y>=0}", "c?a{provided: y<=1}");
    let r = reach(&relaxed, &["err", "sent"], 4);
    assert_eq!(r.reachable, Some(true));
    assert_eq!(r.trace.len(), 2);
}

#[test]
fn the_channel_counts_and_the_bound_is_reported() {
    let text = model("counter.cta");
    let r = reach(&text, &["done", "finished"], 8);
    assert_eq!(r.reachable, Some(true));
    let r = reach(&text, &["never"], 8);
    assert_eq!(
        r.reachable,
        Some(false),
        "exhaustive: the channel stays short"
    );
    assert!(
        r.max_channel >= 2 && r.max_channel <= 4,
        "{}",
        r.max_channel
    );
    let exact = r.max_channel;
    // one letter less room: the search is cut and an unreached target is unknown
    let r = reach(&text, &["never"], exact - 1);
    assert_eq!(r.reachable, None);
    assert!(r.bound_hit);
}

#[test]
fn an_unbounded_producer_is_unknown_not_false() {
    let r = reach(&model("producer.cta"), &["never"], 5);
    assert_eq!(r.reachable, None);
    assert!(r.bound_hit);
    assert_eq!(r.max_channel, 5);
}

fn summarised(text: &str, labels: &[&str], k: usize) -> Option<bool> {
    let cta = parse_cta(text).unwrap();
    let names: Vec<String> = labels.iter().map(|s| s.to_string()).collect();
    let ids = resolve_cta_labels(&cta, &names).unwrap();
    cta_unreachable_summarised(&cta, &ids, k, &Budget::unlimited()).unwrap()
}

#[test]
fn summarised_channels_prove_unreachability_beyond_the_bound() {
    // the unbounded producer: B never moves, whatever the channel holds
    assert_eq!(
        summarised(&model("producer.cta"), &["never"], 1),
        Some(true)
    );
    // FIFO order matters: `a a b` sent, B reads one `a` and then wants `b`
    let text = "system:s\nprocess:A\nprocess:B\nclock:A:x\nchannel:c:A:B\n\
        location:A:p0{initial:}\nlocation:A:p1\nlocation:A:p2\nlocation:A:p3\n\
        location:B:q0{initial:}\nlocation:B:q1\nlocation:B:n{labels: n}\n\
        edge:A:p0:p1:c!a{provided: x==1 : do: x=0}\nedge:A:p1:p2:c!a{provided: x==1 : do: x=0}\n\
        edge:A:p2:p3:c!b{provided: x==1 : do: x=0}\n\
        edge:B:q0:q1:c?a\nedge:B:q1:n:c?b\n";
    let r = reach(text, &["n"], 2);
    assert_eq!(r.reachable, None, "the bounded search is cut");
    // one exact letter: the tail {a, b} lets `b` be read too early (spurious)
    assert_eq!(summarised(text, &["n"], 1), Some(false));
    // two exact letters: the head after one read is `a`, so `b` is never read
    assert_eq!(summarised(text, &["n"], 2), Some(true));
    // and the exact search with room for the whole content agrees
    assert_eq!(reach(text, &["n"], 3).reachable, Some(false));
}

#[test]
fn summarised_channels_never_hide_a_reachable_target() {
    // soundness against the exact search on every example and label
    for name in ["urgent.cta", "counter.cta", "producer.cta"] {
        let text = model(name);
        let cta = parse_cta(&text).unwrap();
        for label in &cta.labels {
            let exact = reach(&text, &[label.as_str()], 8).reachable;
            for k in 1..=4 {
                let s = summarised(&text, &[label.as_str()], k);
                if exact == Some(true) {
                    assert_eq!(s, Some(false), "{name} {label} k={k}");
                }
            }
        }
    }
}

#[test]
fn topologies_are_classified_as_the_paper_says() {
    let base = "system:s\nprocess:A\nprocess:B\nprocess:C\nlocation:A:l{initial:}\nlocation:B:l{initial:}\nlocation:C:l{initial:}\n";
    let class = |chans: &str| classify_topology(&parse_cta(&format!("{base}{chans}")).unwrap()).0;
    assert_eq!(class(""), Topology::NoChannel);
    assert_eq!(class("channel:c:A:B\n"), Topology::OneChannel);
    assert_eq!(class("channel:c:A:B\nchannel:d:B:C\n"), Topology::Chain);
    assert_eq!(class("channel:d:B:C\nchannel:c:A:B\n"), Topology::Chain);
    assert_eq!(class("channel:c:A:B\nchannel:d:B:A\n"), Topology::TwoWay);
    assert_eq!(class("channel:c:A:B\nchannel:d:A:B\n"), Topology::Parallel);
    assert_eq!(class("channel:c:A:A\n"), Topology::SelfLoop);
    assert_eq!(
        class("channel:c:A:B\nchannel:d:A:C\n"),
        Topology::Unclassified
    );
    assert_eq!(
        class("channel:c:A:C\nchannel:d:B:C\n"),
        Topology::Unclassified
    );
    // a cycle of three contains a chain
    assert_eq!(
        class("channel:c:A:B\nchannel:d:B:C\nchannel:e:C:A\n"),
        Topology::Chain
    );
    for t in [Topology::NoChannel, Topology::OneChannel] {
        assert_eq!(t.decidable(), Some(true));
    }
    for t in [
        Topology::Chain,
        Topology::TwoWay,
        Topology::Parallel,
        Topology::SelfLoop,
    ] {
        assert_eq!(t.decidable(), Some(false));
    }
    assert_eq!(Topology::Unclassified.decidable(), None);
}

#[test]
fn the_chain_of_figure_2_is_refused_by_name_at_its_channel() {
    let text = model("chain.cta");
    let cta = parse_cta(&text).unwrap();
    let e = check_topology(&cta).unwrap_err();
    assert!(e.message.contains("chain"), "{}", e.message);
    assert!(e.message.contains("Theorem 2"), "{}", e.message);
    let at = text.find("channel:c12").unwrap();
    assert_eq!(e.span.map(|s| s.start), Some(at));
    let r = cta_reach(&cta, &[], &CtaOptions::default(), &Budget::unlimited());
    assert!(r.is_err());
}

#[test]
fn no_channel_is_a_plain_network() {
    let text = "system:s\nprocess:A\nclock:A:x\nlocation:A:l{initial:}\nlocation:A:m{labels: m}\nedge:A:l:m:eps{provided: x>3 && x<4}\n";
    let r = reach(text, &["m"], 1);
    assert_eq!(r.topology, Topology::NoChannel);
    assert_eq!(r.reachable, Some(true));
    let never = text.replace("x>3 && x<4", "x>3 && x<3");
    assert_eq!(reach(&never, &["m"], 1).reachable, Some(false));
}

#[test]
fn bad_input_is_located() {
    let cases = [
        ("system:s\nprocess:A\nlocation:A:l{initial: : invariant: x<=1}\n", "invariant", "invariants are not part"),
        ("system:s\nprocess:A\nprocess:B\nchannel:c:A:B\nlocation:B:l{initial:}\nedge:B:l:l:c!a\n", "c!a", "not an end of channel"),
        ("system:s\nprocess:A\nlocation:A:l{initial:}\nedge:A:l:zz:eps\n", "zz", "undeclared location"),
        ("system:s\nprocess:A\nprocess:B\nclock:B:y\nlocation:A:l{initial:}\nedge:A:l:l:eps{provided: y<1}\n", "y<1", "another process"),
        ("system:s\nprocess:A\nclock:A:x\nlocation:A:l{initial:}\nedge:A:l:l:eps{do: x=2}\n", "2}", "to 0"),
        ("system:s\nprocess:A\nclock:A:x\nlocation:A:l{initial:}\nedge:A:l:l:eps{provided: x != 1}\n", "x != 1", "invalid clock constraint"),
    ];
    for (text, at, msg) in cases {
        let e = parse_cta(text).unwrap_err();
        assert!(e.message.contains(msg), "{text}: {}", e.message);
        let span = e.span.unwrap_or_else(|| panic!("unlocated: {}", e.message));
        let want = text.rfind(at).unwrap();
        assert!(
            span.start <= want + at.len() && want <= span.end,
            "{}: {:?} vs {want}",
            e.message,
            span
        );
    }
    assert!(parse_cta("process:A\n").is_err());
    assert!(parse_cta("system:s\nprocess:A\n")
        .unwrap_err()
        .message
        .contains("initial"));
}

#[test]
fn parser_is_total() {
    let seeds = [
        model("urgent.cta"),
        model("counter.cta"),
        model("chain.cta"),
    ];
    let seeds: Vec<&str> = seeds.iter().map(String::as_str).collect();
    verikit_testkit::assert_parser_total(&seeds, 2000, parse_cta);
}

/// The one-counter procedure's answer, its witness replayed on the synchronized semantics.
fn one_counter(text: &str, labels: &[&str]) -> Option<bool> {
    let cta = parse_cta(text).unwrap();
    assert_eq!(not_applicable(&cta), None);
    let names: Vec<String> = labels.iter().map(|s| s.to_string()).collect();
    let ids = resolve_cta_labels(&cta, &names).unwrap();
    let r = cta_one_counter(&cta, &ids, &Budget::unlimited());
    if r.reachable == Some(true) {
        replay_cta(&cta, &r.trace, &ids).unwrap_or_else(|e| panic!("{labels:?}: {e}"));
    }
    r.reachable
}

#[test]
fn the_one_counter_procedure_decides_an_unbounded_channel_exactly() {
    let text = model("fifo.cta");
    // both fast paths fail on `twice`: the channel grows without bound, and the summarised tail
    // {a, b} lets `b` be read twice
    let r = reach(&text, &["twice"], 6);
    assert_eq!(r.reachable, None);
    assert!(r.bound_hit);
    for k in [1, 2, 4] {
        assert_eq!(summarised(&text, &["twice"], k), Some(false), "k={k}");
    }
    assert_eq!(one_counter(&text, &["twice"]), Some(false));
    assert_eq!(one_counter(&text, &["got_b"]), Some(true));
    assert_eq!(one_counter(&text, &["got_b", "sent_b"]), Some(true));
    // the command: `false` from the one-counter procedure, named in the answer
    let names = vec!["twice".to_string()];
    let opts = CtaOptions { channel_bound: 4 };
    let a = run_cta(&text, &names, &opts, &Budget::unlimited()).unwrap();
    let j = a.to_json();
    assert_eq!(j["verdict"], "false", "{j}");
    assert!(
        j["procedure"].as_str().unwrap().contains("one-counter"),
        "{j}"
    );
    // an unbounded producer: B never moves
    assert_eq!(one_counter(&model("producer.cta"), &["never"]), Some(false));
}

#[test]
fn the_one_counter_procedure_says_when_it_does_not_apply() {
    // counter.cta: B's location b0 has an eps edge and a receive edge (urgent reading matters)
    let cta = parse_cta(&model("counter.cta")).unwrap();
    let why = not_applicable(&cta).unwrap();
    assert!(why.contains("b0") && why.contains("urgent"), "{why}");
    assert!(
        why.contains("Table 2"),
        "dense time refused by the paper's table: {why}"
    );
    let strict = model("fifo.cta").replace("c?b{provided: y==2", "c?b{provided: y<3");
    let why = not_applicable(&parse_cta(&strict).unwrap()).unwrap();
    assert!(why.contains("strict guard"), "{why}");
    assert!(
        why.contains("Tables 1–3"),
        "dense time refused by the paper's tables: {why}"
    );
    let none = "system:s\nprocess:A\nlocation:A:l{initial:}\n";
    assert!(not_applicable(&parse_cta(none).unwrap()).is_some());
}

/// A random one-channel CTA in the class of the one-counter procedure: closed guards, each
/// receiver location either internal-only or receive-only.
fn random_cta() -> impl Strategy<Value = String> {
    let guard = (0..3usize, 0..3i32).prop_map(|(op, c)| {
        let op = ["<=", "==", ">="][op];
        (op, c)
    });
    let a_edge = (0..3u32, 0..3u32, 0..3usize, guard.clone(), any::<bool>());
    let b_edge = (0..3u32, 0..3u32, 0..2usize, guard, any::<bool>());
    (
        prop::collection::vec(a_edge, 1..5),
        prop::collection::vec(b_edge, 1..5),
        prop::collection::vec(any::<bool>(), 3),
    )
        .prop_map(|(ae, be, b_reads)| {
            let mut t = String::from(
                "system:r\nprocess:A\nprocess:B\nclock:A:x\nclock:B:y\nchannel:c:A:B\n\
                 location:A:p0{initial:}\nlocation:A:p1\nlocation:A:p2{labels: s}\n\
                 location:B:q0{initial:}\nlocation:B:q1\nlocation:B:q2{labels: t}\n",
            );
            for (src, tgt, act, (op, c), reset) in ae {
                let act = ["c!a", "c!b", "eps"][act];
                let r = if reset { " : do: x=0" } else { "" };
                t += &format!("edge:A:p{src}:p{tgt}:{act}{{provided: x{op}{c}{r}}}\n");
            }
            for (src, tgt, letter, (op, c), reset) in be {
                let reads = b_reads.get(src as usize).copied().unwrap_or(false);
                let act = if reads { ["c?a", "c?b"][letter] } else { "eps" };
                let r = if reset { " : do: y=0" } else { "" };
                t += &format!("edge:B:q{src}:q{tgt}:{act}{{provided: y{op}{c}{r}}}\n");
            }
            t
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    /// Against the bounded search (exact when it answers), the summarised over-approximation
    /// (an unreachable target there is unreachable) and the synchronized replay of every witness.
    #[test]
    fn one_counter_agrees_with_the_bounded_search(text in random_cta()) {
        for labels in [&["t"][..], &["t", "s"][..]] {
            let oc = one_counter(&text, labels);
            prop_assert!(oc.is_some());
            let exact = reach(&text, labels, 5).reachable;
            if let Some(b) = exact {
                prop_assert_eq!(oc, Some(b), "{}", text);
            } else if summarised(&text, labels, 2) == Some(true) {
                prop_assert_eq!(oc, Some(false), "{}", text);
            }
        }
    }
}
