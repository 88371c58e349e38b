"""The register file's multiplexers as the schedule report counts them (Microcode.interconnect)."""

import copy
import re

import pytest

from pairhw import designs
from pairhw.designs import DesignError, from_data
from pairhw.program.microcode import instances, read_key


def _any_count(mc, key_banks):
    rams = {b.name for b in mc.dp.banks if b.write_ports}
    return sum(1 if b in rams else mc.sizes.get(b, 0) for b in key_banks)


def test_connect_any_reaches_every_register_of_a_ports_banks():
    mc = designs.get("f2-47-etat-banked").compile().microcode
    ic = mc.interconnect()
    assert ic["connect"] == "any" and ic["ram_banks"] == 0
    for p, u in instances(mc.dp):
        for port in range(u.ports):
            key = read_key(mc.dp, u, p, port)
            assert ic["ports"][key] == _any_count(mc, mc.dp.read_banks(u, port))
    assert ic["registers"] == sum(mc.sizes.values()) == 32
    assert ic["read_inputs"] == sum(ic["ports"].values()) and ic["read_inputs_max"] == max(ic["ports"].values())


def test_connect_program_counts_the_registers_the_words_address():
    """tate1-47-d4 builds only the connections its words use: a port reaches the registers its field
    addresses where the port is read, at most every register of its banks."""
    mc = designs.get("tate1-47-d4").compile().microcode
    ic = mc.interconnect()
    assert ic["connect"] == "program"
    _, reads = mc.connections()
    for p, u in instances(mc.dp):
        for port in range(u.ports):
            key = read_key(mc.dp, u, p, port)
            if key in ic["ports"]:
                addressed = {(b, k) for b, k in reads[key]}
                assert ic["ports"][key] == len(addressed) <= _any_count(mc, mc.dp.read_banks(u, port))
    assert ic["read_inputs"] < sum(_any_count(mc, mc.dp.read_banks(u, port)) for p, u in instances(mc.dp)
                                   for port in range(u.ports) if read_key(mc.dp, u, p, port) in ic["ports"])


def test_ram_banks_are_one_source_a_port_and_the_report_and_listing_say_it(capsys):
    from pairhw.cli import main

    rep = designs.get("f2-79-etat-tmvp3").report()
    assert rep["interconnect"]["ram_banks"] == 1 and rep["interconnect"]["read_inputs_max"] == 1
    assert main(["-q", "schedule", "f2-47-etat-banked"]) == 0
    line = next(ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("interconnect"))
    assert "8 unit ports reading 236 sources (at most 32 a port)" in line and "connect any" in line


def test_max_sources_is_a_bound_every_port_keeps():
    """datapath.max_sources: a design at its own widest port compiles, and every port is within the
    bound; one source fewer is refused naming the widest port (ports beyond the bound counted)."""
    base = designs.get("f2-47-etat-banked-ram")
    ports = base.compile().microcode.interconnect()["ports"]
    widest = max(ports.values())
    d = copy.deepcopy(base.data)
    d["datapath"]["max_sources"] = widest
    ic = from_data(d).compile().microcode.interconnect()
    assert ic["ports"] == ports and all(n <= widest for n in ic["ports"].values())
    d["datapath"]["max_sources"] = widest - 1
    over = sorted(k for k, n in ports.items() if n == widest)
    with pytest.raises(DesignError, match=rf"max_sources: unit input {re.escape(over[0])} chooses among "
                                          rf"{widest} sources, more than the bound {widest - 1}"):
        from_data(d).compile()
