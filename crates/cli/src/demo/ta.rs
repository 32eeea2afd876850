//! `verikit demo` for `ta`: Fischer's protocol with two processes.

use crate::report::CliError;
use verikit_diag::{Answer, Ctx, SourceFile};
use verikit_ta::Options;

pub fn demo(ctx: &Ctx) -> Result<Vec<(String, Answer)>, CliError> {
    let src = SourceFile::new(
        "demo/ta/fischer2.tck",
        include_str!("../../demo/ta/fischer2.tck"),
    );
    let reach =
        |l: &str| verikit_ta::reach_command(&src, &[l.to_string()], Options::default(), ctx);
    Ok(vec![
        (
            "Fischer's protocol, two processes: mutual exclusion (cs1,cs2 unreachable)".into(),
            reach("cs1,cs2")?,
        ),
        (
            "Fischer's protocol: P1 reaches its critical section (timed trace)".into(),
            reach("cs1")?,
        ),
    ])
}
