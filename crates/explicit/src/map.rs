//! MAP, maximal accepting predecessors (Brim, Černá, Moravec, Šimša, "Accepting predecessors
//! are better than back edges in distributed LTL model-checking", FMCAD 2004; DiVinE's second
//! parallel LTL algorithm, Barnat et al., CAV 2006, §2). States are ordered by their number in
//! the stored product; `map(v)` is the greatest accepting state from which `v` is reachable by a
//! non-empty path, computed by propagation to a fixpoint. An accepting state that is its own
//! `map` lies on an accepting cycle. Otherwise no accepting state that is the `map` of some state
//! lies on an accepting cycle: those are removed from the accepting set and the propagation is
//! repeated; when none is removed there is no accepting cycle.

use crate::owcty::Fixpoint;
use crate::partitioned_product::StoredProduct;
use std::collections::VecDeque;
use verikit_diag::Budget;

const NONE: u32 = u32::MAX;

pub(crate) fn map(g: &StoredProduct, budget: &Budget) -> Fixpoint {
    let n = g.len();
    let mut acc: Vec<bool> = g.accepting.clone();
    let mut m = vec![NONE; n];
    let mut q = VecDeque::new();
    let mut queued = vec![false; n];
    let mut tick = budget.ticker(4096);
    let mut rounds = 0;
    // `a > b` in the order, with NONE below everything.
    let gt = |a: u32, b: u32| a != NONE && (b == NONE || a > b);
    loop {
        rounds += 1;
        m.iter_mut().for_each(|x| *x = NONE);
        for v in 0..n {
            if acc[v] {
                q.push_back(v as u32);
                queued[v] = true;
            }
        }
        while let Some(u) = q.pop_front() {
            if let Err(e) = tick.tick() {
                return Fixpoint {
                    lasso: None,
                    rounds,
                    stopped: Some(e),
                };
            }
            queued[u as usize] = false;
            let mu = m[u as usize];
            let val = if acc[u as usize] && gt(u, mu) { u } else { mu };
            if val == NONE {
                continue;
            }
            for &v in g.succ.succ(u) {
                if gt(val, m[v as usize]) {
                    m[v as usize] = val;
                    if v == val {
                        // An accepting state reaches itself: a cycle.
                        let lasso = g.lasso(v, &|_| true);
                        return Fixpoint {
                            lasso,
                            rounds,
                            stopped: None,
                        };
                    }
                    if !queued[v as usize] {
                        queued[v as usize] = true;
                        q.push_back(v);
                    }
                }
            }
        }
        let mut removed = false;
        for &x in &m {
            if x != NONE && acc[x as usize] {
                acc[x as usize] = false;
                removed = true;
            }
        }
        if !removed {
            return Fixpoint {
                lasso: None,
                rounds,
                stopped: None,
            };
        }
    }
}
