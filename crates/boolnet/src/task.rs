//! The `verikit bn` tasks, each from a parsed network (or generator parameters) to the one
//! [`Answer`]: attractors, fixed points, model information, random networks, conversion. The
//! CLI only reads files and builds the options; format detection, option validation and the
//! answers' JSON and text live here.
//!
//! Attractors and fixed points are computations, not decisions: their answers carry no verdict
//! (a budget that runs out is a timeout, reported by the caller). Counts are exact; listings stop
//! at the requested limit.

use crate::attractors::{attractors, fixed_points, Attractors, Method, Options};
use crate::error::BnError;
use crate::format::{parse, Format};
use crate::generate::GenParams;
use crate::network::state_string;
use crate::network::{InputMode, Network};
use crate::symbolic::{Detect, Limits};
use crate::{decomposition, leaf_removal};
use num_bigint::BigUint;
use serde_json::{json, Value};
use std::time::Instant;
use verikit_diag::{Answer, Diagnostic, Param, Params};

/// The tuning parameters of the Boolean-network engine (`-x key=value`).
pub const PARAMS: &[Param] = &[MAX_REALISATIONS];

const MAX_REALISATIONS: Param = Param {
    name: "bn.max-realisations",
    default: "256",
    range: "1..=1000000",
    doc: "above this many attractors of a parent block, one realisation is driven by all of them at once",
};

/// Largest number of regulators per node of a generated network.
pub(crate) const MAX_K: usize = 64;

/// Applies the `-x bn.…` parameters to `opts`.
pub fn apply_params(opts: &mut Options, params: &Params) -> Result<(), String> {
    opts.max_realisations = params.get_in(&MAX_REALISATIONS, 1, 1_000_000)?;
    Ok(())
}

/// Parses a model: `format`, or the one `name`'s extension suggests (`.bnet` otherwise).
pub fn load(text: &str, name: &str, format: Option<Format>) -> Result<Network, Diagnostic> {
    parse(text, format.unwrap_or_else(|| Format::from_path(name)))
}

/// A big count as a JSON number when it fits, else as a decimal string.
fn big(c: &BigUint) -> Value {
    match u64::try_from(c) {
        Ok(v) => json!(v),
        Err(_) => json!(c.to_string()),
    }
}

fn sizes(a: Answer, net: &Network) -> Answer {
    a.input("variables", net.len())
        .input("inputs", net.inputs().len())
        .input("regulations", net.regulation_count())
}

/// All attractors of `net` (see [`crate::attractors`]), as an answer listing their cycles.
pub fn attractors_answer(net: &Network, opts: &Options) -> Result<Answer, BnError> {
    let t0 = Instant::now();
    let r = attractors(net, opts)?;
    Ok(attractor_answer(net, &r, opts, t0.elapsed().as_secs_f64()))
}

fn method_name(m: Method) -> &'static str {
    match m {
        Method::Decomposition => "decomposition",
        Method::Monolithic => "monolithic",
        Method::BruteForce => "bruteforce",
    }
}

fn attractor_answer(net: &Network, r: &Attractors, opts: &Options, time: f64) -> Answer {
    let method = method_name(opts.method);
    let listed: Vec<Vec<String>> = r
        .listed
        .iter()
        .map(|c| c.iter().map(|s| state_string(s)).collect())
        .collect();
    let count_text = r
        .attractor_count
        .as_ref()
        .map_or("an uncounted number of".to_string(), |c| c.to_string());
    let mut a = sizes(Answer::new(), net)
        .detail("attractor_count", r.attractor_count.as_ref().map(big))
        .detail("fixed_point_count", big(&r.fixed_point_count))
        .detail("attractor_state_count", big(&r.attractor_state_count))
        .detail("variables", &r.names)
        .detail("attractors", &listed)
        .detail("complete", r.complete)
        .detail("method", method)
        .detail("leaf_removal", opts.leaf_removal && opts.method != Method::BruteForce)
        .detail("detect", if opts.detect == Detect::Gfp { "gfp" } else { "periods" })
        .stat("blocks", r.stats.blocks)
        .stat("max_credit", r.stats.max_credit)
        .stat("realisations", r.stats.realisations)
        .stat("largest_block", r.stats.largest_block)
        .stat("non_leaves", r.stats.non_leaves)
        .time("total_s", time)
        .line(format!(
            "{count_text} attractors ({} fixed points, {} attractor states) — {} variables, {} inputs, {method}, {time:.3} s",
            r.fixed_point_count,
            r.attractor_state_count,
            net.len(),
            net.inputs().len()
        ));
    if !r.listed.is_empty() {
        a = a.line(format!("variables: {}", r.names.join(" ")));
    }
    for (i, c) in listed.iter().enumerate() {
        a = match c.as_slice() {
            [s] => a.line(format!("attractor {} (fixed point): {s}", i + 1)),
            _ => a.line(format!(
                "attractor {} (cycle of {}): {}",
                i + 1,
                c.len(),
                c.join(" -> ")
            )),
        };
    }
    if !r.complete {
        a = a.line(format!(
            "(listed {} attractors; raise --limit to see more)",
            r.listed.len()
        ));
    }
    a
}

/// The exact number of fixed points of `net` and up to `limit` of them (sorted).
pub fn fixed_points_answer(
    net: &Network,
    inputs: InputMode,
    limit: usize,
    limits: Limits,
) -> Result<Answer, BnError> {
    let t0 = Instant::now();
    let (count, listed) = fixed_points(net, inputs, limit, limits)?;
    let time = t0.elapsed().as_secs_f64();
    let states: Vec<String> = listed.iter().map(|s| state_string(s)).collect();
    let mut a = sizes(Answer::new(), net)
        .detail("fixed_point_count", big(&count))
        .detail("variables", &net.names)
        .detail("fixed_points", &states)
        .detail("complete", BigUint::from(listed.len()) == count)
        .time("total_s", time)
        .line(format!(
            "{count} fixed points ({} variables) in {time:.3} s",
            net.len()
        ));
    if !listed.is_empty() {
        a = a.line(format!("variables: {}", net.names.join(" ")));
    }
    for s in &states {
        a = a.line(s);
    }
    if BigUint::from(listed.len()) < count {
        a = a.line(format!(
            "(listed {} of {count}; raise --limit to see more)",
            listed.len()
        ));
    }
    Ok(a)
}

/// Variables, inputs, regulations, the dependency graph's SCC blocks and their credits.
pub fn info(net: &Network, mode: InputMode) -> Answer {
    let t0 = Instant::now();
    let f = net.resolved(mode);
    let all: Vec<usize> = (0..net.len()).collect();
    let blocks = decomposition::form_blocks(&f, &all);
    let core = leaf_removal::non_leaves(&f);
    let name = |i: &usize| net.names.get(*i).cloned().unwrap_or_default();
    let inputs: Vec<String> = net.inputs().iter().map(name).collect();
    let jblocks: Vec<Value> = blocks
        .iter()
        .map(|b| {
            json!({"nodes": b.scc.iter().map(name).collect::<Vec<_>>(),
                   "control_nodes": b.controls.iter().map(name).collect::<Vec<_>>(),
                   "parents": b.parents, "credit": b.credit})
        })
        .collect();
    let cyclic = |b: &decomposition::Block| match b.scc.as_slice() {
        [v] => f.get(*v).is_some_and(|e| e.vars().contains(&(*v as u32))),
        _ => true,
    };
    let nontrivial = blocks.iter().filter(|b| cyclic(b)).count();
    let max_credit = blocks.iter().map(|b| b.credit).max().unwrap_or(0);
    let mut a = sizes(Answer::new(), net)
        .detail("variables", net.len())
        .detail("inputs", &inputs)
        .detail("regulations", net.regulation_count())
        .detail("blocks", &jblocks)
        .detail("non_leaves", core.len())
        .detail("max_credit", max_credit)
        .time("total_s", t0.elapsed().as_secs_f64())
        .line(format!(
            "{} variables ({} inputs), {} regulations, {} SCC blocks ({nontrivial} with a cycle), highest credit {max_credit}, {} non-leaf nodes",
            net.len(),
            inputs.len(),
            net.regulation_count(),
            blocks.len(),
            core.len()
        ));
    if !inputs.is_empty() {
        a = a.line(format!("inputs: {}", inputs.join(" ")));
    }
    for (i, b) in blocks.iter().enumerate() {
        let nodes: Vec<String> = b.scc.iter().map(name).collect();
        let ctrl: Vec<String> = b.controls.iter().map(name).collect();
        let by = if ctrl.is_empty() {
            String::new()
        } else {
            format!(" controlled by {{{}}}", ctrl.join(", "))
        };
        a = a.line(format!(
            "block {} (credit {}): {{{}}}{by}",
            i + 1,
            b.credit,
            nodes.join(", ")
        ));
    }
    a
}

/// Checks generator parameters: every count in its range (a usage error names the option).
pub(crate) fn validate_gen(p: &GenParams) -> Result<(), String> {
    let max = crate::symbolic::MAX_VARS;
    if p.nodes == 0 || p.nodes > max {
        return Err(format!("--nodes must be between 1 and {max}"));
    }
    if p.core == 0 || p.core > p.nodes {
        return Err(format!(
            "--non-leaves must be between 1 and --nodes ({})",
            p.nodes
        ));
    }
    if p.k == 0 || p.k > MAX_K {
        return Err(format!("-k must be between 1 and {MAX_K}"));
    }
    if p.module == 0 || p.module > p.core {
        return Err(format!(
            "--module must be between 1 and --non-leaves ({})",
            p.core
        ));
    }
    Ok(())
}

/// A random network like the paper's (parameters validated): its `.bnet` text and the answer
/// (the text itself, or a summary naming the file `written` it goes to).
pub fn generate(p: GenParams, written: Option<&str>) -> Result<(String, Answer), String> {
    validate_gen(&p)?;
    let text = crate::bnet::write(&crate::generate::random(p));
    let a = Answer::new()
        .detail("nodes", p.nodes)
        .detail("non_leaves", p.core)
        .detail("k", p.k)
        .detail("seed", p.seed);
    let a = match written {
        Some(path) => a.line(format!(
            "wrote {path} ({} nodes, {} non-leaves, K={}, seed {})",
            p.nodes, p.core, p.k, p.seed
        )),
        None => {
            let mut a = a.detail("bnet", &text);
            a.text = text.clone();
            a
        }
    };
    Ok((text, a))
}

/// The model written in the format `output`'s extension names (`.aeon`; `.bnet` otherwise, and
/// for standard output).
pub fn write(net: &Network, output: Option<&str>) -> String {
    match output {
        Some(p) if p.to_ascii_lowercase().ends_with(".aeon") => crate::aeon::write(net),
        _ => crate::bnet::write(net),
    }
}

/// Command-line words of the option enums (`--method`, `--detect`, `--inputs`, `--format`).
macro_rules! words {
    ($t:ty, $what:literal, $($w:literal => $v:expr),+) => {
        impl std::str::FromStr for $t {
            type Err = String;
            fn from_str(s: &str) -> Result<$t, String> {
                match s {
                    $($w => Ok($v),)+
                    _ => Err(format!(concat!("unknown ", $what, " `{}` (one of: {})"), s, [$($w),+].join(", "))),
                }
            }
        }
    };
}
words!(Method, "method", "decomposition" => Method::Decomposition, "monolithic" => Method::Monolithic, "bruteforce" => Method::BruteForce);
words!(Detect, "detect routine", "periods" => Detect::Periods, "gfp" => Detect::Gfp);
words!(InputMode, "input mode", "free" => InputMode::Free, "zero" => InputMode::Zero, "one" => InputMode::One);
words!(Format, "format", "bnet" => Format::Bnet, "aeon" => Format::Aeon, "sbml" => Format::Sbml);

/// `convert`: the model in the format `output`'s extension names, and the answer (the text itself
/// when it goes to standard output).
pub fn convert(net: &Network, output: Option<&str>) -> (String, Answer) {
    let text = write(net, output);
    let a = match output {
        Some(p) => Answer::new().detail("output", p).line(format!("wrote {p}")),
        None => {
            let mut a = Answer::new().detail("bnet", &text);
            a.text = text.clone();
            a
        }
    };
    (text, a)
}
