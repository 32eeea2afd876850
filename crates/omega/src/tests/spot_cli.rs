//! Spot's command line in the library (issue 19): `-F FILE/COL` CSV columns (total parser,
//! offsets pointing into the file), `--stats=FORMAT` directives, and `-S` state-based acceptance
//! keeping the language (checked by membership of random lasso words against the direct LTL
//! evaluator, an independent oracle, and by inclusion both ways).

#[allow(dead_code)] // each test binary uses part of the shared helpers
use super::common;

use crate::ltl::{eval::Lasso, parse::parse, Arena};
use crate::ramsey_inclusion::{included, Inclusion, Limits};
use crate::{sbacc, spot_stats, task, translate, Twa};
use rand::{rngs::SmallRng, Rng, SeedableRng};
use verikit_diag::Budget;

#[test]
fn csv_columns_as_spot_reads_them() {
    let text = "name,formula\nx,\"G(a -> F b)\"\ny, a U b\n\nz,\"say \"\"hi\"\"\",3\n";
    let col = task::csv_column(text, -2).unwrap();
    let got: Vec<&str> = col.iter().map(|(_, s)| s.as_str()).collect();
    assert_eq!(got, ["G(a -> F b)", " a U b", "say \"hi\""]);
    // Offsets point at the field's text in the file (inside the quotes).
    for (off, s) in &col[..2] {
        assert!(text[*off..].starts_with(s.as_str()), "{off} {s}");
    }
    let col = task::csv_column(text, 1).unwrap();
    assert_eq!(col.len(), 4);
    assert!(task::csv_column("a,\"b\n", 2).is_err());
    assert!(task::csv_column("a,\"b\"c\n", 2).is_err());
    let e = task::csv_column("a,b\nc\n", 2).unwrap_err();
    assert!(e.to_string().contains("column 2"));
    verikit_testkit::assert_parser_total(
        &["a,b,c\n\"x\",\"y\"\"z\"\n", "1,2\n,,\n\"\n"],
        2000,
        |s| task::csv_column(s, 2),
    );
}

#[test]
fn file_specs_split_like_spot() {
    let none = |_: &str| false;
    assert_eq!(
        task::split_file_spec("f.csv/2", none),
        ("f.csv".into(), Some(2))
    );
    assert_eq!(
        task::split_file_spec("d/f.csv/-1", none),
        ("d/f.csv".into(), Some(-1))
    );
    assert_eq!(task::split_file_spec("f.ltl", none), ("f.ltl".into(), None));
    assert_eq!(task::split_file_spec("f/0", none), ("f/0".into(), None));
    // An existing path is read as it is.
    assert_eq!(task::split_file_spec("f/2", |_| true), ("f/2".into(), None));
}

#[test]
fn stats_directives() {
    assert!(
        spot_stats::validate("%s %e %t %a %d %n %c %p %g %f %F %L %m %h %w %x %X %r %R %%").is_ok()
    );
    for bad in ["%q", "%[r]e", "50%"] {
        assert!(spot_stats::validate(bad).is_err(), "{bad}");
    }
    let mut a = Arena::new();
    let f = parse("GFa & GFb", &mut a).unwrap();
    let aut = translate::translate(&mut a, f, &translate::Options::default()).unwrap();
    let ctx = spot_stats::Context {
        formula: "GFa & GFb",
        ..Default::default()
    };
    let line = spot_stats::render("%s/%e/%t/%a/%d/%x/%X/%% %f", &aut, &ctx);
    let t = spot_stats::transitions(&aut);
    assert_eq!(
        line,
        format!(
            "{}/{}/{t}/{}/{}/2/a,b/% GFa & GFb",
            aut.num_states(),
            aut.num_edges(),
            aut.num_sets,
            u8::from(aut.is_deterministic())
        )
    );
    // One state, complete, every letter once: 4 transitions over two propositions.
    assert_eq!(aut.num_states(), 1);
    assert_eq!(t, 4.0);
    let w = spot_stats::render("%w", &aut, &ctx);
    assert!(w.contains("cycle{"), "{w}");
}

fn random_lasso(rng: &mut SmallRng, naps: usize) -> Lasso {
    let letter = |rng: &mut SmallRng| rng.gen_range(0..1u64 << naps);
    let p = rng.gen_range(0..3);
    let c = rng.gen_range(1..4);
    Lasso {
        prefix: (0..p).map(|_| letter(rng)).collect(),
        cycle: (0..c).map(|_| letter(rng)).collect(),
    }
}

/// `-S` on random formulas: the state-based automaton is state-based, accepts exactly the
/// random lasso words the formula's direct evaluation accepts, and has the language of the TGBA
/// (inclusion both ways).
#[test]
fn state_based_acceptance_keeps_the_language() {
    let mut rng = SmallRng::seed_from_u64(19);
    let aps: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
    let mut gen = crate::RandLtl::new(aps, 7, Default::default());
    let mut checked = 0;
    for _ in 0..60 {
        let mut arena = Arena::new();
        for n in ["a", "b", "c"] {
            arena.ap(n);
        }
        let f = gen.formula_in(&mut arena, 4, 14);
        let Ok(tgba) = translate::translate(&mut arena, f, &translate::Options::default()) else {
            continue;
        };
        let s: Twa = sbacc::state_based(&tgba);
        assert!(s.state_based && s.compute_state_based());
        for (x, y) in [(&s, &tgba), (&tgba, &s)] {
            let (r, _) = included(x, y, &Limits::default(), &Budget::unlimited());
            assert!(
                matches!(r, Inclusion::Included),
                "{}",
                crate::ltl_to_string(&arena, f)
            );
        }
        for _ in 0..20 {
            let w = random_lasso(&mut rng, 3);
            let want = crate::holds(&arena, f, &w);
            let wa = common::conv(&arena, &s, &w, true);
            assert_eq!(crate::accepts_lasso(&s, &wa), want);
        }
        checked += 1;
    }
    assert!(checked > 40);
}

/// Spot keeps the command line's order of `-f` and `-F` inputs (positional formulas too).
#[test]
fn formula_inputs_keep_the_command_line_order() {
    use crate::task::{formula_items, FormulaInput as I};
    let read = |p: &str| Ok::<_, String>(verikit_diag::SourceFile::new(p, "x\n# comment\ny\n"));
    let inputs = [
        I::Formula("a".into()),
        I::File("no-such-file.ltl".into()),
        I::Formula("b".into()),
    ];
    let items = formula_items(&inputs, read, |e, _| e.to_string(), |m| m).unwrap();
    let texts: Vec<&str> = items.iter().map(|i| i.text.as_str()).collect();
    assert_eq!(texts, ["a", "x", "y", "b"]);
    assert_eq!((items[1].line, items[2].line), (1, 3));
    assert!(formula_items(&[], read, |e, _| e.to_string(), |m| m).is_err());
}

/// `--any` skips the automaton simplifications (the language stays, only the size may grow);
/// `-M` with `-P` is refused; `-M` drops `-B`.
#[test]
fn preference_and_monitor_flags() {
    use crate::task::{translate_job, TranslateFlags};
    let params = verikit_diag::Params::default();
    let any = translate_job(
        TranslateFlags {
            any: true,
            ..TranslateFlags::default()
        },
        &params,
    )
    .unwrap();
    assert!(!any.options.postprocess && !any.options.redirect_merges && any.any);
    let small = translate_job(TranslateFlags::default(), &params).unwrap();
    assert!(small.options.postprocess && !small.any);
    for f in ["GFa & GFb", "a U (b U c)", "G(a -> F b)"] {
        let b = Budget::unlimited();
        let (x, _) = crate::task::translate_formula(f, 0, &any, &b).unwrap();
        let (y, _) = crate::task::translate_formula(f, 0, &small, &b).unwrap();
        assert!(y.num_states() <= x.num_states(), "{f}");
        let lim = Limits::default();
        assert!(
            matches!(included(&x, &y, &lim, &b).0, Inclusion::Included),
            "{f}"
        );
        assert!(
            matches!(included(&y, &x, &lim, &b).0, Inclusion::Included),
            "{f}"
        );
    }
    let det = crate::task::det_flags(true, Some(None), false, false);
    let mp = TranslateFlags {
        monitor: true,
        det,
        ..TranslateFlags::default()
    };
    assert!(translate_job(mp, &params).is_err());
    let mb = TranslateFlags {
        monitor: true,
        sba: true,
        ..TranslateFlags::default()
    };
    assert!(!translate_job(mb, &params).unwrap().options.sba);
}
