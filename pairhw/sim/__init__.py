"""Simulation flows: the Amaranth simulator for small units, Verilator for full-size ones."""
