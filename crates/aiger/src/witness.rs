//! The AIGER witness format (as `aigsim` and HWMCC use it):
//!
//! ```text
//! 1            the property is violated
//! b0           which properties (b = bad, j = justice), by index
//! 0x1          initial latch values (one character per latch; x = any)
//! 01           one line of input values per frame
//! .
//! ```
//!
//! [`replay`] is the independent check of a counterexample: it simulates the circuit on the
//! witness (X for `x`, so an `x` must not matter) and finds the first frame where the property's
//! bad literal is 1 while every invariant constraint has been 1 in every frame so far.

use crate::aig::{Aig, Reset};
use crate::sim::{Sim, Ternary};
use std::fmt::Write as _;

/// A counterexample in the AIGER witness format.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Witness {
    /// Violated properties, e.g. `b0` as `('b', 0)`.
    pub props: Vec<(char, usize)>,
    /// Initial latch values (`None` = `x`).
    pub latches: Vec<Option<bool>>,
    /// Input values per frame (`None` = `x`).
    pub inputs: Vec<Vec<Option<bool>>>,
}

fn bits(s: &str) -> Result<Vec<Option<bool>>, String> {
    s.chars()
        .map(|c| match c {
            '0' => Ok(Some(false)),
            '1' => Ok(Some(true)),
            'x' | 'X' => Ok(None),
            _ => Err(format!(
                "unexpected character `{c}` in a witness value line"
            )),
        })
        .collect()
}

fn line(v: &[Option<bool>]) -> String {
    v.iter()
        .map(|b| match b {
            Some(true) => '1',
            Some(false) => '0',
            None => 'x',
        })
        .collect()
}

impl Witness {
    /// Reads a witness (comment lines starting with `c` before the `1` line are skipped).
    pub fn parse(text: &str) -> Result<Witness, String> {
        let mut lines = text.lines().map(|l| l.trim_end_matches('\r'));
        let mut first = lines.next();
        while first.is_some_and(|l| l.starts_with('c') || l.trim().is_empty()) {
            first = lines.next();
        }
        match first {
            Some("1") => {}
            Some(l) => {
                return Err(format!(
                    "witness must start with `1` (violated), found `{l}`"
                ))
            }
            None => return Err("empty witness".into()),
        }
        let props = lines
            .next()
            .ok_or("missing property line (e.g. `b0`)")?
            .split_whitespace()
            .map(|p| {
                let mut c = p.chars();
                let k = c.next().filter(|k| matches!(k, 'b' | 'j'));
                let i = c.as_str().parse::<usize>().ok();
                match (k, i) {
                    (Some(k), Some(i)) => Ok((k, i)),
                    _ => Err(format!("bad property `{p}` (expected b<N> or j<N>)")),
                }
            })
            .collect::<Result<Vec<_>, _>>()?;
        let latches = bits(lines.next().ok_or("missing latch line")?)?;
        let mut inputs = Vec::new();
        for l in lines {
            if l == "." {
                return Ok(Witness {
                    props,
                    latches,
                    inputs,
                });
            }
            inputs.push(bits(l)?);
        }
        Err("witness does not end with a `.` line".into())
    }

    /// The witness as text.
    pub fn to_text(&self) -> String {
        let mut s = String::from("1\n");
        let p: Vec<String> = self.props.iter().map(|(k, i)| format!("{k}{i}")).collect();
        let _ = writeln!(s, "{}", p.join(" "));
        let _ = writeln!(s, "{}", line(&self.latches));
        for i in &self.inputs {
            let _ = writeln!(s, "{}", line(i));
        }
        s.push_str(".\n");
        s
    }
}

/// A successful replay: the frame (0 = initial state) at which the property fails.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Replay {
    pub frame: usize,
}

/// Replays `w` on `aig` for safety property `prop` (an index into [`Aig::properties`]).
pub fn replay(aig: &Aig, w: &Witness, prop: usize) -> Result<Replay, String> {
    let bad = *aig
        .properties()
        .get(prop)
        .ok_or_else(|| format!("the circuit has no safety property {prop}"))?;
    let mut sim = initial_sim(aig, w)?;
    for (frame, inp) in w.inputs.iter().enumerate() {
        eval_frame(aig, &mut sim, frame, inp)
            .map_err(|e| format!("{e} before the property fails"))?;
        if sim.lit(bad).lane(0) == Some(true) {
            return Ok(Replay { frame });
        }
        sim.step();
    }
    Err(format!(
        "property {prop} (literal {bad}) never becomes 1 in the {} frames of the witness",
        w.inputs.len()
    ))
}

/// Evaluates one frame of a replay on its inputs; every invariant constraint must be 1.
fn eval_frame(
    aig: &Aig,
    sim: &mut Sim<'_>,
    frame: usize,
    inp: &[Option<bool>],
) -> Result<(), String> {
    if inp.len() != aig.inputs.len() {
        return Err(format!(
            "input line {frame} has {} values, the circuit has {} inputs",
            inp.len(),
            aig.inputs.len()
        ));
    }
    let iv: Vec<Ternary> = inp.iter().map(|&b| Ternary::from_opt(b)).collect();
    sim.eval(&iv);
    match (aig.constraints.iter()).find(|&&c| sim.lit(c).lane(0) != Some(true)) {
        Some(c) => Err(format!(
            "invariant constraint {c} is not 1 at frame {frame}"
        )),
        None => Ok(()),
    }
}

/// A successful lasso replay: the trace's frames `loop_start..len` form the loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LassoReplay {
    pub loop_start: usize,
    pub len: usize,
}

/// Replays `w` as a lasso-shaped counterexample to a liveness property (AIGER 1.9 justice
/// semantics, as `aigsim -c` checks them): the state reached after the last input frame must
/// equal the state at some earlier frame `l` (every latch known, no `x`), every invariant
/// constraint must be 1 in every frame, and each literal of `fair` (the justice set's literals
/// and the fairness literals) must be 1 in at least one frame of the loop `l..len`. Returns the
/// first loop start that works.
pub fn replay_lasso(aig: &Aig, w: &Witness, fair: &[u32]) -> Result<LassoReplay, String> {
    let mut sim = initial_sim(aig, w)?;
    let n = w.inputs.len();
    if n == 0 {
        return Err("a lasso needs at least one input frame".into());
    }
    let mut states: Vec<Vec<Option<bool>>> = Vec::with_capacity(n + 1);
    let mut hits: Vec<Vec<bool>> = Vec::with_capacity(n);
    for (frame, inp) in w.inputs.iter().enumerate() {
        states.push(sim.latches().iter().map(|t| t.lane(0)).collect());
        eval_frame(aig, &mut sim, frame, inp)?;
        hits.push(
            fair.iter()
                .map(|&l| sim.lit(l).lane(0) == Some(true))
                .collect(),
        );
        sim.step();
    }
    let last: Vec<Option<bool>> = sim.latches().iter().map(|t| t.lane(0)).collect();
    if last.iter().any(Option::is_none) {
        return Err("the state after the last frame is not fully determined (x)".into());
    }
    for (l, s) in states.iter().enumerate() {
        if *s != last {
            continue;
        }
        let all = (0..fair.len()).all(|j| hits[l..].iter().any(|h| h.get(j) == Some(&true)));
        if all {
            return Ok(LassoReplay {
                loop_start: l,
                len: n,
            });
        }
    }
    Err(if states.contains(&last) {
        "the trace closes a loop, but some justice or fairness literal is never 1 on it".into()
    } else {
        "the state after the last frame equals no earlier state: the trace is not a lasso".into()
    })
}

fn initial_sim<'a>(aig: &'a Aig, w: &Witness) -> Result<Sim<'a>, String> {
    if w.latches.len() != aig.latches.len() {
        return Err(format!(
            "latch line has {} values, the circuit has {} latches",
            w.latches.len(),
            aig.latches.len()
        ));
    }
    let mut init = Vec::with_capacity(aig.latches.len());
    for (k, (l, &v)) in aig.latches.iter().zip(&w.latches).enumerate() {
        init.push(match (l.reset, v) {
            (Reset::Uninit, v) => Ternary::from_opt(v),
            (Reset::Zero, Some(true)) | (Reset::One, Some(false)) => {
                return Err(format!(
                    "latch {k} starts at {} but its reset value is the other one",
                    u8::from(v == Some(true))
                ))
            }
            (Reset::Zero, _) => Ternary::ZERO,
            (Reset::One, _) => Ternary::ONE,
        });
    }
    let mut sim = Sim::new(aig);
    sim.set_latches(&init);
    Ok(sim)
}
