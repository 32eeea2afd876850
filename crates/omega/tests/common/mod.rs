//! Helpers shared by the integration tests of the simulation-based reductions.

use verikit_omega::ltl::eval::Lasso;
use verikit_omega::ltl::Arena;
use verikit_omega::Twa;

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
