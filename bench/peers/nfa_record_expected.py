"""Records libmata's inclusion answers on the ARMC problems into tests/expected/nfa-armc-incl.tsv.

Usage (from the repository root): bench/.venv/bin/python bench/peers/nfa_record_expected.py
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from harness import DATA, ROOT, measure, peer_python, pip_version  # noqa: E402

out = ROOT / "tests" / "expected" / "nfa-armc-incl.tsv"
d = DATA / "nfa" / "armc-incl"
stems = sorted(p.name[: -len("-lhs.mata")] for p in d.glob("*-lhs.mata"))
lines = [f"# libmata {pip_version('libmata')} is_included(lhs, rhs) on nfa/armc-incl; recorded by bench/peers/nfa_record_expected.py",
         "problem\tlibmata_included"]
for s in stems:
    r = measure(peer_python("nfa_mata.py", "incl", str(d / f"{s}-lhs.mata"), str(d / f"{s}-rhs.mata")), timeout=600)
    print(s, r.verdict, f"{r.time_s:.3f}", file=sys.stderr, flush=True)
    lines.append(f"{s}\t{r.verdict}")
out.write_text("\n".join(lines) + "\n")
print(f"wrote {out}", file=sys.stderr)
