//! UPPAAL queries answered on the zone graph: `E<> φ` is the reachability of a state satisfying
//! φ, `A[] φ` is `not E<> not φ`; the witness is the trace to the state found (for `A[]`, the
//! violation). Both run the passed/waiting search of `reach` with φ as the hit predicate and
//! rebuild the symbolic and timed traces as `tck-reach` answers do.
//!
//! Seed: SETTA'17 Schivo et al. (S19), §3: the queries and the traces a front end shows back to
//! the user in the model's own names; Bengtsson & Yi (2003) §5.1 for the search.

use crate::atom_split::AtomSplit;
use crate::dbm::Dbm;
use crate::deadlock::deadlocked;
use crate::federation::Federation;
use crate::live_check::{lasso_details, lasso_search_name, search_lasso, Goal, LassoShape};
use crate::query::{answer_with, check_pred, check_pred_coarse_first, Options, ReachResult};
use crate::reach::Algo;
use crate::uppaal::{Query, QueryKind, UppaalModel};
use crate::zone_graph::{Discrete, Extrapolation, ZoneGraph};
use verikit_diag::{Answer, Budget, Diagnostic, Failure, Span, Verdict};

/// The outcome of one query: `Some(true)` satisfied, `Some(false)` not, `None` undecided.
#[derive(Clone, Debug)]
pub struct QueryResult {
    pub satisfied: Option<bool>,
    /// The search; its trace (if any) ends in a state satisfying φ (`E<>`) or violating it
    /// (`A[]`).
    pub search: ReachResult,
    /// The options the search ran with (deadlock queries switch to ExtraM with local bounds and inclusion).
    pub options: Options,
    /// For a liveness query with a witness (`E[]` satisfied, `A<>` or `-->` violated): how its
    /// timed trace splits into stem, prefix and cycle (taken twice).
    pub lasso: Option<LassoShape>,
}

/// Answers one query.
pub fn check_query(
    um: &UppaalModel,
    q: &Query,
    opts: Options,
    budget: &Budget,
) -> Result<QueryResult, Diagnostic> {
    let n = um.model.processes.len();
    if q.kind.is_liveness() {
        return check_liveness(um, q, opts, budget);
    }
    // the search looks for a state where `want` holds: φ for `E<>`, ¬φ for `A[]`
    let reach = q.kind == QueryKind::Reach;
    let want = |d: &Discrete, dl: bool, atoms: u32| q.holds_atoms(n, d, dl, atoms) == reach;
    let mut opts = opts;
    let r = if q.mentions_deadlock() || q.n_atoms() > 0 {
        // deadlock and clock constraints are properties of valuations that LU abstractions do not
        // preserve: the LU search proves their absence, and an unconfirmed hit is searched again
        // under ExtraM with per-location bounds (a bisimulation) and the query's constants
        let end = |zg: &ZoneGraph<'_>, d: &Discrete, z: &Dbm| wanted_valuations(zg, d, z, q, &want);
        let hit = |zg: &ZoneGraph<'_>, d: &Discrete, z: &Dbm| end(zg, d, z).is_some();
        let (r, used) =
            check_pred_coarse_first(&um.model, &hit, &end, &q.clock_atoms, opts, budget)?;
        opts = used;
        r
    } else {
        check_pred(
            &um.model,
            &|_, d, _| want(d, false, 0),
            None,
            &[],
            opts,
            budget,
        )?
    };
    let satisfied = r.reachable.map(|found| match q.kind {
        QueryKind::Reach => found,
        _ => !found,
    });
    Ok(QueryResult {
        satisfied,
        search: r,
        options: opts,
        lasso: None,
    })
}

/// `E[] φ`, `A<> φ`, `φ --> ψ` by the lasso search of `live_check`, on the zone graph under
/// ExtraM with per-location bounds (whose zones are unions of regions, so deadlocks ending
/// maximal paths are exact) with equal nodes merged and no covering, split along the clock
/// constraints of the formulas (`atom_split`) so that they have one truth value per node.
fn check_liveness(
    um: &UppaalModel,
    q: &Query,
    opts: Options,
    budget: &Budget,
) -> Result<QueryResult, Diagnostic> {
    let n = um.model.processes.len();
    let phi = |d: &Discrete, atoms: u32| q.holds_atoms(n, d, false, atoms);
    let not_phi = |d: &Discrete, atoms: u32| !q.holds_atoms(n, d, false, atoms);
    let psi = |d: &Discrete, atoms: u32| q.target_holds_atoms(n, d, atoms);
    let goal = match q.kind {
        QueryKind::Globally => Goal::Globally(&phi),
        QueryKind::Eventually => Goal::Globally(&not_phi),
        _ => Goal::LeadsToViolation(&phi, &psi),
    };
    let mut opts = opts;
    opts.extrapolation = Extrapolation::MLocal;
    opts.algo = Algo::Reach;
    let out = search_lasso(
        &um.model,
        Extrapolation::MLocal,
        &q.clock_atoms,
        &goal,
        budget,
    )?;
    let satisfied = out
        .search
        .reachable
        .map(|found| found == (q.kind == QueryKind::Globally));
    Ok(QueryResult {
        satisfied,
        search: out.search,
        options: opts,
        lasso: out.shape,
    })
}

/// A zone of valuations of `(d, z)` where `want` holds (`want` reads the discrete state, the
/// truth of `deadlock` and of the query's clock constraints, bit `k` for constraint `k`), or
/// `None`: the zone is split along the constraints (`atom_split`: every piece gives each one
/// truth value), and a piece whose truth values make `want` true is intersected with the
/// deadlocked valuations (or their complement) when `want` reads `deadlock`.
fn wanted_valuations(
    zg: &ZoneGraph<'_>,
    d: &Discrete,
    z: &Dbm,
    q: &Query,
    want: &dyn Fn(&Discrete, bool, u32) -> bool,
) -> Option<Dbm> {
    let n = zg.model.processes.len();
    let ints = d.get(n..)?;
    let split = AtomSplit::new(&q.clock_atoms).ok()?;
    let dls: &[bool] = if q.mentions_deadlock() {
        &[false, true]
    } else {
        &[false]
    };
    let mut dead: Option<Federation> = None;
    for (piece, part) in split.pieces_of(z, ints).ok()? {
        let bits = split.truth(piece);
        for &dl in dls {
            if !want(d, dl, bits) {
                continue;
            }
            if !q.mentions_deadlock() {
                return Some(part);
            }
            let dd = dead.get_or_insert_with(|| deadlocked(zg, d, z));
            let f = if dl {
                dd.intersect_zone(&part)
            } else {
                Federation::from_zone(part.clone()).subtract(dd)
            };
            if let Some(w) = f.zones().first() {
                return Some(w.clone());
            }
        }
    }
    None
}

/// The answer printed for one query.
pub fn query_answer(um: &UppaalModel, q: &Query, r: &QueryResult) -> Answer {
    let opts = r.options;
    let (verdict, word) = match (r.satisfied, r.search.exhausted) {
        _ if r.search.runtime_error.is_some() => (Verdict::Error, "run-time error"),
        (Some(true), _) => (Verdict::True, "satisfied"),
        (Some(false), _) => (Verdict::False, "not satisfied"),
        (None, Some(e)) if e.verdict_word() == "timeout" => (Verdict::Timeout, "unknown"),
        (None, _) => (Verdict::Unknown, "unknown"),
    };
    let mut a = answer_with(&um.model, &r.search, opts, verdict, word, Some(&q.text))
        .detail("query", &q.text);
    if q.kind.is_liveness() {
        a = a.detail("search", lasso_search_name(Some(q.kind)));
    }
    if let Some(e) = &r.search.runtime_error {
        a = a.detail("error", e);
    }
    if !q.comment.is_empty() {
        a = a.detail("comment", &q.comment);
    }
    if let Some(l) = r.lasso {
        a = lasso_details(a, l);
    }
    a
}

/// Where the queries of `verikit ta check` come from.
#[derive(Clone, Copy, Debug)]
pub enum Queries<'a> {
    /// The `<queries>` embedded in the model.
    Embedded,
    /// A `.q` file: its name and text.
    File(&'a str, &'a str),
    /// One query given on the command line.
    Text(&'a str),
}

/// `verikit ta check`: reads an UPPAAL model, answers each query (each item handed to `on_item`
/// as soon as it is computed) and returns the batch summary. A query refused by name (by the
/// query parser, or by the search: an unsupported construct) is an `error` item, handed over with
/// its located failure; the other queries are still answered. The summary: `timeout` if some
/// query ran out of budget, else `error` if some was refused (exit 2, as `ltl translate -F` and
/// `smt` with a bad item), else `false` if some query is not satisfied, else `unknown` if some is
/// undecided, else `true`.
pub fn run_check(
    model_name: &str,
    model_text: &str,
    queries: Queries<'_>,
    opts: Options,
    budget: &Budget,
    on_item: &mut dyn FnMut(Answer, Option<Failure>),
) -> Result<Answer, Diagnostic> {
    let um = crate::uppaal::parse_uppaal(model_text)?;
    let (qs, qsrc) = match queries {
        Queries::Embedded => (
            um.embedded_queries(),
            verikit_diag::SourceFile::new(model_name, model_text),
        ),
        Queries::File(name, text) => (
            um.query_file(text),
            verikit_diag::SourceFile::new(name, text),
        ),
        Queries::Text(t) => (
            vec![um.query_text(t)],
            verikit_diag::SourceFile::new("<query>", t),
        ),
    };
    let (mut n_true, mut n_false, mut n_open, mut n_err) = (0, 0, 0, 0);
    let mut timed_out = false;
    let refused = |d: Diagnostic| {
        let msg = d.one_line(&qsrc);
        let item = Answer::decision(Verdict::Error)
            .line(format!("error: {msg}"))
            .detail("error", msg);
        (item, Some(Failure::from_error(d, Some(&qsrc))))
    };
    for q in qs {
        let (item, failure) = match q {
            Err(d) => {
                n_err += 1;
                refused(d)
            }
            Ok(q) => {
                if budget.check().is_err() {
                    timed_out = true;
                    n_open += 1;
                    (
                        Answer::decision(Verdict::Timeout).detail("query", &q.text),
                        None,
                    )
                } else {
                    match check_query(&um, &q, opts, budget) {
                        Err(d) => {
                            // refused by the search (an unsupported construct): located at the
                            // query's text when it appears verbatim in the query source
                            n_err += 1;
                            let d = match qsrc.text.find(q.text.as_str()) {
                                Some(at) if d.span.is_none() => {
                                    let span = Span::new(at, at + q.text.len());
                                    Diagnostic::at(span, format!("{}: `{}`", d.message, q.text))
                                }
                                _ => d,
                            };
                            refused(d)
                        }
                        Ok(r) => {
                            match r.satisfied {
                                Some(true) => n_true += 1,
                                Some(false) => n_false += 1,
                                None => {
                                    n_open += 1;
                                    timed_out |= r.search.exhausted.is_some();
                                }
                            }
                            (query_answer(&um, &q, &r), None)
                        }
                    }
                }
            }
        };
        on_item(item, failure);
    }
    let verdict = if n_open > 0 && timed_out {
        Verdict::Timeout
    } else if n_err > 0 {
        Verdict::Error
    } else if n_false > 0 {
        Verdict::False
    } else if n_open > 0 {
        Verdict::Unknown
    } else {
        Verdict::True
    };
    Ok(Answer::decision(verdict)
        .detail("satisfied", n_true)
        .detail("not_satisfied", n_false)
        .detail("undecided", n_open)
        .detail("refused", n_err)
        .input("file", model_name)
        .input("processes", um.model.processes.len())
        .input("clocks", um.model.clocks.len())
        .input("ints", um.model.ints.len()))
}

/// `verikit ta info`: processes, clocks, integers, locations, edges and synchronisations of a
/// model (UPPAAL XML when the text starts with `<`, TChecker `.tck` otherwise).
pub fn model_info(name: &str, text: &str) -> Result<Answer, Diagnostic> {
    let (model, format, queries) = if text.trim_start().starts_with('<') {
        let um = crate::uppaal::parse_uppaal(text)?;
        let nq = um.embedded_queries().len();
        (um.model, "uppaal-xml", nq)
    } else {
        (crate::tck::parse_tck(text)?, "tchecker", 0)
    };
    let locations: usize = model.processes.iter().map(|p| p.locations.len()).sum();
    let nz = crate::non_zeno::strongly_non_zeno(&model);
    let edges: usize = model.processes.iter().map(|p| p.edges.len()).sum();
    let mut a = Answer::default()
        .input("file", name)
        .detail("format", format)
        .detail("processes", model.processes.len())
        .detail("clocks", model.clocks.len())
        .detail("ints", model.ints.len())
        .detail("locations", locations)
        .detail("edges", edges)
        .detail("synchronisations", model.syncs.len())
        .detail("embedded_queries", queries)
        .detail("non_zeno", nz.word())
        .line(format!(
            "{format}: {} processes, {} clocks, {} ints, {locations} locations, {edges} edges, {} synchronisations",
            model.processes.len(),
            model.clocks.len(),
            model.ints.len(),
            model.syncs.len()
        ));
    a = a.line(format!("  {}", nz.describe()));
    for p in &model.processes {
        a = a.line(format!(
            "  {}: {} locations, {} edges",
            p.name,
            p.locations.len(),
            p.edges.len()
        ));
    }
    Ok(a)
}
