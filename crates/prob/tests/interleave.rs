//! Theorem 14 of the SETTA 2017 paper on small models: alternating bisimulation is preserved by
//! the interleaved composition of Definition 13. `M_2` is the quotient of a random `M_1` (so
//! `M_1 ∼ M_2`, checked first), `M_3` another random IMDP; then `M_1 ||| M_3 ∼ M_2 ||| M_3`.

mod common;
use common::random_imdp;
use proptest::prelude::*;
use verikit_prob::bisimulation;
use verikit_prob::quotient;
use verikit_prob::Model;
use verikit_prob::{bisimilar, interleave};

fn labelled(bytes: &[u8], n: usize) -> (Model, Vec<u32>) {
    let (m, target) = random_imdp(bytes, n);
    (m, target.iter().map(|&b| b as u32).collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn interleaving_is_a_congruence(
        b1 in proptest::collection::vec(any::<u8>(), 64),
        b3 in proptest::collection::vec(any::<u8>(), 48),
        n1 in 2usize..=4,
        n3 in 1usize..=3,
    ) {
        let (m1, l1) = labelled(&b1, n1);
        let (m3, l3) = labelled(&b3, n3);
        let bis = bisimulation(&m1, &l1);
        let m2 = quotient(&m1, &bis);
        let mut l2 = vec![0u32; bis.num_classes];
        for (s, &c) in bis.class.iter().enumerate() {
            l2[c as usize] = l1[s];
        }
        prop_assert!(bisimilar(&m1, &l1, &m2, &l2), "a model and its quotient must be bisimilar");
        let (p1, pl1) = interleave(&m1, &l1, &m3, &l3);
        let (p2, pl2) = interleave(&m2, &l2, &m3, &l3);
        prop_assert_eq!(p1.num_states(), m1.num_states() * m3.num_states());
        prop_assert!(bisimilar(&p1, &pl1, &p2, &pl2), "Theorem 14 fails");
    }
}

#[test]
fn different_labels_are_not_bisimilar() {
    let (m, l) = labelled(&[7, 1, 2, 3, 4, 5, 6, 7, 8, 9], 2);
    let flipped: Vec<u32> = l.iter().map(|&x| 1 - x).collect();
    if l[m.initial[0] as usize] != flipped[m.initial[0] as usize] {
        assert!(!bisimilar(&m, &l, &m, &flipped));
    }
    assert!(bisimilar(&m, &l, &m, &l));
}
