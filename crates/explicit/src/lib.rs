//! Explicit-state model checking of DVE models, the language of DiVinE (Barnat, Brim, Černá,
//! Moravec, Ročkai, Šimeček — "DiVinE: a tool for distributed verification", CAV 2006) and of the
//! BEEM benchmark set.
//!
//! Promela models (the subset BEEM's translations use) are read by `promela_parse` and lowered
//! by `promela_lower` onto the same DVE syntax tree, so both languages share everything below.
//!
//! Pipeline: [`parse_dve`] (`dve_parse`, the syntax of `dve_ast`) → [`compile`] (`model`: the
//! packed state layout, names resolved, guards and effects compiled to `bytecode`) →
//! [`Generator`] (`successors`: DiVinE's interleaving semantics with rendezvous and buffered
//! channels, committed states and property processes) → `bfs` (full state-space generation,
//! deadlocks, assertions, shortest traces) or `nested_dfs` (accepting cycles of the product with
//! a Büchi automaton: either the model's own property process or the automaton of ¬φ from
//! `verikit-omega`, built by `ltl_product`). `state_store` is the visited-state table. `replay`
//! checks traces and lassos on the syntax tree with its own interpreter, independent of the
//! compiled code. `task` turns a run into the `Answer` the CLI prints.

#![warn(unreachable_pub)]

mod bfs;
mod bytecode;
mod c_expr;
mod c_lex;
mod command;
mod dead_variables;
mod dfs;
#[cfg(feature = "dist")]
mod dist_cluster;
#[cfg(feature = "dist")]
mod dist_owcty;
#[cfg(feature = "dist")]
mod dist_reach;
#[cfg(feature = "dist")]
mod dist_task;
mod dve_ast;
mod dve_parse;
mod ltl_product;
mod map;
mod model;
mod nested_dfs;
mod owcty;
mod parallel_reach;
mod partitioned_product;
mod por;
mod promela_ast;
mod promela_lower;
mod promela_macro;
mod promela_parse;
mod promela_token;
mod replay;
mod state_store;
mod successors;
mod task;
#[cfg(test)]
mod tests;
mod token_cursor;
mod tree_store;

pub use bfs::{bfs, Exploration, Goal, Trace, Violation, ViolationKind};
pub use bytecode::{EvalError, EvalErrorKind};
pub use command::{check_command, info_command, ExploreOptions};
#[cfg(feature = "dist")]
pub use dist_cluster::Cluster;
#[cfg(feature = "dist")]
pub use dist_task::{
    check_dist, dist_explore, dist_safety, info_dist, ltl_search_dist, property_search_dist,
    DistStats,
};
pub use dve_ast::{
    BinOp, ChanDecl, Dir, DveAst, Expr, LValue, LtlProperty, ProcessAst, RecvArg, SyncAst,
    TransAst, Ty, UnOp, VarDecl,
};
pub use dve_parse::{parse_dve, parse_dve_expr};
pub use model::{compile, DecodedState, Label, Model};
pub use nested_dfs::{CycleSearch, Lasso};
pub use parallel_reach::{parallel_reach, partition};
pub use replay::{
    reference_state_count, replay_automaton_lasso, replay_property_lasso, replay_trace,
};
pub use state_store::StoreKind;
pub use successors::Generator;
pub use task::{
    check, check_with, dataflow_from_params, decode_product, divine_errors_from_params, info,
    info_with, load_model, load_promela, load_source, load_source_for, ltl_search, ltl_search_with,
    parse_ap_defs, parse_promela, property_search, property_search_with, safety_search, Check,
    CycleAlgo, Dataflow, Engine, LtlRun, McError, McOptions, ATOMIC_PARAM, CONNECT_TIMEOUT_PARAM,
    DATAFLOW_PARAM, ERRORS_PARAM, POR_PARAM, STORE_PARAM,
};

use verikit_diag::Param;

/// Tuning parameters of the explicit-state engine.
pub const PARAMS: &[Param] = &[
    POR_PARAM,
    DATAFLOW_PARAM,
    ATOMIC_PARAM,
    ERRORS_PARAM,
    CONNECT_TIMEOUT_PARAM,
    STORE_PARAM,
];
