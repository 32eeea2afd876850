//! Semantics on small hand-written models (committed states, buffered and rendezvous channels,
//! assertions, evaluation errors), and a property test: the compiled generator's state space of
//! random models equals the one the independent syntax-tree interpreter enumerates, and every
//! deadlock / assertion trace replays on it.

use proptest::prelude::*;
use verikit_diag::Budget;
use verikit_explicit::{
    bfs, load_model, parse_dve, reference_state_count, replay_trace, EvalErrorKind, Goal,
    ViolationKind,
};

fn explore(src: &str) -> verikit_explicit::Exploration {
    let m = load_model(src).unwrap();
    bfs(&m, Goal::Explore, &Budget::unlimited())
}

#[test]
fn committed_states_are_atomic() {
    // 3 × 2 = 6 states either way, but with P's middle state committed Q cannot move while P is
    // there: the step (b,u) → (b,v) disappears, 7 transitions become 6.
    let body = "byte x;
        process P { state a, b, c; init a; COMMIT trans a -> b { effect x = 1; }, b -> c { effect x = 0; }; }
        process Q { state u, v; init u; trans u -> v { }; }
        system async;";
    let free = explore(&body.replace("COMMIT", ""));
    let atomic = explore(&body.replace("COMMIT", "commit b;"));
    assert_eq!((free.states, free.transitions), (6, 7));
    assert_eq!((atomic.states, atomic.transitions), (6, 6));
}

#[test]
fn buffered_channel_is_a_fifo_and_rendezvous_passes_values() {
    let src = "byte got[2]; byte n;
        channel {byte} q[2]; channel r;
        process S { state s0, s1, s2; init s0; trans s0 -> s1 { sync q!7; }, s1 -> s2 { sync q!9; }; }
        process R { byte v; state r0, r1, r2, r3; init r0;
          trans r0 -> r1 { sync q?v; effect got[0] = v; }, r1 -> r2 { sync q?got[1]; },
                r2 -> r3 { sync r!got[0] + got[1]; }; }
        process T { state t0, t1; init t0; trans t0 -> t1 { sync r?n; }; }
        system async;";
    let m = load_model(src).unwrap();
    let r = bfs(&m, Goal::Deadlock, &Budget::unlimited());
    let v = r.violation.expect("the end state is a deadlock");
    let last = m.decode(v.trace.states.last().unwrap());
    assert_eq!(last.vars["got"], vec![7, 9]);
    assert_eq!(last.vars["n"], vec![16]);
    replay_trace(
        &parse_dve(src).unwrap(),
        &v.trace
            .states
            .iter()
            .map(|s| m.decode(s))
            .collect::<Vec<_>>(),
    )
    .unwrap();
}

#[test]
fn assertion_violation_has_a_shortest_trace_that_replays() {
    let src = "byte x;
        process P { state a; init a; assert a: x < 3; trans a -> a { guard x < 5; effect x = x + 1; }; }
        system async;";
    let m = load_model(src).unwrap();
    let r = bfs(&m, Goal::Assert, &Budget::unlimited());
    let v = r.violation.unwrap();
    assert!(matches!(v.kind, ViolationKind::Assert { .. }));
    assert_eq!(v.trace.labels.len(), 3);
    let dec: Vec<_> = v.trace.states.iter().map(|s| m.decode(s)).collect();
    replay_trace(&parse_dve(src).unwrap(), &dec).unwrap();
    // A tampered trace does not replay.
    let mut bad = dec.clone();
    bad[1].vars.insert("x".into(), vec![2]);
    assert!(replay_trace(&parse_dve(src).unwrap(), &bad).is_err());
}

#[test]
fn evaluation_errors_are_reported() {
    for (src, kind) in [
        ("byte x; process P { state a; init a; trans a -> a { effect x = 1 / x; }; } system async;", EvalErrorKind::DivisionByZero),
        ("byte x[2]; byte i = 2; process P { state a; init a; trans a -> a { effect x[i] = 1; }; } system async;", EvalErrorKind::IndexOutOfBounds),
        ("byte x = 255; process P { state a; init a; trans a -> a { effect x = x + 1; }; } system async;", EvalErrorKind::OutOfRange),
    ] {
        let m = load_model(src).unwrap();
        let r = bfs(&m, Goal::Assert, &Budget::unlimited());
        match r.violation.map(|v| v.kind) {
            Some(ViolationKind::Eval { error, .. }) => assert_eq!(error.kind, kind),
            other => panic!("{src}: {other:?}"),
        }
    }
}

#[test]
fn divine_error_state_is_shared_and_the_others_move_on_from_it() {
    // P's only transition always fails (index 2 of a 2-element array), Q can step once.
    let src = "byte a[2]; byte i = 2;
        process P { state s, t; init s; trans s -> t { effect a[i] = 1; }; }
        process Q { state u, v; init u; trans u -> v { }; }
        system async;";
    // No successor for the failing step: (s,u) -> (s,v), where P's step fails again: a
    // deadlock whose only enabled transition failed.
    let skip = explore(src);
    assert_eq!(
        (
            skip.states,
            skip.transitions,
            skip.deadlocks,
            skip.error_dead_ends,
            skip.eval_errors
        ),
        (2, 1, 1, 1, 2)
    );
    // DiVinE: both failing steps lead to one error state E (P one past its last state, Q in
    // its first state u, every variable 0), from which Q steps to (E.P, v), a deadlock:
    // 4 states, (s,u)->(s,v), (s,u)->E, (s,v)->E, E->(E.P,v).
    let mut m = load_model(src).unwrap();
    m.set_divine_errors(true);
    let r = bfs(&m, Goal::Explore, &Budget::unlimited());
    assert_eq!(
        (
            r.states,
            r.transitions,
            r.deadlocks,
            r.error_dead_ends,
            r.eval_errors
        ),
        (4, 4, 1, 0, 2)
    );
}

/// A random model: processes with a few states over two byte variables and a rendezvous channel.
fn model() -> impl Strategy<Value = String> {
    let trans = (
        0..3usize,
        0..3usize,
        0..2usize,
        0..4i64,
        0..6usize,
        0..2usize,
        0..4i64,
    );
    let proc = prop::collection::vec(trans, 1..5);
    (prop::collection::vec(proc, 1..4), any::<bool>()).prop_map(|(ps, commit)| {
        let mut s = String::from("byte v[2]; int w; channel c;\n");
        for (k, ts) in ps.iter().enumerate() {
            s += &format!("process P{k} {{ state s0, s1, s2; init s0; ");
            if commit && k == 0 {
                s += "commit s1; ";
            }
            s += "assert s2: v[0] != 3; trans ";
            let items: Vec<String> = ts
                .iter()
                .map(|&(a, b, var, c, kind, dir, d)| {
                    let guard = format!("guard v[{var}] != {c};");
                    let body = match kind {
                        0 => format!("effect v[{var}] = (v[{var}] + {d}) % 4;"),
                        1 => format!("effect w = (w - {d}) % 5, v[{var}] = {d};"),
                        2 if dir == 0 => format!("sync c!v[{var}] + {d};"),
                        2 => format!("sync c?v[{var}];"),
                        3 => format!("effect v[{var}] = {d} - w % 3;"),
                        _ => String::new(),
                    };
                    format!("s{a} -> s{b} {{ {guard} {body} }}")
                })
                .collect();
            s += &items.join(", ");
            s += "; }\n";
        }
        s + "system async;"
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]
    #[test]
    fn compiled_generator_equals_reference_interpreter(src in model()) {
        let m = load_model(&src).unwrap();
        let ast = parse_dve(&src).unwrap();
        let r = bfs(&m, Goal::Explore, &Budget::unlimited());
        prop_assert_eq!(Some(r.states as usize), reference_state_count(&ast, 100_000), "{}", src);
        for goal in [Goal::Deadlock, Goal::Assert] {
            if let Some(v) = bfs(&m, goal, &Budget::unlimited()).violation {
                let dec: Vec<_> = v.trace.states.iter().map(|s| m.decode(s)).collect();
                prop_assert!(replay_trace(&ast, &dec).is_ok(), "{}", src);
            }
        }
    }
}
