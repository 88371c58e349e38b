"""Cubing and cube-root networks for F_3^m: x^(3^k) and x^(3^−k), each an F_3-linear map whose
matrix is read off the golden model (column j is the model's power of x^j), latency 0."""

from __future__ import annotations

from amaranth.hdl import Cat, Module
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from pairhw.math.ternary.field import GF3m

from pairhw.rtl.select import drive_selected, select_port

from . import nets


class PowerUnit3(wiring.Component):
    """c = a^(3^k) (``cube``) or a^(3^−k) (``cbrt``) for k = ks[sel], latency 0.

    One linear network per k behind a shared input and a multiplexer on ``sel`` (present only when
    ``ks`` has several powers).  Cubing permutes the trits and folds by the trinomial; a cube root is
    A0 + x^(1/3)·A1 + x^(2/3)·A2 (Barreto 2004), whose cost depends on how sparse x^(1/3) is.
    """

    latency = 0
    initiation_interval = 1
    _MustUse__silence = True

    def __init__(self, F: GF3m, kind: str, ks=(1,), copies: int = 1):
        if kind not in ("cube", "cbrt"):
            raise ValueError(f"an F_3^m power unit is cube or cbrt, not {kind!r}")
        self.F, self.kind, self.ks = F, kind, tuple(ks)
        fn = F.cube_k if kind == "cube" else F.cbrt_k
        self.rows = [nets.linear_rows(nets.basis_images(F, lambda x, k=k: fn(x, k)), F.m) for k in self.ks]
        self.name = f"{'Cube' if kind == 'cube' else 'Cbrt'}3_m{F.m}_k{'_'.join(map(str, self.ks))}"
        sig = {"a": In(2 * F.m), "c": Out(2 * F.m)}
        self.control_copies = copies if len(self.ks) > 1 else 1
        if len(self.ks) > 1:
            sig["sel"] = In(select_port(len(self.ks), copies))
        super().__init__(sig)

    def copied(self, copies: int) -> "PowerUnit3":
        """This unit with ``copies`` copies of ``sel`` side by side, copy j choosing the trits of
        :func:`~pairhw.rtl.select.copy_ranges` j (the core's ``slice_controls``); the same values."""
        return PowerUnit3(self.F, self.kind, self.ks, copies)

    @property
    def add_count(self) -> int:
        """Trit adders of all the networks."""
        return sum(nets.linear_add_count(r) for r in self.rows)

    def emulate(self, a: int, sel: int = 0) -> int:
        F, k = self.F, self.ks[sel]
        return F.cube_k(a, k) if self.kind == "cube" else F.cbrt_k(a, k)

    def elaborate(self, platform):
        m = Module()
        n = self.F.m
        al, ah = self.a[:n], self.a[n:]
        outs = []
        for k, rows in zip(self.ks, self.rows):
            h, l = nets.linear_net(m, ah, al, rows, f"k{k}")
            outs.append(Cat(l, h))
        drive_selected(m, self.c, getattr(self, "sel", None), outs, self.control_copies, halves=2)
        return m
