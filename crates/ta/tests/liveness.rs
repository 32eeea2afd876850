//! Liveness on tiny hand-made automata with known answers (UPPAAL's semantics of `E[]`, `A<>`,
//! `-->`: maximal paths, Zeno cycles counted, time-locks and unbounded delays end paths; clock
//! constraints inside the formulas; TChecker's Büchi liveness): every witness is replayed by the
//! independent checker, its cycle re-entered, and the formula checked at every instant of it.

use verikit_diag::Budget;
use verikit_ta::{
    check_buchi, check_lasso_formula, check_query, parse_tck, parse_uppaal, replay_lasso, Options,
    QueryKind,
};

/// One template `P` with clock `x`, locations `a`, `b`, `c` (invariants given, empty: none),
/// and edges `(src, tgt, guard, assignment)`.
fn model(inv: [&str; 3], edges: &[(&str, &str, &str, &str)]) -> String {
    let lab = |kind: &str, t: &str| {
        if t.is_empty() {
            String::new()
        } else {
            format!(
                "<label kind=\"{kind}\">{}</label>",
                t.replace('<', "&lt;").replace('>', "&gt;")
            )
        }
    };
    let mut s = String::from("<nta><declaration>clock x;</declaration><template><name>P</name>");
    for (id, i) in ["a", "b", "c"].iter().zip(inv) {
        s += &format!(
            "<location id=\"{id}\"><name>{id}</name>{}</location>",
            lab("invariant", i)
        );
    }
    s += "<init ref=\"a\"/>";
    for (src, tgt, g, u) in edges {
        s += &format!(
            "<transition><source ref=\"{src}\"/><target ref=\"{tgt}\"/>{}{}</transition>",
            lab("guard", g),
            lab("assignment", u)
        );
    }
    s + "</template><system>system P;</system></nta>"
}

/// Answers `query`; replays a witness (if any) and checks the formula along it.
fn check(xml: &str, query: &str) -> bool {
    let um = parse_uppaal(xml).unwrap();
    let q = um.query_text(query).unwrap();
    let r = check_query(&um, &q, Options::default(), &Budget::unlimited()).unwrap();
    let sat = r.satisfied.unwrap();
    let witness_expected = sat == (q.kind == QueryKind::Globally);
    assert_eq!(r.lasso.is_some(), witness_expected, "{query}: witness");
    if let Some(l) = r.lasso {
        let tt = r.search.timed.as_ref().unwrap();
        replay_lasso(&um.model, tt, l.prefix, l.cycle)
            .unwrap_or_else(|e| panic!("{query}: witness does not replay: {e}"));
        // the formula at every instant of the witness (clock constraints included)
        check_lasso_formula(&um.model, &q, tt, l)
            .unwrap_or_else(|e| panic!("{query}: witness violates the formula: {e}"));
    }
    sat
}

#[test]
fn idling_forever_is_a_maximal_path() {
    // no invariant in `a`: the path that stays in `a` forever counts, even with an edge enabled
    let m = model(["", "", ""], &[("a", "b", "x >= 3", "")]);
    assert!(check(&m, "E[] P.a"));
    assert!(!check(&m, "A<> P.b"));
    assert!(!check(&m, "P.a --> P.b"));
    // an invariant forces the edge
    let m = model(["x <= 5", "", ""], &[("a", "b", "x >= 3", "")]);
    assert!(!check(&m, "E[] P.a"));
    assert!(check(&m, "A<> P.b"));
    assert!(check(&m, "P.a --> P.b"));
    assert!(check(&m, "E[] P.a || P.b"));
}

#[test]
fn a_time_lock_ends_a_maximal_path() {
    // `a` has x <= 5 and its only edge needs x >= 7: time stops, the run is maximal in `a`
    let m = model(["x <= 5", "", ""], &[("a", "b", "x >= 7", "")]);
    assert!(check(&m, "E[] P.a"));
    assert!(!check(&m, "A<> P.b"));
    // a deadlock in `b` (no edges, invariant): maximal there
    let m = model(["x <= 5", "x <= 1", ""], &[("a", "b", "x >= 3", "x = 0")]);
    assert!(check(&m, "E[] !P.c"));
    assert!(check(&m, "A<> P.b"));
    assert!(!check(&m, "A<> P.c"));
}

#[test]
fn zeno_cycles_count() {
    // a self-loop without guard or reset under x <= 5: infinitely many moves in bounded time
    let m = model(
        ["x <= 5", "", ""],
        &[("a", "a", "", ""), ("a", "b", "x >= 3", "")],
    );
    assert!(check(&m, "E[] P.a"));
    assert!(!check(&m, "A<> P.b"));
    // the loop needs x >= 6: never enabled, so `a` must be left by the edge to `b`
    let m = model(
        ["x <= 5", "", ""],
        &[("a", "a", "x >= 6", ""), ("a", "b", "x >= 3", "")],
    );
    assert!(!check(&m, "E[] P.a"));
    assert!(check(&m, "A<> P.b"));
}

#[test]
fn leads_to_with_a_cycle_and_an_escape() {
    // a ⇄ b under invariants: every `a` is followed by `b`
    let m = model(
        ["x <= 2", "x <= 2", ""],
        &[("a", "b", "x >= 1", "x = 0"), ("b", "a", "x >= 1", "x = 0")],
    );
    assert!(check(&m, "P.a --> P.b"));
    assert!(check(&m, "P.b --> P.a"));
    assert!(!check(&m, "P.b --> P.c"));
    // an escape from `b` to `c`, where time diverges: `b --> a` fails, `a --> b` still holds
    let m = model(
        ["x <= 2", "x <= 2", ""],
        &[
            ("a", "b", "x >= 1", "x = 0"),
            ("b", "a", "x >= 1", "x = 0"),
            ("b", "c", "", ""),
        ],
    );
    assert!(check(&m, "P.a --> P.b"));
    assert!(!check(&m, "P.b --> P.a"));
    assert!(check(&m, "P.b --> (P.a || P.c)"));
    assert!(check(&m, "E[] !P.a || P.a"));
}

#[test]
fn integers_in_liveness_formulas() {
    let m = model(
        ["x <= 2", "", ""],
        &[("a", "a", "x >= 1", "x = 0, n = (n + 1) % 4")],
    )
    .replace("clock x;", "clock x; int n = 0;");
    assert!(check(&m, "A<> n == 3"));
    assert!(check(&m, "n == 3 --> n == 0"));
    assert!(!check(&m, "E[] n != 3"));
    assert!(check(&m, "E[] n >= 0"));
}

fn buchi(tck: &str, labels: &str) -> bool {
    let m = parse_tck(tck).unwrap();
    let (r, shape) = check_buchi(
        &m,
        &[labels.to_string()],
        Options::default(),
        &Budget::unlimited(),
    )
    .unwrap();
    let found = r.reachable.unwrap();
    assert_eq!(found, shape.is_some());
    if let Some(l) = shape {
        let tt = r.timed.as_ref().unwrap();
        let end = replay_lasso(&m, tt, l.prefix, l.cycle).unwrap();
        assert!(l.cycle > 0);
        // an accepting state on the cycle
        let ids: Vec<u32> = labels
            .split(',')
            .map(|s| m.labels.iter().position(|x| x == s).unwrap() as u32)
            .collect();
        let n = m.processes.len();
        let acc = end.states[l.prefix..].iter().any(|st| {
            ids.iter().all(|lab| {
                st.iter()
                    .take(n)
                    .zip(&m.processes)
                    .any(|(&loc, p)| p.locations[loc as usize].labels.contains(lab))
            })
        });
        assert!(acc, "no accepting state on the cycle");
    }
    found
}

const TCK: &str = "system:s\nevent:tau\nprocess:P\nclock:1:x\nlocation:P:l0{initial: : labels:acc}\nlocation:P:l1{invariant:x<=5}\n";

#[test]
fn buchi_accepting_cycles() {
    let cyc = format!("{TCK}edge:P:l0:l1:tau{{do:x=0}}\nedge:P:l1:l0:tau{{provided:x>=2}}\n");
    assert!(buchi(&cyc, "acc"));
    // no way back to l0
    let stuck = format!("{TCK}edge:P:l0:l1:tau{{do:x=0}}\n");
    assert!(!buchi(&stuck, "acc"));
    // the way back needs x >= 6 under the invariant x <= 5: the discrete cycle is infeasible
    let infeasible =
        format!("{TCK}edge:P:l0:l1:tau{{do:x=0}}\nedge:P:l1:l0:tau{{provided:x>=6}}\n");
    assert!(!buchi(&infeasible, "acc"));
    // a cycle avoiding the accepting location does not count
    let other = format!("{TCK}edge:P:l0:l1:tau{{do:x=0}}\nedge:P:l1:l1:tau{{do:x=0}}\n");
    assert!(!buchi(&other, "acc"));
    // unknown labels are refused
    let m = parse_tck(&cyc).unwrap();
    assert!(check_buchi(
        &m,
        &["nope".into()],
        Options::default(),
        &Budget::unlimited()
    )
    .is_err());
}

#[test]
fn a_tampered_lasso_is_rejected() {
    let m = model(
        ["x <= 2", "x <= 2", ""],
        &[("a", "b", "x >= 1", "x = 0"), ("b", "c", "x >= 1", "x = 0")],
    );
    let um = parse_uppaal(&m).unwrap();
    // c has no invariant and no edges: E[] holds with a finite witness stopping in c
    let q = um.query_text("E[] !P.b || P.b").unwrap();
    let r = check_query(&um, &q, Options::default(), &Budget::unlimited()).unwrap();
    let l = r.lasso.unwrap();
    let tt = r.search.timed.unwrap();
    assert!(replay_lasso(&um.model, &tt, l.prefix, l.cycle).is_ok());
    // claiming the last move starts a cycle: the discrete state does not come back
    let mut bad = tt.clone();
    if let Some(last) = bad.steps.last().cloned() {
        bad.steps.push(last);
    }
    assert!(replay_lasso(&um.model, &bad, l.prefix.saturating_sub(1), 1).is_err());
    // cutting the trace short of its end: `b` is neither a deadlock nor divergent
    let mut short = tt.clone();
    short.steps.pop();
    assert!(replay_lasso(&um.model, &short, l.prefix - 1, 0).is_err());
}

#[test]
fn clock_constraints_leaving_early_or_forced_to_wait() {
    // `a` may be left at x = 3 (x reset, then `b` resets x every time unit): x need not reach 5
    let early = model(
        ["x <= 5", "x <= 1", ""],
        &[("a", "b", "x >= 3", "x = 0"), ("b", "b", "x == 1", "x = 0")],
    );
    assert!(!check(&early, "A<> x == 5"));
    assert!(check(&early, "E[] x != 5"));
    assert!(check(&early, "A<> x >= 3"));
    assert!(!check(&early, "E[] x < 3"));
    assert!(check(&early, "A<> P.b && x == 1"));
    // the checker refuses that witness for a formula it passes through (x reaches 3 in `a`)
    let um = parse_uppaal(&early).unwrap();
    let q = um.query_text("A<> x == 5").unwrap();
    let r = check_query(&um, &q, Options::default(), &Budget::unlimited()).unwrap();
    let (tt, l) = (r.search.timed.unwrap(), r.lasso.unwrap());
    let other = um.query_text("A<> x >= 3").unwrap();
    assert!(check_lasso_formula(&um.model, &other, &tt, l).is_err());
    let other = um.query_text("E[] x != 5").unwrap();
    assert!(check_lasso_formula(&um.model, &other, &tt, l).is_ok());
    // leaving needs x >= 5 and the invariant forces it: every run passes x == 5
    let forced = model(
        ["x <= 5", "x <= 1", ""],
        &[("a", "b", "x >= 5", "x = 0"), ("b", "b", "x == 1", "x = 0")],
    );
    assert!(check(&forced, "A<> x == 5"));
    assert!(!check(&forced, "E[] x != 5"));
    assert!(!check(&forced, "E[] x < 5 || x > 5"));
    assert!(check(&forced, "E[] P.b imply x <= 1"));
}

#[test]
fn delays_cannot_jump_over_a_clock_constraint() {
    // no invariant and no edge: the run idles forever and x passes every value
    let idle = model(["", "", ""], &[]);
    assert!(check(&idle, "A<> x == 7"));
    assert!(!check(&idle, "E[] x < 2 || x > 3"));
    assert!(check(&idle, "E[] x <= 3 imply x < 10"));
    // a reset loop taken at x in [1, 2) keeps x below 2 forever (a non-Zeno cycle)
    let loop_ = model(["x < 2", "", ""], &[("a", "a", "x >= 1", "x = 0")]);
    assert!(check(&loop_, "E[] x < 2"));
    assert!(!check(&loop_, "A<> x >= 2"));
    assert!(check(&loop_, "A<> x >= 1"));
    // the loop may fire exactly at x == 1: x > 1 need never hold
    assert!(!check(&loop_, "A<> x > 1"));
    // a strict invariant and no edge: a time-lock below 2 ends the maximal path there
    let lock = model(["x < 2", "", ""], &[]);
    assert!(check(&lock, "E[] x < 2"));
    assert!(!check(&lock, "A<> x == 2"));
}

#[test]
fn leads_to_with_clock_constraints() {
    // in `b` the invariant forces the loop at x == 1: every `b` state reaches x == 1
    let forced = model(
        ["x <= 5", "x <= 1", ""],
        &[("a", "b", "x >= 3", "x = 0"), ("b", "b", "x == 1", "x = 0")],
    );
    assert!(check(&forced, "P.b --> x == 1"));
    assert!(check(&forced, "P.a && x < 3 --> P.b"));
    assert!(check(&forced, "x > 4 --> P.b && x > 0"));
    // the loop may be taken at any x (Zeno runs count): x == 1 need never come
    let zeno = model(
        ["x <= 5", "x <= 1", ""],
        &[("a", "b", "x >= 3", "x = 0"), ("b", "b", "", "x = 0")],
    );
    assert!(!check(&zeno, "P.b --> x == 1"));
    assert!(!check(&zeno, "x == 0 --> x > 0"));
}

/// A brute-force oracle for one clock: the region graph (regions `{0}, (0,1), {1}, …, {M},
/// (M,∞)`, `M` above every constant) of the `model` helper's automaton, where every clock
/// constraint has one truth value per region and a delay moves to the next region.
mod region_oracle {
    pub const M: i64 = 4;
    const LAST: usize = 2 * M as usize + 1;

    #[derive(Clone, Debug)]
    pub enum F {
        Clock(u8, i64),
        At(usize),
        Not(Box<F>),
        And(Box<F>, Box<F>),
        Or(Box<F>, Box<F>),
    }

    pub const OPS: [&str; 5] = ["<", "<=", "==", ">=", ">"];
    pub const LOCS: [&str; 3] = ["a", "b", "c"];

    impl F {
        pub fn text(&self) -> String {
            match self {
                F::Clock(op, c) => format!("x {} {c}", OPS[*op as usize]),
                F::At(l) => format!("P.{}", LOCS[*l]),
                F::Not(a) => format!("!({})", a.text()),
                F::And(a, b) => format!("({}) && ({})", a.text(), b.text()),
                F::Or(a, b) => format!("({}) || ({})", a.text(), b.text()),
            }
        }

        pub fn eval(&self, l: usize, r: usize) -> bool {
            match self {
                F::Clock(op, c) => atom(*op, *c, r),
                F::At(m) => l == *m,
                F::Not(a) => !a.eval(l, r),
                F::And(a, b) => a.eval(l, r) && b.eval(l, r),
                F::Or(a, b) => a.eval(l, r) || b.eval(l, r),
            }
        }
    }

    /// `x op c` on region `r` (`0 <= c <= M`).
    pub fn atom(op: u8, c: i64, r: usize) -> bool {
        let k = (r / 2) as i64;
        let point = r.is_multiple_of(2);
        let last = r == LAST;
        match op {
            // on a point x = k; inside (k, k+1), x < c iff k + 1 <= c iff k < c
            0 => !last && k < c,
            1 => !last && if point { k <= c } else { k < c },
            2 => point && k == c,
            3 => last || k >= c,
            _ => last || if point { k > c } else { k >= c },
        }
    }

    /// An edge: source, target, guard `(op, c)`, reset.
    pub type Edge = (usize, usize, Option<(u8, i64)>, bool);

    /// The automaton: per location an optional invariant `x <= c`, and its edges.
    pub struct Ta {
        pub inv: [Option<i64>; 3],
        pub edges: Vec<Edge>,
    }

    impl Ta {
        fn inv_ok(&self, l: usize, r: usize) -> bool {
            self.inv[l].is_none_or(|c| atom(1, c, r))
        }

        fn actions(&self, l: usize, r: usize) -> Vec<(usize, usize)> {
            self.edges
                .iter()
                .filter(|e| e.0 == l && e.2.is_none_or(|(op, c)| atom(op, c, r)))
                .map(|e| (e.1, if e.3 { 0 } else { r }))
                .filter(|&(l2, r2)| self.inv_ok(l2, r2))
                .collect()
        }

        /// Successors (actions, then the delay to the next region) inside `keep`.
        fn succ(
            &self,
            (l, r): (usize, usize),
            keep: &dyn Fn(usize, usize) -> bool,
        ) -> Vec<(usize, usize)> {
            let mut out: Vec<(usize, usize)> = self
                .actions(l, r)
                .into_iter()
                .filter(|&(a, b)| keep(a, b))
                .collect();
            if r < LAST && self.inv_ok(l, r + 1) && keep(l, r + 1) {
                out.push((l, r + 1));
            }
            out
        }

        /// A maximal path may end here: no action, now or later, and time stopped by the
        /// invariant, or the last region without invariant (time diverges).
        fn terminal(&self, l: usize, r: usize) -> bool {
            (r == LAST && self.inv[l].is_none())
                || (self.actions(l, r).is_empty() && r < LAST && !self.inv_ok(l, r + 1))
        }

        fn reach(
            &self,
            from: (usize, usize),
            keep: &dyn Fn(usize, usize) -> bool,
        ) -> Vec<(usize, usize)> {
            let mut seen = vec![from];
            let mut i = 0;
            while i < seen.len() {
                for s in self.succ(seen[i], keep) {
                    if !seen.contains(&s) {
                        seen.push(s);
                    }
                }
                i += 1;
            }
            seen
        }

        /// `E[] keep` from `from`: a maximal path staying in `keep`.
        pub fn globally(&self, from: (usize, usize), keep: &dyn Fn(usize, usize) -> bool) -> bool {
            if !keep(from.0, from.1) {
                return false;
            }
            self.reach(from, keep).into_iter().any(|s| {
                self.terminal(s.0, s.1)
                    || self
                        .succ(s, keep)
                        .into_iter()
                        .any(|t| self.reach(t, keep).contains(&s))
            })
        }

        /// The states after an action (delays inside the invariant, then an action).
        fn steps(&self, (l, r): (usize, usize)) -> Vec<(usize, usize)> {
            (r..=LAST)
                .take_while(|&r2| self.inv_ok(l, r2))
                .flat_map(|r2| self.actions(l, r2))
                .collect()
        }

        /// Büchi non-emptiness over action steps (cycles of the zone graph contain an action):
        /// a reachable state in an accepting location that reaches itself again.
        pub fn buchi(&self, acc: &[bool; 3]) -> bool {
            let closure = |from: Vec<(usize, usize)>| {
                let mut seen = from;
                let mut i = 0;
                while i < seen.len() {
                    for s in self.steps(seen[i]) {
                        if !seen.contains(&s) {
                            seen.push(s);
                        }
                    }
                    i += 1;
                }
                seen
            };
            if !self.inv_ok(0, 0) {
                return false;
            }
            closure(vec![(0, 0)])
                .into_iter()
                .any(|s| acc[s.0] && closure(self.steps(s)).contains(&s))
        }

        /// The reachable states.
        pub fn states(&self) -> Vec<(usize, usize)> {
            self.reach((0, 0), &|_, _| true)
        }
    }
}

fn arb_formula() -> impl Strategy<Value = region_oracle::F> {
    use region_oracle::F;
    let leaf = prop_oneof![
        (0u8..5, 0i64..=region_oracle::M).prop_map(|(op, c)| F::Clock(op, c)),
        (0usize..3).prop_map(F::At),
    ];
    leaf.prop_recursive(2, 6, 2, |inner| {
        prop_oneof![
            inner.clone().prop_map(|a| F::Not(Box::new(a))),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| F::And(Box::new(a), Box::new(b))),
            (inner.clone(), inner).prop_map(|(a, b)| F::Or(Box::new(a), Box::new(b))),
        ]
    })
}

use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// One-clock automata and formulas with clock constraints: `E[]`, `A<>` and `-->` agree with
    /// the region-graph oracle, and every witness replays with the formula checked at every
    /// instant (inside `check`).
    #[test]
    fn clock_liveness_agrees_with_the_region_graph(
        inv in proptest::array::uniform3(proptest::option::of(0i64..=3)),
        edges in proptest::collection::vec(
            (0usize..3, 0usize..3, proptest::option::of((0u8..5, 0i64..=3)), any::<bool>()),
            0..5,
        ),
        phi in arb_formula(),
        psi in arb_formula(),
    ) {
        use region_oracle::{Ta, LOCS, OPS};
        let ta = Ta { inv, edges: edges.clone() };
        let inv_text: Vec<String> =
            ta.inv.iter().map(|c| c.map_or(String::new(), |c| format!("x <= {c}"))).collect();
        let edge_text: Vec<(String, String, String, String)> = edges
            .iter()
            .map(|(s, t, g, r)| {
                (
                    LOCS[*s].to_string(),
                    LOCS[*t].to_string(),
                    g.map_or(String::new(), |(op, c)| format!("x {} {c}", OPS[op as usize])),
                    if *r { "x = 0".to_string() } else { String::new() },
                )
            })
            .collect();
        let edge_refs: Vec<(&str, &str, &str, &str)> = edge_text
            .iter()
            .map(|(a, b, c, d)| (a.as_str(), b.as_str(), c.as_str(), d.as_str()))
            .collect();
        let xml = model(
            [inv_text[0].as_str(), inv_text[1].as_str(), inv_text[2].as_str()],
            &edge_refs,
        );
        let start = (0, 0);
        let f = |l: usize, r: usize| phi.eval(l, r);
        let not_f = |l: usize, r: usize| !phi.eval(l, r);
        let not_g = |l: usize, r: usize| !psi.eval(l, r);
        prop_assert_eq!(check(&xml, &format!("E[] {}", phi.text())), ta.globally(start, &f));
        prop_assert_eq!(check(&xml, &format!("A<> {}", phi.text())), !ta.globally(start, &not_f));
        let violated = ta.states().into_iter().any(|(l, r)| {
            phi.eval(l, r) && !psi.eval(l, r) && ta.globally((l, r), &not_g)
        });
        prop_assert_eq!(
            check(&xml, &format!("{} --> {}", phi.text(), psi.text())),
            !violated
        );
    }

    /// Büchi emptiness (`couvreur_scc`, on the fly) on one-clock automata with random accepting
    /// locations agrees with the region graph's action cycles, and every lasso replays with an
    /// accepting state on its cycle (inside `buchi`).
    #[test]
    fn buchi_agrees_with_the_region_graph(
        inv in proptest::array::uniform3(proptest::option::of(0i64..=3)),
        edges in proptest::collection::vec(
            (0usize..3, 0usize..3, proptest::option::of((0u8..5, 0i64..=3)), any::<bool>()),
            0..6,
        ),
        acc in proptest::array::uniform3(any::<bool>()),
    ) {
        use region_oracle::{Ta, LOCS, OPS};
        prop_assume!(acc.iter().any(|&a| a));
        let ta = Ta { inv, edges: edges.clone() };
        let mut tck = String::from("system:s\nevent:tau\nprocess:P\nclock:1:x\n");
        for (l, name) in LOCS.iter().enumerate() {
            let mut attrs = Vec::new();
            if l == 0 {
                attrs.push("initial:".to_string());
            }
            if let Some(c) = inv[l] {
                attrs.push(format!("invariant:x<={c}"));
            }
            if acc[l] {
                attrs.push("labels:acc".to_string());
            }
            tck += &format!("location:P:{name}{{{}}}\n", attrs.join(" : "));
        }
        for (s, t, g, r) in &edges {
            let mut attrs = Vec::new();
            if let Some((op, c)) = g {
                attrs.push(format!("provided:x{}{c}", OPS[*op as usize]));
            }
            if *r {
                attrs.push("do:x=0".to_string());
            }
            tck += &format!("edge:P:{}:{}:tau{{{}}}\n", LOCS[*s], LOCS[*t], attrs.join(" : "));
        }
        prop_assert_eq!(buchi(&tck, "acc"), ta.buchi(&acc), "{}", tck);
    }
}
