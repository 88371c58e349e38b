"""The F_2^m multiplier contract and the helpers its kinds share.

Multiplier contract (every :class:`MulUnit`): ``a`` and ``b`` are sampled in the cycle where
``start`` is high; ``c`` holds the product from ``latency`` cycles later, when ``done`` pulses for one
cycle, until the next result.  ``start`` may be raised again every ``initiation_interval`` cycles
(earlier is not allowed).  The cycle count never depends on the operand values.
"""

from __future__ import annotations

from amaranth.hdl import Cat
from amaranth.lib import wiring
from amaranth.lib.wiring import In

from pairhw.rtl.ports import mul_signature
from pairhw.math.binary import mulalg
from pairhw.math.binary.field import GF2m


def _sched_str(schedule) -> str:
    return "".join(str(k) for k in schedule) or "0"


def reduction_columns(F: GF2m, width: int) -> list[int]:
    """Columns of the reduction map F_2[x]_{<width} → F_2^m: x^j ↦ x^j mod f."""
    return [F.reduce(1 << j) for j in range(width)]


def toeplitz_columns(F: GF2m) -> list[int]:
    """Columns of the CONVERTOR map a ↦ diagonals of T_A (seed 000 §3.1, Fig. 1)."""
    return [mulalg.field_toeplitz(F, 1 << j) for j in range(F.m)]


class MulUnit(wiring.Component):
    """Base of the F_2^m multipliers: ports ``a``, ``b``, ``start`` in; ``c``, ``done`` out."""

    _MustUse__silence = True
    #: True when the unit instantiates Xilinx ``LUT6`` primitives (:data:`pairhw.rtl.binary.nets.LUT6_MODEL`
    #: simulates them); the Amaranth simulator cannot run such a unit.
    lut6 = False

    def __init__(self, F: GF2m, start_copies: int = 1):
        self.F = F
        sig = mul_signature(F.m)
        if start_copies > 1:  # a unit whose start reaches its parts through copies of its own
            sig = wiring.Signature({**sig.members, "start": In(start_copies)})
        super().__init__(sig)

    def emulate(self, a: int, b: int) -> int:
        """The model's product along the same algorithm (for tests and vector files)."""
        raise NotImplementedError

    def describe(self) -> dict:
        return {"name": self.name, "m": self.F.m, "field": self.F.poly_str(),
                "latency": self.latency, "ii": self.initiation_interval}


def _final_rotate(F: GF2m, cp):
    """C from C' = T_A·B: C_i = C'_((i - k) mod m) (seed 000 §3.1, the swap U⁻¹)."""
    m, k = F.m, F.middle[0]
    return Cat(cp[m - k:m], cp[0:m - k])


def _require_trinomial(F: GF2m, what: str):
    if len(F.middle) != 1:
        raise ValueError(f"{what} needs a trinomial field (seed 000 §3.1); {F.poly_str()} is not one")
