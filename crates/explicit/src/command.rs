//! The `verikit mc` commands as library calls: the question built from the command's flags, the
//! model loaded (DVE or Promela by extension), the engine and the `-x mc.*` parameters, the
//! memory limit on the command's budget, errors located in the model.

use crate::model::Model;
use crate::state_store::StoreKind;
use crate::task::{
    atomic_from_params, check_with, dataflow_from_params, divine_errors_from_params, info_with,
    load_source_for, parse_ap_defs, store_from_params, Check, Engine, McOptions,
};
use verikit_diag::{Answer, Budget, Ctx, Failure, Params, SourceFile};

/// How `verikit mc` explores: threads, the accepting-cycle algorithm, a memory limit in MiB, and
/// the distributed engine's timely workers (`workers`) and cluster (`processes` processes, this
/// one `process`, their `host:port` lines in the `hostfile`).
#[derive(Clone, Debug, Default)]
pub struct ExploreOptions {
    pub threads: Option<usize>,
    pub algorithm: Option<String>,
    pub max_memory_mib: Option<usize>,
    pub workers: Option<usize>,
    pub processes: Option<usize>,
    pub process: Option<usize>,
    pub hostfile: Option<std::path::PathBuf>,
}

impl ExploreOptions {
    /// The cluster of `--workers`/`--processes`, if the distributed engine is asked for.
    #[cfg(feature = "dist")]
    fn cluster(&self, params: &Params) -> Result<Option<crate::dist_cluster::Cluster>, Failure> {
        use crate::dist_cluster::Cluster;
        if self.workers.or(self.processes).is_some()
            && store_from_params(params).map_err(Failure::Usage)? == StoreKind::Tree
        {
            return Err(Failure::Usage(
                "-x mc.store=tree is not supported by the distributed search (--workers/--processes)"
                    .into(),
            ));
        }
        let w = self.workers.unwrap_or(1);
        match (self.processes, &self.hostfile) {
            (Some(p), Some(h)) => {
                let text = verikit_diag::read_input(h)?.text;
                let secs: u64 = params
                    .get_in(&crate::task::CONNECT_TIMEOUT_PARAM, 1, 86_400)
                    .map_err(Failure::Usage)?;
                Cluster::from_hostfile(w, p, self.process.unwrap_or(0), &text)
                    .map(|c| Some(c.with_connect_timeout(std::time::Duration::from_secs(secs))))
                    .map_err(Failure::Usage)
            }
            (Some(_), None) => Err(Failure::Usage("--processes needs --hostfile".into())),
            _ => Ok(self.workers.map(|_| Cluster::local(w))),
        }
    }

    #[cfg(not(feature = "dist"))]
    fn cluster(&self, _: &Params) -> Result<Option<std::convert::Infallible>, Failure> {
        match self.workers.or(self.processes) {
            Some(_) => Err(Failure::Usage(
                "--workers/--processes: built without the `dist` feature".into(),
            )),
            None => Ok(None),
        }
    }

    /// The engine of `--threads`, `--algorithm` and `-x mc.store`.
    fn engine(&self, params: &Params) -> Result<Engine, Failure> {
        Ok(Engine {
            store: store_from_params(params).map_err(Failure::Usage)?,
            ..Engine::from_options(self.threads, self.algorithm.as_deref())
        })
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

    /// The question a model answers by default: its property process (`never` claim) if it
    /// has one, else its first `ltl` block (SPIN's choice), else deadlocks; other questions as
    /// asked. With the name of the `ltl` block used.
    pub fn resolve(&self, m: &Model) -> (Check, Option<String>) {
        match (self, m.property.is_none(), m.ast().ltl.first()) {
            (Check::Default, true, Some(l)) => (
                Check::Ltl {
                    formula: l.formula.clone(),
                    aps: l.aps.clone(),
                },
                Some(l.name.clone()),
            ),
            _ => (self.clone(), None),
        }
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
        engine: x.engine(&ctx.params)?,
        ..McOptions::from_params(&ctx.params).map_err(Failure::Usage)?
    };
    let dataflow = dataflow_from_params(&ctx.params).map_err(Failure::Usage)?;
    let mut m = load_source_for(src, q, dataflow).map_err(|d| Failure::from_error(d, Some(src)))?;
    m.through_atomic &= atomic_from_params(&ctx.params).map_err(Failure::Usage)?;
    if divine_errors_from_params(&ctx.params).map_err(Failure::Usage)? {
        return Err(Failure::Usage(
            "-x mc.errors=divine is supported by `mc info` only (`mc check` reports an evaluation error as a violation)".into(),
        ));
    }
    let budget = x.budget(&ctx.budget);
    let (q, block) = q.resolve(&m);
    let named = |a: Answer| match &block {
        Some(n) => a.detail("ltl_block", n.as_str()),
        None => a,
    };
    #[cfg(feature = "dist")]
    if let Some(c) = x.cluster(&ctx.params)? {
        return crate::dist_task::check_dist(&m, src, &q, &c, &budget)
            .map(named)
            .map_err(|e| Failure::from_error(e, Some(src)));
    }
    #[cfg(not(feature = "dist"))]
    x.cluster(&ctx.params)?;
    check_with(&m, src, &q, &o, &budget)
        .map(named)
        .map_err(|e| Failure::from_error(e, Some(src)))
}

/// `verikit mc info`: the whole state space's size, time and memory.
pub fn info_command(src: &SourceFile, x: &ExploreOptions, ctx: &Ctx) -> Result<Answer, Failure> {
    let dataflow = dataflow_from_params(&ctx.params).map_err(Failure::Usage)?;
    let mut m = load_source_for(src, &Check::Default, dataflow)
        .map_err(|d| Failure::from_error(d, Some(src)))?;
    m.through_atomic &= atomic_from_params(&ctx.params).map_err(Failure::Usage)?;
    m.set_divine_errors(divine_errors_from_params(&ctx.params).map_err(Failure::Usage)?);
    let budget = x.budget(&ctx.budget);
    #[cfg(feature = "dist")]
    if let Some(c) = x.cluster(&ctx.params)? {
        return crate::dist_task::info_dist(&m, src, &c, &budget)
            .map_err(|e| Failure::from_error(e, Some(src)));
    }
    #[cfg(not(feature = "dist"))]
    x.cluster(&ctx.params)?;
    info_with(&m, src, &x.engine(&ctx.params)?, &budget)
        .map_err(|e| Failure::from_error(e, Some(src)))
}
