/* Multi-parameter macros, array elements in propositions, U and -> in ltl. */
#define MAX 2
#define SET(a, i, v) a[i] = v
#define AT(p) (phase == p)

byte x[MAX + 1];
byte phase = 0;

active proctype Q() {
  do
  :: AT(0) -> SET(x, 0, 1); phase = 1
  :: AT(1) -> SET(x, MAX, 2); phase = 2
  :: AT(2) -> SET(x, 0, 0); SET(x, MAX, 0); phase = 0
  od
}

ltl order { [] (AT(1) -> (x[0] == 1 U phase == 2)) }
ltl response { [] ((phase == 2) -> <> (phase == 0)) }
ltl settles { <> [] (phase != 0) }
ltl weak { [] ((x[MAX] == 0) W (phase == 2)) }
