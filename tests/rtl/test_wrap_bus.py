"""The register wrappers keep the bus conventions (issue 48), in the Amaranth simulator on a small
core: AXI4-Lite and Wishbone decode by word (a byte access carries its byte address), a write to an
input while BUSY is refused and does not change the run, and bits above m are not stored."""

import pytest
from amaranth.sim import Simulator

from pairhw.designs import design_id, get
from pairhw.cores.wrap import RegisterMap, wrapper

D = "f2-47-etat-banked"


class Axil:
    """A minimal AXI4-Lite master over the simulator's context: one access at a time."""

    def __init__(self, ctx, dut):
        self.ctx, self.dut, self.clk = ctx, dut, dut.aclk

    async def write(self, addr, data, strb=0xF):
        c, d = self.ctx, self.dut
        c.set(d.s_axi_awaddr, addr), c.set(d.s_axi_wdata, data), c.set(d.s_axi_wstrb, strb)
        c.set(d.s_axi_awvalid, 1), c.set(d.s_axi_wvalid, 1), c.set(d.s_axi_bready, 1)
        while not c.get(d.s_axi_awready):
            await c.posedge(self.clk)
        await c.posedge(self.clk)
        c.set(d.s_axi_awvalid, 0), c.set(d.s_axi_wvalid, 0)
        while not c.get(d.s_axi_bvalid):
            await c.posedge(self.clk)
        resp = c.get(d.s_axi_bresp)
        await c.posedge(self.clk)
        return resp

    async def read(self, addr):
        c, d = self.ctx, self.dut
        c.set(d.s_axi_araddr, addr), c.set(d.s_axi_arvalid, 1), c.set(d.s_axi_rready, 1)
        while not c.get(d.s_axi_arready):
            await c.posedge(self.clk)
        await c.posedge(self.clk)
        c.set(d.s_axi_arvalid, 0)
        while not c.get(d.s_axi_rvalid):
            await c.posedge(self.clk)
        data, resp = c.get(d.s_axi_rdata), c.get(d.s_axi_rresp)
        await c.posedge(self.clk)
        return data, resp


class Wishbone:
    """A minimal Wishbone B4 classic master: one cycle at a time."""

    def __init__(self, ctx, dut):
        self.ctx, self.dut, self.clk = ctx, dut, dut.wb_clk_i

    async def _cycle(self, addr, we, data=0, sel=0xF):
        c, d = self.ctx, self.dut
        c.set(d.wbs_adr_i, addr), c.set(d.wbs_we_i, we), c.set(d.wbs_dat_i, data), c.set(d.wbs_sel_i, sel)
        c.set(d.wbs_cyc_i, 1), c.set(d.wbs_stb_i, 1)
        await c.posedge(self.clk)
        while not (c.get(d.wbs_ack_o) or c.get(d.wbs_err_o)):
            await c.posedge(self.clk)
        out = c.get(d.wbs_dat_o), 2 * c.get(d.wbs_err_o)  # 2: an error, as SLVERR
        c.set(d.wbs_cyc_i, 0), c.set(d.wbs_stb_i, 0)
        await c.posedge(self.clk)
        return out

    async def write(self, addr, data, strb=0xF):
        return (await self._cycle(addr, 1, data, strb))[1]

    async def read(self, addr):
        return await self._cycle(addr, 0)


@pytest.mark.parametrize("kind", ["axil", "wishbone"])
def test_word_decode_inputs_held_at_start_and_masked(kind):
    d = get(D)
    core = d.core()
    rm = RegisterMap.of(core, design_id(d.data))
    dut = wrapper(kind, core, design_id(d.data))
    fi, C = d.field, d.curve()
    P, Q = fi.vector_points(C, 5, 0)
    ins = list(fi.point_values(P, Q))
    expected = list(d.model(P, Q))
    words = rm.words
    top_bits = rm.bits - 32 * (words - 1)
    seen = {}

    clk = dut.aclk if kind == "axil" else dut.wb_clk_i

    async def clock(ctx):  # the wrapper's clock is a port (its bus's), not a domain of the test's
        while True:
            ctx.set(clk, 1)
            await ctx.delay(5e-9)
            ctx.set(clk, 0)
            await ctx.delay(5e-9)

    async def bench(ctx):
        if kind == "axil":
            ctx.set(dut.aresetn, 1)
        bus = Axil(ctx, dut) if kind == "axil" else Wishbone(ctx, dut)
        # a byte write at a byte address (0x103, strobe 1000) writes byte 3 of word 0x100
        assert await bus.write(rm.in_addr(0, 0) + 3, 0xAB000000, 0b1000) == 0
        seen["byte"] = await bus.read(rm.in_addr(0, 0) + 1)  # a read at a byte address reads its word
        # bits above m in an input's top word are not stored
        assert await bus.write(rm.in_addr(1, words - 1), 0xFFFFFFFF) == 0
        seen["top"] = (await bus.read(rm.in_addr(1, words - 1)))[0]
        for k, v in enumerate(ins):
            for j in range(words):
                assert await bus.write(rm.in_addr(k, j), (v >> (32 * j)) & 0xFFFFFFFF) == 0
        assert await bus.write(0x00C, 1) == 0  # START
        seen["busy_write"] = await bus.write(rm.in_addr(0, 0), 0x12345678)  # refused: the run has its inputs
        for _ in range(core.cycles + 200):
            status, _ = await bus.read(0x010)
            if status & rm.STATUS_DONE:
                break
        seen["outs"] = []
        for k in range(rm.n_out):
            v = 0
            for j in range(words):
                v |= (await bus.read(rm.out_addr(k, j)))[0] << (32 * j)
            seen["outs"].append(v)
        seen["in0"] = (await bus.read(rm.in_addr(0, 0)))[0]

    sim = Simulator(dut)
    sim.add_process(clock)
    sim.add_testbench(bench)
    sim.run()
    assert seen["byte"] == (0xAB000000, 0)
    assert seen["top"] == (1 << top_bits) - 1
    assert seen["busy_write"] == 2  # SLVERR / err
    assert seen["outs"] == expected
    assert seen["in0"] == ins[0] & 0xFFFFFFFF
