"""Named designs: every one compiles, and its schedule report is cached by design and engine."""

import json

import pytest

from pairhw import designs

from .conftest import long_programs_slow


def test_report_cache_is_exact_and_skips_compiling(monkeypatch, tmp_path):
    monkeypatch.setenv("PAIRHW_CACHE", str(tmp_path))
    d = designs.get("f3-19-etat-schoolbook")
    fresh = d.compile().report()
    assert d.report() == fresh  # first call: compiled and stored
    stored = list((tmp_path / "designs").glob("*.json"))
    assert len(stored) == 1 and json.loads(stored[0].read_text()) == fresh

    def boom(self):
        raise AssertionError("compiled although cached")

    monkeypatch.setattr(designs.Design, "compile", boom)
    assert d.report() == fresh  # second call: from the cache


def test_report_cache_key_follows_the_design(monkeypatch, tmp_path):
    """A design whose datapath differs is a different entry, with its own figures."""
    monkeypatch.setenv("PAIRHW_CACHE", str(tmp_path))
    d = designs.get("f3-19-etat-schoolbook")
    data = json.loads(json.dumps(d.data))
    data["datapath"]["units"][1]["count"] = 1  # one adder instead of two
    one_adder = designs.from_data(data)
    r1, r2 = d.report(), one_adder.report()
    assert len(list((tmp_path / "designs").glob("*.json"))) == 2
    assert r2["cycles"] > r1["cycles"]


def test_compiled_program_cache_serves_the_next_process(monkeypatch, tmp_path):
    """A compiled program is stored once per design and engine; the next process (here: the
    in-process memo cleared) reads the same microcode words without compiling, and a damaged entry
    is compiled again."""
    monkeypatch.setenv("PAIRHW_CACHE", str(tmp_path))
    d = designs.get("f3-19-etat-schoolbook")
    designs._compiled.cache_clear()
    fresh = d.compile()
    stored = list((tmp_path / "designs").glob("*.pickle"))
    assert len(stored) == 1
    designs._compiled.cache_clear()

    def boom(text):
        raise AssertionError("compiled although cached")

    with monkeypatch.context() as m:
        m.setattr(designs, "_compile", boom)
        again = d.compile()
    assert again is not fresh and again.microcode.words == fresh.microcode.words
    assert again.report() == fresh.report()
    stored[0].write_bytes(b"not a pickle")
    designs._compiled.cache_clear()
    assert d.compile().microcode.words == fresh.microcode.words
    designs._compiled.cache_clear()


def test_unwritable_cache_still_reports(monkeypatch, tmp_path):
    f = tmp_path / "file"
    f.write_text("not a directory")
    monkeypatch.setenv("PAIRHW_CACHE", str(f))
    d = designs.get("f2-47-etat-banked")
    assert d.report()["cycles"] == d.compile().report()["cycles"]


@pytest.mark.parametrize("name", long_programs_slow(designs.names()))
def test_every_design_compiles_with_a_constant_time_microcode(name):
    rep = designs.get(name).report()
    assert rep["cycles"] >= rep["multiplier_bound"] > 0
