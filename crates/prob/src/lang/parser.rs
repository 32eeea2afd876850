//! Recursive-descent parser for PRISM model files and property files (PRISM manual, "The PRISM
//! Language", "Property Specification"). Operator precedence follows PRISM: `? :` < `<=>` < `=>`
//! < `|` < `&` < `!` < relations < `+ -` < `* /` < unary minus.

use super::ast::*;
use super::lexer::{lex, Tok, Token};
use verikit_diag::{Diagnostic, Span};

const MAX_DEPTH: usize = 400;

struct Parser<'a> {
    toks: Vec<Token>,
    pos: usize,
    depth: usize,
    _text: &'a str,
}

type PResult<T> = Result<T, Diagnostic>;

const KEYWORDS: &[&str] = &[
    "module",
    "endmodule",
    "const",
    "int",
    "double",
    "bool",
    "rate",
    "prob",
    "formula",
    "label",
    "global",
    "init",
    "endinit",
    "rewards",
    "endrewards",
    "true",
    "false",
    "dtmc",
    "ctmc",
    "mdp",
    "idtmc",
    "imdp",
    "probabilistic",
    "stochastic",
    "nondeterministic",
    "system",
    "endsystem",
];

impl<'a> Parser<'a> {
    fn new(text: &'a str) -> PResult<Self> {
        Ok(Parser {
            toks: lex(text)?,
            pos: 0,
            depth: 0,
            _text: text,
        })
    }
    fn peek(&self) -> &Tok {
        &self.toks[self.pos.min(self.toks.len() - 1)].tok
    }
    fn peek_at(&self, k: usize) -> &Tok {
        &self.toks[(self.pos + k).min(self.toks.len() - 1)].tok
    }
    fn span(&self) -> Span {
        self.toks[self.pos.min(self.toks.len() - 1)].span
    }
    fn prev_end(&self) -> usize {
        if self.pos == 0 {
            0
        } else {
            self.toks[(self.pos - 1).min(self.toks.len() - 1)].span.end
        }
    }
    fn bump(&mut self) -> Token {
        let t = self.toks[self.pos.min(self.toks.len() - 1)].clone();
        if self.pos < self.toks.len() - 1 {
            self.pos += 1;
        }
        t
    }
    fn is_sym(&self, s: &str) -> bool {
        matches!(self.peek(), Tok::Sym(x) if *x == s)
    }
    fn is_kw(&self, s: &str) -> bool {
        matches!(self.peek(), Tok::Ident(x) if x == s)
    }
    fn eat_sym(&mut self, s: &str) -> bool {
        if self.is_sym(s) {
            self.bump();
            true
        } else {
            false
        }
    }
    fn eat_kw(&mut self, s: &str) -> bool {
        if self.is_kw(s) {
            self.bump();
            true
        } else {
            false
        }
    }
    fn describe(&self) -> String {
        match self.peek() {
            Tok::Ident(s) => format!("`{s}`"),
            Tok::Int(i) => format!("`{i}`"),
            Tok::Real(r) => format!("`{r}`"),
            Tok::Str(s) => format!("\"{s}\""),
            Tok::Sym(s) => format!("`{s}`"),
            Tok::Eof => "end of input".into(),
        }
    }
    fn err<T>(&self, expected: &str) -> PResult<T> {
        Err(Diagnostic::at(
            self.span(),
            format!("expected {expected}, found {}", self.describe()),
        )
        .with_span(self.span(), format!("expected {expected}")))
    }
    fn expect_sym(&mut self, s: &str) -> PResult<Span> {
        if self.is_sym(s) {
            Ok(self.bump().span)
        } else {
            self.err(&format!("`{s}`"))
        }
    }
    fn expect_kw(&mut self, s: &str) -> PResult<Span> {
        if self.is_kw(s) {
            Ok(self.bump().span)
        } else {
            self.err(&format!("`{s}`"))
        }
    }
    /// `system … endsystem` (PRISM manual, "Process Algebra Operators"): `||` binds weakest, then
    /// `|||`, then `|[a,b]|`; hiding `/{a}` and renaming `{a<-b}` bind tightest.
    fn sys_full(&mut self, depth: usize) -> PResult<SysExpr> {
        if depth > 100 {
            return Err(Diagnostic::at(
                self.span(),
                "system expression nested too deeply",
            ));
        }
        let mut parts = vec![self.sys_inter(depth)?];
        while self.is_sym("|")
            && matches!(self.peek_at(1), Tok::Sym("|"))
            && !matches!(self.peek_at(2), Tok::Sym("|"))
        {
            self.bump();
            self.bump();
            parts.push(self.sys_inter(depth)?);
        }
        Ok(if parts.len() == 1 {
            parts.swap_remove(0)
        } else {
            SysExpr::Full(parts)
        })
    }
    fn sys_inter(&mut self, depth: usize) -> PResult<SysExpr> {
        let mut parts = vec![self.sys_restr(depth)?];
        while self.is_sym("|")
            && matches!(self.peek_at(1), Tok::Sym("|"))
            && matches!(self.peek_at(2), Tok::Sym("|"))
        {
            self.bump();
            self.bump();
            self.bump();
            parts.push(self.sys_restr(depth)?);
        }
        Ok(if parts.len() == 1 {
            parts.swap_remove(0)
        } else {
            SysExpr::Interleave(parts)
        })
    }
    fn sys_restr(&mut self, depth: usize) -> PResult<SysExpr> {
        let mut a = self.sys_post(depth)?;
        while self.is_sym("|") && matches!(self.peek_at(1), Tok::Sym("[")) {
            self.bump();
            self.bump();
            let mut acts = Vec::new();
            if !self.is_sym("]") {
                loop {
                    acts.push(self.ident()?);
                    if !self.eat_sym(",") {
                        break;
                    }
                }
            }
            self.expect_sym("]")?;
            self.expect_sym("|")?;
            let b = self.sys_post(depth)?;
            a = SysExpr::Restricted(Box::new(a), acts, Box::new(b));
        }
        Ok(a)
    }
    fn sys_post(&mut self, depth: usize) -> PResult<SysExpr> {
        let mut t = if self.eat_sym("(") {
            let t = self.sys_full(depth + 1)?;
            self.expect_sym(")")?;
            t
        } else {
            let (n, sp) = self.ident()?;
            SysExpr::Module(n, sp)
        };
        loop {
            if self.eat_sym("/") {
                self.expect_sym("{")?;
                let mut acts = Vec::new();
                if !self.is_sym("}") {
                    loop {
                        acts.push(self.ident()?);
                        if !self.eat_sym(",") {
                            break;
                        }
                    }
                }
                self.expect_sym("}")?;
                t = SysExpr::Hide(Box::new(t), acts);
            } else if self.eat_sym("{") {
                let mut pairs = Vec::new();
                loop {
                    let (a, asp) = self.ident()?;
                    self.expect_sym("<")?;
                    self.expect_sym("-")?;
                    let (b, bsp) = self.ident()?;
                    pairs.push((a, b, asp.join(bsp)));
                    if !self.eat_sym(",") {
                        break;
                    }
                }
                self.expect_sym("}")?;
                t = SysExpr::Rename(Box::new(t), pairs);
            } else {
                return Ok(t);
            }
        }
    }

    fn sys_modules<'e>(t: &'e SysExpr, out: &mut Vec<(&'e str, Span)>) {
        match t {
            SysExpr::Module(n, sp) => out.push((n, *sp)),
            SysExpr::Full(v) | SysExpr::Interleave(v) => {
                v.iter().for_each(|x| Self::sys_modules(x, out))
            }
            SysExpr::Restricted(a, _, b) => {
                Self::sys_modules(a, out);
                Self::sys_modules(b, out)
            }
            SysExpr::Hide(a, _) | SysExpr::Rename(a, _) => Self::sys_modules(a, out),
        }
    }

    /// The system block must list every module exactly once (then it equals the default).
    fn check_system(mf: &ModelFile, sys: &SysExpr, block: Span) -> PResult<()> {
        let mut names = Vec::new();
        Self::sys_modules(sys, &mut names);
        let declared: Vec<&str> = mf
            .modules
            .iter()
            .map(|m| match m {
                ModuleDecl::Plain(m) => m.name.as_str(),
                ModuleDecl::Renamed(r) => r.name.as_str(),
            })
            .collect();
        for (i, (n, sp)) in names.iter().enumerate() {
            if !declared.contains(n) {
                return Err(Diagnostic::at(
                    *sp,
                    format!("unknown module `{n}` in the system block"),
                ));
            }
            if names[..i].iter().any(|(m, _)| m == n) {
                return Err(Diagnostic::at(
                    *sp,
                    format!("module `{n}` appears twice in the system block"),
                ));
            }
        }
        if let Some(missing) = declared
            .iter()
            .find(|d| !names.iter().any(|(n, _)| n == *d))
        {
            return Err(Diagnostic::at(
                block,
                format!(
                    "module `{missing}` is missing from the system block (PRISM requires every \
                     module exactly once)"
                ),
            ));
        }
        Ok(())
    }

    fn ident(&mut self) -> PResult<(String, Span)> {
        match self.peek().clone() {
            Tok::Ident(s) if !KEYWORDS.contains(&s.as_str()) => {
                let sp = self.bump().span;
                Ok((s, sp))
            }
            _ => self.err("an identifier"),
        }
    }
    fn string(&mut self) -> PResult<(String, Span)> {
        match self.peek().clone() {
            Tok::Str(s) => {
                let sp = self.bump().span;
                Ok((s, sp))
            }
            _ => self.err("a quoted name"),
        }
    }

    // ---------------------------------------------------------------- expressions

    fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(Diagnostic::at(self.span(), "expression nested too deeply"));
        }
        Ok(())
    }

    pub(crate) fn expr(&mut self) -> PResult<Expr> {
        self.enter()?;
        let r = self.ite();
        self.depth -= 1;
        r
    }

    fn ite(&mut self) -> PResult<Expr> {
        let c = self.iff()?;
        if self.eat_sym("?") {
            let a = self.expr()?;
            self.expect_sym(":")?;
            let b = self.expr()?;
            let sp = c.span.join(b.span);
            return Ok(Expr::new(
                ExprKind::Ite(Box::new(c), Box::new(a), Box::new(b)),
                sp,
            ));
        }
        Ok(c)
    }

    fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
        let sp = a.span.join(b.span);
        Expr::new(ExprKind::Binary(op, Box::new(a), Box::new(b)), sp)
    }

    /// One left-associative precedence level: `operand (op operand)*` over the operators of
    /// `ops` (PRISM's `Expression.Precedence` levels, loosest first: `<=>`, `|`, `&`, the
    /// relations, `+ -`, `* /`). Inlined so that each level stays one stack frame.
    #[inline(always)]
    fn left_assoc(
        &mut self,
        ops: &[(&str, BinOp)],
        operand: impl Fn(&mut Self) -> PResult<Expr>,
    ) -> PResult<Expr> {
        let mut a = operand(self)?;
        loop {
            let Some(&(_, op)) = ops.iter().find(|(s, _)| self.is_sym(s)) else {
                return Ok(a);
            };
            self.bump();
            let b = operand(self)?;
            a = Self::bin(op, a, b);
        }
    }

    fn iff(&mut self) -> PResult<Expr> {
        self.left_assoc(&[("<=>", BinOp::Iff)], Self::implies)
    }
    fn implies(&mut self) -> PResult<Expr> {
        let a = self.or()?;
        if self.eat_sym("=>") {
            self.enter()?;
            let b = self.implies()?;
            self.depth -= 1;
            return Ok(Self::bin(BinOp::Implies, a, b));
        }
        Ok(a)
    }
    fn or(&mut self) -> PResult<Expr> {
        self.left_assoc(&[("|", BinOp::Or)], Self::and)
    }
    fn and(&mut self) -> PResult<Expr> {
        self.left_assoc(&[("&", BinOp::And)], Self::not)
    }
    fn not(&mut self) -> PResult<Expr> {
        if self.is_sym("!") {
            let sp = self.bump().span;
            self.enter()?;
            let a = self.not()?;
            self.depth -= 1;
            let s = sp.join(a.span);
            return Ok(Expr::new(ExprKind::Unary(UnOp::Not, Box::new(a)), s));
        }
        self.rel()
    }
    // Inlined into its callers (`not` and `ltl_atom`) as when `not` was its only caller: one
    // frame fewer per nesting level keeps the deepest allowed expression within a test
    // thread's stack.
    #[inline(always)]
    fn rel(&mut self) -> PResult<Expr> {
        const REL: &[(&str, BinOp)] = &[
            ("=", BinOp::Eq),
            ("!=", BinOp::Ne),
            ("<", BinOp::Lt),
            ("<=", BinOp::Le),
            (">", BinOp::Gt),
            (">=", BinOp::Ge),
        ];
        self.left_assoc(REL, Self::add)
    }
    fn add(&mut self) -> PResult<Expr> {
        self.left_assoc(&[("+", BinOp::Add), ("-", BinOp::Sub)], Self::mul)
    }
    fn mul(&mut self) -> PResult<Expr> {
        self.left_assoc(&[("*", BinOp::Mul), ("/", BinOp::Div)], Self::power)
    }
    /// `a ^ b`, PRISM's power operator (the same as `pow(a, b)`): it binds tighter than `*` and
    /// `/` but less tightly than unary minus (PRISM's `Expression.Precedence`: TIMES_DIVIDE <
    /// POW < UNARY_MINUS), so `-2^2` is `(-2)^2`; `2^3^2` is `2^(3^2)`.
    fn power(&mut self) -> PResult<Expr> {
        let a = self.unary()?;
        // `^{` starts a reward bound (`F^{rew{"r"}<=b}`), never a power.
        if self.is_sym("^") && !matches!(self.peek_at(1), Tok::Sym("{")) {
            self.bump();
            self.enter()?;
            let b = self.power()?;
            self.depth -= 1;
            let sp = a.span.join(b.span);
            return Ok(Expr::new(ExprKind::Call(Func::Pow, vec![a, b]), sp));
        }
        Ok(a)
    }
    fn unary(&mut self) -> PResult<Expr> {
        if self.is_sym("-") {
            let sp = self.bump().span;
            self.enter()?;
            let a = self.unary()?;
            self.depth -= 1;
            let s = sp.join(a.span);
            return Ok(Expr::new(ExprKind::Unary(UnOp::Neg, Box::new(a)), s));
        }
        self.atom()
    }

    fn atom(&mut self) -> PResult<Expr> {
        let start = self.span();
        match self.peek().clone() {
            Tok::Int(i) => {
                self.bump();
                Ok(Expr::new(ExprKind::Int(i), start))
            }
            Tok::Real(r) => {
                self.bump();
                Ok(Expr::new(ExprKind::Real(r), start))
            }
            Tok::Str(s) => {
                self.bump();
                Ok(Expr::new(ExprKind::Label(s), start))
            }
            Tok::Sym("(") => {
                self.bump();
                let e = self.expr()?;
                self.expect_sym(")")?;
                Ok(Expr::new(e.kind, Span::new(start.start, self.prev_end())))
            }
            Tok::Ident(s) => match s.as_str() {
                "true" | "false" => {
                    self.bump();
                    Ok(Expr::boolean(s == "true", start))
                }
                "P" | "Pmin" | "Pmax" | "Pmaxmin" | "Pminmax" | "Pmaxmax" | "Pminmin" => {
                    self.prob_op()
                }
                "R" | "Rmin" | "Rmax" | "Rmaxmin" | "Rminmax" | "Rmaxmax" | "Rminmin" => {
                    self.reward_op()
                }
                "T" | "Tmin" | "Tmax"
                    if (matches!(self.peek_at(1), Tok::Sym("="))
                        && matches!(self.peek_at(2), Tok::Sym("?")))
                        || (s == "T"
                            && matches!(self.peek_at(1), Tok::Ident(x) if x == "min" || x == "max")
                            && matches!(self.peek_at(2), Tok::Sym("="))) =>
                {
                    self.reward_op()
                }
                "S" if matches!(
                    self.peek_at(1),
                    Tok::Sym("=") | Tok::Sym("<") | Tok::Sym(">") | Tok::Sym("<=") | Tok::Sym(">=")
                ) =>
                {
                    self.steady_op()
                }
                "filter" if matches!(self.peek_at(1), Tok::Sym("(")) => self.filter(),
                "A" | "E" if matches!(self.peek_at(1), Tok::Sym("[")) => self.ctl_op(),
                "func" if matches!(self.peek_at(1), Tok::Sym("(")) => {
                    self.bump();
                    self.bump();
                    let (name, nsp) = match self.peek().clone() {
                        Tok::Ident(n) => (n, self.bump().span),
                        _ => return self.err("a function name"),
                    };
                    let f = match Func::from_name(&name) {
                        Some(f) => f,
                        None => {
                            return Err(Diagnostic::at(nsp, format!("unknown function `{name}`")))
                        }
                    };
                    let mut args = Vec::new();
                    while self.eat_sym(",") {
                        args.push(self.expr()?);
                    }
                    self.expect_sym(")")?;
                    self.check_arity(f, args.len(), Span::new(start.start, self.prev_end()))?;
                    Ok(Expr::new(
                        ExprKind::Call(f, args),
                        Span::new(start.start, self.prev_end()),
                    ))
                }
                _ => {
                    if let Some(f) = Func::from_name(&s) {
                        if matches!(self.peek_at(1), Tok::Sym("(")) {
                            self.bump();
                            self.bump();
                            let mut args = vec![self.expr()?];
                            while self.eat_sym(",") {
                                args.push(self.expr()?);
                            }
                            self.expect_sym(")")?;
                            let sp = Span::new(start.start, self.prev_end());
                            self.check_arity(f, args.len(), sp)?;
                            return Ok(Expr::new(ExprKind::Call(f, args), sp));
                        }
                    }
                    let (name, sp) = self.ident()?;
                    Ok(Expr::new(ExprKind::Ident(name), sp))
                }
            },
            _ => self.err("an expression"),
        }
    }

    fn check_arity(&self, f: Func, n: usize, sp: Span) -> PResult<()> {
        let ok = match f {
            Func::Min | Func::Max => n >= 1,
            Func::Floor | Func::Ceil | Func::Round => n == 1,
            Func::Pow | Func::Mod | Func::Log => n == 2,
        };
        if ok {
            Ok(())
        } else {
            Err(Diagnostic::at(
                sp,
                format!("wrong number of arguments ({n}) for {f:?}"),
            ))
        }
    }

    /// The controller's direction; for interval models `Pmaxmin`/`Pminmax` (PRISM's robust
    /// operators) the environment resolves the intervals in the opposite direction.
    fn opt_of(s: &str) -> Opt {
        // `maxmin` ends in `min`, so it is tested first.
        if s.ends_with("maxmin") {
            Opt::Max
        } else if s.ends_with("minmax") || s.ends_with("min") {
            Opt::Min
        } else if s.ends_with("max") {
            Opt::Max
        } else {
            Opt::None
        }
    }

    fn bound(&mut self) -> PResult<Bound> {
        if self.eat_sym("=") {
            self.expect_sym("?")?;
            return Ok(Bound::Query);
        }
        let op = match self.peek() {
            Tok::Sym("<") => CmpOp::Lt,
            Tok::Sym("<=") => CmpOp::Le,
            Tok::Sym(">") => CmpOp::Gt,
            Tok::Sym(">=") => CmpOp::Ge,
            _ => return self.err("`=?` or a bound like `>=0.5`"),
        };
        self.bump();
        let e = self.power()?;
        Ok(Bound::Cmp(op, Box::new(e)))
    }

    // Kept out of `atom`, whose stack frame bounds the nesting depth the parser can take.
    #[inline(never)]
    fn prob_op(&mut self) -> PResult<Expr> {
        let (name, start) = match self.peek().clone() {
            Tok::Ident(n) => (n, self.bump().span),
            _ => return self.err("`P`"),
        };
        let opt = self.opt_suffix(&name);
        let bound = self.bound()?;
        self.expect_sym("[")?;
        let path = self.path()?;
        self.close_operator(
            start,
            ExprKind::Prob {
                opt,
                bound,
                path: Box::new(path),
            },
        )
    }

    /// The end of an operator `P`/`R`/`S […]` after its path: an old-style filter, the `]`,
    /// and the expression spanning from `start`.
    fn close_operator(&mut self, start: Span, kind: ExprKind) -> PResult<Expr> {
        let old = self.old_filter()?;
        self.expect_sym("]")?;
        let e = Expr::new(kind, Span::new(start.start, self.prev_end()));
        Ok(Self::wrap_old_filter(e, old))
    }

    /// `min`/`max` written after the operator's name (`P min=?`, `R{"r"}max=?`) and, for
    /// interval models, `minmax`/`maxmin`/`minmin`/`maxmax` (controller, then nature), when the
    /// name itself (`Pmax`) carries none.
    fn opt_suffix(&mut self, name: &str) -> Opt {
        let opt = Self::opt_of(name);
        if opt != Opt::None {
            return opt;
        }
        match self.peek().clone() {
            Tok::Ident(w)
                if matches!(
                    w.as_str(),
                    "min" | "max" | "minmax" | "maxmin" | "minmin" | "maxmax"
                ) =>
            {
                self.bump();
                Self::opt_of(&w)
            }
            _ => Opt::None,
        }
    }

    /// PRISM's old-style filter inside an operator, `P=? [ F x=2 {x=0}{min} ]`: `{states}`
    /// optionally followed by `{min}` and/or `{max}` (PRISM manual, "Filters": equivalent to
    /// `filter(min, P=? [ F x=2 ], x=0)`; without `{min}`/`{max}` to `filter(state, …)`).
    // Kept out of `atom`, whose stack frame bounds the nesting depth the parser can take.
    #[inline(never)]
    fn old_filter(&mut self) -> PResult<Option<(String, Expr)>> {
        if !self.eat_sym("{") {
            return Ok(None);
        }
        let states = self.expr()?;
        self.expect_sym("}")?;
        let (mut min, mut max) = (false, false);
        while self.is_sym("{") {
            let sp = self.bump().span;
            if self.eat_kw("min") {
                min = true;
            } else if self.eat_kw("max") {
                max = true;
            } else {
                return self.err("`min` or `max`");
            }
            self.expect_sym("}")?;
            if min && max {
                return Err(Diagnostic::at(
                    Span::new(sp.start, self.prev_end()),
                    "the old-style filter `{min}{max}` (a range of values) is not supported; \
                     use `filter(min, …)` and `filter(max, …)`",
                ));
            }
        }
        let op = if min {
            "min"
        } else if max {
            "max"
        } else {
            "state"
        };
        Ok(Some((op.to_string(), states)))
    }

    fn wrap_old_filter(e: Expr, old: Option<(String, Expr)>) -> Expr {
        match old {
            None => e,
            Some((op, states)) => {
                let sp = e.span;
                Expr::new(
                    ExprKind::Filter {
                        op,
                        prop: Box::new(e),
                        states: Some(Box::new(states)),
                    },
                    sp,
                )
            }
        }
    }

    // Kept out of `atom`, whose stack frame bounds the nesting depth the parser can take.
    #[inline(never)]
    fn time_bound(&mut self) -> PResult<TimeBound> {
        let mut tb = TimeBound::default();
        if self.is_sym("^") || self.is_sym("{") {
            // `^{rew{"r"}<=b}` (PRISM/JANI style) or `{"r"}<=b` (Storm style).
            let start = self.span();
            let caret = self.eat_sym("^");
            let rew = if caret {
                self.expect_sym("{")?;
                match self.peek().clone() {
                    Tok::Ident(k) if k == "rew" => {
                        self.bump();
                        self.expect_sym("{")?;
                        let r = self.reward_ref_inner()?;
                        self.expect_sym("}")?;
                        r
                    }
                    _ => return self.err("`rew{\"name\"}`"),
                }
            } else {
                self.expect_sym("{")?;
                let r = self.reward_ref_inner()?;
                self.expect_sym("}")?;
                r
            };
            let (upper, strict) = match self.peek() {
                Tok::Sym("<=") => (true, false),
                Tok::Sym("<") => (true, true),
                Tok::Sym(">=") => (false, false),
                Tok::Sym(">") => (false, true),
                _ => return self.err("a reward bound `<=b`, `<b`, `>=b` or `>b`"),
            };
            self.bump();
            let bound = Box::new(self.power()?);
            if caret {
                if self.is_sym(",") {
                    return Err(Diagnostic::at(
                        self.span(),
                        "several bounds on one path formula are not supported",
                    ));
                }
                self.expect_sym("}")?;
            }
            tb.reward_bound = Some(Span::new(start.start, self.prev_end()));
            tb.reward = Some(RewardBound {
                rew,
                upper,
                strict,
                bound,
                span: Span::new(start.start, self.prev_end()),
            });
            return Ok(tb);
        }
        match self.peek() {
            Tok::Sym("<=") | Tok::Sym("<") => {
                let strict = self.is_sym("<");
                self.bump();
                tb.upper = Some((Box::new(self.power()?), strict));
            }
            Tok::Sym(">=") | Tok::Sym(">") => {
                let strict = self.is_sym(">");
                self.bump();
                tb.lower = Some((Box::new(self.power()?), strict));
            }
            Tok::Sym("=") => {
                // `F=T`: exactly at time T, i.e. `[T,T]`.
                self.bump();
                let t = self.power()?;
                tb.lower = Some((Box::new(t.clone()), false));
                tb.upper = Some((Box::new(t), false));
            }
            Tok::Sym("[") => {
                self.bump();
                let a = self.expr()?;
                self.expect_sym(",")?;
                let b = self.expr()?;
                self.expect_sym("]")?;
                tb.lower = Some((Box::new(a), false));
                tb.upper = Some((Box::new(b), false));
            }
            _ => {}
        }
        Ok(tb)
    }

    /// The path formula of `R[…]` other than `C`, `I=` and `S`: `F φ` over a state formula is
    /// a reachability reward (unbounded, as PRISM wants it); any other temporal formula is kept
    /// as LTL for the co-safe LTL reward (PRISM's `checkRewardPathFormula`), whose checker
    /// refuses formulas that are not syntactically co-safe.
    #[inline(never)]
    fn reward_path_formula(&mut self, psp: Span) -> PResult<RewardPath> {
        let l = self.ltl_binary()?;
        let end = self.prev_end();
        Ok(match l {
            Ltl::Atom(_) => {
                return Err(Diagnostic::at(
                    Span::new(psp.start, end.max(psp.end)),
                    "expected `F`, `C`, `C<=`, `I=`, `S` or a co-safe LTL formula inside `R[…]`, \
                     found a state formula",
                ))
            }
            Ltl::Finally(a, tb, _) if matches!(*a, Ltl::Atom(_)) => {
                if !tb.is_none() || tb.reward.is_some() {
                    return Err(Diagnostic::at(
                        psp,
                        "bounded reachability rewards are not supported",
                    ));
                }
                match *a {
                    Ltl::Atom(e) => RewardPath::Reach(e),
                    other => RewardPath::Ltl(Box::new(other), psp),
                }
            }
            other => RewardPath::Ltl(Box::new(other), Span::new(psp.start, end.max(psp.end))),
        })
    }

    // Kept out of `atom`, whose stack frame bounds the nesting depth the parser can take.
    /// A path formula inside `P[…]`/`A[…]`/`E[…]`, parsed with PRISM's grammar for LTL
    /// (`PrismParser.jj`: `U`/`W`/`R` bind loosest and do not associate, `X`/`F`/`G` apply to
    /// what follows up to the next binary temporal operator, and temporal operators inside
    /// Boolean ones need parentheses: `(F a) & (G b)`). The PCTL shapes (`X φ`, `F φ`, `G φ`,
    /// `φ U ψ`, `φ W ψ`, `φ R ψ` over state formulas) become their [`PathFormula`] variants as
    /// before; everything else is a [`PathFormula::Ltl`].
    #[inline(never)]
    fn path(&mut self) -> PResult<PathFormula> {
        let l = self.ltl_binary()?;
        let atom = |l: Box<Ltl>| match *l {
            Ltl::Atom(e) => Ok(e),
            other => Err(Box::new(other)),
        };
        let back =
            |r: Result<Box<Expr>, Box<Ltl>>| r.map_or_else(|l| l, |e| Box::new(Ltl::Atom(e)));
        Ok(match l {
            Ltl::Atom(_) => return self.err("`U` (or a path formula `F`, `G`, `X`)"),
            Ltl::Next(a, sp) => match atom(a) {
                Ok(e) => PathFormula::Next(e),
                Err(a) => PathFormula::Ltl(Box::new(Ltl::Next(a, sp))),
            },
            Ltl::Finally(a, tb, sp) => match atom(a) {
                Ok(e) => PathFormula::Until(Box::new(Expr::boolean(true, sp)), e, tb),
                Err(a) => PathFormula::Ltl(Box::new(Ltl::Finally(a, tb, sp))),
            },
            Ltl::Globally(a, tb, sp) => match atom(a) {
                Ok(e) => PathFormula::Globally(e, tb),
                Err(a) => PathFormula::Ltl(Box::new(Ltl::Globally(a, tb, sp))),
            },
            Ltl::Until(a, b, tb, sp) => match (atom(a), atom(b)) {
                (Ok(a), Ok(b)) => PathFormula::Until(a, b, tb),
                (a, b) => PathFormula::Ltl(Box::new(Ltl::Until(back(a), back(b), tb, sp))),
            },
            Ltl::WeakUntil(a, b, tb, sp) => match (atom(a), atom(b)) {
                (Ok(a), Ok(b)) => Self::weak_or_release(true, *a, *b, tb),
                (a, b) => PathFormula::Ltl(Box::new(Ltl::WeakUntil(back(a), back(b), tb, sp))),
            },
            Ltl::Release(a, b, tb, sp) => match (atom(a), atom(b)) {
                (Ok(a), Ok(b)) => Self::weak_or_release(false, *a, *b, tb),
                (a, b) => PathFormula::Ltl(Box::new(Ltl::Release(back(a), back(b), tb, sp))),
            },
            other => PathFormula::Ltl(Box::new(other)),
        })
    }
    /// `φ U ψ`, `φ W ψ`, `φ R ψ` (with bounds) or a unary temporal formula: PRISM's
    /// `ExpressionTemporalBinary`.
    fn ltl_binary(&mut self) -> PResult<Ltl> {
        self.enter()?;
        let r = self.ltl_binary_inner();
        self.depth -= 1;
        r
    }
    fn ltl_binary_inner(&mut self) -> PResult<Ltl> {
        let lhs = self.ltl_unary()?;
        let op = match self.peek() {
            Tok::Ident(k) if k == "U" || k == "W" || k == "R" => k.clone(),
            _ => return Ok(lhs),
        };
        let sp = self.bump().span;
        let tb = self.time_bound()?;
        if op != "U" && tb.reward.is_some() {
            return Err(Diagnostic::at(
                tb.reward_bound.unwrap_or(sp),
                "reward bounds on `W`/`R` are not supported",
            ));
        }
        let rhs = self.ltl_unary()?;
        let (a, b) = (Box::new(lhs), Box::new(rhs));
        Ok(match op.as_str() {
            "U" => Ltl::Until(a, b, tb, sp),
            "W" => Ltl::WeakUntil(a, b, tb, sp),
            _ => Ltl::Release(a, b, tb, sp),
        })
    }

    /// `X φ`, `F φ`, `G φ` (with bounds) or a Boolean combination: PRISM's
    /// `ExpressionTemporalUnary`.
    fn ltl_unary(&mut self) -> PResult<Ltl> {
        if let Tok::Ident(k) = self.peek().clone() {
            if matches!(k.as_str(), "X" | "F" | "G") {
                let sp = self.bump().span;
                let tb = self.time_bound()?;
                if k == "X" && !tb.is_none() {
                    return Err(Diagnostic::at(sp, "a bound on `X` is not supported"));
                }
                self.enter()?;
                let a = self.ltl_unary();
                self.depth -= 1;
                let a = Box::new(a?);
                return Ok(match k.as_str() {
                    "X" => Ltl::Next(a, sp),
                    "F" => Ltl::Finally(a, tb, sp),
                    _ => Ltl::Globally(a, tb, sp),
                });
            }
        }
        // A state formula up to the end of the operand is an atom (the PCTL route, with the
        // spans and errors of `expr`); otherwise a Boolean combination with temporal parts.
        if !self.temporal_ahead(false) {
            return Ok(Ltl::Atom(Box::new(self.expr()?)));
        }
        self.ltl_iff()
    }

    /// Whether a temporal operator (`X F G U W R`, outside nested `[…]`) occurs ahead: in the
    /// parenthesised group that starts here (`group`), or else in the operand that starts here
    /// (up to a `U`/`W`/`R` at its top level, or the `)`/`]` that closes its context). A linear
    /// look-ahead, so the parser never backtracks.
    fn temporal_ahead(&self, group: bool) -> bool {
        let (mut paren, mut bracket) = (0i64, 0i64);
        let mut k = 0;
        loop {
            let temporal = |s: &str| matches!(s, "X" | "F" | "G" | "U" | "W" | "R");
            match self.peek_at(k) {
                Tok::Eof => return false,
                Tok::Sym("(") => paren += 1,
                Tok::Sym(")") => {
                    paren -= 1;
                    if paren < 0 || (group && paren == 0) {
                        return false;
                    }
                }
                Tok::Sym("[") => bracket += 1,
                Tok::Sym("]") => {
                    bracket -= 1;
                    if bracket < 0 {
                        return false;
                    }
                }
                Tok::Ident(x) if bracket == 0 && temporal(x) => {
                    // At the operand's top level, `U`/`W`/`R` end the operand.
                    return group || paren > 0 || matches!(x.as_str(), "X" | "F" | "G");
                }
                _ => {}
            }
            k += 1;
        }
    }

    fn ltl_iff(&mut self) -> PResult<Ltl> {
        let mut a = self.ltl_implies()?;
        while self.eat_sym("<=>") {
            let b = self.ltl_implies()?;
            a = Ltl::Iff(Box::new(a), Box::new(b));
        }
        Ok(a)
    }
    fn ltl_implies(&mut self) -> PResult<Ltl> {
        let a = self.ltl_or()?;
        if self.eat_sym("=>") {
            self.enter()?;
            let b = self.ltl_implies();
            self.depth -= 1;
            return Ok(Ltl::Implies(Box::new(a), Box::new(b?)));
        }
        Ok(a)
    }
    fn ltl_or(&mut self) -> PResult<Ltl> {
        let mut a = self.ltl_and()?;
        while self.eat_sym("|") {
            let b = self.ltl_and()?;
            a = Ltl::Or(Box::new(a), Box::new(b));
        }
        Ok(a)
    }
    fn ltl_and(&mut self) -> PResult<Ltl> {
        let mut a = self.ltl_not()?;
        while self.eat_sym("&") {
            let b = self.ltl_not()?;
            a = Ltl::And(Box::new(a), Box::new(b));
        }
        Ok(a)
    }
    fn ltl_not(&mut self) -> PResult<Ltl> {
        if self.eat_sym("!") {
            self.enter()?;
            let a = self.ltl_not();
            self.depth -= 1;
            return Ok(Ltl::Not(Box::new(a?)));
        }
        self.ltl_atom()
    }
    /// A relational state formula, `( path formula )`, or (more lenient than PRISM, which
    /// wants parentheses) a unary temporal formula.
    fn ltl_atom(&mut self) -> PResult<Ltl> {
        if let Tok::Ident(k) = self.peek() {
            if matches!(k.as_str(), "X" | "F" | "G") {
                return self.ltl_unary();
            }
        }
        if self.is_sym("(") && self.temporal_ahead(true) {
            self.bump();
            self.enter()?;
            let l = self.ltl_binary();
            self.depth -= 1;
            let l = l?;
            self.expect_sym(")")?;
            return Ok(l);
        }
        Ok(Ltl::Atom(Box::new(self.rel()?)))
    }

    /// `a W b` as `!((a & !b) U (!a & !b))` and `a R b` as `!(!a U !b)`, keeping the bounds
    /// (PRISM's reduction to until form).
    fn weak_or_release(weak: bool, a: Expr, b: Expr, tb: TimeBound) -> PathFormula {
        let not = |e: &Expr| Expr::new(ExprKind::Unary(UnOp::Not, Box::new(e.clone())), e.span);
        let (l, r) = if weak {
            (
                Self::bin(BinOp::And, a.clone(), not(&b)),
                Self::bin(BinOp::And, not(&a), not(&b)),
            )
        } else {
            (not(&a), not(&b))
        };
        PathFormula::Not(Box::new(PathFormula::Until(Box::new(l), Box::new(r), tb)))
    }

    /// `A [ path ]` / `E [ path ]`: CTL's path quantifiers.
    // Kept out of `atom`, whose stack frame bounds the nesting depth the parser can take.
    #[inline(never)]
    fn ctl_op(&mut self) -> PResult<Expr> {
        let (forall, start) = match self.peek().clone() {
            Tok::Ident(n) => (n == "A", self.bump().span),
            _ => return self.err("`A` or `E`"),
        };
        self.expect_sym("[")?;
        let path = self.path()?;
        self.expect_sym("]")?;
        Ok(Expr::new(
            ExprKind::Ctl {
                forall,
                path: Box::new(path),
            },
            Span::new(start.start, self.prev_end()),
        ))
    }

    /// The inside of `{…}` naming a reward structure: `"name"` or an index expression.
    fn reward_ref_inner(&mut self) -> PResult<RewardRef> {
        Ok(match self.peek().clone() {
            Tok::Str(s) => RewardRef::Name(s, self.bump().span),
            _ => RewardRef::Index(Box::new(self.expr()?)),
        })
    }

    // Kept out of `atom`, whose stack frame bounds the nesting depth the parser can take.
    #[inline(never)]
    fn reward_op(&mut self) -> PResult<Expr> {
        let (name, start) = match self.peek().clone() {
            Tok::Ident(n) => (n, self.bump().span),
            _ => return self.err("`R`"),
        };
        let mut rew = if name.starts_with('T') {
            RewardRef::Time
        } else {
            RewardRef::Default
        };
        if !name.starts_with('T') && self.eat_sym("{") {
            rew = match self.peek().clone() {
                Tok::Str(s) => RewardRef::Name(s, self.bump().span),
                _ => RewardRef::Index(Box::new(self.expr()?)),
            };
            self.expect_sym("}")?;
        }
        let opt = self.opt_suffix(&name);
        let bound = self.bound()?;
        self.expect_sym("[")?;
        let psp = self.span();
        let path = match self.peek().clone() {
            Tok::Ident(s) if s == "C" => {
                self.bump();
                if self.eat_sym("<=") {
                    RewardPath::Cumul(Box::new(self.expr()?))
                } else {
                    RewardPath::Total
                }
            }
            Tok::Ident(s) if s == "I" => {
                self.bump();
                self.expect_sym("=")?;
                RewardPath::Inst(Box::new(self.expr()?))
            }
            Tok::Ident(s) if s == "S" => {
                self.bump();
                RewardPath::Steady
            }
            _ => self.reward_path_formula(psp)?,
        };
        self.close_operator(
            start,
            ExprKind::Reward {
                rew,
                opt,
                bound,
                path: Box::new(path),
            },
        )
    }

    // Kept out of `atom`, whose stack frame bounds the nesting depth the parser can take.
    #[inline(never)]
    fn steady_op(&mut self) -> PResult<Expr> {
        let start = self.bump().span;
        let bound = self.bound()?;
        self.expect_sym("[")?;
        let e = self.expr()?;
        self.close_operator(
            start,
            ExprKind::Steady {
                bound,
                expr: Box::new(e),
            },
        )
    }

    // Kept out of `atom`, whose stack frame bounds the nesting depth the parser can take.
    #[inline(never)]
    fn filter(&mut self) -> PResult<Expr> {
        let start = self.bump().span;
        self.expect_sym("(")?;
        let op = match self.peek().clone() {
            Tok::Ident(s) => {
                self.bump();
                s
            }
            Tok::Sym("+") => {
                self.bump();
                "sum".into()
            }
            Tok::Sym("&") => {
                self.bump();
                "forall".into()
            }
            Tok::Sym("|") => {
                self.bump();
                "exists".into()
            }
            _ => return self.err("a filter operator"),
        };
        const OPS: &[&str] = &[
            "min", "max", "avg", "sum", "count", "forall", "exists", "first", "print", "printall",
            "state", "argmin", "argmax", "range",
        ];
        if !OPS.contains(&op.as_str()) {
            return Err(Diagnostic::at(
                self.toks[self.pos - 1].span,
                format!("unknown filter operator `{op}`"),
            ));
        }
        self.expect_sym(",")?;
        let prop = self.expr()?;
        let states = if self.eat_sym(",") {
            Some(Box::new(self.expr()?))
        } else {
            None
        };
        self.expect_sym(")")?;
        Ok(Expr::new(
            ExprKind::Filter {
                op,
                prop: Box::new(prop),
                states,
            },
            Span::new(start.start, self.prev_end()),
        ))
    }

    // ---------------------------------------------------------------- declarations

    fn const_decl(&mut self) -> PResult<ConstDecl> {
        let start = self.expect_kw("const")?;
        let ty = if self.eat_kw("int") {
            Type::Int
        } else if self.eat_kw("double") || self.eat_kw("rate") || self.eat_kw("prob") {
            Type::Double
        } else if self.eat_kw("bool") {
            Type::Bool
        } else {
            Type::Int
        };
        let (name, _) = self.ident()?;
        let value = if self.eat_sym("=") {
            Some(self.expr()?)
        } else {
            None
        };
        self.expect_sym(";")?;
        Ok(ConstDecl {
            name,
            ty,
            value,
            span: Span::new(start.start, self.prev_end()),
        })
    }

    fn named_decl(&mut self, kw: &str, quoted: bool) -> PResult<NamedExpr> {
        let start = self.expect_kw(kw)?;
        let (name, _) = if quoted {
            self.string()?
        } else {
            self.ident()?
        };
        self.expect_sym("=")?;
        let expr = self.expr()?;
        self.expect_sym(";")?;
        Ok(NamedExpr {
            name,
            expr,
            span: Span::new(start.start, self.prev_end()),
        })
    }

    fn var_decl(&mut self) -> PResult<VarDecl> {
        let (name, start) = self.ident()?;
        self.expect_sym(":")?;
        let ty = if self.eat_kw("bool") {
            VarType::Bool
        } else if self.eat_sym("[") {
            let lo = self.expr()?;
            self.expect_sym("..")?;
            let hi = self.expr()?;
            self.expect_sym("]")?;
            VarType::Range(lo, hi)
        } else if self.eat_kw("int") {
            VarType::Unbounded
        } else if self.is_kw("clock") || self.is_kw("double") {
            return Err(Diagnostic::at(
                self.span(),
                "unbounded variables are not supported; give a range `[lo..hi]`",
            ));
        } else {
            return self.err("`bool` or a range `[lo..hi]`");
        };
        let init = if self.eat_kw("init") {
            Some(self.expr()?)
        } else {
            None
        };
        self.expect_sym(";")?;
        Ok(VarDecl {
            name,
            ty,
            init,
            span: Span::new(start.start, self.prev_end()),
        })
    }

    fn command(&mut self) -> PResult<Command> {
        let start = self.expect_sym("[")?;
        let (action, action_span) = if self.is_sym("]") {
            (None, start)
        } else {
            let (a, s) = self.ident()?;
            (Some(a), s)
        };
        self.expect_sym("]")?;
        let guard = self.expr()?;
        self.expect_sym("->")?;
        let mut updates = Vec::new();
        loop {
            let ustart = self.span();
            // A probability/rate prefix `e :` or `[l,u] :`, detected by trying to parse it.
            let save = self.pos;
            let mut prob = None;
            if self.is_sym("[") {
                self.bump();
                let l = self.expr()?;
                self.expect_sym(",")?;
                let u = self.expr()?;
                self.expect_sym("]")?;
                self.expect_sym(":")?;
                prob = Some(ProbSpec::Interval(l, u));
            } else if !(self.is_kw("true") || self.is_sym("(") && self.looks_like_assignment()) {
                let e = self.expr()?;
                if self.eat_sym(":") {
                    prob = Some(ProbSpec::Point(e));
                } else {
                    self.pos = save;
                }
            } else if self.is_kw("true") && matches!(self.peek_at(1), Tok::Sym(":")) {
                let e = self.expr()?;
                self.expect_sym(":")?;
                prob = Some(ProbSpec::Point(e));
            }
            let mut assigns = Vec::new();
            if self.eat_kw("true") {
            } else {
                loop {
                    self.expect_sym("(")?;
                    let (var, vsp) = self.ident()?;
                    self.expect_sym("'")?;
                    self.expect_sym("=")?;
                    let value = self.expr()?;
                    self.expect_sym(")")?;
                    assigns.push(Assign {
                        var,
                        span: vsp,
                        value,
                    });
                    if !self.eat_sym("&") {
                        break;
                    }
                }
            }
            updates.push(Update {
                prob,
                assigns,
                rewards: Vec::new(),
                span: Span::new(ustart.start, self.prev_end()),
            });
            if !self.eat_sym("+") {
                break;
            }
        }
        self.expect_sym(";")?;
        Ok(Command {
            action,
            action_span,
            guard,
            updates,
            span: Span::new(start.start, self.prev_end()),
        })
    }

    /// At `(`: is this `(x' = …)`?
    fn looks_like_assignment(&self) -> bool {
        matches!(self.peek_at(1), Tok::Ident(_)) && matches!(self.peek_at(2), Tok::Sym("'"))
    }

    fn module(&mut self) -> PResult<ModuleDecl> {
        let start = self.expect_kw("module")?;
        let (name, _) = self.ident()?;
        if self.eat_sym("=") {
            let (base, base_span) = self.ident()?;
            self.expect_sym("[")?;
            let mut pairs = Vec::new();
            loop {
                let (a, asp) = self.ident()?;
                self.expect_sym("=")?;
                let (b, bsp) = self.ident()?;
                pairs.push((a, b, asp.join(bsp)));
                if !self.eat_sym(",") {
                    break;
                }
            }
            self.expect_sym("]")?;
            self.expect_kw("endmodule")?;
            return Ok(ModuleDecl::Renamed(Renaming {
                name,
                base,
                base_span,
                pairs,
                span: Span::new(start.start, self.prev_end()),
            }));
        }
        let mut vars = Vec::new();
        let mut commands = Vec::new();
        loop {
            if self.eat_kw("endmodule") {
                break;
            }
            if self.is_sym("[") {
                commands.push(self.command()?);
            } else if matches!(self.peek(), Tok::Ident(_)) && !self.is_kw("invariant") {
                vars.push(self.var_decl()?);
            } else if self.is_kw("invariant") {
                return Err(Diagnostic::at(
                    self.span(),
                    "invariants (PTA models) are not supported",
                ));
            } else {
                return self.err("a variable declaration, a command or `endmodule`");
            }
        }
        Ok(ModuleDecl::Plain(Module {
            name,
            vars,
            commands,
            span: Span::new(start.start, self.prev_end()),
        }))
    }

    fn rewards(&mut self) -> PResult<RewardStruct> {
        let start = self.expect_kw("rewards")?;
        let name = if matches!(self.peek(), Tok::Str(_)) {
            Some(self.string()?.0)
        } else {
            None
        };
        let mut items = Vec::new();
        while !self.eat_kw("endrewards") {
            let istart = self.span();
            let mut action = None;
            if self.eat_sym("[") {
                if self.eat_sym("]") {
                    action = Some(None);
                } else {
                    let (a, _) = self.ident()?;
                    self.expect_sym("]")?;
                    action = Some(Some(a));
                }
            }
            let guard = self.expr()?;
            self.expect_sym(":")?;
            let value = self.expr()?;
            self.expect_sym(";")?;
            items.push(RewardItem {
                action,
                guard,
                value,
                span: Span::new(istart.start, self.prev_end()),
            });
        }
        Ok(RewardStruct {
            name,
            items,
            span: Span::new(start.start, self.prev_end()),
        })
    }

    fn model_file(&mut self) -> PResult<ModelFile> {
        let mut mf = ModelFile {
            model_type: ModelType::Mdp,
            consts: vec![],
            formulas: vec![],
            labels: vec![],
            globals: vec![],
            modules: vec![],
            init: None,
            rewards: vec![],
            system: None,
        };
        let mut type_seen = false;
        loop {
            let sp = self.span();
            let t = match self.peek().clone() {
                Tok::Eof => break,
                Tok::Ident(s) => s,
                _ => return self.err("a declaration"),
            };
            let ty = match t.as_str() {
                "dtmc" | "probabilistic" => Some(ModelType::Dtmc),
                "ctmc" | "stochastic" => Some(ModelType::Ctmc),
                "mdp" | "nondeterministic" => Some(ModelType::Mdp),
                "idtmc" => Some(ModelType::Idtmc),
                "imdp" => Some(ModelType::Imdp),
                _ => None,
            };
            if let Some(ty) = ty {
                if type_seen {
                    return Err(Diagnostic::at(sp, "the model type is given twice"));
                }
                self.bump();
                type_seen = true;
                mf.model_type = ty;
                continue;
            }
            match t.as_str() {
                "const" => mf.consts.push(self.const_decl()?),
                "formula" => mf.formulas.push(self.named_decl("formula", false)?),
                "label" => mf.labels.push(self.named_decl("label", true)?),
                "global" => {
                    self.bump();
                    mf.globals.push(self.var_decl()?);
                }
                "module" => mf.modules.push(self.module()?),
                "rewards" => mf.rewards.push(self.rewards()?),
                "init" => {
                    self.bump();
                    if mf.init.is_some() {
                        return Err(Diagnostic::at(sp, "more than one `init … endinit` block"));
                    }
                    mf.init = Some(self.expr()?);
                    self.expect_kw("endinit")?;
                }
                "system" => {
                    self.bump();
                    if mf.system.is_some() {
                        return Err(Diagnostic::at(
                            sp,
                            "more than one `system … endsystem` block",
                        ));
                    }
                    let t = self.sys_full(0)?;
                    self.expect_kw("endsystem")?;
                    mf.system = Some((t, Span::new(sp.start, self.prev_end())));
                }
                "pta" | "smg" | "pomdp" | "popta" | "ma" => {
                    return Err(Diagnostic::at(
                        sp,
                        format!("model type `{t}` is not supported (dtmc, ctmc, mdp, idtmc, imdp)"),
                    ))
                }
                _ => {
                    return self
                        .err("a declaration (`module`, `const`, `formula`, `label`, `rewards`, …)")
                }
            }
        }
        if let Some((t, sp)) = &mf.system {
            Self::check_system(&mf, t, *sp)?;
        }
        // Without a type keyword PRISM reads the model as an MDP (`ModulesFile()` in PRISM's
        // grammar: "note default is MDP"); `mf.model_type` starts as `Mdp`.
        if mf.modules.is_empty() {
            return Err(Diagnostic::at(self.span(), "the model has no modules"));
        }
        Ok(mf)
    }

    fn props_file(&mut self) -> PResult<PropertiesFile> {
        let mut pf = PropertiesFile::default();
        loop {
            if self.eat_sym(";") {
                continue;
            }
            match self.peek().clone() {
                Tok::Eof => break,
                Tok::Ident(s) if s == "const" => pf.consts.push(self.const_decl()?),
                Tok::Ident(s) if s == "formula" => {
                    pf.formulas.push(self.named_decl("formula", false)?)
                }
                Tok::Ident(s) if s == "label" => pf.labels.push(self.named_decl("label", true)?),
                _ => {
                    let start = self.span();
                    let mut name = None;
                    if let Tok::Str(s) = self.peek().clone() {
                        if matches!(self.peek_at(1), Tok::Sym(":")) {
                            self.bump();
                            self.bump();
                            name = Some(s);
                        }
                    }
                    let expr = self.expr()?;
                    pf.properties.push(Property {
                        name,
                        expr,
                        span: Span::new(start.start, self.prev_end()),
                    });
                }
            }
        }
        Ok(pf)
    }
}

/// Parses a PRISM model file.
pub fn parse_model(text: &str) -> Result<ModelFile, Diagnostic> {
    Parser::new(text)?.model_file()
}

/// Parses a PRISM properties file (constants, labels, formulas and properties, optionally named
/// `"name": …`, separated by `;` or new lines).
pub fn parse_properties(text: &str) -> Result<PropertiesFile, Diagnostic> {
    Parser::new(text)?.props_file()
}

/// Parses one expression (e.g. a `--const` value or a label).
pub(crate) fn parse_expr(text: &str) -> Result<Expr, Diagnostic> {
    let mut p = Parser::new(text)?;
    let e = p.expr()?;
    if !matches!(p.peek(), Tok::Eof) {
        return p.err("end of expression");
    }
    Ok(e)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_small_model() {
        let m = parse_model(
            "dtmc const int N = 3; const double p;\nmodule M x : [0..N] init 0; b : bool;\n\
             [a] x<N & !b -> p:(x'=x+1) + 1-p:(x'=x)&(b'=true);\n [] x=N -> true; endmodule\n\
             module M2 = M [x=y, a=c] endmodule\nlabel \"done\" = x=N;\nrewards \"r\" true : 1; [a] x>0 : 2.5; endrewards",
        )
        .unwrap();
        assert_eq!(m.model_type, ModelType::Dtmc);
        assert_eq!(m.consts.len(), 2);
        assert_eq!(m.modules.len(), 2);
        assert_eq!(m.rewards[0].items.len(), 2);
        match &m.modules[0] {
            ModuleDecl::Plain(md) => {
                assert_eq!(md.commands[0].updates.len(), 2);
                assert!(md.commands[1].updates[0].assigns.is_empty());
            }
            _ => panic!(),
        }
    }

    fn path_of(text: &str) -> PathFormula {
        let p = parse_properties(text).unwrap();
        let e = match &p.properties[0].expr.kind {
            ExprKind::Filter { prop, .. } => prop.as_ref(),
            _ => &p.properties[0].expr,
        };
        match &e.kind {
            ExprKind::Prob { path, .. } => (**path).clone(),
            other => panic!("not a P operator: {other:?}"),
        }
    }

    /// PRISM's LTL grammar: PCTL shapes keep their variants; everything else is `Ltl`, with
    /// `U`/`W`/`R` loosest and non-associative, `F`/`G`/`X` over the rest of the operand.
    #[test]
    fn ltl_path_formulas() {
        for pctl in [
            "P=? [ F \"a\" ]",
            "P=? [ F \"a\" & x>1 ]",
            "P=? [ G<=4 x=1 ]",
            "P=? [ (x+1)>2 U \"b\" ]",
            "P=? [ !\"a\" U<=3 \"b\" ]",
            "P=? [ X x=1 ]",
            "P=? [ \"a\" W \"b\" ]",
            "P=? [ F x=2 {x=0} ]",
        ] {
            assert!(!matches!(path_of(pctl), PathFormula::Ltl(_)), "{pctl}");
        }
        let is = |text: &str, want: &dyn Fn(&Ltl) -> bool| match path_of(text) {
            PathFormula::Ltl(l) => assert!(want(&l), "{text}: {l:?}"),
            other => panic!("{text}: not LTL: {other:?}"),
        };
        is(
            "P=? [ G F \"a\" ]",
            &|l| matches!(l, Ltl::Globally(a, _, _) if matches!(**a, Ltl::Finally(..))),
        );
        is(
            "Pmax=? [ (F a) & (G b) ]",
            &|l| matches!(l, Ltl::And(a, b) if matches!(**a, Ltl::Finally(..)) && matches!(**b, Ltl::Globally(..))),
        );
        is(
            "P=? [ (a U b) U c ]",
            &|l| matches!(l, Ltl::Until(a, _, _, _) if matches!(**a, Ltl::Until(..))),
        );
        is(
            "P=? [ F a U b ]",
            &|l| matches!(l, Ltl::Until(a, _, _, _) if matches!(**a, Ltl::Finally(..))),
        );
        is(
            "P=? [ X X a ]",
            &|l| matches!(l, Ltl::Next(a, _) if matches!(**a, Ltl::Next(..))),
        );
        is("P=? [ !(G !a) ]", &|l| matches!(l, Ltl::Not(_)));
        is("P=? [ G (a => F<=3 b) ]", &|l| {
            matches!(l, Ltl::Globally(..))
        });
        is("P=? [ a R (G b) ]", &|l| matches!(l, Ltl::Release(..)));
        // Non-associative binary operators and unbalanced parentheses are errors.
        for bad in [
            "P=? [ a U b U c ]",
            "P=? [ (F a ]",
            "P=? [ G ]",
            "P=? [ a ]",
            "P=? [ X<=2 a ]",
            "P=? [ a W^{rew{\"r\"}<=2} (F b) ]",
        ] {
            assert!(parse_properties(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn parses_properties() {
        let p = parse_properties(
            "const double T; \"p1\": P=? [ F s=5 ];\nPmax=? [ !\"a\" U<=(T*3600) x>1 ]\nR{\"time\"}min=? [ F \"done\" ];\
             S=? [ x=1 ]; filter(max, R=? [ F x=2 ], \"init\"); P>=1 [ F[2,3] x=1 ]; R=? [ I=5 ]; R{\"c\"}=? [C<=T]",
        )
        .unwrap();
        assert_eq!(p.properties.len(), 8);
        assert_eq!(p.properties[0].name.as_deref(), Some("p1"));
    }

    #[test]
    fn interval_updates() {
        let m = parse_model(
            "imdp module M s:[0..2]; [a] s=0 -> [0.2,0.5]:(s'=1) + [0.5,0.8]:(s'=2); endmodule",
        )
        .unwrap();
        assert_eq!(m.model_type, ModelType::Imdp);
    }

    #[test]
    fn errors_are_located() {
        let e = parse_model("dtmc\nmodule M x : [0..2] init 0;\n[] x=0 -> (x'=1) endmodule")
            .unwrap_err();
        assert!(e.span.is_some());
        assert!(e.message.contains("expected `;`"), "{}", e.message);
    }
}
