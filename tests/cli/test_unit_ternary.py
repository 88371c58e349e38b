"""``pairhw unit sim|build|synth`` on F_3^m: the field from ``--curve f3-…`` or ``--m M --char 3``,
products checked on hardware words (the two-bit trit encoding), a built bench that decides."""

import json
import shutil
import subprocess

import pytest

from pairhw.cli import main
from pairhw.fields.ternary import TernaryField
from pairhw.math.ternary.field import GF3m

from ..conftest import make_env


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("kind,extra,lat,ii", [
    ("karatsuba", ["--stages", "5"], 5, 1),
    # slow (21 s in the Amaranth simulator): the schedules and registers run by default at m = 7 to 19
    # (tests/rtl/ternary/test_units.py), and this verb at f3-97 with the other kinds
    pytest.param("karatsuba", ["--schedule", "3,oe", "--registers", "in,base"], 3, 1, marks=pytest.mark.slow),
    ("msd", ["--digit", "4"], 26, 25),
    # slow (28 s in the Amaranth simulator): the schoolbook unit runs by default at m = 5, 7 and 19
    # (tests/rtl/ternary/test_units.py), and this verb at f3-97 with the other kinds
    pytest.param("schoolbook", [], 1, 1, marks=pytest.mark.slow),
])
def test_unit_sim_f3_97(capsys, kind, extra, lat, ii):
    code, out, err = run(capsys, "unit", "sim", "--kind", kind, "--curve", "f3-97", "-n", "6", "--json", *extra)
    assert code == 0, err
    d = json.loads(out)
    assert (d["verified"], d["failed"], d["latency"], d["ii"], d["char"]) == (16, 0, lat, ii, 3)
    assert d["field"] == "x^97 + x^12 + 2"


def test_unit_sim_least_trinomial_with_verilator(capsys):
    """--m 31 --char 3 takes the least irreducible trinomial; Verilator agrees with the model."""
    code, out, err = run(capsys, "unit", "sim", "--kind", "karatsuba", "--m", "31", "--char", "3",
                         "--schedule", "2,3", "--stages", "3", "-n", "10", "--sim", "verilator")
    assert code == 0, err
    assert "over F_3^31 (x^31 + 2x^5 + 1)" in out and "verified 20 of 20" in out
    GF3m(31, 5, 2, 1)  # irreducible (the model checks)


def test_unit_build_ternary_vectors_are_encoded_words(capsys, tmp_path):
    """vectors.txt holds a, b, a·b as 2m-bit words L | H << m; make sim passes."""
    from pairhw import params

    F = params.curve("f3-19").F
    fi = TernaryField(F)
    out_dir = tmp_path / "u"
    code, out, err = run(capsys, "unit", "build", "--kind", "msd", "--digit", "5", "--curve", "f3-19",
                         "-n", "6", "-o", str(out_dir))
    assert code == 0, err
    man = json.loads((out_dir / "manifest.json").read_text())
    assert man["ports"]["a"] == 38 and man["ii"] == 4 and "L | H << m" in man["encoding"]
    lines = (out_dir / "vectors.txt").read_text().splitlines()
    assert lines[0] == "16"
    for line in lines[1:]:
        a, b, c = (int(x, 16) for x in line.split())
        assert fi.decode(c) == F.mul(fi.decode(a), fi.decode(b))
    assert "over F_3^19" in (out_dir / f"{man['unit']}.v").read_text().splitlines()[0]
    if shutil.which("make"):
        r = subprocess.run(["make", "-C", str(out_dir), "sim"], capture_output=True, text=True, timeout=600,
                           env=make_env())
        assert r.returncode == 0 and "PAIRHW PASS 16 of 16 products" in r.stdout


def test_unit_synth_ternary_json(capsys):
    code, out, err = run(capsys, "unit", "synth", "--kind", "karatsuba", "--m", "13", "--char", "3",
                         "--stages", "2", "--json")
    assert code == 0, err
    d = json.loads(out)
    assert d["luts"] > 0 and d["ffs"] > 26 and d["latency"] == 2


@pytest.mark.parametrize("argv,msg", [
    (["--kind", "tmvp", "--curve", "f3-97"], "F_3^m kinds: schoolbook, karatsuba, msd"),
    (["--kind", "iter-karatsuba", "--m", "29", "--char", "3"], "F_3^m kinds"),
    (["--kind", "karatsuba", "--curve", "f3-97", "--schedule", "2,5"], "unknown split '5'"),
    (["--kind", "karatsuba", "--curve", "f3-97", "--stages", "40"], "1 to 11 stages"),
    (["--kind", "karatsuba", "--curve", "f3-97", "--registers", "in,mid"], "unknown register cut point 'mid'"),
    (["--kind", "karatsuba", "--curve", "f3-97", "--lut6"], "F_2^m options"),
    (["--kind", "karatsuba", "--curve", "f3-97", "--char", "3"], "--char goes with --m"),
    (["--kind", "karatsuba", "--curve", "f2-79", "--stages", "3"], "F_3^m karatsuba"),
    (["--kind", "msd", "--curve", "f3-97"], "needs a digit size"),
    (["--kind", "karatsuba", "--curve", "bn254"], "not an F_p multiplier; F_p kinds"),
    (["--kind", "msd", "--m", "29", "--char", "5", "--digit", "2"], "invalid choice"),
])
def test_bad_ternary_input_exit_2(capsys, argv, msg):
    code, out, err = run(capsys, "unit", "sim", *argv)
    assert code == 2
    assert msg in err
    assert err.count("\n") == 1 and "Traceback" not in err
