//! The `.mata` automata format of VeriFIT's mata library (its `AUTOMATAFORMAT.md`), the input format
//! of the nfa-bench benchmarks: sections `@NFA-explicit` (a transition `q a r` carries a symbol name)
//! and `@NFA-bits` (a transition `q <formula> r` carries a Boolean formula over bit atoms such as
//! `a1 & !a2`, standing for every bit vector satisfying it). Keys `%Initial` and `%Final` list states;
//! `%Alphabet-enum` declares symbols; other `%` keys are accepted and ignored. `#` starts a comment,
//! a `\` at the end of a line joins it with the next, `\true`/`\false` are constants.
//!
//! Parsing ([`parse`]) keeps labels symbolic; [`build`] turns one or several parsed files into
//! [`Nfa`]s over one shared alphabet: explicit symbols are joined by name, and bit formulas of all the
//! files are mintermised together (see [`crate::minterm`]), as mata does for automata it compares.

use crate::error::AutomataError;
use crate::minterm::{mintermise, MAX_ATOMS};
use crate::nfa::{Alphabet, BitLetters, Letter, Nfa, NfaBuilder, State, StateTable};
use rustc_hash::FxHashMap;
use std::fmt::Write as _;
use verikit_diag::{Diagnostic, Span};
use verikit_logic::{parse_infix, BoolExpr};

/// Which `@` section the file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MataKind {
    Explicit,
    Bits,
}

/// A parsed `.mata` NFA section with symbolic labels.
#[derive(Clone, Debug)]
pub(crate) struct MataAut {
    pub kind: MataKind,
    pub state_names: Vec<String>,
    pub initial: Vec<State>,
    pub finals: Vec<State>,
    /// `(src, label index, dst)`.
    pub transitions: Vec<(State, u32, State)>,
    /// Explicit: symbol names by label index. Bits: unused.
    pub symbols: Vec<String>,
    /// Bits: formulas by label index, variables index `atoms`.
    pub formulas: Vec<BoolExpr>,
    /// Bits: atom names by variable index.
    pub atoms: Vec<String>,
}

struct Tok<'a> {
    text: &'a str,
    span: Span,
}

/// The length of a line join (`\` + newline) starting at `i`, if there is one.
fn line_join(b: &[u8], i: usize) -> Option<usize> {
    if b.get(i) != Some(&b'\\') {
        return None;
    }
    match (b.get(i + 1), b.get(i + 2)) {
        (Some(b'\n'), _) => Some(2),
        (Some(b'\r'), Some(b'\n')) => Some(3),
        _ => None,
    }
}

/// Splits the text into logical lines of whitespace-separated tokens (comments removed, `\`-newline
/// joins lines). Returns, per logical line, its tokens.
fn logical_lines(text: &str) -> Vec<Vec<Tok<'_>>> {
    let mut lines = Vec::new();
    let mut cur: Vec<Tok<'_>> = Vec::new();
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'\n' {
            lines.push(std::mem::take(&mut cur));
            i += 1;
        } else if let Some(skip) = line_join(b, i) {
            i += skip;
        } else if c.is_ascii_whitespace() {
            i += 1;
        } else if c == b'#' {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else {
            let start = i;
            while i < b.len() && !b[i].is_ascii_whitespace() && b[i] != b'#' {
                if line_join(b, i).is_some() {
                    break;
                }
                i += 1;
            }
            // Keep char boundaries (non-ASCII bytes are never whitespace or '#', so this holds).
            cur.push(Tok {
                text: &text[start..i],
                span: Span::new(start, i),
            });
        }
    }
    lines.push(cur);
    lines.retain(|l| !l.is_empty());
    lines
}

/// A builder for `a` over `alphabet` with its states, initial and final states; the transitions
/// are the caller's (their letters depend on how the alphabets were merged).
fn builder(a: &MataAut, alphabet: &Alphabet) -> NfaBuilder {
    let mut b = NfaBuilder::with_states(alphabet.clone(), a.state_names.len());
    for &q in &a.initial {
        b.add_initial(q);
    }
    for &q in &a.finals {
        b.add_final(q);
    }
    b
}

fn is_formula_syntax(t: &str) -> bool {
    t.contains(['&', '|', '!', '(', ')']) || t.starts_with('\\')
}

/// Parses the first `@NFA-explicit` or `@NFA-bits` section of a `.mata` text.
pub(crate) fn parse(text: &str) -> Result<MataAut, Diagnostic> {
    let lines = logical_lines(text);
    let Some(first) = lines.first() else {
        return Err(Diagnostic::at(
            Span::point(0),
            "empty input: expected a `.mata` section such as `@NFA-explicit`",
        ));
    };
    let head = &first[0];
    let kind = match head.text {
        "@NFA-explicit" => MataKind::Explicit,
        "@NFA-bits" => MataKind::Bits,
        t if t.starts_with('@') => {
            return Err(
                Diagnostic::at(head.span, format!("unsupported automaton type `{t}`"))
                    .with_note("verikit reads `@NFA-explicit` and `@NFA-bits` sections"),
            )
        }
        _ => {
            return Err(Diagnostic::at(
                head.span,
                "expected a section header such as `@NFA-explicit` or `@NFA-bits`",
            ))
        }
    };
    if first.len() > 1 {
        return Err(Diagnostic::at(
            first[1].span,
            "unexpected token after the section header",
        ));
    }
    let mut states = StateTable::default();
    let mut aut = MataAut {
        kind,
        state_names: Vec::new(),
        initial: Vec::new(),
        finals: Vec::new(),
        transitions: Vec::new(),
        symbols: Vec::new(),
        formulas: Vec::new(),
        atoms: Vec::new(),
    };
    let mut sym_index: FxHashMap<String, u32> = FxHashMap::default();
    let mut formula_index: FxHashMap<String, u32> = FxHashMap::default();
    let mut atom_index: FxHashMap<String, u32> = FxHashMap::default();
    for line in &lines[1..] {
        let t0 = &line[0];
        if t0.text.starts_with('@') {
            return Err(
                Diagnostic::at(t0.span, "a second automaton section in one file")
                    .with_note("verikit reads one automaton per `.mata` file"),
            );
        }
        if let Some(key) = t0.text.strip_prefix('%') {
            let target = match key {
                "Initial" => Some(true),
                "Final" => Some(false),
                _ => None,
            };
            match target {
                Some(is_init) => {
                    for t in &line[1..] {
                        if is_formula_syntax(t.text) {
                            return Err(Diagnostic::at(
                                t.span,
                                "state formulas in `%Initial`/`%Final` are not supported",
                            )
                            .with_note("list the states separated by spaces"));
                        }
                        let q = states.get(t.text);
                        if is_init {
                            aut.initial.push(q);
                        } else {
                            aut.finals.push(q);
                        }
                    }
                }
                None if key == "Alphabet-enum" && kind == MataKind::Explicit => {
                    for t in &line[1..] {
                        if !sym_index.contains_key(t.text) {
                            sym_index.insert(t.text.to_string(), aut.symbols.len() as u32);
                            aut.symbols.push(t.text.to_string());
                        }
                    }
                }
                None => {}
            }
            continue;
        }
        // A transition (or a lone state mention).
        if line.len() == 1 {
            states.get(t0.text);
            continue;
        }
        if line.len() == 2 {
            return Err(Diagnostic::at(
                line[1].span,
                "a transition needs a source, a label and a target",
            )
            .with_note("expected `<source> <label> <target>`"));
        }
        let last = &line[line.len() - 1];
        if is_formula_syntax(t0.text) {
            return Err(Diagnostic::at(
                t0.span,
                format!("`{}` is not a state name", t0.text),
            ));
        }
        if is_formula_syntax(last.text) && !last.text.starts_with('\\') {
            return Err(
                Diagnostic::at(last.span, format!("`{}` is not a state name", last.text))
                    .with_note("expected `<source> <label> <target>`"),
            );
        }
        let src = states.get(t0.text);
        let dst = states.get(last.text);
        let label = match kind {
            MataKind::Explicit => {
                if line.len() > 3 {
                    return Err(Diagnostic::at(
                        line[3].span,
                        "too many tokens in an explicit transition",
                    )
                    .with_note("expected `<source> <symbol> <target>`"));
                }
                let s = line[1].text;
                match sym_index.get(s) {
                    Some(&i) => i,
                    None => {
                        let i = aut.symbols.len() as u32;
                        sym_index.insert(s.to_string(), i);
                        aut.symbols.push(s.to_string());
                        i
                    }
                }
            }
            MataKind::Bits => {
                let start = line[1].span.start;
                let end = line[line.len() - 2].span.end;
                let raw = text.get(start..end).unwrap_or("");
                if let Some(&i) = formula_index.get(raw) {
                    i
                } else {
                    // `\true`/`\false` and line joins keep their length when blanked out, so spans
                    // still point into the file.
                    let cleaned: String = raw
                        .char_indices()
                        .map(|(j, c)| {
                            if c == '\\' || (c == '\n' && j > 0) || c == '\r' {
                                ' '
                            } else {
                                c
                            }
                        })
                        .collect();
                    let e = parse_infix(&cleaned, start, &mut |name: &str, sp: Span| match name {
                        "true" => Ok(BoolExpr::Const(true)),
                        "false" => Ok(BoolExpr::Const(false)),
                        _ => {
                            if name.chars().next().is_some_and(|c| c.is_ascii_digit()) {
                                return Err(Diagnostic::at(
                                    sp,
                                    format!("`{name}` is not an atom name"),
                                )
                                .with_note("atoms are named like `a1`"));
                            }
                            let n = atom_index.len() as u32;
                            let v = *atom_index.entry(name.to_string()).or_insert(n);
                            if v == n {
                                aut.atoms.push(name.to_string());
                            }
                            Ok(BoolExpr::Var(v))
                        }
                    })?;
                    if aut.atoms.len() > MAX_ATOMS {
                        return Err(Diagnostic::at(
                            line[1].span,
                            format!("more than {MAX_ATOMS} bit atoms"),
                        )
                        .with_note("explicit mintermisation is limited to 2^16 bit vectors"));
                    }
                    let i = aut.formulas.len() as u32;
                    aut.formulas.push(e);
                    formula_index.insert(raw.to_string(), i);
                    i
                }
            }
        };
        aut.transitions.push((src, label, dst));
    }
    aut.state_names = states.names;
    Ok(aut)
}

/// Natural order of atom names: `a2 < a10`.
fn natural_key(s: &str) -> (String, u64, String) {
    let digits_at = s.find(|c: char| c.is_ascii_digit()).unwrap_or(s.len());
    let (p, rest) = s.split_at(digits_at);
    let d_end = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    let num = rest[..d_end].parse::<u64>().unwrap_or(u64::MAX);
    (p.to_string(), num, rest[d_end..].to_string())
}

/// Builds NFAs over one shared alphabet from parsed files (all explicit or all bits).
pub(crate) fn build(auts: &[MataAut]) -> Result<Vec<Nfa>, AutomataError> {
    let Some(first) = auts.first() else {
        return Ok(Vec::new());
    };
    if auts.iter().any(|a| a.kind != first.kind) {
        return Err(AutomataError::Invalid(
            "cannot compare an `@NFA-explicit` automaton with an `@NFA-bits` one".into(),
        ));
    }
    let mut out = Vec::new();
    let too_big = |states: usize, letters: usize| {
        AutomataError::Limit(format!(
            "{states} states × {letters} letters exceeds the transition-table bound of {} slots",
            crate::nfa::MAX_SLOTS
        ))
    };
    match first.kind {
        MataKind::Explicit => {
            let mut alphabet = Alphabet::new();
            for a in auts {
                for s in &a.symbols {
                    alphabet.intern(s);
                }
            }
            for a in auts {
                let map: Vec<Letter> = a
                    .symbols
                    .iter()
                    .map(|s| alphabet.get(s).unwrap_or(0))
                    .collect();
                let mut b = builder(a, &alphabet);
                for &(s, l, t) in &a.transitions {
                    b.add_transition(s, map[l as usize], t);
                }
                b.state_names = a.state_names.clone();
                out.push(b.build());
            }
        }
        MataKind::Bits => {
            // Global atom order: natural order of the names.
            let mut names: Vec<String> =
                auts.iter().flat_map(|a| a.atoms.iter().cloned()).collect();
            names.sort_by_key(|s| natural_key(s));
            names.dedup();
            if names.len() > MAX_ATOMS {
                return Err(AutomataError::Limit(format!(
                    "{} bit atoms in total; explicit mintermisation is limited to {MAX_ATOMS}",
                    names.len()
                )));
            }
            let gidx: FxHashMap<&str, u32> = names
                .iter()
                .enumerate()
                .map(|(i, n)| (n.as_str(), i as u32))
                .collect();
            let mut all: Vec<BoolExpr> = Vec::new();
            let mut base = Vec::new();
            for a in auts {
                base.push(all.len());
                let remap: Vec<u32> = a
                    .atoms
                    .iter()
                    .map(|n| gidx.get(n.as_str()).copied().unwrap_or(0))
                    .collect();
                for f in &a.formulas {
                    all.push(f.map_vars(&|v| remap.get(v as usize).copied().unwrap_or(0)));
                }
            }
            let m = mintermise(&all, names.len())
                .ok_or_else(|| AutomataError::Limit("too many bit atoms to mintermise".into()))?;
            let letter_names: Vec<String> = m
                .representative
                .iter()
                .enumerate()
                .map(|(c, &r)| {
                    let mut n = cube_name(r, &names);
                    if m.class_size.get(c).is_some_and(|&s| s > 1) {
                        let _ = write!(n, "+{}", m.class_size[c] - 1);
                    }
                    n
                })
                .collect();
            let alphabet = Alphabet::with_bits(
                &letter_names,
                BitLetters {
                    atoms: names.clone(),
                    class: m.class.clone(),
                },
            );
            for (ai, a) in auts.iter().enumerate() {
                if !crate::nfa::fits(a.state_names.len(), alphabet.len()) {
                    return Err(too_big(a.state_names.len(), alphabet.len()));
                }
                let mut b = builder(a, &alphabet);
                for &(s, l, t) in &a.transitions {
                    for &c in &m.cover[base[ai] + l as usize] {
                        b.add_transition(s, c, t);
                    }
                }
                b.state_names = a.state_names.clone();
                out.push(b.build());
            }
        }
    }
    Ok(out)
}

/// The name of a bit-vector letter: its cube `a1&!a2&…` in atom order (no spaces, so it is also a
/// valid `@NFA-explicit` symbol).
pub(crate) fn cube_name(bits: u64, atoms: &[String]) -> String {
    if atoms.is_empty() {
        return "true".to_string();
    }
    let mut s = String::new();
    for (i, a) in atoms.iter().enumerate() {
        if i > 0 {
            s.push('&');
        }
        if (bits >> i) & 1 == 0 {
            s.push('!');
        }
        s.push_str(a);
    }
    s
}

/// Parses and builds one `.mata` file.
#[cfg(test)]
pub(crate) fn parse_nfa(text: &str) -> Result<Nfa, AutomataError> {
    let a = parse(text).map_err(AutomataError::Parse)?;
    let mut v = build(std::slice::from_ref(&a))?;
    v.pop()
        .ok_or_else(|| AutomataError::Invalid("no automaton".into()))
}

/// Writes an NFA in `.mata`: as `@NFA-bits` when its alphabet came from `@NFA-bits` (so the atoms
/// and every letter, with or without transitions, survive), else as `@NFA-explicit` with the whole
/// alphabet declared in `%Alphabet-enum` (letters without transitions belong to `Σ` too).
pub(crate) fn write(nfa: &Nfa) -> String {
    match nfa.alphabet.bits() {
        Some(bits) => write_bits(nfa, bits),
        None => write_explicit(nfa),
    }
}

/// Writes an NFA as `@NFA-explicit`, the alphabet declared in `%Alphabet-enum`.
pub(crate) fn write_explicit(nfa: &Nfa) -> String {
    let mut s = String::from("@NFA-explicit\n%Alphabet-enum");
    for n in nfa.alphabet.names() {
        let _ = write!(s, " {}", sanitize(n));
    }
    s.push('\n');
    let names = state_labels(nfa);
    write_states(&mut s, nfa, &names);
    for (src, a, dst) in nfa.transitions() {
        let _ = writeln!(
            s,
            "{} {} {}",
            names[src as usize],
            sanitize(nfa.alphabet.name(a)),
            names[dst as usize]
        );
    }
    s
}

fn write_states(s: &mut String, nfa: &Nfa, names: &[String]) {
    s.push_str("%Initial");
    for &q in nfa.initial() {
        let _ = write!(s, " {}", names[q as usize]);
    }
    s.push_str("\n%Final");
    for &q in nfa.finals() {
        let _ = write!(s, " {}", names[q as usize]);
    }
    s.push('\n');
    // States without transitions are mentioned, so the state count survives.
    let mut used = vec![false; nfa.num_states()];
    for (p, _, q) in nfa.transitions() {
        used[p as usize] = true;
        used[q as usize] = true;
    }
    for (q, u) in used.iter().enumerate() {
        if !u {
            let _ = writeln!(s, "{}", names[q]);
        }
    }
}

/// Writes an NFA over a bit-vector alphabet as `@NFA-bits`: the letters of each `(source, target)`
/// pair become one formula over the atoms (a Shannon expansion of their vectors).
fn write_bits(nfa: &Nfa, bits: &BitLetters) -> String {
    let mut s = String::from("@NFA-bits\n");
    let names = state_labels(nfa);
    write_states(&mut s, nfa, &names);
    let mut groups: Vec<((State, State), Vec<Letter>)> = Vec::new();
    let mut index: FxHashMap<(State, State), usize> = FxHashMap::default();
    for (p, a, q) in nfa.transitions() {
        let i = *index.entry((p, q)).or_insert_with(|| {
            groups.push(((p, q), Vec::new()));
            groups.len() - 1
        });
        groups[i].1.push(a);
    }
    let mut formulas: FxHashMap<Vec<Letter>, String> = FxHashMap::default();
    for ((p, q), letters) in groups {
        let f = formulas.entry(letters).or_insert_with_key(|letters| {
            let mut on = vec![false; nfa.num_letters()];
            for &l in letters {
                if let Some(x) = on.get_mut(l as usize) {
                    *x = true;
                }
            }
            let table: Vec<bool> = bits
                .class
                .iter()
                .map(|&c| on.get(c as usize).copied().unwrap_or(false))
                .collect();
            shannon(&table, &bits.atoms)
        });
        let _ = writeln!(s, "{} {} {}", names[p as usize], f, names[q as usize]);
    }
    s
}

/// A formula for the truth table `t` over the first `log2 |t|` atoms (vector index bit `i` = atom
/// `i`): Shannon expansion on the highest atom, skipping atoms the function does not depend on.
fn shannon(t: &[bool], atoms: &[String]) -> String {
    if t.iter().all(|&b| b) {
        return "\\true".to_string();
    }
    if !t.iter().any(|&b| b) {
        return "\\false".to_string();
    }
    let half = t.len() / 2;
    let var = half.trailing_zeros() as usize;
    let (lo, hi) = t.split_at(half);
    if lo == hi {
        return shannon(lo, atoms);
    }
    let name = atoms.get(var).map_or("?", String::as_str);
    let lo_f = lo.iter().any(|&b| b).then(|| shannon(lo, atoms));
    let hi_f = hi.iter().any(|&b| b).then(|| shannon(hi, atoms));
    let conj = |lit: String, f: Option<String>| match f {
        Some(f) if f == "\\true" => lit,
        Some(f) => format!("({lit} & {f})"),
        None => String::new(),
    };
    let parts: Vec<String> = [conj(format!("!{name}"), lo_f), conj(name.to_string(), hi_f)]
        .into_iter()
        .filter(|p| !p.is_empty())
        .collect();
    if parts.len() == 1 {
        parts.into_iter().next().unwrap_or_default()
    } else {
        format!("({})", parts.join(" | "))
    }
}

/// State names for writing: the automaton's own when they are unique tokens the parser reads back
/// as state names, else `q0`, `q1`, ….
fn state_labels(nfa: &Nfa) -> Vec<String> {
    let own: Vec<String> = (0..nfa.num_states() as State)
        .map(|q| sanitize(&nfa.state_name(q)))
        .collect();
    let mut seen = rustc_hash::FxHashSet::default();
    let usable = own
        .iter()
        .all(|n| !n.starts_with(['%', '@']) && !is_formula_syntax(n) && seen.insert(n.as_str()));
    if usable {
        own
    } else {
        (0..nfa.num_states()).map(|q| format!("q{q}")).collect()
    }
}

fn sanitize(n: &str) -> String {
    if n.is_empty() {
        return "_".to_string();
    }
    n.chars()
        .map(|c| {
            if c.is_whitespace() || c == '#' || c == '\\' {
                '_'
            } else {
                c
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn explicit_round_trip() {
        let t = "@NFA-explicit\n%Alphabet-auto\n%Initial q0 q1\n%Final q2 # comment\nq0 a q1\nq1 b \\\n q2\nq2 a q2\n";
        let a = parse_nfa(t).unwrap();
        assert_eq!(a.num_states(), 3);
        assert_eq!(a.initial().len(), 2);
        assert_eq!(a.num_transitions(), 3);
        let b = parse_nfa(&write(&a)).unwrap();
        assert_eq!(b.transitions(), a.transitions());
        assert_eq!(b.alphabet.names(), a.alphabet.names());
    }

    #[test]
    fn bits_mintermise_jointly() {
        let a = parse("@NFA-bits\n%Initial q0\n%Final q1\nq0 (a1 & !a2) q1\nq1 (a1 | \\true) q1\n")
            .unwrap();
        let b = parse("@NFA-bits\n%Initial q0\n%Final q0\nq0 (a2) q0\n").unwrap();
        let v = build(&[a, b]).unwrap();
        // Classes of {0,1}^2: {00}, {a1&!a2}, {a2 set: two vectors}.
        assert_eq!(v[0].num_letters(), 3);
        assert_eq!(v[0].alphabet.names(), v[1].alphabet.names());
        assert_eq!(v[0].alphabet.name(2), "!a1&a2+1");
        let on_a2: Vec<u32> = (0..3).filter(|&l| !v[1].post(0, l).is_empty()).collect();
        assert_eq!(on_a2, vec![2]);
        let q1_loops = (0..3).filter(|&l| !v[0].post(1, l).is_empty()).count();
        assert_eq!(q1_loops, 3);
    }

    #[test]
    fn errors_are_located() {
        let e = parse("@NFA-bits\n%Initial q0\nq0 (a1 & ) q1\n").unwrap_err();
        assert!(e.span.is_some());
        let e = parse("@NFA-explicit\nq0 a\n").unwrap_err();
        assert_eq!(e.span.map(|s| s.start), Some(17));
        assert!(parse("@DFA-weird\n").is_err());
        assert!(parse("").is_err());
        assert!(parse("q0 a q1").is_err());
    }

    #[test]
    fn parser_is_total() {
        let samples = [
            "@NFA-explicit\n%Alphabet-auto\n%Initial q0\n%Final q1\nq0 a q1\nq1 b q0\n",
            "@NFA-bits\n%Initial q0\n%Final q1 q2\nq0 (a1 & !a2 & a3) q1\nq1 (!(a1 | a2) & \\true) q2\n",
        ];
        verikit_testkit::assert_parser_total(&samples, 3000, |s| parse(s).map(|a| build(&[a])));
    }
}
