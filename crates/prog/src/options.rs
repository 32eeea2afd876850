//! What the C orchestrator (`task`) and the Horn-clause one (`chc_task`) share, so that neither
//! imports the other's module for it: the options of `verikit prog verify` and `prog chc` (which
//! engine decides, the `-x` tuning parameters) and the large-stack thread the engines run on.

use crate::error::ProgError;
use std::path::PathBuf;
use verikit_diag::{Param, Params};

/// The tuning parameters of `verikit prog`.
pub const PARAMS: &[Param] = &[
    Param {
        name: "prog.wrap",
        default: "false",
        range: "true|false",
        doc: "signed arithmetic wraps around (two's complement) instead of computing on unbounded integers",
    },
    Param {
        name: "prog.max-bound",
        default: "200",
        range: "1..100000",
        doc: "largest unwinding bound (loop iterations and recursion depth) bounded model checking tries",
    },
    Param {
        name: "prog.abstraction",
        default: "boolean",
        range: "boolean|cartesian",
        doc: "abstract post of the cegar engine: all minterms over the predicates (all-SAT) or one cube of entailed literals",
    },
    Param {
        name: "prog.max-k",
        default: "50",
        range: "1..10000",
        doc: "largest k the k-induction engine tries",
    },
    Param {
        name: "prog.chc-preprocess",
        default: "true",
        range: "true|false",
        doc: "prog chc: Spacer solves the clauses after inlining predicates defined by one clause and dropping unused arguments (answers translated back and checked on the clauses as written)",
    },
];

/// Which engine decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// Bounded model checking with unwinding assertions.
    Bmc,
    /// Lazy abstraction with interpolants (McMillan, CAV 2006).
    Impact,
    /// Predicate abstraction with interpolant refinement (C15, C16, C39 of CAV 2006).
    Cegar,
    /// k-induction with simple-path constraints.
    Kind,
    /// Property directed reachability for Horn clauses, linear and nonlinear (GPDR/Spacer).
    Spacer,
    /// Bounded procedure summaries of recursive functions (must and cut summaries by depth).
    Summaries,
    /// Every available engine in turn.
    Portfolio,
}

/// Options of `verify`.
#[derive(Clone, Debug)]
pub struct VerifyOptions {
    pub engine: Engine,
    pub wrap: bool,
    pub max_bound: usize,
    /// Boolean (all-SAT) rather than cartesian abstraction in the cegar engine.
    pub boolean: bool,
    /// Largest k of k-induction.
    pub max_k: usize,
    /// `prog chc`: inline and slice the clauses before Spacer.
    pub preprocess: bool,
    /// Write an SV-COMP witness for a `true` or `false` answer to this file (GraphML 1.0 when it
    /// is named `*.graphml`, YAML 2.0 otherwise).
    pub witness: Option<PathBuf>,
    /// Replay counterexamples with gcc (scratch directory).
    pub replay_dir: Option<PathBuf>,
}

impl VerifyOptions {
    /// Options with the engine and the `-x` parameters.
    pub fn from_params(engine: Engine, params: &Params) -> Result<VerifyOptions, String> {
        let [wrap, bound, abstraction, max_k, preprocess] = PARAMS else {
            return Err("parameter table".into());
        };
        let wrap = match params.raw(wrap.name) {
            None => false,
            Some("true") | Some("1") => true,
            Some("false") | Some("0") => false,
            Some(v) => return Err(format!("prog.wrap: expected true or false, got `{v}`")),
        };
        let max_bound = params.get_in::<usize>(bound, 1, 100_000)?;
        let boolean = match params.raw(abstraction.name) {
            None | Some("boolean") => true,
            Some("cartesian") => false,
            Some(v) => {
                return Err(format!(
                    "prog.abstraction: expected boolean or cartesian, got `{v}`"
                ))
            }
        };
        let max_k = params.get_in::<usize>(max_k, 1, 10_000)?;
        let preprocess = match params.raw(preprocess.name) {
            None | Some("true") | Some("1") => true,
            Some("false") | Some("0") => false,
            Some(v) => {
                return Err(format!(
                    "prog.chc-preprocess: expected true or false, got `{v}`"
                ))
            }
        };
        Ok(VerifyOptions {
            engine,
            wrap,
            max_bound,
            boolean,
            max_k,
            preprocess,
            witness: None,
            replay_dir: None,
        })
    }
}

/// Stack for the front end and the engines: deeply nested C expressions (the `xcsp` tasks' long
/// `|` chains) recurse deeply in the parser, the lowering and the solver's term walks.
const STACK: usize = 1 << 30;

pub(crate) fn big_stack<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, ProgError> + Send + 'static,
) -> Result<T, ProgError> {
    std::thread::Builder::new()
        .stack_size(STACK)
        .spawn(f)
        .map_err(|e| ProgError::Tool(format!("cannot start the verification thread: {e}")))?
        .join()
        .map_err(|_| ProgError::Tool("internal error: the verification thread panicked".into()))?
}
