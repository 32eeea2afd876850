"""verikit.ltl / verikit.aut: translations equal `verikit ltl translate --json` on the shared DAC
patterns; emptiness witnesses are replayed by membership and by direct evaluation of the formula;
products, structure, HOA, errors."""

from __future__ import annotations

import pytest

import verikit
from verikit import aut, ltl
from conftest import cli, data, same


def formulas(name: str, n: int):
    lines = [l.strip() for l in open(data("ltl") / name, encoding="utf-8")]
    return [l for l in lines if l and not l.startswith("#")][:n]


@pytest.mark.parametrize("sba", [False, True])
def test_dac_translations_equal_cli(sba):
    for f in formulas("dac-patterns.ltl", 25):
        a = ltl.translate(f, sba=sba)
        args = ["ltl", "translate", f] + (["--sba"] if sba else [])
        want = cli(*args)
        assert same(a.result.json) == same(want), f
        assert a.to_hoa() == want["hoa"]
        s = a.result.stats
        assert a.num_states == s["states"] and len(a.edges) == s["edges"], f
        assert a.acc_sets == s["acc_sets"]


def test_emptiness_witness_is_a_model_of_the_formula():
    for f in formulas("dac-patterns.ltl", 25):
        a = ltl.translate(f)
        r = a.is_empty()
        assert same(r.json) == same(cli_is_empty(a))
        if r.verdict == "false":
            w = r.witness
            assert a.accepts(w).verdict == "true", (f, w)
            # Independent of the automaton: the lasso word satisfies the formula.
            assert ltl.check(f, w).verdict == "true", (f, w)


def cli_is_empty(a, tmp=[]):
    import tempfile

    with tempfile.NamedTemporaryFile("w", suffix=".hoa", delete=False) as t:
        t.write(a.to_hoa())
    return cli("aut", "is-empty", t.name)


def test_structure_product_and_contradiction():
    a, b = ltl.translate("G F a"), ltl.translate("G !a")
    assert a.aps == ["a"] and a.initial == [0]
    assert all(isinstance(e.label, str) for e in a.edges)
    p = a.product(b)
    assert p.is_empty().verdict == "true"
    q = a & ltl.translate("F b")
    r = q.is_empty()
    assert r.verdict == "false" and ltl.check("GF a & F b", r.witness).verdict == "true"
    assert "digraph" in a.to_dot()
    assert aut.from_hoa(a.to_hoa()).num_states == a.num_states
    assert ltl.translate("a U b").is_included(ltl.translate("F b")).verdict == "true"
    svg = a._repr_svg_()
    assert "<svg" in svg
    own = a.to_svg()
    assert own.startswith("<svg") and own.count("<circle") >= a.num_states


def test_deterministic_parity_matches_cli():
    """``deterministic``/``parity``/``complete`` are ``-D``/``-P``/``-C``: the same HOA as the CLI,
    deterministic, and its language checked on lasso words against the formula."""
    f = "FG a | GF b"
    d = ltl.translate(f, deterministic=True, parity=True, complete=True)
    want = cli("ltl", "translate", "-D", "-P", "-C", f)
    assert same(d.result.json) == same(want)
    assert d.to_hoa() == want["hoa"]
    assert d._structure()["deterministic"] and d._structure()["complete"]
    assert "parity" in d._structure()["acc_name"]
    for w in ["cycle{a & !b}", "cycle{!a & !b}", "cycle{!a & b}", "!a & b; cycle{a & !b}",
              "cycle{!a & b; !a & !b}", "a & b; cycle{a & !b; !a & !b}"]:
        assert d.accepts(w).verdict == ltl.check(f, w).verdict, w
    with pytest.raises(verikit.UsageError):
        ltl.translate(f, parity="max sideways")


def test_formula_error_is_located():
    with pytest.raises(verikit.InputError) as e:
        ltl.translate("G (a U")
    assert e.value.file == "<formula>" and e.value.line == 1 and e.value.column >= 1
    assert "^" in e.value.rendered


def test_hoa_error_is_located():
    with pytest.raises(verikit.InputError) as e:
        aut.from_hoa("HOA: v1\nStates: 1\nStart: 0\nAP: 1 \"a\"\nAcceptance: 0 t\n--BODY--\nState: 0\n[0 & ] 0\n--END--\n",
                     name="x.hoa")
    assert e.value.file == "x.hoa" and e.value.line == 8
