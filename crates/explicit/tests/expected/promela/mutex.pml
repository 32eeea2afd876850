/* A broken lock: test and set are two steps, so both processes can enter. */
#define FREE 0
#define TAKEN 1
bool busy = FREE;
byte incrit = 0;

inline acquire() {
  (busy == FREE);
  busy = TAKEN
}

inline release() {
  busy = FREE
}

active [2] proctype P() {
  do
  :: acquire(); incrit++; incrit--; release()
  od
}

ltl mutex { [] (incrit < 2) }
ltl sane { always (incrit <= 2) }
