"""Published figures that pairhw's designs are measured against (one home for each table).

``NAGL_ASIP``: Nagl et al. (seed 003), ηT over F_2^1223 on their microcoded processor, 180 nm, 125 MHz:
Table III (ms per pairing) and Table I (synthesis and post-layout area, kGE), keyed by pairhw's design.
"""

from __future__ import annotations

NAGL_MHZ = 125

NAGL_ASIP = {
    "asip-1223-k153": {"ms": 6.02, "kge_synth": 126.9, "kge_layout": 132.6},
    "asip-1223-k77": {"ms": 12.90, "kge_synth": 104.9, "kge_layout": 109.8},
    "asip-1223-lsd11": {"ms": 12.80, "kge_synth": 86.5, "kge_layout": 90.4},
    "asip-1223-lsd9": {"ms": 9.62, "kge_synth": 86.8, "kge_layout": 90.4},
    "asip-1223-lsd7": {"ms": 15.01, "kge_synth": 72.4, "kge_layout": 75.6},
    "asip-1223-lsb153": {"ms": 47.19, "kge_synth": 56.7, "kge_layout": 59.8},
    "asip-1223-lsb77": {"ms": 51.48, "kge_synth": 49.9, "kge_layout": 52.7},
}


def nagl_cycles(design: str) -> int:
    """Table III's time per pairing in cycles at 125 MHz."""
    return round(NAGL_ASIP[design]["ms"] * NAGL_MHZ * 1000)
