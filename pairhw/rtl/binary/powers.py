"""F_2-linear units generated from the golden model: squarers, square roots and k-fold powers
(latency 0: the datapath registers around them)."""

from __future__ import annotations

from amaranth.hdl import Const, Module
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from pairhw.math.binary.field import GF2m

from pairhw.rtl.binary import nets
from pairhw.rtl.select import drive_selected, select_port


class LinearUnit(wiring.Component):
    """c = L(a) for an F_2-linear map L given by the images of the basis (latency 0).

    Attributes
    ----------
    xor_count : int
        Two-input XOR gates of the network (no sharing between output bits).
    """

    latency = 0
    initiation_interval = 1
    # units are often built only to read their latency, II or gate counts: no "never used" warning
    _MustUse__silence = True

    def __init__(self, F: GF2m, columns, name: str):
        self.F = F
        self.columns = list(columns)
        self.name = name
        super().__init__({"a": In(F.m), "c": Out(F.m)})

    @property
    def xor_count(self) -> int:
        return nets.linear_xor_count(self.columns, self.F.m)

    def elaborate(self, platform):
        m = Module()
        y = nets.linear_net(m, self.a, self.columns, self.F.m, "y")
        # c is one cell (an XOR with 0, which synthesis removes): the net's output bits are XOR
        # gates of their own, and a module port is cut per cell, so ``c = y`` would make one port
        # per bit (``port_1112_0``…) where the module is instantiated; this way the port is ``c``
        m.d.comb += self.c.eq(y ^ Const(0, self.F.m))
        return m


class Squarer(LinearUnit):
    """k-fold squarer a ↦ a^(2^k) in one combinational XOR network (seed 000 §2).

    The network is derived from the model: column j is ``F.sqr_k(x^j, k)``.
    """

    def __init__(self, F: GF2m, k: int = 1):
        self.k = k
        super().__init__(F, [F.sqr_k(1 << j, k) for j in range(F.m)], f"Sqr_m{F.m}_k{k}")

    def emulate(self, a: int) -> int:
        return self.F.sqr_k(a, self.k)


class SquareRoot(LinearUnit):
    """k-fold square root a ↦ a^(2^-k) in one combinational XOR network (seed 000 §2)."""

    def __init__(self, F: GF2m, k: int = 1):
        self.k = k
        super().__init__(F, [F.sqrt_k(1 << j, k) for j in range(F.m)], f"Sqrt_m{F.m}_k{k}")

    def emulate(self, a: int) -> int:
        return self.F.sqrt_k(a, self.k)


class PowerUnit(wiring.Component):
    """c = a^(2^k) (``sqr``) or a^(2^-k) (``sqrt``) for k = ks[sel], latency 0.

    One :class:`Squarer` or :class:`SquareRoot` network per k behind a shared input, and a mux
    on ``sel`` (present only when ``ks`` has several powers).  Seed 000 §5's two squarers in
    series are ``ks = (1, 2)`` built as two direct networks.
    """

    latency = 0
    initiation_interval = 1
    _MustUse__silence = True

    def __init__(self, F: GF2m, kind: str, ks=(1,), copies: int = 1):
        if kind not in ("sqr", "sqrt"):
            raise ValueError(f"a power unit is sqr or sqrt, not {kind!r}")
        self.F, self.kind, self.ks = F, kind, tuple(ks)
        cls = Squarer if kind == "sqr" else SquareRoot
        self.nets = [cls(F, k) for k in self.ks]
        self.name = f"{cls.__name__}_m{F.m}_k{'_'.join(map(str, self.ks))}"
        sig = {"a": In(F.m), "c": Out(F.m)}
        self.control_copies = copies if len(self.ks) > 1 else 1
        if len(self.ks) > 1:
            sig["sel"] = In(select_port(len(self.ks), copies))
        super().__init__(sig)

    def copied(self, copies: int) -> "PowerUnit":
        """This unit with ``copies`` copies of ``sel`` side by side, copy j choosing the bits of
        :func:`~pairhw.rtl.select.copy_ranges` j (the core's ``slice_controls``); the same values."""
        return PowerUnit(self.F, self.kind, self.ks, copies)

    @property
    def xor_count(self) -> int:
        return sum(n.xor_count for n in self.nets)

    def emulate(self, a: int, sel: int = 0) -> int:
        return self.nets[sel].emulate(a)

    def elaborate(self, platform):
        m = Module()
        outs = []
        for k, net in zip(self.ks, self.nets):
            m.submodules[f"k{k}"] = net
            m.d.comb += net.a.eq(self.a)
            outs.append(net.c)
        drive_selected(m, self.c, getattr(self, "sel", None), outs, self.control_copies)
        return m
