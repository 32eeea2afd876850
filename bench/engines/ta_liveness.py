"""Timed-automata Büchi emptiness (verikit ta liveness, on the fly) against TChecker's
`tck-liveness -a couvscc` (and `-a ndfs`) -> a dated section appended to bench/results/ta.md.

Rows: the TChecker models of the shared data's EXPECTED.tsv that have a `covreach/bfs` row with
labels, fastest recorded first, each with its first label alone against couvscc (with one label,
couvscc and verikit ask the same question: a reachable cycle through a state carrying the label);
then the models with several labels, with all of them, against ndfs (a cycle through a state
carrying all labels, verikit's question; couvscc would ask for a cycle visiting each label). One run of each tool per row, interleaved, with the same CPU limit; rows stop being added
once `--budget` seconds of wall-clock time have passed. The page's earlier sections are kept.

usage: VERIKIT_BIN=... PYTHONPATH=bench python3 bench/engines/ta_liveness.py [--limit S] [--budget S]
"""

import argparse
import csv
import datetime
import statistics
import time

from harness import DATA, ROOT, load_avg, machine, measure, peer_python, pip_version, verikit_cmd, verikit_version

ARGS = argparse.ArgumentParser()
ARGS.add_argument("--limit", type=float, default=15.0, help="CPU seconds per run and tool")
ARGS.add_argument("--budget", type=float, default=540.0, help="wall-clock seconds for the whole run")
ARGS.add_argument("--max-recorded", type=float, default=10.0,
                  help="skip models whose recorded TChecker covreach time is above this (seconds)")
OPTS = ARGS.parse_args()

TA = DATA / "ta"
PAGE = ROOT / "bench" / "results" / "ta.md"


def rows() -> list[tuple[float, str, str, str]]:
    """(recorded time, model, labels, TChecker algorithm): each model with its first label
    (couvscc), then the models with several labels with all of them (ndfs)."""
    out = {}
    with open(TA / "EXPECTED.tsv", newline="") as f:
        for r in csv.DictReader(f, delimiter="\t"):
            q = r["query"].removeprefix("labels=")
            if r["format"] != "tchecker" or r["algorithm"] != "covreach/bfs" or q.startswith("(none)"):
                continue
            try:
                t = float(r["time_s"])
            except ValueError:
                continue
            if t <= OPTS.max_recorded:
                out.setdefault(r["model"], (t, r["model"], q))
    single = [(t, m, q.split(",")[0], "couvscc") for t, m, q in sorted(out.values())]
    several = [(t, m, q, "ndfs") for t, m, q in sorted(out.values()) if "," in q]
    return single + several


def cell(x) -> str:
    return "" if x in (None, "") else str(x)


def main() -> None:
    t_start = time.monotonic()
    load_start = load_avg()
    lines = []
    ratios = []
    alg_ratios = []
    agree = disagree = 0
    for _, model, label, algo in rows():
        if time.monotonic() - t_start > OPTS.budget:
            break
        path = TA / model
        v = measure(verikit_cmd("--json", "-q", "--timeout", str(OPTS.limit), "ta", "liveness", str(path),
                                "-l", label), timeout=OPTS.limit + 10, cpu_limit=OPTS.limit)
        p = measure(peer_python("tck_liveness.py", path, label, algo), timeout=OPTS.limit + 10,
                    cpu_limit=OPTS.limit)
        vv = v.verdict if not v.timed_out else "timeout"
        pv = p.verdict if not p.timed_out else "timeout"
        vs = v.result.get("stats", {})
        if vv in ("true", "false") and pv in ("true", "false"):
            if vv == pv:
                agree += 1
            else:
                disagree += 1
        ratio = ""
        if vv in ("true", "false") and pv in ("true", "false") and p.result.get("time_s"):
            r = v.cpu_s / p.result["time_s"]
            ratios.append(r)
            ratio = f"{r:.3f}"
        alg = v.result.get("times", {}).get("total_s")
        tck_alg = p.result.get("stats", {}).get("RUNNING_TIME_SECONDS", "")
        if ratio and alg is not None and tck_alg and float(tck_alg) > 0:
            alg_ratios.append(alg / float(tck_alg))
        shown = label if "," not in label else f"{label.count(',') + 1} labels"
        name = model.removeprefix("tchecker/") + f" [{shown}] ({algo})"
        lines.append(
            f"| {name} | {vv} | {cell(vs.get('visited'))} | {cell(vs.get('stored'))} | {v.cpu_s:.4f} | "
            f"{'' if alg is None else f'{alg:.4f}'} | {pv} | {cell(p.result.get('visited'))} | "
            f"{cell(p.result.get('stored'))} | {p.result.get('time_s', float('nan')):.4f} | "
            f"{tck_alg} | {ratio} |")
    load_end = load_avg()
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    med = f"{statistics.median(ratios):.3f}" if ratios else "–"
    alg_med = f"{statistics.median(alg_ratios):.3f}" if alg_ratios else "–"
    text = f"""

## Büchi emptiness on the fly: verikit ta liveness vs TChecker couvscc / ndfs ({now})

Machine: {machine()}. Load (1/5/15-min averages) {load_start} at the start and {load_end} at the
end: other engineers' builds shared the 2 cores, so times are CPU times and the ratios are
indicative. verikit {verikit_version()} (`ta liveness MODEL -l LABEL`, Couvreur's algorithm on the
fly, ExtraLU+ local, no covering); TChecker: tcheckerpy {pip_version('tcheckerpy')}
`tck_liveness` (`bench/peers/tck_liveness.py`), TChecker's default extrapolation. One run of
each tool per row, interleaved; CPU limit {OPTS.limit:.0f} s per run. Rows: the models of
EXPECTED.tsv with labels and a recorded covreach time up to {OPTS.max_recorded:.0f} s, fastest
first, each with its first label alone against couvscc (the same question for one label), then
those with several labels, with all of them, against ndfs (a cycle through a state carrying all
labels: verikit's question; couvscc asks for a cycle visiting each label, a different one); rows
stopped being added after {OPTS.budget:.0f} s.
verikit's CPU time is its whole process (start-up included); TChecker's is the child process
tcheckerpy runs the check in (its start-up included, about 0.07 s). `alg s` are each tool's own
timer of the search (verikit `times.total_s`, TChecker `RUNNING_TIME_SECONDS`), wall clock.
Counts are named as TChecker's statistics: visited = `VISITED_STATES` (states whose successors
were computed), stored = `STORED_STATES`.

Verdicts: {agree} agree, {disagree} disagree. Median CPU ratio verikit/TChecker over {len(ratios)}
decided rows: {med} (dominated by TChecker's child start-up on small models); median ratio of
the tools' own search timers (`alg s`): {alg_med}.

| model [label] (TChecker algorithm) | verikit | visited | stored | CPU s | alg s | TChecker | visited | stored | CPU s | alg s | ratio |
|---|---|---|---|---|---|---|---|---|---|---|---|
""" + "\n".join(lines) + "\n"
    with open(PAGE, "a") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
