"""F_2-linear units generated from the golden model: squarers, square roots and k-fold powers
(latency ``stages``, default 0: the datapath registers around them)."""

from __future__ import annotations

from amaranth.hdl import Const, Module
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from pairhw.math.binary.field import GF2m

from pairhw.rtl.binary import nets
from pairhw.rtl.select import delayed, drive_selected, select_port, stage_cuts


class LinearUnit(wiring.Component):
    """c = L(a) for an F_2-linear map L given by the images of the basis (latency ``len(cuts)``: the
    levels of each bit's XOR tree registered after, :func:`~pairhw.rtl.binary.nets.linear_net`).

    Attributes
    ----------
    xor_count : int
        Two-input XOR gates of the network (no sharing between output bits).
    """

    initiation_interval = 1
    # units are often built only to read their latency, II or gate counts: no "never used" warning
    _MustUse__silence = True

    def __init__(self, F: GF2m, columns, name: str, cuts=()):
        self.F = F
        self.columns = list(columns)
        self.name = name
        self.cuts = list(cuts)  # registers along each bit's XOR tree (nets.linear_net), its latency
        self.latency = len(self.cuts)
        super().__init__({"a": In(F.m), "c": Out(F.m)})

    @property
    def xor_count(self) -> int:
        return nets.linear_xor_count(self.columns, self.F.m)

    @property
    def most_terms(self) -> int:
        """The most input bits of one output bit's XOR."""
        return max(len(r) for r in nets.linear_rows(self.columns, self.F.m))

    def elaborate(self, platform):
        m = Module()
        y = nets.linear_net(m, self.a, self.columns, self.F.m, "y", self.cuts)
        # c is one cell (an XOR with 0, which synthesis removes): the net's output bits are XOR
        # gates of their own, and a module port is cut per cell, so ``c = y`` would make one port
        # per bit (``port_1112_0``…) where the module is instantiated; this way the port is ``c``
        m.d.comb += self.c.eq(y ^ Const(0, self.F.m))
        return m


class Squarer(LinearUnit):
    """k-fold squarer a ↦ a^(2^k) in one combinational XOR network (seed 000 §2).

    The network is derived from the model: column j is ``F.sqr_k(x^j, k)``.
    """

    def __init__(self, F: GF2m, k: int = 1, cuts=()):
        self.k = k
        super().__init__(F, [F.sqr_k(1 << j, k) for j in range(F.m)], f"Sqr_m{F.m}_k{k}", cuts)

    def emulate(self, a: int) -> int:
        return self.F.sqr_k(a, self.k)


class SquareRoot(LinearUnit):
    """k-fold square root a ↦ a^(2^-k) in one combinational XOR network (seed 000 §2)."""

    def __init__(self, F: GF2m, k: int = 1, cuts=()):
        self.k = k
        super().__init__(F, [F.sqrt_k(1 << j, k) for j in range(F.m)], f"Sqrt_m{F.m}_k{k}", cuts)

    def emulate(self, a: int) -> int:
        return self.F.sqrt_k(a, self.k)


class PowerUnit(wiring.Component):
    """c = a^(2^k) (``sqr``) or a^(2^-k) (``sqrt``) for k = ks[sel], latency ``stages``.

    One :class:`Squarer` or :class:`SquareRoot` network per k behind a shared input, and a mux
    on ``sel`` (present only when ``ks`` has several powers).  Seed 000 §5's two squarers in
    series are ``ks = (1, 2)`` built as two direct networks.  ``stages`` (0 to 3) registers each
    output bit's XOR that many times along its tree (:func:`~pairhw.rtl.select.stage_cuts`: the
    largest XOR and the select split evenly), ``sel`` delayed with them.
    """

    initiation_interval = 1
    _MustUse__silence = True

    def __init__(self, F: GF2m, kind: str, ks=(1,), copies: int = 1, stages: int = 0):
        if kind not in ("sqr", "sqrt"):
            raise ValueError(f"a power unit is sqr or sqrt, not {kind!r}")
        if isinstance(stages, bool) or not isinstance(stages, int) or not 0 <= stages <= 3:
            raise ValueError(f"stages: the registers in a power unit's networks, 0 to 3, not {stages!r}")
        self.F, self.kind, self.ks, self.stages = F, kind, tuple(ks), stages
        self.latency = stages
        cls = Squarer if kind == "sqr" else SquareRoot
        terms = max(cls(F, k).most_terms for k in self.ks)
        self.cuts = stage_cuts(terms, len(self.ks), stages)
        self.nets = [cls(F, k, self.cuts) for k in self.ks]
        self.name = f"{cls.__name__}_m{F.m}_k{'_'.join(map(str, self.ks))}" + (f"_s{stages}" if stages else "")
        sig = {"a": In(F.m), "c": Out(F.m)}
        self.control_copies = copies if len(self.ks) > 1 else 1
        if len(self.ks) > 1:
            sig["sel"] = In(select_port(len(self.ks), copies))
        super().__init__(sig)

    def copied(self, copies: int) -> "PowerUnit":
        """This unit with ``copies`` copies of ``sel`` side by side, copy j choosing the bits of
        :func:`~pairhw.rtl.select.copy_ranges` j (the core's ``slice_controls``); the same values."""
        return PowerUnit(self.F, self.kind, self.ks, copies, self.stages)

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
        sel = getattr(self, "sel", None)
        if sel is not None:
            sel = delayed(m, sel, self.stages, "sel")
        drive_selected(m, self.c, sel, outs, self.control_copies)
        return m
