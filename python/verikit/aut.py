"""omega-automata in HOA v1: structure, products, emptiness with a lasso witness, membership,
complementation, simplification, inclusion (the engine of ``verikit aut``)."""

from __future__ import annotations

import shutil
import subprocess
from typing import Any, List, NamedTuple, Optional

from . import _native
from ._core import Result, call, call_text, fspath


class Edge(NamedTuple):
    src: int
    dst: int
    label: str
    marks: List[int]


class Automaton:
    """A transition-based generalized Büchi automaton, held as its HOA text."""

    def __init__(self, hoa: str, name: str = "<hoa>", result: Optional[Result] = None) -> None:
        self._hoa = hoa
        self._name = name
        self._info: Optional[dict] = None
        #: The answer that produced this automaton (``translate``'s, a product's), if any.
        self.result = result

    def _structure(self) -> dict:
        if self._info is None:
            self._info = call(_native.aut_structure, self._hoa, self._name)
        return self._info

    def to_hoa(self) -> str:
        return self._hoa

    def to_dot(self) -> str:
        """GraphViz DOT (``verikit ltl translate --dot``)."""
        return call_text(_native.aut_dot, self._hoa, self._name)

    @property
    def num_states(self) -> int:
        return int(self._structure()["states"])

    @property
    def states(self) -> List[int]:
        """The states, ``0 … num_states-1``."""
        return list(range(self.num_states))

    @property
    def edges(self) -> List[Edge]:
        """Every edge as ``Edge(src, dst, label, marks)``; ``label`` is a Boolean formula over
        ``aps``, ``marks`` the acceptance sets the edge is in."""
        return [Edge(s, d, l, m) for s, d, l, m in self._structure()["edges"]]

    @property
    def initial(self) -> List[int]:
        return list(self._structure()["initial"])

    @property
    def aps(self) -> List[str]:
        return list(self._structure()["aps"])

    @property
    def acc_sets(self) -> int:
        return int(self._structure()["acc_sets"])

    @property
    def acceptance(self) -> str:
        return str(self._structure()["acceptance"])

    @property
    def is_deterministic(self) -> bool:
        return bool(self._structure()["deterministic"])

    @property
    def is_complete(self) -> bool:
        return bool(self._structure()["complete"])

    @property
    def state_names(self) -> List[Optional[str]]:
        return list(self._structure()["state_names"])

    def stats(self) -> Result:
        return Result(call(_native.aut_unary, "stats", self._hoa, self._name))

    def _unary(self, op: str, timeout: Optional[float] = None, **kw: Any) -> Result:
        return Result(call(_native.aut_unary, op, self._hoa, self._name, timeout=timeout, **kw))

    def is_empty(self, *, timeout: Optional[float] = None) -> Result:
        """Emptiness: verdict ``true`` if no word is accepted; else ``witness`` is an accepted lasso
        word (Spot's syntax) and ``detail["run"]`` its prefix and cycle states."""
        return self._unary("is_empty", timeout)

    def accepts(self, word: str) -> Result:
        """Membership of a lasso word, e.g. ``"a & !b; cycle{b & !a}"``."""
        return self._unary("accepts", word=word)

    def _derived(self, r: Result) -> "Automaton":
        return Automaton(r.detail["hoa"], result=r)

    def simplify(self, *, sba: bool = False) -> "Automaton":
        return self._derived(self._unary("sba" if sba else "simplify"))

    def complement(self, *, timeout: Optional[float] = None) -> "Automaton":
        return self._derived(self._unary("complement", timeout))

    def reduce(self, method: str = "fair+delayed", *, timeout: Optional[float] = None) -> "Automaton":
        return self._derived(self._unary("reduce", timeout, method=method))

    def product(self, other: "Automaton", *, timeout: Optional[float] = None) -> "Automaton":
        """The synchronous product (intersection of the languages)."""
        r = Result(call(_native.aut_binary, "product", self._hoa, other._hoa, timeout=timeout))
        return self._derived(r)

    __and__ = product

    def is_included(self, other: "Automaton", *, timeout: Optional[float] = None,
                    max_elements: int = 2_000_000) -> Result:
        """L(self) ⊆ L(other)? A ``false`` answer's witness is a lasso word of self rejected by
        other."""
        return Result(call(_native.aut_binary, "included", self._hoa, other._hoa,
                           max_elements=max_elements, timeout=timeout))

    def _repr_svg_(self) -> str:
        """Drawn by GraphViz's ``dot`` when it is on PATH, else by verikit's own layered layout
        (the drawing of ``verikit serve``); Jupyter shows the SVG."""
        dot = shutil.which("dot")
        if dot is not None:
            p = subprocess.run([dot, "-Tsvg"], input=self.to_dot(), capture_output=True,
                               text=True, check=False)
            if p.returncode == 0:
                return p.stdout
        return self.to_svg()

    def to_svg(self) -> str:
        """The automaton as SVG by verikit's own layered layout (no GraphViz needed)."""
        return call_text(_native.aut_svg, self._hoa, self._name)

    def __repr__(self) -> str:
        s = self._structure()
        return (f"<Automaton {s['name'] or ''}: {s['states']} states, {len(s['edges'])} edges, "
                f"{s['acc_sets']} acceptance sets>")


def from_hoa(text: str, name: str = "<hoa>") -> Automaton:
    """The automaton of a HOA text (parsed now: a bad text raises :class:`verikit.InputError`)."""
    a = Automaton(text, name)
    a._structure()
    return a


def load(path: Any) -> Automaton:
    p = fspath(path)
    with open(p, encoding="utf-8") as f:
        return from_hoa(f.read(), p)


def product(a: Automaton, b: Automaton, **kw: Any) -> Automaton:
    return a.product(b, **kw)


def is_empty(a: Automaton, **kw: Any) -> Result:
    return a.is_empty(**kw)
