"""LTL in Spot's syntax: translation to Büchi automata (like ``ltl2tgba``) and evaluation on lasso
words (the engine of ``verikit ltl``)."""

from __future__ import annotations

from typing import Any, Mapping, Optional, Union

from . import _native
from ._core import Result, call, params_list
from .aut import Automaton


def translate(formula: str, *, sba: bool = False, simplify: bool = True,
              postprocess: bool = True, redirect_merges: bool = True,
              reduce: Optional[str] = None, state_names: bool = False,
              deterministic: bool = False, parity: Union[bool, str] = False,
              complete: bool = False, level: Optional[str] = None,
              timeout: Optional[float] = None,
              params: Optional[Mapping[str, Any]] = None) -> Automaton:
    """A transition-based generalized Büchi automaton for ``formula`` (``sba=True``: a state-based
    Büchi automaton, like ``ltl2tgba -B``). ``deterministic=True`` gives a deterministic automaton
    (``ltl2tgba -D``: the Büchi automaton when it is deterministic, else a parity automaton),
    ``parity=True`` or a type such as ``"max even"`` parity acceptance (``-P``), ``complete=True``
    a complete automaton (``-C``). ``level`` is ``"low"``, ``"medium"`` or ``"high"`` (Spot's
    ``--low/--medium/--high``; default: the command line's). The translation's answer (as ``verikit ltl translate --json``)
    is the automaton's ``result``."""
    par: Optional[str] = None if parity is False else ("" if parity is True else str(parity))
    r = Result(call(_native.ltl_translate, formula, sba=sba, simplify=simplify,
                    postprocess=postprocess, redirect_merges=redirect_merges, reduce=reduce,
                    state_names=state_names, deterministic=deterministic, parity=par,
                    complete=complete, level=level, timeout=timeout,
                    params=params_list(params)))
    return Automaton(r.detail["hoa"], name="<formula>", result=r)


def check(formula: str, word: str) -> Result:
    """Does the lasso word (e.g. ``"a & !b; cycle{b & !a}"``) satisfy the formula?"""
    return Result(call(_native.ltl_check, formula, word))
