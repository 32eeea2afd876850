//! Forward reachability.

use crate::csr::Csr;

/// The vertices reachable from `start` (including it), as a membership vector.
pub fn reachable(g: &Csr, start: &[u32]) -> Vec<bool> {
    let mut seen = vec![false; g.num_vertices()];
    let mut todo: Vec<u32> = Vec::new();
    for &s in start {
        if !seen[s as usize] {
            seen[s as usize] = true;
            todo.push(s);
        }
    }
    while let Some(v) = todo.pop() {
        for &w in g.succ(v) {
            if !seen[w as usize] {
                seen[w as usize] = true;
                todo.push(w);
            }
        }
    }
    seen
}
