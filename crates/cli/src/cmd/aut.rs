//! `verikit aut`: ω-automata in HOA v1 (generalized Büchi) — statistics, printing (HOA, DOT),
//! simplification and degeneralisation, product, emptiness with an accepting lasso, membership of
//! lasso words, language inclusion with a counterexample word, complementation of small automata, simulation-based minimisation (`reduce`).

use crate::report::{read_input, CliError, Ctx, Report};
use clap::Subcommand;
use serde_json::json;
use std::path::{Path, PathBuf};
use std::time::Instant;
use verikit_diag::SourceFile;
use verikit_omega::{dot, emptiness, gba_reduce, hoa, postproc, ramsey_inclusion, Twa};

#[derive(Subcommand, Debug)]
pub enum AutCmd {
    /// States, edges, acceptance sets and properties of an automaton.
    Stats {
        /// The automaton (HOA; `-` for standard input).
        a: PathBuf,
    },
    /// Print the automaton back (HOA, or DOT with --dot).
    Print {
        a: PathBuf,
        #[arg(long)]
        dot: bool,
    },
    /// Remove useless states, clean acceptance, merge bisimilar states; `--sba` degeneralises to
    /// a state-based Büchi automaton.
    Simplify {
        a: PathBuf,
        #[arg(long, short = 'B')]
        sba: bool,
        #[arg(long)]
        dot: bool,
    },
    /// Synchronous product (intersection of the languages).
    Product {
        a: PathBuf,
        b: PathBuf,
        #[arg(long)]
        dot: bool,
    },
    /// Is the language empty? A "nonempty" answer prints an accepting lasso `prefix; cycle{…}`.
    IsEmpty { a: PathBuf },
    /// Does the automaton accept the lasso word (Spot syntax, e.g. `a; !a & b; cycle{b}`)?
    Accepts { a: PathBuf, word: String },
    /// Simulation-based minimisation (Juvekar–Piterman CAV'06): quotient by direct or delayed
    /// simulation, checked fair-simulation merges and little-brother edge removals.
    Reduce {
        a: PathBuf,
        /// direct | delayed | fair | fair+delayed
        #[arg(long, default_value = "fair+delayed")]
        sim: String,
        /// Print before/after sizes and time instead of the automaton.
        #[arg(long)]
        stats: bool,
        #[arg(long)]
        dot: bool,
    },
    /// Language inclusion L(A) ⊆ L(B) (Ramsey-based with subsumption, no complementation); a
    /// "not-included" answer prints a lasso word accepted by A and rejected by B.
    Included {
        a: PathBuf,
        b: PathBuf,
        /// Give up (verdict "unknown", exit 3) after this many prefix and loop elements.
        #[arg(long, default_value_t = 2_000_000)]
        max_elements: usize,
    },
    /// Complement (rank-based, small automata only).
    Complement {
        a: PathBuf,
        #[arg(long)]
        dot: bool,
    },
}

fn load(path: &Path) -> Result<(Twa, SourceFile), CliError> {
    let src = read_input(path)?;
    let aut = hoa::parse(&src.text).map_err(|e| CliError::from_error(e, Some(&src)))?;
    Ok((aut, src))
}

fn stats_json(a: &Twa) -> serde_json::Value {
    json!({
        "states": a.num_states(),
        "edges": a.num_edges(),
        "acc_sets": a.num_sets,
        "aps": a.aps,
        "initial_states": a.init.len(),
        "deterministic": a.is_deterministic(),
        "complete": a.is_complete(),
        "state_based": a.state_based,
    })
}

fn output(a: &Twa, as_dot: bool, r: Report) -> Report {
    let text = if as_dot {
        dot::to_dot(a)
    } else {
        hoa::to_hoa(a)
    };
    let mut r = r.field("hoa", hoa::to_hoa(a)).field("stats", stats_json(a));
    r.text.push_str(&text);
    r
}

pub fn run(cmd: AutCmd, _ctx: &Ctx) -> Result<Report, CliError> {
    let t0 = Instant::now();
    let lim = |e: verikit_omega::OmegaError| CliError::from_error(e, None);
    match cmd {
        AutCmd::Stats { a } => {
            let (aut, _) = load(&a)?;
            let s = stats_json(&aut);
            let mut r = Report::new()
                .field("stats", &s)
                .field("time_s", t0.elapsed().as_secs_f64());
            r = r.line(format!(
                "states: {}\nedges: {}\nacceptance sets: {}\natomic propositions: {}\ninitial states: {}\ndeterministic: {}\ncomplete: {}\nstate-based: {}",
                aut.num_states(),
                aut.num_edges(),
                aut.num_sets,
                aut.aps.len(),
                aut.init.len(),
                aut.is_deterministic(),
                aut.is_complete(),
                aut.state_based
            ));
            Ok(r)
        }
        AutCmd::Print { a, dot } => {
            let (aut, _) = load(&a)?;
            Ok(output(
                &aut,
                dot,
                Report::new().field("time_s", t0.elapsed().as_secs_f64()),
            ))
        }
        AutCmd::Simplify { a, sba, dot } => {
            let (aut, _) = load(&a)?;
            let mut s = postproc::simplify(&aut);
            if sba {
                s = postproc::to_sba(&s, &verikit_diag::Budget::unlimited());
            }
            Ok(output(
                &s,
                dot,
                Report::new().field("time_s", t0.elapsed().as_secs_f64()),
            ))
        }
        AutCmd::Product { a, b, dot } => {
            let (x, _) = load(&a)?;
            let (y, _) = load(&b)?;
            let p = verikit_omega::product::product(&x, &y).map_err(lim)?;
            Ok(output(
                &p,
                dot,
                Report::new().field("time_s", t0.elapsed().as_secs_f64()),
            ))
        }
        AutCmd::IsEmpty { a } => {
            let (aut, _) = load(&a)?;
            let run = emptiness::accepting_lasso(&aut);
            let dt = t0.elapsed().as_secs_f64();
            Ok(match run {
                None => Report::with_verdict("empty")
                    .field("time_s", dt)
                    .line("empty: the automaton accepts no word")
                    .line(format!("time: {dt:.6} s")),
                Some(l) => {
                    let w = l.word_text(&aut);
                    let (ps, cs) = l.states_text();
                    Report::with_verdict("nonempty")
                        .field("witness", &w)
                        .field("prefix_states", &ps)
                        .field("cycle_states", &cs)
                        .field("time_s", dt)
                        .line("nonempty: the automaton accepts a word")
                        .line(format!("accepted word: {w}"))
                        .line(format!("run: prefix states {ps:?}, cycle states {cs:?}"))
                        .line(format!("time: {dt:.6} s"))
                }
            })
        }
        AutCmd::Accepts { a, word } => {
            let (aut, _) = load(&a)?;
            let wsrc = SourceFile::new("<word>", word.clone());
            let w = verikit_omega::word::parse_word(&word)
                .map_err(|e| CliError::from_error(e, Some(&wsrc)))?;
            let ok = verikit_omega::accepts::accepts(&aut, &w).map_err(lim)?;
            let dt = t0.elapsed().as_secs_f64();
            let v = if ok { "accepted" } else { "rejected" };
            Ok(Report::with_verdict(v)
                .field("word", w.to_text())
                .field("time_s", dt)
                .line(format!("{v}: {}", w.to_text()))
                .line(format!("time: {dt:.6} s")))
        }
        AutCmd::Reduce { a, sim, stats, dot } => {
            let method = parse_method(&sim)?;
            let (aut, _) = load(&a)?;
            let (red, st) = gba_reduce::reduce(&aut, method, &verikit_diag::Budget::unlimited());
            let dt = t0.elapsed().as_secs_f64();
            let mut r = Report::with_verdict("reduced")
                .field("method", method.name())
                .field("reduction", &st)
                .field("time_s", dt);
            if stats {
                r = r.field("hoa", hoa::to_hoa(&red));
                r.text = reduce_stats_text(method, &st);
                Ok(r)
            } else {
                Ok(output(&red, dot, r))
            }
        }
        AutCmd::Included { a, b, max_elements } => {
            let (x, _) = load(&a)?;
            let (y, _) = load(&b)?;
            let limits = ramsey_inclusion::Limits {
                max_elements,
                ..ramsey_inclusion::Limits::default()
            };
            let (r, st) =
                ramsey_inclusion::included(&x, &y, &limits, &verikit_diag::Budget::unlimited());
            let dt = t0.elapsed().as_secs_f64();
            let stats = json!({"letters": st.letters, "prefixes": st.prefixes, "loops": st.loops});
            match r {
                ramsey_inclusion::Inclusion::Included => Ok(Report::with_verdict("included")
                    .field("stats", stats)
                    .field("time_s", dt)
                    .line("included: every word accepted by A is accepted by B")
                    .line(format!("time: {dt:.6} s"))),
                ramsey_inclusion::Inclusion::NotIncluded(w) => {
                    let both = Twa::new(verikit_omega::product::ap_union(&x.aps, &y.aps));
                    let text = emptiness::word_text(&both, &w);
                    Ok(Report::with_verdict("not-included")
                        .field("witness", &text)
                        .field("stats", stats)
                        .field("time_s", dt)
                        .line("not-included: A accepts a word that B rejects")
                        .line(format!("word accepted by A, rejected by B: {text}"))
                        .line(format!("time: {dt:.6} s")))
                }
                ramsey_inclusion::Inclusion::Unknown => Err(CliError::from_error(
                    verikit_omega::OmegaError::Limit(format!(
                        "inclusion undecided within {max_elements} elements (--max-elements)"
                    )),
                    None,
                )),
            }
        }
        AutCmd::Complement { a, dot } => {
            let (aut, _) = load(&a)?;
            let c = verikit_omega::complement::complement(&aut).map_err(lim)?;
            Ok(output(
                &c,
                dot,
                Report::new().field("time_s", t0.elapsed().as_secs_f64()),
            ))
        }
    }
}

/// Parses a `--sim` / `--reduce` method name.
pub fn parse_method(s: &str) -> Result<gba_reduce::Method, CliError> {
    gba_reduce::Method::parse(s).ok_or_else(|| {
        CliError::Usage(format!(
            "unknown simulation `{s}` (expected direct, delayed, fair or fair+delayed)"
        ))
    })
}

/// The `--stats` table: the paper's columns before and after.
pub fn reduce_stats_text(method: gba_reduce::Method, st: &gba_reduce::ReduceStats) -> String {
    let row = |name: &str, s: &gba_reduce::Sizes| {
        format!(
            "{name:<8} {:>7} {:>7} {:>5} {:>10} {:>5}\n",
            s.states, s.transitions, s.acc_sets, s.accepting_states, s.initial
        )
    };
    let mut t = format!(
        "reduced ({}{})\n{:<8} {:>7} {:>7} {:>5} {:>10} {:>5}\n",
        method.name(),
        if st.applied {
            ""
        } else {
            "; a game exceeded the size budget, not fully reduced"
        },
        "",
        "states",
        "trans",
        "fair",
        "acc-states",
        "init"
    );
    t.push_str(&row("before", &st.before));
    t.push_str(&row("after", &st.after));
    t.push_str(&format!(
        "merges kept {}/{}, edge removals kept {}/{}, delayed merges {}\npasses {}, rank lifts {}, candidates over the work budget {}\ntime: {:.6} s\n",
        st.merges_kept,
        st.merges_tried,
        st.removals_kept,
        st.removals_tried,
        st.delayed_classes_merged,
        st.passes,
        st.lifts,
        st.over_budget,
        st.time_s
    ));
    t
}

pub fn demo(_ctx: &Ctx) -> Result<Vec<(String, Report)>, CliError> {
    // Model checking by automata: system ⊗ A(¬spec) is empty iff the system satisfies spec.
    let sys_text = include_str!("../../demo/omega/arbiter.hoa");
    let spec = include_str!("../../demo/omega/response.ltl").trim();
    let t0 = Instant::now();
    let sys_src = SourceFile::new("demo/omega/arbiter.hoa", sys_text);
    let sys = hoa::parse(sys_text).map_err(|e| CliError::from_error(e, Some(&sys_src)))?;
    let mut arena = verikit_omega::ltl::Arena::new();
    let phi = verikit_omega::ltl::parse::parse(spec, &mut arena)
        .map_err(|d| CliError::from_error(verikit_omega::OmegaError::syntax(d), None))?;
    let neg = arena.not(phi);
    let aneg = verikit_omega::translate::translate(&mut arena, neg, &Default::default())
        .map_err(|e| CliError::from_error(e, None))?;
    let p =
        verikit_omega::product::product(&sys, &aneg).map_err(|e| CliError::from_error(e, None))?;
    let run = emptiness::accepting_lasso(&p);
    let dt = t0.elapsed().as_secs_f64();
    let title = format!("does the arbiter (demo/omega/arbiter.hoa) satisfy {spec}?");
    let r = match run {
        None => Report::with_verdict("holds")
            .field("time_s", dt)
            .line(format!("holds: every run of the arbiter satisfies {spec}"))
            .line(format!("time: {dt:.6} s")),
        Some(l) => {
            let w = l.word_text(&p);
            Report::with_verdict("violated")
                .field("counterexample", &w)
                .field("product_states", p.num_states())
                .field("time_s", dt)
                .line(format!("violated: the arbiter has a run violating {spec}"))
                .line(format!("counterexample (lasso): {w}"))
                .line(format!(
                    "(arbiter ⊗ A(¬spec): {} states; A(¬spec) has {} states)",
                    p.num_states(),
                    aneg.num_states()
                ))
                .line(format!("time: {dt:.6} s"))
        }
    };
    // Simulation-based minimisation (CAV'06 Juvekar–Piterman) of an unreduced tableau.
    let f = "a U (b U (c U a))";
    let mut arena2 = verikit_omega::ltl::Arena::new();
    let phi2 = verikit_omega::ltl::parse::parse(f, &mut arena2)
        .map_err(|d| CliError::from_error(verikit_omega::OmegaError::syntax(d), None))?;
    let opts = verikit_omega::translate::Options {
        postprocess: false,
        simplify_formula: false,
        wdba: false,
        ..Default::default()
    };
    let raw = verikit_omega::translate::translate(&mut arena2, phi2, &opts)
        .map_err(|e| CliError::from_error(e, None))?;
    let (_, st) = gba_reduce::reduce(
        &raw,
        gba_reduce::Method::FairDelayed,
        &verikit_diag::Budget::unlimited(),
    );
    let mut r2 = Report::with_verdict("reduced")
        .field("reduction", &st)
        .field("time_s", st.time_s);
    r2.text = reduce_stats_text(gba_reduce::Method::FairDelayed, &st);
    Ok(vec![
        (title, r),
        (
            format!("aut reduce --sim fair+delayed (raw tableau of {f})"),
            r2,
        ),
    ])
}
