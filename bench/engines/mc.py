#!/usr/bin/env python3
"""verikit mc vs BEEM's published counts and SPIN on the shared BEEM models.

For every instance of ../shared/data/beem/EXPECTED.tsv that BEEM explored completely with at most
MAX_STATES states: `verikit mc info` (full BFS; states, transitions, CPU time, memory) compared
with BEEM's counts; for those with a Promela translation (SPIN-CHECK.tsv): SPIN 6 (`spin -a`,
`gcc -O2 -DNOREDUCE -DVECTORSZ=4096`, `./pan -m1000000 -c0`, as SPIN-CHECK.tsv was made), and,
time permitting, the same with SPIN's partial-order reduction (no -DNOREDUCE). Times are the CPU
time (user + system) of the verikit process and of `./pan` (compilation of pan.c excluded).
Writes bench/results/mc.md.

Usage: bench/engines/mc.py (or bash bench/run.sh mc) [--limit SECS] [--max-states N] [--budget SECS] [--verikit PATH]
"""
import argparse, csv, os, resource, shutil, statistics, subprocess, sys, tempfile, time, json, re
from datetime import datetime, timezone

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.environ.get("VERIKIT_DATA", os.path.join(ROOT, "..", "shared", "data"))
BEEM = os.path.join(DATA, "beem")


def cpu_run(cmd, limit, cwd=None):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.time()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=limit + 5, cwd=cwd)
        out, code = p.stdout, p.returncode
    except subprocess.TimeoutExpired as e:
        out, code = (e.stdout or b"").decode() if isinstance(e.stdout, bytes) else (e.stdout or ""), -9
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return out, code, cpu, time.time() - t


def verikit_info(exe, model, limit):
    out, code, cpu, _ = cpu_run([exe, "--json", "-q", "--timeout", str(limit), "mc", "info", model], limit)
    try:
        v = json.loads(out)
    except Exception:
        return None
    if code != 0:
        return {"timeout": True, "cpu": cpu}
    s = v.get("stats", {})
    return {"states": s.get("states"), "transitions": s.get("transitions"), "deadlocks": s.get("deadlocks"),
            "mib": s.get("memory_bytes", 0) / 2**20, "cpu": cpu, "timeout": False}


def spin_run(pm, limit, por):
    d = tempfile.mkdtemp(prefix="mc-spin-")
    try:
        shutil.copy(pm, os.path.join(d, "m.pm"))
        if subprocess.run(["spin", "-a", "m.pm"], cwd=d, capture_output=True).returncode != 0:
            return {"error": "spin -a"}
        flags = ["-O2", "-DVECTORSZ=4096"] + ([] if por else ["-DNOREDUCE"])
        if subprocess.run(["gcc"] + flags + ["-o", "pan", "pan.c"], cwd=d, capture_output=True).returncode != 0:
            return {"error": "gcc"}
        out, code, cpu, _ = cpu_run(["timeout", str(limit), "./pan", "-m1000000", "-c0"], limit, cwd=d)
        m = re.search(r"([0-9]+) states, stored", out)
        mem = re.search(r"([0-9.]+)\s+total actual memory usage", out)
        if code != 0 or not m:
            return {"timeout": True, "cpu": cpu}
        return {"states": int(m.group(1)), "cpu": cpu, "mib": float(mem.group(1)) if mem else None, "timeout": False}
    finally:
        shutil.rmtree(d, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--limit", type=float, default=20)
    ap.add_argument("--max-states", type=int, default=1_000_000)
    ap.add_argument("--budget", type=float, default=780, help="stop starting new runs after this many seconds")
    ap.add_argument("--verikit", default=os.path.join(ROOT, "target", "release", "verikit"))
    a = ap.parse_args()
    t_start = time.time()
    load0 = os.getloadavg()
    rows = {}
    with open(os.path.join(BEEM, "EXPECTED.tsv")) as f:
        for r in csv.DictReader(f, delimiter="\t"):
            if r["exploration_complete"] != "yes" or not r["states"]:
                continue
            if int(r["states"]) <= a.max_states:
                rows[r["model"]] = r
    spin_rows = {}
    with open(os.path.join(BEEM, "SPIN-CHECK.tsv")) as f:
        for r in csv.DictReader(f, delimiter="\t"):
            spin_rows[r["model"]] = r
    models = sorted(rows, key=lambda m: int(rows[m]["states"]))
    res = []
    for m in models:
        if time.time() - t_start > a.budget:
            break
        r = rows[m]
        v = verikit_info(a.verikit, os.path.join(BEEM, m), a.limit)
        item = {"model": m, "beem_states": int(r["states"]), "beem_trans": r["transitions"], "v": v}
        s = spin_rows.get(m)
        if s and s.get("promela") and time.time() - t_start < a.budget * 0.8:
            item["spin"] = spin_run(os.path.join(BEEM, s["promela"]), a.limit, por=False)
            item["spin_rel"] = s["relation"]
        res.append(item)
        print(m, json.dumps(item), file=sys.stderr, flush=True)
    # POR runs on the instances with a SPIN result, while time remains
    for item in res:
        if "spin" in item and time.time() - t_start < a.budget:
            s = spin_rows[item["model"]]
            item["spin_por"] = spin_run(os.path.join(BEEM, s["promela"]), a.limit, por=True)
    load1 = os.getloadavg()
    write(res, a, load0, load1, time.time() - t_start)


def fmt(x, p=3):
    return "–" if x is None else (f"{x:.{p}f}" if isinstance(x, float) else str(x))


def write(res, a, load0, load1, wall):
    ver = subprocess.run([a.verikit, "--version"], capture_output=True, text=True).stdout.strip()
    rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT).stdout.strip()
    spinv = subprocess.run(["spin", "-V"], capture_output=True, text=True).stdout.strip()
    eq = sum(1 for i in res if i["v"] and not i["v"]["timeout"] and i["v"]["states"] == i["beem_states"]
             and (not i["beem_trans"] or int(i["beem_trans"]) == i["v"]["transitions"]))
    done = [i for i in res if i["v"] and not i["v"]["timeout"]]
    ratios, ratios_por = [], []
    for i in res:
        v, s, sp = i["v"], i.get("spin"), i.get("spin_por")
        if v and not v["timeout"] and s and not s.get("timeout") and "error" not in s and s["cpu"] > 0.01:
            ratios.append(v["cpu"] / s["cpu"])
        if v and not v["timeout"] and sp and not sp.get("timeout") and "error" not in sp and sp["cpu"] > 0.01:
            ratios_por.append(v["cpu"] / sp["cpu"])
    L = []
    L.append("# Explicit-state model checking: verikit mc info vs BEEM's counts and SPIN\n")
    L.append(f"- machine: {os.uname().sysname} {os.uname().machine}, {os.cpu_count()} cores, shared with other jobs")
    L.append(f"- date: {datetime.now(timezone.utc).strftime('%Y-%m-%d %H:%M UTC')}; whole run {wall:.0f} s")
    L.append(f"- load (1/5/15-min) at start {load0[0]:.1f}/{load0[1]:.1f}/{load0[2]:.1f}, at end {load1[0]:.1f}/{load1[1]:.1f}/{load1[2]:.1f}: the machine was shared and heavily loaded, so CPU times are indicative")
    L.append(f"- verikit: {ver} ({rev}); SPIN: {spinv}")
    L.append(f"- limit {a.limit:.0f} s per run; instances: BEEM-complete with at most {a.max_states} states, smallest first, until a {a.budget:.0f} s budget")
    L.append("- times: CPU seconds (user + system) of the `verikit` process (start-up included) and of SPIN's `./pan` (compilation of pan.c excluded); ratio = verikit / SPIN (< 1: verikit faster)\n")
    L.append("## Summary\n")
    L.append(f"- state space equal to BEEM's (states, and transitions where BEEM has them): {eq} of {len(done)} instances verikit explored completely ({len(res)} attempted)")
    if ratios:
        L.append(f"- vs SPIN without POR (`-DNOREDUCE`): median ratio {statistics.median(ratios):.3f} over {len(ratios)} instances (min {min(ratios):.3f}, max {max(ratios):.3f})")
    if ratios_por:
        L.append(f"- vs SPIN with its partial-order reduction (verikit has none yet): median ratio {statistics.median(ratios_por):.3f} over {len(ratios_por)} instances")
    L.append("- SPIN explores BEEM's Promela translations, which are not state-for-state equivalent to the DVE models for most families (SPIN-CHECK.tsv); the SPIN state counts are listed so the work compared is visible\n")
    L.append("## Per input\n")
    L.append("| model | BEEM states | verikit states | verikit transitions | = BEEM | verikit s | verikit MiB | SPIN states | SPIN s | SPIN MiB | ratio | SPIN+POR states | SPIN+POR s | ratio POR |")
    L.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for i in res:
        v, s, sp = i["v"] or {}, i.get("spin") or {}, i.get("spin_por") or {}
        vt = v.get("timeout")
        same = "–" if vt or not v else ("yes" if v.get("states") == i["beem_states"] and (not i["beem_trans"] or int(i["beem_trans"]) == v.get("transitions")) else "no")
        def cell(d, k, p=3):
            if not d:
                return "–"
            if d.get("timeout"):
                return "timeout"
            if "error" in d:
                return d["error"]
            return fmt(d.get(k), p)
        ratio = (v["cpu"] / s["cpu"]) if (v and not vt and s and not s.get("timeout") and "error" not in s and s.get("cpu", 0) > 0.01) else None
        rpor = (v["cpu"] / sp["cpu"]) if (v and not vt and sp and not sp.get("timeout") and "error" not in sp and sp.get("cpu", 0) > 0.01) else None
        L.append(f"| {i['model']} | {i['beem_states']} | {cell(v,'states')} | {cell(v,'transitions')} | {same} | {cell(v,'cpu')} | {cell(v,'mib',1)} | {cell(s,'states')} | {cell(s,'cpu')} | {cell(s,'mib',1)} | {fmt(ratio)} | {cell(sp,'states')} | {cell(sp,'cpu')} | {fmt(rpor)} |")
    out = os.path.join(ROOT, "bench", "results", "mc.md")
    with open(out, "w") as f:
        f.write("\n".join(L) + "\n")
    print(out)


if __name__ == "__main__":
    main()
