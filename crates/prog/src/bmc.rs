//! Bounded model checking with unwinding assertions (Biere, Cimatti, Clarke, Zhu, "Symbolic model
//! checking without BDDs", TACAS 1999, applied to programs as in CBMC): the automaton is unwound
//! into a DAG in which each back edge (of a depth-first search from the initial location) may be
//! taken at most `k` times; the DAG is encoded as one formula over path conditions and merged
//! variable values (`ite` at join points), and the solver is asked whether the error location is
//! reachable. A model gives the counterexample (the values of the nondeterministic calls in
//! execution order). When the error is unreachable and neither the unwinding bound nor a cut
//! recursive call is reachable either, the unwinding covers every execution and the program is
//! safe. `k` grows until an answer or the budget runs out.

use crate::cfa::{Atom, Cfa, Lin, Loc, Op, Var};
use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;
use verikit_diag::{Budget, Exhausted, Ticker};
use verikit_num::Num;
use verikit_smt::{SatResult, Solver, Sort, TermId, TermOp, Value};

const CHUNK: usize = 64;

/// Values of all variables, chunked and shared between states (cheap clones).
#[derive(Clone)]
struct Vals(Vec<Rc<Vec<TermId>>>);

impl Vals {
    fn get(&self, x: Var) -> Option<TermId> {
        self.0
            .get(x / CHUNK)
            .and_then(|c| c.get(x % CHUNK))
            .copied()
    }
    fn set(&mut self, x: Var, t: TermId) {
        if let Some(c) = self.0.get_mut(x / CHUNK) {
            if let Some(slot) = Rc::make_mut(c).get_mut(x % CHUNK) {
                *slot = t;
            }
        }
    }
}

/// A path condition as the list of its conjuncts, one per edge, shared between the states that
/// extend it (a persistent list): `term` is the conjunction of the whole list. Where paths join,
/// their conditions share the prefix up to the branch they come from, and the join's condition is
/// that prefix and the disjunction of the remainders, `P ∧ (r₁ ∨ … ∨ rₙ)`, rather than
/// `(P ∧ r₁) ∨ … ∨ (P ∧ rₙ)`: asserting a reachable location's condition then asserts every
/// conjunct on its dominator path as a unit (the conditions of straight-line `assume`s, which are
/// the bounds of the nondeterministic values), instead of hiding them under a disjunction the
/// SAT search has to split.
struct Pc {
    term: TermId,
    conj: TermId,
    parent: Option<Rc<Pc>>,
    depth: usize,
}

/// A state of the unwinding: its path condition and the values of the variables.
type State = (Rc<Pc>, Vals);

/// The outcome of one bounded check.
pub(crate) enum BmcResult {
    /// The error is reachable: values of the nondeterministic calls in order, and the path length.
    Counterexample(Vec<i128>, usize, Vec<u32>),
    /// Every execution was covered and none reaches the error.
    Safe,
    /// The error is unreachable within the bound, which does not cover every execution
    /// (`cut`: a cut recursive call is reachable, so deeper unwinding alone cannot finish).
    Bounded { cut: bool },
}

struct Enc {
    s: Solver,
    zero: TermId,
}

impl Enc {
    fn lin(&mut self, l: &Lin, vals: &Vals) -> TermId {
        let mut args = Vec::new();
        for (&x, &c) in &l.coeffs {
            let v = vals.get(x).unwrap_or(self.zero);
            if c == 1 {
                args.push(v);
            } else {
                let k = self.s.terms.mk_const(Num::integer(c), Sort::Int);
                args.push(self.s.terms.mk(TermOp::Mul, vec![k, v], Sort::Int));
            }
        }
        if l.konst != 0 || args.is_empty() {
            args.push(self.s.terms.mk_const(Num::integer(l.konst), Sort::Int));
        }
        if args.len() == 1 {
            args.pop().unwrap_or(self.zero)
        } else {
            self.s.terms.mk(TermOp::Add, args, Sort::Int)
        }
    }
    fn atom(&mut self, a: &Atom, vals: &Vals) -> TermId {
        let t = self.lin(&a.lin, vals);
        let op = if a.eq { TermOp::Eq } else { TermOp::Le };
        self.s.terms.mk(op, vec![t, self.zero], Sort::Bool)
    }
    fn and(&mut self, mut xs: Vec<TermId>) -> TermId {
        match xs.len() {
            0 => self.s.terms.mk_true(),
            1 => xs.pop().unwrap_or(self.zero),
            _ => self.s.terms.mk(TermOp::And, xs, Sort::Bool),
        }
    }
    /// `pc ∧ c`.
    fn extend(&mut self, pc: &Rc<Pc>, c: TermId) -> Rc<Pc> {
        let tt = self.s.terms.mk_true();
        if c == tt {
            return pc.clone();
        }
        let term = if pc.term == tt {
            c
        } else {
            self.and(vec![pc.term, c])
        };
        Rc::new(Pc {
            term,
            conj: c,
            parent: Some(pc.clone()),
            depth: pc.depth + 1,
        })
    }
    fn or(&mut self, mut xs: Vec<TermId>) -> TermId {
        match xs.len() {
            0 => self.s.terms.mk_false(),
            1 => xs.pop().unwrap_or(self.zero),
            _ => self.s.terms.mk(TermOp::Or, xs, Sort::Bool),
        }
    }
}

/// Back edges of a depth-first search from `init`, and a topological index of the locations in
/// the graph without them.
pub(crate) fn back_edges(cfa: &Cfa) -> (Vec<bool>, Vec<usize>) {
    let out = cfa.out_edges();
    let mut back = vec![false; cfa.edges.len()];
    let mut color = vec![0u8; cfa.nlocs];
    let mut post = Vec::new();
    let mut stack: Vec<(Loc, usize)> = vec![(cfa.init, 0)];
    if let Some(c) = color.get_mut(cfa.init) {
        *c = 1;
    }
    while let Some(top) = stack.last_mut() {
        let (l, i) = (top.0, top.1);
        top.1 += 1;
        match out.get(l).and_then(|o| o.get(i)).copied() {
            Some(e) => {
                let to = cfa.edges.get(e).map(|e| e.to).unwrap_or(l);
                match color.get(to).copied() {
                    Some(0) => {
                        if let Some(c) = color.get_mut(to) {
                            *c = 1;
                        }
                        stack.push((to, 0));
                    }
                    Some(1) => {
                        if let Some(b) = back.get_mut(e) {
                            *b = true;
                        }
                    }
                    _ => {}
                }
            }
            None => {
                if let Some(c) = color.get_mut(l) {
                    *c = 2;
                }
                post.push(l);
                stack.pop();
            }
        }
    }
    let mut topo = vec![usize::MAX; cfa.nlocs];
    for (i, &l) in post.iter().rev().enumerate() {
        if let Some(t) = topo.get_mut(l) {
            *t = i;
        }
    }
    (back, topo)
}

/// The unwinding with back edges taken at most `k` times, encoded.
fn unwind(cfa: &Cfa, k: usize, budget: &Budget) -> Result<Unwinding, Exhausted> {
    let mut s = Solver::new();
    s.set_budget(budget);
    let zero = s.terms.mk_const(Num::ZERO, Sort::Int);
    let mut enc = Enc { s, zero };
    let (back, topo) = back_edges(cfa);
    let out = cfa.out_edges();
    // Initial values: one symbolic constant per variable.
    let mut init_vals = Vec::new();
    for (i, v) in cfa.vars.iter().enumerate() {
        init_vals.push(enc.s.declare(&format!("{}@init#{i}", v.name), Sort::Int));
    }
    let chunks: Vec<Rc<Vec<TermId>>> = init_vals
        .chunks(CHUNK)
        .map(|c| Rc::new(c.to_vec()))
        .collect();
    let tt = enc.s.terms.mk_true();
    let root = Rc::new(Pc {
        term: tt,
        conj: tt,
        parent: None,
        depth: 0,
    });
    // Pending incoming contributions per DAG node (count, loc) ordered topologically.
    let mut pending: BTreeMap<(usize, usize, Loc), Vec<State>> = BTreeMap::new();
    pending.insert(
        (0, topo.get(cfa.init).copied().unwrap_or(0), cfa.init),
        vec![(root, Vals(chunks))],
    );
    let mut err_pcs = Vec::new();
    let mut incomplete_pcs = Vec::new();
    let mut cut_pcs = Vec::new();
    // nondet havoc instances: (pc, term) in DAG order
    let mut nondets: Vec<(TermId, TermId, u32)> = Vec::new();
    let mut fresh = 0usize;
    let mut ticker = budget.ticker(64);
    while let Some(((c, _, l), ins)) = pending.pop_first() {
        ticker.tick()?;
        // Merge the incoming states.
        let (pc, vals) = merge(&mut enc, ins, &mut ticker)?;
        if l == cfa.error {
            err_pcs.push(pc.term);
            continue;
        }
        if l == cfa.cut {
            cut_pcs.push(pc.term);
            continue;
        }
        for &e in out.get(l).into_iter().flatten() {
            let Some(edge) = cfa.edges.get(e) else {
                continue;
            };
            let mut pc2 = pc.clone();
            let mut v2 = vals.clone();
            match &edge.op {
                Op::Assume(atoms) => {
                    let xs: Vec<TermId> = atoms.iter().map(|a| enc.atom(a, &vals)).collect();
                    let c = enc.and(xs);
                    pc2 = enc.extend(&pc, c);
                }
                Op::Assign(asg) => {
                    let ts: Vec<(Var, TermId)> =
                        asg.iter().map(|(x, t)| (*x, enc.lin(t, &vals))).collect();
                    for (x, t) in ts {
                        v2.set(x, t);
                    }
                }
                Op::Havoc { vars, nondet } => {
                    for &x in vars {
                        fresh += 1;
                        let t = enc
                            .s
                            .declare(&format!("{}@{fresh}", cfa.var_name(x)), Sort::Int);
                        v2.set(x, t);
                        if *nondet {
                            nondets.push((pc.term, t, edge.line));
                        }
                    }
                }
            }
            let nc = if back.get(e).copied().unwrap_or(false) {
                c + 1
            } else {
                c
            };
            if nc > k {
                incomplete_pcs.push(pc2.term);
                continue;
            }
            let key = (
                nc,
                topo.get(edge.to).copied().unwrap_or(usize::MAX),
                edge.to,
            );
            pending.entry(key).or_default().push((pc2, v2));
        }
    }
    let err = enc.or(err_pcs);
    Ok(Unwinding {
        enc,
        err,
        cut_pcs,
        incomplete_pcs,
        nondets,
    })
}

/// The formula of one unwinding: the solver with the encoding, the path conditions of the error,
/// the cut recursive calls and the exhausted back edges, and the nondeterministic values.
struct Unwinding {
    enc: Enc,
    err: TermId,
    cut_pcs: Vec<TermId>,
    incomplete_pcs: Vec<TermId>,
    /// nondet havoc instances: (pc, term, line) in DAG order
    nondets: Vec<(TermId, TermId, u32)>,
}

/// The query of bound `k` as an SMT-LIB script (`sat`: the error is reachable within the
/// bound), for other solvers.
pub(crate) fn query_text(cfa: &Cfa, k: usize, budget: &Budget) -> Result<String, Exhausted> {
    let mut u = unwind(cfa, k, budget)?;
    u.enc.s.assert(u.err);
    Ok(u.enc.s.to_smtlib("QF_LIA"))
}

/// One bounded check with back edges taken at most `k` times.
pub(crate) fn check_bound(cfa: &Cfa, k: usize, budget: &Budget) -> Result<BmcResult, Exhausted> {
    let Unwinding {
        mut enc,
        err,
        cut_pcs,
        incomplete_pcs,
        nondets,
    } = unwind(cfa, k, budget)?;
    enc.s.push();
    enc.s.assert(err);
    let ans = enc.s.check(&[]);
    budget.check()?;
    match ans {
        SatResult::Sat => {
            let mut memo = HashMap::new();
            let (mut values, mut lines) = (Vec::new(), Vec::new());
            for (pc, t, line) in &nondets {
                if let Some(Value::Bool(true)) = enc.s.model_value(*pc, &mut memo) {
                    if let Some(Value::Num(n)) = enc.s.model_value(*t, &mut memo) {
                        values.push(num_to_i128(&n));
                        lines.push(*line);
                    }
                }
            }
            Ok(BmcResult::Counterexample(values, k, lines))
        }
        SatResult::Unknown => Err(budget.check().err().unwrap_or(Exhausted::Timeout)),
        SatResult::Unsat => {
            let cut = enc.or(cut_pcs);
            let inc = enc.or(incomplete_pcs);
            let any = enc.or(vec![cut, inc]);
            enc.s.pop(1);
            enc.s.push();
            enc.s.assert(any);
            match enc.s.check(&[]) {
                SatResult::Unsat => Ok(BmcResult::Safe),
                SatResult::Unknown => Err(budget.check().err().unwrap_or(Exhausted::Timeout)),
                SatResult::Sat => {
                    enc.s.pop(1);
                    enc.s.push();
                    enc.s.assert(cut);
                    let cut_hit = matches!(enc.s.check(&[]), SatResult::Sat);
                    Ok(BmcResult::Bounded { cut: cut_hit })
                }
            }
        }
    }
}

/// The nearest common ancestor of the path conditions `pcs` (a prefix of each).
fn common_prefix(pcs: &[Rc<Pc>]) -> Option<Rc<Pc>> {
    let depth = pcs.iter().map(|p| p.depth).min()?;
    let mut cur: Vec<Rc<Pc>> = pcs
        .iter()
        .map(|p| {
            let mut p = p.clone();
            while p.depth > depth {
                match p.parent.clone() {
                    Some(q) => p = q,
                    None => break,
                }
            }
            p
        })
        .collect();
    loop {
        let first = cur.first()?.clone();
        if cur.iter().all(|p| Rc::ptr_eq(p, &first)) {
            return Some(first);
        }
        for p in cur.iter_mut() {
            *p = p.parent.clone()?;
        }
    }
}

/// The conjunction of the conjuncts of `pc` after its prefix `prefix`.
fn remainder(enc: &mut Enc, pc: &Rc<Pc>, prefix: &Rc<Pc>) -> TermId {
    let mut xs = Vec::new();
    let mut p = pc.clone();
    while !Rc::ptr_eq(&p, prefix) {
        xs.push(p.conj);
        match p.parent.clone() {
            Some(q) => p = q,
            None => break,
        }
    }
    xs.reverse();
    enc.and(xs)
}

/// Polls the budget per `ite` it builds: one merge point of a deep unwinding may join
/// hundreds of thousands of states.
fn merge(enc: &mut Enc, mut ins: Vec<State>, ticker: &mut Ticker) -> Result<State, Exhausted> {
    if ins.len() == 1 {
        if let Some(x) = ins.pop() {
            return Ok(x);
        }
    }
    let Some((_, first)) = ins.first() else {
        let f = enc.s.terms.mk_false();
        let dead = Rc::new(Pc {
            term: f,
            conj: f,
            parent: None,
            depth: 0,
        });
        return Ok((dead, Vals(Vec::new())));
    };
    let pcs: Vec<Rc<Pc>> = ins.iter().map(|i| i.0.clone()).collect();
    // Every path condition is an extension of the root, so a common prefix exists.
    let Some(prefix) = common_prefix(&pcs) else {
        let f = enc.s.terms.mk_false();
        return Ok((
            Rc::new(Pc {
                term: f,
                conj: f,
                parent: None,
                depth: 0,
            }),
            first.clone(),
        ));
    };
    // Under the prefix, the remainders select the incoming state.
    let rests: Vec<TermId> = pcs.iter().map(|p| remainder(enc, p, &prefix)).collect();
    let any = enc.or(rests.clone());
    let pc = enc.extend(&prefix, any);
    let mut vals = first.clone();
    let nchunks = first.0.len();
    for ci in 0..nchunks {
        let same = ins
            .iter()
            .all(|(_, v)| match (v.0.get(ci), first.0.get(ci)) {
                (Some(a), Some(b)) => Rc::ptr_eq(a, b),
                _ => true,
            });
        if same {
            continue;
        }
        let len = first.0.get(ci).map(|c| c.len()).unwrap_or(0);
        for j in 0..len {
            let x = ci * CHUNK + j;
            let ts: Vec<TermId> = ins
                .iter()
                .map(|(_, v)| v.get(x).unwrap_or(enc.zero))
                .collect();
            if ts.iter().all(|t| Some(t) == ts.first()) {
                continue;
            }
            // ite(r_1, v_1, ite(r_2, v_2, … v_n))
            let mut acc = ts.last().copied().unwrap_or(enc.zero);
            for i in (0..ins.len().saturating_sub(1)).rev() {
                ticker.tick()?;
                if let (Some(&r), Some(&t)) = (rests.get(i), ts.get(i)) {
                    if t != acc {
                        acc = enc.s.terms.mk(TermOp::Ite, vec![r, t, acc], Sort::Int);
                    }
                }
            }
            vals.set(x, acc);
        }
    }
    Ok((pc, vals))
}

/// An integer model value as `i128` (the model of an integer term is integral).
fn num_to_i128(n: &Num) -> i128 {
    let (p, _) = n.parts();
    p.to_string().parse::<i128>().unwrap_or(0)
}
