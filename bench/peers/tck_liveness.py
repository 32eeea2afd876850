"""Peer: TChecker's Büchi emptiness (tcheckerpy's `tck_liveness`, algorithm couvscc or ndfs).

usage: tck_liveness.py MODEL.tck LABEL[,LABEL...] [couvscc|ndfs]
Prints {"verdict": "true"|"false", "time_s": ..., "stored": ..., "visited": ..., "transitions": ...}:
`true` = an accepting cycle exists (TChecker's `CYCLE true`). With one label, couvscc and ndfs ask
the same question (a cycle through a state carrying the label). tcheckerpy runs the check in a
child process; `time_s` is that child's CPU time (user + system), without the interpreter's
start-up and imports.
"""

import json
import os
import sys

from tcheckerpy.tools import tck_liveness


def main() -> None:
    src = open(sys.argv[1]).read()
    labels = sys.argv[2]
    algo = {"couvscc": tck_liveness.Algorithm.COUVSCC, "ndfs": tck_liveness.Algorithm.NDFS}[
        sys.argv[3] if len(sys.argv) > 3 else "couvscc"]
    before = os.times()
    # the binding joins a list with ", ", which TChecker rejects: one comma-joined string
    cycle, stats, _ = tck_liveness.liveness(src, algo, labels=[labels])
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    fields = dict(line.split(" ", 1) for line in stats.strip().splitlines() if " " in line)
    print(json.dumps({"verdict": "true" if cycle else "false", "time_s": cpu,
                      "stored": fields.get("STORED_STATES", ""), "visited": fields.get("VISITED_STATES", ""),
                      "transitions": fields.get("VISITED_TRANSITIONS", ""), "stats": fields}))


if __name__ == "__main__":
    main()
