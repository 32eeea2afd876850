//! The BDD encoding of a synchronous Boolean network (SETTA'17, Mizera–Pang–Qu–Yuan, "A New
//! Decomposition Method for Attractor Detection in Large Synchronous Boolean Networks", Sect. 2.2,
//! "Encoding BNs in BDDs", Eq. (1)).
//!
//! Each network variable `x_i` has a current-state BDD variable (`2i`) and a next-state copy
//! `x′_i` (`2i+1`), interleaved. The transition relation is `T(x, x′) = ⋀_i x′_i ↔ f_i(x)`; it is
//! kept partitioned: `image` conjoins the parts onto the set one at a time, quantifying each `x_j`
//! once no later part mentions it, then renames `x′` to
//! `x` (order preserving, done on the node array). The attractor states of a forward-closed set are
//! the greatest fixed point of `X ↦ X ∩ Image(X)`; [`Symbolic::peel`] then splits a set of
//! attractor states into cycles (the paper's `D(·)`), and [`Symbolic::count_cycles`] counts them
//! exactly without listing, by minimal period: the states `x` with `f^p(x) = x` are found with the
//! composed functions `f^p`, and each cycle of length `p` contributes `p` such states.
//!
//! Update functions (and their compositions) become BDDs through the shared kernel's conversion
//! (`verikit_bdd::from_expr`) over this module's interleaved variables.

use crate::error::BnError;
use crate::network::step;
#[cfg(test)]
use biodivine_lib_bdd::BddPartialValuation;
use biodivine_lib_bdd::{Bdd, BddNode, BddVariable, BddVariableSet};
use num_bigint::BigUint;
use num_traits::Zero;
use verikit_bdd::BddError;
use verikit_diag::Budget;
use verikit_logic::BoolExpr;

/// Limits for one run.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Largest BDD (in nodes) any operation may produce.
    pub node_limit: usize,
    /// The time budget (deadline, cancellation) polled between BDD operations.
    pub budget: Budget,
}

/// The default of [`Limits::node_limit`] (`--node-limit`).
pub const DEFAULT_NODE_LIMIT: usize = 20_000_000;

impl Default for Limits {
    fn default() -> Self {
        Limits {
            node_limit: DEFAULT_NODE_LIMIT,
            budget: Budget::unlimited(),
        }
    }
}

impl Limits {
    pub fn check_time(&self) -> Result<(), BnError> {
        self.budget.check().map_err(crate::error::exhausted)
    }
    pub fn check(&self, b: &Bdd) -> Result<(), BnError> {
        if b.size() > self.node_limit {
            return Err(BnError::Limit(format!(
                "a decision diagram grew to {} nodes, over the limit of {} nodes (raise it with --node-limit, or try another --method)",
                b.size(),
                self.node_limit
            )));
        }
        self.check_time()
    }
}

/// The `Detect` routine used on (sub)systems.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Detect {
    /// The greatest fixed point of `X ↦ X ∩ Image(X)` (the paper's monolithic `Detect` of [8]).
    Gfp,
    /// Period by period (`f^p(x) = x`) with basins removed by preimages, then `Gfp` for what is left.
    #[default]
    Periods,
}

/// One explicit cycle: its states (full valuations over the system's variables) in order.
pub type Cycle = Vec<Vec<bool>>;

/// The symbolic encoding of a network with complete (resolved) update functions.
pub(crate) struct Symbolic {
    pub n: usize,
    pub vars: BddVariableSet,
    pub functions: Vec<BoolExpr>,
    /// `f_i` over current-state variables.
    pub f: Vec<Bdd>,
    /// `x′_i ↔ f_i(x)`.
    pub rel: Vec<Bdd>,
    pub limits: Limits,
    pub detect: Detect,
}

pub(crate) fn x(i: usize) -> BddVariable {
    BddVariable::from_index(2 * i)
}
pub(crate) fn xp(i: usize) -> BddVariable {
    BddVariable::from_index(2 * i + 1)
}

/// Largest intermediate result of the balanced merge in [`Symbolic::fixed_points`].
pub(crate) const BALANCED_MERGE_NODES: usize = 20_000;

/// Largest number of network variables (two BDD variables each, 16-bit BDD variable ids).
pub(crate) const MAX_VARS: usize = 32_000;

impl Symbolic {
    pub(crate) fn new(functions: &[BoolExpr], limits: Limits) -> Result<Symbolic, BnError> {
        let n = functions.len();
        if n > MAX_VARS {
            return Err(BnError::Limit(format!(
                "the network has {n} variables; the symbolic engine handles at most {MAX_VARS}"
            )));
        }
        let vars = BddVariableSet::new_anonymous((2 * n) as u16);
        let mut s = Symbolic {
            n,
            vars,
            functions: functions.to_vec(),
            f: Vec::new(),
            rel: Vec::new(),
            limits,
            detect: Detect::default(),
        };
        for (i, e) in functions.iter().enumerate() {
            let fi = s.expr(e, &|v| s.vars.mk_var(x(v as usize)))?;
            let ri = s.vars.mk_var(xp(i)).iff(&fi);
            s.limits.check(&ri)?;
            s.f.push(fi);
            s.rel.push(ri);
        }
        Ok(s)
    }

    /// The BDD of a formula whose variable `v` is replaced by `leaf(v)` (variables beyond the
    /// network are false), by the shared kernel's conversion within this run's limits.
    pub(crate) fn expr(&self, e: &BoolExpr, leaf: &dyn Fn(u32) -> Bdd) -> Result<Bdd, BnError> {
        let limits =
            verikit_bdd::Limits::new(Some(self.limits.node_limit), self.limits.budget.clone());
        let leaf = |v: u32| {
            if (v as usize) < self.n {
                leaf(v)
            } else {
                self.vars.mk_false()
            }
        };
        verikit_bdd::from_expr(e, &self.vars, &leaf, &limits).map_err(|err| match err {
            BddError::NodeLimit {
                nodes: Some(nodes),
                limit,
            } => BnError::Limit(format!(
                "a decision diagram grew to {nodes} nodes, over the limit of {limit} nodes (raise it with --node-limit, or try another --method)"
            )),
            BddError::NodeLimit { limit, nodes: None } => BnError::Limit(format!(
                "a decision diagram exceeded the limit of {limit} nodes (raise it with --node-limit, or try another --method)"
            )),
            BddError::Exhausted(_) => BnError::Timeout,
            BddError::TooManyVariables(n) => BnError::Limit(format!(
                "the network has {n} variables; the symbolic engine handles at most {MAX_VARS}"
            )),
        })
    }

    /// `a ∧ b`, failing cleanly when the result would exceed the node limit.
    pub(crate) fn and(&self, a: &Bdd, b: &Bdd) -> Result<Bdd, BnError> {
        match Bdd::binary_op_with_limit(self.limits.node_limit, a, b, biodivine_lib_bdd::op_function::and) {
            Some(r) => {
                self.limits.check_time()?;
                Ok(r)
            }
            None => Err(BnError::Limit(format!(
                "a decision diagram exceeded the limit of {} nodes (raise it with --node-limit, or try another --method)",
                self.limits.node_limit
            ))),
        }
    }

    /// Renames next-state variables to current-state ones (the BDD must use only `x′`).
    fn unprime(&self, b: &Bdd) -> Result<Bdd, BnError> {
        rename(b, |v| v & !1)
    }

    /// The successors of `set` (a set over the ancestor-closed `vars`): the relational product
    /// `∃x. set(x) ∧ ⋀_{i∈vars} x′_i ↔ f_i(x)` computed on the partitioned relation, conjoining
    /// one `x′_i ↔ f_i` at a time and quantifying each `x_j` as soon as no remaining part uses it.
    pub(crate) fn image(&self, set: &Bdd, vars: &[usize]) -> Result<Bdd, BnError> {
        // last[j]: the position in `vars` of the last part that mentions x_j.
        let mut last: std::collections::HashMap<usize, usize> = std::collections::HashMap::new();
        for (k, &i) in vars.iter().enumerate() {
            for v in self.functions[i].vars() {
                last.insert(v as usize, k);
            }
        }
        let mut acc = set.clone();
        // Variables no part uses can go at once.
        let early: Vec<BddVariable> = vars
            .iter()
            .filter(|j| !last.contains_key(j))
            .map(|&j| x(j))
            .collect();
        if !early.is_empty() {
            acc = acc.exists(&early);
        }
        let mut due: Vec<Vec<BddVariable>> = vec![Vec::new(); vars.len()];
        for (&j, &k) in &last {
            due[k].push(x(j));
        }
        for (k, &i) in vars.iter().enumerate() {
            acc = if due[k].is_empty() {
                self.and(&acc, &self.rel[i])?
            } else {
                let r = Bdd::binary_op_with_exists(
                    &acc,
                    &self.rel[i],
                    biodivine_lib_bdd::op_function::and,
                    &due[k],
                );
                self.limits.check(&r)?;
                r
            };
            if acc.is_false() {
                break;
            }
        }
        self.unprime(&acc)
    }

    /// Renames current-state variables to next-state ones (the BDD must use only `x`).
    fn prime(&self, b: &Bdd) -> Result<Bdd, BnError> {
        rename(b, |v| v | 1)
    }

    /// The predecessors of `set`: `∃x′. set(x′) ∧ ⋀_i x′_i ↔ f_i(x)`, one part of the partitioned
    /// relation at a time for the variables the set mentions, each `x′_i` quantified as soon as
    /// its part is conjoined — the substitution `set[x := f(x)]`, without ever building a
    /// function of the full state space per node of the set.
    pub(crate) fn preimage(&self, set: &Bdd) -> Result<Bdd, BnError> {
        if set.is_false() || set.is_true() {
            return Ok(set.clone());
        }
        let mut support: Vec<usize> = set
            .support_set()
            .into_iter()
            .map(|v| v.to_index() / 2)
            .collect();
        support.sort_unstable();
        let mut acc = self.prime(set)?;
        for &i in support.iter().rev() {
            let r = Bdd::binary_op_with_exists(
                &acc,
                &self.rel[i],
                biodivine_lib_bdd::op_function::and,
                &[xp(i)],
            );
            self.limits.check(&r)?;
            acc = r;
            if acc.is_false() {
                break;
            }
        }
        Ok(acc)
    }

    /// `set[x := g(x)]`: the states whose image under the functions `g` (indexed by variable;
    /// every variable of `set` must have one) lies in `set` — a memoised walk over the set's nodes.
    pub(crate) fn compose(&self, set: &Bdd, g: &[Option<Bdd>]) -> Result<Bdd, BnError> {
        use biodivine_lib_bdd::BddPointer;
        if set.is_false() || set.is_true() {
            return Ok(set.clone());
        }
        let mut memo: std::collections::HashMap<BddPointer, Bdd> = std::collections::HashMap::new();
        memo.insert(BddPointer::zero(), self.vars.mk_false());
        memo.insert(BddPointer::one(), self.vars.mk_true());
        let mut stack = vec![set.root_pointer()];
        while let Some(&p) = stack.last() {
            if memo.contains_key(&p) {
                stack.pop();
                continue;
            }
            let (lo, hi) = (set.low_link_of(p), set.high_link_of(p));
            match (memo.get(&lo), memo.get(&hi)) {
                (Some(l), Some(h)) => {
                    let i = set.var_of(p).to_index() / 2;
                    let gi = g.get(i).and_then(|b| b.as_ref()).ok_or_else(|| {
                        BnError::Limit("internal: composition with a missing function".into())
                    })?;
                    let r = Bdd::if_then_else(gi, h, l);
                    self.limits.check(&r)?;
                    memo.insert(p, r);
                    stack.pop();
                }
                (l, h) => {
                    let (need_l, need_h) = (l.is_none(), h.is_none());
                    if need_l {
                        stack.push(lo);
                    }
                    if need_h {
                        stack.push(hi);
                    }
                }
            }
        }
        memo.remove(&set.root_pointer())
            .ok_or_else(|| BnError::Limit("internal: composition failed".into()))
    }

    /// The states of `within` that reach `target` (backward reachability by preimages).
    pub(crate) fn basin(&self, target: &Bdd, within: &Bdd) -> Result<Bdd, BnError> {
        // Frontier-based: only the states added in the last round are pulled back.
        let mut cur = target.clone();
        let mut frontier = target.clone();
        while !frontier.is_false() {
            let pre = self.and(&self.preimage(&frontier)?, within)?;
            frontier = pre.and_not(&cur);
            cur = cur.or(&frontier);
            self.limits.check(&cur)?;
            tracing::trace!(
                "basin: frontier {} nodes, basin {} nodes",
                frontier.size(),
                cur.size()
            );
        }
        Ok(cur)
    }

    /// The number of states in `set`, a set over the `k` variables it may mention.
    pub(crate) fn card(&self, set: &Bdd, k: usize) -> BigUint {
        let c = set.exact_cardinality();
        c >> (2 * self.n - k)
    }

    /// The BDD of one explicit state (values of `vars` taken from the full valuation `s`).
    #[cfg(test)]
    pub(crate) fn cube(&self, s: &[bool], vars: &[usize]) -> Bdd {
        let mut pv = BddPartialValuation::empty();
        for &i in vars {
            pv.set_value(x(i), s.get(i).copied().unwrap_or(false));
        }
        self.vars.mk_conjunctive_clause(&pv)
    }

    /// A set of explicit states as a BDD.
    pub(crate) fn states_bdd(&self, states: &[Vec<bool>], vars: &[usize]) -> Bdd {
        // Built directly from the cubes (one pass splitting them variable by variable), not by
        // one disjunction per state.
        let mut proj: Vec<Vec<bool>> = states
            .iter()
            .map(|s| {
                vars.iter()
                    .map(|&i| s.get(i).copied().unwrap_or(false))
                    .collect()
            })
            .collect();
        proj.sort_unstable();
        proj.dedup();
        if proj.is_empty() {
            return self.vars.mk_false();
        }
        let mut order: Vec<usize> = vars.to_vec();
        let mut perm: Vec<usize> = (0..vars.len()).collect();
        perm.sort_by_key(|&k| vars[k]);
        order.sort_unstable();
        // Sorted by the BDD's variable order, the states form a trie; it is built bottom-up,
        // sharing equal nodes and skipping nodes with equal children.
        let mut rows: Vec<Vec<bool>> = proj
            .iter()
            .map(|s| perm.iter().map(|&k| s[k]).collect())
            .collect();
        rows.sort_unstable();
        let num_vars = self.vars.num_vars();
        let mut nodes = vec![BddNode::mk_zero(num_vars), BddNode::mk_one(num_vars)];
        let mut unique: std::collections::HashMap<(usize, usize, usize), usize> =
            std::collections::HashMap::new();
        // Work items: (first row, end row, depth); a node is made once its two halves are done.
        enum Item {
            Visit(usize, usize, usize),
            Make(usize),
        }
        let mut stack = vec![Item::Visit(0, rows.len(), 0)];
        let mut results: Vec<usize> = Vec::new();
        while let Some(item) = stack.pop() {
            match item {
                Item::Visit(a, b, d) => {
                    if a == b {
                        results.push(0);
                    } else if d == order.len() {
                        results.push(1);
                    } else {
                        let mid = a + rows[a..b].partition_point(|r| !r[d]);
                        stack.push(Item::Make(d));
                        stack.push(Item::Visit(mid, b, d + 1));
                        stack.push(Item::Visit(a, mid, d + 1));
                    }
                }
                Item::Make(d) => {
                    let hi = results.pop().unwrap_or(0);
                    let lo = results.pop().unwrap_or(0);
                    if lo == hi {
                        results.push(lo);
                    } else {
                        let key = (d, lo, hi);
                        let id = *unique.entry(key).or_insert_with(|| {
                            nodes.push(BddNode::mk_node(
                                x(order[d]),
                                biodivine_lib_bdd::BddPointer::from_index(lo),
                                biodivine_lib_bdd::BddPointer::from_index(hi),
                            ));
                            nodes.len() - 1
                        });
                        results.push(id);
                    }
                }
            }
        }
        match results.pop() {
            Some(0) | None => self.vars.mk_false(),
            Some(1) => self.vars.mk_true(),
            Some(root) => {
                // Every node is below the root except ones made after it (none, in post-order);
                // the root must come last.
                nodes.truncate(root + 1);
                Bdd::from_nodes(&nodes).unwrap_or_else(|_| self.vars.mk_false())
            }
        }
    }

    /// The paper's `D(·)`: splits a set of attractor states (over the ancestor-closed `vars`)
    /// into its cycles, at most `limit` of them. Returns the cycles (each starting at its least
    /// state, as full valuations with unused variables false) and whether the set was exhausted.
    pub(crate) fn peel(
        &self,
        set: &Bdd,
        vars: &[usize],
        limit: usize,
    ) -> Result<(Vec<Cycle>, bool), BnError> {
        let mut rest = set.clone();
        let mut out = Vec::new();
        while !rest.is_false() {
            if out.len() >= limit {
                return Ok((out, false));
            }
            self.limits.check_time()?;
            let Some(w) = rest.sat_witness() else { break };
            let mut s = vec![false; self.n];
            for &i in vars {
                s[i] = w.value(x(i));
            }
            let cycle = self.cycle_from(&s, vars)?;
            let cb = self.states_bdd(&cycle, vars);
            rest = rest.and_not(&cb);
            out.push(cycle);
        }
        Ok((out, true))
    }

    /// Follows the deterministic successor function from `s` (which must be periodic) around its
    /// cycle; the cycle is rotated to start at its least state.
    pub(crate) fn cycle_from(&self, s: &[bool], vars: &[usize]) -> Result<Cycle, BnError> {
        let mut cycle = vec![s.to_vec()];
        let mut cur = s.to_vec();
        loop {
            let full = step(&self.functions, &cur);
            let mut next = vec![false; self.n];
            for &i in vars {
                next[i] = full[i];
            }
            if next == cycle[0] {
                break;
            }
            if cycle.len() > 10_000_000 {
                return Err(BnError::Limit(
                    "an attractor has more than 10^7 states".into(),
                ));
            }
            if cycle.len() % 4096 == 0 {
                self.limits.check_time()?;
                // A state off the cycle would loop forever; detect it.
                if cycle[1..].contains(&next) {
                    return Err(BnError::Limit(
                        "internal: a non-periodic state was peeled".into(),
                    ));
                }
            }
            cycle.push(next.clone());
            cur = next;
        }
        Ok(rotate_min(cycle))
    }

    /// The fixed points inside `set`: `set ∧ ⋀_{i∈vars} x_i ↔ f_i(x)`. First the conjuncts are
    /// merged smallest pair first (a balanced merge, which keeps intermediate results small where
    /// a chain would carry one growing conjunction through every step); if an intermediate result
    /// passes [`BALANCED_MERGE_NODES`] the conjunction is redone as a chain in variable order
    /// (which suits networks whose constraints are local in the order).
    pub(crate) fn fixed_points(&self, set: &Bdd, vars: &[usize]) -> Result<Bdd, BnError> {
        match self.fixed_points_balanced(set, vars, BALANCED_MERGE_NODES) {
            Some(r) => Ok(r),
            None => self.fixed_points_greedy(set, vars),
        }
    }

    /// The fixed-point conjunction built greedily: at each step the accumulated result is
    /// conjoined with every remaining constraint `x_i ↔ f_i` under a node budget equal to the
    /// smallest result found so far in this step, and the smallest result is kept. Each step
    /// costs at most one conjunction per constraint, each cut off as soon as it is no better than
    /// the best one, and the result grows only as far as it must (the greedy order of
    /// biodivine-aeon's symbolic fixed-point search).
    pub(crate) fn fixed_points_greedy(&self, set: &Bdd, vars: &[usize]) -> Result<Bdd, BnError> {
        let mut todo: Vec<Bdd> = vars
            .iter()
            .map(|&i| self.vars.mk_var(x(i)).iff(&self.f[i]))
            .collect();
        let mut result = set.clone();
        while !todo.is_empty() {
            // Candidates tried smallest first, so that a small bound is found early.
            todo.sort_by_key(|b| b.size());
            let mut best: Option<(usize, Bdd)> = None;
            for (k, c) in todo.iter().enumerate() {
                let bound = match &best {
                    Some((_, b)) => b.size().saturating_sub(1),
                    None => self.limits.node_limit,
                };
                if bound == 0 {
                    break;
                }
                let r = Bdd::binary_op_with_limit(
                    bound,
                    &result,
                    c,
                    biodivine_lib_bdd::op_function::and,
                );
                self.limits.check_time()?;
                if let Some(r) = r {
                    let small = r.size() <= 1;
                    best = Some((k, r));
                    if small {
                        break;
                    }
                }
            }
            let Some((k, r)) = best else {
                return Err(BnError::Limit(format!(
                    "a decision diagram exceeded the limit of {} nodes (raise it with --node-limit)",
                    self.limits.node_limit
                )));
            };
            todo.swap_remove(k);
            if r.is_false() {
                return Ok(r);
            }
            tracing::debug!(
                "fixed points: {} nodes, {} constraints left",
                r.size(),
                todo.len()
            );
            result = r;
        }
        Ok(result)
    }

    fn fixed_points_balanced(&self, set: &Bdd, vars: &[usize], limit: usize) -> Option<Bdd> {
        use std::cmp::Reverse;
        use std::collections::BinaryHeap;
        let mut parts: Vec<Bdd> = vec![set.clone()];
        for &i in vars {
            parts.push(self.vars.mk_var(x(i)).iff(&self.f[i]));
        }
        // Heap of (size, sequence number) over the parts; the sequence number keeps it stable.
        let mut heap: BinaryHeap<Reverse<(usize, usize)>> = BinaryHeap::new();
        let mut slots: Vec<Option<Bdd>> = Vec::with_capacity(parts.len() * 2);
        for b in parts {
            if b.is_false() {
                return Some(b);
            }
            heap.push(Reverse((b.size(), slots.len())));
            slots.push(Some(b));
        }
        loop {
            let Reverse((_, a)) = heap.pop()?;
            let Some(Reverse((_, b))) = heap.pop() else {
                return slots.get_mut(a).and_then(|s| s.take());
            };
            let ba = slots.get_mut(a).and_then(|s| s.take())?;
            let bb = slots.get_mut(b).and_then(|s| s.take())?;
            let r =
                Bdd::binary_op_with_limit(limit, &ba, &bb, biodivine_lib_bdd::op_function::and)?;
            if self.limits.check_time().is_err() {
                return None;
            }
            if r.is_false() {
                return Some(r);
            }
            heap.push(Reverse((r.size(), slots.len())));
            slots.push(Some(r));
        }
    }

    /// `f⁰` over `vars`: every variable's own BDD (where the period searches start).
    pub(crate) fn identity_map(&self, vars: &[usize]) -> Vec<Option<Bdd>> {
        let mut g: Vec<Option<Bdd>> = vec![None; self.n];
        for &i in vars {
            g[i] = Some(self.vars.mk_var(x(i)));
        }
        g
    }

    /// `f ∘ g` over `vars` (`fᵖ⁺¹` from `g = fᵖ`): each update function with the variables
    /// replaced by their entries of `g`.
    pub(crate) fn step_map(
        &self,
        g: &[Option<Bdd>],
        vars: &[usize],
    ) -> Result<Vec<Option<Bdd>>, BnError> {
        let mut ng: Vec<Option<Bdd>> = vec![None; self.n];
        for &i in vars {
            let gi = self.expr(&self.functions[i], &|v| {
                g.get(v as usize)
                    .cloned()
                    .flatten()
                    .unwrap_or_else(|| self.vars.mk_false())
            })?;
            ng[i] = Some(gi);
        }
        Ok(ng)
    }

    /// The states of `set` that `g` maps to themselves (`xᵢ ↔ gᵢ(x)` for every `i ∈ vars`).
    pub(crate) fn fixed_by(
        &self,
        set: &Bdd,
        g: &[Option<Bdd>],
        vars: &[usize],
    ) -> Result<Bdd, BnError> {
        let mut e = set.clone();
        for &i in vars {
            if let Some(gi) = g.get(i).and_then(Option::as_ref) {
                e = self.and(&e, &self.vars.mk_var(x(i)).iff(gi))?;
                if e.is_false() {
                    break;
                }
            }
        }
        Ok(e)
    }

    /// The exact number of cycles in a set of attractor states over the ancestor-closed `vars`,
    /// by minimal period (see the module documentation).
    pub(crate) fn count_cycles(&self, set: &Bdd, vars: &[usize]) -> Result<BigUint, BnError> {
        let k = vars.len();
        let mut remaining = set.clone();
        let mut count = BigUint::zero();
        // g[i] = f^p_i as a BDD over current-state variables.
        let mut g = self.identity_map(vars);
        let mut p: u64 = 0;
        while !remaining.is_false() {
            p += 1;
            if p > 100_000 {
                return Err(BnError::Limit(
                    "attractors longer than 100000 states cannot be counted symbolically".into(),
                ));
            }
            g = self.step_map(&g, vars)?;
            let e = self.fixed_by(&remaining, &g, vars)?;
            if !e.is_false() {
                let c = self.card(&e, k);
                count += c / BigUint::from(p);
                remaining = remaining.and_not(&e);
            }
        }
        Ok(count)
    }
}

/// Rotates a cycle so that its least state (as a 0/1 string in variable order) comes first.
pub(crate) fn rotate_min(mut cycle: Cycle) -> Cycle {
    if let Some((pos, _)) = cycle.iter().enumerate().min_by(|a, b| a.1.cmp(b.1)) {
        cycle.rotate_left(pos);
    }
    cycle
}

/// A BDD variable order for a network: variables in file order, each preceded (depth first) by its
/// not yet placed regulators, so that inputs and regulators sit next to the variables they drive.
/// Returns `order` with `order[level] = variable`.
pub(crate) fn ordering(functions: &[BoolExpr]) -> Vec<usize> {
    let n = functions.len();
    let regs: Vec<Vec<usize>> = functions
        .iter()
        .map(|f| {
            f.vars()
                .into_iter()
                .map(|v| v as usize)
                .filter(|&v| v < n)
                .collect()
        })
        .collect();
    let mut placed = vec![false; n];
    let mut order = Vec::with_capacity(n);
    for root in 0..n {
        if placed[root] {
            continue;
        }
        // Iterative DFS: (node, next regulator index).
        let mut stack = vec![(root, 0usize)];
        placed[root] = true;
        while let Some(top) = stack.last_mut() {
            let v = top.0;
            if top.1 < regs[v].len() {
                let r = regs[v][top.1];
                top.1 += 1;
                if !placed[r] {
                    placed[r] = true;
                    stack.push((r, 0));
                }
            } else {
                order.push(v);
                stack.pop();
            }
        }
    }
    order
}

/// Renumbers the variables of `functions` so that variable `order[k]` becomes `k`.
pub(crate) fn permute(functions: &[BoolExpr], order: &[usize]) -> Vec<BoolExpr> {
    let mut pos = vec![0u32; functions.len()];
    for (k, &v) in order.iter().enumerate() {
        pos[v] = k as u32;
    }
    order
        .iter()
        .map(|&v| functions[v].map_vars(&|x| pos.get(x as usize).copied().unwrap_or(x)))
        .collect()
}

/// Maps a state over permuted variables back to the original variable order.
pub(crate) fn unpermute_state(s: &[bool], order: &[usize]) -> Vec<bool> {
    let mut out = vec![false; s.len()];
    for (k, &v) in order.iter().enumerate() {
        if let (Some(o), Some(&b)) = (out.get_mut(v), s.get(k)) {
            *o = b;
        }
    }
    out
}

/// `b` with each variable index `v` replaced by `to(v)` (node by node; `to` must keep the order of
/// the variables `b` uses, as the x ↔ x′ renamings of the interleaved order do).
fn rename(b: &Bdd, to: impl Fn(usize) -> usize) -> Result<Bdd, BnError> {
    let nodes: Vec<BddNode> = b
        .clone()
        .to_nodes()
        .into_iter()
        .enumerate()
        .map(|(k, mut node)| {
            if k >= 2 {
                node.var = BddVariable::from_index(to(node.var.to_index()));
            }
            node
        })
        .collect();
    Bdd::from_nodes(&nodes).map_err(|e| BnError::Limit(format!("internal renaming failed: {e}")))
}
