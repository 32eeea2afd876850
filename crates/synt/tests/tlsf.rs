//! The TLSF reader on the shared SYNTCOMP specifications (every one expands, and the formula it
//! prints is read back by the omega kernel with exactly the declared signals), on hand-written
//! specifications whose expansion is known, and on garbage (`assert_parser_total`).

use verikit_diag::Budget;
use verikit_synt::{parse_tlsf, Semantics};

fn spec_files() -> Vec<std::path::PathBuf> {
    let Some(dir) = verikit_testkit::shared_path("synt/tlsf") else {
        eprintln!("skipping: ../shared/data/synt is missing");
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut stack = vec![dir];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "tlsf") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn every_shared_spec_expands() {
    let files = spec_files();
    let mut failures = Vec::new();
    let mut unsupported = Vec::new();
    for p in &files {
        let text = std::fs::read_to_string(p).unwrap();
        match parse_tlsf(&text, &Budget::unlimited()) {
            Ok(spec) => {
                let mut arena = verikit_omega::Arena::new();
                if let Err(e) = verikit_omega::task::parse_formula(&spec.formula, 0, &mut arena) {
                    failures.push(format!(
                        "{}: omega cannot read the formula: {e}",
                        p.display()
                    ));
                    continue;
                }
                let declared: std::collections::BTreeSet<&str> = spec
                    .inputs
                    .iter()
                    .chain(&spec.outputs)
                    .map(|s| s.as_str())
                    .collect();
                for ap in arena.aps() {
                    if !declared.contains(ap.as_str()) {
                        failures.push(format!("{}: undeclared proposition {ap}", p.display()));
                    }
                }
            }
            Err(verikit_synt::SyntError::Unsupported(d)) => {
                unsupported.push(format!("{}: {}", p.display(), d.message))
            }
            Err(e) => failures.push(format!("{}: {e}", p.display())),
        }
    }
    eprintln!("{} files, unsupported: {unsupported:#?}", files.len());
    assert!(failures.is_empty(), "{failures:#?}");
    // Nothing is refused (the enumeration types of amba_case_study are encoded as bits).
    assert!(unsupported.is_empty(), "{unsupported:#?}");
}

const ARBITER: &str = r#"
INFO {
  TITLE: "arbiter"
  DESCRIPTION: "test"
  SEMANTICS: Mealy
  TARGET: Mealy
}
GLOBAL {
  PARAMETERS { n = 3; }
  DEFINITIONS {
    none(bus,i,j) = &&[i <= t <= j] !bus[t];
    mone(bus,i,j) =
      i > j : false
      i == j : true
      i < j : (none(bus, i, m(i,j)) && mone(bus, m(i,j) + 1, j)) ||
              (mone(bus, i, m(i,j)) && none(bus, m(i,j) + 1, j));
    m(i,j) = (i + j) / 2;
    k = n - 1;
  }
}
MAIN {
  INPUTS { r[n]; }
  OUTPUTS { g[n] }
  ASSUME { G F r[k]; }
  ASSERT { mone(g, 0, SIZEOF g - 1); }
  GUARANTEES { &&[0 <= i < n] G (r[i] -> F g[i]); X[2] g[0]; G[1:2] r[1]; }
}
"#;

#[test]
fn parametric_expansion() {
    let s = parse_tlsf(ARBITER, &Budget::unlimited()).unwrap();
    assert_eq!(s.inputs, ["r_0", "r_1", "r_2"]);
    assert_eq!(s.outputs, ["g_0", "g_1", "g_2"]);
    assert_eq!(s.semantics, Semantics::Mealy);
    let f = &s.formula;
    assert!(f.starts_with("(G F r_2 -> "), "{f}");
    for part in [
        "G(r_0 -> F g_0)",
        "G(r_2 -> F g_2)",
        "X X g_0",
        "(r_1 & X r_1)",
        "!g_0",
    ] {
        assert!(f.replace("( ", "(").contains(part), "{part} missing in {f}");
    }
    assert_eq!(s.components.len(), 4);
}

#[test]
fn sections_combine_as_syfco() {
    let spec = |sem: &str, body: &str| {
        format!("INFO {{ SEMANTICS: {sem} TARGET: Mealy }} MAIN {{ INPUTS {{ a; }} OUTPUTS {{ b; }} {body} }}")
    };
    let f = |sem: &str, body: &str| parse_tlsf(&spec(sem, body), &Budget::unlimited()).unwrap();
    let s = f(
        "Mealy",
        "INITIALLY { a; } PRESET { b; } REQUIRE { !a; } ASSUME { F a; } ASSERT { a -> b; } GUARANTEE { F b; }",
    );
    assert_eq!(
        s.formula,
        "(a -> (b & ((G !a & F a) -> (G(a -> b) & F b))))"
    );
    let s = f(
        "Mealy,Strict",
        "REQUIRE { !a; } ASSERT { b; } GUARANTEE { F b; }",
    );
    assert!(s.strict);
    assert_eq!(s.formula, "((b W a) & (G !a -> F b))");
    let s = f("Moore", "GUARANTEE { G (a <-> X b); }");
    assert_eq!(s.semantics, Semantics::Moore);
    assert_eq!(s.formula, "G(a <-> X b)");
    // Precedence as syfco: temporal binary operators bind weaker than Boolean ones, `!` weaker
    // than `==` (`!(a == 1)` is `!false`).
    let s = f("Mealy", "GUARANTEE { a && b U b || a; !a == 1 -> b; }");
    assert_eq!(s.formula, "(((a & b) U (b | a)) & b)");
}

/// `enum` types (TLSF 1.1 §3; amba_case_study's `hburst`): a signal of an enum type is a bus of
/// the patterns' width, character `i` of a pattern its bit `i` (`*` either value); `x == V` is
/// the pattern's conjunction, and a signal only takes the listed values — an assumption for an
/// input, an invariant for an output (none when the patterns cover every valuation).
#[test]
fn enumerations_encode_as_bits() {
    let text = "INFO { SEMANTICS: Mealy TARGET: Mealy } \
        GLOBAL { DEFINITIONS { enum burst = SINGLE: 01 INCR: 00 BURST4: 10; \
                               enum two = ON: 1* OFF: 0*; } } \
        MAIN { INPUTS { burst hb; } OUTPUTS { two o; g; } \
               GUARANTEE { G (hb == INCR -> g); G (hb == BURST4 <-> o == ON); } }";
    let s = parse_tlsf(text, &Budget::unlimited()).unwrap();
    assert_eq!(s.inputs, ["hb_0", "hb_1"]);
    assert_eq!(s.outputs, ["o_0", "o_1", "g"]);
    assert_eq!(
        s.formula,
        "(G((!hb_0 & hb_1) | (!hb_0 & !hb_1) | (hb_0 & !hb_1)) -> \
         (G((!hb_0 & !hb_1) -> g) & G((hb_0 & !hb_1) <-> o_0)))"
    );
    // Leading zeros and `*` are kept; an output enum that misses valuations gets an invariant.
    let text = "GLOBAL { DEFINITIONS { enum e = A: 001 B: *10; } } \
        MAIN { INPUTS { i; } OUTPUTS { e x; } GUARANTEE { F (x == A); } }";
    let s = parse_tlsf(text, &Budget::unlimited()).unwrap();
    assert_eq!(s.outputs, ["x_0", "x_1", "x_2"]);
    assert_eq!(
        s.formula,
        "(G((!x_0 & !x_1 & x_2) | (x_1 & !x_2)) & F(!x_0 & !x_1 & x_2))"
    );
}

#[test]
fn errors_are_located_and_named() {
    let bad = [
        (
            "MAIN { INPUTS { a; } OUTPUTS { b; } GUARANTEE { G (a -> c); } }",
            "undefined name `c`",
        ),
        (
            "MAIN { INPUTS { a[2]; } OUTPUTS { b; } GUARANTEE { a[2]; } }",
            "out of the bounds",
        ),
        (
            "MAIN { INPUTS { a; } OUTPUTS { b; } GUARANTEE { Y a; } }",
            "past-time operator `Y`",
        ),
        (
            "GLOBAL { DEFINITIONS { enum e = a: 01 b: 1; } } MAIN { }",
            "value `b` has 1 bits, the first value 2",
        ),
        (
            "GLOBAL { DEFINITIONS { enum e = a: 02; } } MAIN { }",
            "a pattern has only 0, 1 and *",
        ),
        (
            "MAIN { INPUTS { t x; } OUTPUTS { b; } GUARANTEE { b; } }",
            "undefined enumeration type `t`",
        ),
        (
            "GLOBAL { DEFINITIONS { enum e = a: 0 b: 1; } } MAIN { INPUTS { e x[2]; } }",
            "a bus of enumeration type",
        ),
        (
            "GLOBAL { DEFINITIONS { enum e = a: 01 b: 10; } } \
             MAIN { INPUTS { e x; } OUTPUTS { y[3]; } GUARANTEE { x == a || y == b; } }",
            "bus `y` of size 3 compared with an enum value of 2 bits",
        ),
        ("INFO { SEMANTICS: Finite } MAIN { }", "`Finite`"),
        (
            "MAIN { INPUTS { a; } OUTPUTS { b; } GUARANTEE { (a && b; } }",
            "expected `)`",
        ),
        (
            "MAIN { INPUTS { a; } OUTPUTS { b; } FOO { a; } }",
            "unknown MAIN block `FOO`",
        ),
        (
            "GLOBAL { DEFINITIONS { f(x) = f(x); } } MAIN { GUARANTEE { f(1); } }",
            "nested too deeply",
        ),
    ];
    for (text, msg) in bad {
        let e = parse_tlsf(text, &Budget::unlimited()).expect_err(text);
        let d = verikit_diag::Reportable::diagnostic(&e);
        assert!(e.to_string().contains(msg), "{text}: {e}");
        assert!(d.and_then(|d| d.span).is_some(), "{text}: not located");
    }
}

#[test]
fn parser_is_total() {
    verikit_testkit::assert_parser_total(&[ARBITER], 300, |t| parse_tlsf(t, &Budget::unlimited()));
}
