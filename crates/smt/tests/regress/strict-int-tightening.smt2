(set-info :status unsat)
; 2x + 2y strictly between 1 and 2 has no integer solution; needs the integer tightening of
; strict bounds and a Farkas certificate over the tightened constraints.
(set-logic QF_LIA)
(declare-fun x () Int)
(declare-fun y () Int)
(assert (< 1 (+ (* 2 x) (* 2 y))))
(assert (< (+ (* 2 x) (* 2 y)) 2))
(check-sat)
