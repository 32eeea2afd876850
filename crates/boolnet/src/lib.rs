//! Boolean networks: .bnet/.aeon/SBML-qual formats and synchronous attractor detection (monolithic BDD and SCC decomposition).
