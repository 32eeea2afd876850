"""z3 (from the z3-solver wheel) peer for `verikit smt`: prints one JSON line.

Usage: smt_z3.py FILE.smt2
Runs the z3 binary of the wheel on the file; `verdict` is the last sat/unsat/unknown response and
`time_s` the wall time of the z3 process.
"""
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path


def binary() -> str:
    here = Path(sys.executable).parent
    for cand in (here / "z3", shutil.which("z3")):
        if cand and Path(cand).exists():
            return str(cand)
    raise SystemExit("z3 not found")


def main() -> None:
    t0 = time.perf_counter()
    p = subprocess.run([binary(), sys.argv[1]], capture_output=True, text=True)
    t = time.perf_counter() - t0
    verdict = "error"
    for line in p.stdout.splitlines():
        if line.strip() in ("sat", "unsat", "unknown"):
            verdict = line.strip()
    print(json.dumps({"verdict": verdict, "time_s": t, "rc": p.returncode}))


if __name__ == "__main__":
    main()
