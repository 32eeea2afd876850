"""Boolean networks (``.bnet``, ``.aeon``, SBML-qual): attractors of the synchronous dynamics and
fixed points (the engine of ``verikit bn``)."""

from __future__ import annotations

from typing import Any, Mapping, Optional

from . import _native
from ._core import Result, call, call_text, fspath, params_list


class Network:
    """A network read from a file (``load``) or a string (``from_string``)."""

    def __init__(self, path: Optional[str] = None, text: Optional[str] = None,
                 name: str = "<network>", format: Optional[str] = None) -> None:
        self._path, self._text, self._name, self.format = path, text, path or name, format
        self.info()  # parse now: a bad network raises here

    def _kw(self) -> dict:
        return dict(path=self._path, text=self._text, name=self._name, format=self.format)

    def info(self, *, inputs: str = "free") -> Result:
        """Nodes, inputs and regulators (``verikit bn info``)."""
        return Result(call(_native.bn_run, "info", inputs=inputs, **self._kw()))

    def attractors(self, *, method: str = "decomposition", inputs: str = "free",
                   detect: str = "periods", leaf_removal: bool = True, limit: int = 100,
                   node_limit: Optional[int] = None, timeout: Optional[float] = None,
                   params: Optional[Mapping[str, Any]] = None) -> Result:
        """The attractors of the synchronous dynamics (``verikit bn attractors``): counts by
        period, and up to ``limit`` attractors listed as their states."""
        return Result(call(_native.bn_run, "attractors", inputs=inputs, method=method,
                           detect=detect, leaf_removal=leaf_removal, limit=limit,
                           node_limit=node_limit, timeout=timeout, params=params_list(params),
                           **self._kw()))

    def fixed_points(self, *, inputs: str = "free", limit: int = 100,
                     node_limit: Optional[int] = None, timeout: Optional[float] = None) -> Result:
        """The fixed points (``verikit bn fixed-points``): their count and up to ``limit`` of
        them."""
        return Result(call(_native.bn_run, "fixed_points", inputs=inputs, limit=limit,
                           node_limit=node_limit, timeout=timeout, **self._kw()))

    def to_string(self, format: str = "bnet") -> str:
        """The network as ``bnet`` or ``aeon``."""
        return call_text(_native.bn_write, to=format, **self._kw())

    def __repr__(self) -> str:
        return f"Network({self._name!r})"


def load(path: Any, format: Optional[str] = None) -> Network:
    """The network in a file (format from the extension: ``.aeon``, ``.sbml``/``.xml``, else
    ``.bnet``)."""
    return Network(path=fspath(path), format=format)


def from_string(text: str, format: str = "bnet", name: str = "<network>") -> Network:
    return Network(text=text, name=name, format=format)
