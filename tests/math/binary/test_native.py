"""The compiled carry-less product (pairhw.math.binary.native) is the Python comb's twin."""

import os
import random
import subprocess
import sys

import pytest

from pairhw import params
from pairhw.math.binary import native
from pairhw.math.binary.field import NATIVE_MIN_M, clmul, schoolbook_check


def test_the_library_loads_where_a_c_compiler_is():
    """Verilator needs the machine's C compiler, so the test machines have one."""
    assert native._compiler() is not None and native.library() is not None


@pytest.mark.parametrize("bits", [1, 2, 7, 63, 64, 65, 127, 128, 129, 191, 239, 283, 1223, 1224, 2446])
def test_native_product_equals_the_comb_and_the_schoolbook(bits):
    rng = random.Random(bits)
    edge = [0, 1, 2, (1 << bits) - 1, 1 << (bits - 1)]
    pairs = [(a, b) for a in edge for b in edge]
    pairs += [(rng.getrandbits(bits), rng.getrandbits(rng.randint(1, bits))) for _ in range(40)]
    for a, b in pairs:
        want = clmul(a, b)
        assert native.clmul(a, b) == native.clmul(b, a) == native.clmul(a, b, comb=True) == want
        if bits <= 300:
            assert want == schoolbook_check(a, b)


def test_large_fields_use_it_and_small_ones_the_comb():
    big, small = params.get("f2-1223").gf2m(), params.get("f2-79").gf2m()
    assert 79 < NATIVE_MIN_M <= 1223
    assert big._clmul is native.clmul and small._clmul is clmul


def test_vectors_are_the_same_without_it(tmp_path):
    """``PAIRHW_NATIVE=0`` runs the model on the Python comb alone: the same vectors at m = 1223."""
    outs = []
    for flag in ("1", "0"):
        env = {**os.environ, native.ENV: flag, "PAIRHW_CACHE": str(tmp_path / "cache")}
        r = subprocess.run([sys.executable, "-m", "pairhw", "-q", "vectors", "f2-1223", "-n", "2", "-j", "1"],
                           capture_output=True, text=True, env=env, timeout=600)
        assert r.returncode == 0, r.stderr
        outs.append(r.stdout)
    assert outs[0] == outs[1] and outs[0].count("\n") == 2
