/*
 * The random number generator of core.h (splitmix64 seeding, xoshiro256**, Lemire's bounded draw) as
 * static inline functions, for the C files that draw in their inner loops (core.c's grid sampler,
 * generate.c's deletion orders).  The exported sr_rng_next / sr_rng_below are these same functions, so
 * a draw is the same wherever it is made; but a call across object files is not inlined, and a
 * controlled-bias deletion order (80 draws, one per grid tried) cost ~3,600 instructions through
 * sr_rng_below against ~1,950 inline on a local copy of the state (callgrind, 30,000 grids).
 */
#ifndef SUDORULES_RNG_H
#define SUDORULES_RNG_H

#include <stdint.h>

#include "core.h"

/* One step of splitmix64 (the seeding of sr_rng_seed and the stream seeds of generate.c). */
static inline uint64_t sr_splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static inline uint64_t sr_rotl64(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

/* The next 64 bits of xoshiro256**. */
static inline uint64_t sr_rng_step(sr_rng *rng)
{
    uint64_t *s = rng->s;
    uint64_t result = sr_rotl64(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = sr_rotl64(s[3], 45);
    return result;
}

/* A uniform integer in [0, bound), bound >= 1: Lemire's multiply-and-reject on the high 32 bits of each
 * 64-bit output (one output per draw, more only on a rejection, probability below bound / 2^32). */
static inline uint32_t sr_rng_bounded(sr_rng *rng, uint32_t bound)
{
    uint64_t m = (sr_rng_step(rng) >> 32) * (uint64_t)bound;
    uint32_t low = (uint32_t)m;
    if (low < bound) {
        uint32_t threshold = (0u - bound) % bound;
        while (low < threshold) {
            m = (sr_rng_step(rng) >> 32) * (uint64_t)bound;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

#endif
