//! HOA v1: the format specification's example automata (written by hand here), unsupported
//! features rejected by name, located errors, round trips, parser totality.

use verikit_omega::accepting_lasso;
use verikit_omega::isomorphic;
use verikit_omega::Arena;
use verikit_omega::Lasso;
use verikit_omega::OmegaError;
use verikit_omega::{parse_hoa as parse, parse_hoa_all as parse_all, to_hoa};
use verikit_omega::{translate, TranslateOptions as Options};

const GFA_TRANS: &str = r#"HOA: v1
name: "GFa"
States: 1
Start: 0
acc-name: Buchi
Acceptance: 1 Inf(0)
AP: 1 "a"
--BODY--
State: 0
  [0] 0 {0}
  [!0] 0
--END--
"#;

const GFA_STATE: &str = r#"HOA: v1
name: "GFa"
States: 2
Start: 0
acc-name: Buchi
Acceptance: 1 Inf(0)
AP: 1 "a"
--BODY--
State: 0 {0}
  [0] 0
  [!0] 1
State: 1  /* comments /* nest */ here */
  [0] 0
  [!0] 1
--END--
"#;

const ALIASES_GEN: &str = r#"HOA: v1
States: 3
Start: 0
acc-name: generalized-Buchi 2
Acceptance: 2 Inf(0)&Inf(1)
AP: 2 "a" "b"
Alias: @a 0
Alias: @b 1
Alias: @both @a & @b
tool: "handwritten" "1.0"
properties: trans-labels explicit-labels trans-acc
--BODY--
State: 0 "start"
  [@both] 0 {0 1}
  [!@a & @b] 1 {1}
  [@a & !@b] 2 {0}
  [!@a & !@b] 0
State: 1
  [t] 0
State: 2
  [t] 0
--END--
"#;

const IMPLICIT: &str = r#"HOA: v1
States: 2
Start: 0
acc-name: Buchi
Acceptance: 1 Inf(0)
AP: 1 "a"
properties: implicit-labels state-acc
--BODY--
State: 0 {0}
1 0
State: 1
1 0
--END--
"#;

const STATE_LABELS: &str = r#"HOA: v1
States: 3
Start: 0
Acceptance: 1 Inf(0)
AP: 2 "a" "b"
properties: state-labels
--BODY--
State: [0&!1] 0
  1 2
State: [!0] 1 {0}
  1
State: [t] 2
  1 0
--END--
"#;

const GFA_GFB: &str = r#"HOA: v1
name: "GFa & GFb"
tool: "ltl-translate" "1.2-alpha"
States: 1
Start: 0
acc-name: generalized-Buchi 2
Acceptance: 2 Inf(0)&Inf(1)
AP: 2 "a" "b"
properties: trans-labels explicit-labels trans-acc complete deterministic
--BODY--
State: 0
  [!0&!1] 0
  [0&!1] 0 {0}
  [!0&1] 0 {1}
  [0&1] 0 {0 1}
--END--
"#;

fn w(prefix: &[u64], cycle: &[u64]) -> Lasso {
    Lasso {
        prefix: prefix.to_vec(),
        cycle: cycle.to_vec(),
    }
}

#[test]
fn spec_examples_parse_and_mean_what_they_say() {
    for text in [GFA_TRANS, GFA_STATE] {
        let a = parse(text).unwrap();
        assert_eq!(a.aps, vec!["a".to_string()]);
        assert!(verikit_omega::accepts_lasso(&a, &w(&[], &[0, 1])));
        assert!(!verikit_omega::accepts_lasso(&a, &w(&[1, 1], &[0])));
    }
    assert!(parse(GFA_STATE).unwrap().state_based);
    let g = parse(ALIASES_GEN).unwrap();
    assert_eq!((g.num_states(), g.num_sets), (3, 2));
    assert_eq!(g.state_names[0].as_deref(), Some("start"));
    // Needs infinitely many a and infinitely many b: (a&b)^ω accepted, a^ω not.
    assert!(verikit_omega::accepts_lasso(&g, &w(&[], &[3])));
    assert!(!verikit_omega::accepts_lasso(&g, &w(&[], &[1])));
    assert!(verikit_omega::accepts_lasso(&g, &w(&[], &[1, 0, 2, 0])));
    let i = parse(IMPLICIT).unwrap();
    // Edge k has the valuation k (AP 0 = bit 0): edge 0 is !a, edge 1 is a.
    assert!(verikit_omega::accepts_lasso(&i, &w(&[], &[1])));
    let s = parse(STATE_LABELS).unwrap();
    assert_eq!(s.num_edges(), 5);
    assert!(accepting_lasso(&s).is_some());
    let gg = parse(GFA_GFB).unwrap();
    assert!(gg.is_deterministic() && gg.is_complete());
    assert!(verikit_omega::accepts_lasso(&gg, &w(&[0], &[1, 2])));
    assert!(!verikit_omega::accepts_lasso(&gg, &w(&[3], &[1])));
    let two = format!("{GFA_TRANS}{GFA_STATE}");
    assert_eq!(parse_all(&two).unwrap().len(), 2);
}

fn unsupported(text: &str) -> String {
    match parse(text) {
        Err(OmegaError::Unsupported(d)) => d.message.clone(),
        other => panic!("expected an unsupported-feature error, got {other:?}"),
    }
}

/// Other conditions are read (issue 19) and kept exactly; generalized-Büchi-only algorithms
/// refuse them by name, at the `Acceptance:` item; alternation is still refused at parse time.
#[test]
fn other_acceptance_conditions_are_read_and_refused_by_name_where_unsupported() {
    let rabin = GFA_TRANS.replace(
        "acc-name: Buchi\nAcceptance: 1 Inf(0)",
        "acc-name: Rabin 1\nAcceptance: 2 Fin(0)&Inf(1)",
    );
    let a = parse(&rabin).unwrap();
    assert_eq!(a.acc_name().as_deref(), Some("Rabin 1"));
    let Err(OmegaError::Unsupported(d)) = a.require_gba("aut reduce") else {
        panic!("a Rabin automaton passed the generalized Büchi check")
    };
    assert!(d.message.contains("Rabin 1") && d.message.contains("aut reduce"));
    assert!(
        d.span.is_some(),
        "the refusal points at the Acceptance: item"
    );
    let cob = GFA_TRANS.replace(
        "acc-name: Buchi\nAcceptance: 1 Inf(0)",
        "Acceptance: 1 Fin(0)",
    );
    let c = parse(&cob).unwrap();
    assert_eq!(c.acc_name().as_deref(), Some("co-Buchi"));
    assert!(verikit_omega::to_hoa(&c).contains("acc-name: co-Buchi\nAcceptance: 1 Fin(0)\n"));
    let parity = GFA_TRANS.replace(
        "acc-name: Buchi\nAcceptance: 1 Inf(0)",
        "acc-name: parity min even 2\nAcceptance: 2 Inf(0) | Fin(1)",
    );
    let p = parse(&parity).unwrap();
    assert_eq!(p.acc_name().as_deref(), Some("parity min even 2"));
    assert!(p.require_gba("x").is_err());
    let alt = GFA_TRANS.replace("[0] 0 {0}", "[0] 0&0 {0}");
    assert!(unsupported(&alt).contains("universal"));
    let neg = GFA_TRANS.replace("Acceptance: 1 Inf(0)", "Acceptance: 1 Inf(!0)");
    assert!(unsupported(&neg).contains("complemented"));
}

#[test]
fn errors_are_located() {
    let bad = GFA_TRANS.replace("[!0] 0", "[!0] 7");
    let Err(OmegaError::Syntax(d)) = parse(&bad) else {
        panic!("expected a syntax error")
    };
    let at = d.span.unwrap().start;
    assert_eq!(&bad[at..at + 1], "7");
    let bad = GFA_TRANS.replace("[!0] 0", "[!3] 0");
    assert!(matches!(parse(&bad), Err(OmegaError::Syntax(_))));
    let bad = GFA_TRANS.replace("--END--", "");
    assert!(parse(&bad).is_err());
}

#[test]
fn round_trip_of_translations() {
    let formulas = [
        "G(p0 -> F p1)",
        "GFa & GFb",
        "a U (b R c)",
        "F(a & X(b W c))",
        "!(Ga M Fb)",
        "(a <-> Xb) xor GFc",
        "G(a -> X(b U c))",
        "true",
        "false",
        "FG(a | \"x y\")",
    ];
    for f in formulas {
        for sba in [false, true] {
            let mut arena = Arena::new();
            let phi = verikit_omega::parse_ltl(f, &mut arena).unwrap();
            let a = translate(
                &mut arena,
                phi,
                &Options {
                    sba,
                    ..Options::default()
                },
            )
            .unwrap();
            let text = to_hoa(&a);
            let b = parse(&text).unwrap_or_else(|e| panic!("{f}: {e}\n{text}"));
            assert!(
                isomorphic(&a, &b),
                "{f}: round trip changed the automaton\n{text}"
            );
            assert_eq!(to_hoa(&b), text);
        }
    }
}

#[test]
fn parser_is_total() {
    verikit_testkit::assert_parser_total(
        &[
            GFA_TRANS,
            GFA_STATE,
            ALIASES_GEN,
            IMPLICIT,
            STATE_LABELS,
            GFA_GFB,
        ],
        3000,
        parse,
    );
    let stream = format!("{GFA_TRANS}{GFA_STATE}{IMPLICIT}");
    verikit_testkit::assert_parser_total(&[&stream], 2000, |s| {
        let v = verikit_omega::parse_hoa_stream(s);
        v.into_iter().collect::<Result<Vec<_>, _>>()
    });
}

/// Issue 18 item 8: `States: 0` is an automaton with no state, written back as `States: 0`.
#[test]
fn zero_states_read_and_written_as_zero() {
    let text = "HOA: v1\nStates: 0\nAP: 1 \"a\"\nAcceptance: 0 t\n--BODY--\n--END--\n";
    let a = parse(text).unwrap();
    assert_eq!(a.num_states(), 0);
    assert!(a.init.is_empty());
    let out = to_hoa(&a);
    assert!(
        out.contains("States: 0\n") && !out.contains("Start:"),
        "{out}"
    );
    let b = parse(&out).unwrap();
    assert_eq!(b.num_states(), 0);
    assert!(accepting_lasso(&b).is_none());
    assert!(!b.is_complete());
    // A start state out of range of `States: 0` is an error, not a new state.
    let bad = "HOA: v1\nStates: 0\nStart: 0\nAcceptance: 0 t\n--BODY--\n--END--\n";
    assert!(parse(bad).is_err());
}

/// Issue 18 item 9: every automaton of a stream is read; a bad one in the middle (a parse error
/// or a lexical error) is reported in its slot, located, and the ones after it are still read.
#[test]
fn streams_keep_going_after_a_bad_automaton() {
    use verikit_omega::parse_hoa_stream as parse_stream;
    let bad_body = GFA_TRANS.replace("[!0] 0", "[!0] 7");
    let bad_lex = GFA_TRANS.replace("[!0] 0", "[!0] 0 #");
    for bad in [bad_body, bad_lex] {
        let text = format!("{GFA_TRANS}{bad}{GFA_STATE}");
        let r = parse_stream(&text);
        assert_eq!(r.len(), 3, "{text}");
        assert_eq!(r[0].as_ref().unwrap().num_states(), 1);
        let at = match &r[1] {
            Err(OmegaError::Syntax(d)) => d.span.map(|s| s.start).unwrap(),
            other => panic!("expected a located error, got {other:?}"),
        };
        assert!(
            at > GFA_TRANS.len() && at < GFA_TRANS.len() + GFA_TRANS.len(),
            "{at}"
        );
        assert_eq!(r[2].as_ref().unwrap().num_states(), 2);
        assert!(parse_all(&text).is_err());
    }
    // An automaton cut before its `--END--` ends where the next `HOA:` starts.
    let cut = GFA_TRANS.replace("--END--\n", "");
    let r = parse_stream(&format!("{cut}{GFA_STATE}"));
    assert_eq!(r.len(), 2);
    assert!(r[0].is_err() && r[1].is_ok());
    assert!(parse_stream("  /* nothing */ \n").is_empty());
}
