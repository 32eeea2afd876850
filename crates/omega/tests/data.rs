//! Data-driven checks on the standard formula sets (`ltl/` in the shared benchmark data): every
//! formula translates, `A(f) ⊗ A(!f)` is empty, the automata agree with the LTL evaluator on
//! random lasso words, and the sizes are compared with the ones Spot 2.12.1 produces (reported,
//! not asserted: the bench records them).
//!
//! By default (CI) the formulas listed in `tests/ci-formulas.tsv` (`set`, `index` of the rows of
//! `spot-sizes.tsv` / `spot-sizes-random.tsv`: a fixed sample of every pattern set and of the
//! random formulas) are checked; with `VERIKIT_OMEGA_ALL=1` every row is. `bench/engines/ltl.py`
//! translates the full sets through the CLI.

#[allow(dead_code)] // each test binary uses part of the shared helpers
mod common;

use rand::{rngs::SmallRng, SeedableRng};
use verikit_omega::accepts_lasso;
use verikit_omega::Arena;
use verikit_omega::{holds, Lasso};
use verikit_omega::{translate, TranslateOptions as Options};

fn bits_for(arena: &Arena, aps: &[String], w: &Lasso) -> Lasso {
    let map: Vec<Option<u32>> = aps.iter().map(|n| arena.lookup_ap(n)).collect();
    let conv = |b: &u64| {
        map.iter().enumerate().fold(0u64, |o, (i, m)| match m {
            Some(j) if (b >> j) & 1 == 1 => o | (1 << i),
            _ => o,
        })
    };
    Lasso {
        prefix: w.prefix.iter().map(conv).collect(),
        cycle: w.cycle.iter().map(conv).collect(),
    }
}

/// Whether to check every formula instead of the CI list.
fn all() -> bool {
    std::env::var("VERIKIT_OMEGA_ALL").is_ok_and(|v| v == "1")
}

/// The CI list: `set` and `index` of a row of the formula tables.
const CI_FORMULAS: &str = include_str!("ci-formulas.tsv");

#[test]
fn spot_formula_sets() {
    let dir = verikit_testkit::require_data!("ltl");
    let ci: std::collections::HashSet<(&str, &str)> = CI_FORMULAS
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("set\t") && !l.trim().is_empty())
        .filter_map(|l| l.split_once('\t'))
        .collect();
    // (position in the full tables, formula, Spot's TGBA states, Spot's BA states)
    let mut rows = Vec::new();
    let mut total = 0;
    for f in ["spot-sizes.tsv", "spot-sizes-random.tsv"] {
        let text = std::fs::read_to_string(dir.join(f)).unwrap();
        for line in text.lines().skip(1) {
            let cols: Vec<&str> = line.split('\t').collect();
            let k = total;
            total += 1;
            if !all() && !ci.contains(&(cols[0], cols[1])) {
                continue;
            }
            rows.push((
                k,
                cols[2].to_string(),
                cols[3].parse::<usize>().unwrap(),
                cols[6].parse::<usize>().unwrap(),
            ));
        }
    }
    assert!(total > 600);
    if all() {
        assert_eq!(rows.len(), total);
    } else {
        assert_eq!(
            rows.len(),
            ci.len(),
            "rows of tests/ci-formulas.tsv not in the data"
        );
        assert!(rows.len() >= 100, "too small a CI list: {}", rows.len());
    }
    let mut rng = SmallRng::seed_from_u64(7);
    let (mut larger, mut ours, mut spot) = (0, 0, 0);
    for (k, f, spot_tgba, _spot_ba) in &rows {
        let t0 = std::time::Instant::now();
        let mut arena = Arena::new();
        let phi = verikit_omega::parse_ltl(f, &mut arena)
            .unwrap_or_else(|e| panic!("{f}: {}", e.message));
        let nphi = arena.not(phi);
        // The automaton kind follows the row's position in the full tables, so a formula is
        // checked the same way in the CI list and in the full set.
        let sba = k % 3 == 0;
        let opts = Options {
            sba,
            ..Options::default()
        };
        let a = translate(&mut arena, phi, &opts).unwrap();
        let n = translate(&mut arena, nphi, &opts).unwrap();
        let p = verikit_omega::product(&a, &n).unwrap();
        assert!(
            verikit_omega::is_empty(&p),
            "{f}: A(f) ⊗ A(!f) is not empty"
        );
        let nap = arena.aps().len().min(10);
        for _ in 0..6 {
            let w = common::random_lasso(&mut rng, 3, 1 << nap);
            let expect = holds(&arena, phi, &w);
            assert_eq!(
                accepts_lasso(&a, &bits_for(&arena, &a.aps, &w)),
                expect,
                "{f} on {w:?}"
            );
            assert_eq!(
                accepts_lasso(&n, &bits_for(&arena, &n.aps, &w)),
                !expect,
                "!({f}) on {w:?}"
            );
        }
        if !sba {
            ours += a.num_states();
            spot += spot_tgba;
            if a.num_states() > *spot_tgba {
                larger += 1;
            }
        }
        eprintln!("#{k}\t{:.3}\t{f}", t0.elapsed().as_secs_f64());
    }
    eprintln!(
        "{} formulas; TGBA states on the rows not checked as SBA: verikit {ours}, Spot {spot}; \
         larger than Spot: {larger}",
        rows.len()
    );
}
