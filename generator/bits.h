/*
 * Portable bit operations for the compiled core: count trailing zeros and population counts of 32- and
 * 64-bit words.  GCC and clang get their builtins (one instruction with -mbmi / -mpopcnt, a short
 * sequence otherwise), MSVC _BitScanForward / _BitScanForward64 and a branch-free popcount (__popcnt
 * would need a CPU with POPCNT, which MSVC does not check); any other C11 compiler a plain C fallback.  CTZ of 0 is undefined, as with the builtins: callers test the word first.
 * Defining SR_BITS_PLAIN selects the plain C fallback on any compiler: tests/test_c_portability.py builds
 * the core that way with gcc and clang and checks that it generates the same puzzles.
 */
#ifndef SUDORULES_BITS_H
#define SUDORULES_BITS_H

#include <stdint.h>

#if (defined(__GNUC__) || defined(__clang__)) && !defined(SR_BITS_PLAIN)
static inline int sr_ctz32(uint32_t x) { return __builtin_ctz(x); }
static inline int sr_ctz64(uint64_t x) { return __builtin_ctzll(x); }
static inline int sr_popcount32(uint32_t x) { return __builtin_popcount(x); }
static inline int sr_popcount64(uint64_t x) { return __builtin_popcountll(x); }
#elif defined(_MSC_VER) && !defined(SR_BITS_PLAIN)
#include <intrin.h>
static __inline int sr_ctz32(uint32_t x)
{
    unsigned long i;
    _BitScanForward(&i, x);
    return (int)i;
}
#if defined(_M_X64) || defined(_M_ARM64)
static __inline int sr_ctz64(uint64_t x)
{
    unsigned long i;
    _BitScanForward64(&i, x);
    return (int)i;
}
#else
static __inline int sr_ctz64(uint64_t x)
{
    return (uint32_t)x ? sr_ctz32((uint32_t)x) : 32 + sr_ctz32((uint32_t)(x >> 32));
}
#endif
static __inline int sr_popcount32(uint32_t x)
{
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return (int)((((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
}
static __inline int sr_popcount64(uint64_t x) { return sr_popcount32((uint32_t)x) + sr_popcount32((uint32_t)(x >> 32)); }
#else
static inline int sr_ctz32(uint32_t x)
{
    int n = 0;
    while (!(x & 1u)) {
        x >>= 1;
        ++n;
    }
    return n;
}
static inline int sr_ctz64(uint64_t x)
{
    return (uint32_t)x ? sr_ctz32((uint32_t)x) : 32 + sr_ctz32((uint32_t)(x >> 32));
}
static inline int sr_popcount64(uint64_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    return (int)((((x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full) * 0x0101010101010101ull) >> 56);
}
static inline int sr_popcount32(uint32_t x) { return sr_popcount64(x); }
#endif

#endif
