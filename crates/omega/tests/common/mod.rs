//! Helpers shared by the integration tests of the simulation-based reductions.

use rand::{rngs::SmallRng, Rng};
use verikit_omega::Arena;
use verikit_omega::Lasso;
use verikit_omega::Twa;

/// A random lasso word: a prefix of fewer than `prefix_below` and a cycle of 1–3 letters, each
/// letter below `letters`.
#[allow(dead_code)] // not every test binary draws words
pub fn random_lasso(rng: &mut SmallRng, prefix_below: usize, letters: u64) -> Lasso {
    Lasso {
        prefix: (0..rng.gen_range(0..prefix_below))
            .map(|_| rng.gen_range(0..letters))
            .collect(),
        cycle: (0..rng.gen_range(1..4))
            .map(|_| rng.gen_range(0..letters))
            .collect(),
    }
}

/// Lasso letters from the arena's AP numbering to the automaton's (`to_aut`) or back.
pub fn conv(arena: &Arena, aut: &Twa, w: &Lasso, to_aut: bool) -> Lasso {
    let map: Vec<Option<u32>> = aut.aps.iter().map(|n| arena.lookup_ap(n)).collect();
    let c = |b: &u64| {
        let mut o = 0u64;
        for (i, m) in map.iter().enumerate() {
            if let Some(j) = m {
                let (from, to) = if to_aut {
                    (*j, i as u32)
                } else {
                    (i as u32, *j)
                };
                if (b >> from) & 1 == 1 {
                    o |= 1 << to;
                }
            }
        }
        o
    };
    Lasso {
        prefix: w.prefix.iter().map(c).collect(),
        cycle: w.cycle.iter().map(c).collect(),
    }
}

/// A random tiny Büchi automaton over one AP with `n` states, one acceptance set and one to
/// three edges per state; with `state_based`, every edge of a state carries the state's mark.
pub fn tiny_buchi(rng: &mut SmallRng, n: u32, state_based: bool) -> Twa {
    let mut a = Twa::new(vec!["a".into()]);
    a.num_sets = 1;
    for _ in 0..n {
        a.add_state();
    }
    let acc: Vec<u64> = if state_based {
        (0..n).map(|_| rng.gen_range(0..2u64)).collect()
    } else {
        Vec::new()
    };
    for s in 0..n {
        for _ in 0..rng.gen_range(1..4) {
            let l = match rng.gen_range(0..3) {
                0 => a.tt(),
                1 => a.ap_var(0),
                _ => a.ap_var(0).not(),
            };
            let m = if state_based {
                acc[s as usize]
            } else {
                rng.gen_range(0..2u64)
            };
            let d = rng.gen_range(0..n);
            a.add_edge(s, d, l, m);
        }
    }
    a.init = vec![0];
    a
}
