"""Peer: fixed points of a Boolean network with biodivine-aeon (symbolic fixed-point enumeration).

usage: bn_aeon_fixedpoints.py MODEL.bnet
Prints {"verdict": "<number of fixed points>", "time_s": ...}. Free inputs (variables without an
update function) are free: they are made explicit as inputs with the identity function, so that every
input valuation is explored, as in verikit's `--inputs free`.
"""

import json
import sys
import time

import biodivine_aeon as ba


def main() -> None:
    path = sys.argv[1]
    t0 = time.perf_counter()
    bn = ba.BooleanNetwork.from_file(path)
    # Variables without an update function are implicit parameters in AEON; make inputs explicit
    # constants-in-time (f(x) = x) and drop the remaining unused parameters.
    bn = bn.infer_valid_graph()
    for v in bn.variables():
        if bn.get_update_function(v) is None:
            name = bn.get_variable_name(v)
            bn.ensure_regulation({"source": name, "target": name, "essential": False, "sign": None})
            bn.set_update_function(v, name)
    graph = ba.AsynchronousGraph(bn)
    fps = ba.FixedPoints.symbolic(graph)
    count = fps.cardinality()
    t = time.perf_counter() - t0
    print(json.dumps({"verdict": str(count), "time_s": t}))


if __name__ == "__main__":
    main()
