"""Records libmata's inclusion answers on pairs of email-filter automata (general `@NFA-bits`
formulas over 16 atoms, mintermised jointly) into tests/expected/nfa-email-incl.tsv.

Usage (from the repository root): bench/.venv/bin/python bench/peers/nfa_record_email.py
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from harness import DATA, ROOT, measure, peer_python, pip_version  # noqa: E402

out = ROOT / "tests" / "expected" / "nfa-email-incl.tsv"
d = DATA / "nfa" / "email-filter"
pairs = [(i, (i * 7 + 3) % 75) for i in range(0, 75, 3)] + [(i, i) for i in (5, 40)]
lines = [f"# libmata {pip_version('libmata')} is_included(lhs, rhs) on nfa/email-filter pairs; "
         "recorded by bench/peers/nfa_record_email.py",
         "lhs\trhs\tlibmata_included"]
for i, j in pairs:
    a, b = d / f"aut{i}.mata", d / f"aut{j}.mata"
    r = measure(peer_python("nfa_mata.py", "incl", str(a), str(b)), timeout=600)
    print(i, j, r.verdict, f"{r.time_s:.3f}", file=sys.stderr, flush=True)
    lines.append(f"aut{i}\taut{j}\t{r.verdict}")
out.write_text("\n".join(lines) + "\n")
print(f"wrote {out}", file=sys.stderr)
