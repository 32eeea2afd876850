//! Hash-consed LTL formulas. Every formula lives in an [`Arena`] and is named by a small copyable
//! id [`F`]; structurally equal formulas get the same id, so equality is an integer comparison and
//! automaton states (sets of formulas) hash cheaply. The constructors apply Spot's "trivial
//! identities" (constant absorption, flattening, sorting and deduplication of `&`/`|` operands,
//! `FFf = Ff`, `GGf = Gf`, `f U f = f`, …), which never change the meaning of a formula.

use std::collections::HashMap;

/// A SERE id in an [`Arena`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct S(pub u32);

/// One SERE node; operands are ids in the same arena, Boolean letters are formula ids.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Sere {
    /// `[*0]`, the empty word.
    Empty,
    /// One letter satisfying a Boolean formula (`0` matches nothing).
    Bool(F),
    /// `r;s;…` (at least two operands).
    Concat(Vec<S>),
    /// `r:s:…` (at least two operands).
    Fusion(Vec<S>),
    /// `r|s|…`, sorted.
    Or(Vec<S>),
    /// `r&&s&&…` (length-matching), sorted.
    AndLen(Vec<S>),
    /// `r&s&…` (non-length-matching), sorted.
    AndNlm(Vec<S>),
    /// `r[*lo..hi]` (`None`: unbounded).
    Star(S, u32, Option<u32>),
    /// `r[:*lo..hi]`.
    FStar(S, u32, Option<u32>),
}

/// A formula id in an [`Arena`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct F(pub u32);

/// One formula node; children are ids in the same arena.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Node {
    True,
    False,
    /// Atomic proposition, index into [`Arena::aps`].
    Ap(u32),
    Not(F),
    X(F),
    /// Eventually (`F`).
    Ev(F),
    /// Globally (`G`).
    Gl(F),
    /// Conjunction of at least two operands, sorted and deduplicated.
    And(Vec<F>),
    /// Disjunction of at least two operands, sorted and deduplicated.
    Or(Vec<F>),
    Xor(F, F),
    Implies(F, F),
    Equiv(F, F),
    U(F, F),
    R(F, F),
    W(F, F),
    M(F, F),
    /// PSL weak closure `{r}` (module [`super::sere`]).
    Closure(S),
    /// `!{r}`; the flag marks the obligation as watched by the translation's breakpoint
    /// (always `false` in parsed formulas; printed the same).
    NegClosure(S, bool),
    /// `{r}<>-> f` (`{r}!` is `{r}<>-> 1`); the flag as in `NegClosure`.
    EConcat(S, F, bool),
    /// `{r}[]-> f` (also written `{r}|-> f`).
    UConcat(S, F),
}

/// The store of hash-consed formulas and atomic proposition names.
#[derive(Clone, Debug)]
pub struct Arena {
    nodes: Vec<Node>,
    map: HashMap<Node, F>,
    aps: Vec<String>,
    ap_index: HashMap<String, u32>,
    /// Hash-consed SEREs (module [`super::sere`]).
    pub(super) seres: Vec<Sere>,
    pub(super) sere_map: HashMap<Sere, S>,
}

impl Default for Arena {
    fn default() -> Self {
        Self::new()
    }
}

impl Node {
    /// A binary operator's Spot text and operands (`xor`, `->`, `<->`, `U`, `R`, `W`, `M`).
    pub(crate) fn binary(&self) -> Option<(&'static str, F, F)> {
        Some(match *self {
            Node::Xor(a, b) => ("xor", a, b),
            Node::Implies(a, b) => ("->", a, b),
            Node::Equiv(a, b) => ("<->", a, b),
            Node::U(a, b) => ("U", a, b),
            Node::R(a, b) => ("R", a, b),
            Node::W(a, b) => ("W", a, b),
            Node::M(a, b) => ("M", a, b),
            _ => return None,
        })
    }
}

impl Arena {
    pub fn new() -> Self {
        let mut a = Arena {
            nodes: Vec::new(),
            map: HashMap::new(),
            aps: Vec::new(),
            ap_index: HashMap::new(),
            seres: Vec::new(),
            sere_map: HashMap::new(),
        };
        a.intern(Node::True);
        a.intern(Node::False);
        a.sere_init();
        a
    }

    pub(super) fn intern(&mut self, n: Node) -> F {
        if let Some(&f) = self.map.get(&n) {
            return f;
        }
        let f = F(self.nodes.len() as u32);
        self.nodes.push(n.clone());
        self.map.insert(n, f);
        f
    }

    pub fn node(&self, f: F) -> &Node {
        &self.nodes[f.0 as usize]
    }
    pub fn len(&self) -> usize {
        self.nodes.len()
    }
    pub fn is_empty(&self) -> bool {
        false
    }
    /// Atomic proposition names, in order of first appearance.
    pub fn aps(&self) -> &[String] {
        &self.aps
    }
    pub fn ap_name(&self, i: u32) -> &str {
        self.aps.get(i as usize).map_or("?", |s| s.as_str())
    }
    /// The index of an atomic proposition name (registered on first use).
    pub fn ap_id(&mut self, name: &str) -> u32 {
        if let Some(&i) = self.ap_index.get(name) {
            return i;
        }
        let i = self.aps.len() as u32;
        self.aps.push(name.to_string());
        self.ap_index.insert(name.to_string(), i);
        i
    }
    pub fn lookup_ap(&self, name: &str) -> Option<u32> {
        self.ap_index.get(name).copied()
    }

    pub fn tt(&self) -> F {
        F(0)
    }
    pub fn ff(&self) -> F {
        F(1)
    }
    pub fn is_true(&self, f: F) -> bool {
        f == F(0)
    }
    pub fn is_false(&self, f: F) -> bool {
        f == F(1)
    }
    pub fn constant(&self, b: bool) -> F {
        if b {
            F(0)
        } else {
            F(1)
        }
    }
    pub fn ap(&mut self, name: &str) -> F {
        let i = self.ap_id(name);
        self.intern(Node::Ap(i))
    }
    pub fn ap_idx(&mut self, i: u32) -> F {
        self.intern(Node::Ap(i))
    }

    /// True for Boolean formulas (no temporal operator).
    pub fn is_boolean(&self, f: F) -> bool {
        match self.node(f) {
            Node::True | Node::False | Node::Ap(_) => true,
            Node::Not(a) => self.is_boolean(*a),
            Node::And(v) | Node::Or(v) => v.iter().all(|&a| self.is_boolean(a)),
            Node::Xor(a, b) | Node::Implies(a, b) | Node::Equiv(a, b) => {
                self.is_boolean(*a) && self.is_boolean(*b)
            }
            _ => false,
        }
    }

    pub fn not(&mut self, f: F) -> F {
        match *self.node(f) {
            Node::True => self.ff(),
            Node::False => self.tt(),
            Node::Not(a) => a,
            _ => self.intern(Node::Not(f)),
        }
    }
    pub fn x(&mut self, f: F) -> F {
        match self.node(f) {
            Node::True | Node::False => f,
            _ => self.intern(Node::X(f)),
        }
    }
    pub fn ev(&mut self, f: F) -> F {
        match self.node(f) {
            Node::True | Node::False | Node::Ev(_) => f,
            _ => self.intern(Node::Ev(f)),
        }
    }
    pub fn gl(&mut self, f: F) -> F {
        match self.node(f) {
            Node::True | Node::False | Node::Gl(_) => f,
            _ => self.intern(Node::Gl(f)),
        }
    }

    fn nary(&mut self, is_and: bool, ops: Vec<F>) -> F {
        let (unit, zero) = if is_and {
            (self.tt(), self.ff())
        } else {
            (self.ff(), self.tt())
        };
        let mut flat = Vec::with_capacity(ops.len());
        for o in ops {
            if o == zero {
                return zero;
            }
            if o == unit {
                continue;
            }
            match self.node(o) {
                Node::And(v) if is_and => flat.extend(v.iter().copied()),
                Node::Or(v) if !is_and => flat.extend(v.iter().copied()),
                _ => flat.push(o),
            }
        }
        flat.sort_unstable();
        flat.dedup();
        match flat.len() {
            0 => unit,
            1 => flat[0],
            _ => self.intern(if is_and {
                Node::And(flat)
            } else {
                Node::Or(flat)
            }),
        }
    }
    pub fn and(&mut self, ops: Vec<F>) -> F {
        self.nary(true, ops)
    }
    pub fn or(&mut self, ops: Vec<F>) -> F {
        self.nary(false, ops)
    }
    pub fn and2(&mut self, a: F, b: F) -> F {
        self.and(vec![a, b])
    }
    pub fn or2(&mut self, a: F, b: F) -> F {
        self.or(vec![a, b])
    }
    pub fn xor(&mut self, a: F, b: F) -> F {
        if a == b {
            return self.ff();
        }
        match (self.node(a), self.node(b)) {
            (Node::False, _) => b,
            (_, Node::False) => a,
            (Node::True, _) => self.not(b),
            (_, Node::True) => self.not(a),
            _ => {
                let (a, b) = if a < b { (a, b) } else { (b, a) };
                self.intern(Node::Xor(a, b))
            }
        }
    }
    pub fn implies(&mut self, a: F, b: F) -> F {
        if a == b {
            return self.tt();
        }
        match (self.node(a), self.node(b)) {
            (Node::False, _) | (_, Node::True) => self.tt(),
            (Node::True, _) => b,
            (_, Node::False) => self.not(a),
            _ => self.intern(Node::Implies(a, b)),
        }
    }
    pub fn equiv(&mut self, a: F, b: F) -> F {
        if a == b {
            return self.tt();
        }
        match (self.node(a), self.node(b)) {
            (Node::True, _) => b,
            (_, Node::True) => a,
            (Node::False, _) => self.not(b),
            (_, Node::False) => self.not(a),
            _ => {
                let (a, b) = if a < b { (a, b) } else { (b, a) };
                self.intern(Node::Equiv(a, b))
            }
        }
    }
    /// `a U b` with `a U a = a`, `a U true = true`, `a U false = false`, `false U b = b`,
    /// `true U b = F b`.
    pub fn u(&mut self, a: F, b: F) -> F {
        if a == b {
            return a;
        }
        match (self.node(a), self.node(b)) {
            (_, Node::True) | (_, Node::False) | (Node::False, _) => b,
            (Node::True, _) => self.ev(b),
            _ => self.intern(Node::U(a, b)),
        }
    }
    /// `a R b` with `a R a = a`, `a R true = true`, `a R false = false`, `true R b = b`,
    /// `false R b = G b`.
    pub fn r(&mut self, a: F, b: F) -> F {
        if a == b {
            return a;
        }
        match (self.node(a), self.node(b)) {
            (_, Node::True) | (_, Node::False) | (Node::True, _) => b,
            (Node::False, _) => self.gl(b),
            _ => self.intern(Node::R(a, b)),
        }
    }
    /// `a W b` with `a W a = a`, `a W true = true`, `false W b = b`, `true W b = true`,
    /// `a W false = G a`.
    pub fn w(&mut self, a: F, b: F) -> F {
        if a == b {
            return a;
        }
        match (self.node(a), self.node(b)) {
            (_, Node::True) | (Node::False, _) => b,
            (Node::True, _) => self.tt(),
            (_, Node::False) => self.gl(a),
            _ => self.intern(Node::W(a, b)),
        }
    }
    /// `a M b` with `a M a = a`, `a M false = false`, `false M b = false`, `true M b = b`,
    /// `a M true = F a`.
    pub fn m(&mut self, a: F, b: F) -> F {
        if a == b {
            return a;
        }
        match (self.node(a), self.node(b)) {
            (_, Node::False) | (Node::True, _) => b,
            (Node::False, _) => self.ff(),
            (_, Node::True) => self.ev(a),
            _ => self.intern(Node::M(a, b)),
        }
    }

    /// Rebuilds a node from (possibly new) children, through the simplifying constructors.
    pub fn rebuild(&mut self, n: &Node) -> F {
        match n.clone() {
            Node::True => self.tt(),
            Node::False => self.ff(),
            Node::Ap(i) => self.ap_idx(i),
            Node::Not(a) => self.not(a),
            Node::X(a) => self.x(a),
            Node::Ev(a) => self.ev(a),
            Node::Gl(a) => self.gl(a),
            Node::And(v) => self.and(v),
            Node::Or(v) => self.or(v),
            Node::Xor(a, b) => self.xor(a, b),
            Node::Implies(a, b) => self.implies(a, b),
            Node::Equiv(a, b) => self.equiv(a, b),
            Node::U(a, b) => self.u(a, b),
            Node::R(a, b) => self.r(a, b),
            Node::W(a, b) => self.w(a, b),
            Node::M(a, b) => self.m(a, b),
            Node::Closure(r) => self.closure(r),
            Node::NegClosure(r, m) => self.neg_closure(r, m),
            Node::EConcat(r, b, m) => self.econcat(r, b, m),
            Node::UConcat(r, b) => self.uconcat(r, b),
        }
    }

    /// The node `f` with its children replaced by `kids` (in `children` order), through the
    /// simplifying constructors.
    pub fn with_children(&mut self, f: F, kids: Vec<F>) -> F {
        let n = match self.node(f) {
            Node::True | Node::False | Node::Ap(_) | Node::Closure(_) | Node::NegClosure(..) => {
                return f
            }
            Node::EConcat(r, _, m) => Node::EConcat(*r, kids[0], *m),
            Node::UConcat(r, _) => Node::UConcat(*r, kids[0]),
            Node::Not(_) => Node::Not(kids[0]),
            Node::X(_) => Node::X(kids[0]),
            Node::Ev(_) => Node::Ev(kids[0]),
            Node::Gl(_) => Node::Gl(kids[0]),
            Node::And(_) => Node::And(kids),
            Node::Or(_) => Node::Or(kids),
            Node::Xor(..) => Node::Xor(kids[0], kids[1]),
            Node::Implies(..) => Node::Implies(kids[0], kids[1]),
            Node::Equiv(..) => Node::Equiv(kids[0], kids[1]),
            Node::U(..) => Node::U(kids[0], kids[1]),
            Node::R(..) => Node::R(kids[0], kids[1]),
            Node::W(..) => Node::W(kids[0], kids[1]),
            Node::M(..) => Node::M(kids[0], kids[1]),
        };
        self.rebuild(&n)
    }

    /// True when some subformula of `f` (itself included) has a node satisfying `pred`.
    pub(crate) fn any_subformula(&self, f: F, pred: impl Fn(&Node) -> bool) -> bool {
        let mut todo = vec![f];
        let mut seen = std::collections::HashSet::new();
        while let Some(g) = todo.pop() {
            if !seen.insert(g) {
                continue;
            }
            if pred(self.node(g)) {
                return true;
            }
            todo.extend(self.children(g));
        }
        false
    }

    /// The children of a node.
    pub fn children(&self, f: F) -> Vec<F> {
        if let Some((_, a, b)) = self.node(f).binary() {
            return vec![a, b];
        }
        match self.node(f) {
            Node::Not(a) | Node::X(a) | Node::Ev(a) | Node::Gl(a) => vec![*a],
            Node::EConcat(_, a, _) | Node::UConcat(_, a) => vec![*a],
            Node::And(v) | Node::Or(v) => v.clone(),
            _ => vec![],
        }
    }

    /// Number of nodes of the formula as a tree (its size as `randltl` counts it).
    pub fn tree_size(&self, f: F) -> usize {
        1 + self
            .children(f)
            .iter()
            .map(|&c| self.tree_size(c))
            .sum::<usize>()
    }

    /// The atomic propositions occurring in `f`, sorted by index.
    pub fn aps_of(&self, f: F) -> Vec<u32> {
        let mut out = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let mut todo = vec![f];
        while let Some(g) = todo.pop() {
            if !seen.insert(g) {
                continue;
            }
            match self.node(g) {
                Node::Ap(i) => out.push(*i),
                Node::Closure(r)
                | Node::NegClosure(r, _)
                | Node::EConcat(r, _, _)
                | Node::UConcat(r, _) => todo.extend(self.sere_bools(*r)),
                _ => {}
            }
            todo.extend(self.children(g));
        }
        out.sort_unstable();
        out.dedup();
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_consing_and_identities() {
        let mut a = Arena::new();
        let p = a.ap("p");
        let q = a.ap("q");
        let f1 = a.and2(p, q);
        let f2 = a.and2(q, p);
        assert_eq!(f1, f2);
        let fp = a.ev(p);
        assert_eq!(a.ev(fp), fp);
        let t = a.tt();
        assert_eq!(a.u(p, t), t);
        assert_eq!(a.u(t, p), fp);
        let np = a.not(p);
        assert_eq!(a.not(np), p);
        let ff = a.ff();
        assert_eq!(a.and(vec![p, ff, q]), ff);
    }
}
