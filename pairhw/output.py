"""Safe outputs for every verb: a file or a build directory appears whole or not at all.

A single stream (``vectors -o FILE``) is written to a temporary file beside the target and renamed
over it; ``-o -`` is standard output.  A new build directory (``build``, ``unit build``, ``report``)
is written into a temporary directory beside the target and renamed into place.  Into a directory
that holds a previous build, only the files its ``manifest.json`` lists (the files pairhw wrote) are
replaced or removed; every other file stays.  A non-empty directory that is not a build of the same
design or unit is refused unless ``--force``, and no file pairhw did not write is ever replaced.
Created files and directories get the permissions of the process umask, as ``open`` and ``mkdir``
would give.
Every OS error becomes a :class:`~pairhw.errors.UsageError` naming the path (exit 2).
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from contextlib import ExitStack, contextmanager
from pathlib import Path

from pairhw.cache import content_hash
from pairhw.errors import UsageError
from pairhw.progress import plural
from pairhw.files import TooLarge, read_at_most
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


def _manifest(out: Path) -> dict | None:
    try:
        manifest = json.loads((out / "manifest.json").read_text())
    except (OSError, ValueError):
        return None
    return manifest if isinstance(manifest, dict) else None


def _owned(out: Path) -> dict[str, str | None]:
    """The files of ``out`` that pairhw wrote, by the manifest it left there: ``{name: SHA-256 or None}``
    (``None``: written by pairhw, its content not recorded).  ``manifest.json`` is always among them
    when it names a build; a directory without one has none."""
    manifest = _manifest(out)
    if manifest is None or not any(k in manifest for k in OWNERS):
        return {}
    listed = manifest.get("files", {})
    if isinstance(listed, list):
        listed = dict.fromkeys(listed)
    if not isinstance(listed, dict):
        return {}
    owned = {name: h if isinstance(h, str) else None for name, h in listed.items()
             if isinstance(name, str) and _plain(name)}
    owned.setdefault("manifest.json", None)
    return owned


def _plain(name: str) -> bool:
    """A relative path inside the directory (a manifest is data: ``../x`` or ``/x`` are not ours)."""
    p = Path(name)
    return bool(name) and not p.is_absolute() and ".." not in p.parts


#: the manifest keys that name what a build directory holds
OWNERS = ("design", "unit", "report")


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
    manifest = _manifest(out)
    if manifest is None or not any(k in manifest for k in OWNERS):
        return f"{len(entries)} entr{'y' if len(entries) == 1 else 'ies'} that are not a pairhw build"
    key, name = owner
    if manifest.get(key) == name:
        return "same"
    other = next((f"{k} {manifest[k]}" for k in OWNERS if k in manifest))
    return f"the build of {other}"


def check_target(out: str | Path, owner: tuple[str, str], force: bool = False, flag: str = "-o") -> str | None:
    """Refuse a build directory ``out`` that :func:`write_tree` would refuse, before any work is
    done: a file, a path under a file, a place that cannot be written, or (without ``force``) a
    directory that is not a build of ``owner``.  Returns what it holds (see :func:`_previous_build`)."""
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
                         "or give --force to write into it (files pairhw did not write are never replaced)")
    _check_writable(out if out.is_dir() else up, out, flag)
    return what


def _check_writable(where: Path, out: Path, flag: str) -> None:
    """Make and remove a scratch directory in ``where`` (``out`` or its nearest existing parent): the
    one sure test that the build can be written there, done before any work."""
    try:
        with scratch_dir(f".{out.name}.pairhw-check-", where):
            pass
    except OSError as e:
        raise UsageError(f"{flag} {out}: cannot write in {where}: {_why(e)}") from None


def write_tree(out: str | Path, files: dict, owner: tuple[str, str], force: bool = False,
               flag: str = "-o") -> dict:
    """Write ``files`` ({name: text or bytes}) into the directory ``out``; nothing is written if any
    file cannot be.

    ``out`` absent or empty: it becomes exactly ``files``.  ``out`` a previous pairhw build (its
    ``manifest.json`` lists the files pairhw wrote): those files are replaced, the ones the new build
    does not have are removed, and every other file stays.  A directory that is not a build of
    ``owner`` is refused unless ``force``.  Never, even with ``force``, is a file pairhw did not write
    replaced or removed; a file pairhw wrote that was edited since is replaced only with ``force``
    (and left, not removed, when the new build does not have it).

    Returns ``{"replaced": [...], "removed": [...], "kept": [...], "others": [...]}``: pairhw's
    files overwritten, pairhw's files removed, pairhw's edited files left, and the other entries of
    the directory, which were not touched.
    """
    out = Path(out)
    what = check_target(out, owner, force, flag)
    owned = _owned(out) if what is not None else {}
    done = {"replaced": [], "removed": [], "kept": [], "others": []}
    if what is not None:
        clash = sorted(n for n in files if n not in owned and (out / n).exists())
        if clash:
            raise UsageError(f"{flag} {out}: {_names(clash)} {'is' if len(clash) == 1 else 'are'} not pairhw's "
                             "(not in the directory's manifest); move them away or choose another directory")
        edited = sorted(n for n, h in owned.items() if h is not None and _edited(out / n, h))
        if edited and not force and any(n in files for n in edited):
            mine = [n for n in edited if n in files]
            them = "it" if len(mine) == 1 else "them"
            raise UsageError(f"{flag} {out}: {_names(mine)} changed since pairhw wrote {them}; give --force to "
                             f"replace {them}, or move {them} away")
        done["replaced"] = sorted(n for n in files if (out / n).exists())
        done["kept"] = sorted(n for n in edited if n not in files and (out / n).exists())
        done["removed"] = sorted(n for n in owned if n not in files and n not in edited and (out / n).is_file())
        top = {Path(n).parts[0] for n in [*files, *owned]}
        done["others"] = sorted(p.name for p in out.iterdir() if p.name not in top)
    with ExitStack() as made:  # the scratch directory, removed however this ends
        try:
            out.parent.mkdir(parents=True, exist_ok=True)
            tmp = made.enter_context(scratch_dir(f".{out.name}.pairhw-", out.parent if what is None else out))
        except OSError as e:
            raise UsageError(f"{flag} {out}: cannot create it: {_why(e)}") from None
        try:
            os.chmod(tmp, 0o777 & ~_umask())
            for name, text in files.items():  # text, or bytes (images)
                (tmp / name).parent.mkdir(parents=True, exist_ok=True)
                if isinstance(text, bytes):
                    (tmp / name).write_bytes(text)
                else:
                    (tmp / name).write_text(text)
            if what is None:
                if out.exists():
                    out.rmdir()  # empty: the rename below takes its place
                os.rename(tmp, out)
                return done
            # each file whole (a rename within the directory), the manifest last: until it is
            # written, the old one still names every file pairhw wrote
            for name in sorted(files, key=lambda n: n == "manifest.json"):
                (out / name).parent.mkdir(parents=True, exist_ok=True)
                os.replace(tmp / name, out / name)
            for name in done["removed"]:
                (out / name).unlink()
        except OSError as e:
            raise UsageError(f"{flag} {out}: {_why(e)}") from None
    return done


def _edited(path: Path, sha: str) -> bool:
    try:
        return content_hash(path.read_bytes()) != sha
    except OSError:
        return False  # gone (or unreadable): nothing of the user's to keep


def _names(names: list[str], most: int = 3) -> str:
    shown = ", ".join(names[:most])
    return shown + (f" and {len(names) - most} more" if len(names) > most else "")


def tree_note(out: str | Path, done: dict) -> str | None:
    """One line on what :func:`write_tree` did to a directory that held files, or ``None``."""
    parts = []
    if done["replaced"]:
        parts.append(f"replaced {plural(len(done['replaced']), 'file')} of the previous build")
    if done["removed"]:
        parts.append(f"removed {_names(done['removed'])} (the new build has no such file)")
    if done["kept"]:
        parts.append(f"left {_names(done['kept'])} (pairhw's, edited since)")
    if done["others"]:
        parts.append(f"left {_names(done['others'])} untouched (not pairhw's)")
    return f"{out}: " + "; ".join(parts) if parts else None


#: the largest input file read (a vector file of 10,000 pairings at m = 1223 is about 27 MB)
MAX_INPUT_BYTES = 64 << 20


def read_text(path: str, flag: str, most: int = MAX_INPUT_BYTES) -> str:
    """The text of a UTF-8 input file of at most ``most`` bytes, or a :class:`UsageError` saying why
    it cannot be read (a device such as /dev/urandom is not read past the bound)."""
    try:
        return read_at_most(path, most).decode("utf-8")
    except TooLarge as e:
        raise UsageError(f"{flag} {path}: {e}") from None
    except UnicodeDecodeError as e:
        raise UsageError(f"{flag} {path}: not UTF-8 text (byte {e.start}: {e.reason})") from None
    except IsADirectoryError:
        raise UsageError(f"{flag} {path}: is a directory") from None
    except OSError as e:
        raise UsageError(f"{flag} {path}: cannot read it: {_why(e)}") from None
