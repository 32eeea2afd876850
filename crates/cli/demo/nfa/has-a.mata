@NFA-explicit
%Alphabet-auto
# Words over {a, b} that contain an "a".
%Initial p0
%Final p1
p0 b p0
p0 a p1
p1 a p1
p1 b p1
