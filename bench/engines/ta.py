"""Timed-automata reachability (verikit ta reach) against TChecker -> bench/results/ta.md.

Every TChecker model/query of the shared data's EXPECTED.tsv with a `covreach/bfs` row: verikit runs
`ta reach MODEL --labels … --algo covreach --search bfs --extrapolation extraLU+l` (TChecker's
covreach settings) and is compared with TChecker's verdict, stored-state count and CPU time: by
default TChecker runs here too (tcheckerpy `tck_reach` covreach, BFS, from bench/.venv: see
bench/peers.sh), one run of each tool per row, with the same CPU limit; `--tchecker recorded`
compares with the values recorded in EXPECTED.tsv instead. Rows TChecker could not decide when
they were recorded (timeout, `error`) are run too.

usage: VERIKIT_BIN=... PYTHONPATH=bench python3 bench/engines/ta.py [--limit S] [--max-peer S]
       [--tchecker live|recorded]
"""

import argparse
import csv
import json
import math
import os
import resource
from pathlib import Path

from harness import DATA, VENV_PY, Run, Table, measure, peer_python, pip_version, verikit_cmd, verikit_version

ARGS = argparse.ArgumentParser()
ARGS.add_argument("--limit", type=float, default=60.0, help="seconds per verikit run")
ARGS.add_argument("--max-peer", type=float, default=math.inf,
                  help="skip rows TChecker needed longer than this (seconds)")
ARGS.add_argument("--tchecker", choices=["live", "recorded"], default="live" if VENV_PY.exists() else "recorded",
                  help="run TChecker here (default when bench/.venv exists) or use EXPECTED.tsv's values")
OPTS = ARGS.parse_args()

TA = DATA / "ta"


def rows() -> list[dict]:
    with open(TA / "EXPECTED.tsv", newline="") as f:
        out = [r for r in csv.DictReader(f, delimiter="\t")
               if r["format"] == "tchecker" and r["algorithm"] == "covreach/bfs"
               and r["tool"].startswith("tcheckerpy")]
    return out


def labels_of(query: str) -> list[str]:
    q = query.removeprefix("labels=")
    return [] if q.startswith("(none)") else q.split(",")


def peer_run(r: dict) -> Run:
    verdict = {"reachable": "true", "unreachable": "false", "-": "false"}.get(r["verdict"])
    try:
        t = float(r["time_s"])
    except ValueError:
        t = math.nan
    ok = verdict is not None and not math.isnan(t)
    res = {"verdict": verdict, "time_s": t} if ok else {}
    return Run(t if ok else OPTS.limit, math.nan, 0 if ok else 1, r["verdict"] == "timeout", "", "", res)


def live_peer_run(model: Path, labels: list[str]) -> Run:
    run = measure(peer_python("tck_reach.py", model, ",".join(labels)), timeout=OPTS.limit + 5,
                  cpu_limit=OPTS.limit)
    if run.rc != 0 and not run.timed_out:
        # RLIMIT_CPU kills the check's child process: tcheckerpy then fails, which is a timeout
        run.timed_out = run.cpu_s >= OPTS.limit
    return run


def stored_of(note: str) -> str:
    for part in note.replace(";", " ").split():
        if part.startswith("stored="):
            return part.removeprefix("stored=")
    return ""


def main() -> None:
    load_start = os.getloadavg()
    t = Table("ta", "Timed automata: verikit ta reach vs TChecker (covreach, BFS, ExtraLU+ local)",
              tools=["verikit", "tchecker"])
    skipped = 0
    for r in rows():
        try:
            peer_t = float(r["time_s"])
        except ValueError:
            peer_t = math.inf
        if OPTS.tchecker == "recorded" and peer_t > OPTS.max_peer:
            skipped += 1
            continue
        model = TA / r["model"]
        labels = labels_of(r["query"])
        cmd = ["--json", "-q", "--timeout", str(OPTS.limit), "ta", "reach", str(model),
               "--algo", "covreach", "--search", "bfs", "--extrapolation", "extraLU+l"]
        if labels:
            cmd += ["--labels", ",".join(labels)]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        run = measure(verikit_cmd(*cmd), timeout=OPTS.limit + 5)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        # verikit's CPU time (user + system) of the whole process: the machine is shared, so wall
        # clock would count other jobs' time slices
        run.result["time_s"] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        stored = run.result.get("stats", {}).get("stored", "")
        name = r["model"].removeprefix("tchecker/") + (f" [{','.join(labels)}]" if labels and len(labels) <= 2
                                                       else f" [{len(labels)} labels]" if labels else " [full]")
        if OPTS.tchecker == "live":
            peer = live_peer_run(model, labels)
            peer_stored = peer.result.get("stored", "")
        else:
            peer, peer_stored = peer_run(r), stored_of(r["note"])
        t.add(name, {"verikit": run, "tchecker": peer}, {"stored": stored, "tchecker stored": peer_stored})
    load_end = os.getloadavg()
    if OPTS.tchecker == "live":
        peer_note = (
            "TChecker ran here, interleaved with verikit row by row (tcheckerpy `tck_reach` covreach, "
            "BFS, TChecker's default extrapolation, `bench/peers/tck_reach.py`); its time is the CPU "
            "time (user + system) of the child process tcheckerpy runs the check in, without the "
            f"interpreter's start-up; CPU limit {OPTS.limit:.0f} s for both tools. TChecker's `error` rows are "
            "files its parser rejects (`Invalid character`), as EXPECTED.tsv records too. ")
    else:
        peer_note = (
            "TChecker's verdicts, stored counts and times are the ones recorded in the shared data's "
            "`EXPECTED.tsv` (tcheckerpy 2026.8.17.9.56.0 `tck_reach` covreach, BFS, 60 s CPU limit; a "
            "`timeout`/`error` there means TChecker gave no verdict); they were not re-run for this page. "
            "The data's README does not say whether TChecker's recorded `time_s` is CPU or wall-clock time, so the ratios are indicative. ")
    notes = (
        peer_note
        + "verikit's time is the CPU time (user + system) of its process, start-up included. "
        "`true` = labels reachable (or, for full explorations without labels, `false`). "
        f"verikit limit {OPTS.limit:.0f} s per run (wall clock). Machine load (1/5/15-min averages) "
        f"at the start {load_start[0]:.1f}/{load_start[1]:.1f}/{load_start[2]:.1f}, at the end "
        f"{load_end[0]:.1f}/{load_end[1]:.1f}/{load_end[2]:.1f}: other jobs shared the 2 cores."
        + (f" {skipped} rows skipped (TChecker over {OPTS.max_peer} s)." if skipped else "")
    )
    peer_version = ("tcheckerpy " + pip_version("tcheckerpy") if OPTS.tchecker == "live"
                    else "tcheckerpy 2026.8.17.9.56.0 (recorded)")
    t.write(versions={"verikit": verikit_version(), "tchecker": peer_version},
            notes=notes, extra_cols=["stored", "tchecker stored"])


if __name__ == "__main__":
    main()
