//! Data-driven correctness: QVBS reference results (`qvbs/*/*/index.json`, mostly exact values
//! computed by Storm) and PRISM benchmark-suite construction logs (state and transition counts).
//! With `VERIKIT_PRISM_ALL=1` every instance up to [`CI_MAX_STATES`] states runs here; by default
//! (CI) the reference-result test runs the fixed sample in `tests/ci-instances.tsv` (every family
//! with a small instance, a few larger ones); every instance with a reference result, larger ones
//! included, is run (under a time cap) by `bench/engines/prism_refs.py`, summarised in
//! `bench/results/prism.md`.

use std::path::Path;
use verikit_prob::{
    build, check_model, parse_model, parse_properties, Answer, BuildOptions, CheckOptions, Checker,
    Model, Program, PropertiesFile, Property,
};

/// Quotes the huge `num`/`den` integers of QVBS result values so that serde_json accepts them.
fn quote_bigints(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest
        .find("\"num\":")
        .into_iter()
        .chain(rest.find("\"den\":"))
        .min()
    {
        let j = i + 6;
        out.push_str(&rest[..j]);
        let tail = &rest[j..];
        let ws = tail.len() - tail.trim_start().len();
        out.push_str(&tail[..ws]);
        let t = &tail[ws..];
        let n = t
            .find(|c: char| !(c.is_ascii_digit() || c == '-'))
            .unwrap_or(t.len());
        out.push('"');
        out.push_str(&t[..n]);
        out.push('"');
        rest = &t[n..];
    }
    out.push_str(rest);
    out
}

struct Instance {
    dir: std::path::PathBuf,
    model: String,
    props: String,
    consts: Vec<(String, String)>,
    states: Option<u64>,
    results: Vec<(String, serde_json::Value)>,
}

/// Every `(model directory, file entry)` of the QVBS indices of the Markov families.
fn index_entries(root: &Path) -> Vec<(std::path::PathBuf, serde_json::Value)> {
    let mut out = Vec::new();
    for fam in ["dtmc", "ctmc", "mdp"] {
        let Ok(rd) = std::fs::read_dir(root.join(fam)) else {
            continue;
        };
        let mut dirs: Vec<_> = rd.filter_map(|e| e.ok()).map(|e| e.path()).collect();
        dirs.sort();
        for d in dirs {
            let Ok(text) = std::fs::read_to_string(d.join("index.json")) else {
                continue;
            };
            let Ok(idx) = serde_json::from_str::<serde_json::Value>(&quote_bigints(&text)) else {
                panic!("cannot parse {}", d.display())
            };
            for f in idx["files"].as_array().into_iter().flatten() {
                out.push((d.clone(), f.clone()));
            }
        }
    }
    out
}

/// The PRISM-language model and properties file among an index entry's original files.
fn original_files(f: &serde_json::Value) -> (Option<String>, Option<String>) {
    let orig: Vec<&str> = f["original-file"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|o| o.as_str())
        .collect();
    let find = |exts: &[&str]| {
        orig.iter()
            .find(|o| exts.iter().any(|e| o.ends_with(e)))
            .map(|o| o.to_string())
    };
    (
        find(&[".prism", ".pm", ".nm", ".sm"]),
        find(&[".props", ".prctl", ".pctl", ".csl"]),
    )
}

/// `[{"name": n, "value": v}, …]` as `(n, v)` pairs (constants of an index entry).
fn name_values(v: &serde_json::Value) -> Vec<(String, String)> {
    v.as_array()
        .into_iter()
        .flatten()
        .map(|v| {
            (
                v["name"].as_str().unwrap_or("").to_string(),
                v["value"].to_string(),
            )
        })
        .collect()
}

/// One parameter instance of an index entry: its constants, Storm's state count (other tools
/// count differently) and its reference results; `None` above `max_states` or without a count.
type ParamInstance = (
    Vec<(String, String)>,
    Option<u64>,
    Vec<(String, serde_json::Value)>,
);

fn param_instances(f: &serde_json::Value, max_states: u64) -> Vec<ParamInstance> {
    let mut out = Vec::new();
    for inst in f["open-parameter-values"].as_array().into_iter().flatten() {
        let states = inst["states"][0]["number"].as_u64();
        let storm_count = inst["states"][0]["note"].as_str() == Some("Storm");
        if states.is_none_or(|s| s > max_states) {
            continue;
        }
        let results = inst["results"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|r| {
                (
                    r["property"].as_str().unwrap_or("").to_string(),
                    r["value"].clone(),
                )
            })
            .collect();
        out.push((
            name_values(&inst["values"]),
            states.filter(|_| storm_count),
            results,
        ));
    }
    out
}

fn instances(root: &Path, max_states: u64) -> Vec<Instance> {
    let mut out = Vec::new();
    for (d, f) in index_entries(root) {
        let (Some(model), Some(props)) = original_files(&f) else {
            continue;
        };
        if !d.join(&model).exists() {
            continue;
        }
        for (consts, states, results) in param_instances(&f, max_states) {
            if results.is_empty() {
                continue;
            }
            out.push(Instance {
                dir: d.clone(),
                model: model.clone(),
                props: props.clone(),
                consts,
                states,
                results,
            });
        }
    }
    out
}

fn reference(v: &serde_json::Value) -> Option<Answer> {
    match v {
        serde_json::Value::Bool(b) => Some(Answer::Bool(*b)),
        serde_json::Value::Number(n) => n.as_f64().map(Answer::Num),
        serde_json::Value::String(s) if s == "∞" => Some(Answer::Num(f64::INFINITY)),
        serde_json::Value::Object(o) => {
            if let Some(a) = o.get("approx").and_then(|a| a.as_f64()) {
                Some(Answer::Num(a))
            } else {
                let (l, u) = (o.get("lower")?.as_f64()?, o.get("upper")?.as_f64()?);
                Some(Answer::Num(0.5 * (l + u)))
            }
        }
        _ => None,
    }
}

/// Compares each named reference result with the property of that name (a missing property
/// is a failure); returns how many were compared.
fn compare_results(
    checker: &mut Checker,
    props: &[Property],
    results: &[(String, serde_json::Value)],
    name: &str,
    failures: &mut Vec<String>,
    mut unsupported: Option<&mut Vec<String>>,
) -> usize {
    let mut checked = 0;
    for (pname, v) in results {
        let Some(want) = reference(v) else { continue };
        let Some(p) = props
            .iter()
            .find(|p| p.name.as_deref() == Some(pname.as_str()))
        else {
            failures.push(format!("{name}: property {pname} not in the file"));
            continue;
        };
        checked += usize::from(compare_with_reference(
            checker,
            p,
            pname,
            &want,
            name,
            failures,
            unsupported.as_deref_mut(),
        ));
    }
    checked
}

/// Checks property `p` and compares its value with the reference `want`: a mismatch or an error
/// is a failure, except that an unsupported operator goes to `unsupported` when one is given.
/// Returns whether a value was compared.
fn compare_with_reference(
    checker: &mut Checker,
    p: &Property,
    pname: &str,
    want: &Answer,
    name: &str,
    failures: &mut Vec<String>,
    unsupported: Option<&mut Vec<String>>,
) -> bool {
    match checker.check(p, pname) {
        Ok(r) => {
            if !agrees(&r.answer, want) {
                failures.push(format!(
                    "{name}: {pname} = {} but reference is {want}",
                    r.answer
                ));
            }
            true
        }
        Err(e) => {
            let msg = format!("{name}: {pname}: {e}");
            match unsupported {
                Some(u) if e.to_string().contains("not supported") => u.push(msg),
                _ => failures.push(msg),
            }
            false
        }
    }
}

fn agrees(got: &Answer, want: &Answer) -> bool {
    match (got, want) {
        (Answer::Bool(a), Answer::Bool(b)) => a == b,
        (Answer::Num(a), Answer::Num(b)) => {
            if b.is_infinite() || a.is_infinite() {
                a == b
            } else {
                (a - b).abs() <= 1e-6 * b.abs() + 1e-12
            }
        }
        _ => false,
    }
}

/// Storm counts fewer states than PRISM for these models (its JANI translation merges
/// unreachable variable values differently); PRISM's own logs agree with verikit (see the
/// `prism_logs_state_counts` test).
const STORM_COUNT_DIFFERS: &[&str] = &["crowds"];

/// Known failures, reported rather than asserted (none: the Haddad–Monmege chains, whose escape
/// probability 2^-N vanishes below double precision, are solved by exact rational elimination).
const KNOWN_NUMERICAL: &[(&str, &str)] = &[];

/// Largest instance (reference state count) checked here: the instances up to this size take about
/// half a minute in all in release mode.
const CI_MAX_STATES: u64 = 30_000;

/// Whether to run every instance up to [`CI_MAX_STATES`] instead of the CI list.
fn all() -> bool {
    std::env::var("VERIKIT_PRISM_ALL").is_ok_and(|v| v == "1")
}

/// The CI list of [`qvbs_reference_results`]: `directory/model` and constants (`N=16,MAX=2`).
const CI_INSTANCES: &str = include_str!("ci-instances.tsv");

/// An instance as the CI list names it.
fn assert_no_failures(failures: &[String]) {
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// `dir/file [constants]`, how the failures name an instance.
fn instance_name(dir: &Path, file: &str, consts: &[(String, String)]) -> String {
    format!(
        "{}/{} {:?}",
        dir.file_name().unwrap_or_default().to_string_lossy(),
        file,
        consts
    )
}

fn inst_key(inst: &Instance) -> String {
    let dir = inst.dir.file_name().unwrap_or_default().to_string_lossy();
    let consts: Vec<String> = inst
        .consts
        .iter()
        .map(|(n, v)| format!("{n}={v}"))
        .collect();
    format!("{dir}/{}\t{}", inst.model, consts.join(","))
}

#[test]
fn qvbs_reference_results() {
    let root = verikit_testkit::require_data!("qvbs");
    let mut insts = instances(&root, CI_MAX_STATES);
    assert!(
        insts.len() > 40,
        "too few QVBS instances found: {}",
        insts.len()
    );
    if !all() {
        let ci: Vec<&str> = CI_INSTANCES
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .collect();
        insts.retain(|i| ci.contains(&inst_key(i).as_str()));
        assert_eq!(
            insts.len(),
            ci.len(),
            "instances of tests/ci-instances.tsv not among the QVBS instances"
        );
        assert!(insts.len() >= 15, "too small a CI list: {}", insts.len());
    }
    let mut failures = Vec::new();
    let mut checked = 0usize;
    let mut unsupported = Vec::new();
    for inst in &insts {
        let t0 = std::time::Instant::now();
        let dir_name = inst
            .dir
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .to_string();
        if KNOWN_NUMERICAL.iter().any(|(d, c)| {
            *d == dir_name && inst.consts.iter().any(|(n, v)| format!("{n}={v}") == *c)
        }) {
            eprintln!(
                "known numerical limitation, not checked: {dir_name} {:?}",
                inst.consts
            );
            continue;
        }
        let name = instance_name(&inst.dir, &inst.model, &inst.consts);
        let text = std::fs::read_to_string(inst.dir.join(&inst.model)).unwrap();
        let ptext = std::fs::read_to_string(inst.dir.join(&inst.props)).unwrap();
        let mf = parse_model(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let prog = check_model(&mf, &inst.consts).unwrap_or_else(|e| panic!("{name}: {e}"));
        let model =
            build(&prog, &BuildOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
        let model_dir = inst
            .dir
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .to_string();
        if let Some(s) = inst.states {
            if model.num_states() as u64 != s && !STORM_COUNT_DIFFERS.contains(&model_dir.as_str())
            {
                failures.push(format!(
                    "{name}: {} states, reference {s}",
                    model.num_states()
                ));
            }
        }
        let pf = parse_properties(&ptext).unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut checker = Checker::new(&model, &prog, &pf, &inst.consts, CheckOptions::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        checked += compare_results(
            &mut checker,
            &pf.properties,
            &inst.results,
            &name,
            &mut failures,
            Some(&mut unsupported),
        );
        eprintln!(
            "TIME\t{}\t{:.3}",
            inst_key(inst),
            t0.elapsed().as_secs_f64()
        );
    }
    eprintln!(
        "checked {checked} reference results on {} instances",
        insts.len()
    );
    eprintln!(
        "{} results use unsupported operators:\n{}",
        unsupported.len(),
        unsupported.join("\n")
    );
    assert_no_failures(&failures);
}

struct LogEntry {
    model: std::path::PathBuf,
    consts: Vec<(String, String)>,
    fixdl: bool,
    states: u64,
    transitions: u64,
    choices: Option<u64>,
}

/// PRISM construction logs: `Command line: prism ./dtmcs/brp/brp.pm -const 'N=16,MAX=2' -fixdl …`
/// followed by `States:`, `Transitions:` and (MDPs) `Choices:` lines.
fn prism_logs(root: &Path) -> Vec<LogEntry> {
    let mut out = Vec::new();
    for ty in ["dtmcs", "ctmcs", "mdps"] {
        let Ok(cases) = std::fs::read_dir(root.join(ty)) else {
            continue;
        };
        for case in cases.filter_map(|e| e.ok()) {
            let Ok(logs) = std::fs::read_dir(case.path().join("logs")) else {
                continue;
            };
            for log in logs.filter_map(|e| e.ok()) {
                let Ok(text) = std::fs::read_to_string(log.path()) else {
                    continue;
                };
                let Some(cmd) = text.lines().find_map(|l| l.strip_prefix("Command line: ")) else {
                    continue;
                };
                let words: Vec<&str> = cmd.split_whitespace().collect();
                let Some(model) = words.get(1) else { continue };
                let mut consts = Vec::new();
                if let Some(i) = words.iter().position(|w| *w == "-const") {
                    let c = words.get(i + 1).copied().unwrap_or("").trim_matches('\'');
                    consts = verikit_prob::parse_const_overrides(c).unwrap_or_default();
                }
                let num = |key: &str| -> Option<u64> {
                    text.lines()
                        .rev()
                        .find_map(|l| l.strip_prefix(key))
                        .and_then(|r| r.split_whitespace().next()?.parse().ok())
                };
                let (Some(states), Some(transitions)) = (num("States:"), num("Transitions:"))
                else {
                    continue;
                };
                out.push(LogEntry {
                    model: root.join(model.trim_start_matches("./")),
                    consts,
                    fixdl: words.contains(&"-fixdl"),
                    states,
                    transitions,
                    choices: num("Choices:"),
                });
            }
        }
    }
    out
}

#[test]
fn prism_logs_state_counts() {
    let root = verikit_testkit::require_data!("prism/models");
    let mut logs = prism_logs(&root);
    logs.retain(|l| l.states <= 40_000 && l.transitions <= 400_000);
    logs.sort_by_key(|l| l.states);
    assert!(logs.len() > 30, "too few PRISM logs: {}", logs.len());
    let mut failures = Vec::new();
    for l in &logs {
        let name = format!("{} {:?}", l.model.display(), l.consts);
        let Ok(text) = std::fs::read_to_string(&l.model) else {
            eprintln!("skip {name}: model file not in the data");
            continue;
        };
        let r = parse_model(&text)
            .map_err(verikit_prob::ProbError::from)
            .and_then(|mf| Ok(check_model(&mf, &l.consts)?))
            .and_then(|p| {
                build(
                    &p,
                    &BuildOptions {
                        fix_deadlocks: true,
                        ..BuildOptions::default()
                    },
                )
            });
        match r {
            Err(e) => failures.push(format!("{name}: {e}")),
            Ok(m) => {
                let got = (m.num_states() as u64, m.num_transitions() as u64);
                if got != (l.states, l.transitions) {
                    failures.push(format!(
                        "{name}: {got:?} states/transitions, PRISM {:?}",
                        (l.states, l.transitions)
                    ));
                }
                if let Some(c) = l.choices {
                    if m.num_choices() as u64 != c {
                        failures.push(format!("{name}: {} choices, PRISM {c}", m.num_choices()));
                    }
                }
                let _ = l.fixdl;
            }
        }
    }
    eprintln!("compared {} PRISM construction logs", logs.len());
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Answers recorded from Storm (stormpy, sparse engine) by `bench/engines/prism.py --record`.
/// Storm's default value iteration is itself only accurate to about 1e-6 relative, so the
/// tolerance is 3e-6 relative.
#[test]
fn storm_recorded_answers() {
    let root = verikit_testkit::require_data!(".");
    let path = verikit_testkit::expected("prism-storm.tsv");
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("SKIP: {} missing", path.display());
        return;
    };
    // (model, constants, props file) -> [(property, value)]
    type Key = (String, String, String);
    let mut groups: Vec<(Key, Vec<(String, String)>)> = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<&str> = line.split('\t').collect();
        assert_eq!(f.len(), 4, "bad line {line}");
        let (props, name) = f[2].split_once(':').expect("props:name");
        let key = (f[0].to_string(), f[1].to_string(), props.to_string());
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, v)) => v.push((name.to_string(), f[3].to_string())),
            None => groups.push((key, vec![(name.to_string(), f[3].to_string())])),
        }
    }
    assert!(groups.len() >= 8, "too few recorded instances");
    let mut failures = Vec::new();
    let mut n = 0;
    for ((model, consts, props), expected) in &groups {
        let mpath = root.join(model);
        let ppath = mpath.parent().unwrap().join(props);
        let consts = verikit_prob::parse_const_overrides(consts).unwrap();
        let text = std::fs::read_to_string(&mpath).unwrap();
        let mf = parse_model(&text).unwrap();
        let prog = check_model(&mf, &consts).unwrap();
        let m = build(&prog, &BuildOptions::default()).unwrap();
        let pf = parse_properties(&std::fs::read_to_string(&ppath).unwrap()).unwrap();
        let mut c = Checker::new(&m, &prog, &pf, &consts, CheckOptions::default()).unwrap();
        for (name, want) in expected {
            let p = pf
                .properties
                .iter()
                .find(|p| p.name.as_deref() == Some(name.as_str()))
                .expect("property");
            let got = match c.check(p, name) {
                Ok(r) => r.answer,
                Err(e) => {
                    failures.push(format!("{model} {name}: {e}"));
                    continue;
                }
            };
            n += 1;
            let ok = match (&got, want.as_str()) {
                (Answer::Bool(b), w) => w.eq_ignore_ascii_case(&b.to_string()),
                (Answer::Num(x), "Infinity") | (Answer::Num(x), "inf") => x.is_infinite(),
                (Answer::Num(x), w) => w
                    .parse::<f64>()
                    .is_ok_and(|y| (x - y).abs() <= 3e-6 * y.abs() + 1e-12),
            };
            if !ok {
                failures.push(format!(
                    "{model} {consts:?} {name}: verikit {got}, Storm {want}"
                ));
            }
        }
    }
    eprintln!("compared {n} answers recorded from Storm");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A PRISM-language twin: model file, properties file, constants.
type Twin = (String, String, Vec<(String, String)>);

/// A JANI instance of the QVBS index: the `.jani` file, its open constants and reference data.
struct JaniInstance {
    dir: std::path::PathBuf,
    file: String,
    /// Whether the family also ships a PRISM-language twin.
    has_twin: bool,
    /// The twin: PRISM model, properties file and its constants (file and open parameters).
    twin: Option<Twin>,
    consts: Vec<(String, String)>,
    states: Option<u64>,
    results: Vec<(String, serde_json::Value)>,
}

fn jani_instances(root: &Path, max_states: u64) -> Vec<JaniInstance> {
    let mut out = Vec::new();
    for (d, f) in index_entries(root) {
        let Some(file) = f["file"]
            .as_str()
            .filter(|x| x.ends_with(".jani") && d.join(x).exists())
        else {
            continue;
        };
        let (pm, pp) = original_files(&f);
        let has_twin = pm.is_some();
        let file_consts = name_values(&f["file-parameter-values"]);
        for (consts, states, results) in param_instances(&f, max_states) {
            let twin = match (&pm, &pp) {
                (Some(m), Some(p)) if d.join(m).exists() && d.join(p).exists() => {
                    let mut c = file_consts.clone();
                    c.extend(consts.iter().cloned());
                    Some((m.clone(), p.clone(), c))
                }
                _ => None,
            };
            out.push(JaniInstance {
                dir: d.clone(),
                file: file.to_string(),
                has_twin,
                twin,
                consts,
                states,
                results,
            });
        }
    }
    out
}

/// Reads, checks and builds a JANI instance: its properties, model and program, or the error.
fn load_jani(inst: &JaniInstance) -> Result<(PropertiesFile, Model, Program), String> {
    let text = std::fs::read_to_string(inst.dir.join(&inst.file)).map_err(|e| e.to_string())?;
    let jf = verikit_prob::parse_jani(&text).map_err(|e| e.to_string())?;
    let prog = check_model(&jf.model, &inst.consts).map_err(|e| e.to_string())?;
    let model = build(&prog, &BuildOptions::default()).map_err(|e| e.to_string())?;
    Ok((jf.props, model, prog))
}

fn check_jani_instance(inst: &JaniInstance, failures: &mut Vec<String>) -> usize {
    let name = instance_name(&inst.dir, &inst.file, &inst.consts);
    let t0 = std::time::Instant::now();
    let (props, model, prog) = match load_jani(inst) {
        Ok(x) => x,
        Err(e) => {
            failures.push(format!("{name}: {e}"));
            return 0;
        }
    };
    if let Some(s) = inst.states {
        if model.num_states() as u64 != s {
            failures.push(format!(
                "{name}: {} states, reference {s}",
                model.num_states()
            ));
        }
    }
    let mut checker =
        match Checker::new(&model, &prog, &props, &inst.consts, CheckOptions::default()) {
            Ok(c) => c,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                return 0;
            }
        };
    let checked = compare_results(
        &mut checker,
        &props.properties,
        &inst.results,
        &name,
        failures,
        None,
    );
    eprintln!(
        "{name}: {} states, {:.2} s",
        model.num_states(),
        t0.elapsed().as_secs_f64()
    );
    checked
}

/// Every JANI-only QVBS instance (no PRISM-language twin) with a reference result that fits
/// agrees within 1e-6, with Storm's state count.
#[test]
fn qvbs_jani_only_reference_results() {
    let root = verikit_testkit::require_data!("qvbs");
    let insts: Vec<JaniInstance> = jani_instances(&root, CI_MAX_STATES)
        .into_iter()
        .filter(|i| !i.has_twin && !i.results.is_empty())
        .collect();
    assert!(
        insts.len() >= 3,
        "too few JANI-only instances: {}",
        insts.len()
    );
    let mut failures = Vec::new();
    let mut checked = 0;
    for inst in &insts {
        checked += check_jani_instance(inst, &mut failures);
    }
    eprintln!(
        "checked {checked} reference results on {} JANI-only instances",
        insts.len()
    );
    assert_no_failures(&failures);
}

/// PRISM/JANI twins (QVBS ships both for most families): the JANI translation builds the same
/// number of states, transitions and choices as the PRISM model, every property both files name
/// gets the same value, and the JANI answers agree with the QVBS references.
#[test]
fn qvbs_prism_jani_twins() {
    let root = verikit_testkit::require_data!("qvbs");
    let insts: Vec<JaniInstance> = jani_instances(&root, TWIN_MAX_STATES)
        .into_iter()
        .filter(|i| i.twin.is_some())
        .collect();
    assert!(insts.len() >= 20, "too few twins: {}", insts.len());
    let mut failures = Vec::new();
    let (mut compared, mut checked) = (0usize, 0usize);
    for inst in &insts {
        let Some((pm, pp, pconsts)) = &inst.twin else {
            continue;
        };
        let name = instance_name(&inst.dir, &inst.file, &inst.consts);
        if JANI_TWIN_SKIP.iter().any(|s| inst.file.starts_with(s)) {
            eprintln!("skip {name}: listed in JANI_TWIN_SKIP");
            continue;
        }
        let t0 = std::time::Instant::now();
        let (jprops, jm, jp) = match load_jani(inst) {
            Ok(x) => x,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        let ptext = std::fs::read_to_string(inst.dir.join(pm)).unwrap();
        let mf = parse_model(&ptext).unwrap_or_else(|e| panic!("{name}: {e}"));
        let pprog = check_model(&mf, pconsts).unwrap_or_else(|e| panic!("{name}: {e}"));
        let pmodel =
            build(&pprog, &BuildOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
        let counts =
            |m: &verikit_prob::Model| (m.num_states(), m.num_transitions(), m.num_choices());
        if counts(&jm) != counts(&pmodel) {
            failures.push(format!(
                "{name}: JANI (states, transitions, choices) {:?}, PRISM {:?}",
                counts(&jm),
                counts(&pmodel)
            ));
            continue;
        }
        let pf = parse_properties(&std::fs::read_to_string(inst.dir.join(pp)).unwrap())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut jc = Checker::new(&jm, &jp, &jprops, &inst.consts, CheckOptions::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut pc = Checker::new(&pmodel, &pprog, &pf, pconsts, CheckOptions::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        for jprop in &jprops.properties {
            let Some(pname) = jprop.name.as_deref() else {
                continue;
            };
            let Some(pprop) = pf
                .properties
                .iter()
                .find(|p| p.name.as_deref() == Some(pname))
            else {
                continue;
            };
            let ja = match jc.check(jprop, pname) {
                Ok(r) => r.answer,
                Err(e) => {
                    failures.push(format!("{name}: {pname}: JANI: {e}"));
                    continue;
                }
            };
            let Ok(pa) = pc.check(pprop, pname).map(|r| r.answer) else {
                continue;
            };
            compared += 1;
            if !agrees(&ja, &pa) {
                failures.push(format!("{name}: {pname}: JANI {ja}, PRISM {pa}"));
            }
            if let Some(want) = inst
                .results
                .iter()
                .find(|(n, _)| n == pname)
                .and_then(|(_, v)| reference(v))
            {
                checked += 1;
                if !agrees(&ja, &want) {
                    failures.push(format!("{name}: {pname}: JANI {ja}, reference {want}"));
                }
            }
        }
        eprintln!("{name}: {:.2} s", t0.elapsed().as_secs_f64());
    }
    eprintln!(
        "compared {compared} values of {} PRISM/JANI twins ({checked} against references)",
        insts.len()
    );
    assert_no_failures(&failures);
}

/// Largest twin (reference state count) compared here.
const TWIN_MAX_STATES: u64 = 3_000;

/// Twins not compared, with the reason (none).
const JANI_TWIN_SKIP: &[&str] = &[];
