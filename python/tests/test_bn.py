"""verikit.bn: attractors and fixed points equal `verikit bn … --json` on shared BBM networks."""

from __future__ import annotations

import pytest

import verikit
from verikit import bn
from conftest import cli, data, same

NETS = ["[id-003]__[var-19]__[in-1]__[MAMMALIAN-CELL-CYCLE]", "[id-005]__[var-28]__[in-0]__[FA-BRCA-PATHWAY]"]


@pytest.mark.parametrize("net", NETS)
def test_bbm_equal_cli(net):
    p = data("bn/bbm") / net / "model.bnet"
    n = bn.load(p)
    assert same(n.attractors().json) == same(cli("bn", "attractors", str(p)))
    assert same(n.fixed_points().json) == same(cli("bn", "fixed-points", str(p)))
    assert same(n.info().json) == same(cli("bn", "info", str(p)))


def test_toggle_switch():
    n = bn.from_string("targets, factors\na, !b\nb, !a\n")
    fp = n.fixed_points()
    assert fp.verdict is None or fp.verdict in ("true", "false")
    att = n.attractors()
    assert same(att.json)  # an answer
    text = n.to_string("aeon")
    assert "a" in text and "b" in text


def test_bad_network_is_located():
    with pytest.raises(verikit.InputError) as e:
        bn.from_string("targets, factors\na, !b &\n", name="bad.bnet")
    assert e.value.file == "bad.bnet" and e.value.line == 2
