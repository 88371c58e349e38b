"""Bus wrappers that put a pairing core into a system: AXI4-Stream, AXI4-Lite and Wishbone.

Each wrapper is a :class:`amaranth.lib.wiring.Component` around a :class:`pairhw.cores.core.StreamCore`
(an engine core or an ASIP) with the bus's standard signal names:

* :class:`AxisWrap` (``axis``): the core's input and output streams as AXI4-Stream slave and master,
  ``tdata`` widened to whole bytes, ``m_axis_tlast`` on the last word of each result.  The core counts
  its words, so ``s_axis_tlast`` is accepted and not needed (AXI4-Stream lets a sink ignore TLAST).
* :class:`AxilWrap` (``axil``) and :class:`WishboneWrap` (``wishbone``): a 32-bit register interface,
  the map of :class:`RegisterMap` (identification, control, status, the run's measured cycles, the
  input and output elements).  Software writes the inputs, sets ``CTRL.START``, waits for
  ``STATUS.DONE`` (or the ``irq`` output) and reads the outputs.

The register map is data (:meth:`RegisterMap.registers`): the same description builds the hardware,
the C header (:func:`c_header`), the Python driver (:func:`python_driver`) and the docs.
"""

from __future__ import annotations

from dataclasses import dataclass

from amaranth.hdl import C, Cat, ClockDomain, ClockSignal, Module, Mux, ResetSignal, Signal
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

#: the wrappers ``pairhw build --wrap`` knows, with their module-name suffix
WRAPS = {"axis": "axis", "axil": "axil", "wishbone": "wb"}

#: the ``ID`` register's value: "PHW1" in ASCII
MAP_ID = 0x50485731
#: the register map's version (``VERSION`` bits 15..0); bump when an offset or a bit moves
MAP_VERSION = 1


@dataclass(frozen=True)
class RegisterMap:
    """The 32-bit register map of the AXI4-Lite and Wishbone wrappers (byte addresses): the
    registers of :attr:`FIXED`, then the input elements from ``IN_BASE`` (0x100) and the output
    elements from :attr:`out_base`, each as :attr:`words` 32-bit words, least significant first.
    Addresses are decoded by 32-bit word (a byte access at 0x103 is word 0x100 with its byte
    strobes).  A read or write of any other word is answered with an error (AXI4-Lite SLVERR,
    Wishbone ERR), and so is a write to an input word while ``STATUS.BUSY``: a run computes on the
    inputs as they were at ``START``.  Bits above the element's width in an input's top word are
    not stored (they read back 0).
    docs/PROTOCOL.md shows the table of :meth:`markdown`.
    """

    n_in: int
    n_out: int
    bits: int
    cycles: int
    design: int

    WORD = 32
    FIXED = (("ID", 0x000, "r"), ("VERSION", 0x004, "r"), ("DESIGN", 0x008, "r"), ("CTRL", 0x00C, "rw"),
             ("STATUS", 0x010, "rw"), ("CYCLES", 0x014, "r"), ("EXPECTED", 0x018, "r"), ("SHAPE", 0x01C, "r"))
    #: what each register holds (docs, C header)
    MEANING = {
        "ID": '0x50485731 ("PHW1")',
        "VERSION": "bits 15..0 the map version, bits 31..16 the element's bits",
        "DESIGN": "32 bits of SHA-256 of the design's JSON without name and description",
        "CTRL": "bit 0 START (write 1: start a pairing; ignored while BUSY; reads 0), bit 1 IRQ_EN (irq = DONE while set)",
        "STATUS": "bit 0 BUSY, bit 1 DONE (set when the outputs are complete; cleared by START or by writing 1)",
        "CYCLES": "run cycles of the last pairing, counted by the wrapper",
        "EXPECTED": "the schedule's cycle count (every pairing takes exactly this many)",
        "SHAPE": "input elements (bits 7..0), output elements (15..8), 32-bit words per element (23..16)",
    }
    CTRL_START, CTRL_IRQ_EN = 1, 2
    STATUS_BUSY, STATUS_DONE = 1, 2
    IN_BASE = 0x100

    @classmethod
    def of(cls, core, design: int) -> "RegisterMap":
        """The map of ``core``; ``design`` is the ``DESIGN`` register's value
        (:func:`pairhw.designs.design_id`)."""
        s = core.stream
        return cls(s.n_in, s.n_out, s.F.width, core.cycles, design)

    @property
    def words(self) -> int:
        """32-bit words per element."""
        return -(-self.bits // self.WORD)

    @property
    def out_base(self) -> int:
        return self.IN_BASE + -(-(self.n_in * self.words * 4) // 0x100) * 0x100

    @property
    def size(self) -> int:
        """Bytes the map spans (a power of two)."""
        end = self.out_base + self.n_out * self.words * 4
        return 1 << (end - 1).bit_length()

    @property
    def addr_bits(self) -> int:
        return (self.size - 1).bit_length()

    def in_addr(self, k: int, j: int) -> int:
        return self.IN_BASE + 4 * (k * self.words + j)

    def out_addr(self, k: int, j: int) -> int:
        return self.out_base + 4 * (k * self.words + j)

    def constants(self) -> dict:
        """The values of the read-only identification registers."""
        return {"ID": MAP_ID, "VERSION": MAP_VERSION | (self.bits << 16), "DESIGN": self.design,
                "EXPECTED": self.cycles, "SHAPE": self.n_in | (self.n_out << 8) | (self.words << 16)}

    def registers(self) -> list[tuple[str, int, str]]:
        """Every register: (name, byte offset, access)."""
        regs = list(self.FIXED)
        regs += [(f"IN{k}_{j}", self.in_addr(k, j), "rw") for k in range(self.n_in) for j in range(self.words)]
        regs += [(f"OUT{k}_{j}", self.out_addr(k, j), "r") for k in range(self.n_out) for j in range(self.words)]
        return regs

    def markdown(self) -> str:
        """The map as a Markdown table (docs/PROTOCOL.md)."""
        rows = ["| offset | register | access | meaning |", "|---|---|---|---|"]
        rows += [f"| 0x{off:03X} | {name} | {acc} | {self.MEANING[name]} |" for name, off, acc in self.FIXED]
        rows += [f"| 0x{self.IN_BASE:03X} + 4·(k·W + j) | `IN[k][j]` | rw | word j of input element k (W words per "
                 "element, least significant first; bits above the element's width read back 0; a write while "
                 "BUSY is refused) |",
                 "| OUT + 4·(k·W + j) | `OUT[k][j]` | r | word j of output element k; OUT is the first multiple of "
                 "0x100 after the inputs |"]
        return "\n".join(rows)

    def describe(self) -> dict:
        """The map as JSON-able data (manifest, driver)."""
        return {"id": MAP_ID, "version": MAP_VERSION, "design": self.design, "element_bits": self.bits,
                "inputs": self.n_in, "outputs": self.n_out, "words_per_element": self.words,
                "expected_cycles": self.cycles, "in_base": self.IN_BASE, "out_base": self.out_base,
                "size": self.size, "registers": {n: {"offset": o, "access": a} for n, o, a in self.FIXED},
                "ctrl": {"START": self.CTRL_START, "IRQ_EN": self.CTRL_IRQ_EN},
                "status": {"BUSY": self.STATUS_BUSY, "DONE": self.STATUS_DONE}}


class RegisterFile(wiring.Component):
    """The bus-independent part of the register wrappers: the map of :class:`RegisterMap`, the input
    and output elements, and the sequencer that streams the inputs into the core, counts the run
    cycles and collects the outputs.

    One access per cycle: ``wr`` with ``addr``/``wdata``/``wstrb`` writes (byte lanes), ``rdata`` is
    the word at ``addr`` (combinational; the bus fronts register it), ``hit`` says ``addr`` is mapped
    and ``writable`` that it may be written.
    """

    def __init__(self, core, rmap: RegisterMap):
        self.core, self.map = core, rmap
        super().__init__({"addr": In(rmap.addr_bits), "wr": In(1), "wdata": In(32), "wstrb": In(4),
                          "rdata": Out(32), "hit": Out(1), "writable": Out(1), "irq": Out(1)})

    def elaborate(self, platform):
        m = Module()
        rm, core = self.map, self.core
        m.submodules.core = core
        w, beats, bits = core.stream.io_width, core.stream.io_beats, rm.bits
        wpe = rm.words
        # the elements are m bits: bits above m in an input's top word are not stored and read back 0
        ins = [Signal(bits, name=f"in{k}") for k in range(rm.n_in)]
        outs = Signal(rm.n_out * beats * w, name="outs")
        ctrl_ien = Signal(name="irq_en")
        done, cycles = Signal(name="done"), Signal(32, name="cycles")
        idx = Signal(range(max(rm.n_in, rm.n_out) * beats + 1), name="beat_index")
        busy = Signal(name="busy")
        # a bus puts the byte address of a narrow access on its address lines: decode by word
        addr = Signal(rm.addr_bits, name="word_addr")
        m.d.comb += addr.eq(self.addr & ~3)

        # writes: the inputs byte by byte (not while a run reads them: a run's inputs are those at
        # START), CTRL and STATUS
        start = Signal(name="start")
        with m.If(self.wr):
            for k in range(rm.n_in):
                for j in range(wpe):
                    with m.If((addr == rm.in_addr(k, j)) & ~busy):
                        for b in range(4):
                            lo = 32 * j + 8 * b
                            if lo < bits:
                                with m.If(self.wstrb[b]):
                                    m.d.sync += ins[k][lo:min(lo + 8, bits)].eq(self.wdata[8 * b:8 * b + min(8, bits - lo)])
            with m.If((addr == 0x00C) & self.wstrb[0]):
                m.d.sync += ctrl_ien.eq(self.wdata[1])
                m.d.comb += start.eq(self.wdata[0])
            with m.If((addr == 0x010) & self.wstrb[0] & self.wdata[1]):
                m.d.sync += done.eq(0)

        # reads
        consts = rm.constants()
        with m.Switch(addr):
            for name, off, acc in rm.FIXED:
                with m.Case(off):
                    m.d.comb += [self.hit.eq(1), self.writable.eq(acc == "rw")]
                    if name in consts:
                        m.d.comb += self.rdata.eq(consts[name])
                    elif name == "CTRL":
                        m.d.comb += self.rdata.eq(ctrl_ien << 1)
                    elif name == "STATUS":
                        m.d.comb += self.rdata.eq(Cat(busy, done))
                    elif name == "CYCLES":
                        m.d.comb += self.rdata.eq(cycles)
            for k in range(rm.n_in):
                for j in range(wpe):
                    with m.Case(rm.in_addr(k, j)):
                        m.d.comb += [self.hit.eq(1), self.writable.eq(~busy),
                                     self.rdata.eq(ins[k][32 * j:min(32 * j + 32, bits)])]
            for k in range(rm.n_out):
                elem = outs[k * beats * w:k * beats * w + bits]
                for j in range(wpe):
                    with m.Case(rm.out_addr(k, j)):
                        m.d.comb += [self.hit.eq(1), self.rdata.eq(elem[32 * j:min(32 * j + 32, bits)])]

        # the sequencer: send every input word, wait for the run, collect every output word
        flat_in = Signal(rm.n_in * beats * w, name="flat_in")
        m.d.comb += flat_in.eq(Cat(*(ins[k][:min(bits, beats * w)] | C(0, beats * w) for k in range(rm.n_in))))
        m.d.comb += self.irq.eq(done & ctrl_ien)
        with m.FSM(name="seq"):
            with m.State("IDLE"):
                with m.If(start):
                    m.d.sync += [idx.eq(0), done.eq(0), cycles.eq(0)]
                    m.next = "SEND"
            with m.State("SEND"):
                m.d.comb += [busy.eq(1), core.i.valid.eq(1), core.i.payload.eq(flat_in.word_select(idx, w))]
                with m.If(core.i.ready):
                    m.d.sync += idx.eq(idx + 1)
                    with m.If(idx == rm.n_in * beats - 1):
                        m.d.sync += idx.eq(0)
                        m.next = "RUN"
            with m.State("RUN"):
                # the cycles from the one after the last input word to the first output word, as the
                # test benches count them
                m.d.comb += [busy.eq(1), core.o.ready.eq(1)]
                with m.If(core.o.valid):
                    m.d.sync += [outs.word_select(idx, w).eq(core.o.payload), idx.eq(idx + 1)]
                    m.next = "RECV"
                with m.Else():
                    m.d.sync += cycles.eq(cycles + 1)
            with m.State("RECV"):
                m.d.comb += [busy.eq(1), core.o.ready.eq(1)]
                with m.If(core.o.valid):
                    m.d.sync += [outs.word_select(idx, w).eq(core.o.payload), idx.eq(idx + 1)]
                    with m.If(idx == rm.n_out * beats - 1):
                        m.d.sync += done.eq(1)
                        m.next = "IDLE"
        return m


def _local_domain(m: Module, clk, rst) -> None:
    """A ``sync`` domain driven by the bus's clock and (active-high) reset, so the wrapper's ports
    carry the bus's names instead of ``clk``/``rst``."""
    m.domains.sync = ClockDomain("sync")
    m.d.comb += [ClockSignal("sync").eq(clk), ResetSignal("sync").eq(rst)]


class AxisWrap(wiring.Component):
    """AXI4-Stream wrapper of a pairing core (``aclk``, active-low ``aresetn``; ``s_axis_*`` in,
    ``m_axis_*`` out, ``tdata`` the core's word zero-extended to whole bytes).

    Latency and throughput are the core's: it adds no register on either stream.
    """

    def __init__(self, core, name: str):
        self.core, self.name = core, name
        self.tw = -(-core.stream.io_width // 8) * 8
        super().__init__({"aclk": In(1), "aresetn": In(1),
                          "s_axis_tdata": In(self.tw), "s_axis_tvalid": In(1), "s_axis_tready": Out(1),
                          "s_axis_tlast": In(1),
                          "m_axis_tdata": Out(self.tw), "m_axis_tvalid": Out(1), "m_axis_tready": In(1),
                          "m_axis_tlast": Out(1), "busy": Out(1)})

    def elaborate(self, platform):
        m = Module()
        _local_domain(m, self.aclk, ~self.aresetn)
        core = self.core
        m.submodules.core = core
        w, beats, n_out = core.stream.io_width, core.stream.io_beats, core.stream.n_out
        last = Signal(range(n_out * beats), name="out_index")
        m.d.comb += [
            core.i.payload.eq(self.s_axis_tdata[:w]), core.i.valid.eq(self.s_axis_tvalid),
            self.s_axis_tready.eq(core.i.ready),
            self.m_axis_tdata.eq(core.o.payload), self.m_axis_tvalid.eq(core.o.valid),
            core.o.ready.eq(self.m_axis_tready), self.busy.eq(core.busy),
            self.m_axis_tlast.eq(last == n_out * beats - 1),
        ]
        with m.If(core.o.valid & self.m_axis_tready):
            m.d.sync += last.eq(Mux(last == n_out * beats - 1, 0, last + 1))
        return m


class AxilWrap(wiring.Component):
    """AXI4-Lite slave (32-bit data, ``aclk``, active-low ``aresetn``, ``s_axi_*`` channels) over the
    register map of :class:`RegisterMap`; ``irq`` is ``STATUS.DONE`` while ``CTRL.IRQ_EN``.

    A write is taken when address and data are both valid (``awready`` = ``wready``, one cycle), its
    response follows the next cycle; a read answers the cycle after ``arvalid``.  Unmapped addresses
    and writes to read-only registers answer SLVERR.
    """

    def __init__(self, core, name: str, rmap: RegisterMap):
        self.core, self.name, self.map = core, name, rmap
        a = rmap.addr_bits
        super().__init__({
            "aclk": In(1), "aresetn": In(1),
            "s_axi_awaddr": In(a), "s_axi_awprot": In(3), "s_axi_awvalid": In(1), "s_axi_awready": Out(1),
            "s_axi_wdata": In(32), "s_axi_wstrb": In(4), "s_axi_wvalid": In(1), "s_axi_wready": Out(1),
            "s_axi_bresp": Out(2), "s_axi_bvalid": Out(1), "s_axi_bready": In(1),
            "s_axi_araddr": In(a), "s_axi_arprot": In(3), "s_axi_arvalid": In(1), "s_axi_arready": Out(1),
            "s_axi_rdata": Out(32), "s_axi_rresp": Out(2), "s_axi_rvalid": Out(1), "s_axi_rready": In(1),
            "irq": Out(1)})

    def elaborate(self, platform):
        m = Module()
        _local_domain(m, self.aclk, ~self.aresetn)
        m.submodules.regs = rf = RegisterFile(self.core, self.map)
        m.d.comb += self.irq.eq(rf.irq)
        take_w = Signal(name="take_w")
        take_r = Signal(name="take_r")
        # a write has priority over a read in the same cycle (one register-file access a cycle)
        m.d.comb += take_w.eq(self.s_axi_awvalid & self.s_axi_wvalid & ~self.s_axi_bvalid)
        m.d.comb += take_r.eq(self.s_axi_arvalid & ~self.s_axi_rvalid & ~take_w)
        m.d.comb += [self.s_axi_awready.eq(take_w), self.s_axi_wready.eq(take_w), self.s_axi_arready.eq(take_r)]
        with m.If(take_w):
            m.d.comb += [rf.addr.eq(self.s_axi_awaddr), rf.wdata.eq(self.s_axi_wdata),
                         rf.wstrb.eq(self.s_axi_wstrb), rf.wr.eq(rf.hit & rf.writable)]
            m.d.sync += [self.s_axi_bvalid.eq(1), self.s_axi_bresp.eq(Mux(rf.hit & rf.writable, 0, 2))]
        with m.Elif(take_r):
            m.d.comb += rf.addr.eq(self.s_axi_araddr)
            m.d.sync += [self.s_axi_rvalid.eq(1), self.s_axi_rdata.eq(rf.rdata),
                         self.s_axi_rresp.eq(Mux(rf.hit, 0, 2))]
        with m.If(self.s_axi_bvalid & self.s_axi_bready):
            m.d.sync += self.s_axi_bvalid.eq(0)
        with m.If(self.s_axi_rvalid & self.s_axi_rready):
            m.d.sync += self.s_axi_rvalid.eq(0)
        return m


class WishboneWrap(wiring.Component):
    """Wishbone B4 classic slave (32-bit data, byte addresses ``wbs_adr_i``, ``wb_clk_i``, active-high
    ``wb_rst_i``) over the register map of :class:`RegisterMap`; ``irq`` as :class:`AxilWrap`'s.

    Every cycle is acknowledged one clock after ``cyc & stb`` (``ack`` or, for unmapped addresses and
    writes to read-only registers, ``err``), so a master that holds ``stb`` gets one access a cycle
    pair.
    """

    def __init__(self, core, name: str, rmap: RegisterMap):
        self.core, self.name, self.map = core, name, rmap
        super().__init__({
            "wb_clk_i": In(1), "wb_rst_i": In(1),
            "wbs_adr_i": In(rmap.addr_bits), "wbs_dat_i": In(32), "wbs_dat_o": Out(32), "wbs_sel_i": In(4),
            "wbs_we_i": In(1), "wbs_stb_i": In(1), "wbs_cyc_i": In(1), "wbs_ack_o": Out(1), "wbs_err_o": Out(1),
            "irq": Out(1)})

    def elaborate(self, platform):
        m = Module()
        _local_domain(m, self.wb_clk_i, self.wb_rst_i)
        m.submodules.regs = rf = RegisterFile(self.core, self.map)
        m.d.comb += self.irq.eq(rf.irq)
        req = Signal(name="req")
        m.d.comb += req.eq(self.wbs_cyc_i & self.wbs_stb_i & ~self.wbs_ack_o & ~self.wbs_err_o)
        m.d.comb += rf.addr.eq(self.wbs_adr_i)
        m.d.sync += [self.wbs_ack_o.eq(0), self.wbs_err_o.eq(0)]
        with m.If(req):
            ok = Signal(name="ok")
            m.d.comb += ok.eq(rf.hit & (~self.wbs_we_i | rf.writable))
            m.d.comb += [rf.wdata.eq(self.wbs_dat_i), rf.wstrb.eq(self.wbs_sel_i), rf.wr.eq(self.wbs_we_i & ok)]
            m.d.sync += [self.wbs_ack_o.eq(ok), self.wbs_err_o.eq(~ok), self.wbs_dat_o.eq(rf.rdata)]
        return m


def wrapper(kind: str, core, design: int):
    """The wrapper ``kind`` (a key of :data:`WRAPS`) around ``core``; its module name is the core's
    with the suffix of :data:`WRAPS`; ``design`` is the ``DESIGN`` register's value
    (:func:`pairhw.designs.design_id`)."""
    name = f"{core.name}_{WRAPS[kind]}"
    if kind == "axis":
        return AxisWrap(core, name)
    rmap = RegisterMap.of(core, design)
    return (AxilWrap if kind == "axil" else WishboneWrap)(core, name, rmap)


def c_header(name: str, bus: str, rmap: RegisterMap) -> str:
    """A C header for software on the system's processor: the register offsets, bits and shape of
    the map, and ``<name>_pairing()``, one pairing through a ``volatile uint32_t *`` base pointer."""
    up = name.upper()
    words, n_in, n_out = rmap.words, rmap.n_in, rmap.n_out
    lines = [f"/* {name}: {bus} register map of a pairhw pairing core (generated by pairhw; do not edit).",
             f" * Byte offsets from the wrapper's base address; 32-bit registers; map version {MAP_VERSION}. */",
             f"#ifndef {up}_H", f"#define {up}_H", "", "#include <stdint.h>", ""]
    for reg, off, acc in rmap.FIXED:
        lines.append(f"#define {up}_{reg:<9} 0x{off:03x}u  /* {acc}: {rmap.MEANING[reg]} */")
    lines += ["", f"#define {up}_CTRL_START     0x{rmap.CTRL_START:x}u",
              f"#define {up}_CTRL_IRQ_EN    0x{rmap.CTRL_IRQ_EN:x}u",
              f"#define {up}_STATUS_BUSY    0x{rmap.STATUS_BUSY:x}u",
              f"#define {up}_STATUS_DONE    0x{rmap.STATUS_DONE:x}u", "",
              f"#define {up}_ID_VALUE        0x{MAP_ID:08x}u",
              f"#define {up}_DESIGN_VALUE    0x{rmap.design:08x}u",
              f"#define {up}_VERSION_VALUE   0x{rmap.constants()['VERSION']:08x}u",
              f"#define {up}_CYCLES_VALUE    {rmap.cycles}u  /* run cycles of every pairing */",
              f"#define {up}_ELEMENT_BITS    {rmap.bits}u",
              f"#define {up}_WORDS           {words}u  /* 32-bit words per element, least significant first */",
              f"#define {up}_TOP_MASK        0x{(1 << (rmap.bits - 32 * (words - 1))) - 1:08x}u  "
              "/* the element's bits in its top word (the core ignores the others) */",
              f"#define {up}_INPUTS          {n_in}u",
              f"#define {up}_OUTPUTS         {n_out}u",
              f"#define {up}_IN(k, j)        (0x{rmap.IN_BASE:03x}u + 4u * ((k) * {up}_WORDS + (j)))",
              f"#define {up}_OUT(k, j)       (0x{rmap.out_base:03x}u + 4u * ((k) * {up}_WORDS + (j)))",
              f"#define {up}_SPAN            0x{rmap.size:x}u", "",
              f"/* One pairing: write in[{n_in}][{words}], start, poll DONE, read out[{n_out}][{words}].",
              " * Returns the run's cycles (CYCLES), -1 if the core is not this design or never finished",
              " * within `polls` reads of STATUS, or -2 if an input has bits above the element's width. */",
              f"static inline long {name}_pairing(volatile uint32_t *base, const uint32_t in[{n_in}][{words}],",
              f"                                  uint32_t out[{n_out}][{words}], unsigned long polls)",
              "{",
              f"    unsigned k, j;",
              f"    for (k = 0; k < {up}_INPUTS; k++)",
              f"        if (in[k][{up}_WORDS - 1] & ~{up}_TOP_MASK)",
              "            return -2;",
              f"    if (base[{up}_ID / 4] != {up}_ID_VALUE || base[{up}_DESIGN / 4] != {up}_DESIGN_VALUE)",
              "        return -1;",
              f"    for (k = 0; k < {up}_INPUTS; k++)",
              f"        for (j = 0; j < {up}_WORDS; j++)",
              f"            base[{up}_IN(k, j) / 4] = in[k][j];",
              f"    base[{up}_CTRL / 4] = {up}_CTRL_START;",
              f"    while (!(base[{up}_STATUS / 4] & {up}_STATUS_DONE))",
              "        if (polls-- == 0)",
              "            return -1;",
              f"    for (k = 0; k < {up}_OUTPUTS; k++)",
              f"        for (j = 0; j < {up}_WORDS; j++)",
              f"            out[k][j] = base[{up}_OUT(k, j) / 4];",
              f"    base[{up}_STATUS / 4] = {up}_STATUS_DONE;  /* write 1 to clear */",
              f"    return (long)base[{up}_CYCLES / 4];",
              "}", "", f"#endif /* {up}_H */", ""]
    return "\n".join(lines)


_DRIVER = '''"""Driver of {name}, the {bus} register wrapper of a pairhw pairing core (generated by pairhw; do
not edit).  No dependencies: give it the bus's 32-bit ``read(offset)`` and ``write(offset, value)``
(byte offsets from the wrapper's base), plain functions for :meth:`PairingDriver.pairing` or
coroutines for the ``*_async`` methods (a cocotb bus master, an asyncio client).

    drv = PairingDriver(read, write)
    outputs, cycles = drv.pairing([xP, yP, xQ, yQ])   # element values as integers (hardware words)
"""

MAP = {map!r}
WORDS = MAP["words_per_element"]
REG = {{k: v["offset"] for k, v in MAP["registers"].items()}}


class PairingError(RuntimeError):
    pass


class PairingDriver:
    def __init__(self, read, write, poll_limit=1_000_000):
        self.read, self.write, self.poll_limit = read, write, poll_limit

    # each step yields ("r", offset) or ("w", offset, value) and receives what a read returned;
    # the sync and async runners below drive the same steps
    def _identify(self):
        got = {{}}
        for key in ("ID", "VERSION", "DESIGN", "EXPECTED", "SHAPE"):
            got[key] = yield ("r", REG[key])
        if got["ID"] != MAP["id"] or got["VERSION"] & 0xFFFF != MAP["version"]:
            raise PairingError(f"not a pairhw register map of version {{MAP['version']}}: ID {{got['ID']:#x}}, "
                               f"VERSION {{got['VERSION']:#x}}")
        return {{"design": got["DESIGN"], "expected_cycles": got["EXPECTED"], "element_bits": got["VERSION"] >> 16,
                "inputs": got["SHAPE"] & 0xFF, "outputs": (got["SHAPE"] >> 8) & 0xFF,
                "words_per_element": (got["SHAPE"] >> 16) & 0xFF}}

    def _start(self, inputs, irq=False):
        if len(inputs) != MAP["inputs"]:
            raise PairingError(f"{{MAP['inputs']}} input elements, not {{len(inputs)}}")
        for k, v in enumerate(inputs):
            if not 0 <= v < 1 << MAP["element_bits"]:
                raise PairingError(f"input {{k}} is not a {{MAP['element_bits']}}-bit word")
            for j in range(WORDS):
                yield ("w", MAP["in_base"] + 4 * (k * WORDS + j), (v >> (32 * j)) & 0xFFFFFFFF)
        yield ("w", REG["CTRL"], MAP["ctrl"]["START"] | (MAP["ctrl"]["IRQ_EN"] if irq else 0))

    def _finish(self):
        for _ in range(self.poll_limit):
            status = yield ("r", REG["STATUS"])
            if status & MAP["status"]["DONE"]:
                break
        else:
            raise PairingError(f"STATUS.DONE not set after {{self.poll_limit}} reads")
        outputs = []
        for k in range(MAP["outputs"]):
            v = 0
            for j in range(WORDS):
                v |= (yield ("r", MAP["out_base"] + 4 * (k * WORDS + j))) << (32 * j)
            outputs.append(v)
        cycles = yield ("r", REG["CYCLES"])
        yield ("w", REG["STATUS"], MAP["status"]["DONE"])  # write 1 to clear
        return outputs, cycles

    def _pairing(self, inputs):
        yield from self._start(inputs)
        return (yield from self._finish())

    def _run(self, steps):
        value = None
        try:
            while True:
                op = steps.send(value)
                value = self.read(op[1]) if op[0] == "r" else self.write(op[1], op[2])
        except StopIteration as stop:
            return stop.value

    async def _run_async(self, steps):
        value = None
        try:
            while True:
                op = steps.send(value)
                value = await (self.read(op[1]) if op[0] == "r" else self.write(op[1], op[2]))
        except StopIteration as stop:
            return stop.value

    def identify(self):
        """The identification registers, checked against this map's ID and version."""
        return self._run(self._identify())

    def pairing(self, inputs):
        """One pairing: ([output elements], the run's cycles as the wrapper measured them)."""
        return self._run(self._pairing(inputs))

    async def identify_async(self):
        return await self._run_async(self._identify())

    async def start_async(self, inputs, irq=False):
        return await self._run_async(self._start(inputs, irq))

    async def finish_async(self):
        return await self._run_async(self._finish())

    async def pairing_async(self, inputs):
        return await self._run_async(self._pairing(inputs))
'''


def python_driver(name: str, bus: str, rmap: RegisterMap) -> str:
    """A dependency-free Python driver of the register map (sync and async bus accessors)."""
    return _DRIVER.format(name=name, bus=bus, map=rmap.describe())
