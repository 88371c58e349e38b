"""An optional compiled carry-less product for large F_2^m (the model's hot operation at m = 1223).

:func:`pairhw.math.binary.field.clmul` is the readable definition: a left-to-right comb in Python,
about 43 µs for two 1223-bit operands, and an ηT over F_2^1223 takes about 4,350 products.  This
module compiles the same comb in C once per machine (with the C compiler Verilator needs anyway) into
the results cache and calls it through ctypes: a few µs a product.  It is used only when it loads;
without a compiler, or with ``PAIRHW_NATIVE=0``, everything runs on the Python comb, with the same
results (the tests compare the two on random and edge operands of many sizes).

The C multiplies word by word with the CPU's carry-less multiply (PCLMULQDQ) where the CPU has it,
else by López–Dahab's comb with 4-bit windows over 64-bit words (Hankerson, Menezes, Vanstone,
*Guide to Elliptic Curve Cryptography*, Alg. 2.36): a table of the 16 multiples of ``a``, then for
each nibble position, from the top, every word of ``b`` adds its table entry, and the accumulator
shifts left by 4 between positions.  The tests check both against the Python comb.
"""

from __future__ import annotations

import ctypes
import os
import shutil
import subprocess
import sys
import tempfile
from functools import lru_cache
from pathlib import Path

#: set to 0 to use the Python comb alone
ENV = "PAIRHW_NATIVE"

SOURCE = r"""
#include <stdint.h>
#include <string.h>

/* out[0 .. na+nb) = a[0 .. na) * b[0 .. nb) over GF(2)[x], words least significant first */
void pairhw_clmul_comb(const uint64_t *a, int na, const uint64_t *b, int nb, uint64_t *out)
{
    int n = na + 1;                      /* a multiple of a has at most 64*na + 3 bits */
    uint64_t t[16][n];
    memset(t, 0, sizeof t);
    for (int w = 0; w < na; w++) t[1][w] = a[w];
    for (int k = 2; k < 16; k++) {
        if (k & 1) {
            for (int w = 0; w < n; w++) t[k][w] = t[k - 1][w] ^ t[1][w];
        } else {
            uint64_t carry = 0;          /* t[k] = t[k/2] * x */
            for (int w = 0; w < n; w++) {
                uint64_t v = t[k >> 1][w];
                t[k][w] = (v << 1) | carry;
                carry = v >> 63;
            }
        }
    }
    int m = na + nb;
    memset(out, 0, sizeof(uint64_t) * m);
    for (int s = 60; s >= 0; s -= 4) {
        for (int j = 0; j < nb; j++) {
            const uint64_t *row = t[(b[j] >> s) & 15];
            uint64_t *acc = out + j;
            for (int w = 0; w < n && j + w < m; w++) acc[w] ^= row[w];
        }
        if (s) {                         /* out <<= 4 */
            for (int w = m - 1; w > 0; w--) out[w] = (out[w] << 4) | (out[w - 1] >> 60);
            out[0] <<= 4;
        }
    }
}

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
/* the same product word by word with the CPU's carry-less multiply (PCLMULQDQ) */
__attribute__((target("pclmul,sse4.1")))
static void clmul_words(const uint64_t *a, int na, const uint64_t *b, int nb, uint64_t *out)
{
    memset(out, 0, sizeof(uint64_t) * (na + nb));
    for (int i = 0; i < na; i++) {
        __m128i ai = _mm_cvtsi64_si128((long long)a[i]);
        for (int j = 0; j < nb; j++) {
            __m128i p = _mm_clmulepi64_si128(ai, _mm_cvtsi64_si128((long long)b[j]), 0);
            out[i + j] ^= (uint64_t)_mm_cvtsi128_si64(p);
            out[i + j + 1] ^= (uint64_t)_mm_extract_epi64(p, 1);
        }
    }
}
#endif

int pairhw_has_pclmul(void)
{
#if defined(__x86_64__) || defined(__i386__)
    return __builtin_cpu_supports("pclmul");
#else
    return 0;
#endif
}

void pairhw_clmul(const uint64_t *a, int na, const uint64_t *b, int nb, uint64_t *out)
{
#if defined(__x86_64__) || defined(__i386__)
    if (__builtin_cpu_supports("pclmul")) {
        clmul_words(a, na, b, nb, out);
        return;
    }
#endif
    pairhw_clmul_comb(a, na, b, nb, out);
}
"""


def _compiler() -> str | None:
    return os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")


def _build(cc: str, path: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "clmul.c"
        src.write_text(SOURCE)
        out = Path(tmp) / "clmul.so"
        subprocess.run([cc, "-O2", "-shared", "-fPIC", "-o", str(out), str(src)], check=True,
                       capture_output=True, timeout=120)
        path.parent.mkdir(parents=True, exist_ok=True)
        os.replace(out, path)  # whole or not at all


@lru_cache(maxsize=None)
def library():
    """The compiled library (``pairhw_clmul``, ``pairhw_clmul_comb``, ``pairhw_has_pclmul``), or None:
    disabled, no compiler, or it failed."""
    if os.environ.get(ENV, "1") == "0":
        return None
    cc = _compiler()
    if cc is None:
        return None
    from pairhw.cache import cache_dir, digest, entry_lock

    try:
        version = subprocess.run([cc, "--version"], capture_output=True, text=True, timeout=30).stdout
        path = cache_dir("native") / f"clmul-{digest(SOURCE, version, sys.platform)}.so"
        if not path.exists():
            with entry_lock(path):
                if not path.exists():
                    _build(cc, path)
        lib = ctypes.CDLL(str(path))
    except (OSError, subprocess.SubprocessError):  # no usable compiler or cache: the Python comb serves
        return None
    for fn in (lib.pairhw_clmul, lib.pairhw_clmul_comb):
        fn.restype = None
        fn.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p]
    lib.pairhw_has_pclmul.restype = ctypes.c_int
    return lib


def clmul(a: int, b: int, comb: bool = False) -> int:
    """The carry-less product of ``a`` and ``b`` by the compiled comb (by the Python one when the
    library does not load here, e.g. a field unpickled on another machine); ``comb``: by the C comb
    even where the CPU multiplies (to test both)."""
    lib = library()
    if lib is None:
        from pairhw.math.binary.field import clmul as python_clmul

        return python_clmul(a, b)
    if a == 0 or b == 0:
        return 0
    na, nb = (a.bit_length() + 63) >> 6, (b.bit_length() + 63) >> 6
    out = ctypes.create_string_buffer(8 * (na + nb))
    (lib.pairhw_clmul_comb if comb else lib.pairhw_clmul)(a.to_bytes(8 * na, "little"), na,
                                                           b.to_bytes(8 * nb, "little"), nb, out)
    return int.from_bytes(out.raw, "little")
