#!/usr/bin/env python3
"""LTL on BEEM's Promela translations: SPIN's verdicts (and product state counts) against
verikit's, on the properties BEEM states for the DVE models (EXPECTED.tsv, the family .xml's
atomic propositions).

Each proposition of the family .xml (`P_0.CS`, `P_0.p2 or P_0.p3`, `myloop(...)` sums over the
processes) is written twice: as a DVE expression for verikit (`--ap name=P_0.CS`) and as a Promela
remote reference for SPIN (`P_0@CS`). SPIN 6.5.2: the model with `ltl p { φ }` appended,
`spin -o3 -a` (statement merging off: verikit does not merge), `gcc -O1 -DNOREDUCE` (with --spin-por
also without it, SPIN's partial-order reduction), `./pan -a -m1000000` (acceptance cycles, no fairness):
`errors: 0` = the property holds. verikit: `verikit mc check --ltl φ --ap … --json M.pm`, with
`-x mc.por=off` and `on`.

Writes crates/explicit/tests/expected/promela/SPIN-BEEM-LTL.tsv (SPIN's answers; the test
`beem_ltl_verdicts_agree_with_spin` reads it without SPIN) and bench/results/mc-promela-ltl.md.

Usage: bench/engines/mc_promela_ltl.py [--verikit PATH] [--limit SECS]
"""
import argparse, hashlib, json, os, re, subprocess, sys, tempfile, statistics
from datetime import datetime, timezone

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mc_promela import run  # noqa: E402  (stdout, exit code, CPU seconds, peak MiB of one process)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.environ.get("VERIKIT_DATA", os.path.join(ROOT, "..", "shared", "data"))
BEEM = os.path.join(DATA, "beem")
TSV = os.path.join(ROOT, "crates", "explicit", "tests", "expected", "promela", "SPIN-BEEM-LTL.tsv")
PAGE = os.path.join(ROOT, "bench", "results", "mc-promela-ltl.md")
CACHE = os.path.join(ROOT, "bench", ".work", "spin-ltl")

# Small instances with a Promela translation and LTL properties in EXPECTED.tsv.
MODELS = ["bakery/bakery.1", "peterson/peterson.1", "fischer/fischer.1", "lann/lann.1",
          "mcs/mcs.1", "elevator/elevator.1", "extinction/extinction.1", "protocols/protocols.1",
          "protocols/protocols.3", "public_subscribe/public_subscribe.1",
          "rether/rether.1", "leader_filters/leader_filters.1", "brp/brp.1", "iprotocol/iprotocol.1",
          "phils/phils.1", "phils/phils.3", "lamport/lamport.1", "driving_phils/driving_phils.1",
          "elevator2/elevator2.1", "at/at.1", "szymanski/szymanski.1", "bopdp/bopdp.1"]
# train-gate.1.pm: SPIN refuses the translation itself (`missing array index for 'e'`).


def aps_of(family, pm_text):
    """name -> DVE expression, from the family .xml (m4 `myloop` expanded over the processes)."""
    xml = open(os.path.join(BEEM, family, family + ".xml")).read()
    out = {}
    for m in re.finditer(r"<ap[^>]*>\s*<ap-name>(.*?)</ap-name>\s*<ap-expression>(.*?)</ap-expression>",
                         xml, re.S):
        name, e = m.group(1).strip(), " ".join(m.group(2).split())
        loop = re.match(r"myloop\(i,0,decr\(N\), `(\w+)`'i\.(\w+)', ` ?(\+|or) ?'\)\s*(.*)$", e)
        if loop:
            prefix, st, op, rest = loop.groups()
            n = len(set(re.findall(r"proctype\s+" + prefix + r"(\d+)\b", pm_text)))
            op = "+" if op == "+" else "||"
            e = "(" + f" {op} ".join(f"{prefix}{i}.{st}" for i in range(n)) + ") " + rest
        e = re.sub(r"\bor\b", "||", re.sub(r"\band\b", "&&", e)).strip()
        out[name] = e
    return out


def spot_formula(f):
    """BEEM's formula with spaces between temporal operators (`GF a` -> `G F a`)."""
    f = re.sub(r"\b([GF]{2,})\b", lambda m: " ".join(m.group(1)), f)
    return " ".join(f.split())


def spin_formula(f, aps):
    """The formula in SPIN's syntax with every proposition inlined as a Promela expression."""
    toks = re.findall(r"[A-Za-z_]\w*|->|&&|\|\||[()!]", f)
    out = []
    for t in toks:
        if t in aps:
            e = re.sub(r"\b(\w+)\.(\w+)\b", r"\1@\2", aps[t])
            out.append("(" + e + ")")
        else:
            out.append({"G": "[]", "F": "<>", "R": "V", "U": "U", "X": "X"}.get(t, t))
    return " ".join(out)


def spin(pm, formula, reduce, limit):
    """SPIN's verdict, stored states and pan's CPU seconds (cached under bench/.work/spin-ltl/,
    keyed by the model's text, the formula and the flags, so a re-run compiles nothing)."""
    key = hashlib.sha1(f"{open(pm).read()}\0{formula}\0{reduce}".encode()).hexdigest()
    path = os.path.join(CACHE, key + ".json")
    if os.path.exists(path):
        return json.load(open(path)), ""
    res, why = spin_run(pm, formula, reduce, limit)
    if res is not None:
        os.makedirs(CACHE, exist_ok=True)
        json.dump(res, open(path, "w"))
    return res, why


def spin_run(pm, formula, reduce, limit):
    with tempfile.TemporaryDirectory() as d:
        src = open(pm).read() + f"\nltl p {{ {formula} }}\n"
        open(os.path.join(d, "m.pml"), "w").write(src)
        r = subprocess.run(["spin", "-o3", "-a", "m.pml"], cwd=d, capture_output=True, text=True)
        if r.returncode != 0:
            return None, r.stdout[-300:] + r.stderr[-300:]
        flags = ["-O1", "-DVECTORSZ=4096"] + ([] if reduce else ["-DNOREDUCE"])
        r = subprocess.run(["gcc", *flags, "-o", "pan", "pan.c"], cwd=d, capture_output=True, text=True)
        if r.returncode != 0:
            return None, r.stderr[-300:]
        out, code, cpu, _ = run(["./pan", "-a", "-m1000000", "-w22"], limit, cwd=d)
        if code == "timeout":
            return None, "timeout"
        err = re.search(r"errors: (\d+)", out)
        st = re.search(r"([\d.e+]+) states, stored", out)
        if not err:
            return None, out[-300:]
        return {"holds": err.group(1) == "0", "states": int(float(st.group(1))) if st else None,
                "cpu": cpu}, ""


def verikit(binary, pm, formula, aps, por, limit):
    cmd = [binary, "mc", "check", "--json", "--ltl", formula, "-x", f"mc.por={por}", pm]
    for n, e in aps.items():
        if re.search(r"\b" + re.escape(n) + r"\b", formula):
            cmd[4:4] = ["--ap", f"{n}={e}"]
    out, code, cpu, _ = run(cmd, limit)
    try:
        j = json.loads(out)
    except ValueError:
        return None
    v = j.get("verdict")
    if v not in ("true", "false"):
        return None
    st = j.get("stats", {}).get("product_states")
    return {"holds": v == "true", "states": st, "cpu": cpu}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--verikit", default=os.path.join(ROOT, "target", "release", "verikit"))
    ap.add_argument("--limit", type=float, default=60)
    ap.add_argument("--spin-por", action="store_true", help="also run SPIN with its reduction")
    a = ap.parse_args()
    start = datetime.now(timezone.utc)
    up0 = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    expected = [l.rstrip("\n").split("\t") for l in open(os.path.join(BEEM, "EXPECTED.tsv"))]
    head = expected[0]
    col = {h: i for i, h in enumerate(head)}
    rows = []
    for m in MODELS:
        family = m.split("/")[0]
        pm = os.path.join(BEEM, m + ".pm")
        if not os.path.exists(pm):
            continue
        aps = aps_of(family, open(pm).read())
        for r in expected[1:]:
            if r[col["model"]] != m + ".dve" or r[col["property_type"]] != "LTL":
                continue
            f = spot_formula(r[col["formula"]])
            sf = spin_formula(f, aps)
            used = {n: e for n, e in aps.items() if re.search(r"\b" + re.escape(n) + r"\b", f)}
            full, why = spin(pm, sf, False, a.limit)
            red = spin(pm, sf, True, a.limit)[0] if a.spin_por else None
            if full is None:
                print(f"{m} prop{r[col['property_id']]}: SPIN failed: {why}", file=sys.stderr)
                continue
            vk = {p: verikit(a.verikit, pm, f, used, p, a.limit) for p in ("off", "on")}
            rows.append({"model": m + ".pm", "prop": r[col["property_id"]], "formula": f,
                         "aps": used, "spin_formula": sf, "beem": r[col["beem_answer"]],
                         "spin": full, "spin_por": red, "vk": vk})
            print(m, r[col["property_id"]], f, full, vk, file=sys.stderr)
    up1 = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    with open(TSV, "w") as out:
        out.write("model\tproperty\tformula\taps\tspin_verdict\tspin_states\n")
        for x in rows:
            aps = ";".join(f"{n}={e}" for n, e in x["aps"].items())
            out.write(f"{x['model']}\t{x['prop']}\t{x['formula']}\t{aps}\t"
                      f"{'holds' if x['spin']['holds'] else 'violated'}\t{x['spin']['states']}\n")
    ratio = lambda v, s: v["cpu"] / s["cpu"] if v and s and s["cpu"] > 0 else None
    with open(PAGE, "w") as p:
        p.write("# LTL on BEEM's Promela models: verikit vs SPIN\n\n")
        p.write(f"Generated by `bench/engines/mc_promela_ltl.py`, {start:%Y-%m-%d %H:%M} UTC. "
                f"Machine shared with other engineers' builds (load at start: `{up0}`; at end: "
                f"`{up1}`): CPU times are indicative, the verdicts are the comparison.\n\n")
        p.write("SPIN 6.5.2: `spin -o3 -a` with `ltl p { φ }`, `gcc -O1 [-DNOREDUCE]`, "
                "`./pan -a -m1000000 -w22`. verikit: `mc check --ltl φ --ap … -x mc.por=off|on`. "
                "States: SPIN's stored states (its product with the never claim; states inside "
                "`atomic` are not stored), verikit's product states (states inside `atomic` "
                "sequences are stored, with the exclusive process). A violated property stops "
                "both searches at their first accepting cycle: those counts depend on the search "
                "order. CPU seconds of one process (SPIN: `pan` only, compilation excluded).\n\n")
        p.write("| model | prop | formula | BEEM (DVE) | SPIN | verikit | SPIN states | verikit states | "
                "SPIN POR states | verikit POR states | CPU verikit/SPIN | POR CPU verikit/SPIN |\n")
        p.write("|---|---|---|---|---|---|---|---|---|---|---|---|\n")
        rs, rps, agree, missing = [], [], 0, 0
        for x in rows:
            v0, v1 = x["vk"]["off"], x["vk"]["on"]
            sv = "holds" if x["spin"]["holds"] else "violated"
            vv = "no answer" if v0 is None else ("holds" if v0["holds"] else "violated")
            missing += v0 is None
            if v1 is not None and v0 is not None and v0["holds"] != v1["holds"]:
                vv += " (POR differs!)"
            agree += sv == vv
            r0, r1 = ratio(v0, x["spin"]), ratio(v1, x["spin_por"])
            if r0:
                rs.append(r0)
            if r1:
                rps.append(r1)
            f3 = lambda r: f"{r:.3f}" if r else "–"
            st = lambda r: r["states"] if r and r.get("states") is not None else "–"
            p.write(f"| {x['model']} | {x['prop']} | `{x['formula']}` | {x['beem']} | {sv} | {vv} | "
                    f"{st(x['spin'])} | {st(v0)} | {st(x['spin_por'])} | {st(v1)} | "
                    f"{f3(r0)} | {f3(r1)} |\n")
        p.write(f"\nVerdicts equal to SPIN's on {agree} of {len(rows)} properties; verikit gave no "
                f"answer on {missing} (a proposition names a label the Promela lowering does not "
                f"keep as a control state: refused with a located error), and differed on "
                f"{len(rows) - agree - missing}. ")
        if rs:
            p.write(f"Median CPU ratio verikit/SPIN {statistics.median(rs):.3f} without reduction")
        if rps:
            p.write(f", {statistics.median(rps):.3f} with it")
        p.write(" (small models: start-up dominates both sides; the ratios are not a speed "
                "comparison).\n")


if __name__ == "__main__":
    main()
