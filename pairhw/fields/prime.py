"""The field interface of F_p (prime fields): ops and encodings for the engine.

Ops: ``add``, ``sub``, ``neg``, ``mul`` (and products by small constants as ``mulc``); a hardware
word is the canonical integer in [0, p), ⌈log2 p⌉ bits; text is big-endian hex.  Tracing the
optimal ate pairing and the prime-field units (seed 002's multiplier, Montgomery adders) come with
their own issue: until then :meth:`make_mul` and :meth:`build_unit` say so.
"""

from __future__ import annotations

from pairhw.program.field import BaseField, UnitKind


class PrimeFieldInterface(BaseField):
    """F_p for the engine (see the module docstring)."""

    family = "prime"
    ops = {"add": 2, "sub": 2, "neg": 1, "mul": 2, "const": 0}
    powers: dict = {}
    unit_kinds = {
        "mul": UnitKind(("mul",), 2),
        "add": UnitKind(("add", "sub", "neg"), 2),
        "const": UnitKind(("const",), 0),
    }
    methods = {"add": "add", "sub": "sub", "neg": "neg", "mul": "mul"}
    pairings_module = "pairhw.math.prime.pairing"

    @property
    def m(self) -> int:
        return 1

    @property
    def width(self) -> int:
        return self.F.p.bit_length()

    @property
    def name(self) -> str:
        return f"F_p ({self.F.p.bit_length()} bits)"

    def encode(self, v: int) -> int:
        return v

    def decode(self, word: int) -> int:
        return word % self.F.p
