"""Notebook-style tour of verikit.smt: an incremental solver with push/pop and models."""
from verikit import smt

s = smt.Solver("QF_LIA")
s.add("(declare-const apples Int)")
s.add("(declare-const pears Int)")
s.add("(and (>= apples 0) (>= pears 0) (= (+ (* 3 apples) (* 5 pears)) 34))")
print(s.check(), s.model())
assert s.check() == "sat"
s.push()
s.add("(> pears 6)")
print("more than 6 pears:", s.check())
assert s.check() == "unsat"
s.pop()
print(smt.run("(set-logic QF_LRA)(declare-const x Real)(assert (< 0 x 1))(check-sat)(get-model)").detail["responses"])
