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
 * relabelling maps the grids with one box 1 one-to-one onto those with any other), then completes it
 * with random_search(): the propagating search above, where at each guess cell the candidate digits
 * are tried in a uniformly random order (the first one whose subtree has a completion is kept, so the
 * digit kept is uniform among the cell's *viable* digits).  The finished grid then goes through a
 * uniformly random element of the validity-preserving symmetry group (band and stack permutations,
 * row and column permutations inside them, transposition, digit relabelling).
 *
 * Given box 1, a grid g is drawn with probability P(g) = prod 1/v_i over the guess points of its
 * search path (v_i viable digits at guess i), where uniform sampling would give every grid
 * 1/N1, N1 = 6,670,903,752,021,072,936,960 / 9! = 1.838e16 the completions of a box 1.  So the
 * sampler is NOT uniform: grids reached through few, narrow guesses are favoured.  The symmetry step
 * makes the result exactly uniform inside each equivalence class of grids, so the bias lies only
 * across the 5,472,730,538 essentially different grids (it averages P over a class).
 *
 * Measured with sr_random_grid_weighted (which returns w(g) = 1/P(g)), 20,000 grids, seed 5: the mean
 * of w is 1.857e16, within 1% of N1 (a check of the weights: E[w] = N1 exactly), but w ranges from
 * 1.1e14 to 5.1e17 (coefficient of variation 1.5), and the effective sample size
 * (sum w)^2 / (n sum w^2) is 0.30 of n.  In words: before the symmetry step, the likeliest grids
 * sampled are drawn ~4,600 times as often as the least likely ones.  A statistic whose terms are
 * weighted by w / N1 (importance sampling) is exactly unbiased, at ~1/0.30 = 3.3 times the variance.
 *
 * After the symmetry step the bias is much smaller, because a class's probability is the average of
 * P over its ~1.2e12 members, and P varies mostly within classes.  sr_grid_weight(g) gives w for any
 * complete grid g; a class's probability relative to uniform is r = mean over symmetries s of
 * N1 / w(s g).  Measured (benchmarks/bench_core.py, 400 sampled grids x 120 random symmetries each,
 * split in halves so the estimation noise cancels in a covariance): r has standard deviation 0.42
 * across the classes the sampler draws, 5% / 50% / 95% quantiles of the estimates 0.61 / 0.98 / 1.97.
 * So the sampler draws some classes about twice as often as uniform and others about half as often;
 * this is the usual random-backtracking grid source, not an exactly uniform sampler.
 */
#include "core.h"

#include <string.h>

#define BAND_ALL 0x7FFFFFFu /* the 27 cells of a band */
#define COL0 0x40201u       /* column 0 of a band: bits 0, 9, 18 */
#define BOX0 0x1C0E07u      /* box 0 of a band: bits 0-2, 9-11, 18-20 */

/* ---- tables, built by the preprocessor -------------------------------------------------------- */

#define REP4(T, n) T(n), T((n) + 1), T((n) + 2), T((n) + 3)
#define REP16(T, n) REP4(T, n), REP4(T, (n) + 4), REP4(T, (n) + 8), REP4(T, (n) + 12)
#define REP64(T, n) REP16(T, n), REP16(T, (n) + 16), REP16(T, (n) + 32), REP16(T, (n) + 48)
#define REP512(T)                                                                               \
    REP64(T, 0), REP64(T, 64), REP64(T, 128), REP64(T, 192), REP64(T, 256), REP64(T, 320),     \
        REP64(T, 384), REP64(T, 448)

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

/* The index of the lowest set bit of x (x != 0). */
#if defined(_MSC_VER)
#include <intrin.h>
static inline int lowest_bit(uint32_t x)
{
    unsigned long index;
    _BitScanForward(&index, x);
    return (int)index;
}
#else
static inline int lowest_bit(uint32_t x) { return __builtin_ctz(x); }
#endif

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

/* Random completion of a consistent state into `grid`; 1 on success, 0 when there is none.  At each
 * guess cell the candidates are tried in a uniformly random order on copies of the state, so the
 * digit kept is uniform among the cell's viable digits (those with a completion) and a viable
 * subtree is never left.  A grid g is thus drawn with probability prod 1/v_i over the guess points
 * of its path, v_i the number of viable digits there.  When `weight` is not NULL the untried digits
 * are tested too and *weight is multiplied by prod v_i = 1/P(g) (for measuring the bias). */
static int random_search(state *s, sr_rng *rng, uint8_t *grid, double *weight)
{
    if (!propagate(s)) return 0;
    if (!(s->unsolved[0] | s->unsolved[1] | s->unsolved[2])) {
        write_grid(s, grid);
        return 1;
    }
    int b = 0;
    uint32_t bit = 0;
    choose_cell(s, &b, &bit);
    int digits[9], n = 0;
    for (int e = 0; e < 9; ++e)
        if (s->cand[9 * b + e] & bit) digits[n++] = e;
    for (int j = 0; j < n; ++j) {
        int r = j + (int)sr_rng_below(rng, (uint32_t)(n - j)); /* lazy Fisher-Yates */
        int d = digits[r];
        digits[r] = digits[j];
        digits[j] = d;
        state t = *s;
        assign(&t, b, d, bit);
        if (random_search(&t, rng, grid, weight)) {
            if (weight) {
                int viable = 1;
                for (int k = j + 1; k < n; ++k) {
                    state u = *s;
                    assign(&u, b, digits[k], bit);
                    viable += count_from(&u, 1, NULL);
                }
                *weight *= viable;
            }
            return 1;
        }
    }
    return 0;
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

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void sr_rng_seed(sr_rng *rng, uint64_t seed)
{
    uint64_t x = seed;
    for (int i = 0; i < 4; ++i) rng->s[i] = splitmix64(&x);
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t sr_rng_next(sr_rng *rng)
{
    uint64_t *s = rng->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

uint32_t sr_rng_below(sr_rng *rng, uint32_t bound)
{
    /* Lemire's multiply-and-reject on the high 32 bits of the output. */
    uint64_t m = (sr_rng_next(rng) >> 32) * (uint64_t)bound;
    uint32_t low = (uint32_t)m;
    if (low < bound) {
        uint32_t threshold = (0u - bound) % bound;
        while (low < threshold) {
            m = (sr_rng_next(rng) >> 32) * (uint64_t)bound;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

/* A uniformly random permutation of 0..n-1 (Fisher-Yates). */
static void random_permutation(sr_rng *rng, int *p, int n)
{
    for (int i = 0; i < n; ++i) p[i] = i;
    for (int i = n - 1; i > 0; --i) {
        int j = (int)sr_rng_below(rng, (uint32_t)i + 1);
        int t = p[i];
        p[i] = p[j];
        p[j] = t;
    }
}

/* A random line order that keeps bands (or stacks) together: line i goes to position order[i]. */
static void random_line_order(sr_rng *rng, int *order)
{
    int groups[3], inside[3];
    random_permutation(rng, groups, 3);
    for (int g = 0; g < 3; ++g) {
        random_permutation(rng, inside, 3);
        for (int j = 0; j < 3; ++j) order[3 * g + j] = 3 * groups[g] + inside[j];
    }
}

double sr_grid_weight(const uint8_t *grid)
{
    uint8_t start[81] = {0};
    for (int k = 0; k < 81; ++k)
        if (k % 9 < 3 && k < 27) start[k] = grid[k];
    state s;
    if (!init_state(&s, start) || sr_count_solutions(grid, 1, NULL) != 1) return 0.0;
    for (int k = 0; k < 81; ++k)
        if (!grid[k]) return 0.0;
    double weight = 1.0;
    for (;;) { /* follow the path random_search takes to `grid` */
        if (!propagate(&s)) return 0.0;
        if (!(s.unsolved[0] | s.unsolved[1] | s.unsolved[2])) return weight;
        int b = 0;
        uint32_t bit = 0;
        choose_cell(&s, &b, &bit);
        int target = grid[27 * b + lowest_bit(bit)] - 1, viable = 0;
        for (int d = 0; d < 9; ++d)
            if (d != target && (s.cand[9 * b + d] & bit)) {
                state u = s;
                assign(&u, b, d, bit);
                viable += count_from(&u, 1, NULL);
            }
        weight *= viable + 1;
        assign(&s, b, target, bit);
    }
}

void sr_random_grid(sr_rng *rng, uint8_t *grid) { sr_random_grid_weighted(rng, grid, NULL); }

void sr_random_grid_weighted(sr_rng *rng, uint8_t *grid, double *weight)
{
    uint8_t start[81] = {0};
    int box[9];
    random_permutation(rng, box, 9);
    for (int i = 0; i < 9; ++i) start[9 * (i / 3) + i % 3] = (uint8_t)(box[i] + 1);
    state s;
    init_state(&s, start);
    uint8_t filled[81];
    if (weight) *weight = 1.0;
    random_search(&s, rng, filled, weight); /* a valid box 1 always completes */

    int rows[9], cols[9], digits[9];
    random_line_order(rng, rows);
    random_line_order(rng, cols);
    random_permutation(rng, digits, 9);
    int transpose = (int)sr_rng_below(rng, 2);
    for (int r = 0; r < 9; ++r)
        for (int c = 0; c < 9; ++c) {
            int k = transpose ? 9 * cols[c] + rows[r] : 9 * rows[r] + cols[c];
            grid[k] = (uint8_t)(digits[filled[9 * r + c] - 1] + 1);
        }
}
