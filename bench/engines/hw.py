"""Hardware model checking (verikit aig check) against ABC -> bench/results/hw.md.

For the circuits of ../shared/data/aiger (every `--every`-th row of EXPECTED.tsv, default all):
verikit `aig check FILE` (the portfolio: BMC then EverLost in one thread next to IC3;
CPU times count both threads) and ABC's `pdr` under AIGER 1.9 semantics
(`read; logic; undc; strash; zero; fold; pdr -T L`: uninitialised latches made free inputs, then
constraints folded in), each with the same limit. `.aag` files are converted to binary AIGER by
`verikit aig convert` first (this ABC build cannot read ASCII AIGER). Times are CPU seconds
(user + system, from wait4) of each process; PAR-2 counts an unsolved run as twice the limit.
The page's "Before and after" section is kept, with the summary of the page being replaced
added to it as a row.

usage: python3 bench/engines/hw.py [--limit S] [--every N | --files LIST] [--out PAGE] [--abc berkeley-abc]
       [--cpu [--wall-factor F]]

`--files LIST`: the circuits named in LIST (one `file` column value of EXPECTED.tsv per line)
instead of every N-th row, e.g. the ones either tool did not solve at a shorter limit, written to
`--out` (default hw.md) under bench/results.

`--cpu`: the limit is CPU time for both tools (RLIMIT_CPU = limit, counting both of verikit's
threads), with F times the limit (default 3) of wall-clock time as `--timeout` / `pdr -T`: on a
loaded machine each tool then gets the same CPU whatever the load, and a run the kernel stops at
the CPU limit counts as unsolved.
"""

import argparse
import csv
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
ARGS.add_argument("--limit", type=float, default=10.0)
ARGS.add_argument("--every", type=int, default=1)
ARGS.add_argument("--files", default=None)
ARGS.add_argument("--out", default="hw.md")
ARGS.add_argument("--abc", default="berkeley-abc")
ARGS.add_argument("--cpu", action="store_true")
ARGS.add_argument("--wall-factor", type=float, default=3.0)
OPTS = ARGS.parse_args()


def wall():
    """The tools' own wall-clock limit: the limit, or with --cpu the wall factor times it."""
    return OPTS.limit * OPTS.wall_factor if OPTS.cpu else OPTS.limit


def run(cmd, limit):
    """(stdout, cpu seconds, timed out) of one process, killed after `limit` + 2 s of wall time
    (the harness's `measure`), and with --cpu after the limit's CPU seconds (RLIMIT_CPU)."""
    r = measure(cmd, timeout=limit + 2, cpu_limit=OPTS.limit if OPTS.cpu else None)
    return r.stdout, r.cpu_s, r.timed_out


def verikit(f):
    out, cpu, to = run([str(VERIKIT), "--json", "--timeout", f"{wall():g}", "aig", "check", str(f)],
                       wall())
    m = re.search(r'"result":\s*"(safe|unsafe)"', out)
    return (m.group(1) if m and not to else "–"), cpu


def abc(f):
    script = f"read {f}; logic; undc; strash; zero; fold; pdr -T {int(wall())}"
    out, cpu, to = run([OPTS.abc, "-c", script], wall())
    if to:
        return "–", cpu
    if "Property proved" in out:
        return "safe", cpu
    if re.search(r"Output \d+ of miter .* was asserted|was asserted in frame|Counter-example", out):
        return "unsafe", cpu
    return "–", cpu


def uptime():
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def main():
    start_load = uptime()
    rows = list(csv.DictReader(open(DATA / "EXPECTED.tsv"), delimiter="\t"))
    if OPTS.files:
        wanted = {line.strip() for line in open(OPTS.files) if line.strip()}
        rows = [r for r in rows if r["file"] in wanted]
    else:
        rows = rows[:: OPTS.every]
    tmp = Path(tempfile.mkdtemp())
    table = []
    for r in rows:
        f = DATA / r["file"]
        g = f
        if f.suffix == ".aag":
            g = tmp / (f.stem + ".aig")
            subprocess.run([str(VERIKIT), "aig", "convert", str(f), "-o", str(g)], check=True,
                           stdout=subprocess.DEVNULL)
        v, vt = verikit(f)
        a, at = abc(g)
        table.append((r["file"], r["expected"], v, vt, a, at))
        print(f"{r['file']}\t{r['expected']}\tverikit={v} {vt:.2f}s\tabc={a} {at:.2f}s", flush=True)
    write(table, start_load)


def load_of(line):
    m = re.search(r"load average: ([0-9.]+)", line)
    return m.group(1) if m else "?"


def previous_page(path):
    """The old page's "Before and after" section (heading to the next heading) and its summary
    as one table row, or ([], None) when there is no old page."""
    if not path.exists():
        return [], None
    old = path.read_text().splitlines()
    section, inside = [], False
    for line in old:
        if line.startswith("## "):
            inside = line.startswith("## Before and after")
        if inside:
            section.append(line)
    text = "\n".join(old)
    get = lambda pat: (re.search(pat, text) or [None, "?"])[1]  # noqa: E731
    rev = get(r"- verikit (\w+)")
    inputs = get(r"- inputs: ([^;]*);")
    limit = get(r"limit L = ([0-9.]+) s")
    solved = get(r"\| solved \| (\d+) \|")
    abc_solved = get(r"\| solved \| \d+ \| (\d+) \|")
    su = get(r"\| solved safe / unsafe \| (\d+ / \d+) \|")
    par = re.search(r"\| PAR-2 \(s\) \| ([0-9.]+) \| ([0-9.]+) \|", text)
    med = get(r"median ([0-9.]+)")
    loads = re.findall(r"load average: ([0-9.]+)", text)
    row = (f"| previous page ({rev}; {inputs}, {limit} s) | about {'–'.join(loads) or '?'} | "
           f"{solved} ({su.replace(' / ', '/')}) | {abc_solved} | "
           f"{par.group(1) + ' / ' + par.group(2) if par else '?'} | {med} |")
    return section, row


def par2(ts, solved, limit):
    return sum(t if s else 2 * limit for t, s in zip(ts, solved)) / max(1, len(ts))


def write(table, start_load):
    L = OPTS.limit
    vs = [v != "–" for _, _, v, _, _, _ in table]
    ab = [a != "–" for _, _, _, _, a, _ in table]
    wrong_v = sum(1 for _, e, v, *_ in table if v != "–" and v != e)
    wrong_a = sum(1 for _, e, _, _, a, _ in table if a != "–" and a != e)
    both = [(vt / at) for _, _, v, vt, a, at in table if v != "–" and a != "–" and at > 0]
    cpu = open("/proc/cpuinfo").read()
    model = re.search(r"model name\s*:\s*(.*)", cpu)
    up = uptime()
    rev = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                         capture_output=True, text=True).stdout.strip()
    abcv = subprocess.run(["dpkg-query", "-W", "-f=${Version}", "berkeley-abc"],
                          capture_output=True, text=True).stdout.strip()
    lines = [
        "# Hardware model checking: verikit `aig check` vs ABC `pdr`",
        "",
        f"- machine: {platform.system()} {platform.machine()}, {model.group(1) if model else '?'}, "
        f"{os.cpu_count()} cores, possibly shared with other jobs (see the load below)",
        f"- date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; load at the start: "
        f"`{start_load}`, at the end: `{up}`",
        f"- verikit {rev} (portfolio: BMC then EverLost in one thread next to IC3, both threads' CPU time counted; "
        f"default parameters); ABC (Debian berkeley-abc {abcv}): "
        "`read; logic; undc; strash; zero; fold; pdr -T L`",
        (f"- inputs: the circuits listed in `{Path(OPTS.files).name}` ({len(table)} circuits); " if OPTS.files else
         f"- inputs: every {OPTS.every}. row of `aiger/EXPECTED.tsv` ({len(table)} circuits); ") +
        f"limit L = {L:g} s per tool and circuit; times are CPU seconds (user + system)",
        "- PAR-2: mean time with every unsolved run counted as 2·L; ratio = verikit / ABC on circuits both solved",
        (f"- the limit is CPU time: RLIMIT_CPU = L for each process (verikit's two threads together), with "
         f"{wall():g} s of wall clock (`--timeout` / `pdr -T`); a run stopped at the CPU limit is unsolved"
         if OPTS.cpu else
         "- the limit is wall-clock (`--timeout L` / `pdr -T L`); verikit's portfolio runs two threads, so with "
         "idle cores it can use up to 2·L CPU seconds where ABC uses L (its CPU column counts both threads)"),
        "",
        "## Summary",
        "",
        "| | verikit | ABC pdr |",
        "|---|---|---|",
        f"| solved | {sum(vs)} | {sum(ab)} |",
        f"| solved safe / unsafe | {sum(1 for x in table if x[2] == 'safe')} / {sum(1 for x in table if x[2] == 'unsafe')} "
        f"| {sum(1 for x in table if x[4] == 'safe')} / {sum(1 for x in table if x[4] == 'unsafe')} |",
        f"| wrong (vs EXPECTED.tsv) | {wrong_v} | {wrong_a} |",
        f"| PAR-2 (s) | {par2([x[3] for x in table], vs, L):.2f} | {par2([x[5] for x in table], ab, L):.2f} |",
        "",
        (f"Both solved {len(both)} circuits; CPU-time ratio verikit/ABC: median {statistics.median(both):.2f}, "
         f"min {min(both):.2f}, max {max(both):.2f}." if both else "No circuit solved by both."),
        f"Verdicts agree with each other on every circuit both solved: "
        f"{all(x[2] == x[4] for x in table if x[2] != '–' and x[4] != '–')}.",
        "",
    ]
    out = BENCH / "results" / OPTS.out
    section, row = previous_page(out)
    if section:
        # the old section's table ends at its last row: the replaced page goes after it
        last = max(i for i, line in enumerate(section) if line.startswith("|"))
        section.insert(last + 1, row)
        lines += section + [""]
    ab_only = [x[0] for x in table if x[2] == "–" and x[4] != "–"]
    lines += [
        f"This run (load {load_of(start_load)} at the start, {load_of(up)} at the end): "
        f"solved by ABC and not by verikit: {', '.join('`' + Path(f).stem + '`' for f in ab_only) or 'none'}.",
        "",
        "## Per circuit",
        "",
        "| circuit | expected | verikit | CPU s | ABC pdr | CPU s | ratio |",
        "|---|---|---|---|---|---|---|",
    ]
    for f, e, v, vt, a, at in table:
        ratio = f"{vt / at:.2f}" if v != "–" and a != "–" and at > 0 else "–"
        lines.append(f"| {f} | {e} | {v} | {vt:.2f} | {a} | {at:.2f} | {ratio} |")
    out.write_text("\n".join(lines) + "\n")
    print(f"wrote {out}")


main()
