"""Write pairhw/params/*.json for the binary sets (dev helper; needs sympy for factoring).

The tests re-derive every number in these files (order formula, cofactor·r, primality of r,
irreducibility of f) without sympy, so the files are checked data, not trusted data.
"""
import json
from pathlib import Path
from sympy import factorint, isprime

OUT = Path(__file__).resolve().parent.parent / "pairhw" / "params"

GKZ = ("Granger-Kleinjung-Zumbragel (2014) put discrete logarithms in F_2^(4*1223) at about 59 bits; "
       "quasi-polynomial algorithms break all such small-characteristic embedding fields.")
SETS = [
    # name, m, middle, b, source, security
    ("f2-1223", 1223, [255], 0, "Adikari et al. (Adikari et al., SAC 2012), §2",
     "Designed for 128 bits; broken today: " + GKZ),
    ("f2-239", 239, [36], 1, "Shu–Kwon–Gaj (Shu, Kwon, Gaj, FPT 2006), §5",
     "Designed for 1024-bit-RSA-like MOV security (F_2^956); broken today: discrete logarithms in "
     "F_2^956 are far within reach of quasi-polynomial index calculus. " + GKZ),
    ("f2-283", 283, [12, 7, 5], 0, "Shu–Kwon–Gaj (Shu, Kwon, Gaj, FPT 2006), §5",
     "Designed for MOV security F_2^1132; broken today. " + GKZ),
    ("f2-113", 113, [9], 1, "pairhw test set (trinomial from the smallest odd k)", "Toy size for tests: no security."),
    ("f2-89", 89, [38], 0, "pairhw test set (even k: dense square root of x)", "Toy size for tests: no security."),
    ("f2-79", 79, [9], 0, "pairhw test set (same m mod 8 and b as f2-1223)", "Toy size for tests: no security."),
    ("f2-47", 47, [5], 1, "pairhw test set (same m mod 8 and b as f2-239)", "Toy size for tests: no security."),
    ("f2-29", 29, [2], 1, "pairhw test set", "Toy size for tests: no security."),
    ("f2-17", 17, [3], 0, "pairhw test set", "Toy size for tests: no security."),
    ("f2-11", 11, [2], 0, "pairhw test set (same m mod 8 and b as f2-283)", "Toy size for tests: no security."),
]

for name, m, middle, b, source, security in SETS:
    sign = (-1) ** b if m % 8 in (1, 7) else -((-1) ** b)
    N = 2 ** m + 1 + sign * 2 ** ((m + 1) // 2)
    f = factorint(N, limit=10 ** 6) if m > 200 else factorint(N)
    r = max(f)
    h = N // r
    assert isprime(r), (name, f)
    data = {
        "name": name,
        "family": "binary-supersingular",
        "field": {"char": 2, "m": m, "middle": middle},
        "curve": {"equation": "y^2 + y = x^3 + x + b", "b": b},
        "order_sign": sign,
        "order": str(N),
        "r": str(r),
        "cofactor": str(h),
        "embedding_degree": 4,
        "source": source,
        "security": security,
    }
    (OUT / f"{name}.json").write_text(json.dumps(data, indent=2) + "\n")
    print(name, "h =", h, "r bits =", r.bit_length())
