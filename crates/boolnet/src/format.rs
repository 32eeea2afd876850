//! The model formats of Boolean networks: `.bnet` (BoolNet/PyBoolNet), `.aeon` (AEON) and
//! SBML-qual.

use crate::network::Network;
use crate::{aeon, bnet, sbml};
use verikit_diag::Diagnostic;

/// Model formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Bnet,
    Aeon,
    Sbml,
}

impl Format {
    /// Guesses the format from a file name, defaulting to `.bnet`.
    pub fn from_path(path: &str) -> Format {
        let p = path.to_ascii_lowercase();
        if p.ends_with(".aeon") {
            Format::Aeon
        } else if p.ends_with(".sbml") || p.ends_with(".xml") {
            Format::Sbml
        } else {
            Format::Bnet
        }
    }
}

/// Parses a model in the given format.
pub fn parse(text: &str, format: Format) -> Result<Network, Diagnostic> {
    match format {
        Format::Bnet => bnet::parse(text),
        Format::Aeon => aeon::parse(text),
        Format::Sbml => sbml::parse(text),
    }
}
