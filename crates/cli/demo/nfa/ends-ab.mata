@NFA-explicit
%Alphabet-auto
# Words over {a, b} that end with "ab" (nondeterministic: guesses where the suffix starts).
%Initial q0
%Final q2
q0 a q0
q0 b q0
q0 a q1
q1 b q2
