"""SMT benchmark: verikit smt vs yices-smt2 and z3 on ../shared/data/smt (QF_LRA/RDL/IDL/LIA).

Usage: smt.py [--limit SECS] [--per-family N] [--logic QF_LRA] [--tools verikit,yices,z3]
              [--runs FILE.jsonl] [--run-only] [--record]
Solved = a sat/unsat answer that agrees with the file's :status (a wrong answer counts as unsolved
and is listed). PAR-2 = mean over files of the time, with 2 × limit for unsolved files.
--record also writes tests/expected/smt-status.tsv with the peers' answers.
--runs keeps every measured run in a JSON-lines file and reuses runs already there (same tool,
file and limit), so the tools can be measured one at a time (one process at a time, one core)
and the table written afterwards; --run-only measures the --tools without writing the table.
verikit's time is the CPU time (user + system) of its whole process, start-up included, under a
wall-clock `--timeout`; --peer-cpu measures the peers in CPU seconds
under a CPU-time limit (without it: the wall time of the solver process), --verikit-cpu verikit
under a CPU-time limit instead (kept in the runs file like wall runs, so use a separate runs file); --cached-only writes the table of
the files already measured by every tool.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from collections import defaultdict

from harness import DATA, ROOT, VENV_PY, Run, Table, measure, peer_python, verikit_cmd


def verikit_answer(r: Run) -> Run:
    """verikit's `--json` answer in the peers' terms: the SMT-LIB response (`"result"`: sat / unsat /
    unknown) as the verdict (its own `verdict` is true / false / unknown / timeout / error), and as
    `time_s` the CPU seconds of the whole process (start-up and parsing included)."""
    res = r.result
    if res.get("verdict") in ("true", "false", "unknown") and isinstance(res.get("result"), str):
        res["verdict"] = res["result"]
    if "time_s" not in res and r.cpu_s == r.cpu_s:
        res["time_s"] = r.cpu_s
    return r


def load_runs(path: str | None) -> dict[tuple[str, str, float], Run]:
    out: dict[tuple[str, str, float], Run] = {}
    if not path:
        return out
    try:
        lines = open(path).read().splitlines()
    except OSError:
        return out
    for line in lines:
        try:
            d = json.loads(line)
        except json.JSONDecodeError:
            continue
        r = Run(d["wall_s"], d["peak_mb"], d["rc"], d["timed_out"], "", "", d["result"])
        out[(d["tool"], d["path"], float(d["limit"]))] = r
    return out


def save_run(path: str | None, tool: str, file: str, limit: float, r: Run) -> None:
    if not path:
        return
    with open(path, "a") as fh:
        fh.write(json.dumps({"tool": tool, "path": file, "limit": limit, "wall_s": r.wall_s,
                             "peak_mb": r.peak_mb, "rc": r.rc, "timed_out": r.timed_out,
                             "result": r.result}) + "\n")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--limit", type=float, default=60.0)
    ap.add_argument("--per-family", type=int, default=0, help="at most N files per family (0 = all)")
    ap.add_argument("--logic", default="")
    ap.add_argument("--record", action="store_true")
    ap.add_argument("--tools", default="verikit,yices,z3")
    ap.add_argument("--runs", default=None, help="JSON-lines file of runs to reuse and extend")
    ap.add_argument("--run-only", action="store_true")
    ap.add_argument("--cached-only", action="store_true", help="table of the files every tool has a run for")
    ap.add_argument("--peer-cpu", action="store_true",
                    help="peers: CPU seconds with a CPU-time limit instead of wall seconds (for loaded machines)")
    ap.add_argument("--verikit-cpu", action="store_true",
                    help="verikit: a CPU-time limit instead of the wall-clock --timeout")
    a = ap.parse_args()
    rows = []
    for line in (DATA / "smt" / "MANIFEST.tsv").read_text().splitlines()[1:]:
        f = line.split("\t")
        if a.logic and f[1] != a.logic:
            continue
        rows.append((f[0], f[1], f[2], f[3]))
    if a.per_family:
        seen: dict[str, int] = defaultdict(int)
        keep = []
        for r in rows:
            key = r[1] + "/" + r[2]
            if seen[key] < a.per_family:
                seen[key] += 1
                keep.append(r)
        rows = keep
    measure_tools = a.tools.split(",")
    cache = load_runs(a.runs)
    peer_cpu = ["--cpu-limit", str(a.limit)] if a.peer_cpu else []
    peer_wall = 10 * a.limit if a.peer_cpu else a.limit
    cmds = {
        # verikit: `--json` under a wall-clock `--timeout`, or with --verikit-cpu under a CPU-time limit
        # (the wall-clock kill only as a safety net); its time is the process's CPU seconds either way
        "verikit": lambda p: ((verikit_cmd("--json", "smt", p), 10 * a.limit, a.limit) if a.verikit_cpu else
                              (verikit_cmd("--json", "--timeout", str(a.limit), "smt", p), a.limit + 5, None)),
        "yices": lambda p: (peer_python("smt_native.py", *peer_cpu, "yices-smt2", p), peer_wall, None),
        "z3": lambda p: (peer_python("smt_native.py", *peer_cpu, "z3", p), peer_wall, None),
    }

    def run(tool: str, path: str) -> Run:
        key = (tool, path, float(a.limit))
        if key in cache:
            return cache[key]
        cmd, limit, cpu_limit = cmds[tool](str(DATA / "smt" / path))
        r = measure(cmd, timeout=limit, cpu_limit=cpu_limit)
        if tool == "verikit":
            verikit_answer(r)
        save_run(a.runs, tool, path, a.limit, r)
        cache[key] = r
        return r

    if a.run_only:
        for tool in measure_tools:
            for path, _, _, _ in rows:
                r = run(tool, path)
                print(f"[smt] {tool} {path}: {r.verdict} {r.time_s:.3f}", file=sys.stderr, flush=True)
        return
    tools = [t for t in ["verikit", "yices", "z3"] if t in measure_tools]
    if a.cached_only:
        rows = [r for r in rows if all((t, r[0], float(a.limit)) in cache for t in tools)]
    t = Table("smt", "SMT-LIB linear arithmetic: verikit smt vs yices-smt2 and z3", tools=tools,
              times="CPU seconds (user + system) of each solver process, start-up and parsing included"
              if a.peer_cpu else "verikit: CPU seconds of its process; peers: wall seconds of the solver process")
    fam: dict[tuple[str, str], dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    wrong = []
    rec = []
    for path, logic, family, status in rows:
        runs = {tool: run(tool, path) for tool in tools}
        for tool, r in runs.items():
            ok = r.ok and r.verdict in ("sat", "unsat") and r.time_s <= a.limit
            if ok and status in ("sat", "unsat") and r.verdict != status:
                wrong.append(f"{tool} answered {r.verdict} on {path} (status {status})")
                ok = False
            fam[(logic, family)][tool].append(r.time_s if ok else 2 * a.limit)
            fam[(logic, "ALL")][tool].append(r.time_s if ok else 2 * a.limit)
        if "yices" in runs and "z3" in runs:
            rec.append((path, status, runs["yices"].verdict, runs["z3"].verdict))
        t.add(path, runs, {"status": status})
    lines = [f"Limit {a.limit:g} s per file" + (f", first {a.per_family} files per family" if a.per_family else "") + f", {len(rows)} files.",
             "", "## Solved and PAR-2 per logic and family", "",
             "| logic | family | files | " + " | ".join(f"{x} solved | {x} PAR-2" for x in tools) + " | PAR-2 ratio verikit/yices |",
             "|" + "---|" * (3 + 2 * len(tools) + 1)]
    for (logic, family), d in sorted(fam.items(), key=lambda kv: (kv[0][0], kv[0][1] != "ALL", kv[0][1])):
        n = len(d["verikit"])
        cells = [logic, f"**{family}**" if family == "ALL" else family, str(n)]
        par = {}
        for x in tools:
            solved = sum(1 for v in d[x] if v < 2 * a.limit)
            par[x] = statistics.mean(d[x])
            cells += [str(solved), f"{par[x]:.2f}"]
        cells.append(f"{par['verikit'] / par['yices']:.2f}" if par["yices"] > 0 else "–")
        lines.append("| " + " | ".join(cells) + " |")
    if wrong:
        lines += ["", "Wrong answers:", ""] + [f"- {w}" for w in wrong]
    versions = {}
    if "yices" in tools:
        versions["yices"] = subprocess.run([str(VENV_PY.parent / "yices-smt2"), "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    if "z3" in tools:
        versions["z3"] = subprocess.run([str(VENV_PY.parent / "z3"), "--version"], capture_output=True, text=True).stdout.strip()
    t.write(versions={
        **versions,
    }, notes="\n".join(lines), extra_cols=["status"])
    if a.record:
        out = ROOT / "tests" / "expected" / "smt-status.tsv"
        out.parent.mkdir(parents=True, exist_ok=True)
        with out.open("w") as fh:
            fh.write(f"# answers of yices-smt2 and z3 on shared/data/smt (limit {a.limit:g} s); recorded by bench/engines/smt.py --record\n")
            fh.write("path\tstatus\tyices\tz3\n")
            for r in rec:
                fh.write("\t".join(r) + "\n")


if __name__ == "__main__":
    main()
