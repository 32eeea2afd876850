//! LTL and omega-automata kernel: LTL syntax, translation to generalized Büchi automata, HOA, emptiness.
