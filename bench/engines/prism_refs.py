"""QVBS reference results at scale: every QVBS instance (PRISM-language file, or the JANI file of the
families published only in JANI) with a reference result and more states than the CI test covers, run one at a time under a time cap, compared with the
reference values (1e-6 relative) and the reference state counts.

    VERIKIT_BIN=... PYTHONPATH=bench python bench/engines/prism_refs.py [--cap 60] [--max-states 5e6] [--all]

--all also runs the instances up to CI_MAX_STATES states, of which the CI test checks a fixed sample
(crates/prob/tests/ci-instances.tsv; VERIKIT_PRISM_ALL=1 runs them all in the cargo test).

Results are cached per instance in bench/results/prism_refs.jsonl (delete it to rerun everything) and
summarised in bench/results/prism_refs.md (pasted as a section into prism.md).
"""
import argparse
import json
import sys
import time
from pathlib import Path

from harness import DATA, ROOT, machine, measure, verikit_cmd, verikit_version

sys.set_int_max_str_digits(0)
Q = DATA / "qvbs"
CI_MAX_STATES = 30000
# Files that time out as a whole are retried property by property up to this size.
PER_PROP_MAX_STATES = 250000
MODEL_EXT = (".prism", ".pm", ".nm", ".sm")
PROPS_EXT = (".props", ".prctl", ".pctl", ".csl")
CACHE = ROOT / "bench" / "results" / "prism_refs.jsonl"
OUT = ROOT / "bench" / "results" / "prism_refs.md"


def instances():
    out = []
    for fam in ("dtmc", "ctmc", "mdp"):
        for idx in sorted((Q / fam).glob("*/index.json")):
            d = json.loads(idx.read_text())
            for f in d.get("files", []):
                orig = f.get("original-file", [])
                orig = [orig] if isinstance(orig, str) else orig
                model = next((o for o in orig if o.endswith(MODEL_EXT)), None)
                props = next((o for o in orig if o.endswith(PROPS_EXT)), None)
                jani = f.get("file", "")
                if not model and jani.endswith(".jani") and (idx.parent / jani).exists():
                    # JANI-only family: the properties are embedded.
                    model, props = jani, None
                elif not model or not props or not (idx.parent / model).exists():
                    continue
                for inst in f.get("open-parameter-values", []):
                    results = inst.get("results") or []
                    if not results:
                        continue
                    st = (inst.get("states") or [{}])[0]
                    consts = ",".join(f"{v['name']}={json.dumps(v['value'])}" for v in inst.get("values", []))
                    out.append({
                        "dir": str(idx.parent.relative_to(Q)),
                        "model": model,
                        "props": props,
                        "consts": consts,
                        "states": st.get("number"),
                        "storm_count": st.get("note") == "Storm",
                        "results": {r["property"]: r["value"] for r in results},
                    })
    return out


def reference(v):
    if isinstance(v, bool):
        return v
    if isinstance(v, (int, float)):
        return float(v)
    if v == "∞":
        return float("inf")
    if isinstance(v, dict):
        if "approx" in v:
            return float(v["approx"])
        if "lower" in v and "upper" in v:
            return 0.5 * (float(v["lower"]) + float(v["upper"]))
    return None


def agrees(got, want) -> bool:
    if isinstance(want, bool) or isinstance(got, bool):
        return got == want
    try:
        got = float(got)
    except (TypeError, ValueError):
        return False
    if got == float("inf") or want == float("inf"):
        return got == want
    return abs(got - want) <= 1e-6 * abs(want) + 1e-12


def key(i) -> str:
    return f"{i['dir']}/{i['model']} {i['consts']}".strip()


def check(i, cap: float, prop=None):
    d = Q / i["dir"]
    files = [d / i["model"]] + ([d / i["props"]] if i["props"] else [])
    cmd = verikit_cmd("--json", "--timeout", str(cap), "prism", "check", *files)
    if i["consts"]:
        cmd += ["--const", i["consts"]]
    if prop:
        cmd += ["--prop", prop]
    return flat(measure(cmd, timeout=cap + 30))


def flat(r):
    """verikit's `--json` answer with the fields this script reads at the top level: `states` (from
    `"input"`), `build_s` / `check_s` (from `"times"`), `cpu_s` (CPU seconds of the process); a
    decided answer (`verdict` true / false) is shown as "checked"."""
    res = r.result
    if "states" in res.get("input", {}):
        res["states"] = res["input"]["states"]
    for k in ("build_s", "check_s"):
        if k in res.get("times", {}):
            res[k] = res["times"][k]
    if res.get("verdict") in ("true", "false"):
        res["verdict"] = "checked"
    return r


def run_one(i, cap: float) -> dict:
    r = check(i, cap)
    res = r.result
    verdict = r.verdict
    unsupported = r.verdict == "error" and "not supported" in str(res.get("error"))
    # (Also with a single referenced property: the file may hold others that are not referenced.)
    slow = r.verdict == "timeout" and (i["states"] or 0) <= PER_PROP_MAX_STATES
    if unsupported or slow:
        # One property uses an unsupported operator, or the whole file did not finish: check the
        # referenced properties one by one (each under the cap).
        merged = {"results": [], "error": res.get("error") or ("whole file: timeout" if slow else None)}
        t0 = time.perf_counter()
        cpu = 0.0
        for pname in i["results"]:
            rp = check(i, cap, pname)
            cpu += rp.cpu_s
            if rp.ok:
                merged["results"] += rp.result.get("results", [])
                for f in ("states", "build_s"):
                    merged[f] = rp.result.get(f)
            else:
                merged["results"].append({"name": pname, "result": None,
                                          "error": str(rp.result.get("error") or rp.verdict)})
        res = merged
        r.wall_s = time.perf_counter() - t0
        r.cpu_s = cpu
        verdict = "per property"
    row = {"key": key(i), "states_ref": i["states"], "storm_count": i["storm_count"],
           "verdict": verdict, "wall_s": round(r.wall_s, 2), "cpu_s": round(r.cpu_s, 2), "peak_mb": round(r.peak_mb),
           "states": res.get("states"), "build_s": res.get("build_s"), "check_s": res.get("check_s")}
    if not r.ok:
        err = (r.stderr.strip().splitlines() or [""])[0] if verdict != "timeout" else ""
        row["error"] = res.get("error") or err[:200]
    if row.get("error"):
        row["error"] = str(row["error"]).replace(str(Q) + "/", "qvbs/")
    got = {x["name"]: x for x in res.get("results", []) if x.get("name")}
    cmp = []
    for pname, v in i["results"].items():
        want = reference(v)
        if want is None:
            continue
        g = got.get(pname)
        if g is None:
            cmp.append([pname, None, want, "missing"])
        elif g.get("result") is None:
            cmp.append([pname, None, want, g.get("error", "no result").replace(str(Q) + "/", "qvbs/")[:120]])
        else:
            cmp.append([pname, g["result"], want, "agree" if agrees(g["result"], want) else "DISAGREE"])
    row["cmp"] = cmp
    return row


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cap", type=float, default=60.0)
    ap.add_argument("--max-states", type=float, default=5e6)
    ap.add_argument("--all", action="store_true", help="also the instances the CI test samples")
    a = ap.parse_args()
    done = {}
    if CACHE.exists():
        for line in CACHE.read_text().splitlines():
            if line.strip():
                row = json.loads(line)
                done[row["key"]] = row
    insts = [i for i in instances() if a.all or i["states"] is None or i["states"] > CI_MAX_STATES]
    insts.sort(key=lambda i: i["states"] or 0)
    rows = []
    for i in insts:
        k = key(i)
        if i["states"] is None or i["states"] > a.max_states:
            rows.append({"key": k, "states_ref": i["states"], "verdict": "not run (size)", "cmp": []})
            continue
        if k not in done:
            print(f"{k} ({i['states']} states) ...", file=sys.stderr, flush=True)
            row = run_one(i, a.cap)
            with CACHE.open("a") as fh:
                fh.write(json.dumps(row) + "\n")
            done[k] = row
        rows.append(done[k])
    write(rows, a)


def write(rows, a) -> None:
    ran = [r for r in rows if r["verdict"] != "not run (size)"]
    # The verdict is "checked" (see `flat`), "per property", or timeout / error.
    finished = [r for r in ran if r["verdict"] not in ("timeout", "error", "?")]
    vals = [c for r in ran for c in r["cmp"]]
    agree = sum(1 for c in vals if c[3] == "agree")
    disagree = [(r["key"], c) for r in ran for c in r["cmp"] if c[3] == "DISAGREE"]
    count_bad = [r for r in finished if r.get("storm_count") and r.get("states") not in (None, r["states_ref"])]
    lines = [
        "## QVBS reference results beyond CI (`bench/engines/prism_refs.py`)",
        "",
        f"- machine: {machine()}; date {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; {verikit_version()}",
        f"- every QVBS PRISM-language instance (and JANI instance of the JANI-only families coupon, beb,"
        f" echoring, ctmc philosophers) with a reference result and more than {CI_MAX_STATES} states"
        f" (the CI test covers the smaller ones), one at a time, cap {a.cap:.0f} s each (`--timeout`);"
        f" instances with more than {a.max_states:.0f} reference states (or none given) are not run"
        " on this shared machine.",
        f"- {len(rows)} instances: {len(ran)} run, {len(finished)} finished within the cap;"
        f" {len(vals)} reference values compared: {agree} agree within 1e-6 relative,"
        f" {len(disagree)} disagree, {len(vals) - agree - len(disagree)} without a result"
        " (timeout, unsupported operator or error).",
        f"- state counts: {sum(1 for r in finished if r.get('storm_count') and r.get('states') == r['states_ref'])}"
        f" of {sum(1 for r in finished if r.get('storm_count'))} finished instances with a Storm count match it;"
        f" differ: {', '.join(r['key'] + ' (' + str(r['states']) + ' vs ' + str(r['states_ref']) + ')' for r in count_bad) or 'none'}.",
        "",
    ]
    if disagree:
        lines += ["Disagreements:", ""]
        lines += [f"- {k}: {c[0]} = {c[1]}, reference {c[2]}" for k, c in disagree]
        lines.append("")
    lines += ["| instance | states (vk / ref) | verdict | s | MiB | values agree | note |", "|---|---|---|---|---|---|---|"]
    for r in rows:
        n_ok = sum(1 for c in r["cmp"] if c[3] == "agree")
        notes = sorted({c[3] for c in r["cmp"] if c[3] not in ("agree",)})
        if r.get("error"):
            notes.append(r["error"])
        wall = r.get("wall_s")
        lines.append(
            f"| {r['key']} | {r.get('states') or '–'} / {r.get('states_ref') or '–'} | {r['verdict']} |"
            f" {wall if wall is not None else '–'} | {r.get('peak_mb', '–')} | {n_ok}/{len(r['cmp'])} |"
            f" {'; '.join(notes).replace('|', '/')} |")
    OUT.write_text("\n".join(lines) + "\n")
    print(OUT.read_text())


if __name__ == "__main__":
    main()
