//! HOA v1 output in the layout Spot writes: `HOA: v1`, `name`, `States`, `Start`, `AP`,
//! `acc-name`, `Acceptance`, `properties`, then `--BODY--` with `State: n` lines and explicit
//! edge labels over AP indices (`[0&!1] 2 {0}`); state-based marks are written on the state
//! (`State: 0 {0}`) when the automaton is state-based.

use crate::twa::Twa;
use std::fmt::Write;

fn quote(s: &str) -> String {
    let mut o = String::from("\"");
    for c in s.chars() {
        if c == '"' || c == '\\' {
            o.push('\\');
        }
        o.push(c);
    }
    o.push('"');
    o
}

fn marks_text(m: u64) -> String {
    let v: Vec<String> = (0..64)
        .filter(|i| (m >> i) & 1 == 1)
        .map(|i: u32| i.to_string())
        .collect();
    format!("{{{}}}", v.join(" "))
}

/// The acceptance condition text (`2 Fin(0) & Inf(1)`) and its `acc-name` when Spot's printer
/// names it (`Rabin 1`; none for other Emerson–Lei conditions), printed as Spot prints them.
pub fn acceptance_text(aut: &Twa) -> (String, Option<String>) {
    let acc = aut.acceptance();
    (format!("{} {acc}", aut.num_sets), acc.name(aut.num_sets))
}

/// Writes the automaton in HOA v1.
pub fn to_hoa(aut: &Twa) -> String {
    let mut s = String::new();
    s.push_str("HOA: v1\n");
    if let Some(n) = &aut.name {
        let _ = writeln!(s, "name: {}", quote(n));
    }
    let _ = writeln!(s, "States: {}", aut.num_states());
    for &i in &aut.init {
        let _ = writeln!(s, "Start: {i}");
    }
    let aps: Vec<String> = aut.aps.iter().map(|a| quote(a)).collect();
    let _ = writeln!(
        s,
        "AP: {}{}{}",
        aut.aps.len(),
        if aps.is_empty() { "" } else { " " },
        aps.join(" ")
    );
    let (acc, name) = acceptance_text(aut);
    if let Some(name) = name {
        let _ = writeln!(s, "acc-name: {name}");
    }
    let _ = writeln!(s, "Acceptance: {acc}");
    let state_acc = aut.state_based || aut.num_sets == 0;
    let mut props = vec![
        "trans-labels",
        "explicit-labels",
        if state_acc { "state-acc" } else { "trans-acc" },
    ];
    if aut.is_complete() {
        props.push("complete");
    }
    if aut.is_deterministic() {
        props.push("deterministic");
    }
    let _ = writeln!(s, "properties: {}", props.join(" "));
    s.push_str("--BODY--\n");
    for (i, es) in aut.states.iter().enumerate() {
        let _ = write!(s, "State: {i}");
        if let Some(Some(n)) = aut.state_names.get(i) {
            let _ = write!(s, " {}", quote(n));
        }
        if state_acc && aut.num_sets > 0 {
            let m = aut.state_marks(i as u32);
            if m != 0 {
                let _ = write!(s, " {}", marks_text(m));
            }
        }
        s.push('\n');
        for e in es {
            let _ = write!(s, "[{}] {}", aut.label_hoa(&e.label), e.dst);
            if !state_acc && e.marks != 0 {
                let _ = write!(s, " {}", marks_text(e.marks));
            }
            s.push('\n');
        }
    }
    s.push_str("--END--\n");
    s
}
