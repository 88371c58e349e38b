"""The protocol both back ends' compiled programs implement, and the stream interface their cores have.

A compiled program is either the engine's :class:`~pairhw.program.engine.Compiled` (a microcoded
datapath) or Nagl et al.'s word-serial :class:`~pairhw.asip.program.AsipProgram`.  Everything above
the back ends — the core's Verilog header and test bench, the bus wrappers, the cocotb test, the build
directory — reads a program through :class:`CompiledProgram` and its core's :class:`StreamInterface`
only, never the back end's own parts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol


@dataclass(frozen=True)
class StreamInterface:
    """What a core streams: ``n_in`` field elements in, then, ``cycles`` later, ``n_out`` out, each as
    :attr:`io_beats` words of ``io_width`` bits, least significant first.

    ``F`` is the field interface (:class:`pairhw.program.field.BaseField`): its ``width``-bit word of
    an element, its ``pairing_inputs`` and how a test bench compares words (``tb_differ``)."""

    F: Any
    io_width: int
    n_in: int
    n_out: int

    @property
    def io_beats(self) -> int:
        """Stream words per field element."""
        return -(-self.F.width // self.io_width)


class CompiledProgram(Protocol):
    """A compiled pairing program, of either back end."""

    @property
    def cycles(self) -> int:
        """Cycles per pairing, from the cycle after the last input word (constant)."""

    @property
    def stream(self) -> StreamInterface:
        """Its core's stream interface."""

    def run(self, values: list) -> tuple[list, int]:
        """The outputs and the cycles of one run on the inputs ``values`` (field elements, stream
        order): the bit- and cycle-exact model of the core."""

    def report(self) -> dict:
        """The schedule report (``pairhw schedule --json``)."""

    def rom_listing(self, title: str = "") -> str:
        """The microcode or instruction ROM, one word a line (``microcode.lst``)."""


if TYPE_CHECKING:  # mypy checks that both back ends implement the protocol
    from .asip import AsipProgram
    from .engine import Compiled

    def _both(c: Compiled, a: AsipProgram) -> list[CompiledProgram]:
        return [c, a]
