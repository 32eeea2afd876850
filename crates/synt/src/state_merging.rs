//! Smaller strategies by merging states, each merge kept only if the merged machine still passes
//! the specification check — a reduction that uses the strategy's freedom (the don't-cares of the
//! game: answers the specification does not constrain) which Moore's minimisation (`mealy`),
//! preserving the exact input/output behaviour, cannot.
//!
//! As Spot's `ltlsynt --simplify` reduces an incompletely specified machine (M. Renkin,
//! P. Schlehuber-Caissier, A. Duret-Lutz, A. Pommellet, *Dissecting ltlsynt*, FMSD 2023, §5:
//! states whose defined behaviours agree may be merged), but with the specification itself as
//! the judge instead of a precomputed compatibility relation: merging state `b` into state `a`
//! redirects every transition into `b` to `a` and drops `b`'s rows (the unreachable states are
//! dropped with it); the candidate is kept when `accepts` — the product check against the
//! forbidden behaviours — accepts it. Greedy: the last states are tried first, each against the
//! earlier ones — those with the same input/output relation (targets aside) first — up to a
//! number of checks.

use crate::error::SyntError;
use crate::mealy::{Machine, Row};
use verikit_bdd::Bdd;
use verikit_diag::Budget;

/// At most this many candidate machines are checked.
const MAX_CHECKS: usize = 64;

/// `m` with state `b` merged into state `a` (`a < b`), unreachable states removed, state 0 still
/// initial.
fn merge(m: &Machine, a: u32, b: u32) -> Machine {
    let redirect = |t: u32| if t == b { a } else { t };
    // Reachable states from 0 after the redirection, in order of discovery.
    let n = m.rows.len();
    let mut new_id = vec![u32::MAX; n];
    let mut order = vec![0u32];
    new_id[0] = 0;
    let mut i = 0;
    while i < order.len() {
        let s = order[i] as usize;
        i += 1;
        for r in m.rows.get(s).into_iter().flatten() {
            let t = redirect(r.target) as usize;
            if new_id.get(t) == Some(&u32::MAX) {
                new_id[t] = order.len() as u32;
                order.push(t as u32);
            }
        }
    }
    let rows = order
        .iter()
        .map(|&s| {
            m.rows
                .get(s as usize)
                .into_iter()
                .flatten()
                .map(|r| Row {
                    guard: r.guard.clone(),
                    answer: r.answer.clone(),
                    target: new_id
                        .get(redirect(r.target) as usize)
                        .copied()
                        .unwrap_or(0),
                })
                .collect()
        })
        .collect();
    Machine {
        moore: m.moore,
        dict: m.dict.clone(),
        unc: m.unc.clone(),
        ctl: m.ctl.clone(),
        rows,
        allowed: None,
    }
}

/// Greedily merges states of `m` while `accepts` (the specification check: `Ok(true)` passes,
/// `Ok(false)` fails, an error — a limit or the budget — stops the reduction and is returned).
pub(crate) fn reduce(
    m: &Machine,
    accepts: &mut dyn FnMut(&Machine) -> Result<bool, SyntError>,
    budget: &Budget,
) -> Result<Machine, SyntError> {
    let mut cur = m.clone();
    let mut checks = 0;
    let mut b = cur.states() as u32;
    while b > 1 {
        b -= 1;
        if b as usize >= cur.states() {
            continue;
        }
        // States answering as `b` does (the same letters, targets aside) first: merging them
        // changes only where the machine goes next.
        let io = |s: u32| -> Bdd {
            cur.rows
                .get(s as usize)
                .into_iter()
                .flatten()
                .fold(cur.dict.ff(), |f, r| f.or(&cur.relation(r)))
        };
        let mine = io(b);
        let (mut same, mut other): (Vec<u32>, Vec<u32>) = (0..b).partition(|&a| io(a) == mine);
        same.append(&mut other);
        for a in same {
            if checks >= MAX_CHECKS {
                return Ok(cur);
            }
            budget.check()?;
            checks += 1;
            let cand = merge(&cur, a, b);
            if accepts(&cand)? {
                cur = cand;
                break;
            }
        }
    }
    Ok(cur)
}

#[cfg(test)]
mod tests {
    use super::{merge, reduce};
    use crate::mealy::{Machine, Row};
    use verikit_bdd::BddDict;
    use verikit_diag::Budget;

    /// A machine over input `r`, output `g` with `n` states in a cycle, all answering `g = r`.
    fn ring(n: u32) -> Machine {
        let dict = BddDict::try_new(["r", "g"]).unwrap();
        let (r, g) = (dict.var(0).unwrap(), dict.var(1).unwrap());
        let rv = dict.vars().mk_var(r);
        let rows = (0..n)
            .map(|s| {
                vec![Row {
                    guard: dict.tt(),
                    answer: vec![rv.clone()],
                    target: (s + 1) % n,
                }]
            })
            .collect();
        Machine {
            moore: false,
            dict,
            unc: vec![r],
            ctl: vec![g],
            rows,
            allowed: None,
        }
    }

    #[test]
    fn merging_redirects_and_drops_unreachable_states() {
        let m = ring(4);
        let x = merge(&m, 0, 2);
        // 0 → 1 → (2 ↦ 0): states 0 and 1 remain.
        assert_eq!(x.states(), 2);
        assert_eq!(x.rows[0][0].target, 1);
        assert_eq!(x.rows[1][0].target, 0);
    }

    #[test]
    fn every_merge_the_judge_accepts_is_kept_and_no_other() {
        let m = ring(5);
        let all = reduce(&m, &mut |_| Ok(true), &Budget::unlimited()).unwrap();
        assert_eq!(all.states(), 1);
        let none = reduce(&m, &mut |_| Ok(false), &Budget::unlimited()).unwrap();
        assert_eq!(none.states(), 5);
        // A judge accepting machines of at least 3 states.
        let some = reduce(&m, &mut |c| Ok(c.states() >= 3), &Budget::unlimited()).unwrap();
        assert_eq!(some.states(), 3);
    }
}
