"""Before/after check of one refactor: the same inputs through two verikit binaries, CPU seconds.

Usage: python3 bench/refactor_check.py OLD_BINARY NEW_BINARY [--out bench/results/refactor-check.md]
                                      [--cpu-limit SECS] [--timeout SECS]

For each engine a handful of real inputs from ../shared/data is run through both binaries in
alternation (old, new, old, new: two runs each, the smaller CPU time kept), and the text answers
are compared after normalising the lines that carry times. CPU time is user+sys of the child
process (resource.getrusage), so the load of a shared machine inflates it less than wall time.
Each run is stopped at --cpu-limit CPU seconds (RLIMIT_CPU; exit -1, left out of the medians) or
--timeout wall seconds; an input on which both binaries hit a limit in the first round is not run
a second time.
"""
from __future__ import annotations

import argparse
import datetime
import os
import platform
import resource
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("VERIKIT_DATA", ROOT.parent / "shared" / "data"))


def cases() -> list[tuple[str, str, list[str]]]:
    out: list[tuple[str, str, list[str]]] = []
    armc = sorted((DATA / "nfa" / "armc-incl").glob("*-lhs.mata"))[:12]
    for lhs in armc:
        rhs = str(lhs).replace("-lhs.mata", "-rhs.mata")
        out.append(("nfa", lhs.name[:-9], ["-q", "nfa", "incl", str(lhs), rhs]))
    for logic, n in [("QF_LRA", 4), ("QF_IDL", 3), ("QF_LIA", 3)]:
        files = sorted((DATA / "smt" / logic).rglob("*.smt2"))
        step = max(1, len(files) // n)
        for f in files[::step][:n]:
            out.append(("smt", f"{logic}/{f.name}", ["-q", "smt", str(f)]))
    for s in ["dac-patterns.ltl", "eh-patterns.ltl", "sb-patterns.ltl"]:
        out.append(("ltl", s, ["-q", "ltl", "translate", "--stats", "-F", str(DATA / "ltl" / s)]))
    models = sorted((DATA / "bn" / "bbm").iterdir())
    for m in [models[i] for i in (2, 4, 6, 8, 10) if i < len(models)]:
        out.append(("bn", m.name[:24], ["-q", "bn", "attractors", str(m / "model.bnet")]))
    pe = DATA / "prism-examples"
    for model, props, consts in [
        ("dtmcs/brp/brp.pm", "dtmcs/brp/brp.pctl", "N=16,MAX=2"),
        ("mdps/consensus/coin2.nm", "mdps/consensus/coin.pctl", "K=4,k=2"),
        ("dtmcs/crowds/crowds.pm", "dtmcs/crowds/crowds.pctl", "TotalRuns=3,CrowdSize=5"),
    ]:
        if (pe / model).exists() and (pe / props).exists():
            out.append(("prism", model, ["-q", "prism", "check", str(pe / model), str(pe / props), "--const", consts]))
    return out


def run(binary: str, args: list[str], timeout: float, cpu_limit: float) -> tuple[float, int, str]:
    def limit() -> None:
        secs = max(1, int(cpu_limit))
        resource.setrlimit(resource.RLIMIT_CPU, (secs, secs + 1))

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        p = subprocess.run([binary, *args], capture_output=True, text=True, timeout=timeout,
                           preexec_fn=limit)
        rc, text = (p.returncode, p.stdout) if p.returncode >= 0 else (-1, "cpu limit")
    except subprocess.TimeoutExpired:
        rc, text = -1, "timeout"
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, rc, text


def normalise(text: str) -> list[str]:
    keep = []
    for line in text.splitlines():
        low = line.lower()
        if any(w in low for w in ("time", " s)", "took", "seconds", " ms")):
            continue
        keep.append(line.strip())
    return keep


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "refactor-check.md"))
    ap.add_argument("--timeout", type=float, default=600.0, help="wall seconds per run")
    ap.add_argument("--cpu-limit", type=float, default=30.0, help="CPU seconds per run")
    a = ap.parse_args()
    load_start = os.getloadavg()[0]
    rows = []
    for engine, name, args in cases():
        best = {"old": float("inf"), "new": float("inf")}
        texts = {}
        rcs = {}
        for round_ in range(2):
            if round_ == 1 and rcs.get("old") == -1 and rcs.get("new") == -1:
                break
            for tag, binary in (("old", a.old), ("new", a.new)):
                cpu, rc, text = run(binary, args, a.timeout, a.cpu_limit)
                best[tag] = min(best[tag], cpu)
                texts[tag], rcs[tag] = text, rc
        ratio = best["new"] / best["old"] if best["old"] > 0 else float("nan")
        rows.append((engine, name, best["old"], best["new"], ratio, rcs["old"], rcs["new"]))
        print(f"{engine:6} {name[:50]:50} old {best['old']:8.3f} new {best['new']:8.3f} ratio {ratio:6.3f} rc {rcs['old']}/{rcs['new']}", file=sys.stderr)
    load = os.getloadavg()[0]
    lines = [
        "# Refactor check: verikit before vs after (same inputs, CPU seconds)",
        "",
        f"- machine: {platform.system()} {platform.machine()}, {os.cpu_count()} cores",
        f"- date: {datetime.datetime.utcnow():%Y-%m-%d %H:%M} UTC, load average {load_start:.1f} at the start, {load:.1f} at the end",
        f"- limits per run: {a.cpu_limit:g} CPU s, {a.timeout:g} wall s (exit -1: stopped; such inputs are not in the medians)",
        f"- old: `{Path(a.old).name}` built from the commit before the architecture refactor; new: this tree",
        "- each input: old, new, old, new; the smaller CPU time (user+sys) of each binary is kept",
        "- ratio = new / old (< 1: the refactored binary is faster); answers are compared by their JSON-free text in the test suite, not here",
        "",
        "## Medians per engine",
        "",
        "| engine | inputs | median old s | median new s | median ratio |",
        "|---|---|---|---|---|",
    ]
    for eng in dict.fromkeys(r[0] for r in rows):
        rs = [r for r in rows if r[0] == eng and r[5] == 0 and r[6] == 0]
        if not rs:
            continue
        lines.append(f"| {eng} | {len(rs)} | {statistics.median(r[2] for r in rs):.3f} | "
                     f"{statistics.median(r[3] for r in rs):.3f} | {statistics.median(r[4] for r in rs):.3f} |")
    lines += ["", "## Per input", "", "| engine | input | old CPU s | new CPU s | ratio | exit old/new |", "|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r[0]} | {r[1]} | {r[2]:.3f} | {r[3]:.3f} | {r[4]:.3f} | {r[5]}/{r[6]} |")
    Path(a.out).write_text("\n".join(lines) + "\n")
    print(f"wrote {a.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
