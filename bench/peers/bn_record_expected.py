"""Records AEON's fixed-point counts for the BBM models into tests/expected/bn-bbm-fixedpoints.tsv.

usage: bench/.venv/bin/python bench/peers/bn_record_expected.py [TIMEOUT_S]
Each model runs in its own process (bn_aeon_fixedpoints.py) with a wall-clock limit; models AEON does
not finish in time are recorded with the answer `timeout` and are not compared by the tests.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from harness import DATA, ROOT, measure, peer_python  # noqa: E402


def main() -> None:
    timeout = float(sys.argv[1]) if len(sys.argv) > 1 else 20.0
    models = sorted(p for p in (DATA / "bn" / "bbm").iterdir() if (p / "model.bnet").is_file())
    out = ROOT / "tests" / "expected" / "bn-bbm-fixedpoints.tsv"
    out.parent.mkdir(parents=True, exist_ok=True)
    lines = ["# model\tfixed_points\taeon_time_s  (biodivine-aeon FixedPoints.symbolic; inputs free)"]
    for m in models:
        r = measure(peer_python("bn_aeon_fixedpoints.py", str(m / "model.bnet")), timeout=timeout)
        answer = r.verdict if r.ok else ("timeout" if r.timed_out else "error")
        lines.append(f"{m.name}\t{answer}\t{r.time_s:.3f}")
        print(lines[-1], file=sys.stderr, flush=True)
    out.write_text("\n".join(lines) + "\n")
    print(f"wrote {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
