/*
 * Generators of minimal puzzles and minimal-puzzle counting; see generate.h for the algorithms.
 *
 * Everything here works on one complete grid S at a time and represents a puzzle P contained in S by
 * the 81-bit set of its clue cells (a `cells` value, bit c = cell c).  Uniqueness is decided by the
 * core solver (sr_count_solutions with limit 2); three exact shortcuts avoid most solver calls:
 *
 *  - unavoidable sets: a set U of cells of S such that some other grid differs from S exactly on U.
 *    A puzzle with no clue in U has that other grid as a second solution, so it is not unique.  We
 *    collect, per grid, the two-row / two-column cycles (rows of one band or columns of one stack whose
 *    values on some columns / rows are the same sets), the two-digit cycles, and the difference sets
 *    of every second solution the solver returns.
 *  - monotony: deleting clues never turns a multi-solution puzzle into a unique one, so along one
 *    deletion path the unique puzzles form a prefix, found by bisection.
 *  - singles: when a clue of a unique puzzle is forced by a naked or hidden single from the other clues,
 *    deleting it keeps the puzzle unique (the same solutions), so that clue is redundant.
 */
#include "generate.h"

#include <stdlib.h>
#include <string.h>

typedef unsigned __int128 cells;

#define BIT(c) ((cells)1 << (c))
#define MAX_SETS 160
#define MAX_SET_SIZE 16

static cells PEERS[81];
static cells UNITS[27];
static cells AT_LEAST[82];  /* cells with index >= i */
static int CELL_UNITS[81][3];
static int LINE_PAIRS[18][2][9]; /* two rows of a band, or two columns of a stack */
static const cells FULL = (((cells)1 << 81) - 1);

static int popcount(cells m) {
    return __builtin_popcountll((uint64_t)m) + __builtin_popcountll((uint64_t)(m >> 64));
}

static int lowest(cells m) {
    uint64_t lo = (uint64_t)m;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(m >> 64));
}

void sr_generate_init(void) {
    for (int c = 0; c < 81; c++) {
        int r = c / 9, k = c % 9, b = 3 * (r / 3) + k / 3;
        CELL_UNITS[c][0] = r;
        CELL_UNITS[c][1] = 9 + k;
        CELL_UNITS[c][2] = 18 + b;
    }
    memset(UNITS, 0, sizeof UNITS);
    for (int c = 0; c < 81; c++)
        for (int u = 0; u < 3; u++) UNITS[CELL_UNITS[c][u]] |= BIT(c);
    for (int c = 0; c < 81; c++)
        PEERS[c] = (UNITS[CELL_UNITS[c][0]] | UNITS[CELL_UNITS[c][1]] | UNITS[CELL_UNITS[c][2]]) & ~BIT(c);
    for (int i = 0; i <= 81; i++) AT_LEAST[i] = FULL & ~(BIT(i) - 1);
    int pair = 0;
    for (int band = 0; band < 3; band++)
        for (int i = 0; i < 3; i++)
            for (int j = i + 1; j < 3; j++, pair += 2)
                for (int k = 0; k < 9; k++) {
                    LINE_PAIRS[pair][0][k] = 9 * (3 * band + i) + k;
                    LINE_PAIRS[pair][1][k] = 9 * (3 * band + j) + k;
                    LINE_PAIRS[pair + 1][0][k] = 9 * k + 3 * band + i;
                    LINE_PAIRS[pair + 1][1][k] = 9 * k + 3 * band + j;
                }
}

uint64_t sr_stream_seed(uint64_t seed, uint64_t index) {
    uint64_t z = seed + (index + 1) * 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
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

/* All two-line cycles of the grid (see line_pair_cycles). */
static void all_line_cycles(grid_ctx *g, int add, const int *position, int *emptied) {
    for (int pair = 0; pair < 18; pair++)
        line_pair_cycles(g, LINE_PAIRS[pair][0], LINE_PAIRS[pair][1], add, position, emptied);
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
            total += (uint32_t)__builtin_popcount(allowed[c]);
        }
        uint32_t pick = sr_rng_below(rng, total);
        int cell = 0, digit = 0;
        for (int c = 0; c < 81 && !digit; c++) {
            uint32_t n = (uint32_t)__builtin_popcount(allowed[c]);
            if (pick >= n) { pick -= n; continue; }
            uint16_t bits = allowed[c];
            while (pick--) bits &= (uint16_t)(bits - 1);
            cell = c;
            digit = __builtin_ctz(bits);
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

void sr_generate_batch(int method, uint64_t seed, int64_t first, int64_t count, int untested,
                       uint8_t *puzzles, int64_t *tries, double *weights) {
    uint8_t grid[81];
    for (int64_t k = 0; k < count; k++) {
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
            grid_rng = rng;
            sr_random_grid(&rng, grid);
            used++;
        } while (method == SR_TOP_DOWN ? !sr_top_down(&rng, grid, out) : !sr_cb_try(&rng, grid, untested, out));
        tries[k] = used;
        /* the weighted sampler draws the same grid from the same state, more slowly: only once */
        if (weights) sr_random_grid_weighted(&grid_rng, grid, weights + k);
    }
}

void sr_top_down_grids(const uint8_t *grids, int64_t n, uint64_t seed, int64_t first, uint8_t *puzzles) {
    for (int64_t j = 0; j < n; j++) {
        sr_rng rng;
        stream_rng(&rng, seed, (uint64_t)(first + j));
        sr_top_down(&rng, grids + 81 * j, puzzles + 81 * j);
    }
}

int64_t sr_cb_grids(const uint8_t *grids, int64_t n, uint64_t seed, int64_t first, int untested,
                    uint8_t *puzzles, int64_t *hits) {
    int64_t found = 0;
    for (int64_t j = 0; j < n; j++) {
        sr_rng rng;
        stream_rng(&rng, seed, (uint64_t)(first + j));
        if (sr_cb_try(&rng, grids + 81 * j, untested, puzzles + 81 * found)) hits[found++] = j;
    }
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

/* Subsets: visit every unique puzzle inside the subset, each once, by deleting clues in increasing
 * cell order (the node m was reached by deleting cells < `from`).  Clues in `necessary` are known to
 * be necessary for m and all its sub-puzzles.  A node without a unique child is minimal when, in
 * addition, deleting any of its earlier ("frozen") clues gives a non-unique puzzle; such a puzzle,
 * if unique, has a lexicographically earlier deletion sequence and so was visited already: the set
 * of visited nodes answers without the solver. */
static void subsets_visit(grid_ctx *g, cell_set *visited, cells m, int from, cells necessary,
                          int64_t *found) {
    set_insert(visited, m);
    if (visited->failed) return;
    int children[81], nchildren = 0;
    for (cells rest = m & AT_LEAST[from] & ~necessary; rest; rest &= rest - 1) {
        int c = lowest(rest);
        if (implied(g, m, c) || unique_without(g, m, c)) children[nchildren++] = c;
        else necessary |= BIT(c);
    }
    for (int k = 0; k < nchildren; k++)
        subsets_visit(g, visited, m & ~BIT(children[k]), children[k] + 1, necessary, found);
    if (nchildren) return;
    for (cells rest = m & ~AT_LEAST[from] & ~necessary; rest; rest &= rest - 1)
        if (set_contains(visited, m & ~BIT(lowest(rest)))) return;
    found[popcount(m)]++;
}

/* Supersets: every puzzle made of m plus cells >= `from` (and with at most max_clues clues) that has
 * no redundant clue; the unique ones that are minimal are counted.  A clue forced by singles stays
 * redundant in every super-puzzle, and a known unavoidable set that m misses must be hit by a cell
 * >= from, one clue for each of several disjoint ones: all three prune. */
static void supersets_visit(grid_ctx *g, cells m, int from, int max_clues, int64_t *found) {
    int clues = popcount(m), missed = 0;
    cells used = 0; /* greedy packing of disjoint missed sets: each needs one more clue */
    for (int k = 0; k < g->nsets; k++)
        if (!(g->sets[k] & m)) {
            cells reachable = g->sets[k] & AT_LEAST[from];
            if (!reachable) return;
            if (!(reachable & used)) {
                used |= reachable;
                if (clues + ++missed > max_clues) return;
            }
        }
    if (!missed && unique(g, m)) {
        if (unique_is_minimal(g, m, 0)) found[clues]++;
        return;
    }
    if (clues >= max_clues) return;
    for (cells rest = ~m & FULL & AT_LEAST[from]; rest; rest &= rest - 1) {
        int c = lowest(rest);
        cells bigger = m | BIT(c);
        int redundant = 0;
        for (cells each = bigger; each && !redundant; each &= each - 1) redundant = implied(g, bigger, lowest(each));
        if (!redundant) supersets_visit(g, bigger, c + 1, max_clues, found);
    }
}

/* The minimal puzzles inside (subsets) or around (supersets) `subset`, by clue count, into found. */
static int count_in_with(int method, grid_ctx *g, cells subset, int max_clues, int64_t *found,
                         cell_set *visited) {
    if (method == SR_SUBSETS) {
        if (unique(g, subset)) {
            set_clear(visited);
            subsets_visit(g, visited, subset, 0, 0, found);
            if (visited->failed) return -1;
        }
    } else {
        int redundant = 0;
        for (cells each = subset; each && !redundant; each &= each - 1)
            redundant = implied(g, subset, lowest(each));
        if (!redundant) supersets_visit(g, subset, 0, max_clues, found);
    }
    return 0;
}

static int count_in(int method, grid_ctx *g, cells subset, int max_clues, int64_t *found) {
    cell_set visited = {calloc(1024, sizeof(cells)), 1024, 0, 0};
    if (!visited.keys) return -1;
    int status = count_in_with(method, g, subset, max_clues, found, &visited);
    free(visited.keys);
    return status;
}

int sr_count_in(int method, const uint8_t *grid, const uint8_t *chosen, int max_clues, int64_t *found) {
    memset(found, 0, 82 * sizeof(int64_t));
    grid_ctx g;
    ctx_init_full(&g, grid);
    cells subset = 0;
    for (int c = 0; c < 81; c++)
        if (chosen[c]) subset |= BIT(c);
    return count_in(method, &g, subset, max_clues, found);
}

int sr_count_batch(int method, uint64_t seed, int64_t first, int64_t count, int size, int max_clues,
                   int64_t *found, double *weights) {
    cell_set visited = {calloc(1024, sizeof(cells)), 1024, 0, 0};
    if (!visited.keys) return -1;
    int status = 0;
    for (int64_t k = 0; k < count && !status; k++) {
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
        status = count_in_with(method, &g, subset, max_clues, out, &visited);
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
    return status;
}
