//! The `verikit ta` commands as library calls: search options from their names, the model parsed,
//! the question asked within the command's budget, errors located in the model, batch answers
//! streamed through the command's [`Ctx`].

use crate::check::{model_info, run_check, Queries};
use crate::cta_check::run_cta;
use crate::cta_reach::CtaOptions;
use crate::live_check::{buchi_answer, check_buchi};
use crate::neta_check::run_neta;
use crate::neta_reach::NetaOptions;
use crate::query::{check_labels, to_answer, Options};
use crate::reach::{Algo, Search};
use crate::tck::parse_tck;
use crate::zone_graph::Extrapolation;
use verikit_diag::{Answer, Ctx, Failure, Params, SourceFile};

/// Search order names of `--search`.
pub const SEARCH_NAMES: &[&str] = &["bfs", "dfs"];
/// Algorithm names of `--algo`.
pub const ALGO_NAMES: &[&str] = &["reach", "covreach", "alu-covreach"];
/// Zone abstraction names of `--extrapolation`.
pub const EXTRAPOLATION_NAMES: &[&str] = &["extraLU+l", "extraLU+g", "extraM", "extraM+l"];

impl Options {
    /// The options of the `-x ta.*` parameters, overridden by those named `search` (bfs, dfs),
    /// `algo` (reach, covreach, alu-covreach) and `extrapolation` (extraLU+l, extraLU+g, extraM)
    /// when given.
    pub fn from_names(
        search: Option<&str>,
        algo: Option<&str>,
        extrapolation: Option<&str>,
        params: &Params,
    ) -> Result<Options, Failure> {
        let unknown = |what: &str, v: &str| Failure::Usage(format!("unknown {what} `{v}`"));
        let mut o = Options::from_params(params).map_err(Failure::Usage)?;
        if let Some(s) = search {
            o.search = match s {
                "bfs" => Search::Bfs,
                "dfs" => Search::Dfs,
                s => return Err(unknown("search order", s)),
            };
        }
        if let Some(a) = algo {
            o.algo = match a {
                "reach" => Algo::Reach,
                "covreach" => Algo::Covreach,
                "alu-covreach" => Algo::AluCovreach,
                a => return Err(unknown("algorithm", a)),
            };
        }
        if let Some(e) = extrapolation {
            o.extrapolation = Extrapolation::parse(e).ok_or_else(|| unknown("extrapolation", e))?;
        }
        Ok(o)
    }
}

fn located<E: verikit_diag::Reportable>(src: &SourceFile) -> impl Fn(E) -> Failure + '_ {
    move |e| Failure::from_error(e, Some(src))
}

/// `verikit ta reach`: is a state carrying all `labels` reachable in the `.tck` model?
pub fn reach_command(
    src: &SourceFile,
    labels: &[String],
    opts: Options,
    ctx: &Ctx,
) -> Result<Answer, Failure> {
    let model = parse_tck(&src.text).map_err(located(src))?;
    let r = check_labels(&model, labels, opts, &ctx.budget).map_err(located(src))?;
    Ok(to_answer(&model, &r, opts).input("file", &src.name))
}

/// `verikit ta liveness`: Büchi emptiness of the `.tck` model with accepting `labels`.
pub fn liveness_command(
    src: &SourceFile,
    labels: &[String],
    extrapolation: Option<String>,
    ctx: &Ctx,
) -> Result<Answer, Failure> {
    let opts = Options {
        extrapolation: Options::from_names(None, None, extrapolation.as_deref(), &ctx.params)?
            .extrapolation,
        ..Options::default()
    };
    let m = parse_tck(&src.text).map_err(located(src))?;
    let (r, shape) = check_buchi(&m, labels, opts, &ctx.budget).map_err(located(src))?;
    Ok(buchi_answer(&m, &r, shape, opts).input("file", &src.name))
}

/// `verikit ta check`: the queries of `queries` (a `.q` file), or one `query`, or the model's
/// embedded ones, each answer streamed through `ctx`.
pub fn check_command(
    src: &SourceFile,
    queries: Option<&SourceFile>,
    query: Option<&str>,
    opts: Options,
    ctx: &Ctx,
) -> Result<Answer, Failure> {
    let qs = match (queries, query) {
        (Some(f), _) => Queries::File(&f.name, &f.text),
        (None, Some(q)) => Queries::Text(q),
        (None, None) => Queries::Embedded,
    };
    // a refused query's located error goes to stderr at once; its item says `error` and the
    // batch's verdict is `error` (exit 2) after the other queries are answered
    let mut sink = |a, failure: Option<Failure>| {
        if let Some(f) = failure {
            ctx.item_error("query", &f);
        }
        ctx.stream(a);
    };
    let sum =
        run_check(&src.name, &src.text, qs, opts, &ctx.budget, &mut sink).map_err(located(src))?;
    Ok(ctx.finish_batch(sum))
}

/// `verikit ta cta`: reachability of `labels` in communicating timed automata (Krčál–Yi), after
/// the channel topology is classified (`-x ta.cta-channel-bound`).
pub fn cta_command(src: &SourceFile, labels: &[String], ctx: &Ctx) -> Result<Answer, Failure> {
    let opts = CtaOptions::from_params(&ctx.params).map_err(Failure::Usage)?;
    let a = run_cta(&src.text, labels, &opts, &ctx.budget).map_err(located(src))?;
    Ok(a.input("file", &src.name))
}

/// `verikit ta neta`: reachability of `labels` in nested timed automata with invariants
/// (`-x ta.neta-stack-bound`).
pub fn neta_command(src: &SourceFile, labels: &[String], ctx: &Ctx) -> Result<Answer, Failure> {
    let opts = NetaOptions::from_params(&ctx.params).map_err(Failure::Usage)?;
    let a = run_neta(&src.text, labels, &opts, &ctx.budget).map_err(located(src))?;
    Ok(a.input("file", &src.name))
}

/// Target format names of `ta convert --to`.
pub const CONVERT_NAMES: &[&str] = &["tck", "dot"];

/// `verikit ta convert`: the model (UPPAAL XML when it starts with `<`, else `.tck`) in
/// TChecker's text format (`tck`; constructs it cannot express refused by name and located) or
/// as a Graphviz digraph (`dot`), as the answer's text (and its `output` field).
pub fn convert_command(src: &SourceFile, to: &str) -> Result<Answer, Failure> {
    let model = if src.text.trim_start().starts_with('<') {
        crate::uppaal::parse_uppaal(&src.text)
            .map_err(located(src))?
            .model
    } else {
        parse_tck(&src.text).map_err(located(src))?
    };
    let text = match to {
        "tck" => crate::tck_write::to_tck(&model),
        "dot" => crate::tck_write::to_dot(&model),
        other => return Err(Failure::Usage(format!("unknown target format `{other}`"))),
    }
    .map_err(located(src))?;
    Ok(Answer::new()
        .input("file", &src.name)
        .detail("format", to)
        .detail("output", &text)
        .line(text.trim_end()))
}

/// `verikit ta info`.
pub fn info_command(src: &SourceFile) -> Result<Answer, Failure> {
    model_info(&src.name, &src.text).map_err(located(src))
}
