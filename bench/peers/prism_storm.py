"""stormpy (Storm's sparse engine) peer for `verikit prism check`: prints one JSON line.

Usage: prism_storm.py MODEL PROPS [--const N=3,K=2] [--prop NAME]
The JSON has `verdict` (the single property's value when --prop is given, else "checked"),
`results` {name: value}, `states`, `transitions`, `build_s`, `check_s` and `time_s` (= build + check,
excluding interpreter start-up and imports), and `cpu_s`: the process's CPU seconds over the same
span (build + check).
"""
import json
import math
import sys
import time

import stormpy


def main() -> None:
    args = sys.argv[1:]
    consts = ""
    prop = None
    if "--const" in args:
        i = args.index("--const")
        consts = args[i + 1]
        del args[i:i + 2]
    if "--prop" in args:
        i = args.index("--prop")
        prop = args[i + 1]
        del args[i:i + 2]
    model_file, props_file = args[0], args[1]
    t0 = time.perf_counter()
    c0 = time.process_time()
    program = stormpy.parse_prism_program(model_file, prism_compatibility=True)
    props = stormpy.parse_properties(open(props_file).read(), program)
    if prop is not None:
        props = [p for p in props if p.get_name() == prop]
    if consts:
        program, props = stormpy.instantiate_constants(program, consts, props)
    model = stormpy.build_model(program, props)
    t1 = time.perf_counter()
    results = {}
    for p in props:
        desc = str(p)
        if "Obtain the maximum of the '\"init\"'-states" in desc or "Obtain the minimum of the '\"init\"'-states" in desc:
            # stormpy's model_checking ignores the property's filter: apply it over the initial states.
            r = stormpy.model_checking(model, p, only_initial_states=False)
            vals = [r.get_value(s) for s in model.initial_states]
            v = max(vals) if "maximum" in desc else min(vals)
        else:
            r = stormpy.model_checking(model, p, only_initial_states=True)
            s0 = model.initial_states[0]
            v = r.get_value(s0) if r.is_quantitative() else bool(r.get_truth_values_vector()[s0])
        if isinstance(v, float) and math.isinf(v):
            v = "Infinity"
        results[p.get_name()] = v
    t2 = time.perf_counter()
    c2 = time.process_time()
    verdict = str(next(iter(results.values()))) if prop is not None and results else "checked"
    print(json.dumps({"verdict": verdict, "results": results, "states": model.nr_states,
                      "transitions": model.nr_transitions, "build_s": t1 - t0, "check_s": t2 - t1,
                      "time_s": t2 - t0, "cpu_s": c2 - c0}))


if __name__ == "__main__":
    main()
