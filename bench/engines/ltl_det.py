"""Deterministic parity automata from LTL: verikit's `ltl translate -D -P` versus the sizes and
times of Spot 2.12.1's `ltl2tgba -D -P` recorded in the shared data (`ltl/spot-det-sizes.tsv`;
Spot is not run here).

Every formula runs in its own verikit process (`ltl translate -D -P --stats --json -f φ`) under
a per-formula limit (`--limit-s`, default 3 s) of CPU time (RLIMIT_CPU; verikit's own wall-clock
`--timeout` is set loose, as the machine may be loaded), so one slow formula costs its own limit and never blocks the others; a
formula over the limit is listed as a timeout. Per formula: states, edges, colours (acceptance
sets), the process's CPU time (user + system, start-up included) and verikit's time measured around
the translation and determinisation (`times.translate_s`, parsing and process start-up excluded). Spot's recorded time is the wall time of one `ltl2tgba` process per formula,
~70 ms of which is start-up, so the comparison of times is given both ways: verikit's per-formula
time against Spot's whole-process time, and against Spot's time minus its start-up (the fastest
recorded run stands in for the start-up).

usage: PYTHONPATH=bench python3 bench/engines/ltl_det.py [--limit N] [--limit-s S] [--sets a,b]
"""

from __future__ import annotations

import csv
import datetime
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from harness import DATA, ROOT, load_avg, machine, measure, verikit_cmd, verikit_version  # noqa: E402

SETS = ["dac", "eh", "sb", "hkrss", "p", "random"]
LIMIT = int(sys.argv[sys.argv.index("--limit") + 1]) if "--limit" in sys.argv else 0
TIMEOUT = float(sys.argv[sys.argv.index("--limit-s") + 1]) if "--limit-s" in sys.argv else 3.0
# verikit's own `--timeout` is wall-clock time: on a loaded machine it is set loose and the CPU
# limit (RLIMIT_CPU) is what stops a formula.
WALL = 5 * TIMEOUT + 5
if "--sets" in sys.argv:
    SETS = sys.argv[sys.argv.index("--sets") + 1].split(",")


def load() -> dict[str, list[dict]]:
    rows: dict[str, list[dict]] = {s: [] for s in SETS}
    with open(DATA / "ltl" / "spot-det-sizes.tsv") as fh:
        for r in csv.DictReader(fh, delimiter="\t"):
            rows.setdefault(r["set"], []).append(r)
    return {s: rs[:LIMIT] for s, rs in rows.items()} if LIMIT else rows


def stage_times(formula: str) -> tuple[str, str]:
    """Where a formula over the limit spends its time: the CPU seconds of the Büchi translations
    of φ and of ¬φ alone (what `-D -P` runs before determinising), each under the same limit
    (`>limit` when it does not finish)."""
    out = []
    for f in (formula, f"!({formula})"):
        run = measure(verikit_cmd("--json", "-q", "--timeout", str(WALL), "ltl", "translate", "--stats",
                                  "-f", f), timeout=WALL + 10, cpu_limit=TIMEOUT)
        ok = not run.timed_out and run.verdict != "timeout" and isinstance(run.result.get("stats"), dict)
        out.append(f"{run.cpu_s:.2f} s" if ok else f">{TIMEOUT:g} s")
    return out[0], out[1]


def main() -> None:
    sets = load()
    lines: list[str] = []
    per_set: list[str] = []
    agg = {"n": 0, "done": 0, "larger": 0, "equal": 0, "smaller": 0, "s_ours": 0, "s_spot": 0,
           "e_ours": 0, "e_spot": 0, "c_ours": 0, "c_spot": 0, "c_larger": 0, "c_smaller": 0}
    ours_t: list[float] = []
    spot_t: list[float] = []
    larger: list[tuple] = []
    cpu_total = 0.0
    timeouts: list[tuple] = []
    ours_cpu: list[float] = []
    spot_min = min(float(r["dpa_ms"]) for rs in sets.values() for r in rs) / 1000
    for s in SETS:
        rows = sets.get(s, [])
        if not rows:
            continue
        by_pos = {}
        for i, r in enumerate(rows, 1):
            run = measure(verikit_cmd("--json", "-q", "--timeout", str(WALL), "ltl", "translate", "-D", "-P",
                                      "--stats", "-f", r["formula"]), timeout=WALL + 10, cpu_limit=TIMEOUT)
            cpu_total += run.cpu_s
            items = [it for it in run.result.get("results", [run.result]) if isinstance(it.get("stats"), dict)]
            if run.timed_out or run.verdict == "timeout" or not items:
                how = run.verdict if not run.timed_out else "killed"
                timeouts.append((s, r["formula"], run.cpu_s, how, *stage_times(r["formula"])))
                continue
            items[0]["cpu_s"] = run.cpu_s
            by_pos[i] = items[0]
        st = {"larger": 0, "equal": 0, "smaller": 0, "so": 0, "ss": 0}
        for i, r in enumerate(rows, 1):
            agg["n"] += 1
            it = by_pos.get(i)
            if it is None:
                continue
            agg["done"] += 1
            a = it["stats"]
            o, sp = a["states"], int(r["dpa_states"])
            co, cs = a["acc_sets"], int(r["dpa_colors"])
            st["so"] += o
            st["ss"] += sp
            agg["s_ours"] += o
            agg["s_spot"] += sp
            agg["e_ours"] += a["edges"]
            agg["e_spot"] += int(r["dpa_edges"])
            agg["c_ours"] += co
            agg["c_spot"] += cs
            agg["c_larger"] += co > cs
            agg["c_smaller"] += co < cs
            k = "larger" if o > sp else "smaller" if o < sp else "equal"
            st[k] += 1
            agg[k] += 1
            if o > sp:
                larger.append((o - sp, o, sp, co, cs, s, r["formula"]))
            ours_t.append(float(it["times"]["translate_s"]))
            ours_cpu.append(float(it["cpu_s"]))
            spot_t.append(float(r["dpa_ms"]) / 1000)
        per_set.append(f"| {s} | {len(rows)} | {len(by_pos)} | {st['so']} | {st['ss']} | {st['larger']} | "
                       f"{st['equal']} | {st['smaller']} | {sum(float(it['cpu_s']) for it in by_pos.values()):.2f} |")
    med_o = statistics.median(ours_t) if ours_t else float("nan")
    med_s = statistics.median(spot_t) if spot_t else float("nan")
    med_s0 = statistics.median([max(t - spot_min, 0.0) for t in spot_t]) if spot_t else float("nan")
    ratios = [o / s for o, s in zip(ours_t, spot_t) if s > 0]
    ratios_cpu = [o / s for o, s in zip(ours_cpu, spot_t) if s > 0]
    med_cpu = statistics.median(ours_cpu) if ours_cpu else float("nan")
    lines += [
        "# LTL → deterministic parity automata: verikit `ltl translate -D -P` vs Spot 2.12.1 `ltl2tgba -D -P`",
        "",
        f"Run {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC on {machine()}; load average "
        f"(1/5/15 min) at the end: {load_avg()} — the machine was shared with other engineers' builds and "
        "heavily loaded, so every time below is inflated.",
        f"verikit {verikit_version()}; Spot 2.12.1's sizes and times are the recorded ones of the shared data "
        "(`ltl/spot-det-sizes.tsv`), not re-run.",
        f"One process per formula, limit {TIMEOUT:g} CPU s per formula (RLIMIT_CPU; `--timeout {WALL:g}` wall)." + (f" Only the first {LIMIT} formulas of each set." if LIMIT else ""),
        "",
        "| set | formulas | finished | states verikit | states Spot | larger | equal | smaller | verikit CPU s (finished formulas, processes) |",
        "|---|---|---|---|---|---|---|---|---|",
        *per_set,
        "",
        f"- finished {agg['done']} of {agg['n']} formulas; states: verikit larger on {agg['larger']}, equal on "
        f"{agg['equal']}, smaller on {agg['smaller']}; sums over the finished ones: states {agg['s_ours']} vs "
        f"{agg['s_spot']}, edges {agg['e_ours']} vs {agg['e_spot']}, colours {agg['c_ours']} vs {agg['c_spot']} "
        f"(more colours on {agg['c_larger']}, fewer on {agg['c_smaller']}).",
        f"- time per formula, median: verikit {1000 * med_o:.2f} ms (translation + determinisation inside the "
        f"process); Spot {1000 * med_s:.1f} ms whole process, {1000 * med_s0:.1f} ms after subtracting its "
        f"fastest run ({1000 * spot_min:.1f} ms) as start-up. Median ratio verikit/Spot (whole process): "
        f"{statistics.median(ratios) if ratios else float('nan'):.3f}; max verikit time "
        f"{1000 * max(ours_t) if ours_t else float('nan'):.1f} ms.",
        f"- whole-process CPU time per formula (start-up included, comparable with Spot's whole-process "
        f"time): median {1000 * med_cpu:.1f} ms; median ratio verikit/Spot "
        f"{statistics.median(ratios_cpu) if ratios_cpu else float('nan'):.3f}.",
        f"- verikit CPU for all formulas (user + system, start-up and parsing included, timeouts too): "
        f"{cpu_total:.2f} s.",
        "",
        f"Formulas over the limit ({len(timeouts)}; set, CPU s used, how it ended, and the CPU time "
        "of the Büchi translations of φ and ¬φ alone under the same limit — when those finish "
        "quickly, the determinisation is what is slow):",
        "",
        *[f"- [{s}] {c:.2f} s {how}; Büchi φ {bp}, ¬φ {bn}: `{f}`" for s, f, c, how, bp, bn in timeouts],
        *(["- none"] if not timeouts else []),
        "",
        "Goal of issue 19: never larger, median time ≤ Spot's. Every formula where verikit has more states "
        "(difference, states verikit / Spot, colours verikit / Spot):",
        "",
    ]
    lines += [f"- +{d} ({o} / {sp}, colours {co} / {cs}) [{s}] `{f}`" for d, o, sp, co, cs, s, f in sorted(larger, reverse=True)]
    if not larger:
        lines.append("- none")
    out = ROOT / "bench" / "results" / "ltl-det.md"
    out.write_text("\n".join(lines) + "\n")
    print(out.read_text())


if __name__ == "__main__":
    main()
