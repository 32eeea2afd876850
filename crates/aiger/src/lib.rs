//! AIGER 1.9 and-inverter graphs (A. Biere, *The AIGER And-Inverter Graph (AIG) Format, Version
//! 20071012*; Biere, Heljanko, Wieringa, *AIGER 1.9 and beyond*, 2011), the input format of the
//! hardware model checkers of the CAV'06 seed papers (Heljanko et al., C12, §2 "bounded model
//! checking" of circuits; the STE papers C19/C20 simulate the same netlists).
//!
//! * [`Aig`]: the circuit in memory — inputs, latches with reset values (0, 1 or uninitialised),
//!   outputs, bad-state properties, invariant constraints, justice and fairness properties, AND
//!   gates in topological order, symbols and comments. Build one by hand or read one.
//! * [`parse`]: `.aag` (errors located `line:col`) and binary `.aig` (errors at a byte offset);
//!   wrong header counts, literals out of range, redefinitions and cyclic ANDs are errors.
//! * [`Aig::to_aag`] / [`Aig::to_aig`]: the writers (the binary one renumbers into the strict
//!   binary order).
//! * [`Sim`]: a bit-parallel ternary simulator (64 lanes of 0/1/X per word).
//! * [`Witness`]: the AIGER witness format (`1`, `b0`/`j0`, latch line, one input line per frame,
//!   `.`), its reader and writer, [`replay`], the independent check of a safety counterexample,
//!   and [`replay_lasso`], of a lasso-shaped liveness counterexample.

#![warn(unreachable_pub)]

mod aag;
mod aig;
mod binary;
mod sim;
mod witness;
mod writer;

pub use aig::{Aig, And, Kind, Latch, Reset, Strash};
pub use sim::{Sim, Ternary};
pub use witness::{replay, replay_lasso, LassoReplay, Replay, Witness};

use verikit_diag::{Diagnostic, SourceFile};

/// Reads an AIGER file (ASCII `aag` or binary `aig`, told apart by the header). An error in an
/// ASCII file carries the source text (rendered `file:line:col`); an error in a binary file
/// names the byte offset.
pub fn parse(name: &str, bytes: &[u8]) -> Result<Aig, Diagnostic> {
    if bytes.starts_with(b"aag") {
        let src = SourceFile::from_bytes(name, bytes.to_vec())?;
        aag::parse(&src.text).map_err(|d| d.with_source(src.clone()))
    } else if bytes.starts_with(b"aig") {
        binary::parse(bytes)
    } else {
        Err(Diagnostic::error(
            "not an AIGER file: the header must start with `aag` (ASCII) or `aig` (binary)",
        )
        .with_note("at byte offset 0"))
    }
}
