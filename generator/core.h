/*
 * sudorules compiled core: the public C API of the bitset solver and the random grid maker.
 *
 * A grid crosses this API as 81 bytes, row-major (cell = 9*(row-1) + (column-1)), 0 for an empty
 * cell and 1..9 for a digit.  Every function is reentrant: no global state, no allocation.  The bit
 * layout used inside the solver is documented once, at the top of core.c.
 *
 * Randomness comes only from an explicit sr_rng (xoshiro256** seeded through splitmix64), so the same
 * seed always gives the same results on every platform.
 */
#ifndef SUDORULES_CORE_H
#define SUDORULES_CORE_H

#include <stdint.h>

/* Count the solutions of `grid`, stopping at `limit` (limit >= 1).  Returns min(count, limit);
 * 0 for contradictory givens (a digit repeated in a unit) or any unsolvable grid.  When the result is
 * >= 1 and `solution` is not NULL, the first solution found is written there (81 bytes). */
int sr_count_solutions(const uint8_t *grid, int limit, uint8_t *solution);

/* Like sr_count_solutions, counting only the solutions where cell `cell` (0..80) does not hold `digit`
 * (1..9); 0 when `grid` gives that very digit in that cell.  The cheap test behind minimality and
 * top-down generation: if `grid` has the unique solution S, removing the given at `cell` keeps the
 * solution unique exactly when sr_count_excluding(grid without it, cell, S[cell], 1, NULL) == 0. */
int sr_count_excluding(const uint8_t *grid, int cell, int digit, int limit, uint8_t *solution);

/* Count the solutions that give every cell k (0..80) one of the digits of `masks[k]` (bit d-1 set for
 * digit d: a pencilmark or "sukaku" puzzle), stopping at `limit`; as sr_count_solutions otherwise.
 * A cell whose mask has one digit is decided; a cell whose mask is empty makes the count 0. */
int sr_count_solutions_masked(const uint16_t *masks, int limit, uint8_t *solution);

/* 1 when no digit of `grid` is repeated in a row, column or box and no empty cell sees all nine
 * digits; 0 otherwise.  The check every puzzle read from text gets (sudorules.puzzle names the
 * reason of a 0 itself): no search, about 0.1 us. */
int sr_grid_consistent(const uint8_t *grid);

/* 1 when `grid` has exactly one solution and removing any single given gives two or more;
 * 0 otherwise (including no solution or several solutions). */
int sr_is_minimal(const uint8_t *grid);

/* Random number generator state: xoshiro256**. */
typedef struct {
    uint64_t s[4];
} sr_rng;

/* Seed `rng` from a 64-bit seed (splitmix64 expansion of the seed into the four state words). */
void sr_rng_seed(sr_rng *rng, uint64_t seed);

/* The next 64 random bits. */
uint64_t sr_rng_next(sr_rng *rng);

/* A uniformly distributed integer in [0, bound) (bound >= 1), without modulo bias. */
uint32_t sr_rng_below(sr_rng *rng, uint32_t bound);

/* Write a random complete valid grid to `grid` (81 bytes), drawing only from `rng`.
 * How it samples, and how far from uniform it may be, is explained in core.c. */
void sr_random_grid(sr_rng *rng, uint8_t *grid);

/* The same grid as sr_random_grid with the same rng state (it draws the same random numbers), and in
 * *weight the inverse of the probability with which the search drew it, before the final random
 * symmetry, given box 1: the product over the guess points of the number of viable digits.  Its mean
 * estimates the number of completions of a box (9!-th of all grids); its spread measures how far the
 * sampling is from uniform (see core.c).  Slower: every untried digit is tested. */
void sr_random_grid_weighted(sr_rng *rng, uint8_t *grid, double *weight);

/* For a complete valid grid: the weight sr_random_grid_weighted gives when its search draws exactly
 * this grid from the grid's own box 1 (the inverse of that probability); 0 for anything else. */
double sr_grid_weight(const uint8_t *grid);

#endif
