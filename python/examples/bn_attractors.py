"""Notebook-style tour of verikit.bn: attractors and fixed points of a small network."""
from verikit import bn

net = bn.from_string("""targets, factors
a, !b
b, !a
c, a & !c
""")
fp = net.fixed_points()
print("fixed points:", fp.detail)
att = net.attractors()
print("attractors:", att.detail)
print(net.to_string("aeon"))
