//! A DVE model compiled once: the packed state layout (one byte per process state, then the
//! global variables, each process's locals, and the buffered channels' contents), the initial
//! state, and every guard, effect and channel operation as bytecode. Names are resolved here;
//! unknown names, non-constant array sizes and the like are located errors.

use crate::bytecode::{Op, Prog, Width};
use crate::dve_ast::*;
use rustc_hash::FxHashMap;
use verikit_diag::{Diagnostic, Span};

/// Which transitions produced a successor: process transition ids (a rendezvous has two), and the
/// property process's transition.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Label {
    pub trans: Vec<u32>,
    pub property: Option<u32>,
}

/// A variable's place in the packed state.
#[derive(Clone, Debug)]
pub(crate) struct Slot {
    pub(crate) name: String,
    pub(crate) off: u32,
    pub(crate) w: Width,
    /// Array length (`None` for a scalar).
    pub(crate) len: Option<u32>,
}

#[derive(Clone, Debug)]
pub(crate) enum SyncC {
    None,
    Send {
        chan: u32,
        values: Vec<Prog>,
    },
    /// Each target is a store program expecting the received value on the stack (`None`: the
    /// field is matched, not stored); `matches` are (field, expected value) programs evaluated
    /// in the state before the step: the receive is executable only when every one agrees.
    Recv {
        chan: u32,
        targets: Vec<Option<Prog>>,
        matches: Vec<(usize, Prog)>,
    },
}

#[derive(Clone, Debug)]
pub(crate) struct Trans {
    pub(crate) proc: u32,
    pub(crate) from: u8,
    pub(crate) to: u8,
    pub(crate) guard: Option<Prog>,
    pub(crate) sync: SyncC,
    pub(crate) effect: Prog,
    pub(crate) span: Span,
}

#[derive(Clone, Debug)]
pub(crate) struct Proc {
    pub(crate) name: String,
    pub(crate) states: Vec<String>,
    pub(crate) accept: Vec<bool>,
    pub(crate) commit: Vec<bool>,
    /// Transitions (indices into `Model::trans`) leaving each state.
    pub(crate) by_state: Vec<Vec<u32>>,
    /// Assertions per state.
    pub(crate) asserts: Vec<Vec<Prog>>,
    pub(crate) locals: Vec<Slot>,
}

#[derive(Clone, Debug)]
pub(crate) struct Chan {
    pub(crate) name: String,
    /// 0 = rendezvous.
    pub(crate) capacity: u32,
    /// Field widths of one message (buffered channels).
    pub(crate) fields: Vec<Width>,
    /// Offset of the item count, followed by `capacity` messages (buffered channels).
    pub(crate) off: u32,
}

impl Chan {
    pub(crate) fn item_size(&self) -> usize {
        self.fields.iter().map(|&w| w as usize).sum()
    }
}

/// A compiled DVE model.
#[derive(Clone, Debug)]
pub struct Model {
    pub(crate) procs: Vec<Proc>,
    pub(crate) trans: Vec<Trans>,
    pub(crate) chans: Vec<Chan>,
    pub(crate) globals: Vec<Slot>,
    pub(crate) consts: FxHashMap<String, i32>,
    /// The property process (`system async property P`), an index into `procs`.
    pub(crate) property: Option<u32>,
    pub(crate) synchronous: bool,
    /// Promela's `atomic` sequences are explored through, their inner states not stored
    /// (`Generator::through_atomic`; from `DveAst::atomic_yields`).
    pub(crate) through_atomic: bool,
    /// An erroneous transition leads to DiVinE's one error state instead of having no
    /// successor ([`Model::set_divine_errors`]).
    pub(crate) divine_errors: bool,
    /// Rendezvous receive transitions per channel.
    pub(crate) receivers: Vec<Vec<u32>>,
    pub(crate) init: Vec<u8>,
    pub(crate) ast: DveAst,
}

impl Model {
    /// Explores Promela's `atomic` sequences through, without storing their inner states (the
    /// default for Promela, as SPIN does), or stores them as DVE's committed states (`false`;
    /// DVE models always do).
    pub fn set_through_atomic(&mut self, on: bool) {
        self.through_atomic = on && self.ast.atomic_yields;
    }

    /// DiVinE's handling of evaluation errors (`-x mc.errors=divine`), which BEEM's published
    /// counts were generated with: every erroneous transition leads to one shared error state
    /// (see [`Model::error_state`]) instead of having no successor (`false`, the default).
    pub fn set_divine_errors(&mut self, on: bool) {
        self.divine_errors = on;
    }

    /// DiVinE's error state: every byte zero except the control state of the first process,
    /// which is one past its last state (DiVinE's `go_to_error`). The first process has no
    /// transition there; the others are in their first-declared control state with every
    /// variable zero, and move on from it.
    pub(crate) fn error_state(&self) -> Vec<u8> {
        let mut s = vec![0u8; self.state_size()];
        if let (Some(first), Some(p)) = (s.first_mut(), self.procs.first()) {
            *first = u8::try_from(p.states.len()).unwrap_or(u8::MAX);
        }
        s
    }

    /// Bytes per packed state.
    pub fn state_size(&self) -> usize {
        self.init.len()
    }
    /// Number of processes (the property process included).
    pub fn num_processes(&self) -> usize {
        self.procs.len()
    }
    /// The parsed model the compiled one comes from.
    pub fn ast(&self) -> &DveAst {
        &self.ast
    }
    /// The name of the property process, if the model has one.
    pub fn property_process(&self) -> Option<&str> {
        self.property
            .and_then(|p| self.procs.get(p as usize))
            .map(|p| p.name.as_str())
    }
    /// Whether any process has an accepting state (the negative-claim automaton of a property).
    pub fn has_accepting(&self) -> bool {
        self.property.is_some()
    }
}

fn err(span: Span, msg: impl Into<String>) -> Diagnostic {
    let m = msg.into();
    Diagnostic::at(span, m.clone()).with_span(span, m)
}

struct Scope<'a> {
    m: &'a Model,
    /// The process whose locals are visible, if any.
    proc: Option<usize>,
    /// Locals being declared (during layout of a process, before `m.procs` has it).
    locals: Option<&'a [Slot]>,
}

impl Scope<'_> {
    fn var(&self, name: &str) -> Option<&Slot> {
        let locals = self.locals.or_else(|| {
            self.proc
                .and_then(|p| self.m.procs.get(p))
                .map(|p| &p.locals[..])
        });
        locals
            .and_then(|l| l.iter().find(|s| s.name == name))
            .or_else(|| self.m.globals.iter().find(|s| s.name == name))
    }
}

fn proc_index(m: &Model, name: &str, span: Span) -> Result<usize, Diagnostic> {
    m.procs
        .iter()
        .position(|p| p.name == name)
        .ok_or_else(|| err(span, format!("unknown process `{name}`")))
}

fn compile_expr(sc: &Scope, e: &Expr, out: &mut Prog) -> Result<(), Diagnostic> {
    match e {
        Expr::Int(v, sp) => out.push(Op::Const(*v as i32), *sp),
        Expr::Var(n, sp) => {
            if let Some(s) = sc.var(n) {
                // An array named without an index is its first element, as in DiVinE (BEEM's
                // train-gate reads and writes `e` for `e[0]`).
                out.push(Op::Load { off: s.off, w: s.w }, *sp);
            } else if let Some(&c) = sc.m.consts.get(n) {
                out.push(Op::Const(c), *sp);
            } else {
                return Err(err(*sp, format!("unknown variable `{n}`")));
            }
        }
        Expr::Index(n, i, sp) => {
            let s = sc
                .var(n)
                .ok_or_else(|| err(*sp, format!("unknown array `{n}`")))?
                .clone();
            let Some(len) = s.len else {
                return Err(err(*sp, format!("`{n}` is not an array")));
            };
            compile_expr(sc, i, out)?;
            out.push(
                Op::LoadIdx {
                    off: s.off,
                    w: s.w,
                    len,
                },
                *sp,
            );
        }
        Expr::InState(p, st, sp) => {
            let pi = proc_index(sc.m, p, *sp)?;
            let pr = &sc.m.procs[pi];
            let si = pr
                .states
                .iter()
                .position(|x| x == st)
                .ok_or_else(|| err(*sp, format!("process `{p}` has no state `{st}`")))?;
            out.push(
                Op::InState {
                    off: pi as u32,
                    st: si as u8,
                },
                *sp,
            );
        }
        Expr::Remote(p, v, idx, sp) => {
            let pi = proc_index(sc.m, p, *sp)?;
            let s = sc.m.procs[pi]
                .locals
                .iter()
                .find(|s| s.name == *v)
                .ok_or_else(|| err(*sp, format!("process `{p}` has no variable `{v}`")))?
                .clone();
            match (idx, s.len) {
                (None, None) => out.push(Op::Load { off: s.off, w: s.w }, *sp),
                (Some(i), Some(len)) => {
                    compile_expr(sc, i, out)?;
                    out.push(
                        Op::LoadIdx {
                            off: s.off,
                            w: s.w,
                            len,
                        },
                        *sp,
                    );
                }
                (None, Some(_)) => out.push(Op::Load { off: s.off, w: s.w }, *sp),
                (Some(_), None) => return Err(err(*sp, format!("`{v}` is not an array"))),
            }
        }
        Expr::Unary(op, a, sp) => {
            compile_expr(sc, a, out)?;
            out.push(Op::Un(*op), *sp);
        }
        Expr::Binary(op, a, b, sp) => match op {
            BinOp::And | BinOp::Or | BinOp::Imply => {
                compile_expr(sc, a, out)?;
                if *op == BinOp::Imply {
                    out.push(Op::Un(UnOp::Not), *sp);
                }
                let at = out.ops.len();
                out.push(Op::Bool, *sp); // placeholder, patched below
                compile_expr(sc, b, out)?;
                out.push(Op::Bool, *sp);
                let end = out.ops.len() as u32;
                out.patch(
                    at,
                    if *op == BinOp::And {
                        Op::JzKeep(end)
                    } else {
                        Op::JnzOne(end)
                    },
                );
            }
            _ => {
                compile_expr(sc, a, out)?;
                compile_expr(sc, b, out)?;
                out.push(Op::Bin(*op), *sp);
            }
        },
    }
    Ok(())
}

/// Evaluates a constant expression (constants and literals only).
fn const_eval(m: &Model, e: &Expr) -> Result<i32, Diagnostic> {
    let probe = m.clone_light();
    let sc = Scope {
        m: &probe,
        proc: None,
        locals: Some(&[]),
    };
    let mut p = Prog::default();
    compile_expr(&sc, e, &mut p).map_err(|d| {
        Diagnostic::at(e.span(), "expected a constant expression")
            .with_span(e.span(), "not constant")
            .with_note(d.message)
    })?;
    let mut scratch = [0u8; 0];
    p.exec(&mut scratch, &mut Vec::new()).map_err(|x| {
        Diagnostic::at(
            x.span,
            format!("{} in a constant expression", x.kind.as_str()),
        )
        .with_span(x.span, x.kind.as_str())
    })
}

impl Model {
    fn clone_light(&self) -> Model {
        Model {
            procs: Vec::new(),
            trans: Vec::new(),
            chans: Vec::new(),
            globals: Vec::new(),
            consts: self.consts.clone(),
            property: None,
            synchronous: false,
            through_atomic: false,
            divine_errors: false,
            receivers: Vec::new(),
            init: Vec::new(),
            ast: DveAst::default(),
        }
    }
}

fn width(t: Ty) -> Width {
    match t {
        Ty::Byte => 1,
        Ty::Int => 2,
    }
}

/// Lays out variables; returns the slots, and appends their initial values to `init`.
fn layout_vars(
    m: &mut Model,
    decls: &[VarDecl],
    init: &mut Vec<u8>,
) -> Result<Vec<Slot>, Diagnostic> {
    let mut slots: Vec<Slot> = Vec::new();
    for d in decls {
        if slots.iter().any(|s| s.name == d.name) || m.consts.contains_key(&d.name) {
            return Err(err(d.span, format!("`{}` is declared twice", d.name)));
        }
        if d.is_const {
            if d.len.is_some() {
                return Err(err(d.span, "constant arrays are not supported"));
            }
            let Some(e) = d.init.first() else {
                return Err(err(d.span, format!("constant `{}` has no value", d.name)));
            };
            let v = const_eval(m, e)?;
            m.consts.insert(d.name.clone(), v);
            continue;
        }
        let len = match &d.len {
            None => None,
            Some(e) => {
                let n = const_eval(m, e)?;
                if !(1..=65_536).contains(&n) {
                    return Err(err(
                        e.span(),
                        format!("array length {n} out of range 1..65536"),
                    ));
                }
                Some(n as u32)
            }
        };
        let n = len.unwrap_or(1) as usize;
        if d.init.len() > 1 && len.is_none() {
            return Err(err(d.span, "a list initialiser for a scalar"));
        }
        let w = width(d.ty);
        let off = init.len() as u32;
        for k in 0..n {
            // BEEM's models sometimes list more initial values than the array has; DiVinE
            // ignores the surplus (anderson: `byte Slot[2] = {1, 0, 0}`), so do we.
            let v = match d.init.get(k) {
                Some(e) => const_eval(m, e)?,
                None if len.is_none() => 0,
                None => 0,
            };
            let mut buf = [0u8; 2];
            crate::bytecode::store(&mut buf, 0, w, v);
            init.extend_from_slice(&buf[..w as usize]);
        }
        slots.push(Slot {
            name: d.name.clone(),
            off,
            w,
            len,
        });
    }
    Ok(slots)
}

fn compile_store(sc: &Scope, lv: &LValue, out: &mut Prog) -> Result<(), Diagnostic> {
    let s = sc
        .var(&lv.name)
        .ok_or_else(|| {
            if sc.m.consts.contains_key(&lv.name) {
                err(lv.span, format!("cannot assign to constant `{}`", lv.name))
            } else {
                err(lv.span, format!("unknown variable `{}`", lv.name))
            }
        })?
        .clone();
    match (&lv.index, s.len) {
        (None, None) => out.push(Op::Store { off: s.off, w: s.w }, lv.span),
        (Some(i), Some(len)) => {
            compile_expr(sc, i, out)?;
            out.push(
                Op::StoreIdx {
                    off: s.off,
                    w: s.w,
                    len,
                },
                lv.span,
            );
        }
        (None, Some(_)) => out.push(Op::Store { off: s.off, w: s.w }, lv.span),
        (Some(_), None) => return Err(err(lv.span, format!("`{}` is not an array", lv.name))),
    }
    Ok(())
}

/// Compiles a parsed DVE model.
pub fn compile(ast: DveAst) -> Result<Model, Diagnostic> {
    let mut m = Model {
        procs: Vec::new(),
        trans: Vec::new(),
        chans: Vec::new(),
        globals: Vec::new(),
        consts: FxHashMap::default(),
        property: None,
        synchronous: ast.synchronous,
        through_atomic: ast.atomic_yields,
        divine_errors: false,
        receivers: Vec::new(),
        init: Vec::new(),
        ast: ast.clone(),
    };
    if ast.processes.is_empty() {
        return Err(Diagnostic::error("the model has no process"));
    }
    if ast.processes.len() > u32::MAX as usize / 2 {
        return Err(Diagnostic::error("too many processes"));
    }
    // Process state bytes first.
    let mut init = vec![0u8; ast.processes.len()];
    // Constants and globals in declaration order.
    m.globals = layout_vars(&mut m, &ast.vars, &mut init)?;
    // Processes: names, states, locals.
    for (pi, p) in ast.processes.iter().enumerate() {
        if ast.processes[..pi].iter().any(|q| q.name == p.name) {
            return Err(err(
                p.span,
                format!("process `{}` is declared twice", p.name),
            ));
        }
        if p.states.len() > 255 {
            return Err(err(
                p.span,
                "more than 255 states in one process are not supported",
            ));
        }
        let states: Vec<String> = p.states.iter().map(|s| s.0.clone()).collect();
        for (k, (s, sp)) in p.states.iter().enumerate() {
            if states[..k].contains(s) {
                return Err(err(*sp, format!("state `{s}` is declared twice")));
            }
        }
        let idx = |name: &str, sp: Span| {
            states
                .iter()
                .position(|x| x == name)
                .ok_or_else(|| err(sp, format!("process `{}` has no state `{name}`", p.name)))
        };
        init[pi] = idx(&p.init.0, p.init.1)? as u8;
        let mut accept = vec![false; states.len()];
        for (s, sp) in &p.accept {
            accept[idx(s, *sp)?] = true;
        }
        let mut commit = vec![false; states.len()];
        for (s, sp) in &p.commit {
            commit[idx(s, *sp)?] = true;
        }
        let locals = layout_vars(&mut m, &p.vars, &mut init)?;
        m.procs.push(Proc {
            name: p.name.clone(),
            by_state: vec![Vec::new(); states.len()],
            asserts: vec![Vec::new(); states.len()],
            states,
            accept,
            commit,
            locals,
        });
    }
    // Channels (after the processes, so buffers follow every variable).
    for c in &ast.channels {
        if m.chans.iter().any(|x| x.name == c.name) {
            return Err(err(
                c.span,
                format!("channel `{}` is declared twice", c.name),
            ));
        }
        let capacity = match &c.capacity {
            None => 0,
            Some(e) => {
                let n = const_eval(&m, e)?;
                if !(0..=4096).contains(&n) {
                    return Err(err(
                        e.span(),
                        format!("channel capacity {n} out of range 0..4096"),
                    ));
                }
                n as u32
            }
        };
        let fields: Vec<Width> = c.types.iter().map(|&t| width(t)).collect();
        let off = init.len() as u32;
        if capacity > 0 {
            let item: usize = fields.iter().map(|&w| w as usize).sum();
            init.push(0);
            init.resize(init.len() + item * capacity as usize, 0);
        }
        m.chans.push(Chan {
            name: c.name.clone(),
            capacity,
            fields,
            off,
        });
    }
    if init.len() > 1 << 20 {
        return Err(Diagnostic::error("the packed state would exceed 1 MiB"));
    }
    m.receivers = vec![Vec::new(); m.chans.len()];
    m.property = match &ast.property {
        None => None,
        Some((n, sp)) => Some(proc_index(&m, n, *sp)? as u32),
    };
    // Transitions and assertions.
    for (pi, p) in ast.processes.iter().enumerate() {
        let sc = Scope {
            m: &m,
            proc: Some(pi),
            locals: None,
        };
        let states = &m.procs[pi].states;
        let sidx = |name: &str, sp: Span| {
            states
                .iter()
                .position(|x| x == name)
                .map(|i| i as u8)
                .ok_or_else(|| err(sp, format!("process `{}` has no state `{name}`", p.name)))
        };
        let mut asserts = Vec::new();
        for (s, e, sp) in &p.asserts {
            let si = sidx(s, *sp)?;
            let mut prog = Prog::default();
            compile_expr(&sc, e, &mut prog)?;
            asserts.push((si, prog));
        }
        let mut trans = Vec::new();
        for t in &p.trans {
            let from = sidx(&t.from, t.span)?;
            let to = sidx(&t.to, t.span)?;
            let guard = match &t.guard {
                None => None,
                Some(g) => {
                    let mut prog = Prog::default();
                    compile_expr(&sc, g, &mut prog)?;
                    Some(prog)
                }
            };
            let sync = match &t.sync {
                None => SyncC::None,
                Some(s) => {
                    let ci = m
                        .chans
                        .iter()
                        .position(|c| c.name == s.chan)
                        .ok_or_else(|| err(s.span, format!("unknown channel `{}`", s.chan)))?;
                    let ch = &m.chans[ci];
                    let n = if s.dir == Dir::Send {
                        s.values.len()
                    } else {
                        s.targets.len()
                    };
                    if ch.capacity > 0 && n != ch.fields.len() {
                        return Err(err(
                            s.span,
                            format!(
                                "channel `{}` carries {} value(s), this {} has {n}",
                                ch.name,
                                ch.fields.len(),
                                if s.dir == Dir::Send {
                                    "send"
                                } else {
                                    "receive"
                                }
                            ),
                        ));
                    }
                    if Some(pi as u32) == m.property {
                        return Err(err(s.span, "a property process cannot synchronise"));
                    }
                    if m.synchronous {
                        return Err(err(
                            s.span,
                            "channels in a `system sync` model are not supported",
                        ));
                    }
                    match s.dir {
                        Dir::Send => {
                            let mut values = Vec::new();
                            for v in &s.values {
                                let mut prog = Prog::default();
                                compile_expr(&sc, v, &mut prog)?;
                                values.push(prog);
                            }
                            SyncC::Send {
                                chan: ci as u32,
                                values,
                            }
                        }
                        Dir::Recv => {
                            let mut targets = Vec::new();
                            let mut matches = Vec::new();
                            for (k, a) in s.targets.iter().enumerate() {
                                let mut prog = Prog::storing(ast.wrap_bytes);
                                match a {
                                    RecvArg::Store(lv) => {
                                        compile_store(&sc, lv, &mut prog)?;
                                        targets.push(Some(prog));
                                    }
                                    RecvArg::Match(e) => {
                                        compile_expr(&sc, e, &mut prog)?;
                                        matches.push((k, prog));
                                        targets.push(None);
                                    }
                                }
                            }
                            SyncC::Recv {
                                chan: ci as u32,
                                targets,
                                matches,
                            }
                        }
                    }
                }
            };
            let mut effect = Prog::storing(ast.wrap_bytes);
            for (lv, e) in &t.effect {
                compile_expr(&sc, e, &mut effect)?;
                compile_store(&sc, lv, &mut effect)?;
            }
            trans.push(Trans {
                proc: pi as u32,
                from,
                to,
                guard,
                sync,
                effect,
                span: t.span,
            });
        }
        for (si, prog) in asserts {
            m.procs[pi].asserts[si as usize].push(prog);
        }
        for t in trans {
            let id = m.trans.len() as u32;
            m.procs[pi].by_state[t.from as usize].push(id);
            if let SyncC::Recv { chan, .. } = &t.sync {
                if m.chans[*chan as usize].capacity == 0 {
                    m.receivers[*chan as usize].push(id);
                }
            }
            m.trans.push(t);
        }
    }
    m.init = init;
    Ok(m)
}

impl Model {
    /// Compiles a state predicate (names resolve to globals, constants, `P.s` and `P->v`).
    pub(crate) fn compile_predicate(&self, e: &Expr) -> Result<Prog, Diagnostic> {
        let sc = Scope {
            m: self,
            proc: None,
            locals: Some(&[]),
        };
        let mut p = Prog::default();
        compile_expr(&sc, e, &mut p)?;
        Ok(p)
    }

    /// The source span of a transition.
    pub(crate) fn transition_span(&self, id: u32) -> Option<Span> {
        self.trans.get(id as usize).map(|t| t.span)
    }

    /// Is process `p` in an accepting state in `st`?
    pub(crate) fn accepting(&self, p: u32, st: &[u8]) -> bool {
        self.procs
            .get(p as usize)
            .and_then(|pr| pr.accept.get(st.get(p as usize).copied()? as usize))
            .copied()
            .unwrap_or(false)
    }
}

/// A packed state decoded by name: process states, variables (`x` global, `P.x` local; arrays
/// as lists) and buffered channels' queues. Witness traces are lists of these.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct DecodedState {
    pub processes: std::collections::BTreeMap<String, String>,
    pub vars: std::collections::BTreeMap<String, Vec<i64>>,
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub channels: std::collections::BTreeMap<String, Vec<Vec<i64>>>,
}

impl Model {
    /// Decodes a packed state.
    pub fn decode(&self, st: &[u8]) -> DecodedState {
        use crate::bytecode::load;
        let mut d = DecodedState::default();
        let read = |s: &Slot| -> Vec<i64> {
            (0..s.len.unwrap_or(1))
                .map(|k| i64::from(load(st, s.off as usize + k as usize * s.w as usize, s.w)))
                .collect()
        };
        for (pi, p) in self.procs.iter().enumerate() {
            let s = st.get(pi).copied().unwrap_or(0) as usize;
            d.processes
                .insert(p.name.clone(), p.states.get(s).cloned().unwrap_or_default());
            for l in &p.locals {
                d.vars.insert(format!("{}.{}", p.name, l.name), read(l));
            }
        }
        for g in &self.globals {
            d.vars.insert(g.name.clone(), read(g));
        }
        for c in self.chans.iter().filter(|c| c.capacity > 0) {
            let off = c.off as usize;
            let n = st.get(off).copied().unwrap_or(0) as usize;
            let mut q = Vec::new();
            let mut at = off + 1;
            for _ in 0..n {
                let mut item = Vec::new();
                for &w in &c.fields {
                    item.push(i64::from(load(st, at, w)));
                    at += w as usize;
                }
                q.push(item);
            }
            d.channels.insert(c.name.clone(), q);
        }
        d
    }

    /// A one-line description of a transition label.
    pub fn describe(&self, l: &Label) -> String {
        let one = |id: u32| {
            self.trans
                .get(id as usize)
                .map(|t| {
                    let p = &self.procs[t.proc as usize];
                    format!(
                        "{}: {} -> {}",
                        p.name,
                        p.states.get(t.from as usize).map_or("?", |s| s),
                        p.states.get(t.to as usize).map_or("?", |s| s)
                    )
                })
                .unwrap_or_default()
        };
        let mut parts: Vec<String> = l.trans.iter().map(|&t| one(t)).collect();
        if let Some(p) = l.property {
            parts.push(one(p));
        }
        parts.join(" | ")
    }
}
