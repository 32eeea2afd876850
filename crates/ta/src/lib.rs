//! Timed automata: networks of timed automata in TChecker's `.tck` format, checked by zone-graph
//! reachability.
//!
//! Pipeline: [`parse_tck`] (`tck` + `expr`) → [`Model`] → [`ZoneGraph`] (product semantics over
//! `dbm` zones, extrapolated by `extra_lu` (ExtraLU+, local or global bounds from `lu_bounds`) or
//! `extra_m`) → `reach` (passed/waiting list, covering, BFS/DFS) → for a hit, `concrete_trace`
//! (a timed trace by backward propagation) which tests replay with `replay`, independent of the
//! zone code. [`check_labels`] + [`to_answer`] are what the CLI calls.
//!
//! UPPAAL XML models ([`parse_uppaal`]: `uppaal_xml` + `uppaal_lang` → `uppaal`, lowered onto
//! the same [`Model`]) and their `E<>`/`A[]` queries are answered by `check` ([`run_check`]);
//! the liveness queries `E[]`, `A<>`, `-->` and Büchi emptiness ([`check_buchi`], TChecker's
//! `tck-liveness`) by `live_check` over `liveness` (SCCs of the abstract zone graph, lasso
//! witnesses checked by [`replay_lasso`]).
//!
//! The seed papers on timed automata (SETTA'17 Schivo et al., S19 — UPPAAL front ends and their
//! trace metamodel; CAV'06 Krčál & Yi, C24 — communicating timed automata with FIFO channels;
//! SETTA'17 Wang, Li, Yuen, S05 — nested timed automata) frame the engine; this first phase
//! implements the classic zone-graph algorithms they build on (modules cite their sources).

#![warn(unreachable_pub)]

mod alu;
mod atom_split;
mod check;
mod command;
mod concrete_trace;
mod couvreur_scc;
mod cta_check;
mod cta_one_counter;
mod cta_parse;
mod cta_reach;
mod cta_replay;
mod cta_topology;
mod dbm;
mod deadlock;
mod expr;
mod extra_lu;
mod extra_m;
mod federation;
mod lasso_dfs;
mod live_check;
mod liveness;
mod lu_bounds;
mod model;
mod neta_certificate;
mod neta_check;
mod neta_parse;
mod neta_reach;
mod neta_replay;
mod neta_summaries;
mod non_zeno;
mod params;
mod query;
mod reach;
mod replay;
mod replay_formula;
mod tck;
mod tck_write;
mod uppaal;
mod uppaal_lang;
mod uppaal_xml;
mod zone_graph;

pub use check::{check_query, model_info, query_answer, run_check, Queries, QueryResult};
pub use command::{
    check_command, convert_command, cta_command, info_command, liveness_command, neta_command,
    reach_command, ALGO_NAMES, CONVERT_NAMES, EXTRAPOLATION_NAMES, SEARCH_NAMES,
};
pub use concrete_trace::{TimedStep, TimedTrace};
pub use cta_check::run_cta;
pub use cta_one_counter::{cta_one_counter, not_applicable, OneCounterResult};
pub use cta_parse::{parse_cta, Cta, CtaAction, CtaAtom, CtaChannel, CtaEdge, CtaProcess};
pub use cta_reach::{
    check_topology, cta_reach, cta_unreachable_summarised, resolve_cta_labels, CtaOptions,
    CtaResult, CtaStep,
};
pub use cta_replay::replay_cta;
pub use cta_topology::{classify_topology, Topology};
pub use expr::BinOp;
pub use live_check::{buchi_answer, check_buchi, LassoShape};
pub use model::{
    ClockAtom, ClockRef, Cmp, Edge, EvalError, Expr, Guard, IntLv, IntVar, Location, Model,
    Process, Stmt, Sync, VarBlock,
};
pub use query::{check_labels, resolve_labels, to_answer, Options, ReachResult, SymbolicStep};
pub use reach::{Algo, Search, Stats};
pub use replay::{replay, replay_deadlock, replay_end, replay_lasso, replay_state, TraceEnd};
pub use replay_formula::check_lasso_formula;
pub use tck::parse_tck;
pub use tck_write::{to_dot, to_tck};
pub use uppaal::{parse_uppaal, Query, QueryKind, UppaalModel};
pub use zone_graph::{Discrete, Extrapolation, Transition};

pub use neta_certificate::{check_neta_certificate, CertificateError};
pub use neta_check::run_neta;
pub use neta_parse::{
    parse_neta, Neta, NetaAtom, NetaAutomaton, NetaClock, NetaEdge, NetaLocation, NetaOp,
};
pub use neta_reach::{neta_reach, resolve_neta_labels, NetaClass, NetaOptions, NetaResult};
pub use neta_replay::replay_neta;
pub use neta_summaries::{neta_summaries, neta_summary_refusal, NetaSummaries, NetaSummaryResult};
pub use non_zeno::{strongly_non_zeno, NonZeno};
pub use params::PARAMS;
