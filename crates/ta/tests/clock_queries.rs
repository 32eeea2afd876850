//! Clock constraints and `deadlock` in `E<>`/`A[]` queries, and broadcast receivers with clock
//! guards (a receiver takes part iff its guard — integers and clocks — holds when the sender
//! fires); every witness replays on the independent checker, which decides participation,
//! clock constraints and deadlock on the rational valuation itself.

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
    for ex in ["extraLU+l", "extraLU+g", "extraM", "extraM+l"] {
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

/// Clocks `x`, `y`; one template `P` with locations `a` (invariant `inv_a`) and `b`
/// (invariant `inv_b`, no edges), an edge `a → b` with guard `g1`, and an edge `a → a` with
/// guard `g2` and update `u2` (empty strings: no label).
fn one_process(inv_a: &str, inv_b: &str, g1: &str, g2: &str, u2: &str) -> String {
    let lab = |kind: &str, t: &str| {
        if t.is_empty() {
            String::new()
        } else {
            format!("<label kind=\"{kind}\">{t}</label>")
        }
    };
    format!(
        r#"<nta><declaration>clock x, y;</declaration>
<template><name>P</name>
<location id="a"><name>a</name>{}</location>
<location id="b"><name>b</name>{}</location>
<init ref="a"/>
<transition><source ref="a"/><target ref="b"/>{}</transition>
<transition><source ref="a"/><target ref="a"/>{}{}</transition>
</template><system>system P;</system></nta>"#,
        lab("invariant", inv_a),
        lab("invariant", inv_b),
        lab("guard", g1),
        lab("guard", g2),
        lab("assignment", u2),
    )
}

#[test]
fn clock_constraints_in_queries() {
    // a: x ≤ 5, a → b when x ≥ 3 (no reset), a → a when y ≥ 1 resetting y
    let m = one_process("x &lt;= 5", "", "x &gt;= 3", "y &gt;= 1", "y = 0");
    assert!(check(&m, "E<> P.b && x > 4"));
    assert!(!check(&m, "E<> P.a && x > 5"));
    assert!(check(&m, "A[] P.a imply x <= 5"));
    assert!(!check(&m, "A[] P.a imply x < 5"));
    assert!(check(&m, "E<> P.a && y >= 1 && x == 5"));
    assert!(!check(&m, "E<> P.a && y > 1 && !(x <= 5)"));
    assert!(check(&m, "E<> P.b && x != 3 && x < 4"));
    assert!(!check(&m, "E<> P.a && x != 3 && x > 5"));
    assert!(check(&m, "E<> P.a && (x > 2 imply y < 1) && x > 2"));
    // constants beyond every bound of the model stay exact (the query raises the bounds)
    assert!(check(&m, "E<> P.b && x > 1000"));
    assert!(!check(&m, "E<> P.a && x > 7 || P.b && x < 3"));
    // a process's own clock, `P.x`
    let local = m
        .replace(
            "<nta><declaration>clock x, y;</declaration>",
            "<nta><declaration>clock y;</declaration>",
        )
        .replace(
            "<name>P</name>",
            "<name>P</name><declaration>clock x;</declaration>",
        );
    assert!(check(&local, "E<> P.b && P.x > 4"));
    assert!(!check(&local, "E<> P.a && P.x > 5"));
    let um = parse_uppaal(&m).unwrap();
    let e = um.query_text("E<> P.b && x - y > 2").unwrap_err();
    assert!(e.message.contains("differences"), "{}", e.message);
}

#[test]
fn a_location_without_edges_is_a_deadlock() {
    let m = one_process("x &lt;= 5", "", "x &gt;= 3", "false", "");
    assert!(!check(&m, "A[] not deadlock"));
    assert!(check(&m, "E<> deadlock"));
    assert!(check(&m, "E<> P.b && deadlock"));
    assert!(!check(&m, "E<> P.a && deadlock"));
    assert!(check(&m, "A[] P.a imply !deadlock"));
}

#[test]
fn a_reset_loop_is_deadlock_free() {
    let m = one_process("x &lt;= 5", "", "false", "x &gt;= 2", "x = 0");
    assert!(check(&m, "A[] not deadlock"));
    assert!(!check(&m, "E<> deadlock"));
}

#[test]
fn a_time_lock_is_a_deadlock() {
    let m = one_process("x &lt;= 5", "", "x &gt;= 7", "false", "");
    assert!(check(&m, "E<> P.a && deadlock"));
    assert!(!check(&m, "A[] !deadlock"));
}

#[test]
fn part_of_a_zone_is_deadlocked() {
    // in `a`, valuations with x > 3 can never take the loop (it does not reset x)
    let m = one_process("x &lt;= 10", "", "false", "x &lt;= 3", "y = 0");
    assert!(check(&m, "E<> P.a && deadlock"));
    assert!(check(&m, "E<> P.a && !deadlock"));
    assert!(!check(&m, "A[] not deadlock"));
}

/// The extrapolation the answer of `query` came from.
fn extrapolation_used(xml: &str, query: &str) -> verikit_ta::Extrapolation {
    let um = parse_uppaal(xml).unwrap();
    let q = um.query_text(query).unwrap();
    let r = check_query(&um, &q, Options::default(), &Budget::unlimited()).unwrap();
    r.options.extrapolation
}

#[test]
fn a_deadlock_added_by_the_lu_abstraction_is_not_reported() {
    // `s` (y ≤ 2) → `a` at y == 2 resetting x; `a` (x ≤ 1) → `b` when y ≥ 2; `b` loops. In `a`,
    // y − x = 2, so y ≥ 2 always holds: no deadlock. ExtraLU+ at `a` (L(y) = 2, U(y) = −∞, U(x)
    // = 1) drops y's lower bound and keeps y − x ≤ 2, adding (x, y) = (0, 0), which time-locks
    // at x = 1 before y reaches 2. The LU search meets that valuation, the exact zone of its
    // path does not confirm it, and the answer comes from ExtraM with local bounds.
    let m = r#"<nta><declaration>clock x, y;</declaration>
<template><name>P</name>
<location id="s"><name>s</name><label kind="invariant">y &lt;= 2</label></location>
<location id="a"><name>a</name><label kind="invariant">x &lt;= 1</label></location>
<location id="b"><name>b</name></location>
<init ref="s"/>
<transition><source ref="s"/><target ref="a"/><label kind="guard">y == 2</label><label kind="assignment">x = 0</label></transition>
<transition><source ref="a"/><target ref="b"/><label kind="guard">y &gt;= 2</label></transition>
<transition><source ref="b"/><target ref="b"/></transition>
</template><system>system P;</system></nta>"#;
    assert!(check(m, "A[] not deadlock"));
    assert!(!check(m, "E<> P.a && deadlock"));
    let used = extrapolation_used(m, "A[] not deadlock");
    assert_eq!(used, verikit_ta::Extrapolation::MLocal);
    // where the LU search finds no deadlocked valuation, its answer stands
    let m = one_process("x &lt;= 5", "", "false", "x &gt;= 2", "x = 0");
    let used = extrapolation_used(&m, "A[] not deadlock");
    assert_eq!(used, verikit_ta::Extrapolation::LuLocal);
    // and a deadlock it finds on the exact zone of its path is answered at once
    let m = one_process("x &lt;= 5", "", "x &gt;= 7", "false", "");
    let used = extrapolation_used(&m, "E<> P.a && deadlock");
    assert_eq!(used, verikit_ta::Extrapolation::LuLocal);
}

#[test]
fn a_target_invariant_disables_an_edge() {
    // a → b needs x ≤ 2 on arrival; from x > 2 in `a` nothing is ever enabled
    let m = one_process("", "x &lt;= 2", "x &gt;= 1", "false", "");
    assert!(check(&m, "E<> P.a && deadlock"));
    // b itself: x ≤ 2 and no edge, a time lock
    assert!(check(&m, "E<> P.b && deadlock"));
    let m = one_process("x &lt;= 2", "x &lt;= 2", "x &gt;= 1", "false", "");
    assert!(!check(&m, "E<> P.a && deadlock"));
}

#[test]
fn an_urgent_location_cannot_wait_for_a_guard() {
    let m = one_process("", "", "x &gt;= 1", "false", "").replace(
        "<location id=\"a\"><name>a</name>",
        "<location id=\"a\"><name>a</name><urgent/>",
    );
    // x = 0 in urgent `a`: the guard x ≥ 1 never holds
    assert!(check(&m, "E<> P.a && deadlock"));
    let m = one_process("", "", "x &gt;= 1", "false", "");
    assert!(!check(&m, "E<> P.a && deadlock"));
}

/// Fireflies (the shared firefly-sync models in small): `N` processes on one broadcast channel,
/// each with its own clock; a firefly flashes at `t == 10` and a receiver whose clock is in
/// `(5, 9]` joins (resetting `t`). Every receiver has a clock guard, so a flash has 3^(N−1)
/// participation choices on paper (join, or stay out on either side); the zone relates the clocks
/// and only a few are consistent.
fn fireflies(n: usize) -> String {
    format!(
        r#"<nta><declaration>const int N = {n}; broadcast chan flash;</declaration>
<template><name>F</name><parameter>const int[0,N-1] id</parameter>
<declaration>clock t; int[0,3] seen = 0;</declaration>
<location id="s"><name>setup</name><label kind="invariant">t &lt;= id</label></location>
<location id="a"><name>active</name><label kind="invariant">t &lt;= 10</label></location>
<init ref="s"/>
<transition><source ref="s"/><target ref="a"/><label kind="guard">t &gt;= id</label><label kind="assignment">t = 0</label></transition>
<transition><source ref="a"/><target ref="a"/><label kind="guard">t &gt;= 10</label><label kind="synchronisation">flash!</label><label kind="assignment">t = 0</label></transition>
<transition><source ref="a"/><target ref="a"/><label kind="guard">t &gt; 5 &amp;&amp; t &lt;= 9</label><label kind="synchronisation">flash?</label><label kind="assignment">t = 0, seen = seen &lt; 3 ? seen + 1 : 3</label></transition>
</template><system>system F;</system></nta>"#
    )
}

#[test]
fn many_broadcast_receivers_with_clock_guards_are_explored_completely() {
    // 9 fireflies: 3^8 = 6561 choices per flash on paper, more than the move generator allows
    // per state; those the zone contradicts are cut while they are built, so the search ends
    let m = fireflies(9);
    assert!(!check(&m, "E<> false"));
    assert!(check(&m, "A[] F(0).seen <= 3"));
    // F(0) flashes first, at time 10; F(1)..F(4) have t in (5, 9] then and join
    assert!(check(&m, "E<> F(1).seen == 1 && F(0).seen == 0"));
    assert!(!check(
        &m,
        "E<> F(8).seen == 1 && F(0).seen == 0 && F(1).seen == 0"
    ));
    assert!(check(&m, "A[] not deadlock"));
}
