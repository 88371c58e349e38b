"""Cubing and cube-root networks for F_3^m: x^(3^k) and x^(3^−k), each an F_3-linear map whose
matrix is read off the golden model (column j is the model's power of x^j), latency ``stages``
(default 0: the datapath registers around them)."""

from __future__ import annotations

from amaranth.hdl import Cat, Module
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from pairhw.math.ternary.field import GF3m

from pairhw.rtl.select import delayed, drive_selected, select_port, stage_cuts

from . import nets


class PowerUnit3(wiring.Component):
    """c = a^(3^k) (``cube``) or a^(3^−k) (``cbrt``) for k = ks[sel], latency ``stages``.

    One linear network per k behind a shared input and a multiplexer on ``sel`` (present only when
    ``ks`` has several powers).  Cubing permutes the trits and folds by the trinomial; a cube root is
    A0 + x^(1/3)·A1 + x^(2/3)·A2 (Barreto 2004), whose cost depends on how sparse x^(1/3) is.
    ``stages`` (0 to 3) registers each output trit's sum that many times along its adder tree
    (:func:`~pairhw.rtl.select.stage_cuts`: the deepest sum and the select split evenly), ``sel``
    delayed with them; the k = 4 cube of F_3^97 sums up to 31 trits (five levels).
    """

    initiation_interval = 1
    _MustUse__silence = True

    def __init__(self, F: GF3m, kind: str, ks=(1,), copies: int = 1, stages: int = 0):
        if kind not in ("cube", "cbrt"):
            raise ValueError(f"an F_3^m power unit is cube or cbrt, not {kind!r}")
        if isinstance(stages, bool) or not isinstance(stages, int) or not 0 <= stages <= 3:
            raise ValueError(f"stages: the registers in a power unit's networks, 0 to 3, not {stages!r}")
        self.F, self.kind, self.ks, self.stages = F, kind, tuple(ks), stages
        self.latency = stages
        fn = F.cube_k if kind == "cube" else F.cbrt_k
        self.rows = [nets.linear_rows(nets.basis_images(F, lambda x, k=k: fn(x, k)), F.m) for k in self.ks]
        self.cuts = stage_cuts(max(len(r) for rows in self.rows for r in rows), len(self.ks), stages)
        self.name = (f"{'Cube' if kind == 'cube' else 'Cbrt'}3_m{F.m}_k{'_'.join(map(str, self.ks))}"
                     + (f"_s{stages}" if stages else ""))
        sig = {"a": In(2 * F.m), "c": Out(2 * F.m)}
        self.control_copies = copies if len(self.ks) > 1 else 1
        if len(self.ks) > 1:
            sig["sel"] = In(select_port(len(self.ks), copies))
        super().__init__(sig)

    def copied(self, copies: int) -> "PowerUnit3":
        """This unit with ``copies`` copies of ``sel`` side by side, copy j choosing the trits of
        :func:`~pairhw.rtl.select.copy_ranges` j (the core's ``slice_controls``); the same values."""
        return PowerUnit3(self.F, self.kind, self.ks, copies, self.stages)

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
            h, l = nets.linear_net(m, ah, al, rows, f"k{k}", self.cuts)
            outs.append(Cat(l, h))
        sel = getattr(self, "sel", None)
        if sel is not None:
            sel = delayed(m, sel, self.stages, "sel")
        drive_selected(m, self.c, sel, outs, self.control_copies, halves=2)
        return m
