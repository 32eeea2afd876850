//! The Zielonka-tree transform (EL → parity) against the DNF word checker: on random automata
//! with random conditions, the parity automaton accepts exactly the words the input accepts,
//! and a deterministic input stays deterministic.

use super::el::{random_aut, random_word};
use crate::accepts::{accepts_lasso, accepts_lasso_dnf};
use crate::zielonka_tree::{to_parity, ZielonkaTree};
use crate::{hoa, Acc};
use proptest::prelude::*;
use rand::{rngs::SmallRng, Rng, SeedableRng};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn transform_keeps_the_language(seed in any::<u64>()) {
        let mut rng = SmallRng::seed_from_u64(seed);
        let det = rng.gen();
        let a = random_aut(&mut rng, det);
        let p = to_parity(&a).unwrap();
        let t = p.into_twa();
        if det {
            prop_assert!(t.is_deterministic(), "{}", hoa::to_hoa(&t));
        }
        for _ in 0..8 {
            let w = random_word(&mut rng);
            let want = accepts_lasso_dnf(&a, &w, 10_000).unwrap();
            prop_assert_eq!(accepts_lasso(&t, &w), want, "{:?}\n{}\n{}", w, hoa::to_hoa(&a), hoa::to_hoa(&t));
        }
    }
}

/// Rabin 2 has a tree with two leaves (one per pair), Streett 2 too; `Fin(0) | Inf(1)` is a
/// chain (one leaf), so a one-state automaton stays one state.
#[test]
fn tree_shapes() {
    assert_eq!(
        ZielonkaTree::new(&Acc::rabin(2), 0b1111).unwrap().leaves(),
        2
    );
    assert_eq!(
        ZielonkaTree::new(&Acc::streett(2), 0b1111)
            .unwrap()
            .leaves(),
        2
    );
    let c = Acc::or(Acc::fin(0), Acc::inf(1));
    assert_eq!(ZielonkaTree::new(&c, 0b11).unwrap().leaves(), 1);
    assert!(ZielonkaTree::new(&c, (1 << 13) - 1).is_none());
}
