#!/usr/bin/env python3
"""The visited-state table's layouts: `-x mc.store=hash` against `-x mc.store=tree` (LTSmin's tree
compression) on BEEM instances of 1-50 M states.

For every instance of INSTANCES (or --models): `verikit mc info MODEL --threads 1` with each
store, one after the other, under `/usr/bin/time` (CPU time = user + sys, peak RSS). The store's
bytes are the JSON answer's `memory_bytes` less the breadth-first search's parent links (4 bytes
per state, exactly `states * 4` in that figure), so bytes/state is the table alone. With
--large MODEL: that model with the tree store and --threads 2 within --large-limit seconds (the
issue's scale question; the hash store's figures for it are on the page already).

Replaces the section "## Tree compression" of bench/results/mc.md (written by mc.py) in place,
keeping the previous table of that section as a "before" block.

Usage: bench/engines/mc_tree.py [--limit SECS] [--models a/a.1.dve,...] [--large MODEL]
       [--large-limit SECS] [--verikit PATH]
"""
import argparse, json, os, re, statistics, subprocess, tempfile, time
from datetime import datetime, timezone

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.environ.get("VERIKIT_DATA", os.path.join(ROOT, "..", "shared", "data"))
BEEM = os.path.join(DATA, "beem")
PAGE = os.path.join(ROOT, "bench", "results", "mc.md")
HEADING = "## Tree compression"

INSTANCES = [
    "iprotocol/iprotocol.3.dve", "bopdp/bopdp.3.dve", "szymanski/szymanski.3.dve",
    "plc/plc.3.dve", "sorter/sorter.3.dve", "leader_filters/leader_filters.5.dve",
    "at/at.3.dve", "lann/lann.3.dve", "adding/adding.3.dve", "fischer/fischer.3.dve",
]


def run(exe, model, store, threads, limit):
    """One `mc info`: its JSON stats with CPU seconds and peak RSS (KiB) of /usr/bin/time."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as tf:
        cmd = ["/usr/bin/time", "-o", tf.name, "-f", "%U %S %M %e", exe, "--json", "-q",
               "--timeout", str(limit), "-x", f"mc.store={store}", "mc", "info",
               os.path.join(BEEM, model), "--threads", str(threads)]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=limit + 60)
        fields = tf.read().split()[-4:]
    user, sys_, rss, wall = float(fields[0]), float(fields[1]), int(fields[2]), float(fields[3])
    try:
        v = json.loads(p.stdout)
    except ValueError:
        v = {}
    s = v.get("stats", {})
    states = s.get("states") or 0
    mem = s.get("memory_bytes") or 0
    # The sequential search's figure is the store plus exactly 4 bytes of parent link per state.
    return {"code": p.returncode, "states": states, "transitions": s.get("transitions"),
            "store": max(mem - 4 * states, 0), "cpu": user + sys_, "rss": rss * 1024,
            "wall": wall, "width": v.get("input", {}).get("state_bytes", "")}


def mib(b):
    return f"{b / 2**20:.1f}"


def num(n):
    """Thousands separated by spaces, as the rest of the page writes them."""
    return f"{n:,}".replace(",", " ")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--limit", type=int, default=120)
    ap.add_argument("--models", default=",".join(INSTANCES))
    ap.add_argument("--large", default="")
    ap.add_argument("--large-limit", type=int, default=600)
    ap.add_argument("--verikit", default=os.path.join(ROOT, "target", "release", "verikit"))
    a = ap.parse_args()
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    load0 = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    t0 = datetime.now(timezone.utc)
    rows, ratios_cpu, ratios_store, ratios_rss = [], [], [], []
    for model in [m for m in a.models.split(",") if m]:
        h = run(a.verikit, model, "hash", 1, a.limit)
        t = run(a.verikit, model, "tree", 1, a.limit)
        ok = h["code"] == 0 and t["code"] == 0 and h["states"] == t["states"]
        print(model, h, t, flush=True)
        if ok and h["states"]:
            ratios_cpu.append(t["cpu"] / max(h["cpu"], 1e-3))
            ratios_store.append(t["store"] / max(h["store"], 1))
            ratios_rss.append(t["rss"] / max(h["rss"], 1))
        rows.append((model, h, t, ok))
    large = run(a.verikit, a.large, "tree", 2, a.large_limit) if a.large else None
    if large:
        print(a.large, large, flush=True)
    load1 = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    t1 = datetime.now(timezone.utc)

    out = [HEADING, ""]
    out.append(f"One run of `bench/engines/mc_tree.py` (release binary of {commit}), "
               f"{t0:%Y-%m-%d %H:%M}–{t1:%H:%M} UTC on this 2-core machine, shared with other "
               f"engineers' builds: `uptime` at the start `{load0}`, at the end `{load1}`. "
               f"`verikit mc info MODEL --threads 1 -x mc.store=hash|tree`, each limited to {a.limit} s; "
               "CPU = user + sys of `/usr/bin/time`, RSS = its peak resident set. Store = the "
               "visited-state table alone (the answer's `memory_bytes` less 4 bytes of parent link "
               "per state); B/state = store bytes per stored state (table capacity included).")
    out.append("")
    out.append("| model | states | width B | hash CPU s | tree CPU s | CPU tree/hash | hash store MiB | tree store MiB | hash B/state | tree B/state | hash RSS MiB | tree RSS MiB | RSS tree/hash |")
    out.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for model, h, t, ok in rows:
        if not ok:
            out.append(f"| {model} | {h['states']} / {t['states']} | | {h['cpu']:.1f} | {t['cpu']:.1f} | "
                       f"exit {h['code']} / {t['code']} | | | | | | | |")
            continue
        n = h["states"]
        width = h["width"]
        out.append(f"| {model} | {num(n)} | {width} | {h['cpu']:.1f} | {t['cpu']:.1f} | {t['cpu'] / max(h['cpu'], 1e-3):.2f} | "
                   f"{mib(h['store'])} | {mib(t['store'])} | {h['store'] / n:.1f} | {t['store'] / n:.1f} | "
                   f"{mib(h['rss'])} | {mib(t['rss'])} | {t['rss'] / max(h['rss'], 1):.2f} |")
    if ratios_cpu:
        out.append("")
        out.append(f"Medians over the {len(ratios_cpu)} instances both stores finished: CPU tree/hash "
                   f"**{statistics.median(ratios_cpu):.2f}**, store bytes tree/hash "
                   f"**{statistics.median(ratios_store):.2f}**, peak RSS tree/hash "
                   f"**{statistics.median(ratios_rss):.2f}**.")
    if large:
        out.append("")
        n = max(large["states"], 1)
        out.append(f"Scale: `{a.large}` with `-x mc.store=tree --threads 2`, limit {a.large_limit} s: "
                   f"exit {large['code']}, {num(large['states'])} states, {num(large['transitions'] or 0)} "
                   f"transitions, {large['cpu']:.1f} CPU s, {large['wall']:.0f} s wall, peak RSS "
                   f"{mib(large['rss'])} MiB ({large['rss'] / n:.1f} B/state resident, the threads' 8-byte "
                   "parent links included; the hash store's complete run above: 2.41 GiB, "
                   f"{2.41 * 2**30 / 75573912:.1f} B/state).")
    write_section(out)


def write_section(lines):
    text = open(PAGE).read() if os.path.exists(PAGE) else ""
    body = "\n".join(lines) + "\n"
    m = re.search(r"^## Tree compression\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    if m:
        old = m.group(1).strip()
        before = ""
        if old:
            kept = re.sub(r"^### Before\n.*", "", old, flags=re.S | re.M).strip()
            before = "\n### Before\n\n" + kept + "\n"
        text = text[:m.start()] + body + before + "\n" + text[m.end():]
    else:
        text = text.rstrip("\n") + "\n\n" + body
    open(PAGE, "w").write(text)


if __name__ == "__main__":
    main()
