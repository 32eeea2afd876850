/* `run` with arguments: scalar parameters (constants) and a channel parameter */
chan q = [2] of { byte, byte };
byte last = 0;

proctype Producer(byte id, count; chan out) {
  byte i = 0;
  do
  :: i < count -> out!id,i; i++
  :: i == count -> i = 0
  od
}

proctype Consumer(chan inp; byte limit) {
  byte who, v;
  do
  :: inp?who,v -> assert(v < limit); last = who
  od
}

init {
  d_step { last = 0 }
  atomic { run Producer(1, 2, q); run Producer(2, 3, q); run Consumer(q, 3) }
}
