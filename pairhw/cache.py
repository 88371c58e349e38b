"""The results cache: ``$PAIRHW_CACHE`` or ``~/.cache/pairhw``, entries keyed by a hash of inputs."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path


def cache_dir(*parts: str) -> Path:
    root = Path(os.environ.get("PAIRHW_CACHE") or Path.home() / ".cache" / "pairhw")
    d = root.joinpath(*parts)
    d.mkdir(parents=True, exist_ok=True)
    return d


def digest(*texts) -> str:
    h = hashlib.sha256()
    for t in texts:
        h.update(t.encode() if isinstance(t, str) else t)
        h.update(b"\0")
    return h.hexdigest()[:24]
