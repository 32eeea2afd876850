//! `verikit ta cta`: parse a CTA model, check its topology, search, replay the witness and build
//! the [`Answer`] (the orchestrator of `cta_parse`, `cta_topology`, `cta_reach`, `cta_replay`).
//!
//! Seed: Krčál, Yi, CAV 2006 (C24), §2–§4.

use crate::cta_one_counter::{cta_one_counter, not_applicable};
use crate::cta_parse::{parse_cta, Cta, CtaAction};
use crate::cta_reach::{
    cta_reach, cta_unreachable_summarised, resolve_cta_labels, CtaOptions, CtaStep,
};
use crate::cta_replay::replay_cta;
use verikit_diag::{Answer, Budget, Diagnostic, Verdict};

fn step_text(cta: &Cta, s: &CtaStep) -> String {
    let Some(p) = cta.processes.get(s.process) else {
        return "?".into();
    };
    let Some(e) = p.edges.get(s.edge) else {
        return "?".into();
    };
    let loc = |l: u32| p.locations.get(l as usize).map_or("?", String::as_str);
    let chan = |c: usize| cta.channels.get(c).map_or("?", |c| c.name.as_str());
    let letter = |l: u32| cta.letters.get(l as usize).map_or("?", String::as_str);
    let act = match e.action {
        CtaAction::Internal => "eps".to_string(),
        CtaAction::Send { channel, letter: a } => format!("{}!{}", chan(channel), letter(a)),
        CtaAction::Receive { channel, letter: a } => format!("{}?{}", chan(channel), letter(a)),
    };
    format!("{}: {} -> {} ({act})", p.name, loc(e.src), loc(e.tgt))
}

/// Answers "is a state carrying all `labels` reachable?" on a `.cta` text: verdict `true` with
/// the symbolic trace (replayed before it is returned), `false` when the search was exhaustive or,
/// once the channel bound cut it, when the target is unreachable in the over-approximation that
/// summarises each channel beyond its first `k` letters (`k` = 1, 2, 4, … up to the bound),
/// then, for one channel with closed guards and no urgent reading to respect, the exact
/// one-counter procedure of `cta_one_counter` (C24 §3); `unknown` when none decides, `timeout`
/// when the budget ran out.
pub fn run_cta(
    text: &str,
    labels: &[String],
    opts: &CtaOptions,
    budget: &Budget,
) -> Result<Answer, Diagnostic> {
    let cta = parse_cta(text)?;
    let ids = resolve_cta_labels(&cta, labels)?;
    let r = cta_reach(&cta, &ids, opts, budget)?;
    let mut verdict = match (r.reachable, r.exhausted) {
        (Some(b), _) => Verdict::from_bool(b),
        (None, Some(_)) => Verdict::Timeout,
        (None, None) => Verdict::Unknown,
    };
    let mut summarised = None;
    if verdict == Verdict::Unknown {
        let mut k = 1;
        loop {
            match cta_unreachable_summarised(&cta, &ids, k, budget)? {
                Some(true) => {
                    summarised = Some(k);
                    verdict = Verdict::False;
                    break;
                }
                Some(false) if k < opts.channel_bound => k = (2 * k).min(opts.channel_bound),
                Some(false) => break,
                None => {
                    if budget.check().is_err() {
                        verdict = Verdict::Timeout;
                    }
                    break;
                }
            }
        }
    }
    let mut one_counter = None;
    let mut not_decided = None;
    if verdict == Verdict::Unknown {
        match not_applicable(&cta) {
            Some(why) => not_decided = Some(why),
            None => {
                let oc = cta_one_counter(&cta, &ids, budget);
                verdict = match (oc.reachable, oc.exhausted) {
                    (Some(b), _) => Verdict::from_bool(b),
                    (None, Some(_)) => Verdict::Timeout,
                    (None, None) => Verdict::Unknown,
                };
                one_counter = Some(oc);
            }
        }
    }
    let mut a = Answer::decision(verdict)
        .detail("topology", r.topology.name())
        .detail("decidability", r.topology.reason())
        .input("processes", cta.processes.len())
        .input("clocks", cta.clocks.len())
        .input("channels", cta.channels.len())
        .stat("stored_states", r.states)
        .stat("transitions", r.transitions)
        .stat("max_channel_length", r.max_channel)
        .stat("channel_bound", opts.channel_bound);
    if let Some(k) = summarised {
        a = a.detail(
            "certificate",
            format!(
                "unreachable even when every channel keeps its first {k} letter(s) and any number of further letters from the set it may hold: an exhaustive search of this over-approximation of all runs, whatever the channels' lengths"
            ),
        );
    } else if r.bound_hit && one_counter.is_none() {
        a = a.detail(
            "reason",
            "a channel reached the bound (ta.cta-channel-bound)",
        );
    }
    if let Some(why) = not_decided {
        a = a.detail("one_counter", format!("not applied: {why}"));
    }
    let mut trace = r.trace;
    if let Some(oc) = one_counter {
        a = a
            .detail(
                "procedure",
                "one-counter machine of the desynchronized semantics in discrete time (C24 §3, Definition 2, Theorem 1; exact by digitization), decided by post* saturation",
            )
            .stat("one_counter_control_states", oc.control_states)
            .stat("one_counter_automaton_transitions", oc.automaton_transitions);
        if oc.reachable == Some(true) {
            trace = oc.trace;
        }
    }
    if let Some(e) = r.exhausted {
        a = a.detail("reason", e.verdict_word());
    }
    if r.reachable == Some(false) {
        a = a.detail(
            "bounded",
            format!(
                "every reachable channel content has at most {} letters",
                r.max_channel
            ),
        );
    }
    if verdict == Verdict::True {
        replay_cta(&cta, &trace, &ids).map_err(|e| {
            Diagnostic::error(format!("internal: the witness does not replay: {e}"))
        })?;
        let steps: Vec<String> = trace.iter().map(|s| step_text(&cta, s)).collect();
        for s in &steps {
            a = a.line(s);
        }
        a = a.witness(serde_json::json!({ "steps": steps, "replayed": true }));
    }
    Ok(a)
}
