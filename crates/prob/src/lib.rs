//! Probabilistic model checking: PRISM language, explicit DTMC/CTMC/MDP engine, PCTL/CSL.
