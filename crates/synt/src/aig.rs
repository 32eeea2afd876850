//! Controllers as AND-inverter graphs (AIGER 1.9 without the optional sections: inputs, latches
//! initialised to 0, outputs, AND gates; structural hashing).
//!
//! The machine's state is encoded in the latches (state 0 = all latches 0), in binary or one-hot;
//! each output and each next-state bit is a BDD (`verikit-bdd`) over the latch and input bits,
//! built from the machine's table and turned into gates, shared across all functions, in one of
//! three styles: node by node (if-then-else with the constant cases simplified); or, with the
//! latch valuations that are no state's code as don't-cares, as the irredundant cover `isop`
//! finds between the function and the function with the don't-cares, either as that cover's
//! sum of products (factored by its most frequent literals) or node by node from the cover's
//! BDD. Of the twelve encodings (binary or one-hot, latches last or first in the BDD order, three
//! styles) the one with the fewest AND gates is kept, as ltlsynt's `--aiger=both` keeps the
//! smaller of its if-then-else and sum-of-products circuits (`+ud`: unused codes as
//! don't-cares).
//!
//! The circuit is built directly as the workspace's `verikit_aiger::Aig` (inputs, then latches,
//! then the gates numbered after them), its gates structurally hashed by the AIGER kernel's
//! `Strash`; the kernel's writers print it.

use std::collections::HashMap;

use crate::error::SyntError;
use crate::isop::{isop, Cube};
use crate::mealy::{Machine, Row};
use verikit_aiger::{Aig, Reset, Strash};
use verikit_bdd::{Bdd, BddPointer, BddVariable};
use verikit_diag::Budget;

/// An AIGER literal: `2·variable + negated`; 0 is false, 1 is true.
pub(crate) type Lit = u32;

/// A controller circuit: the AIGER circuit (inputs, latches reset to 0, outputs, AND gates in
/// topological order, symbols) and the latch values of each machine state.
#[derive(Clone, Debug, Default)]
pub(crate) struct Circuit {
    pub(crate) aig: Aig,
    /// Per machine state, its latch values.
    pub(crate) codes: Vec<Vec<bool>>,
}

/// Gates of BDDs, structurally hashed by the AIGER kernel's [`Strash`].
struct Builder {
    st: Strash,
}

impl Builder {
    fn ite(&mut self, c: Lit, t: Lit, e: Lit) -> Lit {
        let st = &mut self.st;
        if t == e {
            return t;
        }
        if t == 1 {
            return st.or(c, e);
        }
        if t == 0 {
            return st.and(c ^ 1, e);
        }
        if e == 0 {
            return st.and(c, t);
        }
        if e == 1 {
            return st.or(c ^ 1, t);
        }
        let a = st.and(c, t);
        let b = st.and(c ^ 1, e);
        st.or(a, b)
    }

    /// The gates of a BDD whose variable `i` is the literal `var_lit[i]`.
    fn bdd(&mut self, f: &Bdd, var_lit: &[Lit]) -> Lit {
        if f.is_false() {
            return 0;
        }
        if f.is_true() {
            return 1;
        }
        // Nodes are stored children first.
        let mut lit = vec![0u32; f.size()];
        for i in 0..f.size() {
            let p = BddPointer::from_index(i);
            if p.is_zero() {
                lit[i] = 0;
            } else if p.is_one() {
                lit[i] = 1;
            } else {
                let v = var_lit.get(f.var_of(p).to_index()).copied().unwrap_or(0);
                let hi = lit.get(f.high_link_of(p).to_index()).copied().unwrap_or(0);
                let lo = lit.get(f.low_link_of(p).to_index()).copied().unwrap_or(0);
                lit[i] = self.ite(v, hi, lo);
            }
        }
        lit.get(f.root_pointer().to_index()).copied().unwrap_or(0)
    }

    /// The gates of a sum of products, factored: the literal occurring in most cubes is taken
    /// out (`x·(cubes with x, x removed) + (the others)`), recursively, so that cubes sharing
    /// literals share gates.
    fn sop(&mut self, cubes: &[Cube], var_lit: &[Lit]) -> Lit {
        if cubes.is_empty() {
            return 0;
        }
        if cubes.iter().any(|c| c.is_empty()) {
            return 1;
        }
        let mut count: HashMap<(BddVariable, bool), usize> = HashMap::new();
        for c in cubes {
            for &l in c {
                *count.entry(l).or_default() += 1;
            }
        }
        let Some((&(v, pol), _)) = count.iter().max_by_key(|&(&(v, p), &n)| (n, v, p)) else {
            return 0;
        };
        let mut with = Vec::new();
        let mut without = Vec::new();
        for c in cubes {
            if c.contains(&(v, pol)) {
                with.push(c.iter().copied().filter(|&l| l != (v, pol)).collect());
            } else {
                without.push(c.clone());
            }
        }
        let x = var_lit.get(v.to_index()).copied().unwrap_or(0) ^ u32::from(!pol);
        let w = self.sop(&with, var_lit);
        let a = self.st.and(x, w);
        let o = self.sop(&without, var_lit);
        self.st.or(a, o)
    }
}

/// How each output and next-state function is turned into gates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Style {
    /// If-then-else of the function's BDD, node by node.
    Ite,
    /// If-then-else of the BDD of an irredundant cover (`isop`) that uses the unused state codes
    /// as don't-cares.
    IteDc,
    /// The irredundant cover itself, factored (`Builder::sop`).
    Isop,
}

/// The name of latch `j` in the circuit's BDD dictionary (not a TLSF or LTL identifier).
fn latch_name(j: usize) -> String {
    format!("\u{1}state_{j}")
}

/// How the machine's state is kept in the latches. State 0 is always all latches 0 (AIGER's
/// reset value).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum StateCode {
    /// `⌈log₂ n⌉` latches, state `s` in binary.
    Binary,
    /// `n − 1` latches, state `s > 0` with latch `s − 1` alone set: more latches, but each state
    /// is one literal (the other latches are 0 in every reachable valuation).
    OneHot,
}

impl StateCode {
    fn latches(self, n: usize) -> usize {
        match self {
            StateCode::Binary => (usize::BITS - (n.max(1) - 1).leading_zeros()) as usize,
            StateCode::OneHot => n.max(1) - 1,
        }
    }
    fn bit(self, s: usize, j: usize) -> bool {
        match self {
            StateCode::Binary => s >> j & 1 == 1,
            StateCode::OneHot => s == j + 1,
        }
    }
}

/// The circuit of a machine. `unc` are the names of the machine's uncontrolled propositions,
/// `ctl` its controlled ones (in the order of the rows' answers); `all_inputs`/`all_outputs` are
/// the circuit's declared signals (a declared input the game does not use is read and ignored; a
/// declared output it does not use is constant 0).
///
/// Twelve encodings are built — binary or one-hot state codes, the latch bits after or before the
/// propositions in the BDD order the gates are read from, the three [`Style`]s — and the one with
/// the fewest AND gates is kept (then the fewest latches).
pub(crate) fn encode(
    m: &Machine,
    unc: &[String],
    ctl: &[String],
    all_inputs: &[String],
    all_outputs: &[String],
    budget: &Budget,
) -> Result<Circuit, SyntError> {
    let mut best: Option<Circuit> = None;
    for code in [StateCode::Binary, StateCode::OneHot] {
        if code == StateCode::OneHot && m.states() > 64 {
            continue;
        }
        for latches_first in [false, true] {
            for style in [Style::Ite, Style::IteDc, Style::Isop] {
                let c = encode_with(
                    m,
                    unc,
                    ctl,
                    all_inputs,
                    all_outputs,
                    Encoding {
                        code,
                        latches_first,
                        style,
                    },
                    budget,
                );
                // The plain encoding must succeed; a don't-care one that runs into a limit is
                // skipped.
                let c = match c {
                    Ok(c) => c,
                    Err(SyntError::Limit(_)) if style != Style::Ite => continue,
                    Err(e) => return Err(e),
                };
                let key = |c: &Circuit| (c.aig.ands.len(), c.aig.latches.len());
                match &best {
                    Some(b) if key(b) <= key(&c) => {}
                    _ => best = Some(c),
                }
            }
        }
    }
    best.ok_or_else(|| SyntError::Internal("no circuit encoding".into()))
}

/// One of the encodings [`encode`] tries.
#[derive(Clone, Copy, Debug)]
struct Encoding {
    code: StateCode,
    /// The latch bits before the propositions in the BDD order.
    latches_first: bool,
    style: Style,
}

fn encode_with(
    m: &Machine,
    unc: &[String],
    ctl: &[String],
    all_inputs: &[String],
    all_outputs: &[String],
    enc: Encoding,
    budget: &Budget,
) -> Result<Circuit, SyntError> {
    let Encoding {
        code,
        latches_first,
        style,
    } = enc;
    let n = m.states().max(1);
    let nl = code.latches(n);
    let ni = all_inputs.len();
    // BDD variables: the game's propositions and the latch bits, in one of two orders.
    let latch_names: Vec<String> = (0..nl).map(latch_name).collect();
    let limit = |e: verikit_bdd::BddError| SyntError::Limit(e.to_string());
    let dict = if latches_first {
        verikit_bdd::BddDict::try_new(
            latch_names
                .iter()
                .chain(m.dict.names().iter())
                .map(String::as_str),
        )
        .map_err(limit)?
    } else {
        m.dict
            .extend(latch_names.iter().map(String::as_str))
            .map_err(limit)?
    };
    let lift = |b: &Bdd| -> Result<Bdd, SyntError> {
        dict.import(&m.dict, b, &verikit_bdd::Limits::unlimited())
            .map_err(limit)
    };
    let latch_vars: Vec<BddVariable> = latch_names.iter().filter_map(|n| dict.var_of(n)).collect();
    // Inputs are variables 1..=ni, latches ni+1..=ni+nl (next states set once built), gates after.
    let mut aig = Aig::new();
    for _ in 0..ni {
        aig.add_input();
    }
    for _ in 0..nl {
        aig.add_latch(0, Reset::Zero);
    }
    let mut b = Builder {
        st: Strash::new(aig),
    };
    let mut var_lit: Vec<Lit> = vec![0; dict.len()];
    for name in unc {
        let i = all_inputs
            .iter()
            .position(|x| x == name)
            .ok_or_else(|| SyntError::Internal(format!("game input {name} is not declared")))?;
        let v = dict
            .var_of(name)
            .ok_or_else(|| SyntError::Internal(format!("game input {name} has no variable")))?;
        if let Some(slot) = var_lit.get_mut(v.to_index()) {
            *slot = 2 * (1 + i as u32);
        }
    }
    for (j, v) in latch_vars.iter().enumerate() {
        if let Some(slot) = var_lit.get_mut(v.to_index()) {
            *slot = 2 * (1 + ni as u32 + j as u32);
        }
    }
    let set = dict.vars();
    // The latch condition of state `s`: its whole code in binary; in one-hot its own latch (state
    // 0: all latches 0), the other latches being 0 in every reachable valuation.
    let state_cube = |s: usize| -> Bdd {
        match code {
            StateCode::OneHot if s > 0 => latch_vars
                .get(s - 1)
                .map_or_else(|| set.mk_false(), |&v| set.mk_var(v)),
            _ => {
                let mut c = set.mk_true();
                for (j, v) in latch_vars.iter().enumerate() {
                    c = c.and(&set.mk_literal(*v, code.bit(s, j)));
                }
                c
            }
        }
    };
    // The whole code of state `s` (in one-hot: its latch set, all others clear).
    let full_cube = |s: usize| -> Bdd {
        let mut c = set.mk_true();
        for (j, v) in latch_vars.iter().enumerate() {
            c = c.and(&set.mk_literal(*v, code.bit(s, j)));
        }
        c
    };
    // The latch valuations of the machine's states; every other valuation is a don't-care.
    let care = if style == Style::Ite {
        set.mk_true()
    } else {
        (0..n).fold(set.mk_false(), |c, s| c.or(&full_cube(s)))
    };
    // A function given per state by the rows: `on(row)` is where it is true inside the row.
    let function = |on: &dyn Fn(&Row) -> Bdd, b: &mut Builder| -> Result<Lit, SyntError> {
        let mut f = set.mk_false();
        for (s, rows) in m.rows.iter().enumerate() {
            budget.check()?;
            let mut g = set.mk_false();
            for r in rows {
                g = g.or(&lift(&on(r))?);
            }
            if !g.is_false() {
                let cube = if style == Style::Ite {
                    state_cube(s)
                } else {
                    full_cube(s)
                };
                f = f.or(&cube.and(&g));
            }
        }
        match style {
            Style::Ite => Ok(b.bdd(&f, &var_lit)),
            Style::IteDc => {
                let (_, g) = isop(&f, &f.or(&care.not()), set, budget)?;
                Ok(b.bdd(&g, &var_lit))
            }
            Style::Isop => {
                let (cubes, _) = isop(&f, &f.or(&care.not()), set, budget)?;
                Ok(b.sop(&cubes, &var_lit))
            }
        }
    };
    let mut outputs = Vec::with_capacity(all_outputs.len());
    for name in all_outputs {
        let lit = match ctl.iter().position(|x| x == name) {
            Some(j) => function(
                &|r: &Row| match r.answer.get(j) {
                    Some(a) => r.guard.and(a),
                    None => m.dict.ff(),
                },
                &mut b,
            )?,
            None => 0,
        };
        outputs.push(lit);
    }
    let mut next = Vec::with_capacity(nl);
    for j in 0..nl {
        next.push(function(
            &|r: &Row| {
                if code.bit(r.target as usize, j) {
                    r.guard.clone()
                } else {
                    m.dict.ff()
                }
            },
            &mut b,
        )?);
    }
    let mut aig = b.st.aig;
    for (j, l) in next.into_iter().enumerate() {
        aig.set_next(j, l);
    }
    aig.outputs = outputs;
    for (k, n) in all_inputs.iter().enumerate() {
        aig.symbols.push(('i', k, n.clone()));
    }
    for k in 0..nl {
        aig.symbols.push(('l', k, format!("state_{k}")));
    }
    for (k, n) in all_outputs.iter().enumerate() {
        aig.symbols.push(('o', k, n.clone()));
    }
    let codes = (0..n)
        .map(|s| (0..nl).map(|j| code.bit(s, j)).collect())
        .collect();
    Ok(Circuit { aig, codes })
}

impl Circuit {
    /// Evaluates one step symbolically: given each input as a BDD (in the order of the circuit's
    /// inputs) and the latch values, the outputs and the next latch values as BDDs.
    pub(crate) fn step(&self, inputs: &[Bdd], latches: &[bool], ff: &Bdd) -> (Vec<Bdd>, Vec<Bdd>) {
        eval(&self.aig, inputs, latches, ff)
    }
}

/// One step of `a` evaluated symbolically: given each input as a BDD (in the order of the
/// circuit's inputs) and the latch values, the outputs and the next latch values as BDDs.
pub(crate) fn eval(a: &Aig, inputs: &[Bdd], latches: &[bool], ff: &Bdd) -> (Vec<Bdd>, Vec<Bdd>) {
    let tt = ff.not();
    let mut val = vec![ff.clone(); a.maxvar as usize + 1];
    for (&l, x) in a.inputs.iter().zip(inputs) {
        if let Some(slot) = val.get_mut((l / 2) as usize) {
            *slot = x.clone();
        }
    }
    for (latch, &x) in a.latches.iter().zip(latches) {
        if let Some(slot) = val.get_mut((latch.lit / 2) as usize) {
            *slot = if x { tt.clone() } else { ff.clone() };
        }
    }
    let get = |val: &[Bdd], l: Lit| {
        let v = val
            .get((l / 2) as usize)
            .cloned()
            .unwrap_or_else(|| ff.clone());
        if l & 1 == 1 {
            v.not()
        } else {
            v
        }
    };
    for g in &a.ands {
        let v = get(&val, g.rhs0).and(&get(&val, g.rhs1));
        if let Some(slot) = val.get_mut((g.lhs / 2) as usize) {
            *slot = v;
        }
    }
    (
        a.outputs.iter().map(|&l| get(&val, l)).collect(),
        a.latches.iter().map(|l| get(&val, l.next)).collect(),
    )
}

/// Circuits run side by side (`decompose`): all read the same inputs (the same declared inputs in
/// the same order); output `k` is taken from the circuit `owner[k]` names (constant 0 when none).
/// Each circuit's latches and gates are copied, renumbered, into one circuit whose gates are
/// structurally hashed across the parts.
pub(crate) fn compose(
    parts: &[Aig],
    owner: &[Option<usize>],
    all_inputs: &[String],
    all_outputs: &[String],
) -> Result<Aig, SyntError> {
    let mut aig = Aig::new();
    for _ in all_inputs {
        aig.add_input();
    }
    // Per part, the new literal of each of its variables (0 where none).
    let mut maps: Vec<Vec<Lit>> = Vec::with_capacity(parts.len());
    for p in parts {
        if p.inputs.len() != all_inputs.len() {
            return Err(SyntError::Internal(format!(
                "a part's circuit has {} inputs, not {}",
                p.inputs.len(),
                all_inputs.len()
            )));
        }
        let mut map: Vec<Lit> = vec![0; p.maxvar as usize + 1];
        for (&l, &n) in p.inputs.iter().zip(&aig.inputs) {
            if let Some(slot) = map.get_mut((l / 2) as usize) {
                *slot = n;
            }
        }
        for l in &p.latches {
            let n = aig.add_latch(0, l.reset);
            if let Some(slot) = map.get_mut((l.lit / 2) as usize) {
                *slot = n;
            }
        }
        maps.push(map);
    }
    let lit = |map: &[Lit], l: Lit| map.get((l / 2) as usize).copied().unwrap_or(0) ^ (l & 1);
    let mut st = Strash::new(aig);
    for (p, map) in parts.iter().zip(maps.iter_mut()) {
        for g in &p.ands {
            let n = st.and(lit(map, g.rhs0), lit(map, g.rhs1));
            if let Some(slot) = map.get_mut((g.lhs / 2) as usize) {
                *slot = n;
            }
        }
    }
    let mut aig = st.aig;
    let mut j = 0;
    for (p, map) in parts.iter().zip(&maps) {
        for l in &p.latches {
            aig.set_next(j, lit(map, l.next));
            j += 1;
        }
    }
    for k in 0..all_outputs.len() {
        let l = match owner.get(k).copied().flatten() {
            Some(i) => {
                let (p, map) = parts.get(i).zip(maps.get(i)).ok_or_else(|| {
                    SyntError::Internal(format!("output {k} owned by a missing part"))
                })?;
                p.outputs.get(k).map_or(0, |&l| lit(map, l))
            }
            None => 0,
        };
        aig.outputs.push(l);
    }
    for (k, n) in all_inputs.iter().enumerate() {
        aig.symbols.push(('i', k, n.clone()));
    }
    for k in 0..aig.latches.len() {
        aig.symbols.push(('l', k, format!("state_{k}")));
    }
    for (k, n) in all_outputs.iter().enumerate() {
        aig.symbols.push(('o', k, n.clone()));
    }
    Ok(aig)
}
