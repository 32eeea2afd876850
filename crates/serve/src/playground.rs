//! One function per page: the request's fields → the engine's entry point (the one its CLI
//! command calls) → its `Answer`, or a [`Failure`] carrying the CLI's rendered error text.

use serde::Deserialize;
use verikit_automata::{self as automata, CheckOptions};
use verikit_boolnet::{self as boolnet, BnError, Format, InputMode, Limits};
use verikit_diag::{Answer, Budget, Failure, Params, Reportable, SourceFile};
use verikit_omega::task::{self as ltl_task, Show, TranslateJob};
use verikit_prob::task::{self as prism_task, CheckSpec};
use verikit_prob::{BuildOptions, CheckOptions as PrismOptions};
use verikit_smt::task::{self as smt_task, Outcome, SmtTask};

/// The pages (and `POST /api/<name>` endpoints) the playground serves.
pub const ENGINES: &[&str] = &["ltl", "smt", "nfa", "prism", "bn"];

/// Why a request has no answer: the [`Failure`] every front end reports (rendered as the CLI
/// renders it), after the text the command had already printed (an SMT-LIB script's answers
/// before its bad command).
#[derive(Debug)]
pub(crate) struct Refused {
    pub(crate) printed: String,
    pub(crate) failure: Failure,
}

impl From<Failure> for Refused {
    fn from(failure: Failure) -> Self {
        Refused {
            printed: String::new(),
            failure,
        }
    }
}

pub(crate) type Reply = Result<Answer, Refused>;

fn failure<E: Reportable>(e: E, file: Option<&SourceFile>) -> Failure {
    Failure::from_error(e, file)
}

fn usage(m: String) -> Refused {
    Failure::Usage(m).into()
}

/// A request of one page, as the page's script sends it.
#[derive(Debug, Deserialize)]
#[serde(tag = "engine", rename_all = "lowercase", deny_unknown_fields)]
pub(crate) enum Request {
    /// `ltl translate` (with `--sba` when `sba`), plus the automaton as SVG.
    Ltl {
        formula: String,
        #[serde(default)]
        sba: bool,
    },
    /// `smt FILE --check`.
    Smt { script: String },
    /// `nfa incl A B`, `nfa equiv A B` or `nfa univ A` (`question`), formats detected as for
    /// files without a known extension unless `format` names one.
    Nfa {
        a: String,
        #[serde(default)]
        b: String,
        #[serde(default)]
        question: String,
        #[serde(default)]
        format: String,
    },
    /// `prism check MODEL --pf PROPERTIES --const CONSTANTS --prop PROPERTY` (a JANI model
    /// carries its own properties; `property` selects by name or 1-based index, comma lists).
    Prism {
        model: String,
        #[serde(default)]
        properties: String,
        #[serde(default)]
        constants: String,
        #[serde(default)]
        property: String,
    },
    /// `bn attractors` or `bn fixed-points` (`question`) of a `.bnet` (or `format`) network.
    Bn {
        network: String,
        #[serde(default)]
        question: String,
        #[serde(default)]
        format: String,
    },
}

/// Answers one request within `budget`.
pub(crate) fn answer(req: Request, budget: &Budget) -> Reply {
    match req {
        Request::Ltl { formula, sba } => ltl(formula, sba, budget),
        Request::Smt { script } => smt(script, budget),
        Request::Nfa {
            a,
            b,
            question,
            format,
        } => nfa(a, b, &question, &format, budget),
        Request::Prism {
            model,
            properties,
            constants,
            property,
        } => prism(model, properties, &constants, &property, budget),
        Request::Bn {
            network,
            question,
            format,
        } => bn(network, &question, &format, budget),
    }
}

fn ltl(formula: String, sba: bool, budget: &Budget) -> Reply {
    let job = TranslateJob {
        options: verikit_omega::TranslateOptions {
            sba,
            ..Default::default()
        },
        show: Show::Hoa,
        ..TranslateJob::default()
    };
    let file = SourceFile::new("<formula>", formula);
    let (aut, a) = ltl_task::translate_formula(&file.text, 0, &job, budget)
        .map_err(|e| failure(e, Some(&file)))?;
    Ok(a.detail("svg", verikit_omega::to_svg(&aut)))
}

fn smt(script: String, budget: &Budget) -> Reply {
    let tuning = smt_task::tuning(&Params::default()).map_err(Failure::Internal)?;
    let task = SmtTask {
        check: true,
        stats: false,
        budget: budget.clone(),
        tuning,
    };
    match smt_task::run_text(&task, &script) {
        Outcome::Done(a) => Ok(a),
        Outcome::Failed(a, d) => {
            let file = SourceFile::new("script.smt2", script);
            Err(Refused {
                printed: a.text,
                failure: Failure::Input(d, Some(Box::new(file))),
            })
        }
        Outcome::CheckFailed(a) => {
            Err(Failure::Internal(format!("check failed:\n{}", a.text)).into())
        }
    }
}

fn nfa(a: String, b: String, question: &str, format: &str, budget: &Budget) -> Reply {
    let from = match format {
        "" | "auto" => None,
        f => Some(f),
    };
    let opts = CheckOptions::new("auto", "none", from, &Params::default());
    let (a, b) = (SourceFile::new("A", a), SourceFile::new("B", b));
    let r = match question {
        "" | "incl" => automata::incl(&a, &b, &opts, budget),
        "equiv" => automata::equiv(&a, &b, &opts, budget),
        "univ" => automata::univ(&a, &opts, budget),
        q => {
            return Err(usage(format!(
                "unknown question `{q}` (incl, equiv or univ)"
            )))
        }
    };
    Ok(r.map_err(Failure::from)?)
}

fn prism(
    model: String,
    properties: String,
    constants: &str,
    property: &str,
    budget: &Budget,
) -> Reply {
    let consts = SourceFile::new("<constants>", constants.to_string());
    let overrides = match constants.trim() {
        "" => Vec::new(),
        c => verikit_prob::parse_const_overrides(c)
            .map_err(|d| Failure::Input(Box::new(d), Some(Box::new(consts))))?,
    };
    let spec = CheckSpec {
        overrides,
        selectors: match property.trim() {
            "" => Vec::new(),
            p => vec![p.to_string()],
        },
        build: BuildOptions {
            budget: budget.clone(),
            ..BuildOptions::default()
        },
        check: PrismOptions {
            budget: budget.clone(),
            ..PrismOptions::default()
        },
        ..CheckSpec::default()
    };
    let jani = prism_task::is_jani(None, &model);
    let (model, props) = (
        SourceFile::new("model.prism", model),
        SourceFile::new("properties.props", properties),
    );
    let ptext = (!jani).then_some(props.text.as_str());
    let mut items = Vec::new();
    let out = prism_task::run_check(&model.text, jani, ptext, &spec, &mut |i| items.push(i))
        .map_err(|e| {
            if e.0.is_timeout() {
                return Failure::Limit(e.0.to_string());
            }
            let file = match e.1 {
                prism_task::Origin::Props => &props,
                prism_task::Origin::Model => &model,
            };
            failure(e.0, Some(file))
        })?;
    let mut a = out.answer;
    items.into_iter().for_each(|i| a.push_result(i));
    Ok(a)
}

fn bn(network: String, question: &str, format: &str, budget: &Budget) -> Reply {
    let format = match format {
        "" | "auto" => None,
        f => Some(f.parse::<Format>().map_err(|m: String| usage(m))?),
    };
    let src = SourceFile::new("network.bnet", network);
    let net = boolnet::load(&src.text, &src.name, format)
        .map_err(|d| failure(BnError::from(d), Some(&src)))?;
    let limits = Limits {
        node_limit: boolnet::DEFAULT_NODE_LIMIT,
        budget: budget.clone(),
    };
    let r = match question {
        "" | "attractors" => {
            let opts = boolnet::Options {
                limits,
                ..boolnet::Options::default()
            };
            boolnet::attractors_answer(&net, &opts)
        }
        "fixed-points" => boolnet::fixed_points_answer(&net, InputMode::Free, 100, limits),
        q => {
            let m = format!("unknown question `{q}` (attractors or fixed-points)");
            return Err(usage(m));
        }
    };
    Ok(r.map_err(|e| failure(e, Some(&src)))?)
}
