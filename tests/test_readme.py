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
