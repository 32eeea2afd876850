"""The one timing helper every engine's benchmark script uses.

    from harness import measure, Table, verikit_cmd, peer_python
    t = Table("nfa", "NFA inclusion: verikit vs libmata", tools=["verikit", "libmata"])
    for problem in problems:
        runs = {"verikit": measure(verikit_cmd("nfa", "incl", a, b, "--json")),
                "libmata": measure(peer_python("mata_incl.py", a, b))}
        t.add(problem.name, runs)
    t.write(versions={...}, notes="...")

`measure` runs one process with a wall-clock limit and records wall time, peak RSS (from wait4),
stdout, and the CPU time (user + system) of the process (`Run.cpu_s`, also from wait4: the
measure to prefer on a shared, loaded machine). The peer scripts in `bench/peers/` print a JSON
object whose `"verdict"` is the answer and whose optional `"time_s"` is the time spent inside the
tool (parsing and solving, without interpreter start-up and imports). verikit's `--json` answers
carry `"verdict"` in true/false/unknown/timeout/error with the command's own words as detail fields
(`"result": "sat"`, counts, values) and seconds under `"times"`: each engine script maps them to
the answer it compares with the peers and sets `time_s` (usually to `Run.cpu_s`). The table uses
`time_s` when a tool reports it, else wall time (`Table(..., times=...)` says which in the page).
Ratios are verikit / peer (below 1 means verikit is faster).
"""

from __future__ import annotations

import json
import os
import platform
import signal
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
DATA = Path(os.environ.get("VERIKIT_DATA", ROOT.parent / "shared" / "data")).resolve()
VENV_PY = BENCH / ".venv" / "bin" / "python"
VERIKIT = Path(os.environ.get("VERIKIT_BIN", ROOT / "target" / "release" / "verikit"))


@dataclass
class Run:
    wall_s: float
    peak_mb: float
    rc: int
    timed_out: bool
    stdout: str
    stderr: str
    result: dict = field(default_factory=dict)
    # CPU seconds (user + system) of the process and the children it waited for, from wait4
    cpu_s: float = float("nan")

    @property
    def verdict(self) -> str:
        if self.timed_out:
            return "timeout"
        v = self.result.get("verdict")
        return str(v) if v is not None else ("error" if self.rc != 0 else "?")

    @property
    def time_s(self) -> float:
        t = self.result.get("time_s")
        return float(t) if isinstance(t, (int, float)) else self.wall_s

    @property
    def ok(self) -> bool:
        return not self.timed_out and self.rc == 0 and self.verdict not in ("error", "?", "timeout")


def verikit_cmd(*args: str) -> list[str]:
    return [str(VERIKIT), *map(str, args)]


def peer_python(script: str, *args: str) -> list[str]:
    return [str(VENV_PY), str(BENCH / "peers" / script), *map(str, args)]


def _last_json(text: str) -> dict:
    for line in reversed(text.strip().splitlines()):
        line = line.strip()
        if line.startswith("{"):
            try:
                return json.loads(line)
            except json.JSONDecodeError:
                continue
    return {}


def measure(cmd: list[str], timeout: float = 60.0, stdin: str | None = None, env: dict | None = None,
            cpu_limit: float | None = None) -> Run:
    """Runs `cmd`, killing its process group after `timeout` seconds; peak RSS and CPU time come from
    wait4. With `cpu_limit`, the process is also stopped after that many CPU seconds (RLIMIT_CPU)
    and such a run counts as timed out: the limit to use on a loaded machine."""
    preexec = None
    if cpu_limit is not None:
        secs = int(cpu_limit) + 1

        def preexec() -> None:
            import resource
            resource.setrlimit(resource.RLIMIT_CPU, (secs, secs + 1))

    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=preexec,
                         start_new_session=True, env={**os.environ, **(env or {})})
    chunks: dict[str, list[bytes]] = {"out": [], "err": []}

    def pump(stream, key):
        for block in iter(lambda: stream.read(65536), b""):
            chunks[key].append(block)

    readers = [threading.Thread(target=pump, args=(p.stdout, "out"), daemon=True),
               threading.Thread(target=pump, args=(p.stderr, "err"), daemon=True)]
    for r in readers:
        r.start()
    if stdin is not None:
        try:
            p.stdin.write(stdin.encode())
            p.stdin.close()
        except BrokenPipeError:
            pass
    timed_out = False
    status, peak, cpu = 0, float("nan"), float("nan")
    while True:
        pid, status, ru = os.wait4(p.pid, os.WNOHANG)
        if pid == p.pid:
            peak = ru.ru_maxrss / 1024.0  # Linux reports KiB
            cpu = ru.ru_utime + ru.ru_stime
            break
        if time.perf_counter() - t0 > timeout:
            timed_out = True
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            _, status, ru = os.wait4(p.pid, 0)
            peak = ru.ru_maxrss / 1024.0
            cpu = ru.ru_utime + ru.ru_stime
            break
        time.sleep(0.002)
    wall = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    if cpu_limit is not None and (cpu > cpu_limit or p.returncode in (-signal.SIGXCPU, -signal.SIGKILL)):
        timed_out = True
    for r in readers:
        r.join(timeout=5)
    out = b"".join(chunks["out"]).decode(errors="replace")
    err = b"".join(chunks["err"]).decode(errors="replace")
    return Run(wall, peak, p.returncode, timed_out, out, err, _last_json(out), cpu)


def ltl_automata(result: dict) -> list[dict]:
    """The automata of one `verikit --json ltl translate --stats -F FILE` answer, one per formula in
    file order, flattened to what the LTL scripts compare: the sizes of `"stats"` (states, edges,
    acc_sets, …), `time_s` = the formula's `times.translate_s` (parsing excluded), `formula`, and
    `reduction` when `--reduce` printed one. Items without stats (a formula that failed) are skipped,
    so a short list means a failure."""
    out = []
    for item in result.get("results", []):
        st = item.get("stats")
        if not isinstance(st, dict):
            continue
        a = dict(st)
        a["time_s"] = float(item.get("times", {}).get("translate_s", float("nan")))
        a["formula"] = item.get("formula")
        if "reduction" in item:
            a["reduction"] = item["reduction"]
        out.append(a)
    return out


def machine() -> str:
    cpu = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = ""
    try:
        kb = int(Path("/proc/meminfo").read_text().split()[1])
        mem = f", {kb / 1048576:.0f} GiB RAM"
    except (OSError, ValueError, IndexError):
        pass
    return f"{platform.system()} {platform.machine()}, {cpu}, {os.cpu_count()} cores{mem}"


def load_avg() -> str:
    """The machine's 1/5/15-minute load averages, as `uptime` shows them."""
    return "/".join(f"{x:.1f}" for x in os.getloadavg())


def load_words(*one_minute: float) -> str:
    """How loaded the machine was, for a page's header, from the 1-minute load averages seen
    during a run (now's is added): "heavily loaded" beyond twice the cores, "loaded" beyond
    three quarters of them, else "lightly loaded"."""
    cores = os.cpu_count() or 1
    m = max([*one_minute, os.getloadavg()[0]])
    if m > 2 * cores:
        return "heavily loaded"
    return "loaded" if m > 0.75 * cores else "lightly loaded"


def fmt_t(x: float) -> str:
    return f"{x:.4f}" if x < 10 else f"{x:.1f}"


class Table:
    """Per-input rows of runs; writes `bench/results/<engine>.md`."""

    def __init__(self, engine: str, title: str, tools: list[str], baseline: str = "verikit",
                 times: str = "seconds inside each tool (`time_s`) when reported, else wall clock"):
        self.engine, self.title, self.tools, self.base = engine, title, tools, baseline
        self.times = times
        self.rows: list[tuple[str, dict[str, Run], dict]] = []
        self.started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
        self.load_start = load_avg()

    def add(self, name: str, runs: dict[str, Run], extra: dict | None = None) -> None:
        self.rows.append((name, runs, extra or {}))
        cells = " ".join(f"{t}={r.verdict}/{fmt_t(r.time_s)}s" for t, r in runs.items())
        print(f"[{self.engine}] {name}: {cells}", file=sys.stderr, flush=True)

    def ratios(self, peer: str) -> list[float]:
        out = []
        for _, runs, _ in self.rows:
            a, b = runs.get(self.base), runs.get(peer)
            if a and b and a.ok and b.ok and b.time_s > 0:
                out.append(a.time_s / b.time_s)
        return out

    def markdown(self, versions: dict[str, str] | None = None, notes: str = "",
                 extra_cols: list[str] | None = None) -> str:
        extra_cols = extra_cols or []
        peers = [t for t in self.tools if t != self.base]
        lines = [f"# {self.title}", "",
                 f"- machine: {machine()}", f"- date: {self.started}",
                 f"- load (1/5/15-min averages, `uptime`): {self.load_start} at the start, {load_avg()} at the end"]
        for k, v in (versions or {}).items():
            lines.append(f"- {k}: {v}")
        lines.append(f"- times: {self.times}; ratio = {self.base} / peer (< 1: {self.base} faster)")
        lines.append("")
        lines.append("## Summary")
        lines.append("")
        for p in peers:
            rs = self.ratios(p)
            agree = sum(1 for _, r, _ in self.rows if self.base in r and p in r and r[self.base].ok
                        and r[p].ok and r[self.base].verdict == r[p].verdict)
            disagree = sum(1 for _, r, _ in self.rows if self.base in r and p in r and r[self.base].ok
                           and r[p].ok and r[self.base].verdict != r[p].verdict)
            solved = {t: sum(1 for _, r, _ in self.rows if t in r and r[t].ok) for t in (self.base, p)}
            if rs:
                lines.append(f"- vs {p}: median ratio {statistics.median(rs):.3f}, max {max(rs):.3f}, "
                             f"min {min(rs):.3f} over {len(rs)} inputs both solved; "
                             f"answers agree on {agree}, disagree on {disagree}; solved "
                             f"{self.base} {solved[self.base]}/{len(self.rows)}, {p} {solved[p]}/{len(self.rows)}")
            else:
                lines.append(f"- vs {p}: no input solved by both; solved {self.base} "
                             f"{solved[self.base]}/{len(self.rows)}, {p} {solved[p]}/{len(self.rows)}")
        if notes:
            lines += ["", notes.strip()]
        lines += ["", "## Per input", ""]
        head = ["input"] + extra_cols
        for t in self.tools:
            head += [f"{t} answer", f"{t} s", f"{t} MiB"]
        head += [f"ratio vs {p}" for p in peers]
        lines.append("| " + " | ".join(head) + " |")
        lines.append("|" + "---|" * len(head))
        for name, runs, extra in self.rows:
            cells = [name] + [str(extra.get(c, "")) for c in extra_cols]
            for t in self.tools:
                r = runs.get(t)
                if r is None:
                    cells += ["–", "–", "–"]
                else:
                    cells += [r.verdict, fmt_t(r.time_s), f"{r.peak_mb:.0f}"]
            for p in peers:
                a, b = runs.get(self.base), runs.get(p)
                cells.append(f"{a.time_s / b.time_s:.3f}" if a and b and a.ok and b.ok and b.time_s > 0 else "–")
            lines.append("| " + " | ".join(cells) + " |")
        return "\n".join(lines) + "\n"

    def write(self, versions: dict[str, str] | None = None, notes: str = "",
              extra_cols: list[str] | None = None, name: str | None = None) -> Path:
        out = BENCH / "results" / f"{name or self.engine}.md"
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(self.markdown(versions, notes, extra_cols))
        print(f"wrote {out}", file=sys.stderr)
        return out


def pip_version(pkg: str) -> str:
    try:
        out = subprocess.run([str(VENV_PY), "-m", "pip", "show", pkg], capture_output=True, text=True).stdout
        for line in out.splitlines():
            if line.startswith("Version:"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "not installed"


def verikit_version() -> str:
    try:
        v = subprocess.run([str(VERIKIT), "--version"], capture_output=True, text=True).stdout.strip()
        rev = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                             capture_output=True, text=True).stdout.strip()
        return f"{v} ({rev})"
    except OSError:
        return "unknown"
