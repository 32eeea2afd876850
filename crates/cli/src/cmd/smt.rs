//! `verikit smt`: an SMT-LIB 2.6 solver for QF_LRA, QF_RDL, QF_LIA and QF_IDL. The task itself
//! (error behaviour, verdicts, checks, statistics) is `verikit_smt::task`.

use crate::report::{read_input, CliError, Ctx};
use std::io::Write;
use verikit_diag::{Answer, SourceFile};
use verikit_smt::task::{answer, feed_reader, tuning, Outcome, SmtTask};
use verikit_smt::SmtError;

#[derive(clap::Args, Debug)]
pub struct SmtArgs {
    /// SMT-LIB 2 script (`-` or omitted: standard input, answered command by command and
    /// continuing after errors; a file stops at its first error).
    pub file: Option<std::path::PathBuf>,
    /// Print solver statistics after the responses.
    #[arg(long)]
    pub stats: bool,
    /// Validate every model against the assertions and every theory conflict's Farkas
    /// certificate in exact arithmetic.
    #[arg(long)]
    pub check: bool,
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

fn task(args: &SmtArgs, ctx: &Ctx) -> Result<SmtTask, CliError> {
    Ok(SmtTask {
        check: args.check,
        stats: args.stats,
        budget: ctx.budget.clone(),
        tuning: tuning(&ctx.params).map_err(CliError::Usage)?,
    })
}

/// The answer, or the first error (located, exit 2) after the responses before it.
fn finish(outcome: Outcome, src: &SourceFile, ctx: &Ctx) -> Result<Answer, CliError> {
    match outcome {
        Outcome::Done(a) => Ok(a),
        Outcome::Failed(a, d) => {
            if !ctx.json {
                crate::report::emit(&a.text);
            }
            Err(CliError::from_error(SmtError::Input(d), Some(src)))
        }
        Outcome::CheckFailed(a) => Err(CliError::Internal(format!("--check failed:\n{}", a.text))),
    }
}

/// Runs a script from a file or, command by command, from standard input. In text mode every
/// response is printed (and flushed) as soon as its command finishes.
pub fn run(args: SmtArgs, ctx: &Ctx) -> Result<Answer, CliError> {
    let task = task(&args, ctx)?;
    let path = args.file.clone().unwrap_or_else(|| "-".into());
    let stdin = path.as_os_str() == "-";
    let streamed = !ctx.json;
    let t0 = std::time::Instant::now();
    let sink: Option<verikit_smt::ResponseSink> = streamed.then(|| Box::new(print_response) as _);
    let mut interp = task.interp(!stdin, sink);
    let src = if stdin {
        feed_reader(&mut interp, std::io::stdin().lock()).map_err(CliError::Usage)?;
        SourceFile::new("<stdin>", interp.text())
    } else {
        let src = read_input(&path)?;
        interp.feed(&src.text);
        src
    };
    let out = interp.take_output();
    // The process exits after the answer: freeing every clause, row and term one by one would
    // only add to the time (a few per cent of a small file's run).
    std::mem::forget(interp);
    let time = t0.elapsed().as_secs_f64();
    finish(answer(&task, &out, time, streamed), &src, ctx)
}

const DEMO_LRA: &str = include_str!("../../demo/smt/scheduling.smt2");
const DEMO_LIA: &str = include_str!("../../demo/smt/knapsack.smt2");

pub fn demo(ctx: &Ctx) -> Result<Vec<(String, Answer)>, CliError> {
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
        let task = task(&args, ctx)?;
        let t0 = std::time::Instant::now();
        let mut interp = task.interp(true, None);
        interp.feed(text);
        let out = interp.finish();
        let a = answer(&task, &out, t0.elapsed().as_secs_f64(), false);
        v.push((title.to_string(), finish(a, &src, ctx)?));
    }
    Ok(v)
}
