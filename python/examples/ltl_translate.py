"""Notebook-style tour of verikit.ltl and verikit.aut: translate, inspect, product, emptiness."""
from verikit import ltl

a = ltl.translate("G(request -> F grant)")
print(a)                       # <Automaton …: states, edges, acceptance sets>
for e in a.edges:
    print(e.src, "->", e.dst, e.label, e.marks)
print(a.to_hoa())
bad = ltl.translate("F(request & G !grant)")
r = (a & bad).is_empty()
print("G(request -> F grant) ∧ F(request ∧ G ¬grant) empty:", r.verdict)
assert r.verdict == "true"
r = bad.is_empty()
print("a violation:", r.witness)
assert ltl.check("F(request & G !grant)", r.witness).verdict == "true"
svg = a._repr_svg_()           # what Jupyter draws (GraphViz when on PATH, else verikit's layout)
assert "<svg" in svg
d = ltl.translate("FG request | GF grant", deterministic=True, parity=True)
print("deterministic parity automaton:", d.num_states, "states,", d._structure()["acc_name"])
