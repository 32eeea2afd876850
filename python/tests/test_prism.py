"""verikit.prism: property values equal `verikit prism check --json` on the shared BRP model; the
explicit model's arrays describe a stochastic matrix; located errors."""

from __future__ import annotations

from pathlib import Path

import pytest

import verikit
from verikit import prism
from conftest import cli, data, same

# Knuth's die, the model of the prism example.
DIE = (Path(__file__).resolve().parents[1] / "examples" / "die.pm").read_text()


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


def _sta(e):
    """The states' valuations from the `.sta` text: one dict per state, in state order."""
    lines_ = e.sta.splitlines()
    names = lines_[0].strip("()").split(",")
    out = {}
    for l in lines_[1:]:
        i, vals = l.split(":", 1)
        out[int(i)] = dict(zip(names, (int(v) for v in vals.strip("()").split(","))))
    return [out[i] for i in range(len(out))]


def test_values_per_state_equal_a_linear_solve():
    """Every state's value of P=? [F s=7 & d=6] equals the solution of the reachability system
    (I - P) x = b built independently from the explicit model's arrays."""
    np = pytest.importorskip("numpy")
    m = prism.from_string(DIE)
    r = m.check("P=? [ F s=7 & d=6 ]")
    e = m.build()
    assert r.values.dtype == np.float64 and len(r.values) == e.num_states
    vals = _sta(e)
    target = np.array([v["s"] == 7 and v["d"] == 6 for v in vals])
    # States that cannot reach the target (s=7, d!=6) are 0; solve on the rest.
    p = e.matrix()
    dead = np.array([v["s"] == 7 and v["d"] != 6 for v in vals])
    free = ~(target | dead)
    a = np.eye(free.sum()) - p[np.ix_(free, free)]
    b = p[np.ix_(free, target)].sum(axis=1)
    want = np.zeros(e.num_states)
    want[target] = 1.0
    want[free] = np.linalg.solve(a, b)
    assert np.allclose(r.values, want, atol=1e-6)
    assert list(r.initial_states) == list(e.initial)
    s0 = int(e.initial[0])
    assert r.at(s0) == r.results[0]["result"] and r.initial_values == [r.results[0]["result"]]
    assert isinstance(r.at(s0), float)


MANY_INITIAL = """dtmc
module walk
  x : [0..4];
  [] x>0 & x<4 -> 0.5 : (x'=x-1) + 0.5 : (x'=x+1);
  [] x=0 | x=4 -> true;
endmodule
init x>=1 & x<=3 endinit
"""


def test_one_value_per_initial_state():
    """A gambler's ruin from three initial states: P(reach 4 from x) = x/4 for each of them; the
    CLI's answer (first initial state's value and the range) agrees."""
    m = prism.from_string(MANY_INITIAL)
    r = m.check("P=? [ F x=4 ]")
    e = m.build()
    vals = _sta(e)
    got = {vals[int(s)]["x"]: v for s, v in zip(r.initial_states, r.initial_values)}
    assert sorted(got) == [1, 2, 3]
    for x, v in got.items():
        assert abs(v - x / 4) < 1e-6
    assert r.initial_values[0] == r.results[0]["result"]
    lo, hi = r.results[0]["init_range"]
    assert abs(lo - min(got.values())) < 1e-12 and abs(hi - max(got.values())) < 1e-12
    for s, v in enumerate(vals):
        assert abs(r.at(s) - v["x"] / 4) < 1e-6


def test_boolean_and_filter_values():
    np = pytest.importorskip("numpy")
    m = prism.from_string(MANY_INITIAL)
    r = m.check('P>=0.5 [ F x=4 ]\nfilter(max, P=? [ F x=4 ], x>=1 & x<=3)')
    b, f = r.results
    vals = _sta(m.build())
    assert b.values.dtype == np.bool_
    assert [bool(b.at(s)) for s in range(len(vals))] == [v["x"] >= 2 for v in vals]
    assert b.initial_values == [vals[int(s)]["x"] >= 2 for s in b.initial_states]
    assert f.values is None and abs(f["result"] - 0.75) < 1e-6
    with pytest.raises(ValueError):
        f.at(0)
    with pytest.raises(ValueError):
        r.at(0)  # two properties: pick one


def test_build_arrays_are_not_copied():
    """build() hands the engine's Vecs to numpy: the arrays do not own their data (their base is
    the Rust buffer's keeper) and stay valid after the model object is gone."""
    np = pytest.importorskip("numpy")
    e = prism.from_string(DIE).build()
    for a in (e.initial, e.row_choices, e.choice_start, e.cols, e.vals, e.choice_action):
        assert isinstance(a, np.ndarray) and not a.flags.owndata and a.base is not None
    assert e.cols.dtype == np.uint32 and e.choice_start.dtype == np.uint64
    vals, starts = e.vals, e.choice_start
    del e
    import gc
    gc.collect()
    assert abs(vals.sum() - (len(starts) - 1)) < 1e-9
