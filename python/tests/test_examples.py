"""The notebook-style examples (python/examples/*.py), one per engine, run as scripts."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = sorted((Path(__file__).resolve().parents[1] / "examples").glob("*.py"))


@pytest.mark.parametrize("script", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example_runs(script):
    p = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300,
                       check=False)
    assert p.returncode == 0, p.stdout + p.stderr
    assert p.stdout.strip()


def test_one_example_per_engine():
    assert {p.stem.split("_")[0] for p in EXAMPLES} >= {"nfa", "ltl", "smt", "bn", "prism"}
