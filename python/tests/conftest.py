"""Shared helpers: where the shared data and the CLI binary are, and how to compare answers."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any, List

import pytest

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(os.environ.get("VERIKIT_DATA", ROOT / ".." / "shared" / "data")).resolve()
CLI = Path(os.environ.get("VERIKIT_BIN", ROOT / "target" / "release" / "verikit"))


def data(sub: str) -> Path:
    """A folder of the shared data; the test is skipped (saying so) when it is missing."""
    p = DATA / sub
    if not p.exists():
        pytest.skip(f"shared data missing: {p} (set VERIKIT_DATA)")
    return p


def cli(*args: str, timeout: float = 120) -> dict:
    """`verikit --json ARGS` parsed; skipped when the CLI binary has not been built."""
    if not CLI.exists():
        pytest.skip(f"CLI binary missing: {CLI} (cargo build --release -p verikit, or set VERIKIT_BIN)")
    p = subprocess.run([str(CLI), "--json", "-q", *args], capture_output=True, text=True,
                       timeout=timeout, check=False)
    assert p.returncode in (0, 2, 3), p.stderr
    return json.loads(p.stdout)


# Measured times and the process's peak memory (which only the command line reports) differ
# from run to run; everything else must be equal.
_MEASURED = {"times", "total_s", "translate_s", "build_s", "time_s", "check_s", "peak_memory_mib"}


def same(x: Any) -> Any:
    """The answer without its measurements (a `stats` left empty by that is dropped)."""
    if isinstance(x, dict):
        kept = {k: same(v) for k, v in x.items() if k not in _MEASURED and not k.endswith("_s")}
        return {k: v for k, v in kept.items() if not (k == "stats" and v == {})}
    if isinstance(x, list):
        return [same(v) for v in x]
    return x


def lines(text: str) -> List[str]:
    return [l for l in text.splitlines() if l.strip()]
