"""The field interface of F_p (prime fields): ops and encodings for the engine.

Ops: ``add``, ``sub``, ``neg``, ``mul`` (and products by small constants as ``mulc``); a hardware
word is the canonical integer in [0, p), ⌈log2 p⌉ bits; text is big-endian hex.  Units
(:mod:`pairhw.rtl.prime`): the multipliers of :mod:`pairhw.rtl.prime.catalogue` (Montgomery,
pipelined and iterative; seed 002's polynomial Montgomery multiplier) and an adder that also
subtracts and negates, all on fully reduced words.  The Montgomery units compute a·b·R⁻¹: a core
keeps its values in Montgomery form, which comes with the pairing cores (issue 20).
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
    catalogue_module = "pairhw.rtl.prime.catalogue"

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

    def build_unit(self, spec):
        from pairhw.program.field import FieldInterfaceError
        from pairhw.rtl.prime.adder import AddSubP

        if spec.kind == "add":
            return AddSubP(self.F)
        raise FieldInterfaceError(f"no {spec.kind} units for {self.name}")
