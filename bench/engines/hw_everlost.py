"""EverLost (abstraction-guided simulation, C27) against BMC on the unsafe circuits of
../shared/data/aiger -> bench/results/hw-everlost.md.

For every `--every`-th unsafe row of EXPECTED.tsv: `verikit aig check FILE --engine everlost` and
`--engine bmc`, each with the same `--timeout`; a found counterexample counts only if verikit
replayed it (it does before printing `unsafe`). Times are CPU seconds (user + system, from wait4)
of each process.

usage: python3 bench/engines/hw_everlost.py [--limit S] [--every N]
"""

import argparse
import csv
import os
import platform
import re
import statistics
import subprocess
import time
from pathlib import Path

from hw_paths import DATA, VERIKIT, measure

ARGS = argparse.ArgumentParser()
ARGS.add_argument("--limit", type=float, default=5.0)
ARGS.add_argument("--every", type=int, default=1)
OPTS = ARGS.parse_args()


def engine(f, name):
    r = measure([str(VERIKIT), "--json", "--timeout", str(OPTS.limit), "aig", "check", str(f),
                 "--engine", name], timeout=OPTS.limit + 5)
    m = re.search(r'"result":\s*"(safe|unsafe)"', r.stdout)
    d = re.search(r'"depth":\s*(\d+)', r.stdout)
    found = m.group(1) if m and not r.timed_out else "–"
    return found, (d.group(1) if d and found == "unsafe" else ""), r.cpu_s


def main():
    rows = [r for r in csv.DictReader(open(DATA / "EXPECTED.tsv"), delimiter="\t")
            if r["expected"] == "unsafe"][:: OPTS.every]
    table = []
    for r in rows:
        f = DATA / r["file"]
        e, ed, et = engine(f, "everlost")
        b, bd, bt = engine(f, "bmc")
        table.append((r["file"], r["cex_depth"], e, ed, et, b, bd, bt))
        print(f"{r['file']}\teverlost={e} d={ed} {et:.2f}s\tbmc={b} d={bd} {bt:.2f}s", flush=True)
    load = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    print()
    print(f"machine: {platform.node()} {platform.machine()}, {os.cpu_count()} cores; "
          f"date {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; load: {load}")
    print(f"limit {OPTS.limit} s per run; {len(rows)} unsafe circuits (every {OPTS.every}th)\n")
    print("| circuit | expected depth | EverLost | depth | CPU s | BMC | depth | CPU s | ratio EverLost/BMC |")
    print("|---|---|---|---|---|---|---|---|---|")
    for (n, cd, e, ed, et, b, bd, bt) in table:
        ratio = f"{et / bt:.2f}" if e == "unsafe" and b == "unsafe" and bt > 0 else "–"
        print(f"| {n} | {cd} | {e} | {ed} | {et:.2f} | {b} | {bd} | {bt:.2f} | {ratio} |")
    fe = sum(1 for t in table if t[2] == "unsafe")
    fb = sum(1 for t in table if t[5] == "unsafe")
    wrong = sum(1 for t in table if t[2] == "safe" or t[5] == "safe")
    both = [t[4] / t[7] for t in table if t[2] == "unsafe" and t[5] == "unsafe" and t[7] > 0]
    print(f"\nfound within the limit: EverLost {fe}, BMC {fb} of {len(table)}; wrong answers: {wrong}")
    if both:
        print(f"median CPU ratio EverLost/BMC where both found one: {statistics.median(both):.2f}")


if __name__ == "__main__":
    main()
