/* A three-stage pipeline over two buffered channels, each with one sender and one receiver
   (SPIN's xs/xr situation), local computation, and an atomic block at the end */
chan a = [2] of { byte };
chan b = [2] of { byte };
byte finished = 0;

active proctype Src() {
  byte i = 0;
  do
  :: i < 4 -> a!i; i++
  :: i == 4 -> break
  od
}

active proctype Mid() {
  byte x, k = 0;
  do
  :: k < 4 -> a?x; x = x * 2; b!x; k++
  :: k == 4 -> break
  od
}

active proctype Dst() {
  byte y, sum = 0, k = 0;
  do
  :: k < 4 -> b?y; sum = sum + y; k++
  :: k == 4 -> break
  od;
  atomic { finished = 1; assert(sum == 12) }
}
