//! The `verikit mc` commands as library calls: the question built from the command's flags, the
//! model loaded (DVE or Promela by extension), the engine and the `-x mc.*` parameters, the
//! memory limit on the command's budget, errors located in the model.

use crate::task::{check_with, info_with, load_source, parse_ap_defs, Check, Engine, McOptions};
use verikit_diag::{Answer, Budget, Ctx, Failure, SourceFile};

/// How `verikit mc` explores: workers, the accepting-cycle algorithm, a memory limit in MiB.
#[derive(Clone, Debug, Default)]
pub struct ExploreOptions {
    pub threads: Option<usize>,
    pub algorithm: Option<String>,
    pub max_memory_mib: Option<usize>,
}

impl ExploreOptions {
    fn engine(&self) -> Engine {
        Engine::from_options(self.threads, self.algorithm.as_deref())
    }

    fn budget(&self, b: &Budget) -> Budget {
        match self.max_memory_mib {
            Some(m) => b.clone().with_memory_limit(m.saturating_mul(1 << 20)),
            None => b.clone(),
        }
    }
}

impl Check {
    /// The question of `verikit mc check`'s flags: `--ltl` (with its `--ap NAME=EXPR`
    /// definitions), `--deadlock`, `--assert`, or the model's default.
    pub fn from_flags(
        ltl: Option<String>,
        aps: &[String],
        deadlock: bool,
        assert: bool,
    ) -> Result<Check, Failure> {
        let defs = parse_ap_defs(aps).map_err(Failure::Usage)?;
        Ok(match (ltl, deadlock, assert) {
            (Some(formula), _, _) => Check::Ltl { formula, aps: defs },
            (None, true, _) => Check::Deadlock,
            (None, _, true) => Check::Assert,
            _ => Check::Default,
        })
    }
}

/// `verikit mc check`.
pub fn check_command(
    src: &SourceFile,
    q: &Check,
    x: &ExploreOptions,
    ctx: &Ctx,
) -> Result<Answer, Failure> {
    let o = McOptions {
        engine: x.engine(),
        ..McOptions::from_params(&ctx.params).map_err(Failure::Usage)?
    };
    let m = load_source(src).map_err(|d| Failure::from_error(d, Some(src)))?;
    check_with(&m, src, q, &o, &x.budget(&ctx.budget))
        .map_err(|e| Failure::from_error(e, Some(src)))
}

/// `verikit mc info`: the whole state space's size, time and memory.
pub fn info_command(src: &SourceFile, x: &ExploreOptions, ctx: &Ctx) -> Result<Answer, Failure> {
    let m = load_source(src).map_err(|d| Failure::from_error(d, Some(src)))?;
    info_with(&m, src, &x.engine(), &x.budget(&ctx.budget))
        .map_err(|e| Failure::from_error(e, Some(src)))
}
