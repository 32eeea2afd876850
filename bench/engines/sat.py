"""SAT solving and unsatisfiable cores (verikit sat, verikit sat core) against python-sat
-> bench/results/sat.md.

Instances: BMC CNFs of shared circuits (`verikit aig bmc-cnf FILE -k K`), for unsafe circuits
with a known shortest counterexample depth d at K = d-1 (unsatisfiable) and K = d
(satisfiable), for safe ones at K = 8 (unsatisfiable). Solving: `verikit sat` (whole process,
parsing included) vs python-sat's CaDiCaL 1.5.3 and Glucose 4 (solve call only, measured inside
the worker). Cores on the unsatisfiable ones: verikit's Trimmer (one run), trim till fix, the
deletion MUS, vs python-sat's MUSX (deletion-based MUS on CaDiCaL; `pysat.examples.musx`).
Times are CPU seconds (user + system); each run is limited to `--limit` seconds of wall time.

usage: bench/.venv/bin/python bench/engines/sat.py [--limit S] [--max N]
(python-sat installed into bench/.venv: `python3 -m venv bench/.venv && bench/.venv/bin/pip
install python-sat`)
"""

import argparse
import csv
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from harness import measure  # noqa: E402

BENCH = Path(__file__).resolve().parent.parent
ROOT = BENCH.parent
DATA = Path(os.environ.get("VERIKIT_DATA", ROOT.parent / "shared" / "data")).resolve() / "aiger"
VERIKIT = Path(os.environ.get("VERIKIT_BIN", ROOT / "target" / "release" / "verikit"))


def worker(kind, path):
    """Runs inside a subprocess: one python-sat job, prints JSON with its own CPU time."""
    from pysat.formula import CNF, WCNF
    from pysat.solvers import Solver
    cnf = CNF(from_file=path)
    t0 = resource.getrusage(resource.RUSAGE_SELF)
    if kind in ("cd15", "g4"):
        with Solver(name=kind, bootstrap_with=cnf.clauses) as s:
            r = s.solve()
        out = {"result": "sat" if r else "unsat"}
    else:
        from pysat.examples.musx import MUSX
        w = WCNF()
        for c in cnf.clauses:
            w.append(c, weight=1)
        core = MUSX(w, solver="cd15", verbosity=0).compute()
        out = {"core": len(core) if core else None}
    t1 = resource.getrusage(resource.RUSAGE_SELF)
    out["cpu"] = (t1.ru_utime - t0.ru_utime) + (t1.ru_stime - t0.ru_stime)
    print(json.dumps(out))


def run(cmd, limit):
    """(stdout, cpu seconds, timed out) of one process, killed after `limit` + 2 s of wall time
    (the harness's `measure`)."""
    r = measure(cmd, timeout=limit + 2)
    return r.stdout, r.cpu_s, r.timed_out


def jparse(out):
    try:
        return json.loads(out.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return {}


def instances(limit_n):
    rows = list(csv.DictReader(open(DATA / "EXPECTED.tsv"), delimiter="\t"))
    unsafe = [r for r in rows if r["expected"] == "unsafe" and r["cex_depth"].isdigit()
              and 2 <= int(r["cex_depth"]) <= 20]
    safe = [r for r in rows if r["expected"] == "safe"]
    pick = unsafe[:: max(1, len(unsafe) // limit_n)][:limit_n]
    pick_safe = safe[:: max(1, len(safe) // (limit_n // 2))][: limit_n // 2]
    out = []
    for r in pick:
        d = int(r["cex_depth"])
        out.append((r["file"], d - 1, "unsat"))
        out.append((r["file"], d, "sat"))
    for r in pick_safe:
        out.append((r["file"], 8, "unsat"))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--limit", type=float, default=10.0)
    ap.add_argument("--max", type=int, default=12)
    ap.add_argument("--worker", nargs=2)
    o = ap.parse_args()
    if o.worker:
        worker(*o.worker)
        return
    tmp = Path(tempfile.mkdtemp(prefix="verikit-sat-bench-"))
    py = sys.executable
    rows = []
    for f, k, expect in instances(o.max):
        cnf = tmp / (Path(f).stem + f"-k{k}.cnf")
        subprocess.run([str(VERIKIT), "aig", "bmc-cnf", str(DATA / f), "-k", str(k), "-o", str(cnf)],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)
        if not cnf.exists():
            continue
        header = next(l for l in open(cnf) if l.startswith("p "))
        nv, nc = header.split()[2:4]
        row = {"file": f, "k": k, "vars": nv, "clauses": nc}
        out, cpu, to = run([str(VERIKIT), "--json", "--timeout", str(o.limit), "sat", str(cnf)], o.limit)
        row["verikit"] = (jparse(out).get("result", "timeout" if to else "?"), cpu)
        for s in ("cd15", "g4"):
            out, cpu, to = run([py, __file__, "--worker", s, str(cnf)], o.limit)
            j = jparse(out)
            row[s] = (j.get("result", "timeout"), j.get("cpu", cpu))
        if row["verikit"][0] == "unsat":
            for m in ("trimmer", "trim-till-fix", "mus"):
                out, cpu, to = run([str(VERIKIT), "--json", "--timeout", str(o.limit), "sat", "core",
                                    str(cnf), "--method", m], o.limit)
                j = jparse(out)
                row[m] = (j.get("core_size"), j.get("initial_core_size"), j.get("complete"), cpu)
            out, cpu, to = run([py, __file__, "--worker", "musx", str(cnf)], o.limit)
            j = jparse(out)
            row["musx"] = (j.get("core"), j.get("cpu", cpu), to)
        rows.append(row)
        print(json.dumps(row), flush=True)
    write(rows, o)


def write(rows, o):
    load = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    L = ["# verikit sat / sat core vs python-sat", "",
         f"One run of `bench/engines/sat.py --limit {o.limit} --max {o.max}` on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
         f"{platform.machine()} {platform.system()}, {os.cpu_count()} cores, `uptime`: {load}. "
         "The machine was shared with other engineers building and testing at the same time, so every "
         "time is noisy and inflated by load; read ratios, not absolute numbers.", "",
         "Instances: BMC CNFs of the shared AIGER circuits (`verikit aig bmc-cnf`): unsafe circuits at "
         "one frame below the shortest counterexample (unsat) and at it (sat), safe circuits at k = 8 (unsat).",
         "verikit times are whole processes (parsing included); python-sat times are the solve / MUS call "
         "only (parsing in Python excluded).", "",
         "## Solving", "",
         "| instance | k | vars | clauses | verikit | s | CaDiCaL 1.5.3 | s | Glucose 4 | s | ratio verikit/CaDiCaL |",
         "|---|---|---|---|---|---|---|---|---|---|---|"]
    ratios = []
    for r in rows:
        v, c, g = r["verikit"], r["cd15"], r["g4"]
        ratio = ""
        if v[0] in ("sat", "unsat") and c[0] in ("sat", "unsat") and c[1] > 0:
            ratio = f"{v[1] / max(c[1], 1e-3):.1f}"
            ratios.append(v[1] / max(c[1], 1e-3))
        L.append(f"| {r['file']} | {r['k']} | {r['vars']} | {r['clauses']} | {v[0]} | {v[1]:.2f} | {c[0]} | {c[1]:.2f} | {g[0]} | {g[1]:.2f} | {ratio} |")
    wrong = sum(1 for r in rows if r["verikit"][0] in ("sat", "unsat") and r["cd15"][0] in ("sat", "unsat")
                and r["verikit"][0] != r["cd15"][0])
    L += ["", f"Disagreements with CaDiCaL: {wrong}. Median ratio verikit/CaDiCaL (CaDiCaL time floored at 1 ms): "
          f"{statistics.median(ratios):.1f}" if ratios else "no ratios", ""]
    L += ["## Cores (unsatisfiable instances)", "",
          "Sizes in clauses; `initial` is the core of the first checked DRAT proof (Trimmer's starting point); "
          "`*` = stopped by the limit (best core so far).", "",
          "| instance | k | clauses | initial | Trimmer | s | trim till fix | s | verikit MUS | s | MUSX (python-sat) | s |",
          "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    sizes = {"trimmer": [], "trim-till-fix": [], "mus": [], "musx": []}
    times = {"trimmer": [], "trim-till-fix": [], "mus": [], "musx": []}
    for r in rows:
        if "trimmer" not in r:
            continue
        cell = lambda m: (f"{r[m][0]}{'' if r[m][2] else '*'}" if r[m][0] is not None else "—", f"{r[m][3]:.2f}")
        t, tf, mu = cell("trimmer"), cell("trim-till-fix"), cell("mus")
        mx = r["musx"]
        mxs = f"{mx[0]}" if mx[0] is not None and not mx[2] else "—"
        L.append(f"| {r['file']} | {r['k']} | {r['clauses']} | {r['trimmer'][1] or '—'} | {t[0]} | {t[1]} | {tf[0]} | {tf[1]} | {mu[0]} | {mu[1]} | {mxs} | {mx[1]:.2f} |")
        for m in ("trimmer", "trim-till-fix", "mus"):
            if r[m][0] is not None:
                sizes[m].append(r[m][0])
                times[m].append(r[m][3])
        if mx[0] is not None and not mx[2]:
            sizes["musx"].append(mx[0])
            times["musx"].append(mx[1])
    L += ["", "| method | cores | median size | median CPU s |", "|---|---|---|---|"]
    for m, name in (("trimmer", "Trimmer"), ("trim-till-fix", "trim till fix"), ("mus", "verikit MUS"), ("musx", "MUSX")):
        if sizes[m]:
            L.append(f"| {name} | {len(sizes[m])} | {statistics.median(sizes[m])} | {statistics.median(times[m]):.2f} |")
    (BENCH / "results" / "sat.md").write_text("\n".join(L) + "\n")


if __name__ == "__main__":
    main()
