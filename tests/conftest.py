import os
import random
import sys
from pathlib import Path

import pytest

from pairhw import params

SMALL = ["f2-11", "f2-17", "f2-29", "f2-47", "f2-79", "f2-89", "f2-113"]
MEDIUM = ["f2-239", "f2-283"]
ALL_BINARY = SMALL + MEDIUM + ["f2-1223"]

#: Shu-Kwon-Gaj's full-size processors compile in 12 to 21 s each, 95 s together (their lanes'
#: modulo scheduling): their compiles, interpreter runs and Table 3 checks are `slow`; tate1-47-d4,
#: the same scheduler and lanes at m = 47, compiles and runs in Verilator by default
FULL_SIZE_TATE = ("tate1-239-d16", "tate1-239-d32", "tate1-283-d16", "tate1-283-d32", "tate2-239-d16",
                  "tate2-283-d16", "tate1-239-d16-piped", "tate1-239-msd60-ram",
                  "tate1-239-msd60-orders", "tate1-239-msd60-local", "tate1-239-msd60-staged",
                  "tate1-239-msd60-staged-sources", "tate1-239-msd60-results",
                  "tate1-239-msd60-fewest", "tate1-239-msd60-tree", "tate1-239-msd60-slicedmul",
                  "tate1-239-msd60-sums", "tate1-239-msd60-exact", "tate1-239-msd60-controls",
                  "tate1-239-msd60-ored", "tate1-239-msd60-ahead",
                  "tate1-239-msd60-wbank", "tate1-239-msd60-outreg")

#: the longest programs (85,859 to 8,865,976 cycles) and the full-size Tate processors: their compile
#: checks and the microcode interpreter's runs of them are `slow`, as the simulations of their cores
#: (words over 200 bits) already are.  The longest programs' cold compiles took 136 to 201 s before
#: the schedulers' occupancy masks and cycle jumps, 5 to 45 s after (bench/tooling.py --parts compile)
#: the full-size products of two pairings compile in 20 to 27 s each (22,555 and 20,789 cycles,
#: straight-line): `slow`, as the pairings' own programs; ate-bn-tiny-p2 compiles by default
PRODUCT_CORES = ("ate-bn254-fast-p2", "ate-bls12-381-fast-p2", "ate-bls12-381-fast-check2",
                 "ate-bls12-381-fast-check2v", "ate-bls12-381-fast-b2", "ate-bn254-fast-check4",
                 "ate-bls12-381-fast-check4")
#: the full-size prime cores with RAM register files: the same programs as their flip-flop references
RAM_PRIME_CORES = ("ate-bls12-381-fast-ram",)
#: the full-size prime cores with calls (20 to 90 s a cold compile; ate-bn-tiny-calls compiles by default)
CALLS_CORES = ("ate-bn254-small", "ate-bn-chavez11-small", "ate-bn254-fast-calls", "ate-bls12-381-fast-calls", "ate-bn254-fast-d8",
               "ate-bls12-381-fast-d8", "ate-bn254-mid", "ate-bls12-381-mid",
               "ate-bn254-fast-local", "ate-bls12-381-fast-local", "ate-bls12-381-fast-cascade", "ate-bn254-fast-cascade", "ate-bls12-381-fast-lean", "ate-bls12-381-fast-add3", "ate-bls12-381-fast-overlap", "ate-bls12-381-fast-dsp", "ate-bn254-fast-add3", "ate-bn254-fast-dsp", "ate-bn254-fast-lean", "ate-bls12-381-fast-lean-b2", "ate-bn254-fast-mulk", "ate-bn254-fast-compact",
               "ate-bn254-fast-2mul")
#: loops modulo-scheduled in 200 placement orders (40 to 55 s a cold compile): the evictions' own test
#: (tests/program/test_schedule.py) schedules the same loop in one order by default
SEARCHED_LOOPS = ("etat3-97-fast-staged", "etat3-97-fast-tree", "etat3-97-fast-selects",
                  "etat3-97-fast-tree-selects", "etat3-97-fast-cubebank", "etat3-97-fast-sums")
#: the straight-line full-size prime programs compile in 10 to 15 s each (16,359 and 16,405 cycles)
FULL_SIZE_PRIME = ("ate-bn254-fast", "ate-bls12-381-fast")
LONG_PROGRAMS = ("etat3-193-small", "etat3-313-small", "ate-bn-chavez11", "ate-bn-chavez11-toy", "ate-bls12-381-small",
                 *FULL_SIZE_TATE,
                 *FULL_SIZE_PRIME,
                 *PRODUCT_CORES, *RAM_PRIME_CORES, *CALLS_CORES, *SEARCHED_LOOPS)


def long_programs_slow(names):
    """``names`` as pytest parameters, those in :data:`LONG_PROGRAMS` marked ``slow``."""
    return [pytest.param(n, marks=pytest.mark.slow) if n in LONG_PROGRAMS else n for n in names]


@pytest.fixture
def rng():
    return random.Random(20261121)


def ecp5_netlist(verilog: str, top: str) -> dict:
    """Module ``top`` of ``verilog`` after Yosys' synth_ecp5 (native) up to its LUT mapping: its
    JSON netlist (cells with their connections, net names with their bits)."""
    import json
    import tempfile

    from pairhw.synth.flows import _yosys

    with tempfile.TemporaryDirectory() as work:
        _yosys(f"read_verilog -sv design.v\nsynth_ecp5 -top {top} -run begin:map_luts\n"
               f"select {top}\nwrite_json -selected -compat-int net.json\n", verilog, Path(work), yosys="native")
        return json.loads((Path(work) / "net.json").read_text())["modules"][top]


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


def pytest_configure(config):
    """The default run (``-m 'not slow'``) builds its Verilator benches with the C++ unoptimised
    (``PAIRHW_VERILATOR_OPT=-O0``, :data:`pairhw.sim.verilator.OPT_ENV`): they run a few pairings or
    products of small units and cores, and -O0 halves a build (ate-bn-tiny's bench: 26.9 -> 15.4 s,
    its 20 pairings 0.3 -> 1.3 s); the simulated Verilog is the same.  A run with the slow tests
    (full-size cores, millions of cycles) keeps Verilator's -Os."""
    from pairhw.sim.verilator import OPT_ENV

    if config.getoption("markexpr") == "not slow" and OPT_ENV not in os.environ:
        os.environ[OPT_ENV] = "-O0"


def make_env(**extra) -> dict:
    """The environment for a generated Makefile's targets (``make sim``, ``cocotb``, ``fusesoc``):
    this interpreter's scripts (verilator-cli, fusesoc) on the PATH, and the builds' C++ optimised as
    the run's own benches are (:func:`pytest_configure`; the f2-79 AXI4-Stream cocotb test at -O0:
    31 -> 23 s)."""
    from pairhw.sim.verilator import opt_makeflags

    env = dict(os.environ, **extra)
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env["PATH"]
    if opt_makeflags():
        # and as one C++ unit, as the run's own small benches are (pairhw.sim.verilator.ONE_UNIT_BYTES)
        env["MAKEFLAGS"] = (env.get("MAKEFLAGS", "") + " " + opt_makeflags() + " VM_PARALLEL_BUILDS=0").strip()
    return env
