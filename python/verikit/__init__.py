"""verikit from Python: finite automata (:mod:`verikit.nfa`), SMT-LIB (:mod:`verikit.smt`), LTL and
omega-automata (:mod:`verikit.ltl`, :mod:`verikit.aut`), Boolean networks (:mod:`verikit.bn`) and
probabilistic models (:mod:`verikit.prism`).

Every result equals the command line's ``--json`` answer (a :class:`Result`). Long calls release
the GIL, take a ``timeout`` in seconds and stop on Ctrl-C (``KeyboardInterrupt``). Bad input raises
:class:`InputError` with ``file``, ``line`` and ``column``."""

from ._core import (
    InputError,
    InternalError,
    ResourceLimit,
    Result,
    Timeout,
    UsageError,
    VerikitError,
)
from . import aut, bn, ltl, nfa, prism, smt
from ._native import __version__

__all__ = [
    "InputError",
    "InternalError",
    "ResourceLimit",
    "Result",
    "Timeout",
    "UsageError",
    "VerikitError",
    "aut",
    "bn",
    "ltl",
    "nfa",
    "prism",
    "smt",
    "__version__",
]
