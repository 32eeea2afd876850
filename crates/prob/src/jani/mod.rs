//! JANI input (Budde, Dehnert, Hahn, Hartmanns, Junges, Turrini: "JANI: Quantitative Model and
//! Tool Interaction", TACAS 2017; the format at jani-spec.org): DTMC, CTMC and MDP models with
//! their embedded properties, translated onto the PRISM AST so that one semantic checker and one
//! state-space builder serve both languages.
//!
//! The translation follows the JANI semantics:
//! * every automaton becomes a module; an automaton with several locations gets a location
//!   variable `<automaton>.location` (locations numbered in file order), and each edge a guard
//!   `location = l ∧ guard`; a CTMC edge's rate multiplies its destinations' probabilities;
//! * the `system` composition: an edge with a (non-silent) action runs only as part of a
//!   synchronisation vector naming that action at the automaton's position; each vector becomes
//!   one fresh action shared by exactly the participating modules (PRISM's default composition
//!   then synchronises exactly those), silent edges interleave;
//! * transient variables are not state variables: in a state their value is the one given by the
//!   current locations' `transient-values` (else their initial value); assignments to them on
//!   destinations are rewards earned by taking that destination;
//! * reward expressions of `Emin`/`Emax`/`Smin`/`Smax` and of reward bounds become reward
//!   structures: with `accumulate` `exit`/`time` the expression's value in a state is a state
//!   reward, with `steps` the expression evaluated on each destination's transient assignments
//!   is a transition reward; instantaneous rewards (`…-instant` without `accumulate`) are state
//!   values;
//! * functions (feature `functions`) are inlined; derived operators are expanded.
//!
//! Features and constructs not implemented are refused by name ("JANI feature `arrays`").

pub(crate) mod json;

use crate::lang::ast::*;
use json::{JVal, J};
use std::collections::HashMap;
use verikit_diag::{Diagnostic, Span};

/// A JANI file: the model and its embedded properties.
#[derive(Clone, Debug)]
pub struct JaniFile {
    pub name: String,
    pub model: ModelFile,
    pub props: PropertiesFile,
}

/// Reads a JANI model with its properties.
pub fn parse_jani(text: &str) -> Result<JaniFile, Diagnostic> {
    let root = json::parse(text)?;
    Tr::new(text).file(&root)
}

/// Does this text look like JSON (a JANI file) rather than PRISM source?
pub(crate) fn looks_like_jani(text: &str) -> bool {
    text.trim_start_matches('\u{feff}')
        .trim_start()
        .starts_with('{')
}

fn err(j: &J, msg: impl Into<String>) -> Diagnostic {
    Diagnostic::at(j.span, msg.into())
}

fn unsupported(j: &J, what: &str) -> Diagnostic {
    err(j, format!("JANI feature `{what}` is not supported"))
}

fn field<'j>(j: &'j J, key: &str) -> Result<&'j J, Diagnostic> {
    if !j.is_obj() {
        return Err(err(j, format!("expected an object, found {}", j.kind())));
    }
    j.get(key)
        .ok_or_else(|| err(j, format!("missing member \"{key}\"")))
}

fn str_of(j: &J) -> Result<&str, Diagnostic> {
    j.as_str()
        .ok_or_else(|| err(j, format!("expected a string, found {}", j.kind())))
}

fn arr_of(j: &J) -> Result<&[J], Diagnostic> {
    j.as_arr()
        .ok_or_else(|| err(j, format!("expected an array, found {}", j.kind())))
}

fn opt_arr<'j>(j: &'j J, key: &str) -> Result<&'j [J], Diagnostic> {
    match j.get(key) {
        None => Ok(&[]),
        Some(a) => arr_of(a),
    }
}

fn bool_of(j: Option<&J>) -> Result<bool, Diagnostic> {
    match j {
        None => Ok(false),
        Some(J {
            v: JVal::Bool(b), ..
        }) => Ok(*b),
        Some(j) => Err(err(j, format!("expected a Boolean, found {}", j.kind()))),
    }
}

fn ex(kind: ExprKind, span: Span) -> Expr {
    Expr::new(kind, span)
}

fn bin(op: BinOp, a: Expr, b: Expr, span: Span) -> Expr {
    ex(ExprKind::Binary(op, Box::new(a), Box::new(b)), span)
}

fn ite(c: Expr, a: Expr, b: Expr, span: Span) -> Expr {
    ex(ExprKind::Ite(Box::new(c), Box::new(a), Box::new(b)), span)
}

fn is_true(e: &Expr) -> bool {
    matches!(e.kind, ExprKind::Bool(true))
}

fn and(a: Expr, b: Expr) -> Expr {
    if is_true(&a) {
        return b;
    }
    if is_true(&b) {
        return a;
    }
    let sp = a.span.join(b.span);
    bin(BinOp::And, a, b, sp)
}

/// A transient variable: its type, initial value and the values locations give it.
struct Transient {
    is_bool: bool,
    init: Expr,
    /// `(location condition, value)` from `transient-values`, in automaton order.
    loc_values: Vec<(Expr, Expr)>,
}

/// What a reward structure accumulates.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct Accum {
    state: bool,
    steps: bool,
}

/// One automaton instance of the system, as far as translation needs it.
struct Aut<'j> {
    j: &'j J,
    name: String,
    locs: Vec<String>,
    /// The location variable, when the automaton has several locations.
    loc_var: Option<String>,
    /// Local variable name → model-wide unique name.
    rename: HashMap<String, String>,
    functions: HashMap<String, &'j J>,
}

struct Tr<'t, 'j> {
    text: &'t str,
    model_type: ModelType,
    transients: HashMap<String, Transient>,
    bool_vars: Vec<String>,
    functions: HashMap<String, &'j J>,
    /// Reward structures created for properties: (name, expression, accumulation).
    rewards: Vec<(String, &'j J, Accum)>,
}

/// Name resolution while translating one expression.
struct Scope<'s, 'j> {
    /// Function parameters and substituted transient variables.
    bind: HashMap<String, Expr>,
    rename: Option<&'s HashMap<String, String>>,
    functions: Option<&'s HashMap<String, &'j J>>,
    depth: usize,
}

impl<'s, 'j> Scope<'s, 'j> {
    fn global() -> Self {
        Scope {
            bind: HashMap::new(),
            rename: None,
            functions: None,
            depth: 0,
        }
    }
    fn of(aut: &'s Aut<'j>) -> Self {
        Scope {
            bind: HashMap::new(),
            rename: Some(&aut.rename),
            functions: Some(&aut.functions),
            depth: 0,
        }
    }
}

impl<'t, 'j> Tr<'t, 'j> {
    fn new(text: &'t str) -> Self {
        Tr {
            text,
            model_type: ModelType::Dtmc,
            transients: HashMap::new(),
            bool_vars: Vec::new(),
            functions: HashMap::new(),
            rewards: Vec::new(),
        }
    }

    fn file(mut self, root: &'j J) -> Result<JaniFile, Diagnostic> {
        let ty = field(root, "type")?;
        self.model_type = match str_of(ty)? {
            "dtmc" => ModelType::Dtmc,
            "ctmc" => ModelType::Ctmc,
            "mdp" => ModelType::Mdp,
            other => {
                let what = match other {
                    "lts" => "labelled transition systems",
                    "ctmdp" => "continuous-time MDPs",
                    "ma" => "Markov automata",
                    "ta" => "timed automata",
                    "pta" => "probabilistic timed automata",
                    "sta" => "stochastic timed automata",
                    "ha" | "pha" | "sha" => "hybrid automata",
                    _ => "unknown",
                };
                return Err(err(
                    ty,
                    format!(
                        "JANI model type `{other}` ({what}) is not supported; \
                         verikit reads dtmc, ctmc and mdp"
                    ),
                ));
            }
        };
        for f in opt_arr(root, "features")? {
            let name = str_of(f)?;
            if !matches!(
                name,
                "derived-operators" | "functions" | "state-exit-rewards"
            ) {
                return Err(unsupported(f, name));
            }
        }
        let name = root
            .get("name")
            .and_then(|n| n.as_str())
            .unwrap_or("")
            .to_string();
        let mut mf = ModelFile {
            model_type: self.model_type,
            consts: Vec::new(),
            formulas: Vec::new(),
            labels: Vec::new(),
            globals: Vec::new(),
            modules: Vec::new(),
            init: None,
            rewards: Vec::new(),
            system: None,
        };
        for f in opt_arr(root, "functions")? {
            self.functions
                .insert(str_of(field(f, "name")?)?.to_string(), f);
        }
        for c in opt_arr(root, "constants")? {
            let name = str_of(field(c, "name")?)?.to_string();
            let ty = self.basic_type(field(c, "type")?)?;
            let value = match c.get("value") {
                Some(v) => Some(self.expr(v, &Scope::global())?),
                None => None,
            };
            mf.consts.push(ConstDecl {
                name,
                ty,
                value,
                span: c.span,
            });
        }
        // Global variables (transient ones are recorded, not declared).
        let mut inits: Vec<(String, Option<Expr>, Span)> = Vec::new();
        for v in opt_arr(root, "variables")? {
            if let Some(d) = self.var_decl(v, None)? {
                inits.push((d.name.clone(), d.init.clone(), v.span));
                mf.globals.push(d);
            }
        }
        // The system's automata.
        let sys = field(root, "system")?;
        let automata = arr_of(field(root, "automata")?)?;
        let mut auts: Vec<Aut> = Vec::new();
        let mut seen_names: HashMap<String, usize> = HashMap::new();
        for v in &mf.globals {
            seen_names.insert(v.name.clone(), usize::MAX);
        }
        for a in automata {
            for v in opt_arr(a, "variables")? {
                let n = str_of(field(v, "name")?)?;
                *seen_names.entry(n.to_string()).or_insert(0) += 1;
            }
        }
        let elements = arr_of(field(sys, "elements")?)?;
        for el in elements {
            if el.get("input-enable").is_some() {
                return Err(unsupported(el, "input-enable"));
            }
            let an = str_of(field(el, "automaton")?)?;
            let aj = automata
                .iter()
                .find(|a| a.get("name").and_then(|n| n.as_str()) == Some(an))
                .ok_or_else(|| err(el, format!("unknown automaton `{an}`")))?;
            if auts.iter().any(|x| x.name == an) {
                return Err(err(
                    el,
                    format!(
                        "JANI feature `automaton instantiated twice` is not supported (`{an}`)"
                    ),
                ));
            }
            let mut locs = Vec::new();
            for l in arr_of(field(aj, "locations")?)? {
                if l.get("time-progress").is_some() || l.get("invariant").is_some() {
                    return Err(unsupported(l, "location invariants"));
                }
                locs.push(str_of(field(l, "name")?)?.to_string());
            }
            if locs.is_empty() {
                return Err(err(aj, format!("automaton `{an}` has no locations")));
            }
            let loc_var = (locs.len() > 1).then(|| format!("{an}.location"));
            let mut rename = HashMap::new();
            for v in opt_arr(aj, "variables")? {
                let n = str_of(field(v, "name")?)?;
                let unique = seen_names.get(n).copied() == Some(1);
                rename.insert(
                    n.to_string(),
                    if unique {
                        n.to_string()
                    } else {
                        format!("{an}.{n}")
                    },
                );
            }
            let mut functions = self.functions.clone();
            for f in opt_arr(aj, "functions")? {
                functions.insert(str_of(field(f, "name")?)?.to_string(), f);
            }
            auts.push(Aut {
                j: aj,
                name: an.to_string(),
                locs,
                loc_var,
                rename,
                functions,
            });
        }
        // Local variables (needed before any expression: Boolean-ness and transients).
        let mut locals: Vec<Vec<VarDecl>> = Vec::new();
        for a in &auts {
            let mut ds = Vec::new();
            for v in opt_arr(a.j, "variables")? {
                if let Some(d) = self.var_decl(v, Some(a))? {
                    inits.push((d.name.clone(), d.init.clone(), v.span));
                    ds.push(d);
                }
            }
            locals.push(ds);
        }
        // Location values of transient variables.
        for a in &auts {
            for (li, l) in arr_of(field(a.j, "locations")?)?.iter().enumerate() {
                for tv in opt_arr(l, "transient-values")? {
                    let r = field(tv, "ref")?;
                    let rn = str_of(r)?;
                    let value = self.expr(field(tv, "value")?, &Scope::of(a))?;
                    let cond = match &a.loc_var {
                        Some(lv) => bin(
                            BinOp::Eq,
                            ex(ExprKind::Ident(lv.clone()), l.span),
                            ex(ExprKind::Int(li as i64), l.span),
                            l.span,
                        ),
                        None => Expr::boolean(true, l.span),
                    };
                    let t = self
                        .transients
                        .get_mut(rn)
                        .ok_or_else(|| err(r, format!("`{rn}` is not a transient variable")))?;
                    t.loc_values.push((cond, value));
                }
            }
        }
        // Initial states.
        let mut init_conj: Vec<Expr> = Vec::new();
        let mut need_init_expr = false;
        if let Some(r) = root.get("restrict-initial") {
            let e = self.expr(field(r, "exp")?, &Scope::global())?;
            if !is_true(&e) {
                need_init_expr = true;
                init_conj.push(e);
            }
        }
        for a in &auts {
            let il = arr_of(field(a.j, "initial-locations")?)?;
            if il.len() != 1 {
                need_init_expr = true;
            }
            let mut alts: Option<Expr> = None;
            for l in il {
                let ln = str_of(l)?;
                let ix = a
                    .locs
                    .iter()
                    .position(|x| x == ln)
                    .ok_or_else(|| err(l, format!("unknown location `{ln}`")))?;
                if let Some(lv) = &a.loc_var {
                    let c = bin(
                        BinOp::Eq,
                        ex(ExprKind::Ident(lv.clone()), l.span),
                        ex(ExprKind::Int(ix as i64), l.span),
                        l.span,
                    );
                    alts = Some(match alts {
                        None => c,
                        Some(x) => {
                            let sp = x.span;
                            bin(BinOp::Or, x, c, sp)
                        }
                    });
                    // The location variable's declared initial value.
                    if il.len() == 1 {
                        inits.push((
                            lv.clone(),
                            Some(ex(ExprKind::Int(ix as i64), l.span)),
                            l.span,
                        ));
                    }
                }
            }
            if let Some(x) = alts {
                init_conj.push(x);
            }
            if let Some(r) = a.j.get("restrict-initial") {
                let e = self.expr(field(r, "exp")?, &Scope::of(a))?;
                if !is_true(&e) {
                    need_init_expr = true;
                    init_conj.push(e);
                }
            }
        }
        if inits.iter().any(|(_, i, _)| i.is_none()) {
            need_init_expr = true;
        }
        // Modules.
        let sync_actions = self.sync_actions(sys, &auts)?;
        let props = self.properties(root)?;
        for (ai, a) in auts.iter().enumerate() {
            let mut vars = std::mem::take(&mut locals[ai]);
            if let Some(lv) = &a.loc_var {
                let sp = a.j.span;
                vars.insert(
                    0,
                    VarDecl {
                        name: lv.clone(),
                        ty: VarType::Range(
                            ex(ExprKind::Int(0), sp),
                            ex(ExprKind::Int(a.locs.len() as i64 - 1), sp),
                        ),
                        init: inits
                            .iter()
                            .find(|(n, _, _)| n == lv)
                            .and_then(|(_, i, _)| i.clone()),
                        span: sp,
                    },
                );
            }
            let commands = self.commands(a, &sync_actions[ai])?;
            mf.modules.push(ModuleDecl::Plain(Module {
                name: a.name.clone(),
                vars,
                commands,
                span: a.j.span,
            }));
        }
        if need_init_expr {
            let sp = root.span;
            for (n, i, isp) in &inits {
                if let Some(i) = i {
                    let var = ex(ExprKind::Ident(n.clone()), *isp);
                    init_conj.push(bin(BinOp::Eq, var, i.clone(), *isp));
                }
            }
            let mut e = Expr::boolean(true, sp);
            for c in init_conj {
                e = and(e, c);
            }
            mf.init = Some(e);
            for v in mf.globals.iter_mut() {
                v.init = None;
            }
            for m in mf.modules.iter_mut() {
                if let ModuleDecl::Plain(m) = m {
                    m.vars.iter_mut().for_each(|v| v.init = None);
                }
            }
        }
        // Reward structures for the properties.
        for (name, e, acc) in self.rewards.clone() {
            let mut items = Vec::new();
            if acc.state {
                let value = self.expr(e, &Scope::global())?;
                items.push(RewardItem {
                    action: None,
                    guard: Expr::boolean(true, e.span),
                    value,
                    span: e.span,
                });
            }
            if acc.steps {
                // What every step earns regardless of its assignments.
                let base = self.expr(e, &self.transient_scope(&HashMap::new()))?;
                if const_value(&base) != Some(0.0) {
                    if self.model_type == ModelType::Ctmc {
                        return Err(err(
                            e,
                            "a CTMC reward accumulated on `steps` must come from transient \
                             assignments",
                        ));
                    }
                    items.push(RewardItem {
                        action: None,
                        guard: Expr::boolean(true, e.span),
                        value: base,
                        span: e.span,
                    });
                }
            }
            mf.rewards.push(RewardStruct {
                name: Some(name),
                items,
                span: e.span,
            });
        }
        Ok(JaniFile {
            name,
            model: mf,
            props,
        })
    }

    /// `int`, `real`, `bool` or a bounded type, for constants.
    fn basic_type(&self, t: &J) -> Result<Type, Diagnostic> {
        match &t.v {
            JVal::Str(s) => match s.as_str() {
                "int" => Ok(Type::Int),
                "real" => Ok(Type::Double),
                "bool" => Ok(Type::Bool),
                other => Err(unsupported(t, &format!("{other} type"))),
            },
            JVal::Obj(_) => match field(t, "base")?.as_str() {
                Some("int") => Ok(Type::Int),
                Some("real") => Ok(Type::Double),
                _ => Err(err(t, "a bounded type has base int or real")),
            },
            _ => Err(err(t, format!("expected a type, found {}", t.kind()))),
        }
    }

    /// A variable declaration; transient variables are recorded and yield `None`.
    fn var_decl(&mut self, v: &'j J, aut: Option<&Aut>) -> Result<Option<VarDecl>, Diagnostic> {
        let name = str_of(field(v, "name")?)?;
        let tj = field(v, "type")?;
        let scope = match aut {
            Some(a) => Scope::of(a),
            None => Scope::global(),
        };
        let init = match v.get("initial-value") {
            Some(i) => Some(self.expr(i, &scope)?),
            None => None,
        };
        if bool_of(v.get("transient"))? {
            let is_bool = tj.as_str() == Some("bool");
            let init = init.ok_or_else(|| {
                err(
                    v,
                    format!("transient variable `{name}` needs an initial value"),
                )
            })?;
            self.transients.insert(
                name.to_string(),
                Transient {
                    is_bool,
                    init,
                    loc_values: Vec::new(),
                },
            );
            return Ok(None);
        }
        let uname = aut
            .and_then(|a| a.rename.get(name).cloned())
            .unwrap_or_else(|| name.to_string());
        let ty = match &tj.v {
            JVal::Str(s) => match s.as_str() {
                "bool" => {
                    self.bool_vars.push(uname.clone());
                    VarType::Bool
                }
                // Explored on the fly: the builder grows the range as it finds values.
                "int" => VarType::Unbounded,
                "real" => return Err(unsupported(tj, "real-valued state variables")),
                "clock" | "continuous" => return Err(unsupported(tj, "clocks")),
                other => return Err(unsupported(tj, &format!("{other} type"))),
            },
            JVal::Obj(_) => {
                if field(tj, "base")?.as_str() != Some("int") {
                    return Err(unsupported(tj, "bounded real variables"));
                }
                let (Some(lo), Some(hi)) = (tj.get("lower-bound"), tj.get("upper-bound")) else {
                    return Err(err(
                        tj,
                        format!(
                            "variable `{name}`: half-bounded `int` state variables are not \
                             supported; give both bounds"
                        ),
                    ));
                };
                VarType::Range(self.expr(lo, &scope)?, self.expr(hi, &scope)?)
            }
            _ => return Err(err(tj, format!("expected a type, found {}", tj.kind()))),
        };
        Ok(Some(VarDecl {
            name: uname,
            ty,
            init,
            span: v.span,
        }))
    }

    /// Per automaton: action name → the fresh actions of the synchronisation vectors it takes
    /// part in with that action.
    fn sync_actions(
        &self,
        sys: &J,
        auts: &[Aut],
    ) -> Result<Vec<HashMap<String, Vec<String>>>, Diagnostic> {
        let mut out: Vec<HashMap<String, Vec<String>>> = vec![HashMap::new(); auts.len()];
        let syncs = opt_arr(sys, "syncs")?;
        let mut result_count: HashMap<String, usize> = HashMap::new();
        for s in syncs {
            if let Some(r) = s.get("result") {
                *result_count.entry(str_of(r)?.to_string()).or_insert(0) += 1;
            }
        }
        'vectors: for (k, s) in syncs.iter().enumerate() {
            let vec = arr_of(field(s, "synchronise")?)?;
            if vec.len() != auts.len() {
                return Err(err(
                    s,
                    format!(
                        "a synchronisation vector needs {} entries (one per system element)",
                        auts.len()
                    ),
                ));
            }
            let result = match s.get("result") {
                Some(r) => Some(str_of(r)?),
                None => None,
            };
            let fresh = match result {
                Some(r) if result_count.get(r) == Some(&1) => r.to_string(),
                Some(r) => format!("{r}#{k}"),
                None => format!("τ#{k}"),
            };
            let mut parts = Vec::new();
            for (i, a) in vec.iter().enumerate() {
                if matches!(a.v, JVal::Null) {
                    continue;
                }
                let act = str_of(a)?;
                // A participant without an edge for the action blocks the vector.
                let has = opt_arr(auts[i].j, "edges")?
                    .iter()
                    .any(|e| e.get("action").and_then(|x| x.as_str()) == Some(act));
                if !has {
                    continue 'vectors;
                }
                parts.push((i, act));
            }
            if parts.is_empty() {
                continue;
            }
            for (i, act) in parts {
                out[i]
                    .entry(act.to_string())
                    .or_default()
                    .push(fresh.clone());
            }
        }
        Ok(out)
    }

    fn commands(
        &mut self,
        a: &Aut<'j>,
        sync: &HashMap<String, Vec<String>>,
    ) -> Result<Vec<Command>, Diagnostic> {
        let is_ctmc = self.model_type == ModelType::Ctmc;
        let mut out = Vec::new();
        let steps_rewards: Vec<(String, &'j J)> = self
            .rewards
            .iter()
            .filter(|(_, _, acc)| acc.steps)
            .map(|(n, e, _)| (n.clone(), *e))
            .collect();
        for e in opt_arr(a.j, "edges")? {
            if e.get("assignments").is_some() {
                return Err(unsupported(e, "edge assignments"));
            }
            let lj = field(e, "location")?;
            let ln = str_of(lj)?;
            let li = a
                .locs
                .iter()
                .position(|x| x == ln)
                .ok_or_else(|| err(lj, format!("unknown location `{ln}`")))?;
            let scope = Scope::of(a);
            let mut guard = match &a.loc_var {
                Some(lv) => bin(
                    BinOp::Eq,
                    ex(ExprKind::Ident(lv.clone()), lj.span),
                    ex(ExprKind::Int(li as i64), lj.span),
                    lj.span,
                ),
                None => Expr::boolean(true, lj.span),
            };
            if let Some(g) = e.get("guard") {
                guard = and(guard, self.expr(field(g, "exp")?, &scope)?);
            }
            let rate = match (e.get("rate"), is_ctmc) {
                (Some(r), true) => Some(self.expr(field(r, "exp")?, &scope)?),
                (None, true) => return Err(err(e, "a CTMC edge needs a \"rate\"")),
                (Some(r), false) => {
                    return Err(err(
                        r,
                        "rates are only allowed in CTMCs (and Markov automata)",
                    ))
                }
                (None, false) => None,
            };
            let mut updates = Vec::new();
            let dests = arr_of(field(e, "destinations")?)?;
            for d in dests {
                let mut assigns = Vec::new();
                let mut transient_vals: HashMap<String, Expr> = HashMap::new();
                // Assignment levels (`index`) run in increasing order; a level reads the values
                // the lower levels assigned, so those are substituted into its expressions.
                let mut levels: Vec<(i64, &J)> = Vec::new();
                for asg in opt_arr(d, "assignments")? {
                    let ix = match asg.get("index") {
                        None => 0,
                        Some(ix) => match &ix.v {
                            JVal::Num(n) if n.as_i64().is_some() => n.as_i64().unwrap_or(0),
                            _ => return Err(err(ix, "an assignment index must be an integer")),
                        },
                    };
                    levels.push((ix, asg));
                }
                levels.sort_by_key(|(ix, _)| *ix);
                // (JANI name, value, span) in first-assignment order.
                let mut done: Vec<(String, Expr, Span)> = Vec::new();
                let mut i = 0;
                while i < levels.len() {
                    let lvl = levels[i].0;
                    let mut sc = Scope::of(a);
                    for (n, v, _) in &done {
                        sc.bind.insert(n.clone(), v.clone());
                    }
                    let mut this: Vec<(String, Expr, Span)> = Vec::new();
                    while i < levels.len() && levels[i].0 == lvl {
                        let asg = levels[i].1;
                        let r = field(asg, "ref")?;
                        let rn = str_of(r).map_err(|_| unsupported(r, "arrays"))?;
                        let value = self.expr(field(asg, "value")?, &sc)?;
                        this.push((rn.to_string(), value, asg.span));
                        i += 1;
                    }
                    for (n, v, sp) in this {
                        match done.iter_mut().find(|(x, _, _)| *x == n) {
                            Some(slot) => *slot = (n, v, sp),
                            None => done.push((n, v, sp)),
                        }
                    }
                }
                for (rn, value, span) in done {
                    if self.transients.contains_key(&rn) {
                        transient_vals.insert(rn, value);
                        continue;
                    }
                    let var = a.rename.get(&rn).cloned().unwrap_or_else(|| rn.clone());
                    assigns.push(Assign { var, span, value });
                }
                let dl = field(d, "location")?;
                let dn = str_of(dl)?;
                let di = a
                    .locs
                    .iter()
                    .position(|x| x == dn)
                    .ok_or_else(|| err(dl, format!("unknown location `{dn}`")))?;
                if let Some(lv) = &a.loc_var {
                    if di != li {
                        assigns.push(Assign {
                            var: lv.clone(),
                            span: dl.span,
                            value: ex(ExprKind::Int(di as i64), dl.span),
                        });
                    }
                }
                let prob = match d.get("probability") {
                    Some(p) => Some(self.expr(field(p, "exp")?, &scope)?),
                    None => None,
                };
                let prob = match (prob, &rate) {
                    (Some(p), Some(r)) => {
                        let sp = p.span;
                        Some(bin(BinOp::Mul, r.clone(), p, sp))
                    }
                    (None, Some(r)) => Some(r.clone()),
                    (p, None) => p,
                };
                // Rewards earned on this destination: the reward expression with transient
                // variables bound to their assigned values (initial values otherwise).
                // The part every step earns whatever it assigns (`base`) is a state reward, so
                // only what the assignments add is a destination reward.
                let mut rewards = Vec::new();
                for (rname, rexp) in steps_rewards.iter().filter(|_| !transient_vals.is_empty()) {
                    let v = self.expr(rexp, &self.transient_scope(&transient_vals))?;
                    let base = self.expr(rexp, &self.transient_scope(&HashMap::new()))?;
                    let v = if const_value(&base) == Some(0.0) {
                        v
                    } else {
                        let sp = v.span;
                        bin(BinOp::Sub, v, base, sp)
                    };
                    if const_value(&v) != Some(0.0) {
                        rewards.push((rname.clone(), v));
                    }
                }
                updates.push(Update {
                    prob: prob.map(ProbSpec::Point),
                    assigns,
                    rewards,
                    span: d.span,
                });
            }
            let base = Command {
                action: None,
                action_span: e.span,
                guard,
                updates,
                span: e.span,
            };
            match e.get("action") {
                None => out.push(base),
                Some(aj) => {
                    let an = str_of(aj)?;
                    // Not in any synchronisation vector: blocked.
                    for fresh in sync.get(an).into_iter().flatten() {
                        out.push(Command {
                            action: Some(fresh.clone()),
                            action_span: aj.span,
                            ..base.clone()
                        });
                    }
                }
            }
        }
        Ok(out)
    }

    /// A scope binding every transient variable to its assigned value or else its initial value.
    fn transient_scope(&self, assigned: &HashMap<String, Expr>) -> Scope<'static, 'static> {
        let mut sc = Scope::global();
        for (tn, t) in &self.transients {
            let v = assigned.get(tn).cloned().unwrap_or_else(|| t.init.clone());
            sc.bind.insert(tn.clone(), v);
        }
        sc
    }

    /// The value of transient variable `t` in a state: its location value, else its initial
    /// value.
    fn transient_value(&self, t: &Transient, span: Span) -> Expr {
        let mut e = t.init.clone();
        for (c, v) in t.loc_values.iter().rev() {
            e = if is_true(c) {
                v.clone()
            } else {
                ite(c.clone(), v.clone(), e, span)
            };
        }
        e
    }

    /// Translates a JANI expression.
    fn expr(&self, j: &J, sc: &Scope) -> Result<Expr, Diagnostic> {
        let sp = j.span;
        Ok(match &j.v {
            JVal::Bool(b) => Expr::boolean(*b, sp),
            JVal::Num(n) => match n.as_i64() {
                Some(i) => ex(ExprKind::Int(i), sp),
                None => ex(
                    ExprKind::Real(n.as_f64().ok_or_else(|| err(j, "number out of range"))?),
                    sp,
                ),
            },
            JVal::Str(s) => self.ident(s, sp, sc),
            JVal::Null | JVal::Arr(_) => {
                return Err(err(
                    j,
                    format!("expected an expression, found {}", j.kind()),
                ))
            }
            JVal::Obj(_) => {
                if let Some(c) = j.get("constant") {
                    return match c.as_str() {
                        Some("e") => Ok(ex(ExprKind::Real(std::f64::consts::E), sp)),
                        Some("π") => Ok(ex(ExprKind::Real(std::f64::consts::PI), sp)),
                        _ => Err(err(c, "unknown constant (expected \"e\" or \"π\")")),
                    };
                }
                let op = str_of(field(j, "op")?)?;
                let l = || self.expr(field(j, "left")?, sc);
                let r = || self.expr(field(j, "right")?, sc);
                let x = || self.expr(field(j, "exp")?, sc);
                let b = |o: BinOp| -> Result<Expr, Diagnostic> { Ok(bin(o, l()?, r()?, sp)) };
                let call = |f: Func, args: Vec<Expr>| ex(ExprKind::Call(f, args), sp);
                match op {
                    "ite" => ite(
                        self.expr(field(j, "if")?, sc)?,
                        self.expr(field(j, "then")?, sc)?,
                        self.expr(field(j, "else")?, sc)?,
                        sp,
                    ),
                    "¬" => ex(ExprKind::Unary(UnOp::Not, Box::new(x()?)), sp),
                    "∧" => b(BinOp::And)?,
                    "∨" => b(BinOp::Or)?,
                    "⇒" => b(BinOp::Implies)?,
                    "=" => b(BinOp::Eq)?,
                    "≠" => b(BinOp::Ne)?,
                    "<" => b(BinOp::Lt)?,
                    "≤" => b(BinOp::Le)?,
                    ">" => b(BinOp::Gt)?,
                    "≥" => b(BinOp::Ge)?,
                    "+" => b(BinOp::Add)?,
                    "-" => b(BinOp::Sub)?,
                    "*" => b(BinOp::Mul)?,
                    "/" => b(BinOp::Div)?,
                    "%" => call(Func::Mod, vec![l()?, r()?]),
                    "pow" => call(Func::Pow, vec![l()?, r()?]),
                    "log" => call(Func::Log, vec![l()?, r()?]),
                    "min" => call(Func::Min, vec![l()?, r()?]),
                    "max" => call(Func::Max, vec![l()?, r()?]),
                    "floor" => call(Func::Floor, vec![x()?]),
                    "ceil" => call(Func::Ceil, vec![x()?]),
                    "abs" => {
                        let a = x()?;
                        let neg = ex(ExprKind::Unary(UnOp::Neg, Box::new(a.clone())), sp);
                        let lt0 = bin(BinOp::Lt, a.clone(), ex(ExprKind::Int(0), sp), sp);
                        ite(lt0, neg, a, sp)
                    }
                    "sgn" => {
                        let a = x()?;
                        let lt0 = bin(BinOp::Lt, a.clone(), ex(ExprKind::Int(0), sp), sp);
                        let gt0 = bin(BinOp::Gt, a, ex(ExprKind::Int(0), sp), sp);
                        let m1 = ex(ExprKind::Int(-1), sp);
                        let inner =
                            ite(gt0, ex(ExprKind::Int(1), sp), ex(ExprKind::Int(0), sp), sp);
                        ite(lt0, m1, inner, sp)
                    }
                    "trc" => {
                        let a = x()?;
                        let lt0 = bin(BinOp::Lt, a.clone(), ex(ExprKind::Int(0), sp), sp);
                        ite(
                            lt0,
                            call(Func::Ceil, vec![a.clone()]),
                            call(Func::Floor, vec![a]),
                            sp,
                        )
                    }
                    "call" => self.call(j, sc)?,
                    "initial" => ex(ExprKind::Label("init".into()), sp),
                    "deadlock" => ex(ExprKind::Label("deadlock".into()), sp),
                    "der" => return Err(unsupported(j, "derivatives")),
                    "aa" | "ac" | "av" => return Err(unsupported(j, "arrays")),
                    "sin" | "cos" | "tan" | "cot" | "sec" | "csc" | "asin" | "acos" | "atan"
                    | "acot" | "asec" | "acsc" => {
                        return Err(unsupported(j, "trigonometric-functions"))
                    }
                    "sinh" | "cosh" | "tanh" | "coth" | "sech" | "csch" | "asinh" | "acosh"
                    | "atanh" | "acoth" | "asech" | "acsch" => {
                        return Err(unsupported(j, "hyperbolic-functions"))
                    }
                    "Pmin" | "Pmax" | "Emin" | "Emax" | "Smin" | "Smax" | "filter" | "U" | "F"
                    | "G" | "W" | "R" | "X" => {
                        return Err(err(
                            j,
                            format!("`{op}` is only allowed in property expressions"),
                        ))
                    }
                    other => return Err(err(j, format!("unknown JANI operator `{other}`"))),
                }
            }
        })
    }

    fn ident(&self, s: &str, sp: Span, sc: &Scope) -> Expr {
        if let Some(e) = sc.bind.get(s) {
            let mut e = e.clone();
            e.span = sp;
            return e;
        }
        if let Some(t) = self.transients.get(s) {
            let mut e = self.transient_value(t, sp);
            e.span = sp;
            return e;
        }
        let name = sc
            .rename
            .and_then(|r| r.get(s).cloned())
            .unwrap_or_else(|| s.to_string());
        ex(ExprKind::Ident(name), sp)
    }

    /// Whether a translated expression is certainly Boolean (for `=` between Booleans).
    fn is_bool(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Bool(_) | ExprKind::Label(_) => true,
            ExprKind::Ident(n) => self.bool_vars.contains(n),
            ExprKind::Unary(UnOp::Not, _) => true,
            ExprKind::Binary(op, _, _) => matches!(
                op,
                BinOp::And
                    | BinOp::Or
                    | BinOp::Implies
                    | BinOp::Iff
                    | BinOp::Eq
                    | BinOp::Ne
                    | BinOp::Lt
                    | BinOp::Le
                    | BinOp::Gt
                    | BinOp::Ge
            ),
            ExprKind::Ite(_, a, b) => self.is_bool(a) || self.is_bool(b),
            _ => false,
        }
    }

    /// Inlines a function call.
    fn call(&self, j: &J, sc: &Scope) -> Result<Expr, Diagnostic> {
        let fj = field(j, "function")?;
        let fname = str_of(fj)?;
        if sc.depth > 64 {
            return Err(err(
                j,
                format!("function `{fname}` calls itself too deeply"),
            ));
        }
        let f = sc
            .functions
            .and_then(|m| m.get(fname))
            .or_else(|| self.functions.get(fname))
            .ok_or_else(|| err(fj, format!("unknown function `{fname}`")))?;
        let params = opt_arr(f, "parameters")?;
        let args = opt_arr(j, "args")?;
        if params.len() != args.len() {
            return Err(err(
                j,
                format!(
                    "function `{fname}` takes {} arguments, given {}",
                    params.len(),
                    args.len()
                ),
            ));
        }
        let mut inner = Scope {
            bind: HashMap::new(),
            rename: sc.rename,
            functions: sc.functions,
            depth: sc.depth + 1,
        };
        for (p, a) in params.iter().zip(args) {
            let pn = str_of(field(p, "name")?)?;
            inner.bind.insert(pn.to_string(), self.expr(a, sc)?);
        }
        // Transient bindings of the caller stay visible (reward evaluation on destinations).
        for (k, v) in &sc.bind {
            inner.bind.entry(k.clone()).or_insert_with(|| v.clone());
        }
        let mut e = self.expr(field(f, "body")?, &inner)?;
        e.span = j.span;
        Ok(e)
    }

    // ---------------------------------------------------------------- properties

    fn properties(&mut self, root: &'j J) -> Result<PropertiesFile, Diagnostic> {
        let mut pf = PropertiesFile::default();
        for p in opt_arr(root, "properties")? {
            let name = str_of(field(p, "name")?)?.to_string();
            let expr = self.prop(field(p, "expression")?)?;
            pf.properties.push(Property {
                name: Some(name),
                expr,
                span: p.span,
            });
        }
        Ok(pf)
    }

    fn reward_name(&mut self, e: &'j J, acc: Accum) -> String {
        let text: String = self
            .text
            .get(e.span.start..e.span.end)
            .unwrap_or("")
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        let name = format!(
            "{}{}{}",
            text.trim_matches('"'),
            if acc.state { "" } else { "@steps" },
            if acc.steps && acc.state { "+steps" } else { "" }
        );
        if !self.rewards.iter().any(|(n, _, _)| *n == name) {
            self.rewards.push((name.clone(), e, acc));
        }
        name
    }

    fn accum(&self, j: &J) -> Result<Accum, Diagnostic> {
        let mut acc = Accum {
            state: false,
            steps: false,
        };
        for a in opt_arr(j, "accumulate")? {
            match str_of(a)? {
                "steps" => acc.steps = true,
                "time" | "exit" => acc.state = true,
                other => return Err(err(a, format!("unknown accumulation `{other}`"))),
            }
        }
        Ok(acc)
    }

    fn prop(&mut self, j: &'j J) -> Result<Expr, Diagnostic> {
        let sp = j.span;
        let Some(op) = j.get("op").and_then(|o| o.as_str()) else {
            return self.expr(j, &Scope::global());
        };
        let opt_of = |op: &str| {
            if op.ends_with("min") {
                Opt::Min
            } else {
                Opt::Max
            }
        };
        match op {
            "filter" => {
                let fun = str_of(field(j, "fun")?)?;
                let values = self.prop(field(j, "values")?)?;
                let states = self.prop(field(j, "states")?)?;
                let initial = matches!(&states.kind, ExprKind::Label(l) if l == "init");
                match fun {
                    "values" if initial => Ok(values),
                    "values" => Err(err(
                        j,
                        "filter `values` over states other than the initial ones is not supported",
                    )),
                    "min" | "max" | "sum" | "avg" | "count" | "forall" | "exists" | "argmin"
                    | "argmax" => Ok(ex(
                        ExprKind::Filter {
                            op: fun.to_string(),
                            prop: Box::new(values),
                            states: Some(Box::new(states)),
                        },
                        sp,
                    )),
                    other => Err(err(j, format!("unknown filter function `{other}`"))),
                }
            }
            "Pmin" | "Pmax" => {
                let path = self.path(field(j, "exp")?)?;
                Ok(ex(
                    ExprKind::Prob {
                        opt: opt_of(op),
                        bound: Bound::Query,
                        path: Box::new(path),
                    },
                    sp,
                ))
            }
            "Emin" | "Emax" => self.expectation(j, opt_of(op)),
            "Smin" | "Smax" => {
                let e = field(j, "exp")?;
                let te = self.prop(e)?;
                if self.is_bool(&te) || self.is_transient_bool(e) {
                    Ok(ex(
                        ExprKind::Steady {
                            bound: Bound::Query,
                            expr: Box::new(te),
                        },
                        sp,
                    ))
                } else {
                    // The long-run average of what states and transitions earn.
                    let name = self.reward_name(
                        e,
                        Accum {
                            state: true,
                            steps: true,
                        },
                    );
                    Ok(ex(
                        ExprKind::Reward {
                            rew: RewardRef::Name(name, e.span),
                            opt: opt_of(op),
                            bound: Bound::Query,
                            path: Box::new(RewardPath::Steady),
                        },
                        sp,
                    ))
                }
            }
            "<" | "≤" | ">" | "≥" => {
                let (lj, rj) = (field(j, "left")?, field(j, "right")?);
                let is_q = |x: &J| {
                    matches!(
                        x.get("op").and_then(|o| o.as_str()),
                        Some("Pmin" | "Pmax" | "Emin" | "Emax" | "Smin" | "Smax")
                    )
                };
                let (q, k, flip) = if is_q(lj) {
                    (lj, rj, false)
                } else if is_q(rj) {
                    (rj, lj, true)
                } else {
                    return self.plain_prop(j);
                };
                let cmp = match (op, flip) {
                    ("<", false) | (">", true) => CmpOp::Lt,
                    ("≤", false) | ("≥", true) => CmpOp::Le,
                    (">", false) | ("<", true) => CmpOp::Gt,
                    _ => CmpOp::Ge,
                };
                let bound = Bound::Cmp(cmp, Box::new(self.expr(k, &Scope::global())?));
                let mut inner = self.prop(q)?;
                match &mut inner.kind {
                    ExprKind::Prob { bound: b, .. }
                    | ExprKind::Reward { bound: b, .. }
                    | ExprKind::Steady { bound: b, .. } => *b = bound,
                    _ => return Err(err(q, "expected a P, E or S operator")),
                }
                inner.span = sp;
                Ok(inner)
            }
            "∧" | "∨" | "¬" | "⇒" => self.plain_prop(j),
            _ => self.expr(j, &Scope::global()),
        }
    }

    /// Boolean connectives over property sub-formulas.
    fn plain_prop(&mut self, j: &'j J) -> Result<Expr, Diagnostic> {
        let sp = j.span;
        let op = str_of(field(j, "op")?)?;
        if op == "¬" {
            let a = self.prop(field(j, "exp")?)?;
            return Ok(ex(ExprKind::Unary(UnOp::Not, Box::new(a)), sp));
        }
        let a = self.prop(field(j, "left")?)?;
        let b = self.prop(field(j, "right")?)?;
        let o = match op {
            "∧" => BinOp::And,
            "∨" => BinOp::Or,
            "⇒" => BinOp::Implies,
            "<" => BinOp::Lt,
            "≤" => BinOp::Le,
            ">" => BinOp::Gt,
            _ => BinOp::Ge,
        };
        Ok(bin(o, a, b, sp))
    }

    fn is_transient_bool(&self, j: &J) -> bool {
        j.as_str()
            .and_then(|s| self.transients.get(s))
            .is_some_and(|t| t.is_bool)
    }

    fn expectation(&mut self, j: &'j J, opt: Opt) -> Result<Expr, Diagnostic> {
        let sp = j.span;
        let e = field(j, "exp")?;
        let acc = self.accum(j)?;
        for k in [
            "reward-instants",
            "step-bounds",
            "time-bounds",
            "reward-bounds",
        ] {
            if let Some(x) = j.get(k) {
                return Err(err(
                    x,
                    format!("`{k}` on an expected-reward operator is not supported"),
                ));
            }
        }
        let instant = j.get("step-instant").or_else(|| j.get("time-instant"));
        let (path, acc) = match (j.get("reach"), instant) {
            (Some(r), None) => {
                if !acc.state && !acc.steps {
                    return Err(err(j, "a reachability reward needs \"accumulate\""));
                }
                (RewardPath::Reach(Box::new(self.prop(r)?)), acc)
            }
            (None, Some(t)) => {
                let te = Box::new(self.expr(t, &Scope::global())?);
                if acc.state || acc.steps {
                    (RewardPath::Cumul(te), acc)
                } else {
                    (
                        RewardPath::Inst(te),
                        Accum {
                            state: true,
                            steps: false,
                        },
                    )
                }
            }
            (Some(_), Some(t)) => {
                return Err(err(t, "`reach` together with an instant is not supported"))
            }
            (None, None) => {
                return Err(err(
                    j,
                    "total expected reward (no \"reach\" and no instant) is not supported",
                ))
            }
        };
        let name = self.reward_name(e, acc);
        Ok(ex(
            ExprKind::Reward {
                rew: RewardRef::Name(name, e.span),
                opt,
                bound: Bound::Query,
                path: Box::new(path),
            },
            sp,
        ))
    }

    fn path(&mut self, j: &'j J) -> Result<PathFormula, Diagnostic> {
        let op = str_of(field(j, "op")?)?;
        let mut tb = TimeBound::default();
        for k in ["step-bounds", "time-bounds"] {
            if let Some(b) = j.get(k) {
                if tb.lower.is_some() || tb.upper.is_some() {
                    return Err(err(b, "both step and time bounds are not supported"));
                }
                if let Some(u) = b.get("upper") {
                    tb.upper = Some((
                        Box::new(self.expr(u, &Scope::global())?),
                        bool_of(b.get("upper-exclusive"))?,
                    ));
                }
                if let Some(l) = b.get("lower") {
                    tb.lower = Some((
                        Box::new(self.expr(l, &Scope::global())?),
                        bool_of(b.get("lower-exclusive"))?,
                    ));
                }
            }
        }
        if let Some(rb) = j.get("reward-bounds") {
            let list = arr_of(rb)?;
            let [one] = list else {
                return Err(err(rb, "only a single reward bound is supported"));
            };
            let e = field(one, "exp")?;
            let acc = self.accum(one)?;
            let name = self.reward_name(e, acc);
            let b = field(one, "bounds")?;
            let (upper, bj, strict) = match (b.get("upper"), b.get("lower")) {
                (Some(u), None) => (true, u, bool_of(b.get("upper-exclusive"))?),
                (None, Some(l)) => (false, l, bool_of(b.get("lower-exclusive"))?),
                _ => {
                    return Err(err(
                        b,
                        "a reward bound with both a lower and an upper bound is not supported",
                    ))
                }
            };
            tb.reward_bound = Some(one.span);
            tb.reward = Some(RewardBound {
                rew: RewardRef::Name(name, e.span),
                upper,
                strict,
                bound: Box::new(self.expr(bj, &Scope::global())?),
                span: one.span,
            });
        }
        match op {
            "U" => {
                let l = self.prop(field(j, "left")?)?;
                let r = self.prop(field(j, "right")?)?;
                Ok(PathFormula::Until(Box::new(l), Box::new(r), tb))
            }
            "F" => {
                let r = self.prop(field(j, "exp")?)?;
                let t = Expr::boolean(true, j.span);
                Ok(PathFormula::Until(Box::new(t), Box::new(r), tb))
            }
            "G" => {
                let r = self.prop(field(j, "exp")?)?;
                Ok(PathFormula::Globally(Box::new(r), tb))
            }
            "X" => {
                if !tb.is_none() {
                    return Err(err(j, "a bounded next operator is not supported"));
                }
                let r = self.prop(field(j, "exp")?)?;
                Ok(PathFormula::Next(Box::new(r)))
            }
            "W" => Err(err(j, "the weak-until operator `W` is not supported")),
            "R" => Err(err(j, "the release operator `R` is not supported")),
            _ => Err(err(j, format!("expected a path formula, found `{op}`"))),
        }
    }
}

/// The value of a constant numeric expression built from literals (`None` otherwise).
fn const_value(e: &Expr) -> Option<f64> {
    match &e.kind {
        ExprKind::Int(i) => Some(*i as f64),
        ExprKind::Real(r) => Some(*r),
        ExprKind::Unary(UnOp::Neg, a) => Some(-const_value(a)?),
        ExprKind::Binary(op, a, b) => {
            let (x, y) = (const_value(a)?, const_value(b)?);
            match op {
                BinOp::Add => Some(x + y),
                BinOp::Sub => Some(x - y),
                BinOp::Mul => Some(x * y),
                _ => None,
            }
        }
        _ => None,
    }
}
