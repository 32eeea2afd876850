"""verikit.prism: property values equal `verikit prism check --json` on the shared BRP model; the
explicit model's arrays describe a stochastic matrix; located errors."""

from __future__ import annotations

import pytest

import verikit
from verikit import prism
from conftest import cli, data, same

DIE = """dtmc
module die
  s : [0..7] init 0;
  d : [0..6] init 0;
  [] s=0 -> 0.5 : (s'=1) + 0.5 : (s'=2);
  [] s=1 -> 0.5 : (s'=3) + 0.5 : (s'=4);
  [] s=2 -> 0.5 : (s'=5) + 0.5 : (s'=6);
  [] s=3 -> 0.5 : (s'=1) + 0.5 : (s'=7) & (d'=1);
  [] s=4 -> 0.5 : (s'=7) & (d'=2) + 0.5 : (s'=7) & (d'=3);
  [] s=5 -> 0.5 : (s'=7) & (d'=4) + 0.5 : (s'=7) & (d'=5);
  [] s=6 -> 0.5 : (s'=2) + 0.5 : (s'=7) & (d'=6);
  [] s=7 -> (s'=7);
endmodule
"""


def test_brp_equals_cli():
    d = data("prism/models/dtmcs/brp")
    m = prism.load(d / "brp.pm", consts={"N": 16, "MAX": 2})
    got = m.check(path=d / "p1.pctl")
    want = cli("prism", "check", str(d / "brp.pm"), str(d / "p1.pctl"), "--const", "N=16,MAX=2")
    assert same(got.json) == same(want)
    v = got.results[0]["result"]
    assert abs(v - 4.2333344360436463e-4) < 1e-6 * 4.3e-4 * 10


def test_die_values_and_explicit_model():
    m = prism.from_string(DIE)
    r = m.check("P=? [ F s=7 & d=6 ]")
    assert abs(r.results[0]["result"] - 1 / 6) < 1e-6
    e = m.build()
    assert e.type == "dtmc" and e.num_states == 13
    np = pytest.importorskip("numpy")
    mat = e.matrix()
    assert np.allclose(mat.sum(axis=1), 1.0)
    assert e.vals.dtype == np.float64 and len(e.cols) == e.num_transitions


def test_undefined_constant_is_located():
    d = data("prism/models/dtmcs/brp")
    with pytest.raises(verikit.InputError) as e:
        prism.load(d / "brp.pm").build()
    assert e.value.file.endswith("brp.pm") and e.value.line == 7


def test_property_error_points_into_properties():
    with pytest.raises(verikit.InputError) as e:
        prism.from_string(DIE).check("P=? [ F s=7 & ]")
    assert e.value.file == "<properties>" and e.value.line == 1
