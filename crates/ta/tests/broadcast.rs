//! Broadcast receivers with clock guards: a receiver takes part iff its guard (integers and
//! clocks) holds when the sender fires; every witness replays on the independent checker, which
//! decides participation on the rational valuation itself.

use verikit_diag::Budget;
use verikit_ta::{check_query, parse_uppaal, replay_end, Options, QueryKind};

/// Sender `S`: `a` (x ≤ 5) → `late` on `bc!` when x ≥ 3, `a` → `early` on `bc!` when x < 1.
/// Receiver `R`: `r0` → `r1` on `bc?` when x ≥ 2 (`extra` adds a second receiving edge).
fn model(extra: &str) -> String {
    format!(
        r#"<nta><declaration>clock x; broadcast chan bc;</declaration>
<template><name>S</name>
<location id="a"><name>a</name><label kind="invariant">x &lt;= 5</label></location>
<location id="l"><name>late</name></location>
<location id="e"><name>early</name></location>
<init ref="a"/>
<transition><source ref="a"/><target ref="l"/><label kind="guard">x &gt;= 3</label><label kind="synchronisation">bc!</label></transition>
<transition><source ref="a"/><target ref="e"/><label kind="guard">x &lt; 1</label><label kind="synchronisation">bc!</label></transition>
</template>
<template><name>R</name>
<location id="r0"><name>r0</name></location>
<location id="r1"><name>r1</name></location>
<location id="r2"><name>r2</name></location>
<init ref="r0"/>
<transition><source ref="r0"/><target ref="r1"/><label kind="guard">x &gt;= 2</label><label kind="synchronisation">bc?</label></transition>
{extra}
</template>
<system>system S, R;</system></nta>"#
    )
}

fn check(xml: &str, query: &str) -> bool {
    let um = parse_uppaal(xml).unwrap();
    let q = um.query_text(query).unwrap();
    let r = check_query(&um, &q, Options::default(), &Budget::unlimited()).unwrap();
    let sat = r.satisfied.unwrap();
    if let Some(tt) = &r.search.timed {
        let end = replay_end(&um.model, tt).unwrap_or_else(|e| panic!("{query}: {e}"));
        let n = um.model.processes.len();
        let holds = q
            .holds_at(n, &end.state, end.deadlocked, &end.clocks)
            .unwrap();
        assert_eq!(holds, q.kind == QueryKind::Reach, "{query}: witness end");
    }
    sat
}

#[test]
fn a_receiver_joins_iff_its_clock_guard_holds() {
    let m = model("");
    // firing late (x ≥ 3): the receiver's guard x ≥ 2 holds, it must join
    assert!(!check(&m, "E<> S.late && R.r0"));
    assert!(check(&m, "E<> S.late && R.r1"));
    // firing early (x < 1): the guard is false, it stays out
    assert!(check(&m, "E<> S.early && R.r0"));
    assert!(!check(&m, "E<> S.early && R.r1"));
    assert!(check(&m, "A[] R.r1 imply S.late"));
    // every ExtraLU+ variant agrees (the negated guard is a lower bound too)
    for ex in ["extraLU+l", "extraLU+g", "extraM"] {
        let um = parse_uppaal(&m).unwrap();
        let q = um.query_text("E<> S.late && R.r0").unwrap();
        let opts = Options {
            extrapolation: verikit_ta::Extrapolation::parse(ex).unwrap(),
            ..Options::default()
        };
        let r = check_query(&um, &q, opts, &Budget::unlimited()).unwrap();
        assert_eq!(r.satisfied, Some(false), "{ex}");
    }
}

#[test]
fn a_receiver_with_two_guarded_edges() {
    // a second edge r0 → r2 when x == 0: at x = 0 it may take that one; with x in (0, 2) neither
    let extra = r#"<transition><source ref="r0"/><target ref="r2"/><label kind="guard">x == 0</label><label kind="synchronisation">bc?</label></transition>"#;
    let m = model(extra);
    assert!(check(&m, "E<> S.early && R.r2"));
    assert!(check(&m, "E<> S.early && R.r0"));
    assert!(!check(&m, "E<> S.late && R.r2"));
    assert!(!check(&m, "E<> S.late && R.r0"));
    assert!(check(&m, "E<> deadlock"));
    assert!(!check(&m, "E<> S.a && deadlock"));
    // liveness: the sender must fire (invariant), so every run leaves `a`
    assert!(check(&m, "A<> !S.a"));
}
