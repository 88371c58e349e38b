import random

import pytest

from pairhw import params

SMALL = ["f2-11", "f2-17", "f2-29", "f2-47", "f2-79", "f2-89", "f2-113"]
MEDIUM = ["f2-239", "f2-283"]
ALL_BINARY = SMALL + MEDIUM + ["f2-1223"]

#: the longest programs (85,859 to 219,248 cycles): their compile checks and the microcode
#: interpreter's runs of them are `slow`, as the simulations of their cores (words over 200 bits)
#: already are.  Their cold compiles took 136 to 201 s before the schedulers' occupancy masks and
#: cycle jumps, 12 to 36 s after (measured beside a test run: bench/tooling.py --parts compile)
LONG_PROGRAMS = ("etat3-193-small", "etat3-313-small", "ate-bn-seed002")


def long_programs_slow(names):
    """``names`` as pytest parameters, those in :data:`LONG_PROGRAMS` marked ``slow``."""
    return [pytest.param(n, marks=pytest.mark.slow) if n in LONG_PROGRAMS else n for n in names]


@pytest.fixture
def rng():
    return random.Random(20261121)


def random_point(C, rng):
    """A random point of order r: a random multiple of a deterministic generator."""
    return C.mul(rng.randrange(1, C.r), C.point_from_seed(0))


def curve(name):
    return params.curve(name)


@pytest.fixture(scope="session", autouse=True)
def _private_cache(tmp_path_factory):
    """Verilator builds, compiled programs and synthesis results go to a per-run cache, never the
    user's; pytest-xdist's workers share it (a worker waits for an entry another is making), so a
    design is compiled and a bench built once per run."""
    import os

    if "PAIRHW_CACHE" not in os.environ:
        root = tmp_path_factory.getbasetemp()
        if os.environ.get("PYTEST_XDIST_WORKER"):  # each worker's base is a directory of the run's
            root = root.parent
        (root / "pairhw-cache").mkdir(exist_ok=True)
        os.environ["PAIRHW_CACHE"] = str(root / "pairhw-cache")
    yield
