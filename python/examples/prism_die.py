"""Notebook-style tour of verikit.prism: Knuth's die, a property value and the explicit model."""
from pathlib import Path

from verikit import prism

die = prism.load(Path(__file__).with_name("die.pm"))
r = die.check("P=? [ F s=7 & d=6 ]")
print("P(six) =", r.results[0]["result"])
assert abs(r.results[0]["result"] - 1 / 6) < 1e-6
m = die.build()
print(m, m.vals[:4])
