"""SAT backends of verikit-sat on the same CNFs (decision 0008): CPU time (user + system of the
process, from wait4) of the `sat_backend` example per backend and file, every model replayed.

    python3 bench/sat_backends.py [--backends cdcl,cadical] [--pysat] [--cli VERIKIT] [--limit S]
                                  [--bmc N] [--runs R] OUT_DIR [CNF…]

Generates random 3-SAT at the threshold (ratio 4.26, fixed seeds) and pigeonhole formulas into
OUT_DIR, adds the CNF files given (e.g. Tseitin encodings dumped from SMT-LIB files), runs
`target/release/examples/sat_backend` (build it with `--features cadical`) three times (`--runs`) per
backend and file, and prints a markdown table of the median CPU seconds. `--backends cdcl`
measures only the own core (a build without the feature); `--pysat` adds python-sat's CaDiCaL
1.9.5 (`cadical195`, run with bench/.venv/bin/python) as a second reference: the CPU time of its
solve call alone (parsing, interpreter start-up and imports excluded), its answer checked against
the backends'. `--cli VERIKIT` runs `VERIKIT -q sat --backend B FILE` (the whole command, DIMACS
parsing and the model check included) instead of the example. `--limit S` stops each run after S
CPU seconds (RLIMIT_CPU; the cell then says `>S`, and the file's answer comes from the runs that
finished). `--bmc N` adds the BMC CNFs of bench/engines/sat.py (`verikit aig bmc-cnf` on the shared
AIGER circuits, its `--max N` selection: unsafe circuits one frame below the shortest
counterexample and at it, safe ones at k = 8), written with the release CLI (`VERIKIT_BIN`).
`SAT_BACKEND_BIN` names the example binary when it was built in another target directory
(`CARGO_TARGET_DIR=target-cadical cargo build --release -p verikit-sat --features cadical
--example sat_backend`).
"""

from __future__ import annotations

import os
import random
import signal
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(os.environ.get("SAT_BACKEND_BIN", ROOT / "target" / "release" / "examples" / "sat_backend"))
VERIKIT = Path(os.environ.get("VERIKIT_BIN", ROOT / "target" / "release" / "verikit"))


def random_3sat(n: int, seed: int) -> str:
    rng = random.Random(seed)
    m = round(4.26 * n)
    lines = [f"p cnf {n} {m}"]
    for _ in range(m):
        vs = rng.sample(range(1, n + 1), 3)
        lines.append(" ".join(str(v if rng.random() < 0.5 else -v) for v in vs) + " 0")
    return "\n".join(lines) + "\n"


def pigeonhole(holes: int) -> str:
    p = lambda i, j: i * holes + j + 1  # noqa: E731
    cls = [[p(i, j) for j in range(holes)] for i in range(holes + 1)]
    for j in range(holes):
        for a in range(holes + 1):
            for b in range(a + 1, holes + 1):
                cls.append([-p(a, j), -p(b, j)])
    lines = [f"p cnf {(holes + 1) * holes} {len(cls)}"]
    lines += [" ".join(map(str, c)) + " 0" for c in cls]
    return "\n".join(lines) + "\n"


def cpu(cmd: list[str], limit: float | None = None) -> tuple[float, str]:
    """CPU seconds and last word of the output of one run; the answer is `limit` when the run was
    stopped by the CPU-time limit."""
    preexec = None
    if limit is not None:
        import resource

        secs = max(1, int(limit))

        def preexec() -> None:
            resource.setrlimit(resource.RLIMIT_CPU, (secs, secs + 1))

    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=preexec)
    out = proc.stdout.read() if proc.stdout else ""
    _, status, ru = os.wait4(proc.pid, 0)
    if limit is not None and os.waitstatus_to_exitcode(status) in (-signal.SIGXCPU, -signal.SIGKILL):
        return ru.ru_utime + ru.ru_stime, "limit"
    if os.waitstatus_to_exitcode(status) != 0:
        err = proc.stderr.read() if proc.stderr else ""
        raise SystemExit(f"{cmd}: failed: {err}")
    return ru.ru_utime + ru.ru_stime, out.split()[-1] if out.split() else "?"


PYSAT_WORKER = """
import resource, sys
from pysat.formula import CNF
from pysat.solvers import Solver
cnf = CNF(from_file=sys.argv[1])
t0 = resource.getrusage(resource.RUSAGE_SELF)
with Solver(name="cadical195", bootstrap_with=cnf.clauses) as s:
    r = s.solve()
t1 = resource.getrusage(resource.RUSAGE_SELF)
print((t1.ru_utime - t0.ru_utime) + (t1.ru_stime - t0.ru_stime), "Sat" if r else "Unsat")
"""


def bmc_cnfs(out: Path, n: int) -> list[Path]:
    """The BMC CNFs of bench/engines/sat.py's selection (`--max n`), written into `out`."""
    sys.path.insert(0, str(ROOT / "bench" / "engines"))
    sys.path.insert(0, str(ROOT / "bench"))
    from sat import DATA as AIGER, instances  # noqa: E402  (bench/engines/sat.py)

    files = []
    for f, k, _ in instances(n):
        cnf = out / f"{Path(f).stem}-k{k}.cnf"
        if not cnf.exists():
            subprocess.run([str(VERIKIT), "aig", "bmc-cnf", str(AIGER / f), "-k", str(k), "-o", str(cnf)],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=600)
        if cnf.exists():
            files.append(cnf)
    return files


def pysat(f: Path) -> tuple[float, str]:
    py = ROOT / "bench" / ".venv" / "bin" / "python"
    p = subprocess.run([str(py), "-c", PYSAT_WORKER, str(f)], capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit(f"python-sat on {f}: {p.stderr}")
    t, ans = p.stdout.split()
    return float(t), ans


def main() -> None:
    args = sys.argv[1:]
    backends = ["cdcl", "cadical"]
    if "--backends" in args:
        i = args.index("--backends")
        backends = args[i + 1].split(",")
        del args[i : i + 2]
    cli = None
    if "--cli" in args:
        i = args.index("--cli")
        cli = args[i + 1]
        del args[i : i + 2]
    limit = None
    if "--limit" in args:
        i = args.index("--limit")
        limit = float(args[i + 1])
        del args[i : i + 2]
    runs = 3
    if "--runs" in args:
        i = args.index("--runs")
        runs = int(args[i + 1])
        del args[i : i + 2]
    bmc = 0
    if "--bmc" in args:
        i = args.index("--bmc")
        bmc = int(args[i + 1])
        del args[i : i + 2]
    with_pysat = "--pysat" in args
    args = [a for a in args if a != "--pysat"]
    out = Path(args[0])
    out.mkdir(parents=True, exist_ok=True)
    files = []
    for n in (150, 200, 250):
        for seed in (1, 2):
            f = out / f"uf{n}-s{seed}.cnf"
            f.write_text(random_3sat(n, seed))
            files.append(f)
    for h in (7, 8, 9):
        f = out / f"php{h}.cnf"
        f.write_text(pigeonhole(h))
        files.append(f)
    if bmc:
        files += bmc_cnfs(out, bmc)
    files += [Path(a) for a in args[1:]]
    cols = [f"{b} CPU s" for b in backends] + (["python-sat cadical195 solve CPU s"] if with_pysat else [])
    print("| CNF | answer | " + " | ".join(cols) + " |")
    print("|---|---|" + "---:|" * len(cols))
    for f in files:
        row = {}
        ans = "?"
        answers = set()
        for b in backends:
            ts = []
            for _ in range(runs):
                if cli:
                    t, a = cpu([cli, "-q", "sat", "--backend", b, str(f)], limit)
                    a = {"sat": "Sat", "unsat": "Unsat"}.get(a, a)
                else:
                    t, a = cpu([str(BIN), b, str(f)], limit)
                if a == "limit":
                    break
                ts.append(t)
                answers.add(a)
                ans = a
            row[b] = statistics.median(ts) if len(ts) == runs else None
        if with_pysat:
            ts = []
            for _ in range(3):
                t, pans = pysat(f)
                ts.append(t)
                answers.add(pans)
            row["pysat"] = statistics.median(ts)
        if len(answers) > 1:
            raise SystemExit(f"{f}: the solvers disagree: {sorted(answers)}")
        cells = " | ".join(f"{row[k]:.3f}" if row[k] is not None else f">{limit:g}"
                           for k in [*backends] + (["pysat"] if with_pysat else []))
        print(f"| {f.name} | {ans} | {cells} |", flush=True)


if __name__ == "__main__":
    main()
