//! `aut filter`: Spot's `autfilt` as a library call — keep the automata of a stream that pass
//! every test asked for (`--is-empty`, `--is-deterministic`, `--is-complete`, `--accepts-word`,
//! `--included-in`, `--equivalent-to`, `--acceptance-is`; `-v` keeps the others), print them as
//! HOA, and answer `true` if any was kept (the CLI exits 0 then and 1 otherwise, as `autfilt`).
//!
//! Inclusion `L(A) ⊆ L(F)` is decided as the emptiness of `A ⊗ ¬F` when `F` is deterministic
//! (any acceptance: [`crate::dual`], [`crate::product`], [`crate::emptiness`]), and otherwise by
//! the Ramsey-based test when both automata are generalized Büchi; other cases are refused by
//! name.

use crate::error::OmegaError;
use crate::twa::Twa;
use crate::word::Word;
use crate::{dual, emptiness, hoa, product, ramsey_inclusion};
use verikit_diag::{Answer, Budget, Diagnostic, Verdict};

/// The tests of `aut filter`; an automaton is kept when it passes all of them (or, with
/// `invert`, when it fails one).
#[derive(Clone, Debug, Default)]
pub struct Filter {
    pub is_empty: bool,
    pub is_deterministic: bool,
    pub is_complete: bool,
    pub accepts: Vec<Word>,
    pub included_in: Vec<Twa>,
    pub equivalent_to: Vec<Twa>,
    /// An `acc-name` (`Buchi`, `Rabin`, `parity max odd 3`: a prefix of whole words matches) or
    /// an acceptance formula in Spot's syntax (`Fin(0) & Inf(1)`).
    pub acceptance_is: Option<String>,
    pub invert: bool,
}

/// `L(a) ⊆ L(b)`.
pub(crate) fn included(a: &Twa, b: &Twa, budget: &Budget) -> Result<bool, OmegaError> {
    if b.is_deterministic() {
        let nb = dual::complement_deterministic(b, budget)?;
        let p = product::product(a, &nb)?;
        return Ok(emptiness::accepting_lasso_within(&p, budget)?.is_none());
    }
    a.require_gba("inclusion in a nondeterministic automaton")?;
    b.require_gba("inclusion in a nondeterministic automaton")?;
    let (r, _) = ramsey_inclusion::included(a, b, &ramsey_inclusion::Limits::default(), budget);
    match r {
        ramsey_inclusion::Inclusion::Included => Ok(true),
        ramsey_inclusion::Inclusion::NotIncluded(_) => Ok(false),
        ramsey_inclusion::Inclusion::Unknown => {
            budget.check()?;
            Err(OmegaError::Limit(
                "inclusion undecided within its limits".into(),
            ))
        }
    }
}

fn acceptance_matches(a: &Twa, want: &str) -> bool {
    let want = want.split_whitespace().collect::<Vec<_>>();
    if let Some(name) = a.acc_name() {
        let have: Vec<&str> = name.split_whitespace().collect();
        if have.len() >= want.len() && have[..want.len()] == want[..] {
            return true;
        }
    }
    let text = a.acceptance().to_string();
    text.split_whitespace().collect::<Vec<_>>() == want
}

/// True if `a` passes every test of `f` (before `invert`).
pub(crate) fn passes(a: &Twa, f: &Filter, budget: &Budget) -> Result<bool, OmegaError> {
    budget.check()?;
    if f.is_deterministic && !a.is_deterministic() {
        return Ok(false);
    }
    if f.is_complete && !a.is_complete() {
        return Ok(false);
    }
    if let Some(w) = &f.acceptance_is {
        if !acceptance_matches(a, w) {
            return Ok(false);
        }
    }
    for w in &f.accepts {
        if !crate::accepts::accepts(a, w)? {
            return Ok(false);
        }
    }
    if f.is_empty && emptiness::accepting_lasso_within(a, budget)?.is_some() {
        return Ok(false);
    }
    for b in &f.included_in {
        if !included(a, b, budget)? {
            return Ok(false);
        }
    }
    for b in &f.equivalent_to {
        if !included(a, b, budget)? || !included(b, a, budget)? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Filters a stream of automata (each already read, or its reading error, which stops the
/// filter: bad input is exit 2). The answer's text is the HOA of the kept automata; its verdict
/// is `true` iff at least one was kept; details `read` and `kept`.
pub fn filter(
    auts: Vec<Result<Twa, OmegaError>>,
    f: &Filter,
    budget: &Budget,
) -> Result<Answer, OmegaError> {
    let (mut read, mut kept) = (0usize, 0usize);
    let mut text = String::new();
    for a in auts {
        let a = a?;
        read += 1;
        if passes(&a, f, budget)? != f.invert {
            kept += 1;
            text.push_str(&hoa::to_hoa(&a));
        }
    }
    if read == 0 {
        return Err(OmegaError::syntax(Diagnostic::error(
            "no automaton in the input",
        )));
    }
    let mut ans = Answer::decision(Verdict::from_bool(kept > 0))
        .detail("read", read)
        .detail("kept", kept)
        .detail("hoa", &text)
        .detail("exit_style", "grep");
    ans.text = text;
    Ok(ans)
}
