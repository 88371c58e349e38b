"""Safe outputs for every verb: a file or a build directory appears whole or not at all.

A single stream (``vectors -o FILE``) is written to a temporary file beside the target and renamed
over it; ``-o -`` is standard output.  A build directory (``build``, ``unit build``) is written into
a temporary directory beside the target and renamed into place, replacing a previous build of the
same design or unit; a non-empty directory that is not one is refused unless ``--force``.  Created
files and directories get the permissions of the process umask, as ``open`` and ``mkdir`` would give.
Every OS error becomes a :class:`~pairhw.cli.common.UsageError` naming the path (exit 2).
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from contextlib import ExitStack, contextmanager
from pathlib import Path

from pairhw.cli.common import UsageError
from pairhw.scratch import scratch_dir


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _why(e: OSError) -> str:
    return e.strerror or type(e).__name__


@contextmanager
def stream(path: str | None, flag: str = "-o"):
    """A text stream for ``path``: stdout for ``None`` or ``-`` (written as it comes), else a
    temporary file beside ``path``, renamed over it when the block ends without an error."""
    if path in (None, "-"):
        yield sys.stdout
        sys.stdout.flush()
        return
    target = Path(path)
    if target.is_dir():
        raise UsageError(f"{flag} {path}: is a directory (give a file name, or - for standard output)")
    parent = target.parent
    if not parent.is_dir():
        raise UsageError(f"{flag} {path}: directory {parent} does not exist")
    try:
        fd, tmp = tempfile.mkstemp(dir=parent, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as e:
        raise UsageError(f"{flag} {path}: cannot write in {parent}: {_why(e)}") from None
    try:
        with os.fdopen(fd, "w") as fh:
            yield fh
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, target)
    except OSError as e:
        raise UsageError(f"{flag} {path}: {_why(e)}") from None
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def _previous_build(out: Path, owner: tuple[str, str]) -> str | None:
    """What ``out`` holds: ``None`` (absent or empty), ``"same"`` (a build of ``owner``, a
    (manifest key, name) pair), or a description of what else is there."""
    if not out.exists():
        return None
    if not out.is_dir():
        return "a file"
    entries = list(out.iterdir())
    if not entries:
        return None
    try:
        manifest = json.loads((out / "manifest.json").read_text())
    except (OSError, ValueError):
        return f"{len(entries)} entr{'y' if len(entries) == 1 else 'ies'} that are not a pairhw build"
    key, name = owner
    if isinstance(manifest, dict) and manifest.get(key) == name:
        return "same"
    other = next((f"{k} {manifest[k]}" for k in ("design", "unit") if isinstance(manifest, dict) and k in manifest),
                 "another build")
    return f"the build of {other}"


def check_target(out: str | Path, owner: tuple[str, str], force: bool = False, flag: str = "-o") -> str | None:
    """Refuse a build directory ``out`` that :func:`write_tree` would refuse (before any work is
    done); returns what it holds (see :func:`_previous_build`)."""
    out = Path(out)
    for up in [out, *out.parents]:
        if up.exists():
            if up != out and not up.is_dir():
                raise UsageError(f"{flag} {out}: {up} is a file, not a directory")
            break
    what = _previous_build(out, owner)
    if what == "a file":
        raise UsageError(f"{flag} {out}: exists and is not a directory")
    if what not in (None, "same") and not force:
        raise UsageError(f"{flag} {out}: the directory holds {what}; choose an empty or new directory, "
                         "or give --force to write into it")
    return what


def write_tree(out: str | Path, files: dict, owner: tuple[str, str], force: bool = False,
               flag: str = "-o") -> None:
    """Write ``files`` ({name: text or bytes}) as the directory ``out``, whole or not at all.

    ``out`` may be absent, empty, or a previous build of ``owner`` (it is replaced: its files are
    exactly ``files`` afterwards).  Anything else is refused unless ``force``, which writes the files
    into the directory beside what is there (each file replaced whole).
    """
    out = Path(out)
    what = check_target(out, owner, force, flag)
    with ExitStack() as made:  # the scratch directories, removed however this ends
        try:
            out.parent.mkdir(parents=True, exist_ok=True)
            tmp = made.enter_context(scratch_dir(f".{out.name}.pairhw-", out.parent))
        except OSError as e:
            raise UsageError(f"{flag} {out}: cannot create it: {_why(e)}") from None
        try:
            os.chmod(tmp, 0o777 & ~_umask())
            for name, text in files.items():  # text, or bytes (images)
                if isinstance(text, bytes):
                    (tmp / name).write_bytes(text)
                else:
                    (tmp / name).write_text(text)
            if what is None:
                if out.exists():
                    out.rmdir()  # empty: the rename below takes its place
                os.rename(tmp, out)
            elif what == "same":
                old = made.enter_context(scratch_dir(f".{out.name}.old-", out.parent))
                os.rename(out, old / "d")
                os.rename(tmp, out)
            else:  # --force into a foreign directory: each file whole, the others left alone
                for name in files:
                    os.replace(tmp / name, out / name)
        except OSError as e:
            raise UsageError(f"{flag} {out}: {_why(e)}") from None


def read_text(path: str, flag: str) -> str:
    """The text of a UTF-8 input file, or a :class:`UsageError` saying why it cannot be read."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as e:
        raise UsageError(f"{flag} {path}: not UTF-8 text (byte {e.start}: {e.reason})") from None
    except IsADirectoryError:
        raise UsageError(f"{flag} {path}: is a directory") from None
    except OSError as e:
        raise UsageError(f"{flag} {path}: cannot read it: {_why(e)}") from None
