"""verikit.smt: whole scripts equal `verikit smt FILE --json` on shared SMT-LIB benchmarks (sat
models checked by the engine's own validation, `check=True`); the incremental Solver; errors."""

from __future__ import annotations

import pytest

import verikit
from verikit import smt
from conftest import cli, data, same

FILES = [
    "QF_IDL/20220214-jobshop-BohanLi/jobshop2-2-1-1-2-4-12.smt2",
    "QF_LIA/CAV_2009_benchmarks/smt/10-vars/problem_2__009.smt2",
    "QF_LIA/cut_lemmas/10-vars/cut_lemma_02_008.smt2",
    "QF_LIA/pidgeons/pigeon-hole-4.smt2",
    "QF_LIA/check/int_incompleteness3.smt2",
]


@pytest.mark.parametrize("rel", FILES)
def test_scripts_equal_cli(rel):
    p = data("smt") / rel
    got = smt.run(path=p, check=True)
    want = cli("smt", "--check", str(p))
    assert same(got.json) == same(want)
    status = {l.split("\t")[0]: l.split("\t")[3] for l in open(data("smt") / "MANIFEST.tsv")}
    assert got["result"] == status[rel]
    if got["result"] == "sat":
        assert all(c["model_valid"] for c in got["checks"] if c["answer"] == "sat")


def test_incremental_solver():
    s = smt.Solver("QF_LIA", check=True)
    s.add("(declare-const x Int)")
    s.add("(declare-const y Int)")
    s.add("(> (+ x y) 10)")
    assert s.check() == "sat"
    m = s.model()
    assert int(m["x"].replace("(- ", "-").rstrip(")")) + int(m["y"].replace("(- ", "-").rstrip(")")) > 10
    s.push()
    s.add("(< x 0)")
    s.add("(< y 0)")
    assert s.check() == "unsat"
    with pytest.raises(ValueError):
        s.model()
    s.pop()
    assert s.check() == "sat"


def test_solver_error_is_located_and_session_goes_on():
    s = smt.Solver("QF_LRA")
    s.add("(declare-const x Real)")
    with pytest.raises(verikit.InputError) as e:
        s.add("(assert (< x undeclared))")
    assert e.value.file == "<solver>" and e.value.line >= 1
    s.add("(< x 1.5)")
    assert s.check() == "sat"


def test_script_error():
    with pytest.raises(verikit.InputError) as e:
        smt.run("(set-logic QF_LRA)\n(declare-const x Real)\n(assert (< x y))\n(check-sat)\n")
    assert e.value.line == 3
