//! One module per subcommand group; each exposes a clap type, `run` and `demo`.

#[cfg(feature = "aig")]
pub mod aig;
#[cfg(feature = "omega")]
pub mod aut;
#[cfg(feature = "bn")]
pub mod bn;
#[cfg(feature = "omega")]
pub mod ltl;
#[cfg(feature = "mc")]
pub mod mc;
#[cfg(feature = "nfa")]
pub mod nfa;
#[cfg(feature = "prism")]
pub mod prism;
#[cfg(feature = "prog")]
pub mod prog;
#[cfg(feature = "sat")]
pub mod sat;
#[cfg(feature = "serve")]
pub mod serve;
#[cfg(feature = "smt")]
pub mod smt;
#[cfg(feature = "synt")]
pub mod synt;
#[cfg(feature = "ta")]
pub mod ta;
