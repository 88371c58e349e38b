"""Search small binary supersingular parameter sets (dev helper; needs sympy).

For odd m with an irreducible trinomial x^m + x^k + 1 (smallest odd k, so that √x is sparse),
and b in {0, 1}: #E = 2^m + 1 ± 2^((m+1)/2) by seed 001 §2; prints the factorisation.
"""
import sys
from sympy import factorint
from pairhw.math.binary.field import is_irreducible

def order(m, b):
    sign = (-1) ** b if m % 8 in (1, 7) else -((-1) ** b)
    return 2 ** m + 1 + sign * 2 ** ((m + 1) // 2), sign

for m in range(int(sys.argv[1]), int(sys.argv[2]), 2):
    ks = [k for k in range(1, m) if is_irreducible((1 << m) | (1 << k) | 1)]
    if not ks:
        continue
    odd = [k for k in ks if k % 2 == 1 and k <= m // 2]
    k = odd[0] if odd else ks[0]
    for b in (0, 1):
        N, sign = order(m, b)
        f = factorint(N)
        r = max(f)
        print(m, k, b, "+" if sign > 0 else "-", N // r, r.bit_length(), f)
