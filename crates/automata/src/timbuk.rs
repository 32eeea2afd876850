//! The Timbuk format as VATA and RABIT use it for finite-word automata (word automata are tree
//! automata over unary symbols):
//!
//! ```text
//! Ops x:0 a:1 b:1
//! Automaton A
//! States q0 q1 q2
//! Final States q2
//! Transitions
//! x -> q0          # a nullary symbol marks an initial state
//! a(q0) -> q1      # a unary symbol is a letter: q0 --a--> q1
//! b(q1) -> q2
//! ```
//!
//! Every nullary transition `s -> q` makes `q` initial; unary transitions `a(p) -> q` are the letter
//! transitions. Symbols of other arities are rejected. `Ops` and `States` lines are optional (states
//! and letters are also collected from the transitions). `#` starts a comment.

use crate::nfa::{Alphabet, Nfa, StateTable};
use rustc_hash::FxHashMap;
use std::fmt::Write as _;
use verikit_diag::{Diagnostic, Span};

fn is_name(s: &str) -> bool {
    !s.is_empty() && !s.contains(|c: char| c.is_whitespace() || "(),".contains(c))
}

/// Parses a Timbuk word automaton.
pub(crate) fn parse(text: &str) -> Result<Nfa, Diagnostic> {
    let mut table = StateTable::default();
    let mut state = |n: &str| table.get(n);
    let mut alphabet = Alphabet::new();
    let mut arity: FxHashMap<String, u32> = FxHashMap::default();
    let (mut init, mut finals, mut edges) = (Vec::new(), Vec::new(), Vec::new());
    let mut in_transitions = false;
    let mut saw_automaton = false;
    let mut offset = 0usize;
    for raw in text.split_inclusive('\n') {
        let start = offset;
        offset += raw.len();
        let body = raw.split('#').next().unwrap_or("");
        let line = body.trim();
        if line.is_empty() {
            continue;
        }
        let lead = body.len() - body.trim_start().len();
        let span = Span::new(start + lead, start + lead + line.len());
        let mut words = line.split_whitespace();
        let head = words.next().unwrap_or("");
        if !in_transitions {
            match head {
                "Ops" => {
                    for op in words {
                        let Some((name, ar)) = op.rsplit_once(':') else {
                            return Err(Diagnostic::at(
                                span,
                                format!("`{op}`: expected `symbol:arity`"),
                            ));
                        };
                        let Ok(ar) = ar.parse::<u32>() else {
                            return Err(Diagnostic::at(
                                span,
                                format!("`{op}`: the arity is not a number"),
                            ));
                        };
                        if ar > 1 {
                            return Err(Diagnostic::at(
                                span,
                                format!("symbol `{name}` has arity {ar}"),
                            )
                            .with_note("only word automata (arities 0 and 1) are supported"));
                        }
                        // Declared letters belong to Σ even without a transition.
                        if ar == 1 {
                            alphabet.intern(name);
                        }
                        arity.insert(name.to_string(), ar);
                    }
                }
                "Automaton" => saw_automaton = true,
                "States" => {
                    for s in words {
                        state(s.split(':').next().unwrap_or(s));
                    }
                }
                "Final" => {
                    if words.next() != Some("States") {
                        return Err(Diagnostic::at(span, "expected `Final States`"));
                    }
                    for s in words {
                        finals.push(state(s.split(':').next().unwrap_or(s)));
                    }
                }
                "Transitions" => in_transitions = true,
                _ => return Err(
                    Diagnostic::at(span, format!("unexpected `{head}`")).with_note(
                        "expected `Ops`, `Automaton`, `States`, `Final States` or `Transitions`",
                    ),
                ),
            }
            continue;
        }
        // lhs -> rhs
        let Some((lhs, rhs)) = line.split_once("->") else {
            return Err(Diagnostic::at(
                span,
                "expected a transition `a(p) -> q` or `x -> q`",
            ));
        };
        let (lhs, rhs) = (lhs.trim(), rhs.trim());
        if !is_name(rhs) {
            return Err(Diagnostic::at(span, format!("`{rhs}` is not a state name")));
        }
        let q = state(rhs);
        if let Some((sym, args)) = lhs.split_once('(') {
            let Some(args) = args.strip_suffix(')') else {
                return Err(Diagnostic::at(span, "expected `)`"));
            };
            let (sym, p) = (sym.trim(), args.trim());
            if !is_name(sym) || !is_name(p) {
                return Err(Diagnostic::at(span, "expected `symbol(state) -> state`")
                    .with_note("only word automata (one argument) are supported"));
            }
            if arity.get(sym).is_some_and(|&a| a != 1) {
                return Err(Diagnostic::at(span, format!("`{sym}` is declared nullary")));
            }
            let p = state(p);
            let l = alphabet.intern(sym);
            edges.push((p, l, q));
        } else {
            if !is_name(lhs) {
                return Err(Diagnostic::at(span, format!("`{lhs}` is not a symbol")));
            }
            if arity.get(lhs).is_some_and(|&a| a != 0) {
                return Err(Diagnostic::at(span, format!("`{lhs}` is declared unary")));
            }
            init.push(q);
        }
    }
    if !saw_automaton && !in_transitions {
        return Err(Diagnostic::at(
            Span::point(0),
            "not a Timbuk automaton: no `Automaton` or `Transitions`",
        ));
    }
    crate::nfa::from_parts(alphabet, table.names, &init, &finals, &edges)
}

/// Writes an NFA as a Timbuk word automaton (nullary symbol `x` for the initial states; letter
/// names must not clash with `x`, so a clash renames it to `x_init`).
pub(crate) fn write(nfa: &Nfa) -> String {
    let mut init = "x".to_string();
    while nfa.alphabet.get(&init).is_some() {
        init.push_str("_init");
    }
    let mut s = format!("Ops {init}:0");
    for n in nfa.alphabet.names() {
        let _ = write!(s, " {n}:1");
    }
    s.push_str("\n\nAutomaton A\nStates");
    for q in 0..nfa.num_states() {
        let _ = write!(s, " q{q}");
    }
    s.push_str("\nFinal States");
    for q in nfa.finals() {
        let _ = write!(s, " q{q}");
    }
    s.push_str("\nTransitions\n");
    for q in nfa.initial() {
        let _ = writeln!(s, "{init} -> q{q}");
    }
    for (p, l, q) in nfa.transitions() {
        let _ = writeln!(s, "{}(q{p}) -> q{q}", nfa.alphabet.name(l));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::accepts;

    const SAMPLE: &str = "Ops x:0 a:1 b:1\n\nAutomaton A\nStates q0 q1 q2\nFinal States q2\nTransitions\nx -> q0\na(q0) -> q1\nb(q1) -> q2\nb(q2) -> q2 # loop\n";

    #[test]
    fn parse_and_round_trip() {
        let a = parse(SAMPLE).unwrap();
        let (la, lb) = (a.alphabet.get("a").unwrap(), a.alphabet.get("b").unwrap());
        assert!(accepts(&a, &[la, lb, lb]));
        assert!(!accepts(&a, &[la]));
        let b = parse(&write(&a)).unwrap();
        assert_eq!(b.num_transitions(), 3);
        assert!(accepts(
            &b,
            &[b.alphabet.get("a").unwrap(), b.alphabet.get("b").unwrap()]
        ));
        assert!(parse("Ops f:2\n").is_err());
        assert!(parse("Transitions\nf(q0,q1) -> q2\n").is_err());
        assert!(parse("hello").is_err());
    }

    #[test]
    fn parser_is_total() {
        verikit_testkit::assert_parser_total(&[SAMPLE], 2000, parse);
    }
}
