//! `verikit ta neta`: parse a NeTA-I, search, replay the witness, build the [`Answer`] (the
//! orchestrator of `neta_parse`, `neta_summaries`, `neta_reach` and `neta_replay`).
//!
//! Without global clocks (push and F-push), `neta_summaries` decides the query exactly; a
//! reachable answer's witness is then found by `neta_reach` with the stack bound the summaries
//! derived (it must find one: a miss is reported as an internal error, never as a verdict), and
//! an unreachable answer's certificate (the fixed point) is re-checked by `neta_certificate`
//! before it is printed (a rejection is an internal error; a check cut by the budget is said in
//! the answer). Models with global clocks get the bounded search, and the answer says why the
//! exact procedure does not apply.
//!
//! Seed: Wang, Li, Yuen, "Nested timed automata with invariants" (SETTA 2017, S05), §3–§6.

use crate::neta_certificate::{check_neta_certificate, CertificateError};
use crate::neta_parse::parse_neta;
use crate::neta_reach::{neta_reach, resolve_neta_labels, NetaOptions};
use crate::neta_replay::replay_neta;
use crate::neta_summaries::neta_summaries;
use verikit_diag::{Answer, Budget, Diagnostic, Verdict};

/// Answers "is a configuration whose working location carries all `labels` reachable?" on a
/// `.neta` text: `true` with the rules taken (replayed before they are returned), `false` when the
/// search was exhaustive, `unknown` when the stack bound cut it, `timeout` on the budget.
pub fn run_neta(
    text: &str,
    labels: &[String],
    opts: &NetaOptions,
    budget: &Budget,
) -> Result<Answer, Diagnostic> {
    let n = parse_neta(text)?;
    let ids = resolve_neta_labels(&n, labels)?;
    let s = neta_summaries(&n, &ids, budget);
    let exact = s.refused.is_none() && s.reachable.is_some();
    let mut used = *opts;
    if s.reachable == Some(true) {
        used.stack_bound = s.depth;
    }
    let r = if exact && s.reachable == Some(false) {
        None
    } else {
        Some(neta_reach(&n, &ids, &used, budget))
    };
    let reachable = match (&r, s.reachable, s.refused) {
        (Some(r), Some(true), None) if r.reachable != Some(true) => {
            return Err(Diagnostic::error(format!(
                "internal: the summaries derive a target within {} frames, the bounded search finds none",
                s.depth
            )))
        }
        (_, Some(b), None) => Some(b),
        (Some(r), _, _) => r.reachable,
        (None, _, _) => None,
    };
    let exhausted = s.exhausted.or(r.as_ref().and_then(|r| r.exhausted));
    let verdict = match (reachable, exhausted) {
        (Some(b), _) => Verdict::from_bool(b),
        (None, Some(_)) => Verdict::Timeout,
        (None, None) => Verdict::Unknown,
    };
    let class = crate::neta_reach::NetaClass::of(&n);
    let mut a = Answer::decision(verdict)
        .detail("decidability", class.reason())
        .detail(
            "procedure",
            match s.refused {
                None => "summaries",
                Some(_) => "bounded search",
            },
        )
        .input("automata", n.automata.len())
        .input("local_clocks", n.locals.len())
        .input("global_clocks", n.globals.len())
        .input("rules", n.edges.len())
        .stat("summary_rounds", s.rounds)
        .stat("summary_states", s.states);
    if let Some(why) = s.refused {
        a = a.detail("exact_procedure_refused", why);
    }
    if exact {
        let fmt = |aut: usize, q: Option<u32>| {
            n.automata.get(aut).map_or("?".to_string(), |x| match q {
                Some(q) => format!(
                    "{}.{}",
                    x.name,
                    x.locations.get(q as usize).map_or("?", |l| l.name.as_str())
                ),
                None => x.name.clone(),
            })
        };
        let returns: Vec<_> = s
            .summaries
            .returns
            .iter()
            .map(|((c, ra, rq), d)| serde_json::json!({"callee": fmt(*c, None), "resumes": fmt(*ra, Some(*rq)), "durations": d}))
            .collect();
        let targets: Vec<_> = s
            .summaries
            .targets
            .iter()
            .map(|(c, d)| serde_json::json!({"automaton": fmt(*c, None), "durations": d}))
            .collect();
        a = a.detail(
            "certificate",
            serde_json::json!({"max_constant": s.max_constant, "returns": returns, "targets": targets}),
        );
        if s.reachable == Some(false) {
            match check_neta_certificate(&n, &ids, s.max_constant, &s.summaries, budget) {
                Ok(()) => a = a.detail("certificate_checked", true),
                Err(CertificateError::Exhausted(e)) => {
                    a = a
                        .detail("certificate_checked", false)
                        .detail("reason", e.verdict_word())
                }
                Err(e) => return Err(Diagnostic::error(format!("internal: {e}"))),
            }
        }
    }
    let Some(r) = r else {
        return Ok(a);
    };
    a = a
        .stat("stored_states", r.states)
        .stat("transitions", r.transitions)
        .stat("max_stack_depth", r.max_depth)
        .stat("stack_bound", used.stack_bound);
    if r.bound_hit && !exact {
        a = a.detail(
            "reason",
            "the stack reached the bound (ta.neta-stack-bound)",
        );
    }
    if let Some(e) = exhausted {
        a = a.detail("reason", e.verdict_word());
    }
    if r.reachable == Some(true) {
        replay_neta(&n, &r.trace, &ids).map_err(|e| {
            Diagnostic::error(format!("internal: the witness does not replay: {e}"))
        })?;
        let steps: Vec<String> = r
            .trace
            .iter()
            .filter_map(|&e| n.edges.get(e))
            .map(|e| {
                let loc = |a: usize, q: u32| {
                    n.automata.get(a).map_or("?".to_string(), |x| {
                        format!(
                            "{}.{}",
                            x.name,
                            x.locations.get(q as usize).map_or("?", |l| l.name.as_str())
                        )
                    })
                };
                format!(
                    "{} -> {} {:?}",
                    loc(e.aut, e.src),
                    loc(e.tgt_aut, e.tgt),
                    e.ops
                )
            })
            .collect();
        for s in &steps {
            a = a.line(s);
        }
        a = a.witness(serde_json::json!({ "rules": r.trace, "steps": steps, "replayed": true }));
    }
    Ok(a)
}
