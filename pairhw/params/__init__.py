"""Named parameter sets, one JSON file each (fields, curves, orders, security notes).

Binary sets (family ``binary-supersingular``): E_b : y² + y = x³ + x + b over F_2^m with
f = x^m + sum x^k + 1; #E = 2^m + 1 + sign·2^((m+1)/2) = cofactor·r, embedding degree 4.
Field elements are hex of sum a_i 2^i, most significant digit first, ⌈m/4⌉ digits (DESIGN.md).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources


class UnknownParamSet(KeyError):
    pass


@dataclass(frozen=True)
class ParamSet:
    name: str
    family: str
    data: dict

    @property
    def m(self) -> int:
        return self.data["field"]["m"]

    @property
    def order(self) -> int:
        return int(self.data["order"])

    @property
    def r(self) -> int:
        return int(self.data["r"])

    @property
    def cofactor(self) -> int:
        return int(self.data["cofactor"])

    @property
    def security(self) -> str:
        return self.data["security"]

    def gf2m(self):
        """The binary field F_2^m of this set (:class:`pairhw.math.gf2m.GF2m`)."""
        from pairhw.math.gf2m import GF2m

        return GF2m(self.m, self.data["field"]["middle"])

    def field_str(self) -> str:
        f = self.data["field"]
        terms = [f"x^{f['m']}"] + [f"x^{k}" for k in f["middle"]] + ["1"]
        return "F_2[x]/(" + " + ".join(terms) + ")"

    def curve_str(self) -> str:
        b = self.data["curve"]["b"]
        return "y^2 + y = x^3 + x" + (" + 1" if b else "")


def names() -> list[str]:
    files = resources.files(__package__).iterdir()
    found = [f.name[:-5] for f in files if f.name.endswith(".json")]
    return sorted(found, key=lambda n: (n.split("-")[0], int(n.split("-")[1])))


@lru_cache(maxsize=None)
def get(name: str) -> ParamSet:
    try:
        text = resources.files(__package__).joinpath(f"{name}.json").read_text()
    except (FileNotFoundError, OSError):
        raise UnknownParamSet(name) from None
    data = json.loads(text)
    return ParamSet(data["name"], data["family"], data)


@lru_cache(maxsize=None)
def curve(name: str):
    """The :class:`pairhw.math.ec2.Curve2` of a binary parameter set (cached)."""
    from pairhw.math.ec2 import Curve2

    p = get(name)
    F = p.gf2m()
    return Curve2(F, p.data["curve"]["b"], p.order, p.r, name=name)
