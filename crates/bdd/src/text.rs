//! BDD → `BoolExpr` and BDD → text, through a greedily minimised DNF (biodivine-lib-bdd's
//! `to_optimized_dnf`): cubes in the library's order, literals by variable number.

use crate::limits::{BddError, Limits};
use biodivine_lib_bdd::{Bdd, BddPartialValuation};
use verikit_logic::BoolExpr;

/// How [`to_text`] spells a formula.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextStyle<'a> {
    pub and: &'a str,
    pub or: &'a str,
    pub not: &'a str,
    pub tt: &'a str,
    pub ff: &'a str,
}

impl TextStyle<'static> {
    /// HOA labels: `0&!1 | 2`, `t`, `f`.
    pub const HOA: TextStyle<'static> = TextStyle {
        and: "&",
        or: " | ",
        not: "!",
        tt: "t",
        ff: "f",
    };
    /// Spot Boolean formulas: `a & !b | c`, `1`, `0`.
    pub const SPOT: TextStyle<'static> = TextStyle {
        and: " & ",
        or: " | ",
        not: "!",
        tt: "1",
        ff: "0",
    };
}

/// The cubes of a DNF of `b`, literals `(variable, value)` sorted by variable; `[[]]` for true,
/// `[]` for false. The budget is polled while the DNF is minimised.
fn cubes(b: &Bdd, limits: &Limits) -> Result<Vec<Vec<(usize, bool)>>, BddError> {
    if b.is_true() {
        return Ok(vec![Vec::new()]);
    }
    if b.is_false() {
        return Ok(Vec::new());
    }
    let dnf: Vec<BddPartialValuation> = b
        ._to_optimized_dnf(true, &|_| limits.budget.check())
        .map_err(BddError::Exhausted)?;
    Ok(dnf
        .iter()
        .map(|c| {
            let mut lits: Vec<(usize, bool)> = c
                .to_values()
                .into_iter()
                .map(|(v, x)| (v.to_index(), x))
                .collect();
            lits.sort_unstable();
            lits
        })
        .collect())
}

/// `b` as a disjunction of conjunctions of literals, formula variable `i` being BDD variable `i`.
pub fn to_expr(b: &Bdd, limits: &Limits) -> Result<BoolExpr, BddError> {
    let cs = cubes(b, limits)?;
    if cs.iter().any(|c| c.is_empty()) {
        return Ok(BoolExpr::Const(true));
    }
    let mut terms: Vec<BoolExpr> = cs
        .into_iter()
        .map(|c| {
            let mut lits: Vec<BoolExpr> = c
                .into_iter()
                .map(|(v, x)| {
                    let var = BoolExpr::Var(v as u32);
                    if x {
                        var
                    } else {
                        BoolExpr::not(var)
                    }
                })
                .collect();
            if lits.len() == 1 {
                lits.pop().unwrap_or(BoolExpr::Const(true))
            } else {
                BoolExpr::And(lits)
            }
        })
        .collect();
    Ok(match terms.len() {
        0 => BoolExpr::Const(false),
        1 => terms.pop().unwrap_or(BoolExpr::Const(false)),
        _ => BoolExpr::Or(terms),
    })
}

/// `b` as text in `style`, variable `i` spelled `name(i)`.
pub fn to_text(
    b: &Bdd,
    name: &dyn Fn(usize) -> String,
    style: TextStyle<'_>,
    limits: &Limits,
) -> Result<String, BddError> {
    let cs = cubes(b, limits)?;
    if cs.is_empty() {
        return Ok(style.ff.into());
    }
    let mut parts = Vec::with_capacity(cs.len());
    for c in &cs {
        if c.is_empty() {
            return Ok(style.tt.into());
        }
        let s: Vec<String> = c
            .iter()
            .map(|&(i, x)| {
                if x {
                    name(i)
                } else {
                    format!("{}{}", style.not, name(i))
                }
            })
            .collect();
        parts.push(s.join(style.and));
    }
    Ok(parts.join(style.or))
}
