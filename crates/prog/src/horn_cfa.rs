//! Linear Horn clauses as a control-flow automaton, so that the program engines (IMPACT, BMC)
//! decide them: the reading of linear CHCs as a transition system over the clause graph
//! (Bjørner, Gurfinkel, McMillan, Rybalchenko, "Horn Clause Solvers for Program Verification",
//! 2015, §3: a linear system is a program whose locations are the predicates).
//!
//! One location per predicate, plus `init` (for facts) and `error` (for queries). The arguments of
//! the predicate at the current location live in shared slots `s0 … s(A-1)`. A clause
//! `P(t) ∧ φ ⇒ Q(u)` becomes a chain of edges: a nondeterministic *tag* picks the clause (one
//! havoc per location, then `assume tag = clause`, so every execution is one derivation), the
//! clause variables are havocked, the constraint `s = t ∧ φ` is assumed (a chain of layers, one
//! per conjunct, each with one edge per disjunct of the conjunct's DNF: `ite`, `div`/`mod` by constants and `abs` become auxiliary variables with their
//! defining constraints, `Bool` values are 0/1 integers), the slots get `u`, and the derived fact
//! is copied into nondeterministic *fact* variables. The values of the marked havocs along a
//! counterexample are therefore the derivation: per step the clause, its variables and the fact.

use crate::cfa::{Atom, Cfa, Edge, IntTy, Lin, Loc, Op, Var, VarInfo};
use crate::error::ProgError;
use crate::horn::{line_of, numeral, HornSystem, MAX_DEPTH};
use std::collections::HashMap;
use verikit_smt::SExpr;

/// Largest number of disjuncts one conjunct of a clause constraint may have in DNF.
const MAX_DNF: usize = 512;

/// A conjunction whose DNF would have more disjuncts than this names its operand instead: a
/// fresh 0/1 variable `t` with the defining part `(φ ∧ t = 1) ∨ (¬φ ∧ t = 0)` (Tseitin), so
/// nested `and`/`or`/`=` of Boolean formulas (the Lustre-generated clauses) stay linear in size.
const NAME_AT: usize = 16;

pub(crate) type Dnf = Vec<Vec<Atom>>;

/// The automaton of a linear system and how to read its values back.
pub(crate) struct HornCfa {
    pub(crate) cfa: Cfa,
    /// Location of each predicate.
    pub(crate) pred_loc: Vec<Loc>,
    /// Number of argument slots (the largest arity); slot `i` is variable `i`.
    pub(crate) slots: usize,
}

fn unsupported(text: &str, e: &SExpr, what: &str) -> ProgError {
    ProgError::Unsupported(format!(
        "{what} at line {}: `{}`",
        line_of(text, e.span.start),
        crate::horn::slice(text, e.span)
            .chars()
            .take(60)
            .collect::<String>()
    ))
}

fn and(a: Dnf, b: Dnf) -> Result<Dnf, ProgError> {
    if a.len().saturating_mul(b.len()) > MAX_DNF {
        return Err(ProgError::Unsupported(format!(
            "a conjunct of a clause constraint has more than {MAX_DNF} disjuncts in DNF"
        )));
    }
    let mut out = Vec::new();
    for x in &a {
        for y in &b {
            let mut c = x.clone();
            c.extend(y.iter().cloned());
            out.push(c);
        }
    }
    Ok(out)
}

fn tru() -> Dnf {
    vec![Vec::new()]
}

fn ovf(_: crate::cfa::Overflow) -> ProgError {
    ProgError::Unsupported("a coefficient beyond the range of the linear encoding".into())
}

/// `a ≤ b`, `a < b` (integers), `a = b`.
fn le(a: &Lin, b: &Lin) -> Result<Atom, ProgError> {
    Ok(Atom::le0(a.sub(b).map_err(ovf)?))
}
fn lt(a: &Lin, b: &Lin) -> Result<Atom, ProgError> {
    Ok(Atom::le0(
        a.sub(b).and_then(|l| l.add_const(1)).map_err(ovf)?,
    ))
}
fn eq(a: &Lin, b: &Lin) -> Result<Atom, ProgError> {
    Ok(Atom::eq0(a.sub(b).map_err(ovf)?))
}

/// Converts one clause's terms; clause variable `i` is `aux + i`, fresh variables follow.
struct Conv<'a> {
    text: &'a str,
    env: HashMap<&'a str, (Var, bool)>,
    aux: Var,
    next: usize,
    side: Vec<Dnf>,
    depth: usize,
    /// DNFs of subformulas already converted (by source span and polarity): a formula named
    /// or converted twice reuses its variables.
    memo: HashMap<(usize, usize, bool), Dnf>,
    /// Variables naming subformulas (by source span).
    names: HashMap<(usize, usize), Lin>,
    /// Divisors of the clause's `div`/`mod` terms (absolute values, at least 2).
    moduli: Vec<i128>,
}

impl Conv<'_> {
    fn fresh(&mut self) -> Lin {
        self.next += 1;
        Lin::var(self.aux + self.next - 1)
    }

    fn is_bool(&self, e: &SExpr) -> bool {
        let mut e = e;
        loop {
            if let Some(s) = e.symbol() {
                return s == "true" || s == "false" || self.env.get(s).is_some_and(|v| v.1);
            }
            let l = e.list().unwrap_or(&[]);
            match l.first().and_then(|h| h.symbol()) {
                Some(
                    "not" | "and" | "or" | "=>" | "xor" | "=" | "distinct" | "<=" | "<" | ">="
                    | ">",
                ) => return true,
                Some("ite") => match l.get(2) {
                    Some(t) => e = t,
                    None => return false,
                },
                _ => return false,
            }
        }
    }

    fn lin(&mut self, e: &SExpr) -> Result<Lin, ProgError> {
        self.enter(e)?;
        let r = self.lin_inner(e);
        self.depth -= 1;
        r
    }

    fn enter(&mut self, e: &SExpr) -> Result<(), ProgError> {
        if self.depth >= MAX_DEPTH {
            return Err(unsupported(self.text, e, "a term nested too deeply"));
        }
        self.depth += 1;
        Ok(())
    }

    fn lin_inner(&mut self, e: &SExpr) -> Result<Lin, ProgError> {
        if let Some(k) = numeral(e) {
            return Ok(Lin::constant(k));
        }
        if let Some(s) = e.symbol() {
            return match self.env.get(s) {
                Some(&(v, false)) => Ok(Lin::var(v)),
                _ => Err(unsupported(self.text, e, "unknown integer symbol")),
            };
        }
        let Some((h, args)) = e.list().and_then(|l| l.split_first()) else {
            return Err(unsupported(self.text, e, "term"));
        };
        match (h.symbol(), args) {
            (Some("-"), [a]) => self.lin(a)?.scale(-1).map_err(ovf),
            (Some("-"), [a, rest @ ..]) if !rest.is_empty() => {
                let mut acc = self.lin(a)?;
                for b in rest {
                    let b = self.lin(b)?;
                    acc = acc.sub(&b).map_err(ovf)?;
                }
                Ok(acc)
            }
            (Some("+"), _) if !args.is_empty() => {
                let mut acc = Lin::default();
                for b in args {
                    let b = self.lin(b)?;
                    acc = acc.add(&b).map_err(ovf)?;
                }
                Ok(acc)
            }
            (Some("*"), _) if !args.is_empty() => {
                let mut k = 1i128;
                let mut term: Option<Lin> = None;
                for b in args {
                    let b = self.lin(b)?;
                    match b.as_const() {
                        Some(c) => {
                            k = k.checked_mul(c).ok_or(ProgError::Unsupported(
                                "a constant beyond the range of the linear encoding".into(),
                            ))?
                        }
                        None if term.is_none() => term = Some(b),
                        None => return Err(unsupported(self.text, e, "nonlinear multiplication")),
                    }
                }
                match term {
                    Some(t) => t.scale(k).map_err(ovf),
                    None => Ok(Lin::constant(k)),
                }
            }
            (Some("ite"), [c, a, b]) => {
                let t = self.fresh();
                let (a, b) = (self.lin(a)?, self.lin(b)?);
                let pos = and(self.formula(c, false)?, vec![vec![eq(&t, &a)?]])?;
                let neg = and(self.formula(c, true)?, vec![vec![eq(&t, &b)?]])?;
                self.side.push([pos, neg].concat());
                Ok(t)
            }
            (Some(op @ ("div" | "mod")), [a, k]) => {
                let Some(k) = numeral(k).filter(|&k| k != 0) else {
                    return Err(unsupported(self.text, e, "division by a non-constant"));
                };
                let a = self.lin(a)?;
                if let Some(m) = k.checked_abs().filter(|&m| m >= 2) {
                    if !self.moduli.contains(&m) {
                        self.moduli.push(m);
                    }
                }
                let (q, r) = (self.fresh(), self.fresh());
                // a = k·q + r, 0 ≤ r < |k| (SMT-LIB's Euclidean division)
                let kq = q.scale(k).map_err(ovf)?;
                let rhs = kq.add(&r).map_err(ovf)?;
                self.side.push(vec![vec![
                    eq(&a, &rhs)?,
                    le(&Lin::constant(0), &r)?,
                    lt(&r, &Lin::constant(k.abs()))?,
                ]]);
                Ok(if op == "div" { q } else { r })
            }
            (Some("abs"), [a]) => {
                let a = self.lin(a)?;
                let t = self.fresh();
                let z = Lin::constant(0);
                let na = a.scale(-1).map_err(ovf)?;
                self.side.push(vec![
                    vec![le(&z, &a)?, eq(&t, &a)?],
                    vec![lt(&a, &z)?, eq(&t, &na)?],
                ]);
                Ok(t)
            }
            _ => Err(unsupported(self.text, e, "integer term")),
        }
    }

    /// A `Bool` term as a 0/1 integer.
    fn bool_int(&mut self, e: &SExpr) -> Result<Lin, ProgError> {
        match e.symbol() {
            Some("true") => return Ok(Lin::constant(1)),
            Some("false") => return Ok(Lin::constant(0)),
            Some(s) => {
                if let Some(&(v, true)) = self.env.get(s) {
                    return Ok(Lin::var(v));
                }
            }
            None => {}
        }
        self.name(e)
    }

    /// The formula `e` (negated when `neg`) in DNF.
    fn formula(&mut self, e: &SExpr, neg: bool) -> Result<Dnf, ProgError> {
        let key = (e.span.start, e.span.end, neg);
        if let Some(d) = self.memo.get(&key) {
            return Ok(d.clone());
        }
        self.enter(e)?;
        let r = self.formula_inner(e, neg);
        self.depth -= 1;
        let r = r?;
        self.memo.insert(key, r.clone());
        Ok(r)
    }

    /// The 0/1 variable naming formula `e` (defined once per clause).
    fn name(&mut self, e: &SExpr) -> Result<Lin, ProgError> {
        let key = (e.span.start, e.span.end);
        if let Some(t) = self.names.get(&key) {
            return Ok(t.clone());
        }
        let t = self.fresh();
        let pos = and(
            self.formula(e, false)?,
            vec![vec![eq(&t, &Lin::constant(1))?]],
        )?;
        let neg = and(
            self.formula(e, true)?,
            vec![vec![eq(&t, &Lin::constant(0))?]],
        )?;
        self.side.push([pos, neg].concat());
        self.names.insert(key, t.clone());
        Ok(t)
    }

    /// `e` (negated when `neg`) as a DNF of at most `room` disjuncts: a larger one is named.
    fn small(&mut self, e: &SExpr, neg: bool, room: usize) -> Result<Dnf, ProgError> {
        let d = self.formula(e, neg)?;
        if d.len() <= room.max(1) {
            return Ok(d);
        }
        let t = self.name(e)?;
        let k = if neg { 0 } else { 1 };
        Ok(vec![vec![eq(&t, &Lin::constant(k))?]])
    }

    /// `acc ∧ e` (`e` negated when `neg`), naming `e` when the product would be large.
    fn conj(&mut self, acc: Dnf, e: &SExpr, neg: bool) -> Result<Dnf, ProgError> {
        let room = NAME_AT / acc.len().max(1);
        let d = self.small(e, neg, room)?;
        and(acc, d)
    }

    fn formula_inner(&mut self, e: &SExpr, neg: bool) -> Result<Dnf, ProgError> {
        if let Some(s) = e.symbol() {
            return match (s, neg) {
                ("true", false) | ("false", true) => Ok(tru()),
                ("true", true) | ("false", false) => Ok(Vec::new()),
                _ => match self.env.get(s) {
                    Some(&(v, true)) => {
                        let k = if neg { 0 } else { 1 };
                        Ok(vec![vec![eq(&Lin::var(v), &Lin::constant(k))?]])
                    }
                    _ => Err(unsupported(self.text, e, "unknown Boolean symbol")),
                },
            };
        }
        let Some((h, args)) = e.list().and_then(|l| l.split_first()) else {
            return Err(unsupported(self.text, e, "formula"));
        };
        let op = h.symbol().unwrap_or("");
        let all = |c: &mut Self, neg: bool, conj: bool| -> Result<Dnf, ProgError> {
            let mut acc = if conj { tru() } else { Vec::new() };
            for a in args {
                acc = if conj {
                    c.conj(acc, a, neg)?
                } else {
                    let d = c.formula(a, neg)?;
                    [acc, d].concat()
                };
            }
            Ok(acc)
        };
        match op {
            "not" if args.len() == 1 => self.formula(&args[0], !neg),
            "and" => all(self, neg, !neg),
            "or" => all(self, neg, neg),
            "=>" if !args.is_empty() => {
                // a1 ⇒ … ⇒ an  ≡  ¬a1 ∨ … ∨ ¬a(n-1) ∨ an
                let n = args.len();
                let mut acc = if neg { tru() } else { Vec::new() };
                for (i, a) in args.iter().enumerate() {
                    let pol = if i + 1 == n { neg } else { !neg };
                    acc = if neg {
                        self.conj(acc, a, pol)?
                    } else {
                        let d = self.formula(a, pol)?;
                        [acc, d].concat()
                    };
                }
                Ok(acc)
            }
            "ite" if args.len() == 3 && self.is_bool(e) => {
                let (c, t, f) = (&args[0], &args[1], &args[2]);
                let a = self.small(c, false, NAME_AT)?;
                let a = self.conj(a, t, neg)?;
                let b = self.small(c, true, NAME_AT)?;
                let b = self.conj(b, f, neg)?;
                Ok([a, b].concat())
            }
            "xor" if args.len() == 2 => self.iff(&args[0], &args[1], !neg),
            "=" | "distinct" if args.len() >= 2 => {
                let ne = (op == "distinct") != neg;
                let pairs: Vec<(&SExpr, &SExpr)> = if op == "=" {
                    args.windows(2).map(|w| (&w[0], &w[1])).collect()
                } else {
                    let mut v = Vec::new();
                    for (i, a) in args.iter().enumerate() {
                        for b in args.iter().skip(i + 1) {
                            v.push((a, b));
                        }
                    }
                    v
                };
                // `=`: all pairs equal (negated: some pair differs); `distinct`: all pairs
                // differ (negated: some pair equal).
                let conj = !neg;
                let mut acc = if conj { tru() } else { Vec::new() };
                for (a, b) in pairs {
                    let d = if self.is_bool(a) || self.is_bool(b) {
                        self.iff(a, b, ne)?
                    } else {
                        let (x, y) = (self.lin(a)?, self.lin(b)?);
                        if ne {
                            vec![vec![lt(&x, &y)?], vec![lt(&y, &x)?]]
                        } else {
                            vec![vec![eq(&x, &y)?]]
                        }
                    };
                    acc = if conj {
                        and(acc, d)?
                    } else {
                        [acc, d].concat()
                    };
                }
                Ok(acc)
            }
            "<=" | "<" | ">=" | ">" if args.len() >= 2 => {
                let conj = !neg;
                let mut acc = if conj { tru() } else { Vec::new() };
                for w in args.windows(2) {
                    let (a, b) = (self.lin(&w[0])?, self.lin(&w[1])?);
                    let atom = match (op, neg) {
                        ("<=", false) | (">", true) => le(&a, &b)?,
                        ("<", false) | (">=", true) => lt(&a, &b)?,
                        (">=", false) | ("<", true) => le(&b, &a)?,
                        _ => lt(&b, &a)?,
                    };
                    let d = vec![vec![atom]];
                    acc = if conj {
                        and(acc, d)?
                    } else {
                        [acc, d].concat()
                    };
                }
                Ok(acc)
            }
            _ => Err(unsupported(self.text, e, "formula")),
        }
    }

    /// `a ⇔ b` (`a ⊕ b` when `differ`).
    fn iff(&mut self, a: &SExpr, b: &SExpr, differ: bool) -> Result<Dnf, ProgError> {
        let x = self.small(a, false, NAME_AT)?;
        let x = self.conj(x, b, differ)?;
        let y = self.small(a, true, NAME_AT)?;
        let y = self.conj(y, b, !differ)?;
        Ok([x, y].concat())
    }
}

/// One clause over linear integer atoms: clause variable `i` is `base + i`, auxiliary variables
/// (of `ite`, `div`/`mod`, `abs`, Boolean terms) follow up to `base + nvars`.
pub(crate) struct ClauseIr {
    pub(crate) nvars: usize,
    /// Body predicate applications: the predicate and its argument terms.
    pub(crate) body: Vec<(usize, Vec<Lin>)>,
    /// The head (`None`: `false`).
    pub(crate) head: Option<(usize, Vec<Lin>)>,
    /// The constraint as a conjunction of DNFs (Boolean domains first).
    pub(crate) parts: Vec<Dnf>,
    /// Divisors of the clause's `div`/`mod` terms (absolute values, at least 2).
    pub(crate) moduli: Vec<i128>,
}

/// Converts one clause to linear atoms (any number of body applications).
pub(crate) fn convert_clause(
    sys: &HornSystem,
    c: &crate::horn::Clause,
    text: &str,
    base: Var,
) -> Result<ClauseIr, ProgError> {
    let mut conv = Conv {
        text,
        env: HashMap::new(),
        aux: base,
        next: c.vars.len(),
        side: Vec::new(),
        depth: 0,
        memo: HashMap::new(),
        names: HashMap::new(),
        moduli: Vec::new(),
    };
    let mut domain = Vec::new();
    for (i, (n, b)) in c.vars.iter().enumerate() {
        conv.env.insert(n.as_str(), (base + i, *b));
        if *b {
            let v = Lin::var(base + i);
            domain.push(le(&Lin::constant(0), &v)?);
            domain.push(le(&v, &Lin::constant(1))?);
        }
    }
    let app = |conv: &mut Conv<'_>, a: &crate::horn::App| -> Result<(usize, Vec<Lin>), ProgError> {
        let bools = sys.preds.get(a.pred).map(|p| p.bools.clone());
        let mut args = Vec::new();
        for (t, b) in a.args.iter().zip(bools.unwrap_or_default()) {
            args.push(if b { conv.bool_int(t)? } else { conv.lin(t)? });
        }
        Ok((a.pred, args))
    };
    let mut body = Vec::new();
    for a in &c.body {
        body.push(app(&mut conv, a)?);
    }
    let head = match &c.head {
        Some(a) => Some(app(&mut conv, a)?),
        None => None,
    };
    let mut parts = vec![vec![domain]];
    for k in &c.constraint {
        parts.push(conv.formula(k, false)?);
    }
    parts.extend(std::mem::take(&mut conv.side));
    Ok(ClauseIr {
        nvars: conv.next,
        body,
        head,
        parts,
        moduli: conv.moduli,
    })
}

/// Builds the automaton of a linear system (every body has at most one predicate application).
pub(crate) fn horn_to_cfa(sys: &HornSystem, text: &str) -> Result<HornCfa, ProgError> {
    let slots = sys.preds.iter().map(|p| p.bools.len()).max().unwrap_or(0);
    let tag = slots;
    let fact0 = slots + 1;
    let aux = 2 * slots + 1;
    let mut cfa = Cfa {
        init: 0,
        error: 1,
        cut: 2,
        nlocs: 3,
        ..Cfa::default()
    };
    let pred_loc: Vec<Loc> = (0..sys.preds.len()).map(|i| 3 + i).collect();
    cfa.nlocs += sys.preds.len();
    let new_loc = |cfa: &mut Cfa| {
        cfa.nlocs += 1;
        cfa.nlocs - 1
    };
    // The tag havoc of each source location (init and the predicates).
    let mut tag_loc: HashMap<Loc, Loc> = HashMap::new();
    let mut aux_max = 0usize;
    for (ci, c) in sys.clauses.iter().enumerate() {
        let line = u32::try_from(line_of(text, c.span.start)).unwrap_or(0);
        if c.body.len() > 1 {
            return Err(ProgError::Unsupported(format!(
                "nonlinear clause at line {line}: {} predicate applications in the body",
                c.body.len()
            )));
        }
        let ir = convert_clause(sys, c, text, aux)?;
        // Body arguments equal the slots.
        let mut guard = Vec::new();
        let from = match ir.body.first() {
            Some((p, args)) => {
                for (i, t) in args.iter().enumerate() {
                    guard.push(eq(&Lin::var(i), t)?);
                }
                pred_loc.get(*p).copied().unwrap_or(cfa.error)
            }
            None => cfa.init,
        };
        let head: Vec<(Var, Lin)> = ir
            .head
            .as_ref()
            .map(|(_, args)| args.iter().cloned().enumerate().collect())
            .unwrap_or_default();
        // The constraint as a sequence of layers of parallel `assume` edges (a conjunction of
        // DNFs, so disjunctions add edges instead of multiplying them); small layers are merged.
        let mut parts = vec![vec![guard]];
        parts.extend(ir.parts);
        let mut layers: Vec<Dnf> = Vec::new();
        for d in parts {
            match layers.last_mut() {
                Some(last) if last.len().saturating_mul(d.len()) <= 4 => {
                    let merged = and(std::mem::take(last), d)?;
                    *last = merged;
                }
                _ => layers.push(d),
            }
        }
        aux_max = aux_max.max(ir.nvars);
        // The chain of edges.
        let tl = match tag_loc.get(&from) {
            Some(&l) => l,
            None => {
                let l = new_loc(&mut cfa);
                cfa.edges.push(Edge {
                    from,
                    to: l,
                    op: Op::Havoc {
                        vars: vec![tag],
                        nondet: true,
                    },
                    line: 0,
                });
                tag_loc.insert(from, l);
                l
            }
        };
        let mut at = new_loc(&mut cfa);
        let ci128 = i128::try_from(ci).unwrap_or(i128::MAX);
        let push = |cfa: &mut Cfa, from: Loc, op: Op| {
            let to = cfa.nlocs;
            cfa.nlocs += 1;
            cfa.edges.push(Edge { from, to, op, line });
            to
        };
        cfa.edges.push(Edge {
            from: tl,
            to: at,
            op: Op::Assume(vec![eq(&Lin::var(tag), &Lin::constant(ci128))?]),
            line,
        });
        if !c.vars.is_empty() {
            let vars = (aux..aux + c.vars.len()).collect();
            at = push(&mut cfa, at, Op::Havoc { vars, nondet: true });
        }
        if ir.nvars > c.vars.len() {
            let vars = (aux + c.vars.len()..aux + ir.nvars).collect();
            at = push(
                &mut cfa,
                at,
                Op::Havoc {
                    vars,
                    nondet: false,
                },
            );
        }
        for layer in layers {
            let next = new_loc(&mut cfa);
            for conj in layer {
                cfa.edges.push(Edge {
                    from: at,
                    to: next,
                    op: Op::Assume(conj),
                    line,
                });
            }
            at = next;
        }
        let after = at;
        match &c.head {
            None => cfa.edges.push(Edge {
                from: after,
                to: cfa.error,
                op: Op::Assume(Vec::new()),
                line,
            }),
            Some(app) => {
                let mut at = after;
                if !head.is_empty() {
                    at = push(&mut cfa, at, Op::Assign(head.clone()));
                    let facts: Vec<Var> = (0..head.len()).map(|i| fact0 + i).collect();
                    at = push(
                        &mut cfa,
                        at,
                        Op::Havoc {
                            vars: facts,
                            nondet: true,
                        },
                    );
                    let eqs = (0..head.len())
                        .map(|i| eq(&Lin::var(fact0 + i), &Lin::var(i)))
                        .collect::<Result<Vec<_>, _>>()?;
                    at = push(&mut cfa, at, Op::Assume(eqs));
                }
                let to = pred_loc.get(app.pred).copied().unwrap_or(cfa.error);
                cfa.edges.push(Edge {
                    from: at,
                    to,
                    op: Op::Assume(Vec::new()),
                    line,
                });
            }
        }
    }
    let var = |name: String, aux: bool| VarInfo {
        name,
        ty: IntTy {
            bits: 64,
            signed: true,
        },
        aux,
    };
    for i in 0..slots {
        cfa.vars.push(var(format!("s{i}"), false));
    }
    cfa.vars.push(var("tag".into(), true));
    for i in 0..slots {
        cfa.vars.push(var(format!("fact{i}"), true));
    }
    for i in 0..aux_max {
        cfa.vars.push(var(format!("v{i}"), true));
    }
    Ok(HornCfa {
        cfa,
        pred_loc,
        slots,
    })
}
