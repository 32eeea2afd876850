/* #define (object-like and function-like), inline with arguments, ltl blocks */
#define N 4
#define next(v) v = (v + 1) % N

byte cnt = 0;
bool flag = false;

inline step(c, f) {
  atomic { next(c); f = (c == 0) }
}

active proctype P() {
  do
  :: step(cnt, flag)
  od
}

ltl bounded { [] (cnt < N) }
ltl wraps { [] <> flag }
ltl stuck { <> [] (cnt == 3) }
