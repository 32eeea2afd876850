"""SAT backends of verikit-sat on the same CNFs (decision 0008): CPU time (user + system of the
process, from wait4) of the `sat_backend` example per backend and file, every model replayed.

    python3 bench/sat_backends.py [--backends cdcl,cadical] [--pysat] [--cli VERIKIT] OUT_DIR [CNF…]

Generates random 3-SAT at the threshold (ratio 4.26, fixed seeds) and pigeonhole formulas into
OUT_DIR, adds the CNF files given (e.g. Tseitin encodings dumped from SMT-LIB files), runs
`target/release/examples/sat_backend` (build it with `--features cadical`) three times per
backend and file, and prints a markdown table of the median CPU seconds. `--backends cdcl`
measures only the own core (a build without the feature); `--pysat` adds python-sat's CaDiCaL
1.9.5 (`cadical195`, run with bench/.venv/bin/python) as a second reference: the CPU time of its
solve call alone (parsing, interpreter start-up and imports excluded), its answer checked against
the backends'. `--cli VERIKIT` runs `VERIKIT -q sat --backend B FILE` (the whole command, DIMACS
parsing and the model check included) instead of the example.
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = ROOT / "target" / "release" / "examples" / "sat_backend"


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


def cpu(cmd: list[str]) -> tuple[float, str]:
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _, status, ru = os.wait4(proc.pid, 0)
    out = proc.stdout.read() if proc.stdout else ""
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
            for _ in range(3):
                if cli:
                    t, ans = cpu([cli, "-q", "sat", "--backend", b, str(f)])
                    ans = {"sat": "Sat", "unsat": "Unsat"}.get(ans, ans)
                else:
                    t, ans = cpu([str(BIN), b, str(f)])
                ts.append(t)
                answers.add(ans)
            row[b] = statistics.median(ts)
        if with_pysat:
            ts = []
            for _ in range(3):
                t, pans = pysat(f)
                ts.append(t)
                answers.add(pans)
            row["pysat"] = statistics.median(ts)
        if len(answers) > 1:
            raise SystemExit(f"{f}: the solvers disagree: {sorted(answers)}")
        cells = " | ".join(f"{row[k]:.3f}" for k in [*backends] + (["pysat"] if with_pysat else []))
        print(f"| {f.name} | {ans} | {cells} |", flush=True)


if __name__ == "__main__":
    main()
