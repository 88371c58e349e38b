"""F_p units: Montgomery multipliers (pipelined, iterative), seed 002's polynomial Montgomery
multiplier, and the adder/subtractor and small-constant units mod p."""
