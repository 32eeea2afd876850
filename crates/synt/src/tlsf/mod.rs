//! TLSF 1.1 (S. Jacobs, F. Klein, S. Schirmer, *A High-Level LTL Synthesis Format: TLSF v1.1*,
//! SYNT 2016) read directly and expanded to one LTL formula with its input/output partition, as
//! syfco's default conversion does (`Writer/Eval.hs` evaluation, `Writer/Utils.hs` merge):
//!
//! `INITIALLY → (PRESET ∧ ((G REQUIRE ∧ ASSUME) → (G ASSERT ∧ GUARANTEE)))`
//!
//! each section standing for the conjunction of its formulas and empty parts dropped; with
//! `Strict` semantics `G ASSERT` is replaced by the conjunct `ASSERT W ¬REQUIRE` next to `PRESET`.
//! `SEMANTICS: Moore` is kept as the game's turn order (the system moves first); the formula is
//! not rewritten.

mod expand;
mod lex;
mod syntax;

use crate::error::SyntError;
use crate::ltl::{self, L};
use verikit_diag::{Budget, Diagnostic};

/// Who moves first in each step of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Semantics {
    /// The environment picks the inputs, then the system answers (outputs may depend on the
    /// current inputs).
    Mealy,
    /// The system picks the outputs first (they depend only on past inputs).
    Moore,
}

impl Semantics {
    pub fn as_str(self) -> &'static str {
        match self {
            Semantics::Mealy => "Mealy",
            Semantics::Moore => "Moore",
        }
    }
}

/// A synthesis problem: one LTL formula (Spot syntax) and the partition of its signals.
#[derive(Clone, Debug)]
pub struct Spec {
    pub title: Option<String>,
    /// The LTL formula in Spot syntax.
    pub formula: String,
    pub inputs: Vec<String>,
    pub outputs: Vec<String>,
    pub semantics: Semantics,
    /// `SEMANTICS` carried `,Strict`.
    pub strict: bool,
    /// The `TARGET` word (`Mealy` or `Moore`).
    pub target: Semantics,
    /// The guarantees one by one (each already combined with the assumptions as in the whole
    /// formula), for compositional solving: their conjunction is equivalent to `formula`.
    pub components: Vec<String>,
}

/// Reads a TLSF specification and expands it (parameters, definitions, buses, big operators).
/// The `budget` bounds the expansion (parametric files can be made arbitrarily large).
pub fn parse_tlsf(text: &str, budget: &Budget) -> Result<Spec, SyntError> {
    // Recursion is bounded by nesting limits; a large stack makes those limits generous.
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(256 << 20)
            .spawn_scoped(s, || parse_on_this_thread(text, budget))
            .map_err(|e| SyntError::Internal(format!("cannot start the parser thread: {e}")))?
            .join()
            .unwrap_or_else(|_| Err(SyntError::Internal("the TLSF parser panicked".into())))
    })
}

fn parse_on_this_thread(text: &str, budget: &Budget) -> Result<Spec, SyntError> {
    let toks = lex::lex(text)?;
    let ast = syntax::Parser::new(toks).file()?;
    let mut semantics = Semantics::Mealy;
    let mut strict = false;
    let mut target = Semantics::Mealy;
    let mut title = None;
    for (key, words, span) in &ast.info {
        let sem = |w: &str| match w {
            "Mealy" => Ok(Semantics::Mealy),
            "Moore" => Ok(Semantics::Moore),
            "Finite" => Err(SyntError::unsupported(Diagnostic::at(
                *span,
                "finite-trace semantics (`Finite`) is not supported",
            ))),
            _ => Err(SyntError::syntax(Diagnostic::at(
                *span,
                format!("unknown semantics `{w}` (expected Mealy or Moore, optionally `,Strict`)"),
            ))),
        };
        match key.as_str() {
            "SEMANTICS" => {
                let Some(first) = words.first() else {
                    return Err(SyntError::syntax(Diagnostic::at(
                        *span,
                        "SEMANTICS needs a value",
                    )));
                };
                semantics = sem(first)?;
                for w in &words[1..] {
                    match w.as_str() {
                        "Strict" => strict = true,
                        "Finite" => {
                            return Err(SyntError::unsupported(Diagnostic::at(
                                *span,
                                "finite-trace semantics (`Finite`) is not supported",
                            )))
                        }
                        _ => {
                            return Err(SyntError::syntax(Diagnostic::at(
                                *span,
                                format!("unknown semantics modifier `{w}`"),
                            )))
                        }
                    }
                }
            }
            "TARGET" => {
                if let Some(first) = words.first() {
                    target = sem(first)?;
                }
            }
            "TITLE" => title = words.first().cloned(),
            _ => {}
        }
    }
    let ex = expand::expand(&ast, budget)?;
    let [es, ss, rs, as_, is, gs] = ex.sections;
    let (whole, components) = merge(es, ss, rs, as_, is, gs, strict);
    Ok(Spec {
        title,
        formula: whole.to_spot(),
        inputs: ex.inputs,
        outputs: ex.outputs,
        semantics,
        strict,
        target,
        components: components.iter().map(|c| c.to_spot()).collect(),
    })
}

/// syfco's composition of the sections; also the per-guarantee components
/// `INITIALLY → (PRESET ∧ (A → g))` whose conjunction is equivalent to the whole formula.
fn merge(
    es: Vec<L>,
    mut ss: Vec<L>,
    rs: Vec<L>,
    as_: Vec<L>,
    is: Vec<L>,
    gs: Vec<L>,
    strict: bool,
) -> (L, Vec<L>) {
    let mut is = is;
    if strict {
        let w = ltl::weak(ltl::and(is.clone()), ltl::not(ltl::and(rs.clone())));
        ss.insert(0, w);
        is.clear();
    }
    let init = ltl::and(es);
    let preset = ltl::and(ss);
    let mut assumption = as_;
    if !rs.is_empty() {
        assumption.insert(0, ltl::globally(ltl::and(rs)));
    }
    let assumption = ltl::and(assumption);
    let mut guarantees = gs;
    if !is.is_empty() {
        guarantees.insert(0, ltl::globally(ltl::and(is)));
    }
    let build = |g: L| {
        ltl::implies(
            init.clone(),
            ltl::and(vec![preset.clone(), ltl::implies(assumption.clone(), g)]),
        )
    };
    let whole = build(ltl::and(guarantees.clone()));
    let components = guarantees.into_iter().map(build).collect();
    (whole, components)
}
