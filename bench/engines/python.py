"""Overhead of the Python package over the CLI, on the NFA and LTL benchmark inputs.

For each input the same question is answered twice: by one `verikit --json -q …` process (CPU time
of the process, from wait4: start-up, parsing, the work, printing) and by one call of the Python API
in this process (`time.process_time()` around the call: every thread of the process, so the
worker thread that does the work counts; the interpreter and `import verikit` are measured once,
separately). The answers must be equal (times aside). Inputs: the ARMC inclusion problems of
`nfa/armc-incl` with at most 3000 states on both sides together (the larger ones take minutes in both) and the 55 DAC patterns of
`ltl/dac-patterns.ltl` (TGBA translation).

usage: python bench/engines/python.py [--limit N]   (run with the interpreter that has `verikit`
installed, e.g. target/py-venv/bin/python after python/ci.sh); writes bench/results/python.md
"""

from __future__ import annotations

import csv
import datetime
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from harness import BENCH, DATA, load_avg, machine, measure, verikit_cmd  # noqa: E402

import verikit  # noqa: E402
from verikit import ltl, nfa  # noqa: E402

LIMIT = int(sys.argv[sys.argv.index("--limit") + 1]) if "--limit" in sys.argv else 0
MAX_STATES = 3000  # lhs + rhs states of an ARMC problem (the larger ones take minutes in both)
TIMEOUT = 60.0


def same(x):
    if isinstance(x, dict):
        return {k: same(v) for k, v in x.items() if k != "times" and not k.endswith("_s")}
    if isinstance(x, list):
        return [same(v) for v in x]
    return x


def py_cpu(f):
    t0 = time.process_time()
    r = f()
    return r, time.process_time() - t0


def rows_nfa():
    rows = []
    index = list(csv.DictReader(open(DATA / "nfa" / "armc-incl-index.csv")))
    index = [r for r in index if int(r["lhs_states"]) + int(r["rhs_states"]) <= MAX_STATES]
    index.sort(key=lambda r: int(r["lhs_states"]) + int(r["rhs_states"]))
    if LIMIT:
        index = index[:LIMIT]
    d = DATA / "nfa" / "armc-incl"
    for r in index:
        lhs, rhs = d / f"{r['problem']}-lhs.mata", d / f"{r['problem']}-rhs.mata"
        c = measure(verikit_cmd("--json", "-q", "--timeout", TIMEOUT, "nfa", "incl", lhs, rhs),
                    timeout=TIMEOUT + 10)
        res, cpu = py_cpu(lambda: nfa.load(lhs).is_included(nfa.load(rhs), timeout=TIMEOUT))
        rows.append((r["problem"], c.cpu_s, cpu, res.verdict, same(res.json) == same(c.result)))
    return rows


def rows_ltl():
    rows = []
    fs = [l.strip() for l in open(DATA / "ltl" / "dac-patterns.ltl") if l.strip()]
    if LIMIT:
        fs = fs[:LIMIT]
    for f in fs:
        c = measure(verikit_cmd("--json", "-q", "--timeout", TIMEOUT, "ltl", "translate", f),
                    timeout=TIMEOUT + 10)
        a, cpu = py_cpu(lambda: ltl.translate(f, timeout=TIMEOUT))
        rows.append((f, c.cpu_s, cpu, f"{a.num_states} states", same(a.result.json) == same(c.result)))
    return rows


def table(title, rows):
    out = [f"## {title}", "", "| input | CLI process CPU s | Python call CPU s | ratio Python/CLI | answer | equal |",
           "|---|---:|---:|---:|---|---|"]
    ratios = []
    for name, c, p, ans, eq in rows:
        ratio = p / c if c > 0 else float("nan")
        ratios.append(ratio)
        cell = name.replace("|", "\\|")
        out.append(f"| `{cell}` | {c:.4f} | {p:.4f} | {ratio:.2f} | {ans} | {'yes' if eq else 'NO'} |")
    out += ["", f"Inputs: {len(rows)}; median CLI {statistics.median(r[1] for r in rows):.4f} s, "
            f"median Python {statistics.median(r[2] for r in rows):.4f} s, median ratio "
            f"{statistics.median(ratios):.2f}; answers equal on {sum(r[4] for r in rows)}/{len(rows)}.", ""]
    return out


def main() -> None:
    start = subprocess.run([sys.executable, "-c", "import time; t=time.process_time(); import verikit; "
                            "print(time.process_time()-t)"], capture_output=True, text=True, check=True)
    imp = float(start.stdout.strip())
    up = measure([sys.executable, "-c", "import verikit"], timeout=60)
    cli_up = measure(verikit_cmd("--version"), timeout=60)
    nfa_rows, ltl_rows = rows_nfa(), rows_ltl()
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    md = ["# Python package overhead (verikit from Python vs the verikit CLI)", "",
          f"Machine: {machine()}. Date: {now}. Load average (1/5/15 min) at the end: {load_avg()}. "
          "The machine was shared with other engineers' builds and tests and heavily loaded during the "
          "run: CPU times (not wall times) are compared, and they still vary from run to run.", "",
          f"verikit {verikit.__version__}; one run of `python bench/engines/python.py`"
          f"{' --limit ' + str(LIMIT) if LIMIT else ''}.", "",
          "The CLI column is the CPU time of one whole `verikit --json -q …` process (start-up, parsing, "
          "work, JSON printing); the Python column is `time.process_time()` around one API call in an "
          "already running interpreter (parsing, work, JSON hand-over and `json.loads`). Start-up costs "
          f"apart: `import verikit` takes {imp:.3f} s of CPU, a whole `python -c 'import verikit'` process "
          f"{up.cpu_s:.3f} s, a `verikit --version` process {cli_up.cpu_s:.3f} s.", ""]
    md += table("NFA inclusion (nfa/armc-incl, `nfa incl` vs `Nfa.is_included`)", nfa_rows)
    md += table("LTL translation (ltl/dac-patterns.ltl, `ltl translate` vs `ltl.translate`)", ltl_rows)
    out = BENCH / "results" / "python.md"
    out.write_text("\n".join(md))
    print(out.read_text())


if __name__ == "__main__":
    main()
