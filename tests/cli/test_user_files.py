"""A build directory is pairhw's only where pairhw wrote it (issue 48): a rebuild replaces the files
its manifest lists and nothing else, in ``build``, ``unit build`` and ``report``."""

import json
from pathlib import Path

import pytest

from pairhw import report
from pairhw.cli import main

USER = {"NOTES.md": "my notes\n", "myvectors.txt": "1\nabc\n", "mywork/keep.v": "module keep; endmodule\n"}


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def add_user_files(out: Path) -> None:
    for name, text in USER.items():
        (out / name).parent.mkdir(exist_ok=True)
        (out / name).write_text(text)


def user_files_intact(out: Path) -> bool:
    return all((out / name).read_text() == text for name, text in USER.items())


@pytest.fixture
def quick(monkeypatch):
    """The report's plan cut to what compiles in a second, no simulation, no synthesis."""
    monkeypatch.setattr(report, "LIVE_SECONDS", 0.3)
    monkeypatch.setattr(report, "SIM_DESIGNS", ())
    monkeypatch.setattr(report, "SYNTH_DESIGNS", ())


VERBS = {
    "build": ["build", "f2-79-etat-tmvp3", "-n", "2"],
    "unit build": ["unit", "build", "--kind", "lsd", "--digit", "3", "--m", "17", "-n", "2"],
    "report": ["report"],
}


@pytest.mark.parametrize("verb", list(VERBS))
def test_a_rebuild_keeps_the_users_files(capsys, tmp_path, verb, request):
    if verb == "report":
        request.getfixturevalue("quick")
    argv = VERBS[verb] + (["--db", str(tmp_path / "s.sqlite")] if verb == "report" else [])
    out = tmp_path / "dl"
    code, _, err = run(capsys, *argv, "-o", str(out))
    assert code == 0, err
    ours = json.loads((out / "manifest.json").read_text())["files"]
    add_user_files(out)
    code, _, err = run(capsys, *argv, "-o", str(out))
    assert code == 0, err
    assert user_files_intact(out)
    assert "left NOTES.md, myvectors.txt, mywork untouched (not pairhw's)" in err
    assert f"replaced {len(ours) + 1} files of the previous build" in err
    assert sorted(p.name for p in out.iterdir()) == sorted({*ours, "manifest.json", "NOTES.md", "myvectors.txt", "mywork"})
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []  # no scratch left


def test_force_never_replaces_a_file_pairhw_did_not_write(capsys, tmp_path):
    out = tmp_path / "mine"
    out.mkdir()
    add_user_files(out)
    (out / "Makefile").write_text("all:\n\techo mine\n")
    argv = ["unit", "build", "--kind", "lsb", "--m", "17", "-n", "1", "-o", str(out)]
    code, _, err = run(capsys, *argv)
    assert code == 2 and "--force" in err
    code, _, err = run(capsys, *argv, "--force")
    assert code == 2 and "Makefile is not pairhw's" in err and "Traceback" not in err
    assert (out / "Makefile").read_text() == "all:\n\techo mine\n" and not (out / "manifest.json").exists()
    (out / "Makefile").unlink()
    code, _, err = run(capsys, *argv, "--force")
    assert code == 0, err
    assert user_files_intact(out) and (out / "manifest.json").exists()
    code, _, err = run(capsys, *argv)  # now a build of the same unit: no --force needed, user files stay
    assert code == 0 and user_files_intact(out), err


def test_an_edited_file_of_pairhws_is_replaced_only_with_force(capsys, tmp_path):
    out = tmp_path / "b"
    argv = ["unit", "build", "--kind", "lsb", "--m", "17", "-n", "1", "-o", str(out)]
    assert run(capsys, *argv)[0] == 0
    (out / "Makefile").write_text((out / "Makefile").read_text() + "# my edit\n")
    code, _, err = run(capsys, *argv)
    assert code == 2 and "Makefile changed since pairhw wrote it" in err
    assert (out / "Makefile").read_text().endswith("# my edit\n")
    code, _, err = run(capsys, *argv, "--force")
    assert code == 0 and not (out / "Makefile").read_text().endswith("# my edit\n"), err


def test_files_a_new_build_lacks_are_removed_unless_edited(capsys, tmp_path):
    """A build with a wrapper, then without: the wrapper's files go, an edited one stays."""
    out = tmp_path / "b"
    base = ["build", "f2-79-etat-tmvp3", "-n", "1", "-o", str(out)]
    assert run(capsys, *base, "--wrap", "axil")[0] == 0
    (out / "Pairing_f2_79_etat_tmvp3_axil.h").write_text("// my header\n")
    code, _, err = run(capsys, *base)
    assert code == 0, err
    assert not (out / "Pairing_f2_79_etat_tmvp3_axil.v").exists()
    assert (out / "Pairing_f2_79_etat_tmvp3_axil.h").read_text() == "// my header\n"
    assert "left Pairing_f2_79_etat_tmvp3_axil.h (pairhw's, edited since)" in err


def test_a_manifest_cannot_claim_files_outside(capsys, tmp_path):
    """A manifest is data: names with .. or absolute paths are not pairhw's to remove."""
    out = tmp_path / "b"
    argv = ["unit", "build", "--kind", "lsb", "--m", "17", "-n", "1", "-o", str(out)]
    assert run(capsys, *argv)[0] == 0
    (tmp_path / "outside.txt").write_text("keep")
    m = json.loads((out / "manifest.json").read_text())
    m["files"]["../outside.txt"] = None
    m["files"][str(tmp_path / "outside.txt")] = None
    (out / "manifest.json").write_text(json.dumps(m))
    assert run(capsys, *argv, "--force")[0] == 0
    assert (tmp_path / "outside.txt").read_text() == "keep"


@pytest.mark.parametrize("verb", list(VERBS))
def test_an_unwritable_target_is_refused_before_any_work(capsys, tmp_path, verb, request, monkeypatch):
    if verb == "report":
        request.getfixturevalue("quick")
        monkeypatch.setattr(report, "build", lambda *a, **k: pytest.fail("measured before checking -o"))
    code, out, err = run(capsys, *VERBS[verb], "-o", "/proc/x")
    assert code == 2 and "/proc/x: cannot write in /proc" in err and out == ""
    assert "generating" not in err and "Traceback" not in err
