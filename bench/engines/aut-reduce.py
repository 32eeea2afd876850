"""Simulation-based minimisation of generalized Büchi automata (Juvekar–Piterman CAV'06, §5):
the paper's experiment on 530 random LTL formulas of the shared data. Each formula is translated
by verikit (which already applies the direct-simulation baseline, like the "original" Wring
pipeline), then minimised with `--reduce delayed | fair | fair+delayed`; the table gives the
totals of states, transitions, acceptance sets ("Fair" in the paper), accepting states, initial
states and the time inside the reductions, for transition-based generalized Büchi automata and
for state-based Büchi automata (`-B`), and compares the reduced sizes with Spot 2.12.1's recorded
sizes (`ltl2tgba`, `ltl2tgba -B`).

usage: PYTHONPATH=bench python3 bench/engines/aut-reduce.py [--limit N]   (N: the first N formulas only,
for trying the script)
"""

from __future__ import annotations

import csv
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from harness import BENCH, DATA, load_avg, ltl_automata, machine, measure, verikit_cmd, verikit_version  # noqa: E402

METHODS = os.environ.get("AUT_REDUCE_METHODS", "none,direct,delayed,fair,fair+delayed").split(",")
# Second baseline, closer to the paper's "original" (Wring: tableau + direct/reverse simulation):
# the translation without verikit's own post-processing, restricted to the formulas whose raw
# tableau has at most RAW_MAX_STATES states (the fair games of the larger ones take minutes each).
RAW_MAX_STATES = int(os.environ.get("AUT_REDUCE_RAW_MAX", "30"))
LIMIT = int(sys.argv[sys.argv.index("--limit") + 1]) if "--limit" in sys.argv else 0
RAW_METHODS = ["none", "direct", "delayed", "fair", "fair+delayed"]


def totals(auts, m):
    if m == "none":
        return {"states": sum(a["states"] for a in auts), "transitions": sum(a["edges"] for a in auts),
                "acc_sets": sum(a["acc_sets"] for a in auts), "accepting_states": "", "initial": ""}
    return {k: sum(a["reduction"]["after"][k] for a in auts)
            for k in ("states", "transitions", "acc_sets", "accepting_states", "initial")}


def translate(m, flags, path, n, label):
    """Translates every formula of `path` with reduction method `m` (`none`: no reduction);
    the automata, or None (reported on stderr) unless there is one per formula."""
    args = ["--json", "-q", "ltl", "translate", "--stats", *flags]
    if m != "none":
        args += ["--reduce", m]
    run = measure(verikit_cmd(*args, "-F", str(path)), timeout=1800)
    auts = ltl_automata(run.result)
    if len(auts) != n:
        print(f"[aut-reduce] {label} {m}: failed: {run.stderr[:400]}", file=sys.stderr)
        return run, None
    return run, auts


def pct(a, b):
    return f"{(a - b) / b * 100:+.1f} %"


def main() -> None:
    rows = []
    with open(DATA / "ltl" / "spot-sizes-random.tsv") as fh:
        rows = [r for r in csv.DictReader(fh, delimiter="\t")]
    if LIMIT:
        rows = rows[:LIMIT]
    load_start = load_avg()
    tmp = Path(tempfile.mkdtemp())
    f = tmp / "random.ltl"
    f.write_text("".join(r["formula"] + "\n" for r in rows))
    out = [f"# Minimising generalized Büchi automata (CAV'06 Juvekar–Piterman, §5 experiment)", "",
           f"- machine: {machine()}", f"- verikit: {verikit_version()}",
           "- date: " + time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
           "- load (1/5/15-min averages, `uptime`): {LOAD}",
           f"- inputs: the {len(rows)}{' first' if LIMIT else ''} random LTL formulas of the shared data (`ltl/random.ltl`)",
           "- `before` = verikit's translation (already reduced by bisimulation and direct simulation,"
           " like the paper's \"original\" Wring pipeline); each method is applied on top of it",
           "- time = seconds inside the reduction, summed over the formulas (`reduction.time_s`, wall clock"
           " inside verikit, so inflated by the load); `CPU s` = CPU seconds (user + system) of the whole"
           " verikit process (start-up, parsing, translation and reduction of every formula)",
           "- Fair = acceptance sets (the paper's \"fairness conditions\"); acc = states with an"
           " accepting edge", ""]
    for kind, flag, skey, ekey in (("TGBA", [], "tgba_states", "tgba_edges"),
                                   ("state-based Büchi (-B)", ["-B"], "ba_states", "ba_edges")):
        spot_s = sum(int(r[skey]) for r in rows)
        spot_e = sum(int(r[ekey]) for r in rows)
        out += [f"## {kind}", "",
                "| method | states | trans | vs none (states / trans) | Fair | acc | init | reduction time s | CPU s | applied | vs Spot states | formulas smaller than Spot / larger |",
                "|---|---|---|---|---|---|---|---|---|---|---|---|"]
        base = None
        for m in METHODS:
            run, auts = translate(m, flag, f, len(rows), kind)
            if auts is None:
                out.append(f"| {m} | failed | | | | | | | | | | |")
                continue
            tot = totals(auts, m)
            if m == "none":
                t_red, applied = 0.0, ""
                base = tot
            else:
                t_red = sum(a["reduction"]["time_s"] for a in auts)
                applied = sum(1 for a in auts if a["reduction"]["applied"])
            smaller = sum(1 for a, r in zip(auts, rows) if a["states"] < int(r[skey]))
            larger = sum(1 for a, r in zip(auts, rows) if a["states"] > int(r[skey]))
            rel = f"{pct(tot['states'], base['states'])} / {pct(tot['transitions'], base['transitions'])}" if base else ""
            out.append(f"| {m} | {tot['states']} | {tot['transitions']} | {rel} | {tot['acc_sets']} | "
                       f"{tot['accepting_states']} | {tot['initial']} | {t_red:.3f} | {run.cpu_s:.2f} | {applied} | "
                       f"{tot['states'] / spot_s:.3f} | {smaller} / {larger} |")
            print(f"[aut-reduce] {kind} {m}: {tot}", file=sys.stderr, flush=True)
        out += ["", f"Spot 2.12.1 (recorded): {spot_s} states, {spot_e} transitions.", ""]
        if base:
            out.append(f"Relative reductions are against the `none` row ({base['states']} states).")
            out.append("")
    # Second baseline: the raw tableau (no post-processing), TGBA, small automata only.
    run = measure(verikit_cmd("--json", "-q", "ltl", "translate", "--stats", "--no-postprocess", "-F", str(f)),
                  timeout=600)
    raw = ltl_automata(run.result)
    keep = [r["formula"] for r in raw if r["states"] <= RAW_MAX_STATES]
    g = tmp / "raw-small.ltl"
    g.write_text("".join(x + "\n" for x in keep))
    out += ["## Second baseline: raw tableau (TGBA, no post-processing)", "",
            f"The {len(keep)} formulas (of {len(raw)}) whose raw tableau has at most {RAW_MAX_STATES} states "
            f"(`ltl translate --no-postprocess`); each method is applied to the raw tableau. The paper's "
            "\"original\" is Wring's tableau after direct and reverse simulation, so the comparable row is "
            "`direct`; the last column gives each method relative to it.", "",
            "| method | states | trans | Fair | acc | init | reduction time s | CPU s | applied | vs direct (states / trans) |",
            "|---|---|---|---|---|---|---|---|---|---|"]
    ref = None
    for m in RAW_METHODS:
        run, auts = translate(m, ["--no-postprocess"], g, len(keep), "raw")
        if auts is None:
            out.append(f"| {m} | failed | | | | | | | | |")
            continue
        tot = totals(auts, m)
        t_red = sum(a["reduction"]["time_s"] for a in auts) if m != "none" else 0.0
        applied = sum(1 for a in auts if a["reduction"]["applied"]) if m != "none" else ""
        if m == "direct":
            ref = tot
        rel = f"{pct(tot['states'], ref['states'])} / {pct(tot['transitions'], ref['transitions'])}" if ref else ""
        out.append(f"| {m} | {tot['states']} | {tot['transitions']} | {tot['acc_sets']} | {tot['accepting_states']} | "
                   f"{tot['initial']} | {t_red:.3f} | {run.cpu_s:.2f} | {applied} | {rel} |")
        print(f"[aut-reduce] raw {m}: {tot}", file=sys.stderr, flush=True)
    out.append("")
    res = BENCH / "results" / "aut-reduce.md"
    text = "\n".join(out) + "\n"
    res.write_text(text.replace("{LOAD}", f"{load_start} at the start, {load_avg()} at the end"))
    print(f"wrote {res}", file=sys.stderr)


if __name__ == "__main__":
    main()
