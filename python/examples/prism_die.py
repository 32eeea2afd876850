"""Notebook-style tour of verikit.prism: Knuth's die, a property value and the explicit model."""
from verikit import prism

die = prism.from_string("""dtmc
module die
  s : [0..7] init 0;
  d : [0..6] init 0;
  [] s=0 -> 0.5 : (s'=1) + 0.5 : (s'=2);
  [] s=1 -> 0.5 : (s'=3) + 0.5 : (s'=4);
  [] s=2 -> 0.5 : (s'=5) + 0.5 : (s'=6);
  [] s=3 -> 0.5 : (s'=1) + 0.5 : (s'=7) & (d'=1);
  [] s=4 -> 0.5 : (s'=7) & (d'=2) + 0.5 : (s'=7) & (d'=3);
  [] s=5 -> 0.5 : (s'=7) & (d'=4) + 0.5 : (s'=7) & (d'=5);
  [] s=6 -> 0.5 : (s'=2) + 0.5 : (s'=7) & (d'=6);
  [] s=7 -> (s'=7);
endmodule
""")
r = die.check("P=? [ F s=7 & d=6 ]")
print("P(six) =", r.results[0]["result"])
assert abs(r.results[0]["result"] - 1 / 6) < 1e-6
m = die.build()
print(m, m.vals[:4])
