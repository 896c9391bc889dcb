/*
 * sudorules generators of minimal puzzles and minimal-puzzle counting, built only on the public core
 * API (core.h: the solver, its excluding count, the seeded rng and the random grid sampler).  C11
 * plus one extension, unsigned __int128 (GCC, Clang); no global mutable state: every table is const.
 * The API and its contracts are in generate.h; this comment explains how it works, once.
 *
 * ---------------------------------------------------------------------------------------------------
 * Data layout
 * ---------------------------------------------------------------------------------------------------
 * Everything works on one complete grid S at a time (grid_ctx: its 81 digits, the cells of each digit,
 * the unavoidable sets known so far) and represents a puzzle contained in S by the set of its clue
 * cells: a `cells` value, an unsigned 128-bit integer whose bit c is cell c = 9 * row + column (0..80,
 * row-major, the numbering of core.h); bits 81..127 are always 0.  Set algebra is then one or two
 * machine instructions: union |, intersection &, "iterate over the members" by repeatedly taking the
 * lowest bit (lowest(), then rest &= rest - 1), and the constant tables below give each cell's units
 * and peers as sets.  Units are numbered 0-8 (rows), 9-17 (columns), 18-26 (boxes, row-major).
 *
 * ---------------------------------------------------------------------------------------------------
 * Deciding uniqueness
 * ---------------------------------------------------------------------------------------------------
 * A puzzle m (clues of S) is unique when the core solver finds no solution but S (sr_count_solutions
 * with limit 2), and stays unique without clue c when no solution puts another digit in c
 * (sr_count_excluding, cheaper).  Three exact shortcuts avoid most solver calls:
 *
 *  - unavoidable sets: a set U of cells of S such that some other grid differs from S exactly on U.
 *    A puzzle with no clue in U has that other grid as a second solution, so it is not unique.  We
 *    collect, per grid, the two-row / two-column cycles (rows of one band or columns of one stack whose
 *    values on some columns / rows are the same sets), the two-digit cycles, and the difference sets
 *    of every second solution the solver returns (at most MAX_SETS sets of at most MAX_SET_SIZE
 *    cells: the small ones, which prune most).
 *  - monotony: deleting clues never turns a multi-solution puzzle into a unique one, so along one
 *    deletion path the unique puzzles form a prefix, found by bisection.
 *  - singles: when a clue of a unique puzzle is forced by a naked or hidden single from the other clues,
 *    deleting it keeps the puzzle unique (the same solutions), so that clue is redundant.
 *
 * ---------------------------------------------------------------------------------------------------
 * The three generators (D. Berthier, "Unbiased Statistics of a CSP - a Controlled-Bias Generator")
 * ---------------------------------------------------------------------------------------------------
 *  - bottom-up (sr_bottom_up): from the empty grid, add a uniformly random (cell, digit) pair among
 *    those that contradict no clue (a pair leaving no solution is taken back), until the puzzle is
 *    unique; then reduce_to_minimal: try the clues in a random order, deleting each one whose deletion
 *    keeps the puzzle unique.
 *  - top-down (sr_top_down): reduce_to_minimal from the full grid S.
 *  - controlled-bias (sr_cb_try): one random deletion order of the 81 cells; the puzzles along it are
 *    P_k (the k clues deleted last).  The first `untested` deletions are made without testing; the
 *    path's last unique puzzle P_high is found by bisection (a two-line cycle emptied early bounds it
 *    from below at no cost, and ends 4 tries in 5 before any solver call), and it is the output iff
 *    it is minimal; otherwise the grid is discarded and the caller draws a new one.
 *
 * ---------------------------------------------------------------------------------------------------
 * Random streams
 * ---------------------------------------------------------------------------------------------------
 * Unit i of a run with seed `seed` (puzzle i, counting sample i, or given grid i) draws everything
 * from its own xoshiro256** state seeded with sr_stream_seed(seed, i) = splitmix64(seed + (i + 1) *
 * golden ratio), so a result never depends on how the units are split between calls or threads.
 * Inside a stream the draws come in a fixed order: for a puzzle, the complete grid (sr_random_grid;
 * again for each grid a controlled-bias puzzle discards), then that grid's deletion order; for a
 * bottom-up puzzle, the (cell, digit) picks, then the deletion order; for a counting sample, the grid,
 * then a random permutation of the 81 cells whose first `size` cells are the sample's subset.  The
 * grid's sampling weight (sr_random_grid_weighted) is computed, when asked for, from a copy of the rng
 * state saved before the grid was drawn: the weighted sampler draws the same numbers, so the weight
 * belongs to that very grid, and the stream is left as without weights.
 *
 * ---------------------------------------------------------------------------------------------------
 * Counting (subsets and supersets, forum post "Counting minimal puzzles: subsets, supersets, etc.")
 * ---------------------------------------------------------------------------------------------------
 *  - subsets (subsets_visit): a depth-first walk over the unique puzzles inside the sample's subset A,
 *    each reached once, by deleting clues in increasing cell order (a node records the first cell it
 *    may still delete).  A node with no unique child is minimal when deleting any of its earlier
 *    ("frozen") clues is not unique either; such a puzzle, if unique, comes earlier in that order and
 *    was visited already, so a hash set of the visited nodes (cell_set) answers without the solver.
 *    Clues found necessary at a node stay necessary in all its sub-puzzles and are not tried again.
 *  - supersets (supersets_visit): a depth-first walk over A plus cells added in increasing order, up to
 *    max_clues clues, pruned when a clue is forced by singles (redundant in every super-puzzle too), or
 *    when the known unavoidable sets that the puzzle misses need more clues than are left (a greedy
 *    packing of disjoint ones gives a lower bound); each unique node is counted if minimal and not
 *    extended (its extensions are not minimal).
 * The cost per sample is heavy-tailed: from microseconds to hours (figures in sudorules/generation/count.py).
 *
 * ---------------------------------------------------------------------------------------------------
 * Stopping
 * ---------------------------------------------------------------------------------------------------
 * A run can be stopped from outside (sr_stop: one atomic flag shared by its threads, set on Ctrl-C)
 * and a counting batch also has a deadline (seconds on sr_clock, a monotonic clock).  The generators
 * look at the flag between puzzles and between grid tries; what they return is then the puzzles
 * completed, each the same as in a full run.  A counting batch looks at both before each sample and,
 * inside the enumeration, every CHECK_NODES nodes (walk_stopped); the sample in progress is then
 * abandoned whole (its partial counts are dropped) and the batch returns the samples completed.
 */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#endif
#include "generate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(_WIN32)
#include <windows.h>
#endif

#if !defined(__SIZEOF_INT128__)
#error "generate.c needs unsigned __int128 (GCC or Clang on a 64-bit target)"
#endif
typedef unsigned __int128 cells;

#define MAX_SETS 160
#define MAX_SET_SIZE 16

/* ---- bit operations: compiler builtins where there are some, plain C elsewhere ----------------- */

#if defined(__GNUC__) || defined(__clang__)
static inline int popcount64(uint64_t x) { return __builtin_popcountll(x); }
static inline int lowest64(uint64_t x) { return __builtin_ctzll(x); } /* x != 0 */
#else
static inline int popcount64(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}
static inline int lowest64(uint64_t x) { return popcount64((x & (0 - x)) - 1); } /* x != 0 */
#endif

static inline int popcount(cells m) { return popcount64((uint64_t)m) + popcount64((uint64_t)(m >> 64)); }

/* The lowest cell of m (m != 0). */
static inline int lowest(cells m) {
    uint64_t lo = (uint64_t)m;
    return lo ? lowest64(lo) : 64 + lowest64((uint64_t)(m >> 64));
}

/* ---- constant tables, built by the preprocessor ----------------------------------------------- */

#define REP3(T, n) T(n), T((n) + 1), T((n) + 2)
#define REP9(T, n) REP3(T, n), REP3(T, (n) + 3), REP3(T, (n) + 6)
#define REP27(T, n) REP9(T, n), REP9(T, (n) + 9), REP9(T, (n) + 18)
#define REP81(T) REP27(T, 0), REP27(T, 27), REP27(T, 54)

#define BIT(c) ((cells)1 << (c))
#define ROW0 ((cells)0x1FF)                                          /* cells 0-8 */
#define COLUMN0 (((cells)0x100 << 64) | (cells)0x8040201008040201ULL) /* cells 0, 9, ..., 72 */
#define BOX0 ((cells)0x1C0E07)                                        /* cells 0-2, 9-11, 18-20 */
#define ROW_OF(c) ((c) / 9)
#define COLUMN_OF(c) ((c) % 9)
#define BOX_OF(c) (3 * ((c) / 27) + (c) % 9 / 3)
#define UNIT_CELLS(u)                                                                           \
    ((u) < 9 ? ROW0 << (9 * (u)) : (u) < 18 ? COLUMN0 << ((u) - 9)                               \
                                           : BOX0 << (27 * (((u) - 18) / 3) + 3 * (((u) - 18) % 3)))
#define PEERS_OF(c)                                                                             \
    ((UNIT_CELLS(ROW_OF(c)) | UNIT_CELLS(9 + COLUMN_OF(c)) | UNIT_CELLS(18 + BOX_OF(c))) & ~BIT(c))
#define CELL_UNITS_OF(c) {ROW_OF(c), 9 + COLUMN_OF(c), 18 + BOX_OF(c)}
#define AT_LEAST_OF(i) (FULL & ~(BIT(i) - 1))

#define FULL (((cells)0x1FFFF << 64) | (cells)0xFFFFFFFFFFFFFFFFULL) /* the 81 cells */
static const cells UNITS[27] = {REP27(UNIT_CELLS, 0)};           /* the cells of each unit */
static const cells PEERS[81] = {REP81(PEERS_OF)};                /* the other cells of c's units */
static const int CELL_UNITS[81][3] = {REP81(CELL_UNITS_OF)};      /* c's row, column and box */
static const cells AT_LEAST[82] = {REP81(AT_LEAST_OF), AT_LEAST_OF(81)}; /* the cells c >= i */

uint64_t sr_stream_seed(uint64_t seed, uint64_t index) {
    uint64_t z = seed + (index + 1) * 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* ---- stopping ---------------------------------------------------------------------------------- */

void sr_stop_init(sr_stop *stop) {
#if !defined(__STDC_NO_ATOMICS__)
    atomic_init(&stop->requested, 0);
#else
    stop->requested = 0;
#endif
}

void sr_stop_request(sr_stop *stop) {
#if !defined(__STDC_NO_ATOMICS__)
    atomic_store_explicit(&stop->requested, 1, memory_order_relaxed);
#else
    stop->requested = 1;
#endif
}

int sr_stop_requested(const sr_stop *stop) {
    if (!stop) return 0;
#if !defined(__STDC_NO_ATOMICS__)
    /* (C11 before DR 459 takes no const pointer here; the load does not write) */
    return atomic_load_explicit(&((sr_stop *)stop)->requested, memory_order_relaxed);
#else
    return stop->requested;
#endif
}

double sr_clock(void) {
#if defined(_WIN32)
    return (double)GetTickCount64() / 1000.0;
#elif defined(CLOCK_MONOTONIC)
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + 1e-9 * (double)now.tv_nsec;
#else
    struct timespec now; /* C11's clock: not monotonic, but a deadline only needs seconds */
    timespec_get(&now, TIME_UTC);
    return (double)now.tv_sec + 1e-9 * (double)now.tv_nsec;
#endif
}

/* The stop request or the deadline has come. */
static int stop_due(const sr_stop *stop, double deadline) {
    return sr_stop_requested(stop) || (deadline < HUGE_VAL && sr_clock() >= deadline);
}

static void stream_rng(sr_rng *rng, uint64_t seed, uint64_t index) {
    sr_rng_seed(rng, sr_stream_seed(seed, index));
}

static void shuffle(sr_rng *rng, int *items, int n) {
    for (int i = 0; i < n; i++) items[i] = i;
    for (int i = n - 1; i > 0; i--) {
        int j = (int)sr_rng_below(rng, (uint32_t)i + 1);
        int t = items[i];
        items[i] = items[j];
        items[j] = t;
    }
}

/* ---- one complete grid and its known unavoidable sets ---------------------------------------- */

typedef struct {
    uint8_t grid[81];
    cells digit[10]; /* cells holding each digit */
    int nsets;
    cells sets[MAX_SETS];
} grid_ctx;

static void add_set(grid_ctx *g, cells set) {
    if (g->nsets < MAX_SETS && popcount(set) <= MAX_SET_SIZE) g->sets[g->nsets++] = set;
}

/* Two lines (rows of a band or columns of a stack): the cycles of the permutation that maps the
 * position of a value in the first line to its position in the second.  Each cycle is added to the
 * sets of g when `add`; when `position` is given, *emptied is lowered to the number of deletions (in
 * that order) after which some cycle has no clue left. */
static void line_pair_cycles(grid_ctx *g, const int *line_a, const int *line_b, int add,
                             const int *position, int *emptied) {
    int where_a[10], next[9], done[9] = {0};
    for (int k = 0; k < 9; k++) where_a[g->grid[line_a[k]]] = k;
    for (int k = 0; k < 9; k++) next[k] = where_a[g->grid[line_b[k]]];
    for (int k = 0; k < 9; k++) {
        if (done[k]) continue;
        cells set = 0;
        int last = 0;
        for (int j = k; !done[j]; j = next[j]) {
            done[j] = 1;
            if (add) set |= BIT(line_a[j]) | BIT(line_b[j]);
            if (position) {
                if (position[line_a[j]] > last) last = position[line_a[j]];
                if (position[line_b[j]] > last) last = position[line_b[j]];
            }
        }
        if (add) add_set(g, set);
        if (position && last + 1 < *emptied) *emptied = last + 1;
    }
}

/* All two-line cycles of the grid (see line_pair_cycles): in each band, rows (0,1), (0,2), (1,2), each
 * pair followed by the same pair of columns of the stack with the band's number. */
static void all_line_cycles(grid_ctx *g, int add, const int *position, int *emptied) {
    for (int band = 0; band < 3; band++)
        for (int i = 0; i < 3; i++)
            for (int j = i + 1; j < 3; j++) {
                int row_i[9], row_j[9], column_i[9], column_j[9];
                for (int k = 0; k < 9; k++) {
                    row_i[k] = 9 * (3 * band + i) + k;
                    row_j[k] = 9 * (3 * band + j) + k;
                    column_i[k] = 9 * k + 3 * band + i;
                    column_j[k] = 9 * k + 3 * band + j;
                }
                line_pair_cycles(g, row_i, row_j, add, position, emptied);
                line_pair_cycles(g, column_i, column_j, add, position, emptied);
            }
}

/* Two digits: the connected components of their 18 cells, where the two cells of a row, of a column
 * and of a block are linked (union-find over the nine a-cells 0..8 and the nine b-cells 9..17). */
static void digit_pair_sets(grid_ctx *g, int a, int b) {
    int cell[18], parent[18];
    int row_a[9], col_a[9], block_a[9];
    for (int k = 0; k < 18; k++) parent[k] = k;
    int n = 0;
    for (cells rest = g->digit[a]; rest; rest &= rest - 1) cell[n++] = lowest(rest);
    for (cells rest = g->digit[b]; rest; rest &= rest - 1) cell[n++] = lowest(rest);
    for (int k = 0; k < 9; k++) {
        row_a[cell[k] / 9] = k;
        col_a[cell[k] % 9] = k;
        block_a[CELL_UNITS[cell[k]][2] - 18] = k;
    }
    for (int k = 9; k < 18; k++) {
        int links[3] = {row_a[cell[k] / 9], col_a[cell[k] % 9], block_a[CELL_UNITS[cell[k]][2] - 18]};
        for (int l = 0; l < 3; l++) {
            int x = k, y = links[l];
            while (parent[x] != x) x = parent[x];
            while (parent[y] != y) y = parent[y];
            if (x != y) parent[x] = y;
        }
    }
    cells component[18] = {0};
    for (int k = 0; k < 18; k++) {
        int root = k;
        while (parent[root] != root) root = parent[root];
        component[root] |= BIT(cell[k]);
    }
    for (int k = 0; k < 18; k++)
        if (component[k] && popcount(component[k]) < 18) add_set(g, component[k]);
}

/* The grid and its two-line cycles (cheap); the two-digit sets are added by ctx_add_digit_sets. */
static void ctx_init(grid_ctx *g, const uint8_t *grid) {
    memcpy(g->grid, grid, 81);
    g->nsets = 0;
    all_line_cycles(g, 1, NULL, NULL);
    memset(g->digit, 0, sizeof g->digit);
    for (int c = 0; c < 81; c++) g->digit[grid[c]] |= BIT(c);
}

static void ctx_add_digit_sets(grid_ctx *g) {
    for (int a = 1; a <= 9; a++)
        for (int b = a + 1; b <= 9; b++) digit_pair_sets(g, a, b);
}

static void ctx_init_full(grid_ctx *g, const uint8_t *grid) {
    ctx_init(g, grid);
    ctx_add_digit_sets(g);
}

static void to_grid(const grid_ctx *g, cells m, uint8_t *out) {
    for (int c = 0; c < 81; c++) out[c] = (m >> c) & 1 ? g->grid[c] : 0;
}

/* Some known unavoidable set has no clue in m (so m has several solutions). */
static int misses_a_set(const grid_ctx *g, cells m) {
    for (int k = 0; k < g->nsets; k++)
        if (!(g->sets[k] & m)) return 1;
    return 0;
}

/* Keep the cells where another solution differs from S: an unavoidable set. */
static void harvest(grid_ctx *g, const uint8_t *other) {
    cells diff = 0;
    for (int c = 0; c < 81; c++)
        if (other[c] != g->grid[c]) diff |= BIT(c);
    if (diff) add_set(g, diff);
}

/* 1 when the puzzle m (clues of S) has S as its only solution. */
static int unique(grid_ctx *g, cells m) {
    if (misses_a_set(g, m)) return 0;
    uint8_t puzzle[81], solution[81];
    to_grid(g, m, puzzle);
    int n = sr_count_solutions(puzzle, 2, solution);
    if (n >= 2) harvest(g, solution);
    return n == 1;
}

/* For m known unique: 1 when m without clue c is still unique, i.e. has no solution with another
 * digit in c (the core's cheaper excluding count; the other solution it finds is harvested). */
static int unique_without(grid_ctx *g, cells m, int c) {
    cells without = m & ~BIT(c);
    if (misses_a_set(g, without)) return 0;
    uint8_t puzzle[81], other[81];
    to_grid(g, without, puzzle);
    if (!sr_count_excluding(puzzle, c, g->grid[c], 1, other)) return 1;
    harvest(g, other);
    return 0;
}

/* Clue c of m is forced by a naked or hidden single from the other clues of m. */
static int implied(const grid_ctx *g, cells m, int c) {
    int d = g->grid[c];
    cells others = m & ~BIT(c), seen_digits = others & PEERS[c];
    int naked = 1;
    for (int e = 1; e <= 9 && naked; e++)
        if (e != d && !(seen_digits & g->digit[e])) naked = 0;
    if (naked) return 1;
    cells same = others & g->digit[d], blocked = others;
    for (cells rest = same; rest; rest &= rest - 1) blocked |= PEERS[lowest(rest)];
    for (int u = 0; u < 3; u++)
        if (!(UNITS[CELL_UNITS[c][u]] & ~BIT(c) & ~blocked)) return 1;
    return 0;
}

/* Clues of m that are necessary because some known unavoidable set meets m in that clue only. */
static cells necessary_by_sets(const grid_ctx *g, cells m) {
    cells necessary = 0;
    for (int k = 0; k < g->nsets; k++) {
        cells hit = g->sets[k] & m;
        if (hit && !(hit & (hit - 1))) necessary |= hit;
    }
    return necessary;
}

/* m is unique (the caller knows it) and minimal; `necessary`: clues already known necessary. */
static int unique_is_minimal(grid_ctx *g, cells m, cells necessary) {
    for (cells rest = m; rest; rest &= rest - 1)
        if (implied(g, m, lowest(rest))) return 0;
    necessary |= necessary_by_sets(g, m);
    for (cells rest = m & ~necessary; rest; rest &= rest - 1)
        if (unique_without(g, m, lowest(rest))) return 0;
    return 1;
}

/* ---- the three generators -------------------------------------------------------------------- */

/* From the unique puzzle m, delete clues in random order while the puzzle stays unique. */
static cells reduce_to_minimal(sr_rng *rng, grid_ctx *g, cells m) {
    int order[81];
    shuffle(rng, order, 81);
    for (int i = 0; i < 81; i++) {
        int c = order[i];
        if (!((m >> c) & 1)) continue;
        if (implied(g, m, c) || unique_without(g, m, c)) m &= ~BIT(c);
    }
    return m;
}

int sr_top_down(sr_rng *rng, const uint8_t *grid, uint8_t *puzzle) {
    grid_ctx g;
    ctx_init(&g, grid);
    cells m = reduce_to_minimal(rng, &g, FULL);
    to_grid(&g, m, puzzle);
    return popcount(m);
}

int sr_bottom_up(sr_rng *rng, uint8_t *puzzle) {
    uint8_t p[81], solution[81];
    memset(p, 0, 81);
    for (;;) {
        /* a uniform random (empty cell, digit) pair among those that contradict no given */
        uint16_t allowed[81];
        uint32_t total = 0;
        for (int c = 0; c < 81; c++) {
            allowed[c] = 0;
            if (p[c]) continue;
            uint16_t used = 0;
            for (cells rest = PEERS[c]; rest; rest &= rest - 1) used |= (uint16_t)(1u << p[lowest(rest)]);
            allowed[c] = (uint16_t)(~used & 0x3FE);
            total += (uint32_t)popcount64(allowed[c]);
        }
        uint32_t pick = sr_rng_below(rng, total);
        int cell = 0, digit = 0;
        for (int c = 0; c < 81 && !digit; c++) {
            uint32_t n = (uint32_t)popcount64(allowed[c]);
            if (pick >= n) { pick -= n; continue; }
            uint16_t bits = allowed[c];
            while (pick--) bits &= (uint16_t)(bits - 1);
            cell = c;
            digit = lowest64(bits);
        }
        p[cell] = (uint8_t)digit;
        int n = sr_count_solutions(p, 2, solution);
        if (n == 0) p[cell] = 0; /* no solution: forget this clue, draw another */
        else if (n == 1) break;
    }
    grid_ctx g;
    ctx_init(&g, solution);
    cells m = 0;
    for (int c = 0; c < 81; c++)
        if (p[c]) m |= BIT(c);
    m = reduce_to_minimal(rng, &g, m);
    to_grid(&g, m, puzzle);
    return popcount(m);
}

int sr_cb_try(sr_rng *rng, const uint8_t *grid, int untested, uint8_t *puzzle) {
    int order[81], position[81];
    shuffle(rng, order, 81);
    for (int i = 0; i < 81; i++) position[order[i]] = i;
    if (untested < 0) untested = 0;
    if (untested > 64) untested = 64;
    /* a two-line cycle is emptied by the first `emptied` deletions: about 4 grids in 5 stop here.
     * (Adding the two-digit sets here costs more than it saves; the solver's second solutions
     * supply further sets during the bisection.) */
    grid_ctx g;
    memcpy(g.grid, grid, 81);
    int emptied = 82;
    all_line_cycles(&g, 0, position, &emptied);
    if (emptied <= untested) return 0;
    ctx_init(&g, grid);
    /* removed[i]: the cells deleted by the first i deletions; P_k = FULL & ~removed[81 - k] */
    cells removed[82];
    removed[0] = 0;
    for (int i = 0; i < 81; i++) removed[i + 1] = removed[i] | BIT(order[i]);
    /* bisection: P_high is unique, P_low is not (no unique puzzle has 16 clues or fewer) */
    int high = 81 - untested, low = 81 - emptied;
    if (low < 16) low = 16;
    if (high <= low) return 0;
    if (!unique(&g, FULL & ~removed[81 - high])) return 0;
    while (high - low > 1) {
        int mid = (high + low) / 2;
        if (unique(&g, FULL & ~removed[81 - mid])) high = mid;
        else low = mid;
    }
    /* P_high is the last unique puzzle of the path: the output iff it is minimal */
    cells m = FULL & ~removed[81 - high];
    cells next_deleted = high > 0 ? BIT(order[81 - high]) : 0;
    if (!unique_is_minimal(&g, m, next_deleted)) return 0;
    to_grid(&g, m, puzzle);
    return high;
}

int64_t sr_generate_batch(int method, uint64_t seed, int64_t first, int64_t count, int untested,
                          uint8_t *puzzles, int64_t *tries, double *weights, const sr_stop *stop) {
    uint8_t grid[81];
    for (int64_t k = 0; k < count; k++) {
        if (sr_stop_requested(stop)) return k;
        sr_rng rng, grid_rng;
        stream_rng(&rng, seed, (uint64_t)(first + k));
        uint8_t *out = puzzles + 81 * k;
        if (method == SR_BOTTOM_UP) {
            sr_bottom_up(&rng, out);
            tries[k] = 0;
            if (weights) weights[k] = 0.0;
            continue;
        }
        int64_t used = 0;
        do {
            if (used && sr_stop_requested(stop)) return k; /* (controlled-bias: many grids per puzzle) */
            grid_rng = rng;
            sr_random_grid(&rng, grid);
            used++;
        } while (method == SR_TOP_DOWN ? !sr_top_down(&rng, grid, out) : !sr_cb_try(&rng, grid, untested, out));
        tries[k] = used;
        /* the weighted sampler draws the same grid from the same state, more slowly: only once */
        if (weights) sr_random_grid_weighted(&grid_rng, grid, weights + k);
    }
    return count;
}

int64_t sr_top_down_grids(const uint8_t *grids, int64_t n, uint64_t seed, int64_t first, uint8_t *puzzles,
                          const sr_stop *stop) {
    for (int64_t j = 0; j < n; j++) {
        if (sr_stop_requested(stop)) return j;
        sr_rng rng;
        stream_rng(&rng, seed, (uint64_t)(first + j));
        sr_top_down(&rng, grids + 81 * j, puzzles + 81 * j);
    }
    return n;
}

int64_t sr_cb_grids(const uint8_t *grids, int64_t n, uint64_t seed, int64_t first, int untested,
                    uint8_t *puzzles, int64_t *hits, const sr_stop *stop, int64_t *done) {
    int64_t found = 0, j;
    for (j = 0; j < n && !sr_stop_requested(stop); j++) {
        sr_rng rng;
        stream_rng(&rng, seed, (uint64_t)(first + j));
        if (sr_cb_try(&rng, grids + 81 * j, untested, puzzles + 81 * found)) hits[found++] = j;
    }
    *done = j;
    return found;
}

/* ---- counting: subsets and supersets enumerations -------------------------------------------- */

/* A growable open-addressing set of non-zero cell sets. */
typedef struct {
    cells *keys;
    size_t capacity, size;
    int failed;
} cell_set;

static size_t slot_of(cells key, size_t capacity) {
    uint64_t h = (uint64_t)key * 0x9E3779B97F4A7C15ULL ^ (uint64_t)(key >> 64) * 0xC2B2AE3D27D4EB4FULL;
    h ^= h >> 29;
    return (size_t)h & (capacity - 1);
}

static int set_contains(const cell_set *s, cells key) {
    for (size_t i = slot_of(key, s->capacity);; i = (i + 1) & (s->capacity - 1)) {
        if (s->keys[i] == key) return 1;
        if (!s->keys[i]) return 0;
    }
}

static void set_insert(cell_set *s, cells key);

static void set_grow(cell_set *s) {
    cell_set bigger = {calloc(2 * s->capacity, sizeof(cells)), 2 * s->capacity, 0, 0};
    if (!bigger.keys) {
        s->failed = 1;
        return;
    }
    for (size_t i = 0; i < s->capacity; i++)
        if (s->keys[i]) set_insert(&bigger, s->keys[i]);
    free(s->keys);
    *s = bigger;
}

static void set_insert(cell_set *s, cells key) {
    if (2 * (s->size + 1) > s->capacity) {
        set_grow(s);
        if (s->failed) return;
    }
    size_t i = slot_of(key, s->capacity);
    while (s->keys[i] && s->keys[i] != key) i = (i + 1) & (s->capacity - 1);
    if (!s->keys[i]) {
        s->keys[i] = key;
        s->size++;
    }
}

static void set_clear(cell_set *s) {
    if (s->size) memset(s->keys, 0, s->capacity * sizeof(cells));
    s->size = 0;
}

/* One counting enumeration: its grid, visited set and counters, and when to give up. */
typedef struct {
    grid_ctx *g;
    cell_set *visited; /* subsets only */
    int64_t *found;    /* found[c]: c-clue minimal puzzles */
    int max_clues;     /* supersets only */
    const sr_stop *stop;
    double deadline;
    unsigned nodes;    /* nodes visited, for the periodic stop check */
    int stopped;       /* the stop request or the deadline came: unwind, the counts are partial */
} walk;

/* Called once per node: every CHECK_NODES nodes, look at the stop request and the clock.  A node
 * costs from ~0.1 us (a supersets node pruned at once) to ~100 us (a subsets node and its solver
 * calls), so the clock is read at most every ~25 us and a stop is seen within milliseconds
 * (measured: 0-30 ms past a deadline, subsets of sizes 39 and 60, supersets 20 / 27 and 22 / 29). */
#define CHECK_NODES 256
static int walk_stopped(walk *w) {
    if (!w->stopped && ++w->nodes % CHECK_NODES == 0) w->stopped = stop_due(w->stop, w->deadline);
    return w->stopped;
}

/* Subsets: visit every unique puzzle inside the subset, each once, by deleting clues in increasing
 * cell order (the node m was reached by deleting cells < `from`).  Clues in `necessary` are known to
 * be necessary for m and all its sub-puzzles.  A node without a unique child is minimal when, in
 * addition, deleting any of its earlier ("frozen") clues gives a non-unique puzzle; such a puzzle,
 * if unique, has a lexicographically earlier deletion sequence and so was visited already: the set
 * of visited nodes answers without the solver. */
static void subsets_visit(walk *w, cells m, int from, cells necessary) {
    if (walk_stopped(w)) return;
    grid_ctx *g = w->g;
    set_insert(w->visited, m);
    if (w->visited->failed) return;
    int children[81], nchildren = 0;
    for (cells rest = m & AT_LEAST[from] & ~necessary; rest; rest &= rest - 1) {
        int c = lowest(rest);
        if (implied(g, m, c) || unique_without(g, m, c)) children[nchildren++] = c;
        else necessary |= BIT(c);
    }
    for (int k = 0; k < nchildren; k++) {
        subsets_visit(w, m & ~BIT(children[k]), children[k] + 1, necessary);
        if (w->stopped || w->visited->failed) return;
    }
    if (nchildren) return;
    for (cells rest = m & ~AT_LEAST[from] & ~necessary; rest; rest &= rest - 1)
        if (set_contains(w->visited, m & ~BIT(lowest(rest)))) return;
    w->found[popcount(m)]++;
}

/* Supersets: every puzzle made of m plus cells >= `from` (and with at most max_clues clues) that has
 * no redundant clue; the unique ones that are minimal are counted.  A clue forced by singles stays
 * redundant in every super-puzzle, and a known unavoidable set that m misses must be hit by a cell
 * >= from, one clue for each of several disjoint ones: all three prune. */
static void supersets_visit(walk *w, cells m, int from) {
    if (walk_stopped(w)) return;
    grid_ctx *g = w->g;
    int clues = popcount(m), missed = 0;
    cells used = 0; /* greedy packing of disjoint missed sets: each needs one more clue */
    for (int k = 0; k < g->nsets; k++)
        if (!(g->sets[k] & m)) {
            cells reachable = g->sets[k] & AT_LEAST[from];
            if (!reachable) return;
            if (!(reachable & used)) {
                used |= reachable;
                if (clues + ++missed > w->max_clues) return;
            }
        }
    if (!missed && unique(g, m)) {
        if (unique_is_minimal(g, m, 0)) w->found[clues]++;
        return;
    }
    if (clues >= w->max_clues) return;
    for (cells rest = ~m & FULL & AT_LEAST[from]; rest; rest &= rest - 1) {
        int c = lowest(rest);
        cells bigger = m | BIT(c);
        int redundant = 0;
        for (cells each = bigger; each && !redundant; each &= each - 1) redundant = implied(g, bigger, lowest(each));
        if (!redundant) {
            supersets_visit(w, bigger, c + 1);
            if (w->stopped) return;
        }
    }
}

/* The minimal puzzles inside (subsets) or around (supersets) `subset`, by clue count, into w->found.
 * Returns 0, 1 when stopped (w->found partial), or -1 when out of memory. */
static int count_in_with(int method, walk *w, cells subset) {
    if (method == SR_SUBSETS) {
        if (unique(w->g, subset)) {
            set_clear(w->visited);
            subsets_visit(w, subset, 0, 0);
            if (w->visited->failed) return -1;
        }
    } else {
        int redundant = 0;
        for (cells each = subset; each && !redundant; each &= each - 1)
            redundant = implied(w->g, subset, lowest(each));
        if (!redundant) supersets_visit(w, subset, 0);
    }
    return w->stopped ? 1 : 0;
}

int sr_count_in(int method, const uint8_t *grid, const uint8_t *chosen, int max_clues, int64_t *found) {
    memset(found, 0, 82 * sizeof(int64_t));
    grid_ctx g;
    ctx_init_full(&g, grid);
    cells subset = 0;
    for (int c = 0; c < 81; c++)
        if (chosen[c]) subset |= BIT(c);
    cell_set visited = {calloc(1024, sizeof(cells)), 1024, 0, 0};
    if (!visited.keys) return -1;
    walk w = {&g, &visited, found, max_clues, NULL, HUGE_VAL, 0, 0};
    int status = count_in_with(method, &w, subset);
    free(visited.keys);
    return status;
}

int64_t sr_count_batch(int method, uint64_t seed, int64_t first, int64_t count, int size, int max_clues,
                       int64_t *found, double *weights, const sr_stop *stop, double deadline, int *abandoned) {
    *abandoned = 0;
    cell_set visited = {calloc(1024, sizeof(cells)), 1024, 0, 0};
    if (!visited.keys) return -1;
    int64_t k;
    for (k = 0; k < count && !stop_due(stop, deadline); k++) {
        int64_t *out = found + 82 * k;
        memset(out, 0, 82 * sizeof(int64_t));
        sr_rng rng;
        stream_rng(&rng, seed, (uint64_t)(first + k));
        uint8_t grid[81];
        sr_rng grid_rng = rng;
        sr_random_grid(&rng, grid);
        int order[81];
        shuffle(&rng, order, 81);
        cells subset = 0;
        for (int i = 0; i < size && i < 81; i++) subset |= BIT(order[i]);
        grid_ctx g;
        ctx_init_full(&g, grid);
        walk w = {&g, &visited, out, max_clues, stop, deadline, 0, 0};
        int status = count_in_with(method, &w, subset);
        if (status) {
            free(visited.keys);
            if (status < 0) return -1;
            memset(out, 0, 82 * sizeof(int64_t));
            *abandoned = 1;
            return k;
        }
        if (weights) {
            /* the weight only matters when something was found: recompute that grid (the weighted
             * sampler draws the same numbers and grid), which is much slower than drawing it */
            weights[k] = 0.0;
            int any = 0;
            for (int c = 0; c < 82; c++) any |= out[c] != 0;
            if (any) sr_random_grid_weighted(&grid_rng, grid, weights + k);
        }
    }
    free(visited.keys);
    return k;
}
