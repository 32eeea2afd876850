//! Strongly connected components by Tarjan's algorithm, iterative so that deep graphs cannot
//! overflow the stack, and the topological order of the condensation.

use crate::csr::Csr;

/// Strongly connected components.
#[derive(Clone, Debug)]
pub struct Sccs {
    /// `comp[v]` is the index of `v`'s component.
    pub comp: Vec<u32>,
    /// Components in reverse topological order: every edge goes from a component to one with an
    /// index less than or equal to its own (sinks first), as Tarjan's algorithm emits them.
    pub members: Vec<Vec<u32>>,
}

impl Sccs {
    pub fn len(&self) -> usize {
        self.members.len()
    }
    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }
    /// True if component `c` has a cycle (more than one vertex, or a self-loop).
    pub fn is_nontrivial(&self, c: usize, succ: impl Fn(u32) -> bool) -> bool {
        self.members[c].len() > 1 || succ(self.members[c][0])
    }
}

/// Tarjan's SCC algorithm (iterative) over vertices `0..n` with successors given by `succ`.
pub fn tarjan<F, I>(n: usize, mut succ: F) -> Sccs
where
    F: FnMut(u32) -> I,
    I: IntoIterator<Item = u32>,
{
    const UNSEEN: u32 = u32::MAX;
    let mut index = vec![UNSEEN; n];
    let mut low = vec![0u32; n];
    let mut on_stack = vec![false; n];
    let mut stack: Vec<u32> = Vec::new();
    let mut comp = vec![0u32; n];
    let mut members: Vec<Vec<u32>> = Vec::new();
    let mut next = 0u32;
    // Call stack of (vertex, its successor list, position in it).
    let mut call: Vec<(u32, Vec<u32>, usize)> = Vec::new();
    for root in 0..n as u32 {
        if index[root as usize] != UNSEEN {
            continue;
        }
        index[root as usize] = next;
        low[root as usize] = next;
        next += 1;
        stack.push(root);
        on_stack[root as usize] = true;
        call.push((root, succ(root).into_iter().collect(), 0));
        while let Some(frame) = call.last_mut() {
            let v = frame.0;
            if frame.2 < frame.1.len() {
                let w = frame.1[frame.2];
                frame.2 += 1;
                if index[w as usize] == UNSEEN {
                    index[w as usize] = next;
                    low[w as usize] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w as usize] = true;
                    let ws: Vec<u32> = succ(w).into_iter().collect();
                    call.push((w, ws, 0));
                } else if on_stack[w as usize] {
                    low[v as usize] = low[v as usize].min(index[w as usize]);
                }
                continue;
            }
            call.pop();
            if let Some(parent) = call.last() {
                let p = parent.0 as usize;
                low[p] = low[p].min(low[v as usize]);
            }
            if low[v as usize] == index[v as usize] {
                let c = members.len() as u32;
                let mut m = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w as usize] = false;
                    comp[w as usize] = c;
                    m.push(w);
                    if w == v {
                        break;
                    }
                }
                members.push(m);
            }
        }
    }
    Sccs { comp, members }
}

/// SCCs of a [`Csr`] graph.
pub fn sccs(g: &Csr) -> Sccs {
    tarjan(g.num_vertices(), |v| g.succ(v).iter().copied())
}

/// A topological order of the components (sources first) of the condensation.
pub fn topological_components(s: &Sccs) -> Vec<u32> {
    (0..s.len() as u32).rev().collect()
}
