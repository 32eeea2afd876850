(set-info :status sat)
; a chain of strict inequalities inside a unit interval: the model needs a concrete δ small
; enough for every strict bound.
(set-logic QF_LRA)
(declare-fun a () Real)
(declare-fun b () Real)
(declare-fun c () Real)
(declare-fun d () Real)
(assert (and (< 0 a) (< a b) (< b c) (< c d) (< d (/ 1 100))))
(assert (or (= (+ a d) (* 2 b)) (> c (* 3 a))))
(check-sat)
