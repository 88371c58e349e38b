"""Named designs, one JSON file each: a parameter set, a pairing algorithm and a datapath.

``datapath`` is the dictionary of :func:`pairhw.program.datapath.build_datapath`.  A design is
compiled by the engine (:func:`pairhw.program.engine.compile_pairing`) and built as a
:class:`pairhw.rtl.core.PairingCore`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources


class UnknownDesign(KeyError):
    pass


@dataclass(frozen=True)
class Design:
    name: str
    description: str
    params: str
    algorithm: str
    data: dict

    @property
    def top(self) -> str:
        """Verilog module name of the core (from the design name)."""
        return "Pairing_" + "".join(c if c.isalnum() else "_" for c in self.name)

    def curve(self):
        from pairhw import params

        return params.curve(self.params)

    @property
    def field(self):
        """The field interface of the design's base field (:mod:`pairhw.fields`)."""
        from pairhw import fields

        return fields.for_params(self.params)

    def datapath(self):
        from pairhw.program.datapath import build_datapath

        return build_datapath(self.field, self.data["datapath"])

    def compile(self):
        """The engine's :class:`~pairhw.program.engine.Compiled` (cached per design)."""
        return _compiled(self.name)

    def core(self):
        from pairhw.rtl.core import PairingCore

        return PairingCore(self.compile(), self.top)

    def model(self, P, Q) -> list:
        """The golden model's pairing value, as the base-field coefficients the core outputs."""
        return self.field.flatten(self.field.algorithm(self.algorithm)(self.curve(), P, Q))


def names() -> list[str]:
    return sorted(f.name[:-5] for f in resources.files(__package__).iterdir() if f.name.endswith(".json"))


@lru_cache(maxsize=None)
def get(name: str) -> Design:
    try:
        text = resources.files(__package__).joinpath(f"{name}.json").read_text()
    except (FileNotFoundError, OSError):
        raise UnknownDesign(name) from None
    d = json.loads(text)
    return Design(d["name"], d["description"], d["params"], d["algorithm"], d)


@lru_cache(maxsize=None)
def _compiled(name: str):
    from pairhw.program.engine import compile_pairing

    d = get(name)
    return compile_pairing(d.curve(), d.field.algorithm(d.algorithm), d.datapath())
