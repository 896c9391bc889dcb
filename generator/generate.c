/*
 * sudorules generators of minimal puzzles and minimal-puzzle counting, built only on the public core
 * API (core.h: the solver, its excluding count, the seeded rng and the random grid sampler).  Plain
 * C11 (bit operations through bits.h); no global mutable state: every table is const.  The API and
 * its contracts are in generate.h; this comment explains how it works, once.
 *
 * ---------------------------------------------------------------------------------------------------
 * Data layout
 * ---------------------------------------------------------------------------------------------------
 * Everything works on one complete grid S at a time and represents a puzzle contained in S by the set
 * of its clue cells, a `cells` value: two 64-bit words, bit c of `lo` for cell c = 9 * row + column
 * (0..63, row-major, the numbering of core.h) and bit c - 64 of `hi` for cells 64..80 (bits 17..63 of
 * `hi` are always 0).  Set algebra is one or two machine instructions per operation (c_or, c_and,
 * c_minus; c_meets tests an intersection), and "iterate over the members" takes the lowest cell
 * (c_lowest) and drops it (c_drop_lowest).  (A C struct rather than GCC's unsigned __int128: the
 * same instructions, and MSVC and -pedantic accept it.)
 *
 *        cell c:    0 ......................... 63 | 64 ............ 80
 *        word:      lo bit 0 ............... bit 63 | hi bit 0 .. bit 16
 *
 * Units are numbered 0-8 (rows), 9-17 (columns), 18-26 (boxes, row-major); the const tables UNITS,
 * PEERS and AT_LEAST (built by the preprocessor) give each unit's cells, each cell's peers and the
 * cells >= i as `cells`.  One grid and what is known of it live in a grid_ctx: its 81 digits, the
 * cells of each digit (digit[1..9]) and the unavoidable sets found so far (sets[], below).
 *
 * Lines (for the two-line cycles below) are numbered 0-8 (rows) and 9-17 (columns); LINE_CELLS[l][k]
 * is the k-th cell of line l, so a subset of a line is a 9-bit mask over k.  The 18 line pairs that
 * share a band or a stack are LINE_PAIRS[p] (band/stack t, pair of lines (0,1), (0,2), (1,2) inside
 * it: rows, then columns).  A controlled-bias deletion path is the permutation order[0..80] of the
 * cells (order[i] is deleted i-th), with position[] its inverse and removed[i] the set of the first i
 * deleted; P_k, the puzzle of the k cells deleted last, is FULL minus removed[81 - k].
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
 *  - singles: when a clue of a puzzle is forced by a naked or hidden single from the other clues,
 *    deleting it keeps the solutions, so that clue is redundant; and it stays forced in every puzzle
 *    that contains this one (more clues only remove more candidates), so no such puzzle is minimal.
 *
 * ---------------------------------------------------------------------------------------------------
 * The three generators (D. Berthier, "Unbiased Statistics of a CSP - a Controlled-Bias Generator")
 * ---------------------------------------------------------------------------------------------------
 *  - bottom-up (sr_bottom_up): from the empty grid, add a uniformly random (cell, digit) pair among
 *    those that contradict no clue (a pair leaving no solution is taken back), until the puzzle is
 *    unique; then reduce_to_minimal: try the clues in a random order, deleting each one whose deletion
 *    keeps the puzzle unique.
 *  - top-down (sr_top_down): reduce_to_minimal from the full grid S.
 *  - controlled-bias (sr_cb_try): one random deletion order of the 81 cells.  The first `untested`
 *    deletions are made without testing; the output is P_high, the last unique puzzle of the path
 *    (the one with fewest clues), iff it is minimal; otherwise the grid is discarded and the caller
 *    draws a new one.  About 220,000 grids are tried per puzzle, so the cost per grid is everything;
 *    sr_cb_path (the try after its draws) decides in this order, each step exact, the cheap ones
 *    first (figures: callgrind over 30,000 grids at -O3, instructions a grid, beside the ~13,000 of
 *    the grid sampler and ~1,950 of the deletion order's 80 draws; the try as a whole went from
 *    ~22,600 to ~7,700 with the same results):
 *      1. a two-line cycle whose cells are all among the first `untested` deleted empties P_{81-untested}
 *         (not unique, no output): 73 % of the grids stop here.  For each line pair, the positions k
 *         where both cells were deleted are narrowed to the largest union of cycles inside them (keep a
 *         position while the digit of each of its cells occurs in the other line's kept positions):
 *         a fixpoint over ~3 positions, ~2,100 for the 18 pairs (the line masks included) against
 *         ~5,000 to list every cycle of the grid with the deletion ranks of its cells as before;
 *      2. the first deletion count `emptied` that empties some two-line cycle bounds the path from
 *         below (P_low, low = 81 - emptied, is not unique), and a clue of P_{low+1} forced by singles
 *         is forced in P_high too (P_high contains P_{low+1}), so P_high is not minimal: 90 % of the
 *         grids left stop here, with no solver call (~1,400 for `emptied`, ~400 for the singles);
 *      3. the rest (2.6 % of the grids): the solver on P_{81-untested}, then bisection between low and
 *         high for P_high (each non-unique answer raises low and repeats the singles test of step 2),
 *         then the minimality test (singles, the known sets, then sr_count_excluding per clue left):
 *         ~1,300 a grid on average, ~9,400 before step 2 existed (a grid in 4 reached the solver).
 *
 * ---------------------------------------------------------------------------------------------------
 * Random streams
 * ---------------------------------------------------------------------------------------------------
 * Unit i of a run with seed `seed` (puzzle i, counting sample i, or given grid i) draws everything
 * from its own xoshiro256** state seeded with sr_stream_seed(seed, i) = splitmix64(seed + (i + 1) *
 * golden ratio), so a result never depends on how the units are split between calls or threads.
 * Inside a stream the draws come in a fixed order: for a puzzle, the complete grid (sr_random_grid;
 * again for each grid a controlled-bias puzzle discards), then that grid's deletion order (80 draws
 * of a Fisher-Yates shuffle, whether or not the grid is then tested); for a bottom-up puzzle, the
 * (cell, digit) picks, then the deletion order; for a counting sample, the grid, then a random
 * permutation of the 81 cells whose first `size` cells are the sample's subset.  The grid's sampling
 * weight (sr_random_grid_weighted) is computed, when asked for, from a copy of the rng state saved
 * before the grid was drawn: the weighted sampler draws the same numbers, so the weight belongs to
 * that very grid, and the stream is left as without weights.  The shortcuts above change which tests
 * are made, never a draw or a result: the outputs of a seed are those of the plain definitions.
 *
 * ---------------------------------------------------------------------------------------------------
 * Counting (subsets and supersets, forum post "Counting minimal puzzles: subsets, supersets, etc.")
 * ---------------------------------------------------------------------------------------------------
 *  - subsets (subsets_visit): a depth-first walk over the unique puzzles inside the sample's subset A,
 *    each reached once, by deleting clues in increasing cell order (a node records the first cell it
 *    may still delete).  A node with no unique child is minimal when deleting any of its earlier
 *    ("frozen") clues is not unique either; such a puzzle, if unique, comes earlier in that order and
 *    was visited already, so a hash set of the visited nodes (cell_set) answers without the solver.
 *    The set is a cache of at most VISITED_SLOTS slots: a sample can visit billions of nodes (a
 *    --size 81 run grew it to 24 GB in 30 s), so when it is full it is emptied, and from then on a
 *    puzzle it does not hold is asked of the solver instead (a miss no longer proves "not unique").
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

#include "bits.h"
#include "rep.h"
#include "rng.h"

#define MAX_SETS 160
#define MAX_SET_SIZE 16

/* ---- sets of cells (the layout: head comment) ------------------------------------------------- */

typedef struct {
    uint64_t lo; /* cells 0..63 */
    uint64_t hi; /* cells 64..80, bits 0..16 */
} cells;

static inline cells cells_of(uint64_t lo, uint64_t hi) {
    cells m;
    m.lo = lo;
    m.hi = hi;
    return m;
}
static inline cells c_or(cells a, cells b) { return cells_of(a.lo | b.lo, a.hi | b.hi); }
static inline cells c_and(cells a, cells b) { return cells_of(a.lo & b.lo, a.hi & b.hi); }
static inline cells c_minus(cells a, cells b) { return cells_of(a.lo & ~b.lo, a.hi & ~b.hi); } /* a \ b */
static inline int c_any(cells a) { return (a.lo | a.hi) != 0; }
static inline int c_meets(cells a, cells b) { return ((a.lo & b.lo) | (a.hi & b.hi)) != 0; }
static inline int c_equal(cells a, cells b) { return a.lo == b.lo && a.hi == b.hi; }
static inline int c_count(cells m) { return sr_popcount64(m.lo) + sr_popcount64(m.hi); }
/* exactly one cell */
static inline int c_single(cells m) {
    return m.lo ? !(m.lo & (m.lo - 1)) && !m.hi : m.hi && !(m.hi & (m.hi - 1));
}
static inline cells c_bit(int c) {
    return c < 64 ? cells_of((uint64_t)1 << c, 0) : cells_of(0, (uint64_t)1 << (c - 64));
}
static inline int c_has(cells m, int c) { return (int)((c < 64 ? m.lo >> c : m.hi >> (c - 64)) & 1u); }
static inline cells c_with(cells m, int c) { return c_or(m, c_bit(c)); }
static inline cells c_without(cells m, int c) { return c_minus(m, c_bit(c)); }
/* The lowest cell of m (m not empty), and m without it. */
static inline int c_lowest(cells m) { return m.lo ? sr_ctz64(m.lo) : 64 + sr_ctz64(m.hi); }
static inline cells c_drop_lowest(cells m) {
    if (m.lo) m.lo &= m.lo - 1;
    else m.hi &= m.hi - 1;
    return m;
}

/* ---- constant tables, built by the preprocessor ----------------------------------------------- */

/* Bit c of a `cells` as its two words (shift counts masked, so that no branch of the constant
 * expressions shifts out of range). */
#define LO_BIT(c) ((c) < 64 ? (uint64_t)1 << ((c) & 63) : (uint64_t)0)
#define HI_BIT(c) ((c) >= 64 ? (uint64_t)1 << ((c) & 63) : (uint64_t)0)
#define ROW_OF(c) ((c) / 9)
#define COLUMN_OF(c) ((c) % 9)
#define BOX_OF(c) (3 * ((c) / 27) + (c) % 9 / 3)
/* The k-th cell (0..8) of unit u (rows 0-8, columns 9-17, boxes 18-26, row-major inside a box). */
#define UNIT_CELL(u, k)                                                                           \
    ((u) < 9 ? 9 * (u) + (k)                                                                      \
     : (u) < 18 ? 9 * (k) + (u) - 9                                                               \
                : 27 * (((u) - 18) / 3) + 3 * (((u) - 18) % 3) + 9 * ((k) / 3) + (k) % 3)
#define UNIT_WORD(W, u)                                                                           \
    (W(UNIT_CELL(u, 0)) | W(UNIT_CELL(u, 1)) | W(UNIT_CELL(u, 2)) | W(UNIT_CELL(u, 3)) |          \
     W(UNIT_CELL(u, 4)) | W(UNIT_CELL(u, 5)) | W(UNIT_CELL(u, 6)) | W(UNIT_CELL(u, 7)) |          \
     W(UNIT_CELL(u, 8)))
#define PEER_WORD(W, c)                                                                           \
    ((UNIT_WORD(W, ROW_OF(c)) | UNIT_WORD(W, 9 + COLUMN_OF(c)) | UNIT_WORD(W, 18 + BOX_OF(c))) &  \
     ~W(c))
#define HI_ALL ((uint64_t)0x1FFFF) /* cells 64..80 */
#define UNIT_OF(u) {UNIT_WORD(LO_BIT, u), UNIT_WORD(HI_BIT, u)}
#define PEERS_OF(c) {PEER_WORD(LO_BIT, c), PEER_WORD(HI_BIT, c)}
#define AT_LEAST_OF(i)                                                                            \
    {(i) < 64 ? ~(uint64_t)0 << ((i) & 63) : (uint64_t)0,                                         \
     (i) <= 64 ? HI_ALL : (HI_ALL << ((i) & 63)) & HI_ALL}
#define CELL_UNITS_OF(c) {ROW_OF(c), 9 + COLUMN_OF(c), 18 + BOX_OF(c)}
#define REP27(T, n) REP16(T, n), REP4(T, (n) + 16), REP4(T, (n) + 20), T((n) + 24), T((n) + 25), T((n) + 26)
#define REP81(T) REP27(T, 0), REP27(T, 27), REP27(T, 54)

static const cells FULL = {~(uint64_t)0, HI_ALL};                    /* the 81 cells */
static const cells UNITS[27] = {REP27(UNIT_OF, 0)};                  /* the cells of each unit */
static const cells PEERS[81] = {REP81(PEERS_OF)};                    /* the other cells of c's units */
static const uint8_t CELL_UNITS[81][3] = {REP81(CELL_UNITS_OF)};     /* c's row, column and box */
static const cells AT_LEAST[82] = {REP81(AT_LEAST_OF), AT_LEAST_OF(81)}; /* the cells c >= i */

/* LINE_CELLS[l][k]: cell k of line l (rows 0-8, columns 9-17). */
#define LINE_CELL(l, k) ((l) < 9 ? 9 * (l) + (k) : 9 * (k) + (l) - 9)
#define LINE_OF(l)                                                                                \
    {LINE_CELL(l, 0), LINE_CELL(l, 1), LINE_CELL(l, 2), LINE_CELL(l, 3), LINE_CELL(l, 4),         \
     LINE_CELL(l, 5), LINE_CELL(l, 6), LINE_CELL(l, 7), LINE_CELL(l, 8)}
static const uint8_t LINE_CELLS[18][9] = {REP16(LINE_OF, 0), LINE_OF(16), LINE_OF(17)};
/* LINE_PAIRS[p]: the two lines of pair p = 6 t + 2 q + s: band (s = 0, rows) or stack (s = 1,
 * columns) t, lines (0,1), (0,2), (1,2) of it for q = 0, 1, 2. */
#define PAIR_LINE(p, side) (9 * ((p) % 2) + 3 * ((p) / 6) + ((side) ? ((p) / 2 % 3 == 0 ? 1 : 2) : ((p) / 2 % 3 == 2)))
#define PAIR_OF(p) {PAIR_LINE(p, 0), PAIR_LINE(p, 1)}
static const uint8_t LINE_PAIRS[18][2] = {REP16(PAIR_OF, 0), PAIR_OF(16), PAIR_OF(17)};

uint64_t sr_stream_seed(uint64_t seed, uint64_t index) {
    uint64_t x = seed + index * 0x9E3779B97F4A7C15ULL; /* the first output from there: seed + (index + 1) * golden */
    return sr_splitmix64(&x);
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

/* A uniformly random permutation of 0..n-1, n <= 81 (Fisher-Yates from the end: n - 1 draws). */
static void shuffle(sr_rng *rng, uint8_t *items, int n) {
    sr_rng local = *rng; /* in registers: the byte stores below could alias *rng */
    for (int i = 0; i < n; i++) items[i] = (uint8_t)i;
    for (int i = n - 1; i > 0; i--) {
        int j = (int)sr_rng_bounded(&local, (uint32_t)i + 1);
        uint8_t t = items[i];
        items[i] = items[j];
        items[j] = t;
    }
    *rng = local;
}

/* ---- one complete grid and its known unavoidable sets ---------------------------------------- */

typedef struct {
    uint8_t grid[81];
    cells digit[10]; /* cells holding each digit */
    int nsets;
    cells sets[MAX_SETS];
} grid_ctx;

static void add_set(grid_ctx *g, cells set) {
    if (g->nsets < MAX_SETS && c_count(set) <= MAX_SET_SIZE) g->sets[g->nsets++] = set;
}

/* The cycles of line pair p: the permutation that maps the position k of a digit in the first line to
 * its position in the second splits the positions into cycles, and the cells of each cycle (both
 * lines) form an unavoidable set (swap the two lines' digits there).  pair_next writes that
 * permutation: next[k] is the position in the first line of the digit at k in the second. */
static void pair_next(const uint8_t *grid, int p, uint8_t *next) {
    const uint8_t *a = LINE_CELLS[LINE_PAIRS[p][0]], *b = LINE_CELLS[LINE_PAIRS[p][1]];
    uint8_t where_a[10];
    for (int k = 0; k < 9; k++) where_a[grid[a[k]]] = (uint8_t)k;
    for (int k = 0; k < 9; k++) next[k] = where_a[grid[b[k]]];
}

/* The cycles of line pair p as 9-bit masks of positions, in order of their lowest position; returns
 * their number. */
static int pair_cycles(const uint8_t *grid, int p, uint32_t *cycles) {
    uint8_t next[9];
    pair_next(grid, p, next);
    int n = 0;
    for (uint32_t left = 0x1FF; left;) {
        int k = sr_ctz32(left), j = k;
        uint32_t cycle = 0;
        do {
            cycle |= 1u << j;
            j = next[j];
        } while (j != k);
        left &= ~cycle;
        cycles[n++] = cycle;
    }
    return n;
}

/* The cells of the positions `mask` of line pair p (both lines). */
static cells pair_cells(int p, uint32_t mask) {
    const uint8_t *a = LINE_CELLS[LINE_PAIRS[p][0]], *b = LINE_CELLS[LINE_PAIRS[p][1]];
    cells set = cells_of(0, 0);
    for (; mask; mask &= mask - 1) {
        int k = sr_ctz32(mask);
        set = c_or(set, c_or(c_bit(a[k]), c_bit(b[k])));
    }
    return set;
}

/* 1 when some cycle of line pair p lies inside the positions `both` (9-bit mask).  The largest union
 * of cycles inside `both` is what remains when positions are dropped, as long as some are, whose
 * first-line digit is not among the second line's digits there, or the reverse: a cycle inside
 * `both` is never dropped, and what remains has the same digits in both lines, so it is a union of
 * cycles.  Each round drops at least one position. */
static int cycle_within(const uint8_t *grid, int p, uint32_t both) {
    const uint8_t *a = LINE_CELLS[LINE_PAIRS[p][0]], *b = LINE_CELLS[LINE_PAIRS[p][1]];
    while (both & (both - 1)) { /* a cycle has two positions or more */
        uint32_t digits_a = 0, digits_b = 0;
        for (uint32_t rest = both; rest; rest &= rest - 1) {
            int k = sr_ctz32(rest);
            digits_a |= 1u << grid[a[k]];
            digits_b |= 1u << grid[b[k]];
        }
        if (digits_a == digits_b) return 1;
        uint32_t keep = 0;
        for (uint32_t rest = both; rest; rest &= rest - 1) {
            int k = sr_ctz32(rest);
            keep |= (digits_b >> grid[a[k]] & digits_a >> grid[b[k]] & 1u) << k;
        }
        both = keep;
    }
    return 0;
}

/* The number of deletions of the path (position[]: the deletion rank of each cell) after which a
 * two-line cycle first has no clue left: 1 + the latest position in it, least over all cycles. */
static int cycles_emptied(const uint8_t *grid, const int *position) {
    int emptied = 82;
    for (int p = 0; p < 18; p++) {
        const uint8_t *a = LINE_CELLS[LINE_PAIRS[p][0]], *b = LINE_CELLS[LINE_PAIRS[p][1]];
        uint8_t next[9];
        int last[9]; /* the later deletion of the two cells at each position */
        pair_next(grid, p, next);
        for (int k = 0; k < 9; k++) last[k] = position[a[k]] > position[b[k]] ? position[a[k]] : position[b[k]];
        for (uint32_t left = 0x1FF; left;) {
            int k = sr_ctz32(left), j = k, latest = 0;
            do {
                left &= ~(1u << j);
                if (last[j] > latest) latest = last[j];
                j = next[j];
            } while (j != k);
            if (latest + 1 < emptied) emptied = latest + 1;
        }
    }
    return emptied;
}

/* Two digits: the connected components of their 18 cells, where the two cells of a row, of a column
 * and of a block are linked (union-find over the nine a-cells 0..8 and the nine b-cells 9..17). */
static void digit_pair_sets(grid_ctx *g, int a, int b) {
    int cell[18], parent[18];
    int row_a[9], col_a[9], block_a[9];
    for (int k = 0; k < 18; k++) parent[k] = k;
    int n = 0;
    for (cells rest = g->digit[a]; c_any(rest); rest = c_drop_lowest(rest)) cell[n++] = c_lowest(rest);
    for (cells rest = g->digit[b]; c_any(rest); rest = c_drop_lowest(rest)) cell[n++] = c_lowest(rest);
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
    cells component[18];
    for (int k = 0; k < 18; k++) component[k] = cells_of(0, 0);
    for (int k = 0; k < 18; k++) {
        int root = k;
        while (parent[root] != root) root = parent[root];
        component[root] = c_with(component[root], cell[k]);
    }
    for (int k = 0; k < 18; k++)
        if (c_any(component[k]) && c_count(component[k]) < 18) add_set(g, component[k]);
}

/* The grid and the cells of each digit; no sets yet. */
static void ctx_grid(grid_ctx *g, const uint8_t *grid) {
    memcpy(g->grid, grid, 81);
    g->nsets = 0;
    for (int d = 0; d < 10; d++) g->digit[d] = cells_of(0, 0);
    for (int c = 0; c < 64; c++) g->digit[grid[c]].lo |= (uint64_t)1 << c;
    for (int c = 64; c < 81; c++) g->digit[grid[c]].hi |= (uint64_t)1 << (c - 64);
}

/* The sets of the two-line cycles (cheap); the two-digit sets are added by ctx_add_digit_sets. */
static void ctx_add_line_sets(grid_ctx *g) {
    for (int p = 0; p < 18; p++) {
        uint32_t cycles[9];
        int n = pair_cycles(g->grid, p, cycles);
        for (int i = 0; i < n; i++) add_set(g, pair_cells(p, cycles[i]));
    }
}

static void ctx_init(grid_ctx *g, const uint8_t *grid) {
    ctx_grid(g, grid);
    ctx_add_line_sets(g);
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
    for (int c = 0; c < 64; c++) out[c] = (m.lo >> c) & 1u ? g->grid[c] : 0;
    for (int c = 64; c < 81; c++) out[c] = (m.hi >> (c - 64)) & 1u ? g->grid[c] : 0;
}

/* Some known unavoidable set has no clue in m (so m has several solutions). */
static int misses_a_set(const grid_ctx *g, cells m) {
    for (int k = 0; k < g->nsets; k++)
        if (!c_meets(g->sets[k], m)) return 1;
    return 0;
}

/* Keep the cells where another solution differs from S: an unavoidable set. */
static void harvest(grid_ctx *g, const uint8_t *other) {
    cells diff = cells_of(0, 0);
    for (int c = 0; c < 81; c++)
        if (other[c] != g->grid[c]) diff = c_with(diff, c);
    if (c_any(diff)) add_set(g, diff);
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
    cells without = c_without(m, c);
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
    cells others = c_without(m, c), seen_digits = c_and(others, PEERS[c]);
    int naked = 1;
    for (int e = 1; e <= 9 && naked; e++)
        if (e != d && !c_meets(seen_digits, g->digit[e])) naked = 0;
    if (naked) return 1;
    cells same = c_and(others, g->digit[d]), blocked = others;
    for (cells rest = same; c_any(rest); rest = c_drop_lowest(rest)) blocked = c_or(blocked, PEERS[c_lowest(rest)]);
    for (int u = 0; u < 3; u++)
        if (!c_any(c_minus(c_without(UNITS[CELL_UNITS[c][u]], c), blocked))) return 1;
    return 0;
}

/* Some clue of m is forced by singles from the others: m, and every puzzle that contains m, is not
 * minimal (head comment, "singles"). */
static int some_clue_implied(const grid_ctx *g, cells m) {
    for (cells rest = m; c_any(rest); rest = c_drop_lowest(rest))
        if (implied(g, m, c_lowest(rest))) return 1;
    return 0;
}

/* Clues of m that are necessary because some known unavoidable set meets m in that clue only. */
static cells necessary_by_sets(const grid_ctx *g, cells m) {
    cells necessary = cells_of(0, 0);
    for (int k = 0; k < g->nsets; k++) {
        cells hit = c_and(g->sets[k], m);
        if (c_single(hit)) necessary = c_or(necessary, hit);
    }
    return necessary;
}

/* m is unique (the caller knows it) and minimal; `necessary`: clues already known necessary. */
static int unique_is_minimal(grid_ctx *g, cells m, cells necessary) {
    if (some_clue_implied(g, m)) return 0;
    necessary = c_or(necessary, necessary_by_sets(g, m));
    for (cells rest = c_minus(m, necessary); c_any(rest); rest = c_drop_lowest(rest))
        if (unique_without(g, m, c_lowest(rest))) return 0;
    return 1;
}

/* ---- the three generators -------------------------------------------------------------------- */

/* From the unique puzzle m, delete clues in random order while the puzzle stays unique. */
static cells reduce_to_minimal(sr_rng *rng, grid_ctx *g, cells m) {
    uint8_t order[81];
    shuffle(rng, order, 81);
    for (int i = 0; i < 81; i++) {
        int c = order[i];
        if (!c_has(m, c)) continue;
        if (implied(g, m, c) || unique_without(g, m, c)) m = c_without(m, c);
    }
    return m;
}

int sr_top_down(sr_rng *rng, const uint8_t *grid, uint8_t *puzzle) {
    grid_ctx g;
    ctx_init(&g, grid);
    cells m = reduce_to_minimal(rng, &g, FULL);
    to_grid(&g, m, puzzle);
    return c_count(m);
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
            for (cells rest = PEERS[c]; c_any(rest); rest = c_drop_lowest(rest))
                used |= (uint16_t)(1u << p[c_lowest(rest)]);
            allowed[c] = (uint16_t)(~used & 0x3FE);
            total += (uint32_t)sr_popcount32(allowed[c]);
        }
        uint32_t pick = sr_rng_bounded(rng, total);
        int cell = 0, digit = 0;
        for (int c = 0; c < 81 && !digit; c++) {
            uint32_t n = (uint32_t)sr_popcount32(allowed[c]);
            if (pick >= n) {
                pick -= n;
                continue;
            }
            uint16_t bits = allowed[c];
            while (pick--) bits &= (uint16_t)(bits - 1);
            cell = c;
            digit = sr_ctz32(bits);
        }
        p[cell] = (uint8_t)digit;
        int n = sr_count_solutions(p, 2, solution);
        if (n == 0) p[cell] = 0; /* no solution: forget this clue, draw another */
        else if (n == 1) break;
    }
    grid_ctx g;
    ctx_init(&g, solution);
    cells m = cells_of(0, 0);
    for (int c = 0; c < 81; c++)
        if (p[c]) m = c_with(m, c);
    m = reduce_to_minimal(rng, &g, m);
    to_grid(&g, m, puzzle);
    return c_count(m);
}

int sr_cb_try(sr_rng *rng, const uint8_t *grid, int untested, uint8_t *puzzle) {
    uint8_t order[81];
    shuffle(rng, order, 81); /* every draw of the try: sr_cb_path decides without the rng */
    return sr_cb_path(grid, order, untested, puzzle);
}

int sr_cb_path(const uint8_t *grid, const uint8_t *order, int untested, uint8_t *puzzle) {
    if (untested < 0) untested = 0;
    if (untested > 64) untested = 64;
    /* 1. a two-line cycle inside the first `untested` deletions (head comment): lines[l] holds the
     * positions of line l deleted untested (the complement of those kept: 35 cells, not 46) */
    uint32_t lines[18] = {0};
    for (int i = untested; i < 81; i++) {
        int c = order[i], row = c / 9, column = c - 9 * row;
        lines[row] |= 1u << column;
        lines[9 + column] |= 1u << row;
    }
    for (int l = 0; l < 18; l++) lines[l] ^= 0x1FFu;
    for (int p = 0; p < 18; p++)
        if (cycle_within(grid, p, lines[LINE_PAIRS[p][0]] & lines[LINE_PAIRS[p][1]])) return 0;
    /* 2. bounds, and singles in the smallest puzzle the output may contain */
    int position[81];
    for (int i = 0; i < 81; i++) position[order[i]] = i;
    int high = 81 - untested, low = 81 - cycles_emptied(grid, position);
    if (low < 16) low = 16; /* no unique puzzle has 16 clues or fewer */
    if (high <= low) return 0;
    /* removed[i]: the cells deleted by the first i deletions; P_k = FULL \ removed[81 - k] */
    cells removed[82];
    removed[0] = cells_of(0, 0);
    for (int i = 0; i < 81; i++) removed[i + 1] = c_with(removed[i], order[i]);
    grid_ctx g;
    ctx_grid(&g, grid);
    if (some_clue_implied(&g, c_minus(FULL, removed[80 - low]))) return 0;
    /* 3. P_high is unique, P_low is not: bisection */
    ctx_add_line_sets(&g);
    if (!unique(&g, c_minus(FULL, removed[81 - high]))) return 0;
    while (high - low > 1) {
        int mid = (high + low) / 2;
        if (unique(&g, c_minus(FULL, removed[81 - mid]))) {
            high = mid;
        } else {
            low = mid;
            if (some_clue_implied(&g, c_minus(FULL, removed[80 - low]))) return 0;
        }
    }
    /* P_high is the last unique puzzle of the path: the output iff it is minimal */
    cells m = c_minus(FULL, removed[81 - high]);
    cells next_deleted = high > 0 ? c_bit(order[81 - high]) : cells_of(0, 0);
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

/* A growable open-addressing set of non-zero cell sets, of at most `limit` slots (a power of 2): past
 * that (or when growing fails) it is emptied and `forgot` is set, so that a miss means "unknown". */
typedef struct {
    cells *keys;
    size_t capacity, size;
    int failed;
    size_t limit;
    int forgot;
} cell_set;

/* The visited set's largest size: 2^22 slots of 16 bytes, 64 MiB per job (96 MiB while it grows to
 * it), two million nodes.  Measured against no cap, same counts: sizes up to 35 the same time;
 * size 36 6 % slower (60 samples), 37 15 % (12 samples); 2^21 slots made size 36 36 % slower. */
#define VISITED_SLOTS ((size_t)1 << 22)

static size_t slot_of(cells key, size_t capacity) {
    uint64_t h = key.lo * 0x9E3779B97F4A7C15ULL ^ key.hi * 0xC2B2AE3D27D4EB4FULL;
    h ^= h >> 29;
    return (size_t)h & (capacity - 1);
}

static int set_contains(const cell_set *s, cells key) {
    for (size_t i = slot_of(key, s->capacity);; i = (i + 1) & (s->capacity - 1)) {
        if (c_equal(s->keys[i], key)) return 1;
        if (!c_any(s->keys[i])) return 0;
    }
}

static void set_insert(cell_set *s, cells key);

static void set_grow(cell_set *s) {
    cell_set bigger = {calloc(2 * s->capacity, sizeof(cells)), 2 * s->capacity, 0, 0, s->limit, s->forgot};
    if (!bigger.keys) {
        s->failed = 1;
        return;
    }
    for (size_t i = 0; i < s->capacity; i++)
        if (c_any(s->keys[i])) set_insert(&bigger, s->keys[i]);
    free(s->keys);
    *s = bigger;
}

static void set_insert(cell_set *s, cells key) {
    if (2 * (s->size + 1) > s->capacity) {
        if (s->capacity < s->limit) set_grow(s);
        if (s->failed || s->capacity >= s->limit) { /* full, or no memory to grow: start again, forgetful */
            s->failed = 0;
            memset(s->keys, 0, s->capacity * sizeof(cells));
            s->size = 0;
            s->forgot = 1;
        }
    }
    size_t i = slot_of(key, s->capacity);
    while (c_any(s->keys[i]) && !c_equal(s->keys[i], key)) i = (i + 1) & (s->capacity - 1);
    if (!c_any(s->keys[i])) {
        s->keys[i] = key;
        s->size++;
    }
}

static void set_clear(cell_set *s) {
    if (s->size) memset(s->keys, 0, s->capacity * sizeof(cells));
    s->size = 0;
    s->forgot = 0;
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
    int children[81], nchildren = 0;
    for (cells rest = c_minus(c_and(m, AT_LEAST[from]), necessary); c_any(rest); rest = c_drop_lowest(rest)) {
        int c = c_lowest(rest);
        if (implied(g, m, c) || unique_without(g, m, c)) children[nchildren++] = c;
        else necessary = c_with(necessary, c);
    }
    for (int k = 0; k < nchildren; k++) {
        subsets_visit(w, c_without(m, children[k]), children[k] + 1, necessary);
        if (w->stopped) return;
    }
    if (nchildren) return;
    for (cells rest = c_minus(c_minus(m, AT_LEAST[from]), necessary); c_any(rest); rest = c_drop_lowest(rest)) {
        int c = c_lowest(rest);
        if (set_contains(w->visited, c_without(m, c))) return;
        if (w->visited->forgot && (implied(g, m, c) || unique_without(g, m, c))) return; /* visited, forgotten */
    }
    w->found[c_count(m)]++;
}

/* Supersets: every puzzle made of m plus cells >= `from` (and with at most max_clues clues) that has
 * no redundant clue; the unique ones that are minimal are counted.  A clue forced by singles stays
 * redundant in every super-puzzle, and a known unavoidable set that m misses must be hit by a cell
 * >= from, one clue for each of several disjoint ones: all three prune. */
static void supersets_visit(walk *w, cells m, int from) {
    if (walk_stopped(w)) return;
    grid_ctx *g = w->g;
    int clues = c_count(m), missed = 0;
    cells used = cells_of(0, 0); /* greedy packing of disjoint missed sets: each needs one more clue */
    for (int k = 0; k < g->nsets; k++)
        if (!c_meets(g->sets[k], m)) {
            cells reachable = c_and(g->sets[k], AT_LEAST[from]);
            if (!c_any(reachable)) return;
            if (!c_meets(reachable, used)) {
                used = c_or(used, reachable);
                if (clues + ++missed > w->max_clues) return;
            }
        }
    if (!missed && unique(g, m)) {
        if (unique_is_minimal(g, m, cells_of(0, 0))) w->found[clues]++;
        return;
    }
    if (clues >= w->max_clues) return;
    for (cells rest = c_minus(AT_LEAST[from], m); c_any(rest); rest = c_drop_lowest(rest)) {
        int c = c_lowest(rest);
        cells bigger = c_with(m, c);
        if (!some_clue_implied(g, bigger)) {
            supersets_visit(w, bigger, c + 1);
            if (w->stopped) return;
        }
    }
}

/* The minimal puzzles inside (subsets) or around (supersets) `subset`, by clue count, into w->found.
 * Returns 0, or 1 when stopped (w->found partial). */
static int count_in_with(int method, walk *w, cells subset) {
    if (method == SR_SUBSETS) {
        if (unique(w->g, subset)) {
            set_clear(w->visited);
            subsets_visit(w, subset, 0, cells_of(0, 0));
        }
    } else {
        if (!some_clue_implied(w->g, subset)) supersets_visit(w, subset, 0);
    }
    return w->stopped ? 1 : 0;
}

int sr_count_in(int method, const uint8_t *grid, const uint8_t *chosen, int max_clues, int64_t *found,
                size_t visited_slots) {
    memset(found, 0, 82 * sizeof(int64_t));
    grid_ctx g;
    ctx_init_full(&g, grid);
    cells subset = cells_of(0, 0);
    for (int c = 0; c < 81; c++)
        if (chosen[c]) subset = c_with(subset, c);
    size_t limit = VISITED_SLOTS;
    if (visited_slots) /* a power of 2 from 1024 (the tests': a small cache must give the same counts) */
        for (limit = 1024; limit < visited_slots && limit < VISITED_SLOTS; limit *= 2) {}
    cell_set visited = {calloc(1024, sizeof(cells)), 1024, 0, 0, limit, 0};
    if (!visited.keys) return -1;
    walk w = {&g, &visited, found, max_clues, NULL, HUGE_VAL, 0, 0};
    int status = count_in_with(method, &w, subset);
    free(visited.keys);
    return status;
}

int64_t sr_count_batch(int method, uint64_t seed, int64_t first, int64_t count, int size, int max_clues,
                       int64_t *found, double *weights, const sr_stop *stop, double deadline, int *abandoned) {
    *abandoned = 0;
    cell_set visited = {calloc(1024, sizeof(cells)), 1024, 0, 0, VISITED_SLOTS, 0};
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
        uint8_t order[81];
        shuffle(&rng, order, 81);
        cells subset = cells_of(0, 0);
        for (int i = 0; i < size && i < 81; i++) subset = c_with(subset, order[i]);
        grid_ctx g;
        ctx_init_full(&g, grid);
        walk w = {&g, &visited, out, max_clues, stop, deadline, 0, 0};
        int status = count_in_with(method, &w, subset);
        if (status) {
            free(visited.keys);
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
