/*
 * sudorules compiled core: a bitset Sudoku solver (count solutions up to a limit, minimality) and a
 * seeded random complete grid maker.  C11, no dependencies, no global mutable state.
 *
 * ---------------------------------------------------------------------------------------------------
 * Bit layout (the one place it is documented)
 * ---------------------------------------------------------------------------------------------------
 * The grid is cut into three horizontal bands of three rows: band b (0..2) holds rows 3b..3b+2.
 * A band is 27 cells, and a 27-bit mask of a band has bit 9*r + c for the cell in row r (0..2) of
 * the band and column c (0..8).  Because cells are numbered row-major, cell k (0..80) of the grid is
 * simply band k / 27, bit k % 27.
 *
 *        column   0 1 2 | 3 4 5 | 6 7 8
 *      band row 0 bits  0.. 8          (box 0 = bits 0-2, 9-11, 18-20;  box 1 = +3;  box 2 = +6)
 *      band row 1 bits  9..17
 *      band row 2 bits 18..26
 *
 * Within a band, the three cells of one row and one box form a "minirow"; minirow i = 3*r + k
 * (row r, box k) is bits 3i..3i+2, so a set of minirows is a 9-bit mask.
 *
 * The solver state holds, for each band b and digit d (0..8), the mask cand[9*b + d] of the cells of
 * band b where digit d+1 is still a candidate, plus unsolved[b], the cells of band b not yet placed.
 * One digit in one band must sit once in each of the three rows and once in each of the three boxes,
 * i.e. its minirows follow one of the six permutations row -> box.  KEEP[m] maps the 9-bit set m of
 * non-empty minirows to the cells of the minirows that belong to at least one permutation inside m
 * (0 when no permutation fits): one table look-up applies every row/box interaction of the band
 * (box-line "pointing" and "claiming" within a band, hidden singles in rows and boxes).
 *
 * Propagation (see propagate()): a band-digit mask that changed is filtered through KEEP; a row of it
 * left with one cell places the digit there (the cell leaves every other digit's mask, the column
 * leaves the digit's masks in the two other bands); then naked singles (cells with one candidate
 * digit, found with bit-parallel counters over the nine digit masks of a band) are placed, and the
 * loop runs to a fixpoint.  Columns get the same treatment across bands: a digit left in one band
 * only for some column must sit in that column's box there, which removes it from the box's other
 * columns in that band (table CLAIM).  A contradiction is an empty band-digit (no permutation fits) or an
 * unsolved cell with no candidate.  Search guesses on a bivalue cell when there is one (else the
 * first cell with fewest candidates): branch "cell = d" on a copy of the state, then "cell != d" in
 * place.
 *
 * ---------------------------------------------------------------------------------------------------
 * Random grids: how they are sampled, and how far from uniform
 * ---------------------------------------------------------------------------------------------------
 * sr_random_grid fills box 1 (top-left) with a uniformly random permutation of 1..9 (exact: digit
 * relabelling maps the grids with one box 1 one-to-one onto those with any other; one draw below 9!),
 * then completes it by a randomised backtracking that does not use the solver (sample_grid(): the
 * digit sets of the rows, columns and boxes, ~1.3 µs a grid against ~6.6 µs for the solver's
 * propagating search used before, which made 38 guesses and 39 propagations a grid).  The cells are
 * filled row by row, top to bottom; inside the current row the next cell is the empty one with fewest
 * candidates (digits not yet in its row, column or box; the lowest column on ties), and its
 * candidates are tried in a uniformly random order, backing up when a cell has none left (placing
 * digit d in a row only takes d from the row's other cells, so a row's candidates are computed once
 * and then narrowed by one vector AND per cell placed; each cell's frame keeps a copy).  Choosing
 * inside the row by fewest candidates makes dead ends rare (2.4 a grid, against 51 in plain
 * row-major order), ~39 of the 72 cells have a choice (one random draw each, on 32 bits), and the
 * last row is forced (each column lacks one digit, and these always make a valid row and boxes).
 * The search is exhaustive below each cell, so the digit kept at a cell is uniform among its *viable*
 * digits (those with a completion), and which cell comes next depends only on the digits placed so
 * far.  The finished grid then goes through a uniformly random transposition and band, stack, row and
 * column permutations (one draw below 2 * 6^8).  Digit relabelling is not drawn: the sampler's
 * probabilities do not depend on the digits' names (box 1 is uniform and the cell order and the counts
 * of candidates are the same under any relabelling), so it is uniform in that respect already.
 *
 * Given box 1, a grid g is drawn with probability P(g) = prod 1/v_i over the cells of its path (v_i
 * viable digits at cell i; 1 where the cell has one candidate), where uniform sampling would give
 * every grid 1/N1, N1 = 6,670,903,752,021,072,936,960 / 9! = 1.838e16 the completions of a box 1.
 * So the sampler is NOT uniform: grids reached through few, narrow choices are favoured.  The
 * symmetry step makes the result exactly uniform inside each equivalence class of grids, so the bias
 * lies only across the 5,472,730,538 essentially different grids (it averages P over a class).
 * path_weight() computes w(g) = 1/P(g) exactly for any complete grid: it follows the sampler's path
 * to g, and at each cell counts the viable candidates with the solver (a candidate that the solver's
 * propagation of box 1 plus the path so far removes has no completion; each other one is tested).
 *
 * Measured with sr_random_grid_weighted (which returns w(g); ~240 µs a grid, as before), 20,000
 * grids, seed 5: the mean of w is 0.972 N1 (a check of the weights: E[w] = N1 exactly; the weights are
 * heavy-tailed, so a sample mean is more often low than high: 200,000 grids, seeds 100..109, give
 * 0.998 +- 0.003 N1), but w ranges from 1.7e14 to 6.8e17 (coefficient of variation 1.45), and the
 * effective sample size (sum w)^2 / (n sum w^2) is 0.32 of n.  In words: before the symmetry step,
 * the likeliest grids sampled are drawn ~4,100 times as often as the least likely ones (the
 * solver-based search used before, same run: cv 1.52, effective sample size 0.30, ratio ~4,600).  A
 * statistic whose terms are weighted by w / N1 (importance sampling) is exactly unbiased, at
 * ~1/0.32 = 3.1 times the variance.
 *
 * After the symmetry step the bias is much smaller, because a class's probability is the average of
 * P over its ~1.2e12 members, and P varies mostly within classes (cv ~1.2 within one class).
 * sr_grid_weight(g) gives w for any complete grid g; a class's probability relative to uniform is
 * r = mean over symmetries s of N1 / w(s g).  Measured (benchmarks/bench_core.py print_class_bias,
 * 200 sampled grids x 100 symmetries seed 1, 400 x 120 seeds 7 and 11, split in halves so the
 * estimation noise cancels in a covariance): r has standard deviation 0.52 / 0.50 / 0.42 across the
 * classes the sampler draws (the solver-based search, same runs: 0.42 / 0.42 / 0.47), 5% / 50% / 95%
 * quantiles of the estimates 0.65 / 1.03 / 2.03 (seed 7; before 0.61 / 0.98 / 1.97).  So the sampler
 * draws some classes about twice as often as uniform and others about half as often, as the search
 * used before did; this is the usual random-backtracking grid source, not an exactly uniform sampler.
 */
#include "core.h"
#include "bits.h"
#include "rep.h"
#include "rng.h"

#include <string.h>

#define BAND_ALL 0x7FFFFFFu /* the 27 cells of a band */
#define COL0 0x40201u       /* column 0 of a band: bits 0, 9, 18 */
#define BOX0 0x1C0E07u      /* box 0 of a band: bits 0-2, 9-11, 18-20 */

/* ---- tables, built by the preprocessor -------------------------------------------------------- */

/* SHRINK[x]: the boxes (3 bits) where the 9-bit row x is not empty. */
#define SHRINK_OF(x) ((((x) & 7u) != 0) | ((((x) & 070u) != 0) << 1) | ((((x) & 0700u) != 0) << 2))
static const uint8_t SHRINK[512] = {REP512(SHRINK_OF)};

/* The six permutations row -> box as minirow masks (bit 3r+k) and as 27-bit cell masks. */
#define EXPAND(m)                                                                               \
    ((((m) >> 0 & 1u) * (7u << 0)) | (((m) >> 1 & 1u) * (7u << 3)) | (((m) >> 2 & 1u) * (7u << 6)) | \
     (((m) >> 3 & 1u) * (7u << 9)) | (((m) >> 4 & 1u) * (7u << 12)) |                            \
     (((m) >> 5 & 1u) * (7u << 15)) | (((m) >> 6 & 1u) * (7u << 18)) |                           \
     (((m) >> 7 & 1u) * (7u << 21)) | (((m) >> 8 & 1u) * (7u << 24)))
#define FITS(m, p) ((((m) & (p)) == (p)) ? EXPAND(p) : 0u)
#define KEEP_OF(m)                                                                              \
    (FITS(m, 0x111u) | FITS(m, 0x0A1u) | FITS(m, 0x10Au) | FITS(m, 0x062u) | FITS(m, 0x08Cu) |      \
     FITS(m, 0x054u))
static const uint32_t KEEP[512] = {REP512(KEEP_OF)};

/* PEERS[p]: the other cells of the band in the row, column or box of bit p (p < 27). */
#define PEERS_OF(p)                                                                             \
    (((0x1FFu << (9 * ((p) / 9))) | (COL0 << ((p) % 9)) | (BOX0 << (3 * (((p) % 9) / 3)))) &       \
     ~(1u << (p)))
#define REP27(T)                                                                                \
    REP16(T, 0), REP4(T, 16), REP4(T, 20), T(24), T(25), T(26)
static const uint32_t PEERS[27] = {REP27(PEERS_OF)};

/* CLAIM[u], u the 9-bit set of columns where a digit is left in one band only: in that band, the
 * cells of each box outside those columns, which the digit cannot take (column-box claiming); all
 * 27 cells (a contradiction) when two such columns fall in one box. */
#define CLAIM_BOX(u, k)                                                                         \
    ((((u) >> (3 * (k))) & 7u) == 0   ? 0u                                                      \
     : (((u) >> (3 * (k))) & 7u) == 1 ? (BOX0 << (3 * (k))) & ~(COL0 << (3 * (k)))              \
     : (((u) >> (3 * (k))) & 7u) == 2 ? (BOX0 << (3 * (k))) & ~(COL0 << (3 * (k) + 1))          \
     : (((u) >> (3 * (k))) & 7u) == 4 ? (BOX0 << (3 * (k))) & ~(COL0 << (3 * (k) + 2))          \
                                      : BAND_ALL)
#define CLAIM_OF(u) (CLAIM_BOX(u, 0) | CLAIM_BOX(u, 1) | CLAIM_BOX(u, 2))
static const uint32_t CLAIM[512] = {REP512(CLAIM_OF)};

/* ---- solver state ----------------------------------------------------------------------------- */

typedef struct {
    uint32_t cand[27];    /* cand[9*b + d]: cells of band b where digit d+1 is a candidate */
    uint32_t unsolved[3]; /* cells of each band not yet placed */
    uint32_t changed;     /* bit 9*b + d: cand[9*b + d] changed since it was last filtered */
    uint32_t dirty_digits; /* bit d: some mask of digit d+1 changed since its columns were checked */
    uint32_t bivalue[3];  /* unsolved cells with exactly two candidates, as of the last fixpoint */
} state;

/* The index of the lowest set bit of x (x != 0): bits.h, portable. */
static inline int lowest_bit(uint32_t x) { return sr_ctz32(x); }

static inline void narrow(state *s, int i, uint32_t keep)
{
    uint32_t old = s->cand[i];
    uint32_t now = old & keep;
    if (now != old) {
        s->cand[i] = now;
        s->changed |= 1u << i;
    }
}

/* Make digit d the value of cell `bit` (a one-bit mask) of band b, as far as band b's mask of d and
 * the cell's other digits go; placement proper (columns, unsolved) follows in propagate(). */
static inline void assign(state *s, int b, int d, uint32_t bit)
{
    narrow(s, 9 * b + d, ~PEERS[lowest_bit(bit)]);
    for (int e = 0; e < 9; ++e)
        if (e != d) narrow(s, 9 * b + e, ~bit);
}

/* The rows of a band mask that hold exactly one cell. */
static inline uint32_t single_rows(uint32_t m)
{
    uint32_t out = 0;
    for (int r = 0; r < 27; r += 9) {
        uint32_t x = (m >> r) & 0x1FFu;
        out |= (x & (0u - (uint32_t)((x & (x - 1)) == 0))) << r;
    }
    return out;
}

/* Run the eliminations to a fixpoint; 0 on contradiction, 1 otherwise.  The change flags live in
 * locals here (NARROW), so the compiler keeps them in registers. */
#define NARROW(i, keep)                                                                         \
    do {                                                                                        \
        uint32_t old_ = cand[i], now_ = old_ & (keep);                                          \
        cand[i] = now_;                                                                         \
        changed |= (uint32_t)(now_ != old_) << (i);                                             \
    } while (0)

static int propagate(state *s)
{
    uint32_t *cand = s->cand;
    uint32_t changed = s->changed, dirty = s->dirty_digits;
    s->changed = 0;
    s->dirty_digits = 0;
    for (;;) {
        while (changed) {
            int i = lowest_bit(changed);
            changed &= changed - 1;
            uint32_t m = cand[i];
            uint32_t rows = SHRINK[m & 0x1FFu] | (uint32_t)SHRINK[(m >> 9) & 0x1FFu] << 3 |
                            (uint32_t)SHRINK[m >> 18] << 6;
            m &= KEEP[rows];
            if (!m) return 0;
            cand[i] = m;
            int b = i / 9, d = i - 9 * b;
            dirty |= 1u << d;
            uint32_t placed = single_rows(m) & s->unsolved[b];
            if (placed) {
                s->unsolved[b] &= ~placed;
                for (int e = 0; e < 9; ++e)
                    if (e != d) NARROW(9 * b + e, ~placed);
                uint32_t cols = (placed | placed >> 9 | placed >> 18) & 0x1FFu;
                uint32_t colmask = cols | cols << 9 | cols << 18;
                for (int c = 0; c < 3; ++c)
                    if (c != b) NARROW(9 * c + d, ~colmask);
            }
        }
        /* columns: a digit left in one band for a column is claimed by that band's box */
        while (dirty) {
            int d = lowest_bit(dirty);
            dirty &= dirty - 1;
            uint32_t m0 = cand[d], m1 = cand[9 + d], m2 = cand[18 + d];
            uint32_t c0 = (m0 | m0 >> 9 | m0 >> 18) & 0x1FFu;
            uint32_t c1 = (m1 | m1 >> 9 | m1 >> 18) & 0x1FFu;
            uint32_t c2 = (m2 | m2 >> 9 | m2 >> 18) & 0x1FFu;
            if ((c0 | c1 | c2) != 0x1FFu) return 0; /* a column with no place for the digit */
            uint32_t u0 = c0 & ~(c1 | c2), u1 = c1 & ~(c0 | c2), u2 = c2 & ~(c0 | c1);
            NARROW(d, ~CLAIM[u0]);
            NARROW(9 + d, ~CLAIM[u1]);
            NARROW(18 + d, ~CLAIM[u2]);
        }
        if (changed) continue;
        /* naked singles, and the bivalue cells for the next guess */
        for (int b = 0; b < 3; ++b) {
            uint32_t open = s->unsolved[b];
            s->bivalue[b] = 0;
            if (!open) continue;
            const uint32_t *c = cand + 9 * b;
            uint32_t one = 0, two = 0, three = 0;
            for (int d = 0; d < 9; ++d) {
                three |= two & c[d];
                two |= one & c[d];
                one |= c[d];
            }
            if (open & ~one) return 0; /* a cell with no candidate left */
            uint32_t singles = open & ~two;
            s->bivalue[b] = open & two & ~three;
            while (singles) {
                uint32_t bit = singles & (0u - singles);
                singles &= singles - 1;
                int d = 0;
                /* An earlier single of this band may have removed this cell's last candidate. */
                while (d < 9 && !(c[d] & bit)) ++d;
                if (d == 9) return 0;
                NARROW(9 * b + d, ~PEERS[lowest_bit(bit)]);
                for (int e = 0; e < 9; ++e)
                    if (e != d) NARROW(9 * b + e, ~bit);
            }
        }
        if (!changed) return 1;
    }
}

static int init_state(state *s, const uint8_t *grid)
{
    uint32_t given[27] = {0}; /* given[9*b + d]: the givens of digit d+1 in band b */
    uint32_t occupied[3] = {0};
    for (int i = 0; i < 27; ++i) s->cand[i] = BAND_ALL;
    for (int b = 0; b < 3; ++b)
        for (int p = 0, col = 0; p < 27; ++p, col = col == 8 ? 0 : col + 1) {
            unsigned v = grid[27 * b + p];
            if (!v) continue;
            if (v > 9) return 0;
            int d = (int)v - 1;
            given[9 * b + d] |= 1u << p;
            occupied[b] |= 1u << p;
            s->cand[9 * b + d] &= ~PEERS[p];
            for (int c = 0; c < 3; ++c)
                if (c != b) s->cand[9 * c + d] &= ~(COL0 << col);
        }
    for (int b = 0; b < 3; ++b) {
        for (int d = 0; d < 9; ++d) {
            int i = 9 * b + d;
            if (given[i] & ~s->cand[i]) return 0; /* a given seen by an equal given */
            s->cand[i] &= ~occupied[b] | given[i];
        }
        s->unsolved[b] = BAND_ALL & ~occupied[b]; /* givens are placed: their eliminations are done */
    }
    s->changed = (1u << 27) - 1;
    s->dirty_digits = 0x1FF;
    return 1;
}

static void write_grid(const state *s, uint8_t *grid)
{
    for (int b = 0; b < 3; ++b)
        for (int d = 0; d < 9; ++d) {
            uint32_t m = s->cand[9 * b + d];
            while (m) {
                grid[27 * b + lowest_bit(m)] = (uint8_t)(d + 1);
                m &= m - 1;
            }
        }
}

/* ---- search ----------------------------------------------------------------------------------- */

typedef struct {
    int limit;
    int count;
    uint8_t *solution; /* first solution found, or NULL */
} search_ctx;

/* Choose the guess cell: the first bivalue cell, else the first cell with fewest candidates (the
 * candidate count of every cell of a band is summed in four bit-sliced counter masks). */
static void choose_cell(const state *s, int *band, uint32_t *bit)
{
    for (int b = 0; b < 3; ++b)
        if (s->bivalue[b]) {
            *band = b;
            *bit = s->bivalue[b] & (0u - s->bivalue[b]);
            return;
        }
    int best = 10;
    for (int b = 0; b < 3; ++b) {
        uint32_t open = s->unsolved[b];
        if (!open) continue;
        uint32_t c0 = 0, c1 = 0, c2 = 0, c3 = 0; /* count = c0 + 2 c1 + 4 c2 + 8 c3 */
        for (int d = 0; d < 9; ++d) {
            uint32_t carry0 = c0 & s->cand[9 * b + d];
            c0 ^= s->cand[9 * b + d];
            uint32_t carry1 = c1 & carry0;
            c1 ^= carry0;
            uint32_t carry2 = c2 & carry1;
            c2 ^= carry1;
            c3 |= carry2;
        }
        for (int n = 3; n < best; ++n) {
            uint32_t with_n = open & ((n & 1) ? c0 : ~c0) & ((n & 2) ? c1 : ~c1) &
                              ((n & 4) ? c2 : ~c2) & ((n & 8) ? c3 : ~c3);
            if (with_n) {
                best = n;
                *band = b;
                *bit = with_n & (0u - with_n);
                break;
            }
        }
    }
}

static void search(state *s, search_ctx *ctx)
{
    for (;;) {
        if (!propagate(s)) return;
        if (!(s->unsolved[0] | s->unsolved[1] | s->unsolved[2])) {
            if (ctx->count++ == 0 && ctx->solution) write_grid(s, ctx->solution);
            return;
        }
        int b = 0;
        uint32_t bit = 0;
        choose_cell(s, &b, &bit);
        int d = 0;
        while (!(s->cand[9 * b + d] & bit)) ++d;
        state t = *s;
        assign(&t, b, d, bit);
        search(&t, ctx);
        if (ctx->count >= ctx->limit) return;
        narrow(s, 9 * b + d, ~bit); /* cell != d, and go on in place */
    }
}

static int count_from(state *s, int limit, uint8_t *solution)
{
    search_ctx ctx = {limit < 1 ? 1 : limit, 0, solution};
    search(s, &ctx);
    return ctx.count < ctx.limit ? ctx.count : ctx.limit;
}

/* ---- public API ------------------------------------------------------------------------------- */

int sr_count_solutions(const uint8_t *grid, int limit, uint8_t *solution)
{
    state s;
    if (!init_state(&s, grid)) return 0;
    return count_from(&s, limit, solution);
}

int sr_count_solutions_masked(const uint16_t *masks, int limit, uint8_t *solution)
{
    static const uint8_t empty[81] = {0};
    state s;
    init_state(&s, empty);
    /* Start from the empty grid and take out of each band-digit mask the cells whose pencilmarks do
     * not allow the digit; propagate() then places the decided cells (one candidate: a naked single)
     * and finds every contradiction, exactly as for givens. */
    for (int k = 0; k < 81; ++k) {
        unsigned allowed = masks[k] & 0x1FFu;
        if (!allowed) return 0;
        int b = k / 27;
        uint32_t bit = 1u << (k - 27 * b);
        for (int d = 0; d < 9; ++d)
            if (!(allowed >> d & 1u)) narrow(&s, 9 * b + d, ~bit);
    }
    return count_from(&s, limit, solution);
}

int sr_count_excluding(const uint8_t *grid, int cell, int digit, int limit, uint8_t *solution)
{
    state s;
    if (cell < 0 || cell > 80 || digit < 1 || digit > 9 || grid[cell] == digit) return 0;
    if (!init_state(&s, grid)) return 0;
    int b = cell / 27;
    narrow(&s, 9 * b + digit - 1, ~(1u << (cell - 27 * b)));
    return count_from(&s, limit, solution);
}

int sr_grid_consistent(const uint8_t *grid)
{
    /* the digits given per row, column and box (bit d-1 for digit d), then the empty cells' view */
    uint16_t rows[9] = {0}, cols[9] = {0}, boxes[9] = {0};
    for (int cell = 0; cell < 81; ++cell) {
        int digit = grid[cell];
        if (!digit) continue;
        int r = cell / 9, c = cell % 9, b = r / 3 * 3 + c / 3;
        uint16_t bit = (uint16_t)(1u << (digit - 1));
        if ((rows[r] | cols[c] | boxes[b]) & bit) return 0;
        rows[r] |= bit;
        cols[c] |= bit;
        boxes[b] |= bit;
    }
    for (int cell = 0; cell < 81; ++cell) {
        int r = cell / 9, c = cell % 9, b = r / 3 * 3 + c / 3;
        if (!grid[cell] && (rows[r] | cols[c] | boxes[b]) == 0x1FF) return 0;
    }
    return 1;
}

int sr_is_minimal(const uint8_t *grid)
{
    uint8_t solution[81];
    if (sr_count_solutions(grid, 2, solution) != 1) return 0;
    uint8_t reduced[81];
    memcpy(reduced, grid, 81);
    for (int k = 0; k < 81; ++k) {
        if (!grid[k]) continue;
        /* Without given k, is there a solution with another digit in cell k?  One is enough. */
        reduced[k] = 0;
        int other = sr_count_excluding(reduced, k, solution[k], 1, NULL);
        reduced[k] = grid[k];
        if (!other) return 0; /* given k is redundant */
    }
    return 1;
}

/* ---- random numbers: splitmix64 seeding, xoshiro256** ------------------------------------------ */

void sr_rng_seed(sr_rng *rng, uint64_t seed)
{
    uint64_t x = seed;
    for (int i = 0; i < 4; ++i) rng->s[i] = sr_splitmix64(&x);
}

/* xoshiro256** and the bounded draw are in rng.h (inline, shared with generate.c). */
uint64_t sr_rng_next(sr_rng *rng) { return sr_rng_step(rng); }

uint32_t sr_rng_below(sr_rng *rng, uint32_t bound) { return sr_rng_bounded(rng, bound); }

/* ---- the random grid sampler (how it works and its bias: the head comment) ------------------- */

/* POP9[x]: the number of digits in the 9-bit set x. */
#define POP9_OF(x)                                                                              \
    (((x) & 1) + ((x) >> 1 & 1) + ((x) >> 2 & 1) + ((x) >> 3 & 1) + ((x) >> 4 & 1) +             \
     ((x) >> 5 & 1) + ((x) >> 6 & 1) + ((x) >> 7 & 1) + ((x) >> 8 & 1))
static const uint8_t POP9[512] = {REP512(POP9_OF)};

/* The six permutations of 0..2, for decoding the random symmetry. */
static const uint8_t PERM3[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};

/* The sampler's partial grid: its digits (0 for an empty cell) and, for each row, column and box,
 * the set of digits placed there (bit d for digit d+1). */
typedef struct {
    uint8_t g[81];
    uint32_t row[9], col[9], box[9];
} fill_state;

static inline void fill_place(fill_state *f, int r, int c, int d)
{
    uint32_t bit = 1u << d;
    f->g[9 * r + c] = (uint8_t)(d + 1);
    f->row[r] |= bit;
    f->col[c] |= bit;
    f->box[3 * (r / 3) + c / 3] |= bit;
}

static inline void fill_clear(fill_state *f, int r, int c)
{
    uint32_t bit = 1u << (f->g[9 * r + c] - 1);
    f->g[9 * r + c] = 0;
    f->row[r] ^= bit;
    f->col[c] ^= bit;
    f->box[3 * (r / 3) + c / 3] ^= bit;
}

/* Start from box 1 holding digits box1[0..8] (row-major inside the box). */
static void fill_init(fill_state *f, const int *box1)
{
    memset(f, 0, sizeof *f);
    for (int i = 0; i < 9; ++i) fill_place(f, i / 3, i % 3, box1[i]);
}

/* The sampler's next cell in row r, whose empty columns are `open` (not empty): the one with fewest
 * candidate digits (digits not yet in its row, column or box), the lowest column on ties.  Its
 * column goes to *col; its candidates are returned (0: a dead end).  Branch-free: each cell's key
 * is (number of candidates) * 16 + column, and the least key wins.  path_weight() follows the path
 * with this; sample_grid() applies the same rule to its row's candidates kept incrementally (the two
 * draw identical grids: checked on 300,000 grids when the incremental form was written). */
static inline uint32_t fill_choose(const fill_state *f, int r, uint32_t open, int *col)
{
    uint32_t used = f->row[r], best = 0xFFu;
    const uint32_t *boxes = f->box + 3 * (r / 3);
    do {
        int c = lowest_bit(open);
        open &= open - 1;
        uint32_t key = (uint32_t)POP9[~(used | f->col[c] | boxes[c / 3]) & 0x1FFu] << 4 | (uint32_t)c;
        best = key < best ? key : best;
    } while (open);
    int c = (int)(best & 15u);
    *col = c;
    return ~(used | f->col[c] | boxes[c / 3]) & 0x1FFu;
}

/* 32 random bits: the two halves of each 64-bit output in turn (*spare holds the unused half, or
 * 0 for none: a half is stored with bit 32 set). */
static inline uint32_t next32(sr_rng *rng, uint64_t *spare)
{
    if (*spare) {
        uint32_t x = (uint32_t)*spare;
        *spare = 0;
        return x;
    }
    uint64_t w = sr_rng_step(rng);
    *spare = (w & 0xFFFFFFFFu) | (1ull << 32);
    return (uint32_t)(w >> 32);
}

/* A uniform integer in [0, bound), bound >= 1: Lemire's multiply-and-reject on 32 bits. */
static inline uint32_t below32(sr_rng *rng, uint64_t *spare, uint32_t bound)
{
    uint64_t m = (uint64_t)next32(rng, spare) * bound;
    if ((uint32_t)m < bound) {
        uint32_t threshold = (0u - bound) % bound;
        while ((uint32_t)m < threshold) m = (uint64_t)next32(rng, spare) * bound;
    }
    return (uint32_t)(m >> 32);
}

/* Draw box 1 (a uniformly random permutation of the digits 0..8: one draw below 9!, decoded as the
 * swaps of a Fisher-Yates shuffle) and complete it by the randomised backtracking of the head
 * comment into `grid` (digits 1..9). */
static void sample_grid(sr_rng *rng, uint8_t *grid)
{
    int box1[9] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
    uint32_t x = sr_rng_bounded(rng, 362880u);
    for (int i = 8; i > 0; --i) {
        int j = (int)(x % (uint32_t)(i + 1)), t = box1[i];
        x /= (uint32_t)(i + 1);
        box1[i] = box1[j];
        box1[j] = t;
    }
    fill_state f;
    fill_init(&f, box1);
    /* One frame per cell of the path: cand[] holds the candidates of each cell of the current row
     * before this cell got its digit (placing digit d in a row takes d from the row's other cells
     * and changes nothing else for them). */
    typedef struct {
        uint16_t cand[16];
        uint8_t r, c;
        uint16_t open;  /* the empty cells of row r when this cell was chosen (c included) */
        uint16_t avail; /* the candidates of the cell not tried yet */
    } frame;
    frame stack[64];
    uint16_t cand[16] = {0};
    int depth = 0, r = 0;
    uint32_t open = 0x1F8u; /* row 0 without box 1 */
    uint64_t spare = 0;
    for (int c = 3; c < 9; ++c) cand[c] = (uint16_t)(~(f.row[0] | f.col[c] | f.box[c / 3]) & 0x1FFu);
    for (;;) {
        while (!open) {
            if (++r == 8) { /* the last row is forced: each column lacks one digit, and those
                               * nine digits always make a valid row and boxes */
                for (int c = 0; c < 9; ++c) f.g[72 + c] = (uint8_t)(lowest_bit(~f.col[c]) + 1);
                memcpy(grid, f.g, 81);
                return;
            }
            open = r < 3 ? 0x1F8u : 0x1FFu;
            const uint32_t *boxes = f.box + 3 * (r / 3);
            for (int c = 0; c < 9; ++c) cand[c] = (uint16_t)(~(f.row[r] | f.col[c] | boxes[c / 3]) & 0x1FFu);
        }
        uint32_t best = 0xFFFFFu;
        for (uint32_t o = open; o; o &= o - 1) {
            uint32_t c = (uint32_t)lowest_bit(o);
            uint32_t key = (uint32_t)POP9[cand[c]] << 13 | c << 9 | cand[c];
            best = key < best ? key : best;
        }
        frame *t = stack + depth;
        memcpy(t->cand, cand, sizeof cand);
        t->r = (uint8_t)r;
        t->c = (uint8_t)(best >> 9 & 15u);
        t->open = (uint16_t)open;
        t->avail = (uint16_t)(best & 0x1FFu);
        for (;;) { /* put the next untried digit at stack[depth]; back up while there is none */
            uint32_t a = t->avail;
            if (a) {
                int n = POP9[a];
                if (n > 1)
                    for (uint32_t j = below32(rng, &spare, (uint32_t)n); j; --j) a &= a - 1;
                int d = lowest_bit(a);
                uint16_t bit = (uint16_t)(1u << d);
                t->avail = (uint16_t)(t->avail & ~bit);
                r = t->r;
                fill_place(&f, r, t->c, d);
                open = t->open & ~(1u << t->c);
                for (int c = 0; c < 16; ++c) cand[c] = (uint16_t)(t->cand[c] & ~bit);
                ++depth;
                break;
            }
            if (depth == 0) return; /* unreachable: every box 1 has completions */
            --t;
            --depth;
            fill_clear(&f, t->r, t->c);
        }
    }
}

/* 1/P(grid | its box 1) for the sampler, for a complete valid grid: follow the sampler's path to
 * `grid` and multiply the numbers of viable candidates (those with a completion) of its cells.  The
 * solver state s holds box 1 and the path so far, propagated: a candidate that propagation removed
 * from the cell has no completion; the others are tested by the solver (one completion is enough). */
static double path_weight(const uint8_t *grid)
{
    int box1[9];
    uint8_t start[81] = {0};
    for (int i = 0; i < 9; ++i) {
        int k = 9 * (i / 3) + i % 3;
        box1[i] = grid[k] - 1;
        start[k] = grid[k];
    }
    fill_state f;
    fill_init(&f, box1);
    state s;
    if (!init_state(&s, start) || !propagate(&s)) return 0.0;
    double weight = 1.0;
    for (int r = 0; r < 9; ++r)
        for (uint32_t open = r < 3 ? 0x1F8u : 0x1FFu; open;) {
            int c = 0;
            uint32_t cand = fill_choose(&f, r, open, &c);
            int k = 9 * r + c, d = grid[k] - 1, b = r / 3;
            uint32_t bit = 1u << (k - 27 * b);
            if (!(cand >> d & 1u)) return 0.0;
            int viable = 1; /* d itself: the grid completes it */
            for (uint32_t others = cand & ~(1u << d); others; others &= others - 1) {
                int e = lowest_bit(others);
                if (!(s.cand[9 * b + e] & bit)) continue;
                state u = s;
                assign(&u, b, e, bit);
                viable += count_from(&u, 1, NULL);
            }
            weight *= viable;
            if (s.unsolved[b] & bit) {
                assign(&s, b, d, bit);
                if (!propagate(&s)) return 0.0;
            }
            fill_place(&f, r, c, d);
            open &= ~(1u << c);
        }
    return weight;
}

double sr_grid_weight(const uint8_t *grid)
{
    for (int k = 0; k < 81; ++k)
        if (!grid[k] || grid[k] > 9) return 0.0;
    if (sr_count_solutions(grid, 1, NULL) != 1) return 0.0;
    return path_weight(grid);
}

void sr_random_grid(sr_rng *rng, uint8_t *grid) { sr_random_grid_weighted(rng, grid, NULL); }

void sr_random_grid_weighted(sr_rng *rng, uint8_t *grid, double *weight)
{
    uint8_t filled[81];
    sample_grid(rng, filled);
    if (weight) *weight = path_weight(filled);
    /* The random symmetry, from one draw below 2 * 6^8: transposition, then the order of the bands
     * and of the rows inside each, and the same for stacks and columns (a permutation of 3 things is
     * one base-6 digit).  Row r of `filled` goes to rows[r], column c to cols[c]. */
    uint32_t x = sr_rng_bounded(rng, 2u * 1679616u);
    int transpose = (int)(x & 1u), rows[9], cols[9];
    x >>= 1;
    for (int *order = rows; order; order = order == rows ? cols : NULL) {
        const uint8_t *groups = PERM3[x % 6];
        x /= 6;
        for (int g = 0; g < 3; ++g) {
            const uint8_t *inside = PERM3[x % 6];
            x /= 6;
            for (int j = 0; j < 3; ++j) order[3 * g + j] = 3 * groups[g] + inside[j];
        }
    }
    for (int r = 0; r < 9; ++r)
        for (int c = 0; c < 9; ++c) {
            int k = transpose ? 9 * cols[c] + rows[r] : 9 * rows[r] + cols[c];
            grid[k] = filled[9 * r + c];
        }
}
