"""Records Storm's values of LTL properties (inside P[…]) on shared PRISM models into
tests/expected/prism-ltl-storm.tsv. The shipped property files of these models have no LTL
properties, so the properties below are written for this oracle over the models' labels and
variables (recurrence `G F`, persistence `F G`, response `G (!a | (F b))` (Storm reads `=>` only between state formulas), nested `X`, bounded `F<=k`
inside LTL, conjunctions of them), on DTMCs, MDPs and CTMCs (untimed LTL, read on the embedded
DTMC), and co-safe LTL rewards on CTMCs paired with Storm's reachability reward of the same target
(REWARD_CASES). Storm checks LTL with its own LTL → deterministic automaton
route (sparse engine); undefined constants are set in a temporary copy of the model.

Usage: bench/.venv/bin/python bench/peers/prism_record_ltl.py
"""
import os
import pathlib
import re
import tempfile
import time

import stormpy

ROOT = pathlib.Path(__file__).resolve().parents[2]
DATA = pathlib.Path(os.environ.get("VERIKIT_DATA", ROOT.parent / "shared/data"))
OUT = ROOT / "tests/expected/prism-ltl-storm.tsv"

# (model under the shared data folder, constants "K=2", properties)
CASES = [
    ("qvbs/dtmc/herman/herman.5.prism", "", [
        'P=? [ X X "stable" ]',
        'P=? [ F G "stable" ]',
        'P=? [ (F<=3 "stable") & (G F "stable") ]',
        'P=? [ !"stable" U (X "stable") ]',
        'P=? [ G ("stable" | (X !"stable")) ]',
    ]),
    ("prism-examples/dtmcs/leader_sync/leader3_2.pm", "", [
        'P=? [ F G "elected" ]',
        'P=? [ X X "elected" ]',
        'P=? [ (X !"elected") & (F<=6 "elected") ]',
        'P=? [ G (s1!=1 | (F "elected")) ]',
    ]),
    ("prism-examples/dtmcs/herman/herman7.pm", "", [
        'P=? [ F G "stable" ]',
        'P=? [ X X X "stable" ]',
    ]),
    ("qvbs/mdp/consensus/consensus.2.prism", "K=2", [
        'Pmax=? [ G F "agree" ]',
        'Pmin=? [ F G "finished" ]',
        'Pmax=? [ (F "all_coins_equal_0") & (F "all_coins_equal_1") ]',
        'Pmin=? [ (F "finished") & (G F "agree") ]',
        'Pmax=? [ G (!"finished" | (X "all_coins_equal_1")) ]',
        'Pmin=? [ !"finished" U ("finished" & (X "agree")) ]',
    ]),
    ("qvbs/mdp/pnueli-zuck/pnueli-zuck.3.prism", "", [
        'Pmin=? [ G F p1=10 ]',
        'Pmax=? [ G F p1=10 ]',
        'Pmax=? [ (G F p1=10) & (G F p2=10) ]',
        'Pmin=? [ G (p1!=1 | (F p1=10)) ]',
    ]),
    ("qvbs/mdp/philosophers-mdp/philosophers-mdp.3.prism", "", [
        'Pmin=? [ G F p1=10 ]',
        'Pmax=? [ F G !(p1=10) ]',
        'Pmax=? [ (G F p1=10) & (G F p2=10) & (G F p3=10) ]',
    ]),
    ("qvbs/mdp/rabin/rabin.3.prism", "", [
        'Pmin=? [ G F (p1=2|p2=2|p3=2) ]',
        'Pmax=? [ F G !(p1=2) ]',
        'Pmin=? [ X X (p1=2|p2=2|p3=2) ]',
    ]),
    ("qvbs/dtmc/brp/brp.prism", "N=16,MAX=2", [
        'P=? [ G (s!=5 | (F srep=3)) ]',
        'P=? [ (F s=5) | (F<=20 srep=3) ]',
        'P=? [ !(s=5) U (srep>0 & X X srep=3) ]',
    ]),
    ("qvbs/dtmc/egl/egl.prism", "N=2,L=2", [
        'P=? [ (F "knowA") & (F "knowB") ]',
        'P=? [ !"knowB" U ("knowA" & X !"knowB") ]',
        'P=? [ F G ("knowA" & "knowB") ]',
    ]),
    ("qvbs/mdp/csma/csma.2-2.prism", "", [
        'Pmax=? [ (F "one_delivered") & (G !"collision_max_backoff") ]',
        'Pmin=? [ (F "one_delivered") & (G !"collision_max_backoff") ]',
        'Pmin=? [ G F "all_delivered" ]',
        'Pmax=? [ !"one_delivered" U ("one_delivered" & X X "all_delivered") ]',
    ]),
    ("prism-examples/mdps/mutual/mutual3.nm", "", [
        'Pmin=? [ G (p1!=1 | (F p1=10)) ]',
        'Pmax=? [ G F "some_14" ]',
        'Pmin=? [ G (!"some_4_13" | (F "some_14")) ]',
    ]),
    # CTMCs: untimed LTL on the embedded DTMC (PRISM's and Storm's reading).
    ("qvbs/ctmc/embedded/embedded.prism", "MAX_COUNT=2", [
        'P=? [ (F "danger") & (F "down") ]',
        'P=? [ !"down" U ("danger" & X "up") ]',
        'P=? [ G (!"danger" | (F "up")) ]',
    ]),
    ("qvbs/ctmc/tandem/tandem.prism", "c=5", [
        'P=? [ G F sc=5 ]',
        'P=? [ F (sc=5 & X sc=4) ]',
        'P=? [ !(sm=5) U (sc=5 & X X sc=5) ]',
    ]),
    ("qvbs/ctmc/polling/polling.5.prism", "", [
        'P=? [ G F (s=1 & a=1) ]',
        'P=? [ !(s=2 & a=1) U ((s=1 & a=1) & X (s=2)) ]',
        'P=? [ X X X (s=2 & a=0) ]',
    ]),
    ("qvbs/ctmc/cluster/cluster.prism", "N=2", [
        'P=? [ F G "premium" ]',
        'P=? [ (F !"minimum") & (G F "premium") ]',
        'P=? [ "premium" U (!"minimum" & X "minimum") ]',
    ]),
]

# Co-safe LTL inside R[…] on CTMCs (the reward per visit of the embedded DTMC: state reward
# divided by the exit rate, plus impulses). Storm does not read LTL inside R[…], so each row
# pairs verikit's co-safe formula with Storm's reachability reward of the same target: the LTL
# formulas are reachability written so that verikit's parser takes the co-safe LTL route.
REWARD_CASES = [
    ("qvbs/ctmc/tandem/tandem.prism", "c=5", [
        ('R{"customers"}=? [ (F sc=5) & true ]', 'R{"customers"}=? [ F sc=5 ]'),
        ('R{"customers"}=? [ true U (sm=5 & sc=5) ]', 'R{"customers"}=? [ F (sm=5 & sc=5) ]'),
    ]),
    ("qvbs/ctmc/cluster/cluster.prism", "N=2", [
        ('R{"percent_op"}=? [ (F !"minimum") | (F !"minimum") ]', 'R{"percent_op"}=? [ F !"minimum" ]'),
        ('R{"num_repairs"}=? [ (F !"minimum") & true ]', 'R{"num_repairs"}=? [ F !"minimum" ]'),
    ]),
    ("qvbs/ctmc/embedded/embedded.prism", "MAX_COUNT=2", [
        ('R{"up"}=? [ true U "down" ]', 'R{"up"}=? [ F "down" ]'),
    ]),
    ("qvbs/ctmc/polling/polling.5.prism", "", [
        ('R{"waiting"}=? [ (F (s=1 & a=1)) & true ]', 'R{"waiting"}=? [ F (s=1 & a=1) ]'),
    ]),
]


def with_consts(text: str, consts: str) -> str:
    for kv in filter(None, consts.split(",")):
        k, v = kv.split("=")
        text = re.sub(rf"const\s+(int|double|bool)\s+{k}\s*;", rf"const \1 {k} = {v};", text)
    return text


def main() -> None:
    rows = ["# model (under shared data)\tconstants\tproperty\tstorm value (initial state)\tstorm seconds "
            "(recorded by bench/peers/prism_record_ltl.py, stormpy 2.0.0 sparse engine; properties "
            "written for this oracle; the shipped property files of the shared models have no LTL)"
            "\t[the property Storm checked, when it differs: R[…] rows]"]
    cases = [(m, c, [(p, p) for p in ps]) for m, c, ps in CASES] + REWARD_CASES
    for model, consts, props in cases:
        path = DATA / model
        if not path.exists():
            print("missing", path)
            continue
        with tempfile.NamedTemporaryFile("w", suffix=".prism", delete=False) as f:
            f.write(with_consts(path.read_text(), consts))
            tmp = f.name
        program = stormpy.parse_prism_program(tmp, prism_compatibility=True)
        os.unlink(tmp)
        for text, storm_text in props:
            t0 = time.process_time()
            try:
                parsed = stormpy.parse_properties(storm_text, program)
            except RuntimeError as e:
                print("storm refuses", model, storm_text, e)
                continue
            built = stormpy.build_model(program, parsed)
            r = stormpy.model_checking(built, parsed[0])
            v = r.get_value(built.initial_states[0])
            dt = time.process_time() - t0
            extra = f"\t{storm_text}" if storm_text != text else ""
            rows.append(f"{model}\t{consts}\t{text}\t{float(v)!r}\t{dt:.3f}{extra}")
            print(rows[-1], flush=True)
    OUT.write_text("\n".join(rows) + "\n")


if __name__ == "__main__":
    main()
