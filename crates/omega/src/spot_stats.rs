//! Spot's `--stats=FORMAT` for `ltl translate` (as `ltl2tgba --stats`, Spot's documentation of
//! `ltl2tgba(1)`, "Statistics output"): the format is printed once per automaton with each `%X`
//! directive replaced by a property of the automaton or of its input. Supported: `%%`, `%a`
//! acceptance sets, `%c` SCCs, `%d` deterministic (0/1), `%e` edges, `%f` formula, `%F` input
//! file, `%g` acceptance condition (HOA syntax), `%h` the automaton in HOA on one line, `%L`
//! line of the input file, `%m` automaton name, `%n` nondeterministic states, `%p` complete
//! (0/1), `%r` and `%R` translation time in seconds, `%s` states, `%t` transitions (edges
//! counted once per letter), `%w` an accepted word (empty if none), `%x` number and `%X` list of
//! atomic propositions. Any other directive, and Spot's bracketed `%[…]X` variants, are refused
//! by name before any work is done.

use crate::twa::Twa;

/// The directives [`render`] knows.
const KNOWN: &str = "%acdefFghLmnprRstwxX";

/// Checks a format: `Err` names the first unsupported directive.
pub(crate) fn validate(fmt: &str) -> Result<(), String> {
    let mut it = fmt.chars();
    while let Some(c) = it.next() {
        if c != '%' {
            continue;
        }
        match it.next() {
            None => return Err("--stats: the format ends with a lone `%`".into()),
            Some('[') => {
                return Err(
                    "--stats: bracketed directives (`%[…]X`) are not supported".into(),
                )
            }
            Some(d) if KNOWN.contains(d) => {}
            Some(d) => {
                return Err(format!(
                    "--stats: unsupported directive `%{d}` (supported: %% %a %c %d %e %f %F %g %h %L %m %n %p %r %R %s %t %w %x %X)"
                ))
            }
        }
    }
    Ok(())
}

/// What a format line may mention besides the automaton.
#[derive(Clone, Debug, Default)]
pub(crate) struct Context<'a> {
    /// The formula, in Spot's syntax.
    pub formula: &'a str,
    /// The input file (empty for a formula on the command line).
    pub file: &'a str,
    /// The 1-based line in the input file (0 for the command line).
    pub line: usize,
    /// The translation time in seconds.
    pub seconds: f64,
}

/// Number of states with two outgoing edges whose labels intersect.
pub(crate) fn nondeterministic_states(aut: &Twa) -> usize {
    aut.states
        .iter()
        .filter(|es| {
            es.iter().enumerate().any(|(i, a)| {
                es.iter()
                    .skip(i + 1)
                    .any(|b| !a.label.and(&b.label).is_false())
            })
        })
        .count()
}

/// Number of transitions: each edge counts once per letter (valuation of all the automaton's
/// propositions) its label allows.
pub(crate) fn transitions(aut: &Twa) -> f64 {
    aut.states
        .iter()
        .flatten()
        .map(|e| e.label.cardinality())
        .sum()
}

/// The format with every directive replaced (the format must pass [`validate`]).
pub(crate) fn render(fmt: &str, aut: &Twa, ctx: &Context) -> String {
    let mut out = String::new();
    let mut it = fmt.chars();
    while let Some(c) = it.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let Some(d) = it.next() else { break };
        let s = match d {
            '%' => "%".to_string(),
            'a' => aut.num_sets.to_string(),
            'c' => verikit_graph::sccs(&aut.graph()).len().to_string(),
            'd' => u8::from(aut.is_deterministic()).to_string(),
            'e' => aut.num_edges().to_string(),
            'f' => ctx.formula.to_string(),
            'F' => ctx.file.to_string(),
            'g' => aut.acceptance().to_string(),
            'h' => crate::hoa::to_hoa(aut)
                .replace('\n', " ")
                .trim_end()
                .to_string(),
            'L' => ctx.line.to_string(),
            'm' => aut.name.clone().unwrap_or_default(),
            'n' => nondeterministic_states(aut).to_string(),
            'p' => u8::from(aut.is_complete()).to_string(),
            'r' | 'R' => format!("{:.6}", ctx.seconds),
            's' => aut.num_states().to_string(),
            't' => format!("{}", transitions(aut)),
            'w' => crate::emptiness::accepting_lasso(aut)
                .map(|l| l.word_text(aut))
                .unwrap_or_default(),
            'x' => aut.aps.len().to_string(),
            'X' => aut.aps.join(","),
            other => format!("%{other}"),
        };
        out.push_str(&s);
    }
    out
}
