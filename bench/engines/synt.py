"""Reactive synthesis (verikit synt solve) against Spot's ltlsynt -> bench/results/synt.md.

Every specification of the shared data's synt/EXPECTED.tsv is run once by verikit
(`synt solve SPEC.tlsf --json -q --timeout LIMIT`, controller encoded as AIGER and model-checked
before it is printed). Spot's ltlsynt 2.12.1 cannot be installed here: its verdicts, wall times and
AIGER sizes are the ones recorded in the data's spot-ltlsynt.tsv (60 s limit, loaded 2-core
machine). Reported: solved counts, agreement with EXPECTED.tsv, PAR-2 scores (unsolved = 2 × limit),
time ratios verikit/ltlsynt on specs both solved, AND-gate ratios, medians.

Each engine of --engines (`-x synt.engine=...`) is run on every spec; the first is the main
`verikit` column (the default engine, portfolio), the others get their own decided/wrong counts.

With --cpu the limit is CPU time (soft RLIMIT_CPU, read by the engine for its CPU-time shares; the
wall-clock `--timeout` is --wall-factor times the limit) and the page is synt-cpu.md: on a loaded machine a wall-clock limit gives each run
whatever CPU the other jobs leave, which makes the decided count noisy.

usage: VERIKIT_BIN=... PYTHONPATH=bench python3 bench/engines/synt.py [--limit S] [--filter SUBSTR]
       [--engines bounded,parity,portfolio] [--cpu [--wall-factor F]] [--ltlsynt-only]
       [--only SPEC,SPEC] [--page NAME.md]
"""

import argparse
import csv
import math
import os
import platform
import resource
import statistics
import time

from harness import BENCH, DATA, measure, verikit_cmd, verikit_version

ARGS = argparse.ArgumentParser()
ARGS.add_argument("--limit", type=float, default=10.0, help="seconds per verikit run")
ARGS.add_argument("--filter", default="", help="only specs whose path contains this")
ARGS.add_argument("--engines", default="portfolio,bounded,parity",
                  help="comma-separated -x synt.engine values; the first is the main column")
ARGS.add_argument("--cpu", action="store_true",
                  help="the limit is CPU time: RLIMIT_CPU, verikit's --timeout WALL_FACTOR times the "
                       "limit, a run over the limit counts as a timeout; writes synt-cpu.md")
ARGS.add_argument("--ltlsynt-only", action="store_true", help="only the specs ltlsynt was run on")
ARGS.add_argument("--only", default="", help="comma-separated spec paths (as in EXPECTED.tsv): only these")
ARGS.add_argument("--page", default="", help="the page to write under bench/results (default synt.md, "
                  "with --cpu synt-cpu.md)")
ARGS.add_argument("--wall-factor", type=float, default=5.0, help="with --cpu: wall-clock limit / CPU limit")
OPTS = ARGS.parse_args()

SYNT = DATA / "synt"
ENGINES = [e for e in OPTS.engines.split(",") if e]
# Hand-written findings kept in the page across runs (bench/results/synt-notes.md, optional).
NOTES_FILE = BENCH / "results" / "synt-notes.md"
NOTES = ["", NOTES_FILE.read_text().rstrip()] if NOTES_FILE.exists() else []


def read_tsv(path):
    with open(path, newline="") as f:
        return {r["spec"]: r for r in csv.DictReader(f, delimiter="\t")}


def fnum(s):
    try:
        return float(s)
    except (TypeError, ValueError):
        return math.nan


def med(xs):
    xs = [x for x in xs if not math.isnan(x)]
    return statistics.median(xs) if xs else math.nan


def fmt(x, d=2):
    return "–" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{d}f}"


def main():
    expected = read_tsv(SYNT / "EXPECTED.tsv")
    spot = read_tsv(SYNT / "spot-ltlsynt.tsv")
    load_start = os.getloadavg()
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    rows = []
    for spec, e in expected.items():
        if OPTS.filter not in spec:
            continue
        if OPTS.ltlsynt_only and spot.get(spec, {}).get("ltlsynt_verdict", "-") == "-":
            continue
        if OPTS.only and spec not in OPTS.only.split(","):
            continue
        per = {}
        for eng in ENGINES:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            wall = OPTS.limit * OPTS.wall_factor if OPTS.cpu else OPTS.limit
            cmd = verikit_cmd("--json", "-q", "--timeout", str(wall), "-x",
                              f"synt.engine={eng}", "synt", "solve", str(SYNT / spec))
            if OPTS.cpu:
                # The soft RLIMIT_CPU at the limit itself (the harness sets it a second above):
                # the engine reads it and takes its time shares in CPU time.
                cmd = ["sh", "-c", 'ulimit -St "$0" && exec "$@"', str(math.ceil(OPTS.limit)), *cmd]
            run = measure(cmd,
                          timeout=wall + 10, cpu_limit=OPTS.limit if OPTS.cpu else None)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu_e = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            res_e = run.result or {}
            # The watchdog's answer at the deadline has a verdict but no result word.
            timed_out = (run.timed_out or res_e.get("verdict") == "timeout"
                         or (OPTS.cpu and cpu_e > OPTS.limit))
            word_e = "timeout" if timed_out else (res_e.get("result") or "error")
            per[eng] = (word_e, cpu_e, res_e)
        word, cpu, res = per[ENGINES[0]]
        ands = (res.get("stats") or {}).get("and_gates")
        if word != "realizable":
            ands = None
        s = spot.get(spec, {})
        sv = s.get("ltlsynt_verdict", "-")
        rows.append({
            "spec": spec, "expected": e["expected"], "verikit": word, "cpu": cpu,
            "ands": ands, "spot": sv, "spot_t": fnum(s.get("wall_s")),
            "spot_ands": fnum(s.get("aiger_ands")), "ref": fnum(e.get("ref_size")),
            "engines": {k: v[0] for k, v in per.items()},
            "decided_by": res.get("engine", ""),
        })
        print(f"[synt] {spec}: verikit={word}/{cpu:.2f}s ands={ands} ltlsynt={sv}", flush=True)
    load_end = os.getloadavg()
    decided = lambda w: w in ("realizable", "unrealizable")
    wrong = [r for r in rows if decided(r["verikit"]) and decided(r["expected"]) and r["verikit"] != r["expected"]]
    solved = [r for r in rows if decided(r["verikit"])]
    spot_solved = [r for r in rows if decided(r["spot"])]
    # PAR-2 over the specs ltlsynt was run on (its converter's subset) and over all.
    lim = OPTS.limit
    par2 = lambda rs, key, ok: sum(r[key] if ok(r) else 2 * lim for r in rs) / max(1, len(rs))
    ran_spot = [r for r in rows if r["spot"] != "-"]
    both = [r for r in rows if decided(r["verikit"]) and decided(r["spot"])]
    ratios = [r["cpu"] / r["spot_t"] for r in both if r["spot_t"] > 0]
    and_ratios = [r["ands"] / r["spot_ands"] for r in both
                  if r["ands"] is not None and r["spot_ands"] and r["spot_ands"] > 0]
    ref_ratios = [r["ands"] / r["ref"] for r in rows if r["ands"] is not None and r["ref"] > 0]
    lines = [
        "# Reactive synthesis: verikit synt solve vs Spot ltlsynt (recorded)",
        "",
        f"Run {started} on {platform.node() or 'the shared machine'} ({platform.machine()}, "
        f"{os.cpu_count()} cores), verikit {verikit_version()}; peer: Spot ltlsynt 2.12.1 as recorded in "
        "the shared data's `spot-ltlsynt.tsv` (not re-run: Spot cannot be installed here).",
        "",
        f"Machine load (1/5/15-min averages) at the start {load_start[0]:.1f}/{load_start[1]:.1f}/"
        f"{load_start[2]:.1f}, at the end {load_end[0]:.1f}/{load_end[1]:.1f}/{load_end[2]:.1f}: the "
        "2 cores were shared with other engineers' builds and tests, so times are indicative.",
        "",
        (f"verikit limit: {lim:.0f} s of CPU per spec (soft RLIMIT_CPU, which the engine reads: its "
         f"time shares are shares of CPU time; `--timeout` {lim * OPTS.wall_factor:.0f} s of wall clock; "
         f"a run over {lim:.0f} s of CPU counts as a timeout)" if OPTS.cpu else
         f"verikit limit: {lim:.0f} s per spec (wall clock)")
        + "; its time below is the CPU time (user + system) of the whole process. ltlsynt's times are whole-process wall times with a 60 s limit on a "
        "loaded 2-core machine, and it was only run on the specs a minimal converter could turn into "
        "one formula (no `GLOBAL`, no `INITIALLY`/`PRESET`/`REQUIRE`); `error` rows are mostly its "
        "upper-case signal-name problem (see the data README). A verikit `error` is a run that ended "
        "without a result: a resource limit (exit 3: too many letter classes or game positions).",
        "",
        "## Summary",
        "",
        "| | verikit | ltlsynt (recorded) |",
        "|---|---|---|",
        f"| specs | {len(rows)} | {len(ran_spot)} run, {len(rows) - len(ran_spot)} not converted |",
        f"| decided | {len(solved)} | {len(spot_solved)} |",
        f"| realizable / unrealizable | {sum(r['verikit'] == 'realizable' for r in rows)} / "
        f"{sum(r['verikit'] == 'unrealizable' for r in rows)} | "
        f"{sum(r['spot'] == 'realizable' for r in rows)} / {sum(r['spot'] == 'unrealizable' for r in rows)} |",
        f"| wrong (vs EXPECTED.tsv) | {len(wrong)} | 0 |",
        f"| decided on the {len(ran_spot)} specs ltlsynt was run on | "
        f"{sum(decided(r['verikit']) for r in ran_spot)} | {len(spot_solved)} |",
        f"| PAR-2 on those specs (s, limit {lim:.0f} s for both) | "
        f"{fmt(par2(ran_spot, 'cpu', lambda r: decided(r['verikit'])))} | "
        f"{fmt(par2(ran_spot, 'spot_t', lambda r: decided(r['spot']) and r['spot_t'] <= lim))} |",
        f"| PAR-2 on all specs (s) | {fmt(par2(rows, 'cpu', lambda r: decided(r['verikit'])))} | – |",
        f"| median time ratio verikit/ltlsynt (both decided, n={len(ratios)}) | {fmt(med(ratios))} | |",
        f"| median AND-gate ratio verikit/ltlsynt (both realizable, n={len(and_ratios)}) | {fmt(med(and_ratios))} | |",
        f"| median AND-gate ratio verikit/SYNTCOMP reference size (n={len(ref_ratios)}) | {fmt(med(ref_ratios))} | |",
        f"| median CPU time of verikit's decided specs (s) | {fmt(med([r['cpu'] for r in solved]))} | "
        f"{fmt(med([r['spot_t'] for r in spot_solved]))} |",
        "",
        "## Per engine (`-x synt.engine=...`, same limit)",
        "",
        "| engine | decided | realizable / unrealizable | wrong | decided, not by ltlsynt (recorded) | decided by ltlsynt, not by it |",
        "|---|---|---|---|---|---|",
    ] + [
        f"| {eng} | {sum(decided(r['engines'][eng]) for r in rows)} | "
        f"{sum(r['engines'][eng] == 'realizable' for r in rows)} / "
        f"{sum(r['engines'][eng] == 'unrealizable' for r in rows)} | "
        f"{sum(decided(r['engines'][eng]) and decided(r['expected']) and r['engines'][eng] != r['expected'] for r in rows)} | "
        f"{sum(decided(r['engines'][eng]) and not decided(r['spot']) for r in rows)} | "
        f"{sum(decided(r['spot']) and not decided(r['engines'][eng]) for r in rows)} |"
        for eng in ENGINES
    ] + ([
        f"| union of {' and '.join(ENGINES[1:])} | "
        f"{sum(any(decided(r['engines'][e]) for e in ENGINES[1:]) for r in rows)} | | | | |",
    ] if len(ENGINES) > 2 else []) + [
        "",
        f"Main column: `{ENGINES[0]}`; of its decided specs, "
        f"{sum(r['decided_by'] == 'bounded' for r in solved)} were decided by the bounded games and "
        f"{sum(r['decided_by'] == 'parity' for r in solved)} by the parity game.",
    ] + ([] if OPTS.cpu else NOTES) + [
        "",
        "## Per specification",
        "",
        "| spec | expected | verikit | " + " | ".join(ENGINES[1:]) + (" | " if len(ENGINES) > 1 else "")
        + "CPU s | ANDs | ltlsynt | wall s | ANDs | time ratio | AND ratio | ref size |",
        "|---|---|---|" + "---|" * (len(ENGINES) - 1) + "---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        tr = r["cpu"] / r["spot_t"] if decided(r["verikit"]) and decided(r["spot"]) and r["spot_t"] > 0 else math.nan
        ar = (r["ands"] / r["spot_ands"] if r["ands"] is not None and r["spot_ands"] and r["spot_ands"] > 0
              else math.nan)
        lines.append(
            f"| {r['spec'].removeprefix('tlsf/')} | {r['expected']} | {r['verikit']} | "
            + "".join(f"{r['engines'][e]} | " for e in ENGINES[1:]) + f"{r['cpu']:.2f} | "
            f"{'' if r['ands'] is None else r['ands']} | {r['spot']} | {fmt(r['spot_t'])} | "
            f"{fmt(r['spot_ands'], 0)} | {fmt(tr)} | {fmt(ar)} | {fmt(r['ref'], 0)} |")
    if wrong:
        lines += ["", "## Wrong verdicts", ""] + [f"- {r['spec']}: expected {r['expected']}, got {r['verikit']}"
                                                  for r in wrong]
    out = BENCH / "results" / (OPTS.page or ("synt-cpu.md" if OPTS.cpu else "synt.md"))
    out.write_text("\n".join(lines) + "\n")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
