"""The README's console examples are true: each fast one is re-run and its output compared
(``python scripts/readme_examples.py --all`` also runs the synthesis and m = 1223 ones)."""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_readme_examples_match(capsys):
    spec = importlib.util.spec_from_file_location("readme_examples", ROOT / "scripts" / "readme_examples.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    code = mod.check(ROOT / "README.md", everything=False, update=False, timeout=900)
    out = capsys.readouterr().out
    assert code == 0, out
    assert out.count(": ok (") >= 5  # the examples really ran


def test_readme_names_the_papers_and_has_no_external_design_doc():
    text = (ROOT / "README.md").read_text()
    assert "seed 00" not in text.lower().replace("bn-chavez11", "")
    for paper in ("SAC 2012", "FPT 2006", "ReConFig 2011", "CHES 2009", "Nagl, M. Muehlberghuber"):
        assert paper in text
    assert "DESIGN.md" not in text and (ROOT / "docs" / "ARCHITECTURE.md").exists()
