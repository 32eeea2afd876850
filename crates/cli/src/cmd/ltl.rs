//! `verikit ltl`: LTL formulas in Spot's syntax — parse, simplify, translate to (generalized)
//! Büchi automata like `ltl2tgba`, evaluate on a lasso word, random formulas like `randltl`.

use crate::report::{read_input, CliError, Ctx, Report};
use clap::Subcommand;
use serde_json::json;
use std::path::PathBuf;
use std::time::Instant;
use verikit_diag::SourceFile;
use verikit_omega::ltl::{parse::parse, print::to_string, simplify::simplify, Arena, F};
use verikit_omega::translate::{translate, Options};
use verikit_omega::{hoa, OmegaError};

#[derive(Subcommand, Debug)]
pub enum LtlCmd {
    /// Parse formulas and print them back in Spot syntax.
    Parse {
        #[command(flatten)]
        src: FormulaSource,
    },
    /// Simplify formulas (NNF and Spot's basic rewritings).
    Simplify {
        #[command(flatten)]
        src: FormulaSource,
    },
    /// Translate to a transition-based generalized Büchi automaton (HOA v1 on stdout), like
    /// `ltl2tgba`; `--sba` gives a state-based Büchi automaton like `ltl2tgba -B`.
    Translate {
        #[command(flatten)]
        src: FormulaSource,
        /// State-based Büchi automaton (degeneralised).
        #[arg(long, short = 'B')]
        sba: bool,
        /// Print GraphViz DOT instead of HOA.
        #[arg(long, conflicts_with = "stats")]
        dot: bool,
        /// Print only statistics (states, edges, acceptance sets), one line per formula.
        #[arg(long)]
        stats: bool,
        /// Skip the formula simplifier.
        #[arg(long)]
        no_simplify: bool,
        /// Skip the automaton simplifications.
        #[arg(long)]
        no_postprocess: bool,
        /// Name each state by the formula it stands for.
        #[arg(long)]
        state_names: bool,
        /// Then minimise by simulation: direct | delayed | fair | fair+delayed.
        #[arg(long)]
        reduce: Option<String>,
        /// Skip the merges and redirects checked by language inclusion both ways (they run
        /// within counted work budgets; skipping them takes about a third of the CPU time and
        /// sometimes gives more states).
        #[arg(long)]
        no_redirect_merges: bool,
    },
    /// Does the lasso word satisfy the formula? (Direct evaluation, no automaton.)
    Check {
        /// The formula.
        formula: String,
        /// A lasso word in Spot's syntax, e.g. `a & !b; cycle{b; !a}` (letters must be valuations
        /// or formulas over the formula's propositions; each letter is resolved to one valuation).
        word: String,
    },
    /// Random formulas, like `randltl`.
    Rand {
        /// Atomic propositions: a number (p0, p1, …) or a comma-separated list of names.
        #[arg(long, default_value = "3")]
        ap: String,
        /// Tree size of each formula, `N` or `MIN..MAX`.
        #[arg(long, default_value = "15")]
        size: String,
        /// How many formulas.
        #[arg(long, short = 'n', default_value_t = 10)]
        count: usize,
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Operator weights, e.g. `U=3,xor=0,equiv=0` (names as in randltl's --ltl-priorities).
        #[arg(long, default_value = "")]
        weights: String,
        /// Simplify each formula before printing.
        #[arg(long)]
        simplify: bool,
    },
}

#[derive(clap::Args, Debug)]
pub struct FormulaSource {
    /// A formula (Spot syntax).
    #[arg(required_unless_present = "file")]
    formula: Option<String>,
    /// Read formulas from a file, one per line (`-` for standard input); blank lines and lines
    /// starting with `#` are skipped.
    #[arg(long, short = 'F', conflicts_with = "formula")]
    file: Option<PathBuf>,
}

/// The formulas to work on, each with the source it came from (for located errors).
fn formulas(src: &FormulaSource) -> Result<Vec<(SourceFile, usize, String)>, CliError> {
    if let Some(f) = &src.formula {
        return Ok(vec![(
            SourceFile::new("<formula>", f.clone()),
            0,
            f.clone(),
        )]);
    }
    let Some(path) = &src.file else {
        return Err(CliError::Usage("give a formula or --file".into()));
    };
    let file = read_input(path)?;
    let mut out = Vec::new();
    let mut off = 0;
    for line in file.text.split('\n') {
        let t = line.trim_end_matches('\r');
        if !t.trim().is_empty() && !t.trim_start().starts_with('#') {
            out.push((file.clone(), off, t.to_string()));
        }
        off += line.len() + 1;
    }
    Ok(out)
}

fn parse_at(arena: &mut Arena, file: &SourceFile, off: usize, text: &str) -> Result<F, CliError> {
    parse(text, arena).map_err(|mut d| {
        if let Some(sp) = d.span.as_mut() {
            sp.start += off;
            sp.end += off;
        }
        CliError::from_error(OmegaError::syntax(d), Some(file))
    })
}

pub fn run(cmd: LtlCmd, ctx: &Ctx) -> Result<Report, CliError> {
    let t0 = Instant::now();
    match cmd {
        LtlCmd::Parse { src } => print_formulas(&src, false, t0),
        LtlCmd::Simplify { src } => print_formulas(&src, true, t0),
        LtlCmd::Translate {
            src,
            sba,
            dot,
            stats,
            no_simplify,
            no_postprocess,
            state_names,
            reduce,
            no_redirect_merges,
        } => {
            let method = match &reduce {
                Some(m) => Some(super::aut::parse_method(m)?),
                None => None,
            };
            let opts = Options {
                simplify_formula: !no_simplify,
                postprocess: !no_postprocess,
                sba,
                redirect_merges: !no_redirect_merges,
                ..Options::default()
            };
            let mut text = String::new();
            let mut rows = Vec::new();
            let mut times = Vec::new();
            for (file, off, f) in formulas(&src)? {
                let mut arena = Arena::new();
                let phi = parse_at(&mut arena, &file, off, &f)?;
                let t = Instant::now();
                let mut aut = translate(&mut arena, phi, &opts)
                    .map_err(|e| CliError::from_error(e, Some(&file)))?;
                let mut red_stats = None;
                if let Some(m) = method {
                    let (r, st) = verikit_omega::gba_reduce::reduce(
                        &aut,
                        m,
                        &verikit_diag::Budget::unlimited(),
                    );
                    aut = r;
                    red_stats = Some(st);
                }
                let dt = t.elapsed().as_secs_f64();
                times.push(dt);
                aut.name = Some(to_string(&arena, phi));
                if !state_names {
                    aut.state_names.iter_mut().for_each(|n| *n = None);
                }
                let mut row = json!({
                    "formula": f, "states": aut.num_states(), "edges": aut.num_edges(),
                    "acc_sets": aut.num_sets, "state_based": aut.state_based, "time_s": dt,
                });
                if let Some(st) = &red_stats {
                    row["reduction"] = json!(st);
                }
                if stats {
                    text.push_str(&format!(
                        "states: {}, edges: {}, acceptance sets: {}, time: {:.6} s  {}\n",
                        aut.num_states(),
                        aut.num_edges(),
                        aut.num_sets,
                        dt,
                        f
                    ));
                } else if dot {
                    text.push_str(&verikit_omega::dot::to_dot(&aut));
                } else {
                    text.push_str(&hoa::to_hoa(&aut));
                }
                if ctx.json && !stats {
                    row["hoa"] = json!(hoa::to_hoa(&aut));
                }
                rows.push(row);
            }
            let mut sorted = times.clone();
            sorted.sort_by(|a, b| a.total_cmp(b));
            let median = sorted.get(sorted.len() / 2).copied().unwrap_or(0.0);
            let mut r = Report::new()
                .field("automata", &rows)
                .field("median_translation_s", median)
                .field("time_s", t0.elapsed().as_secs_f64());
            r.text = text;
            Ok(r)
        }
        LtlCmd::Check { formula, word } => {
            let file = SourceFile::new("<formula>", formula.clone());
            let mut arena = Arena::new();
            let phi = parse_at(&mut arena, &file, 0, &formula)?;
            let wfile = SourceFile::new("<word>", word.clone());
            let w = verikit_omega::word::parse_word(&word)
                .map_err(|e| CliError::from_error(e, Some(&wfile)))?;
            let (lasso, shown) = valuation_lasso(&mut arena, &w);
            let sat = verikit_omega::ltl::eval::holds(&arena, phi, &lasso);
            let verdict = if sat { "satisfied" } else { "violated" };
            Ok(Report::with_verdict(verdict)
                .field("formula", to_string(&arena, phi))
                .field("word", &shown)
                .field("time_s", t0.elapsed().as_secs_f64())
                .line(format!(
                    "{verdict}: the word {shown} {} {}",
                    if sat { "satisfies" } else { "violates" },
                    to_string(&arena, phi)
                )))
        }
        LtlCmd::Rand {
            ap,
            size,
            count,
            seed,
            weights,
            simplify: simp,
        } => {
            let aps: Vec<String> = match ap.trim().parse::<usize>() {
                Ok(n) => (0..n).map(|i| format!("p{i}")).collect(),
                Err(_) => ap
                    .split(',')
                    .map(|s| s.trim().to_string())
                    .filter(|s| !s.is_empty())
                    .collect(),
            };
            if aps.is_empty() {
                return Err(CliError::Usage(
                    "--ap needs at least one proposition".into(),
                ));
            }
            let (lo, hi) = match size.split_once("..") {
                Some((a, b)) => (a.trim().parse::<usize>(), b.trim().parse::<usize>()),
                None => (size.trim().parse::<usize>(), size.trim().parse::<usize>()),
            };
            let (Ok(lo), Ok(hi)) = (lo, hi) else {
                return Err(CliError::Usage(format!(
                    "--size `{size}`: expected N or MIN..MAX"
                )));
            };
            if lo == 0 || hi < lo || hi > 10_000 {
                return Err(CliError::Usage(format!(
                    "--size `{size}`: need 1 <= MIN <= MAX <= 10000"
                )));
            }
            let w = verikit_omega::rand::Weights::parse(&weights)
                .map_err(|m| CliError::Usage(format!("--weights: {m}")))?;
            let mut gen = verikit_omega::rand::RandLtl::new(aps.clone(), seed, w);
            let mut arena = Arena::new();
            let mut out = Vec::new();
            for _ in 0..count {
                let mut f = gen.formula_in(&mut arena, lo, hi);
                if simp {
                    f = simplify(&mut arena, f);
                }
                out.push(to_string(&arena, f));
            }
            let mut r = Report::new()
                .field("formulas", &out)
                .field("time_s", t0.elapsed().as_secs_f64());
            r.text = out.iter().map(|s| format!("{s}\n")).collect();
            Ok(r)
        }
    }
}

/// Resolves each letter of a word to one valuation over the arena's APs (registering new APs).
fn valuation_lasso(
    arena: &mut Arena,
    w: &verikit_omega::word::Word,
) -> (verikit_omega::ltl::eval::Lasso, String) {
    let ids: Vec<u32> = w.aps.iter().map(|n| arena.ap_id(n)).collect();
    (w.valuations(&ids), w.to_text())
}

fn print_formulas(src: &FormulaSource, simp: bool, t0: Instant) -> Result<Report, CliError> {
    let mut out = Vec::new();
    for (file, off, f) in formulas(src)? {
        let mut arena = Arena::new();
        let mut phi = parse_at(&mut arena, &file, off, &f)?;
        if simp {
            phi = simplify(&mut arena, phi);
        }
        out.push(to_string(&arena, phi));
    }
    let mut r = Report::new()
        .field("formulas", &out)
        .field("time_s", t0.elapsed().as_secs_f64());
    r.text = out.iter().map(|s| format!("{s}\n")).collect();
    Ok(r)
}

pub fn demo(_ctx: &Ctx) -> Result<Vec<(String, Report)>, CliError> {
    let spec = include_str!("../../demo/omega/response.ltl").trim();
    let t0 = Instant::now();
    let mut arena = Arena::new();
    let phi = parse_at(
        &mut arena,
        &SourceFile::new("demo/omega/response.ltl", spec),
        0,
        spec,
    )?;
    let mut aut = translate(&mut arena, phi, &Options::default())
        .map_err(|e| CliError::from_error(e, None))?;
    aut.name = Some(spec.to_string());
    let dt = t0.elapsed().as_secs_f64();
    let witness = verikit_omega::emptiness::accepting_lasso(&aut).map(|l| l.word_text(&aut));
    let mut r = Report::with_verdict("translated")
        .field("formula", spec)
        .field("states", aut.num_states())
        .field("edges", aut.num_edges())
        .field("acc_sets", aut.num_sets)
        .field("witness", &witness)
        .field("time_s", dt)
        .line(format!(
            "translated: {spec} -> TGBA with {} states, {} edges, {} acceptance set(s)",
            aut.num_states(),
            aut.num_edges(),
            aut.num_sets
        ));
    if let Some(w) = &witness {
        r = r.line(format!("an accepted word (witness of non-emptiness): {w}"));
    }
    r = r
        .line(hoa::to_hoa(&aut).trim_end())
        .line(format!("time: {dt:.6} s"));
    Ok(vec![(format!("ltl translate '{spec}'"), r)])
}
