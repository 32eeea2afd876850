"""Probabilistic models in the PRISM language (DTMC, CTMC, MDP, interval models) and JANI: PCTL/CSL
checking and explicit models (the engine of ``verikit prism``)."""

from __future__ import annotations

from typing import Any, List, Mapping, Optional, Sequence, Union

from . import _native
from ._core import Result, call, fspath

Consts = Union[None, str, Mapping[str, Any]]


def _consts(c: Consts) -> List[str]:
    if c is None:
        return []
    if isinstance(c, str):
        return [c]
    return [",".join(f"{k}={v}" for k, v in c.items())] if c else []


class ExplicitModel:
    """The reachable state space: ``num_states``, ``initial`` and the transitions in compressed
    rows (``row_choices[s]..row_choices[s+1]`` are the choices of state ``s``,
    ``choice_start[c]..choice_start[c+1]`` the transitions of choice ``c``, to ``cols`` with
    probability or rate ``vals``). Arrays are numpy arrays when numpy is installed, else lists."""

    def __init__(self, data: dict) -> None:
        m = data.pop("model")
        self.result = Result(data)
        self.type: str = m["type"]
        self.actions: List[str] = m["actions"]
        self.sta: str = m["sta"]
        try:
            import numpy as np

            arr: Any = np.asarray
            kinds = {"initial": np.uint32, "row_choices": np.uint32, "choice_start": np.uint64,
                     "cols": np.uint32, "vals": np.float64, "upper": np.float64,
                     "choice_action": np.uint32}
            conv = {k: (lambda v, t=t: arr(v, dtype=t)) for k, t in kinds.items()}
        except ImportError:  # pragma: no cover - numpy is optional
            conv = {k: list for k in ("initial", "row_choices", "choice_start", "cols", "vals",
                                      "upper", "choice_action")}
        self.initial = conv["initial"](m["initial"])
        self.row_choices = conv["row_choices"](m["row_choices"])
        self.choice_start = conv["choice_start"](m["choice_start"])
        self.cols = conv["cols"](m["cols"])
        self.vals = conv["vals"](m["vals"])
        self.upper = conv["upper"](m["upper"])
        self.choice_action = conv["choice_action"](m["choice_action"])

    @property
    def num_states(self) -> int:
        return len(self.row_choices) - 1

    @property
    def num_choices(self) -> int:
        return len(self.choice_start) - 1

    @property
    def num_transitions(self) -> int:
        return len(self.cols)

    def transitions(self) -> List[tuple]:
        """Every transition as ``(state, choice, target, value)``."""
        out = []
        for s in range(self.num_states):
            for c in range(int(self.row_choices[s]), int(self.row_choices[s + 1])):
                for t in range(int(self.choice_start[c]), int(self.choice_start[c + 1])):
                    out.append((s, c, int(self.cols[t]), float(self.vals[t])))
        return out

    def matrix(self) -> Any:
        """A DTMC's or CTMC's transition matrix as a dense numpy array (one choice per state)."""
        import numpy as np

        if self.num_choices != self.num_states:
            raise ValueError("a matrix needs one choice per state (DTMC or CTMC)")
        m = np.zeros((self.num_states, self.num_states))
        for s, _c, t, v in self.transitions():
            m[s, t] += v
        return m

    def __repr__(self) -> str:
        return (f"<ExplicitModel {self.type}: {self.num_states} states, {self.num_choices} choices, "
                f"{self.num_transitions} transitions>")


class Model:
    """A PRISM (or JANI) model with values for its undefined constants."""

    def __init__(self, path: Optional[str] = None, text: Optional[str] = None,
                 name: str = "<model>", consts: Consts = None) -> None:
        self._path, self._text, self._name = path, text, path or name
        self.consts = _consts(consts)

    def _kw(self) -> dict:
        return dict(path=self._path, text=self._text, name=self._name)

    def check(self, properties: Optional[str] = None, *, path: Any = None,
              select: Sequence[str] = (), eps: float = 1e-6, max_states: Optional[int] = None,
              timeout: Optional[float] = None) -> Result:
        """Checks properties (PRISM property text, or a properties file at ``path``; a JANI model
        carries its own) as ``verikit prism check --json``: one item per property in
        ``results``, each with its ``result`` (the value of the initial state, as PRISM reports it)
        and, when there are several initial states, ``init_range`` (their least and greatest
        values); ``constants`` labels each item of an experiment over constant ranges."""
        pp = fspath(path) if path is not None else None
        return Result(call(_native.prism_check, props_path=pp, props_text=properties,
                           consts=self.consts, select=list(select), eps=eps,
                           max_states=max_states, timeout=timeout, **self._kw()))

    def build(self, *, max_states: Optional[int] = None,
              timeout: Optional[float] = None) -> ExplicitModel:
        """The reachable state space as an :class:`ExplicitModel`."""
        return ExplicitModel(call(_native.prism_build, consts=self.consts, max_states=max_states,
                                  timeout=timeout, **self._kw()))

    def __repr__(self) -> str:
        return f"Model({self._name!r}, consts={self.consts!r})"


def load(path: Any, consts: Consts = None) -> Model:
    """A model file (``.prism``/``.pm``/``.nm``/``.sm``, or ``.jani``)."""
    return Model(path=fspath(path), consts=consts)


def from_string(text: str, consts: Consts = None, name: str = "<model>") -> Model:
    return Model(text=text, name=name, consts=consts)
