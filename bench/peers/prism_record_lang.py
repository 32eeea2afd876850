"""Records Storm's values for the PRISM language test models of `crates/prob/tests/models/lang`
into `tests/expected/prism-lang-storm.tsv` (model, property, value).

Usage: bench/.venv/bin/python bench/peers/prism_record_lang.py
Each model `X.prism` is checked against the named properties of `X.props`, one at a time, with
Storm's sparse engine (stormpy). Properties Storm cannot parse or check are not recorded; the
reason is printed on stderr (the Rust tests check those against hand-computed values).
"""
import math
import re
import os
import sys

import stormpy

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
MODELS = os.path.join("crates", "prob", "tests", "models", "lang")
OUT = os.path.join(ROOT, "tests", "expected", "prism-lang-storm.tsv")


def props_of(text):
    """(name, formula) of each `"name": formula;` line; a trailing `// storm: EXPR` replaces the
    formula by an arithmetic combination of properties Storm can check (for operators Storm lacks)."""
    out = []
    for line in text.splitlines():
        line = line.strip()
        if not line.startswith('"'):
            continue
        line, _, comment = line.partition("//")
        name, _, formula = line[1:].partition('":')
        comment = comment.strip()
        if comment.startswith("storm:"):
            formula = comment[len("storm:"):]
        out.append((name, formula.strip().rstrip(";").strip()))
    return out


OPERATOR = re.compile(r'[PR][a-z{}"]*=\?\s*\[[^\]]*\]')


def combined(program, formula):
    """The value of `formula`: one Storm property, or numbers and properties joined by + and -."""
    parts = OPERATOR.findall(formula)
    if len(parts) == 1 and parts[0] == formula:
        props = stormpy.parse_properties(formula, program)
        model = stormpy.build_model(program, props)
        return value(model, props[0])
    rest = formula
    for p in parts:
        props = stormpy.parse_properties(p, program)
        model = stormpy.build_model(program, props)
        rest = rest.replace(p, "(" + value(model, props[0]) + ")", 1)
    if not re.fullmatch(r"[0-9eE.+\-() ]+", rest):
        raise ValueError(f"cannot combine {formula!r}")
    return repr(float(eval(rest)))


def _parse_via_file(text):
    import tempfile
    with tempfile.NamedTemporaryFile("w", suffix=".prism", delete=False) as t:
        t.write(text)
    try:
        return stormpy.parse_prism_program(t.name, prism_compatibility=True)
    finally:
        os.unlink(t.name)


def value(model, prop):
    r = stormpy.model_checking(model, prop, only_initial_states=True)
    s0 = model.initial_states[0]
    if r.is_quantitative():
        v = r.get_value(s0)
        return "Infinity" if isinstance(v, float) and math.isinf(v) else repr(float(v))
    return str(bool(r.get_truth_values_vector()[s0])).lower()


def main():
    rows = []
    folder = os.path.join(ROOT, MODELS)
    for f in sorted(os.listdir(folder)):
        if not f.endswith(".prism"):
            continue
        base = f[: -len(".prism")]
        pfile = os.path.join(folder, base + ".props")
        if not os.path.exists(pfile):
            continue
        text = open(os.path.join(folder, f)).read()
        if base == "notype":
            # Storm requires a model type; PRISM's default for a model without one is `mdp`,
            # which is what verikit must reproduce: Storm checks the same model with it written.
            text = "mdp\n" + text
        try:
            program = stormpy.parse_prism_program_from_string(text, prism_compatibility=True) \
                if hasattr(stormpy, "parse_prism_program_from_string") else _parse_via_file(text)
        except Exception as e:  # Storm refuses the model itself
            print(f"{base}: model not supported by Storm: {str(e).splitlines()[0][:200]}", file=sys.stderr)
            continue
        for name, formula in props_of(open(pfile).read()):
            try:
                rows.append((f"{MODELS}/{f}", name, combined(program, formula)))
            except Exception as e:
                msg = " ".join(str(e).split())[:200]
                print(f"{base}:{name}: not supported by Storm: {msg}", file=sys.stderr)
    with open(OUT, "w") as out:
        out.write("# recorded by bench/peers/prism_record_lang.py (stormpy %s)\n" % stormpy.__version__)
        out.write("# model\tproperty\tstorm_value\n")
        for r in rows:
            out.write("\t".join(r) + "\n")
    print(f"wrote {len(rows)} rows to {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
