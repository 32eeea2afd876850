"""libmata peer for `verikit nfa incl|equiv|univ`: prints one JSON line.

Usage: nfa_mata.py incl|equiv LHS RHS [--algo antichains|naive]
       nfa_mata.py univ A
time_s covers parsing (with mintermisation) and the check, as verikit's does.
"""
import json
import sys
import time

import libmata.alphabets as alph
import libmata.nfa.nfa as mnfa
import libmata.parser as parser


def main() -> None:
    op = sys.argv[1]
    files = [a for a in sys.argv[2:] if not a.startswith("--")]
    algo = "antichains"
    if "--algo" in sys.argv:
        algo = sys.argv[sys.argv.index("--algo") + 1]
    t0 = time.perf_counter()
    alphabet = alph.OnTheFlyAlphabet()
    auts = parser.from_mata(files, alphabet)
    if not isinstance(auts, list):
        auts = [auts]
    t1 = time.perf_counter()
    params = {"algorithm": algo}
    out = {}
    if op == "incl":
        r = mnfa.is_included(auts[0], auts[1], alphabet, params)
        out["verdict"] = "true" if r else "false"
    elif op == "equiv":
        r = mnfa.equivalence_check(auts[0], auts[1], alphabet, params)
        out["verdict"] = "true" if r else "false"
    elif op == "univ":
        # libmata has no direct universality on Python; use inclusion of Sigma* in A.
        univ = mnfa.Nfa(1)
        univ.make_initial_state(0)
        univ.make_final_state(0)
        for sym in alphabet.get_alphabet_symbols():
            univ.add_transition(0, sym, 0)
        r = mnfa.is_included(univ, auts[0], alphabet, params)
        out["verdict"] = "true" if r else "false"
    else:
        raise SystemExit(f"unknown op {op}")
    t2 = time.perf_counter()
    out["time_s"] = t2 - t0
    out["check_s"] = t2 - t1
    print(json.dumps(out))


if __name__ == "__main__":
    main()
