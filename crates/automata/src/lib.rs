//! Finite automata over finite words: .mata/BA/regex formats, antichain universality and inclusion, HK/HKC equivalence, bisimulation and simulation reduction.
