"""AsipCore: Nagl et al.'s microcoded processor (seed 003 Fig. 1) for an :class:`AsipProgram`.

The instruction ROM holds :meth:`pairhw.asip.program.AsipProgram.rom`, one word per field operation
with its phase lengths, so the cycle count is the model's by construction; two single-port data
memories of N-bit words (synchronous read), a constant ROM of the same shape, the result register R
shared by the adder, squarer, square root and multiplier (Fig. 1c), and the multiplier's own state
(the multiplicand register A of a digit-serial product; the operand, PMX and result registers of the
iterative Karatsuba unit).

Protocol (the same as :class:`pairhw.cores.core.PairingCore`, with N-bit stream words): the inputs
arrive as W words each, least significant first, written straight into their memory slots; the run
starts the cycle after the last input word and takes exactly ``cycles`` cycles to the first output
word; the outputs leave in the same format.
"""

from __future__ import annotations

from amaranth import Const, Module, Mux, Signal
from amaranth.lib.memory import Memory

from pairhw.asip.program import OPS, SRCS
from pairhw.cores.core import StreamCore
from pairhw.rtl.binary import nets
from pairhw.rtl.binary.mulbase import reduction_columns


class AsipCore(StreamCore):
    """The ASIP running ``prog`` (see the module docstring).

    Parameters
    ----------
    prog : pairhw.asip.program.AsipProgram
        Its ``dp`` streams N-bit words; its ``microcode`` is the program itself.
    name : str
        Verilog module name.
    """

    def __init__(self, prog, name: str = "AsipCore"):
        super().__init__(prog, name)
        self.prog = prog
        self.cfg = prog.cfg

    # -- hardware ------------------------------------------------------------------------------
    def elaborate(self, platform):
        m = Module()
        prog, cfg = self.prog, self.cfg
        F = cfg.fi.F
        W, N, M = cfg.W, cfg.word, F.m
        fields = prog.fields()
        rom_w = prog.rom_words()
        depth = prog.slots * W
        m.submodules.mem0 = mem0 = Memory(shape=N, depth=depth, init=[])
        m.submodules.mem1 = mem1 = Memory(shape=N, depth=depth, init=[])
        crom_init = prog.const_words() or [0]
        m.submodules.crom = crom = Memory(shape=N, depth=len(crom_init), init=crom_init)
        m.submodules.irom = irom = Memory(shape=fields.width, depth=len(rom_w), init=rom_w)
        rd = [mem0.read_port(), mem1.read_port(), crom.read_port()]
        wr = [mem0.write_port(), mem1.write_port()]
        abits = max(depth, len(crom_init), 2).bit_length()

        # the instruction register and its fields
        pc = Signal(range(max(len(rom_w), 2)), name="pc")
        pc_next = Signal.like(pc, name="pc_next")
        ird = irom.read_port(domain="comb")
        m.d.comb += ird.addr.eq(pc_next)
        iw = Signal(ird.data.shape(), name="iw")
        pos = fields.offsets()

        def f(word, name):
            lo, width = pos[name]
            return word[lo:lo + width]

        loop = prog.loop
        lcnt = Signal(range(max(prog.pairs, 1) + 1), name="loop_cnt")
        # phases: 0 a, 1 b, 2 x, 3 w
        phase = Signal(2, name="phase")
        cnt = Signal(range(max(W + 2, max(cfg.x_cycles(i) for i in prog.rom()) + 1, 2)), name="cnt")
        R = Signal(W * N, name="R")
        A = Signal(M, name="A") if cfg.kind != "iter-karatsuba" else None

        def from_phase(word, ph):
            """The first phase ≥ ``ph`` that the instruction ``word`` has (4: none left)."""
            has = [f(word, "pha"), f(word, "phb"), f(word, "xlen") != 0, f(word, "wb") != 0]
            out = Const(4, 3)
            for p in reversed(range(ph, 4)):
                out = Mux(has[p], p, out)
            return out

        phase_len = Signal(range(max(W + 2, 2 ** pos["xlen"][1] + 1)), name="phase_len")
        with m.Switch(phase):
            with m.Case(0, 1):
                m.d.comb += phase_len.eq(W + 1)
            with m.Case(2):
                m.d.comb += phase_len.eq(f(iw, "xlen"))
            with m.Case(3):
                m.d.comb += phase_len.eq(W)
        phase_end = Signal(name="phase_end")
        m.d.comb += phase_end.eq(cnt == phase_len - 1)
        nxt = Signal(3, name="next_phase")
        with m.Switch(phase):
            for ph in range(4):
                with m.Case(ph):
                    m.d.comb += nxt.eq(from_phase(iw, ph + 1))

        # the next pc (the loop's jump back after the odd body)
        if loop:
            m.d.comb += pc_next.eq(Mux((pc == loop[1]) & (lcnt > 1), loop[0], pc + 1))
        else:
            m.d.comb += pc_next.eq(pc + 1)

        # memory reads: the a and b addresses of the current phase; data one cycle later
        op, asrc, bsrc = f(iw, "op"), f(iw, "asrc"), f(iw, "bsrc")
        a_base = Signal(abits, name="a_base")
        b_base = Signal(abits, name="b_base")
        m.d.comb += [a_base.eq(f(iw, "aslot") * W), b_base.eq(f(iw, "bslot") * W)]
        addr = [Signal(abits, name=f"raddr{i}") for i in range(3)]  # m0, m1, c
        data = [p.data for p in rd]

        def src_data(sel):
            return Mux(sel == 1, data[0], Mux(sel == 2, data[1], data[2]))

        # registered source selects: the data arriving this cycle was addressed last cycle
        asrc_d = Signal(2, name="asrc_d")
        bsrc_d = Signal(2, name="bsrc_d")
        m.d.sync += [asrc_d.eq(asrc), bsrc_d.eq(bsrc)]
        da, db = Signal(N, name="data_a"), Signal(N, name="data_b")
        m.d.comb += [da.eq(src_data(asrc_d)), db.eq(src_data(bsrc_d))]

        def present(sel, address):
            for i in range(3):
                with m.If(sel == i + 1):
                    m.d.comb += addr[i].eq(address)

        # digit-serial multiplier: request counters of b's words and digits
        lsd = cfg.kind != "iter-karatsuba"
        if lsd:
            D = cfg.digit
            per = N // D
            rq_w = Signal(range(W + 1), name="rq_word")
            rq_d = Signal(range(max(per, 2)), name="rq_digit")
            cd = Signal(range(max(per, 2)), name="cons_digit")

        out_e = Signal(range(max(len(prog.outputs), 2)), name="out_e")
        out_w = Signal(range(max(W, 2)), name="out_w")
        in_e = Signal(range(max(len(prog.inputs), 2)), name="in_e")
        in_w = Signal(range(max(W, 2)), name="in_w")
        primed = Signal(name="primed")

        widx = Signal(range(max(W + 1, 2)), name="widx")  # the word a read phase consumes: cnt - 1
        m.d.comb += widx.eq(cnt - 1)

        def set_word(reg, width, value):
            """Word ``widx`` of ``reg`` (``width`` bits) takes ``value(w)`` (the word's old bits given)."""
            with m.Switch(widx):
                for w in range(W):
                    with m.Case(w):
                        lo, hi = w * N, min(w * N + N, width)
                        if lo < width:
                            m.d.sync += reg[lo:hi].eq(value(reg[lo:hi])[:hi - lo])

        sq = nets.linear_net(m, R[:M], [F.sqr(1 << j) for j in range(M)], M, "sqr_net")
        sr = nets.linear_net(m, R[:M], [F.sqrt(1 << j) for j in range(M)], M, "sqrt_net")
        if lsd:
            digit = Signal(D, name="digit")
            with m.Switch(cd):
                for j in range(per):
                    with m.Case(j):
                        m.d.comb += digit.eq(db[j * D:(j + 1) * D])
            rows = [(A & digit[j].replicate(M)).as_unsigned() << j for j in range(D)]
            prod = Signal(M + D - 1, name="lsd_sum")
            m.d.comb += prod.eq(R[:M] ^ nets.xor_tree(rows))
            lsd_next = nets.linear_net(m, prod, reduction_columns(F, M + D - 1), M, "lsd_red")
            a_shift = nets.linear_net(m, A, [F.reduce(1 << (j + D)) for j in range(M)], M, "a_xd")
        else:  # the iterative Karatsuba unit reads both operands from the memories, a word pair a cycle
            unit = cfg.mul
            U = unit.initiation_interval
            krun = Signal(name="kara_run")
            kupc = Signal(range(max(U, 2)), name="kara_upc")
            m.d.comb += kupc.eq(cnt)
            ka, kb = unit.attach(m, krun, kupc, da, db)

        with m.FSM(init="LOAD"):
            with m.State("LOAD"):
                m.d.comb += self.i.ready.eq(1)
                for e, (name, rams, slot) in enumerate(prog.inputs):
                    with m.If(in_e == e):
                        for r in rams:
                            m.d.comb += [wr[r].addr.eq(slot * W + in_w), wr[r].data.eq(self.i.payload),
                                         wr[r].en.eq(self.i.valid)]
                with m.If(self.i.valid):
                    with m.If(in_w == W - 1):
                        m.d.sync += [in_w.eq(0), in_e.eq(in_e + 1)]
                        with m.If(in_e == len(prog.inputs) - 1):
                            m.d.sync += [in_e.eq(0), pc.eq(0), iw.eq(rom_w[0]), cnt.eq(0),
                                         phase.eq(from_phase(Const(rom_w[0], len(iw)), 0)),
                                         lcnt.eq(prog.pairs)]
                            m.next = "RUN"
                    with m.Else():
                        m.d.sync += in_w.eq(in_w + 1)
            with m.State("RUN"):
                m.d.comb += self.busy.eq(1)
                # the phase's work
                with m.Switch(phase):
                    with m.Case(0):  # a: operand a word by word into R (A for a digit-serial product)
                        with m.If(cnt < W):
                            present(asrc, a_base + cnt)
                            with m.If(f(iw, "par")):
                                present(bsrc, b_base + cnt)
                        with m.If(cnt != 0):
                            def load_r():
                                set_word(R, W * N, lambda old: da ^ Mux(f(iw, "par"), db, 0))

                            if lsd:
                                with m.If(op == OPS["mul"]):
                                    set_word(A, M, lambda old: da)
                                with m.Else():
                                    load_r()
                            else:
                                load_r()
                    with m.Case(1):  # b: R ^= b
                        with m.If(cnt < W):
                            present(bsrc, b_base + cnt)
                        with m.If(cnt != 0):
                            set_word(R, W * N, lambda old: old ^ db)
                    with m.Case(2):  # x: execute
                        with m.Switch(op):
                            with m.Case(OPS["sqr"]):
                                m.d.sync += R.eq(sq)
                            with m.Case(OPS["sqrt"]):
                                m.d.sync += R.eq(sr)
                            with m.Case(OPS["mul"]):
                                if lsd:
                                    present(bsrc, b_base + rq_w)
                                    m.d.sync += cd.eq(rq_d)
                                    with m.If(rq_d == per - 1):
                                        m.d.sync += [rq_d.eq(0), rq_w.eq(rq_w + 1)]
                                    with m.Else():
                                        m.d.sync += rq_d.eq(rq_d + 1)
                                    with m.If(cnt == 0):
                                        m.d.sync += R.eq(0)
                                        with m.If(asrc == SRCS["r"]):
                                            m.d.sync += A.eq(R[:M])
                                    with m.Else():
                                        m.d.sync += [R.eq(lsd_next), A.eq(a_shift)]
                                else:
                                    with m.If(cnt < U):
                                        m.d.comb += krun.eq(1)
                                        present(asrc, a_base + ka)
                                        present(bsrc, b_base + kb)
                                    with m.If(unit.done):
                                        m.d.sync += R.eq(unit.c)
                    with m.Case(3):  # w: R to the result's slot
                        for r in range(2):
                            with m.If(f(iw, "wb")[r]):
                                m.d.comb += [wr[r].addr.eq(f(iw, "dslot") * W + cnt), wr[r].en.eq(1)]
                        with m.Switch(cnt):
                            for w in range(W):
                                with m.Case(w):
                                    m.d.comb += [wr[0].data.eq(R[w * N:(w + 1) * N]),
                                                 wr[1].data.eq(R[w * N:(w + 1) * N])]
                # the sequencer
                with m.If(phase_end):
                    m.d.sync += cnt.eq(0)
                    if lsd:
                        m.d.sync += [rq_w.eq(0), rq_d.eq(0)]
                    with m.If(nxt == 4):
                        with m.If(f(iw, "last")):
                            m.d.sync += [out_e.eq(0), out_w.eq(0), primed.eq(0)]
                            m.next = "UNLOAD"
                        with m.Else():
                            m.d.sync += [pc.eq(pc_next), iw.eq(ird.data), phase.eq(from_phase(ird.data, 0))]
                            if loop:
                                with m.If((pc == loop[1]) & (lcnt > 1)):
                                    m.d.sync += lcnt.eq(lcnt - 1)
                    with m.Else():
                        m.d.sync += phase.eq(nxt)
                with m.Else():
                    m.d.sync += cnt.eq(cnt + 1)
            with m.State("UNLOAD"):
                fire = Signal(name="fire")
                m.d.comb += [self.o.valid.eq(primed), fire.eq(primed & self.o.ready)]
                m.d.sync += primed.eq(1)
                last_w = out_w == W - 1
                nxt_e = Mux(fire & last_w, out_e + 1, out_e)
                nxt_w = Mux(fire, Mux(last_w, 0, out_w + 1), out_w)
                for e, loc in enumerate(prog.outputs):
                    with m.If(out_e == e):
                        m.d.comb += self.o.payload.eq(data[SRCS[loc.src] - 1])
                    with m.If(nxt_e == e):
                        m.d.comb += addr[SRCS[loc.src] - 1].eq(loc.slot * W + nxt_w)
                with m.If(fire):
                    m.d.sync += [out_e.eq(nxt_e), out_w.eq(nxt_w)]
                    with m.If(last_w & (out_e == len(prog.outputs) - 1)):
                        m.d.sync += [out_e.eq(0), out_w.eq(0), primed.eq(0)]
                        m.next = "LOAD"
        for i, p in enumerate(rd):
            m.d.comb += p.addr.eq(addr[i])
        return m
