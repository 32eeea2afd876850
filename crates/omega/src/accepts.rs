//! Membership of lasso words: `A` accepts the word `u; cycle{v}` iff the product of `A` with the
//! lasso-shaped automaton of the word is non-empty (letters that are partial Boolean formulas
//! mean "some word compatible with them", as in Spot's `autfilt --accept-word`; for full
//! valuations this is exact membership of `u v^ω`).

use crate::error::OmegaError;
use crate::ltl::eval::Lasso;
use crate::twa::Twa;
use crate::word::Word;

/// True if `aut` accepts (a word compatible with) `word`.
pub fn accepts(aut: &Twa, word: &Word) -> Result<bool, OmegaError> {
    let w = word.to_twa();
    let p = crate::product::product(aut, &w)?;
    Ok(!crate::emptiness::is_empty(&p))
}

/// True if `aut` accepts the valuation lasso `u v^ω` (bit `i` of a letter = `aut.aps[i]`).
/// Runs a direct search on (state, position) pairs without building BDD products.
pub fn accepts_lasso(aut: &Twa, w: &Lasso) -> bool {
    if w.cycle.is_empty() || aut.acc_false {
        return false;
    }
    let n = w.prefix.len() + w.cycle.len();
    let letters: Vec<u64> = w.prefix.iter().chain(w.cycle.iter()).copied().collect();
    let vals: Vec<_> = letters.iter().map(|&b| aut.valuation(b)).collect();
    let next = |i: usize| if i + 1 < n { i + 1 } else { w.prefix.len() };
    // Product graph over (state, position).
    let ns = aut.num_states();
    let id = |s: u32, p: usize| s as usize * n + p;
    let mut t = Twa::new(Vec::new());
    for _ in 0..ns * n {
        t.add_state();
    }
    t.num_sets = aut.num_sets;
    for s in 0..ns {
        for (p, val) in vals.iter().enumerate() {
            for e in &aut.states[s] {
                if e.label.eval_in(val) {
                    let tt = t.tt();
                    t.add_edge(
                        id(s as u32, p) as u32,
                        id(e.dst, next(p)) as u32,
                        tt,
                        e.marks,
                    );
                }
            }
        }
    }
    t.init = aut.init.iter().map(|&i| id(i, 0) as u32).collect();
    !crate::emptiness::is_empty(&t)
}
