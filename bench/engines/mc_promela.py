#!/usr/bin/env python3
"""verikit mc vs SPIN on the same Promela files (BEEM's `.pm` translations), with and without
partial-order reduction on both sides.

Inputs: the rows of ../shared/data/beem/SPIN-CHECK.tsv with a SPIN state count between
--min-states and --max-states (SPIN over 120 s in that table has no count and is skipped), every
--every-th of them by size, smallest first, until a wall-clock budget.

SPIN: `spin -a` and `gcc -O2 -DVECTORSZ=4096` are run ONCE per model and configuration (with
`-DNOREDUCE` = no reduction, without it = SPIN's default partial-order reduction); the `pan`
binaries are cached under bench/.work/spin/ (keyed by the .pm's content and the flags), so
compilation is never charged to a run and a re-run compiles nothing. `./pan -mD -c0 -wN`
with the hash table and the search stack sized to the model: N = ceil(log2(2 * S)) where S is
SPIN's state count of SPIN-CHECK.tsv (SPIN's default 2^24-slot table would otherwise dominate
small models and thrash on large ones), D = max(10000, 2 * SPIN-CHECK's depth) (pan allocates the
stack up front; ×10 and again when pan says the depth was too small).

verikit: `verikit mc check --assert -x mc.por=off M.pm` (the whole state space when the assertions
hold) and the same with `-x mc.por=on` (ample sets); the same question as pan's default safety run.

Per run: states, CPU seconds (user + system) and peak resident memory of the one process (from
wait4, so `pan`'s compilation and verikit's start-up are separated cleanly: verikit's start-up,
parsing and compilation are included, SPIN's `spin -a` + `gcc` are not), ratio verikit/SPIN per
model and medians with and without reduction. Writes bench/results/mc-promela.md.

With --before OLD.md (a previous page, saved before the run), the per-model table also shows
that page's verikit state counts and ratios, so one page carries the before and after numbers.

Usage: bench/engines/mc_promela.py [--limit SECS] [--min-states N] [--max-states N] [--every K]
                                   [--budget SECS] [--verikit PATH] [--before OLD.md]
"""
import argparse, csv, tempfile, hashlib, json, math, os, re, shutil, signal, statistics, subprocess, time
from datetime import datetime, timezone

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.environ.get("VERIKIT_DATA", os.path.join(ROOT, "..", "shared", "data"))
BEEM = os.path.join(DATA, "beem")
CACHE = os.path.join(ROOT, "bench", ".work", "spin")
SPIN_CFLAGS = ["-O2", "-DVECTORSZ=4096"]


def run(cmd, limit, cwd=None):
    """(stdout, exit code or 'timeout', CPU seconds, peak RSS MiB) of one process; stdout goes
    through a file (a `--json` witness can exceed a pipe's buffer)."""
    with tempfile.TemporaryFile("w+") as out:
        p = subprocess.Popen(cmd, stdout=out, stderr=subprocess.DEVNULL, cwd=cwd,
                             start_new_session=True)
        t0 = time.time()
        while True:
            pid, status, ru = os.wait4(p.pid, os.WNOHANG)
            if pid:
                break
            if time.time() - t0 > limit:
                os.killpg(p.pid, signal.SIGKILL)
                pid, status, ru = os.wait4(p.pid, 0)
                return "", "timeout", ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024
            time.sleep(0.02)
        out.seek(0)
        code = os.waitstatus_to_exitcode(status)
        return out.read(), code, ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024


def pan_binary(pm, por):
    """The cached `pan` of model `pm` in one configuration, compiled on first use: (path, compile CPU s) or an error."""
    src = open(pm, "rb").read()
    flags = SPIN_CFLAGS + ([] if por else ["-DNOREDUCE"])
    key = hashlib.sha256(src + " ".join(flags).encode()).hexdigest()[:16]
    d = os.path.join(CACHE, key)
    exe = os.path.join(d, "pan")
    if os.path.exists(exe):
        return exe, None
    tmp = d + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    with open(os.path.join(tmp, "m.pm"), "wb") as f:
        f.write(src)
    t = 0.0
    _, code, c1, _ = run(["spin", "-a", "m.pm"], 300, cwd=tmp)
    t += c1
    if code != 0:
        return None, "spin -a"
    _, code, c2, _ = run(["gcc"] + flags + ["-o", "pan", "pan.c"], 900, cwd=tmp)
    t += c2
    if code != 0:
        return None, "gcc"
    for f in os.listdir(tmp):
        if f != "pan":
            os.remove(os.path.join(tmp, f))
    shutil.rmtree(d, ignore_errors=True)
    os.rename(tmp, d)
    return exe, t


def spin(pm, limit, states, depth, por):
    exe, compile_s = pan_binary(pm, por)
    if exe is None:
        return {"error": compile_s}
    w = max(10, math.ceil(math.log2(2 * max(states, 1))))
    # the depth limit sized like the table: pan allocates its search stack up front
    m = max(10_000, 2 * depth)
    while True:
        out, code, cpu, rss = run([exe, f"-m{m}", "-c0", f"-w{w}"], limit, cwd=os.path.dirname(exe))
        if "max search depth too small" not in out or m >= 100_000_000:
            break
        m *= 10
    m = re.search(r"([0-9]+) states, stored", out)
    mem = re.search(r"([0-9.]+)\s+total actual memory usage", out)
    if code == "timeout":
        return {"error": "timeout", "cpu": cpu}
    if not m:
        return {"error": "pan", "cpu": cpu}
    return {"states": int(m.group(1)), "cpu": cpu, "mib": float(mem.group(1)) if mem else rss,
            "compile": compile_s}


def verikit(exe, pm, limit, por):
    cmd = [exe, "--json", "-q", "--timeout", str(limit), "-x", "mc.por=" + ("on" if por else "off")] + \
          ["mc", "check", "--assert", pm]
    out, code, cpu, rss = run(cmd, limit + 10)
    try:
        v = json.loads(out)
    except Exception:
        return {"error": "timeout" if code in ("timeout", 3) else "no answer", "cpu": cpu}
    if v.get("verdict") != "true":
        return {"error": v.get("verdict", "error"), "cpu": cpu}
    return {"states": v.get("stats", {}).get("states"), "cpu": cpu, "mib": rss}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--limit", type=float, default=60)
    ap.add_argument("--min-states", type=int, default=20_000)
    ap.add_argument("--max-states", type=int, default=10_000_000)
    ap.add_argument("--every", type=int, default=2, help="take every K-th model by size")
    ap.add_argument("--budget", type=float, default=1500)
    ap.add_argument("--verikit", default=os.path.join(ROOT, "target", "release", "verikit"))
    ap.add_argument("--before", help="a previous mc-promela.md whose per-model numbers to show")
    a = ap.parse_args()
    rows = []
    with open(os.path.join(BEEM, "SPIN-CHECK.tsv")) as f:
        for r in csv.DictReader(f, delimiter="\t"):
            try:
                s = int(r["spin_states_stored"])
            except ValueError:
                continue
            if a.min_states <= s <= a.max_states:
                r["depth"] = int(r["spin_depth"] or 0)
                rows.append((s, r))
    rows.sort(key=lambda x: x[0])
    rows = rows[::max(1, a.every)]
    load0 = os.getloadavg()
    t0 = time.time()
    res = []
    for s, r in rows:
        if time.time() - t0 > a.budget:
            break
        pm = os.path.join(BEEM, r["promela"])
        item = {"r": r,
                "v": verikit(a.verikit, pm, a.limit, False), "sp": spin(pm, a.limit, s, r["depth"], False),
                "vr": verikit(a.verikit, pm, a.limit, True), "spr": spin(pm, a.limit, s, r["depth"], True)}
        res.append(item)
        print(r["promela"], json.dumps({k: v for k, v in item.items() if k != "r"}), flush=True)
    write(res, a, load0, os.getloadavg(), time.time() - t0, len(rows))


def same_space(r, v, sp):
    """verikit's stored states against pan's: `equal`, `equal +2` (SPIN's 2-state `init` prefix, which
    verikit folds into the initial state) or the difference verikit − SPIN."""
    if "states" not in v or "states" not in sp:
        return "–"
    d = v["states"] - sp["states"]
    if d == 0:
        return "equal"
    with open(os.path.join(BEEM, r["promela"])) as f:
        has_init = re.search(r"^\s*init\b", f.read(), re.M) is not None
    return "equal +2" if d == -2 and has_init else f"{d:+d}"


def fmt(x, p=3):
    return "–" if x is None else (f"{x:.{p}f}" if isinstance(x, float) else str(x))


def ratio(v, s):
    if "states" in v and "states" in s and s["cpu"] > 0:
        return v["cpu"] / s["cpu"]
    return None


def cell(d, k, p=3):
    return fmt(d.get(k), p) if "states" in d else d.get("error", "–")


def med(xs):
    return (f"{statistics.median(xs):.3f} over {len(xs)} models (min {min(xs):.3f}, max {max(xs):.3f})"
            if xs else "– (no model finished on both sides)")


def before_rows(path):
    """promela → (verikit states, ratio, verikit POR states, POR ratio) of a previous page (its first
    per-model table: the pages below it, kept as they were, are older runs)."""
    out = {}
    if not path:
        return out
    head = None
    for line in open(path):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells and cells[0] == "promela":
            if head:
                break
            head = cells
            continue
        if head and len(cells) == len(head) and not cells[0].startswith("---"):
            row = dict(zip(head, cells))
            out[row["promela"]] = (row.get("verikit states"), row.get("ratio"),
                                   row.get("verikit POR states"), row.get("POR ratio"))
    return out


def write(res, a, load0, load1, wall, total):
    before = before_rows(a.before)
    ver = subprocess.run([a.verikit, "--version"], capture_output=True, text=True).stdout.strip()
    rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT).stdout.strip()
    sv = subprocess.run(["spin", "-V"], capture_output=True, text=True).stdout.strip()
    rs, rp, red_v, red_s, lines, eq_r, eq_rp, n_eq = [], [], [], [], [], [], [], 0
    for i in res:
        r, v, sp, vr, spr = i["r"], i["v"], i["sp"], i["vr"], i["spr"]
        x, y = ratio(v, sp), ratio(vr, spr)
        rel = same_space(r, v, sp)
        if rel.startswith("equal"):
            n_eq += 1
            if x is not None:
                eq_r.append(x)
            if y is not None:
                eq_rp.append(y)
        if x is not None:
            rs.append(x)
        if y is not None:
            rp.append(y)
        if "states" in v and "states" in vr and v["states"]:
            red_v.append(vr["states"] / v["states"])
        if "states" in sp and "states" in spr and sp["states"]:
            red_s.append(spr["states"] / sp["states"])
        lines.append(f"| {r['promela']} | {r['relation'].split(' (')[0]} | {rel} | {cell(v, 'states')} | {cell(sp, 'states')} | "
                     f"{cell(v, 'cpu')} | {cell(sp, 'cpu')} | {cell(v, 'mib', 1)} | {cell(sp, 'mib', 1)} | {fmt(x)} | "
                     f"{cell(vr, 'states')} | {cell(spr, 'states')} | {cell(vr, 'cpu')} | {cell(spr, 'cpu')} | "
                     f"{cell(vr, 'mib', 1)} | {cell(spr, 'mib', 1)} | {fmt(y)} |"
                     + ("".join(f" {x} |" for x in before.get(r["promela"], ("–",) * 4)) if before else ""))
    now = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    out = [
        "# Promela: verikit mc vs SPIN on BEEM's `.pm` files, with and without partial-order reduction",
        "",
        f"- machine: Linux x86_64, {os.cpu_count()} cores, shared with other jobs; date {now}; whole run {wall:.0f} s",
        f"- load (1/5/15-min) at start {load0[0]:.1f}/{load0[1]:.1f}/{load0[2]:.1f}, at end {load1[0]:.1f}/{load1[1]:.1f}/{load1[2]:.1f}: "
        + ("the machine was shared and loaded, so CPU times are indicative" if max(load0[0], load1[0]) > 3
           else "an almost idle machine"),
        f"- verikit: {ver} ({rev}); SPIN: {sv}",
        f"- inputs: {len(res)} of {total} SPIN-CHECK rows with {a.min_states}–{a.max_states} SPIN states (every {a.every}-th by size), "
        f"limit {a.limit:.0f} s per run, {a.budget:.0f} s budget",
        "- SPIN: `spin -a` + `gcc " + " ".join(SPIN_CFLAGS) + " [-DNOREDUCE]` once per model and configuration (binaries cached, "
        "compilation not charged), `./pan -mD -c0 -wN`, N = ceil(log2(2 × SPIN's state count)), D = max(10000, 2 × SPIN's depth); memory = pan's "
        "\"total actual memory usage\"",
        "- verikit: `verikit mc check --assert -x mc.por=off|on M.pm` (the data-flow reset `-x mc.dataflow` at its default, "
        "`spin`, SPIN's rule), CPU of the whole process (start-up, parsing, lowering, compiling, exploring); memory = peak resident set",
        "- ratio = verikit CPU / pan CPU (< 1: verikit faster)",
        "",
        "## Summary",
        "",
        f"- without reduction (`-DNOREDUCE` / default): median ratio {med(rs)}",
        f"- with reduction (SPIN's default POR / `-x mc.por=on`): median ratio {med(rp)}",
        f"- verikit's states equal SPIN's (`-DNOREDUCE`) on {n_eq} of {len(res)} models; on those, median ratio "
        f"{med(eq_r)} without reduction, {med(eq_rp)} with it",
        f"- reduced/full states: verikit median {fmt(statistics.median(red_v)) if red_v else '–'}, "
        f"SPIN median {fmt(statistics.median(red_s)) if red_s else '–'}",
        "- verikit follows SPIN's Promela semantics where it is known to differ from DVE's (decisions 0710, 0712, 0713): "
        "`atomic` sequences explored through, their exclusivity held by the one process that moved last inside its "
        "sequence and given up when it blocks, a rendezvous receive never starts a rendezvous (a sequence waiting on one "
        "yields), a rendezvous send gives up the sequence's exclusivity, SPIN's data-flow reset (`-x mc.dataflow=spin`); "
        "the column \"vs SPIN\" compares verikit's stored states with SPIN's (`equal +2` = up to the 2-state `init` "
        "prefix SPIN stores); the SPIN-CHECK relation column compares SPIN with BEEM's DVE model",
        "",
        "## Per model",
        "",
        "| promela | SPIN-CHECK relation | vs SPIN | verikit states | SPIN states | verikit s | pan s | verikit MiB | pan MiB | ratio | "
        "verikit POR states | SPIN POR states | verikit POR s | pan POR s | verikit POR MiB | pan POR MiB | POR ratio |"
        + (" before: verikit states | before: ratio | before: verikit POR states | before: POR ratio |" if before else ""),
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|" + ("---|---|---|---|" if before else ""),
    ] + lines
    path = os.path.join(ROOT, "bench", "results", "mc-promela.md")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")
    print("wrote", path)


if __name__ == "__main__":
    main()
