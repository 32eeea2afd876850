//! The Hanoi Omega-Automata format, version 1 (Babiak, Blahoudek, Duret-Lutz, Klein, Křetínský,
//! Müller, Parker, Strejček, "The Hanoi Omega-Automata Format", CAV'15; spec at
//! adl.github.io/hoaf): reading (generalized Büchi, Büchi, `all`/`t`, `none`/`f` acceptance) and
//! writing.

pub mod parse;
pub(crate) mod print;

pub use parse::{parse, parse_all, parse_stream};
pub use print::to_hoa;
