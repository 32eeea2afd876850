"""PRISM language coverage models (crates/prob/tests/models/lang): CPU time of `verikit prism
check` vs Storm (stormpy) on each model with its properties file, one run each, 20 s limit.

    bench/.venv/bin/python bench/engines/prism_lang.py    # -> bench/results/prism-lang.md

verikit: CPU time of the whole process (start-up included). Storm: CPU time inside the Python
process for parsing, building and checking the properties Storm supports (the `// storm:`
rewritings of bench/peers/prism_record_lang.py for W/R), interpreter start-up excluded.
"""
import os
import platform
import resource
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "bench", "peers"))
import prism_record_lang as rec  # noqa: E402
import stormpy  # noqa: E402

LIMIT_S = 20


def verikit_cpu(model, props):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    exe = os.path.join(ROOT, "target", "release", "verikit")
    r = subprocess.run([exe, "-q", "prism", "check", model, props], capture_output=True,
                       timeout=LIMIT_S)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, r.returncode


def storm_cpu(base, model, props):
    text = open(model).read()
    if base == "notype":
        text = "mdp\n" + text
    t0 = time.process_time()
    try:
        program = rec._parse_via_file(text)
    except Exception:
        return None, 0
    n = 0
    for _name, formula in rec.props_of(open(props).read()):
        try:
            rec.combined(program, formula)
            n += 1
        except Exception:
            pass
    return time.process_time() - t0, n


def main():
    folder = os.path.join(ROOT, rec.MODELS)
    rows = []
    for f in sorted(os.listdir(folder)):
        if not f.endswith(".prism"):
            continue
        base = f[: -len(".prism")]
        model, props = os.path.join(folder, f), os.path.join(folder, base + ".props")
        vk, code = verikit_cpu(model, props)
        st, n = storm_cpu(base, model, props)
        total = len(rec.props_of(open(props).read()))
        rows.append((base, vk, code, st, n, total))
    load = os.getloadavg()
    out = ["## PRISM language coverage models: verikit vs Storm (`bench/engines/prism_lang.py`)", "",
           f"- machine: {platform.system()} {platform.machine()}, {os.cpu_count()} cores; date "
           f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; stormpy {stormpy.__version__}",
           f"- load average at the end of the run: {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} "
           "(shared machine, other engineers building: times are noisy)",
           "- one run per model; verikit: whole-process CPU (start-up included), Storm: in-process "
           "CPU for parse + build + check of the properties it supports (interpreter start-up "
           "excluded). The models are tiny (≤ 9 states): the numbers show start-up costs, not "
           "engine speed; they are here to show every model runs in both tools.",
           "", "| model | verikit CPU s (exit) | Storm CPU s | properties Storm checks | ratio vk/Storm |",
           "|---|---|---|---|---|"]
    ratios = []
    for base, vk, code, st, n, total in rows:
        if st is None:
            out.append(f"| {base} | {vk:.3f} ({code}) | – (model refused) | 0/{total} | – |")
        else:
            r = vk / st if st > 0 else float("nan")
            ratios.append(r)
            out.append(f"| {base} | {vk:.3f} ({code}) | {st:.3f} | {n}/{total} | {r:.2f} |")
    vks = [r[1] for r in rows]
    sts = [r[3] for r in rows if r[3] is not None]
    out += ["", f"Medians: verikit {statistics.median(vks):.3f} s, Storm {statistics.median(sts):.3f} s, "
            f"ratio {statistics.median(ratios):.2f}.", ""]
    path = os.path.join(ROOT, "bench", "results", "prism-lang.md")
    with open(path, "w") as fh:
        fh.write("\n".join(out))
    print("\n".join(out))


if __name__ == "__main__":
    main()
