"""LTL inside PRISM's P[…]: verikit prism check vs Storm's sparse engine (stormpy), per property.

    bench/run.sh prism_ltl          # -> bench/results/prism-ltl.md

The inputs are the rows of tests/expected/prism-ltl-storm.tsv (shared QVBS and PRISM-example
models with LTL properties written for the oracle; recorded by bench/peers/prism_record_ltl.py).
Each row is one process per tool on a one-property file: verikit's CPU seconds of the whole
process (start-up, parsing and building included), Storm's CPU seconds of build + check inside
its Python process (bench/peers/prism_storm.py; interpreter start-up and imports excluded).
Each run has a 60 s limit. The answer column is the value rounded to 6 decimals; two values
within 1e-6 of each other (relative above 1) count as agreeing (both columns then show Storm's rounding).

The shipped property files of the shared PRISM/QVBS/JANI models contain no LTL path formula
(nested temporal operators inside `P[…]`), so every row is a property written for the oracle.
CTMC rows are untimed LTL, which both tools read on the embedded DTMC. Storm does not read LTL
inside `R[…]` (co-safe LTL rewards), so the R rows (CTMCs) pair verikit's co-safe formula with
Storm's reachability reward of the same target (the TSV's sixth column): a check of verikit's
co-safe route and its exit-rate scaling on real models, not of Storm's LTL rewards.
"""
import statistics
import tempfile
from pathlib import Path

from harness import DATA, ROOT, Table, measure, peer_python, pip_version, verikit_cmd, verikit_version

TSV = ROOT / "tests" / "expected" / "prism-ltl-storm.tsv"
LIMIT = 60  # seconds per run and tool


def rows():
    for line in TSV.read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        cols = line.split("\t")
        model, consts, prop = cols[:3]
        yield model, consts, prop, (cols[5] if len(cols) > 5 and cols[5] else prop)


def rounded(v) -> str:
    try:
        return f"{float(v):.6f}"
    except (TypeError, ValueError):
        return str(v)


def close(a, b) -> bool:
    try:
        return abs(float(a) - float(b)) <= 1e-6 * max(1.0, abs(float(b)))
    except (TypeError, ValueError):
        return False


def main() -> None:
    t = Table("prism-ltl", "LTL inside P[…]: verikit prism check vs Storm (stormpy, sparse engine)",
              tools=["verikit", "storm"],
              times="CPU seconds: verikit's whole process (start-up included), Storm's build + check "
                    "inside its process (interpreter start-up and imports excluded)")
    tmp = Path(tempfile.mkdtemp(prefix="prism-ltl-bench-"))
    for i, (model, consts, prop, storm_prop) in enumerate(rows()):
        props = tmp / f"p{i}.props"
        props.write_text(f'"p": {prop};\n')
        storm_props = tmp / f"s{i}.props"
        storm_props.write_text(f'"p": {storm_prop};\n')
        cargs = ["--const", consts] if consts else []
        v = measure(verikit_cmd("--json", "-q", "prism", "check", str(DATA / model), str(props), *cargs),
                    timeout=LIMIT)
        s = measure(peer_python("prism_storm.py", str(DATA / model), str(storm_props), *cargs), timeout=LIMIT)
        v.result["time_s"] = v.cpu_s
        if isinstance(s.result.get("cpu_s"), (int, float)):
            s.result["time_s"] = s.result["cpu_s"]
        sv = s.result.get("results", {}).get("p") if s.ok else None
        if s.ok:
            s.result["verdict"] = rounded(sv)
        if v.ok:
            vv = v.result.get("result")
            v.result["verdict"] = rounded(s.result["verdict"] if close(vv, sv) else vv)
        t.add(f"{model} {consts} `{prop}`".replace("|", "\\|"), {"verikit": v, "storm": s},
              {"states": v.result.get("input", {}).get("states", s.result.get("states", ""))})
    groups = {"DTMC/MDP `P[ ltl ]` rows (the 40 rows of the previous run)": [],
              "CTMC `P[ ltl ]` rows": [], "CTMC `R[ co-safe ltl ]` rows": []}
    keys = list(groups)
    for name, runs, _ in t.rows:
        a, b = runs.get("verikit"), runs.get("storm")
        if not (a and b and a.ok and b.ok and b.time_s > 0):
            continue
        key = keys[0] if "/ctmc/" not in name else keys[2] if "`R" in name else keys[1]
        groups[key].append(a.time_s / b.time_s)
    medians = "; ".join(f"{k}: median ratio {statistics.median(v):.3f} over {len(v)}"
                        for k, v in groups.items() if v)
    t.write(versions={"verikit": verikit_version(), "stormpy": pip_version("stormpy")},
            extra_cols=["states"],
            notes="The machine was shared with other builds and benchmarks while this ran (see the "
                  "load averages); times of a few hundredths of a second are dominated by start-up. "
                  f"Per group: {medians}. The R rows compare verikit's co-safe LTL route with "
                  "Storm's reachability reward of the same target (Storm reads no LTL inside R[…]).")


if __name__ == "__main__":
    main()
