"""Boolean-network attractors (SETTA'17 decomposition) benchmarks -> bench/results/bn.md.

1. The paper's setting (Sect. 5, Table 1): random networks of 100-450 nodes with few non-leaf nodes
   (`verikit bn gen`, same sizes and non-leaf counts as Table 1), decomposition vs monolithic, each
   with the paper's `Detect` (greatest fixed point, `--detect gfp`) and verikit's default
   (`--detect periods`), with and without leaf removal, and on the models with leaves removed
   (the non-leaf core alone, as in the paper's right-hand columns).
2. Every BBM model: `verikit bn attractors` (decomposition) with a per-model time limit.
3. Fixed points of every BBM model: verikit vs biodivine-aeon (AEON's times and answers recorded by
   bench/peers/bn_record_expected.py in tests/expected/bn-bbm-fixedpoints.tsv).

usage: VERIKIT_BIN=... PYTHONPATH=bench bench/.venv/bin/python bench/engines/bn.py \
           [--bbm-limit S] [--paper-limit S] [--models ID,ID,...] [--jobs N] [paper] [bbm] [rerun] [fp]
Each named section (default: paper, bbm and fp) is rerun and replaces its own section of bench/results/bn.md;
`--models` restricts the BBM sections to the given model ids (the other rows keep their last
results, marked as such); `rerun` reruns the BBM models the attractor table shows unfinished.
"""

import argparse
import re
import sys
import tempfile
from pathlib import Path

from harness import DATA, ROOT, Run, Table, measure, pip_version, verikit_cmd, verikit_version

ARGS = argparse.ArgumentParser()
ARGS.add_argument("sections", nargs="*", default=["paper", "bbm", "fp"])
ARGS.add_argument("--bbm-limit", type=float, default=60.0)
ARGS.add_argument("--paper-limit", type=float, default=20.0)
ARGS.add_argument("--models", default="")
ARGS.add_argument("--jobs", type=int, default=1, help="BBM models run at once (rerun section)")
ARGS.add_argument("--limit", type=int, default=0, help="only the first N BBM models (0 = all; for trying the script)")
OPTS = ARGS.parse_args()
BBM_LIMIT = OPTS.bbm_limit
PAPER_LIMIT = OPTS.paper_limit
CPU = "CPU seconds (user + system) of each verikit process, start-up included (limits are wall clock)"
ONLY = {m.strip() for m in OPTS.models.split(",") if m.strip()}

# (id, nodes, non-leaves) from the paper's Table 1.
PAPER = [(1, 100, 7), (2, 120, 9), (3, 150, 19), (4, 200, 6), (5, 250, 25), (6, 300, 88), (7, 450, 43)]

CONFIGS = {
    "decomp+leaf": ["--method", "decomposition", "--leaf-removal"],
    "decomp": ["--method", "decomposition", "--no-leaf-removal"],
    "mono+leaf": ["--method", "monolithic", "--leaf-removal"],
    "decomp-gfp": ["--method", "decomposition", "--no-leaf-removal", "--detect", "gfp"],
    "mono": ["--method", "monolithic", "--no-leaf-removal"],
    "mono-gfp": ["--method", "monolithic", "--no-leaf-removal", "--detect", "gfp"],
}


def counted(r: Run, key: str) -> Run:
    """verikit's `--json` answer in the table's terms: the answer is the count (`attractor_count`,
    `fixed_point_count`; the command has no true/false `verdict` of its own, only `timeout` /
    `error`), the time the CPU seconds (user + system) of the whole process, start-up included."""
    res = r.result
    n = res.get(key)
    # counts beyond 64 bits are printed as decimal strings
    if res.get("verdict") in (None, "true") and (isinstance(n, int) or (isinstance(n, str) and n.isdigit())):
        res["verdict"] = str(n)
    res["time_s"] = r.cpu_s
    return r


def attractors(model: Path, extra: list[str], limit: float) -> Run:
    return counted(measure(verikit_cmd("--json", "-q", "--timeout", str(limit), "bn", "attractors", str(model),
                                       "--limit", "10", *extra), timeout=limit + 5), "attractor_count")


def paper(tmp: Path) -> str:
    t = Table("bn", "Random networks like SETTA'17 Table 1", tools=list(CONFIGS), baseline="decomp+leaf",
              times=CPU)
    core = Table("bn", "The same networks with leaves removed (non-leaf core only)",
                 tools=["decomp", "mono-gfp"], baseline="decomp", times=CPU)
    for pid, n, m in PAPER:
        full, small = tmp / f"paper{pid}.bnet", tmp / f"paper{pid}-core.bnet"
        measure(verikit_cmd("-q", "bn", "gen", "-n", str(n), "--non-leaves", str(m), "--seed", str(pid), "-o", str(full)))
        # The generator draws the core first, so `-n m` with the same seed is exactly the core.
        measure(verikit_cmd("-q", "bn", "gen", "-n", str(m), "--non-leaves", str(m), "--seed", str(pid), "-o", str(small)))
        t.add(f"{pid}: {n} nodes, {m} non-leaves", {k: attractors(full, v, PAPER_LIMIT) for k, v in CONFIGS.items()})
        core.add(f"{pid}: core of {m} nodes", {k: attractors(small, CONFIGS[k], PAPER_LIMIT) for k in core.tools})
    notes = (f"Generated with `verikit bn gen -n N --non-leaves M --seed ID` (K = 2 regulators per node, core cut "
             f"into strongly connected modules of 5 nodes). Limit {PAPER_LIMIT:.0f} s per run. The answer column is "
             "the number of attractors; `decomp` is SCC decomposition (Algorithm 1), `+leaf` adds Algorithm 2 "
             "(leaf removal with mirror states), `-gfp` uses the paper's `Detect` (greatest fixed point of "
             "X ∩ Image(X)), `mono` is monolithic detection. Ratios are decomp+leaf (the paper's method, "
             "Algorithms 1 and 2) / other (< 1: decomp+leaf faster).")
    return t.markdown(notes=notes) + "\n" + core.markdown()


def bbm_models() -> list[Path]:
    models = sorted(p for p in (DATA / "bn" / "bbm").iterdir() if (p / "model.bnet").is_file())
    return models[:OPTS.limit] if OPTS.limit else models


def short_name(m: Path) -> str:
    parts = m.name.split("__")
    return " ".join(parts[:3])


def model_id(m: Path) -> str:
    return m.name.split("__")[0].replace("[id-", "").replace("]", "")


def previous_rows(title_prefix: str) -> dict[str, list[str]]:
    """The per-input rows of a section of the current bn.md (name -> cells)."""
    out = ROOT / "bench" / "results" / "bn.md"
    rows: dict[str, list[str]] = {}
    if not out.is_file():
        return rows
    inside = False
    for line in out.read_text().splitlines():
        if line.startswith("## "):
            inside = line[3:].startswith(title_prefix)
        elif inside and line.startswith("| [id-"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            rows[cells[0].rstrip(" *")] = cells
    return rows


def old_run(cells: list[str]) -> Run:
    ans, secs, mib = cells[0], float(cells[1]), float(cells[2]) if cells[2] != "nan" else float("nan")
    ok = ans not in ("timeout", "error", "resource-limit", "?")
    return Run(secs, mib, 0 if ok else 1, ans == "timeout", "", "", {"verdict": ans, "time_s": secs} if ok else {})


BBM_TITLE = "Every BBM model: attractors by decomposition"


def bbm(write=None) -> str:
    """Every BBM model, one at a time; with `write`, the section is rewritten after every model
    (so a run cut short still reports what it did)."""
    prev = previous_rows(BBM_TITLE)
    models = bbm_models()
    rows: list[tuple[str, Run]] = []

    def section() -> str:
        t = Table("bn", f"{BBM_TITLE} (limit {BBM_LIMIT:.0f} s)", tools=["verikit"], times=CPU)
        for short, r in rows:
            t.add(short, {"verikit": r})
        solved = sum(1 for _, r, _ in t.rows if r["verikit"].ok)
        kept = sum(1 for short, _ in rows if short.endswith(" *"))
        notes = (f"{solved} of {len(t.rows)} models complete within {BBM_LIMIT:.0f} s (answer = number of "
                 "attractors, inputs free; verikit's default configuration, one model at a time).")
        if kept:
            notes += (f" Rows marked `*` ({kept}) were not rerun in this run: they keep their time from the "
                      "previous run of this table.")
        if len(rows) < len(models):
            notes += f" The run is in progress or was cut short: {len(models) - len(rows)} models not run yet."
        return t.markdown(notes=notes)

    for m in models:
        short = short_name(m)
        if ONLY and model_id(m) not in ONLY and short in prev:
            rows.append((short + " *", old_run(prev[short][1:4])))
        else:
            rows.append((short, attractors(m / "model.bnet", [], BBM_LIMIT)))
        if write is not None:
            write(section())
    return section()


RERUN_TITLE = "BBM models that did not complete above, rerun with the current default"


def bbm_rerun(write) -> str:
    """The BBM models whose row in the attractor table is not a completed answer, rerun with the
    current default (decomposition with leaf removal), `--jobs` at a time, smallest first; the
    section is rewritten after every model (so a run cut short still reports what it did)."""
    from concurrent.futures import ThreadPoolExecutor, as_completed
    prev = previous_rows(BBM_TITLE)
    todo = [m for m in bbm_models() if short_name(m) in prev and not old_run(prev[short_name(m)][1:4]).ok]
    todo.sort(key=lambda m: int(m.name.split("__")[1].strip("[]").split("-")[1]))
    done: dict[Path, Run] = {}

    def section() -> str:
        t = Table("bn", f"{RERUN_TITLE} (limit {BBM_LIMIT:.0f} s)", tools=["verikit"], times=CPU)
        for m in todo:
            if m in done:
                t.add(short_name(m), {"verikit": done[m]})
        solved = sum(1 for _, r, _ in t.rows if r["verikit"].ok)
        notes = (f"{solved} of the {len(t.rows)} models rerun complete within {BBM_LIMIT:.0f} s with decomposition "
                 f"and leaf removal (Algorithm 2, the default since decision 0402); {OPTS.jobs} run(s) at a time, "
                 "smallest models first.")
        if len(done) < len(todo):
            notes += (" Not rerun (the run was cut short): "
                      + ", ".join(short_name(m) for m in todo if m not in done) + ".")
        return t.markdown(notes=notes)

    with ThreadPoolExecutor(max_workers=max(1, OPTS.jobs)) as pool:
        futures = {pool.submit(attractors, m / "model.bnet", [], BBM_LIMIT): m for m in todo}
        for f in as_completed(futures):
            done[futures[f]] = f.result()
            write(section())
    return section()


def bbm_fp() -> str:
    expected = {}
    exp_file = ROOT / "tests" / "expected" / "bn-bbm-fixedpoints.tsv"
    for line in exp_file.read_text().splitlines():
        if line.startswith("#"):
            continue
        name, answer, secs = line.split("\t")
        expected[name] = (answer, float(secs))
    fp = Table("bn", "Fixed points of every BBM model: verikit vs biodivine-aeon", tools=["verikit", "aeon"],
               times="verikit: CPU seconds (user + system) of its process, start-up included; AEON: its "
                     "recorded time inside the tool")
    for m in bbm_models():
        runs = {"verikit": counted(measure(verikit_cmd("--json", "-q", "--timeout", "20", "bn", "fixed-points",
                                                       str(m / "model.bnet"), "--limit", "0"), timeout=25),
                                   "fixed_point_count")}
        if m.name in expected:
            ans, secs = expected[m.name]
            ok = ans not in ("timeout", "error")
            runs["aeon"] = Run(secs, float("nan"), 0 if ok else 1, ans == "timeout", "", "",
                               {"verdict": ans, "time_s": secs} if ok else {})
        fp.add(short_name(m), runs)
    fnotes = ("AEON: `FixedPoints.symbolic` on `AsynchronousGraph`, free inputs made explicit as `f(x) = x`, "
              "20 s limit, answers and times recorded by `bench/peers/bn_record_expected.py` (time inside "
              "the tool, excluding interpreter start-up); verikit: `bn fixed-points`, 20 s limit.")
    return fp.markdown(notes=fnotes)


def demote(md: str) -> str:
    """One table's markdown as a section: `# T` -> `## T`, `## S` -> `### S`."""
    return "\n".join("#" + line if line.startswith("#") else line for line in md.splitlines()) + "\n"


def replace_section(text: str, section: str) -> str:
    """Replaces the `## ` section of `text` with the same title prefix (up to a parenthesis) by `section`."""
    title = section.splitlines()[0][3:]
    key = re.sub(r"\s*\(.*$", "", title)
    parts = re.split(r"(?m)^(?=## )", text)
    for i, part in enumerate(parts):
        if part.startswith("## ") and re.sub(r"\s*\(.*$", "", part.splitlines()[0][3:]) == key:
            parts[i] = section + "\n\n"
            return "".join(parts)
    return text.rstrip("\n") + "\n\n" + section


def main() -> None:
    out = ROOT / "bench" / "results" / "bn.md"
    text = out.read_text() if out.is_file() else "# Boolean networks (SETTA'17 decomposition): results\n\n"
    text = re.sub(r"(?m)^- verikit: .*$", f"- verikit: {verikit_version()}", text, count=1)
    if "paper" in OPTS.sections:
        with tempfile.TemporaryDirectory() as d:
            md = paper(Path(d))
        for sec in re.split(r"(?m)^(?=# )", md):
            if sec.strip():
                text = replace_section(text, demote(sec).rstrip("\n"))
        out.write_text(text)

    def section(base: str, produce) -> str:
        """Replaces one section of the page, rewriting the page whenever `produce` reports
        progress (so a run cut short still leaves its rows)."""

        def write(md: str) -> None:
            out.write_text(replace_section(base, demote(md).rstrip("\n")))

        new = replace_section(base, demote(produce(write)).rstrip("\n"))
        out.write_text(new)
        return new

    if "bbm" in OPTS.sections:
        text = section(text, bbm)
    if "rerun" in OPTS.sections:
        text = section(text, bbm_rerun)
    if "fp" in OPTS.sections:
        text = replace_section(text, demote(bbm_fp()).rstrip("\n"))
        out.write_text(text)
    print(f"wrote {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
