"""The field interface of F_2^m (characteristic two).

Ops: ``add`` (XOR), ``mul``, ``sqr`` / ``sqrt`` (x^(2^±k), linear); a hardware word is the element
itself, m bits, bit i the coefficient of x^i (docs/ARCHITECTURE.md's hex is that word).  Units: the multiplier
catalogue of :mod:`pairhw.rtl.binary.catalogue`, the XOR adder, k-fold squarers and square roots.
"""

from __future__ import annotations

from pairhw.math.binary.curve import Curve2
from pairhw.program.field import BaseField, FieldInterfaceError, UnitKind
from pairhw.program.trace import Tracer


class BinaryTracer(Tracer):
    """A :class:`~pairhw.math.binary.field.GF2m` look-alike that records F_2^m operations."""

    def _canon(self, x: int) -> int:
        return x & self._F.mask

    def _add_syms(self, a, b):
        return 0 if a is b else self._emit("add", (a, b))

    def sqr_k(self, a, k: int):
        return self._power("sqr", a, k)

    def sqrt_k(self, a, k: int):
        return self._power("sqrt", a, k)

    def sqr(self, a):
        return self.sqr_k(a, 1)

    def sqrt(self, a):
        return self.sqrt_k(a, 1)

    def inv(self, a):
        a = self._check(a)
        if isinstance(a, int):
            return self._F.inv(a)
        return self._F.chain.run(self, a)  # Itoh–Tsujii, traced op by op


class BinaryField(BaseField):
    """F_2^m for the engine (see the module docstring)."""

    family = "binary"
    ops = {"add": 2, "mul": 2, "sqr": 1, "sqrt": 1, "const": 0}
    powers = {"sqr": "sqrt", "sqrt": "sqr"}
    unit_kinds = {
        "mul": UnitKind(("mul",), 2, started=True),
        "add": UnitKind(("add",), 2),
        "sqr": UnitKind(("sqr",), 1, power=True),
        "sqrt": UnitKind(("sqrt",), 1, power=True),
        "const": UnitKind(("const",), 0),
    }
    methods = {"add": "add", "mul": "mul", "sqr": "sqr_k", "sqrt": "sqrt_k"}
    pairings_module = "pairhw.math.binary.pairing"
    catalogue_module = "pairhw.rtl.binary.catalogue"

    @property
    def width(self) -> int:
        return self.F.m

    @property
    def name(self) -> str:
        return f"F_2^{self.F.m}"

    def encode(self, v: int) -> int:
        return v

    def decode(self, word: int) -> int:
        return word & self.F.mask

    def tracer(self, optimize: bool = True):
        return BinaryTracer(self, optimize)

    def curve_over(self, C, TF):
        return Curve2(TF, C.b, C.order, C.r, name=C.name)

    def make_mul(self, kind: str, **options):
        unit = super().make_mul(kind, **options)
        if getattr(unit, "width", self.width) != self.width * options.get("lanes", 1):
            raise FieldInterfaceError(f"{kind} multiplies in F_2^4m ({unit.width}-bit words); a design's mul "
                                      f"unit multiplies in {self.name}")
        return unit

    def build_unit(self, spec):
        from pairhw.rtl.binary.adder import Adder
        from pairhw.rtl.binary.powers import PowerUnit

        if spec.kind == "add":
            self.no_options(spec)
            return Adder(self.F)
        return PowerUnit(self.F, spec.kind, spec.ks, stages=dict(spec.options).get("stages", 0))
