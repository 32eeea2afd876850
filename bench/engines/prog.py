"""Program verification (verikit prog verify) on the shared SV-COMP tasks, and z3's Spacer on the
CHC that verikit emits for each C task -> bench/results/prog.md.

Every task of ../shared/data/sv with an `unreach-call` property: verikit runs
`prog verify TASK.yml --timeout L` (portfolio: cegar, then IMPACT where the program has loops, then BMC;
bounded summaries, Spacer, then BMC where it is recursive);
`prog to-chc FILE.c` writes the program's Horn clauses (recursion inlined to depth 1, deeper calls
through procedure summaries; a call cut without a summary counts as an error and Spacer's
`unsat` is then not counted) and `z3 -T:L` solves them (Spacer is z3's default HORN engine).
CPU times of the child processes; PAR-2 counts an unsolved task as twice the limit.

With `--cpu` the limit is CPU time (RLIMIT_CPU for both tools, twice the limit of wall-clock
time), so that the load of a shared machine decides less of the count.

usage: VERIKIT_BIN=target/release/verikit python3 bench/engines/prog.py [--limit S] [--cpu] [--only SUBSTR]
       [--engines impact,cegar] [--engines-dirs DIRS] [--spacer-dirs DIRS]
"""

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from harness import load_words, measure  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent.parent
DATA = Path(os.environ.get("VERIKIT_DATA", ROOT.parent / "shared" / "data"))
SV = DATA / "sv"
VERIKIT = os.environ.get("VERIKIT_BIN", str(ROOT / "target" / "release" / "verikit"))
Z3 = os.environ.get("Z3_BIN", str(ROOT / "bench" / ".venv" / "bin" / "z3"))

ARGS = argparse.ArgumentParser()
ARGS.add_argument("--limit", type=float, default=5.0, help="seconds per run")
ARGS.add_argument("--only", default="", help="only tasks whose path contains this")
ARGS.add_argument("--out", default=str(ROOT / "bench" / "results" / "prog.md"), help="the results page to write")
ARGS.add_argument("--engines", default="impact,cegar,kind",
                  help="single engines also run on every task (the IMPACT-vs-CEGAR comparison of C14)")
ARGS.add_argument("--engines-dirs", default="", help="comma-separated directories the single engines run on (default: all)")
ARGS.add_argument("--spacer-dirs", default="", help="comma-separated directories z3/Spacer runs on (default: all)")
ARGS.add_argument("--cpu", action="store_true", help="the limit is CPU time (RLIMIT_CPU, twice the limit of wall-clock time)")
OPTS = ARGS.parse_args()


def wall(limit: float) -> float:
    return 2 * limit if OPTS.cpu else limit


def cpu_run(cmd: list[str], limit: float) -> tuple[float, int, str, str]:
    r = measure(cmd, timeout=wall(limit) + 5, cpu_limit=limit if OPTS.cpu else None)
    code = -9 if r.timed_out else r.rc
    return r.cpu_s, code, r.stdout, r.stderr


def in_dirs(yml: Path, dirs: str) -> bool:
    return not dirs or yml.parent.name in dirs.split(",")


def tasks() -> list[tuple[Path, bool]]:
    out = []
    for yml in sorted(SV.glob("*/*.yml")):
        if OPTS.only and OPTS.only not in str(yml):
            continue
        text = yml.read_text()
        lines = text.splitlines()
        for i, line in enumerate(lines):
            if "unreach-call.prp" in line and i + 1 < len(lines) and "expected_verdict" in lines[i + 1]:
                out.append((yml, lines[i + 1].split(":")[1].strip() == "true"))
    return out


def main() -> None:
    rows = []
    work = ROOT / "bench" / ".work" / "prog"
    work.mkdir(parents=True, exist_ok=True)
    limit = OPTS.limit
    started = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    load0 = os.getloadavg()[0]
    for yml, expected in tasks():
        cpu, code, out, err = cpu_run([VERIKIT, "--json", "--timeout", str(wall(limit)), "prog", "verify", str(yml)], limit)
        try:
            v = json.loads(out)
        except json.JSONDecodeError:
            v = {"verdict": "timeout" if code == -9 else "error"}
        verdict = v.get("verdict", "error")
        reason = v.get("reason", "") or v.get("engine", "")
        c_file = Path(v.get("input", {}).get("file", yml.with_suffix(".c")))
        chc = work / (yml.parent.name + "__" + yml.stem + ".smt2")
        _, ccode, cout, cerr = cpu_run([VERIKIT, "prog", "to-chc", str(c_file)], 60)
        z3_verdict, z3_cpu, recursive = "no-chc", None, "; a recursive call beyond" in cout
        if not in_dirs(yml, OPTS.spacer_dirs):
            z3_verdict = "not run"
        elif ccode == 0 and cout.strip():
            chc.write_text(cout)
            z3_cpu, zcode, zout, _ = cpu_run([Z3, f"-T:{int(wall(limit))}", str(chc)], limit)
            word = zout.strip().splitlines()[0] if zout.strip() else "error"
            z3_verdict = {"sat": "true", "unsat": "false"}.get(word, "timeout" if word in ("timeout", "unknown") else word)
            if z3_verdict == "false" and recursive:
                z3_verdict = "unknown"  # the cut recursive call counts as an error
        per_engine = {}
        for eng in [e for e in OPTS.engines.split(",") if e and in_dirs(yml, OPTS.engines_dirs)]:
            ecpu, _, eout, _ = cpu_run([VERIKIT, "--json", "--timeout", str(wall(limit)), "prog", "verify", str(yml),
                                        "--engine", eng, "--no-replay"], limit)
            try:
                ev = json.loads(eout)
            except json.JSONDecodeError:
                ev = {"verdict": "error"}
            per_engine[eng] = (ev.get("verdict", "error"), ecpu, ev.get("refinements"))
        rows.append(dict(task=f"{yml.parent.name}/{yml.stem}", expected=expected, verdict=verdict,
                         cpu=cpu, reason=reason, z3=z3_verdict, z3_cpu=z3_cpu, engines=per_engine))
        print(f"{rows[-1]['task']}\t{expected}\t{verdict}\t{cpu:.2f}\t{z3_verdict}\t{z3_cpu}", flush=True)
    write(rows, limit, started)


def solved(verdict: str, expected: bool) -> bool:
    return verdict == ("true" if expected else "false")


def wrong(verdict: str, expected: bool) -> bool:
    return verdict in ("true", "false") and not solved(verdict, expected)


def write(rows: list[dict], limit: float, started: str) -> None:
    up = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    lines = ["# Program verification: verikit prog verify and z3/Spacer on verikit's CHC", ""]
    kind = f"{limit:g} CPU seconds (RLIMIT_CPU; {wall(limit):g} s wall-clock at most)" if OPTS.cpu else f"{limit:g} s wall-clock"
    lines.append(f"Run of `python3 bench/engines/prog.py {' '.join(sys.argv[1:])}` on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
                 f"limit {kind}, {platform.machine()} with {os.cpu_count()} cores, **shared with other builds and {load_words(load0)}** "
                 f"(`uptime` at the start: `{started}`; at the end: `{up}`). Times are CPU seconds of the child process. PAR-2 counts an "
                 f"unsolved task as {2 * limit:g} s. Spacer solves the CHC that `verikit prog to-chc` writes for the "
                 "task's C file (recursion inlined to depth 1 and deeper calls through procedure summaries, so `unsat` is a real bug; a call cut without a summary counts as an error; `no-chc` where the "
                 "front end answers `unknown` or the clauses would be too large).")
    lines.append("")
    dirs = sorted({r["task"].split("/")[0] for r in rows})
    lines += ["| directory | tasks | verikit solved (true+false) | verikit wrong | Spacer solved | Spacer wrong |", "|---|---:|---:|---:|---:|---:|"]
    for d in dirs + ["all"]:
        rs = [r for r in rows if d == "all" or r["task"].startswith(d + "/")]
        vs = sum(solved(r["verdict"], r["expected"]) for r in rs)
        vt = sum(r["verdict"] == "true" and r["expected"] for r in rs)
        vw = sum(wrong(r["verdict"], r["expected"]) for r in rs)
        zs = sum(solved(r["z3"], r["expected"]) for r in rs)
        zw = sum(wrong(r["z3"], r["expected"]) for r in rs)
        lines.append(f"| {d} | {len(rs)} | {vs} ({vt}+{vs - vt}) | {vw} | {zs} | {zw} |")
    par2_v = sum(r["cpu"] if solved(r["verdict"], r["expected"]) else 2 * limit for r in rows)
    par2_z = sum((r["z3_cpu"] or 0) if solved(r["z3"], r["expected"]) else 2 * limit for r in rows)
    both = [r for r in rows if solved(r["verdict"], r["expected"]) and solved(r["z3"], r["expected"])]
    ratios = [r["cpu"] / max(r["z3_cpu"], 1e-3) for r in both]
    lines += ["", f"PAR-2: verikit {par2_v:.1f} s, Spacer {par2_z:.1f} s. "
              f"On the {len(both)} tasks both solve: median CPU verikit {statistics.median([r['cpu'] for r in both]) if both else float('nan'):.3f} s, "
              f"Spacer {statistics.median([r['z3_cpu'] for r in both]) if both else float('nan'):.3f} s, "
              f"median ratio verikit/Spacer {statistics.median(ratios) if ratios else float('nan'):.2f}.", ""]
    engines = [e for e in OPTS.engines.split(",") if e]
    if engines:
        lines += ["## Single engines (the CAV'06 IMPACT paper's comparison: IMPACT vs predicate abstraction)", "",
                  "Each engine alone (`--engine E`, no portfolio), same limit. Median CPU over the tasks the engine solves.", "",
                  "| engine | solved (true+false) | wrong | PAR-2 s | median CPU s (solved) |", "|---|---:|---:|---:|---:|"]
        for e in engines:
            rs = [(r["engines"][e], r["expected"]) for r in rows if e in r.get("engines", {})]
            sv = [x for x in rs if solved(x[0][0], x[1])]
            st = sum(1 for x in sv if x[0][0] == "true")
            wr = sum(1 for x in rs if wrong(x[0][0], x[1]))
            p2 = sum(x[0][1] if solved(x[0][0], x[1]) else 2 * limit for x in rs)
            md = statistics.median([x[0][1] for x in sv]) if sv else float("nan")
            lines.append(f"| {e} | {len(sv)} ({st}+{len(sv) - st}) | {wr} | {p2:.1f} | {md:.3f} |")
        erows = [r for r in rows if all(e in r["engines"] for e in engines)]
        if "impact" in engines and "cegar" in engines:
            rows_all, rows = rows, erows
            both = [r for r in rows if solved(r["engines"]["impact"][0], r["expected"]) and solved(r["engines"]["cegar"][0], r["expected"])]
            only_i = [r["task"] for r in rows if solved(r["engines"]["impact"][0], r["expected"]) and not solved(r["engines"]["cegar"][0], r["expected"])]
            only_c = [r["task"] for r in rows if solved(r["engines"]["cegar"][0], r["expected"]) and not solved(r["engines"]["impact"][0], r["expected"])]
            rat = [r["engines"]["cegar"][1] / max(r["engines"]["impact"][1], 1e-3) for r in both]
            lines += ["", f"Both solve {len(both)}; median CPU ratio cegar/impact on those "
                      f"{statistics.median(rat) if rat else float('nan'):.2f}. Only IMPACT: {', '.join(only_i) or 'none'}. "
                      f"Only cegar: {', '.join(only_c) or 'none'}.", ""]
            rows = rows_all
        head = " | ".join(f"{e} | CPU s" for e in engines)
        lines += [f"| task | expected | {head} |", "|---|---|" + "---|---:|" * len(engines)]
        for r in erows:
            cells = " | ".join(f"{r['engines'][e][0]} | {r['engines'][e][1]:.2f}" for e in engines if e in r["engines"])
            lines.append(f"| {r['task']} | {str(r['expected']).lower()} | {cells} |")
        lines += ["", "## Portfolio and Spacer per task", ""]
    lines += ["| task | expected | verikit | CPU s | engine / reason | Spacer | CPU s | ratio |", "|---|---|---|---:|---|---|---:|---:|"]
    for r in rows:
        zc = f"{r['z3_cpu']:.2f}" if r["z3_cpu"] is not None else "–"
        ratio = f"{r['cpu'] / max(r['z3_cpu'], 1e-3):.2f}" if r["z3_cpu"] is not None and solved(r["verdict"], r["expected"]) and solved(r["z3"], r["expected"]) else ""
        reason = str(r["reason"]).replace("|", "/")[:70]
        lines.append(f"| {r['task']} | {str(r['expected']).lower()} | {r['verdict']} | {r['cpu']:.2f} | {reason} | {r['z3']} | {zc} | {ratio} |")
    out = Path(OPTS.out)
    out.write_text("\n".join(lines) + "\n")
    out.with_suffix(".json").write_text(json.dumps(rows, indent=1))
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
