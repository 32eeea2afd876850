"""Horn clauses, linear and nonlinear (verikit prog chc) against z3's Spacer on the shared CHC-COMP tasks ->
bench/results/chc.md.

Every `.smt2` of ../shared/data/chc (the CHC-COMP 2025 selection with its expected answers in
MANIFEST.tsv, and extra-small-lia, all `sat`): verikit runs `prog chc FILE --timeout L --json`
(portfolio: Spacer, then IMPACT for a model and bounded model checking for a derivation on linear
systems), z3 runs `z3 -T:L FILE` (Spacer is z3's default HORN engine). CPU seconds of each
process from wait4 (harness.measure); PAR-2 counts an unsolved task as twice the limit. With
`--cpu` the limit is CPU time (RLIMIT_CPU) for both tools, with twice the limit of wall-clock
time; `--subset FILE` runs only the listed tasks (bench/engines/chc-subset.txt: the ones z3 solved
at 5 s of CPU or verikit in an earlier run); `--before BIN` also runs an earlier verikit binary on
each task in the same pass. The page's earlier runs are kept below the new one.

With `--emitted bench/.work/prog` also the Horn clauses verikit itself emits for the SV-COMP tasks
(`prog to-chc`, left there by bench/engines/prog.py), with the tasks' verdicts as the expected
answers (recursive tasks skipped: the cut call counts as an error); `--emitted-only` appends that
section to an existing chc.md.

usage: VERIKIT_BIN=target/release/verikit python3 bench/engines/chc.py [--limit S] [--cpu] [--only SUBSTR]
       [--subset FILE] [--before BIN] [--emitted DIR [--emitted-only]]
"""

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from harness import measure, verikit_cmd, machine, load_avg, load_words  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent.parent
DATA = Path(os.environ.get("VERIKIT_DATA", ROOT.parent / "shared" / "data"))
CHC = DATA / "chc"
Z3 = os.environ.get("Z3_BIN", str(ROOT / "bench" / ".venv" / "bin" / "z3"))

ARGS = argparse.ArgumentParser()
ARGS.add_argument("--limit", type=float, default=5.0, help="seconds per run")
ARGS.add_argument("--cpu", action="store_true", help="the limit is CPU time (RLIMIT_CPU for both tools, "
                  "wall-clock timeouts of twice the limit), not wall-clock time")
ARGS.add_argument("--subset", default="", help="only the tasks listed in this file (one path relative to chc/ "
                  "a line)")
ARGS.add_argument("--before", default="", help="also run this verikit binary (the version before a change) on "
                  "each task in the same pass, as the page's 'before' row")
ARGS.add_argument("--only", default="", help="only tasks whose path contains this")
ARGS.add_argument("--emitted", default="", help="also the CHC verikit emitted for the SV-COMP tasks "
                  "(the .smt2 files bench/engines/prog.py leaves in bench/.work/prog)")
ARGS.add_argument("--emitted-only", action="store_true", help="only the emitted CHC; append to chc.md")
OPTS = ARGS.parse_args()
SV = DATA / "sv"


def tasks() -> list[tuple[str, str, str]]:
    """(path relative to chc/, expected sat|unsat, track)."""
    out = []
    lines = (CHC / "MANIFEST.tsv").read_text().splitlines()
    for line in lines[1:]:
        f = line.split("\t")
        if len(f) > 4 and f[0].endswith(".smt2"):
            out.append((f[0], f[3], f[4]))
    seen = {t[0] for t in out}
    for p in sorted((CHC / "extra-small-lia").glob("*.smt2")):
        rel = str(p.relative_to(CHC))
        if rel not in seen:
            out.append((rel, "sat", "extra-small-lia"))
    keep = set(Path(OPTS.subset).read_text().split()) if OPTS.subset else None
    return [t for t in out if OPTS.only in t[0] and (keep is None or t[0] in keep)]


def emitted() -> list[tuple[Path, str]]:
    """(emitted file, expected sat|unsat) for the non-recursive SV-COMP tasks with a verdict."""
    out = []
    for f in sorted(Path(OPTS.emitted).glob("*.smt2")):
        text = f.read_text()
        if "; a recursive call beyond" in text or OPTS.only not in f.name:
            continue
        d, stem = f.stem.split("__", 1)
        yml = (SV / d / stem).with_suffix(".yml")
        lines = yml.read_text().splitlines() if yml.exists() else []
        for i, line in enumerate(lines):
            if "unreach-call.prp" in line and i + 1 < len(lines) and "expected_verdict" in lines[i + 1]:
                safe = lines[i + 1].split(":")[1].strip() == "true"
                out.append((f, "sat" if safe else "unsat"))
    return out


def run_verikit(cmd0: list[str], path: Path, limit: float) -> tuple[str, float, str]:
    """A verikit binary's answer, CPU time and reason (with spacer's note when another engine
    ran after it); with --cpu RLIMIT_CPU = limit and twice the limit of wall-clock time."""
    wall = 2 * limit if OPTS.cpu else limit
    cpu = limit if OPTS.cpu else None
    v = measure([*cmd0, "--json", "--timeout", f"{wall:g}", "prog", "chc", str(path)], timeout=wall + 10,
                cpu_limit=cpu)
    vword = "timeout" if v.timed_out else v.result.get("result", v.verdict)
    reason = v.result.get("reason", "") or v.result.get("engine", "")
    if v.result.get("spacer") and "spacer" not in reason:
        reason = f"{reason} ({v.result['spacer']})" if reason else v.result["spacer"]
    return vword, v.cpu_s, reason


def run_pair(path: Path, limit: float) -> tuple[str, float, str, str, float]:
    """verikit's answer, CPU time and reason (with spacer's note when another engine ran after it),
    then z3's answer and CPU time. With --cpu both get RLIMIT_CPU = limit and twice the limit of
    wall-clock time; a run stopped by either counts as a timeout."""
    wall = 2 * limit if OPTS.cpu else limit
    cpu = limit if OPTS.cpu else None
    vword, vcpu, reason = run_verikit(verikit_cmd(), path, limit)
    z = measure([Z3, f"-T:{int(wall)}", str(path)], timeout=wall + 10, cpu_limit=cpu)
    zword = "timeout" if z.timed_out else (z.stdout.strip().splitlines()[0] if z.stdout.strip() else "error")
    return vword, vcpu, reason, zword, z.cpu_s


LOAD0 = load_avg()


def main() -> None:
    limit = OPTS.limit
    erows = []
    if OPTS.emitted:
        for f, expected in emitted():
            vword, vcpu, reason, zword, zcpu = run_pair(f, limit)
            erows.append(dict(task=f.stem.replace("__", "/"), expected=expected, track="emitted", v=vword,
                              v_cpu=vcpu, reason=reason, z=zword, z_cpu=zcpu))
            print(f"{f.name}\t{expected}\t{vword}\t{vcpu:.2f}\t{zword}\t{zcpu:.2f}", flush=True)
    if OPTS.emitted_only:
        out = ROOT / "bench" / "results" / "chc.md"
        with out.open("a") as fh:
            fh.write("\n" + "\n".join(section(erows, limit, "verikit's own CHC (`prog to-chc` of the SV-COMP tasks)")) + "\n")
        print(f"appended to {out}")
        return
    rows = []
    for rel, expected, track in tasks():
        vword, vcpu, reason, zword, zcpu = run_pair(CHC / rel, limit)
        rows.append(dict(task=rel, expected=expected, track=track, v=vword, v_cpu=vcpu, reason=reason,
                         z=zword, z_cpu=zcpu))
        if OPTS.before:
            bword, bcpu, _ = run_verikit([OPTS.before], CHC / rel, limit)
            rows[-1].update(b=bword, b_cpu=bcpu)
        print(f"{rel}\t{expected}\t{vword}\t{vcpu:.2f}\t{zword}\t{zcpu:.2f}\t{reason}", flush=True)
    write(rows, limit, erows)


def section(rows: list[dict], limit: float, title: str) -> list[str]:
    vs = sum(solved(r["v"], r["expected"]) for r in rows)
    zs = sum(solved(r["z"], r["expected"]) for r in rows)
    vw = sum(wrong(r["v"], r["expected"]) for r in rows)
    zw = sum(wrong(r["z"], r["expected"]) for r in rows)
    par2_v = sum(r["v_cpu"] if solved(r["v"], r["expected"]) else 2 * limit for r in rows)
    par2_z = sum(r["z_cpu"] if solved(r["z"], r["expected"]) else 2 * limit for r in rows)
    both = [r for r in rows if solved(r["v"], r["expected"]) and solved(r["z"], r["expected"])]
    ratios = [r["v_cpu"] / max(r["z_cpu"], 1e-3) for r in both]
    med = lambda xs: f"{statistics.median(xs):.3f}" if xs else "–"  # noqa: E731
    lines = [f"## {title}", "",
             f"{len(rows)} files (non-recursive tasks with a verdict; `sat` = the task's `true`), limit {limit:g} s. "
             f"verikit solved {vs} (wrong {vw}), Spacer solved {zs} (wrong {zw}). PAR-2: verikit {par2_v:.1f} s, "
             f"Spacer {par2_z:.1f} s. On the {len(both)} both solve: median ratio verikit/Spacer {med(ratios)}.", "",
             "| file | expected | verikit | CPU s | Spacer | CPU s | ratio |", "|---|---|---|---:|---|---:|---:|"]
    for r in rows:
        ratio = f"{r['v_cpu'] / max(r['z_cpu'], 1e-3):.2f}" if r in both else ""
        lines.append(f"| {r['task']} | {r['expected']} | {r['v']} | {r['v_cpu']:.2f} | {r['z']} | {r['z_cpu']:.2f} | {ratio} |")
    return lines


def solved(word: str, expected: str) -> bool:
    return word == expected


def wrong(word: str, expected: str) -> bool:
    return word in ("sat", "unsat") and word != expected


def write(rows: list[dict], limit: float, erows: list[dict]) -> None:
    lines = ["# Horn clauses (linear and nonlinear): verikit prog chc and z3/Spacer", ""]
    kind = (f"{limit:g} s of CPU time per run (RLIMIT_CPU) and at most {2 * limit:g} s of wall-clock time, for "
            "both tools" if OPTS.cpu else f"{limit:g} s of wall-clock time per run")
    argv = " ".join("PREVIOUS_BIN" if a == OPTS.before else a for a in sys.argv[1:])
    lines.append(f"One run of `python3 bench/engines/chc.py {argv}` on "
                 f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {machine()}, **shared with other "
                 f"engineers' builds and {load_words(float(LOAD0.split('/')[0]))}** (load average at the start: {LOAD0}, at the end: "
                 f"{load_avg()}). Limit: {kind}; {len(rows)} tasks. Times are CPU "
                 f"seconds of each process (wait4). PAR-2 counts an unsolved task as {2 * limit:g} s. Spacer is "
                 "z3's default engine for `HORN`.")
    lines.append("")
    tracks = sorted({r["track"] for r in rows})
    lines += ["| track | tasks | verikit solved (sat+unsat) | verikit wrong | Spacer solved (sat+unsat) | Spacer wrong |",
              "|---|---:|---:|---:|---:|---:|"]
    for t in tracks + ["all"]:
        rs = [r for r in rows if t == "all" or r["track"] == t]
        vs = sum(solved(r["v"], r["expected"]) for r in rs)
        vsat = sum(solved(r["v"], r["expected"]) and r["v"] == "sat" for r in rs)
        zs = sum(solved(r["z"], r["expected"]) for r in rs)
        zsat = sum(solved(r["z"], r["expected"]) and r["z"] == "sat" for r in rs)
        vw = sum(wrong(r["v"], r["expected"]) for r in rs)
        zw = sum(wrong(r["z"], r["expected"]) for r in rs)
        lines.append(f"| {t} | {len(rs)} | {vs} ({vsat}+{vs - vsat}) | {vw} | {zs} ({zsat}+{zs - zsat}) | {zw} |")
    if OPTS.before:
        bs = sum(solved(r["b"], r["expected"]) for r in rows)
        bw = sum(wrong(r["b"], r["expected"]) for r in rows)
        lines += ["", f"Before (`--before`, the previous verikit on the same tasks in the same pass): solved {bs} "
                  f"(wrong {bw}); after: {sum(solved(r['v'], r['expected']) for r in rows)}.", "",
                  "| track | tasks | before solved | after solved |", "|---|---:|---:|---:|"]
        for t in tracks + ["all"]:
            rs = [r for r in rows if t == "all" or r["track"] == t]
            lines.append(f"| {t} | {len(rs)} | {sum(solved(r['b'], r['expected']) for r in rs)} | "
                         f"{sum(solved(r['v'], r['expected']) for r in rs)} |")
    par2_v = sum(r["v_cpu"] if solved(r["v"], r["expected"]) else 2 * limit for r in rows)
    par2_z = sum(r["z_cpu"] if solved(r["z"], r["expected"]) else 2 * limit for r in rows)
    both = [r for r in rows if solved(r["v"], r["expected"]) and solved(r["z"], r["expected"])]
    ratios = [r["v_cpu"] / max(r["z_cpu"], 1e-3) for r in both]
    med = lambda xs: f"{statistics.median(xs):.3f}" if xs else "–"  # noqa: E731
    lines += ["", f"PAR-2: verikit {par2_v:.1f} s, Spacer {par2_z:.1f} s. On the {len(both)} tasks both solve: "
              f"median CPU verikit {med([r['v_cpu'] for r in both])} s, Spacer {med([r['z_cpu'] for r in both])} s, "
              f"median ratio verikit/Spacer {med(ratios)}.", ""]
    reasons: dict[str, int] = {}
    for r in rows:
        if not solved(r["v"], r["expected"]):
            key = str(r["reason"]).split(" at line")[0].split(":")[0][:60]
            reasons[key] = reasons.get(key, 0) + 1
    lines += ["Why verikit did not answer (first words of the reason):", "",
              "| reason | tasks |", "|---|---:|"]
    for k, n in sorted(reasons.items(), key=lambda kv: -kv[1]):
        lines.append(f"| {k.replace('|', '/') or '(timeout)'} | {n} |")
    bcol = " before | CPU s |" if OPTS.before else ""
    lines += ["", f"| task | expected |{bcol} verikit | CPU s | engine / reason | Spacer | CPU s | ratio |",
              "|---|---|" + ("---|---:|" if OPTS.before else "") + "---|---:|---|---|---:|---:|"]
    for r in rows:
        ratio = f"{r['v_cpu'] / max(r['z_cpu'], 1e-3):.2f}" if r in both else ""
        reason = str(r["reason"]).replace("|", "/")[:90]
        b = f" {r['b']} | {r['b_cpu']:.2f} |" if OPTS.before else ""
        lines.append(f"| {r['task']} | {r['expected']} |{b} {r['v']} | {r['v_cpu']:.2f} | {reason} | {r['z']} | "
                     f"{r['z_cpu']:.2f} | {ratio} |")
    if erows:
        lines += [""] + section(erows, limit, "verikit's own CHC (`prog to-chc` of the SV-COMP tasks)")
    out = ROOT / "bench" / "results" / "chc.md"
    # The page's earlier runs stay below the new one, as its "before".
    old = out.read_text().split("\n", 1)[1].strip() if out.exists() else ""
    if old:
        lines += ["", "# Earlier runs", "", old.replace("\n## ", "\n### ").replace("\n# Earlier runs\n", "\n")]
    out.write_text("\n".join(lines) + "\n")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
