//! Elaboration of SMT-LIB 2.6 terms (S-expressions) into hash-consed terms with sort checking:
//! `let`, `!` annotations (`:named`), `ite`, chained comparisons, `distinct`, `define-fun` macros,
//! numerals/decimals, `to_real`/`to_int`/`is_int`, `div`/`mod`/`abs`, and the rejection of
//! non-linear products.

use crate::smtlib::{SExpr, SExprKind, TokenKind};
use crate::terms::{Op, Sort, TermId, Terms};
use rustc_hash::FxHashMap as HashMap;
use verikit_diag::{Diagnostic, Span};
use verikit_num::Num;

/// What a symbol means.
#[derive(Clone, Debug)]
pub(crate) enum Binding {
    Term(TermId),
    /// A `define-fun` with parameters: expanded at each application.
    Macro {
        params: Vec<(String, Sort)>,
        body: SExpr,
        ret: Sort,
    },
}

/// The symbol table with scopes for `push`/`pop` and `let`.
#[derive(Clone, Debug, Default)]
pub(crate) struct Env {
    pub symbols: HashMap<String, Vec<Binding>>,
    /// Names added in each open scope (global scopes for push, plus let scopes).
    scopes: Vec<Vec<String>>,
    /// Named terms `(! t :named n)` seen while elaborating the current command.
    pub named: Vec<(String, TermId)>,
}

pub(crate) fn err(span: Span, msg: impl Into<String>) -> Diagnostic {
    Diagnostic::at(span, msg)
}

impl Env {
    pub(crate) fn new() -> Env {
        Env {
            scopes: vec![Vec::new()],
            ..Env::default()
        }
    }
    pub(crate) fn bind(&mut self, name: &str, b: Binding) {
        self.symbols.entry(name.to_string()).or_default().push(b);
        if let Some(s) = self.scopes.last_mut() {
            s.push(name.to_string());
        }
    }
    pub(crate) fn is_bound(&self, name: &str) -> bool {
        self.symbols.get(name).is_some_and(|v| !v.is_empty())
    }
    pub(crate) fn push(&mut self) {
        self.scopes.push(Vec::new());
    }
    pub(crate) fn pop(&mut self) {
        if let Some(names) = self.scopes.pop() {
            for n in names.into_iter().rev() {
                if let Some(v) = self.symbols.get_mut(&n) {
                    v.pop();
                    if v.is_empty() {
                        self.symbols.remove(&n);
                    }
                }
            }
        }
        if self.scopes.is_empty() {
            self.scopes.push(Vec::new());
        }
    }
    fn lookup(&self, name: &str) -> Option<&Binding> {
        self.symbols.get(name).and_then(|v| v.last())
    }
}

/// Parses a sort expression.
pub(crate) fn parse_sort(e: &SExpr) -> Result<Sort, Diagnostic> {
    match e.symbol() {
        Some("Bool") => Ok(Sort::Bool),
        Some("Int") => Ok(Sort::Int),
        Some("Real") => Ok(Sort::Real),
        _ => Err(err(
            e.span,
            "unsupported sort (the linear-arithmetic logics have Bool, Int and Real)",
        )),
    }
}

/// Which arithmetic the current logic allows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct LogicCaps {
    pub ints: bool,
    pub reals: bool,
}

pub(crate) struct Elab<'a> {
    pub terms: &'a mut Terms,
    pub env: &'a mut Env,
    pub caps: LogicCaps,
}

fn numeric_literal(e: &SExpr, tk: &TokenKind) -> Option<(Num, bool)> {
    let _ = e;
    match tk {
        TokenKind::Numeral(s) => small_numeral(s)
            .or_else(|| Num::parse_decimal(s))
            .map(|n| (n, false)),
        TokenKind::Decimal(s) => Num::parse_decimal(s).map(|n| (n, true)),
        _ => None,
    }
}

/// A numeral of at most 18 digits in machine words (the general parser goes through big
/// integers; files such as pb2010 have tens of thousands of small numerals).
pub(crate) fn small_numeral(s: &str) -> Option<Num> {
    if s.is_empty() || s.len() > 18 || !s.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    s.parse::<i64>().ok().map(Num::int)
}

impl Elab<'_> {
    fn expect_sort(&self, t: TermId, s: Sort, span: Span) -> Result<(), Diagnostic> {
        let got = self.terms.sort(t);
        if got == s {
            Ok(())
        } else {
            Err(err(
                span,
                format!("expected a term of sort {}, found {}", s.name(), got.name()),
            ))
        }
    }

    fn arith_args(
        &mut self,
        args: &[SExpr],
        head: Span,
    ) -> Result<(Vec<TermId>, Sort), Diagnostic> {
        let mut ts = Vec::with_capacity(args.len());
        let mut sort = None;
        for a in args {
            let t = self.term(a)?;
            let s = self.terms.sort(t);
            if !s.is_arith() {
                return Err(err(a.span, "expected an arithmetic term, found a Bool"));
            }
            match sort {
                None => sort = Some(s),
                Some(p) if p != s => {
                    // Mixed Int/Real: promote (as z3 and yices do for QF_LIRA-like input).
                    sort = Some(Sort::Real);
                }
                _ => {}
            }
            ts.push(t);
        }
        let sort = sort.ok_or_else(|| err(head, "operator needs arguments"))?;
        if sort == Sort::Real {
            for t in ts.iter_mut() {
                if self.terms.sort(*t) == Sort::Int {
                    *t = self.mk_to_real(*t);
                }
            }
        }
        Ok((ts, sort))
    }

    fn mk_to_real(&mut self, t: TermId) -> TermId {
        if let Op::Const(n) = &self.terms.node(t).op {
            let n = n.clone();
            return self.terms.mk_const(n, Sort::Real);
        }
        self.terms.mk(Op::ToReal, vec![t], Sort::Real)
    }

    fn chain(&mut self, op: Op, ts: &[TermId]) -> TermId {
        let mut parts = Vec::new();
        for w in ts.windows(2) {
            let t = match op {
                Op::Le | Op::Lt | Op::Eq | Op::Iff => {
                    self.terms.mk(op.clone(), vec![w[0], w[1]], Sort::Bool)
                }
                _ => unreachable!("chain of a non-relational operator"),
            };
            parts.push(t);
        }
        if parts.len() == 1 {
            parts[0]
        } else {
            self.terms.mk(Op::And, parts, Sort::Bool)
        }
    }

    /// Elaborates a term.
    pub(crate) fn term(&mut self, e: &SExpr) -> Result<TermId, Diagnostic> {
        match &e.kind {
            SExprKind::Atom(tk) => {
                if let Some((n, dec)) = numeric_literal(e, tk) {
                    let sort = if dec || !self.caps.ints {
                        Sort::Real
                    } else {
                        Sort::Int
                    };
                    return Ok(self.terms.mk_const(n, sort));
                }
                match tk {
                    TokenKind::Symbol(s) => self.symbol(s, e.span),
                    _ => Err(err(e.span, "unexpected literal in a term")),
                }
            }
            SExprKind::List(items) => {
                let (head, args) = match items.split_first() {
                    Some(x) => x,
                    None => return Err(err(e.span, "empty application")),
                };
                match head.symbol() {
                    Some("let") => return self.let_term(e, args),
                    Some("!") => return self.annotated(e, args),
                    Some(_) => {}
                    None => {
                        if let Some(l) = head.list() {
                            if l.first().and_then(|x| x.symbol()) == Some("as") {
                                return Err(err(
                                    head.span,
                                    "`as` qualifications are not supported",
                                ));
                            }
                        }
                        return Err(err(head.span, "expected a function symbol"));
                    }
                }
                let name = head.symbol().unwrap_or_default();
                self.apply(name, head.span, args, e.span)
            }
        }
    }

    fn symbol(&mut self, s: &str, span: Span) -> Result<TermId, Diagnostic> {
        match s {
            "true" => return Ok(self.terms.mk_true()),
            "false" => return Ok(self.terms.mk_false()),
            _ => {}
        }
        match self.env.lookup(s) {
            Some(Binding::Term(t)) => Ok(*t),
            Some(Binding::Macro { params, .. }) if params.is_empty() => {
                self.apply(s, span, &[], span)
            }
            Some(Binding::Macro { .. }) => Err(err(
                span,
                format!("`{s}` is a function and needs arguments"),
            )),
            None => Err(err(span, format!("unknown constant `{s}`"))),
        }
    }

    fn let_term(&mut self, e: &SExpr, args: &[SExpr]) -> Result<TermId, Diagnostic> {
        let (binds, body) = match args {
            [b, body] => (b, body),
            _ => return Err(err(e.span, "`let` expects a binding list and a body")),
        };
        let bl = binds
            .list()
            .ok_or_else(|| err(binds.span, "expected a list of bindings"))?;
        let mut vals = Vec::with_capacity(bl.len());
        for b in bl {
            let pair = b
                .list()
                .ok_or_else(|| err(b.span, "expected `(name term)`"))?;
            match pair {
                [n, t] => {
                    let name = n.symbol().ok_or_else(|| err(n.span, "expected a symbol"))?;
                    let v = self.term(t)?;
                    vals.push((name.to_string(), v));
                }
                _ => return Err(err(b.span, "expected `(name term)`")),
            }
        }
        self.env.push();
        for (n, v) in vals {
            self.env.bind(&n, Binding::Term(v));
        }
        let r = self.term(body);
        self.env.pop();
        r
    }

    fn annotated(&mut self, e: &SExpr, args: &[SExpr]) -> Result<TermId, Diagnostic> {
        let (t, attrs) = args
            .split_first()
            .ok_or_else(|| err(e.span, "`!` expects a term"))?;
        let v = self.term(t)?;
        let mut i = 0;
        while i < attrs.len() {
            let k = attrs[i]
                .keyword()
                .ok_or_else(|| err(attrs[i].span, "expected an attribute keyword"))?;
            if k == ":named" {
                let n = attrs
                    .get(i + 1)
                    .and_then(|x| x.symbol())
                    .ok_or_else(|| err(attrs[i].span, "`:named` expects a symbol"))?;
                if self.env.is_bound(n) {
                    return Err(err(attrs[i + 1].span, format!("`{n}` is already declared")));
                }
                self.env.named.push((n.to_string(), v));
                i += 2;
            } else {
                // :pattern and others: skip the value if present.
                i += 1;
                if i < attrs.len() && attrs[i].keyword().is_none() {
                    i += 1;
                }
            }
        }
        Ok(v)
    }

    fn apply(
        &mut self,
        name: &str,
        hspan: Span,
        args: &[SExpr],
        span: Span,
    ) -> Result<TermId, Diagnostic> {
        let n = args.len();
        let arity = |lo: usize, hi: usize| -> Result<(), Diagnostic> {
            if n < lo || n > hi {
                Err(err(span, format!("`{name}` applied to {n} arguments")))
            } else {
                Ok(())
            }
        };
        // User definitions shadow nothing of the core theory in these logics, but may be named
        // like ordinary symbols.
        if let Some(Binding::Macro { params, body, ret }) = self.env.lookup(name).cloned() {
            if params.len() != n {
                return Err(err(
                    span,
                    format!("`{name}` expects {} arguments, got {n}", params.len()),
                ));
            }
            let mut vals = Vec::with_capacity(n);
            for (a, (_, s)) in args.iter().zip(params.iter()) {
                let mut v = self.term(a)?;
                if *s == Sort::Real && self.terms.sort(v) == Sort::Int {
                    v = self.mk_to_real(v);
                }
                self.expect_sort(v, *s, a.span)?;
                vals.push(v);
            }
            // Macro bodies see only globals + their parameters: hide let-bound names is not needed
            // since bodies were checked at definition time against globals.
            self.env.push();
            for ((p, _), v) in params.iter().zip(vals) {
                self.env.bind(p, Binding::Term(v));
            }
            let r = self.term(&body);
            self.env.pop();
            let r = r?;
            if ret == Sort::Real && self.terms.sort(r) == Sort::Int {
                return Ok(self.mk_to_real(r));
            }
            return Ok(r);
        }
        if let Some(Binding::Term(_)) = self.env.lookup(name) {
            return Err(err(
                hspan,
                format!("`{name}` is a constant, not a function"),
            ));
        }
        match name {
            "not" => {
                arity(1, 1)?;
                let a = self.term(&args[0])?;
                self.expect_sort(a, Sort::Bool, args[0].span)?;
                Ok(self.terms.mk_not(a))
            }
            "and" | "or" | "xor" | "=>" => {
                arity(1, usize::MAX)?;
                let mut ts = Vec::with_capacity(n);
                for a in args {
                    let t = self.term(a)?;
                    self.expect_sort(t, Sort::Bool, a.span)?;
                    ts.push(t);
                }
                if ts.len() == 1 {
                    return Ok(ts[0]);
                }
                Ok(match name {
                    "and" => self.terms.mk(Op::And, ts, Sort::Bool),
                    "or" => self.terms.mk(Op::Or, ts, Sort::Bool),
                    "xor" => {
                        let mut acc = ts[0];
                        for &t in &ts[1..] {
                            acc = self.terms.mk(Op::Xor, vec![acc, t], Sort::Bool);
                        }
                        acc
                    }
                    _ => {
                        let mut acc = ts[ts.len() - 1];
                        for &t in ts[..ts.len() - 1].iter().rev() {
                            acc = self.terms.mk(Op::Implies, vec![t, acc], Sort::Bool);
                        }
                        acc
                    }
                })
            }
            "=" | "distinct" => {
                arity(2, usize::MAX)?;
                let mut ts = Vec::with_capacity(n);
                for a in args {
                    ts.push(self.term(a)?);
                }
                let s0 = self.terms.sort(ts[0]);
                let op = if s0 == Sort::Bool {
                    for (t, a) in ts.iter().zip(args) {
                        self.expect_sort(*t, Sort::Bool, a.span)?;
                    }
                    Op::Iff
                } else {
                    let (ts2, _) = self.arith_args(args, hspan)?;
                    ts = ts2;
                    Op::Eq
                };
                if name == "=" {
                    Ok(self.chain(op, &ts))
                } else {
                    let mut parts = Vec::new();
                    for i in 0..ts.len() {
                        for j in i + 1..ts.len() {
                            let e = self.terms.mk(op.clone(), vec![ts[i], ts[j]], Sort::Bool);
                            parts.push(self.terms.mk_not(e));
                        }
                    }
                    if parts.len() == 1 {
                        Ok(parts[0])
                    } else {
                        Ok(self.terms.mk(Op::And, parts, Sort::Bool))
                    }
                }
            }
            "ite" => {
                arity(3, 3)?;
                let c = self.term(&args[0])?;
                self.expect_sort(c, Sort::Bool, args[0].span)?;
                let mut a = self.term(&args[1])?;
                let mut b = self.term(&args[2])?;
                let (sa, sb) = (self.terms.sort(a), self.terms.sort(b));
                let sort = if sa == sb {
                    sa
                } else if sa.is_arith() && sb.is_arith() {
                    if sa == Sort::Int {
                        a = self.mk_to_real(a);
                    }
                    if sb == Sort::Int {
                        b = self.mk_to_real(b);
                    }
                    Sort::Real
                } else {
                    return Err(err(
                        args[2].span,
                        "the branches of `ite` have different sorts",
                    ));
                };
                Ok(self.terms.mk(Op::Ite, vec![c, a, b], sort))
            }
            "<=" | "<" | ">=" | ">" => {
                arity(2, usize::MAX)?;
                let (mut ts, _) = self.arith_args(args, hspan)?;
                let op = if name.contains('=') { Op::Le } else { Op::Lt };
                if name.starts_with('>') {
                    ts.reverse();
                }
                Ok(self.chain(op, &ts))
            }
            "+" => {
                arity(1, usize::MAX)?;
                let (ts, s) = self.arith_args(args, hspan)?;
                if ts.len() == 1 {
                    return Ok(ts[0]);
                }
                Ok(self.terms.mk(Op::Add, ts, s))
            }
            "-" => {
                arity(1, usize::MAX)?;
                let (ts, s) = self.arith_args(args, hspan)?;
                if ts.len() == 1 {
                    if let Op::Const(c) = &self.terms.node(ts[0]).op {
                        let c = c.neg();
                        return Ok(self.terms.mk_const(c, s));
                    }
                    return Ok(self.terms.mk(Op::Neg, ts, s));
                }
                let mut parts = vec![ts[0]];
                for &t in &ts[1..] {
                    let nt = if let Op::Const(c) = &self.terms.node(t).op {
                        let c = c.neg();
                        self.terms.mk_const(c, s)
                    } else {
                        self.terms.mk(Op::Neg, vec![t], s)
                    };
                    parts.push(nt);
                }
                Ok(self.terms.mk(Op::Add, parts, s))
            }
            "*" => {
                arity(2, usize::MAX)?;
                let (ts, s) = self.arith_args(args, hspan)?;
                let nonconst = ts.iter().filter(|t| !self.is_constant(**t)).count();
                if nonconst > 1 {
                    return Err(err(
                        span,
                        "non-linear multiplication is outside the linear-arithmetic logics",
                    ));
                }
                Ok(self.terms.mk(Op::Mul, ts, s))
            }
            "/" => {
                arity(2, usize::MAX)?;
                let (ts, _) = self.arith_args(args, hspan)?;
                let mut ts2 = Vec::with_capacity(ts.len());
                for t in ts {
                    ts2.push(if self.terms.sort(t) == Sort::Int {
                        self.mk_to_real(t)
                    } else {
                        t
                    });
                }
                for (t, a) in ts2[1..].iter().zip(&args[1..]) {
                    match self.const_value(*t) {
                        Some(c) if !c.is_zero() => {}
                        Some(_) => return Err(err(a.span, "division by zero")),
                        None => {
                            return Err(err(a.span, "division by a non-constant is non-linear"))
                        }
                    }
                }
                if let (Some(a), Some(b)) = (self.const_value(ts2[0]), self.const_value(ts2[1])) {
                    if ts2.len() == 2 {
                        return Ok(self.terms.mk_const(a.div(&b), Sort::Real));
                    }
                }
                let mut acc = ts2[0];
                for &t in &ts2[1..] {
                    acc = self.terms.mk(Op::Div, vec![acc, t], Sort::Real);
                }
                Ok(acc)
            }
            "div" | "mod" => {
                arity(2, 2)?;
                let a = self.term(&args[0])?;
                let b = self.term(&args[1])?;
                self.expect_sort(a, Sort::Int, args[0].span)?;
                self.expect_sort(b, Sort::Int, args[1].span)?;
                match self.const_value(b) {
                    Some(c) if !c.is_zero() => {}
                    Some(_) => return Err(err(args[1].span, "division by zero is not supported")),
                    None => {
                        return Err(err(
                            args[1].span,
                            "`div`/`mod` by a non-constant is non-linear",
                        ))
                    }
                }
                Ok(self.terms.mk(
                    if name == "div" { Op::IntDiv } else { Op::Mod },
                    vec![a, b],
                    Sort::Int,
                ))
            }
            "abs" => {
                arity(1, 1)?;
                let a = self.term(&args[0])?;
                self.expect_sort(a, Sort::Int, args[0].span)?;
                Ok(self.terms.mk(Op::Abs, vec![a], Sort::Int))
            }
            "to_real" => {
                arity(1, 1)?;
                let a = self.term(&args[0])?;
                self.expect_sort(a, Sort::Int, args[0].span)?;
                Ok(self.mk_to_real(a))
            }
            "to_int" | "is_int" => {
                arity(1, 1)?;
                let a = self.term(&args[0])?;
                self.expect_sort(a, Sort::Real, args[0].span)?;
                if name == "to_int" {
                    Ok(self.terms.mk(Op::ToInt, vec![a], Sort::Int))
                } else {
                    Ok(self.terms.mk(Op::IsInt, vec![a], Sort::Bool))
                }
            }
            _ => Err(err(hspan, format!("unknown function symbol `{name}`"))),
        }
    }

    fn is_constant(&self, t: TermId) -> bool {
        self.const_value(t).is_some()
    }

    /// The value of a constant arithmetic expression, if it is one.
    pub(crate) fn const_value(&self, t: TermId) -> Option<Num> {
        let nd = self.terms.node(t);
        match &nd.op {
            Op::Const(c) => Some(c.clone()),
            Op::Neg => self.const_value(nd.args[0]).map(|c| c.neg()),
            Op::ToReal => self.const_value(nd.args[0]),
            Op::Add => {
                let mut s = Num::ZERO;
                for &a in nd.args.iter() {
                    s = s.add(&self.const_value(a)?);
                }
                Some(s)
            }
            Op::Mul => {
                let mut s = Num::ONE;
                for &a in nd.args.iter() {
                    s = s.mul(&self.const_value(a)?);
                }
                Some(s)
            }
            Op::Div => {
                let a = self.const_value(nd.args[0])?;
                let b = self.const_value(nd.args[1])?;
                if b.is_zero() {
                    None
                } else {
                    Some(a.div(&b))
                }
            }
            _ => None,
        }
    }
}
