//! Explicit enumeration of the synchronous state graph, the oracle for small networks (the
//! enumeration-and-simulation approach recalled in SETTA'17, Mizera–Pang–Qu–Yuan, "A New
//! Decomposition Method for Attractor Detection in Large Synchronous Boolean Networks", Sect. 1).
//! Every state has exactly one successor (Sect. 2.1), so the attractors are the cycles of a
//! functional graph, found by walking from each unvisited state.

use crate::error::BnError;
use crate::symbolic::{rotate_min, Cycle};
use verikit_logic::BoolExpr;

/// Largest network the explicit engine accepts (2^MAX_VARS states).
pub(crate) const MAX_VARS: usize = 24;

/// All attractors (cycles) of the network, each rotated to start at its least state, sorted.
pub(crate) fn attractors(functions: &[BoolExpr]) -> Result<Vec<Cycle>, BnError> {
    let n = functions.len();
    if n > MAX_VARS {
        return Err(BnError::Limit(format!(
            "brute force enumerates 2^{n} states; it accepts at most {MAX_VARS} variables (use --method decomposition)"
        )));
    }
    let size = 1usize << n;
    // Bit i of a state index is variable i.
    let succ: Vec<u32> = (0..size as u64)
        .map(|s| {
            let mut t = 0u32;
            for (i, f) in functions.iter().enumerate() {
                if f.eval_bits(s) {
                    t |= 1 << i;
                }
            }
            t
        })
        .collect();
    // colour: 0 unvisited, 1 on the current walk, 2 done.
    let mut colour = vec![0u8; size];
    let mut out = Vec::new();
    let mut walk = Vec::new();
    for start in 0..size {
        if colour[start] != 0 {
            continue;
        }
        walk.clear();
        let mut s = start;
        while colour[s] == 0 {
            colour[s] = 1;
            walk.push(s);
            s = succ[s] as usize;
        }
        if colour[s] == 1 {
            // A new cycle starting at s.
            let mut cyc = vec![s];
            let mut t = succ[s] as usize;
            while t != s {
                cyc.push(t);
                t = succ[t] as usize;
            }
            let cycle: Cycle = cyc
                .iter()
                .map(|&st| (0..n).map(|i| (st >> i) & 1 == 1).collect())
                .collect();
            out.push(rotate_min(cycle));
        }
        for &w in &walk {
            colour[w] = 2;
        }
    }
    out.sort();
    Ok(out)
}
