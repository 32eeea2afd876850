//! SMT-LIB 2.6 solver for linear arithmetic: CDCL(T) with the Dutertre–de Moura simplex.
