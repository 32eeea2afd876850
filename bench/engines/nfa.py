"""NFA engine benchmarks: verikit vs libmata.

Writes
  bench/results/nfa.md        ARMC inclusion problems (nfa/armc-incl), verikit `nfa incl` vs libmata
                              `is_included`, per problem;
  bench/results/nfa-grids.md  the SETTA'17 random-NFA grids (Fig. 3a-3f, reduced sample size) for
                              AC / HKC / HK and libmata `equivalence_check`, and the CAV'06 Table 1
                              universality grid (r = 2, f = 1) for backward / forward antichains,
                              the subset construction and libmata.

  bench/results/nfa-sim.md    simulation preorder (`nfa reduce --method sim`, LRT) vs the plain
                              fixed point (`--method sim-fixpoint`) and bisimulation, on the largest
                              ARMC and email-filter automata: time and reduced size.

  bench/results/nfa-symbolic.md  equivalence on email-filter pairs (`@NFA-bits`, 16 atoms): symbolic
                              HKC (`--algo hkc-bdd`, BDD letters) vs explicit HKC / antichains after
                              mintermisation vs libmata `equivalence_check`.

  bench/results/nfa-pre.md    preprocessing (SETTA'17 Fig. 4): HKC / AC inclusion on ARMC problems
                              plain, after saturation by similarity, after bisimulation quotienting.

  bench/results/nfa-symbolic-incl.md  inclusion on the same pairs: symbolic antichains
                              (`incl --algo antichain-bdd`) vs explicit antichains vs libmata `is_included`.

Usage: bash bench/run.sh nfa [--armc-only | --grids-only | --cav-only | --setta-only | --sim-only |
       --symbolic-only | --symbolic-incl-only | --pre-only]
       [--per-point N]
"""
from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from harness import DATA, BENCH, Table, machine, measure, peer_python, pip_version, verikit_cmd, verikit_version

ARGS = sys.argv[1:]
PER_POINT = int(ARGS[ARGS.index("--per-point") + 1]) if "--per-point" in ARGS else 10
TIMEOUT = 5.0
# SETTA grids: a tool stops at a point once its runs there have taken this long in total (the cell
# then says over how many automata it was measured).
POINT_BUDGET = float(ARGS[ARGS.index("--point-budget") + 1]) if "--point-budget" in ARGS else 90.0


def armc() -> None:
    d = DATA / "nfa" / "armc-incl"
    stems = sorted(p.name[: -len("-lhs.mata")] for p in d.glob("*-lhs.mata"))
    t = Table("nfa", "NFA language inclusion on the ARMC problems: verikit vs libmata",
              tools=["verikit", "libmata"])
    check_ratios = []
    for s in stems:
        lhs, rhs = d / f"{s}-lhs.mata", d / f"{s}-rhs.mata"
        runs = {"verikit": measure(verikit_cmd("--json", "nfa", "incl", lhs, rhs), timeout=120),
                "libmata": measure(peer_python("nfa_mata.py", "incl", str(lhs), str(rhs)), timeout=120)}
        extra = {"expected": "true" if s.startswith("true-") else "false"}
        v, m = runs["verikit"], runs["libmata"]
        if v.ok and m.ok:
            vc, mc = field(v.result, "check_s"), field(m.result, "check_s")
            if isinstance(vc, (int, float)) and isinstance(mc, (int, float)) and mc > 0:
                extra["check-only ratio"] = f"{vc / mc:.3f}"
                extra["verikit check s"] = f"{vc:.4f}"
                extra["libmata check s"] = f"{mc:.4f}"
                check_ratios.append(vc / mc)
        t.add(s, runs, extra)
    wrong = [n for n, r, e in t.rows if r["verikit"].ok and r["verikit"].verdict != e["expected"]]
    notes = [
        "Times (`s` columns, ratio) include parsing and mintermising both `@NFA-bits` files and the "
        "check, for both tools (libmata: `parser.from_mata([lhs, rhs], OnTheFlyAlphabet())` then "
        "`is_included(lhs, rhs, alphabet, {\"algorithm\": \"antichains\"})`). Python start-up and "
        "imports are excluded.",
        "The check-only columns compare the inclusion check alone (verikit: `check_s` around "
        "`included()`; libmata: the `is_included` call).",
    ]
    if check_ratios:
        notes.append(f"**Check-only: median ratio {statistics.median(check_ratios):.3f}, max "
                     f"{max(check_ratios):.3f}, min {min(check_ratios):.3f} over {len(check_ratios)} problems.**")
    notes.append(f"Answers differing from the file name (`true-`/`false-`): {len(wrong)} {wrong if wrong else ''}")
    t.write(versions={"verikit": verikit_version(), "libmata": pip_version("libmata")},
            notes="\n\n".join(notes),
            extra_cols=["expected", "verikit check s", "libmata check s", "check-only ratio"])


def gen(tmp: Path, n: int, k: int, d: float, f: float, seed: int, initial: int = 0) -> Path:
    out = tmp / f"q{n}-s{k}-d{d}-f{f}-{seed}-i{initial}.mata"
    if not out.exists():
        r = measure(verikit_cmd("nfa", "gen", "-n", n, "-k", k, "-r", d, "-f", f, "--seed", seed,
                                "--initial", initial, "-o", out), timeout=120)
        if r.rc != 0:
            raise SystemExit(f"gen failed: {r.stderr}")
    return out


def summarise(times: list[float | None]) -> str:
    ok = [x for x in times if x is not None]
    to = len(times) - len(ok)
    if not ok:
        return f"– ({to} t/o)"
    s = f"{statistics.median(ok) * 1000:.2f} / {statistics.mean(ok) * 1000:.2f}"
    if to:
        s += f" ({to} t/o)"
    return s


def field(result: dict, key: str, default=None):
    """A value of a verikit answer (top level, or under "times"/"stats" as `--json` prints them
    now) or of a peer's flat result."""
    if key in result:
        return result[key]
    for section in ("times", "stats"):
        sec = result.get(section)
        if isinstance(sec, dict) and key in sec:
            return sec[key]
    return default


def size_of(d) -> str:
    return f"{d['states']} ({d['transitions']})" if isinstance(d, dict) and "states" in d else "-"


def run_check(cmd: list[str], spent: dict[str, float] | None = None, key: str = "") -> float | None:
    t0 = time.monotonic()
    r = measure(cmd, timeout=TIMEOUT)
    if spent is not None:
        spent[key] = spent.get(key, 0.0) + time.monotonic() - t0
    if not r.ok:
        return None
    c = field(r.result, "check_s")
    return float(c) if isinstance(c, (int, float)) else r.time_s


def mata_batch(pairs: list[tuple[Path, Path]]) -> list[float | None]:
    """libmata `equivalence_check` on each pair in one Python process (imports once, one forked
    child per pair with the per-run timeout; same stopping rules as the verikit tools)."""
    import subprocess
    cmd = peer_python("nfa_mata_batch.py", "equiv", "--timeout", str(TIMEOUT), "--max-timeouts", "2",
                      "--budget", str(POINT_BUDGET))
    inp = "".join(f"{a} {b}\n" for a, b in pairs)
    p = subprocess.run([str(c) for c in cmd], input=inp, capture_output=True, text=True, timeout=3600)
    out: list[float | None] = []
    for line in p.stdout.splitlines():
        r = json.loads(line)
        if r.get("verdict") == "skipped" and len(out) >= 2 and out.count(None) < 2:
            break  # over the time budget: measured on fewer automata
        out.append(float(r["check_s"]) if r.get("verdict") in ("true", "false") else None)
    return out


def setta_grids(tmp: Path, out: list[str]) -> None:
    grids = [
        ("Fig. 3a: |Σ| = 2, d = 1.25", [(q, 2, 1.25) for q in (50, 150, 450, 1350)], True),
        ("Fig. 3b: |Q| = 150, d = 1.25", [(150, s, 1.25) for s in (2, 40, 800)], True),
        ("Fig. 3c: |Q| = 300, |Σ| = 10", [(300, 10, d) for d in (0.1, 0.4, 0.7, 1.0, 1.25, 1.5)], True),
        ("Fig. 3d: |Q| = 1000, |δ| = 2500", [(1000, 2, 1.25), (1000, 3, 0.833), (1000, 5, 0.5), (1000, 10, 0.25)], False),
        ("Fig. 3e: |Σ| = 2, |δ| = 2500", [(1000, 2, 1.25), (1250, 2, 1.0), (2500, 2, 0.5), (5000, 2, 0.25)], False),
        ("Fig. 3f: |Σ| = 50, |δ| = 25000", [(400, 50, 1.25), (500, 50, 1.0), (1000, 50, 0.5), (2000, 50, 0.25)], False),
    ]
    tools = {
        "AC": ["--algo", "antichain", "--no-prune"],
        "HKC": ["--algo", "hkc"],
        "HK": ["--algo", "hk"],
    }
    out += ["## SETTA'17 random NFAs (equivalence of two states of one automaton)", "",
            f"Tabakov–Vardi automata from `verikit nfa gen`, no accepting states, `A` = the automaton with "
            f"initial state 0, `B` = the same with initial state 1 (the paper's setting), {PER_POINT} "
            f"automata per point (the paper: 100), all algorithms with memoisation. Cells: median / mean "
            f"time of the check in ms (verikit `check_s`; libmata: the `equivalence_check` call), "
            f"`t/o` = no answer within {TIMEOUT:.0f} s (process wall clock; after two time-outs at a point a tool is not run on the rest of that point, and the skipped runs count as `t/o`); `[n=k]`: the tool's runs at that point took over {POINT_BUDGET:.0f} s in total (wall clock, process start-up included), so it was measured on the first k automata only. AC runs with `--no-prune`: "
            f"with no accepting state, verikit's default antichain inclusion removes every state as useless "
            f"and answers at once, which the paper explicitly avoids.", ""]
    for title, points, with_hk in grids:
        names = ["AC", "HKC"] + (["HK"] if with_hk else []) + ["libmata"]
        out += [f"### {title}", "", "| |Q| | |Σ| | d | " + " | ".join(names) + " |",
                "|---|---|---|" + "---|" * len(names)]
        for (q, s, d) in points:
            dead: set[str] = set()
            spent: dict[str, float] = {}
            over: set[str] = set()
            res: dict[str, list[float | None]] = {n: [] for n in names}
            pairs = []
            for seed in range(PER_POINT):
                a = gen(tmp, q, s, d, 0.0, seed, 0)
                b = gen(tmp, q, s, d, 0.0, seed, 1)
                pairs.append((a, b))
                for n in names:
                    if n in over or n == "libmata":
                        continue
                    if n in dead:
                        res[n].append(None)
                        continue
                    cmd = verikit_cmd("--json", "nfa", "equiv", *tools[n], a, b)
                    res[n].append(run_check(cmd, spent, n))
                for n in names:
                    if sum(1 for x in res[n] if x is None) >= 2:
                        dead.add(n)  # stop spending time on a tool that times out at this point
                    if spent.get(n, 0.0) > POINT_BUDGET and n not in dead:
                        over.add(n)  # measured on fewer automata at this (slow) point
            res["libmata"] = mata_batch(pairs)
            cell = lambda n: summarise(res[n]) + (f" [n={len(res[n])}]" if len(res[n]) < PER_POINT else "")
            row = f"| {q} | {s} | {d} | " + " | ".join(cell(n) for n in names) + " |"
            print(f"[nfa-grids] {title}: {row}", file=sys.stderr, flush=True)
            out.append(row)
        out.append("")


def cav_table1(tmp: Path, out: list[str]) -> None:
    sizes = [20, 40, 60, 80, 100, 175, 500, 1000, 1500, 2000, 2500, 3000, 3500, 4000]
    names = ["auto", "backward", "forward", "subset", "libmata"]
    out += ["## CAV'06 Table 1: universality, r = 2, f = 1", "",
            f"Tabakov–Vardi automata (|Σ| = 2, one initial state), {PER_POINT} per size. `auto` is the default "
            f"(a forward run of at most 128 sets, then backward). Cells: median / "
            f"mean time of the check in ms (`t/o`: over {TIMEOUT:.0f} s; after two time-outs at a size a tool is "
            f"not run on the rest of that size, and the skipped runs count as `t/o`), with the number of universal automata and the mean final "
            f"antichain size of the backward algorithm on the universal ones. `subset` is verikit's "
            f"subset construction (stops at the first rejecting macrostate); libmata has no universality "
            f"call in its Python API, so it checks `is_included(Σ*, A)` with antichains. The paper "
            f"(semi-symbolic antichains, 2006 hardware): 14 ms at 175 states, 13160 ms average at 4000.", "",
            "| states | " + " | ".join(names) + " | universal | antichain size |", "|---|" + "---|" * (len(names) + 2)]
    for n in sizes:
        dead: set[str] = set()
        res: dict[str, list[float | None]] = {k: [] for k in names}
        universal, sizes_ac = 0, []
        for seed in range(PER_POINT):
            a = gen(tmp, n, 2, 2.0, 1.0, 1000 + seed)
            for k in names:
                if k in dead:
                    res[k].append(None)
                    continue
                if k == "libmata":
                    cmd = peer_python("nfa_mata.py", "univ", str(a))
                    res[k].append(run_check(cmd))
                    continue
                r = measure(verikit_cmd("--json", "nfa", "univ", "--algo", k, a), timeout=TIMEOUT)
                if r.ok:
                    res[k].append(float(field(r.result, "check_s", r.time_s)))
                    if k == "backward" and r.verdict == "true":
                        universal += 1
                        sizes_ac.append(int(field(r.result, "size", 0)))
                else:
                    res[k].append(None)
            for k in names:
                if sum(1 for x in res[k] if x is None) >= 2:
                    dead.add(k)
        acs = f"{statistics.mean(sizes_ac):.0f}" if sizes_ac else "–"
        row = f"| {n} | " + " | ".join(summarise(res[k]) for k in names) + f" | {universal}/{PER_POINT} | {acs} |"
        print(f"[nfa-grids] CAV table 1: {row}", file=sys.stderr, flush=True)
        out.append(row)
    out.append("")


def grids() -> None:
    if "--cav-only" in ARGS or "--setta-only" in ARGS:
        return partial_grids()
    out = ["# NFA random-automata grids: verikit vs libmata", "",
           f"- machine: {machine()}", f"- date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}",
           f"- verikit: {verikit_version()}", f"- libmata: {pip_version('libmata')}", ""]
    with tempfile.TemporaryDirectory(prefix="verikit-nfa-bench-") as td:
        tmp = Path(td)
        cav_table1(tmp, out)
        setta_grids(tmp, out)
    p = BENCH / "results" / "nfa-grids.md"
    p.write_text("\n".join(out) + "\n")
    print(f"wrote {p}", file=sys.stderr)


def partial_grids() -> None:
    """Re-runs one of the two grid sections and replaces it in nfa-grids.md."""
    p = BENCH / "results" / "nfa-grids.md"
    text = p.read_text() if p.exists() else ""
    marker = "## SETTA'17 random NFAs"
    head, _, tail = text.partition(marker)
    out: list[str] = []
    with tempfile.TemporaryDirectory(prefix="verikit-nfa-bench-") as td:
        tmp = Path(td)
        if "--cav-only" in ARGS:
            cav_table1(tmp, out)
            start = head.find("## CAV'06 Table 1")
            head = (head[:start] if start >= 0 else head) + "\n".join(out) + "\n"
            text = head + marker + tail
        else:
            setta_grids(tmp, out)
            text = head + "\n".join(out) + "\n"
    p.write_text(text)
    print(f"wrote {p}", file=sys.stderr)


def sim_bench() -> None:
    rows = ["# Simulation preorder: Holík–Šimáček vs LRT vs the plain fixed point", "",
            f"Machine: {machine()}; verikit {verikit_version()}. Time = `time_s` inside `nfa reduce` "
            "(parse + simulation + quotient; `saturate`: parse + similarity by the default fixed point + saturation), median of 3 "
            "runs; sizes are states (transitions). `HS` = Holík–Šimáček (`--method sim-hs`), `LRT` = "
            "`--method sim-lrt`, `fix` = `--method sim-fixpoint`.", "",
            "| automaton | states (trans.) | HS s | LRT s | fix s | fix/HS | LRT/HS | bisim s | after sim | after bisim | saturated trans. |",
            "|---|---|---|---|---|---|---|---|---|---|---|"]
    files = []
    for sub, k in (("armc-incl", 8), ("email-filter", 8)):
        fs = sorted((DATA / "nfa" / sub).glob("*.mata"), key=lambda p: p.stat().st_size, reverse=True)
        files += [(sub, f) for f in fs[:k]]
    ratios, ratios_lrt = [], []
    for sub, f in files:
        res = {}
        for m in ("sim-hs", "sim-lrt", "sim-fixpoint", "bisim", "saturate"):
            ts, last = [], {}
            for _ in range(3):
                r = measure(verikit_cmd("--json", "nfa", "reduce", "--method", m, str(f), "-o", "/dev/null"),
                            timeout=120)
                if r.rc != 0 or not r.result:
                    break
                ts.append(field(r.result, "total_s", r.result.get("time_s")))
                last = r.result
            res[m] = (statistics.median(ts) if ts else None, last)
        size = lambda d, k: size_of(d.get(k, {}).get("a", d.get(k)))
        res["sim"] = res["sim-hs"]
        t = {m: res[m][0] for m in res}
        ratio = t["sim-fixpoint"] / t["sim"] if t["sim"] and t["sim-fixpoint"] else None
        ratio_l = t["sim-lrt"] / t["sim"] if t["sim"] and t["sim-lrt"] else None
        if ratio:
            ratios.append(ratio)
        if ratio_l:
            ratios_lrt.append(ratio_l)
        fmt = lambda x: f"{x:.3f}" if x is not None else "fail"
        sat = res["saturate"][1].get("reduced", {}).get("transitions", "-") if res["saturate"][1] else "-"
        rows.append(f"| {sub}/{f.name} | {size(res['sim'][1], 'input')} | {fmt(t['sim'])} | {fmt(t['sim-lrt'])} "
                    f"| {fmt(t['sim-fixpoint'])} | {fmt(ratio)} | {fmt(ratio_l)} | {fmt(t['bisim'])} "
                    f"| {size(res['sim'][1], 'reduced')} | {size(res['bisim'][1], 'reduced')} | {sat} |")
        print(rows[-1], file=sys.stderr, flush=True)
    if ratios:
        rows += ["", f"Median ratio fixed point / HS: {statistics.median(ratios):.2f} "
                 f"(min {min(ratios):.2f}, max {max(ratios):.2f}); LRT / HS: {statistics.median(ratios_lrt):.2f} "
                 f"(min {min(ratios_lrt):.2f}, max {max(ratios_lrt):.2f}) over {len(ratios)} automata."]
    p = BENCH / "results" / "nfa-sim.md"
    p.write_text("\n".join(rows) + "\n")
    print(f"wrote {p}", file=sys.stderr)


def symbolic_bench() -> None:
    d = DATA / "nfa" / "email-filter"
    pairs = [(i, (i * 7 + 3) % 75) for i in range(0, 75, 5)] + [(i, i) for i in (5, 7, 40)]
    t = Table("nfa-symbolic", "NFA equivalence on email-filter pairs: symbolic HKC (BDD letters) vs "
              "explicit algorithms after mintermisation vs libmata", ["hkc-bdd", "hkc", "antichain", "libmata"],
              baseline="hkc-bdd")
    for i, j in pairs:
        a, b = d / f"aut{i}.mata", d / f"aut{j}.mata"
        runs = {al: measure(verikit_cmd("--json", "nfa", "equiv", "--algo", al, str(a), str(b)), timeout=60)
                for al in ("hkc-bdd", "hkc", "antichain")}
        runs["libmata"] = measure(peer_python("nfa_mata.py", "equiv", str(a), str(b)), timeout=60)
        t.add(f"aut{i} ≡ aut{j}", runs)
    t.write({"libmata": pip_version("libmata")},
            notes="Times are `time_s` inside each tool (parsing included: the explicit algorithms and "
                  "libmata mintermise the 16-bit labels, hkc-bdd builds BDDs instead). Short run.")


def pre_bench() -> None:
    """SETTA'17 §4.4 / Fig. 4: HKC and AC on the ARMC inclusion problems without preprocessing
    ("Plain"), after saturation w.r.t. similarity ("Sim") and after bisimulation quotienting
    ("Bisim"); total check time including the preprocessing."""
    d = DATA / "nfa" / "armc-incl"
    stems = sorted(p.name[: -len("-lhs.mata")] for p in d.glob("*-lhs.mata"))
    step = max(1, len(stems) // 12)
    stems = stems[::step]
    combos = [(al, pre) for al in ("hkc", "antichain") for pre in ("none", "sim", "bisim")]
    rows = ["# Preprocessing before inclusion checks: plain vs saturation by similarity vs bisimulation "
            "quotient (SETTA'17 §3.5, §4.4)", "",
            f"Machine: {machine()}; verikit {verikit_version()}. ARMC inclusion problems "
            f"({len(stems)} of them: every {step}th in name order). Cells: `check_s` "
            "(preprocessing + check, parsing excluded) in seconds, `t/o` over 30 s (process wall clock). `sim` saturates "
            "both automata w.r.t. the similarity of A ⊕ B (`--pre sim`), `bisim` quotients both by "
            "bisimilarity (`--pre bisim`).", "",
            "| problem | " + " | ".join(f"{al} {pre}" for al, pre in combos) + " |",
            "|---|" + "---|" * len(combos)]
    totals = {c: 0.0 for c in combos}
    touts = {c: 0 for c in combos}
    for st in stems:
        lhs, rhs = d / f"{st}-lhs.mata", d / f"{st}-rhs.mata"
        cells = []
        for al, pre in combos:
            r = measure(verikit_cmd("--json", "nfa", "incl", "--algo", al, "--pre", pre, lhs, rhs), timeout=30)
            if r.ok and isinstance(field(r.result, "check_s"), (int, float)):
                c = float(field(r.result, "check_s"))
                totals[(al, pre)] += c
                cells.append(f"{c:.4f}")
            else:
                touts[(al, pre)] += 1
                totals[(al, pre)] += 30.0
                cells.append("t/o")
        rows.append(f"| {st} | " + " | ".join(cells) + " |")
        print(rows[-1], file=sys.stderr, flush=True)
    rows += ["", "| total (t/o counted as 30 s) | " + " | ".join(
        f"{totals[c]:.2f}" + (f" ({touts[c]} t/o)" if touts[c] else "") for c in combos) + " |"]
    p = BENCH / "results" / "nfa-pre.md"
    p.write_text("\n".join(rows) + "\n")
    print(f"wrote {p}", file=sys.stderr)


def symbolic_incl_bench() -> None:
    d = DATA / "nfa" / "email-filter"
    pairs = [(i, (i * 7 + 3) % 75) for i in range(0, 75, 5)] + [(i, i) for i in (5, 7, 10, 40, 69, 72)]
    t = Table("nfa-symbolic-incl", "NFA inclusion on email-filter pairs: symbolic antichains (BDD letters) vs "
              "explicit antichains after mintermisation vs libmata", ["antichain-bdd", "antichain", "libmata"],
              baseline="antichain-bdd")
    for i, j in pairs:
        a, b = d / f"aut{i}.mata", d / f"aut{j}.mata"
        runs = {al: measure(verikit_cmd("--json", "nfa", "incl", "--algo", al, str(a), str(b)), timeout=60)
                for al in ("antichain-bdd", "antichain")}
        runs["libmata"] = measure(peer_python("nfa_mata.py", "incl", str(a), str(b)), timeout=60)
        t.add(f"aut{i} ⊆ aut{j}", runs)
    t.write({"libmata": pip_version("libmata")},
            notes="Times are `time_s` inside each tool (parsing included: the explicit antichains and "
                  "libmata `is_included` mintermise the 16-bit labels, antichain-bdd builds BDDs instead). "
                  "The self-inclusions `autN ⊆ autN` hold and make the antichain algorithms explore; the "
                  "other pairs fail after a few steps. Short run.")


if __name__ == "__main__":
    if "--symbolic-only" in ARGS:
        symbolic_bench()
        sys.exit(0)
    if "--pre-only" in ARGS:
        pre_bench()
        sys.exit(0)
    if "--symbolic-incl-only" in ARGS:
        symbolic_incl_bench()
        sys.exit(0)
    if "--sim-only" in ARGS:
        sim_bench()
        sys.exit(0)
    if not any(f in ARGS for f in ("--grids-only", "--cav-only", "--setta-only")):
        armc()
    if "--armc-only" not in ARGS:
        grids()
