"""verikit.nfa: answers equal `verikit nfa … --json` on the shared ARMC and email-filter automata;
witness words replayed on the automata by an independent simulator; located errors."""

from __future__ import annotations

import csv
import re
import subprocess

import pytest

import verikit
from verikit import nfa
from conftest import CLI, cli, data, same

# The smallest ARMC problems (both answers occur), and email-filter pairs.
ARMC = ["false-T131", "true-T135", "false-T124", "true-T139", "false-T13", "true-T110"]
EMAIL = [("aut0", "aut1"), ("aut2", "aut2"), ("aut10", "aut11")]


def accepts(path, word) -> bool:
    """An independent @NFA-bits simulator: does the automaton at `path` accept `word` (a list of
    letters, each a dict atom -> bool)? Transition labels are conjunctions of literals."""
    init, final, trans = set(), set(), []
    for line in open(path, encoding="utf-8"):
        line = line.strip()
        if line.startswith("%Initial"):
            init |= set(line.split()[1:])
        elif line.startswith("%Final"):
            final |= set(line.split()[1:])
        elif line and not line.startswith(("@", "%", "#")):
            m = re.match(r"(\S+)\s+\((.*)\)\s+(\S+)$", line) or re.match(r"(\S+)\s+(\S+)\s+(\S+)$", line)
            assert m, line
            trans.append((m.group(1), m.group(2), m.group(3)))

    def holds(label, letter):
        for lit in label.split("&"):
            lit = lit.strip()
            if lit in ("true", ""):
                continue
            neg = lit.startswith("!")
            if letter.get(lit.lstrip("!"), False) == neg:
                return False
        return True

    cur = set(init)
    for letter in word:
        cur = {d for s, l, d in trans if s in cur and holds(l, letter)}
    return bool(cur & final)


def letters(witness):
    """The witness word of an answer as a list of letters (dicts atom -> bool)."""
    out = []
    for sym in witness if isinstance(witness, list) else witness.get("word", []):
        letter = {}
        for lit in re.split(r"\s*&\s*", sym.strip("() ")):
            if lit:
                letter[lit.lstrip("!")] = not lit.startswith("!")
        out.append(letter)
    return out


@pytest.mark.parametrize("problem", ARMC)
def test_armc_inclusion_equals_cli(problem):
    d = data("nfa/armc-incl")
    lhs, rhs = d / f"{problem}-lhs.mata", d / f"{problem}-rhs.mata"
    got = nfa.load(lhs).is_included(nfa.load(rhs))
    want = cli("nfa", "incl", str(lhs), str(rhs))
    assert same(got.json) == same(want)
    expected = {r["problem"]: r["expected_inclusion"]
                for r in csv.DictReader(open(data("nfa") / "armc-incl-index.csv"))}
    assert got.verdict == expected[problem]
    assert bool(got) == (expected[problem] == "true")
    if got.verdict == "false":
        w = letters(got.witness)
        assert accepts(lhs, w) and not accepts(rhs, w), got.witness


@pytest.mark.parametrize("a,b", EMAIL)
def test_email_equivalence_and_universality_equal_cli(a, b):
    d = data("nfa/email-filter")
    x, y = nfa.load(d / f"{a}.mata"), nfa.load(d / f"{b}.mata")
    got = nfa.equivalent(x, y)
    assert same(got.json) == same(cli("nfa", "equiv", str(d / f"{a}.mata"), str(d / f"{b}.mata")))
    if a == b:
        assert got.verdict == "true"
    u = x.is_universal()
    assert same(u.json) == same(cli("nfa", "univ", str(d / f"{a}.mata")))
    assert same(x.info().json) == same(cli("nfa", "info", str(d / f"{a}.mata")))


ENDS_AB = "@NFA-explicit\n%Alphabet-auto\n%Initial q0\n%Final q2\nq0 a q0\nq0 b q0\nq0 a q1\nq1 b q2\n"


def test_strings_round_trip_and_witness(tmp_path):
    a = nfa.from_string(ENDS_AB)
    r = a.is_universal()
    assert r.verdict == "false" and r.witness is not None
    p = tmp_path / "ends-ab.ba"
    a.save(p)
    again = nfa.load(p)
    assert again.equivalent(a).verdict == "true"
    assert "digraph" in a.to_string("dot")


def test_located_error():
    bad = "@NFA-explicit\n%Initial q0\nq0 a\n"
    with pytest.raises(verikit.InputError) as e:
        nfa.from_string(bad, name="bad.mata").is_universal()
    err = e.value
    assert err.file == "bad.mata" and err.line == 3 and err.column >= 1
    assert "bad.mata:3:" in err.rendered and "^" in err.rendered
    assert isinstance(err, ValueError)


def test_error_text_equals_the_cli(tmp_path):
    """One renderer (verikit_diag::Failure) for every front end: the exception's text is the
    CLI's stderr for the same file."""
    if not CLI.exists():
        pytest.skip(f"CLI binary missing: {CLI}")
    p = tmp_path / "bad.mata"
    p.write_text("@NFA-explicit\n%Initial q0\nq0 a\n")
    r = subprocess.run([str(CLI), "nfa", "univ", str(p)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2, r.stderr
    with pytest.raises(verikit.InputError) as e:
        nfa.load(str(p)).is_universal()
    assert e.value.rendered.strip() == r.stderr.strip()
    assert e.value.file == str(p) and e.value.line == 3 and e.value.column == 4


def test_unknown_algorithm_is_usage_error():
    with pytest.raises(verikit.UsageError):
        nfa.from_string(ENDS_AB).is_universal(algo="no-such-algo")


def test_missing_file():
    with pytest.raises(verikit.VerikitError, match="cannot read"):
        nfa.load("/nonexistent/x.mata").info()
