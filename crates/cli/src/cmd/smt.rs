//! `verikit smt`: an SMT-LIB 2.6 solver for QF_LRA, QF_RDL, QF_LIA and QF_IDL.

use crate::report::{read_input, CliError, Ctx, Report};
use std::io::{BufRead, Write};
use verikit_diag::SourceFile;
use verikit_smt::smtlib::stream::CommandSplitter;
use verikit_smt::{run_script, Interp, RunOptions, ScriptOutput, SmtError};

#[derive(clap::Args, Debug)]
pub struct SmtArgs {
    /// SMT-LIB 2 script (`-` or omitted: standard input).
    pub file: Option<std::path::PathBuf>,
    /// Print solver statistics after the responses.
    #[arg(long)]
    pub stats: bool,
    /// Validate every model against the assertions and every theory conflict's Farkas
    /// certificate in exact arithmetic.
    #[arg(long)]
    pub check: bool,
}

fn solve(src: &SourceFile, args: &SmtArgs, ctx: &Ctx) -> (ScriptOutput, f64) {
    let t0 = std::time::Instant::now();
    let out = run_script(
        &src.text,
        RunOptions {
            check: args.check,
            deadline: ctx.deadline(),
        },
    );
    (out, t0.elapsed().as_secs_f64())
}

/// Writes one response line and flushes (interactive use); a closed stdout ends quietly.
fn print_response(s: &str) {
    let mut out = std::io::stdout().lock();
    if out
        .write_all(s.as_bytes())
        .and_then(|_| out.write_all(b"\n"))
        .and_then(|_| out.flush())
        .is_err()
    {
        std::process::exit(0);
    }
}

/// `streamed`: the responses were already printed as they came.
fn report(
    out: ScriptOutput,
    time_s: f64,
    args: &SmtArgs,
    src: &SourceFile,
    streamed: bool,
) -> Result<Report, CliError> {
    let verdict = out
        .checks
        .last()
        .map(|c| c.answer.clone())
        .unwrap_or_else(|| "none".into());
    let mut text = String::new();
    if !streamed {
        for r in &out.responses {
            text.push_str(r);
            text.push('\n');
        }
    }
    let mut check_ok = true;
    if args.check {
        let mut lines = Vec::new();
        for (i, c) in out.checks.iter().enumerate() {
            let model = match c.model_valid {
                Some(true) => "model valid".to_string(),
                Some(false) => {
                    check_ok = false;
                    "MODEL INVALID".to_string()
                }
                None => "no model".to_string(),
            };
            if !c.certificate_failures.is_empty() {
                check_ok = false;
            }
            lines.push(format!(
                "; check {}: {} — {}, {} Farkas certificates verified, {} failed",
                i + 1,
                c.answer,
                model,
                c.certificates_checked,
                c.certificate_failures.len()
            ));
            for f in &c.certificate_failures {
                lines.push(format!(";   certificate failure: {f}"));
            }
        }
        if let (Some(st), Some(last)) = (&out.status, out.checks.last()) {
            if (st == "sat" || st == "unsat")
                && (last.answer == "sat" || last.answer == "unsat")
                && *st != last.answer
            {
                check_ok = false;
                lines.push(format!(
                    "; answer {} CONTRADICTS the script's :status {st}",
                    last.answer
                ));
            }
        }
        for l in lines {
            text.push_str(&l);
            text.push('\n');
        }
    }
    if args.stats {
        let s = &out.stats;
        text.push_str(&format!(
            "; stats: decisions {} conflicts {} propagations {} theory-conflicts {} theory-propagations {} pivots {} branches {} cuts {} restarts {} atoms {} rows {} nonzeros {} eliminated {} time {:.3}s\n",
            s.sat.decisions, s.sat.conflicts, s.sat.propagations, s.sat.theory_conflicts, s.sat.theory_propagations,
            s.pivots, s.branches, s.cuts, s.sat.restarts, s.atoms, s.rows, s.nonzeros, s.eliminated, time_s
        ));
        if s.cond_defs.cond_def_tables > 0 {
            text.push_str(&format!(
                "; conditional definitions: tables {} affine {}\n",
                s.cond_defs.cond_def_tables, s.cond_defs.cond_def_affine
            ));
        }
        if s.rebuilds > 0 {
            text.push_str(&format!(
                "; incremental: encoding rebuilt on pop {} times\n",
                s.rebuilds
            ));
        }
        if s.dl.dl_used {
            text.push_str(&format!(
                "; difference logic: nodes {} edges {} relaxations {} conflicts {} searches {} skipped {} propagations {}\n",
                s.dl.dl_nodes, s.dl.dl_edges, s.dl.dl_relaxations, s.dl.dl_conflicts, s.dl.dl_searches, s.dl.dl_skipped, s.dl.dl_propagations
            ));
        }
    }
    if out.timed_out {
        return Err(CliError::Limit(format!("timeout: {}", text.trim_end())));
    }
    if let Some(d) = out.errors.first() {
        // The responses (including `(error …)` lines) go to stdout; the first error is rendered
        // with its location and the exit code is 2.
        let _ = std::io::stdout().write_all(text.as_bytes());
        return Err(CliError::from_error(
            SmtError::Input(Box::new(d.clone())),
            Some(src),
        ));
    }
    if !check_ok {
        return Err(CliError::Internal(format!("--check failed:\n{text}")));
    }
    let mut r = Report::with_verdict(verdict)
        .field("time_s", time_s)
        .field("responses", &out.responses)
        .field("checks", &out.checks);
    if let Some(st) = &out.status {
        r = r.field("status", st);
    }
    if args.stats {
        r = r.field("stats", &out.stats);
    }
    r.text = text;
    Ok(r)
}

/// Runs a script from a file or, command by command, from standard input. In text mode every
/// response is printed (and flushed) as soon as its command finishes.
pub fn run(args: SmtArgs, ctx: &Ctx) -> Result<Report, CliError> {
    let path = args.file.clone().unwrap_or_else(|| "-".into());
    let streamed = !ctx.json;
    let t0 = std::time::Instant::now();
    let mut interp = Interp::new(RunOptions {
        check: args.check,
        deadline: ctx.deadline(),
    });
    if streamed {
        interp = interp.with_sink(Box::new(print_response));
    }
    let src = if path.as_os_str() == "-" {
        let stdin = std::io::stdin();
        let mut input = stdin.lock();
        let mut splitter = CommandSplitter::new();
        let mut line = Vec::new();
        loop {
            line.clear();
            let n = input
                .read_until(b'\n', &mut line)
                .map_err(|e| CliError::Usage(format!("cannot read standard input: {e}")))?;
            if n == 0 {
                break;
            }
            let text = std::str::from_utf8(&line).map_err(|e| {
                CliError::Usage(format!(
                    "standard input is not UTF-8 text (byte {})",
                    interp.text().len() + e.valid_up_to()
                ))
            })?;
            if let Some(chunk) = splitter.push_line(text) {
                if !interp.feed(&chunk) {
                    break;
                }
            }
        }
        if let Some(rest) = splitter.finish() {
            interp.feed(&rest);
        }
        SourceFile::new("<stdin>", interp.text())
    } else {
        let src = read_input(&path)?;
        interp.feed(&src.text);
        src
    };
    let out = interp.take_output();
    // The process exits after the report: freeing every clause, row and term one by one would
    // only add to the time (a few per cent of a small file's run).
    std::mem::forget(interp);
    report(out, t0.elapsed().as_secs_f64(), &args, &src, streamed)
}

const DEMO_LRA: &str = include_str!("../../demo/smt/scheduling.smt2");
const DEMO_LIA: &str = include_str!("../../demo/smt/knapsack.smt2");

pub fn demo(ctx: &Ctx) -> Result<Vec<(String, Report)>, CliError> {
    let mut v = Vec::new();
    for (title, text) in [
        (
            "QF_LRA scheduling with a strict deadline (sat, model checked)",
            DEMO_LRA,
        ),
        (
            "QF_LIA knapsack bound (unsat, Farkas certificates checked)",
            DEMO_LIA,
        ),
    ] {
        let src = SourceFile::new(title, text);
        let args = SmtArgs {
            file: None,
            stats: true,
            check: true,
        };
        let (out, t) = solve(&src, &args, ctx);
        v.push((title.to_string(), report(out, t, &args, &src, false)?));
    }
    Ok(v)
}
