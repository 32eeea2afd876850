"""Finite automata: ``.mata``, BA, Timbuk and regular expressions; universality, inclusion and
equivalence with a witness word (the engine of ``verikit nfa``)."""

from __future__ import annotations

import os
from typing import Any, Mapping, Optional, Tuple

from . import _native
from ._core import Result, call, call_text, fspath, params_list

_EXT = {".ba": "ba", ".timbuk": "timbuk", ".tmb": "timbuk", ".dot": "dot"}


class Nfa:
    """An automaton read from a file (``load``) or a string (``from_string``). It is parsed by
    each operation, exactly as the CLI parses its files."""

    def __init__(self, path: Optional[str] = None, text: Optional[str] = None,
                 name: str = "<string>", format: Optional[str] = None) -> None:
        self._src: Tuple[Optional[str], Optional[str], str] = (path, text, path or name)
        self.format = format

    @property
    def name(self) -> str:
        return self._src[2]

    def info(self) -> Result:
        """Sizes, alphabet and density (``verikit nfa info``)."""
        return Result(call(_native.nfa_info, self._src, self.format))

    def to_string(self, format: str = "mata") -> str:
        """The automaton in ``mata``, ``ba``, ``timbuk`` or ``dot``."""
        return call_text(_native.nfa_write, self._src, format, self.format)

    def save(self, path: Any, format: Optional[str] = None) -> None:
        """Writes the automaton; the format defaults from the extension (else ``.mata``)."""
        p = fspath(path)
        fmt = format or _EXT.get(os.path.splitext(p)[1].lower(), "mata")
        with open(p, "w", encoding="utf-8") as f:
            f.write(self.to_string(fmt))

    def is_universal(self, *, algo: str = "auto", timeout: Optional[float] = None,
                     params: Optional[Mapping[str, Any]] = None) -> Result:
        """Is L(A) = Σ*? A ``false`` answer has a rejected word as ``witness``."""
        return Result(call(_native.nfa_decide, "univ", self._src, None, algo=algo,
                           fmt=self.format, timeout=timeout, params=params_list(params)))

    def is_included(self, other: "Nfa", *, algo: str = "auto", pre: str = "none",
                    no_prune: bool = False, timeout: Optional[float] = None,
                    params: Optional[Mapping[str, Any]] = None) -> Result:
        """Is L(self) ⊆ L(other)? A ``false`` answer has a word accepted by self and rejected by
        other as ``witness``."""
        return Result(call(_native.nfa_decide, "incl", self._src, other._src, algo=algo, pre=pre,
                           fmt=self.format, no_prune=no_prune, timeout=timeout,
                           params=params_list(params)))

    def equivalent(self, other: "Nfa", *, algo: str = "auto", pre: str = "none",
                   no_memo: bool = False, timeout: Optional[float] = None,
                   params: Optional[Mapping[str, Any]] = None) -> Result:
        """Is L(self) = L(other)? A ``false`` answer has a word accepted by exactly one."""
        return Result(call(_native.nfa_decide, "equiv", self._src, other._src, algo=algo, pre=pre,
                           fmt=self.format, no_memo=no_memo, timeout=timeout,
                           params=params_list(params)))

    def __repr__(self) -> str:
        return f"Nfa({self.name!r})"


def load(path: Any, format: Optional[str] = None) -> Nfa:
    """The automaton in a file (format from the extension or the content, or ``format``)."""
    p = fspath(path)
    return Nfa(path=p, format=format)


def from_string(text: str, format: Optional[str] = None, name: str = "<string>") -> Nfa:
    """The automaton in ``text`` (errors point into ``name``)."""
    return Nfa(text=text, name=name, format=format)


def is_universal(a: Nfa, **kw: Any) -> Result:
    return a.is_universal(**kw)


def is_included(a: Nfa, b: Nfa, **kw: Any) -> Result:
    return a.is_included(b, **kw)


def equivalent(a: Nfa, b: Nfa, **kw: Any) -> Result:
    return a.equivalent(b, **kw)
