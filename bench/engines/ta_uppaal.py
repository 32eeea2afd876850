"""UPPAAL models (verikit ta check) against the verdicts recorded in EXPECTED.tsv -> bench/results/ta-uppaal.md.

Every UPPAAL row of the shared data's EXPECTED.tsv with a stated verdict (`satisfied` / `not
satisfied`, from the models' comments or query files), every row whose query mentions `deadlock`
and every liveness row (`E[]`, `A<>`, `-->`; those have no recorded verdict except the fireflies): verikit runs `ta check MODEL --query FORMULA` with a short limit. There is
no UPPAAL binary here and EXPECTED.tsv records no UPPAAL times, so the table compares verdicts only.

usage: VERIKIT_BIN=... PYTHONPATH=bench python3 bench/engines/ta_uppaal.py [--limit S]
"""

import argparse
import csv
import math
import os
import resource

from harness import DATA, Run, Table, measure, verikit_cmd, verikit_version

ARGS = argparse.ArgumentParser()
ARGS.add_argument("--limit", type=float, default=10.0, help="seconds per verikit run")
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


def main() -> None:
    load_start = os.getloadavg()
    t = Table("ta-uppaal", "Timed automata: verikit ta check on the UPPAAL models vs the recorded verdicts",
              tools=["verikit", "expected"])
    for r in rows():
        formula = r["query"].split("/*")[0].strip()
        cmd = ["--json", "-q", "--timeout", str(OPTS.limit), "ta", "check", str(TA / r["model"]),
               "--query", formula]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        run = measure(verikit_cmd(*cmd), timeout=OPTS.limit + 5)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        items = run.result.get("results") or [{}]
        item = items[0] if isinstance(items[0], dict) else {}
        if item.get("verdict"):
            run.result["verdict"] = item["verdict"]
        run.result["time_s"] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
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
