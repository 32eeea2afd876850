"""Records Storm's answers on the hand-made `system … endsystem` models of the prob crate's tests
into tests/expected/prism-system.tsv (Storm's sparse engine refuses custom system compositions, so
its symbolic builder builds them and its hybrid engine checks them).

Usage: bench/.venv/bin/python bench/peers/prism_record_system.py
"""
import pathlib

import stormpy

ROOT = pathlib.Path(__file__).resolve().parents[2]
MODELS = ROOT / "crates/prob/tests/models/system"
OUT = ROOT / "tests/expected/prism-system.tsv"


def main() -> None:
    rows = ["# model\tproperty index\tstorm states\tstorm transitions\tstorm value "
            "(recorded by bench/peers/prism_record_system.py, Storm symbolic builder, hybrid engine)"]
    for model in sorted(MODELS.glob("*.prism")):
        program = stormpy.parse_prism_program(str(model), prism_compatibility=True)
        text = model.with_suffix(".props").read_text()
        props = stormpy.parse_properties(text, program)
        built = stormpy.build_symbolic_model(program, props)
        for i, p in enumerate(props):
            r = stormpy.model_checking(
                built, p, only_initial_states=True, engine=stormpy.Engine.HYBRID
            )
            r.filter(stormpy.create_filter_initial_states(built))
            lo, hi = r.get_min(), r.get_max()
            assert abs(lo - hi) <= 1e-12, (model, i, lo, hi)
            rows.append(f"{model.name}\t{i}\t{built.nr_states}\t{built.nr_transitions}\t{lo!r}")
            print(rows[-1])
    OUT.write_text("\n".join(rows) + "\n")


if __name__ == "__main__":
    main()
