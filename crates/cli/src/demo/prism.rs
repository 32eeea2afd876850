//! `verikit demo` for `prism`: the Knuth–Yao die (PRISM language and JANI) and the interval MDP
//! of SETTA'17 Fig. 1.

use crate::report::CliError;
use verikit_diag::{Answer, Ctx};

const DIE: &str = include_str!("../../demo/prism/die.prism");
const DIE_PROPS: &str = include_str!("../../demo/prism/die.props");
const DIE_JANI: &str = include_str!("../../demo/prism/die.jani");
const FIG1: &str = include_str!("../../demo/prism/fig1.prism");
const FIG1_PROPS: &str = include_str!("../../demo/prism/fig1.props");

pub fn demo(_ctx: &Ctx) -> Result<Vec<(String, Answer)>, CliError> {
    let die = "Knuth-Yao die (DTMC): P=? [F s=7 & d=k], expected coin flips";
    let jani = "Knuth-Yao die in JANI (two synchronising automata, embedded properties, k=1)";
    // The paper's Fig. 1 IMDP: its coarsest alternating bisimulation (the two copies of s
    // merge: a is dominated by b) and robust values on model and quotient.
    let fig1 =
        "Interval MDP of SETTA'17 Fig. 1: alternating bisimulation quotient, robust Pmax [F t]";
    Ok(vec![
        (
            die.into(),
            verikit_prob::demo_check("die.prism", DIE, Some(DIE_PROPS), "")?,
        ),
        (
            jani.into(),
            verikit_prob::demo_check("die.jani", DIE_JANI, None, "k=1")?,
        ),
        (fig1.into(), verikit_prob::demo_bisim(FIG1, FIG1_PROPS)?),
    ])
}
