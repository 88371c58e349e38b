"""Published figures that pairhw's designs are measured against (one home for each table; the
benches, the tests and ``pairhw report`` read them).

``ADIKARI`` (Adikari et al., SAC 2012, Tables 4 and 5), ``SHU`` (Shu–Kwon–Gaj, FPT 2006, Table 3),
``CHAVEZ`` (Chávez Corona et al.'s multiplier, ReConFig 2011), ``BEUCHAT_PER_ITERATION`` (Beuchat et
al., CHES 2009) and ``OPEN_F3_97`` (the open F_3^97 cores, measured with pairhw's own tools: below),
``ZCASH_BLS12_381``, keyed by the comparable pairhw design where there is one.
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


#: Adikari et al. (seed 000), Table 4 (Virtex-6 xc6vlx365t-3) and Table 5 (65 nm ASIC at 500 MHz).
ADIKARI = {
    "etat2-1223-tmvp2": {"label": "two-way TMVP", "mhz": 271, "luts": 50179, "cycles": 40320, "us": 148.78,
                         "asic_gates": 497417, "asic_us": 80.64},
    "etat2-1223-tmvp3": {"label": "three-way TMVP", "mhz": 267, "luts": 63103, "cycles": 27308, "us": 102.40,
                         "asic_gates": 548453, "asic_us": 54.616},
}

#: Shu, Kwon and Gaj (seed 001), Table 3 (Virtex-II Pro XC2VP100; LUT4s).
SHU = {
    "tate1-239-d16": {"label": "Alg. 1, F_2^239, D = 16", "ffs": 10981, "luts": 34499, "slices": 18202, "mhz": 100, "us": 47},
    "tate1-239-d32": {"label": "Alg. 1, F_2^239, D = 32", "ffs": 11077, "luts": 59971, "slices": 31719, "mhz": 83, "us": 33},
    "tate1-283-d16": {"label": "Alg. 1, F_2^283, D = 16", "ffs": 12995, "luts": 42997, "slices": 22726, "mhz": 84, "us": 76},
    "tate1-283-d32": {"label": "Alg. 1, F_2^283, D = 32", "ffs": 13007, "luts": 72961, "slices": 37803, "mhz": 72, "us": 49},
    "tate2-239-d16": {"label": "Alg. 2, F_2^239, D = 16", "ffs": 14226, "luts": 48895, "slices": 25487, "mhz": 84, "us": 34},
    "tate2-283-d16": {"label": "Alg. 2, F_2^283, D = 16", "ffs": 16563, "luts": 64845, "slices": 33252, "mhz": 56, "us": 70},
}

#: Chávez Corona et al. (seed 002): their 256-bit BN multiplier (Virtex-6), against the multiplier of
#: ``ate-bn-chavez11``.
CHAVEZ = {"label": "polynomial Montgomery multiplier", "mhz": 223.7, "cycles_per_product": 15, "latency": 40,
          "slices": 4815, "dsp": 12}

#: Beuchat et al. (CHES 2009): 17 cycles per Miller iteration on one pipelined multiplier.  And the
#: open F_3^97 cores, measured with the tools pairhw uses: freecores/pairing (modified Duursma–Lee and
#: final exponentiation over F_3^97, x^97 + x^12 + 2; its test bench passes, 75,812 cycles from start to
#: done in Verilator and Icarus; Yosys 0.70 ``synth_xilinx -family xc7``: no BRAM or DSP) and
#: freecores/tiny_tate_bilinear_pairing (reduced ηT over F_3^97, microcoded; 52,512 cycles, 2,000 more
#: for its bit-serial I/O; Yosys xc7 with its register RAM kept as a module, so it maps to 12 RAMB18).
BEUCHAT_PER_ITERATION = 17
OPEN_F3_97 = {
    "freecores/pairing": {"cycles": 75812, "luts": 37054, "ffs": 31380},
    "freecores/tiny_tate": {"cycles": 52512, "luts": 2975, "ffs": 1708},
}

#: ZcashFoundation/zcash-fpga: BLS12-381 pairing cycles at 200 MHz.
ZCASH_BLS12_381 = {"cycles": 126644, "mhz": 200}


def published_cycles(row: dict) -> int:
    """A published row's cycles per pairing: given, or its µs × MHz."""
    return row["cycles"] if "cycles" in row else round(row["us"] * row["mhz"])
