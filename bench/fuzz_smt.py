"""Differential fuzzing of `verikit smt` against z3 on random QF_LRA / QF_LIA formulas with
Boolean structure (and/or/not/=>/xor/ite, term-level ite, distinct, strict and non-strict bounds,
equalities, mod/div by constants for integers).

Usage: fuzz_smt.py [--rounds N] [--batch B] [--seed S] [--dl] [--cases] [--offsets]
(--dl: QF_RDL / QF_IDL formulas whose atoms are all difference atoms, for the difference-logic solver.
--cases: each formula also defines some variables by cases over Booleans, `(=> (and b0 (not b1))
(= x0 3))`, complete or not, sometimes contradicting, for the conditional definitions of the solver.)
Each round writes one script with B formulas, each inside (push 1) … (check-sat) (pop 1), runs
verikit once (with --check: every model is validated and every Farkas certificate checked) and
asks z3 (Python API) about each formula separately. Every disagreement is written to
crates/smt/tests/regress/fuzz-<seed>-<i>.smt2 with z3's answer as :status; the `regress` test
replays them.
"""
from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys

import z3

from harness import ROOT, VERIKIT


def gen_cases(rng: random.Random, ints: bool, xs: list[str], bs: list[str]) -> list[str]:
    """Definitions of one variable by cases over one to three Booleans: one implication per
    assignment (some left out, some values changed so that two cases contradict), grouped
    in one `and`, spread over several assertions or written with `ite`."""
    x = rng.choice(xs)
    vs = rng.sample(bs, rng.randint(1, min(3, len(bs))))
    base, coef = rng.randint(-3, 3), [rng.randint(-3, 3) for _ in vs]
    affine = rng.random() < 0.6
    cases = []
    for m in range(1 << len(vs)):
        if rng.random() < 0.1:
            continue
        v = base + sum(c for i, c in enumerate(coef) if m >> i & 1)
        if not affine or rng.random() < 0.05:
            v += rng.randint(-2, 2)
        if not ints and rng.random() < 0.2:
            val = f"(/ {v} 2)" if v >= 0 else f"(- (/ {-v} 2))"
        else:
            val = (str(v) if ints else f"{v}.0") if v >= 0 else (f"(- {-v})" if ints else f"(- {-v}.0)")
        lits = [b if m >> i & 1 else f"(not {b})" for i, b in enumerate(vs)]
        cond = lits[0] if len(lits) == 1 else f"(and {' '.join(lits)})"
        eq = f"(= {x} {val})" if rng.random() < 0.5 else f"(= {val} {x})"
        cases.append(f"(=> {cond} {eq})" if rng.random() < 0.8 else f"(or (not {cond}) {eq})")
    if not cases:
        return []
    if rng.random() < 0.5:
        return [f"(assert (and {' '.join(cases)}))"]
    return [f"(assert {c})" for c in cases]


def gen_formula(rng: random.Random, ints: bool, nvars: int, nbools: int, dl: bool = False,
                cases: bool = False, offsets: bool = False) -> str:
    xs = [f"x{i}" for i in range(nvars)]
    bs = [f"b{i}" for i in range(nbools)]

    def num(lo=-6, hi=6):
        v = rng.randint(lo, hi)
        if not ints and rng.random() < 0.3:
            d = rng.randint(2, 4)
            s = f"(/ {abs(v)} {d})"
        else:
            s = str(abs(v)) if ints else f"{abs(v)}.0"
        return f"(- {s})" if v < 0 else s

    def term(depth: int) -> str:
        r = rng.random()
        if dl:  # difference logic: x, x - y, and ite over them
            if depth > 0 and r < 0.08:
                return f"(ite {formula(depth - 1)} {rng.choice(xs)} {rng.choice(xs)})"
            return rng.choice(xs) if r < 0.3 else f"(- {rng.choice(xs)} {rng.choice(xs)})"
        if offsets and depth > 0 and r < 0.2:
            return offset_ite(depth)
        if depth > 0 and r < 0.12:
            return f"(ite {formula(depth - 1)} {term(depth - 1)} {term(depth - 1)})"
        if ints and depth > 0 and r < 0.18:
            op = rng.choice(["mod", "div"])
            return f"({op} {rng.choice(xs)} {rng.randint(2, 4)})"
        k = rng.randint(1, 3)
        parts = []
        for _ in range(k):
            c = rng.randint(-3, 3) or 1
            cs = (str(abs(c)) if ints else f"{abs(c)}.0")
            cs = f"(- {cs})" if c < 0 else cs
            parts.append(f"(* {cs} {rng.choice(xs)})")
        if rng.random() < 0.5:
            parts.append(num())
        return parts[0] if len(parts) == 1 else f"(+ {' '.join(parts)})"

    def offset_ite(depth: int) -> str:
        # --offsets: an ite chain whose leaves are one term plus constants (mostly multiples of
        # m), as the `x mod 2^k` encodings write them
        base, m = term(depth - 1), rng.choice([1, 2, 4, 8])

        def leaf() -> str:
            v = m * rng.randint(-3, 3)
            k = num(-3, 3) if rng.random() < 0.3 else (str(abs(v)) if ints else f"{abs(v)}.0")
            k = f"(- {k})" if v < 0 and not k.startswith("(") else k
            return f"(+ {base} {k})"

        t = leaf()
        for _ in range(rng.randint(1, 3)):
            f = formula(depth - 1)
            t = f"(ite {f} {leaf()} {t})" if rng.random() < 0.5 else f"(ite {f} {t} {leaf()})"
        return t

    def atom(depth: int) -> str:
        if bs and rng.random() < 0.15:
            return rng.choice(bs)
        op = rng.choice(["<=", "<", ">=", ">", "=", "distinct"])
        rhs = num() if dl or rng.random() < 0.5 else term(depth)
        return f"({op} {term(depth)} {rhs})"

    def formula(depth: int) -> str:
        if depth <= 0 or rng.random() < 0.3:
            return atom(depth)
        op = rng.choice(["and", "or", "not", "=>", "xor", "ite", "="])
        if op == "not":
            return f"(not {formula(depth - 1)})"
        if op == "ite":
            return f"(ite {formula(depth - 1)} {formula(depth - 1)} {formula(depth - 1)})"
        if op in ("=>", "xor", "="):
            return f"({op} {formula(depth - 1)} {formula(depth - 1)})"
        return f"({op} {' '.join(formula(depth - 1) for _ in range(rng.randint(2, 3)))})"

    body = [f"(assert {formula(3)})" for _ in range(rng.randint(1, 4))]
    if cases and bs:
        for _ in range(rng.randint(1, 3)):
            body += gen_cases(rng, ints, xs, bs)
        rng.shuffle(body)
    if ints and not dl:
        # Branch and bound without cuts terminates on bounded integer problems only.
        body += [f"(assert (<= (- 20) {x} 20))" for x in xs]
    return "\n".join(body)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--batch", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--dl", action="store_true", help="difference logic (QF_RDL / QF_IDL atoms only)")
    ap.add_argument("--cases", action="store_true", help="also variables defined by cases over Booleans")
    ap.add_argument("--offsets", action="store_true",
                    help="also ite chains whose leaves are one term plus constants (x mod 2^k encodings)")
    a = ap.parse_args()
    total = disagree = 0
    answers = {"sat": 0, "unsat": 0}
    for rnd in range(a.rounds):
        rng = random.Random(a.seed * 100003 + rnd)
        ints = rnd % 2 == 1
        logic = ("QF_IDL" if ints else "QF_RDL") if a.dl else ("QF_LIA" if ints else "QF_LRA")
        sort = "Int" if ints else "Real"
        nv, nb = rng.randint(2, 4), rng.randint(2, 3) if a.cases else rng.randint(0, 2)
        decls = "".join(f"(declare-fun x{i} () {sort})\n" for i in range(nv)) + "".join(
            f"(declare-fun b{i} () Bool)\n" for i in range(nb))
        bodies = [gen_formula(rng, ints, nv, nb, a.dl, a.cases, a.offsets) for _ in range(a.batch)]
        script = f"(set-logic {logic})\n{decls}" + "".join(f"(push 1)\n{b}\n(check-sat)\n(pop 1)\n" for b in bodies)
        try:
            p = subprocess.run([str(VERIKIT), "--json", "smt", "--check", "-"], input=script, capture_output=True,
                               text=True, timeout=120)
        except subprocess.TimeoutExpired:
            print(f"round {rnd}: verikit timed out on the batch", file=sys.stderr)
            continue
        try:
            res = json.loads(p.stdout.strip().splitlines()[-1])
            ours = [c["answer"] for c in res["checks"]]
        except (ValueError, IndexError, KeyError):
            print(f"round {rnd}: verikit failed rc={p.returncode}: {p.stderr[:500]}", file=sys.stderr)
            ours = ["error"] * len(bodies)
        for i, b in enumerate(bodies):
            s = z3.Solver()
            s.from_string(f"(set-logic {logic})\n{decls}{b}")
            theirs = str(s.check())
            mine = ours[i] if i < len(ours) else "missing"
            total += 1
            if mine in answers:
                answers[mine] += 1
            if mine != theirs:
                disagree += 1
                name = ROOT / "crates" / "smt" / "tests" / "regress" / f"fuzz-{a.seed}-{rnd}-{i}.smt2"
                name.write_text(f"(set-info :status {theirs})\n(set-logic {logic})\n{decls}{b}\n(check-sat)\n")
                print(f"DISAGREE round {rnd} #{i}: verikit {mine}, z3 {theirs} -> {name.name}", file=sys.stderr)
    print(json.dumps({"formulas": total, "disagreements": disagree, **answers}))


if __name__ == "__main__":
    main()
