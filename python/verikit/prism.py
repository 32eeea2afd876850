"""Probabilistic models in the PRISM language (DTMC, CTMC, MDP, interval models) and JANI: PCTL/CSL
checking and explicit models (the engine of ``verikit prism``)."""

from __future__ import annotations

import json
from typing import Any, List, Mapping, Optional, Sequence, Union

from . import _native
from ._core import Result, call_raw, fspath

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
    probability or rate ``vals``; interval models: ``vals`` are the lower and ``upper`` the upper
    bounds). The arrays are numpy arrays that own the engine's buffers (handed over without a copy)
    when numpy is installed, else lists. States are numbered as in :meth:`Model.check`'s values."""

    def __init__(self, data: dict, arrays: dict) -> None:
        m = data.pop("model")
        self.result = Result(data)
        self.type: str = m["type"]
        self.actions: List[str] = m["actions"]
        self.sta: str = m["sta"]
        self.initial: Any = arrays["initial"]
        self.row_choices: Any = arrays["row_choices"]
        self.choice_start: Any = arrays["choice_start"]
        self.cols: Any = arrays["cols"]
        self.vals: Any = arrays["vals"]
        self.upper: Any = arrays["upper"]
        self.choice_action: Any = arrays["choice_action"]

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


class PropertyResult(Result):
    """One checked property (an item of :attr:`CheckResult.results`), as ``verikit prism check
    --json`` prints it (``result``: the value of the first initial state; ``init_range``), plus,
    as stormpy's results, the value of every state: ``values`` (indexed by state, numbered as
    :meth:`Model.build` numbers them; float64, or bool for a Boolean property), :meth:`at`,
    ``initial_states`` and ``initial_values`` (one value per initial state). A ``filter(…)``
    property or one that timed out has a single value only: ``values`` is ``None``."""

    def __init__(self, data: dict, values: Any = None) -> None:
        super().__init__(data)
        self.values: Any = None
        self.initial_states: Any = None
        if values is not None:
            self.values, self.initial_states = values

    def _need(self) -> Any:
        if self.values is None:
            raise ValueError("this result has no per-state values (a filter, or it timed out)")
        return self.values

    def at(self, state: int) -> Any:
        """The value of ``state`` (a Python ``float`` or ``bool``)."""
        v = self._need()[state]
        return v.item() if hasattr(v, "item") else v

    @property
    def initial_values(self) -> List[Any]:
        """The value of each initial state, in the order of ``initial_states``."""
        self._need()
        return [self.at(int(s)) for s in self.initial_states]

    def __len__(self) -> int:
        return len(self._need())


class CheckResult(Result):
    """The answer of :meth:`Model.check`: ``results`` holds one :class:`PropertyResult` per
    property (and per combination of constants). With one property, :meth:`at`, ``values``,
    ``initial_states`` and ``initial_values`` are that property's."""

    def __init__(self, data: dict, values: Sequence[Any]) -> None:
        super().__init__(data)
        items = data.get("results", [])
        self.results: List[PropertyResult] = [  # type: ignore[assignment]
            PropertyResult(r, values[i] if i < len(values) else None) for i, r in enumerate(items)]

    def _only(self) -> PropertyResult:
        if len(self.results) != 1:
            raise ValueError(f"{len(self.results)} results: pick one from .results")
        return self.results[0]

    def at(self, state: int) -> Any:
        return self._only().at(state)

    @property
    def values(self) -> Any:
        return self._only().values

    @property
    def initial_states(self) -> Any:
        return self._only().initial_states

    @property
    def initial_values(self) -> List[Any]:
        return self._only().initial_values


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
              timeout: Optional[float] = None) -> CheckResult:
        """Checks properties (PRISM property text, or a properties file at ``path``; a JANI model
        carries its own) as ``verikit prism check --json``: one :class:`PropertyResult` per
        property in ``results``, each with its ``result`` (the value of the first initial state,
        as PRISM reports it), ``init_range`` when several initial states differ, and the value of
        every state (``values``, ``at(state)``, ``initial_values``); ``constants`` labels each
        item of an experiment over constant ranges."""
        pp = fspath(path) if path is not None else None
        text, values = call_raw(_native.prism_check, props_path=pp, props_text=properties,
                                consts=self.consts, select=list(select), eps=eps,
                                max_states=max_states, timeout=timeout, **self._kw())
        return CheckResult(json.loads(text), values)

    def build(self, *, max_states: Optional[int] = None,
              timeout: Optional[float] = None) -> ExplicitModel:
        """The reachable state space as an :class:`ExplicitModel`."""
        text, arrays = call_raw(_native.prism_build, consts=self.consts, max_states=max_states,
                                timeout=timeout, **self._kw())
        return ExplicitModel(json.loads(text), arrays)

    def __repr__(self) -> str:
        return f"Model({self._name!r}, consts={self.consts!r})"


def load(path: Any, consts: Consts = None) -> Model:
    """A model file (``.prism``/``.pm``/``.nm``/``.sm``, or ``.jani``)."""
    return Model(path=fspath(path), consts=consts)


def from_string(text: str, consts: Consts = None, name: str = "<model>") -> Model:
    return Model(text=text, name=name, consts=consts)
