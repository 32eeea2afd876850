@NFA-explicit
%Alphabet-auto
# Words over {a, b} without two consecutive b's, plus an extra branch: not universal.
%Initial s0 t0
%Final s0 s1 t1
s0 a s0
s0 b s1
s1 a s0
t0 a t1
t1 a t1
