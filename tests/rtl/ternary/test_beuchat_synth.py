"""Beuchat et al.'s F_3^97 coprocessors against the open cores, synthesized (Yosys xc7; `slow`: a few
minutes each when not cached): the fast core smaller than freecores/pairing, the small core's
LUTs × cycles below tiny_tate's (``pairhw.published.OPEN_F3_97``)."""

import pytest

from pairhw import designs
from pairhw.emit import unit_verilog
from pairhw.synth.flows import luts_with_ram, synthesize

FREECORES_PAIRING_LUTS = 37054
TINY_TATE_LUTS, TINY_TATE_CYCLES = 2975, 52512


def _synth(name):
    d = designs.get(name)
    res = synthesize(unit_verilog(d.core()), d.top, "xc7")
    return d.report()["cycles"], luts_with_ram(res), res


@pytest.mark.slow
def test_fast_core_is_smaller_than_freecores_pairing():
    cycles, luts, _ = _synth("etat3-97-fast")
    assert cycles <= 2000 and luts < FREECORES_PAIRING_LUTS


@pytest.mark.slow
def test_small_core_beats_tiny_tate_in_luts_times_cycles():
    cycles, luts, res = _synth("etat3-97-small")
    assert luts * cycles < TINY_TATE_LUTS * TINY_TATE_CYCLES
    assert res["bram"] > 0  # the clocked microcode ROM is block RAM
