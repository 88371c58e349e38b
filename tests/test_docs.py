"""The documentation site builds with warnings as errors, offline, from what the repository holds;
its generated pages are the sources' (the CLI's help, the schema, the recorded figures); it cites
nothing outside the repository and narrates no history of tries."""

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def _mkdocs(root: Path, tmp_path: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(root / "mkdocs.yml"),
                           "-d", str(tmp_path / "site")], capture_output=True, text=True, env=env, cwd=root,
                          timeout=600)


def _copy_site_sources(tmp_path: Path) -> Path:
    """mkdocs.yml, docs/, the hooks and the package the API page documents, in a directory of their own."""
    root = tmp_path / "repo"
    shutil.copytree(ROOT / "docs", root / "docs")
    shutil.copy(ROOT / "mkdocs.yml", root)
    for d in ("pairhw", "scripts"):  # the package the API page documents, the hooks
        (root / d).symlink_to(ROOT / d)
    return root


def test_site_builds_strict(tmp_path):
    res = _mkdocs(ROOT, tmp_path)
    assert res.returncode == 0, res.stderr[-3000:]
    assert (tmp_path / "site" / "reference" / "cli" / "index.html").exists()
    api = (tmp_path / "site" / "guide" / "python-api" / "index.html").read_text()
    assert "simulate" in api and "synthesize" in api  # the API reference came from the docstrings
    assert not re.search(r":(class|func|mod):<code>", api)  # their Sphinx roles rendered (the hooks)


@pytest.mark.parametrize("breakage, text, said", [
    ("link", "See [nowhere](no-such-page.md).", "no-such-page.md"),
    ("anchor", "See [nowhere](command.md#no-such-section).", "no-such-section"),
    ("reference", "See [the flow][pairhw.flow.no_such_function].", "pairhw.flow.no_such_function"),
])
def test_a_broken_link_fails_the_build(tmp_path, breakage, text, said):
    root = _copy_site_sources(tmp_path)
    page = root / "docs" / "guide" / "getting-started.md"
    page.write_text(page.read_text() + f"\n{text}\n")
    res = _mkdocs(root, tmp_path)
    assert res.returncode != 0, breakage
    assert said in res.stderr


def _render_docs():
    spec = importlib.util.spec_from_file_location("render_docs", ROOT / "scripts" / "render_docs.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_a_stale_generated_table_fails_the_check(tmp_path, capsys, monkeypatch):
    """``render_docs.py --check`` (run on the repository by tests/cli/test_dropin.py) fails on a
    results table edited by hand."""
    mod = _render_docs()
    root = tmp_path / "repo"
    shutil.copytree(ROOT / "docs", root / "docs")
    shutil.copy(ROOT / "README.md", root)
    (root / "bench").symlink_to(ROOT / "bench")
    monkeypatch.setattr(mod, "DOCS", root / "docs")
    monkeypatch.setattr(mod, "README", root / "README.md")
    monkeypatch.setattr(sys, "argv", ["render_docs.py", "--check"])
    assert mod.main() == 0
    page = root / "docs" / "results" / "adikari.md"
    text = page.read_text()
    row = next(ln for ln in text.splitlines() if ln.startswith("| three-way TMVP |"))
    page.write_text(text.replace(row, row.replace("27,308", "27,309")))
    assert mod.main() == 1
    assert "docs/results/adikari.md" in capsys.readouterr().err


def test_cli_reference_is_each_verbs_help():
    """`pairhw VERB --help` prints what the command reference shows (at 100 columns)."""
    ref = (ROOT / "docs" / "reference" / "cli.md").read_text()
    env = {**os.environ, "COLUMNS": "100"}
    for verb in ([], ["synth"], ["unit", "sim"]):
        out = subprocess.run([sys.executable, "-m", "pairhw", *verb, "--help"], capture_output=True, text=True,
                             env=env, check=True).stdout
        assert f"## `{' '.join(['pairhw', *verb])}`\n\n```text\n{out.rstrip()}\n```" in ref


def test_nothing_cited_is_outside_the_repository():
    files = PAGES + [p for d in ("pairhw", "bench", "scripts", "tests") for p in (ROOT / d).rglob("*.py")]
    for p in files:
        if p.name == "test_docs.py":
            continue
        text = p.read_text()
        assert "PUBLISHED.md" not in text and "shared/seeds" not in text, p


#: phrases that narrate how a figure was obtained rather than what it is (issue 54): a time-out, a
#: run stopped or still running, a loaded machine, a router's iterations
HISTORY = re.compile(r"stopped after|(?<![-\w])timed? ?out|time-out|loaded machine|was still (being|in|running|converging)"
                     r"|iteration #|wires? (still )?overused|I stopped|stopped it|gave up|a try of its own"
                     r"|while another|beside the other (jobs|runs)|stopped for time|had not (placed|routed)"
                     r"|busy machine|busier machine|another synthesis|a second try|an earlier run|this loaded",
                     re.I)


def test_no_page_narrates_the_history_of_tries():
    hits = []
    for p in PAGES:
        for n, line in enumerate(p.read_text().splitlines(), 1):
            if HISTORY.search(line) and not line.startswith("|"):  # a table's status cell is a result
                hits.append(f"{p.relative_to(ROOT)}:{n}: {line.strip()[:120]}")
    assert not hits, "\n".join(hits)


def test_each_report_section_has_its_result_page():
    """`pairhw report` links each section to a documentation page holding the same table (one source:
    ``pairhw.report.sections``, written there by scripts/render_docs.py)."""
    from pairhw import report

    secs = report.sections(report.Figures.recorded_only(), {})
    assert {s["id"] for s in secs} <= set(report.PAGES)
    for s in secs:
        page = ROOT / s["page"]
        text = page.read_text()
        if s["id"] == "ecp5":
            assert "<!-- ecp5-table" in text
        elif s["id"] == "designs":
            assert report.section_markdown(s) in text
        else:
            assert f"<!-- section-{s['id']}: generated" in text and report.section_markdown(s) in text
