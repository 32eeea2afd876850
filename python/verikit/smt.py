"""SMT-LIB 2.6 for linear arithmetic (QF_LRA, QF_RDL, QF_LIA, QF_IDL): whole scripts (``run``) and
an incremental :class:`Solver` (the engine of ``verikit smt``)."""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional

from . import _native
from ._core import Result, call, fspath, params_list


def run(script: Optional[str] = None, *, path: Any = None, check: bool = False,
        timeout: Optional[float] = None, params: Optional[Mapping[str, Any]] = None) -> Result:
    """Runs a whole script (text, or the file at ``path``) as ``verikit smt FILE --json`` does:
    ``result`` is the last ``check-sat``'s answer, ``witness`` its model, ``responses`` every
    response. The first error raises :class:`verikit.InputError`."""
    p = fspath(path) if path is not None else None
    return Result(call(_native.smt_run, p, script, check=check, timeout=timeout,
                       params=params_list(params)))


class Solver:
    """An incremental SMT-LIB session: ``add`` assertions and declarations (any SMT-LIB commands),
    ``push``/``pop``, ``check`` and ``model``. A failing command raises and has no effect."""

    def __init__(self, logic: Optional[str] = None, *, check: bool = False,
                 timeout: Optional[float] = None,
                 params: Optional[Mapping[str, Any]] = None) -> None:
        self._s = _native.Solver(check=check, timeout=timeout, params=params_list(params))
        self.last: Optional[Result] = None
        self._model: Optional[List[List[str]]] = None
        if logic:
            self.command(f"(set-logic {logic})")

    def command(self, commands: str) -> Result:
        """Runs SMT-LIB commands; their responses are in ``result.detail["responses"]``."""
        return Result(call(self._s.feed, commands))

    def add(self, smtlib: str) -> None:
        """Declarations, definitions and assertions in SMT-LIB, e.g. ``"(assert (< x 3))"``; a bare
        term (not starting with a command) is asserted."""
        s = smtlib.strip()
        if s.startswith("(") and not _is_command(s):
            s = f"(assert {s})"
        self.command(s)

    def push(self, n: int = 1) -> None:
        self.command(f"(push {int(n)})")

    def pop(self, n: int = 1) -> None:
        self.command(f"(pop {int(n)})")

    def check(self) -> str:
        """``"sat"``, ``"unsat"`` or ``"unknown"``."""
        r = self.command("(check-sat)")
        self.last = r
        self._model = r.witness
        return str(r.get("result"))

    def model(self) -> Dict[str, str]:
        """The last ``sat`` check's model: each declared constant's SMT-LIB value."""
        if self._model is None:
            raise ValueError("no model: the last check was not sat")
        return {name: value for name, _sort, value in self._model}

    @property
    def alive(self) -> bool:
        return bool(self._s.alive)

    def close(self) -> None:
        self._s.close()

    def __enter__(self) -> "Solver":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


_COMMANDS = ("assert", "declare-", "define-", "set-", "get-", "push", "pop", "check-sat", "reset",
             "echo", "exit")


def _is_command(s: str) -> bool:
    head = s[1:].lstrip()
    return any(head.startswith(c) for c in _COMMANDS)
