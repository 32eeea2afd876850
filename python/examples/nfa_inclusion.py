"""Notebook-style tour of verikit.nfa: inclusion with a counterexample word, then equivalence."""
import verikit
from verikit import nfa

ends_ab = nfa.from_string("""@NFA-explicit
%Alphabet-auto
%Initial q0
%Final q2
q0 a q0
q0 b q0
q0 a q1
q1 b q2
""")
has_a = nfa.from_string("""@NFA-explicit
%Alphabet-auto
%Initial p0
%Final p1
p0 b p0
p0 a p1
p1 a p1
p1 b p1
""")
r = ends_ab.is_included(has_a)
print("L(ends-ab) ⊆ L(has-a):", r.verdict, r.stats)
assert r.verdict == "true"
r = has_a.is_included(ends_ab)
print("L(has-a) ⊆ L(ends-ab):", r.verdict, "counterexample:", r.witness)
assert r.verdict == "false" and r.witness is not None
print(ends_ab.info().input)
