//! LTL formulas over AIG literals in negation normal form, the input of the WABA translation
//! (Heljanko et al., *Bounded model checking for weak alternating Büchi automata*, CAV'06 C12 §2:
//! the alphabet is the valuations of atomic propositions, here AIG literals of the circuit):
//! formulas parsed by `verikit-omega` (Spot syntax) with their propositions resolved to literals
//! of the circuit — symbol names first, then `iN`/`lN`/`oN`/`bN`/`cN` for the N-th input, latch,
//! output, bad or constraint literal — and negated into NNF; and the negation of an AIGER justice
//! property (every justice literal and every fairness literal infinitely often).

use verikit_aiger::Aig;
use verikit_diag::Diagnostic;
use verikit_omega::parse_ltl as parse;
use verikit_omega::{Arena, Node, F};

/// A formula in negation normal form; negation only on literals (folded into the AIG literal).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Ltl {
    True,
    False,
    Lit(u32),
    And(Vec<Ltl>),
    Or(Vec<Ltl>),
    X(Box<Ltl>),
    U(Box<Ltl>, Box<Ltl>),
    R(Box<Ltl>, Box<Ltl>),
}

impl Ltl {
    fn u(a: Ltl, b: Ltl) -> Ltl {
        Ltl::U(Box::new(a), Box::new(b))
    }
    fn r(a: Ltl, b: Ltl) -> Ltl {
        Ltl::R(Box::new(a), Box::new(b))
    }
    /// `G F l`.
    pub(crate) fn gf(l: u32) -> Ltl {
        Ltl::r(Ltl::False, Ltl::u(Ltl::True, Ltl::Lit(l)))
    }
}

/// The negation of justice property `j` with the circuit's fairness constraints: the runs on
/// which every literal of the justice set and every fairness literal is 1 infinitely often.
pub(crate) fn justice_violation(aig: &Aig, j: usize) -> Option<(Ltl, Vec<u32>)> {
    let set = aig.justice.get(j)?;
    let lits: Vec<u32> = set.iter().chain(&aig.fairness).copied().collect();
    let f = Ltl::And(lits.iter().map(|&l| Ltl::gf(l)).collect());
    Some((f, lits))
}

/// The literal an atomic proposition names.
pub(crate) fn resolve(aig: &Aig, name: &str) -> Option<u32> {
    let by_kind = |k: char, i: usize| -> Option<u32> {
        match k {
            'i' => aig.inputs.get(i).copied(),
            'l' => aig.latches.get(i).map(|l| l.lit),
            'o' => aig.outputs.get(i).copied(),
            'b' => aig.bad.get(i).copied(),
            'c' => aig.constraints.get(i).copied(),
            _ => None,
        }
    };
    if let Some((k, i, _)) = aig.symbols.iter().find(|(_, _, s)| s == name) {
        return by_kind(*k, *i);
    }
    let mut ch = name.chars();
    let k = ch.next()?;
    let rest = ch.as_str();
    if rest.is_empty() || !rest.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    by_kind(k, rest.parse().ok()?)
}

/// A parsed LTL property: the formula as written (for the independent lasso check) and the NNF
/// of its negation over AIG literals.
pub(crate) struct LtlProperty {
    pub(crate) arena: Arena,
    pub(crate) formula: F,
    /// The literal of each atomic proposition of `arena`, by proposition index.
    pub(crate) ap_lits: Vec<u32>,
    pub(crate) negated: Ltl,
}

/// Parses `text` (Spot syntax) and resolves its propositions on `aig`.
pub(crate) fn parse_ltl(aig: &Aig, text: &str) -> Result<LtlProperty, Diagnostic> {
    let mut arena = Arena::new();
    let formula = parse(text, &mut arena)?;
    if arena.has_sere(formula) {
        return Err(Diagnostic::error(
            "PSL/SERE operators ({…}, <>->, []->, |->, |=>) are not supported in AIGER LTL properties: the weak alternating Büchi encoding (C12) is for LTL; write the property in LTL",
        ));
    }
    let mut ap_lits = Vec::with_capacity(arena.aps().len());
    for name in arena.aps() {
        let l = resolve(aig, name).ok_or_else(|| {
            Diagnostic::error(format!(
                "unknown proposition `{name}` in the LTL property: name a symbol of the circuit or write iN, lN, oN, bN or cN (input, latch, output, bad or constraint N)"
            ))
        })?;
        ap_lits.push(l);
    }
    if ap_lits.len() > 64 {
        return Err(Diagnostic::error(
            "the LTL property has more than 64 propositions",
        ));
    }
    let negated = nnf(&arena, &ap_lits, formula, true);
    Ok(LtlProperty {
        arena,
        formula,
        ap_lits,
        negated,
    })
}

/// `f` (or `¬f` when `neg`) in negation normal form.
fn nnf(a: &Arena, lits: &[u32], f: F, neg: bool) -> Ltl {
    let go = |g: F, n: bool| nnf(a, lits, g, n);
    let both = |x: F, y: F, nx: bool, ny: bool, and: bool| {
        let v = vec![go(x, nx), go(y, ny)];
        if and {
            Ltl::And(v)
        } else {
            Ltl::Or(v)
        }
    };
    match a.node(f) {
        Node::True => constant(!neg),
        Node::False => constant(neg),
        Node::Ap(i) => Ltl::Lit(lits.get(*i as usize).copied().unwrap_or(0) ^ u32::from(neg)),
        Node::Not(g) => go(*g, !neg),
        Node::X(g) => Ltl::X(Box::new(go(*g, neg))),
        Node::Ev(g) if neg => Ltl::r(Ltl::False, go(*g, true)),
        Node::Ev(g) => Ltl::u(Ltl::True, go(*g, false)),
        Node::Gl(g) if neg => Ltl::u(Ltl::True, go(*g, true)),
        Node::Gl(g) => Ltl::r(Ltl::False, go(*g, false)),
        Node::And(v) | Node::Or(v) => {
            let items = v.iter().map(|&g| go(g, neg)).collect();
            if matches!(a.node(f), Node::And(_)) != neg {
                Ltl::And(items)
            } else {
                Ltl::Or(items)
            }
        }
        Node::Xor(x, y) | Node::Equiv(x, y) => {
            // xor: (x ∧ ¬y) ∨ (¬x ∧ y); equiv: (x ∧ y) ∨ (¬x ∧ ¬y)
            let xor = matches!(a.node(f), Node::Xor(..)) != neg;
            Ltl::Or(vec![
                both(*x, *y, false, xor, true),
                both(*x, *y, true, !xor, true),
            ])
        }
        Node::Implies(x, y) if neg => both(*x, *y, false, true, true),
        Node::Implies(x, y) => both(*x, *y, true, false, false),
        Node::U(x, y) if neg => Ltl::r(go(*x, true), go(*y, true)),
        Node::U(x, y) => Ltl::u(go(*x, false), go(*y, false)),
        Node::R(x, y) if neg => Ltl::u(go(*x, true), go(*y, true)),
        Node::R(x, y) => Ltl::r(go(*x, false), go(*y, false)),
        // x W y = y R (y ∨ x); ¬(x W y) = ¬y U (¬x ∧ ¬y)
        Node::W(x, y) if neg => Ltl::u(go(*y, true), both(*x, *y, true, true, true)),
        Node::W(x, y) => Ltl::r(go(*y, false), both(*x, *y, false, false, false)),
        // x M y = y U (x ∧ y); ¬(x M y) = ¬y R (¬x ∨ ¬y)
        Node::M(x, y) if neg => Ltl::r(go(*y, true), both(*x, *y, true, true, false)),
        Node::M(x, y) => Ltl::u(go(*y, false), both(*x, *y, false, false, true)),
        // Refused by `parse_ltl` (the only way to an `LtlProperty`); never reached.
        Node::Closure(_) | Node::NegClosure(..) | Node::EConcat(..) | Node::UConcat(..) => {
            Ltl::False
        }
    }
}

fn constant(b: bool) -> Ltl {
    if b {
        Ltl::True
    } else {
        Ltl::False
    }
}
