/* A sequence that blocks on a rendezvous send (S) while two other processes count on their
   own locals (R before it receives, L throughout): SPIN lets every process move once the
   sequence is blocked, and its reduction reduces the local steps there. */
chan c = [0] of { byte };
byte done;

active proctype S() {
  atomic { done == 0; c!1 };
  done = 1
}

active proctype R() {
  byte i, v;
  do
  :: i < 4 -> i++
  :: i == 4 -> break
  od;
  c?v;
  assert(v == 1)
}

active proctype L() {
  byte k;
  do
  :: k < 4 -> k++
  :: k == 4 -> break
  od
}
