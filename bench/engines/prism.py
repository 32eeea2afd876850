"""Probabilistic model checking: verikit prism vs Storm's sparse engine (stormpy), QVBS models.

    bench/run.sh prism            # timing table -> bench/results/prism.md
    bench/run.sh prism --record   # record Storm's answers on small instances -> tests/expected/prism-storm.tsv

Both tools build the same PRISM file with the same constants and check the same properties file;
each reports build and check time measured inside the tool (wall clock). The table's times are CPU
seconds: verikit's whole process (start-up included), Storm's build + check inside its Python process
(`cpu_s` of bench/peers/prism_storm.py: interpreter start-up and imports excluded).

    bench/run.sh prism --limit N  # only the first N rows (for trying the script) -> prism-partial.md
"""
import json
import sys
from pathlib import Path

from harness import DATA, ROOT, Table, measure, peer_python, pip_version, verikit_cmd, verikit_version

Q = DATA / "qvbs"

# (family/model, model file, props file, constants)
BENCH = [
    ("dtmc/brp", "brp.prism", "brp.props", "N=64,MAX=5"),
    ("dtmc/crowds", "crowds.prism", "crowds.props", "TotalRuns=5,CrowdSize=10"),
    ("dtmc/egl", "egl.prism", "egl.props", "N=5,L=8"),
    ("dtmc/nand", "nand.prism", "nand.props", "N=20,K=3"),
    ("dtmc/leader_sync", "leader_sync.5-4.prism", "leader_sync.props", ""),
    ("dtmc/herman", "herman.13.prism", "herman.props", ""),
    ("ctmc/embedded", "embedded.prism", "embedded.props", "MAX_COUNT=8,T=12"),
    ("ctmc/kanban", "kanban.prism", "kanban.props", "t=3"),
    ("ctmc/tandem", "tandem.prism", "tandem.props", "c=31,T=1000,t=0.2"),
    ("ctmc/fms", "fms.prism", "fms.props", "n=5"),
    ("ctmc/cluster", "cluster.prism", "cluster.props", "N=16,T=2000,t=20"),
    ("mdp/consensus", "consensus.4.prism", "consensus.props", "K=4"),
    ("mdp/csma", "csma.3-2.prism", "csma.props", ""),
    ("mdp/firewire_abst", "firewire_abst.prism", "firewire_abst.props", "delay=36"),
    ("mdp/zeroconf", "zeroconf.prism", "zeroconf.props", "N=1000,K=2,reset=false"),
    ("mdp/pnueli-zuck", "pnueli-zuck.5.prism", "pnueli-zuck.props", ""),
    ("mdp/rabin", "rabin.3.prism", "rabin.3.props", ""),
    ("mdp/wlan", "wlan.3.prism", "wlan.props", "COL=0"),
]

# Small instances whose Storm answers are recorded for the CI tests.
RECORD = [
    ("dtmc/brp", "brp.prism", "brp.props", "N=16,MAX=3"),
    ("dtmc/crowds", "crowds.prism", "crowds.props", "TotalRuns=3,CrowdSize=5"),
    ("dtmc/egl", "egl.prism", "egl.props", "N=5,L=2"),
    ("dtmc/leader_sync", "leader_sync.4-3.prism", "leader_sync.props", ""),
    ("dtmc/nand", "nand.prism", "nand.props", "N=10,K=1"),
    ("ctmc/embedded", "embedded.prism", "embedded.props", "MAX_COUNT=2,T=12"),
    ("ctmc/tandem", "tandem.prism", "tandem.props", "c=7,T=1000,t=0.2"),
    ("ctmc/polling", "polling.5.prism", "polling.props", "T=10"),
    ("mdp/wlan", "wlan.0.prism", "wlan.props", "COL=0"),
    ("ctmc/cluster", "cluster.prism", "cluster.props", "N=2,T=2000,t=20"),
    ("ctmc/fms", "fms.prism", "fms.props", "n=2"),
    ("mdp/consensus", "consensus.2.prism", "consensus.props", "K=4"),
    ("mdp/csma", "csma.2-2.prism", "csma.props", ""),
    ("mdp/firewire_abst", "firewire_abst.prism", "firewire_abst.props", "delay=3"),
    ("mdp/zeroconf", "zeroconf.prism", "zeroconf.props", "N=20,K=2,reset=false"),
    ("mdp/philosophers-mdp", "philosophers-mdp.3.prism", "philosophers-mdp.3.props", ""),
    ("mdp/pnueli-zuck", "pnueli-zuck.3.prism", "pnueli-zuck.props", ""),
]


def args_for(entry):
    d, m, p, c = entry
    a = [str(Q / d / m), str(Q / d / p)]
    return a + (["--const", c] if c else [])


def verikit_answer(run):
    """verikit's `--json` answer flattened to the fields the table reads: sizes from `"input"`,
    build/check seconds from `"times"`, states per second of the build; `time_s` = CPU seconds of
    the whole process."""
    res = run.result
    inp, times = res.get("input", {}), res.get("times", {})
    for k in ("states", "transitions"):
        if k in inp:
            res[k] = inp[k]
    for k in ("build_s", "check_s"):
        if isinstance(times.get(k), (int, float)):
            res[k] = times[k]
    if res.get("states") and res.get("build_s"):
        res["states_per_s"] = res["states"] / res["build_s"]
    res["time_s"] = run.cpu_s
    return run


def storm_answer(run):
    """Storm's CPU seconds of build + check as its time (like verikit's, a CPU measure)."""
    if isinstance(run.result.get("cpu_s"), (int, float)):
        run.result["time_s"] = run.result["cpu_s"]
    return run


def values(run, verikit: bool) -> dict:
    if verikit:
        return {r["name"]: r["result"] for r in run.result.get("results", [])}
    return run.result.get("results", {})


def close(a, b) -> bool:
    if isinstance(a, bool) or isinstance(b, bool) or isinstance(a, str) or isinstance(b, str):
        return str(a).lower() == str(b).lower() or {str(a), str(b)} <= {"Infinity", "inf"}
    return abs(float(a) - float(b)) <= 1e-6 * abs(float(b)) + 1e-12


def record() -> None:
    rows = ["# model\tconstants\tproperty\tstorm_value"]
    for e in RECORD:
        run = measure(peer_python("prism_storm.py", *args_for(e)), timeout=300)
        if not run.ok:
            print(f"storm failed on {e}: {run.stderr[-300:]}", file=sys.stderr)
            continue
        for name, v in run.result["results"].items():
            rows.append(f"qvbs/{e[0]}/{e[1]}\t{e[3]}\t{e[2]}:{name}\t{v}")
        print(f"recorded {e}", file=sys.stderr)
    out = ROOT / "tests" / "expected" / "prism-storm.tsv"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(rows) + "\n")
    print(f"wrote {out}", file=sys.stderr)


def bench(only: list[str], limit: int = 0) -> None:
    """All rows, or (with `--only SUBSTR ...`) the matching rows into `prism-partial.md`, for
    re-running the rows a change affects and merging them into the full table by hand."""
    t = Table("prism", "Probabilistic model checking: verikit prism vs Storm (stormpy, sparse engine)",
              tools=["verikit", "storm"],
              times="CPU seconds: verikit's whole process (start-up included), Storm's build + check "
                    "inside its process (interpreter start-up and imports excluded)")
    for e in BENCH[:limit] if limit else BENCH:
        if only and not any(o in f"{e[0]}/{e[1]}" for o in only):
            continue
        name = f"{e[0]}/{e[1]} {e[3]}".strip()
        v = verikit_answer(measure(verikit_cmd("--json", "-q", "prism", "check", *args_for(e)), timeout=300))
        s = storm_answer(measure(peer_python("prism_storm.py", *args_for(e)), timeout=300))
        vv, sv = values(v, True), values(s, False)
        # Values are compared per property below (within 1e-6); the table's verdict is just "checked".
        for r in (v, s):
            if r.ok:
                r.result["verdict"] = "checked"
        shared = [k for k in vv if k in sv]
        agree = sum(1 for k in shared if close(vv[k], sv[k]))
        extra = {
            "states": v.result.get("states", s.result.get("states", "")),
            "transitions": v.result.get("transitions", s.result.get("transitions", "")),
            "agree": f"{agree}/{len(shared)}" if shared else "–",
            "build s (vk/storm)": f"{v.result.get('build_s', float('nan')):.3f} / {s.result.get('build_s', float('nan')):.3f}",
            "check s (vk/storm)": f"{v.result.get('check_s', float('nan')):.3f} / {s.result.get('check_s', float('nan')):.3f}",
            "states/s vk": f"{v.result.get('states_per_s', 0):.0f}",
            "states/s storm": f"{(s.result.get('states', 0) / s.result['build_s']) if s.result.get('build_s') else 0:.0f}",
        }
        if shared and agree < len(shared):
            bad = [f"{k}: {vv[k]} vs {sv[k]}" for k in shared if not close(vv[k], sv[k])]
            print(f"DISAGREE {name}: {bad}", file=sys.stderr)
        t.add(name, {"verikit": v, "storm": s}, extra)
    t.write(versions={"verikit": verikit_version(), "stormpy": pip_version("stormpy")},
            extra_cols=["states", "transitions", "agree", "build s (vk/storm)", "check s (vk/storm)",
                        "states/s vk", "states/s storm"],
            notes="Each row builds the model and checks every property of the QVBS properties file. "
                  "`agree` counts properties whose values agree within 1e-6 relative. Storm runs with its "
                  "default (non-sound) value iteration at precision 1e-6; verikit uses its sound "
                  "stopping criterion (optimistic value iteration, certified Aitken extrapolation, direct "
                  "solves) at relative 1e-6.",
            name="prism-partial" if only or limit else None)


if __name__ == "__main__":
    if "--record" in sys.argv:
        record()
    else:
        limit = int(sys.argv[sys.argv.index("--limit") + 1]) if "--limit" in sys.argv else 0
        only = sys.argv[sys.argv.index("--only") + 1:] if "--only" in sys.argv else []
        bench(only, limit)
