#!/usr/bin/env python3
"""Partial-order reduction in verikit mc: states with and without `-x mc.por` on the BEEM models.

For every instance of ../shared/data/beem/EXPECTED.tsv that BEEM explored completely with at most
MAX_STATES states (and its Promela translation `.pm`, when there is one): `verikit mc check
--deadlock` and `--assert` with `-x mc.por=off` and `-x mc.por=on`; states visited, CPU time of the
verikit process, and the state-count reduction (on / off) where the search was complete (the
property holds; a counterexample stops either search early, at different places). Verdicts with
and without the reduction must agree; a disagreement is printed as such. Writes
bench/results/mc-por.md.

Usage: bench/engines/mc_por.py [--limit SECS] [--max-states N] [--verikit PATH] [--families a,b]
"""
import argparse, csv, json, os, resource, statistics, subprocess, time
from datetime import datetime, timezone

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.environ.get("VERIKIT_DATA", os.path.join(ROOT, "..", "shared", "data"))
BEEM = os.path.join(DATA, "beem")


def run(exe, model, q, por, limit):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    cmd = [exe, "--json", "-q", "--timeout", str(limit), "-x", f"mc.por={por}", "mc", "check", model, q]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=limit + 10)
        out = p.stdout
    except subprocess.TimeoutExpired:
        out = ""
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    try:
        v = json.loads(out)
    except Exception:
        return {"verdict": "error", "cpu": cpu}
    return {"verdict": v.get("verdict"), "states": v.get("stats", {}).get("states"), "cpu": cpu,
            "por": v.get("por", "")}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--limit", type=int, default=20)
    ap.add_argument("--max-states", type=int, default=300_000)
    ap.add_argument("--verikit", default=os.path.join(ROOT, "target", "release", "verikit"))
    ap.add_argument("--families", default="")
    a = ap.parse_args()
    fams = set(filter(None, a.families.split(",")))
    rows = []
    with open(os.path.join(BEEM, "EXPECTED.tsv")) as f:
        seen = set()
        for r in csv.DictReader(f, delimiter="\t"):
            m = r["model"]
            if m in seen or r.get("exploration_complete") != "yes":
                continue
            seen.add(m)
            try:
                n = int(r["states"])
            except ValueError:
                continue
            if n > a.max_states or (fams and r["family"] not in fams):
                continue
            for path in (m, m[:-4] + ".pm"):
                if os.path.exists(os.path.join(BEEM, path)):
                    rows.append((path, n))
    out = []
    for path, n in rows:
        for q in ("--deadlock", "--assert"):
            off = run(a.verikit, os.path.join(BEEM, path), q, "off", a.limit)
            on = run(a.verikit, os.path.join(BEEM, path), q, "on", a.limit)
            out.append((path, q, off, on))
            print(path, q, off, on, flush=True)
    load = open("/proc/loadavg").read().split()[:3] if os.path.exists("/proc/loadavg") else ["?"] * 3
    ratios = [o["states"] / f["states"] for _, _, f, o in out
              if f.get("verdict") == "true" and o.get("verdict") == "true" and f.get("states")]
    dis = [(p, q) for p, q, f, o in out
           if f.get("verdict") in ("true", "false") and o.get("verdict") in ("true", "false")
           and f["verdict"] != o["verdict"]]
    res = os.path.join(ROOT, "bench", "results", "mc-por.md")
    with open(res, "w") as w:
        w.write("# Partial-order reduction in `verikit mc` (`-x mc.por=on|off`)\n\n")
        w.write(f"One run of `bench/engines/mc_por.py --limit {a.limit} --max-states {a.max_states}` on "
                f"{datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC, {os.cpu_count()} cores shared with other "
                f"builds and benchmarks (load average {' '.join(load)}): CPU times are indicative only.\n\n")
        w.write("`states` = states visited by the search; the reduction (on/off) is given where both "
                "searches were complete (verdict `true`); a `false` search stops at its first "
                "counterexample, at different places with and without the reduction.\n\n")
        w.write(f"- searches compared: {len(out)}; complete in both: {len(ratios)}; "
                f"verdicts that differ: {len(dis)} {dis if dis else ''}\n")
        if ratios:
            w.write(f"- median state ratio on/off (complete searches): {statistics.median(ratios):.3f}; "
                    f"reduced (< 1): {sum(1 for x in ratios if x < 0.999)}; best {min(ratios):.3f}\n\n")
        w.write("| model | question | verdict off | states off | CPU s off | verdict on | states on | CPU s on | on/off |\n")
        w.write("|---|---|---|---:|---:|---|---:|---:|---:|\n")
        for p, q, f, o in out:
            ratio = (f"{o['states'] / f['states']:.3f}" if f.get("verdict") == "true" and o.get("verdict") == "true"
                     and f.get("states") else "")
            w.write(f"| {p} | {q[2:]} | {f.get('verdict')} | {f.get('states', '')} | {f['cpu']:.2f} | "
                    f"{o.get('verdict')} | {o.get('states', '')} | {o['cpu']:.2f} | {ratio} |\n")
    print("wrote", res)


if __name__ == "__main__":
    main()
