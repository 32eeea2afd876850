//! `verikit mc`: explicit-state model checking of DVE (DiVinE) and Promela models.

use crate::report::{read_input, CliError, Ctx};
use clap::{Args, Subcommand};
use std::path::PathBuf;
use verikit_diag::Answer;
use verikit_explicit::{check_command, info_command, Check, CycleAlgo, ExploreOptions};

#[derive(Args, Debug, Default)]
pub struct Limits {
    /// Stop (exit 3, with the counts reached) beyond this many MiB of visited states.
    #[arg(long, value_name = "MIB")]
    max_memory: Option<usize>,
    /// Workers over a hash-partitioned state space (default 1: the sequential engines, with
    /// shortest traces and partial-order reduction).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    threads: Option<u16>,
    /// Accepting-cycle algorithm (default: ndfs on one thread, owcty on several).
    #[arg(long, value_name = "ALGO", value_parser = clap::builder::PossibleValuesParser::new(CycleAlgo::NAMES))]
    algorithm: Option<String>,
    /// Distributed engine (timely-dataflow): N worker threads in this process.
    #[arg(long, value_name = "N", conflicts_with_all = ["threads", "algorithm"],
          value_parser = clap::value_parser!(u16).range(1..))]
    workers: Option<u16>,
    /// Distributed engine across P processes (timely's cluster mode; with --process, --hostfile).
    #[arg(long, value_name = "P", requires_all = ["process", "hostfile"], conflicts_with_all = ["threads", "algorithm"],
          value_parser = clap::value_parser!(u16).range(1..))]
    processes: Option<u16>,
    /// This process's index, 0..P.
    #[arg(long, value_name = "I", requires = "processes")]
    process: Option<usize>,
    /// One `host:port` line per process, in process order (timely's `-h` file).
    #[arg(long, value_name = "FILE", requires = "processes")]
    hostfile: Option<PathBuf>,
}

impl Limits {
    fn exploration(self) -> ExploreOptions {
        let (threads, algorithm) = (self.threads.map(usize::from), self.algorithm);
        ExploreOptions {
            threads,
            algorithm,
            max_memory_mib: self.max_memory,
            workers: self.workers.map(usize::from),
            processes: self.processes.map(usize::from),
            process: self.process,
            hostfile: self.hostfile,
        }
    }
}

#[derive(Subcommand, Debug)]
pub enum McCmd {
    /// Check `--ltl φ`, `--deadlock` (none reachable) or `--assert`; by default the model's
    /// property process, else deadlocks. `true` = holds; `false` has a shortest trace or a lasso.
    Check {
        /// The model (`.dve`, or Promela `.pm`/`.pml`; `-` for standard input).
        model: PathBuf,
        /// LTL (Spot syntax) over `--ap` names or quoted DVE expressions: `G("P_0.cs" -> F "x>0")`.
        #[arg(long, conflicts_with_all = ["deadlock", "assert"])]
        ltl: Option<String>,
        /// A proposition of the formula: `NAME=DVE-EXPRESSION` (repeatable).
        #[arg(long = "ap", value_name = "NAME=EXPR", requires = "ltl")]
        aps: Vec<String>,
        /// Is a deadlock reachable?
        #[arg(long, conflicts_with = "assert")]
        deadlock: bool,
        /// Is an assertion violated?
        #[arg(long)]
        assert: bool,
        #[command(flatten)]
        limits: Limits,
    },
    /// Generate the whole state space: states, transitions, deadlocks, time, memory.
    Info {
        /// The model (`.dve`, or Promela `.pm`/`.pml`; `-` for standard input).
        model: PathBuf,
        #[command(flatten)]
        limits: Limits,
    },
}

pub fn run(cmd: McCmd, ctx: &Ctx) -> Result<Answer, CliError> {
    match cmd {
        McCmd::Check {
            model,
            ltl,
            aps,
            deadlock,
            assert,
            limits,
        } => {
            let q = Check::from_flags(ltl, &aps, deadlock, assert)?;
            check_command(&read_input(&model)?, &q, &limits.exploration(), ctx)
        }
        McCmd::Info { model, limits } => {
            info_command(&read_input(&model)?, &limits.exploration(), ctx)
        }
    }
}
