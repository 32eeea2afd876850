//! `verikit demo` for `sat`: the pigeonhole formula PHP(4,3), its core and a group MUS.

use crate::report::CliError;
use verikit_diag::{Answer, Ctx, SourceFile};

pub fn demo(ctx: &Ctx) -> Result<Vec<(String, Answer)>, CliError> {
    let php = SourceFile::new("php-4-3.cnf", include_str!("../../demo/sat/php-4-3.cnf"));
    let gphp = SourceFile::new("php-4-3.gcnf", include_str!("../../demo/sat/php-4-3.gcnf"));
    let solved = verikit_hw::solve_command(&php, None, false, false, None, ctx)?;
    Ok(vec![
        (
            "four pigeons, three holes: unsatisfiable".into(),
            solved.answer,
        ),
        (
            "its core by Trimmer till fix (the two unneeded clauses go)".into(),
            verikit_hw::core_command(&php, "trim-till-fix", None, ctx)?,
        ),
        (
            "group MUS: all four pigeons needed, the unrelated group not".into(),
            verikit_hw::core_command(&gphp, "mus", None, ctx)?,
        ),
    ])
}
