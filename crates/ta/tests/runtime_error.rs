//! UPPAAL semantics of updates: an enabled move whose update leaves a bounded integer's range is a
//! run-time error (verdict `error`, named, with the trace to the state where the move is enabled),
//! not a silently disabled move; TChecker models keep TChecker's semantics.

use verikit_diag::{Budget, Verdict};
use verikit_ta::{check_query, parse_uppaal, query_answer, replay_state, Options};

/// `P` counts `i` up on each tick (x == 1); `i` is `int[0,2]`, so the third tick overflows.
/// `guard` restricts the counting edge.
fn model(guard: &str) -> String {
    format!(
        r#"<nta><declaration>clock x; int[0,2] i;</declaration>
<template><name>P</name>
<location id="a"><name>a</name><label kind="invariant">x &lt;= 1</label></location>
<location id="d"><name>done</name></location>
<init ref="a"/>
<transition><source ref="a"/><target ref="a"/><label kind="guard">x == 1{guard}</label><label kind="assignment">i = i + 1, x = 0</label></transition>
<transition><source ref="a"/><target ref="d"/><label kind="guard">i == 2</label></transition>
</template>
<system>system P;</system></nta>"#
    )
}

#[test]
fn an_out_of_range_update_is_a_named_error_with_its_trace() {
    let um = parse_uppaal(&model("")).unwrap();
    let q = um.query_text("A[] not P.done").unwrap();
    // P.done is reachable before the overflow in BFS order? The error is met first or not:
    // either way an update out of range exists, so ask a query that needs the whole graph
    let q2 = um.query_text("A[] i <= 2").unwrap();
    for q in [q, q2] {
        let r = check_query(&um, &q, Options::default(), &Budget::unlimited()).unwrap();
        if r.search.runtime_error.is_none() {
            // found a violation of the first query before meeting the error
            assert_eq!(r.satisfied, Some(false), "{}", q.text);
            continue;
        }
        let msg = r.search.runtime_error.clone().unwrap();
        assert!(msg.contains("out of its variable's range"), "{msg}");
        assert!(msg.contains("P"), "{msg}");
        assert_eq!(r.satisfied, None);
        let a = query_answer(&um, &q, &r);
        assert_eq!(a.verdict, Some(Verdict::Error));
        // the trace leads to a state with i == 2 where the counting move is enabled
        let tt = r.search.timed.as_ref().expect("a trace to the error");
        let end = replay_state(&um.model, tt).unwrap();
        let n = um.model.processes.len();
        assert_eq!(end.get(n).copied(), Some(2), "{end:?}");
    }
    // with a guard keeping i in range there is no error, and A[] i <= 2 holds
    let um = parse_uppaal(&model(" &amp;&amp; i &lt; 2")).unwrap();
    let q = um.query_text("A[] i <= 2").unwrap();
    let r = check_query(&um, &q, Options::default(), &Budget::unlimited()).unwrap();
    assert_eq!(r.search.runtime_error, None);
    assert_eq!(r.satisfied, Some(true));
}
