//! Reading constrained Horn clauses in the SMT-LIB `HORN` logic as CHC-COMP writes them
//! (`declare-fun` of predicates over `Int`/`Bool`, `(assert (forall (…) (=> body head)))`, a head
//! that is a predicate application or `false`), with the S-expression parser of `verikit-smt`.
//! `let` is expanded by substitution so that the predicate applications of a body can be found
//! among its top-level conjuncts; everything else of a body is its constraint.

use crate::error::ProgError;
use verikit_diag::{Diagnostic, Span};
use verikit_smt::{parse_sexprs, SExpr, SExprKind, TokenKind};

/// An uninterpreted predicate: its name and, per argument, whether it is `Bool` (else `Int`).
#[derive(Clone, Debug)]
pub(crate) struct Pred {
    pub(crate) name: String,
    pub(crate) bools: Vec<bool>,
}

/// A predicate application.
#[derive(Clone, Debug)]
pub(crate) struct App {
    pub(crate) pred: usize,
    pub(crate) args: Vec<SExpr>,
}

/// One clause `∀ vars. body-apps ∧ constraint ⇒ head` (`head = None`: `false`, a query).
#[derive(Clone, Debug)]
pub(crate) struct Clause {
    /// Universally quantified variables: name and whether it is `Bool`.
    pub(crate) vars: Vec<(String, bool)>,
    pub(crate) body: Vec<App>,
    /// Conjuncts of the constraint (after `let` expansion).
    pub(crate) constraint: Vec<SExpr>,
    pub(crate) head: Option<App>,
    /// The clause below its quantifier, as written (for the independent checks).
    pub(crate) matrix: Span,
    /// The whole `assert`.
    pub(crate) span: Span,
}

/// A system of Horn clauses.
#[derive(Clone, Debug)]
pub(crate) struct HornSystem {
    pub(crate) preds: Vec<Pred>,
    pub(crate) clauses: Vec<Clause>,
}

/// Largest number of S-expression nodes `let` expansion may produce.
const MAX_NODES: usize = 2_000_000;

/// Deepest nesting of a clause (before and, in `horn_cfa`, after `let` expansion): the readers
/// recurse, and the checkers run on the caller's stack.
pub(crate) const MAX_DEPTH: usize = 2_000;

fn input(span: Span, msg: impl Into<String>) -> ProgError {
    ProgError::Input(Box::new(Diagnostic::at(span, msg)))
}

/// `line L` of a byte offset (for `unknown` reasons, which are not rendered with the source).
pub(crate) fn line_of(text: &str, at: usize) -> usize {
    text.get(..at)
        .map(|p| p.bytes().filter(|&b| b == b'\n').count() + 1)
        .unwrap_or(0)
}

/// The source text of a span.
pub(crate) fn slice(text: &str, span: Span) -> &str {
    text.get(span.start..span.end).unwrap_or("")
}

fn head_symbol(e: &SExpr) -> Option<&str> {
    e.list().and_then(|l| l.first()).and_then(|h| h.symbol())
}

fn sort_is_bool(e: &SExpr, text: &str) -> Result<bool, ProgError> {
    match e.symbol() {
        Some("Int") => Ok(false),
        Some("Bool") => Ok(true),
        _ => Err(ProgError::Unsupported(format!(
            "sort `{}` at line {} (only Int and Bool)",
            slice(text, e.span),
            line_of(text, e.span.start)
        ))),
    }
}

/// Reads a CHC file.
pub(crate) fn read_horn(text: &str) -> Result<HornSystem, ProgError> {
    let forms = parse_sexprs(text).map_err(|d| ProgError::Input(Box::new(d)))?;
    let mut sys = HornSystem {
        preds: Vec::new(),
        clauses: Vec::new(),
    };
    for f in &forms {
        let Some(items) = f.list() else {
            return Err(input(f.span, "expected a command `( … )`"));
        };
        let Some((cmd, args)) = items.split_first() else {
            return Err(input(f.span, "empty command"));
        };
        let Some(name) = cmd.symbol() else {
            return Err(input(cmd.span, "expected a command name"));
        };
        match name {
            "set-logic" => match args.first().and_then(|a| a.symbol()) {
                Some("HORN") => {}
                Some(l) => {
                    return Err(ProgError::Unsupported(format!(
                        "logic {l} (only HORN over linear integer arithmetic)"
                    )))
                }
                None => return Err(input(f.span, "expected a logic name")),
            },
            "set-info" | "set-option" | "check-sat" | "exit" | "get-model" | "get-info"
            | "get-proof" => {}
            "declare-fun" => {
                let [n, ps, r] = args else {
                    return Err(input(f.span, "expected `(declare-fun name (sorts) Bool)`"));
                };
                let Some(n) = n.symbol() else {
                    return Err(input(n.span, "expected a predicate name"));
                };
                if sys.preds.iter().any(|p| p.name == n) {
                    return Err(input(args[0].span, format!("`{n}` is already declared")));
                }
                if r.symbol() != Some("Bool") {
                    return Err(ProgError::Unsupported(format!(
                        "function `{n}` at line {} does not return Bool (only predicates)",
                        line_of(text, f.span.start)
                    )));
                }
                let Some(ps) = ps.list() else {
                    return Err(input(ps.span, "expected a list of sorts"));
                };
                let bools = ps
                    .iter()
                    .map(|s| sort_is_bool(s, text))
                    .collect::<Result<Vec<_>, _>>()?;
                sys.preds.push(Pred {
                    name: n.to_string(),
                    bools,
                });
            }
            "assert" => {
                let [t] = args else {
                    return Err(input(f.span, "expected `(assert term)`"));
                };
                let c = clause(&sys, t, f.span, text)?;
                sys.clauses.push(c);
            }
            other => {
                return Err(ProgError::Unsupported(format!(
                    "command `{other}` at line {}",
                    line_of(text, f.span.start)
                )))
            }
        }
    }
    Ok(sys)
}

fn pred_index(sys: &HornSystem, name: &str) -> Option<usize> {
    sys.preds.iter().position(|p| p.name == name)
}

/// A predicate application, if `e` is one.
fn as_app(sys: &HornSystem, e: &SExpr) -> Result<Option<App>, ProgError> {
    let (p, args) = if let Some(s) = e.symbol() {
        match pred_index(sys, s) {
            Some(p) => (p, Vec::new()),
            None => return Ok(None),
        }
    } else {
        match e.list().and_then(|l| l.split_first()) {
            Some((h, rest)) => match h.symbol().and_then(|s| pred_index(sys, s)) {
                Some(p) => (p, rest.to_vec()),
                None => return Ok(None),
            },
            None => return Ok(None),
        }
    };
    let arity = sys.preds.get(p).map(|q| q.bools.len()).unwrap_or(0);
    if args.len() != arity {
        return Err(input(
            e.span,
            format!(
                "predicate applied to {} arguments, declared with {arity}",
                args.len()
            ),
        ));
    }
    Ok(Some(App { pred: p, args }))
}

fn clause(sys: &HornSystem, t: &SExpr, span: Span, text: &str) -> Result<Clause, ProgError> {
    let mut vars = Vec::new();
    let matrix = if head_symbol(t) == Some("forall") {
        let l = t.list().unwrap_or(&[]);
        let (Some(bs), Some(m), 3) = (l.get(1), l.get(2), l.len()) else {
            return Err(input(t.span, "expected `(forall ((x S) …) term)`"));
        };
        for b in bs.list().unwrap_or(&[]) {
            match b.list() {
                Some([n, s]) => {
                    let Some(n) = n.symbol() else {
                        return Err(input(n.span, "expected a variable name"));
                    };
                    vars.push((n.to_string(), sort_is_bool(s, text)?));
                }
                _ => return Err(input(b.span, "expected `(name Sort)`")),
            }
        }
        m
    } else {
        t
    };
    let mut nodes = 0usize;
    let m = expand_lets(matrix, &mut Vec::new(), &mut nodes, 0)?;
    let (body, head) = match m.list() {
        Some([h, b, hd]) if h.symbol() == Some("=>") => (Some(b.clone()), hd.clone()),
        _ => (None, m.clone()),
    };
    let head_app = if head.symbol() == Some("false") {
        None
    } else {
        match as_app(sys, &head)? {
            Some(a) => Some(a),
            None => {
                return Err(ProgError::Unsupported(format!(
                    "clause at line {}: the head is neither a predicate application nor false",
                    line_of(text, span.start)
                )))
            }
        }
    };
    let mut apps = Vec::new();
    let mut constraint = Vec::new();
    let mut stack: Vec<SExpr> = body.into_iter().collect();
    while let Some(e) = stack.pop() {
        if head_symbol(&e) == Some("and") {
            stack.extend(e.list().unwrap_or(&[]).iter().skip(1).rev().cloned());
            continue;
        }
        if e.symbol() == Some("true") {
            continue;
        }
        match as_app(sys, &e)? {
            Some(a) => apps.push(a),
            None => constraint.push(e),
        }
    }
    Ok(Clause {
        vars,
        body: apps,
        constraint,
        head: head_app,
        matrix: matrix.span,
        span,
    })
}

/// Substitutes `let` bindings (parallel, innermost first).
fn expand_lets(
    e: &SExpr,
    env: &mut Vec<(String, SExpr)>,
    nodes: &mut usize,
    depth: usize,
) -> Result<SExpr, ProgError> {
    *nodes += 1;
    if *nodes > MAX_NODES {
        return Err(ProgError::Unsupported(
            "clause too large after `let` expansion".into(),
        ));
    }
    if depth > MAX_DEPTH {
        return Err(ProgError::Unsupported(format!(
            "a clause nested deeper than {MAX_DEPTH} levels"
        )));
    }
    if let Some(s) = e.symbol() {
        if let Some((_, v)) = env.iter().rev().find(|(n, _)| n == s) {
            *nodes += 1;
            return Ok(v.clone());
        }
        return Ok(e.clone());
    }
    let Some(items) = e.list() else {
        return Ok(e.clone());
    };
    match head_symbol(e) {
        Some("let") => {
            let (Some(bs), Some(body), 3) = (items.get(1), items.get(2), items.len()) else {
                return Err(input(e.span, "expected `(let ((x t) …) term)`"));
            };
            let mut bound = Vec::new();
            for b in bs.list().unwrap_or(&[]) {
                match b.list() {
                    Some([n, v]) => {
                        let Some(n) = n.symbol() else {
                            return Err(input(n.span, "expected a variable name"));
                        };
                        bound.push((n.to_string(), expand_lets(v, env, nodes, depth + 1)?));
                    }
                    _ => return Err(input(b.span, "expected `(name term)`")),
                }
            }
            let k = bound.len();
            env.extend(bound);
            let r = expand_lets(body, env, nodes, depth + 1);
            env.truncate(env.len() - k);
            r
        }
        Some("forall") | Some("exists") => Err(ProgError::Unsupported(format!(
            "nested quantifier at byte {}",
            e.span.start
        ))),
        _ => {
            let mut out = Vec::with_capacity(items.len());
            for i in items {
                out.push(expand_lets(i, env, nodes, depth + 1)?);
            }
            Ok(SExpr {
                kind: SExprKind::List(out),
                span: e.span,
            })
        }
    }
}

/// A numeral's value.
pub(crate) fn numeral(e: &SExpr) -> Option<i128> {
    match &e.kind {
        SExprKind::Atom(TokenKind::Numeral(n)) => n.parse::<i128>().ok(),
        _ => None,
    }
}

/// A symbol node (for terms the preprocessing builds; `span` locates it in the file).
pub(crate) fn symbol(name: &str, span: Span) -> SExpr {
    SExpr {
        kind: SExprKind::Atom(TokenKind::Symbol(name.to_string())),
        span,
    }
}

/// The application `(op args…)` (for terms the preprocessing builds).
pub(crate) fn apply(op: &str, args: Vec<SExpr>, span: Span) -> SExpr {
    let mut items = vec![symbol(op, span)];
    items.extend(args);
    SExpr {
        kind: SExprKind::List(items),
        span,
    }
}

/// `e` with every symbol in `map` replaced (clause terms have no binders after `let`
/// expansion, so this is capture-free).
pub(crate) fn substitute(e: &SExpr, map: &std::collections::HashMap<String, SExpr>) -> SExpr {
    if let Some(s) = e.symbol() {
        return map.get(s).cloned().unwrap_or_else(|| e.clone());
    }
    match &e.kind {
        SExprKind::List(items) => SExpr {
            kind: SExprKind::List(items.iter().map(|i| substitute(i, map)).collect()),
            span: e.span,
        },
        SExprKind::Atom(_) => e.clone(),
    }
}

/// Whether the symbol `name` occurs in `e`.
pub(crate) fn mentions(e: &SExpr, name: &str) -> bool {
    match &e.kind {
        SExprKind::Atom(TokenKind::Symbol(s)) => s == name,
        SExprKind::List(items) => items.iter().any(|i| mentions(i, name)),
        SExprKind::Atom(_) => false,
    }
}

/// Number of nodes of `e`.
pub(crate) fn size(e: &SExpr) -> usize {
    match &e.kind {
        SExprKind::List(items) => 1 + items.iter().map(size).sum::<usize>(),
        SExprKind::Atom(_) => 1,
    }
}

/// SMT-LIB text of a term (symbols quoted with `|…|` unless simple).
pub(crate) fn print(e: &SExpr) -> String {
    let mut s = String::new();
    print_into(e, &mut s);
    s
}

fn print_into(e: &SExpr, out: &mut String) {
    match &e.kind {
        SExprKind::List(items) => {
            out.push('(');
            for (i, it) in items.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                print_into(it, out);
            }
            out.push(')');
        }
        SExprKind::Atom(t) => match t {
            TokenKind::Symbol(s) => {
                let simple = !s.is_empty()
                    && !s.as_bytes()[0].is_ascii_digit()
                    && s.bytes()
                        .all(|c| c.is_ascii_alphanumeric() || b"~!@$%^&*_-+=<>.?/".contains(&c));
                if simple {
                    out.push_str(s);
                } else {
                    out.push('|');
                    out.push_str(s);
                    out.push('|');
                }
            }
            TokenKind::Numeral(n) | TokenKind::Decimal(n) => out.push_str(n),
            TokenKind::Hex(n) => {
                out.push_str("#x");
                out.push_str(n);
            }
            TokenKind::Binary(n) => {
                out.push_str("#b");
                out.push_str(n);
            }
            TokenKind::Str(n) => {
                out.push('"');
                out.push_str(n);
                out.push('"');
            }
            TokenKind::Keyword(k) => {
                out.push(':');
                out.push_str(k);
            }
            TokenKind::LParen => out.push('('),
            TokenKind::RParen => out.push(')'),
        },
    }
}

/// The value of a clause term under values of its variables (`Bool` as 0/1): the integer and
/// Boolean operators of CHC-COMP's linear arithmetic; `None` for anything else or an overflow.
pub(crate) fn eval(e: &SExpr, env: &dyn Fn(&str) -> Option<i128>) -> Option<i128> {
    if let Some(n) = numeral(e) {
        return Some(n);
    }
    if let Some(s) = e.symbol() {
        return match s {
            "true" => Some(1),
            "false" => Some(0),
            _ => env(s),
        };
    }
    let (op, args) = e.list()?.split_first()?;
    let op = op.symbol()?;
    let v = |i: usize| args.get(i).and_then(|a| eval(a, env));
    let all = || {
        args.iter()
            .map(|a| eval(a, env))
            .collect::<Option<Vec<i128>>>()
    };
    let b = |c: bool| Some(i128::from(c));
    match op {
        "+" => all()?.into_iter().try_fold(0i128, |a, x| a.checked_add(x)),
        "*" => all()?.into_iter().try_fold(1i128, |a, x| a.checked_mul(x)),
        "-" => {
            let xs = all()?;
            match xs.split_first()? {
                (x, []) => x.checked_neg(),
                (x, rest) => rest.iter().try_fold(*x, |a, y| a.checked_sub(*y)),
            }
        }
        "div" | "mod" => {
            let (a, d) = (v(0)?, v(1)?);
            if d == 0 || args.len() != 2 {
                return None;
            }
            // SMT-LIB's Euclidean division: 0 ≤ a mod d < |d|.
            let r = a.checked_rem_euclid(d)?;
            if op == "mod" {
                Some(r)
            } else {
                a.checked_sub(r)?.checked_div(d)
            }
        }
        "abs" => v(0)?.checked_abs(),
        "ite" => {
            if v(0)? != 0 {
                v(1)
            } else {
                v(2)
            }
        }
        "not" => b(v(0)? == 0),
        "and" => b(all()?.iter().all(|&x| x != 0)),
        "or" => b(all()?.iter().any(|&x| x != 0)),
        "xor" => b(all()?.iter().filter(|&&x| x != 0).count() % 2 == 1),
        "=>" => {
            let xs = all()?;
            let (last, init) = xs.split_last()?;
            b(init.contains(&0) || *last != 0)
        }
        "=" | "<=" | "<" | ">=" | ">" => {
            let xs = all()?;
            let ok = xs.windows(2).all(|w| match op {
                "=" => w[0] == w[1],
                "<=" => w[0] <= w[1],
                "<" => w[0] < w[1],
                ">=" => w[0] >= w[1],
                _ => w[0] > w[1],
            });
            b(ok && xs.len() >= 2)
        }
        "distinct" => {
            let xs = all()?;
            b(xs.iter()
                .enumerate()
                .all(|(i, x)| xs.iter().skip(i + 1).all(|y| y != x)))
        }
        _ => None,
    }
}
