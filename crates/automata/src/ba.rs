//! The BA format of RABIT and the VATA/libvata benchmarks (finite-word reading, as RABIT's NFA
//! inclusion uses it): an optional first line naming the initial state, then one transition per line
//! `symbol,src->dst`, then the accepting states, one per line. With no accepting-state lines every
//! state is accepting (the format's convention); with no initial-state line the source of the first
//! transition is initial. State names are arbitrary tokens such as `[1]`. Blank lines are ignored.

use crate::nfa::{Alphabet, Nfa, State, StateTable};
use std::fmt::Write as _;
use verikit_diag::{Diagnostic, Span};

fn valid_name(s: &str) -> bool {
    !s.is_empty() && !s.contains(|c: char| c.is_whitespace() || c == ',' || c == '>')
}

/// Parses a BA file.
pub(crate) fn parse(text: &str) -> Result<Nfa, Diagnostic> {
    let mut table = StateTable::default();
    let mut state = |n: &str| table.get(n);
    let mut alphabet = Alphabet::new();
    let mut init: Option<State> = None;
    let mut edges = Vec::new();
    let mut finals = Vec::new();
    let mut seen_transition = false;
    let mut pre_lines: Vec<(State, Span)> = Vec::new();
    let mut offset = 0usize;
    for raw in text.split_inclusive('\n') {
        let start = offset;
        offset += raw.len();
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        let lead = raw.len() - raw.trim_start().len();
        let span = Span::new(start + lead, start + lead + line.len());
        if let Some((lhs, dst)) = line.split_once("->") {
            let Some((sym, src)) = lhs.split_once(',') else {
                return Err(Diagnostic::at(
                    span,
                    "expected a transition `symbol,source->target`",
                ));
            };
            let (sym, src, dst) = (sym.trim(), src.trim(), dst.trim());
            if !valid_name(sym) || !valid_name(src) || !valid_name(dst) {
                return Err(Diagnostic::at(span, "malformed transition")
                    .with_note("expected `symbol,source->target`"));
            }
            let s = state(src);
            let t = state(dst);
            let l = alphabet.intern(sym);
            if init.is_none() && !seen_transition {
                init = Some(s);
            }
            seen_transition = true;
            edges.push((s, l, t));
        } else {
            if !valid_name(line) {
                return Err(Diagnostic::at(
                    span,
                    format!("`{line}` is not a state name"),
                ));
            }
            if seen_transition {
                finals.push(state(line));
            } else if init.is_none() {
                init = Some(state(line));
            } else {
                // Only legal if no transition follows: then these lines list accepting states.
                pre_lines.push((state(line), span));
            }
        }
    }
    if seen_transition {
        if let Some(&(_, span)) = pre_lines.first() {
            return Err(Diagnostic::at(
                span,
                "a second initial state before the transitions",
            ));
        }
    } else {
        finals.extend(pre_lines.iter().map(|&(q, _)| q));
    }
    let Some(init) = init else {
        return Err(Diagnostic::at(
            Span::point(0),
            "empty BA file: expected an initial state or a transition",
        ));
    };
    // Without `Accepting` lines every state accepts.
    let finals = if finals.is_empty() {
        (0..table.names.len() as State).collect()
    } else {
        finals
    };
    crate::nfa::from_parts(alphabet, table.names, &[init], &finals, &edges)
}

/// Writes an NFA with one initial state in BA format (states named `[i]`). With several initial
/// states a fresh initial state copying their outgoing transitions is added (it is accepting iff an
/// initial state is).
pub(crate) fn write(nfa: &Nfa) -> String {
    let mut s = String::new();
    let init_name = if nfa.initial().len() == 1 {
        format!("[{}]", nfa.initial()[0])
    } else {
        format!("[{}]", nfa.num_states())
    };
    let _ = writeln!(s, "{init_name}");
    let mut lines = Vec::new();
    for (src, a, dst) in nfa.transitions() {
        lines.push(format!("{},[{src}]->[{dst}]", nfa.alphabet.name(a)));
        if nfa.initial().len() != 1 && nfa.initial().binary_search(&src).is_ok() {
            lines.push(format!("{},{init_name}->[{dst}]", nfa.alphabet.name(a)));
        }
    }
    // The format has no alphabet declaration: letters without a transition get self-loops on an
    // unreachable state, so they stay in Σ (they matter for universality and inclusion).
    let mut used = vec![false; nfa.num_letters()];
    for (_, a, _) in nfa.transitions() {
        if let Some(u) = used.get_mut(a as usize) {
            *u = true;
        }
    }
    let sink = format!("[{}]", nfa.num_states() + 2);
    for (a, _) in used.iter().enumerate().filter(|(_, u)| !**u) {
        lines.push(format!("{},{sink}->{sink}", nfa.alphabet.name(a as u32)));
    }
    lines.sort();
    lines.dedup();
    for l in lines {
        let _ = writeln!(s, "{l}");
    }
    let mut finals: Vec<String> = nfa.finals().iter().map(|q| format!("[{q}]")).collect();
    if nfa.initial().len() != 1 && nfa.initial().iter().any(|&q| nfa.is_final(q)) {
        finals.push(init_name.clone());
    }
    if finals.is_empty() {
        // No accepting state: the format would read "no list" as "all accepting"; an unreachable
        // accepting dummy state keeps the language empty.
        finals.push(format!("[{}]", nfa.num_states() + 1));
    }
    for f in finals {
        let _ = writeln!(s, "{f}");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::accepts;

    #[test]
    fn parse_and_round_trip() {
        let t = "[1]\na,[1]->[2]\nb,[2]->[2]\n[2]\n";
        let a = parse(t).unwrap();
        assert_eq!(a.num_states(), 2);
        let (la, lb) = (a.alphabet.get("a").unwrap(), a.alphabet.get("b").unwrap());
        assert!(accepts(&a, &[la, lb, lb]));
        assert!(!accepts(&a, &[lb]));
        let b = parse(&write(&a)).unwrap();
        let (la2, lb2) = (b.alphabet.get("a").unwrap(), b.alphabet.get("b").unwrap());
        assert!(accepts(&b, &[la2, lb2]));
        assert!(!accepts(&b, &[]));
        // All accepting when no list is given.
        let c = parse("a,[1]->[2]\n").unwrap();
        assert_eq!(c.finals().len(), 2);
        assert!(parse("a,[1]-[2]\n").is_err());
        assert!(parse("").is_err());
    }

    #[test]
    fn parser_is_total() {
        verikit_testkit::assert_parser_total(&["[1]\na,[1]->[2]\nb,[2]->[2]\n[2]\n"], 2000, parse);
    }
}
