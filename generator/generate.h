/*
 * sudorules generators and minimal-puzzle counting, built only on the public core API (core.h).
 *
 * Three generators of minimal puzzles (D. Berthier, "Unbiased Statistics of a CSP - a Controlled-Bias
 * Generator", §IV.A and §V.A):
 *   bottom-up        add random clues until the puzzle has one solution, then delete redundant clues;
 *   top-down         from a complete grid, delete the clues in random order, putting a clue back when
 *                    its deletion gives several solutions;
 *   controlled-bias  from a complete grid, delete random clues; the first multi-solution puzzle discards
 *                    the grid (restart with a new one); the first minimal puzzle is the output.
 * and the subsets / supersets enumerations used to count minimal puzzles (forum post "Counting minimal
 * puzzles: subsets, supersets, etc.").
 *
 * Randomness: every puzzle (or counting sample, or input grid) `i` of a run with seed `seed` draws from
 * its own sr_rng seeded with sr_stream_seed(seed, i), so results do not depend on how the work is split
 * between threads or processes.  Every function is reentrant (no global mutable state, nothing to
 * initialise).  How it all works is explained once, at the top of generate.c.
 */
#ifndef SUDORULES_GENERATE_H
#define SUDORULES_GENERATE_H

#include <stddef.h>
#include <stdint.h>

#include "core.h"

#if !defined(__STDC_NO_ATOMICS__)
#include <stdatomic.h>
#define SR_ATOMIC_INT atomic_int
#else
#define SR_ATOMIC_INT volatile int /* no C11 atomics: a plain flag, written once, read often */
#endif

/* A request to stop, shared by every thread of one run: any thread sets it with sr_stop_request()
 * (the Python module does so on Ctrl-C), and the long loops below look at it between puzzles, grids
 * or samples, and every few hundred nodes of a counting enumeration; the work they return is then
 * complete up to the point where they stopped.  Initialise with sr_stop_init().  A NULL pointer
 * means "never stop". */
typedef struct {
    SR_ATOMIC_INT requested;
} sr_stop;

void sr_stop_init(sr_stop *stop);
void sr_stop_request(sr_stop *stop);
int sr_stop_requested(const sr_stop *stop);

/* Seconds on a monotonic clock (arbitrary origin): the clock of the counting deadlines. */
double sr_clock(void);

enum sr_method { SR_BOTTOM_UP = 0, SR_TOP_DOWN = 1, SR_CONTROLLED_BIAS = 2 };
enum sr_count_method { SR_SUBSETS = 0, SR_SUPERSETS = 1 };

/* The seed of stream `index` of the stream family `seed`: splitmix64(seed + (index + 1) * golden). */
uint64_t sr_stream_seed(uint64_t seed, uint64_t index);

/* One minimal puzzle by the bottom-up generator; returns its number of clues. */
int sr_bottom_up(sr_rng *rng, uint8_t *puzzle);

/* One minimal puzzle by the top-down generator from the complete grid `grid`; returns its clue count. */
int sr_top_down(sr_rng *rng, const uint8_t *grid, uint8_t *puzzle);

/* One controlled-bias try on the complete grid `grid`: a random deletion order is drawn from `rng`,
 * the first `untested` deletions are made without testing.  Returns the clue count of the minimal
 * puzzle written to `puzzle`, or 0 when this grid gives no puzzle (the generator moves to a new grid). */
int sr_cb_try(sr_rng *rng, const uint8_t *grid, int untested, uint8_t *puzzle);

/* The decision of one controlled-bias try for a given deletion order (order[i]: the cell deleted i-th,
 * a permutation of 0..80) on the complete valid grid `grid`: with P_k the puzzle of the k cells deleted
 * last, and P_high the one with fewest clues among the unique P_k, k <= 81 - untested (none when
 * P_{81-untested} is not unique), returns high and writes P_high to `puzzle` when P_high is minimal;
 * otherwise returns 0.  sr_cb_try is a random order (drawn from `rng`) and this. */
int sr_cb_path(const uint8_t *grid, const uint8_t *order, int untested, uint8_t *puzzle);

/* Puzzles first..first+count-1 of the run `seed` by `method`, complete grids from sr_random_grid.
 * puzzles: count*81 bytes; tries: count values (grids used: 0 for bottom-up, 1 for top-down).
 * weights: NULL, or count values receiving the sampling weight 1/P(grid | box 1) of the grid that
 * gave each puzzle (sr_random_grid_weighted; 0 for bottom-up): importance weights for uniform grids.
 * Returns the number k of puzzles made: count, or fewer when `stop` was requested (puzzles, tries and
 * weights then hold puzzles first..first+k-1, each complete and the same as in a full run). */
int64_t sr_generate_batch(int method, uint64_t seed, int64_t first, int64_t count, int untested,
                          uint8_t *puzzles, int64_t *tries, double *weights, const sr_stop *stop);

/* Top-down on the given complete grids (n*81 bytes), grid j using stream first+j; puzzles: n*81.
 * Returns the number of grids done: n, or fewer when `stop` was requested. */
int64_t sr_top_down_grids(const uint8_t *grids, int64_t n, uint64_t seed, int64_t first, uint8_t *puzzles,
                          const sr_stop *stop);

/* Controlled-bias tries on the given complete grids in order, grid j using stream first+j for its
 * deletion order.  Writes each puzzle found to `puzzles` (capacity n*81) and the index j of the grid
 * that gave it to `hits`; returns the number of puzzles found.  *done: the number of grids tried,
 * n unless `stop` was requested (the hits are then those of grids 0..*done-1). */
int64_t sr_cb_grids(const uint8_t *grids, int64_t n, uint64_t seed, int64_t first, int untested,
                    uint8_t *puzzles, int64_t *hits, const sr_stop *stop, int64_t *done);

/* Counting samples first..first+count-1: sample i draws a random complete grid and a uniform random
 * `size`-subset of it from stream i, then counts (subsets) the minimal puzzles included in that subset,
 * or (supersets) the minimal puzzles with at most `max_clues` clues that include it.  found: count*82
 * values, found[82*k + c] = number of c-clue minimal puzzles of sample first+k.
 * weights: NULL, or `count` values that receive each sample grid's sampling weight 1/P(grid | box 1)
 * from sr_random_grid_weighted (importance sampling: the mean of weight / N1 * X is exactly unbiased
 * for uniform grids, N1 = 9!-th of all grids); 0 for a sample that found nothing (X = 0).
 *
 * The run stops early when `stop` is requested or sr_clock() reaches `deadline` (HUGE_VAL: no
 * deadline); both are checked before each sample and every few hundred nodes of an enumeration.
 * Returns the number k of samples completed (k = count unless stopped; found and weights hold
 * samples first..first+k-1, the same as in a full run), and sets *abandoned to 1 when sample
 * first+k had been started and was left unfinished (its partial counts are not returned), else 0.
 * Returns -1 when there was no memory for the enumeration's first 16 KiB (its cache of visited
 * puzzles is capped, and emptied when it cannot grow). */
int64_t sr_count_batch(int method, uint64_t seed, int64_t first, int64_t count, int size, int max_clues,
                       int64_t *found, double *weights, const sr_stop *stop, double deadline, int *abandoned);

/* The same count for one given complete grid and subset (`chosen`: 81 flags, 1 = in the subset);
 * found: 82 values.  visited_slots: 0, or a smaller cap on the subsets enumeration's cache of
 * visited puzzles (the counts do not depend on it).  Returns 0, or -1 when out of memory. */
int sr_count_in(int method, const uint8_t *grid, const uint8_t *chosen, int max_clues, int64_t *found,
                size_t visited_slots);

#endif
