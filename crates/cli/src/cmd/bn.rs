//! `verikit bn`: attractors of synchronous Boolean networks (SETTA'17 SCC decomposition, monolithic
//! BDD detection, brute force), fixed points, model information, random networks, conversion.

use crate::report::{read_input, write_output, CliError, Ctx, Report};
use clap::{Args, Subcommand, ValueEnum};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::time::Instant;
use verikit_boolnet::network::state_string;
use verikit_boolnet::{
    aeon, bnet, decomposition, generate, leaf_removal, Attractors, Detect, Format, InputMode,
    Limits, Method, Network, Options,
};
use verikit_diag::SourceFile;

#[derive(Subcommand, Debug)]
pub enum BnCmd {
    /// All attractors under the synchronous semantics, each printed as its cycle of states.
    Attractors {
        /// The model (.bnet, .aeon, SBML-qual .sbml/.xml; `-` for standard input).
        model: PathBuf,
        #[arg(long, value_enum, default_value_t = MethodArg::Decomposition)]
        method: MethodArg,
        /// Apply leaf removal (Algorithm 2) around the symbolic methods (the default).
        #[arg(long, overrides_with = "no_leaf_removal")]
        leaf_removal: bool,
        /// Run the chosen method on the whole network, without leaf removal (Algorithm 1 alone).
        #[arg(long, overrides_with = "leaf_removal")]
        no_leaf_removal: bool,
        /// The Detect routine: `periods` (f^p(x)=x period by period, states reaching the attractors found dropped)
        /// or `gfp` (the paper's monolithic greatest fixed point of X ∩ Image(X)).
        #[arg(long, value_enum, default_value_t = DetectArg::Periods)]
        detect: DetectArg,
        /// List at most N attractors (the counts are always exact).
        #[arg(long, default_value_t = 100)]
        limit: usize,
        #[command(flatten)]
        common: CommonOpts,
    },
    /// Fixed points (steady states; the same for synchronous and asynchronous semantics).
    FixedPoints {
        model: PathBuf,
        /// List at most N fixed points (the count is always exact).
        #[arg(long, default_value_t = 100)]
        limit: usize,
        #[command(flatten)]
        common: CommonOpts,
    },
    /// Variables, inputs, regulations, the dependency graph's SCC blocks and their credits.
    Info {
        model: PathBuf,
        #[command(flatten)]
        common: CommonOpts,
    },
    /// A random network like the paper's (n nodes, few non-leaf nodes, K regulators per node).
    Gen {
        /// Number of nodes.
        #[arg(long, short = 'n')]
        nodes: usize,
        /// Number of non-leaf nodes.
        #[arg(long, default_value_t = 10)]
        non_leaves: usize,
        /// Regulators per node.
        #[arg(long, short = 'k', default_value_t = 2)]
        k: usize,
        /// Size of the strongly connected modules the non-leaf core is cut into.
        #[arg(long, default_value_t = 5)]
        module: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Write to this file instead of standard output.
        #[arg(long, short = 'o')]
        output: Option<PathBuf>,
    },
    /// Convert a model to .bnet or .aeon.
    Convert {
        model: PathBuf,
        /// Output file (.bnet or .aeon); standard output (.bnet) if omitted.
        #[arg(long, short = 'o')]
        output: Option<PathBuf>,
        #[command(flatten)]
        common: CommonOpts,
    },
}

#[derive(Args, Debug, Clone)]
pub struct CommonOpts {
    /// How inputs (variables without a function, or with f(x)=x) behave.
    #[arg(long, value_enum, default_value_t = InputsArg::Free)]
    inputs: InputsArg,
    /// The input format (default: from the file extension; .bnet otherwise).
    #[arg(long, value_enum)]
    format: Option<FormatArg>,
    /// Largest decision diagram allowed, in nodes (exceeding it is a resource limit, exit 3).
    #[arg(long, default_value_t = 20_000_000)]
    node_limit: usize,
}

#[derive(ValueEnum, Clone, Copy, Debug)]
pub enum MethodArg {
    Decomposition,
    Monolithic,
    Bruteforce,
}

#[derive(ValueEnum, Clone, Copy, Debug)]
pub enum DetectArg {
    Periods,
    Gfp,
}

#[derive(ValueEnum, Clone, Copy, Debug)]
pub enum InputsArg {
    Free,
    Zero,
    One,
}

#[derive(ValueEnum, Clone, Copy, Debug)]
pub enum FormatArg {
    Bnet,
    Aeon,
    Sbml,
}

fn load(path: &Path, format: Option<FormatArg>) -> Result<(Network, SourceFile), CliError> {
    let src = read_input(path)?;
    let fmt = match format {
        Some(FormatArg::Bnet) => Format::Bnet,
        Some(FormatArg::Aeon) => Format::Aeon,
        Some(FormatArg::Sbml) => Format::Sbml,
        None => Format::from_path(&path.to_string_lossy()),
    };
    let net =
        verikit_boolnet::parse(&src.text, fmt).map_err(|d| CliError::from_error(d, Some(&src)))?;
    Ok((net, src))
}

fn inputs(a: InputsArg) -> InputMode {
    match a {
        InputsArg::Free => InputMode::Free,
        InputsArg::Zero => InputMode::Zero,
        InputsArg::One => InputMode::One,
    }
}

fn limits(ctx: &Ctx, c: &CommonOpts) -> Limits {
    Limits {
        node_limit: c.node_limit,
        deadline: ctx.deadline(),
    }
}

/// A big count as a JSON number when it fits, else as a decimal string.
fn big(c: &verikit_boolnet::BigUint) -> Value {
    match u64::try_from(c) {
        Ok(v) => json!(v),
        Err(_) => json!(c.to_string()),
    }
}

pub fn run(cmd: BnCmd, ctx: &Ctx) -> Result<Report, CliError> {
    let t0 = Instant::now();
    match cmd {
        BnCmd::Attractors {
            model,
            method,
            leaf_removal: _,
            no_leaf_removal,
            detect,
            limit,
            common,
        } => {
            let (net, src) = load(&model, common.format)?;
            let method = match method {
                MethodArg::Decomposition => Method::Decomposition,
                MethodArg::Monolithic => Method::Monolithic,
                MethodArg::Bruteforce => Method::BruteForce,
            };
            let opts = Options {
                method,
                inputs: inputs(common.inputs),
                leaf_removal: !no_leaf_removal,
                detect: match detect {
                    DetectArg::Periods => Detect::Periods,
                    DetectArg::Gfp => Detect::Gfp,
                },
                limit,
                limits: limits(ctx, &common),
                ..Options::default()
            };
            let r = verikit_boolnet::attractors(&net, &opts)
                .map_err(|e| CliError::from_error(e, Some(&src)))?;
            Ok(attractor_report(
                &net,
                &r,
                method,
                &opts,
                t0.elapsed().as_secs_f64(),
            ))
        }
        BnCmd::FixedPoints {
            model,
            limit,
            common,
        } => {
            let (net, src) = load(&model, common.format)?;
            let (count, listed) = verikit_boolnet::fixed_points(
                &net,
                inputs(common.inputs),
                limit,
                limits(ctx, &common),
            )
            .map_err(|e| CliError::from_error(e, Some(&src)))?;
            let time = t0.elapsed().as_secs_f64();
            let mut r = Report::with_verdict(count.to_string())
                .field("fixed_point_count", big(&count))
                .field("variables", &net.names)
                .field(
                    "fixed_points",
                    listed.iter().map(|s| state_string(s)).collect::<Vec<_>>(),
                )
                .field("time_s", time)
                .line(format!(
                    "{count} fixed points ({} variables) in {time:.3} s",
                    net.len()
                ));
            if !listed.is_empty() {
                r = r.line(format!("variables: {}", net.names.join(" ")));
            }
            for s in &listed {
                r = r.line(state_string(s));
            }
            if u64::try_from(&count).map_or(true, |c| c as usize > listed.len()) {
                r = r.line(format!(
                    "(listed {} of {count}; raise --limit to see more)",
                    listed.len()
                ));
            }
            Ok(r)
        }
        BnCmd::Info { model, common } => {
            let (net, _src) = load(&model, common.format)?;
            Ok(info_report(
                &net,
                inputs(common.inputs),
                t0.elapsed().as_secs_f64(),
            ))
        }
        BnCmd::Gen {
            nodes,
            non_leaves,
            k,
            module,
            seed,
            output,
        } => {
            if nodes == 0 || nodes > verikit_boolnet::symbolic::MAX_VARS {
                return Err(CliError::Usage(format!(
                    "--nodes must be between 1 and {}",
                    verikit_boolnet::symbolic::MAX_VARS
                )));
            }
            let net = generate::random(generate::GenParams {
                nodes,
                core: non_leaves,
                k,
                module,
                seed,
            });
            let text = bnet::write(&net);
            let mut r = Report::new()
                .field("nodes", nodes)
                .field("non_leaves", non_leaves)
                .field("k", k)
                .field("seed", seed);
            match output {
                Some(p) => {
                    write_output(&p, &text, &[])?;
                    r = r.line(format!(
                        "wrote {} ({nodes} nodes, {non_leaves} non-leaves, K={k}, seed {seed})",
                        p.display()
                    ));
                }
                None => {
                    r = r.field("bnet", &text);
                    r.text = text;
                }
            }
            Ok(r)
        }
        BnCmd::Convert {
            model,
            output,
            common,
        } => {
            let (net, _src) = load(&model, common.format)?;
            match output {
                Some(p) => {
                    let text = if p.to_string_lossy().to_ascii_lowercase().ends_with(".aeon") {
                        aeon::write(&net)
                    } else {
                        bnet::write(&net)
                    };
                    write_output(&p, &text, &[&model])?;
                    Ok(Report::new()
                        .field("output", p.display().to_string())
                        .line(format!("wrote {}", p.display())))
                }
                None => {
                    let text = bnet::write(&net);
                    let mut r = Report::new().field("bnet", &text);
                    r.text = text;
                    Ok(r)
                }
            }
        }
    }
}

fn attractor_report(
    net: &Network,
    r: &Attractors,
    method: Method,
    opts: &Options,
    time: f64,
) -> Report {
    let method_name = match method {
        Method::Decomposition => "decomposition",
        Method::Monolithic => "monolithic",
        Method::BruteForce => "bruteforce",
    };
    let count_text = match &r.attractor_count {
        Some(c) => c.to_string(),
        None => "an uncounted number of".to_string(),
    };
    let attractors: Vec<Vec<String>> = r
        .listed
        .iter()
        .map(|c| c.iter().map(|s| state_string(s)).collect())
        .collect();
    let verdict = r
        .attractor_count
        .as_ref()
        .map_or("uncounted".to_string(), |c| c.to_string());
    let mut rep = Report::with_verdict(verdict)
        .field("attractor_count", r.attractor_count.as_ref().map(big))
        .field("fixed_point_count", big(&r.fixed_point_count))
        .field("attractor_state_count", big(&r.attractor_state_count))
        .field("variables", &r.names)
        .field("attractors", &attractors)
        .field("complete", r.complete)
        .field("method", method_name)
        .field("leaf_removal", opts.leaf_removal && method != Method::BruteForce)
        .field("detect", if opts.detect == Detect::Gfp { "gfp" } else { "periods" })
        .field("inputs", net.inputs().len())
        .field(
            "stats",
            json!({"blocks": r.stats.blocks, "max_credit": r.stats.max_credit, "realisations": r.stats.realisations,
                   "largest_block": r.stats.largest_block, "non_leaves": r.stats.non_leaves}),
        )
        .field("time_s", time);
    rep = rep.line(format!(
        "{count_text} attractors ({} fixed points, {} attractor states) — {} variables, {} inputs, {method_name}, {time:.3} s",
        r.fixed_point_count,
        r.attractor_state_count,
        net.len(),
        net.inputs().len()
    ));
    if !r.listed.is_empty() {
        rep = rep.line(format!("variables: {}", r.names.join(" ")));
    }
    for (i, c) in attractors.iter().enumerate() {
        if c.len() == 1 {
            rep = rep.line(format!("attractor {} (fixed point): {}", i + 1, c[0]));
        } else {
            rep = rep.line(format!(
                "attractor {} (cycle of {}): {}",
                i + 1,
                c.len(),
                c.join(" -> ")
            ));
        }
    }
    if !r.complete {
        rep = rep.line(format!(
            "(listed {} attractors; raise --limit to see more)",
            r.listed.len()
        ));
    }
    rep
}

fn info_report(net: &Network, mode: InputMode, time: f64) -> Report {
    let f = net.resolved(mode);
    let all: Vec<usize> = (0..net.len()).collect();
    let blocks = decomposition::form_blocks(&f, &all);
    let core = leaf_removal::non_leaves(&f);
    let inputs: Vec<&str> = net
        .inputs()
        .iter()
        .map(|&i| net.names[i].as_str())
        .collect();
    let name = |i: &usize| net.names[*i].clone();
    let jblocks: Vec<Value> = blocks
        .iter()
        .map(|b| {
            json!({"nodes": b.scc.iter().map(name).collect::<Vec<_>>(),
                   "control_nodes": b.controls.iter().map(name).collect::<Vec<_>>(),
                   "parents": b.parents, "credit": b.credit})
        })
        .collect();
    let nontrivial = blocks
        .iter()
        .filter(|b| b.scc.len() > 1 || f[b.scc[0]].vars().contains(&(b.scc[0] as u32)))
        .count();
    let mut r = Report::new()
        .field("variables", net.len())
        .field("inputs", &inputs)
        .field("regulations", net.regulation_count())
        .field("blocks", &jblocks)
        .field("non_leaves", core.len())
        .field("max_credit", blocks.iter().map(|b| b.credit).max().unwrap_or(0))
        .field("time_s", time)
        .line(format!(
            "{} variables ({} inputs), {} regulations, {} SCC blocks ({} with a cycle), highest credit {}, {} non-leaf nodes",
            net.len(),
            inputs.len(),
            net.regulation_count(),
            blocks.len(),
            nontrivial,
            blocks.iter().map(|b| b.credit).max().unwrap_or(0),
            core.len()
        ));
    if !inputs.is_empty() {
        r = r.line(format!("inputs: {}", inputs.join(" ")));
    }
    for (i, b) in blocks.iter().enumerate() {
        let nodes: Vec<String> = b.scc.iter().map(name).collect();
        let ctrl: Vec<String> = b.controls.iter().map(name).collect();
        r = r.line(format!(
            "block {} (credit {}): {{{}}}{}",
            i + 1,
            b.credit,
            nodes.join(", "),
            if ctrl.is_empty() {
                String::new()
            } else {
                format!(" controlled by {{{}}}", ctrl.join(", "))
            }
        ));
    }
    r
}

pub fn demo(ctx: &Ctx) -> Result<Vec<(String, Report)>, CliError> {
    let t0 = Instant::now();
    let src = SourceFile::new(
        "demo/bn/example5.bnet",
        include_str!("../../demo/bn/example5.bnet"),
    );
    let net = bnet::parse(&src.text).map_err(|d| CliError::from_error(d, Some(&src)))?;
    let opts = Options {
        limits: Limits {
            deadline: ctx.deadline(),
            ..Limits::default()
        },
        ..Options::default()
    };
    let r = verikit_boolnet::attractors(&net, &opts)
        .map_err(|e| CliError::from_error(e, Some(&src)))?;
    let rep = attractor_report(
        &net,
        &r,
        Method::Decomposition,
        &opts,
        t0.elapsed().as_secs_f64(),
    );
    Ok(vec![(
        "attractors of the SETTA'17 Example 5 network (SCC decomposition)".to_string(),
        rep,
    )])
}
