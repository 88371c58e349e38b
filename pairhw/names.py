"""Public names by author and year, and the names they replace.

pairhw's parameter sets, designs, multiplier kinds and algorithms are named after the papers they
come from (``bn-chavez11``: Chávez Corona et al., ReConFig 2011; ``etat-adikari12``: Adikari et al.,
SAC 2012).  The names they had before (``bn-seed002``, ``etat-seed000``, …) still work wherever the
new ones do, and a command given an old name prints what it printed before (CHANGELOG.md).
"""

from __future__ import annotations

import json
import re

#: each old name and the name by author and year that replaces it
OLD_NAMES = {
    "ate-bn-seed002-toy": "ate-bn-chavez11-toy",  # designs
    "ate-bn-seed002": "ate-bn-chavez11",
    "bn-seed002-toy": "bn-chavez11-toy",  # parameter sets
    "bn-seed002": "bn-chavez11",
    "polymont-seed002": "polymont-chavez11",  # multiplier kind
    "etat-seed000": "etat-adikari12",  # binary pairing algorithm
    "seed002": "chavez11",  # pairhw fp-mul --algorithm
}
#: the new name of each renamed one
NEW_NAMES = {new: old for old, new in OLD_NAMES.items()}


def current(name):
    """The name by author and year of ``name`` (``name`` itself unless it is an old one)."""
    return OLD_NAMES.get(name, name)


def aliases(names) -> tuple:
    """The old names of those of ``names`` that were renamed (to accept them too, e.g. as choices)."""
    return tuple(NEW_NAMES[n] for n in names if n in NEW_NAMES)


def _swap(text: str, table: dict) -> str:
    # whole names only: "bn-seed002" is not replaced inside "bn-seed002-toy" or "ate-bn-seed002"
    for a in sorted(table, key=len, reverse=True):
        if a == "seed002":  # the fp-mul algorithm: a bare word, never in a design
            continue
        text = re.sub(r"(?<![A-Za-z0-9_-])" + re.escape(a) + r"(?![A-Za-z0-9_-])", table[a], text)
    return text


def to_old(text: str) -> str:
    """``text`` (a design file) with the renamed names as they were before."""
    return _swap(text, NEW_NAMES)


def current_data(data: dict) -> dict:
    """A design's data with every old name replaced by its new one (what the engine compiles)."""
    return json.loads(_swap(json.dumps(data), OLD_NAMES))
