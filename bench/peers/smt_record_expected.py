"""Records yices-smt2's and z3's answers on every file of ../shared/data/smt into
tests/expected/smt-status.tsv (CI compares verikit against them without the peers installed).

Usage: smt_record_expected.py [--limit SECS]
"""
import argparse
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
DATA = ROOT.parent / "shared" / "data" / "smt"
BIN = Path(sys.executable).parent


def answer(cmd: list[str], limit: float) -> str:
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=limit)
    except subprocess.TimeoutExpired:
        return "timeout"
    v = "error"
    for line in p.stdout.splitlines():
        if line.strip() in ("sat", "unsat", "unknown"):
            v = line.strip()
    return v


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--limit", type=float, default=10.0)
    a = ap.parse_args()
    rows = []
    for line in (DATA / "MANIFEST.tsv").read_text().splitlines()[1:]:
        f = line.split("\t")
        path, status = f[0], f[3]
        y = answer([str(BIN / "yices-smt2"), str(DATA / path)], a.limit)
        z = answer([str(BIN / "z3"), str(DATA / path)], a.limit)
        print(f"{path}\t{status}\t{y}\t{z}", file=sys.stderr, flush=True)
        rows.append((path, status, y, z))
    out = ROOT / "tests" / "expected" / "smt-status.tsv"
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w") as fh:
        fh.write(f"# yices-smt2 and z3 answers on shared/data/smt, {a.limit:g} s limit each; "
                 "recorded by bench/peers/smt_record_expected.py\n")
        fh.write("path\tstatus\tyices\tz3\n")
        for r in rows:
            fh.write("\t".join(r) + "\n")


if __name__ == "__main__":
    main()
