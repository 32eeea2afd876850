"""libmata peer, batch form for the random-NFA grids: imports libmata once, then checks each pair
of `.mata` files read from standard input (`LHS RHS` per line) in a forked child, so that a
per-pair timeout can stop a check that does not return. Prints one JSON line per pair:
`{"verdict": "true"|"false"|"timeout", "time_s": ..., "check_s": ...}` (times inside the child:
parsing with mintermisation plus the check, and the check alone).

Usage: nfa_mata_batch.py equiv|incl [--timeout S] [--max-timeouts K] [--budget S]
After K time-outs (default 2), or once the pairs have taken S seconds in total (--budget), the
remaining pairs are answered "skipped" without running.
"""
import json
import os
import select
import sys
import time

import libmata.alphabets as alph
import libmata.nfa.nfa as mnfa
import libmata.parser as parser


def check(op: str, lhs: str, rhs: str) -> dict:
    t0 = time.perf_counter()
    alphabet = alph.OnTheFlyAlphabet()
    auts = parser.from_mata([lhs, rhs], alphabet)
    t1 = time.perf_counter()
    params = {"algorithm": "antichains"}
    if op == "incl":
        r = mnfa.is_included(auts[0], auts[1], alphabet, params)
    else:
        r = mnfa.equivalence_check(auts[0], auts[1], alphabet, params)
    t2 = time.perf_counter()
    return {"verdict": "true" if r else "false", "time_s": t2 - t0, "check_s": t2 - t1}


def opt(name: str, default: float) -> float:
    return float(sys.argv[sys.argv.index(name) + 1]) if name in sys.argv else default


def main() -> None:
    op = sys.argv[1]
    timeout, max_to, budget = opt("--timeout", 5.0), int(opt("--max-timeouts", 2)), opt("--budget", 1e18)
    timeouts, spent = 0, 0.0
    for line in sys.stdin:
        parts = line.split()
        if len(parts) != 2:
            continue
        if timeouts >= max_to or spent > budget:
            print(json.dumps({"verdict": "skipped"}), flush=True)
            continue
        rd, wr = os.pipe()
        start = time.monotonic()
        pid = os.fork()
        if pid == 0:
            os.close(rd)
            try:
                out = check(op, parts[0], parts[1])
            except Exception as e:  # noqa: BLE001 - reported to the parent
                out = {"verdict": "error", "error": str(e)}
            os.write(wr, json.dumps(out).encode())
            os._exit(0)
        os.close(wr)
        ready, _, _ = select.select([rd], [], [], timeout)
        if ready:
            data = b""
            while chunk := os.read(rd, 65536):
                data += chunk
            os.waitpid(pid, 0)
            out = json.loads(data) if data else {"verdict": "error"}
        else:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
            out = {"verdict": "timeout"}
            timeouts += 1
        os.close(rd)
        spent += time.monotonic() - start
        print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
