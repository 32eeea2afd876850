//! `verikit smt` as a library call: the script read from a file (stopping at its first error) or
//! command by command from standard input (continuing after errors), every response printed as
//! soon as its command finishes in text mode, and the [`Outcome`] turned into the answer or the
//! located first error. The work is [`crate::task`]'s.

use crate::interp::ResponseSink;
use crate::task::{answer, feed_reader, tuning, Outcome, SmtTask};
use std::path::Path;
use verikit_diag::{emit, read_input, Answer, Ctx, Failure, SourceFile};

/// What `verikit smt` runs: statistics after the responses, and `--check` (models and Farkas
/// certificates validated in exact arithmetic).
fn smt_task(stats: bool, check: bool, ctx: &Ctx) -> Result<SmtTask, Failure> {
    Ok(SmtTask {
        check,
        stats,
        budget: ctx.budget.clone(),
        tuning: tuning(&ctx.params).map_err(Failure::Usage)?,
    })
}

/// The answer, or the first error (located, exit 2) after the responses before it (printed
/// here in text mode).
fn finish(outcome: Outcome, src: &SourceFile, ctx: &Ctx) -> Result<Answer, Failure> {
    match outcome {
        Outcome::Done(a) => Ok(a),
        Outcome::Failed(a, d) => {
            if !ctx.json {
                emit(&a.text);
            }
            Err(Failure::from_error(*d, Some(src)))
        }
        Outcome::CheckFailed(a) => Err(Failure::Internal(format!("--check failed:\n{}", a.text))),
    }
}

/// `verikit smt [FILE]` (`None` or `-`: standard input, answered command by command).
pub fn smt_command(
    file: Option<&Path>,
    stats: bool,
    check: bool,
    ctx: &Ctx,
) -> Result<Answer, Failure> {
    let task = smt_task(stats, check, ctx)?;
    let path = file.unwrap_or(Path::new("-"));
    let stdin = path.as_os_str() == "-";
    let streamed = !ctx.json;
    let t0 = std::time::Instant::now();
    let print: fn(&str) = |s| emit(&format!("{s}\n"));
    let sink: Option<ResponseSink> = streamed.then(|| Box::new(print) as _);
    let mut interp = task.interp(!stdin, sink);
    let src = if stdin {
        feed_reader(&mut interp, std::io::stdin().lock()).map_err(Failure::Usage)?;
        SourceFile::new("<stdin>", interp.text())
    } else {
        let src = read_input(path)?;
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

/// `verikit demo`: the script `text` run with statistics and `--check`, nothing printed.
pub fn smt_demo(title: &str, text: &str, ctx: &Ctx) -> Result<Answer, Failure> {
    let src = SourceFile::new(title, text);
    let task = smt_task(true, true, ctx)?;
    let t0 = std::time::Instant::now();
    let mut interp = task.interp(true, None);
    interp.feed(text);
    let out = interp.finish();
    let a = answer(&task, &out, t0.elapsed().as_secs_f64(), false);
    finish(a, &src, ctx)
}
