//! `verikit ta neta`: parse a NeTA-I, search, replay the witness, build the [`Answer`] (the
//! orchestrator of `neta_parse`, `neta_reach` and `neta_replay`).
//!
//! Seed: Wang, Li, Yuen, "Nested timed automata with invariants" (SETTA 2017, S05), §3–§6.

use crate::neta_parse::parse_neta;
use crate::neta_reach::{neta_reach, resolve_neta_labels, NetaOptions};
use crate::neta_replay::replay_neta;
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
    let r = neta_reach(&n, &ids, opts, budget);
    let verdict = match (r.reachable, r.exhausted) {
        (Some(b), _) => Verdict::from_bool(b),
        (None, Some(_)) => Verdict::Timeout,
        (None, None) => Verdict::Unknown,
    };
    let mut a = Answer::decision(verdict)
        .detail("decidability", r.class.reason())
        .input("automata", n.automata.len())
        .input("local_clocks", n.locals.len())
        .input("global_clocks", n.globals.len())
        .input("rules", n.edges.len())
        .stat("stored_states", r.states)
        .stat("transitions", r.transitions)
        .stat("max_stack_depth", r.max_depth)
        .stat("stack_bound", opts.stack_bound);
    if r.bound_hit {
        a = a.detail(
            "reason",
            "the stack reached the bound (ta.neta-stack-bound)",
        );
    }
    if let Some(e) = r.exhausted {
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
