#!/usr/bin/env python3
"""verikit mc vs SPIN on the same Promela files (BEEM's `.pm` translations).

For every row of ../shared/data/beem/SPIN-CHECK.tsv with at most MAX_STATES SPIN states (smallest
first, until a wall-clock budget): `verikit mc info M.pm` (full BFS) and SPIN 6 without
partial-order reduction (`spin -a`, `gcc -O2 -DNOREDUCE -DVECTORSZ=4096`, `./pan -m10000000 -c0
-wN` with the hash table sized to the model, N = ceil(log2(2 * states)), so that clearing a
default 2^24-slot table does not dominate small models). Reported per model: states of both, CPU
seconds (user + system) of the verikit process and of `./pan`, the ratio, and SPIN's `spin -a` +
`gcc` CPU seconds separately. With partial-order reduction on both sides: verikit `mc check
--assert -x mc.por=on` (the reduced state space) and SPIN's default reduction (no -DNOREDUCE).
Writes bench/results/mc-promela.md.

Usage: bench/engines/mc_promela.py [--limit SECS] [--max-states N] [--budget SECS] [--verikit PATH]
"""
import argparse, csv, math, os, resource, shutil, statistics, subprocess, tempfile, time, json, re
from datetime import datetime, timezone

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.environ.get("VERIKIT_DATA", os.path.join(ROOT, "..", "shared", "data"))
BEEM = os.path.join(DATA, "beem")


def cpu_run(cmd, limit, cwd=None):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=limit + 5, cwd=cwd)
        out, code = p.stdout, p.returncode
    except subprocess.TimeoutExpired:
        out, code = "", -9
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return out, code, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def verikit(exe, pm, limit):
    out, code, cpu = cpu_run([exe, "--json", "-q", "--timeout", str(limit), "mc", "info", pm], limit)
    try:
        v = json.loads(out)
    except Exception:
        return {"error": "no answer", "cpu": cpu}
    if code != 0:
        return {"error": v.get("verdict", "error"), "cpu": cpu}
    s = v.get("stats", {})
    return {"states": s.get("states"), "transitions": s.get("transitions"), "cpu": cpu}


def verikit_por(exe, pm, limit):
    """The reduced state space: `mc check --assert` with `-x mc.por=on` explores all of it when
    the assertions hold (most BEEM models have none)."""
    out, code, cpu = cpu_run([exe, "--json", "-q", "--timeout", str(limit), "-x", "mc.por=on", "mc", "check",
                              "--assert", pm], limit)
    try:
        v = json.loads(out)
    except Exception:
        return {"error": "no answer", "cpu": cpu}
    if code != 0 or v.get("verdict") != "true":
        return {"error": v.get("verdict", "error"), "cpu": cpu}
    return {"states": v.get("stats", {}).get("states"), "cpu": cpu}


def spin(pm, limit, states, por=False):
    d = tempfile.mkdtemp(prefix="mc-spin-")
    try:
        shutil.copy(pm, os.path.join(d, "m.pm"))
        _, code, c1 = cpu_run(["spin", "-a", "m.pm"], limit, cwd=d)
        if code != 0:
            return {"error": "spin -a"}
        w = max(10, math.ceil(math.log2(2 * max(states, 1))))
        _, code, c2 = cpu_run(["gcc", "-O2"] + ([] if por else ["-DNOREDUCE"]) + ["-DVECTORSZ=4096", "-o", "pan", "pan.c"], 300, cwd=d)
        if code != 0:
            return {"error": "gcc"}
        out, code, cpu = cpu_run(["timeout", str(limit), "./pan", "-m10000000", "-c0", f"-w{w}"], limit, cwd=d)
        m = re.search(r"([0-9]+) states, stored", out)
        if not m:
            return {"error": "timeout" if code in (-9, 124) else "pan", "compile": c1 + c2}
        return {"states": int(m.group(1)), "cpu": cpu, "compile": c1 + c2}
    finally:
        shutil.rmtree(d, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--limit", type=float, default=20)
    ap.add_argument("--max-states", type=int, default=1_100_000)
    ap.add_argument("--budget", type=float, default=540)
    ap.add_argument("--verikit", default=os.path.join(ROOT, "target", "release", "verikit"))
    a = ap.parse_args()
    rows = []
    with open(os.path.join(BEEM, "SPIN-CHECK.tsv")) as f:
        for r in csv.DictReader(f, delimiter="\t"):
            try:
                s = int(r["spin_states_stored"])
            except ValueError:
                continue
            if s <= a.max_states:
                rows.append((s, r))
    rows.sort(key=lambda x: x[0])
    load0 = os.getloadavg()
    t0 = time.time()
    res = []
    for s, r in rows:
        if time.time() - t0 > a.budget:
            break
        pm = os.path.join(BEEM, r["promela"])
        v = verikit(a.verikit, pm, a.limit)
        sp = spin(pm, a.limit, s)
        vr = verikit_por(a.verikit, pm, a.limit)
        spr = spin(pm, a.limit, s, por=True)
        res.append((r, v, sp, vr, spr))
        print(r["promela"], v, sp, vr, spr, flush=True)
    write(res, a, load0, os.getloadavg(), time.time() - t0, len(rows))


def fmt(x, p=3):
    return "–" if x is None else (f"{x:.{p}f}" if isinstance(x, float) else str(x))


def write(res, a, load0, load1, wall, total):
    ver = subprocess.run([a.verikit, "--version"], capture_output=True, text=True).stdout.strip()
    sv = subprocess.run(["spin", "-V"], capture_output=True, text=True).stdout.strip()
    ratios, same, both = [], 0, 0
    por_ratios, por_states = [], []
    lines = []
    for r, v, sp, vr, spr in res:
        rpor = None
        if "states" in vr and "states" in spr and spr["cpu"] > 0:
            rpor = vr["cpu"] / spr["cpu"]
            por_ratios.append(rpor)
        if "states" in vr and "states" in v and v["states"]:
            por_states.append(vr["states"] / v["states"])
        ok = "states" in v and "states" in sp
        rel = r["relation"].split(" (")[0]
        ratio = None
        if ok:
            both += 1
            ratio = v["cpu"] / sp["cpu"] if sp["cpu"] > 0 else None
            if ratio is not None:
                ratios.append(ratio)
            init = 2 if "init prefix" in r["relation"] else 0
            if v["states"] + init == sp["states"]:
                same += 1
        lines.append(f"| {r['promela']} | {rel} | {fmt(v.get('states', v.get('error')))} | "
                     f"{fmt(sp.get('states', sp.get('error')))} | {fmt(v.get('cpu'))} | {fmt(sp.get('cpu'))} | "
                     f"{fmt(ratio)} | {fmt(sp.get('compile'))} | {fmt(vr.get('states', vr.get('error')))} | "
                     f"{fmt(spr.get('states', spr.get('error')))} | {fmt(vr.get('cpu'))} | {fmt(spr.get('cpu'))} | {fmt(rpor)} |")
    now = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    out = [
        "# Promela: verikit mc info vs SPIN on BEEM's `.pm` files",
        "",
        f"- machine: Linux x86_64, 2 cores, shared with other jobs; date {now}; whole run {wall:.0f} s",
        f"- load (1/5/15-min) at start {load0[0]:.1f}/{load0[1]:.1f}/{load0[2]:.1f}, at end {load1[0]:.1f}/{load1[1]:.1f}/{load1[2]:.1f}: "
        "the machine was shared and loaded, so CPU times are indicative",
        f"- verikit: {ver}; SPIN: {sv}",
        f"- limit {a.limit:.0f} s per run; {len(res)} of the {total} SPIN-CHECK rows with at most {a.max_states} SPIN states, smallest first, within a {a.budget:.0f} s budget",
        "- SPIN: `spin -a`, `gcc -O2 -DNOREDUCE -DVECTORSZ=4096`, `./pan -m10000000 -c0 -wN` (hash table sized to the model); "
        "`pan` CPU excludes compilation, which is the last column (`spin -a` + `gcc`)",
        "- verikit: `verikit mc info M.pm`, CPU of the whole process (parsing, lowering, compiling, exploring); no POR on either side",
        "- with POR: verikit `mc check --assert -x mc.por=on M.pm` (the reduced state space, complete when the assertions hold), "
        "SPIN's default reduction (`gcc` without `-DNOREDUCE`, same `pan` options)",
        "",
        "## Summary",
        "",
        f"- both finished on {both} models; state counts equal (verikit + the 2 states of the folded `init` prefix = SPIN) on {same} of them",
        f"- ratio verikit/SPIN CPU (pan only): median {fmt(statistics.median(ratios)) if ratios else '–'} over {len(ratios)} models"
        + (f" (min {fmt(min(ratios))}, max {fmt(max(ratios))})" if ratios else ""),
        f"- with POR: ratio verikit/SPIN CPU median {fmt(statistics.median(por_ratios)) if por_ratios else '–'} over {len(por_ratios)} models; "
        f"verikit's reduced/full state ratio median {fmt(statistics.median(por_states)) if por_states else '–'}",
        "- where the counts differ, the cause is the translation's `atomic` blocks: verikit stores the control points inside "
        "`atomic` as DVE committed states and keeps atomicity when the atomic process blocks; SPIN does neither (decision 0701)",
        "",
        "## Per model",
        "",
        "| promela | SPIN-CHECK relation | verikit states | SPIN states | verikit s | pan s | ratio | SPIN compile s | verikit POR states | SPIN POR states | verikit POR s | pan POR s | POR ratio |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ] + lines
    path = os.path.join(ROOT, "bench", "results", "mc-promela.md")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")
    print("wrote", path)


if __name__ == "__main__":
    main()
