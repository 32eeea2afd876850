/* SPIN's exclusivity in `atomic` sequences, seen by LTL formulas: A blocks inside its sequence
   on `y == 1` and loses the exclusivity, so B goes on while A waits (`apart` is violated); C's
   sequence holds the exclusivity while `v == 1`, so D never passes `v == 1` inside its own
   (`blocked` holds). */
byte x, y, w, v, z;
active proctype A() { atomic { x = 1; y == 1; x = 0 } }
active proctype B() { y = 1; w = 1; w = 0; y = 0 }
active proctype C() { do :: atomic { v = 1; v = 0 } od }
active proctype D() { atomic { v == 1; z = 1 } }
ltl apart { [] !(x == 1 && w == 1) }
ltl blocked { [] (z == 0) }
ltl stays { <> [] (z == 0) }
ltl waits { [] (x == 1 -> <> (x == 0)) }
