//! Issue 19 item 3: the low-level algorithms called directly with an automaton whose acceptance
//! is not generalized Büchi do not read its marks as Büchi sets (they refuse it or keep it
//! unchanged), and the HOA reader refuses an `acc-name` that contradicts `Acceptance:`.

use crate::ramsey_inclusion::{included, Inclusion, Limits};
use crate::sim_game::{Game, GameSolver, TooLarge};
use crate::{degen, delayed_sim, direct_sim, fair_merge, fair_sim, gba_reduce, hoa};
use crate::{iterated_sim, postproc, wdba, Twa};
use verikit_diag::Budget;

/// `FG a` as a deterministic co-Büchi automaton: state 0 (`!a` seen, mark 0) and state 1.
/// Read as Büchi (`Inf(0)`), its marks would mean `GF !a`, the complement.
const CO_BUCHI: &str = "HOA: v1\nStates: 2\nStart: 0\nAP: 1 \"a\"\nacc-name: co-Buchi\n\
Acceptance: 1 Fin(0)\n--BODY--\nState: 0\n[!0] 0 {0}\n[0] 1\nState: 1\n[!0] 0 {0}\n[0] 1\n--END--\n";

fn co_buchi() -> Twa {
    hoa::parse(CO_BUCHI).unwrap()
}

#[test]
fn reductions_and_degeneralisations_keep_other_acceptance() {
    let a = co_buchi();
    assert!(!a.is_generalized_buchi());
    let same = |b: &Twa, what: &str| {
        assert_eq!(b.acceptance(), a.acceptance(), "{what}");
        assert_eq!(b.num_states(), a.num_states(), "{what}");
        assert_eq!(b.num_edges(), a.num_edges(), "{what}");
    };
    same(&degen::degeneralize(&a), "degeneralize");
    same(&degen::degeneralize_tba(&a), "degeneralize_tba");
    same(&degen::sba_by_outgoing(&a), "sba_by_outgoing");
    same(
        &degen::degeneralize_with(&a, &[0], degen::Entry::Zero),
        "degeneralize_with",
    );
    assert!(degen::best_sba(&a, &postproc::simplify).is_none());
    same(&direct_sim::reduce(&a), "direct_sim::reduce");
    same(
        &iterated_sim::iterated_simulations(&a, &postproc::simplify),
        "iterated",
    );
    for m in [
        gba_reduce::Method::Direct,
        gba_reduce::Method::Delayed,
        gba_reduce::Method::Fair,
        gba_reduce::Method::FairDelayed,
    ] {
        let (r, st) = gba_reduce::reduce(&a, m, &Budget::unlimited());
        same(&r, m.name());
        assert!(!st.applied, "{}", m.name());
    }
    // The direct simulation is only the identity.
    let sim = direct_sim::direct_simulation(&a);
    assert_eq!(sim, vec![true, false, false, true]);
}

#[test]
fn games_inclusion_and_wdba_refuse_other_acceptance() {
    let a = co_buchi();
    assert_eq!(Game::build(&a, &a).err(), Some(TooLarge::Acceptance));
    assert!(!Game::build_ok(&a));
    assert!(delayed_sim::delayed_simulation(&a).is_none());
    assert!(fair_sim::fair_simulation(&a).is_none());
    assert!(fair_merge::merges(&a, GameSolver::RankLifting, &Budget::unlimited()).is_none());
    let (r, _) = included(&a, &a, &Limits::default(), &Budget::unlimited());
    assert!(matches!(r, Inclusion::Unknown));
    assert!(wdba::minimize_obligation(&a, &a, &Budget::unlimited()).is_none());
    // The typed refusal the commands report names the condition.
    let e = a.require_gba("aut reduce").unwrap_err();
    assert!(e.to_string().contains("co-Buchi"), "{e}");
}

#[test]
fn acc_name_contradicting_the_acceptance_is_refused() {
    for (name, acc, ok) in [
        ("Buchi", "1 Inf(0)", true),
        ("co-Buchi", "1 Fin(0)", true),
        ("Buchi", "1 Fin(0)", false),
        ("Buchi", "2 Inf(0)&Inf(1)", false),
        ("generalized-Buchi 2", "2 Inf(0)&Inf(1)", true),
        ("Rabin 1", "2 Fin(0)&Inf(1)", true),
        ("Streett 1", "2 Fin(0)&Inf(1)", false),
        ("Streett 1", "2 Fin(0)|Inf(1)", true),
        ("parity max even 2", "2 Fin(1) & Inf(0)", true),
        ("parity min even 2", "2 Fin(1) & Inf(0)", false),
        ("all", "0 t", true),
        ("none", "0 f", true),
        ("all", "0 f", false),
        // Names this reader does not know: the `Acceptance:` item alone counts.
        ("my-own-name", "1 Fin(0)", true),
    ] {
        let text = format!(
            "HOA: v1\nStates: 1\nStart: 0\nAP: 0\nacc-name: {name}\nAcceptance: {acc}\n--BODY--\nState: 0\n[t] 0\n--END--\n"
        );
        let r = hoa::parse(&text);
        assert_eq!(r.is_ok(), ok, "acc-name: {name} / Acceptance: {acc}");
        if let Err(e) = r {
            let msg = e.to_string();
            assert!(msg.contains("contradicts"), "{msg}");
        }
    }
}
