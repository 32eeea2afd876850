//! Linearisation (the preprocessing of Dutertre & de Moura, "A Fast Linear-Arithmetic Solver for
//! DPLL(T)", CAV 2006, Section 3): every arithmetic term becomes `Σ a_i x_i + c` over problem
//! variables; every atom `t ⋈ c` later gets one slack variable per distinct (normalised) linear
//! term `t`, so atoms become bounds on a single variable.
//!
//! Term-level `ite`, `to_int`, `div`, `mod` and `abs` are replaced by fresh variables with
//! definitional side constraints (returned as Boolean terms for the CNF conversion). An integer
//! `ite` tree whose leaves share one linear part `B` (`ite(c, x, x − 16)`) becomes `B + c₁ + g·z`
//! with `z` a tree over constants, so its congruence modulo `g` holds before any case split
//! (decision 0208).

use crate::terms::{Op, Sort, TermId, Terms};
use rustc_hash::{FxHashMap, FxHashSet};
use verikit_num::Num;

/// A linear form `Σ a_i x_i + c` (variables are indices of `Terms::vars`, sorted, non-zero).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Lin {
    pub terms: Vec<(u32, Num)>,
    pub c: Num,
}

impl Lin {
    pub(crate) fn constant(c: Num) -> Lin {
        Lin {
            terms: Vec::new(),
            c,
        }
    }
    pub(crate) fn var(x: u32) -> Lin {
        Lin {
            terms: vec![(x, Num::ONE)],
            c: Num::ZERO,
        }
    }
    pub(crate) fn scale(&self, a: &Num) -> Lin {
        if a.is_zero() {
            return Lin::constant(Num::ZERO);
        }
        Lin {
            terms: self.terms.iter().map(|(x, b)| (*x, b.mul(a))).collect(),
            c: self.c.mul(a),
        }
    }
    pub(crate) fn add(&self, o: &Lin) -> Lin {
        let (a, b) = (&self.terms, &o.terms);
        let sorted = |t: &[(u32, Num)]| t.windows(2).all(|w| w[0].0 < w[1].0);
        if !sorted(a) || !sorted(b) {
            return Lin::sum(&[self.clone(), o.clone()]);
        }
        // both term lists are sorted: merge them
        let mut terms = Vec::with_capacity(a.len() + b.len());
        let (mut i, mut j) = (0, 0);
        while i < a.len() || j < b.len() {
            if j == b.len() || (i < a.len() && a[i].0 < b[j].0) {
                terms.push(a[i].clone());
                i += 1;
            } else if i == a.len() || b[j].0 < a[i].0 {
                terms.push(b[j].clone());
                j += 1;
            } else {
                let s = a[i].1.add(&b[j].1);
                if !s.is_zero() {
                    terms.push((a[i].0, s));
                }
                i += 1;
                j += 1;
            }
        }
        Lin {
            terms,
            c: self.c.add(&o.c),
        }
    }
    pub(crate) fn sum(parts: &[Lin]) -> Lin {
        let mut all: Vec<(u32, Num)> =
            Vec::with_capacity(parts.iter().map(|p| p.terms.len()).sum());
        let mut c = Num::ZERO;
        for p in parts {
            all.extend(p.terms.iter().cloned());
            c = c.add(&p.c);
        }
        // stable: equal variables keep the order of the parts, as the sums did before
        all.sort_by_key(|t| t.0);
        let mut terms: Vec<(u32, Num)> = Vec::with_capacity(all.len());
        for (x, a) in all {
            match terms.last_mut() {
                Some((y, b)) if *y == x => *b = b.add(&a),
                _ => {
                    if terms.last().is_some_and(|t| t.1.is_zero()) {
                        terms.pop();
                    }
                    terms.push((x, a));
                }
            }
        }
        if terms.last().is_some_and(|t| t.1.is_zero()) {
            terms.pop();
        }
        Lin { terms, c }
    }
    pub(crate) fn sub(&self, o: &Lin) -> Lin {
        if o.terms.is_empty() {
            // `t − k`, the common atom shape: no scaled copy
            return Lin {
                terms: self.terms.clone(),
                c: self.c.sub(&o.c),
            };
        }
        self.add(&o.scale(&Num::int(-1)))
    }
    pub(crate) fn as_const(&self) -> Option<&Num> {
        if self.terms.is_empty() {
            Some(&self.c)
        } else {
            None
        }
    }
}

/// Most `ite` nodes and leaves of one tree examined by `Linearizer::common_base`.
const BASE_NODES: usize = 2_000;
const BASE_LEAVES: usize = 64;

#[derive(Default)]
pub(crate) struct Linearizer {
    cache: FxHashMap<TermId, Lin>,
    /// Definitional constraints of fresh variables, to be asserted (they hold in every scope).
    pub side: Vec<TermId>,
    fresh: u32,
    /// Atoms with an `ite` on one side are first rewritten by pushing the relation to its leaves.
    pub lift: crate::ite_lifting::IteLift,
}

impl Linearizer {
    pub(crate) fn new() -> Linearizer {
        Linearizer::default()
    }

    /// An empty linearizer (no cached linear forms or `ite` regions) that goes on numbering
    /// fresh variables after this one and keeps its counters, for a solver that rebuilds its
    /// encoding of the assertions in scope.
    pub(crate) fn renewed(&self) -> Linearizer {
        let mut l = Linearizer {
            fresh: self.fresh,
            ..Linearizer::default()
        };
        l.lift.lifted_atoms = self.lift.lifted_atoms;
        l.lift.capped_atoms = self.lift.capped_atoms;
        l.lift.regions_built = self.lift.regions_built;
        l
    }

    fn fresh_var(&mut self, terms: &mut Terms, sort: Sort, what: &str) -> TermId {
        self.fresh += 1;
        terms.declare(&format!("{what}!{}", self.fresh), sort)
    }

    /// The linear form of an arithmetic term (iteratively, post-order, so deep terms are fine).
    pub(crate) fn lin(&mut self, terms: &mut Terms, root: TermId) -> Lin {
        if let Some(l) = self.cache.get(&root) {
            return l.clone();
        }
        let mut stack = vec![(root, false)];
        while let Some((t, expanded)) = stack.pop() {
            if self.cache.contains_key(&t) {
                continue;
            }
            let node = terms.node(t).owned();
            let children: Vec<TermId> = match node.op {
                // the leaves are linearised with the definitions of the fresh variable
                Op::Ite => vec![],
                Op::ToInt | Op::Abs | Op::IntDiv | Op::Mod => vec![node.args[0]],
                Op::Const(_) | Op::Var(_) => vec![],
                _ => node.args.to_vec(),
            };
            if !expanded {
                stack.push((t, true));
                for c in children {
                    if !self.cache.contains_key(&c) && terms.sort(c).is_arith() {
                        stack.push((c, false));
                    }
                }
                continue;
            }
            let get =
                |s: &Self, c: TermId| s.cache.get(&c).cloned().unwrap_or(Lin::constant(Num::ZERO));
            let l = match &node.op {
                Op::Const(c) => Lin::constant(c.clone()),
                Op::Var(i) => Lin::var(*i),
                Op::Add => {
                    let parts: Vec<Lin> = node.args.iter().map(|a| get(self, *a)).collect();
                    Lin::sum(&parts)
                }
                Op::Neg => get(self, node.args[0]).scale(&Num::int(-1)),
                Op::ToReal => get(self, node.args[0]),
                Op::Mul => {
                    let mut k = Num::ONE;
                    let mut rest: Option<Lin> = None;
                    for a in node.args.iter() {
                        let la = get(self, *a);
                        match la.as_const() {
                            Some(c) => k = k.mul(c),
                            None => rest = Some(la),
                        }
                    }
                    match rest {
                        Some(r) => r.scale(&k),
                        None => Lin::constant(k),
                    }
                }
                Op::Div => {
                    let a = get(self, node.args[0]);
                    let b = get(self, node.args[1]);
                    match b.as_const() {
                        Some(c) if !c.is_zero() => a.scale(&c.recip()),
                        _ => a, // rejected by the elaborator
                    }
                }
                Op::Ite if node.sort == Sort::Int && self.common_base(terms, t) => self
                    .cache
                    .get(&t)
                    .cloned()
                    .unwrap_or(Lin::constant(Num::ZERO)),
                Op::Ite => {
                    let v = self.fresh_var(terms, node.sort, "ite");
                    match self.lift.define_var(terms, t, v) {
                        Some(defs) => self.side.extend(defs),
                        None => {
                            let c = node.args[0];
                            let e1 = terms.mk(Op::Eq, vec![v, node.args[1]], Sort::Bool);
                            let e2 = terms.mk(Op::Eq, vec![v, node.args[2]], Sort::Bool);
                            let i1 = terms.mk(Op::Implies, vec![c, e1], Sort::Bool);
                            let nc = terms.mk_not(c);
                            let i2 = terms.mk(Op::Implies, vec![nc, e2], Sort::Bool);
                            self.side.push(i1);
                            self.side.push(i2);
                        }
                    }
                    self.lin_of_var(terms, v)
                }
                Op::ToInt => {
                    // v ≤ t < v + 1
                    let v = self.fresh_var(terms, Sort::Int, "to_int");
                    let vr = terms.mk(Op::ToReal, vec![v], Sort::Real);
                    let a = node.args[0];
                    let le = terms.mk(Op::Le, vec![vr, a], Sort::Bool);
                    let one = terms.mk_const(Num::ONE, Sort::Real);
                    let v1 = terms.mk(Op::Add, vec![vr, one], Sort::Real);
                    let lt = terms.mk(Op::Lt, vec![a, v1], Sort::Bool);
                    self.side.push(le);
                    self.side.push(lt);
                    self.lin_of_var(terms, v)
                }
                Op::IntDiv | Op::Mod => {
                    // a = k q + r, 0 ≤ r < |k|
                    let a = node.args[0];
                    let k = match get_const(terms, node.args[1]) {
                        Some(k) if !k.is_zero() => k,
                        _ => Num::ONE,
                    };
                    let q = self.fresh_var(terms, Sort::Int, "div");
                    let r = self.fresh_var(terms, Sort::Int, "mod");
                    let kt = terms.mk_const(k.clone(), Sort::Int);
                    let kq = terms.mk(Op::Mul, vec![kt, q], Sort::Int);
                    let sum = terms.mk(Op::Add, vec![kq, r], Sort::Int);
                    let eq = terms.mk(Op::Eq, vec![a, sum], Sort::Bool);
                    let zero = terms.mk_const(Num::ZERO, Sort::Int);
                    let ge0 = terms.mk(Op::Le, vec![zero, r], Sort::Bool);
                    let absk = terms.mk_const(k.abs(), Sort::Int);
                    let ltk = terms.mk(Op::Lt, vec![r, absk], Sort::Bool);
                    self.side.extend([eq, ge0, ltk]);
                    let lq = self.lin_of_var(terms, q);
                    let lr = self.lin_of_var(terms, r);
                    let both = (lq, lr);
                    if node.op == Op::IntDiv {
                        // cache the sibling too for sharing
                        both.0
                    } else {
                        both.1
                    }
                }
                Op::Abs => {
                    let a = node.args[0];
                    let zero = terms.mk_const(Num::ZERO, Sort::Int);
                    let c = terms.mk(Op::Le, vec![zero, a], Sort::Bool);
                    let na = terms.mk(Op::Neg, vec![a], Sort::Int);
                    let ite = terms.mk(Op::Ite, vec![c, a, na], Sort::Int);
                    // linearise the ite (creates the fresh variable and its side constraints)
                    self.lin(terms, ite)
                }
                _ => Lin::constant(Num::ZERO),
            };
            self.cache.insert(t, l);
        }
        self.cache
            .get(&root)
            .cloned()
            .unwrap_or(Lin::constant(Num::ZERO))
    }

    /// An integer `ite` tree whose leaves are all `B + c_i`, for one non-constant linear part `B`
    /// and constants `c_i`, equals `B + c_1 + g·z` with `g = gcd(c_i − c_1)`, where `z` is the
    /// same tree over the constants `(c_i − c_1)/g` (defined by its own fresh variable). The
    /// equation holds whatever the conditions are, so `t ≡ B + c_1 (mod g)` and
    /// `B + min c_i ≤ t ≤ B + max c_i` are known before any condition is decided: the
    /// modular-arithmetic encodings `ite(x < 2^k, x, x − 2^k)` then close by the Diophantine test
    /// instead of by case analysis over the conditions. On success the linear form of `t` is
    /// cached and `true` returned; trees over constants only, or with differing linear parts, are
    /// left to the region encoding.
    fn common_base(&mut self, terms: &mut Terms, t: TermId) -> bool {
        let mut seen: FxHashSet<TermId> = FxHashSet::default();
        let mut leaves: Vec<TermId> = Vec::new();
        let mut inner = 0usize;
        let mut stack = vec![t];
        while let Some(u) = stack.pop() {
            if !seen.insert(u) {
                continue;
            }
            let n = terms.node(u);
            if *n.op == Op::Ite {
                inner += 1;
                if inner > BASE_NODES {
                    return false;
                }
                stack.push(n.args[2]);
                stack.push(n.args[1]);
            } else {
                leaves.push(u);
                if leaves.len() > BASE_LEAVES {
                    return false;
                }
            }
        }
        let Some(&l0) = leaves.first() else {
            return false;
        };
        let first = self.lin(terms, l0);
        if first.terms.is_empty() {
            return false;
        }
        let mut offset: FxHashMap<TermId, Num> = FxHashMap::default();
        offset.insert(l0, Num::ZERO);
        let mut g = Num::ZERO;
        for &l in &leaves[1..] {
            let ll = self.lin(terms, l);
            if ll.terms != first.terms {
                return false;
            }
            let d = ll.c.sub(&first.c);
            if !d.is_integer() {
                return false;
            }
            g = Num::gcd_int(&g, &d);
            offset.insert(l, d);
        }
        if g.is_zero() {
            // every leaf is the same linear term
            self.cache.insert(t, first);
            return true;
        }
        // the tree over the offsets divided by g (post-order over the DAG)
        let mut image: FxHashMap<TermId, TermId> = FxHashMap::default();
        for (&l, d) in &offset {
            let k = terms.mk_const(d.div(&g), Sort::Int);
            image.insert(l, k);
        }
        let mut stack = vec![(t, false)];
        while let Some((u, expanded)) = stack.pop() {
            if image.contains_key(&u) {
                continue;
            }
            let n = terms.node(u);
            let (c, a, b) = (n.args[0], n.args[1], n.args[2]);
            if !expanded {
                stack.extend([(u, true), (a, false), (b, false)]);
                continue;
            }
            let (Some(&ia), Some(&ib)) = (image.get(&a), image.get(&b)) else {
                return false;
            };
            let iu = if ia == ib {
                ia
            } else {
                terms.mk(Op::Ite, vec![c, ia, ib], Sort::Int)
            };
            image.insert(u, iu);
        }
        let Some(&z) = image.get(&t) else {
            return false;
        };
        let lz = self.lin(terms, z);
        let l = Lin::sum(&[first, lz.scale(&g)]);
        self.cache.insert(t, l);
        true
    }

    fn lin_of_var(&mut self, terms: &Terms, v: TermId) -> Lin {
        match *terms.node(v).op {
            Op::Var(i) => Lin::var(i),
            _ => Lin::constant(Num::ZERO),
        }
    }
}

fn get_const(terms: &Terms, t: TermId) -> Option<Num> {
    match &terms.node(t).op {
        Op::Const(c) => Some(c.clone()),
        Op::Neg => get_const(terms, terms.node(t).args[0]).map(|c| c.neg()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::BTreeMap;

    fn lin_of(terms: &[(u32, i64)], c: i64) -> Lin {
        // sorted and non-zero, as every linear form is
        let mut m: BTreeMap<u32, i64> = BTreeMap::new();
        for &(x, a) in terms {
            *m.entry(x).or_insert(0) += a;
        }
        Lin {
            terms: m
                .into_iter()
                .filter(|(_, a)| *a != 0)
                .map(|(x, a)| (x, Num::int(a)))
                .collect(),
            c: Num::int(c),
        }
    }

    /// The reference: coefficients summed in a map.
    fn reference(parts: &[(&Lin, i64)]) -> Lin {
        let mut m: BTreeMap<u32, Num> = BTreeMap::new();
        let mut c = Num::ZERO;
        for (p, k) in parts {
            let k = Num::int(*k);
            for (x, a) in &p.terms {
                let e = m.entry(*x).or_insert(Num::ZERO);
                *e = e.add(&a.mul(&k));
            }
            c = c.add(&p.c.mul(&k));
        }
        Lin {
            terms: m.into_iter().filter(|(_, a)| !a.is_zero()).collect(),
            c,
        }
    }

    fn form() -> impl Strategy<Value = Lin> {
        (prop::collection::vec((0u32..6, -3i64..=3), 0..6), -5i64..=5)
            .prop_map(|(t, c)| lin_of(&t, c))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(500))]
        #[test]
        fn sums_agree_with_the_map_reference(a in form(), b in form(), c in form()) {
            prop_assert_eq!(a.add(&b), reference(&[(&a, 1), (&b, 1)]));
            prop_assert_eq!(a.sub(&b), reference(&[(&a, 1), (&b, -1)]));
            prop_assert_eq!(
                Lin::sum(&[a.clone(), b.clone(), c.clone()]),
                reference(&[(&a, 1), (&b, 1), (&c, 1)])
            );
            // unsorted input (as a caller may build by hand) still sums correctly
            let mut rev = a.clone();
            rev.terms.reverse();
            prop_assert_eq!(rev.add(&b), reference(&[(&a, 1), (&b, 1)]));
        }
    }

    #[test]
    fn small_numerals_match_the_general_parser() {
        for s in ["0", "7", "0012", "123456789012345678", "999999999999999999"] {
            assert_eq!(crate::elab::small_numeral(s), Num::parse_decimal(s), "{s}");
        }
        assert_eq!(crate::elab::small_numeral("1234567890123456789"), None);
    }
}
