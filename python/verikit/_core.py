"""What every engine module shares: result objects, exceptions, and the call into the native
extension (which answers with the CLI's ``--json`` text)."""

from __future__ import annotations

import json
import os
from typing import Any, Callable, Dict, List, Mapping, Optional, Tuple

from . import _native


class VerikitError(Exception):
    """An error reported by verikit. ``file``, ``line`` and ``column`` (1-based) locate it in its
    input when it is about one; ``rendered`` is the CLI's text with the caret under the span."""

    kind = "error"

    def __init__(
        self,
        message: str,
        file: Optional[str] = None,
        line: int = 0,
        column: int = 0,
        rendered: str = "",
    ) -> None:
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line
        self.column = column
        self.rendered = rendered or f"error: {message}\n"

    def __str__(self) -> str:
        return self.rendered.rstrip("\n") if self.file else self.message


class InputError(VerikitError, ValueError):
    """Bad input (a syntax or type error in a model, formula, automaton or script)."""

    kind = "input"


class UsageError(VerikitError, ValueError):
    """Arguments that make no sense (an unknown algorithm, incompatible inputs)."""

    kind = "usage"


class ResourceLimit(VerikitError):
    """A size bound or the budget ran out before an answer."""

    kind = "limit"


class Timeout(ResourceLimit, TimeoutError):
    """The ``timeout`` given to the call ran out."""

    kind = "timeout"


class InternalError(VerikitError):
    """A bug in verikit (an invariant failed); please report it."""

    kind = "internal"


_KINDS = {c.kind: c for c in (InputError, UsageError, ResourceLimit, Timeout, InternalError)}


def _error(e: BaseException) -> VerikitError:
    kind, message, file, line, column, rendered = e.args
    cls = _KINDS.get(kind, VerikitError)
    return cls(message, file, line, column, rendered)


def call(fn: Callable[..., str], *args: Any, **kwargs: Any) -> Dict[str, Any]:
    """Calls a native function and parses its JSON answer; native errors become
    :class:`VerikitError` subclasses."""
    try:
        out = fn(*args, **kwargs)
    except _native.NativeError as e:
        raise _error(e) from None
    return json.loads(out)


def call_text(fn: Callable[..., str], *args: Any, **kwargs: Any) -> str:
    """Like :func:`call` for functions that return plain text."""
    return call_raw(fn, *args, **kwargs)


def call_raw(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Calls a native function and returns what it returns; native errors become
    :class:`VerikitError` subclasses."""
    try:
        return fn(*args, **kwargs)
    except _native.NativeError as e:
        raise _error(e) from None


def params_list(params: Optional[Mapping[str, Any]]) -> Optional[List[Tuple[str, str]]]:
    """``-x key=value`` tuning parameters from a dict (``verikit --help-params`` lists them)."""
    if params is None:
        return None
    return [(str(k), _word(v)) for k, v in params.items()]


def _word(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def fspath(p: Any) -> str:
    return os.fspath(p)


_TOP = ("verdict", "witness", "input", "stats", "times", "results")


class Result:
    """One answer, as ``verikit … --json`` prints it.

    ``verdict`` is ``"true"``, ``"false"``, ``"unknown"``, ``"timeout"``, ``"error"`` or ``None``
    (for commands that produce an object); ``witness`` the counterexample, model or lasso;
    ``stats``, ``input`` and ``times`` the statistics; ``detail`` the command's own words (e.g.
    ``{"relation": "not-included"}``); ``results`` the items of a batch; ``json`` everything."""

    def __init__(self, data: Dict[str, Any]) -> None:
        self.json = data
        self.verdict: Optional[str] = data.get("verdict")
        self.witness: Any = data.get("witness")
        self.input: Dict[str, Any] = data.get("input", {})
        self.stats: Dict[str, Any] = data.get("stats", {})
        self.times: Dict[str, float] = data.get("times", {})
        self.results: List[Result] = [Result(r) for r in data.get("results", [])]
        self.detail: Dict[str, Any] = {k: v for k, v in data.items() if k not in _TOP}

    def __getitem__(self, key: str) -> Any:
        return self.json[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.json.get(key, default)

    def __bool__(self) -> bool:
        """True iff the verdict is ``"true"``; an undecided answer raises ``ValueError``."""
        if self.verdict == "true":
            return True
        if self.verdict == "false":
            return False
        raise ValueError(f"the answer is not decided (verdict {self.verdict!r})")

    def __repr__(self) -> str:
        words = ", ".join(f"{k}={v!r}" for k, v in self.detail.items() if isinstance(v, (str, int, float)))
        extra = f", {words}" if words else ""
        w = f", witness={self.witness!r}" if self.witness is not None else ""
        return f"Result(verdict={self.verdict!r}{extra}{w})"
