; Integer knapsack: 3x + 5y + 7z = 1 with small non-negative counts has no solution,
; while its rational relaxation has one.
(set-logic QF_LIA)
(set-option :produce-unsat-cores true)
(declare-fun x () Int)
(declare-fun y () Int)
(declare-fun z () Int)
(assert (! (and (>= x 0) (>= y 0) (>= z 0)) :named nonneg))
(assert (! (= (+ (* 3 x) (* 5 y) (* 7 z)) 1) :named total))
(assert (! (<= x 10) :named small))
(check-sat)
(get-unsat-core)
