"""Before/after of one benchmark page: the per-input table of an earlier version of a page
(`REV:bench/results/X.md`, read with `git show`, or a file) against the current one, on the inputs
both runs have.

    python3 bench/compare_pages.py OLD NEW [--peer yices] [--base verikit]

Picks, in each page, the first per-input table that has a `ratio vs PEER` column (the tables
`harness.Table` writes: `input | … | BASE s | … | ratio vs PEER`; without `--peer`, the first
with a `BASE s` column), joins the rows by `input`, and prints over the inputs measured in both
runs: the median ratio BASE/PEER before and after, the median of BASE's time after/before (the
engine's own change, independent of the peer), the median of PEER's time after/before (how much the
machine's load moved the times), and the inputs that grew most. Ratios and times are read as printed
in the pages; `–` cells are skipped.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def read(spec: str) -> str:
    if Path(spec).is_file():
        return Path(spec).read_text()
    return subprocess.run(["git", "-C", str(ROOT), "show", spec], capture_output=True, text=True,
                          check=True).stdout


def table(text: str, column: str) -> dict[str, dict[str, str]]:
    """The rows of the first markdown table whose header has `column`, keyed by input."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if not line.startswith("|"):
            continue
        head = [c.strip() for c in line.strip().strip("|").split("|")]
        if column not in head or i > 0 and lines[i - 1].startswith("|"):
            continue
        rows = {}
        for row in lines[i + 2:]:
            if not row.startswith("|"):
                break
            cells = [c.strip() for c in row.strip().strip("|").split("|")]
            if len(cells) == len(head):
                rows[cells[0]] = dict(zip(head, cells))
        return rows
    return {}


def num(cell: str | None) -> float | None:
    try:
        return float(cell) if cell is not None else None
    except ValueError:
        return None


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--peer", default=None)
    ap.add_argument("--base", default="verikit")
    ap.add_argument("--worst", type=int, default=5)
    a = ap.parse_args()
    key = f"ratio vs {a.peer}" if a.peer else f"{a.base} s"
    old, new = table(read(a.old), key), table(read(a.new), key)
    if not old or not new:
        raise SystemExit(f"no per-input table with `{key}` in {'the old' if not old else 'the new'} page")
    common = []
    for name in new:
        if name not in old:
            continue
        b0, b1 = num(old[name].get(f"{a.base} s")), num(new[name].get(f"{a.base} s"))
        if a.peer:
            r0, r1 = num(old[name].get(key)), num(new[name].get(key))
            p0, p1 = num(old[name].get(f"{a.peer} s")), num(new[name].get(f"{a.peer} s"))
        else:
            r0, r1, p0, p1 = b0, b1, b0, b1
        if None in (r0, r1, b0, b1, p0, p1) or not b0 or not p0 or not r0:
            continue
        common.append((name, r0, r1, b1 / b0, p1 / p0))
    if not common:
        raise SystemExit("no input measured in both runs")
    med = statistics.median
    print(f"inputs measured in both runs: {len(common)} (old table {len(old)} rows, new {len(new)})")
    if a.peer:
        print(f"median ratio {a.base}/{a.peer}: before {med([c[1] for c in common]):.3f}, "
              f"after {med([c[2] for c in common]):.3f}")
        print(f"median {a.peer} time after/before: {med([c[4] for c in common]):.3f}")
    else:
        print(f"median {a.base} s: before {med([c[1] for c in common]):.4f}, after {med([c[2] for c in common]):.4f}")
    print(f"median {a.base} time after/before: {med([c[3] for c in common]):.3f}")
    what = "ratio" if a.peer else f"{a.base} s"
    print(f"largest growth of the {what} (after/before):")
    for name, r0, r1, b, _ in sorted(common, key=lambda c: c[2] / c[1], reverse=True)[: a.worst]:
        print(f"  {name}: {what} {r0:.4g} -> {r1:.4g} ({r1 / r0:.2f}x), {a.base} time x{b:.2f}")

if __name__ == "__main__":
    main()
