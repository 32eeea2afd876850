//! Evaluation of a parsed TLSF specification to plain LTL, as syfco's `Writer/Eval.hs` does:
//! parameters and definitions (numbers, sets, formulas, functions with guarded cases — the first
//! case whose guard holds is taken, `otherwise` always holds), buses `b[n]` expanded to the signals
//! `b_0 … b_{n-1}`, big operators over ranges `&&[a <= i < b]`/`i IN set`, bounded operators
//! `X[n]`, `G[a:b]`, `F[a:b]`, bus comparisons `a == b` as the conjunction of bitwise
//! equivalences.

use super::syntax::{Ast, Big, Def, Ex, Op, Un, E};
use crate::error::SyntError;
use crate::ltl::{self, Ltl, L};
use std::collections::{BTreeSet, HashMap};
use verikit_diag::{Budget, Diagnostic, Span};

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Value {
    Num(i64),
    Ltl(L),
    Set(BTreeSet<Value>),
    Bus(String, i64),
    /// A value of an enumeration type: bit `i` required true/false, or either (`None`).
    Pattern(Vec<Option<bool>>),
}

/// Evaluation nesting limit (recursive definitions): deeper is an error, not a stack overflow.
const MAX_DEPTH: usize = 5000;
/// Largest number of values a range or big operator may produce.
const MAX_RANGE: i64 = 100_000;

pub(crate) struct Expander<'a> {
    funcs: HashMap<&'a str, &'a Def>,
    globals: HashMap<String, Value>,
    signals: HashMap<String, Value>,
    budget: &'a Budget,
    depth: usize,
    work: u64,
}

fn err(span: Span, msg: impl Into<String>) -> SyntError {
    SyntError::syntax(Diagnostic::at(span, msg))
}

/// The expanded specification: signal names and the formulas of each section.
pub(crate) struct Expanded {
    pub(crate) inputs: Vec<String>,
    pub(crate) outputs: Vec<String>,
    pub(crate) sections: [Vec<L>; 6],
}

pub(crate) fn expand(ast: &Ast, budget: &Budget) -> Result<Expanded, SyntError> {
    let mut x = Expander {
        funcs: HashMap::new(),
        globals: HashMap::new(),
        signals: HashMap::new(),
        budget,
        depth: 0,
        work: 0,
    };
    for d in ast.defs.iter().filter(|d| d.params.is_some()) {
        if x.funcs.insert(d.name.as_str(), d).is_some() {
            return Err(err(d.span, format!("`{}` is defined twice", d.name)));
        }
    }
    // Parameters and constant definitions, in order (a later one may use an earlier one).
    for d in ast
        .params
        .iter()
        .chain(ast.defs.iter().filter(|d| d.params.is_none()))
    {
        if d.params.is_some() {
            return Err(err(d.span, "a parameter cannot take arguments"));
        }
        let v = x.body(d, &HashMap::new())?;
        if x.globals.insert(d.name.clone(), v).is_some() {
            return Err(err(d.span, format!("`{}` is defined twice", d.name)));
        }
    }
    // Enumeration types: their values are global bit patterns.
    let mut enums = HashMap::new();
    for en in &ast.enums {
        if enums.insert(en.name.as_str(), en).is_some() {
            return Err(err(en.span, format!("enum `{}` is defined twice", en.name)));
        }
        for (v, span, bits) in &en.values {
            if x.globals
                .insert(v.clone(), Value::Pattern(bits.clone()))
                .is_some()
            {
                return Err(err(*span, format!("`{v}` is defined twice")));
            }
        }
    }
    let mut names = [Vec::new(), Vec::new()];
    // A signal of an enumeration type takes one of its values: an assumption for an input, an
    // invariant for an output (unless the patterns cover every valuation).
    let mut valid: [Vec<L>; 2] = Default::default();
    for (k, decls) in [&ast.inputs, &ast.outputs].into_iter().enumerate() {
        for s in decls {
            if x.signals.contains_key(&s.name) {
                return Err(err(
                    s.span,
                    format!("signal `{}` is declared twice", s.name),
                ));
            }
            if let Some((t, tspan)) = &s.ty {
                let Some(en) = enums.get(t.as_str()) else {
                    return Err(err(*tspan, format!("undefined enumeration type `{t}`")));
                };
                let width = en.values.first().map_or(0, |(_, _, b)| b.len());
                for i in 0..width {
                    names[k].push(format!("{}_{i}", s.name));
                }
                let values: Vec<L> = en
                    .values
                    .iter()
                    .map(|(_, _, b)| pattern(&s.name, b))
                    .collect();
                if !covers_all(en.values.iter().map(|(_, _, b)| b.as_slice()), width) {
                    valid[k].push(ltl::or(values));
                }
                x.signals
                    .insert(s.name.clone(), Value::Bus(s.name.clone(), width as i64));
                continue;
            }
            let v = match &s.width {
                None => {
                    names[k].push(s.name.clone());
                    Value::Ltl(ltl::ap(&s.name))
                }
                Some(w) => {
                    let n = x.num(w, &HashMap::new())?;
                    if !(0..=MAX_RANGE).contains(&n) {
                        return Err(err(w.span, format!("bad bus width {n}")));
                    }
                    for i in 0..n {
                        names[k].push(format!("{}_{i}", s.name));
                    }
                    Value::Bus(s.name.clone(), n)
                }
            };
            x.signals.insert(s.name.clone(), v);
        }
    }
    let mut sections: [Vec<L>; 6] = Default::default();
    let srcs = [
        &ast.initially,
        &ast.preset,
        &ast.require,
        &ast.assume,
        &ast.assert,
        &ast.guarantee,
    ];
    for (k, fs) in srcs.into_iter().enumerate() {
        for f in fs {
            let v = x.ltl(f, &HashMap::new())?;
            sections[k].push(v);
        }
    }
    let [valid_in, valid_out] = valid;
    if !valid_in.is_empty() {
        sections[3].push(ltl::globally(ltl::and(valid_in)));
    }
    sections[4].extend(valid_out);
    let [inputs, outputs] = names;
    let mut seen = BTreeSet::new();
    for n in inputs.iter().chain(outputs.iter()) {
        if !seen.insert(n.clone()) {
            return Err(SyntError::Usage(format!(
                "signal `{n}` occurs twice after bus expansion"
            )));
        }
    }
    Ok(Expanded {
        inputs,
        outputs,
        sections,
    })
}

type Env = HashMap<String, Value>;

/// The formula saying that bus `bus` holds the bit pattern `bits`.
fn pattern(bus: &str, bits: &[Option<bool>]) -> L {
    ltl::and(
        bits.iter()
            .enumerate()
            .filter_map(|(i, b)| {
                let a = ltl::ap(&format!("{bus}_{i}"));
                b.map(|v| if v { a } else { ltl::not(a) })
            })
            .collect(),
    )
}

/// Whether the patterns match every valuation of `width` bits (then no validity constraint is
/// needed), by enumerating the valuations up to 16 bits; a wider enum is taken as not covering
/// (the constraint is then at worst redundant).
fn covers_all<'a>(
    patterns: impl Iterator<Item = &'a [Option<bool>]> + Clone,
    width: usize,
) -> bool {
    if width > 16 {
        return false;
    }
    (0u32..1 << width).all(|w| {
        patterns.clone().any(|p| {
            p.iter().enumerate().all(|(i, b)| match b {
                Some(v) => (w >> i & 1 == 1) == *v,
                None => true,
            })
        })
    })
}

impl Expander<'_> {
    fn tick(&mut self, span: Span) -> Result<(), SyntError> {
        self.work += 1;
        if self.work.is_multiple_of(4096) {
            self.budget.check()?;
            if self.work > 50_000_000 {
                return Err(SyntError::Limit(format!(
                    "TLSF expansion too large (at {}..{})",
                    span.start, span.end
                )));
            }
        }
        Ok(())
    }

    fn enter(&mut self, span: Span) -> Result<(), SyntError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(err(
                span,
                "evaluation nested too deeply (unbounded recursion?)",
            ));
        }
        Ok(())
    }

    /// A definition's body: one expression, or guarded cases `cond : value`.
    fn body(&mut self, d: &Def, env: &Env) -> Result<Value, SyntError> {
        let single = d.body.len() == 1 && !matches!(d.body[0].e, E::Bin(Op::Colon, _, _));
        if single {
            return self.value(&d.body[0], env);
        }
        for case in &d.body {
            let E::Bin(Op::Colon, c, v) = &case.e else {
                return Err(err(
                    case.span,
                    "expected a guarded case `condition : value`",
                ));
            };
            if self.boolean(c, env)? {
                return self.value(v, env);
            }
        }
        Err(err(d.span, format!("no case of `{}` applies", d.name)))
    }

    fn value(&mut self, e: &Ex, env: &Env) -> Result<Value, SyntError> {
        self.enter(e.span)?;
        let r = self.value_inner(e, env);
        self.depth -= 1;
        r
    }

    fn value_inner(&mut self, e: &Ex, env: &Env) -> Result<Value, SyntError> {
        self.tick(e.span)?;
        use Value as V;
        Ok(match &e.e {
            E::Num(n) => V::Num(*n),
            E::True | E::Otherwise => V::Ltl(ltl::tt()),
            E::False => V::Ltl(ltl::ff()),
            E::Id(name) => {
                if let Some(v) = env.get(name).or_else(|| self.signals.get(name)) {
                    v.clone()
                } else if let Some(v) = self.globals.get(name) {
                    v.clone()
                } else if self.funcs.contains_key(name.as_str()) {
                    return Err(err(e.span, format!("function `{name}` needs arguments")));
                } else {
                    return Err(err(e.span, format!("undefined name `{name}`")));
                }
            }
            E::Call(name, args) => {
                let Some(d) = self.funcs.get(name.as_str()).copied() else {
                    return Err(err(e.span, format!("undefined function `{name}`")));
                };
                let ps = d.params.as_deref().unwrap_or(&[]);
                if ps.len() != args.len() {
                    return Err(err(
                        e.span,
                        format!(
                            "`{name}` takes {} arguments, {} given",
                            ps.len(),
                            args.len()
                        ),
                    ));
                }
                let mut local = Env::new();
                for (p, a) in ps.iter().zip(args) {
                    let v = self.value(a, env)?;
                    local.insert(p.clone(), v);
                }
                self.body(d, &local)?
            }
            E::Bus(name, idx) => {
                let i = self.num(idx, env)?;
                match env
                    .get(name)
                    .or_else(|| self.signals.get(name))
                    .or_else(|| self.globals.get(name))
                {
                    Some(V::Bus(b, n)) => {
                        if i < 0 || i >= *n {
                            return Err(err(
                                e.span,
                                format!("index {i} out of the bounds of bus `{b}` (size {n})"),
                            ));
                        }
                        V::Ltl(ltl::ap(&format!("{b}_{i}")))
                    }
                    Some(_) => return Err(err(e.span, format!("`{name}` is not a bus"))),
                    None => return Err(err(e.span, format!("undefined bus `{name}`"))),
                }
            }
            E::Un(u, a) => match u {
                Un::Not => V::Ltl(ltl::not(self.ltl(a, env)?)),
                Un::X => V::Ltl(ltl::next(self.ltl(a, env)?)),
                Un::G => V::Ltl(ltl::globally(self.ltl(a, env)?)),
                Un::F => V::Ltl(ltl::eventually(self.ltl(a, env)?)),
                Un::SizeOf => match self.value(a, env)? {
                    V::Bus(_, n) => V::Num(n),
                    V::Ltl(l) if matches!(*l, Ltl::Ap(_)) => V::Num(1),
                    _ => return Err(err(a.span, "SIZEOF needs a bus")),
                },
                Un::Size => V::Num(self.set(a, env)?.len() as i64),
                Un::Min | Un::Max => {
                    let s = self.set(a, env)?;
                    let pick = if *u == Un::Min {
                        s.iter().next()
                    } else {
                        s.iter().next_back()
                    };
                    match pick {
                        Some(v) => v.clone(),
                        None => return Err(err(a.span, "MIN/MAX of an empty set")),
                    }
                }
            },
            E::Bounded(u, n, a) => {
                let f = self.ltl(a, env)?;
                match u {
                    Un::X => {
                        let k = self.num(n, env)?;
                        if !(0..=MAX_RANGE).contains(&k) {
                            return Err(err(n.span, format!("bad bound {k}")));
                        }
                        let mut r = f;
                        for _ in 0..k {
                            r = ltl::next(r);
                        }
                        V::Ltl(r)
                    }
                    _ => {
                        let E::Bin(Op::Colon, lo, hi) = &n.e else {
                            return Err(err(n.span, "expected a range `a:b`"));
                        };
                        let (i, j) = (self.num(lo, env)?, self.num(hi, env)?);
                        if i > j {
                            V::Ltl(ltl::tt())
                        } else {
                            if i < 0 || j - i > MAX_RANGE || i > MAX_RANGE {
                                return Err(err(n.span, format!("bad range {i}:{j}")));
                            }
                            let mut r = f.clone();
                            for _ in 0..(j - i) {
                                r = if *u == Un::G {
                                    ltl::and(vec![f.clone(), ltl::next(r)])
                                } else {
                                    ltl::or(vec![f.clone(), ltl::next(r)])
                                };
                            }
                            for _ in 0..i {
                                r = ltl::next(r);
                            }
                            V::Ltl(r)
                        }
                    }
                }
            }
            E::Bin(op, a, b) => self.binary(*op, a, b, e.span, env)?,
            E::Chain(right, first, rest) => self.chain(*right, first, rest, e.span, env)?,
            E::Big(kind, ranges, body) => {
                let mut vals = Vec::new();
                self.big(ranges, body, env, &mut vals)?;
                match kind {
                    Big::And => V::Ltl(ltl::and(
                        vals.into_iter()
                            .map(ltl_of)
                            .collect::<Result<_, _>>()
                            .map_err(|_| err(body.span, "&&[…] needs formulas"))?,
                    )),
                    Big::Or => V::Ltl(ltl::or(
                        vals.into_iter()
                            .map(ltl_of)
                            .collect::<Result<_, _>>()
                            .map_err(|_| err(body.span, "||[…] needs formulas"))?,
                    )),
                    Big::Sum | Big::Prod => {
                        let mut acc: i64 = if *kind == Big::Sum { 0 } else { 1 };
                        for v in vals {
                            let V::Num(n) = v else {
                                return Err(err(body.span, "SUM/PROD need numbers"));
                            };
                            acc = if *kind == Big::Sum {
                                acc.checked_add(n)
                            } else {
                                acc.checked_mul(n)
                            }
                            .ok_or_else(|| err(e.span, "arithmetic overflow"))?;
                        }
                        V::Num(acc)
                    }
                    Big::Cup | Big::Cap => {
                        let mut acc: Option<BTreeSet<Value>> = None;
                        for v in vals {
                            let V::Set(s) = v else {
                                return Err(err(body.span, "set operators need sets"));
                            };
                            acc = Some(match acc {
                                None => s,
                                Some(a) if *kind == Big::Cup => a.union(&s).cloned().collect(),
                                Some(a) => a.intersection(&s).cloned().collect(),
                            });
                        }
                        V::Set(acc.unwrap_or_default())
                    }
                }
            }
            E::SetExplicit(items) => {
                let mut s = BTreeSet::new();
                for it in items {
                    s.insert(self.value(it, env)?);
                }
                V::Set(s)
            }
            E::SetRange(a, b, c) => {
                let lo = self.num(a, env)?;
                let step = match b {
                    Some(b) => self.num(b, env)?.saturating_sub(lo),
                    None => 1,
                };
                let hi = self.num(c, env)?;
                let mut s = BTreeSet::new();
                if step > 0 {
                    if hi.saturating_sub(lo) / step > MAX_RANGE {
                        return Err(err(e.span, "range too large"));
                    }
                    let mut i = lo;
                    while i <= hi {
                        s.insert(V::Num(i));
                        i = match i.checked_add(step) {
                            Some(j) => j,
                            None => break,
                        };
                    }
                } else if step < 0 {
                    if lo.saturating_sub(hi) / step.saturating_neg() > MAX_RANGE {
                        return Err(err(e.span, "range too large"));
                    }
                    let mut i = lo;
                    while i >= hi {
                        s.insert(V::Num(i));
                        i = match i.checked_add(step) {
                            Some(j) => j,
                            None => break,
                        };
                    }
                } else if lo <= hi {
                    return Err(err(e.span, "range with step 0"));
                }
                V::Set(s)
            }
        })
    }

    /// The values of `body` for every binding of the big operator's ranges, in order.
    fn big(
        &mut self,
        ranges: &[Ex],
        body: &Ex,
        env: &Env,
        out: &mut Vec<Value>,
    ) -> Result<(), SyntError> {
        let Some((first, rest)) = ranges.split_first() else {
            out.push(self.value(body, env)?);
            return Ok(());
        };
        let (var, vals) = self.range(first, env)?;
        for v in vals {
            self.tick(first.span)?;
            let mut local = env.clone();
            local.insert(var.clone(), v);
            self.big(rest, body, &local, out)?;
        }
        Ok(())
    }

    /// `i IN set`, `a <= i < b` (any of `<`, `<=` on each side): the variable and its values.
    fn range(&mut self, r: &Ex, env: &Env) -> Result<(String, Vec<Value>), SyntError> {
        match &r.e {
            E::Bin(Op::In, v, s) => {
                let E::Id(var) = &v.e else {
                    return Err(err(v.span, "expected a variable"));
                };
                let set = self.set(s, env)?;
                Ok((var.clone(), set.into_iter().collect()))
            }
            E::Bin(op2 @ (Op::Lt | Op::Le), lhs, hi) => {
                let E::Bin(op1 @ (Op::Lt | Op::Le), lo, v) = &lhs.e else {
                    return Err(err(r.span, "expected a range `a <= i < b` or `i IN set`"));
                };
                self.bounds(r.span, (lo, *op1), v, (*op2, hi), env)
            }
            E::Chain(false, lo, rest) if rest.len() == 2 => {
                let (op1, v) = (&rest[0].0, &rest[0].1);
                let (op2, hi) = (&rest[1].0, &rest[1].1);
                if !matches!(op1, Op::Lt | Op::Le) || !matches!(op2, Op::Lt | Op::Le) {
                    return Err(err(r.span, "expected a range `a <= i < b` or `i IN set`"));
                }
                self.bounds(r.span, (lo, *op1), v, (*op2, hi), env)
            }
            _ => Err(err(r.span, "expected a range `a <= i < b` or `i IN set`")),
        }
    }

    /// `lo op1 var op2 hi` with `<`/`<=`: the variable and its values.
    fn bounds(
        &mut self,
        span: Span,
        (lo, op1): (&Ex, Op),
        v: &Ex,
        (op2, hi): (Op, &Ex),
        env: &Env,
    ) -> Result<(String, Vec<Value>), SyntError> {
        let E::Id(var) = &v.e else {
            return Err(err(v.span, "expected a variable"));
        };
        let mut a = self.num(lo, env)?;
        let mut b = self.num(hi, env)?;
        if op1 == Op::Lt {
            a = a.saturating_add(1);
        }
        if op2 == Op::Lt {
            b = b.saturating_sub(1);
        }
        if b.saturating_sub(a) > MAX_RANGE {
            return Err(err(span, "range too large"));
        }
        Ok((var.clone(), (a..=b).map(Value::Num).collect()))
    }

    fn binary(
        &mut self,
        op: Op,
        a: &Ex,
        b: &Ex,
        span: Span,
        env: &Env,
    ) -> Result<Value, SyntError> {
        if op == Op::Colon {
            return Err(err(
                span,
                "a guarded case `condition : value` is only allowed in a definition",
            ));
        }
        let x = self.value(a, env)?;
        let y = self.value(b, env)?;
        combine(op, x, y, span)
    }

    fn chain(
        &mut self,
        right: bool,
        first: &Ex,
        rest: &[(Op, Ex)],
        span: Span,
        env: &Env,
    ) -> Result<Value, SyntError> {
        if rest.iter().any(|(op, _)| *op == Op::Colon) {
            return Err(err(
                span,
                "a guarded case `condition : value` is only allowed in a definition",
            ));
        }
        let mut vals = vec![self.value(first, env)?];
        for (_, x) in rest {
            vals.push(self.value(x, env)?);
        }
        if right {
            let mut acc = vals.pop().ok_or_else(|| err(span, "empty chain"))?;
            for ((op, _), v) in rest.iter().zip(vals).rev() {
                acc = combine(*op, v, acc, span)?;
            }
            Ok(acc)
        } else {
            let mut it = vals.into_iter();
            let mut acc = it.next().ok_or_else(|| err(span, "empty chain"))?;
            for ((op, _), v) in rest.iter().zip(it) {
                acc = combine(*op, acc, v, span)?;
            }
            Ok(acc)
        }
    }

    fn num(&mut self, e: &Ex, env: &Env) -> Result<i64, SyntError> {
        match self.value(e, env)? {
            Value::Num(n) => Ok(n),
            _ => Err(err(e.span, "expected a number")),
        }
    }

    fn set(&mut self, e: &Ex, env: &Env) -> Result<BTreeSet<Value>, SyntError> {
        match self.value(e, env)? {
            Value::Set(s) => Ok(s),
            _ => Err(err(e.span, "expected a set")),
        }
    }

    fn ltl(&mut self, e: &Ex, env: &Env) -> Result<L, SyntError> {
        match self.value(e, env)? {
            Value::Ltl(l) => Ok(l),
            Value::Bus(b, _) => Err(err(
                e.span,
                format!("bus `{b}` used as a formula (index it: `{b}[i]`)"),
            )),
            _ => Err(err(e.span, "expected a formula")),
        }
    }

    fn boolean(&mut self, e: &Ex, env: &Env) -> Result<bool, SyntError> {
        let l = self.ltl(e, env)?;
        match *l {
            Ltl::True => Ok(true),
            Ltl::False => Ok(false),
            _ => Err(err(e.span, "a guard must evaluate to true or false")),
        }
    }
}

/// A binary operator on evaluated operands.
fn combine(op: Op, x: Value, y: Value, span: Span) -> Result<Value, SyntError> {
    use Value as V;
    let ovf = || err(span, "arithmetic overflow or division by zero");
    let nums = |x: &Value, y: &Value| match (x, y) {
        (V::Num(a), V::Num(b)) => Ok((*a, *b)),
        _ => Err(err(span, "expected numbers")),
    };
    let sets = |x: Value, y: Value| match (x, y) {
        (V::Set(a), V::Set(b)) => Ok((a, b)),
        _ => Err(err(span, "expected sets")),
    };
    let formula = |v: Value| match v {
        V::Ltl(l) => Ok(l),
        V::Bus(b, _) => Err(err(
            span,
            format!("bus `{b}` used as a formula (index it: `{b}[i]`)"),
        )),
        _ => Err(err(span, "expected formulas")),
    };
    Ok(match op {
        Op::Mul => {
            let (a, b) = nums(&x, &y)?;
            V::Num(a.checked_mul(b).ok_or_else(ovf)?)
        }
        Op::Add => {
            let (a, b) = nums(&x, &y)?;
            V::Num(a.checked_add(b).ok_or_else(ovf)?)
        }
        Op::Sub => {
            let (a, b) = nums(&x, &y)?;
            V::Num(a.checked_sub(b).ok_or_else(ovf)?)
        }
        // Haskell's `div`/`mod`: rounding towards negative infinity.
        Op::Div => {
            let (a, b) = nums(&x, &y)?;
            if b == 0 || (a == i64::MIN && b == -1) {
                return Err(ovf());
            }
            V::Num(a.div_euclid(b) - i64::from(b < 0 && a.rem_euclid(b) != 0))
        }
        Op::Mod => {
            let (a, b) = nums(&x, &y)?;
            if b == 0 || (a == i64::MIN && b == -1) {
                return Err(ovf());
            }
            let r = a.rem_euclid(b);
            V::Num(if b < 0 && r != 0 { r + b } else { r })
        }
        Op::Lt | Op::Le | Op::Gt | Op::Ge => {
            let (a, b) = nums(&x, &y)?;
            V::Ltl(ltl::constant(match op {
                Op::Lt => a < b,
                Op::Le => a <= b,
                Op::Gt => a > b,
                _ => a >= b,
            }))
        }
        Op::Eq | Op::Neq => {
            let f = match (&x, &y) {
                (V::Bus(p, n), V::Bus(q, m)) => {
                    if n != m {
                        return Err(err(
                            span,
                            format!("buses of different sizes ({n} and {m}) compared"),
                        ));
                    }
                    ltl::and(
                        (0..*n)
                            .map(|i| {
                                ltl::equiv(
                                    ltl::ap(&format!("{p}_{i}")),
                                    ltl::ap(&format!("{q}_{i}")),
                                )
                            })
                            .collect(),
                    )
                }
                (V::Bus(p, n), V::Pattern(b)) | (V::Pattern(b), V::Bus(p, n)) => {
                    if *n != b.len() as i64 {
                        return Err(err(
                            span,
                            format!(
                                "bus `{p}` of size {n} compared with an enum value of {} bits",
                                b.len()
                            ),
                        ));
                    }
                    pattern(p, b)
                }
                (V::Bus(p, 1), V::Ltl(s)) | (V::Ltl(s), V::Bus(p, 1))
                    if matches!(**s, Ltl::Ap(_)) =>
                {
                    ltl::equiv(ltl::ap(&format!("{p}_0")), s.clone())
                }
                (V::Bus(..), _) | (_, V::Bus(..)) => {
                    return Err(err(
                        span,
                        "a bus can only be compared with a bus of the same size",
                    ))
                }
                _ => ltl::constant(x == y),
            };
            V::Ltl(if op == Op::Neq { ltl::not(f) } else { f })
        }
        Op::In => match y {
            V::Set(s) => V::Ltl(ltl::constant(s.contains(&x))),
            _ => return Err(err(span, "IN needs a set")),
        },
        Op::SetMinus | Op::Cap | Op::Cup => {
            let (a, b) = sets(x, y)?;
            V::Set(match op {
                Op::SetMinus => a.difference(&b).cloned().collect(),
                Op::Cap => a.intersection(&b).cloned().collect(),
                _ => a.union(&b).cloned().collect(),
            })
        }
        Op::And | Op::Or | Op::Implies | Op::Equiv | Op::W | Op::U | Op::R => {
            let (a, b) = (formula(x)?, formula(y)?);
            V::Ltl(match op {
                Op::And => ltl::and(vec![a, b]),
                Op::Or => ltl::or(vec![a, b]),
                Op::Implies => ltl::implies(a, b),
                Op::Equiv => ltl::equiv(a, b),
                Op::W => ltl::weak(a, b),
                Op::U => ltl::until(a, b),
                _ => ltl::release(a, b),
            })
        }
        Op::Colon => {
            return Err(err(
                span,
                "a guarded case `condition : value` is only allowed in a definition",
            ))
        }
    })
}

fn ltl_of(v: Value) -> Result<L, ()> {
    match v {
        Value::Ltl(l) => Ok(l),
        _ => Err(()),
    }
}
