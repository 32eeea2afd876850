//! OWCTY, MAP and nested DFS against a brute-force oracle on random Büchi graphs, on 1–3
//! workers, with either visited-state table; every lasso is checked edge by edge on the graph.

use crate::map::map;
use crate::nested_dfs::{nested_dfs, BuchiGraph, Lasso};
use crate::owcty::owcty;
use crate::partitioned_product::build;
use crate::state_store::StoreKind;
use proptest::prelude::*;
use verikit_diag::Budget;

#[derive(Clone, Debug)]
struct Random {
    succ: Vec<Vec<u32>>,
    acc: Vec<bool>,
}

fn id(s: &[u8]) -> u32 {
    s.try_into().map(u32::from_le_bytes).unwrap_or(u32::MAX)
}

impl BuchiGraph for Random {
    fn initial(&mut self) -> Vec<u8> {
        0u32.to_le_bytes().to_vec()
    }
    fn width(&self) -> usize {
        4
    }
    fn successors(&mut self, s: &[u8], out: &mut Vec<Vec<u8>>) {
        for &t in self.succ.get(id(s) as usize).map_or(&[][..], |v| v) {
            out.push(t.to_le_bytes().to_vec());
        }
    }
    fn accepting(&self, s: &[u8]) -> bool {
        self.acc.get(id(s) as usize).copied().unwrap_or(false)
    }
}

/// Is there an accepting state reachable from 0 that reaches itself in ≥ 1 step?
fn oracle(g: &Random) -> bool {
    let n = g.succ.len();
    let reach = |from: &[u32]| {
        let mut seen = vec![false; n];
        let mut st: Vec<u32> = from.to_vec();
        while let Some(u) = st.pop() {
            for &v in &g.succ[u as usize] {
                if !seen[v as usize] {
                    seen[v as usize] = true;
                    st.push(v);
                }
            }
        }
        seen
    };
    let mut from0 = reach(&[0]);
    from0[0] = true;
    (0..n).any(|a| from0[a] && g.acc[a] && reach(&[a as u32])[a])
}

fn valid(g: &Random, l: &Lasso) -> Result<(), String> {
    let path: Vec<u32> = l.stem.iter().chain(&l.cycle).map(|s| id(s)).collect();
    if path.first() != Some(&0) {
        return Err(format!("does not start in 0: {path:?}"));
    }
    let first = l.cycle.first().map(|s| id(s)).ok_or("empty cycle")?;
    let mut closed = path.clone();
    closed.push(first);
    for w in closed.windows(2) {
        if !g.succ[w[0] as usize].contains(&w[1]) {
            return Err(format!("no edge {} -> {} in {closed:?}", w[0], w[1]));
        }
    }
    if !l.cycle.iter().any(|s| g.acc[id(s) as usize]) {
        return Err("no accepting state on the cycle".into());
    }
    Ok(())
}

fn graph() -> impl Strategy<Value = Random> {
    (1usize..14).prop_flat_map(|n| {
        (
            proptest::collection::vec(proptest::collection::vec(0..n as u32, 0..3), n),
            proptest::collection::vec(proptest::bool::weighted(0.3), n),
        )
            .prop_map(|(succ, acc)| Random { succ, acc })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    #[test]
    fn cycle_algorithms_agree_with_the_oracle(g in graph(), workers in 1usize..4, tree: bool) {
        let want = oracle(&g);
        let b = Budget::unlimited();
        let store = if tree { StoreKind::Tree } else { StoreKind::Hash };
        let nd = nested_dfs(&mut g.clone(), store, &b);
        prop_assert_eq!(nd.lasso.is_some(), want);
        if let Some(l) = &nd.lasso {
            if let Err(e) = valid(&g, l) {
                prop_assert!(false, "nested DFS lasso invalid: {}", e);
            }
        }
        let stored = build(vec![g.clone(); workers], store, &b);
        let reachable = {
            let mut r = g.clone();
            let s = nested_dfs(&mut r, StoreKind::Hash, &b);
            s.states
        };
        if !want {
            prop_assert_eq!(stored.len() as u64, reachable);
        }
        for (name, f) in [("owcty", owcty(&stored, workers, &b)), ("map", map(&stored, &b))] {
            prop_assert_eq!(f.lasso.is_some(), want, "{}", name);
            if let Some(l) = &f.lasso {
                if let Err(e) = valid(&g, l) {
                    prop_assert!(false, "{} lasso invalid: {}", name, e);
                }
            }
        }
    }
}
