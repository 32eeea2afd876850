; Nonlinear Horn clauses (two predicate applications in a body): p holds of 0 and 1 and is closed
; under addition, so it never holds of a negative number.
(set-logic HORN)
(declare-fun p (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (p x))))
(assert (forall ((x Int)) (=> (= x 1) (p x))))
(assert (forall ((x Int) (y Int)) (=> (and (p x) (p y)) (p (+ x y)))))
(assert (forall ((x Int)) (=> (and (p x) (< x 0)) false)))
(check-sat)
