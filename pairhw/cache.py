"""The results cache: ``$PAIRHW_CACHE`` or ``~/.cache/pairhw``, entries keyed by a hash of inputs."""

from __future__ import annotations

import hashlib
import os
import tempfile
from contextlib import contextmanager
from pathlib import Path


class CacheError(OSError):
    """The cache directory cannot be used (reported as bad input: the user's environment names it)."""


def cache_dir(*parts: str) -> Path:
    """``<cache>/<parts…>``, created if needed; :class:`CacheError` if it cannot be."""
    env = os.environ.get("PAIRHW_CACHE")
    root = Path(env or Path.home() / ".cache" / "pairhw")
    d = root.joinpath(*parts)
    try:
        d.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        src = f"PAIRHW_CACHE={env}" if env else f"the cache {root}"
        raise CacheError(f"{src} cannot be used as a directory: {e.strerror or e} "
                         "(set PAIRHW_CACHE to a writable directory)") from None
    return d


def digest(*texts) -> str:
    h = hashlib.sha256()
    for t in texts:
        h.update(t.encode() if isinstance(t, str) else t)
        h.update(b"\0")
    return h.hexdigest()[:24]


def content_hash(data: str | bytes) -> str:
    """The SHA-256 hex of a file's content (text as UTF-8)."""
    return hashlib.sha256(data.encode() if isinstance(data, str) else data).hexdigest()


def file_hashes(files: dict) -> dict:
    """``{name: SHA-256 hex}`` of ``files`` ({name: text or bytes}): a build manifest's ``files``, by
    which a later build knows which files of the directory pairhw wrote (and whether they changed)."""
    return {name: content_hash(t) for name, t in files.items()}


@contextmanager
def entry_lock(path: Path):
    """Hold an exclusive lock on the cache entry ``path`` (a ``.lock`` file beside it), so that two
    processes needing the same entry (two pytest-xdist workers, two CLI runs) make it once: the
    second waits and then reads what the first wrote.  Without ``fcntl`` or a writable directory the
    entry is simply made twice (the writes are atomic)."""
    try:
        import fcntl

        fh = open(path.parent / f"{path.name}.lock", "a")
    except (ImportError, OSError):
        yield
        return
    with fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def made_once(folder: str, name: str, make, dump, load, unreadable: tuple = ()):
    """The value kept in the cache entry ``<cache>/<folder>/<name>`` (``load`` of its bytes), else
    ``make()``, kept there (``dump`` to bytes) for the next call or process, one process at a time
    (:func:`entry_lock`).  An entry that cannot be read (``OSError`` or ``unreadable``) is made again;
    without a usable cache the value is made and not kept."""
    try:
        path = cache_dir(folder) / name
    except OSError:
        return make()
    with entry_lock(path):
        try:
            return load(path.read_bytes())
        except (OSError, *unreadable):
            pass
        value = make()
        try:
            write_atomic(path, dump(value))
        except OSError:  # an unwritable cache only costs the next call the work
            pass
        return value


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` whole or not at all (a temporary file beside it, then a rename)."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
