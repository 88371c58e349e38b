"""``pairhw designs | schedule | build | sim | synth DESIGN``."""

import json

import pytest

from pairhw.cli import main
from pairhw import designs

D = "f2-47-etat-banked"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_designs_json_and_human_on_a_few(capsys, monkeypatch):
    """The listing's format on a few designs (all of them compile for many minutes from a cold
    cache: the slow test below)."""
    monkeypatch.setattr(designs, "names", lambda: ["f2-79-etat-tmvp3", D, "asip-79-lsd5"])
    code, out, _ = run(capsys, "designs", "--json")
    rows = {r["design"]: r for r in json.loads(out)}
    assert code == 0 and set(rows) == {"f2-79-etat-tmvp3", D, "asip-79-lsd5"}
    assert rows["f2-79-etat-tmvp3"]["multiplier"] == "hybrid-tmvp3" and rows["asip-79-lsd5"]["multiplier"] == "lsd"
    assert all(r["cycles"] >= r["multiplier_bound"] > 0 for r in rows.values())
    code, out, _ = run(capsys, "designs")
    assert code == 0 and "asip-79-lsd5" in out and "mul bound" in out


def test_designs_json_and_human(capsys, monkeypatch, tmp_path):
    """The whole listing from a cold cache without compiling a design: the shipped schedule figures
    (report/recorded.json, checked against the engine by test_report's recorded-schedule tests)."""
    from pairhw.report import recorded

    monkeypatch.setenv("PAIRHW_CACHE", str(tmp_path))
    monkeypatch.setattr(designs.Design, "compile", lambda self: pytest.fail(f"{self.name} compiled"))
    code, out, _ = run(capsys, "designs", "--json")
    assert code == 0
    rows = {r["design"]: r for r in json.loads(out)}
    assert set(rows) == set(designs.names())
    shipped = recorded()["schedule"]
    assert all((r["cycles"], r["multiplier_bound"]) == (shipped[n]["cycles"], shipped[n]["multiplier_bound"])
               for n, r in rows.items())
    assert rows["f2-79-etat-tmvp3"]["multiplier"] == "hybrid-tmvp3"
    code, out, _ = run(capsys, "designs")
    assert code == 0 and "f2-79-etat-tmvp3" in out and "mul bound" in out


def test_schedule_report_and_listings(capsys):
    code, out, _ = run(capsys, "schedule", "f2-79-etat-tmvp3", "--json")
    rep = json.loads(out)
    assert code == 0 and rep["multiplier_bound"] == rep["products"] * 6 <= rep["cycles"]
    assert 0 < rep["multiplier_utilisation"] <= 1 and rep["registers"]["r"] > 0
    code, out, _ = run(capsys, "schedule", "f2-79-etat-tmvp3")
    assert f"cycles per pairing   {rep['cycles']}" in out and "multiplier bound" in out
    code, out, _ = run(capsys, "schedule", D, "--listing", "microcode")
    assert code == 0 and "loop " in out and "times {" in out
    code, out, _ = run(capsys, "schedule", D, "--listing", "program")
    assert code == 0 and "; -- loop × 4" in out


def test_build_writes_everything(capsys, tmp_path):
    code, out, err = run(capsys, "build", D, "-o", str(tmp_path / "b"), "-n", "3")
    assert code == 0, err
    names = sorted(p.name for p in (tmp_path / "b").iterdir())
    top = "Pairing_f2_47_etat_banked"
    assert names == sorted([f"{top}.v", f"tb_{top}.v", "vectors.txt", "microcode.lst", "program.lst",
                            "Makefile", f"{top}.core", "lint.vlt", "manifest.json"])
    man = json.loads((tmp_path / "b" / "manifest.json").read_text())
    assert man["top"] == top and man["schedule"]["cycles"] > 0 and len(man["files"]) == 8
    lines = (tmp_path / "b" / "vectors.txt").read_text().splitlines()
    assert lines[0] == "3" and len(lines) == 4  # the count, then the vectors


def test_sim_vectors_file_and_random(capsys, tmp_path):
    vec = tmp_path / "v.jsonl"
    assert run(capsys, "vectors", "f2-47", "-n", "3", "--seed", "5", "-o", str(vec))[0] == 0
    code, out, err = run(capsys, "sim", D, "--vectors", str(vec), "--json")
    assert code == 0, err
    res = json.loads(out)
    assert (res["verified"], res["failed"], res["constant_time"]) == (3, 0, True)
    assert set(res) >= {"cycles", "verified", "failed", "constant_time"}
    # a wrong value in the file is a failure (exit 1), not an error
    lines = vec.read_text().splitlines()
    v = json.loads(lines[0])
    v["e"][0] = v["e"][0][:-1] + ("0" if v["e"][0][-1] != "0" else "1")
    lines[0] = json.dumps(v)
    vec.write_text("\n".join(lines) + "\n")
    code, out, _ = run(capsys, "sim", D, "--vectors", str(vec), "--json")
    res = json.loads(out)
    assert code == 1 and res["failed"] == 1 and res["model_disagrees_with_file"] == 1
    code, out, _ = run(capsys, "sim", D, "-n", "2")
    assert code == 0 and "2 of 2 pairings bit-exact" in out and "constant time: yes" in out


@pytest.mark.parametrize("argv,msg", [
    (["sim", "nope", "-n", "2"], "unknown design"),
    (["sim", D], "one of -n N or --vectors"),
    (["sim", D, "-n", "0"], "between 1 and 10,000"),
    (["sim", D, "--vectors", "/nonexistent/v"], "cannot read"),
    (["build", "nope", "-o", "x"], "unknown design"),
    (["schedule", "nope"], "unknown design"),
    (["synth", "nope"], "unknown design"),
])
def test_bad_input_exits_2(capsys, argv, msg):
    code, _, err = run(capsys, *argv)
    assert code == 2 and msg in err and "Traceback" not in err


def test_sim_rejects_foreign_and_malformed_vectors(capsys, tmp_path):
    vec = tmp_path / "v.jsonl"
    run(capsys, "vectors", "f2-79", "-n", "1", "--seed", "1", "-o", str(vec))
    code, _, err = run(capsys, "sim", D, "--vectors", str(vec))
    assert code == 2 and "is on f2-47" in err
    vec.write_text("{not json\n")
    code, _, err = run(capsys, "sim", D, "--vectors", str(vec))
    assert code == 2 and "line 1" in err


def test_build_refuses_a_file_as_output(capsys, tmp_path):
    f = tmp_path / "f"
    f.write_text("x")
    code, _, err = run(capsys, "build", D, "-o", str(f))
    assert code == 2 and "not a directory" in err


T3 = "f3-19-etat-schoolbook"


def test_ternary_design_is_listed_and_scheduled(capsys, monkeypatch):
    monkeypatch.setattr(designs, "names", lambda: [T3, D])  # the whole listing: the slow test above
    code, out, _ = run(capsys, "designs", "--json")
    rows = {r["design"]: r for r in json.loads(out)}
    assert code == 0 and rows[T3]["curve"] == "f3-19" and rows[T3]["multiplier"] == "schoolbook"
    code, out, _ = run(capsys, "schedule", T3, "--json")
    rep = json.loads(out)
    assert code == 0 and rep["cycles"] == rows[T3]["cycles"] and rep["loop"]["body_products"] == 17
    code, out, _ = run(capsys, "schedule", T3, "--listing", "microcode")
    assert code == 0 and "cbrt" in out and "sub" in out


def test_ternary_design_sim_bit_exact_random_and_file(capsys, tmp_path):
    """The f3-19 core in Verilator: random pairings and a `pairhw vectors` file (six trit strings)."""
    code, out, err = run(capsys, "sim", T3, "-n", "3", "--json")
    assert code == 0, err
    res = json.loads(out)
    assert (res["verified"], res["failed"], res["constant_time"]) == (3, 0, True)
    vec = tmp_path / "v3.jsonl"
    assert run(capsys, "vectors", "f3-19", "-n", "2", "--seed", "4", "-o", str(vec))[0] == 0
    assert len(json.loads(vec.read_text().splitlines()[0])["e"]) == 6
    code, out, err = run(capsys, "sim", T3, "--vectors", str(vec), "--json")
    assert code == 0, err
    res = json.loads(out)
    assert (res["verified"], res["failed"], res["constant_time"]) == (2, 0, True)
    # one trit of one expected coefficient changed: the model disagrees with the file, exit 1
    rec = json.loads(vec.read_text().splitlines()[0])
    e0 = rec["e"][0]
    rec["e"][0] = ("1" if e0[0] != "1" else "2") + e0[1:]
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(rec) + "\n")
    code, out, _ = run(capsys, "sim", T3, "--vectors", str(bad), "--json")
    assert code == 1 and json.loads(out)["failed"] == 1


@pytest.mark.parametrize("line, msg", [
    ('{"curve": "f2-47", "p": ["0", "0"], "q": ["0", "0"], "e": []}', "curve f2-47 but"),
    ('{"curve": "f3-19", "p": ["012", "0"], "q": ["0", "0"], "e": []}', "expected 19 trits"),
    ('{"curve": "f3-19", "p": ["0000000000000000003", "0000000000000000000"], "q": ["0", "0"], "e": []}',
     "not 0, 1 or 2"),
    ('{"curve": "f3-19", "p": "inf", "q": ["0", "0"], "e": []}', "not inf"),
])
def test_ternary_sim_rejects_bad_vectors(capsys, tmp_path, line, msg):
    f = tmp_path / "v.jsonl"
    f.write_text(line + "\n")
    code, _, err = run(capsys, "sim", T3, "--vectors", str(f))
    assert code == 2 and msg in err and len(err.strip().splitlines()) == 1


def test_ternary_build_manifest(capsys, tmp_path):
    code, _, err = run(capsys, "build", T3, "-o", str(tmp_path / "b"), "-n", "2")
    assert code == 0, err
    man = json.loads((tmp_path / "b" / "manifest.json").read_text())
    assert man["word_bits"] == 38 and "c0 .. c5" in man["vectors"]["format"] and "H word" in man["protocol"]
    lines = (tmp_path / "b" / "vectors.txt").read_text().splitlines()
    assert lines[0] == "2" and len(lines) == 3 and all(len(line.split()) == 10 for line in lines[1:])


@pytest.mark.slow
def test_beuchat_core_on_a_vectors_file(capsys, tmp_path):
    """etat3-97-small (digit-serial, LUT RAM bank, clocked ROM) on a `pairhw vectors f3-97` file.
    ``slow`` (a second Verilator build of the design, 105 s): a ternary vectors file runs by default
    in test_ternary_design_sim_bit_exact_random_and_file, this core in tests/rtl/test_core.py."""
    vec = tmp_path / "v97.jsonl"
    assert run(capsys, "vectors", "f3-97", "-n", "2", "--seed", "9", "-o", str(vec))[0] == 0
    code, out, err = run(capsys, "sim", "etat3-97-small", "--vectors", str(vec), "--json")
    assert code == 0, err
    res = json.loads(out)
    assert (res["verified"], res["failed"], res["constant_time"]) == (2, 0, True)
    assert res["cycles"] == designs.get("etat3-97-small").report()["cycles"]


def test_core_verilog_is_generated_once_per_design_and_engine(monkeypatch, tmp_path):
    """The core's Verilog comes from the results cache the second time, the same text without
    elaborating; another design (here, another name) is generated anew."""
    from pairhw import flow

    monkeypatch.setenv("PAIRHW_CACHE", str(tmp_path))
    d = designs.get("f3-19-etat-schoolbook")
    first = flow.verilog(d)
    assert len(list((tmp_path / "verilog").glob("*.v"))) == 1

    def boom(d):
        raise AssertionError("generated although cached")

    with monkeypatch.context() as m:
        m.setattr(flow, "_generate_verilog", boom)
        assert flow.verilog(d) == first
    data = json.loads(json.dumps(d.data))
    data["name"] = "f3-19-other"
    other = designs.from_data(data)
    text = flow.verilog(other)
    assert other.top != d.top and f"module {other.top}" in text and f"module {d.top}" in first
    assert len(list((tmp_path / "verilog").glob("*.v"))) == 2
