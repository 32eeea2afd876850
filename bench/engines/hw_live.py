"""Liveness on AIGER circuits (verikit `aig check --ltl/--justice`) -> bench/results/hw-live.md.

The shared circuits (../shared/data/aiger) have no justice properties, so this bench asks two
liveness questions of the `tniessen` circuits (one output, no constraints, every latch reset 0):

* unsafe ones: the LTL property `G !o0` — violated by a lasso that reaches the bad output and
  closes a loop. verikit's lasso BMC (the C12 WABA encoding, `--engine bmc`) is compared with
  verikit's plain safety BMC and ABC's `bmc3` on the same circuit (the lasso can only be longer
  than the shortest counterexample: this measures what the loop constraints cost);
* safe ones: the justice property "o0 infinitely often" (the file rewritten with `J = 1`): proved
  by liveness-to-safety with IC3 (`--justice 0 --engine ic3`), compared with verikit's IC3 on the
  safety property (`G !o0`) and ABC's `pdr`.

Times are CPU seconds (user + system, from wait4) of each process; `–` = not decided within the
limit. usage: python3 bench/engines/hw_live.py [--limit S] [--every N] [--abc berkeley-abc]
"""

import argparse
import os
import platform
import re
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from hw_paths import BENCH, DATA, ROOT, VERIKIT, measure

ARGS = argparse.ArgumentParser()
ARGS.add_argument("--limit", type=float, default=5.0)
ARGS.add_argument("--every", type=int, default=1)
ARGS.add_argument("--abc", default="berkeley-abc")
OPTS = ARGS.parse_args()


def run(cmd):
    r = measure(cmd, timeout=OPTS.limit + 2)
    return r.stdout, r.cpu_s, r.timed_out


def vk(args):
    out, cpu, to = run([str(VERIKIT), "--json", "--timeout", str(OPTS.limit), "aig", "check", *args])
    m = re.search(r'"result":\s*"(\w+)"', out)
    return (m.group(1) if m and not to else "–"), cpu


def abc(f, cmd):
    out, cpu, to = run([OPTS.abc, "-c", f"read {f}; logic; undc; strash; zero; {cmd} -T {int(OPTS.limit)}"])
    if to:
        return "–", cpu
    if "Property proved" in out:
        return "safe", cpu
    if re.search(r"was asserted|Counter-example|asserted in frame", out):
        return "unsafe", cpu
    return "–", cpu


def justice_version(src, dst):
    """The one-output file with its output moved to a justice property (J = 1)."""
    lines = src.read_text().splitlines()
    h = lines[0].split()
    m, i, l, o, a = (int(x) for x in h[1:6])
    assert o == 1 and len(h) == 6
    out_lit = lines[1 + i + l]
    rest = lines[2 + i + l:]
    cut = rest.index("c") if "c" in rest else len(rest)
    rest = [x for x in rest[:cut] if not x.startswith("o")] + rest[cut:]
    body = lines[1:1 + i + l] + ["1", out_lit] + rest
    dst.write_text("\n".join([f"aag {m} {i} {l} 0 {a} 0 0 1 0"] + body) + "\n")


def main():
    rows = [r.split("\t") for r in (DATA / "EXPECTED.tsv").read_text().splitlines()[1:]]
    rows = [r for r in rows if r[0].startswith("tniessen/")][:: OPTS.every]
    tmp = Path(tempfile.mkdtemp(prefix="verikit-hw-live-"))
    table = []
    for r in rows:
        f, expected = DATA / r[0], r[1]
        bin_ = tmp / (Path(r[0]).stem + ".aig")
        subprocess.run([str(VERIKIT), "aig", "convert", str(f), "-o", str(bin_)], capture_output=True)
        if expected == "unsafe":
            live, lt = vk([str(f), "--ltl", "G !o0", "--engine", "bmc"])
            safe, st = vk([str(f), "--engine", "bmc"])
            a, at = abc(bin_, "bmc3")
            live = {"violated": "unsafe"}.get(live, live)
        else:
            j = tmp / (Path(r[0]).stem + "-j.aag")
            justice_version(f, j)
            live, lt = vk([str(j), "--justice", "0", "--engine", "ic3"])
            safe, st = vk([str(f), "--engine", "ic3"])
            a, at = abc(bin_, "pdr")
            live = {"holds": "safe"}.get(live, live)
        table.append((r[0], expected, live, lt, safe, st, a, at))
        print("\t".join(str(x) for x in table[-1]), flush=True)
    write(table)


def write(table):
    L = OPTS.limit
    up = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    rev = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                         capture_output=True, text=True).stdout.strip()
    cpu = open("/proc/cpuinfo").read()
    model = re.search(r"model name\s*:\s*(.*)", cpu)
    lines = [
        "# Hardware liveness: verikit lasso BMC (C12) and liveness-to-safety vs safety engines and ABC",
        "",
        f"- machine: {platform.system()} {platform.machine()}, {model.group(1) if model else '?'}, "
        f"{os.cpu_count()} cores — shared with other jobs and loaded while this ran",
        f"- date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; load at the end: `{up}`",
        f"- verikit {rev}, binary `{VERIKIT.relative_to(ROOT) if VERIKIT.is_relative_to(ROOT) else VERIKIT.name}`; limit L = {L:g} s per run (wall clock), times in CPU seconds",
        f"- inputs: every {OPTS.every}. `tniessen` row of `aiger/EXPECTED.tsv` ({len(table)} circuits)",
        "- unsafe rows: `--ltl 'G !o0' --engine bmc` (lasso) vs `--engine bmc` (safety) vs ABC `bmc3`;"
        " safe rows: justice `o0` infinitely often, `--justice 0 --engine ic3` (liveness-to-safety) vs"
        " `--engine ic3` (safety) vs ABC `pdr`. The verdict columns say `unsafe`/`safe` for"
        " violated/holds so they compare with `expected`.",
        "",
    ]
    for kind in ("unsafe", "safe"):
        sub = [x for x in table if x[1] == kind]
        if not sub:
            continue
        solved = [sum(1 for x in sub if x[k] != "–") for k in (2, 4, 6)]
        wrong = [sum(1 for x in sub if x[k] not in ("–", kind)) for k in (2, 4, 6)]
        ratio = [x[3] / x[5] for x in sub if x[2] != "–" and x[4] != "–" and x[5] > 0]
        ratio_a = [x[3] / x[7] for x in sub if x[2] != "–" and x[6] != "–" and x[7] > 0]
        med = lambda v: f"{statistics.median(v):.2f} ({len(v)} circuits)" if v else "–"
        lines += [
            f"## {kind} circuits ({len(sub)})",
            "",
            "| | liveness | safety (verikit) | ABC |",
            "|---|---|---|---|",
            f"| solved | {solved[0]} | {solved[1]} | {solved[2]} |",
            f"| wrong | {wrong[0]} | {wrong[1]} | {wrong[2]} |",
            f"| median CPU-time ratio liveness / this | – | {med(ratio)} | {med(ratio_a)} |",
            "",
            "| circuit | liveness | CPU s | safety | CPU s | ABC | CPU s |",
            "|---|---|---|---|---|---|---|",
        ]
        for f, _, lv, lt, sv, st, a, at in sub:
            lines.append(f"| {f} | {lv} | {lt:.2f} | {sv} | {st:.2f} | {a} | {at:.2f} |")
        lines.append("")
    out = BENCH / "results" / "hw-live.md"
    out.write_text("\n".join(lines))
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
