"""Peer: TChecker's covreach reachability (tcheckerpy's `tck_reach`, BFS, TChecker's default extrapolation).

usage: tck_reach.py MODEL.tck [LABEL,LABEL,...]
Prints {"verdict": "true"|"false", "time_s": ..., "stored": ..., "visited": ...}: `true` = a state
carrying all the labels is reachable (with no labels the whole zone graph is explored and the
verdict is `false`). tcheckerpy runs the check in a child process; `time_s` is that child's CPU
time (user + system), without the interpreter's start-up and imports.
"""

import json
import os
import sys

from tcheckerpy.tools import tck_reach


def main() -> None:
    src = open(sys.argv[1]).read()
    labels = sys.argv[2] if len(sys.argv) > 2 else ""
    before = os.times()
    # the binding joins a list with ", ", which TChecker rejects: one comma-joined string
    reachable, stats, _ = tck_reach.reach(src, tck_reach.Algorithm.COVREACH,
                                          labels=[labels] if labels else [])
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    fields = dict(line.split(" ", 1) for line in stats.strip().splitlines() if " " in line)
    print(json.dumps({"verdict": "true" if reachable else "false", "time_s": cpu,
                      "stored": fields.get("STORED_STATES", ""), "visited": fields.get("VISITED_STATES", "")}))


if __name__ == "__main__":
    main()
