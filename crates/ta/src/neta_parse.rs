//! Nested timed automata with invariants (NeTA-I): the model and its text format.
//!
//! Seed: Wang, Li, Yuen, "Nested timed automata with invariants" (SETTA 2017, S05), §2.1
//! Definition 1 (timed automata with the operations ε, test `x ∈ I?`, reset `x ← 0`, value
//! passing `x ← x'`) and §3 Definition 3 (a NeTA-I `(T, A0, X, C, I, Δ)`: a finite set of TAs
//! sharing the local clocks `X`, global clocks `C`, local and global invariants per location, and
//! the rules internal, push, F-push, pop, global-test, global-reset, global-load `x ← c` and
//! global-store `c ← x`).
//!
//! The format (`.neta`) follows TChecker's line syntax, `#` comments:
//!
//! ```text
//! system:NAME
//! clock:x                       # a local clock (every automaton has the same local clocks)
//! global:c                      # a global clock
//! automaton:A0                  # the first automaton declared is the initial one, A0
//! location:A0:q0{initial: : invariant: x<=1 && c<3 : labels: start}
//! edge:A0:q0:A0:q1{provided: x>=1 : do: x=0; c=x; x=c}   # internal/global operations
//! edge:A0:q1:A1:r0{do: push}    # push A0 (its clocks keep running); A1 starts at r0, initial
//! edge:A0:q1:A1:r0{do: fpush}   # F-push: the clocks of the pushed A0 are frozen
//! edge:A1:r1:A0:q1{do: pop}     # A1 finishes at r1; the top frame must be at q1, A0 resumes
//! ```
//!
//! `provided` is a conjunction of tests `clock OP n`; `do` is a `;`-separated sequence of
//! `clock=0` (reset), `x=y` (value passing), `x=c` (global-load), `c=x` (global-store), ending
//! with at most one `push`/`fpush`/`pop` (Definition 3's rules are sequences of actions; the tests
//! of `provided` come first). An invariant conjoins constraints on local clocks (the local invariant `I(A)(q)`) and on
//! global clocks (the global invariant `I(q)`).

use crate::cta_parse::{
    clock_atom, complete, declared, for_each_declaration, fresh_ident, ident, piece, split,
    Declaration, Piece,
};
use crate::model::Cmp;
use rustc_hash::FxHashMap;
use verikit_diag::{Diagnostic, Span};

/// A clock of a NeTA-I.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NetaClock {
    /// A local clock (index into [`Neta::locals`]) of the working automaton.
    Local(usize),
    /// A global clock (index into [`Neta::globals`]).
    Global(usize),
}

/// `clock OP value`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NetaAtom {
    /// Clock.
    pub clock: NetaClock,
    /// Comparison.
    pub cmp: Cmp,
    /// Constant.
    pub value: i32,
}

/// One action of a rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NetaOp {
    /// Test (`x ∈ I?`, global-test).
    Test(NetaAtom),
    /// Reset to 0 (local or global).
    Reset(NetaClock),
    /// `dst ← src`: value passing (local ← local), global-load (local ← global), global-store
    /// (global ← local).
    Copy {
        /// Assigned clock.
        dst: NetaClock,
        /// Copied clock.
        src: NetaClock,
    },
    /// Push: the working automaton goes on the stack, its clocks proceeding.
    Push,
    /// F-push: the same with frozen clocks.
    FPush,
    /// Pop: the top frame resumes.
    Pop,
}

/// A rule: from `(aut, src)` to `(tgt_aut, tgt)` by `ops` in order.
#[derive(Clone, Debug)]
pub struct NetaEdge {
    /// Source automaton.
    pub aut: usize,
    /// Source location (index within its automaton).
    pub src: u32,
    /// Target automaton.
    pub tgt_aut: usize,
    /// Target location.
    pub tgt: u32,
    /// Actions.
    pub ops: Vec<NetaOp>,
    /// Declaration in the source.
    pub span: Span,
}

/// A location of one automaton.
#[derive(Clone, Debug)]
pub struct NetaLocation {
    /// Name.
    pub name: String,
    /// Local invariant (atoms on local clocks).
    pub local_inv: Vec<NetaAtom>,
    /// Global invariant (atoms on global clocks).
    pub global_inv: Vec<NetaAtom>,
    /// Label indices.
    pub labels: Vec<u32>,
}

/// One timed automaton of the set `T`.
#[derive(Clone, Debug)]
pub struct NetaAutomaton {
    /// Name.
    pub name: String,
    /// Locations.
    pub locations: Vec<NetaLocation>,
    /// Initial location.
    pub initial: u32,
    /// Declaration in the source.
    pub span: Span,
}

/// A nested timed automaton with invariants.
#[derive(Clone, Debug, Default)]
pub struct Neta {
    /// System name.
    pub name: String,
    /// Automata; the first is `A0`.
    pub automata: Vec<NetaAutomaton>,
    /// Local clock names (`X`).
    pub locals: Vec<String>,
    /// Global clock names (`C`).
    pub globals: Vec<String>,
    /// Rules (`Δ`).
    pub edges: Vec<NetaEdge>,
    /// Labels.
    pub labels: Vec<String>,
}

impl Neta {
    /// The largest constant of the invariants and tests (0 when there is none): the `n` of the
    /// digitization intervals `Intv(n)` (Wang–Li–Yuen Definition 8).
    pub fn max_constant(&self) -> i32 {
        let invs = self
            .automata
            .iter()
            .flat_map(|a| &a.locations)
            .flat_map(|l| l.local_inv.iter().chain(&l.global_inv));
        let tests = self
            .edges
            .iter()
            .flat_map(|e| &e.ops)
            .filter_map(|o| match o {
                NetaOp::Test(a) => Some(a),
                _ => None,
            });
        invs.chain(tests).map(|a| a.value).max().unwrap_or(0).max(0)
    }

    /// The location `q` of automaton `a`.
    pub fn location(&self, a: usize, q: u32) -> Option<&NetaLocation> {
        self.automata.get(a)?.locations.get(q as usize)
    }

    /// Whether some location has an invariant.
    pub fn has_invariants(&self) -> bool {
        self.automata.iter().any(|a| {
            a.locations
                .iter()
                .any(|l| !l.local_inv.is_empty() || !l.global_inv.is_empty())
        })
    }
}

#[derive(Default)]
struct Builder {
    neta: Neta,
    clocks: FxHashMap<String, NetaClock>,
    auts: FxHashMap<String, usize>,
    locs: Vec<FxHashMap<String, u32>>,
    labels: FxHashMap<String, u32>,
    initial_seen: Vec<bool>,
}

/// Parses a `.neta` text (see the module documentation).
pub fn parse_neta(text: &str) -> Result<Neta, Diagnostic> {
    let mut b = Builder::default();
    b.neta.name = for_each_declaration(text, |d| b.declaration(d))?;
    complete(
        &b.initial_seen,
        b.neta.automata.iter().map(|a| (a.span, a.name.as_str())),
        "automaton",
    )?;
    if b.neta.automata.is_empty() {
        return Err(Diagnostic::at(
            Span::point(0),
            "no `automaton:` declared (A0 is the first one)",
        ));
    }
    for e in &b.neta.edges {
        let stack = e
            .ops
            .iter()
            .find(|o| matches!(o, NetaOp::Push | NetaOp::FPush));
        let init = b.neta.automata.get(e.tgt_aut).map(|a| a.initial);
        if stack.is_some() && init != Some(e.tgt) {
            return Err(Diagnostic::at(
                e.span,
                "a push starts the new automaton at its initial location (Wang–Li–Yuen Def. 3)",
            ));
        }
    }
    Ok(b.neta)
}

impl Builder {
    fn declaration(&mut self, decl: Declaration<'_>) -> Result<(), Diagnostic> {
        let line = decl.line;
        let (f, attrs) = (&decl.fields, &decl.attrs);
        let kind = f[0];
        let want = |n: usize| decl.want(n);
        match kind.text {
            "clock" | "global" => {
                want(2)?;
                let name = fresh_ident(&self.clocks, f[1], "clock")?;
                let c = if kind.text == "clock" {
                    self.neta.locals.push(name.to_string());
                    NetaClock::Local(self.neta.locals.len() - 1)
                } else {
                    self.neta.globals.push(name.to_string());
                    NetaClock::Global(self.neta.globals.len() - 1)
                };
                self.clocks.insert(name.to_string(), c);
            }
            "automaton" => {
                want(2)?;
                let name = fresh_ident(&self.auts, f[1], "automaton")?;
                self.auts.insert(name.to_string(), self.neta.automata.len());
                self.neta.automata.push(NetaAutomaton {
                    name: name.to_string(),
                    locations: Vec::new(),
                    initial: 0,
                    span: line.span,
                });
                self.locs.push(FxHashMap::default());
                self.initial_seen.push(false);
            }
            "location" => {
                want(3)?;
                let a = self.automaton(f[1])?;
                let Some(locs) = self.locs.get_mut(a) else {
                    return Err(Diagnostic::at(f[1].span, "unknown automaton"));
                };
                let name = fresh_ident(locs, f[2], "location")?;
                let idx = locs.len() as u32;
                locs.insert(name.to_string(), idx);
                let mut loc = NetaLocation {
                    name: name.to_string(),
                    local_inv: Vec::new(),
                    global_inv: Vec::new(),
                    labels: Vec::new(),
                };
                for (k, v) in attrs {
                    match k.text {
                        "initial" => {
                            if self.initial_seen[a] {
                                return Err(Diagnostic::at(k.span, "a second initial location"));
                            }
                            self.initial_seen[a] = true;
                            self.neta.automata[a].initial = idx;
                        }
                        "invariant" if !v.text.is_empty() => {
                            for p in split(v.text, v.span.start, "&&") {
                                let at = self.atom(p)?;
                                match at.clock {
                                    NetaClock::Local(_) => loc.local_inv.push(at),
                                    NetaClock::Global(_) => loc.global_inv.push(at),
                                }
                            }
                        }
                        "labels" => {
                            for l in split(v.text, v.span.start, ",") {
                                let l = ident(l, "label")?;
                                let n = self.labels.len() as u32;
                                let id = *self.labels.entry(l.to_string()).or_insert(n);
                                if id == n {
                                    self.neta.labels.push(l.to_string());
                                }
                                loc.labels.push(id);
                            }
                        }
                        _ => {}
                    }
                }
                self.neta.automata[a].locations.push(loc);
            }
            "edge" => {
                want(5)?;
                let aut = self.automaton(f[1])?;
                let src = self.location(aut, f[2])?;
                let tgt_aut = self.automaton(f[3])?;
                let tgt = self.location(tgt_aut, f[4])?;
                let mut ops = Vec::new();
                for (k, v) in attrs {
                    match k.text {
                        "provided" if !v.text.is_empty() => {
                            for p in split(v.text, v.span.start, "&&") {
                                ops.push(NetaOp::Test(self.atom(p)?));
                            }
                        }
                        "do" => {
                            for p in split(v.text, v.span.start, ";") {
                                if !p.text.is_empty() {
                                    ops.push(self.op(p)?);
                                }
                            }
                        }
                        _ => {}
                    }
                }
                let stack_ops = ops
                    .iter()
                    .filter(|o| matches!(o, NetaOp::Push | NetaOp::FPush | NetaOp::Pop))
                    .count();
                let last_is_stack =
                    matches!(ops.last(), Some(NetaOp::Push | NetaOp::FPush | NetaOp::Pop));
                if stack_ops > 1 || (stack_ops == 1 && !last_is_stack) {
                    return Err(Diagnostic::at(
                        line.span,
                        "a rule has at most one push, fpush or pop, as its last action",
                    ));
                }
                if stack_ops == 0 && tgt_aut != aut {
                    return Err(Diagnostic::at(
                        f[3].span,
                        "only push, fpush and pop change the working automaton",
                    ));
                }
                self.neta.edges.push(NetaEdge {
                    aut,
                    src,
                    tgt_aut,
                    tgt,
                    ops,
                    span: line.span,
                });
            }
            other => {
                return Err(Diagnostic::at(
                    kind.span,
                    format!("unknown declaration `{other}` (expected system, clock, global, automaton, location or edge)"),
                ))
            }
        }
        Ok(())
    }

    fn automaton(&self, f: Piece<'_>) -> Result<usize, Diagnostic> {
        declared(Some(&self.auts), f, "automaton")
    }

    fn location(&self, a: usize, f: Piece<'_>) -> Result<u32, Diagnostic> {
        declared(self.locs.get(a), f, "location")
    }

    fn clock(&self, f: Piece<'_>) -> Result<NetaClock, Diagnostic> {
        self.clocks
            .get(f.text)
            .copied()
            .ok_or_else(|| Diagnostic::at(f.span, format!("undeclared clock `{}`", f.text)))
    }

    fn atom(&self, a: Piece<'_>) -> Result<NetaAtom, Diagnostic> {
        let (lhs, cmp, value) = clock_atom(a)?;
        Ok(NetaAtom {
            clock: self.clock(lhs)?,
            cmp,
            value,
        })
    }

    fn op(&self, p: Piece<'_>) -> Result<NetaOp, Diagnostic> {
        match p.text {
            "push" => return Ok(NetaOp::Push),
            "fpush" => return Ok(NetaOp::FPush),
            "pop" => return Ok(NetaOp::Pop),
            _ => {}
        }
        let Some(i) = p.text.find('=') else {
            return Err(Diagnostic::at(
                p.span,
                format!(
                    "invalid action `{}` (expected `x=0`, `x=y`, push, fpush or pop)",
                    p.text
                ),
            ));
        };
        let lhs = piece(&p.text[..i], p.span.start);
        let rhs = piece(&p.text[i + 1..], p.span.start + i + 1);
        let dst = self.clock(lhs)?;
        if rhs.text == "0" {
            return Ok(NetaOp::Reset(dst));
        }
        let src = self.clock(rhs)?;
        if let (NetaClock::Global(_), NetaClock::Global(_)) = (dst, src) {
            return Err(Diagnostic::at(
                p.span,
                "global ← global is not an action of NeTA-Is (Wang–Li–Yuen Def. 3)",
            ));
        }
        Ok(NetaOp::Copy { dst, src })
    }
}
