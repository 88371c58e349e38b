"""pairhw.flow, the Python API: the same results as the command, as objects; installs without the
extras; the same output in any process."""

import json
import os
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import pytest

from pairhw import designs, flow
from pairhw.cli import main
from pairhw.errors import EXTRAS

ROOT = Path(__file__).resolve().parents[1]


def test_compile_report_and_pairings_are_the_designs_own():
    d = designs.get("f2-47-etat-banked")
    assert flow.design("f2-47-etat-banked") is d and flow.design(d) is d
    assert flow.compile(d).cycles == flow.report(d)["cycles"] == 404
    rows = flow.pairings(d, 2, seed=3)
    C, fi = d.curve(), d.field
    P, Q = fi.vector_points(C, 3, 1)
    assert rows[1] == (*fi.point_values(P, Q), *d.model(P, Q))


def test_an_asip_design_has_cycles_too():
    assert flow.compile("asip-79-lsd5").cycles == flow.report("asip-79-lsd5")["cycles"] == 26108


def test_simulate_returns_the_run_as_an_object():
    sim = flow.simulate("f3-19-etat-schoolbook", n=2, seed=4)
    assert (sim.pairings, sim.verified, sim.failed, sim.timeout) == (2, 2, 0, False)
    assert sim.cycles == sim.expected_cycles == 330 and sim.constant_time and sim.ok
    assert [r["ok"] for r in sim.runs] == [True, True]


def test_a_wrong_expected_value_is_a_failed_simulation():
    d = designs.get("f3-19-etat-schoolbook")
    rows = flow.pairings(d, 2, seed=4)
    rows[0] = rows[0][:-1] + (rows[0][-1] ^ 1,)
    sim = flow.simulate(d, rows=rows)
    assert (sim.verified, sim.failed, sim.ok) == (1, 1, False) and sim.mismatches


def test_build_holds_the_files_the_command_writes(tmp_path, capsys):
    b = flow.build("f2-47-etat-banked", n=3, seed=2)
    assert main(["-q", "build", "f2-47-etat-banked", "-o", str(tmp_path / "cli"), "-n", "3", "--seed", "2"]) == 0
    capsys.readouterr()
    written = {p.name: p.read_text() for p in (tmp_path / "cli").iterdir()}
    assert written == b.files and json.loads(b.files["manifest.json"]) == b.manifest
    b.write(tmp_path / "api")
    assert {p.name: p.read_text() for p in (tmp_path / "api").iterdir()} == written


def test_unit_functions_match_the_unit_verb(tmp_path, capsys):
    from pairhw.rtl.binary.catalogue import binary_field, make_unit

    unit = make_unit("karatsuba", binary_field(13))
    check = flow.verify_unit(unit, 5, seed=3)
    assert (check.simulator, check.vectors, check.verified, check.failed) == ("amaranth", 15, 15, 0)
    b = flow.build_unit(unit, "karatsuba", n=4, seed=3)
    assert main(["-q", "unit", "build", "--kind", "karatsuba", "--m", "13", "-n", "4", "--seed", "3",
                 "-o", str(tmp_path / "u")]) == 0
    capsys.readouterr()
    assert {p.name: p.read_text() for p in (tmp_path / "u").iterdir()} == b.files


def test_bad_input_says_what_was_wrong():
    with pytest.raises(flow.UsageError, match="unknown design 'nope'; designs: asip-1223-k153"):
        flow.design("nope")
    with pytest.raises(flow.UsageError, match="give n or rows"):
        flow.simulate("f2-47-etat-banked")
    with pytest.raises(flow.DesignError, match="cannot read it"):
        flow.design("/nonexistent/x.json")


def test_the_package_needs_amaranth_alone_and_the_extras_bring_the_rest():
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert meta["dependencies"] == ["amaranth~=0.5.10"]
    extras = meta["optional-dependencies"]
    assert set(extras) == {"hw", "explore", "report", "exact", "dev"}
    assert "pairhw[hw,explore,report,exact]" in extras["dev"]
    named = {r.split("=")[0].split("~")[0].lower() for e in extras.values() for r in e}
    assert {n.replace("_", "-").lower() for n in EXTRAS if n not in ("yaml", "dask", "cocotb_tools")} <= named


#: a process in which importing an optional package fails, as after ``pip install pairhw``
BLOCKED = textwrap.dedent("""
    import importlib.abc, importlib.metadata, sys
    BLOCK = set(sys.argv[1].split(","))
    class Block(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in BLOCK:
                raise ModuleNotFoundError(f"No module named {name!r}", name=name)
    sys.meta_path.insert(0, Block())
    real = importlib.metadata.version
    def version(dist):
        if dist.replace("-", "_") in BLOCK:
            raise importlib.metadata.PackageNotFoundError(dist)
        return real(dist)
    importlib.metadata.version = version
    sys.argv = sys.argv[1:]
    exec(sys.argv[1])
""")


def _without_extras(code: str, tmp_path) -> subprocess.CompletedProcess:
    block = ",".join(sorted({n.replace("-", "_") for n in EXTRAS}))
    env = {**os.environ, "PAIRHW_CACHE": str(tmp_path / "cache")}
    return subprocess.run([sys.executable, "-c", BLOCKED, block, code], capture_output=True, text=True,
                          env=env, timeout=300)


def test_without_the_extras_the_model_and_the_engine_work(tmp_path):
    r = _without_extras("from pairhw import flow\n"
                        "print(flow.compile('f3-19-etat-schoolbook').cycles, flow.compile('ate-bn-tiny').cycles)\n"
                        "print(flow.vectors('f2-47', 1, seed=2)[0]['curve'])\n", tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["330", "1931", "f2-47"]


def test_without_the_extras_a_hardware_verb_says_which_to_install(tmp_path):
    code = ("from pairhw.cli import main\n"
            f"sys.exit(main(['-q', 'build', 'f3-19-etat-schoolbook', '-o', {str(tmp_path / 'out')!r}]))\n")
    r = _without_extras(code, tmp_path)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "pip install 'pairhw[hw]'" in r.stderr and not (tmp_path / "out").exists()


def _run_with_hash_seed(seed: str, tmp_path, *argv) -> str:
    env = {**os.environ, "PYTHONHASHSEED": seed, "PAIRHW_CACHE": str(tmp_path / f"cache{seed}")}
    r = subprocess.run([sys.executable, "-m", "pairhw", "-q", *argv], capture_output=True, text=True, env=env,
                       timeout=600)
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_two_processes_with_other_hash_seeds_write_the_same_files(tmp_path):
    """Vectors and a whole build directory (Verilog, bench, listings, manifest) do not depend on
    PYTHONHASHSEED: each process has its own cache, so each compiles and generates for itself."""
    for seed in ("1", "2"):
        _run_with_hash_seed(seed, tmp_path, "build", "f3-19-etat-schoolbook", "-o", str(tmp_path / f"b{seed}"),
                            "-n", "2")
    one, two = (sorted((tmp_path / f"b{s}").iterdir()) for s in ("1", "2"))
    assert [p.name for p in one] == [p.name for p in two]
    for a, b in zip(one, two):
        assert a.read_bytes() == b.read_bytes(), a.name
    assert (_run_with_hash_seed("1", tmp_path, "vectors", "bn-tiny", "-n", "2", "-j", "1")
            == _run_with_hash_seed("3", tmp_path, "vectors", "bn-tiny", "-n", "2", "-j", "1"))
