//! Test support shared by the automata tests: random NFAs for property tests.

use crate::*;
use proptest::prelude::*;

/// Random NFAs with 1..=`max_states` states over `letters` letters `l0, l1, …`, up to
/// `edge_factor · n · letters` transitions, up to two initial states and any final states.
pub(super) fn arb_nfa(
    max_states: usize,
    letters: usize,
    edge_factor: usize,
) -> impl Strategy<Value = Nfa> {
    (1..=max_states).prop_flat_map(move |n| {
        let edges = proptest::collection::vec(
            (0..n as u32, 0..letters as u32, 0..n as u32),
            0..(edge_factor * n * letters),
        );
        let inits = proptest::collection::vec(0..n as u32, 0..3);
        let finals = proptest::collection::vec(0..n as u32, 0..n + 1);
        (Just(n), edges, inits, finals).prop_map(move |(n, edges, inits, finals)| {
            let names: Vec<String> = (0..letters).map(|i| format!("l{i}")).collect();
            let mut b = NfaBuilder::with_states(Alphabet::from_names(&names), n);
            for q in inits {
                b.add_initial(q);
            }
            for q in finals {
                b.add_final(q);
            }
            for (s, l, t) in edges {
                b.add_transition(s, l, t);
            }
            b.build()
        })
    })
}
