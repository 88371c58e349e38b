"""Names by author and year; every old name (pairhw.names) still works and prints what it printed."""

import json

import pytest

from pairhw import designs, flow, params
from pairhw.cli import main
from pairhw.names import NEW_NAMES, OLD_NAMES, current, to_old


def run(capsys, *argv):
    code = main(["-q", *argv])
    out, err = capsys.readouterr()
    return code, out


def as_old(text: str) -> str:
    """A new output with the renamed names put back."""
    for new in sorted(NEW_NAMES, key=len, reverse=True):
        text = text.replace(new, NEW_NAMES[new]).replace(new.replace("-", "_"), NEW_NAMES[new].replace("-", "_"))
    return text


def test_the_new_names_are_the_listed_ones_and_no_public_name_says_seed():
    assert all("seed" not in n for n in params.names() + designs.names())
    assert "bn-chavez11" in params.names() and "ate-bn-chavez11-toy" in designs.names()
    assert all(current(old) == new and old not in params.names() + designs.names() for old, new in OLD_NAMES.items())


@pytest.mark.parametrize("old", ["ate-bn-seed002-toy"])  # ate-bn-seed002 alike, with a long compile
def test_a_design_under_its_old_name_is_its_old_file_and_compiles_alike(old):
    new = current(old)
    d = designs.get(old)
    assert designs.source(old) == to_old(designs.source(new))
    assert d.name == old and d.params == current(old)[4:].replace("chavez11", "seed002")
    assert "chavez11" not in designs.source(old) and d.top == "Pairing_" + old.replace("-", "_")
    assert d.multiplier == "polymont-seed002" and designs.get(new).multiplier == "polymont-chavez11"
    assert d.report()["cycles"] == designs.get(new).report()["cycles"]


def test_old_names_print_what_they_printed(capsys):
    """The same command with an old name prints the new name's output with the old names put back."""
    pairs = [
        (["vectors", "bn-seed002-toy", "-n", "1", "--seed", "4"], ["vectors", "bn-chavez11-toy", "-n", "1", "--seed", "4"]),
        (["pair", "f2-79", "--p", "2d85a4c32f69f7e48163,1c6a927e2c50f49657a5",
          "--q", "6b0070851201ee5f674f,517d1d110d1ae4143414", "--algorithm", "etat-seed000", "--json"],
         ["pair", "f2-79", "--p", "2d85a4c32f69f7e48163,1c6a927e2c50f49657a5",
          "--q", "6b0070851201ee5f674f,517d1d110d1ae4143414", "--algorithm", "etat-adikari12", "--json"]),
        (["opcount", "f2-79", "--algorithm", "etat-seed000", "--json"], ["opcount", "f2-79", "--algorithm", "etat-adikari12", "--json"]),
        (["fp", "mul", "bn-seed002", "3", "5", "--algorithm", "seed002", "--json"],
         ["fp", "mul", "bn-chavez11", "3", "5", "--algorithm", "chavez11", "--json"]),
        (["designs", "ate-bn-seed002-toy"], ["designs", "ate-bn-chavez11-toy"]),
        (["schedule", "ate-bn-seed002-toy", "--json"], ["schedule", "ate-bn-chavez11-toy", "--json"]),
        (["point", "bn-seed002", "--seed", "3"], ["point", "bn-chavez11", "--seed", "3"]),
    ]
    for old, new in pairs:
        code_old, out_old = run(capsys, *old)
        code_new, out_new = run(capsys, *new)
        assert code_old == code_new == 0, old
        if new[0] == "fp":  # the algorithm field says what was asked for
            assert json.loads(out_old) == {**json.loads(out_new), "algorithm": "seed002", "curve": "bn-seed002"}
        else:
            assert out_old == as_old(out_new), old


def test_an_old_kind_builds_the_same_unit(capsys):
    code, out = run(capsys, "unit", "sim", "--kind", "polymont-seed002", "--curve", "bn-seed002-toy", "-n", "3", "--json")
    old = json.loads(out)
    code2, out2 = run(capsys, "unit", "sim", "--kind", "polymont-chavez11", "--curve", "bn-chavez11-toy", "-n", "3", "--json")
    new = json.loads(out2)
    assert code == code2 == 0 and old["kind"] == "polymont-seed002" and old["failed"] == 0
    assert {**new, "kind": "polymont-seed002", "seconds": old["seconds"]} == old


def test_a_design_file_with_the_old_names_is_read_as_before(tmp_path):
    text = to_old(designs.source("f2-79-etat-tmvp3"))
    assert '"etat-seed000"' in text
    path = tmp_path / "mine.json"
    path.write_text(text)
    d = flow.design(str(path))
    assert d.algorithm == "etat-seed000" and flow.compile(d).cycles == flow.compile("f2-79-etat-tmvp3").cycles
    P, Q = d.field.vector_points(d.curve(), 1, 0)
    assert d.model(P, Q) == designs.get("f2-79-etat-tmvp3").model(P, Q)


def test_a_core_keeps_its_design_id_across_the_rename():
    """The wrappers' DESIGN register: the values pairhw gave these cores before the rename."""
    from pairhw.designs import design_id

    assert design_id(designs.get("f2-79-etat-tmvp3").data) == 0x19463EE9
    assert design_id(designs.get("ate-bn-chavez11-toy").data) == design_id(designs.get("ate-bn-seed002-toy").data) \
        == 0xA9B0C745
