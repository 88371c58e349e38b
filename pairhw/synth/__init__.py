"""Synthesis flows (Yosys for Xilinx 7-series LUTs and for gate equivalents; nextpnr-ecp5 Fmax)."""
