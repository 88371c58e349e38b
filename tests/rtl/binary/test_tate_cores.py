"""Shu–Kwon–Gaj's Tate processors (seed 001 Table 3) as designs: the CA groups of lanes sharing an
operand, three more multipliers of other digit sizes, bit-exact in Verilator with constant cycles,
each at or below its Table 3 cycle count.  The test-size core runs by default; the six full-size
cores (their compiles and cycle counts too) are ``slow``."""

import pytest

from pairhw import designs
from pairhw.flow import simulate

#: Table 3: µs × MHz
TABLE3 = {"tate1-239-d16": 4700, "tate1-239-d32": 2739, "tate1-283-d16": 6384, "tate1-283-d32": 3528,
          "tate2-239-d16": 2856, "tate2-283-d16": 3920}


def _check(name, n):
    d = designs.get(name)
    res = simulate(d, n, 1)
    assert res.verified == n and res.failed == 0 and res.constant_time, res.mismatches
    return d, res


def test_test_size_tate_core_in_verilator():
    """tate1-47-d4: four multiplier units (a group of lanes and three single ones of other digit
    sizes) in one core, bit-exact against tate-alg1 on three pairings."""
    d, res = _check("tate1-47-d4", 3)
    assert res.cycles_max == d.report()["cycles"]


# compiling them takes 95 s (tests/conftest.py, FULL_SIZE_TATE): slow, as their cores' simulations
@pytest.mark.slow
@pytest.mark.parametrize("name", list(TABLE3))
def test_table3_designs_are_at_or_below_the_paper(name):
    rep = designs.get(name).report()
    assert rep["cycles"] <= TABLE3[name], f"{name}: {rep['cycles']} cycles, Table 3 {TABLE3[name]}"


@pytest.mark.slow
@pytest.mark.parametrize("name", list(TABLE3))
def test_table3_designs_in_verilator(name):
    _check(name, 1)
