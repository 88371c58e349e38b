"""Re-run the console examples of the README and the documentation pages and compare their output
with what the page shows.

    python scripts/readme_examples.py [--all] [--update] [PAGE.md ...]

Without pages: README.md and every page under docs/ (:func:`pages`).

Every fenced block whose lines start with ``$ `` is run as one bash script in a fresh temporary
directory (so ``$(...)`` and files made by one command are seen by the next), with the virtualenv's
``pairhw`` on the PATH and ``PAIRHW_QUIET=1``.  A command's expected output is the lines after it up to
the next ``$ `` line:

- a line ``...`` stands for any number of lines (the chunks around it must appear in order);
- a last line ending in ``(exit code N)`` checks the exit status (the note itself is not output);
- progress lines (``[pairhw] …``) are compared only where the README shows them;
- a command whose line ends in ``# abridged…`` is run (it must succeed) but not compared;
- wall-clock times (``9.6 s``) are not compared;
- commands that synthesize or work at m = 1223 are slow: they run only with ``--all``.

A fenced ``python`` block is run as one script by the virtualenv's Python (same directory and
environment); the fenced ``text`` block right after it is its expected output, compared the same way.

Exit status 0 when every example matched.  ``--update`` rewrites the README with the new outputs of
blocks that have no ``...`` and no abridged command (review the diff).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FENCE = re.compile(r"^```(\w*)\s*$")
EXIT = re.compile(r"\s*\(exit code (\d+)\)\s*$")
SLOW = re.compile(r"\bsynth\b|1223|etat2-")


def blocks(text: str):
    """(first line index, lines) of every fenced block holding ``$ `` commands."""
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        if FENCE.match(lines[i]):
            j = i + 1
            while j < len(lines) and lines[j].strip() != "```":
                j += 1
            body = lines[i + 1:j]
            if any(ln.startswith("$ ") for ln in body):
                yield i + 1, body
            i = j + 1
        else:
            i += 1


def python_blocks(text: str):
    """(first line index, code lines, expected output lines) of every fenced ``python`` block followed
    by a fenced ``text`` block (its output)."""
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        j = i + 1
        while j < len(lines) and lines[j].strip() != "```":
            j += 1
        if m.group(1) == "python":
            k = j + 1
            while k < len(lines) and not lines[k].strip():
                k += 1
            if k < len(lines) and lines[k].strip() == "```text":
                e = k + 1
                while e < len(lines) and lines[e].strip() != "```":
                    e += 1
                yield i + 1, lines[i + 1:j], lines[k + 1:e]
                i = e + 1
                continue
        i = j + 1


def run_python(code: list[str], timeout: float) -> tuple[int, list[str]]:
    """Run a python block as a script; (exit status, stdout lines)."""
    env = dict(os.environ, PAIRHW_QUIET="1", PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    with tempfile.TemporaryDirectory(prefix="readme-") as tmp:
        proc = subprocess.run([sys.executable, "-c", "\n".join(code)], cwd=tmp, env=env, capture_output=True,
                              text=True, timeout=timeout)
    return proc.returncode, proc.stdout.splitlines() + ([f"(stderr) {ln}" for ln in proc.stderr.splitlines()
                                                        if not ln.startswith("[pairhw]")] if proc.returncode else [])


def commands(body):
    """[(command, expected lines)] of one block."""
    out = []
    for ln in body:
        if ln.startswith("$ "):
            out.append((ln[2:], []))
        elif out:
            out[-1][1].append(ln)
    return out


def run_block(cmds, timeout: float) -> list[tuple[int, list[str]]]:
    """Run the commands in one bash process; [(exit status, output lines)] per command."""
    script = []
    for k, (cmd, _) in enumerate(cmds):
        script.append(f"echo '@@CMD {k}'")
        script.append(f"{cmd} 2>&1")
        script.append(f"echo \"@@RC {k} $?\"")
    env = dict(os.environ, PAIRHW_QUIET="1", PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    with tempfile.TemporaryDirectory(prefix="readme-") as tmp:
        proc = subprocess.run(["bash", "-c", "\n".join(script)], cwd=tmp, env=env, capture_output=True,
                              text=True, timeout=timeout)
    results, cur = [], None
    for ln in proc.stdout.splitlines():
        if ln.startswith("@@CMD "):
            cur = []
        elif ln.startswith("@@RC "):
            results.append((int(ln.split()[2]), cur))
            cur = None
        elif cur is not None:
            cur.append(ln)
    return results


_SECONDS = re.compile(r"\b\d+(?:\.\d+)? s\b(?:, cached)?")


def _norm(line: str) -> str:
    """A line with its wall-clock times (``9.6 s``, ``, cached``) blanked and trailing spaces dropped."""
    return _SECONDS.sub("… s", line.rstrip())


def matches(expected: list[str], actual: list[str]) -> bool:
    """``expected`` (with ``...`` lines as gaps) against ``actual``, trailing spaces and wall-clock
    times ignored."""
    exp = [_norm(e) for e in expected]
    act = [_norm(a) for a in actual]
    if not any(e.strip() == "..." for e in exp):
        return exp == act
    chunks, cur = [], []
    for e in exp:
        if e.strip() == "...":
            chunks.append(cur)
            cur = []
        else:
            cur.append(e)
    chunks.append(cur)
    pos = 0
    for n, chunk in enumerate(chunks):
        if not chunk:
            continue
        for start in range(pos, len(act) - len(chunk) + 1):
            if act[start:start + len(chunk)] == chunk and (n > 0 or start == 0):
                pos = start + len(chunk)
                break
        else:
            return False
    return not chunks[-1] or pos == len(act)


def pages() -> list[Path]:
    """The README and the documentation's pages, whose examples are checked."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def check(readme: Path, everything: bool, update: bool, timeout: float = 3600) -> int:
    name = readme.resolve().relative_to(ROOT) if readme.resolve().is_relative_to(ROOT) else readme
    text = readme.read_text()
    lines = text.splitlines()
    failures = 0
    replacements = {}
    for start, body in blocks(text):
        cmds = commands(body)
        if not everything and any(SLOW.search(c) for c, _ in cmds):
            print(f"{name}:{start}: skipped (slow: run with --all)")
            continue
        results = run_block(cmds, timeout)
        new_body, ok_block, exact = [], True, True
        for (cmd, expected), (rc, actual) in zip(cmds, results):
            want_rc = 0
            if expected and EXIT.search(expected[-1]):
                want_rc = int(EXIT.search(expected[-1]).group(1))
                expected = expected[:-1] + [EXIT.sub("", expected[-1])]
            if not any(e.startswith("[pairhw]") for e in expected):
                actual = [a for a in actual if not a.startswith("[pairhw]")]
            abridged = re.search(r"#\s*abridged", cmd) is not None
            good = rc == want_rc and (abridged or matches(expected, actual))
            exact = exact and not abridged and not any(e.strip() == "..." for e in expected)
            if not good:
                ok_block = False
                print(f"{name}:{start}: $ {cmd}\n  exit {rc} (want {want_rc})")
                for a in actual[:40]:
                    print(f"  | {a}")
            new_body.append(f"$ {cmd}")
            shown = actual + ([] if want_rc == 0 else [])
            if want_rc:
                shown = shown[:-1] + [f"{shown[-1]}      (exit code {rc})"] if shown else shown
            new_body.extend(shown)
        if len(results) != len(cmds):
            ok_block = False
            print(f"{name}:{start}: the block stopped after {len(results)} of {len(cmds)} commands")
        if ok_block:
            print(f"{name}:{start}: ok ({len(cmds)} command{'s' if len(cmds) > 1 else ''})")
        else:
            failures += 1
            if update and exact and len(results) == len(cmds):
                replacements[start] = (len(body), new_body)
    for start, code, expected in python_blocks(text):
        rc, actual = run_python(code, timeout)
        if rc == 0 and matches(expected, actual):
            print(f"{name}:{start}: ok (python)")
        else:
            failures += 1
            print(f"{name}:{start}: python block, exit {rc}")
            for a in actual[:40]:
                print(f"  | {a}")
    if update and replacements:
        for start in sorted(replacements, reverse=True):
            n, new = replacements[start]
            lines[start:start + n] = new
        readme.write_text("\n".join(lines) + "\n")
        print(f"updated {len(replacements)} block(s) of {readme}")
    return 1 if failures else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pages", nargs="*", help="the pages (default: the README and docs/)")
    ap.add_argument("--all", action="store_true", help="also the slow examples (synthesis, m = 1223)")
    ap.add_argument("--update", action="store_true", help="rewrite blocks that differ (exact blocks only)")
    args = ap.parse_args()
    codes = [check(Path(p), args.all, args.update) for p in (args.pages or pages())]
    return max(codes, default=0)


if __name__ == "__main__":
    sys.exit(main())
