//! Exports of the explicit model in PRISM's formats (`.tra`, `.sta`, `.lab`; PRISM manual,
//! "Explicit Model Files") and as a Graphviz DOT graph.

use crate::build::eval_states;
use crate::lang::ast::ModelType;
use crate::lang::typecheck::Program;
use crate::model::Model;
use std::fmt::Write;
use verikit_diag::Diagnostic;

fn num(x: f64) -> String {
    format!("{x}")
}

/// `.tra`: `states transitions` (DTMC/CTMC) or `states choices transitions` (MDP), then one line
/// per transition.
pub fn tra(m: &Model) -> String {
    let mut s = String::new();
    let nondet = m.model_type.nondeterministic();
    if nondet {
        let _ = writeln!(
            s,
            "{} {} {}",
            m.num_states(),
            m.num_choices(),
            m.num_transitions()
        );
    } else {
        let _ = writeln!(s, "{} {}", m.num_states(), m.num_transitions());
    }
    for st in 0..m.num_states() {
        for (i, c) in m.choices(st).enumerate() {
            for k in m.trans(c) {
                let p = if m.is_interval() {
                    format!("[{},{}]", num(m.vals[k]), num(m.upper[k]))
                } else {
                    num(m.vals[k])
                };
                if nondet {
                    let _ = write!(s, "{st} {i} {} {p}", m.cols[k]);
                    let a = m.choice_action[c];
                    if a != u32::MAX {
                        let _ = write!(s, " {}", m.actions[a as usize]);
                    }
                    s.push('\n');
                } else {
                    let _ = writeln!(s, "{st} {} {p}", m.cols[k]);
                }
            }
        }
    }
    s
}

/// `.sta`: `(x,y,…)` header and one `i:(v1,v2,…)` line per state.
pub fn sta(m: &Model) -> String {
    let mut s = String::new();
    let names: Vec<&str> = m.vars.iter().map(|v| v.name.as_str()).collect();
    let _ = writeln!(s, "({})", names.join(","));
    let mut cur = vec![0i64; m.vars.len()];
    for st in 0..m.num_states() {
        m.valuation(st, &mut cur);
        let vals: Vec<String> = m
            .vars
            .iter()
            .zip(&cur)
            .map(|(v, &x)| {
                if v.is_bool {
                    (x != 0).to_string()
                } else {
                    x.to_string()
                }
            })
            .collect();
        let _ = writeln!(s, "{st}:({})", vals.join(","));
    }
    s
}

/// `.lab`: `0="init" 1="deadlock" 2="label"…` then `state: label indices`.
pub fn lab(m: &Model, prog: &Program) -> Result<String, Diagnostic> {
    let mut sets = Vec::new();
    let mut names = vec!["init".to_string(), "deadlock".to_string()];
    let n = m.num_states();
    let mut init = vec![false; n];
    m.initial.iter().for_each(|&s| init[s as usize] = true);
    let mut dl = vec![false; n];
    m.fixed_deadlocks
        .iter()
        .for_each(|&s| dl[s as usize] = true);
    sets.push(init);
    sets.push(dl);
    for (name, e) in &prog.labels {
        names.push(name.clone());
        sets.push(eval_states(m, e)?);
    }
    let mut s = String::new();
    let hdr: Vec<String> = names
        .iter()
        .enumerate()
        .map(|(i, n)| format!("{i}=\"{n}\""))
        .collect();
    let _ = writeln!(s, "{}", hdr.join(" "));
    for st in 0..n {
        let ls: Vec<String> = (0..sets.len())
            .filter(|&i| sets[i][st])
            .map(|i| i.to_string())
            .collect();
        if !ls.is_empty() {
            let _ = writeln!(s, "{st}: {}", ls.join(" "));
        }
    }
    Ok(s)
}

/// Graphviz DOT of the model (choices of MDPs as small intermediate nodes).
pub fn dot(m: &Model) -> String {
    let mut s = String::from("digraph model {\n  node [shape=circle];\n");
    for &i in &m.initial {
        let _ = writeln!(s, "  {i} [style=bold];");
    }
    let nondet = m.model_type.nondeterministic();
    for st in 0..m.num_states() {
        for (i, c) in m.choices(st).enumerate() {
            if nondet {
                let a = m.choice_action[c];
                let label = if a == u32::MAX {
                    String::new()
                } else {
                    m.actions[a as usize].clone()
                };
                let _ = writeln!(s, "  n{st}_{i} [shape=point];\n  {st} -> n{st}_{i} [label=\"{label}\", arrowhead=none];");
                for k in m.trans(c) {
                    let _ = writeln!(
                        s,
                        "  n{st}_{i} -> {} [label=\"{}\"];",
                        m.cols[k],
                        num(m.vals[k])
                    );
                }
            } else {
                for k in m.trans(c) {
                    let _ = writeln!(s, "  {st} -> {} [label=\"{}\"];", m.cols[k], num(m.vals[k]));
                }
            }
        }
    }
    s.push_str("}\n");
    let _ = ModelType::Dtmc;
    s
}
