"""What the multiplier units of every family share: their port contract and the error of a unit request
that cannot be built (one of each, for F_2^m, F_3^m and F_p alike)."""

from __future__ import annotations

from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

#: the attribute (``Signal(..., attrs={REPLICA: 1})``) of a register that repeats another on purpose:
#: a copy near each group of the cells it drives, so that no one net spans them all (the Verilog
#: writer keeps such flip-flops apart: :func:`pairhw.emit.keep_replicas`)
REPLICA = "pairhw_replica"

#: the attribute of a register that a block RAM's output loads directly and that may become that
#: block RAM's own output register (no reset, no enable: :func:`pairhw.synth.flows.absorb_bram_output_registers`)
BRAM_OUTPUT = "pairhw_bram_output"

#: the contract of :func:`mul_signature` in one line (a unit's Verilog header and build manifest)
CONTRACT = ("a, b sampled when start = 1; c valid with done = 1 exactly `latency` cycles later; "
            "start at most every `ii` cycles")


def mul_signature(width: int) -> wiring.Signature:
    """The ports of every multiplier unit, ``width``-bit words of its field's encoding: operands ``a``
    and ``b`` and ``start`` in, the product ``c`` and ``done`` out (:data:`CONTRACT`)."""
    return wiring.Signature({"a": In(width), "b": In(width), "start": In(1), "c": Out(width), "done": Out(1)})


class KindError(ValueError):
    """A unit request that cannot be built (unknown kind, missing or bad option)."""
