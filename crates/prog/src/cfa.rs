//! The program IR: a control-flow automaton (CFA) of linear integer arithmetic.
//!
//! One automaton per analysed program: `main` with every call inlined (non-recursive calls
//! completely, recursive calls up to a depth bound; a call beyond the bound goes to the `cut`
//! location, so an engine answers "safe" only when `cut` is unreachable too). Locations are
//! numbers; each edge carries one operation: `assume` of a conjunction of linear atoms, a
//! parallel assignment of linear terms, or a `havoc` (nondeterministic value; the ones that come
//! from `__VERIFIER_nondet_*` calls are marked, so counterexamples list them in call order).
//! Disjunctive conditions become parallel edges, so every path formula is a conjunction of linear
//! constraints — what interpolation by Farkas certificates needs.

use std::collections::BTreeMap;
use std::fmt::Write as _;

/// A variable of the program (after inlining: one per declaration instance).
pub type Var = usize;
/// A control location.
pub type Loc = usize;

/// An integer C type: bit width and signedness (ILP32: `int`, `long` 32 bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct IntTy {
    pub bits: u32,
    pub signed: bool,
}

impl IntTy {
    pub const INT: IntTy = IntTy {
        bits: 32,
        signed: true,
    };
    pub const UINT: IntTy = IntTy {
        bits: 32,
        signed: false,
    };
    pub const BOOL: IntTy = IntTy {
        bits: 1,
        signed: false,
    };
    /// Smallest value.
    pub fn min(self) -> i128 {
        if self.signed {
            -(1i128 << (self.bits - 1))
        } else {
            0
        }
    }
    /// Largest value.
    pub fn max(self) -> i128 {
        if self.signed {
            (1i128 << (self.bits - 1)) - 1
        } else {
            (1i128 << self.bits) - 1
        }
    }
    /// The C name used by the replay harness.
    pub fn c_name(self) -> &'static str {
        match (self.bits, self.signed) {
            (1, _) => "_Bool",
            (8, true) => "signed char",
            (8, false) => "unsigned char",
            (16, true) => "short",
            (16, false) => "unsigned short",
            (32, true) => "int",
            (32, false) => "unsigned int",
            (64, true) => "long long",
            _ => "unsigned long long",
        }
    }
}

/// What a variable is.
#[derive(Clone, Debug)]
pub struct VarInfo {
    pub name: String,
    pub ty: IntTy,
    /// An auxiliary variable of the encoding (wrap-around quotients, temporaries).
    pub aux: bool,
}

/// A linear term `Σ c·x + k` with integer coefficients.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Lin {
    pub coeffs: BTreeMap<Var, i128>,
    pub konst: i128,
}

/// Coefficient or constant outside the range the encoding handles.
#[derive(Clone, Copy, Debug)]
pub struct Overflow;

impl Lin {
    pub fn constant(k: i128) -> Lin {
        Lin {
            coeffs: BTreeMap::new(),
            konst: k,
        }
    }
    pub fn var(x: Var) -> Lin {
        let mut coeffs = BTreeMap::new();
        coeffs.insert(x, 1);
        Lin { coeffs, konst: 0 }
    }
    pub fn as_const(&self) -> Option<i128> {
        self.coeffs.is_empty().then_some(self.konst)
    }
    pub fn as_var(&self) -> Option<Var> {
        if self.konst != 0 || self.coeffs.len() != 1 {
            return None;
        }
        self.coeffs
            .iter()
            .next()
            .and_then(|(&x, &c)| (c == 1).then_some(x))
    }
    /// `a·self + b·other`.
    pub fn combine(&self, a: i128, other: &Lin, b: i128) -> Result<Lin, Overflow> {
        const LIM: i128 = 1 << 100;
        let mut out = Lin::default();
        let chk = |v: i128| if v.abs() > LIM { Err(Overflow) } else { Ok(v) };
        for (&x, &c) in &self.coeffs {
            let v = chk(c.checked_mul(a).ok_or(Overflow)?)?;
            *out.coeffs.entry(x).or_insert(0) += v;
        }
        for (&x, &c) in &other.coeffs {
            let v = chk(c.checked_mul(b).ok_or(Overflow)?)?;
            *out.coeffs.entry(x).or_insert(0) += v;
        }
        out.coeffs.retain(|_, c| *c != 0);
        let k1 = chk(self.konst.checked_mul(a).ok_or(Overflow)?)?;
        let k2 = chk(other.konst.checked_mul(b).ok_or(Overflow)?)?;
        out.konst = chk(k1 + k2)?;
        Ok(out)
    }
    pub fn add(&self, o: &Lin) -> Result<Lin, Overflow> {
        self.combine(1, o, 1)
    }
    pub fn sub(&self, o: &Lin) -> Result<Lin, Overflow> {
        self.combine(1, o, -1)
    }
    pub fn scale(&self, a: i128) -> Result<Lin, Overflow> {
        self.combine(a, &Lin::default(), 0)
    }
    pub fn add_const(&self, k: i128) -> Result<Lin, Overflow> {
        self.add(&Lin::constant(k))
    }
    /// Value under an assignment.
    pub fn eval(&self, val: &dyn Fn(Var) -> i128) -> i128 {
        self.coeffs.iter().fold(self.konst, |acc, (&x, &c)| {
            acc.saturating_add(c.saturating_mul(val(x)))
        })
    }
    /// Renames variables.
    pub fn rename(&self, f: &dyn Fn(Var) -> Var) -> Lin {
        let mut out = Lin::constant(self.konst);
        for (&x, &c) in &self.coeffs {
            *out.coeffs.entry(f(x)).or_insert(0) += c;
        }
        out.coeffs.retain(|_, c| *c != 0);
        out
    }
    /// SMT-LIB text, variables named by `name`.
    pub fn smt(&self, name: &dyn Fn(Var) -> String) -> String {
        let mut parts: Vec<String> = Vec::new();
        for (&x, &c) in &self.coeffs {
            if c == 1 {
                parts.push(name(x));
            } else {
                parts.push(format!("(* {} {})", smt_int(c), name(x)));
            }
        }
        if self.konst != 0 || parts.is_empty() {
            parts.push(smt_int(self.konst));
        }
        if parts.len() == 1 {
            parts.pop().unwrap_or_default()
        } else {
            format!("(+ {})", parts.join(" "))
        }
    }
    /// Human-readable text.
    pub fn show(&self, name: &dyn Fn(Var) -> String) -> String {
        let mut s = String::new();
        for (&x, &c) in &self.coeffs {
            let sign = if c < 0 { "-" } else { "+" };
            if !s.is_empty() || c < 0 {
                s.push_str(sign);
            }
            if c.abs() != 1 {
                let _ = write!(s, "{}*", c.abs());
            }
            s.push_str(&name(x));
        }
        if self.konst != 0 || s.is_empty() {
            if !s.is_empty() && self.konst >= 0 {
                s.push('+');
            }
            let _ = write!(s, "{}", self.konst);
        }
        s
    }
}

/// An SMT-LIB integer literal.
pub(crate) fn smt_int(k: i128) -> String {
    if k < 0 {
        format!("(- {})", k.unsigned_abs())
    } else {
        k.to_string()
    }
}

/// A linear atom: `lin ≤ 0` or `lin = 0`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Atom {
    pub lin: Lin,
    pub eq: bool,
}

impl Atom {
    pub fn le0(lin: Lin) -> Atom {
        Atom { lin, eq: false }
    }
    pub fn eq0(lin: Lin) -> Atom {
        Atom { lin, eq: true }
    }
    pub fn holds(&self, val: &dyn Fn(Var) -> i128) -> bool {
        let v = self.lin.eval(val);
        if self.eq {
            v == 0
        } else {
            v <= 0
        }
    }
    pub fn smt(&self, name: &dyn Fn(Var) -> String) -> String {
        if self.eq {
            format!("(= {} 0)", self.lin.smt(name))
        } else {
            format!("(<= {} 0)", self.lin.smt(name))
        }
    }
    pub fn show(&self, name: &dyn Fn(Var) -> String) -> String {
        format!(
            "{} {} 0",
            self.lin.show(name),
            if self.eq { "=" } else { "<=" }
        )
    }
}

/// A disjunction of conjunctions of atoms as text: `(a && b) || (c)`, `(true)` for an empty
/// conjunction, `false` for an empty disjunction.
pub(crate) fn show_dnf(d: &[Vec<Atom>], name: &dyn Fn(Var) -> String) -> String {
    if d.is_empty() {
        return "false".into();
    }
    d.iter()
        .map(|c| {
            if c.is_empty() {
                "(true)".to_string()
            } else {
                let lits: Vec<String> = c.iter().map(|a| a.show(name)).collect();
                format!("({})", lits.join(" && "))
            }
        })
        .collect::<Vec<_>>()
        .join(" || ")
}

/// The operation of an edge.
#[derive(Clone, Debug)]
pub enum Op {
    /// Continue only if every atom holds.
    Assume(Vec<Atom>),
    /// Parallel assignment (right-hand sides read the old values).
    Assign(Vec<(Var, Lin)>),
    /// Arbitrary values. `nondet` marks a `__VERIFIER_nondet_*` call (the value is constrained to
    /// its type by a following `assume`).
    Havoc { vars: Vec<Var>, nondet: bool },
}

/// An edge of the automaton; `line` is the source line it comes from (0: none).
#[derive(Clone, Debug)]
pub struct Edge {
    pub from: Loc,
    pub to: Loc,
    pub op: Op,
    pub line: u32,
}

/// A recursive function summarised instead of inlined (lowering with `summaries`): its body is
/// lowered once, from `entry` to `exit`, over its own variable instances. `in_params` and
/// `in_globals` are ghost copies of the parameters and globals taken on entry (the first edge of
/// the body assigns them), so that at `exit` the state relates the call's inputs to its outputs:
/// the procedure summary `S(in_globals, in_params, globals, ret)` of the Horn encoding.
#[derive(Clone, Debug, Default)]
pub struct Proc {
    pub name: String,
    pub entry: Loc,
    pub exit: Loc,
    pub params: Vec<Var>,
    pub ret: Option<Var>,
    pub in_params: Vec<Var>,
    pub in_globals: Vec<Var>,
}

/// A call of a summarised function: from `from`, with the arguments `args` (read in the
/// caller's state), continuing at `to` with the globals and `ret` set by the callee. In the
/// automaton the call is also an edge `from → cut`, so engines that do not read summaries treat
/// it as a cut recursive call (never as a path that returns).
#[derive(Clone, Debug)]
pub struct CallSite {
    pub from: Loc,
    pub to: Loc,
    pub proc: usize,
    pub args: Vec<Lin>,
    pub ret: Option<Var>,
    pub line: u32,
}

/// A control-flow automaton with an initial, an error and a cut location.
#[derive(Clone, Debug, Default)]
pub struct Cfa {
    pub vars: Vec<VarInfo>,
    pub nlocs: usize,
    pub init: Loc,
    /// `reach_error()` was called.
    pub error: Loc,
    /// A recursive call beyond the inlining bound (paths through it are not analysed).
    pub cut: Loc,
    pub edges: Vec<Edge>,
    /// Number of calls that were cut (0: the automaton is the whole program).
    pub cuts: usize,
    /// The program's global variables (what a summarised call may change besides its result).
    pub globals: Vec<Var>,
    /// Summarised recursive functions (empty unless lowered with `summaries`).
    pub procs: Vec<Proc>,
    /// Calls of summarised functions (each also counted in `cuts`).
    pub calls: Vec<CallSite>,
}

impl Cfa {
    pub fn var_name(&self, x: Var) -> String {
        self.vars
            .get(x)
            .map(|v| v.name.clone())
            .unwrap_or_else(|| format!("v{x}"))
    }
    /// Outgoing edges per location.
    pub fn out_edges(&self) -> Vec<Vec<usize>> {
        let mut out = vec![Vec::new(); self.nlocs];
        for (i, e) in self.edges.iter().enumerate() {
            if let Some(o) = out.get_mut(e.from) {
                o.push(i);
            }
        }
        out
    }
    /// Locations reachable from `init` in the graph (ignoring the operations; a summarised call
    /// leads to the callee's entry and to its return location).
    pub fn reachable(&self) -> Vec<bool> {
        let out = self.out_edges();
        let mut seen = vec![false; self.nlocs];
        let mut stack = vec![self.init];
        while let Some(l) = stack.pop() {
            match seen.get_mut(l) {
                Some(s) if !*s => *s = true,
                _ => continue,
            }
            for &e in out.get(l).into_iter().flatten() {
                if let Some(ed) = self.edges.get(e) {
                    stack.push(ed.to);
                }
            }
            for c in self.calls.iter().filter(|c| c.from == l) {
                stack.push(c.to);
                if let Some(p) = self.procs.get(c.proc) {
                    stack.push(p.entry);
                }
            }
        }
        seen
    }
    /// Removes edges not reachable from `init` and renumbers nothing (cheap cleanup).
    pub fn prune(&mut self) {
        let r = self.reachable();
        self.edges
            .retain(|e| r.get(e.from).copied().unwrap_or(false));
    }
    /// Whether the automaton has a cycle reachable from `init`.
    pub fn is_acyclic(&self) -> bool {
        let out = self.out_edges();
        // 0 unvisited, 1 on stack, 2 done
        let mut color = vec![0u8; self.nlocs];
        let mut stack: Vec<(Loc, usize)> = vec![(self.init, 0)];
        if let Some(c) = color.get_mut(self.init) {
            *c = 1;
        }
        while let Some(&mut (l, ref mut i)) = stack.last_mut() {
            let succ = out.get(l).and_then(|o| o.get(*i)).copied();
            *i += 1;
            match succ {
                Some(e) => {
                    let to = self.edges.get(e).map(|e| e.to).unwrap_or(l);
                    match color.get(to).copied() {
                        Some(0) => {
                            if let Some(c) = color.get_mut(to) {
                                *c = 1;
                            }
                            stack.push((to, 0));
                        }
                        Some(1) => return false,
                        _ => {}
                    }
                }
                None => {
                    if let Some(c) = color.get_mut(l) {
                        *c = 2;
                    }
                    stack.pop();
                }
            }
        }
        true
    }
    /// The operation of an edge as text.
    pub fn show_op(&self, op: &Op) -> String {
        let name = |x: Var| self.var_name(x);
        match op {
            Op::Assume(atoms) if atoms.is_empty() => "skip".into(),
            Op::Assume(atoms) => format!(
                "[{}]",
                atoms
                    .iter()
                    .map(|a| a.show(&name))
                    .collect::<Vec<_>>()
                    .join(" && ")
            ),
            Op::Assign(asg) => asg
                .iter()
                .map(|(x, t)| format!("{} := {}", name(*x), t.show(&name)))
                .collect::<Vec<_>>()
                .join(", "),
            Op::Havoc { vars, nondet } => format!(
                "havoc{} {}",
                if *nondet { "(nondet)" } else { "" },
                vars.iter().map(|&x| name(x)).collect::<Vec<_>>().join(", ")
            ),
        }
    }
    /// Graphviz DOT text (`--dump-cfa`).
    pub fn to_dot(&self) -> String {
        let mut s = String::from("digraph cfa {\n  node [shape=circle];\n");
        let _ = writeln!(
            s,
            "  {} [shape=doublecircle, label=\"{} init\"];",
            self.init, self.init
        );
        let _ = writeln!(
            s,
            "  {} [shape=box, color=red, label=\"{} error\"];",
            self.error, self.error
        );
        if self.cuts > 0 {
            let _ = writeln!(s, "  {} [shape=box, label=\"{} cut\"];", self.cut, self.cut);
        }
        for e in &self.edges {
            let label = self
                .show_op(&e.op)
                .replace('\\', "\\\\")
                .replace('"', "\\\"");
            let _ = writeln!(s, "  {} -> {} [label=\"{}\"];", e.from, e.to, label);
        }
        s.push_str("}\n");
        s
    }
}
