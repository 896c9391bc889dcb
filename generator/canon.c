/*
 * sudorules canonical forms (minlex), C11, no dependencies.  The convention is stated in canon.h.
 *
 * ---------------------------------------------------------------------------------------------------
 * The general search (puzzles, pencilmark states): rows one at a time, ties kept, columns lazily
 * ---------------------------------------------------------------------------------------------------
 * Every input is first turned into 81 digit masks (bit d for digit d+1; a puzzle's empty cell is 0),
 * and `rowmask[t][r][c]` holds source row r of the grid transposed or not (t).  The form is built row
 * by row, breadth first: the frontier holds every partial map whose output rows so far equal the best
 * rows found; each frontier node is extended by each source row the band structure allows next (any
 * row of an unused band at output rows 0, 3, 6, the other rows of the current band otherwise), the
 * output row is computed, and only the extensions whose row equals the smallest one survive.  Output
 * row i is therefore the smallest possible given rows 0..i-1, which is exactly the lexicographic
 * minimum of the whole string.
 *
 * A node does not fix the column permutation: it keeps an ordered partition of the output positions.
 * Each output stack is either pooled (puzzles: its source stack is still free among the pooled ones,
 * because it held only empty cells so far) or assigned a source stack; the three positions of an
 * assigned stack are cut into consecutive "cells", each holding a set of source columns (`cell[p]`,
 * a 9-bit mask, at the cell's first position p; `starts` marks the first positions).  The columns of
 * a cell have had identical masks in every row so far, so any order of them gives the same string.
 * A node also keeps the renaming as an ordered partition of the digits: `cmask[a]` is the set of
 * source digits that share the names a, a+1, ... (a class), `cstart[d]` the class of digit d.
 *
 * Computing output row i for a source row: the pooled stacks that are empty in this row stay pooled
 * and come first (their keys are 0, the smallest); the other pooled stacks take the last pooled
 * output stacks, in every order (a branch each).  Then, position by position, each cell is split:
 * its columns are grouped by mask, each group's mask gets its name mask under the current renaming
 * (label_mask: a class of k digits that meets the mask in c digits gives it its c first names), and
 * the group with the smallest key goes first, then the digit classes are split by its mask (refine:
 * in each class the digits of the mask come first).  Two groups with different masks but the same
 * key (two new digits of a puzzle, say) are a real choice: the search branches, one child per group.
 * Keys: a puzzle's empty cell 0, any other name mask m gives 511 - reverse9(m), so that a name mask
 * with a smaller first name sorts first (a pencilmark candidate before a non-candidate; for a puzzle
 * digit, the smaller name first).  Each key is compared with the best row as soon as it is known, and
 * a branch that goes above it stops there.
 *
 * Two cheap tests keep hopeless rows from being computed (puzzles only).  A puzzle's first output row
 * has only new digits, numbered in order, so it is fixed by the sorted counts of givens of the source
 * row's stacks: only the source rows with the smallest such pattern start the search.  And at every
 * level, a row whose first given comes later is smaller (zeros before it in both), so only the
 * candidate rows whose first given, in the node's cell structure, is the latest of the level are
 * computed (first_given()).
 *
 * When the last row is placed, the frontier holds every optimal partial map; each stands for
 * (product of its cells' sizes!) x (pooled stacks! x 6^pooled) maps that give the same string, and
 * the sum over the frontier is the number of automorphisms.  Any node gives the map returned (cells'
 * columns in increasing order, pooled stacks likewise), and the form is that map applied.
 *
 * Costs, measured (benchmarks/bench_canon.py, and counters on Royle's 49,151 17-clue puzzles): the
 * frontier holds 1 to 3.5 nodes on average at each level and 17 source rows are computed a puzzle
 * (44 before the two tests above), ~3.5 us a 17-clue puzzle.  A complete grid through this search
 * keeps up to 2 x 9 x 6^4 = 23,328 nodes after its first row (its nine digits are new, so every order
 * of every stack is a branch): ~1.9 ms, hence the grid search below.
 *
 * ---------------------------------------------------------------------------------------------------
 * The grid search (complete valid grids)
 * ---------------------------------------------------------------------------------------------------
 * In a grid's form the first row is 123456789 whatever the map, so the renaming is the one that gives
 * each digit the number of its output column in output row 0: name(d) = Cinv[pos0(d)] + 1 where pos0
 * is the digit's source column in the source row chosen first, and C the column permutation.  For a
 * choice of first row r0 and second row r1 (same band; 2 x 9 x 2 = 36 choices), output row 1 reads
 * Cinv[f(C[j])] with f(c) = pos0(source[r1][c]): the conjugate of the permutation f by C.  Built
 * position by position, C must place the column f(x) that row 1 names at the first position it may
 * take (its stack's next free position, or the first position of the first free output stack): any
 * later one gives a larger value there.  f sends no column into its own stack, so the numbers n(s, t)
 * of columns of stack s sent into stack t form a 3x3 matrix with a zero diagonal and all row and
 * column sums 3, which leaves two cases:
 *   - pure chute (n = 3 on a cycle s -> t -> u -> s; then every row pair of the chute is pure): row 1
 *     starts 4 5 6 7 8 9 (places 3..8), and C is fixed by the first stack a and the order of its three
 *     columns: C[3..5] = f(C[0..2]), C[6..8] = f(C[3..5]) (18 permutations per choice of rows);
 *   - mixed (each stack sends two columns to one stack and one to the other): row 1 starts 4 5 7, the
 *     first stack's two columns that go together come first, and C is fixed by the first stack and
 *     the order of those two (6 permutations per choice of rows; try_first_rows builds them).
 * A pure chute beats every mixed one, so when there is one the others are skipped.  Each permutation
 * is compared with the best rows 1-2 as its row 1 is computed (positions 3 and 6-8 first, before C is
 * built), the band's third row giving row 2.  For each surviving (first rows, C), the lower six rows
 * are fixed by sorting: in a grid the six rows' first values are distinct, so each band's rows go by
 * their first value and the two bands by their first rows.  The maps that reach the smallest string
 * are counted: the automorphisms.  ~2 us a random grid (benchmarks/README.md): 27 choices of rows are
 * mixed on average, ~20 permutations reach the comparison of row 2, 1.5 reach the lower rows.
 *
 * Tables (bit counts, lowest bit, 9-bit reversal) are built by the preprocessor: no builtins.
 */
#include "canon.h"
#include "rep.h"

#include <stdlib.h>
#include <string.h>

/* ---- tables, built by the preprocessor -------------------------------------------------------- */

#define BIT(x, i) (((x) >> (i)) & 1u)
#define POP_OF(x)                                                                               \
    (BIT(x, 0) + BIT(x, 1) + BIT(x, 2) + BIT(x, 3) + BIT(x, 4) + BIT(x, 5) + BIT(x, 6) + BIT(x, 7) + \
     BIT(x, 8))
#define LOW_OF(x)                                                                               \
    (BIT(x, 0)   ? 0                                                                            \
     : BIT(x, 1) ? 1                                                                            \
     : BIT(x, 2) ? 2                                                                            \
     : BIT(x, 3) ? 3                                                                            \
     : BIT(x, 4) ? 4                                                                            \
     : BIT(x, 5) ? 5                                                                            \
     : BIT(x, 6) ? 6                                                                            \
     : BIT(x, 7) ? 7                                                                            \
     : BIT(x, 8) ? 8                                                                            \
                 : 9)
#define REV_OF(x)                                                                               \
    ((BIT(x, 0) << 8) | (BIT(x, 1) << 7) | (BIT(x, 2) << 6) | (BIT(x, 3) << 5) | (BIT(x, 4) << 4) | \
     (BIT(x, 5) << 3) | (BIT(x, 6) << 2) | (BIT(x, 7) << 1) | BIT(x, 8))

static const uint8_t POP9[512] = {REP512(POP_OF)};  /* number of bits of a 9-bit value */
static const uint8_t LOW9[512] = {REP512(LOW_OF)};  /* lowest set bit (9 for 0) */
static const uint16_t REV9[512] = {REP512(REV_OF)}; /* bit i -> bit 8 - i */
static const uint32_t FACT[10] = {1, 1, 2, 6, 24, 120, 720, 5040, 40320, 362880};

/* The permutations of up to three items, as index lists. */
static const uint8_t PERMS3[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
/* PERM_INDEX[x][y]: the index in PERMS3 of the permutation that starts x, y. */
static const uint8_t PERM_INDEX[3][3] = {{0, 0, 1}, {2, 0, 3}, {4, 5, 0}};
/* For a permutation s of three items (its PERMS3 index), the smallest of its conjugates p^-1 s p
 * (as the values at 0, 1, 2) and the permutations p (count, then indices) that give it: the identity
 * stays 012 for every p, a transposition becomes at best 021, a 3-cycle 120. */
static const uint8_t CUBE_PATTERN[6][3] = {{0, 1, 2}, {0, 2, 1}, {0, 2, 1}, {1, 2, 0}, {1, 2, 0}, {0, 2, 1}};
static const uint8_t CUBE_ORDERS[6][7] = {{6, 0, 1, 2, 3, 4, 5}, {2, 0, 1}, {2, 4, 5},
                                          {3, 0, 3, 4}, {3, 1, 2, 5}, {2, 2, 3}};

#define STACK_COLS(u) (7u << (3 * (u))) /* the source columns of stack u (a 9-bit mask) */
static const uint8_t DIV3[9] = {0, 0, 0, 1, 1, 1, 2, 2, 2}; /* the stack (band) of a column (row) */
static const uint8_t NEXT3[6] = {0, 1, 2, 0, 1, 2};          /* i % 3 for i < 6 */
/* BOX_CELLS[9 * b + k]: the k-th cell of box b, row-major */
#define BOX_CELL(i) (9 * (3 * ((i) / 27) + (i) % 9 / 3) + 3 * ((i) / 9 % 3) + (i) % 3)
static const uint8_t BOX_CELLS[81] = {REP64(BOX_CELL, 0), REP16(BOX_CELL, 64), BOX_CELL(80)};

/* ---- the workspace ---------------------------------------------------------------------------- */

/* A partial map of the general search (see the top of the file). */
typedef struct {
    uint16_t cell[9];  /* cell[p], p a cell start in an assigned output stack: its source columns */
    uint16_t cmask[9]; /* cmask[a], a the first name of a digit class: the class's source digits */
    uint16_t starts;   /* bit p: output position p starts a cell */
    uint16_t rows_used;
    uint8_t cstart[9]; /* the first name of source digit d's class */
    uint8_t rows[9];   /* output row i <- source row rows[i], i < level */
    int8_t stack[3];   /* output stack -> source stack, -1 while pooled */
    uint8_t pool;      /* the pooled source stacks (bits 0..2) */
    uint8_t transpose;
    uint8_t level;
} node;

/* A candidate of the grid search: first rows and column permutation. */
typedef struct {
    uint8_t transpose, r0, r1, r2;
    uint8_t cols[9];
} grid_candidate;

struct sr_canon_workspace {
    node *frontier, *next;
    size_t frontier_count, next_count, frontier_capacity, next_capacity;
    grid_candidate *candidates;
    size_t candidate_count, candidate_capacity;
};

sr_canon_workspace *sr_canon_workspace_new(void)
{
    sr_canon_workspace *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    w->frontier_capacity = w->next_capacity = 256;
    w->frontier = malloc(w->frontier_capacity * sizeof(node));
    w->next = malloc(w->next_capacity * sizeof(node));
    w->candidate_capacity = 64;
    w->candidates = malloc(w->candidate_capacity * sizeof(grid_candidate));
    if (!w->frontier || !w->next || !w->candidates) {
        sr_canon_workspace_free(w);
        return NULL;
    }
    return w;
}

void sr_canon_workspace_free(sr_canon_workspace *w)
{
    if (!w) return;
    free(w->frontier);
    free(w->next);
    free(w->candidates);
    free(w);
}

/* Room for one more node in `next` (the frontier being read is never moved). */
static int reserve_node(sr_canon_workspace *w)
{
    if (w->next_count < w->next_capacity) return 0;
    size_t capacity = 2 * w->next_capacity;
    node *next = realloc(w->next, capacity * sizeof(node));
    if (!next) return -1;
    w->next = next;
    w->next_capacity = capacity;
    return 0;
}

/* ---- maps ------------------------------------------------------------------------------------- */

void sr_canon_apply(const sr_canon_map *map, const uint8_t *puzzle, uint8_t *out)
{
    for (int i = 0; i < 9; ++i)
        for (int j = 0; j < 9; ++j) {
            int r = map->rows[i], c = map->cols[j];
            uint8_t v = map->transpose ? puzzle[9 * c + r] : puzzle[9 * r + c];
            out[9 * i + j] = v <= 9 ? map->digits[v] : 0;
        }
}

void sr_canon_apply_marks(const sr_canon_map *map, const uint16_t *masks, uint16_t *out)
{
    for (int i = 0; i < 9; ++i)
        for (int j = 0; j < 9; ++j) {
            int r = map->rows[i], c = map->cols[j];
            unsigned m = map->transpose ? masks[9 * c + r] : masks[9 * r + c], renamed = 0;
            for (int d = 1; d <= 9; ++d)
                if (m >> (d - 1) & 1u) renamed |= 1u << (map->digits[d] - 1);
            out[9 * i + j] = (uint16_t)renamed;
        }
}

/* ---- the general search ----------------------------------------------------------------------- */

typedef struct {
    sr_canon_workspace *w;
    uint16_t rowmask[2][9][9]; /* [transposed][source row][source column]: digit masks */
    int marks;                 /* 1: pencilmark order (an empty mask sorts last), 0: puzzle order */
    int have_best;
    uint16_t best[9];          /* keys of the smallest row of the current level */
    int failed;
} search;

/* The names (a 9-bit mask, bit a for name a+1) that the digits of mask m get under n's renaming. */
static unsigned label_mask(const node *n, unsigned m)
{
    unsigned names = 0;
    while (m) {
        int a = n->cstart[LOW9[m]];
        unsigned in = n->cmask[a] & m;
        m &= ~in;
        names |= ((1u << POP9[in]) - 1u) << a;
    }
    return names;
}

/* Split n's digit classes by mask m: in each class the digits of m take the first names. */
static void refine(node *n, unsigned m)
{
    while (m) {
        int a = n->cstart[LOW9[m]];
        unsigned in = n->cmask[a] & m, out = n->cmask[a] & ~in;
        m &= ~in;
        if (!out) continue;
        int b = a + POP9[in];
        n->cmask[a] = (uint16_t)in;
        n->cmask[b] = (uint16_t)out;
        for (unsigned rest = out; rest; rest &= rest - 1) n->cstart[LOW9[rest]] = (uint8_t)b;
    }
}

static unsigned key_of(const search *s, unsigned names)
{
    return (names || s->marks) ? 511u - REV9[names] : 0u;
}

/* -1 when keys[0..p) is below the best row's prefix (or there is no best row yet), 0 when equal, 1
 * when above. */
static int prefix_state(const search *s, const uint16_t *keys, int p)
{
    if (!s->have_best) return -1;
    for (int i = 0; i < p; ++i)
        if (keys[i] != s->best[i]) return keys[i] < s->best[i] ? -1 : 1;
    return 0;
}

/* The finished row of node n: keep it if it is the smallest so far or equals it. */
static void emit(search *s, const node *n, const uint16_t *keys)
{
    int state = prefix_state(s, keys, 9);
    if (state > 0) return;
    sr_canon_workspace *w = s->w;
    if (state < 0) {
        memcpy(s->best, keys, sizeof s->best);
        s->have_best = 1;
        w->next_count = 0;
    }
    if (reserve_node(w) < 0) {
        s->failed = 1;
        return;
    }
    w->next[w->next_count++] = *n;
}

/* Place the columns `group` first in the cell that starts at p (whose other columns start a cell
 * after them). */
static void place(node *n, int p, unsigned group)
{
    unsigned rest = n->cell[p] & ~group;
    n->cell[p] = (uint16_t)group;
    if (rest) {
        int q = p + POP9[group];
        n->cell[q] = (uint16_t)rest;
        n->starts |= (uint16_t)(1u << q);
    }
}

/* Compare key k at position p with the best row: -1 below (or no best row), 0 equal so far, 1 above.
 * `state` is the comparison of positions 0..p-1.  A state computed before the best row was lowered
 * can only be too optimistic (the best row only goes down), which costs pruning, never a form. */
static int step_state(const search *s, int state, int p, unsigned k)
{
    if (state != 0 || k == s->best[p]) return state;
    return k < s->best[p] ? -1 : 1;
}

/* Compute the output row of node n (already given its source row, whose masks are vm) from output
 * position p on, branching on ties; keys[0..p) are already set and compare to the best row as
 * `state` says.  Ends by emit(). */
static void process(search *s, node *n, const uint16_t *vm, uint16_t *keys, int p, int state)
{
    while (p < 9) {
        if (n->stack[p / 3] < 0) { /* a pooled stack: empty in this row */
            for (int k = 0; k < 3; ++k, ++p) {
                keys[p] = 0;
                if ((state = step_state(s, state, p, 0)) > 0) return;
            }
            continue;
        }
        unsigned cols = n->cell[p];
        if (!(cols & (cols - 1))) { /* a cell of one column: no choice */
            unsigned m = vm[LOW9[cols]];
            unsigned key = key_of(s, label_mask(n, m));
            keys[p] = (uint16_t)key;
            if ((state = step_state(s, state, p, key)) > 0) return;
            refine(n, m);
            ++p;
            continue;
        }
        /* group the cell's columns by mask, then find the groups of smallest key */
        unsigned group_cols[3], group_mask[3], group_key[3];
        int groups = 0;
        for (; cols; cols &= cols - 1) {
            int c = LOW9[cols];
            unsigned m = vm[c];
            int g = 0;
            while (g < groups && group_mask[g] != m) ++g;
            if (g == groups) {
                group_mask[g] = m;
                group_cols[g] = 0;
                ++groups;
            }
            group_cols[g] |= 1u << c;
        }
        unsigned smallest = 1024;
        int tied = 0;
        for (int g = 0; g < groups; ++g) {
            group_key[g] = key_of(s, label_mask(n, group_mask[g]));
            if (group_key[g] < smallest) {
                smallest = group_key[g];
                tied = 1;
            } else if (group_key[g] == smallest) {
                ++tied;
            }
        }
        int chosen = -1;
        for (int g = 0; g < groups; ++g) {
            if (group_key[g] != smallest) continue;
            int size = POP9[group_cols[g]], after = state;
            for (int k = 0; k < size; ++k) {
                keys[p + k] = (uint16_t)smallest;
                after = step_state(s, after, p + k, smallest);
            }
            if (after > 0) return; /* every tied group gives the same keys */
            if (--tied > 0) { /* a real choice: this group first in a child, the others after */
                node child = *n;
                uint16_t child_keys[9];
                memcpy(child_keys, keys, sizeof child_keys);
                place(&child, p, group_cols[g]);
                refine(&child, group_mask[g]);
                process(s, &child, vm, child_keys, p + size, after);
                if (s->failed) return;
                if ((state = prefix_state(s, keys, p)) > 0) return; /* the best row may be lower */
            } else {
                chosen = g;
                state = after;
            }
        }
        place(n, p, group_cols[chosen]);
        refine(n, group_mask[chosen]);
        p += POP9[group_cols[chosen]];
    }
    emit(s, n, keys);
}

/* Extend node f by source row r as output row f->level, for every way the pool can take it. */
static void extend(search *s, const node *f, int r)
{
    node n = *f;
    n.rows[n.level++] = (uint8_t)r;
    n.rows_used |= (uint16_t)(1u << r);
    const uint16_t *vm = s->rowmask[n.transpose][r];
    uint16_t keys[9];
    unsigned empty = 0, busy = 0;
    for (int u = 0; u < 3; ++u) {
        if (!(n.pool >> u & 1u)) continue;
        if (!s->marks && !(vm[3 * u] | vm[3 * u + 1] | vm[3 * u + 2]))
            empty |= 1u << u;
        else
            busy |= 1u << u;
    }
    int state = s->have_best ? 0 : -1;
    if (!busy) {
        process(s, &n, vm, keys, 0, state);
        return;
    }
    /* the pooled output stacks are 0 .. pooled-1 (stacks leave the pool from the right); the busy
     * source stacks take the last ones in every order, the empty ones stay pooled before them */
    int pooled = POP9[n.pool], nbusy = POP9[busy], nempty = pooled - nbusy;
    int busy_list[3], k = 0;
    for (int u = 0; u < 3; ++u)
        if (busy >> u & 1u) busy_list[k++] = u;
    int givens[3] = {0, 0, 0}; /* puzzles: a stack with fewer givens in this row must come first */
    if (!s->marks)
        for (int i = 0; i < nbusy; ++i)
            givens[i] = (vm[3 * busy_list[i]] != 0) + (vm[3 * busy_list[i] + 1] != 0) + (vm[3 * busy_list[i] + 2] != 0);
    for (int perm = 0; perm < 6; ++perm) {
        /* only the permutations of the first nbusy indices, each once */
        int valid = 1;
        for (int i = nbusy; i < 3; ++i)
            if (PERMS3[perm][i] != i) valid = 0;
        for (int i = 1; i < nbusy; ++i)
            if (givens[PERMS3[perm][i]] < givens[PERMS3[perm][i - 1]]) valid = 0;
        if (!valid) continue;
        node child = n;
        for (int i = 0; i < nbusy; ++i) {
            int q = nempty + i, u = busy_list[PERMS3[perm][i]];
            child.stack[q] = (int8_t)u;
            child.cell[3 * q] = (uint16_t)STACK_COLS(u);
            child.starts |= (uint16_t)(1u << (3 * q));
        }
        child.pool = (uint8_t)empty;
        if (nempty == 1) { /* a pool of one is decided */
            int u = LOW9[empty];
            child.stack[0] = (int8_t)u;
            child.cell[0] = (uint16_t)STACK_COLS(u);
            child.starts |= 1u;
            child.pool = 0;
        }
        process(s, &child, vm, keys, 0, s->have_best ? 0 : -1);
        if (s->failed) return;
    }
}

/* The number of maps a final node stands for. */
static uint64_t multiplicity(const node *n)
{
    uint64_t count = 1;
    for (int p = 0; p < 9; ++p)
        if (n->stack[p / 3] >= 0 && (n->starts >> p & 1u)) count *= FACT[POP9[n->cell[p]]];
    int pooled = POP9[n->pool];
    count *= FACT[pooled];
    for (int i = 0; i < pooled; ++i) count *= 6;
    return count;
}

/* The map of a final node: each cell's columns and the pooled stacks in increasing order, each digit
 * class's digits in increasing order. */
static void node_map(const node *n, sr_canon_map *map)
{
    map->transpose = n->transpose;
    memcpy(map->rows, n->rows, 9);
    unsigned pool = n->pool;
    for (int q = 0; q < 3; ++q) {
        if (n->stack[q] < 0) {
            int u = LOW9[pool];
            pool &= pool - 1;
            for (int k = 0; k < 3; ++k) map->cols[3 * q + k] = (uint8_t)(3 * u + k);
            continue;
        }
        for (int p = 3 * q; p < 3 * q + 3; ++p) {
            if (!(n->starts >> p & 1u)) continue;
            int at = p;
            for (unsigned cols = n->cell[p]; cols; cols &= cols - 1) map->cols[at++] = LOW9[cols];
        }
    }
    map->digits[0] = 0;
    for (int a = 0; a < 9; ++a) {
        if (!n->cmask[a]) continue; /* not a class start (starts are never undone, never empty) */
        int name = a;
        for (unsigned ds = n->cmask[a]; ds; ds &= ds - 1) map->digits[LOW9[ds] + 1] = (uint8_t)(++name);
    }
}

/* The source rows that may be output row `level` after node f: any row of an unused band at the
 * start of a band, the current band's unused rows otherwise. */
static unsigned allowed_rows(const node *f, int level)
{
    if (level % 3 != 0) return (7u << (3 * DIV3[f->rows[level - 1]])) & ~(unsigned)f->rows_used;
    unsigned allowed = 0;
    for (int b = 0; b < 3; ++b)
        if (!(f->rows_used >> (3 * b) & 7u)) allowed |= 7u << (3 * b);
    return allowed;
}

/* Puzzles: the first place holding a given in the smallest output row that node f can make of the
 * source row vm (9 for an empty row).  Each cell puts its empty cells first; the pooled stacks
 * (output stacks 0 .. pooled-1) put their empty stacks first, then the stack of fewest givens. */
static int first_given(const node *f, const uint16_t *vm)
{
    int pooled = POP9[f->pool], empty_stacks = 0, fewest = 3;
    for (int u = 0; u < 3; ++u) {
        if (!(f->pool >> u & 1u)) continue;
        int givens = (vm[3 * u] != 0) + (vm[3 * u + 1] != 0) + (vm[3 * u + 2] != 0);
        if (!givens) ++empty_stacks;
        else if (givens < fewest) fewest = givens;
    }
    if (empty_stacks < pooled) return 3 * empty_stacks + 3 - fewest;
    for (int p = 3 * pooled; p < 9; ++p) {
        if (!(f->starts >> p & 1u)) continue;
        int empties = 0, size = 0;
        for (unsigned cols = f->cell[p]; cols; cols &= cols - 1, ++size) empties += vm[LOW9[cols]] == 0;
        if (empties < size) return p + empties;
    }
    return 9;
}

/* The search over masks (digit d -> bit d-1); fills map and automorphisms. */
static int general_search(sr_canon_workspace *w, const uint16_t *masks, int marks, sr_canon_map *map,
                          uint64_t *automorphisms)
{
    search s;
    s.w = w;
    s.marks = marks;
    s.failed = 0;
    for (int r = 0; r < 9; ++r)
        for (int c = 0; c < 9; ++c) {
            s.rowmask[0][r][c] = masks[9 * r + c];
            s.rowmask[1][r][c] = masks[9 * c + r];
        }
    node start;
    memset(&start, 0, sizeof start);
    start.cmask[0] = 0x1FF;
    start.stack[0] = start.stack[1] = start.stack[2] = -1;
    start.pool = 7;
    w->frontier[0] = start;
    w->frontier[1] = start;
    w->frontier[1].transpose = 1;
    w->frontier_count = 2;
    /* a puzzle's first output row has only new digits, named 1, 2, ... in order: it is fixed by
     * where its givens are, i.e. by the counts of givens of the source row's stacks, sorted (empty
     * places first).  Only the source rows whose such pattern is smallest can start the form. */
    unsigned first_rows[2] = {0, 0}, smallest = 1024;
    for (int t = 0; t < 2; ++t)
        for (int r = 0; r < 9; ++r) {
            int count[3];
            for (int u = 0; u < 3; ++u) {
                const uint16_t *m = s.rowmask[t][r] + 3 * u;
                count[u] = (m[0] != 0) + (m[1] != 0) + (m[2] != 0);
            }
            for (int a = 0; a < 3; ++a) /* sort three counts */
                for (int b = a + 1; b < 3; ++b)
                    if (count[b] < count[a]) {
                        int tmp = count[a];
                        count[a] = count[b];
                        count[b] = tmp;
                    }
            unsigned pattern = 0; /* place 0 is the most significant bit */
            for (int u = 0; u < 3; ++u) pattern = pattern << 3 | ((1u << count[u]) - 1u);
            if (pattern < smallest) {
                smallest = pattern;
                first_rows[0] = first_rows[1] = 0;
            }
            if (pattern == smallest) first_rows[t] |= 1u << r;
        }
    for (int level = 0; level < 9; ++level) {
        s.have_best = 0;
        w->next_count = 0;
        /* puzzles: a row whose first given comes later is smaller, so only the candidate rows with
         * the latest first given (over the whole frontier) are worth computing */
        int latest = 0;
        if (!s.marks)
            for (size_t i = 0; i < w->frontier_count; ++i) {
                const node *f = &w->frontier[i];
                unsigned allowed = allowed_rows(f, level) & (level == 0 ? first_rows[f->transpose] : 0x1FFu);
                for (unsigned rows = allowed; rows; rows &= rows - 1) {
                    int at = first_given(f, s.rowmask[f->transpose][LOW9[rows]]);
                    if (at > latest) latest = at;
                }
            }
        for (size_t i = 0; i < w->frontier_count; ++i) {
            const node *f = &w->frontier[i];
            unsigned allowed = allowed_rows(f, level) & (level == 0 && !s.marks ? first_rows[f->transpose] : 0x1FFu);
            for (unsigned rows = allowed; rows; rows &= rows - 1) {
                if (!s.marks && first_given(f, s.rowmask[f->transpose][LOW9[rows]]) < latest) continue;
                extend(&s, f, LOW9[rows]);
                if (s.failed) return SR_CANON_NO_MEMORY;
            }
        }
        node *swap = w->frontier;
        size_t swap_capacity = w->frontier_capacity;
        w->frontier = w->next;
        w->frontier_capacity = w->next_capacity;
        w->next = swap;
        w->next_capacity = swap_capacity;
        w->frontier_count = w->next_count;
    }
    uint64_t count = 0;
    for (size_t i = 0; i < w->frontier_count; ++i) count += multiplicity(&w->frontier[i]);
    if (automorphisms) *automorphisms = count;
    node_map(&w->frontier[0], map);
    return SR_CANON_OK;
}

int sr_canon_puzzle_search(sr_canon_workspace *w, const uint8_t *puzzle, uint8_t *form, sr_canon_map *map,
                           uint64_t *automorphisms)
{
    uint16_t masks[81];
    for (int k = 0; k < 81; ++k) {
        if (puzzle[k] > 9) return SR_CANON_BAD_INPUT;
        masks[k] = puzzle[k] ? (uint16_t)(1u << (puzzle[k] - 1)) : 0;
    }
    sr_canon_map local;
    if (!map) map = &local;
    int status = general_search(w, masks, 0, map, automorphisms);
    if (status == SR_CANON_OK) sr_canon_apply(map, puzzle, form);
    return status;
}

int sr_canon_marks(sr_canon_workspace *w, const uint16_t *masks, uint16_t *form, sr_canon_map *map,
                   uint64_t *automorphisms)
{
    for (int k = 0; k < 81; ++k)
        if (masks[k] > 0x1FF) return SR_CANON_BAD_INPUT;
    sr_canon_map local;
    if (!map) map = &local;
    int status = general_search(w, masks, 1, map, automorphisms);
    if (status == SR_CANON_OK) sr_canon_apply_marks(map, masks, form);
    return status;
}

/* ---- the grid search -------------------------------------------------------------------------- */

typedef struct {
    sr_canon_workspace *w;
    uint8_t source[2][81];  /* the grid and its transpose, digits 0..8 */
    uint8_t where[2][9][9]; /* where[t][r][d]: the column of digit d in source row r */
    const uint8_t *f, *g;   /* for the current first rows: f(c) and g(c), see the top of the file */
    uint8_t transpose, r0, r1, r2;
    int have_best;
    uint8_t best[18]; /* output rows 1 and 2 of the best candidates, as positions 0..8 */
    int failed;
} grid_search_state;

/* Compare output row 1 (`row1`, already computed for C) then row 2 of the column permutation C
 * (source column at each output position) with the best ones; keep C as a candidate when it is not
 * above them. */
static void try_columns(grid_search_state *s, const uint8_t *C, const uint8_t *row1)
{
    int state = -1;
    if (s->have_best) {
        int p = 0;
        while (p < 9 && row1[p] == s->best[p]) ++p;
        if (p < 9 && row1[p] > s->best[p]) return;
        state = p < 9 ? -1 : 0;
    }
    uint8_t cinv[9], row2[9];
    for (int p = 0; p < 9; ++p) cinv[C[p]] = (uint8_t)p;
    for (int p = 0; p < 9; ++p) {
        row2[p] = cinv[s->g[C[p]]];
        if (state == 0 && row2[p] != s->best[9 + p]) {
            if (row2[p] > s->best[9 + p]) return;
            state = -1;
        }
    }
    sr_canon_workspace *w = s->w;
    if (state < 0) {
        memcpy(s->best, row1, 9);
        memcpy(s->best + 9, row2, 9);
        s->have_best = 1;
        w->candidate_count = 0;
    }
    if (w->candidate_count == w->candidate_capacity) {
        size_t capacity = 2 * w->candidate_capacity;
        grid_candidate *more = realloc(w->candidates, capacity * sizeof *more);
        if (!more) {
            s->failed = 1;
            return;
        }
        w->candidates = more;
        w->candidate_capacity = capacity;
    }
    grid_candidate *k = &w->candidates[w->candidate_count++];
    k->transpose = s->transpose;
    k->r0 = s->r0;
    k->r1 = s->r1;
    k->r2 = s->r2;
    memcpy(k->cols, C, 9);
}

/* Set value v at position p of row 1 and compare it with the best row 1 (state as in
 * prefix_state); above it, give up this permutation (go to `skip`). */
#define ROW1_STEP(p, v, skip)                                                                   \
    do {                                                                                        \
        row1[p] = (uint8_t)(v);                                                                 \
        if (state == 0 && row1[p] != s->best[p]) {                                              \
            if (row1[p] > s->best[p]) goto skip;                                                \
            state = -1;                                                                         \
        }                                                                                       \
    } while (0)

/* Every column permutation that can give the smallest output row 1 for the current first rows
 * (see the top of the file: it is fixed by the first stack a and the order of its columns); row 1
 * is computed as C is built, and a permutation stops as soon as row 1 goes above the best one. */
static void try_first_rows(grid_search_state *s, int pure)
{
    const uint8_t *f = s->f;
    uint8_t C[9], row1[9];
    /* mixed chutes, once the best row 1 has place 3 = 0 (most grids): only a stack with a column x
     * such that f(f(x)) = x can give it, so the others are skipped at once */
    unsigned stacks = 7;
    if (!pure && s->have_best && s->best[3] == 0) {
        unsigned fixed = 0;
        for (int x = 0; x < 9; ++x) fixed |= (unsigned)(f[f[x]] == x) << x;
        stacks = (fixed & 7u ? 1u : 0u) | (fixed & 070u ? 2u : 0u) | (fixed & 0700u ? 4u : 0u);
    }
    for (int a = 0; a < 3; ++a) {
        if (!(stacks >> a & 1u)) continue;
        if (pure) {
            /* f takes stack a onto b, b onto c, c onto a: C is any order of a, then f of it, then f
             * again; row 1 is 3 4 5 6 7 8 (every row 1 starts so when a chute is pure), then the
             * places in a of f(f(f(C[0..2]))): the conjugate of f^3 on a by the order of a, whose
             * smallest value and the orders that give it depend only on f^3 (CUBE_*) */
            int cube = PERM_INDEX[f[f[f[3 * a]]] - 3 * a][f[f[f[3 * a + 1]]] - 3 * a];
            const uint8_t *pattern = CUBE_PATTERN[cube];
            int state = s->have_best ? 0 : -1;
            for (int p = 0; p < 6; ++p) row1[p] = (uint8_t)(3 + p);
            for (int i = 0; i < 3; ++i) ROW1_STEP(6 + i, pattern[i], next_stack);
            for (int k = 0; k < CUBE_ORDERS[cube][0]; ++k) {
                int perm = CUBE_ORDERS[cube][1 + k];
                for (int i = 0; i < 3; ++i) {
                    C[i] = (uint8_t)(3 * a + PERMS3[perm][i]);
                    C[3 + i] = f[C[i]];
                    C[6 + i] = f[C[3 + i]];
                }
                if (state == 0) { /* row 1 ties: row 2 starts with g(C[0]), a column of c (places 6..8) */
                    int y = s->g[C[0]];
                    if (6 + (y == C[6] ? 0 : y == C[7] ? 1 : 2) > s->best[9]) continue;
                }
                try_columns(s, C, row1);
                if (s->failed) return;
                if (s->have_best) state = memcmp(row1, s->best, 9) == 0 ? 0 : -1;
            }
        next_stack:
            continue;
        }
        /* mixed: two columns of a go to one stack b, one to c; b sends two to c and one to a */
        int x0 = 3 * a, x1 = x0 + 1, x2 = x0 + 2, single;
        if (DIV3[f[x0]] == DIV3[f[x1]]) single = x2;
        else if (DIV3[f[x0]] == DIV3[f[x2]]) single = x1;
        else single = x0;
        int pair0 = single == x0 ? x1 : x0, pair1 = single == x2 ? x1 : x2;
        /* without a pure chute every row 1 starts 3 4 6, so row 1 is compared from place 3 on; place
         * 3 shows f(f(C[0])): its place in a, or 7 in c; both orders are checked before building C */
        unsigned orders = 3;
        if (s->have_best) { /* best[3] is 0 for most grids: then only a 2-cycle of f goes on */
            int y0 = f[f[pair0]], y1 = f[f[pair1]], b3 = s->best[3];
            unsigned ok0 = y0 == pair0 || b3 >= 7 || (b3 >= 1 && y0 == pair1) || (b3 >= 2 && y0 == single);
            unsigned ok1 = y1 == pair1 || b3 >= 7 || (b3 >= 1 && y1 == pair0) || (b3 >= 2 && y1 == single);
            orders = ok0 | ok1 << 1;
        }
        row1[0] = 3; /* the pair goes to b's first places, the single to c's first */
        row1[1] = 4;
        row1[2] = 6;
        for (int order = 0; order < 2; ++order) {
            if (!(orders >> order & 1u)) continue;
            int state = s->have_best ? 0 : -1;
            C[0] = (uint8_t)(order ? pair1 : pair0);
            C[1] = (uint8_t)(order ? pair0 : pair1);
            C[2] = (uint8_t)single;
            C[3] = f[C[0]];
            C[4] = f[C[1]];
            C[5] = (uint8_t)(9 * DIV3[C[3]] + 3 - C[3] - C[4]); /* b's third column */
            /* positions 3..5 show a column of a (its place 0..2) or of c, placed at c's next free
             * place (7, then 8; place 6 is f(C[2])) */
            int at = 7;
            for (int p = 3; p < 6; ++p) {
                int y = f[C[p]];
                if (DIV3[y] == a) {
                    ROW1_STEP(p, y == C[0] ? 0 : y == C[1] ? 1 : 2, next_order);
                } else {
                    C[at] = (uint8_t)y;
                    ROW1_STEP(p, at, next_order);
                    ++at;
                }
            }
            C[6] = f[C[2]];
            for (int p = 6; p < 9; ++p) { /* c's columns show a column of a or of b */
                int y = f[C[p]];
                ROW1_STEP(p, DIV3[y] == a ? (y == C[0] ? 0 : y == C[1] ? 1 : 2)
                                          : (y == C[3] ? 3 : y == C[4] ? 4 : 5), next_order);
            }
            try_columns(s, C, row1);
            if (s->failed) return;
        next_order:;
        }
    }
}

/* The grid search; SR_CANON_BAD_INPUT when `grid` is not a complete valid grid. */
static int grid_search(sr_canon_workspace *w, const uint8_t *grid, uint8_t *form, sr_canon_map *map,
                       uint64_t *automorphisms)
{
    grid_search_state s;
    s.w = w;
    s.have_best = 0;
    s.failed = 0;
    w->candidate_count = 0;
    /* the grid and its transpose, digits 0..8, and where each digit sits in each row: a row or
     * column that is not a permutation of 1..9 leaves a digit unseen, a box is checked apart */
    for (int r = 0; r < 9; ++r) {
        unsigned row = 0, col = 0, box = 0;
        for (int c = 0; c < 9; ++c) {
            unsigned v = grid[9 * r + c] - 1u, u = grid[9 * c + r] - 1u;
            if (v > 8 || u > 8) return SR_CANON_BAD_INPUT;
            s.source[0][9 * r + c] = (uint8_t)v;
            s.source[1][9 * r + c] = (uint8_t)u;
            s.where[0][r][v] = (uint8_t)c;
            s.where[1][r][u] = (uint8_t)c;
            row |= 1u << v;
            col |= 1u << u;
            box |= 1u << ((grid[BOX_CELLS[9 * r + c]] - 1u) & 15u); /* out of range: not 0x1FF */
        }
        if (row != 0x1FF || col != 0x1FF || box != 0x1FF) return SR_CANON_BAD_INPUT;
    }
    /* a chute whose first two rows (hence all, see the top of the file) send each stack's digits
     * wholly to another stack gives output row 1 = 456789...; the others 457... */
    int pure[2][3], any_pure = 0;
    for (int t = 0; t < 2; ++t)
        for (int band = 0; band < 3; ++band) {
            const uint8_t *where0 = s.where[t][3 * band], *row1 = s.source[t] + 9 * (3 * band + 1);
            pure[t][band] = where0[row1[0]] / 3 == where0[row1[1]] / 3 &&
                            where0[row1[0]] / 3 == where0[row1[2]] / 3;
            any_pure |= pure[t][band];
        }
    for (int t = 0; t < 2; ++t)
        for (int band = 0; band < 3; ++band) {
            if (any_pure && !pure[t][band]) continue;
            /* F[i][j] is f for the band's rows i (first) and j (second), and the g of first row i
             * with second row k: two are computed, the others follow as F[j][i] = F[i][j]^-1 and
             * F[1][2] = F[1][0] o F[0][2] */
            uint8_t F[3][3][9];
            const uint8_t *where0 = s.where[t][3 * band];
            for (int j = 1; j < 3; ++j) {
                const uint8_t *row = s.source[t] + 9 * (3 * band + j);
                for (int c = 0; c < 9; ++c) F[0][j][c] = where0[row[c]];
                for (int c = 0; c < 9; ++c) F[j][0][F[0][j][c]] = (uint8_t)c;
            }
            for (int c = 0; c < 9; ++c) F[1][2][c] = F[1][0][F[0][2][c]];
            for (int c = 0; c < 9; ++c) F[2][1][F[1][2][c]] = (uint8_t)c;
            s.transpose = (uint8_t)t;
            for (int i = 0; i < 3; ++i)
                for (int k = 1; k <= 2; ++k) {
                    int j = NEXT3[i + k], l = NEXT3[i + 3 - k];
                    s.r0 = (uint8_t)(3 * band + i);
                    s.r1 = (uint8_t)(3 * band + j);
                    s.r2 = (uint8_t)(3 * band + l);
                    s.f = F[i][j];
                    s.g = F[i][l];
                    try_first_rows(&s, pure[t][band]);
                    if (s.failed) return SR_CANON_NO_MEMORY;
                }
        }
    /* the lower six rows of each candidate, by sorting; keep the smallest */
    sr_canon_map local;
    if (!map) map = &local;
    uint8_t best_low[54];
    int have_low = 0;
    uint64_t count = 0;
    for (size_t i = 0; i < w->candidate_count; ++i) {
        const grid_candidate *k = &w->candidates[i];
        const uint8_t *src = s.source[k->transpose];
        uint8_t name[9], cinv[9];
        for (int p = 0; p < 9; ++p) cinv[k->cols[p]] = (uint8_t)p;
        for (int d = 0; d < 9; ++d) name[d] = cinv[s.where[k->transpose][k->r0][d]];
        /* each lower band's rows by first value, then the two bands by their first rows */
        int first_of[9], order[6], at = 0;
        for (int r = 0; r < 9; ++r) first_of[r] = name[src[9 * r + k->cols[0]]];
        for (int b = 0; b < 3; ++b) {
            if (b == k->r0 / 3) continue;
            int *rs = order + at;
            for (int a = 0; a < 3; ++a) rs[a] = 3 * b + a;
            for (int a = 0; a < 3; ++a)
                for (int z = a + 1; z < 3; ++z)
                    if (first_of[rs[z]] < first_of[rs[a]]) {
                        int tmp = rs[a];
                        rs[a] = rs[z];
                        rs[z] = tmp;
                    }
            at += 3;
        }
        if (first_of[order[3]] < first_of[order[0]])
            for (int a = 0; a < 3; ++a) {
                int tmp = order[a];
                order[a] = order[3 + a];
                order[3 + a] = tmp;
            }
        int state = have_low ? 0 : -1;
        uint8_t low[54];
        for (int i = 0; i < 6 && state <= 0; ++i) {
            const uint8_t *row = src + 9 * order[i];
            for (int j = 0; j < 9; ++j) {
                uint8_t v = name[row[k->cols[j]]];
                low[9 * i + j] = v;
                if (state == 0 && v != best_low[9 * i + j]) {
                    state = v < best_low[9 * i + j] ? -1 : 1;
                    if (state > 0) break;
                }
            }
        }
        if (state > 0) continue;
        if (state < 0) {
            memcpy(best_low, low, 54);
            have_low = 1;
            count = 0;
            map->transpose = k->transpose;
            map->rows[0] = k->r0;
            map->rows[1] = k->r1;
            map->rows[2] = k->r2;
            for (int a = 0; a < 6; ++a) map->rows[3 + a] = (uint8_t)order[a];
            memcpy(map->cols, k->cols, 9);
            map->digits[0] = 0;
            for (int d = 0; d < 9; ++d) map->digits[d + 1] = (uint8_t)(name[d] + 1);
        }
        ++count;
    }
    if (automorphisms) *automorphisms = count;
    /* the form: row 0 is 123456789, rows 1-2 and 3-8 are the best rows found (places 0..8) */
    for (int p = 0; p < 9; ++p) form[p] = (uint8_t)(p + 1);
    for (int p = 0; p < 18; ++p) form[9 + p] = (uint8_t)(s.best[p] + 1);
    for (int p = 0; p < 54; ++p) form[27 + p] = (uint8_t)(best_low[p] + 1);
    return SR_CANON_OK;
}

int sr_canon_grid(sr_canon_workspace *w, const uint8_t *grid, uint8_t *form, sr_canon_map *map,
                  uint64_t *automorphisms)
{
    return grid_search(w, grid, form, map, automorphisms);
}

int sr_canon_puzzle(sr_canon_workspace *w, const uint8_t *puzzle, uint8_t *form, sr_canon_map *map,
                    uint64_t *automorphisms)
{
    int complete = 1;
    for (int k = 0; k < 81; ++k)
        if (puzzle[k] == 0) complete = 0;
    if (complete) { /* a complete grid: the grid search, unless it is not a valid grid */
        int status = grid_search(w, puzzle, form, map, automorphisms);
        if (status != SR_CANON_BAD_INPUT) return status;
    }
    return sr_canon_puzzle_search(w, puzzle, form, map, automorphisms);
}
