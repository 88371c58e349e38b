"""``pairhw unit sim|build|synth``."""

import json

import pytest

from pairhw.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("kind,extra", [("hybrid-tmvp2", []), ("msd", ["--digit", "4"]),
                                        ("msd", ["--digit", "4", "--lanes", "3"]),
                                        ("iter-karatsuba", ["--core", "153"])])
def test_unit_sim_json(capsys, kind, extra):
    code, out, err = run(capsys, "unit", "sim", "--kind", kind, "--m", "29", "-n", "12", "--json", *extra)
    assert code == 0, err
    d = json.loads(out)
    assert (d["verified"], d["failed"]) == (22, 0)
    assert set(d) >= {"latency", "ii", "verified", "failed"}


def test_unit_sim_human_and_verilator(capsys):
    code, out, err = run(capsys, "unit", "sim", "--kind", "lsb", "--curve", "f2-17", "-n", "5",
                         "--sim", "verilator")
    assert code == 0, err
    assert "latency 18 cycles, initiation interval 17 cycles" in out
    assert "verified 15 of 15" in out and "verilator" in out


def test_unit_build_writes_files(capsys, tmp_path):
    out_dir = tmp_path / "u"
    code, out, err = run(capsys, "unit", "build", "--kind", "tmvp", "--m", "17", "--schedule", "2",
                         "-n", "4", "-o", str(out_dir))
    assert code == 0, err
    names = sorted(p.name for p in out_dir.iterdir())
    assert names == ["Makefile", "TmvpMul_m17_s2.v", "manifest.json", "tb_TmvpMul_m17_s2.v", "vectors.txt"]
    man = json.loads((out_dir / "manifest.json").read_text())
    assert (man["latency"], man["ii"], man["vectors"]["count"]) == (1, 1, 14)
    lines = (out_dir / "vectors.txt").read_text().splitlines()
    assert lines[0] == "14" and len(lines) == 15  # the count, then the vectors


def test_unit_synth_json(capsys):
    code, out, err = run(capsys, "unit", "synth", "--kind", "lsd", "--digit", "3", "--m", "17", "--json")
    assert code == 0, err
    d = json.loads(out)
    assert d["luts"] > 0 and d["ffs"] > 0 and d["ii"] == 6


@pytest.mark.parametrize("argv,msg", [
    (["unit", "sim", "--kind", "lsd", "--m", "29"], "needs --digit"),
    (["unit", "sim", "--kind", "tmvp", "--m", "48"], "trinomial"),
    (["unit", "sim", "--kind", "karatsuba", "--m", "29", "--schedule", "3,x"], "--schedule"),
    (["unit", "sim", "--kind", "karatsuba", "--m", "29", "--schedule", "4"], "2 or 3"),
    (["unit", "sim", "--kind", "karatsuba", "--m", "1"], "--m"),
    (["unit", "sim", "--kind", "karatsuba", "--curve", "nope"], "unknown curve"),
    (["unit", "sim", "--kind", "bogus", "--m", "29"], "invalid choice"),
    (["unit", "sim", "--kind", "iter-karatsuba", "--m", "29", "--core", "12"], "153 or 77"),
    (["unit", "sim", "--kind", "lsd", "--digit", "4", "--m", "29", "--lanes", "2"], "msd"),
    (["unit", "sim", "--kind", "msd", "--digit", "4", "--m", "29", "--lanes", "0"], "--lanes: must be between 1 and 64, not 0"),
    (["unit", "sim", "--kind", "msd", "--digit", "4", "--curve", "f3-19", "--lanes", "2"], "F_2^m options"),
    (["unit", "synth", "--kind", "lsb", "--m", "29", "--target", "asic"], "invalid choice"),
    (["unit", "sim", "--kind", "msd", "--digit", "4", "--m", "29", "--slice-bits", "8"], "--slice-bits applies to msd with --stages 2"),
    (["unit", "sim", "--kind", "karatsuba", "--curve", "f3-19", "--slice-bits", "8"], "F_2^m options"),
    (["unit", "sim", "--kind", "msd", "--digit", "4", "--m", "29", "--stages", "2", "--slice-bits", "0"], "--slice-bits: must be"),
])
def test_bad_input_exit_2(capsys, argv, msg):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert msg in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_unit_build_refuses_a_file_as_output(capsys, tmp_path):
    f = tmp_path / "x"
    f.write_text("keep")
    code, _, err = run(capsys, "unit", "build", "--kind", "lsb", "--m", "17", "-o", str(f))
    assert code == 2 and "not a directory" in err
    assert f.read_text() == "keep"
