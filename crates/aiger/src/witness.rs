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
    for (frame, inp) in w.inputs.iter().enumerate() {
        if inp.len() != aig.inputs.len() {
            return Err(format!(
                "input line {frame} has {} values, the circuit has {} inputs",
                inp.len(),
                aig.inputs.len()
            ));
        }
        let iv: Vec<Ternary> = inp.iter().map(|&b| Ternary::from_opt(b)).collect();
        sim.eval(&iv);
        if let Some(c) = aig
            .constraints
            .iter()
            .find(|&&c| sim.lit(c).lane(0) != Some(true))
        {
            return Err(format!(
                "invariant constraint {c} is not 1 at frame {frame} before the property fails"
            ));
        }
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
