"""UPPAAL models (verikit ta check) against the verdicts recorded in EXPECTED.tsv -> bench/results/ta-uppaal.md.

Every UPPAAL row of the shared data's EXPECTED.tsv with a stated verdict (`satisfied` / `not
satisfied`, from the models' comments or query files), every row whose query mentions `deadlock`
and every liveness row (`E[]`, `A<>`, `-->`; those have no recorded verdict except the fireflies): verikit runs `ta check MODEL --query FORMULA` with a short limit. There is
no UPPAAL binary here and EXPECTED.tsv records no UPPAAL times, so the table compares verdicts only.

usage: VERIKIT_BIN=... PYTHONPATH=bench python3 bench/engines/ta_uppaal.py [--limit S]
       [--liveness-before BIN]

With `--liveness-before BIN`, only the liveness rows run, once with BIN (an earlier build) and once
with VERIKIT_BIN, one after the other per row; the page is not rewritten: a dated section with the
two runs side by side is appended to it.
"""

import argparse
import csv
import math
import os
import resource

from harness import BENCH, DATA, VERIKIT, Run, Table, fmt_t, load_avg, machine, measure, verikit_version

ARGS = argparse.ArgumentParser()
ARGS.add_argument("--limit", type=float, default=10.0, help="seconds per verikit run")
ARGS.add_argument("--liveness-before", metavar="BIN",
                  help="only the liveness rows, before (BIN) and after (VERIKIT_BIN); append a section")
OPTS = ARGS.parse_args()

TA = DATA / "ta"


def rows() -> list[dict]:
    with open(TA / "EXPECTED.tsv", newline="") as f:
        return [r for r in csv.DictReader(f, delimiter="\t")
                if r["format"] == "uppaal-xml" and r["model"].startswith("uppaal/")
                and (r["verdict"] in ("satisfied", "not satisfied") or "deadlock" in r["query"]
                     or r["query"].startswith(("E[]", "A<>")) or "-->" in r["query"])]


def expected_run(r: dict) -> Run:
    v = {"satisfied": "true", "not satisfied": "false"}.get(r["verdict"])
    # no time recorded: NaN keeps the ratio column empty
    return Run(math.nan, math.nan, 0 if v else 1, False, "", "", {"verdict": v} if v else {})


def run_row(binary: str, r: dict) -> tuple[Run, dict]:
    """One verikit run of a row: the run (CPU time in `time_s`) and the query's result item."""
    formula = r["query"].split("/*")[0].strip()
    cmd = [binary, "--json", "-q", "--timeout", str(OPTS.limit), "ta", "check", str(TA / r["model"]),
           "--query", formula]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    run = measure(cmd, timeout=OPTS.limit + 5)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    items = run.result.get("results") or [{}]
    item = items[0] if isinstance(items[0], dict) else {}
    if item.get("verdict"):
        run.result["verdict"] = item["verdict"]
    run.result["time_s"] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return run, item


def is_liveness(r: dict) -> bool:
    q = r["query"].split("/*")[0].strip()
    return q.startswith(("E[]", "A<>")) or "-->" in q


def liveness_section() -> None:
    """The liveness rows before/after, appended to the page as a dated section."""
    import datetime
    load_start = load_avg()
    lines = ["| row | expected | before | before CPU s | before stored | after | after CPU s | after stored |",
             "|---|---|---|---|---|---|---|---|"]
    for r in (r for r in rows() if is_liveness(r)):
        expected = {"satisfied": "true", "not satisfied": "false"}.get(r["verdict"], "–")
        cells = []
        for binary in (OPTS.liveness_before, str(VERIKIT)):
            run, item = run_row(binary, r)
            stored = item.get("stats", {}).get("stored", "")
            cells += [run.verdict, fmt_t(run.time_s), str(stored)]
        name = r["model"].removeprefix("uppaal/") + f" `{r['query'].split('/*')[0].strip()[:60]}`"
        lines.append(f"| {name} | {expected} | " + " | ".join(cells) + " |")
    load_end = load_avg()
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    text = (f"\n## Liveness rows, {date}: before / after (clock constraints in liveness formulas, "
            "on-the-fly E[] / A<> / -->)\n\n"
            f"Only the {len(lines) - 2} liveness rows, each run with the earlier build (before) and then "
            f"with {verikit_version()} (after), limit {OPTS.limit:.0f} s wall clock per run; CPU time "
            f"(user + system). Machine: {machine()}; load (1/5/15 min) {load_start} at the start, "
            f"{load_end} at the end, from other engineers' builds on the shared cores. The table "
            "above is from the previous full run.\n\n" + "\n".join(lines) + "\n")
    page = BENCH / "results" / "ta-uppaal.md"
    with open(page, "a") as f:
        f.write(text)
    print(text)


def main() -> None:
    if OPTS.liveness_before:
        liveness_section()
        return
    load_start = os.getloadavg()
    t = Table("ta-uppaal", "Timed automata: verikit ta check on the UPPAAL models vs the recorded verdicts",
              tools=["verikit", "expected"])
    for r in rows():
        formula = r["query"].split("/*")[0].strip()
        run, item = run_row(str(VERIKIT), r)
        stored = item.get("stats", {}).get("stored", "")
        name = r["model"].removeprefix("uppaal/") + f" `{formula[:60]}`"
        t.add(name, {"verikit": run, "expected": expected_run(r)}, {"stored": stored})
    load_end = os.getloadavg()
    notes = (
        "`expected` is the verdict recorded in the shared data's `EXPECTED.tsv` (stated in the models' "
        "comments or query files; the `deadlock` rows have none, so they count as unsolved by "
        "`expected`; so do the liveness rows without a recorded verdict). `true` = the query is satisfied; `error` = the model or query is refused by name "
        "(unsupported construct). verikit's time is the CPU time (user + system) of its process, "
        f"start-up included; limit {OPTS.limit:.0f} s per run (wall clock). Machine load (1/5/15-min "
        f"averages) at the start {load_start[0]:.1f}/{load_start[1]:.1f}/{load_start[2]:.1f}, at the "
        f"end {load_end[0]:.1f}/{load_end[1]:.1f}/{load_end[2]:.1f}: other jobs shared the 2 cores."
    )
    t.write(versions={"verikit": verikit_version()}, notes=notes, extra_cols=["stored"])


if __name__ == "__main__":
    main()
