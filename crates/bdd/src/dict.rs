//! The variable dictionary: named propositions registered once, each with one BDD variable
//! (Spot's `bdd_dict`, adapted to biodivine-lib-bdd, whose BDDs carry their variable count).
//!
//! A dictionary is immutable and cheap to clone (shared). [`BddDict::extend`] appends names and
//! keeps every existing name at its variable, so a BDD over a dictionary is valid over all its
//! extensions once [`BddDict::lift`] has adjusted its variable count (no node changes). Between
//! unrelated dictionaries, [`BddDict::import`] maps a BDD by name.

use crate::limits::{BddError, Limits, MAX_VARS};
use biodivine_lib_bdd::{Bdd, BddNode, BddPointer, BddVariable, BddVariableSet};
use std::collections::HashMap;
use std::sync::Arc;

#[derive(Debug)]
struct Inner {
    names: Vec<String>,
    index: HashMap<String, u16>,
    vars: BddVariableSet,
}

/// Named propositions, one BDD variable each (variable `i` is `names()[i]`).
#[derive(Clone, Debug)]
pub struct BddDict {
    inner: Arc<Inner>,
}

impl Default for BddDict {
    fn default() -> Self {
        BddDict::anonymous(0)
    }
}

impl BddDict {
    /// A dictionary of the given names in order. A repeated name keeps its first variable and
    /// later occurrences get variables of their own that no lookup by name returns (callers that
    /// number propositions by position keep working). Fails beyond [`MAX_VARS`] names.
    pub fn try_new<S: Into<String>>(
        names: impl IntoIterator<Item = S>,
    ) -> Result<BddDict, BddError> {
        let names: Vec<String> = names.into_iter().map(Into::into).collect();
        if names.len() > MAX_VARS {
            return Err(BddError::TooManyVariables(names.len()));
        }
        let mut index = HashMap::with_capacity(names.len());
        for (i, n) in names.iter().enumerate() {
            index.entry(n.clone()).or_insert(i as u16);
        }
        let vars = BddVariableSet::new_anonymous(names.len() as u16);
        Ok(BddDict {
            inner: Arc::new(Inner { names, index, vars }),
        })
    }

    /// As [`BddDict::try_new`], keeping only the first [`MAX_VARS`] names when there are more
    /// (the names beyond have no variable: [`BddDict::var_of`] returns `None` for them).
    pub fn new<S: Into<String>>(names: impl IntoIterator<Item = S>) -> BddDict {
        let names: Vec<String> = names.into_iter().map(Into::into).take(MAX_VARS).collect();
        match BddDict::try_new(names) {
            Ok(d) => d,
            Err(_) => BddDict::anonymous(0),
        }
    }

    /// `n` variables named by their numbers (`"0"`, `"1"`, …), at most [`MAX_VARS`].
    pub fn anonymous(n: usize) -> BddDict {
        BddDict::new((0..n.min(MAX_VARS)).map(|i| i.to_string()))
    }

    /// The names, variable `i` being `names()[i]`.
    pub fn names(&self) -> &[String] {
        &self.inner.names
    }
    pub fn len(&self) -> usize {
        self.inner.names.len()
    }
    pub fn is_empty(&self) -> bool {
        self.inner.names.is_empty()
    }
    /// The biodivine-lib-bdd variable set (anonymous variables, one per name).
    pub fn vars(&self) -> &BddVariableSet {
        &self.inner.vars
    }
    /// True if both handles are the same dictionary (not merely equal names).
    pub fn same(&self, other: &BddDict) -> bool {
        Arc::ptr_eq(&self.inner, &other.inner)
    }
    /// True if every name of `self` has the same variable in `other` (`other` extends `self`).
    pub fn is_prefix_of(&self, other: &BddDict) -> bool {
        self.same(other)
            || (self.len() <= other.len()
                && self.names().iter().zip(other.names()).all(|(a, b)| a == b))
    }

    /// The variable of a name.
    pub fn var_of(&self, name: &str) -> Option<BddVariable> {
        self.inner
            .index
            .get(name)
            .map(|&i| BddVariable::from_index(i as usize))
    }
    /// Variable number `i` (`None` beyond the dictionary).
    pub fn var(&self, i: usize) -> Option<BddVariable> {
        (i < self.len()).then(|| BddVariable::from_index(i))
    }

    pub fn tt(&self) -> Bdd {
        self.inner.vars.mk_true()
    }
    pub fn ff(&self) -> Bdd {
        self.inner.vars.mk_false()
    }
    /// The BDD of proposition number `i` (false beyond the dictionary).
    pub fn literal(&self, i: usize, value: bool) -> Bdd {
        match self.var(i) {
            Some(v) => self.inner.vars.mk_literal(v, value),
            None => self.ff(),
        }
    }
    /// The BDD of proposition number `i` (false beyond the dictionary).
    pub fn ap(&self, i: usize) -> Bdd {
        self.literal(i, true)
    }

    /// A dictionary with `names` appended (those already present keep their variable and are not
    /// added again). Returns a handle to `self` when nothing is new.
    pub fn extend<'a>(
        &self,
        names: impl IntoIterator<Item = &'a str>,
    ) -> Result<BddDict, BddError> {
        let mut all = self.inner.names.clone();
        let mut seen: std::collections::HashSet<&str> =
            self.inner.names.iter().map(String::as_str).collect();
        for n in names {
            if seen.insert(n) {
                all.push(n.to_string());
            }
        }
        if all.len() == self.len() {
            return Ok(self.clone());
        }
        BddDict::try_new(all)
    }

    /// The union of two dictionaries: `self`'s names, then `other`'s new ones.
    pub fn join(&self, other: &BddDict) -> Result<BddDict, BddError> {
        self.extend(other.names().iter().map(String::as_str))
    }

    /// A BDD over a prefix of this dictionary ([`BddDict::is_prefix_of`]) made valid here: only its
    /// variable count changes. A BDD using variables beyond this dictionary is returned unchanged.
    pub fn lift(&self, b: &Bdd) -> Bdd {
        if b.num_vars() as usize == self.len() {
            return b.clone();
        }
        relabel(b, self.len(), &|v| Some(v)).unwrap_or_else(|| b.clone())
    }

    /// A BDD over `from` as a BDD over this dictionary, matching propositions by name. The
    /// propositions of `from` that this dictionary lacks are quantified away (existentially).
    /// Order-preserving maps relabel the nodes; other maps rebuild the BDD node by node within
    /// `limits`.
    pub fn import(&self, from: &BddDict, b: &Bdd, limits: &Limits) -> Result<Bdd, BddError> {
        if from.is_prefix_of(self) {
            return Ok(self.lift(b));
        }
        if b.is_true() {
            return Ok(self.tt());
        }
        if b.is_false() {
            return Ok(self.ff());
        }
        let target = |v: BddVariable| -> Option<usize> {
            let name = from.names().get(v.to_index())?;
            let j = *self.inner.index.get(name.as_str())? as usize;
            Some(j)
        };
        let mut support: Vec<BddVariable> = b.support_set().into_iter().collect();
        support.sort_unstable();
        let missing: Vec<BddVariable> = support
            .iter()
            .copied()
            .filter(|&v| target(v).is_none())
            .collect();
        let owned;
        let b = if missing.is_empty() {
            b
        } else {
            owned = b.exists(&missing);
            limits.check(&owned)?;
            &owned
        };
        if let Some(r) = relabel(b, self.len(), &|v| target(v).map(BddVariable::from_index)) {
            return Ok(r);
        }
        self.rebuild(b, &|v| target(v), limits)
    }

    /// Rebuilds `b` bottom-up with `if-then-else` over this dictionary's variables.
    fn rebuild(
        &self,
        b: &Bdd,
        target: &dyn Fn(BddVariable) -> Option<usize>,
        limits: &Limits,
    ) -> Result<Bdd, BddError> {
        let nodes = b.clone().to_nodes();
        let mut out: Vec<Bdd> = Vec::with_capacity(nodes.len());
        for (i, node) in nodes.iter().enumerate() {
            let r = match i {
                0 => self.ff(),
                1 => self.tt(),
                _ => {
                    let lo = out.get(node.low_link.to_index()).cloned();
                    let hi = out.get(node.high_link.to_index()).cloned();
                    let (Some(lo), Some(hi)) = (lo, hi) else {
                        // Not children-first: fall back to a recursive rebuild.
                        return self.rebuild_rec(b, target, limits);
                    };
                    let Some(j) = target(node.var) else {
                        return Ok(self.ff());
                    };
                    let x = self.ap(j);
                    let r = Bdd::if_then_else(&x, &hi, &lo);
                    limits.check(&r)?;
                    r
                }
            };
            out.push(r);
        }
        Ok(out.pop().unwrap_or_else(|| self.ff()))
    }

    fn rebuild_rec(
        &self,
        b: &Bdd,
        target: &dyn Fn(BddVariable) -> Option<usize>,
        limits: &Limits,
    ) -> Result<Bdd, BddError> {
        fn go(
            d: &BddDict,
            b: &Bdd,
            p: BddPointer,
            target: &dyn Fn(BddVariable) -> Option<usize>,
            limits: &Limits,
            memo: &mut HashMap<BddPointer, Bdd>,
        ) -> Result<Bdd, BddError> {
            if p.is_zero() {
                return Ok(d.ff());
            }
            if p.is_one() {
                return Ok(d.tt());
            }
            if let Some(r) = memo.get(&p) {
                return Ok(r.clone());
            }
            let lo = go(d, b, b.low_link_of(p), target, limits, memo)?;
            let hi = go(d, b, b.high_link_of(p), target, limits, memo)?;
            let x = target(b.var_of(p)).map_or_else(|| d.ff(), |j| d.ap(j));
            let r = Bdd::if_then_else(&x, &hi, &lo);
            limits.check(&r)?;
            memo.insert(p, r.clone());
            Ok(r)
        }
        go(
            self,
            b,
            b.root_pointer(),
            target,
            limits,
            &mut HashMap::new(),
        )
    }
}

/// `b` with every variable `v` renamed to `map(v)` and `num_vars` variables, when the map keeps
/// the order of `b`'s variables (the node structure is reused). `None` if it does not apply.
fn relabel(
    b: &Bdd,
    num_vars: usize,
    map: &dyn Fn(BddVariable) -> Option<BddVariable>,
) -> Option<Bdd> {
    let n = u16::try_from(num_vars).ok()?;
    let mut nodes = b.clone().to_nodes();
    for (i, node) in nodes.iter_mut().enumerate() {
        if i < 2 {
            node.var = BddVariable::from_index(n as usize);
        } else {
            node.var = map(node.var)?;
        }
    }
    // `from_nodes` checks that every variable is below the count and the order holds.
    let nodes: Vec<BddNode> = nodes;
    Bdd::from_nodes(&nodes).ok()
}
