//! Deterministic automata of Boolean combinations, part by part: the `ltl-split` route of Spot's
//! translator for deterministic outputs, with the acceptance kept generic until the end.
//!
//! Paper: A. Duret-Lutz, E. Renault, M. Colange, F. Renkin, A. G. Aisse, P. Schlehuber-Caissier,
//! T. Medioni, A. Martin, J. Dubois, C. Gillard, H. Lauko, "From Spot 2.0 to Spot 2.10: What's
//! new?", CAV'22, §2 (LTL translation: a formula whose top operator is `∧`/`∨` is translated
//! operand by operand, the deterministic automata are combined by a product whose acceptance is
//! the conjunction/disjunction of the operands' Emerson–Lei conditions) and §4 (the result made
//! parity only at the end); the parity step is the ACD-transform [`crate::acd`] (the
//! Zielonka-tree transform [`crate::zielonka_tree`] beyond its limits).
//!
//! The formula is simplified, then `F` is pushed over `∨` and `G` over `∧` (`F(a ∨ b) = Fa ∨ Fb`,
//! `G(a ∧ b) = Ga ∧ Gb`, `FG(a ∧ b) = FGa ∧ FGb`, `GF(a ∨ b) = GFa ∨ GFb`; `F` of a
//! `GF`/`F` formula and `G` of an `FG`/`G` formula are the formula itself). If the top operator
//! is then `∧` or `∨`, every operand gets its deterministic automaton (recursively; a
//! deterministic generalized Büchi translation as it is, else the parity automaton of
//! [`crate::deterministic::deterministic_pair`] with the operand's negation); the automata are
//! combined by products (operands of `∨` completed first), the product is made parity by the
//! ACD-transform and simplified. The caller keeps it only when it is smaller than the
//! direct route's automaton.
//!
//! Every operand (and its negation) is translated once per call: the deterministic automaton of
//! each operand is cached by formula (the arena shares equal subformulas), so an operand met
//! twice (`(a ∧ GFb) ∨ (c ∧ GFb)`) is translated and determinised once. Both routes are still
//! built whenever the formula, simplified and with `F`/`G` spread, is a Boolean combination: the
//! whole formula through [`deterministic_pair`] (with `¬φ` competing) and the operands here —
//! neither is smaller on every formula (the product of the parts can be larger than the
//! determinisation of the whole, and the other way round).

use crate::acc::Acc;
use crate::deterministic::{deterministic_pair, simplify_parity, DetOptions};
use crate::error::OmegaError;
use crate::ltl::ast::{Arena, Node, F};
use crate::ltl::simplify::simplify;
use crate::parity::{complete_gba, complete_with_sink, ParityAut};
use crate::product::product;
use crate::stutter_det::syntactically_stutter_invariant;
use crate::translate::{translate, Options};
use crate::twa::Twa;
use std::collections::HashMap;

/// `F` or `G`: the operator [`push`] wraps around a formula, each the dual of the other.
#[derive(Clone, Copy)]
enum Temporal {
    /// `F`, spread over `∨` (and `FG` over `∧`).
    Ev,
    /// `G`, spread over `∧` (and `GF` over `∨`).
    Gl,
}

impl Temporal {
    fn dual(self) -> Temporal {
        match self {
            Temporal::Ev => Temporal::Gl,
            Temporal::Gl => Temporal::Ev,
        }
    }

    /// The formula's operand when its top is this operator.
    fn inner(self, n: &Node) -> Option<F> {
        match (self, n) {
            (Temporal::Ev, Node::Ev(y)) | (Temporal::Gl, Node::Gl(y)) => Some(*y),
            _ => None,
        }
    }

    /// The operands when the top is the Boolean operator this one distributes over (`∨` for
    /// `F`, `∧` for `G`).
    fn over(self, n: &Node) -> Option<Vec<F>> {
        match (self, n) {
            (Temporal::Ev, Node::Or(v)) | (Temporal::Gl, Node::And(v)) => Some(v.clone()),
            _ => None,
        }
    }

    fn join(self, a: &mut Arena, v: Vec<F>) -> F {
        match self {
            Temporal::Ev => a.or(v),
            Temporal::Gl => a.and(v),
        }
    }

    fn wrap(self, a: &mut Arena, x: F) -> F {
        match self {
            Temporal::Ev => a.ev(x),
            Temporal::Gl => a.gl(x),
        }
    }
}

/// `op x` with `op` pushed down: `F` over `∨` and `FG` over `∧`; dually `G` over `∧` and `GF`
/// over `∨`. `F F x = F x`, `F G F x = G F x` (and dually) are kept as they are.
fn push(a: &mut Arena, x: F, op: Temporal) -> F {
    let n = a.node(x).clone();
    if op.inner(&n).is_some() {
        return x;
    }
    if let Some(v) = op.over(&n) {
        let k = v.into_iter().map(|z| push(a, z, op)).collect();
        return op.join(a, k);
    }
    let d = op.dual();
    if let Some(y) = d.inner(&n) {
        let m = a.node(y).clone();
        if op.inner(&m).is_some() {
            return x;
        }
        if let Some(v) = d.over(&m) {
            let k = v
                .into_iter()
                .map(|z| {
                    let g = push(a, z, d);
                    push(a, g, op)
                })
                .collect();
            return d.join(a, k);
        }
    }
    op.wrap(a, x)
}

/// The formula with `F`/`G` spread over `∨`/`∧` down its Boolean top (see the module docs).
pub(crate) fn spread(a: &mut Arena, f: F) -> F {
    match a.node(f).clone() {
        Node::And(v) => {
            let k = v.into_iter().map(|x| spread(a, x)).collect();
            a.and(k)
        }
        Node::Or(v) => {
            let k = v.into_iter().map(|x| spread(a, x)).collect();
            a.or(k)
        }
        Node::Ev(g) => {
            let g = spread(a, g);
            push(a, g, Temporal::Ev)
        }
        Node::Gl(g) => {
            let g = spread(a, g);
            push(a, g, Temporal::Gl)
        }
        _ => f,
    }
}

/// A complete automaton of the same language, whatever its acceptance: a rejecting sink
/// (uncoloured, or with a fresh mark `k` and `… ∧ Fin(k)` when no marks would accept).
fn complete_el(t: &Twa) -> Twa {
    if t.is_complete() {
        return t.clone();
    }
    if t.is_generalized_buchi() {
        return complete_gba(t);
    }
    if let Some(p) = ParityAut::from_twa(t) {
        return p.complete().into_twa();
    }
    let acc = t.acceptance();
    let mut out = t.clone();
    if !acc.accepting(0) {
        complete_with_sink(&mut out, 0);
    } else {
        let k = t.num_sets;
        complete_with_sink(&mut out, 1u64 << k);
        out.set_acceptance(k + 1, Acc::and(acc, Acc::fin(k)));
    }
    out
}

/// The deterministic automaton of one operand with its acceptance as produced (generalized
/// Büchi or parity), or of a Boolean combination by products; `None` when some step is over its
/// size limits.
fn part(a: &mut Arena, f: F, ctx: &mut Ctx) -> Result<Option<Twa>, OmegaError> {
    ctx.o.det.budget.check()?;
    if let Some(t) = ctx.cache.get(&f) {
        return Ok(t.clone());
    }
    let t = part_uncached(a, f, ctx)?;
    ctx.cache.insert(f, t.clone());
    Ok(t)
}

/// What [`part`] works with: the options and the automata of the operands met so far.
struct Ctx<'a> {
    topts: &'a Options,
    o: &'a DetOptions,
    cache: HashMap<F, Option<Twa>>,
}

/// [`part`] of a formula not in the cache yet.
fn part_uncached(a: &mut Arena, f: F, ctx: &mut Ctx) -> Result<Option<Twa>, OmegaError> {
    let (topts, o) = (ctx.topts, ctx.o);
    let (ops, is_and) = match a.node(f).clone() {
        Node::And(v) => (v, true),
        Node::Or(v) => (v, false),
        _ => {
            let aut = translate(a, f, topts)?;
            if aut.is_deterministic() && aut.is_generalized_buchi() {
                return Ok(Some(aut));
            }
            let n = a.not(f);
            let neg = translate(a, n, topts)?;
            let po = DetOptions {
                deterministic: true,
                parity: true,
                complete: false,
                kind: None,
                det: crate::determinize::Options {
                    stutter_invariant: syntactically_stutter_invariant(a, f),
                    ..o.det.clone()
                },
                checked_merges: false,
                sat_minimize: None,
            };
            return match deterministic_pair(&aut, Some(&neg), &po) {
                Ok(t) => Ok(Some(t)),
                Err(OmegaError::Limit(_)) => Ok(None),
                Err(e) => Err(e),
            };
        }
    };
    let mut acc: Option<Twa> = None;
    for x in ops {
        let Some(t) = part(a, x, ctx)? else {
            return Ok(None);
        };
        acc = Some(match acc {
            None => t,
            Some(prev) => match combine(&prev, &t, is_and) {
                Some(p) => p,
                None => return Ok(None),
            },
        });
    }
    Ok(acc)
}

/// The product of two automata for `∧` (`is_and`) or `∨` (both completed first), with the
/// conjunction or disjunction of their conditions; `None` beyond the mark limit.
fn combine(x: &Twa, y: &Twa, is_and: bool) -> Option<Twa> {
    if is_and {
        let mut p = product(x, y).ok()?;
        let acc = Acc::and(x.acceptance(), y.acceptance().shift(x.num_sets));
        p.set_acceptance(x.num_sets + y.num_sets, acc);
        return Some(p);
    }
    let (cx, cy) = (complete_el(x), complete_el(y));
    let mut p = product(&cx, &cy).ok()?;
    let acc = Acc::or(cx.acceptance(), cy.acceptance().shift(cx.num_sets));
    p.set_acceptance(cx.num_sets + cy.num_sets, acc);
    Some(p)
}

/// The deterministic parity automaton of `f` built part by part, simplified; `None` when `f`
/// (simplified, `F`/`G` spread) is not a Boolean combination or a step is over its limits.
pub(crate) fn split_deterministic(
    a: &mut Arena,
    f: F,
    topts: &Options,
    o: &DetOptions,
) -> Result<Option<ParityAut>, OmegaError> {
    let s = simplify(a, f);
    let g = spread(a, s);
    if !matches!(a.node(g), Node::And(_) | Node::Or(_)) {
        return Ok(None);
    }
    let mut ctx = Ctx {
        topts,
        o,
        cache: HashMap::new(),
    };
    let Some(t) = part(a, g, &mut ctx)? else {
        return Ok(None);
    };
    o.det.budget.check()?;
    Ok(crate::acd::to_parity(&t)
        .or_else(|| crate::zielonka_tree::to_parity(&t))
        .map(|p| simplify_parity(&p)))
}
