//! The in-memory and-inverter graph and the checks every reader shares: literal ranges, one
//! definition per variable, every used variable defined, reset values, and a topological order of
//! the AND gates (a cycle is an error at the gate that closes it).

/// Reset value of a latch (AIGER 1.9: `0`, `1`, or the latch's own literal = uninitialised).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reset {
    Zero,
    One,
    /// Any initial value is allowed.
    Uninit,
}

/// A latch: its (even) literal, the literal of its next-state function and its reset value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Latch {
    pub lit: u32,
    pub next: u32,
    pub reset: Reset,
}

/// An AND gate `lhs = rhs0 ∧ rhs1` (`lhs` even).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct And {
    pub lhs: u32,
    pub rhs0: u32,
    pub rhs1: u32,
}

/// An AIGER 1.9 circuit. Literals are `2·var + negation`; `0` is false, `1` true. `ands` is in
/// topological order (each gate after the gates it reads) once read or built with [`Aig::and`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Aig {
    /// The largest variable index `M`.
    pub maxvar: u32,
    pub inputs: Vec<u32>,
    pub latches: Vec<Latch>,
    pub outputs: Vec<u32>,
    pub bad: Vec<u32>,
    pub constraints: Vec<u32>,
    pub justice: Vec<Vec<u32>>,
    pub fairness: Vec<u32>,
    pub ands: Vec<And>,
    /// Symbol table entries: kind (`i l o b c j f`), position within that kind, name.
    pub symbols: Vec<(char, usize, String)>,
    /// Comment lines (after the `c` line).
    pub comments: Vec<String>,
}

/// What a variable is, by index ([`Aig::kinds`]): the constant, undefined, or the position of
/// its input, latch or AND gate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Const,
    Undefined,
    Input(usize),
    Latch(usize),
    And(usize),
}

impl Aig {
    pub fn new() -> Aig {
        Aig::default()
    }
    /// A new primary input; returns its literal.
    pub fn add_input(&mut self) -> u32 {
        self.maxvar += 1;
        let l = 2 * self.maxvar;
        self.inputs.push(l);
        l
    }
    /// A new latch with next-state literal `next` (set it later with [`Aig::set_next`] if the
    /// function is built afterwards); returns its literal.
    pub fn add_latch(&mut self, next: u32, reset: Reset) -> u32 {
        self.maxvar += 1;
        let lit = 2 * self.maxvar;
        self.latches.push(Latch { lit, next, reset });
        lit
    }
    /// Sets the next-state literal of latch `i` (no effect if there is no such latch).
    pub fn set_next(&mut self, i: usize, next: u32) {
        if let Some(l) = self.latches.get_mut(i) {
            l.next = next;
        }
    }
    /// A new AND gate (constants and trivial cases folded); returns its literal.
    pub fn and(&mut self, a: u32, b: u32) -> u32 {
        if a == 0 || b == 0 || a == (b ^ 1) {
            return 0;
        }
        if a == 1 {
            return b;
        }
        if b == 1 || a == b {
            return a;
        }
        self.maxvar += 1;
        let lhs = 2 * self.maxvar;
        let (rhs0, rhs1) = if a >= b { (a, b) } else { (b, a) };
        self.ands.push(And { lhs, rhs0, rhs1 });
        lhs
    }
    /// `a ∨ b`.
    pub fn or(&mut self, a: u32, b: u32) -> u32 {
        self.and(a ^ 1, b ^ 1) ^ 1
    }
    /// The safety properties: the bad-state literals, or — in files from before AIGER 1.9 with no
    /// `B` section — the outputs.
    pub fn properties(&self) -> &[u32] {
        if self.bad.is_empty() {
            &self.outputs
        } else {
            &self.bad
        }
    }
    /// The symbol of the `idx`-th item of a kind (`'i'`, `'l'`, `'o'`, `'b'`, …), if named.
    pub fn symbol(&self, kind: char, idx: usize) -> Option<&str> {
        self.symbols
            .iter()
            .find(|(k, i, _)| *k == kind && *i == idx)
            .map(|(_, _, s)| s.as_str())
    }
    /// What each variable `0..=maxvar` is.
    pub fn kinds(&self) -> Vec<Kind> {
        let mut k = vec![Kind::Undefined; self.maxvar as usize + 1];
        k[0] = Kind::Const;
        for (i, &l) in self.inputs.iter().enumerate() {
            if let Some(x) = k.get_mut((l >> 1) as usize) {
                *x = Kind::Input(i);
            }
        }
        for (i, l) in self.latches.iter().enumerate() {
            if let Some(x) = k.get_mut((l.lit >> 1) as usize) {
                *x = Kind::Latch(i);
            }
        }
        for (i, a) in self.ands.iter().enumerate() {
            if let Some(x) = k.get_mut((a.lhs >> 1) as usize) {
                *x = Kind::And(i);
            }
        }
        k
    }
    /// Checks a circuit built in memory the way the readers check files (ranges, single
    /// definitions, defined uses, acyclic gates) and puts the ANDs in topological order.
    pub fn validate(&mut self) -> Result<(), String> {
        let raw = Raw::from_aig(self);
        *self = raw.finish().map_err(|(_, m)| m)?;
        Ok(())
    }
}

/// A circuit as read, with the byte offset of every item, before the shared checks.
#[derive(Default)]
pub(crate) struct Raw {
    pub(crate) maxvar: u32,
    pub(crate) inputs: Vec<(u32, usize)>,
    /// literal, next, reset (as written), offset
    pub(crate) latches: Vec<(u32, u32, Option<u32>, usize)>,
    pub(crate) outputs: Vec<(u32, usize)>,
    pub(crate) bad: Vec<(u32, usize)>,
    pub(crate) constraints: Vec<(u32, usize)>,
    pub(crate) justice: Vec<Vec<(u32, usize)>>,
    pub(crate) fairness: Vec<(u32, usize)>,
    pub(crate) ands: Vec<(u32, u32, u32, usize)>,
    pub(crate) symbols: Vec<(char, usize, String)>,
    pub(crate) comments: Vec<String>,
}

/// An error at a byte offset.
pub(crate) type Located = (usize, String);

impl Raw {
    fn from_aig(a: &Aig) -> Raw {
        let z = |v: &Vec<u32>| v.iter().map(|&l| (l, 0)).collect::<Vec<_>>();
        Raw {
            maxvar: a.maxvar,
            inputs: z(&a.inputs),
            latches: a
                .latches
                .iter()
                .map(|l| {
                    let r = match l.reset {
                        Reset::Zero => 0,
                        Reset::One => 1,
                        Reset::Uninit => l.lit,
                    };
                    (l.lit, l.next, Some(r), 0)
                })
                .collect(),
            outputs: z(&a.outputs),
            bad: z(&a.bad),
            constraints: z(&a.constraints),
            justice: a.justice.iter().map(z).collect(),
            fairness: z(&a.fairness),
            ands: a.ands.iter().map(|g| (g.lhs, g.rhs0, g.rhs1, 0)).collect(),
            symbols: a.symbols.clone(),
            comments: a.comments.clone(),
        }
    }

    /// The shared checks; the ANDs come out in topological order.
    pub(crate) fn finish(self) -> Result<Aig, Located> {
        let m = self.maxvar as u64;
        let n = self.maxvar as usize + 1;
        let range = |l: u32, at: usize| -> Result<u32, Located> {
            if (l as u64) >> 1 > m {
                Err((
                    at,
                    format!("literal {l} is out of range (the header says M = {m})"),
                ))
            } else {
                Ok(l)
            }
        };
        // definitions
        let mut def: Vec<Option<usize>> = vec![None; n];
        let mut define = |l: u32, at: usize, what: &str| -> Result<(), Located> {
            range(l, at)?;
            if l & 1 == 1 {
                return Err((at, format!("{what} literal {l} is negated (must be even)")));
            }
            if l < 2 {
                return Err((at, format!("{what} literal {l} is a constant")));
            }
            let v = (l >> 1) as usize;
            match def.get(v).copied().flatten() {
                Some(_) => Err((at, format!("variable {v} (literal {l}) is defined twice"))),
                None => {
                    if let Some(d) = def.get_mut(v) {
                        *d = Some(at);
                    }
                    Ok(())
                }
            }
        };
        for &(l, at) in &self.inputs {
            define(l, at, "input")?;
        }
        for &(l, _, _, at) in &self.latches {
            define(l, at, "latch")?;
        }
        for &(l, _, _, at) in &self.ands {
            define(l, at, "AND")?;
        }
        let used = |l: u32, at: usize| -> Result<u32, Located> {
            range(l, at)?;
            let v = (l >> 1) as usize;
            if v != 0 && def.get(v).copied().flatten().is_none() {
                return Err((
                    at,
                    format!("literal {l} uses variable {v}, which is never defined"),
                ));
            }
            Ok(l)
        };
        let mut latches = Vec::with_capacity(self.latches.len());
        for &(l, next, reset, at) in &self.latches {
            let reset = match reset {
                None | Some(0) => Reset::Zero,
                Some(1) => Reset::One,
                Some(r) if r == l => Reset::Uninit,
                Some(r) => {
                    return Err((
                        at,
                        format!("latch {l}: reset value {r} must be 0, 1 or the latch literal {l}"),
                    ))
                }
            };
            latches.push(Latch {
                lit: l,
                next: used(next, at)?,
                reset,
            });
        }
        let list = |v: &[(u32, usize)]| -> Result<Vec<u32>, Located> {
            v.iter().map(|&(l, at)| used(l, at)).collect()
        };
        let outputs = list(&self.outputs)?;
        let bad = list(&self.bad)?;
        let constraints = list(&self.constraints)?;
        let justice = self
            .justice
            .iter()
            .map(|j| list(j))
            .collect::<Result<Vec<_>, _>>()?;
        let fairness = list(&self.fairness)?;
        for &(_, r0, r1, at) in &self.ands {
            used(r0, at)?;
            used(r1, at)?;
        }
        // topological order of the ANDs (iterative DFS; grey = on the stack)
        let mut gate_of: Vec<Option<usize>> = vec![None; n];
        for (i, &(l, ..)) in self.ands.iter().enumerate() {
            if let Some(g) = gate_of.get_mut((l >> 1) as usize) {
                *g = Some(i);
            }
        }
        let mut state = vec![0u8; self.ands.len()]; // 0 white, 1 grey, 2 black
        let mut order = Vec::with_capacity(self.ands.len());
        let mut stack: Vec<(usize, u8)> = Vec::new();
        for root in 0..self.ands.len() {
            if state.get(root) != Some(&0) {
                continue;
            }
            stack.push((root, 0));
            while let Some(&mut (g, ref mut child)) = stack.last_mut() {
                let Some(&(_, r0, r1, at)) = self.ands.get(g) else {
                    break;
                };
                if *child == 0 {
                    if let Some(s) = state.get_mut(g) {
                        *s = 1;
                    }
                }
                if *child < 2 {
                    let r = if *child == 0 { r0 } else { r1 };
                    *child += 1;
                    if let Some(&Some(c)) = gate_of.get((r >> 1) as usize) {
                        match state.get(c) {
                            Some(0) => stack.push((c, 0)),
                            Some(1) => {
                                return Err((
                                    at,
                                    format!(
                                        "cyclic AND gates: gate {} depends on itself through literal {r}",
                                        self.ands.get(g).map_or(0, |x| x.0)
                                    ),
                                ))
                            }
                            _ => {}
                        }
                    }
                } else {
                    if let Some(s) = state.get_mut(g) {
                        *s = 2;
                    }
                    order.push(g);
                    stack.pop();
                }
            }
        }
        let ands = order
            .into_iter()
            .filter_map(|g| self.ands.get(g))
            .map(|&(lhs, rhs0, rhs1, _)| And { lhs, rhs0, rhs1 })
            .collect();
        Ok(Aig {
            maxvar: self.maxvar,
            inputs: self.inputs.iter().map(|x| x.0).collect(),
            latches,
            outputs,
            bad,
            constraints,
            justice,
            fairness,
            ands,
            symbols: self.symbols,
            comments: self.comments,
        })
    }
}

/// An [`Aig`] under construction with structural hashing: one AND gate per (ordered) operand pair,
/// constants and trivial cases folded as [`Aig::and`] folds them.
pub struct Strash {
    /// The circuit built so far.
    pub aig: Aig,
    table: std::collections::HashMap<(u32, u32), u32>,
}

impl Strash {
    /// Hashes the gates added from now on to `aig` (its existing gates are not entered).
    pub fn new(aig: Aig) -> Strash {
        Strash {
            aig,
            table: std::collections::HashMap::new(),
        }
    }
    /// `a ∧ b`, the existing gate if one with these operands was made before.
    pub fn and(&mut self, a: u32, b: u32) -> u32 {
        let (a, b) = if a >= b { (a, b) } else { (b, a) };
        if b <= 1 || a == b || a == (b ^ 1) {
            return self.aig.and(a, b);
        }
        if let Some(&l) = self.table.get(&(a, b)) {
            return l;
        }
        let l = self.aig.and(a, b);
        self.table.insert((a, b), l);
        l
    }
    /// `a ∨ b`, through [`Strash::and`].
    pub fn or(&mut self, a: u32, b: u32) -> u32 {
        self.and(a ^ 1, b ^ 1) ^ 1
    }
}

#[cfg(test)]
mod strash_tests {
    use super::{Aig, Strash};

    #[test]
    fn one_gate_per_operand_pair_and_constants_folded() {
        let mut aig = Aig::new();
        let x = aig.add_input();
        let y = aig.add_input();
        let mut st = Strash::new(aig);
        let g = st.and(x, y);
        assert_eq!(st.and(y, x), g);
        assert_eq!(st.and(x ^ 1, y), st.and(y, x ^ 1));
        assert_ne!(st.and(x ^ 1, y), g);
        assert_eq!(st.and(x, 0), 0);
        assert_eq!(st.and(1, y), y);
        assert_eq!(st.and(x, x), x);
        assert_eq!(st.and(x, x ^ 1), 0);
        assert_eq!(st.aig.ands.len(), 2);
        assert_eq!(st.or(x ^ 1, y) ^ 1, st.and(x, y ^ 1));
        assert_eq!(st.or(x, 1), 1);
        assert_eq!(st.aig.ands.len(), 3);
    }
}
