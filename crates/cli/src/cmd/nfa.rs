//! `verikit nfa`: universality, inclusion and equivalence of finite automata (antichains, HK,
//! HKC), random automata (Tabakov–Vardi), reduction (bisimulation, simulation), format conversion.

use crate::report::{read_input, write_output, CliError, Ctx, Report};
use clap::{Args, Subcommand, ValueEnum};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::time::Instant;
use verikit_automata::replay::{check, Claim};
use verikit_automata::{
    ba, bisim, dot, gen, hkc_bdd, lrt, mata, reconcile, saturation, simulation, EquivAlgo,
    InclAlgo, Nfa, Outcome, Preprocess, Reconciliation, UnivAlgo,
};
use verikit_diag::SourceFile;

#[derive(Subcommand, Debug)]
pub enum NfaCmd {
    /// Is L(A) = Σ*? A "false" answer prints a rejected word.
    Univ {
        /// The automaton (.mata, BA, Timbuk or regex; `-` for standard input).
        a: PathBuf,
        #[arg(long, value_enum, default_value_t = UnivChoice::Auto)]
        algo: UnivChoice,
        #[command(flatten)]
        input: InputOpts,
    },
    /// Is L(A) ⊆ L(B)? A "false" answer prints a word accepted by A and rejected by B.
    Incl {
        /// The automaton A (.mata, BA, Timbuk or regex; `-` for standard input).
        a: PathBuf,
        /// The automaton B.
        b: PathBuf,
        #[arg(long, value_enum, default_value_t = InclChoice::Auto)]
        algo: InclChoice,
        /// Antichains: do not ignore states that cannot reach an accepting state (experiments).
        #[arg(long)]
        no_prune: bool,
        /// Preprocessing (SETTA'17 §3.5): quotient by bisimilarity, or saturate w.r.t. similarity.
        #[arg(long, value_enum, default_value_t = PreChoice::None)]
        pre: PreChoice,
        #[command(flatten)]
        input: InputOpts,
    },
    /// Is L(A) = L(B)? A "false" answer prints a word accepted by exactly one of them.
    Equiv {
        /// The automaton A (.mata, BA, Timbuk or regex; `-` for standard input).
        a: PathBuf,
        /// The automaton B.
        b: PathBuf,
        #[arg(long, value_enum, default_value_t = EquivChoice::Auto)]
        algo: EquivChoice,
        /// Turn off memoisation of the todo list (naive, hk, hkc).
        #[arg(long)]
        no_memo: bool,
        /// Quotient both automata by bisimilarity first (same as `--pre bisim`).
        #[arg(long)]
        bisim: bool,
        /// Preprocessing (SETTA'17 §3.5): quotient by bisimilarity, or saturate w.r.t. similarity.
        #[arg(long, value_enum, default_value_t = PreChoice::None)]
        pre: PreChoice,
        /// Antichains: do not ignore states that cannot reach an accepting state (experiments).
        #[arg(long)]
        no_prune: bool,
        #[command(flatten)]
        input: InputOpts,
    },
    /// Random NFA in the Tabakov–Vardi model (one initial state).
    Gen {
        /// Number of states |Q|.
        #[arg(long, short = 'n')]
        states: usize,
        /// Number of letters |Σ|.
        #[arg(long, short = 'k', default_value_t = 2)]
        letters: usize,
        /// Transition density r (transitions per state and letter).
        #[arg(long, short = 'r', default_value_t = 2.0)]
        density: f64,
        /// Final-state density f (fraction of accepting states).
        #[arg(long, short = 'f', default_value_t = 1.0)]
        final_density: f64,
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// The initial state.
        #[arg(long, default_value_t = 0)]
        initial: u32,
        #[command(flatten)]
        output: OutputOpts,
    },
    /// Reduce an automaton: quotient by bisimilarity or by simulation equivalence.
    Reduce {
        /// The automaton (.mata, BA, Timbuk or regex; `-` for standard input).
        a: PathBuf,
        #[arg(long, value_enum, default_value_t = ReduceMethod::Bisim)]
        method: ReduceMethod,
        #[command(flatten)]
        input: InputOpts,
        #[command(flatten)]
        output: OutputOpts,
    },
    /// Convert between .mata, BA, Timbuk, regular expressions (input) and DOT (output).
    Convert {
        /// The automaton (.mata, BA, Timbuk or regex; `-` for standard input).
        a: PathBuf,
        #[command(flatten)]
        input: InputOpts,
        #[command(flatten)]
        output: OutputOpts,
    },
    /// Size, alphabet and density of an automaton.
    Info {
        /// The automaton (.mata, BA, Timbuk or regex; `-` for standard input).
        a: PathBuf,
        #[command(flatten)]
        input: InputOpts,
    },
}

#[derive(Args, Debug, Clone)]
pub struct InputOpts {
    /// Input format (default: from the extension, `.ba` is BA, `.timbuk`/`.tmb` Timbuk,
    /// `.re`/`.regex` a regular expression, otherwise by content).
    #[arg(long, value_enum)]
    from: Option<Format>,
}

#[derive(Args, Debug, Clone)]
pub struct OutputOpts {
    /// Write the automaton here (default: standard output).
    #[arg(long, short = 'o')]
    output: Option<PathBuf>,
    #[arg(long, value_enum, default_value_t = Format::Mata)]
    to: Format,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Mata,
    Ba,
    Timbuk,
    /// Regular expression (input only).
    Regex,
    /// Graphviz (output only).
    Dot,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnivChoice {
    /// A short forward antichain run, then backward antichains (CPre, CAV'06 Algorithm 1).
    Auto,
    Backward,
    Forward,
    Subset,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum InclChoice {
    /// Forward antichains.
    Auto,
    Antichain,
    AntichainSim,
    /// HKC on A ∪ B against B.
    Hkc,
    /// Symbolic antichains: letters as BDDs over the atoms of `@NFA-bits` automata (no
    /// mintermisation).
    #[value(alias = "symbolic")]
    AntichainBdd,
    Subset,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum EquivChoice {
    /// HKC for |Σ| ≤ 10 and density ≥ 1.25, else antichains (measured on the SETTA'17 grids).
    Auto,
    Antichain,
    /// Two antichain inclusions with simulation subsumption.
    AntichainSim,
    Hkc,
    /// Symbolic HKC: letters as BDDs over the atoms of `@NFA-bits` automata (no mintermisation).
    #[value(alias = "symbolic")]
    HkcBdd,
    Hk,
    Naive,
    Subset,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum PreChoice {
    None,
    /// Quotient both automata by bisimilarity (Paige–Tarjan).
    Bisim,
    /// Saturate both automata w.r.t. the similarity of A ⊕ B.
    Sim,
}

impl PreChoice {
    fn lib(self) -> Preprocess {
        match self {
            PreChoice::None => Preprocess::None,
            PreChoice::Bisim => Preprocess::Bisim,
            PreChoice::Sim => Preprocess::Sim,
        }
    }
    fn suffix(self) -> &'static str {
        match self {
            PreChoice::None => "",
            PreChoice::Bisim => "+bisim",
            PreChoice::Sim => "+sim",
        }
    }
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReduceMethod {
    /// Quotient by bisimilarity (Paige–Tarjan).
    Bisim,
    /// Quotient by simulation equivalence (the simulation by the measured-fastest algorithm).
    Sim,
    /// As `sim`, the simulation computed by Holík–Šimáček (partition–relation pairs).
    SimHs,
    /// As `sim`, the simulation computed by LRT (counters per state).
    SimLrt,
    /// Saturate w.r.t. similarity (SETTA'17 §3.5): more transitions, same states and language.
    Saturate,
    /// As `sim`, the simulation computed by the plain fixed point (the reference algorithm).
    SimFixpoint,
}

/// A parsed input: its source (for error locations) and the automaton text kind.
struct Loaded {
    src: SourceFile,
    mata: Option<mata::MataAut>,
    nfa: Option<Nfa>,
}

fn detect(path: &Path, src: &SourceFile, from: Option<Format>) -> Format {
    if let Some(f) = from {
        return f;
    }
    if path.extension().is_some_and(|e| e == "ba") {
        return Format::Ba;
    }
    if path.extension().is_some_and(|e| e == "re" || e == "regex") {
        return Format::Regex;
    }
    if path
        .extension()
        .is_some_and(|e| e == "timbuk" || e == "tmb")
    {
        return Format::Timbuk;
    }
    let first = src
        .text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .unwrap_or("");
    if first.starts_with('@')
        || first.starts_with('%')
        || path.extension().is_some_and(|e| e == "mata")
    {
        Format::Mata
    } else {
        Format::Ba
    }
}

fn load(path: &Path, from: Option<Format>) -> Result<Loaded, CliError> {
    let src = read_input(path)?;
    match detect(path, &src, from) {
        Format::Mata => {
            let m = mata::parse(&src.text).map_err(|d| CliError::from_error(d, Some(&src)))?;
            Ok(Loaded {
                src,
                mata: Some(m),
                nfa: None,
            })
        }
        f @ (Format::Ba | Format::Timbuk | Format::Regex) => {
            let parse: fn(&str) -> Result<verikit_automata::Nfa, verikit_diag::Diagnostic> = match f
            {
                Format::Ba => ba::parse,
                Format::Timbuk => verikit_automata::timbuk::parse,
                _ => verikit_automata::regex::parse,
            };
            let n = parse(&src.text).map_err(|d| CliError::from_error(d, Some(&src)))?;
            Ok(Loaded {
                src,
                mata: None,
                nfa: Some(n),
            })
        }
        Format::Dot => Err(CliError::Usage("DOT is an output format only".into())),
    }
}

/// Loads one or two automata onto one alphabet (joint mintermisation for `@NFA-bits`, letters
/// matched by name otherwise, see `reconcile`).
fn load_all(paths: &[&Path], from: Option<Format>) -> Result<(Vec<Nfa>, Reconciliation), CliError> {
    let loaded: Vec<Loaded> = paths
        .iter()
        .map(|p| load(p, from))
        .collect::<Result<_, _>>()?;
    let mut nfas: Vec<Nfa> = Vec::new();
    if loaded.iter().all(|l| l.mata.is_some()) {
        let ms: Vec<mata::MataAut> = loaded.iter().filter_map(|l| l.mata.clone()).collect();
        // Bit-vector automata are mintermised together; explicit ones are joined by letter name
        // below, so that differing alphabets are reported.
        let all_bits = ms.iter().all(|m| m.kind == mata::MataKind::Bits);
        if all_bits {
            nfas = mata::build(&ms).map_err(|e| CliError::from_error(e, Some(&loaded[0].src)))?;
        } else {
            for m in ms {
                nfas.extend(mata::build(&[m]).map_err(|e| CliError::from_error(e, None))?);
            }
        }
    } else {
        for l in loaded {
            match (l.mata, l.nfa) {
                (Some(m), _) => nfas
                    .extend(mata::build(&[m]).map_err(|e| CliError::from_error(e, Some(&l.src)))?),
                (None, Some(n)) => nfas.push(n),
                (None, None) => return Err(CliError::Internal("nothing loaded".into())),
            }
        }
    }
    let mut rec = Reconciliation::default();
    if nfas.len() == 2 {
        let (a, b, r) = reconcile(&nfas[0], &nfas[1]);
        nfas = vec![a, b];
        rec = r;
    }
    Ok((nfas, rec))
}

/// `nfa equiv --algo hkc-bdd`: symbolic HKC on two `@NFA-bits` automata, witness replayed by
/// evaluating the label formulas.
/// Symbolic checks over `@NFA-bits` automata: equivalence by HKC (`incl` false) or inclusion by
/// antichains (`incl` true), letters as BDDs.
fn symbolic_check(
    a: &Path,
    b: &Path,
    from: Option<Format>,
    t0: Instant,
    incl: bool,
) -> Result<Report, CliError> {
    let algo = if incl { "antichain-bdd" } else { "hkc-bdd" };
    let la = load(a, from)?;
    let lb = load(b, from)?;
    let (Some(ma), Some(mb)) = (la.mata.clone(), lb.mata.clone()) else {
        return Err(CliError::Usage(format!(
            "--algo {algo} needs two `.mata` `@NFA-bits` automata"
        )));
    };
    let sys = hkc_bdd::build(&[ma, mb]).map_err(|e| CliError::from_error(e, Some(&la.src)))?;
    let t1 = Instant::now();
    let out = if incl {
        verikit_automata::antichain_bdd::included(&sys, &sys.auts[0], &sys.auts[1])
    } else {
        hkc_bdd::equivalent(&sys, &sys.auts[0], &sys.auts[1])
    };
    let check_s = t1.elapsed().as_secs_f64();
    let verdict = if out.holds { "true" } else { "false" };
    let sdesc = |n: &hkc_bdd::SymNfa| {
        json!({"states": n.states, "transitions": n.edges.len(), "atoms": sys.atoms.len(),
               "initial": n.initial.len(), "final": n.finals.count_ones(..)})
    };
    let mut r = Report::with_verdict(verdict)
        .field("algorithm", algo)
        .field("a", sdesc(&sys.auts[0]))
        .field("b", sdesc(&sys.auts[1]))
        .field("size", out.size)
        .field("explored", out.explored);
    let op = if incl { "⊆" } else { "=" };
    let mut text = vec![format!("{verdict}: L(A) {op} L(B)")];
    if let Some(w) = &out.witness {
        let in_a = hkc_bdd::accepts(&sys.auts[0], w);
        let in_b = hkc_bdd::accepts(&sys.auts[1], w);
        if in_a == in_b || (incl && !in_a) {
            return Err(CliError::Internal(format!(
                "the counterexample from `{algo}` does not replay"
            )));
        }
        let names: Vec<String> = w
            .iter()
            .map(|l| {
                let parts: Vec<String> = sys
                    .atoms
                    .iter()
                    .zip(l)
                    .map(|(n, &on)| format!("{}{n}", if on { "" } else { "!" }))
                    .collect();
                if parts.is_empty() {
                    "true".to_string()
                } else {
                    parts.join("&")
                }
            })
            .collect();
        let side = if in_a {
            "accepted by A, rejected by B"
        } else {
            "accepted by B, rejected by A"
        };
        text.push(format!(
            "counterexample ({} letters, {side}; replayed): {}",
            w.len(),
            names.join(" ")
        ));
        r = r
            .field("witness", &names)
            .field("witness_length", w.len())
            .field(
                "replay",
                json!({"accepted_by_a": in_a, "accepted_by_b": in_b, "confirmed": true}),
            );
    } else {
        text.push(format!(
            "final relation size: {} ({} explored)",
            out.size, out.explored
        ));
    }
    let dt = t0.elapsed().as_secs_f64();
    text.push(format!("algorithm: {algo}; time: {dt:.4} s"));
    r = r.field("time_s", dt).field("check_s", check_s);
    for l in text {
        r = r.line(l);
    }
    Ok(r)
}

fn describe(n: &Nfa) -> serde_json::Value {
    json!({"states": n.num_states(), "transitions": n.num_transitions(), "letters": n.num_letters(),
           "initial": n.initial().len(), "final": n.finals().len()})
}

/// Builds the report of a decision, replaying any witness independently.
#[allow(clippy::too_many_arguments)]
fn decision(
    what: &str,
    claim: Claim,
    a: &Nfa,
    b: Option<&Nfa>,
    out: &Outcome,
    algo: &str,
    rec: &Reconciliation,
    t0: Instant,
    check_s: f64,
) -> Result<Report, CliError> {
    let verdict = if out.holds { "true" } else { "false" };
    let mut r = Report::with_verdict(verdict)
        .field("algorithm", algo)
        .field("a", describe(a))
        .field("size", out.size)
        .field("explored", out.explored);
    if let Some(b) = b {
        r = r.field("b", describe(b));
    }
    if !rec.is_trivial() {
        r = r.field("alphabet_reconciliation", rec);
    }
    let mut text = vec![format!("{verdict}: {what}")];
    if let Some(w) = &out.witness {
        let (in_a, in_b, ok) = check(claim, a, b, w);
        if !ok {
            return Err(CliError::Internal(format!(
                "the counterexample from `{algo}` does not replay (word {:?})",
                a.alphabet.show_word(w)
            )));
        }
        let names: Vec<&str> = w.iter().map(|&l| a.alphabet.name(l)).collect();
        r = r
            .field("witness", &names)
            .field("witness_length", w.len())
            .field(
                "replay",
                json!({"accepted_by_a": in_a, "accepted_by_b": in_b, "confirmed": ok}),
            );
        let shown = a.alphabet.show_word(w);
        let detail = match claim {
            Claim::NotUniversal => "rejected by A".to_string(),
            Claim::NotIncluded => "accepted by A, rejected by B".to_string(),
            Claim::NotEquivalent => {
                if in_a {
                    "accepted by A, rejected by B".to_string()
                } else {
                    "accepted by B, rejected by A".to_string()
                }
            }
        };
        text.push(format!(
            "counterexample ({} letters, {detail}; replayed): {shown}",
            w.len()
        ));
    } else {
        text.push(format!(
            "final antichain/relation size: {} ({} explored)",
            out.size, out.explored
        ));
    }
    if !rec.is_trivial() {
        text.push(format!(
            "note: alphabets differ; letters only in A: [{}], only in B: [{}] (no transitions on the other side)",
            rec.only_in_first.join(", "),
            rec.only_in_second.join(", ")
        ));
    }
    let dt = t0.elapsed().as_secs_f64();
    text.push(format!("algorithm: {algo}; time: {dt:.4} s"));
    r = r.field("time_s", dt).field("check_s", check_s);
    for l in text {
        r = r.line(l);
    }
    Ok(r)
}

fn emit(nfa: &Nfa, out: &OutputOpts, inputs: &[&Path], mut r: Report) -> Result<Report, CliError> {
    let text = match out.to {
        Format::Mata => mata::write(nfa),
        Format::Ba => ba::write(nfa),
        Format::Dot => dot::write(nfa),
        Format::Timbuk => verikit_automata::timbuk::write(nfa),
        Format::Regex => {
            return Err(CliError::Usage(
                "regular expressions are an input format only".into(),
            ))
        }
    };
    match &out.output {
        Some(p) => {
            write_output(p, &text, inputs)?;
            r = r
                .field("output", p.display().to_string())
                .line(format!("wrote {}", p.display()));
        }
        None => {
            if r.text.is_empty() {
                r.text = text.clone();
            } else {
                r.text = format!(
                    "{text}{}",
                    r.text
                        .lines()
                        .map(|l| format!("# {l}\n"))
                        .collect::<String>()
                );
            }
            r = r.field("automaton", text);
        }
    }
    Ok(r)
}

pub fn run(cmd: NfaCmd, _ctx: &Ctx) -> Result<Report, CliError> {
    match cmd {
        NfaCmd::Univ { a, algo, input } => {
            let t0 = Instant::now();
            let (v, rec) = load_all(&[&a], input.from)?;
            let n = &v[0];
            let (al, name) = match algo {
                UnivChoice::Auto => (UnivAlgo::Auto, "antichain-auto"),
                UnivChoice::Backward => (UnivAlgo::Backward, "antichain-backward"),
                UnivChoice::Forward => (UnivAlgo::Forward, "antichain-forward"),
                UnivChoice::Subset => (UnivAlgo::Subset, "subset"),
            };
            let t1 = Instant::now();
            let out = verikit_automata::universal(n, al);
            let c = t1.elapsed().as_secs_f64();
            decision(
                "L(A) = Σ*",
                Claim::NotUniversal,
                n,
                None,
                &out,
                name,
                &rec,
                t0,
                c,
            )
        }
        NfaCmd::Incl {
            a,
            b,
            algo,
            no_prune,
            pre,
            input,
        } => {
            let t0 = Instant::now();
            if algo == InclChoice::AntichainBdd {
                return symbolic_check(&a, &b, input.from, t0, true);
            }
            let (v, rec) = load_all(&[&a, &b], input.from)?;
            let (al, name) = match algo {
                InclChoice::Auto | InclChoice::Antichain if no_prune => {
                    (InclAlgo::AntichainNoPrune, "antichain-noprune")
                }
                InclChoice::Auto | InclChoice::Antichain => (InclAlgo::Antichain, "antichain"),
                InclChoice::AntichainSim => (InclAlgo::AntichainSim, "antichain-sim"),
                InclChoice::Hkc => (InclAlgo::Hkc, "hkc"),
                InclChoice::Subset => (InclAlgo::Subset, "subset"),
                InclChoice::AntichainBdd => {
                    return Err(CliError::Internal("antichain-bdd is handled above".into()))
                }
            };
            let t1 = Instant::now();
            let out = if pre == PreChoice::None {
                verikit_automata::included(&v[0], &v[1], al)
            } else {
                let (x, y) = verikit_automata::preprocess(&v[0], &v[1], pre.lib())
                    .map_err(|e| CliError::from_error(e, None))?;
                verikit_automata::included(&x, &y, al)
            };
            let c = t1.elapsed().as_secs_f64();
            let name = format!("{name}{}", pre.suffix());
            let name = name.as_str();
            decision(
                "L(A) ⊆ L(B)",
                Claim::NotIncluded,
                &v[0],
                Some(&v[1]),
                &out,
                name,
                &rec,
                t0,
                c,
            )
        }
        NfaCmd::Equiv {
            a,
            b,
            algo,
            no_memo,
            bisim: bisim_flag,
            pre,
            no_prune,
            input,
        } => {
            let t0 = Instant::now();
            if algo == EquivChoice::HkcBdd {
                return symbolic_check(&a, &b, input.from, t0, false);
            }
            let (mut v, rec) = load_all(&[&a, &b], input.from)?;
            let memo = !no_memo;
            let choice = match algo {
                EquivChoice::Auto => {
                    // SETTA'17, Sections 4.3 and 6: HKC when the alphabet is small and the
                    // automata dense, antichains otherwise; thresholds from our grids (decision 0011).
                    let d = v[0].density().max(v[1].density());
                    if v[0].num_letters() <= 10 && d >= 1.25 {
                        EquivChoice::Hkc
                    } else {
                        EquivChoice::Antichain
                    }
                }
                c => c,
            };
            let (al, name) = match choice {
                EquivChoice::Hkc => (
                    EquivAlgo::Hkc { memo },
                    if memo { "hkc" } else { "hkc-nomemo" },
                ),
                EquivChoice::Hk => (
                    EquivAlgo::Hk { memo },
                    if memo { "hk" } else { "hk-nomemo" },
                ),
                EquivChoice::Naive => (
                    EquivAlgo::Naive { memo },
                    if memo { "naive" } else { "naive-nomemo" },
                ),
                EquivChoice::Subset => (EquivAlgo::Subset, "subset"),
                EquivChoice::HkcBdd => {
                    return Err(CliError::Internal("hkc-bdd is handled above".into()))
                }
                EquivChoice::AntichainSim => (EquivAlgo::AntichainSim, "antichain-sim"),
                _ if no_prune => (EquivAlgo::AntichainNoPrune, "antichain-noprune"),
                _ => (EquivAlgo::Antichain, "antichain"),
            };
            let pre = if bisim_flag { PreChoice::Bisim } else { pre };
            let originals = (v[0].clone(), v[1].clone());
            let t1 = Instant::now();
            if pre != PreChoice::None {
                let (x, y) = verikit_automata::preprocess(&v[0], &v[1], pre.lib())
                    .map_err(|e| CliError::from_error(e, None))?;
                v = vec![x, y];
            }
            let out = verikit_automata::equivalent(&v[0], &v[1], al);
            let c = t1.elapsed().as_secs_f64();
            let name = format!("{name}{}", pre.suffix());
            decision(
                "L(A) = L(B)",
                Claim::NotEquivalent,
                &originals.0,
                Some(&originals.1),
                &out,
                &name,
                &rec,
                t0,
                c,
            )
        }
        NfaCmd::Gen {
            states,
            letters,
            density,
            final_density,
            seed,
            initial,
            output,
        } => {
            if states == 0 || letters == 0 {
                return Err(CliError::Usage(
                    "--states and --letters must be at least 1".into(),
                ));
            }
            if !(density.is_finite() && density >= 0.0 && (0.0..=1.0).contains(&final_density)) {
                return Err(CliError::Usage(
                    "--density must be ≥ 0 and --final-density in [0, 1]".into(),
                ));
            }
            if (initial as usize) >= states {
                return Err(CliError::Usage(
                    "--initial must be a state below --states".into(),
                ));
            }
            if !verikit_automata::nfa::fits(states, letters)
                || (states as f64) * (letters as f64) * density.min(states as f64) > 5e8
            {
                return Err(CliError::Limit(
                    "more than 5·10^8 transitions requested".into(),
                ));
            }
            let t0 = Instant::now();
            let p = gen::TvParams {
                states,
                letters,
                density,
                final_density,
                initial,
                seed,
            };
            let n = gen::tabakov_vardi(&p);
            let r = Report::new()
                .field("nfa", describe(&n))
                .field("time_s", t0.elapsed().as_secs_f64());
            emit(&n, &output, &[], r)
        }
        NfaCmd::Reduce {
            a,
            method,
            input,
            output,
        } => {
            let t0 = Instant::now();
            let (v, _) = load_all(&[&a], input.from)?;
            let n = &v[0];
            let red = match method {
                ReduceMethod::Bisim => bisim::reduce(n),
                ReduceMethod::SimFixpoint => {
                    if lrt::relation_bytes(n.num_states()) > lrt::MEMORY_BUDGET {
                        return Err(CliError::Limit(
                            "the simulation relation exceeds the memory budget".into(),
                        ));
                    }
                    simulation::reduce_by(n, &simulation::simulation(n))
                }
                ReduceMethod::Sim => {
                    simulation::reduce(n).map_err(|e| CliError::from_error(e, None))?
                }
                ReduceMethod::SimHs => {
                    let sim = verikit_automata::holik_simacek::simulation(n)
                        .map_err(|e| CliError::from_error(e, None))?;
                    simulation::reduce_by(n, &sim)
                }
                ReduceMethod::SimLrt => {
                    let sim = lrt::simulation_or_fixpoint(n)
                        .map_err(|e| CliError::from_error(e, None))?;
                    simulation::reduce_by(n, &sim)
                }
                ReduceMethod::Saturate => {
                    saturation::saturate(n).map_err(|e| CliError::from_error(e, None))?
                }
            };
            let r = Report::new()
                .field("input", describe(n))
                .field("reduced", describe(&red))
                .field("time_s", t0.elapsed().as_secs_f64())
                .line(format!(
                    "reduced {} → {} states, {} → {} transitions ({:?})",
                    n.num_states(),
                    red.num_states(),
                    n.num_transitions(),
                    red.num_transitions(),
                    method
                ));
            emit(&red, &output, &[&a], r)
        }
        NfaCmd::Convert { a, input, output } => {
            let (v, _) = load_all(&[&a], input.from)?;
            emit(&v[0], &output, &[&a], Report::new())
        }
        NfaCmd::Info { a, input } => {
            let (v, _) = load_all(&[&a], input.from)?;
            let n = &v[0];
            Ok(Report::new()
                .field("nfa", describe(n))
                .field("density", n.density())
                .line(format!(
                    "{} states, {} transitions, {} letters, {} initial, {} final, density {:.3}",
                    n.num_states(),
                    n.num_transitions(),
                    n.num_letters(),
                    n.initial().len(),
                    n.finals().len(),
                    n.density()
                )))
        }
    }
}

const ENDS_AB: &str = include_str!("../../demo/nfa/ends-ab.mata");
const HAS_A: &str = include_str!("../../demo/nfa/has-a.mata");
const NO_BB: &str = include_str!("../../demo/nfa/no-bb.mata");

fn demo_load(name: &str, text: &str) -> Result<Nfa, CliError> {
    let src = SourceFile::new(name, text);
    mata::parse_nfa(text).map_err(|e| CliError::from_error(e, Some(&src)))
}

pub fn demo(_ctx: &Ctx) -> Result<Vec<(String, Report)>, CliError> {
    let ends_ab = demo_load("ends-ab.mata", ENDS_AB)?;
    let has_a = demo_load("has-a.mata", HAS_A)?;
    let no_bb = demo_load("no-bb.mata", NO_BB)?;
    let mut out = Vec::new();
    let none = Reconciliation::default();
    // Inclusion both ways (the second fails with a counterexample).
    let (a, b, rec) = reconcile(&ends_ab, &has_a);
    let t0 = Instant::now();
    let r = verikit_automata::included(&a, &b, InclAlgo::Antichain);
    out.push((
        "incl ends-ab.mata has-a.mata (antichains)".to_string(),
        decision(
            "L(A) ⊆ L(B)",
            Claim::NotIncluded,
            &a,
            Some(&b),
            &r,
            "antichain",
            &rec,
            t0,
            t0.elapsed().as_secs_f64(),
        )?,
    ));
    let t0 = Instant::now();
    let r = verikit_automata::included(&b, &a, InclAlgo::Antichain);
    out.push((
        "incl has-a.mata ends-ab.mata (antichains)".to_string(),
        decision(
            "L(A) ⊆ L(B)",
            Claim::NotIncluded,
            &b,
            Some(&a),
            &r,
            "antichain",
            &rec,
            t0,
            t0.elapsed().as_secs_f64(),
        )?,
    ));
    let t0 = Instant::now();
    let r = verikit_automata::universal(&no_bb, UnivAlgo::Backward);
    out.push((
        "univ no-bb.mata (backward antichains, CPre)".to_string(),
        decision(
            "L(A) = Σ*",
            Claim::NotUniversal,
            &no_bb,
            None,
            &r,
            "antichain-backward",
            &none,
            t0,
            t0.elapsed().as_secs_f64(),
        )?,
    ));
    let t0 = Instant::now();
    let red = bisim::reduce(&a);
    let r = verikit_automata::equivalent(&a, &red, EquivAlgo::Hkc { memo: true });
    out.push((
        "equiv ends-ab.mata vs its bisimulation quotient (HKC)".to_string(),
        decision(
            "L(A) = L(B)",
            Claim::NotEquivalent,
            &a,
            Some(&red),
            &r,
            "hkc",
            &none,
            t0,
            t0.elapsed().as_secs_f64(),
        )?,
    ));
    Ok(out)
}
