//! SMT-LIB 2.6 text of hash-consed terms (the SMT-LIB standard, version 2.6, Section 3.6 terms
//! and Section 4.2 commands): a script of `declare-fun`s, one `define-fun` per compound sub-term
//! used more than once (so a DAG prints in linear size), the assertions and `check-sat`. Used to
//! hand a query another engine built (a program's bounded model checking formula) to other
//! solvers.

use crate::terms::{Op, Sort, TermId, Terms};
use std::collections::HashMap;
use std::fmt::Write;

/// A quoted symbol when `name` is not a simple SMT-LIB symbol.
fn symbol(name: &str) -> String {
    let simple = !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "~!@$%^&*_-+=<>.?/".contains(c));
    if simple {
        name.to_string()
    } else {
        format!("|{}|", name.replace(['|', '\\'], "_"))
    }
}

fn op_name(op: &Op) -> &'static str {
    match op {
        Op::Not => "not",
        Op::And => "and",
        Op::Or => "or",
        Op::Xor => "xor",
        Op::Implies => "=>",
        Op::Iff | Op::Eq => "=",
        Op::Ite => "ite",
        Op::Add => "+",
        Op::Neg => "-",
        Op::Mul => "*",
        Op::Div => "/",
        Op::IntDiv => "div",
        Op::Mod => "mod",
        Op::Abs => "abs",
        Op::Le => "<=",
        Op::Lt => "<",
        Op::ToReal => "to_real",
        Op::ToInt => "to_int",
        Op::IsInt => "is_int",
        Op::True | Op::False | Op::Const(_) | Op::Var(_) => "",
    }
}

/// The script asserting `roots` in `logic`: declarations of every constant, shared sub-terms as
/// `define-fun`s (named `_tN`), one `assert` per root, `check-sat`.
pub(crate) fn script(terms: &Terms, logic: &str, roots: &[TermId]) -> String {
    // Uses of each compound node reachable from the roots (each node's arguments counted once).
    let mut uses: HashMap<TermId, u32> = HashMap::new();
    let mut order: Vec<TermId> = Vec::new();
    let mut stack: Vec<(TermId, bool)> = roots.iter().map(|&r| (r, false)).collect();
    let mut seen: HashMap<TermId, bool> = HashMap::new();
    while let Some((t, done)) = stack.pop() {
        if done {
            order.push(t);
            continue;
        }
        if seen.insert(t, true).is_some() {
            continue;
        }
        stack.push((t, true));
        for &a in terms.node(t).args.iter() {
            *uses.entry(a).or_insert(0) += 1;
            if !seen.contains_key(&a) {
                stack.push((a, false));
            }
        }
    }
    let mut out = String::new();
    let _ = writeln!(out, "(set-logic {logic})");
    let mut vars: Vec<u32> = order
        .iter()
        .filter_map(|&t| match *terms.node(t).op {
            Op::Var(i) => Some(i),
            _ => None,
        })
        .collect();
    vars.sort_unstable();
    for i in vars {
        if let Some((name, sort)) = terms.vars.get(i as usize) {
            let _ = writeln!(out, "(declare-fun {} () {})", symbol(name), sort.name());
        }
    }
    // Text of each node as an argument: a leaf's text, a shared node's name, or (inline) the
    // compound text of a node used once.
    let mut text: HashMap<TermId, String> = HashMap::new();
    for &t in &order {
        let n = terms.node(t);
        let s = match &n.op {
            Op::True => "true".to_string(),
            Op::False => "false".to_string(),
            Op::Const(c) => c.to_smtlib(n.sort == Sort::Real),
            Op::Var(i) => terms
                .vars
                .get(*i as usize)
                .map(|v| symbol(&v.0))
                .unwrap_or_default(),
            op => {
                let mut s = format!("({}", op_name(op));
                for a in n.args.iter() {
                    s.push(' ');
                    s.push_str(text.get(a).map(String::as_str).unwrap_or("?"));
                }
                s.push(')');
                if uses.get(&t).copied().unwrap_or(0) > 1 {
                    let name = format!("_t{}", t.0);
                    let _ = writeln!(out, "(define-fun {name} () {} {s})", n.sort.name());
                    name
                } else {
                    s
                }
            }
        };
        text.insert(t, s);
    }
    for r in roots {
        let _ = writeln!(
            out,
            "(assert {})",
            text.get(r).map(String::as_str).unwrap_or("true")
        );
    }
    out.push_str("(check-sat)\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interp::{run_script, RunOptions};
    use verikit_num::Num;

    #[test]
    fn shared_terms_are_defined_once_and_the_script_answers_alike() {
        let mut t = Terms::new();
        let x = t.declare("x", Sort::Int);
        let y = t.declare("y at 1", Sort::Int);
        let one = t.mk_const(Num::int(1), Sort::Int);
        let s = t.mk(Op::Add, vec![x, y, one], Sort::Int);
        let a = t.mk(Op::Le, vec![s, one], Sort::Bool);
        let m = t.mk(Op::Neg, vec![s], Sort::Int);
        let b = t.mk(Op::Le, vec![m, one], Sort::Bool);
        let c = t.mk(Op::And, vec![a, b], Sort::Bool);
        let text = script(&t, "QF_LIA", &[c]);
        // `x + y + 1` is used twice, everything else once.
        assert_eq!(text.matches("(define-fun").count(), 1, "{text}");
        assert!(text.contains("|y at 1|"), "{text}");
        let out = run_script(&text, RunOptions::default());
        assert!(out.errors.is_empty(), "{text}");
        assert_eq!(out.responses, vec!["sat".to_string()], "{text}");
    }
}
