"""The F_2^m adder: m XOR gates, latency 0."""

from __future__ import annotations

from amaranth.hdl import Module
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from pairhw.math.binary.field import GF2m


class Adder(wiring.Component):
    """c = a + b in F_2^m: m XOR gates, latency 0."""

    latency = 0
    initiation_interval = 1
    _MustUse__silence = True

    def __init__(self, F: GF2m):
        self.F = F
        self.name = f"Add_m{F.m}"
        super().__init__({"a": In(F.m), "b": In(F.m), "c": Out(F.m)})

    @property
    def xor_count(self) -> int:
        return self.F.m

    def emulate(self, a: int, b: int) -> int:
        return a ^ b

    def elaborate(self, platform):
        m = Module()
        m.d.comb += self.c.eq(self.a ^ self.b)
        return m
