"""One grammar, really (issue 48): a flag that does not apply is refused, a repeated flag is refused,
a duplicate key in a spec is refused, PAIRHW_CACHE is checked alike by every verb, -q goes anywhere,
and hex is taken wherever a number is."""

import json

import pytest

from pairhw.cli import main

D = "f2-47-etat-banked"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def refused(code, err, msg):
    assert code == 2 and err.strip().splitlines()[-1].startswith("pairhw: error:") and msg in err, err
    assert "Traceback" not in err


@pytest.mark.parametrize("argv,msg", [
    (["designs", D, "--schema"], "--schema prints the design file format; give it without a design"),
    (["build", D, "-o", "x", "--wrap", "axis", "--wrap", "axil"], "--wrap given twice"),
    (["vectors", "f2-11", "-n", "1", "-n", "2"], "-n given twice"),
    (["unit", "sim", "--kind", "lsb", "--m", "5", "--m", "7"], "--m given twice"),
    (["point", "f2-11", "--seed", "1", "--seed", "2"], "--seed given twice"),
    (["unit", "sim", "--kind", "msd", "--m", "29", "--digit", "4", "--lanes", "100000", "-n", "1"],
     "--lanes: must be between 1 and 64, not 100,000"),
    (["unit", "sim", "--kind", "karatsuba", "--char", "3", "--m", "19", "--stages", "1000"], "--stages: must be between 1 and 64"),
    (["unit", "sim", "--kind", "lsd", "--m", "17", "--digit", "0"], "--digit: must be between 1 and 100,000, not 0"),
    (["unit", "sim", "--kind", "lsb", "--m", "100000"], "--m: must be between 2 and 4,096"),
    (["vectors", "f2-11", "-n", "1", "--seed", "-1"], "--seed: must be between 0 and"),
    (["vectors", "f2-11", "-n", "x"], "expected a whole number (decimal or 0x-hex), got 'x'"),
    (["unit"], "required: sim, build or synth after unit"),
])
def test_refused(capsys, argv, msg, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    t = run(capsys, *argv)
    refused(t[0], t[2], msg)
    assert list(tmp_path.iterdir()) == []


def test_sim_refuses_a_seed_with_a_vectors_file(capsys, tmp_path):
    v = tmp_path / "v.jsonl"
    assert run(capsys, "-q", "vectors", "f2-47", "-n", "1", "-o", str(v))[0] == 0
    code, _, err = run(capsys, "sim", D, "--seed", "3", "--vectors", str(v))
    refused(code, err, "--seed chooses -n's random pairings")


@pytest.mark.parametrize("name,text", [("s.yaml", "design: f2-47-etat-banked\ndesign: f2-79-etat-tmvp3\n"),
                                       ("s.json", '{"design": "f2-47-etat-banked", "design": "x"}'),
                                       ("n.yaml", "design: f2-47-etat-banked\naxes:\n  a: 1\n  a: 2\n")])
def test_a_spec_key_given_twice_is_refused(capsys, tmp_path, name, text):
    spec = tmp_path / name
    spec.write_text(text)
    code, _, err = run(capsys, "explore", str(spec), "--db", str(tmp_path / "r.sqlite"))
    refused(code, err, "given twice")
    assert not (tmp_path / "r.sqlite").exists()


@pytest.mark.parametrize("argv", [["curves"], ["point", "f2-11"], ["schedule", D], ["sim", D, "-n", "1"],
                                  ["unit", "sim", "--kind", "lsb", "--m", "5", "-n", "1"]])
def test_every_verb_checks_pairhw_cache_alike(capsys, tmp_path, monkeypatch, argv):
    f = tmp_path / "file"
    f.write_text("x")
    monkeypatch.setenv("PAIRHW_CACHE", str(f / "sub"))
    code, out, err = run(capsys, *argv)
    refused(code, err, "PAIRHW_CACHE=")
    assert out == ""


def test_quiet_anywhere_and_hex_numbers(capsys):
    code, before, err = run(capsys, "-q", "point", "f2-11", "--scalar", "16")
    assert code == 0 and err == ""
    code, after, err = run(capsys, "point", "f2-11", "--scalar", "0x10", "-q")
    assert code == 0 and err == "" and after == before
    code, out, _ = run(capsys, "vectors", "f2-11", "-n", "0x2", "--seed", "0x1", "-q")
    code2, out2, _ = run(capsys, "vectors", "f2-11", "-n", "2", "--seed", "1", "-q")
    assert code == code2 == 0 and out == out2 and len(out.splitlines()) == 2
    assert json.loads(out.splitlines()[0])["curve"] == "f2-11"


def test_long_runs_say_how_far_they_are(capsys, tmp_path, monkeypatch):
    """unit sim with many products and sim --vectors with many lines print progress (here every tick)."""
    from pairhw import progress

    monkeypatch.setattr(progress, "PROGRESS_SECONDS", 0.0)
    code, _, err = run(capsys, "-q", "unit", "sim", "--kind", "lsb", "--m", "5", "-n", "20")
    assert code == 0 and "[pairhw] simulated: 1 of 30" in err and "simulated: 29 of 30" in err
    v = tmp_path / "v.jsonl"
    assert run(capsys, "-q", "vectors", "f2-47", "-n", "3", "-o", str(v))[0] == 0
    code, _, err = run(capsys, "-q", "sim", D, "--vectors", str(v))
    assert code == 0 and f"checking {v} against the golden model: 2 of 3" in err, err


def test_quiet_is_for_one_run(capsys):
    """-q silences the run it is given to, not the later runs of the same process."""
    assert run(capsys, "-q", "point", "f2-11")[2] == ""
    code, _, err = run(capsys, "point", "f2-11")
    assert code == 0 and "not secure" in err
