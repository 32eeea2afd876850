"""SAT backends of verikit-sat on the same CNFs (decision 0008): CPU time (user + system of the
process, from wait4) of the `sat_backend` example per backend and file, every model replayed.

    python3 bench/sat_backends.py OUT_DIR [CNF…]

Generates random 3-SAT at the threshold (ratio 4.26, fixed seeds) and pigeonhole formulas into
OUT_DIR, adds the CNF files given (e.g. Tseitin encodings dumped from SMT-LIB files), runs
`target/release/examples/sat_backend` (build it with `--features cadical`) three times per
backend and file, and prints a markdown table of the median CPU seconds.
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


def main() -> None:
    out = Path(sys.argv[1])
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
    files += [Path(a) for a in sys.argv[2:]]
    print("| CNF | answer | cdcl CPU s | cadical CPU s |")
    print("|---|---|---:|---:|")
    for f in files:
        row = {}
        ans = "?"
        for b in ("cdcl", "cadical"):
            ts = []
            for _ in range(3):
                t, ans = cpu([str(BIN), b, str(f)])
                ts.append(t)
            row[b] = statistics.median(ts)
        print(f"| {f.name} | {ans} | {row['cdcl']:.3f} | {row['cadical']:.3f} |", flush=True)


if __name__ == "__main__":
    main()
