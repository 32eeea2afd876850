//! The `-x` tuning parameters of the timed-automata engine (`verikit --help-params`), and how they
//! set [`Options`] and [`CtaOptions`]. Command-line flags, when given, take precedence.

use crate::cta_reach::CtaOptions;
use crate::neta_reach::NetaOptions;
use crate::query::Options;
use crate::reach::{Algo, Search};
use crate::zone_graph::Extrapolation;
use verikit_diag::{Param, Params};

pub(crate) const EXTRAPOLATION: Param = Param {
    name: "ta.extrapolation",
    default: "extraLU+l",
    range: "extraLU+l|extraLU+g|extraM|extraM+l",
    doc: "zone abstraction: ExtraLU+ with local (per-location) or global LU bounds, ExtraM with global or local bounds (`deadlock` and clock constraints in queries: an LU search whose hits are confirmed on exact zones, else ExtraM with local bounds)",
};
pub(crate) const ORDER: Param = Param {
    name: "ta.order",
    default: "bfs",
    range: "bfs|dfs",
    doc: "order of the waiting list of zone-graph searches",
};
pub(crate) const COVERING: Param = Param {
    name: "ta.covering",
    default: "inclusion",
    range: "none|inclusion|alu",
    doc:
        "node covering: none (TChecker `reach`), zone inclusion (`covreach`), aLU (`alu-covreach`)",
};
pub(crate) const CTA_CHANNEL_BOUND: Param = Param {
    name: "ta.cta-channel-bound",
    default: "16",
    range: "1..=100000",
    doc: "CTA reachability: longest channel word explored (beyond it an unreached target is `unknown`)",
};

pub(crate) const NETA_STACK_BOUND: Param = Param {
    name: "ta.neta-stack-bound",
    default: "8",
    range: "0..=1000",
    doc: "NeTA-I reachability: deepest stack explored (beyond it an unreached target is `unknown`)",
};

/// Tuning parameters of the timed-automata engine.
pub const PARAMS: &[Param] = &[
    EXTRAPOLATION,
    ORDER,
    COVERING,
    CTA_CHANNEL_BOUND,
    NETA_STACK_BOUND,
];

impl Options {
    /// The search options set by `-x ta.extrapolation=… ta.order=… ta.covering=…` (defaults
    /// otherwise).
    pub fn from_params(p: &Params) -> Result<Options, String> {
        let bad = |q: &Param, v: &str| format!("-x {}={v}: expected one of {}", q.name, q.range);
        let e: String = p.get(&EXTRAPOLATION)?;
        let o: String = p.get(&ORDER)?;
        let c: String = p.get(&COVERING)?;
        Ok(Options {
            extrapolation: Extrapolation::parse(&e).ok_or_else(|| bad(&EXTRAPOLATION, &e))?,
            search: match o.as_str() {
                "bfs" => Search::Bfs,
                "dfs" => Search::Dfs,
                _ => return Err(bad(&ORDER, &o)),
            },
            algo: match c.as_str() {
                "none" => Algo::Reach,
                "inclusion" => Algo::Covreach,
                "alu" => Algo::AluCovreach,
                _ => return Err(bad(&COVERING, &c)),
            },
        })
    }
}

impl CtaOptions {
    /// Reads `ta.cta-channel-bound`.
    pub fn from_params(p: &Params) -> Result<CtaOptions, String> {
        Ok(CtaOptions {
            channel_bound: p.get_in(&CTA_CHANNEL_BOUND, 1usize, 100_000)?,
        })
    }
}

impl NetaOptions {
    /// Reads `ta.neta-stack-bound`.
    pub fn from_params(p: &Params) -> Result<NetaOptions, String> {
        Ok(NetaOptions {
            stack_bound: p.get_in(&NETA_STACK_BOUND, 0usize, 1000)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_and_settings() {
        let d = Options::from_params(&Params::default()).unwrap();
        assert_eq!(
            (d.search, d.algo, d.extrapolation),
            (Search::Bfs, Algo::Covreach, Extrapolation::LuLocal)
        );
        let p = Params::parse(&["ta.order=dfs,ta.covering=alu,ta.extrapolation=extraM"]).unwrap();
        let o = Options::from_params(&p).unwrap();
        assert_eq!(
            (o.search, o.algo, o.extrapolation),
            (Search::Dfs, Algo::AluCovreach, Extrapolation::MGlobal)
        );
        for bad in ["ta.order=dfx", "ta.covering=all", "ta.extrapolation=extraQ"] {
            assert!(
                Options::from_params(&Params::parse(&[bad]).unwrap()).is_err(),
                "{bad}"
            );
        }
        assert_eq!(
            CtaOptions::from_params(&Params::default())
                .unwrap()
                .channel_bound,
            16
        );
        let p = Params::parse(&["ta.cta-channel-bound=0"]).unwrap();
        assert!(CtaOptions::from_params(&p).is_err());
        assert!(Params::parse(&["ta.nope=1"])
            .unwrap()
            .validate(&[PARAMS])
            .is_err());
    }
}
