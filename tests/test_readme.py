"""The README's and the documentation's console examples are true: each fast one is re-run and its
output compared (``python scripts/readme_examples.py --all`` also runs the synthesis and m = 1223
ones); the README is the short front page the documentation site links from."""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _examples():
    spec = importlib.util.spec_from_file_location("readme_examples", ROOT / "scripts" / "readme_examples.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_readme_and_docs_examples_match(capsys):
    mod = _examples()
    codes = [mod.check(p, everything=False, update=False, timeout=900) for p in mod.pages()]
    out = capsys.readouterr().out
    assert max(codes) == 0, out
    assert out.count(": ok (") >= 8  # the examples really ran
    assert "README.md:" in out and "docs/guide/command.md:" in out


def test_readme_is_short_and_names_the_papers():
    text = (ROOT / "README.md").read_text()
    assert len(text.splitlines()) <= 150
    for paper in ("SAC 2012", "FPT 2006", "ReConFig 2011", "CHES 2009", "Nagl et al."):
        assert paper in text
    arch = (ROOT / "docs" / "ARCHITECTURE.md").read_text()  # the one home of the papers table
    for paper in ("(SAC) 2012", "(FPT) 2006", "ReConFig 2011", "CHES 2009", "Nagl, M. Muehlberghuber"):
        assert paper in arch
    assert "seed 00" not in text.lower()
    assert "DESIGN.md" not in text
