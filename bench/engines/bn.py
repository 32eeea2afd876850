"""Boolean-network attractors (SETTA'17 decomposition) benchmarks -> bench/results/bn.md.

1. The paper's setting (Sect. 5, Table 1): random networks of 100-450 nodes with few non-leaf nodes
   (`verikit bn gen`, same sizes and non-leaf counts as Table 1), decomposition vs monolithic, each
   with the paper's `Detect` (greatest fixed point, `--detect gfp`) and verikit's default
   (`--detect periods`), with and without leaf removal, and on the models with leaves removed
   (the non-leaf core alone, as in the paper's right-hand columns).
2. Every BBM model: `verikit bn attractors` (decomposition) with a per-model time limit.
3. Fixed points of every BBM model: verikit vs biodivine-aeon (AEON's times and answers recorded by
   bench/peers/bn_record_expected.py in tests/expected/bn-bbm-fixedpoints.tsv).

usage: VERIKIT_BIN=... PYTHONPATH=bench bench/.venv/bin/python bench/engines/bn.py [BBM_LIMIT_S] [PAPER_LIMIT_S]
"""

import sys
import tempfile
from pathlib import Path

from harness import DATA, ROOT, Run, Table, measure, pip_version, verikit_cmd, verikit_version

BBM_LIMIT = float(sys.argv[1]) if len(sys.argv) > 1 else 15.0
PAPER_LIMIT = float(sys.argv[2]) if len(sys.argv) > 2 else 20.0

# (id, nodes, non-leaves) from the paper's Table 1.
PAPER = [(1, 100, 7), (2, 120, 9), (3, 150, 19), (4, 200, 6), (5, 250, 25), (6, 300, 88), (7, 450, 43)]

CONFIGS = {
    "decomp": ["--method", "decomposition"],
    "decomp+leaf": ["--method", "decomposition", "--leaf-removal"],
    "decomp-gfp": ["--method", "decomposition", "--detect", "gfp"],
    "mono": ["--method", "monolithic"],
    "mono-gfp": ["--method", "monolithic", "--detect", "gfp"],
}


def attractors(model: Path, extra: list[str], limit: float) -> Run:
    return measure(verikit_cmd("--json", "-q", "--timeout", str(limit), "bn", "attractors", str(model),
                               "--limit", "10", *extra), timeout=limit + 5)


def paper(tmp: Path) -> str:
    t = Table("bn", "Random networks like SETTA'17 Table 1", tools=list(CONFIGS), baseline="decomp")
    core = Table("bn", "The same networks with leaves removed (non-leaf core only)",
                 tools=["decomp", "mono-gfp"], baseline="decomp")
    for pid, n, m in PAPER:
        full, small = tmp / f"paper{pid}.bnet", tmp / f"paper{pid}-core.bnet"
        measure(verikit_cmd("-q", "bn", "gen", "-n", str(n), "--non-leaves", str(m), "--seed", str(pid), "-o", str(full)))
        # The generator draws the core first, so `-n m` with the same seed is exactly the core.
        measure(verikit_cmd("-q", "bn", "gen", "-n", str(m), "--non-leaves", str(m), "--seed", str(pid), "-o", str(small)))
        t.add(f"{pid}: {n} nodes, {m} non-leaves", {k: attractors(full, v, PAPER_LIMIT) for k, v in CONFIGS.items()})
        core.add(f"{pid}: core of {m} nodes", {k: attractors(small, CONFIGS[k], PAPER_LIMIT) for k in core.tools})
    notes = (f"Generated with `verikit bn gen -n N --non-leaves M --seed ID` (K = 2 regulators per node, core cut "
             f"into strongly connected modules of 5 nodes). Limit {PAPER_LIMIT:.0f} s per run. The answer column is "
             "the number of attractors; `decomp` is SCC decomposition (Algorithm 1), `+leaf` adds Algorithm 2, "
             "`-gfp` uses the paper's `Detect` (greatest fixed point of X ∩ Image(X)), `mono` is monolithic "
             "detection. Ratios are decomp / other (< 1: decomposition faster).")
    return t.markdown(notes=notes) + "\n" + core.markdown()


def bbm() -> tuple[str, str]:
    models = sorted(p for p in (DATA / "bn" / "bbm").iterdir() if (p / "model.bnet").is_file())
    t = Table("bn", f"Every BBM model: attractors by decomposition (limit {BBM_LIMIT:.0f} s)", tools=["verikit"])
    expected = {}
    exp_file = ROOT / "tests" / "expected" / "bn-bbm-fixedpoints.tsv"
    for line in exp_file.read_text().splitlines():
        if line.startswith("#"):
            continue
        name, answer, secs = line.split("\t")
        expected[name] = (answer, float(secs))
    fp = Table("bn", "Fixed points of every BBM model: verikit vs biodivine-aeon", tools=["verikit", "aeon"])
    for m in models:
        short = m.name.split("__")[0] + " " + m.name.split("__")[1] + " " + m.name.split("__")[2]
        t.add(short, {"verikit": attractors(m / "model.bnet", [], BBM_LIMIT)})
        runs = {"verikit": measure(verikit_cmd("--json", "-q", "--timeout", str(BBM_LIMIT), "bn", "fixed-points",
                                               str(m / "model.bnet"), "--limit", "0"), timeout=BBM_LIMIT + 5)}
        if m.name in expected:
            ans, secs = expected[m.name]
            ok = ans not in ("timeout", "error")
            runs["aeon"] = Run(secs, float("nan"), 0 if ok else 1, ans == "timeout", "", "",
                               {"verdict": ans, "time_s": secs} if ok else {})
        fp.add(short, runs)
    solved = sum(1 for _, r, _ in t.rows if r["verikit"].ok)
    notes = f"{solved} of {len(t.rows)} models complete within {BBM_LIMIT:.0f} s (answer = number of attractors, inputs free)."
    fnotes = ("AEON: `FixedPoints.symbolic` on `AsynchronousGraph`, free inputs made explicit as `f(x) = x`, "
              "20 s limit, answers and times recorded by `bench/peers/bn_record_expected.py` (time inside "
              "the tool, excluding interpreter start-up); verikit: `bn fixed-points` with the same limit as above.")
    return t.markdown(notes=notes), fp.markdown(notes=fnotes)


def demote(md: str) -> str:
    """One table's markdown as a section: `# T` -> `## T`, `## S` -> `### S`."""
    return "\n".join("#" + line if line.startswith("#") else line for line in md.splitlines()) + "\n"


def main() -> None:
    with tempfile.TemporaryDirectory() as d:
        p = paper(Path(d))
    a, f = bbm()
    head = (f"# Boolean networks (SETTA'17 decomposition): results\n\n- verikit: {verikit_version()}\n"
            f"- biodivine-aeon: {pip_version('biodivine-aeon')}\n\n")
    out = ROOT / "bench" / "results" / "bn.md"
    out.write_text(head + "\n".join(demote(x) for x in (p, a, f)))
    print(f"wrote {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
