//! Deadlocks in a symbolic state, as UPPAAL defines them: a valuation is deadlocked if no action
//! transition is enabled from it, neither now nor after any delay. For a symbolic state `(d, Z)`
//! (`Z` closed under delay within the invariant), the deadlocked valuations are
//! `Z \ ⋃_t (Z ∩ ↓E_t)` (no delay in an urgent or committed state: `Z \ ⋃_t E_t`), where `E_t`
//! is the set of valuations of `Z` from which the move `t` is enabled: its guards hold and, after
//! its resets, the target invariant holds. The union is a federation.
//!
//! Seed: Behrmann, David, Larsen, "A Tutorial on UPPAAL" (2004), §2.3 (`deadlock` in state
//! formulas); Bengtsson & Yi (2003), §4 (pre-images: `down`, the inverse of a reset by `free`).

use crate::dbm::{le, Dbm};
use crate::federation::Federation;
use crate::zone_graph::{constrain_move, Discrete, Transition, ZoneGraph};

/// The valuations of `(disc, z)` from which no move is ever enabled (`z` canonical, delay-closed).
pub(crate) fn deadlocked(zg: &ZoneGraph<'_>, disc: &Discrete, z: &Dbm) -> Federation {
    let mut moves: Vec<Transition> = Vec::new();
    zg.transitions(disc, &mut moves);
    let urgent = zg.is_urgent(disc);
    let mut live = Federation::empty(z.dim());
    for t in &moves {
        if let Some(mut e) = enabling(zg, disc, z, t) {
            if !urgent {
                e.down();
                if !e.intersect(z) {
                    continue;
                }
            }
            live.add(e);
        }
    }
    Federation::from_zone(z.clone()).subtract(&live)
}

/// The valuations of `z` from which `t` is enabled now, or `None` if there is none.
pub(crate) fn enabling(
    zg: &ZoneGraph<'_>,
    disc: &Discrete,
    z: &Dbm,
    t: &Transition,
) -> Option<Dbm> {
    let n = zg.model.processes.len();
    let (next, resets) = zg.discrete_step(disc, t)?;
    let ints = disc.get(n..)?;
    let mut g = z.clone();
    if !constrain_move(&mut g, zg.model, t, ints) {
        return None;
    }
    // the successor valuations that satisfy the target invariant, mapped back through the resets
    let mut post = g.clone();
    for &(x, c) in &resets {
        post.reset(x, c as i32);
    }
    let (locs, nints) = next.split_at(n);
    if !zg.constrain_invariant(&mut post, locs, nints) {
        return None;
    }
    for &(x, c) in resets.iter().rev() {
        let c = c as i32;
        if !(post.constrain(x, 0, le(c)) && post.constrain(0, x, le(-c))) {
            return None;
        }
        post.free(x);
    }
    if !post.intersect(&g) {
        return None;
    }
    Some(post)
}

#[cfg(test)]
mod tests {
    use crate::check::check_query;
    use crate::query::Options;
    use crate::replay::replay_end;
    use crate::uppaal::parse_uppaal;
    use verikit_diag::Budget;

    /// Clocks `x`, `y`; one template `P` with locations `a` (invariant `inv_a`) and `b`
    /// (invariant `inv_b`, no edges), an edge `a → b` with guard `g1`, and an edge `a → a` with
    /// guard `g2` and update `u2` (empty strings: no label).
    fn model(inv_a: &str, inv_b: &str, g1: &str, g2: &str, u2: &str) -> String {
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

    /// Answers `query`; checks every witness with the independent checker (its end satisfies the
    /// searched formula, `deadlock` decided by the checker).
    fn check(xml: &str, query: &str) -> bool {
        let um = parse_uppaal(xml).unwrap();
        let q = um.query_text(query).unwrap();
        let r = check_query(&um, &q, Options::default(), &Budget::unlimited()).unwrap();
        let sat = r.satisfied.unwrap();
        if let Some(tt) = &r.search.timed {
            let end = replay_end(&um.model, tt).unwrap();
            let n = um.model.processes.len();
            let reach = q.kind == crate::uppaal::QueryKind::Reach;
            let holds = q
                .holds_at(n, &end.state, end.deadlocked, &end.clocks)
                .unwrap();
            assert_eq!(holds, reach, "{query}: witness end");
        }
        sat
    }

    #[test]
    fn clock_constraints_in_queries() {
        // a: x ≤ 5, a → b when x ≥ 3 (no reset), a → a when y ≥ 1 resetting y
        let m = model("x &lt;= 5", "", "x &gt;= 3", "y &gt;= 1", "y = 0");
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
        let m = model("x &lt;= 5", "", "x &gt;= 3", "false", "");
        assert!(!check(&m, "A[] not deadlock"));
        assert!(check(&m, "E<> deadlock"));
        assert!(check(&m, "E<> P.b && deadlock"));
        assert!(!check(&m, "E<> P.a && deadlock"));
        assert!(check(&m, "A[] P.a imply !deadlock"));
    }

    #[test]
    fn a_reset_loop_is_deadlock_free() {
        let m = model("x &lt;= 5", "", "false", "x &gt;= 2", "x = 0");
        assert!(check(&m, "A[] not deadlock"));
        assert!(!check(&m, "E<> deadlock"));
    }

    #[test]
    fn a_time_lock_is_a_deadlock() {
        let m = model("x &lt;= 5", "", "x &gt;= 7", "false", "");
        assert!(check(&m, "E<> P.a && deadlock"));
        assert!(!check(&m, "A[] !deadlock"));
    }

    #[test]
    fn part_of_a_zone_is_deadlocked() {
        // in `a`, valuations with x > 3 can never take the loop (it does not reset x)
        let m = model("x &lt;= 10", "", "false", "x &lt;= 3", "y = 0");
        assert!(check(&m, "E<> P.a && deadlock"));
        assert!(check(&m, "E<> P.a && !deadlock"));
        assert!(!check(&m, "A[] not deadlock"));
    }

    #[test]
    fn a_target_invariant_disables_an_edge() {
        // a → b needs x ≤ 2 on arrival; from x > 2 in `a` nothing is ever enabled
        let m = model("", "x &lt;= 2", "x &gt;= 1", "false", "");
        assert!(check(&m, "E<> P.a && deadlock"));
        // b itself: x ≤ 2 and no edge, a time lock
        assert!(check(&m, "E<> P.b && deadlock"));
        let m = model("x &lt;= 2", "x &lt;= 2", "x &gt;= 1", "false", "");
        assert!(!check(&m, "E<> P.a && deadlock"));
    }

    #[test]
    fn an_urgent_location_cannot_wait_for_a_guard() {
        let m = model("", "", "x &gt;= 1", "false", "").replace(
            "<location id=\"a\"><name>a</name>",
            "<location id=\"a\"><name>a</name><urgent/>",
        );
        // x = 0 in urgent `a`: the guard x ≥ 1 never holds
        assert!(check(&m, "E<> P.a && deadlock"));
        let m = model("", "", "x &gt;= 1", "false", "");
        assert!(!check(&m, "E<> P.a && deadlock"));
    }
}
