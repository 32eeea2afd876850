//! Lowering of the C subset (integer scalars, structured control flow, `goto`, calls inlined,
//! globals, SV-COMP's `__VERIFIER_*` conventions) to one control-flow automaton (`cfa`).
//!
//! Integer semantics: values are exact integers; unsigned arithmetic and every narrowing
//! conversion wrap modulo 2^w (C defines the first, gcc the second); signed arithmetic either
//! stays unbounded (default: signed overflow is undefined behaviour, and verikit analyses the
//! program as if it computed on mathematical integers) or wraps as two's complement (`wrap`).
//! A wrap of `e` to `w` bits is encoded in linear integer arithmetic: `havoc k; t := e - 2^w·k;
//! assume lo ≤ t ≤ hi`.

use crate::cfa::{Atom, Cfa, Edge, IntTy, Lin, Loc, Op, Var, VarInfo};
use crate::error::ProgError;
use crate::front::Preprocessed;
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::HashMap;

/// Options of the lowering.
#[derive(Clone, Copy, Debug)]
pub struct LowerOptions {
    /// Signed arithmetic wraps (two's complement) instead of computing on unbounded integers.
    pub wrap: bool,
    /// How many times a function may appear on the inlining stack (recursion depth bound).
    pub max_recursion: usize,
    /// Largest automaton built (edges); beyond it the lowering gives up.
    pub max_edges: usize,
    /// A recursive call beyond `max_recursion` becomes a call of the function's summary
    /// (`Cfa::procs`/`Cfa::calls`, module `chc`'s procedure summaries) instead of a cut.
    pub summaries: bool,
}

impl Default for LowerOptions {
    fn default() -> Self {
        LowerOptions {
            wrap: false,
            max_recursion: 1,
            max_edges: 400_000,
            summaries: false,
        }
    }
}

/// A boolean condition over linear atoms.
#[derive(Clone, Debug)]
enum Cond {
    Atom(Atom),
    And(Vec<Cond>),
    Or(Vec<Cond>),
}

impl Cond {
    fn tt() -> Cond {
        Cond::And(Vec::new())
    }
    fn not(self) -> Result<Cond, ProgError> {
        Ok(match self {
            Cond::And(cs) => Cond::Or(cs.into_iter().map(Cond::not).collect::<Result<_, _>>()?),
            Cond::Or(cs) => Cond::And(cs.into_iter().map(Cond::not).collect::<Result<_, _>>()?),
            Cond::Atom(a) if a.eq => Cond::Or(vec![
                Cond::Atom(Atom::le0(a.lin.add_const(1).map_err(ovf)?)),
                Cond::Atom(Atom::le0(
                    a.lin.scale(-1).and_then(|l| l.add_const(1)).map_err(ovf)?,
                )),
            ]),
            // ¬(l ≤ 0) ⇔ l ≥ 1 ⇔ -l + 1 ≤ 0 (integers)
            Cond::Atom(a) => Cond::Atom(Atom::le0(
                a.lin.scale(-1).and_then(|l| l.add_const(1)).map_err(ovf)?,
            )),
        })
    }
    /// Disjunctive normal form, constant atoms folded; at most `cap` disjuncts.
    fn dnf(&self, cap: usize) -> Result<Vec<Vec<Atom>>, ProgError> {
        Ok(match self {
            Cond::Atom(a) => match a.lin.as_const() {
                Some(k) => {
                    if (a.eq && k == 0) || (!a.eq && k <= 0) {
                        vec![vec![]]
                    } else {
                        vec![]
                    }
                }
                None => vec![vec![a.clone()]],
            },
            Cond::Or(cs) => {
                let mut out = Vec::new();
                for c in cs {
                    out.extend(c.dnf(cap)?);
                    if out.len() > cap {
                        return Err(ProgError::Unsupported(
                            "condition too large for the disjunctive normal form".into(),
                        ));
                    }
                }
                out
            }
            Cond::And(cs) => {
                let mut acc: Vec<Vec<Atom>> = vec![vec![]];
                for c in cs {
                    let d = c.dnf(cap)?;
                    let mut next = Vec::new();
                    for a in &acc {
                        for b in &d {
                            let mut x = a.clone();
                            x.extend(b.iter().cloned());
                            next.push(x);
                        }
                    }
                    if next.len() > cap {
                        return Err(ProgError::Unsupported(
                            "condition too large for the disjunctive normal form".into(),
                        ));
                    }
                    acc = next;
                }
                acc
            }
        })
    }
}

fn ovf(_: crate::cfa::Overflow) -> ProgError {
    ProgError::Unsupported("integer constant too large for the linear encoding".into())
}

/// A value: a linear term, its C type, and whether it may lie outside that type's range
/// (unbounded arithmetic not yet wrapped).
#[derive(Clone, Debug)]
struct Val {
    lin: Lin,
    ty: IntTy,
    wide: bool,
}

/// An operand of a comparison (see [`Lower::side`]).
enum Side {
    Val(Val),
    /// The factors of a product of two non-constant values, and their common type.
    Product(Lin, Lin, IntTy),
}

struct Func<'a> {
    def: &'a FunctionDefinition,
    ret: Option<IntTy>,
    params: Vec<(String, IntTy)>,
}

struct Frame {
    name: String,
    ret_loc: Loc,
    ret_var: Option<(Var, IntTy)>,
    labels: HashMap<String, Loc>,
    brk: Vec<Loc>,
    cont: Vec<Loc>,
}

struct Lower<'a> {
    cfa: Cfa,
    cur: Loc,
    pre: &'a Preprocessed,
    file: String,
    opts: LowerOptions,
    funcs: HashMap<String, Func<'a>>,
    scopes: Vec<HashMap<String, Var>>,
    frames: Vec<Frame>,
    line: u32,
    col: usize,
    /// Summarised functions whose bodies are still to be lowered (indices into `cfa.procs`).
    pending: Vec<usize>,
}

const DNF_CAP: usize = 256;
const SMALL_DNF: usize = 16;

/// Lowers a parsed translation unit to an automaton for `main`.
pub(crate) fn lower(
    unit: &TranslationUnit,
    pre: &Preprocessed,
    file: &str,
    opts: LowerOptions,
) -> Result<Cfa, ProgError> {
    let mut lw = Lower {
        cfa: Cfa::default(),
        cur: 0,
        pre,
        file: file.to_string(),
        opts,
        funcs: HashMap::new(),
        scopes: vec![HashMap::new()],
        frames: Vec::new(),
        line: 0,
        col: 0,
        pending: Vec::new(),
    };
    lw.cfa.init = lw.new_loc();
    lw.cfa.error = lw.new_loc();
    lw.cfa.cut = lw.new_loc();
    lw.cur = lw.cfa.init;
    for ext in &unit.0 {
        lw.at(ext.span.start);
        match &ext.node {
            ExternalDeclaration::Declaration(d) => lw.global_decl(&d.node)?,
            ExternalDeclaration::FunctionDefinition(f) => lw.func_def(&f.node)?,
            ExternalDeclaration::StaticAssert(_) => {}
        }
    }
    if !lw.funcs.contains_key("main") {
        return Err(ProgError::Unsupported("no function main".into()));
    }
    let exit = lw.new_loc();
    lw.inline_call("main", Vec::new(), exit)?;
    while let Some(p) = lw.pending.pop() {
        lw.proc_body(p)?;
    }
    lw.cfa.prune();
    Ok(lw.cfa)
}

impl<'a> Lower<'a> {
    fn at(&mut self, offset: usize) {
        let (l, c) = self.pre.locate(offset);
        if l > 0 {
            self.line = l;
            self.col = c;
        }
    }
    fn unsup(&self, what: &str) -> ProgError {
        ProgError::Unsupported(format!(
            "{what} at {}:{}:{}",
            self.file, self.line, self.col
        ))
    }
    fn new_loc(&mut self) -> Loc {
        self.cfa.nlocs += 1;
        self.cfa.nlocs - 1
    }
    fn edge(&mut self, from: Loc, to: Loc, op: Op) -> Result<(), ProgError> {
        if self.cfa.edges.len() >= self.opts.max_edges {
            return Err(ProgError::Unsupported(format!(
                "program larger than {} edges after inlining",
                self.opts.max_edges
            )));
        }
        self.cfa.edges.push(Edge {
            from,
            to,
            op,
            line: self.line,
        });
        Ok(())
    }
    fn emit(&mut self, op: Op) -> Result<(), ProgError> {
        let n = self.new_loc();
        self.edge(self.cur, n, op)?;
        self.cur = n;
        Ok(())
    }
    fn goto(&mut self, to: Loc) -> Result<(), ProgError> {
        self.edge(self.cur, to, Op::Assume(Vec::new()))?;
        self.cur = self.new_loc();
        Ok(())
    }
    /// Falls through into `to` (a jump there) and continues lowering at `to`.
    fn enter(&mut self, to: Loc) -> Result<(), ProgError> {
        self.goto(to)?;
        self.cur = to;
        Ok(())
    }
    fn new_var(&mut self, name: &str, ty: IntTy, aux: bool) -> Var {
        let id = self.cfa.vars.len();
        let name = if aux {
            format!("{name}!{id}")
        } else {
            name.to_string()
        };
        self.cfa.vars.push(VarInfo { name, ty, aux });
        id
    }
    fn range(&self, x: Var, ty: IntTy) -> Vec<Atom> {
        vec![
            Atom::le0(
                Lin::constant(ty.min())
                    .sub(&Lin::var(x))
                    .unwrap_or_default(),
            ),
            Atom::le0(Lin::var(x).add_const(-ty.max()).unwrap_or_default()),
        ]
    }
    fn havoc(&mut self, x: Var, ty: IntTy, nondet: bool) -> Result<(), ProgError> {
        self.emit(Op::Havoc {
            vars: vec![x],
            nondet,
        })?;
        let r = self.range(x, ty);
        self.emit(Op::Assume(r))
    }
    fn assume(&mut self, c: &Cond) -> Result<(), ProgError> {
        if let Cond::And(cs) = c {
            // A conjunction is assumed conjunct by conjunct (no DNF product).
            for x in cs {
                self.assume(x)?;
            }
            return Ok(());
        }
        let d = c.dnf(DNF_CAP)?;
        let n = self.new_loc();
        for conj in d {
            self.edge(self.cur, n, Op::Assume(conj))?;
        }
        self.cur = n;
        Ok(())
    }
    /// Branches on `c`: returns (true location, false location). Small conditions become one
    /// edge per disjunct of `c` and of `¬c`; larger ones a cascade of atom tests (linear size).
    fn branch(&mut self, c: Cond) -> Result<(Loc, Loc), ProgError> {
        let from = self.cur;
        let t = self.new_loc();
        let f = self.new_loc();
        let small = (
            c.dnf(SMALL_DNF),
            c.clone().not().and_then(|n| n.dnf(SMALL_DNF)),
        );
        if let (Ok(pos), Ok(neg)) = small {
            for conj in pos {
                self.edge(from, t, Op::Assume(conj))?;
            }
            for conj in neg {
                self.edge(from, f, Op::Assume(conj))?;
            }
        } else {
            self.cascade(&c, from, t, f)?;
        }
        Ok((t, f))
    }
    fn cascade(&mut self, c: &Cond, from: Loc, t: Loc, f: Loc) -> Result<(), ProgError> {
        match c {
            Cond::Atom(a) => {
                let pos = Cond::Atom(a.clone());
                for conj in pos.dnf(DNF_CAP)? {
                    self.edge(from, t, Op::Assume(conj))?;
                }
                for conj in Cond::Atom(a.clone()).not()?.dnf(DNF_CAP)? {
                    self.edge(from, f, Op::Assume(conj))?;
                }
            }
            Cond::And(cs) | Cond::Or(cs) => {
                let and = matches!(c, Cond::And(_));
                if cs.is_empty() {
                    self.edge(from, if and { t } else { f }, Op::Assume(Vec::new()))?;
                    return Ok(());
                }
                let mut cur = from;
                for (i, x) in cs.iter().enumerate() {
                    let next = if i + 1 == cs.len() {
                        if and {
                            t
                        } else {
                            f
                        }
                    } else {
                        self.new_loc()
                    };
                    if and {
                        self.cascade(x, cur, next, f)?;
                    } else {
                        self.cascade(x, cur, t, next)?;
                    }
                    cur = next;
                }
            }
        }
        Ok(())
    }
    fn assign(&mut self, x: Var, lin: Lin) -> Result<(), ProgError> {
        self.emit(Op::Assign(vec![(x, lin)]))
    }

    // ---- types and declarations ----

    fn int_type(
        &mut self,
        specs: &[&TypeSpecifier],
        span_start: usize,
    ) -> Result<Option<IntTy>, ProgError> {
        self.at(span_start);
        let (mut unsigned, mut chars, mut shorts, mut longs, mut bools, mut void) =
            (false, 0, 0, 0, 0, false);
        for s in specs {
            match s {
                TypeSpecifier::Void => void = true,
                TypeSpecifier::Char => chars += 1,
                TypeSpecifier::Short => shorts += 1,
                TypeSpecifier::Int | TypeSpecifier::Signed => {}
                TypeSpecifier::Long => longs += 1,
                TypeSpecifier::Unsigned => unsigned = true,
                TypeSpecifier::Bool => bools += 1,
                TypeSpecifier::Float | TypeSpecifier::Double | TypeSpecifier::TS18661Float(_) => {
                    return Err(self.unsup("floating-point type"))
                }
                TypeSpecifier::Struct(_) => return Err(self.unsup("struct or union type")),
                TypeSpecifier::Enum(_) => return Err(self.unsup("enum type")),
                TypeSpecifier::TypedefName(n) => {
                    return Err(self.unsup(&format!("typedef name `{}`", n.node.name)))
                }
                _ => return Err(self.unsup("type specifier")),
            }
        }
        if void {
            return Ok(None);
        }
        let bits = if bools > 0 {
            return Ok(Some(IntTy::BOOL));
        } else if chars > 0 {
            8
        } else if shorts > 0 {
            16
        } else if longs >= 2 {
            64
        } else {
            32
        };
        Ok(Some(IntTy {
            bits,
            signed: !unsigned,
        }))
    }
    fn decl_type(
        &mut self,
        specs: &[Node<DeclarationSpecifier>],
        start: usize,
    ) -> Result<(Option<IntTy>, bool, bool), ProgError> {
        let mut ts = Vec::new();
        let (mut typedef, mut is_static) = (false, false);
        for s in specs {
            match &s.node {
                DeclarationSpecifier::TypeSpecifier(t) => ts.push(&t.node),
                DeclarationSpecifier::StorageClass(c) => match c.node {
                    StorageClassSpecifier::Typedef => typedef = true,
                    StorageClassSpecifier::Static => is_static = true,
                    _ => {}
                },
                _ => {}
            }
        }
        if typedef {
            return Ok((None, true, is_static));
        }
        Ok((self.int_type(&ts, start)?, false, is_static))
    }
    fn global_decl(&mut self, d: &'a Declaration) -> Result<(), ProgError> {
        if d.declarators.is_empty() {
            return Ok(());
        }
        let (ty, typedef, _) = self.decl_type(&d.specifiers, 0).or_else(|e| {
            // Prototypes of unsupported types are harmless unless used; only objects matter.
            if d.declarators
                .iter()
                .all(|x| is_function(&x.node.declarator.node))
            {
                Ok((None, true, false))
            } else {
                Err(e)
            }
        })?;
        if typedef {
            return Ok(());
        }
        for id in &d.declarators {
            self.at(id.span.start);
            let decl = &id.node.declarator.node;
            if is_function(decl) {
                continue;
            }
            if !decl.derived.is_empty() {
                return Err(self.unsup(derived_what(decl)));
            }
            let name = ident_of(decl).ok_or_else(|| self.unsup("abstract declarator"))?;
            let ty = ty.ok_or_else(|| self.unsup("void object"))?;
            let x = self.new_var(&name, ty, false);
            self.scopes.first_mut().map(|s| s.insert(name, x));
            self.cfa.globals.push(x);
            match &id.node.initializer {
                Some(init) => {
                    let v = self.initializer(init)?;
                    let v = self.fit(v, ty)?;
                    self.assign(x, v.lin)?;
                }
                None => self.assign(x, Lin::constant(0))?,
            }
        }
        Ok(())
    }

    fn func_def(&mut self, f: &'a FunctionDefinition) -> Result<(), ProgError> {
        let mut ts = Vec::new();
        for s in &f.specifiers {
            if let DeclarationSpecifier::TypeSpecifier(t) = &s.node {
                ts.push(&t.node);
            }
        }
        let name = ident_of(&f.declarator.node).ok_or_else(|| self.unsup("function name"))?;
        let ret = self.int_type(&ts, f.declarator.span.start);
        let fd = f
            .declarator
            .node
            .derived
            .iter()
            .find_map(|d| match &d.node {
                DerivedDeclarator::Function(fd) => Some(&fd.node),
                _ => None,
            });
        let pointer_ret = f
            .declarator
            .node
            .derived
            .iter()
            .any(|d| matches!(d.node, DerivedDeclarator::Pointer(_)));
        // reach_error and friends are recognised by name and never inlined.
        if is_special(&name) {
            return Ok(());
        }
        let ret = ret?;
        if pointer_ret {
            return Err(self.unsup("function returning a pointer"));
        }
        let mut params = Vec::new();
        if let Some(fd) = fd {
            for p in &fd.parameters {
                self.at(p.span.start);
                let mut pts = Vec::new();
                for s in &p.node.specifiers {
                    if let DeclarationSpecifier::TypeSpecifier(t) = &s.node {
                        pts.push(&t.node);
                    }
                }
                let pty = self.int_type(&pts, p.span.start)?;
                match (&p.node.declarator, pty) {
                    (None, None) => {}
                    (Some(d), _) if !d.node.derived.is_empty() => {
                        return Err(self.unsup(derived_what(&d.node)))
                    }
                    (Some(d), Some(t)) => {
                        let n = ident_of(&d.node).ok_or_else(|| self.unsup("unnamed parameter"))?;
                        params.push((n, t));
                    }
                    (Some(_), None) if fd.parameters.len() == 1 => {}
                    _ => return Err(self.unsup("void parameter")),
                }
            }
        }
        self.funcs.insert(
            name,
            Func {
                def: f,
                ret,
                params,
            },
        );
        Ok(())
    }

    fn initializer(&mut self, init: &'a Node<Initializer>) -> Result<Val, ProgError> {
        self.at(init.span.start);
        match &init.node {
            Initializer::Expression(e) => self.expr(e),
            Initializer::List(_) => Err(self.unsup("initializer list")),
        }
    }

    fn local_decl(&mut self, d: &'a Declaration) -> Result<(), ProgError> {
        if d.declarators.is_empty() {
            return Ok(());
        }
        let fun_only = d
            .declarators
            .iter()
            .all(|x| is_function(&x.node.declarator.node));
        if fun_only {
            return Ok(());
        }
        let (ty, typedef, is_static) = self.decl_type(
            &d.specifiers,
            d.declarators.first().map(|x| x.span.start).unwrap_or(0),
        )?;
        if typedef {
            return Err(self.unsup("local typedef"));
        }
        if is_static {
            return Err(self.unsup("static local variable"));
        }
        for id in &d.declarators {
            self.at(id.span.start);
            let decl = &id.node.declarator.node;
            if !decl.derived.is_empty() {
                return Err(self.unsup(derived_what(decl)));
            }
            let name = ident_of(decl).ok_or_else(|| self.unsup("abstract declarator"))?;
            let ty = ty.ok_or_else(|| self.unsup("void object"))?;
            let scoped = format!(
                "{}::{}",
                self.frames.last().map(|f| f.name.as_str()).unwrap_or(""),
                name
            );
            let x = self.new_var(&scoped, ty, true);
            match &id.node.initializer {
                Some(init) => {
                    let v = self.initializer(init)?;
                    let v = self.fit(v, ty)?;
                    self.scopes.last_mut().map(|s| s.insert(name, x));
                    self.assign(x, v.lin)?;
                }
                None => {
                    self.scopes.last_mut().map(|s| s.insert(name, x));
                    self.havoc(x, ty, false)?;
                }
            }
        }
        Ok(())
    }

    // ---- calls ----

    fn inline_call(
        &mut self,
        name: &str,
        args: Vec<Val>,
        ret_loc: Loc,
    ) -> Result<Option<(Var, IntTy)>, ProgError> {
        let Some(f) = self.funcs.get(name) else {
            return Err(self.unsup(&format!("call of undefined function `{name}`")));
        };
        let (def, ret, params) = (f.def, f.ret, f.params.clone());
        if params.len() != args.len() {
            return Err(self.unsup(&format!(
                "call of `{name}` with {} arguments for {} parameters",
                args.len(),
                params.len()
            )));
        }
        let depth = self.frames.iter().filter(|fr| fr.name == name).count();
        let ret_var = ret.map(|t| (self.new_var(&format!("{name}::return"), t, true), t));
        if depth >= self.opts.max_recursion.max(1) && self.opts.summaries {
            return self.summary_call(name, &params, args, ret_var, ret_loc);
        }
        if depth >= self.opts.max_recursion.max(1) {
            // Beyond the recursion bound: the path is cut (not analysed).
            self.cfa.cuts += 1;
            let cut = self.cfa.cut;
            self.goto(cut)?;
            return Ok(ret_var);
        }
        let mut vars = Vec::new();
        for ((pn, pt), a) in params.iter().zip(args) {
            let v = self.fit(a, *pt)?;
            let x = self.new_var(&format!("{name}::{pn}"), *pt, true);
            vars.push((x, v.lin));
        }
        let mut frame_scope = HashMap::new();
        for ((pn, _), (x, _)) in params.iter().zip(vars.iter()) {
            frame_scope.insert(pn.clone(), *x);
        }
        if !vars.is_empty() {
            self.emit(Op::Assign(vars))?;
        }
        let globals = self.scopes.first().cloned().unwrap_or_default();
        let saved = std::mem::replace(&mut self.scopes, vec![globals, frame_scope]);
        let (sl, sc) = (self.line, self.col);
        self.frames.push(Frame {
            name: name.to_string(),
            ret_loc,
            ret_var,
            labels: HashMap::new(),
            brk: Vec::new(),
            cont: Vec::new(),
        });
        let r = self.stmt(&def.statement);
        self.frames.pop();
        self.scopes = saved;
        self.line = sl;
        self.col = sc;
        r?;
        // Falling off the end of the function returns (an unspecified value).
        if let Some((x, t)) = ret_var {
            self.havoc(x, t, false)?;
        }
        self.goto(ret_loc)?;
        Ok(ret_var)
    }

    /// A recursive call beyond the inlining bound as a call of the function's summary (the
    /// stand-in edge to `cut` keeps engines without summaries sound).
    fn summary_call(
        &mut self,
        name: &str,
        params: &[(String, IntTy)],
        args: Vec<Val>,
        ret_var: Option<(Var, IntTy)>,
        ret_loc: Loc,
    ) -> Result<Option<(Var, IntTy)>, ProgError> {
        let mut lins = Vec::new();
        for ((_, pt), a) in params.iter().zip(args) {
            lins.push(self.fit(a, *pt)?.lin);
        }
        let proc = match self.cfa.procs.iter().position(|p| p.name == name) {
            Some(i) => i,
            None => {
                let (entry, exit) = (self.new_loc(), self.new_loc());
                self.cfa.procs.push(crate::cfa::Proc {
                    name: name.to_string(),
                    entry,
                    exit,
                    ..Default::default()
                });
                self.pending.push(self.cfa.procs.len() - 1);
                self.cfa.procs.len() - 1
            }
        };
        self.cfa.cuts += 1;
        self.cfa.calls.push(crate::cfa::CallSite {
            from: self.cur,
            to: ret_loc,
            proc,
            args: lins,
            ret: ret_var.map(|r| r.0),
            line: self.line,
        });
        let cut = self.cfa.cut;
        self.goto(cut)?;
        Ok(ret_var)
    }

    /// The body of summarised function `p`, lowered once from its entry to its exit over fresh
    /// parameter instances, after ghost copies of the parameters and globals on entry.
    fn proc_body(&mut self, p: usize) -> Result<(), ProgError> {
        let Some(proc) = self.cfa.procs.get(p) else {
            return Ok(());
        };
        let (name, entry, exit) = (proc.name.clone(), proc.entry, proc.exit);
        let Some(f) = self.funcs.get(name.as_str()) else {
            return Err(self.unsup(&format!("call of undefined function `{name}`")));
        };
        let (def, ret, params) = (f.def, f.ret, f.params.clone());
        self.cur = entry;
        let mut scope = HashMap::new();
        let (mut pvars, mut in_params, mut in_globals, mut asg) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for (pn, pt) in &params {
            let x = self.new_var(&format!("{name}::{pn}"), *pt, true);
            scope.insert(pn.clone(), x);
            pvars.push(x);
            let g = self.new_var(&format!("{name}::in::{pn}"), *pt, true);
            in_params.push(g);
            asg.push((g, Lin::var(x)));
        }
        for x in self.cfa.globals.clone() {
            let ty = self.cfa.vars.get(x).map(|v| v.ty).unwrap_or(IntTy::INT);
            let g = self.new_var(&format!("{name}::in::{}", self.cfa.var_name(x)), ty, true);
            in_globals.push(g);
            asg.push((g, Lin::var(x)));
        }
        if !asg.is_empty() {
            self.emit(Op::Assign(asg))?;
        }
        let ret_var = ret.map(|t| (self.new_var(&format!("{name}::return"), t, true), t));
        let globals = self.scopes.first().cloned().unwrap_or_default();
        let saved_scopes = std::mem::replace(&mut self.scopes, vec![globals, scope]);
        let saved_frames = std::mem::replace(
            &mut self.frames,
            vec![Frame {
                name: name.clone(),
                ret_loc: exit,
                ret_var,
                labels: HashMap::new(),
                brk: Vec::new(),
                cont: Vec::new(),
            }],
        );
        let r = self.stmt(&def.statement);
        self.frames = saved_frames;
        self.scopes = saved_scopes;
        r?;
        if let Some((x, t)) = ret_var {
            self.havoc(x, t, false)?;
        }
        self.goto(exit)?;
        if let Some(proc) = self.cfa.procs.get_mut(p) {
            proc.params = pvars;
            proc.ret = ret_var.map(|r| r.0);
            proc.in_params = in_params;
            proc.in_globals = in_globals;
        }
        Ok(())
    }

    fn call(&mut self, c: &'a Node<CallExpression>) -> Result<Option<Val>, ProgError> {
        self.at(c.span.start);
        let name = match &c.node.callee.node {
            Expression::Identifier(i) => i.node.name.clone(),
            _ => return Err(self.unsup("call through a function pointer")),
        };
        let args = &c.node.arguments;
        match name.as_str() {
            "reach_error" | "__VERIFIER_error" => {
                let e = self.cfa.error;
                self.goto(e)?;
                Ok(None)
            }
            "abort" | "exit" | "_exit" | "__assert_fail" => {
                self.cur = self.new_loc();
                Ok(None)
            }
            "__VERIFIER_assume" | "assume_abort_if_not" if !self.funcs.contains_key(&name) => {
                let cnd = self.first_arg_cond(args, "assume without argument")?;
                self.assume(&cnd)?;
                Ok(None)
            }
            "__VERIFIER_assert" | "assert" if !self.funcs.contains_key(&name) => {
                let cnd = self.first_arg_cond(args, "assert without argument")?;
                let (t, f) = self.branch(cnd)?;
                let e = self.cfa.error;
                self.edge(f, e, Op::Assume(Vec::new()))?;
                self.cur = t;
                Ok(None)
            }
            n if nondet_type(n).is_some() => {
                let ty = nondet_type(n).unwrap_or(IntTy::INT);
                let x = self.new_var("nondet", ty, true);
                self.havoc(x, ty, true)?;
                Ok(Some(Val {
                    lin: Lin::var(x),
                    ty,
                    wide: false,
                }))
            }
            n if n.starts_with("__VERIFIER_nondet_") => {
                Err(self.unsup(&format!("`{n}` (non-integer nondeterministic value)")))
            }
            _ => {
                let mut vals = Vec::new();
                for a in args {
                    vals.push(self.expr(a)?);
                }
                let ret = self.new_loc();
                let rv = self.inline_call(&name, vals, ret)?;
                self.cur = ret;
                Ok(rv.map(|(x, t)| Val {
                    lin: Lin::var(x),
                    ty: t,
                    wide: false,
                }))
            }
        }
    }

    // ---- values ----

    fn lookup(&self, name: &str) -> Option<Var> {
        self.scopes.iter().rev().find_map(|s| s.get(name).copied())
    }

    /// Converts a value to `ty` (wrapping where C or the chosen semantics wraps).
    fn fit(&mut self, v: Val, ty: IntTy) -> Result<Val, ProgError> {
        if ty == IntTy::BOOL && v.ty != IntTy::BOOL {
            let c = truth(&v)?;
            return self.cond_value(c);
        }
        if let Some(k) = v.lin.as_const() {
            let k = if k >= ty.min() && k <= ty.max() {
                k
            } else {
                wrap_const(k, ty)
            };
            return Ok(Val {
                lin: Lin::constant(k),
                ty,
                wide: false,
            });
        }
        let contained = !v.wide && v.ty.min() >= ty.min() && v.ty.max() <= ty.max();
        if contained {
            return Ok(Val {
                lin: v.lin,
                ty,
                wide: false,
            });
        }
        let narrowing = !v.wide;
        if !ty.signed || self.opts.wrap || narrowing || v.ty.bits > ty.bits {
            let k = self.new_var(
                "wrap",
                IntTy {
                    bits: 64,
                    signed: true,
                },
                true,
            );
            let t = self.new_var("t", ty, true);
            self.emit(Op::Havoc {
                vars: vec![k],
                nondet: false,
            })?;
            let modulus = 1i128 << ty.bits;
            let lin = v.lin.combine(1, &Lin::var(k), -modulus).map_err(ovf)?;
            self.assign(t, lin)?;
            let r = self.range(t, ty);
            self.emit(Op::Assume(r))?;
            return Ok(Val {
                lin: Lin::var(t),
                ty,
                wide: false,
            });
        }
        // signed, mathematical integers: unbounded
        Ok(Val {
            lin: v.lin,
            ty,
            wide: true,
        })
    }

    fn cond_value(&mut self, c: Cond) -> Result<Val, ProgError> {
        let t = self.new_var("b", IntTy::INT, true);
        let (lt, lf) = self.branch(c)?;
        let join = self.new_loc();
        self.edge(lt, join, Op::Assign(vec![(t, Lin::constant(1))]))?;
        self.edge(lf, join, Op::Assign(vec![(t, Lin::constant(0))]))?;
        self.cur = join;
        Ok(Val {
            lin: Lin::var(t),
            ty: IntTy::INT,
            wide: false,
        })
    }

    fn promote(ty: IntTy) -> IntTy {
        if ty.bits < 32 {
            IntTy::INT
        } else {
            ty
        }
    }
    fn common(a: IntTy, b: IntTy) -> IntTy {
        let (a, b) = (Self::promote(a), Self::promote(b));
        if a.bits != b.bits {
            let w = if a.bits > b.bits { a } else { b };
            return w;
        }
        IntTy {
            bits: a.bits,
            signed: a.signed && b.signed,
        }
    }
    fn arith(&mut self, a: Val, b: Val) -> Result<(Val, Val, IntTy), ProgError> {
        let ty = Self::common(a.ty, b.ty);
        let a = if a.ty.signed && !ty.signed {
            self.fit(a, ty)?
        } else {
            a
        };
        let b = if b.ty.signed && !ty.signed {
            self.fit(b, ty)?
        } else {
            b
        };
        Ok((a, b, ty))
    }

    fn lvalue(&mut self, e: &Node<Expression>) -> Result<Var, ProgError> {
        self.at(e.span.start);
        match &e.node {
            Expression::Identifier(i) => self
                .lookup(&i.node.name)
                .ok_or_else(|| self.unsup(&format!("unknown variable `{}`", i.node.name))),
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Indirection => {
                Err(self.unsup("pointer dereference"))
            }
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                Err(self.unsup("array access"))
            }
            Expression::Member(_) => Err(self.unsup("struct member access")),
            _ => Err(self.unsup("assignment to a non-variable")),
        }
    }

    fn store(&mut self, x: Var, v: Val) -> Result<Val, ProgError> {
        let ty = self.cfa.vars.get(x).map(|i| i.ty).unwrap_or(IntTy::INT);
        let v = self.fit(v, ty)?;
        self.assign(x, v.lin)?;
        Ok(Val {
            lin: Lin::var(x),
            ty,
            wide: v.wide,
        })
    }

    fn var_val(&self, x: Var) -> Val {
        let ty = self.cfa.vars.get(x).map(|i| i.ty).unwrap_or(IntTy::INT);
        // A signed variable in mathematical mode may hold an unbounded value.
        let wide = ty.signed && !self.opts.wrap && ty.bits >= 32;
        Val {
            lin: Lin::var(x),
            ty,
            wide,
        }
    }

    fn expr(&mut self, e: &'a Node<Expression>) -> Result<Val, ProgError> {
        self.at(e.span.start);
        match &e.node {
            Expression::Identifier(i) => {
                let x = self
                    .lookup(&i.node.name)
                    .ok_or_else(|| self.unsup(&format!("unknown identifier `{}`", i.node.name)))?;
                Ok(self.var_val(x))
            }
            Expression::Constant(c) => self.constant(&c.node),
            Expression::Call(c) => self
                .call(c)?
                .ok_or_else(|| self.unsup("use of a void value")),
            Expression::UnaryOperator(u) => {
                let op = u.node.operator.node.clone();
                match op {
                    UnaryOperator::Plus => self.expr(&u.node.operand),
                    UnaryOperator::Minus => {
                        let v = self.expr(&u.node.operand)?;
                        let ty = Self::promote(v.ty);
                        Ok(Val {
                            lin: v.lin.scale(-1).map_err(ovf)?,
                            ty,
                            wide: true,
                        })
                    }
                    UnaryOperator::Complement => {
                        let v = self.expr(&u.node.operand)?;
                        let ty = Self::promote(v.ty);
                        let v = self.fit(v, ty)?;
                        // ~x = -x - 1 in two's complement; for unsigned it is max - x, the same modulo 2^w.
                        Ok(Val {
                            lin: v.lin.scale(-1).and_then(|l| l.add_const(-1)).map_err(ovf)?,
                            ty,
                            wide: true,
                        })
                    }
                    UnaryOperator::Negate => {
                        let c = self.cond(e)?;
                        self.cond_value(c)
                    }
                    UnaryOperator::PreIncrement
                    | UnaryOperator::PreDecrement
                    | UnaryOperator::PostIncrement
                    | UnaryOperator::PostDecrement => {
                        let x = self.lvalue(&u.node.operand)?;
                        let old = self.var_val(x);
                        let d = if matches!(
                            op,
                            UnaryOperator::PreIncrement | UnaryOperator::PostIncrement
                        ) {
                            1
                        } else {
                            -1
                        };
                        let post = matches!(
                            op,
                            UnaryOperator::PostIncrement | UnaryOperator::PostDecrement
                        );
                        let saved = if post {
                            let t = self.new_var("old", old.ty, true);
                            self.assign(t, old.lin.clone())?;
                            Some(Val {
                                lin: Lin::var(t),
                                ty: old.ty,
                                wide: old.wide,
                            })
                        } else {
                            None
                        };
                        let nv = Val {
                            lin: old.lin.add_const(d).map_err(ovf)?,
                            ty: old.ty,
                            wide: true,
                        };
                        let stored = self.store(x, nv)?;
                        Ok(saved.unwrap_or(stored))
                    }
                    UnaryOperator::Address | UnaryOperator::Indirection => {
                        Err(self.unsup("pointer operation"))
                    }
                }
            }
            Expression::Cast(c) => {
                let mut ts = Vec::new();
                for s in &c.node.type_name.node.specifiers {
                    if let SpecifierQualifier::TypeSpecifier(t) = &s.node {
                        ts.push(&t.node);
                    }
                }
                if c.node
                    .type_name
                    .node
                    .declarator
                    .as_ref()
                    .is_some_and(|d| !d.node.derived.is_empty())
                {
                    return Err(self.unsup("pointer cast"));
                }
                let ty = self.int_type(&ts, c.span.start)?;
                let v = self.expr(&c.node.expression)?;
                match ty {
                    Some(t) => self.fit(v, t),
                    None => Ok(v),
                }
            }
            Expression::BinaryOperator(b) => self.binary(e, b),
            Expression::Conditional(c) => {
                let cnd = self.cond(&c.node.condition)?;
                let (lt, lf) = self.branch(cnd)?;
                let join = self.new_loc();
                self.cur = lt;
                let a = self.expr(&c.node.then_expression)?;
                let (a_end, a) = (self.cur, a);
                self.cur = lf;
                let b = self.expr(&c.node.else_expression)?;
                let b_end = self.cur;
                let ty = Self::common(a.ty, b.ty);
                let t = self.new_var("ite", ty, true);
                self.cur = a_end;
                let av = self.fit(a, ty)?;
                self.assign(t, av.lin.clone())?;
                self.goto(join)?;
                self.cur = b_end;
                let bv = self.fit(b, ty)?;
                self.assign(t, bv.lin.clone())?;
                self.enter(join)?;
                Ok(Val {
                    lin: Lin::var(t),
                    ty,
                    wide: av.wide || bv.wide,
                })
            }
            Expression::Comma(es) => {
                let mut last = None;
                for x in es.iter() {
                    last = Some(self.expr(x)?);
                }
                last.ok_or_else(|| self.unsup("empty comma expression"))
            }
            Expression::SizeOfTy(_) | Expression::SizeOfVal(_) | Expression::AlignOf(_) => {
                Err(self.unsup("sizeof"))
            }
            Expression::StringLiteral(_) => Err(self.unsup("string literal")),
            Expression::Member(_) => Err(self.unsup("struct member access")),
            _ => Err(self.unsup("expression")),
        }
    }

    fn constant(&mut self, c: &Constant) -> Result<Val, ProgError> {
        match c {
            Constant::Integer(i) => {
                let radix = match i.base {
                    IntegerBase::Decimal => 10,
                    IntegerBase::Octal => 8,
                    IntegerBase::Hexadecimal => 16,
                    IntegerBase::Binary => 2,
                };
                let digits = i
                    .number
                    .trim_start_matches("0x")
                    .trim_start_matches("0X")
                    .trim_start_matches("0b");
                let k = i128::from_str_radix(if digits.is_empty() { "0" } else { digits }, radix)
                    .map_err(|_| self.unsup("integer constant"))?;
                let long = matches!(i.suffix.size, IntegerSize::LongLong);
                let ty = if !i.suffix.unsigned && !long && k <= IntTy::INT.max() {
                    IntTy::INT
                } else if !long && k <= IntTy::UINT.max() && (i.suffix.unsigned || radix != 10) {
                    IntTy::UINT
                } else if !i.suffix.unsigned && k <= (i64::MAX as i128) {
                    IntTy {
                        bits: 64,
                        signed: true,
                    }
                } else {
                    IntTy {
                        bits: 64,
                        signed: false,
                    }
                };
                Ok(Val {
                    lin: Lin::constant(k),
                    ty,
                    wide: false,
                })
            }
            Constant::Character(s) => {
                let inner = s.trim_start_matches('\'').trim_end_matches('\'');
                let k: i128 = match inner {
                    "\\0" => 0,
                    "\\n" => 10,
                    "\\t" => 9,
                    "\\\\" => 92,
                    "\\'" => 39,
                    _ if inner.len() == 1 => inner.bytes().next().map(i128::from).unwrap_or(0),
                    _ => return Err(self.unsup("character constant")),
                };
                Ok(Val {
                    lin: Lin::constant(k),
                    ty: IntTy::INT,
                    wide: false,
                })
            }
            Constant::Float(_) => Err(self.unsup("floating-point constant")),
        }
    }

    fn binary(
        &mut self,
        e: &'a Node<Expression>,
        b: &'a Node<BinaryOperatorExpression>,
    ) -> Result<Val, ProgError> {
        use BinaryOperator as B;
        let op = b.node.operator.node.clone();
        match op {
            B::Plus | B::Minus | B::Multiply => {
                let l = self.expr(&b.node.lhs)?;
                let r = self.expr(&b.node.rhs)?;
                self.at(b.span.start);
                let (l, r, ty) = self.arith(l, r)?;
                let lin = match op {
                    B::Plus => l.lin.add(&r.lin),
                    B::Minus => l.lin.sub(&r.lin),
                    _ => match (l.lin.as_const(), r.lin.as_const()) {
                        (Some(k), _) => r.lin.scale(k),
                        (_, Some(k)) => l.lin.scale(k),
                        _ => return Err(self.unsup("nonlinear multiplication")),
                    },
                }
                .map_err(ovf)?;
                Ok(Val {
                    lin,
                    ty,
                    wide: true,
                })
            }
            B::Divide | B::Modulo => {
                let l = self.expr(&b.node.lhs)?;
                let r = self.expr(&b.node.rhs)?;
                self.at(b.span.start);
                self.divide(l, r, op == B::Divide)
            }
            _ if is_truth_op(&op) => {
                let c = self.cond(e)?;
                self.cond_value(c)
            }
            B::BitwiseAnd | B::BitwiseOr
                if boolish(&b.node.lhs)
                    && boolish(&b.node.rhs)
                    && pure(&b.node.lhs)
                    && pure(&b.node.rhs) =>
            {
                let c = self.cond(e)?;
                self.cond_value(c)
            }
            B::Assign => {
                let x = self.lvalue(&b.node.lhs)?;
                let v = self.expr(&b.node.rhs)?;
                self.store(x, v)
            }
            B::AssignPlus | B::AssignMinus | B::AssignMultiply => {
                let x = self.lvalue(&b.node.lhs)?;
                let r = self.expr(&b.node.rhs)?;
                let l = self.var_val(x);
                let (l, r, ty) = self.arith(l, r)?;
                let lin = match op {
                    B::AssignPlus => l.lin.add(&r.lin),
                    B::AssignMinus => l.lin.sub(&r.lin),
                    _ => match r.lin.as_const() {
                        Some(k) => l.lin.scale(k),
                        None => return Err(self.unsup("nonlinear multiplication")),
                    },
                }
                .map_err(ovf)?;
                self.store(
                    x,
                    Val {
                        lin,
                        ty,
                        wide: true,
                    },
                )
            }
            B::AssignDivide | B::AssignModulo => {
                let x = self.lvalue(&b.node.lhs)?;
                let r = self.expr(&b.node.rhs)?;
                self.at(b.span.start);
                let l = self.var_val(x);
                let v = self.divide(l, r, op == B::AssignDivide)?;
                self.store(x, v)
            }
            B::Index => Err(self.unsup("array access")),
            _ => Err(self.unsup("bitwise, shift or compound operator")),
        }
    }

    /// `l / r` (`quotient`) or `l % r` under C's truncating semantics (C11 §6.5.5: the quotient
    /// rounds toward zero, `(l/r)·r + l%r = l`), for a constant divisor `r ≠ 0`, in linear integer
    /// arithmetic: `havoc q, m; assume l = r·q + m` with `0 ≤ m ≤ |r|−1` when `l ≥ 0` and
    /// `−(|r|−1) ≤ m ≤ 0` when `l < 0` (two edges; one when the type is unsigned). The operands
    /// get the usual arithmetic conversions first, and a wrapped type sees the dividend's wrapped
    /// value. `INT_MIN / -1` overflows (undefined behaviour); its quotient is `-l`, wide like any
    /// other overflow.
    fn divide(&mut self, l: Val, r: Val, quotient: bool) -> Result<Val, ProgError> {
        let (l, r, ty) = self.arith(l, r)?;
        let r = if r.wide { self.fit(r, ty)? } else { r };
        let y = match r.lin.as_const() {
            Some(0) => return Err(self.unsup("division by zero")),
            Some(y) => y,
            None => return Err(self.unsup("division or remainder by a non-constant")),
        };
        let l = if l.wide && (!ty.signed || self.opts.wrap) {
            self.fit(l, ty)?
        } else {
            l
        };
        if let Some(x) = l.lin.as_const() {
            let k = if quotient { x / y } else { x % y };
            return self.fit(
                Val {
                    lin: Lin::constant(k),
                    ty,
                    wide: true,
                },
                ty,
            );
        }
        if y == 1 || y == -1 {
            return Ok(if quotient {
                Val {
                    lin: l.lin.scale(y).map_err(ovf)?,
                    ty,
                    wide: l.wide || y == -1,
                }
            } else {
                Val {
                    lin: Lin::constant(0),
                    ty,
                    wide: false,
                }
            });
        }
        let q = self.new_var("quot", ty, true);
        let m = self.new_var("rem", ty, true);
        self.emit(Op::Havoc {
            vars: vec![q, m],
            nondet: false,
        })?;
        // l − r·q − m = 0
        let def = l
            .lin
            .combine(1, &Lin::var(q), -y)
            .and_then(|d| d.combine(1, &Lin::var(m), -1))
            .map_err(ovf)?;
        let bound = y.checked_abs().ok_or_else(|| self.unsup("divisor"))? - 1;
        // 0 ≤ m ≤ |r|−1, or −(|r|−1) ≤ m ≤ 0
        let nonneg = vec![
            Atom::le0(Lin::var(m).scale(-1).map_err(ovf)?),
            Atom::le0(Lin::var(m).add_const(-bound).map_err(ovf)?),
        ];
        let nonpos = vec![
            Atom::le0(Lin::var(m)),
            Atom::le0(
                Lin::var(m)
                    .scale(-1)
                    .and_then(|x| x.add_const(-bound))
                    .map_err(ovf)?,
            ),
        ];
        let join = self.new_loc();
        let from = self.cur;
        let mut pos = vec![Atom::eq0(def.clone())];
        pos.extend(nonneg);
        if ty.signed {
            // l ≥ 0 ⇔ −l ≤ 0; l < 0 ⇔ l + 1 ≤ 0
            pos.push(Atom::le0(l.lin.scale(-1).map_err(ovf)?));
            let mut neg = vec![Atom::eq0(def), Atom::le0(l.lin.add_const(1).map_err(ovf)?)];
            neg.extend(nonpos);
            self.edge(from, join, Op::Assume(neg))?;
        }
        self.edge(from, join, Op::Assume(pos))?;
        self.cur = join;
        Ok(Val {
            lin: Lin::var(if quotient { q } else { m }),
            ty,
            wide: false,
        })
    }

    /// An operand of a comparison: a value, or a product of two non-constant factors (compared
    /// with 0 by the factors' signs, [`Lower::product_sign`]).
    fn side(&mut self, e: &'a Node<Expression>) -> Result<Side, ProgError> {
        if let Expression::BinaryOperator(m) = &e.node {
            if m.node.operator.node == BinaryOperator::Multiply {
                let x = self.expr(&m.node.lhs)?;
                let y = self.expr(&m.node.rhs)?;
                self.at(m.span.start);
                let (x, y, ty) = self.arith(x, y)?;
                let lin = match (x.lin.as_const(), y.lin.as_const()) {
                    (Some(k), _) => y.lin.scale(k),
                    (_, Some(k)) => x.lin.scale(k),
                    _ => return Ok(Side::Product(x.lin, y.lin, ty)),
                }
                .map_err(ovf)?;
                return Ok(Side::Val(Val {
                    lin,
                    ty,
                    wide: true,
                }));
            }
        }
        Ok(Side::Val(self.expr(e)?))
    }

    /// `x·y op 0` by the signs of the factors (`x·y > 0` ⇔ both positive or both negative, `= 0`
    /// ⇔ one is zero): exact on mathematical integers, so only for a signed type without
    /// wrap-around (the product may overflow, which is undefined behaviour, analysed here as
    /// the mathematical product); otherwise refused as nonlinear multiplication.
    fn product_sign(
        &self,
        op: &BinaryOperator,
        x: &Lin,
        y: &Lin,
        ty: IntTy,
    ) -> Result<Cond, ProgError> {
        use BinaryOperator as B;
        if !ty.signed || self.opts.wrap {
            return Err(self.unsup("nonlinear multiplication"));
        }
        // t ≥ 1 ⇔ 1 − t ≤ 0; t ≤ −1 ⇔ t + 1 ≤ 0
        let pos = |t: &Lin| -> Result<Cond, ProgError> {
            Ok(Cond::Atom(Atom::le0(
                t.scale(-1).and_then(|n| n.add_const(1)).map_err(ovf)?,
            )))
        };
        let neg = |t: &Lin| -> Result<Cond, ProgError> {
            Ok(Cond::Atom(Atom::le0(t.add_const(1).map_err(ovf)?)))
        };
        let positive = Cond::Or(vec![
            Cond::And(vec![pos(x)?, pos(y)?]),
            Cond::And(vec![neg(x)?, neg(y)?]),
        ]);
        let negative = Cond::Or(vec![
            Cond::And(vec![pos(x)?, neg(y)?]),
            Cond::And(vec![neg(x)?, pos(y)?]),
        ]);
        let zero = Cond::Or(vec![
            Cond::Atom(Atom::eq0(x.clone())),
            Cond::Atom(Atom::eq0(y.clone())),
        ]);
        match op {
            B::Greater => Ok(positive),
            B::Less => Ok(negative),
            B::Equals => Ok(zero),
            B::NotEquals => zero.not(),
            B::GreaterOrEqual => negative.not(),
            B::LessOrEqual => positive.not(),
            _ => Err(self.unsup("nonlinear multiplication")),
        }
    }

    /// A condition (C truth value) of an expression.
    /// The condition of a builtin's first argument (`assume(c)`, `assert(c)`); `missing` names
    /// the unsupported call without one.
    fn first_arg_cond(
        &mut self,
        args: &'a [Node<Expression>],
        missing: &str,
    ) -> Result<Cond, ProgError> {
        let a = args.first().ok_or_else(|| self.unsup(missing))?;
        self.cond(a)
    }

    fn cond(&mut self, e: &'a Node<Expression>) -> Result<Cond, ProgError> {
        use BinaryOperator as B;
        self.at(e.span.start);
        match &e.node {
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Negate => {
                self.cond(&u.node.operand)?.not()
            }
            Expression::BinaryOperator(b) => {
                let op = b.node.operator.node.clone();
                match op {
                    B::BitwiseAnd | B::BitwiseOr
                        if boolish(&b.node.lhs)
                            && boolish(&b.node.rhs)
                            && pure(&b.node.lhs)
                            && pure(&b.node.rhs) =>
                    {
                        // `&`/`|` of 0/1 values are the logical connectives (both sides evaluated).
                        let l = self.cond(&b.node.lhs)?;
                        let r = self.cond(&b.node.rhs)?;
                        Ok(if op == B::BitwiseAnd {
                            Cond::And(vec![l, r])
                        } else {
                            Cond::Or(vec![l, r])
                        })
                    }
                    B::LogicalAnd | B::LogicalOr => {
                        let l = self.cond(&b.node.lhs)?;
                        if pure(&b.node.rhs) {
                            let r = self.cond(&b.node.rhs)?;
                            return Ok(if op == B::LogicalAnd {
                                Cond::And(vec![l, r])
                            } else {
                                Cond::Or(vec![l, r])
                            });
                        }
                        // Short circuit with side effects on the right: control flow.
                        let t = self.new_var("sc", IntTy::INT, true);
                        let (lt, lf) = self.branch(l)?;
                        let join = self.new_loc();
                        let (eval_rhs, skip, skip_val) = if op == B::LogicalAnd {
                            (lt, lf, 0)
                        } else {
                            (lf, lt, 1)
                        };
                        self.edge(skip, join, Op::Assign(vec![(t, Lin::constant(skip_val))]))?;
                        self.cur = eval_rhs;
                        let r = self.cond(&b.node.rhs)?;
                        let rv = self.cond_value(r)?;
                        self.assign(t, rv.lin)?;
                        self.enter(join)?;
                        truth(&Val {
                            lin: Lin::var(t),
                            ty: IntTy::INT,
                            wide: false,
                        })
                    }
                    B::Less
                    | B::Greater
                    | B::LessOrEqual
                    | B::GreaterOrEqual
                    | B::Equals
                    | B::NotEquals => {
                        let l = self.side(&b.node.lhs)?;
                        let r = self.side(&b.node.rhs)?;
                        self.at(b.span.start);
                        let zero = |v: &Val| v.lin.as_const() == Some(0);
                        let (l, r) = match (l, r) {
                            (Side::Val(l), Side::Val(r)) => (l, r),
                            (Side::Product(x, y, ty), Side::Val(z)) if zero(&z) => {
                                return self.product_sign(&op, &x, &y, ty)
                            }
                            (Side::Val(z), Side::Product(x, y, ty)) if zero(&z) => {
                                let mirrored = match op {
                                    B::Less => B::Greater,
                                    B::Greater => B::Less,
                                    B::LessOrEqual => B::GreaterOrEqual,
                                    B::GreaterOrEqual => B::LessOrEqual,
                                    other => other,
                                };
                                return self.product_sign(&mirrored, &x, &y, ty);
                            }
                            _ => return Err(self.unsup("nonlinear multiplication")),
                        };
                        let (l, r, ty) = self.arith(l, r)?;
                        let l = if l.wide && (!ty.signed || self.opts.wrap) {
                            self.fit(l, ty)?
                        } else {
                            l
                        };
                        let r = if r.wide && (!ty.signed || self.opts.wrap) {
                            self.fit(r, ty)?
                        } else {
                            r
                        };
                        let d = l.lin.sub(&r.lin).map_err(ovf)?; // l - r
                        let one = |x: &Lin| x.add_const(1).map_err(ovf);
                        Ok(match op {
                            B::Less => Cond::Atom(Atom::le0(one(&d)?)),
                            B::LessOrEqual => Cond::Atom(Atom::le0(d)),
                            B::Greater => Cond::Atom(Atom::le0(one(&d.scale(-1).map_err(ovf)?)?)),
                            B::GreaterOrEqual => Cond::Atom(Atom::le0(d.scale(-1).map_err(ovf)?)),
                            B::Equals => Cond::Atom(Atom::eq0(d)),
                            _ => Cond::Atom(Atom::eq0(d)).not()?,
                        })
                    }
                    _ => {
                        let v = self.expr(e)?;
                        truth_fit(self, v)
                    }
                }
            }
            _ => {
                let v = self.expr(e)?;
                truth_fit(self, v)
            }
        }
    }

    // ---- statements ----

    fn stmt(&mut self, s: &'a Node<Statement>) -> Result<(), ProgError> {
        self.at(s.span.start);
        match &s.node {
            Statement::Compound(items) => {
                self.scopes.push(HashMap::new());
                let mut r = Ok(());
                for it in items {
                    self.at(it.span.start);
                    r = match &it.node {
                        BlockItem::Declaration(d) => self.local_decl(&d.node),
                        BlockItem::Statement(st) => self.stmt(st),
                        BlockItem::StaticAssert(_) => Ok(()),
                    };
                    if r.is_err() {
                        break;
                    }
                }
                self.scopes.pop();
                r
            }
            Statement::Expression(Some(e)) => {
                match &e.node {
                    Expression::Call(c) => {
                        self.call(c)?;
                    }
                    _ => {
                        self.expr(e)?;
                    }
                }
                Ok(())
            }
            Statement::Expression(None) => Ok(()),
            Statement::Labeled(l) => {
                match &l.node.label.node {
                    Label::Identifier(i) => {
                        let loc = self.label(&i.node.name);
                        self.enter(loc)?;
                    }
                    _ => return Err(self.unsup("switch case label")),
                }
                self.stmt(&l.node.statement)
            }
            Statement::If(i) => {
                let c = self.cond(&i.node.condition)?;
                let (lt, lf) = self.branch(c)?;
                let join = self.new_loc();
                self.cur = lt;
                self.stmt(&i.node.then_statement)?;
                self.goto(join)?;
                self.cur = lf;
                if let Some(el) = &i.node.else_statement {
                    self.stmt(el)?;
                }
                self.enter(join)
            }
            Statement::While(w) => {
                self.pretest_loop(Some(&*w.node.expression), &w.node.statement, None)
            }
            Statement::DoWhile(w) => {
                let head = self.new_loc();
                let test = self.new_loc();
                let exit = self.new_loc();
                self.enter(head)?;
                self.loop_body(&w.node.statement, exit, test)?;
                self.enter(test)?;
                let c = self.cond(&w.node.expression)?;
                let (lt, lf) = self.branch(c)?;
                self.edge(lt, head, Op::Assume(Vec::new()))?;
                self.edge(lf, exit, Op::Assume(Vec::new()))?;
                self.cur = exit;
                Ok(())
            }
            Statement::For(f) => {
                self.scopes.push(HashMap::new());
                let r = self.for_loop(f);
                self.scopes.pop();
                r
            }
            Statement::Goto(l) => {
                let loc = self.label(&l.node.name);
                self.goto(loc)
            }
            Statement::Continue => self.jump_out(|f| &f.cont, "continue outside a loop"),
            Statement::Break => self.jump_out(|f| &f.brk, "break outside a loop"),
            Statement::Return(e) => {
                let (ret_loc, ret_var) = match self.frames.last() {
                    Some(f) => (f.ret_loc, f.ret_var),
                    None => return Err(self.unsup("return outside a function")),
                };
                if let Some(e) = e {
                    let v = self.expr(e)?;
                    if let Some((x, _)) = ret_var {
                        self.store(x, v)?;
                    }
                }
                self.goto(ret_loc)
            }
            Statement::Switch(_) => Err(self.unsup("switch statement")),
            Statement::Asm(_) => Err(self.unsup("inline assembly")),
        }
    }

    /// `break` / `continue`: a jump to the innermost loop's target in `targets` (the current
    /// frame's break or continue stack); outside a loop it is an unsupported statement.
    fn jump_out(
        &mut self,
        targets: fn(&Frame) -> &Vec<Loc>,
        outside: &str,
    ) -> Result<(), ProgError> {
        let t = self
            .frames
            .last()
            .and_then(|f| targets(f).last().copied())
            .ok_or_else(|| self.unsup(outside))?;
        self.goto(t)
    }

    fn for_loop(&mut self, f: &'a Node<ForStatement>) -> Result<(), ProgError> {
        match &f.node.initializer.node {
            ForInitializer::Empty | ForInitializer::StaticAssert(_) => {}
            ForInitializer::Expression(e) => {
                self.expr(e)?;
            }
            ForInitializer::Declaration(d) => self.local_decl(&d.node)?,
        }
        self.pretest_loop(
            f.node.condition.as_deref(),
            &f.node.statement,
            Some(f.node.step.as_deref()),
        )
    }

    /// A loop that tests its condition (none: true) before each iteration: `while`, and `for`
    /// after its initializer. `step` is `Some` for a `for` loop: its step location (the target
    /// of `continue`) evaluates the step expression, if any, before jumping back to the head;
    /// a `while` loop continues at its head.
    fn pretest_loop(
        &mut self,
        cond: Option<&'a Node<Expression>>,
        body: &'a Node<Statement>,
        step: Option<Option<&'a Node<Expression>>>,
    ) -> Result<(), ProgError> {
        let head = self.new_loc();
        let step_loc = step.map(|_| self.new_loc());
        let exit = self.new_loc();
        self.enter(head)?;
        let c = match cond {
            Some(c) => self.cond(c)?,
            None => Cond::tt(),
        };
        let (lt, lf) = self.branch(c)?;
        self.edge(lf, exit, Op::Assume(Vec::new()))?;
        self.cur = lt;
        self.loop_body(body, exit, step_loc.unwrap_or(head))?;
        if let Some(l) = step_loc {
            self.enter(l)?;
            if let Some(Some(s)) = step {
                self.expr(s)?;
            }
        }
        self.goto(head)?;
        self.cur = exit;
        Ok(())
    }

    fn loop_body(
        &mut self,
        body: &'a Node<Statement>,
        brk: Loc,
        cont: Loc,
    ) -> Result<(), ProgError> {
        if let Some(f) = self.frames.last_mut() {
            f.brk.push(brk);
            f.cont.push(cont);
        }
        let r = self.stmt(body);
        if let Some(f) = self.frames.last_mut() {
            f.brk.pop();
            f.cont.pop();
        }
        r
    }

    fn label(&mut self, name: &str) -> Loc {
        if let Some(l) = self.frames.last().and_then(|f| f.labels.get(name).copied()) {
            return l;
        }
        let l = self.new_loc();
        if let Some(f) = self.frames.last_mut() {
            f.labels.insert(name.to_string(), l);
        }
        l
    }
}

fn truth(v: &Val) -> Result<Cond, ProgError> {
    Cond::Atom(Atom::eq0(v.lin.clone())).not()
}

fn truth_fit(lw: &mut Lower<'_>, v: Val) -> Result<Cond, ProgError> {
    let v = if v.wide && (!v.ty.signed || lw.opts.wrap) {
        lw.fit(v.clone(), v.ty)?
    } else {
        v
    };
    truth(&v)
}

fn wrap_const(k: i128, ty: IntTy) -> i128 {
    let m = 1i128 << ty.bits;
    let r = k.rem_euclid(m);
    if r > ty.max() {
        r - m
    } else {
        r
    }
}

/// The type of a `__VERIFIER_nondet_*` function (and `__lamp_any_i32`).
pub(crate) fn nondet_type(name: &str) -> Option<IntTy> {
    Some(match name {
        "__VERIFIER_nondet_int" | "__lamp_any_i32" | "__VERIFIER_nondet_long" => IntTy::INT,
        "__VERIFIER_nondet_uint" | "__VERIFIER_nondet_unsigned" | "__VERIFIER_nondet_ulong" => {
            IntTy::UINT
        }
        "__VERIFIER_nondet_char" => IntTy {
            bits: 8,
            signed: true,
        },
        "__VERIFIER_nondet_uchar" => IntTy {
            bits: 8,
            signed: false,
        },
        "__VERIFIER_nondet_short" => IntTy {
            bits: 16,
            signed: true,
        },
        "__VERIFIER_nondet_ushort" => IntTy {
            bits: 16,
            signed: false,
        },
        "__VERIFIER_nondet_bool" | "__VERIFIER_nondet__Bool" => IntTy::BOOL,
        "__VERIFIER_nondet_longlong" => IntTy {
            bits: 64,
            signed: true,
        },
        "__VERIFIER_nondet_ulonglong" => IntTy {
            bits: 64,
            signed: false,
        },
        _ => return None,
    })
}

fn is_special(name: &str) -> bool {
    matches!(
        name,
        "reach_error" | "__VERIFIER_error" | "abort" | "exit" | "__assert_fail"
    ) || nondet_type(name).is_some()
}

fn is_function(d: &Declarator) -> bool {
    d.derived.iter().any(|x| {
        matches!(
            x.node,
            DerivedDeclarator::Function(_) | DerivedDeclarator::KRFunction(_)
        )
    })
}

fn derived_what(d: &Declarator) -> &'static str {
    match d.derived.first().map(|x| &x.node) {
        Some(DerivedDeclarator::Pointer(_)) => "pointer type",
        Some(DerivedDeclarator::Array(_)) => "array type",
        _ => "derived declarator",
    }
}

fn ident_of(d: &Declarator) -> Option<String> {
    match &d.kind.node {
        DeclaratorKind::Identifier(i) => Some(i.node.name.clone()),
        DeclaratorKind::Declarator(inner) => ident_of(&inner.node),
        DeclaratorKind::Abstract => None,
    }
}

/// Whether an expression has no side effects (no calls, assignments, increments).
fn pure(e: &Node<Expression>) -> bool {
    match &e.node {
        Expression::Identifier(_) | Expression::Constant(_) => true,
        Expression::Call(_) => false,
        Expression::UnaryOperator(u) => {
            !matches!(
                u.node.operator.node,
                UnaryOperator::PreIncrement
                    | UnaryOperator::PreDecrement
                    | UnaryOperator::PostIncrement
                    | UnaryOperator::PostDecrement
            ) && pure(&u.node.operand)
        }
        Expression::BinaryOperator(b) => {
            use BinaryOperator as B;
            !matches!(
                b.node.operator.node,
                B::Assign
                    | B::AssignPlus
                    | B::AssignMinus
                    | B::AssignMultiply
                    | B::AssignDivide
                    | B::AssignModulo
                    | B::AssignShiftLeft
                    | B::AssignShiftRight
                    | B::AssignBitwiseAnd
                    | B::AssignBitwiseOr
                    | B::AssignBitwiseXor
            ) && pure(&b.node.lhs)
                && pure(&b.node.rhs)
        }
        Expression::Cast(c) => pure(&c.node.expression),
        Expression::Conditional(c) => {
            pure(&c.node.condition)
                && pure(&c.node.then_expression)
                && pure(&c.node.else_expression)
        }
        _ => false,
    }
}

/// Whether an expression is syntactically 0/1-valued (comparisons, `!`, `&&`, `||`, `&`/`|` of
/// such, the constants 0 and 1).
fn boolish(e: &Node<Expression>) -> bool {
    use BinaryOperator as B;
    match &e.node {
        Expression::Constant(c) => {
            matches!(&c.node, Constant::Integer(i) if &*i.number == "0" || &*i.number == "1")
        }
        Expression::UnaryOperator(u) => u.node.operator.node == UnaryOperator::Negate,
        Expression::BinaryOperator(b) => match b.node.operator.node {
            ref op if is_truth_op(op) => true,
            B::BitwiseAnd | B::BitwiseOr => boolish(&b.node.lhs) && boolish(&b.node.rhs),
            _ => false,
        },
        _ => false,
    }
}

/// The binary operators whose value is a truth value (0 or 1): the comparisons and the logical
/// connectives.
fn is_truth_op(op: &BinaryOperator) -> bool {
    use BinaryOperator as B;
    matches!(
        op,
        B::Less
            | B::Greater
            | B::LessOrEqual
            | B::GreaterOrEqual
            | B::Equals
            | B::NotEquals
            | B::LogicalAnd
            | B::LogicalOr
    )
}
