/*
 * sudorules._trial: the trial propagation of sudorules/engine/trial.py in C.  C11, no dependencies.
 *
 *     depths(labels, targets, g, limit) -> list[int]
 *     State(labels).depth(assumed, g, limit) -> int
 *     State(labels).whip(target, g, limit, budget) -> int   (a search, not a propagation: its own
 *                                                            section below says what and why)
 *     State(labels).g_whip(target, limit, budget) -> int    (the same, for a whip with a g-rlc)
 *     State(labels).braid(target, g, limit, budget) -> int  (the same for braids and g-braids)
 *     State(labels).chain(target, mode, length, typed, budget) -> tuple | int
 *                                                           (one special chain, found and returned)
 *
 * For each target Z (a label among `labels`, the current candidates) the contradiction depth of Z,
 * exactly TrialState(labels, LINKS).contradiction_depth(Z, g) of trial.py, when it is not None and at
 * most `limit`, else 0.  (Assume Z, remove every candidate linked to it, then by rounds force the
 * only compatible candidate of every undecided CSP variable; with g, a variable whose 2 or 3
 * compatible candidates lie in one of its g-labels assumes that g-label, whose g-links go in the next
 * round.  The depth is the round in which a variable is emptied, or in which the links of the
 * candidates forced (g-labels assumed) in the previous round hit a candidate forced in that same
 * round; trial.py's module docstring says why it bounds the length of a braid / g-braid.)
 *
 * Why it exists: the engine calls depths() after every chain step to decide which targets' partial
 * whips (braids) to build at the current level, so it must cost microseconds per target; the Python
 * costs 70-190 us per target (set and dict work per removed candidate).  Like the Python given a
 * limit, it stops a target as soon as the round number would exceed `limit` (callers only want depths
 * up to the current level): limit 3 costs ~65% of limit 36 on the states below.
 *
 * Measured (benchmarks/bench_trial.py: the first 200 puzzles of cb-001 after BRT, every remaining
 * candidate a target, 25,608 targets; GCC 12 -O3, one core of a shared 2-core AMD EPYC VM): per target,
 * Python (TrialState.contradiction_depth, stopped at the limit too) / C, state building included:
 *     g False, limit 3:   66 us / 0.69 us (~95x)        g False, limit 36:  109 us / 1.1 us (~100x)
 *     g True,  limit 3:  118 us / 1.0 us  (~115x)       g True,  limit 36:  189 us / 1.6 us (~115x)
 * (C at limit 1: 0.29 us without g, 0.39 us with; building the state, ~4 us a call, is 0.035 us a
 * target at 128 targets a call.)
 *
 * State(labels) holds the candidates (an immutable object: built once, then only read), and
 * st.depth(assumed, g, limit) runs the same propagation from a set of assumptions at round 0: the
 * labels of `assumed` (among the state's) are assumed and their variables decided, its g-labels
 * (labels.py's ids 10 * variable + segment, whatever g) are g-assumed, and all of them make the first
 * frontiers, so round 1 removes all their links and g-links (two linked assumed labels, or an assumed
 * label g-linked to an assumed g-label, contradict in round 1); the rest is depths()'s propagation, and
 * from one label it is depths() of that label (both call propagate()).  Positional only, 0 when there
 * is no contradiction within `limit` (>= 1) rounds; TypeError / ValueError for a bad argument or an
 * empty `assumed`.
 *
 * Why it exists: per-partial-braid pruning.  A partial braid of length k on Z with rlc set S can only
 * extend to a braid (g-braid) of length <= m if the propagation from Z and S together contradicts within
 * m - k rounds (its remaining rlcs are forced one a round, its last variable emptied).  The engine asks
 * st.depth([Z, *S], g, m - k) from a CLIPS rule's right-hand side before building each partial braid of
 * the lean stage's target, and drops those that cannot complete in that stage: millions of calls on hard
 * puzzles, each with 3-10 assumptions.  So the State indexes the candidates once (~1.5 us) and a call
 * only copies the per-variable masks (648 bytes) and zeroes small bitsets on its stack, parsing
 * `assumed` straight from the list (METH_FASTCALL: no argument tuple).
 *
 * Measured (bench_trial.py, same 200 states, 4,000 sets per row: a random target and the rlcs of a
 * random partial braid on it, or with g of a partial g-braid, ~85% of whose rlcs are then g-labels),
 * per call, Python's call and loop included (~0.05 us of it), two runs (the VM is noisy: a third run,
 * in a slow phase where depths() too was ~20% slower, gave up to 2.0 us at limit 3, 2.2 us at 36):
 *     3 assumptions: limit 3  0.94-1.35 us,  limit 36  1.4-1.9 us
 *     6 assumptions: limit 3  1.2-1.55 us,   limit 36  1.5-2.2 us
 *     9 assumptions: limit 3  1.3-1.9 us,    limit 36  1.5-2.2 us
 * (~100x trial.py's TrialState.depth: 80-240 us.)  The cost is the propagation itself, ~4 variable
 * updates per removed candidate: with 6 assumptions round 1 alone is ~0.6 us (one label: ~0.3 us) and
 * each further round ~0.25 us; a packed var/position table made no measurable difference.
 *
 * ---------------------------------------------------------------------------------------------------
 * Data layout (the one place it is documented)
 * ---------------------------------------------------------------------------------------------------
 * Labels.  The Python label 100n + 10r + c (digit n, row r, column c, all 1..9) is index
 * i = 81(n-1) + 9(r-1) + (c-1), 0..728: digit-major, then the cell 0..80 row-major.
 *
 * Sets of labels are bitsets of 729 bits in W = 12 uint64 words (bit i % 64 of word i / 64); the 39
 * bits past 728 stay 0.
 *
 * CSP variables are 0..323, 81 of each kind, with the position (0..8) of each of their 9 members:
 *       rc  9(r-1) + (c-1)          members: the 9 digits of the cell       position n-1
 *       rn  81 + 9(r-1) + (n-1)     members: digit n in the 9 cells of row  position c-1
 *       cn  162 + 9(c-1) + (n-1)    members: digit n in the 9 cells of col  position r-1
 *       bn  243 + 9(b-1) + (n-1)    members: digit n in the 9 cells of box  position 3(row in box)
 *                                                                                + (col in box)
 * (b the box 1..9, row-major; rows and columns in box 0..2).  A set of members of one variable is a
 * 9-bit mask over positions: the propagation keeps, per variable, the mask of its members still
 * present and not removed, so "compatible[v]" of trial.py is its popcount and the forced candidate
 * its lowest bit.  Two labels are linked iff they share a variable, so LINK[i] is the union of the
 * members of i's four variables, minus i.
 *
 * g-labels are 0..971, in the order of labels.py's G_LABELS: 243 rn (row r, digit n, column triplet
 * s: 9*9*3), 243 cn (column, digit, row triplet), 486 bn (box, digit, segment: rows 0..2 of the
 * box, then columns 0..2).  A g-label is a 9-bit mask of its variable's positions: 7 << 3s for rn /
 * cn triplet s (0..2) and bn row s, 0x49 << j for bn column j.  GLINK[k] (labels.py's G_LINKS) is the
 * AND of the LINK sets of its three labels.  Only rn, cn and bn variables have g-labels (3, 3, 6).
 *
 * All these tables are static, filled once by fill_tables() when the module is first imported and
 * only read afterwards (they are not const only because the preprocessor cannot build the bitsets);
 * G_INDEX maps labels.py's g-label ids to these indices.  There is no other global state besides
 * their "filled" flag (a call's state lives on its stack; a State object's candidates are written by
 * its constructor only).
 * ---------------------------------------------------------------------------------------------------
 *
 * Fidelity to trial.py (the tests in tests/test_trial_c.py compare the two on random and real
 * states).  In one round the Python scans the links of the frontier labels, then the g-links of the
 * g-frontier, and returns the round as soon as one of them is a label forced in the previous round
 * ("x in newly"), else removes those neither removed nor assumed.  Scanning order cannot change
 * the outcome, so here the union of all those link sets is taken at once.  Likewise the undecided
 * touched variables are examined in any order: an emptied one returns the round whatever was
 * collected before, forced labels are de-duplicated in a bitset, and the g-frontier is a set of
 * g-labels.  A variable not decided holds no assumed label (assuming a label decides its four
 * variables), so its mask is exactly the Python's compatible candidates, and a label it forces was
 * never assumed before.  With several assumptions (State.depth) the same holds: round 0's "newly" is
 * all the assumed labels, and the variables of each are decided from round 0.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <string.h>

#define NL 729 /* labels */
#define NV 324 /* CSP variables */
#define NG 972 /* g-labels */
#define W 12   /* uint64 words of a label bitset */
#define WV 6   /* uint64 words of a variable bitset */
#define WG 16  /* uint64 words of a g-label bitset */

#if defined(__GNUC__) || defined(__clang__)
#define CTZ64(x) __builtin_ctzll(x)
#else
static int CTZ64(uint64_t x) /* x != 0 */
{
    int n = 0;
    while (!(x & 1u)) {
        x >>= 1;
        ++n;
    }
    return n;
}
#endif

/* ---- tables, filled once at import (fill_tables) and read-only afterwards --------------------- */

static uint64_t LINK[NL][W];     /* labels linked to label i */
static uint64_t GLINK[NG][W];    /* labels linked to all three labels of g-label k */
static uint16_t VAR_OF[NL][4];   /* the rc, rn, cn, bn variables of label i */
static uint16_t POS_IN[NL][4];   /* bit (1 << position) of label i in each of them */
static uint16_t MEMBER[NV][9];   /* the label at each position of variable v */
static uint16_t G_OF_VAR[NV][6]; /* the g-labels of variable v (G_COUNT[v] of them) */
static uint8_t G_COUNT[NV];      /* 0 for rc, 3 for rn and cn, 6 for bn */
static uint16_t G_MASK[NG];      /* the positions of g-label k in its variable */
static uint16_t G_VAR[NG];       /* the variable of g-label k */
#define G_ID_MIN 2111            /* labels.py's g-label ids 10 * variable id + segment: 2111..4996 */
#define G_ID_MAX 4996
static int16_t G_INDEX[G_ID_MAX - G_ID_MIN + 1]; /* g-label k of id G_ID_MIN + j, -1 for no g-label */

static int label_index(int n, int r, int c) { return 81 * n + 9 * r + c; } /* all 0-based */

/* Called once, by the first PyInit__trial (the tables start as static zeros); `tables_ready` keeps a
 * second initialisation from rewriting tables that a call running without the GIL may be reading. */
static uint64_t SET_KEY[NL + NG]; /* a random key per label and per g-label (NL + k): the cache's set hash */
static int tables_ready;

static void fill_tables(void)
{
    if (tables_ready) return;
    for (int n = 0; n < 9; ++n)
        for (int r = 0; r < 9; ++r)
            for (int c = 0; c < 9; ++c) {
                int i = label_index(n, r, c), b = 3 * (r / 3) + c / 3;
                const int var[4] = {9 * r + c, 81 + 9 * r + n, 162 + 9 * c + n, 243 + 9 * b + n};
                const int pos[4] = {n, c, r, 3 * (r % 3) + c % 3};
                for (int k = 0; k < 4; ++k) {
                    VAR_OF[i][k] = (uint16_t)var[k];
                    POS_IN[i][k] = (uint16_t)(1u << pos[k]);
                    MEMBER[var[k]][pos[k]] = (uint16_t)i;
                }
            }
    for (int i = 0; i < NL; ++i) {
        for (int k = 0; k < 4; ++k)
            for (int p = 0; p < 9; ++p) {
                int j = MEMBER[VAR_OF[i][k]][p];
                LINK[i][j >> 6] |= 1ull << (j & 63);
            }
        LINK[i][i >> 6] &= ~(1ull << (i & 63));
    }
    /* g-labels in labels.py's order: rn, cn (3 triplets each), bn (3 rows, 3 columns); the variable
     * 81 kind + 9 (a - 1) + (n - 1) is labels.py's 100 (kind + 1) + 10 a + n, segment s its s + 1. */
    for (int j = 0; j <= G_ID_MAX - G_ID_MIN; ++j) G_INDEX[j] = -1;
    int k = 0;
    for (int kind = 1; kind <= 3; ++kind)
        for (int v = 81 * kind; v < 81 * (kind + 1); ++v)
            for (int s = 0; s < (kind == 3 ? 6 : 3); ++s, ++k) {
                uint16_t mask = (uint16_t)(s < 3 ? 7u << (3 * s) : 0x49u << (s - 3));
                G_MASK[k] = mask;
                G_VAR[k] = (uint16_t)v;
                G_OF_VAR[v][G_COUNT[v]++] = (uint16_t)k;
                int a = (v - 81 * kind) / 9 + 1, n = v % 9 + 1;
                G_INDEX[10 * (100 * (kind + 1) + 10 * a + n) + s + 1 - G_ID_MIN] = (int16_t)k;
                for (int w = 0; w < W; ++w) GLINK[k][w] = ~0ull;
                for (int p = 0; p < 9; ++p)
                    if (mask >> p & 1u)
                        for (int w = 0; w < W; ++w) GLINK[k][w] &= LINK[MEMBER[v][p]][w];
            }
    uint64_t x = 0x853C49E6748FEA9Bull; /* splitmix64: fixed keys, the same in every process */
    for (int j = 0; j < NL + NG; ++j) {
        uint64_t z = (x += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        SET_KEY[j] = z ^ (z >> 31);
    }
    tables_ready = 1;
}

/* ---- the propagation ------------------------------------------------------------------------- */

/* The candidates of a state: what depths() builds per call and a State object once. */
typedef struct {
    uint64_t present[W]; /* the candidates */
    uint16_t live[NV];   /* per variable, the positions of its present members */
} Cands;

/* Fill c->live from c->present. */
static void cands_index(Cands *c)
{
    memset(c->live, 0, sizeof c->live);
    for (int w = 0; w < W; ++w)
        for (uint64_t bits = c->present[w]; bits; bits &= bits - 1) {
            int i = 64 * w + CTZ64(bits);
            for (int k = 0; k < 4; ++k) c->live[VAR_OF[i][k]] |= POS_IN[i][k];
        }
}

/* The round in which the propagation from the labels of `assumed0` (all present) and the g-labels of
 * `g_assumed0`, all assumed at round 0, contradicts, or 0 when it stops first or would go past round
 * `limit`.  Only reads `c`, the tables and its arguments (its state is on the stack). */
static int propagate(const Cands *c, const uint64_t assumed0[W], const uint64_t g_assumed0[WG], int g,
                     long limit)
{
    uint16_t live[NV];
    memcpy(live, c->live, sizeof live);
    uint64_t removed[W] = {0}, assumed[W], newly[W];
    uint64_t decided[WV] = {0}, g_assumed[WG];
    uint16_t frontier[NL], g_frontier[NG];
    int n_frontier = 0, n_g_frontier = 0;
    memcpy(assumed, assumed0, sizeof assumed);
    memcpy(newly, assumed0, sizeof newly);
    memcpy(g_assumed, g_assumed0, sizeof g_assumed);
    for (int w = 0; w < W; ++w)
        for (uint64_t bits = assumed0[w]; bits; bits &= bits - 1) {
            int x = 64 * w + CTZ64(bits);
            frontier[n_frontier++] = (uint16_t)x;
            for (int k = 0; k < 4; ++k) decided[VAR_OF[x][k] >> 6] |= 1ull << (VAR_OF[x][k] & 63);
        }
    for (int w = 0; w < WG; ++w)
        for (uint64_t bits = g_assumed0[w]; bits; bits &= bits - 1)
            g_frontier[n_g_frontier++] = (uint16_t)(64 * w + CTZ64(bits));

    for (long depth = 1; n_frontier || n_g_frontier; ++depth) {
        if (depth > limit) return 0;
        uint64_t hit[W] = {0};
        for (int f = 0; f < n_frontier; ++f)
            for (int w = 0; w < W; ++w) hit[w] |= LINK[frontier[f]][w];
        for (int f = 0; f < n_g_frontier; ++f)
            for (int w = 0; w < W; ++w) hit[w] |= GLINK[g_frontier[f]][w];
        uint64_t clash = 0;
        for (int w = 0; w < W; ++w) {
            hit[w] &= c->present[w];
            clash |= hit[w] & newly[w];
        }
        if (clash) return (int)depth; /* two candidates forced (assumed) together, or one of them and a
                                       * g-label assumed with them, are linked */
        uint64_t touched[WV] = {0};
        for (int w = 0; w < W; ++w) {
            uint64_t fresh = hit[w] & ~removed[w] & ~assumed[w];
            removed[w] |= fresh;
            for (; fresh; fresh &= fresh - 1) {
                int x = 64 * w + CTZ64(fresh);
                for (int k = 0; k < 4; ++k) {
                    int v = VAR_OF[x][k];
                    live[v] &= (uint16_t)~POS_IN[x][k];
                    touched[v >> 6] |= 1ull << (v & 63);
                }
            }
        }
        n_frontier = n_g_frontier = 0;
        for (int w = 0; w < W; ++w) newly[w] = 0;
        for (int w = 0; w < WV; ++w)
            for (uint64_t open = touched[w] & ~decided[w]; open; open &= open - 1) {
                int v = 64 * w + CTZ64(open);
                /* Only 0, 1, 2-3 or more matter: clearing the lowest bit thrice beats a popcount, which
                 * without -mpopcnt is a library call. */
                unsigned left = live[v], rest = left & (left - 1);
                if (left == 0) return (int)depth;
                if (rest == 0) {
                    int x = MEMBER[v][CTZ64(left)];
                    uint64_t bit = 1ull << (x & 63);
                    if (!(newly[x >> 6] & bit)) { /* the same label forced by two variables */
                        newly[x >> 6] |= bit;
                        frontier[n_frontier++] = (uint16_t)x;
                    }
                } else if (g && ((rest & (rest - 1)) & ((rest & (rest - 1)) - 1)) == 0) { /* 2 or 3 */
                    for (int j = 0; j < G_COUNT[v]; ++j) {
                        int gl = G_OF_VAR[v][j];
                        if (!(left & ~G_MASK[gl]) && !(g_assumed[gl >> 6] >> (gl & 63) & 1u))
                            g_frontier[n_g_frontier++] = (uint16_t)gl;
                    }
                }
            }
        /* As in trial.py, the round's g-labels and forced labels are assumed only once every touched
         * variable has been examined: decided[] must not change during that scan. */
        for (int f = 0; f < n_g_frontier; ++f) g_assumed[g_frontier[f] >> 6] |= 1ull << (g_frontier[f] & 63);
        for (int f = 0; f < n_frontier; ++f) {
            int x = frontier[f];
            assumed[x >> 6] |= 1ull << (x & 63); /* never assumed before: its variables were undecided */
            for (int k = 0; k < 4; ++k) decided[VAR_OF[x][k] >> 6] |= 1ull << (VAR_OF[x][k] & 63);
        }
    }
    return 0;
}

static int has(const uint64_t *bits, int i) { return (int)(bits[i >> 6] >> (i & 63) & 1u); }
static void put(uint64_t *bits, int i) { bits[i >> 6] |= 1ull << (i & 63); }

/* ---- whips: does a whip (g-whip) of length <= limit exist on a target? -------------------------
 *
 * A depth-first search over the partial whips of the target (SPEC §4.2, §7.2), as the rules build them
 * (rules/partial-whip1.clp, partial-whip.clp, whip.clp): from the last rlc R (Z for the first cell), a
 * left-linking candidate L linked to R; a variable V of L, not yet used and not one of R's own
 * variables (such a V holds R, compatible with Z and the rlcs); then the candidates of V other than L
 * that are not linked to Z or to an rlc (not in `inc`): none makes a whip, exactly one (not Z nor an
 * rlc) is the next rlc.  With g (SPEC §4.5, rules/partial-g-whip*.clp, g-whip.clp) two or three of them
 * lying in one g-label G of V, L not in G and neither Z nor an rlc in G, make G the next rlc: its
 * g-links (linked to all its labels) join `inc`, and the next L is g-linked to it.  The search stops
 * at the first whip found; the rules' one refusal it omits is said at the cache below.
 *
 * Why it exists: the engine builds the partial whips (g-whips) of only the targets that carry one of
 * the active level's length or less in the current state (driver.py, Engine._whip_search).  The trial
 * depth is a necessary condition only: at level 4 of W4 puzzles 40-70 targets pass it and 2-8 get a
 * whip[4].  A node here is a few bitset operations (about 0.2 us), where CLIPS pays tens of
 * microseconds of Rete work for each partial whip it builds, keeps up to date through every
 * elimination and retracts.  Measured (docs/engine.md): W3-W6 and gW4-gW6 puzzles 1.6-2x faster.
 *
 * `budget` bounds the nodes visited: past it the answer is "maybe" (-1), which the engine treats as
 * "yes" (the target is focused and CLIPS decides), so a pathological target costs bounded time and a
 * whip is never missed. */
typedef struct {
    const Cands *c;
    int limit, g;
    int need_g;           /* g_whip(): only a chain with a g-rlc closes */
    int n_g;              /* the number of g-rlcs of the partial whip */
    long budget;
    uint64_t rlcs[W];     /* Z and the rlcs of the partial whip that are labels */
    uint64_t grlcs[WG];   /* its g-rlcs */
    uint64_t used[WV];    /* its variables */
    uint64_t key;         /* the XOR of the SET_KEY of Z and the rlcs (memo_slot) */
} WhipSearch;

/* Failed partial whips, so that the orders of one set of rlcs ending on the same rlc are explored
 * once.  A partial (g-)whip's extensions depend only on its set of rlcs S (inc is the links of Z and
 * S, and the next rlc must not be Z or in S) and its last rlc, not on its left-linking candidates or
 * its variables: the rules also refuse a left-linking candidate that was an earlier one, the search
 * does not, so it may say yes where CLIPS finds nothing, never the reverse; and a used variable needs
 * no test, being a function of S: a label rlc's variable holds that rlc, present and not linked to Z
 * or any rlc (nor g-linked to a g-rlc, which would put all the g-rlc's labels in inc), so it can
 * give no new rlc; a g-rlc's variable is the g-label's.  The cache is direct-mapped, keyed by
 * (S, last rlc), with a generation number so that each search starts with it empty at no cost;
 * `rem` is the largest number of cells that failed to complete from there.  It is static (1.8 MB,
 * used only with the GIL held: whip() does not release it). */
#define MEMO_SIZE 8192
static struct {
    uint64_t rlcs[W];
    uint64_t grlcs[WG];
    uint32_t gen;
    int16_t last;
    int16_t rem;
} memo[MEMO_SIZE];
static uint32_t memo_gen;

/* The slot of (set of rlcs, last rlc): `key` is the XOR of the SET_KEY of Z and of every rlc, kept up to
 * date as rlcs come and go (hashing the 28 words of the two bitsets at every node was about a fifth of
 * the g-whip searches' time: perf, the 1,504 searches of line 12301 at level 10). */
static unsigned memo_slot(uint64_t key, int last)
{
    uint64_t h = (key ^ (uint64_t)(last + 1) * 0x9E3779B97F4A7C15ull) * 0xFF51AFD7ED558CCDull;
    return (unsigned)(h >> 51) & (MEMO_SIZE - 1);
}

/* Add rlc `i` (bit i of `bits`: the label rlcs, or the g-rlcs) to a partial chain's set, or take it out
 * again: the set and its hash `key` (SET_KEY[key_index] in it) change together, in one place. */
static void flip_rlc(uint64_t *bits, uint64_t *key, int i, int key_index)
{
    bits[i >> 6] ^= 1ull << (i & 63);
    *key ^= SET_KEY[key_index];
}

/* 1 if (rlcs, grlcs, last) failed with at least `rem` cells left in this search. */
static int memo_failed(unsigned slot, const uint64_t rlcs[W], const uint64_t grlcs[WG], int last, int rem)
{
    return memo[slot].gen == memo_gen && memo[slot].last == last && memo[slot].rem >= rem &&
           !memcmp(memo[slot].rlcs, rlcs, sizeof memo[slot].rlcs) &&
           !memcmp(memo[slot].grlcs, grlcs, sizeof memo[slot].grlcs);
}

static void memo_fail(unsigned slot, const uint64_t rlcs[W], const uint64_t grlcs[WG], int last, int rem)
{
    memcpy(memo[slot].rlcs, rlcs, sizeof memo[slot].rlcs);
    memcpy(memo[slot].grlcs, grlcs, sizeof memo[slot].grlcs);
    memo[slot].gen = memo_gen;
    memo[slot].last = (int16_t)last;
    memo[slot].rem = (int16_t)rem;
}

/* A new search: every cache entry out of date. */
static void memo_start(void)
{
    if (++memo_gen == 0) { /* wrapped: entries of generation 0 could look current */
        memset(memo, 0, sizeof memo);
        memo_gen = 1;
    }
}

/* Take the candidates of `links` that are not yet in `inc` into it, and out of `free`. */
static void join_inc(const Cands *c, const uint64_t *links, uint64_t inc[W], uint16_t free[NV])
{
    for (int w = 0; w < W; ++w) {
        uint64_t fresh = links[w] & c->present[w] & ~inc[w];
        inc[w] |= links[w];
        for (; fresh; fresh &= fresh - 1) {
            int x = 64 * w + CTZ64(fresh);
            for (int k = 0; k < 4; ++k) free[VAR_OF[x][k]] &= (uint16_t)~POS_IN[x][k];
        }
    }
}

/* Is `v` a variable of rlc `last` (a label index, or NL + a g-label index)? */
static int rlc_variable(int last, int v)
{
    if (last >= NL) return G_VAR[last - NL] == v;
    return VAR_OF[last][0] == v || VAR_OF[last][1] == v || VAR_OF[last][2] == v || VAR_OF[last][3] == v;
}

static int is_used(const WhipSearch *s, int v) { return (int)(s->used[v >> 6] >> (v & 63) & 1u); }

/* 1 if the partial whip of length s->limit - 1 whose newest rlc `last` (in s) has `links` (its links, or
 * a g-rlc's g-links) closes: a variable, not used and not last's, with a present member in links and
 * every free member (`free`: its parent's) in links; 0 if not, -1 out of budget.  The last cell is
 * tested here rather than by building the partial whip (copying inc and free, joining its links) and
 * caching its failure: two thirds of the nodes are such leaves (the 1,446 g-whip searches at limit 9 of
 * line 12301: 51 of 75 million), and their cache entries evicted the others'. */
static int whip_closes(WhipSearch *s, int last, const uint64_t *links, const uint16_t free[NV])
{
    if (--s->budget < 0) return -1;
    if (s->need_g && !s->n_g) return 0;
    const Cands *c = s->c;
    for (int w = 0; w < W; ++w)
        for (uint64_t bits = links[w] & c->present[w]; bits; bits &= bits - 1) {
            int l = 64 * w + CTZ64(bits);
            for (int kk = 0; kk < 4; ++kk) {
                int v = VAR_OF[l][kk];
                unsigned f = free[v];
                while (f && has(links, MEMBER[v][CTZ64(f)])) f &= f - 1;
                if (f == 0 && !is_used(s, v) && !rlc_variable(last, v)) return 1;
            }
        }
    return 0;
}

static int whip_extend(WhipSearch *s, int last, int k, const uint64_t inc[W], const uint16_t free[NV], unsigned slot);

/* The partial whip of length k whose newest rlc `last` (in s, its variable in s->used) has `links`, its
 * parent's being `inc` and `free`: 1 if a whip extends it, 0 if none, -1 out of budget. */
static int whip_child(WhipSearch *s, int last, int k, const uint64_t inc[W], const uint16_t free[NV],
                      const uint64_t *links)
{
    if (k + 1 >= s->limit) return whip_closes(s, last, links, free);
    unsigned slot = memo_slot(s->key, last);
    if (memo_failed(slot, s->rlcs, s->grlcs, last, s->limit - k)) return 0;
    uint64_t next[W];
    uint16_t next_free[NV];
    memcpy(next, inc, sizeof next);
    memcpy(next_free, free, sizeof next_free);
    join_inc(s->c, links, next, next_free);
    return whip_extend(s, last, k, next, next_free, slot);
}

/* Scratch of whip_extend: per variable, the positions of its left-linking candidates (zero between
 * uses; static like the cache, under the GIL). */
static uint16_t LEFT_POS[NV];

/* 1 if a whip (with s->g a g-whip) of length <= s->limit extends the partial one of length k whose
 * last rlc is `last` (a label index; NL + a g-label index; Z when k = 0), whose candidates linked to Z
 * or an rlc (g-linked to a g-rlc) are `inc` and, per variable, whose present members not in inc are
 * `free` (positions); 0 if none; -1 if out of budget.  `slot` is its cache slot.  Keeping `free` makes
 * the test of a variable one mask: on W4-W6 puzzles it halved the search's time against counting each
 * variable's members in inc.  A left-linking candidate is in inc (linked to the last rlc), so a
 * variable's next cell depends on the variable only, not on which of its members is the left-linking
 * one (but for a g-rlc, which must not hold it): the variables are gathered first and each tried once
 * (visiting it once per left-linking candidate cost ~2 of the 3 children built per node). */
static int whip_extend(WhipSearch *s, int last, int k, const uint64_t inc[W], const uint16_t free[NV], unsigned slot)
{
    if (--s->budget < 0) return -1;
    const Cands *c = s->c;
    const uint64_t *from = last < NL ? LINK[last] : GLINK[last - NL];
    int vars[NV], n_vars = 0;
    for (int w = 0; w < W; ++w)
        for (uint64_t bits = from[w] & c->present[w]; bits; bits &= bits - 1) {
            int l = 64 * w + CTZ64(bits);
            for (int kk = 0; kk < 4; ++kk) {
                int v = VAR_OF[l][kk];
                if (is_used(s, v) || rlc_variable(last, v)) continue;
                if (free[v] == 0) { /* every candidate of V linked to Z or an rlc: a whip */
                    if (s->need_g && !s->n_g) continue; /* g_whip(): not without a g-rlc */
                    for (int j = 0; j < n_vars; ++j) LEFT_POS[vars[j]] = 0;
                    LEFT_POS[v] = 0;
                    return 1;
                }
                if (!LEFT_POS[v]) vars[n_vars++] = v;
                LEFT_POS[v] |= POS_IN[l][kk];
            }
        }
    uint16_t lefts[NV];
    for (int j = 0; j < n_vars; ++j) {
        lefts[j] = LEFT_POS[vars[j]];
        LEFT_POS[vars[j]] = 0;
    }
    if (k + 1 >= s->limit) { /* no room for another cell: only the root of a search at limit 1 (whip_child
                              * tests a last cell in place) */
        memo_fail(slot, s->rlcs, s->grlcs, last, s->limit - k);
        return 0;
    }
    const int cap = s->g ? 3 : 1; /* most free candidates that can still make an rlc */
    for (int j = 0; j < n_vars; ++j) {
        int v = vars[j];
        unsigned f = free[v];
        int n_free = 0;
        for (unsigned rest = f; rest && n_free <= cap; rest &= rest - 1) ++n_free;
        if (n_free > cap) continue;
        int found = 0;
        s->used[v >> 6] |= 1ull << (v & 63);
        if (n_free == 1) { /* the rlc: a candidate */
            int r = MEMBER[v][CTZ64(f)];
            if (!has(s->rlcs, r)) {
                flip_rlc(s->rlcs, &s->key, r, r);
                found = whip_child(s, r, k + 1, inc, free, LINK[r]);
                flip_rlc(s->rlcs, &s->key, r, r);
            }
        } else /* 2 or 3 not linked: a g-rlc, the g-label of V holding them all, if any */
            for (int jj = 0; jj < G_COUNT[v] && !found; ++jj) {
                int gl = G_OF_VAR[v][jj];
                unsigned mask = G_MASK[gl];
                /* a left-linking candidate outside G */
                if (f & ~mask || !(lefts[j] & ~mask) || has(s->grlcs, gl)) continue;
                int clash = 0; /* Z or an rlc in G */
                for (unsigned ps = mask; ps; ps &= ps - 1) clash |= has(s->rlcs, MEMBER[v][CTZ64(ps)]);
                if (clash) continue;
                flip_rlc(s->grlcs, &s->key, gl, NL + gl);
                ++s->n_g;
                found = whip_child(s, NL + gl, k + 1, inc, free, GLINK[gl]);
                --s->n_g;
                flip_rlc(s->grlcs, &s->key, gl, NL + gl);
            }
        s->used[v >> 6] &= ~(1ull << (v & 63));
        if (found) return found;
    }
    memo_fail(slot, s->rlcs, s->grlcs, last, s->limit - k);
    return 0;
}

/* ---- braids: does a braid (g-braid) of length <= limit exist on a target? -----------------------
 *
 * A depth-first search over the partial braids of the target as the lean stages build them (SPEC
 * §4.4, §4.5; rules/partial-braid*.clp, partial-g-braid*.clp, braid.clp, g-braid.clp).  A partial
 * braid is a set S of rlcs (labels; with g also g-labels); `inc` holds the candidates linked to Z or
 * to a label of S, or g-linked to a g-label of S, and `free` per variable its present members outside
 * inc.  A variable V with a member in inc (its left-linking candidate) and no free member closes a
 * braid; exactly one free member R (not Z, not in S) is the next rlc; with g, two or three free members
 * lying in one g-label G of V (neither Z nor an rlc in G, G not in S) make G the next rlc.  As in the
 * rules, V is never a g-rlc's variable when it extends a chain, and every partial braid must pass the
 * lean stages' test (Engine._viable): the propagation from Z and S, all assumed, contradicts within
 * limit - |S| rounds.  The search is permissive where the rules are stricter (a closing V may be a
 * g-rlc's; a g-rlc need not have a left-linking candidate outside G; V may hold an earlier left-linking
 * candidate), so it may say yes where CLIPS finds nothing, never the reverse.
 *
 * Extensions depend on the set S only, not on the order its rlcs came in, so a set that failed is
 * recorded in the whip search's cache (last = -1) and not explored again in another order.
 *
 * Why it exists: a lean stage builds the partial braids (g-braids) of one target in CLIPS, tens of
 * milliseconds a target at lengths 6-7 (more than ten times that for g-braids), and most targets
 * tried carry none: the engine asks this search first (driver.py, Engine._braid_worth) and skips those
 * it proves have none.  Measured figures: docs/engine.md. */
typedef struct {
    const Cands *c;
    int limit, g;
    long budget;
    uint64_t rlcs[W];   /* Z and the label rlcs */
    uint64_t grlcs[WG]; /* the g-rlcs */
    uint64_t gvars[WV]; /* the variables of the g-rlcs */
    uint64_t key;       /* the XOR of the SET_KEY of Z and the rlcs (memo_slot) */
} BraidSearch;

/* The lean stages' test of a partial braid (Engine._viable): may Z and its rlcs still close a braid
 * within `rounds` more cells? */
static int braid_viable(const BraidSearch *s, int rounds)
{
    return rounds >= 1 && propagate(s->c, s->rlcs, s->grlcs, s->g, rounds) > 0;
}

static int braid_extend(BraidSearch *s, int k, const uint64_t inc[W], const uint16_t free[NV]);

/* The partial braid of length k + 1 whose newest rlc, already in s, has `links` (its links, or a g-rlc's
 * g-links): braid_extend from it if it passes the lean stages' test, else 0. */
static int braid_child(BraidSearch *s, int k, const uint64_t inc[W], const uint16_t free[NV], const uint64_t *links)
{
    if (!braid_viable(s, s->limit - (k + 1))) return 0;
    uint64_t next[W];
    uint16_t next_free[NV];
    memcpy(next, inc, sizeof next);
    memcpy(next_free, free, sizeof next_free);
    join_inc(s->c, links, next, next_free);
    return braid_extend(s, k + 1, next, next_free);
}

/* 1 if a braid (with s->g a g-braid) of length <= s->limit extends the partial one of length k (its
 * set of rlcs in s, `inc` and `free` as in whip_extend), 0 if none, -1 if out of budget. */
static int braid_extend(BraidSearch *s, int k, const uint64_t inc[W], const uint16_t free[NV])
{
    unsigned slot = memo_slot(s->key, -1);
    if (memo_failed(slot, s->rlcs, s->grlcs, -1, s->limit - k)) return 0;
    if (--s->budget < 0) return -1;
    const Cands *c = s->c;
    const int cap = s->g ? 3 : 1; /* most free candidates that can still make an rlc */
    for (int v = 0; v < NV; ++v) {
        unsigned live = c->live[v], f = free[v];
        if (f == live) continue; /* no member linked to Z or an rlc: no left-linking candidate */
        if (f == 0) return 1;    /* every member linked to Z or an rlc: a braid */
        if (k + 1 >= s->limit || s->gvars[v >> 6] >> (v & 63) & 1u) continue;
        int n_free = 0;
        for (unsigned rest = f; rest && n_free <= cap; rest &= rest - 1) ++n_free;
        if (n_free > cap) continue;
        int found = 0;
        if (n_free == 1) { /* the rlc: a candidate */
            int r = MEMBER[v][CTZ64(f)];
            if (has(s->rlcs, r)) continue; /* Z or an rlc (its own variable) */
            flip_rlc(s->rlcs, &s->key, r, r);
            found = braid_child(s, k, inc, free, LINK[r]);
            flip_rlc(s->rlcs, &s->key, r, r);
        } else /* 2 or 3: a g-rlc, the g-label of V holding them all, if any */
            for (int j = 0; j < G_COUNT[v] && !found; ++j) {
                int gl = G_OF_VAR[v][j];
                unsigned mask = G_MASK[gl];
                if (f & ~mask || has(s->grlcs, gl)) continue;
                int clash = 0; /* Z or an rlc in G */
                for (unsigned ps = mask; ps; ps &= ps - 1) clash |= has(s->rlcs, MEMBER[v][CTZ64(ps)]);
                if (clash) continue;
                flip_rlc(s->grlcs, &s->key, gl, NL + gl);
                s->gvars[v >> 6] |= 1ull << (v & 63);
                found = braid_child(s, k, inc, free, GLINK[gl]);
                s->gvars[v >> 6] &= ~(1ull << (v & 63));
                flip_rlc(s->grlcs, &s->key, gl, NL + gl);
            }
        if (found) return found;
    }
    memo_fail(slot, s->rlcs, s->grlcs, -1, s->limit - k);
    return 0;
}

/* ---- special chains: one chain of a given length on a target, found and returned ---------------
 *
 * The chains of SPEC §4.3 (and typed whips, g-bivalue-chains), each a regular chain V1{L1 R1} - ... -
 * Vn{Ln Rn}: L1 linked to the target Z, each Lk linked (g-linked) to R(k-1), distinct variables, no
 * label twice, Z in none of the variables; each mode says which other candidates a cell may hold (those
 * neither Lk nor Rk) and how the chain ends:
 *   whip   all linked to Z or an earlier R; the last cell (no Rn) has none left (typed whips);
 *   z      all linked to Z (z-candidates), Rk not; the last cell, at least two candidates, none but Ln
 *          unlinked to Z (z-chains);
 *   t      in V1 linked to Z, R1 not; in Vk (k > 1) linked to an earlier R; the last cell has exactly
 *          one candidate besides Ln that is linked to no earlier R, and it is linked to Z: SudoRules'
 *          t-whip, a partial whip[1] on Z glued to a partial whip on R1 (G/CHAIN-RULES-SPEED/T-WHIPS);
 *   biv    none: every variable holds exactly Lk and Rk; Rn linked to Z (bivalue-chains);
 *   g-biv  Rk a candidate or a g-candidate of Vk (2 or 3 present members in one g-label, not holding
 *          Lk nor a label of the chain); in V1 linked to Z, in Vk linked (g-linked) to R(k-1); Lk not
 *          a label of V(k-1); Rn linked (g-linked) to Z (SudoRules' g-bivalue-chains).
 * With `typed`, all the variables are of the kind of V1 (rc, rn, cn or bn).  Where SudoRules leaves a
 * condition to the salience order (an Rk linked to Z, k < n, in t, biv and g-biv modes: a shorter
 * chain of the same family on Z would have come first), the search refuses it, which only prunes.
 *
 * Depth first, cells in a fixed order (labels, then variables, by index), stopping at the first chain
 * of exactly `length` cells.  Each partial chain of k cells is first tested as the braids' lean stages
 * test theirs (braid_viable): every chain of these modes is a trial propagation from Z and its rlcs
 * (an Rk is the only candidate of Vk left once Z, R1..R(k-1) are assumed, so it is forced by round k,
 * and the last variable is emptied, or Rn contradicts Z, by round n), so a partial chain whose
 * propagation does not contradict within length - k rounds cannot complete.  That prunes nearly every
 * branch: no cache is kept.
 *
 * Why it exists: the engine finds these chains here rather than with partial chains kept by CLIPS
 * for every target and family (sudorules/engine/seek.py, docs/engine.md). */
typedef struct {
    const Cands *c;
    int mode, length, typed, kind, z;
    long budget;
    uint64_t used[W];       /* Z, the llcs and the label rlcs */
    uint64_t assumed[W];    /* Z and the label rlcs */
    uint64_t gassumed[WG];  /* the g-rlcs */
    uint64_t vars[WV];      /* the variables of the cells */
    int cv[82], cl[82], cr[82]; /* the cells: variable, llc, rlc (label index, NL + g-label, -1 none) */
} ChainSearch;

enum { MODE_WHIP, MODE_Z, MODE_T, MODE_BIV, MODE_GBIV };

static int popcount9(unsigned x)
{
    int n = 0;
    for (; x; x &= x - 1) ++n;
    return n;
}

/* the positions of the members of v present in `c` and in the set `bits` */
static unsigned members_in(const Cands *c, int v, const uint64_t *bits)
{
    unsigned out = 0;
    for (unsigned ps = c->live[v]; ps; ps &= ps - 1) {
        int p = CTZ64(ps);
        if (has(bits, MEMBER[v][p])) out |= 1u << p;
    }
    return out;
}

static int chain_extend(ChainSearch *s, int k, int last, const uint64_t inc[W]);

/* Put cell k (v, l, r) in the search and recurse from it; 1 found (the cells stay), 0, -1 budget. */
static int chain_cell(ChainSearch *s, int k, int v, int l, int r, const uint64_t inc[W])
{
    s->cv[k] = v, s->cl[k] = l, s->cr[k] = r;
    if (k + 1 == s->length) return 1;
    uint64_t next[W];
    memcpy(next, inc, sizeof next);
    const uint64_t *links = r < NL ? LINK[r] : GLINK[r - NL];
    if (s->mode == MODE_WHIP || s->mode == MODE_T)
        for (int w = 0; w < W; ++w) next[w] |= links[w];
    int saved_kind = s->kind;
    if (s->typed && k == 0) s->kind = v / 81;
    put(s->used, l);
    s->vars[v >> 6] |= 1ull << (v & 63);
    if (r < NL) {
        put(s->used, r);
        put(s->assumed, r);
    } else
        put(s->gassumed, r - NL);
    int found = propagate(s->c, s->assumed, s->gassumed, s->mode == MODE_GBIV, s->length - (k + 1)) > 0
                    ? chain_extend(s, k + 1, r, next) : 0;
    if (found) return found;
    s->kind = saved_kind;
    s->used[l >> 6] &= ~(1ull << (l & 63));
    s->vars[v >> 6] &= ~(1ull << (v & 63));
    if (r < NL) {
        s->used[r >> 6] &= ~(1ull << (r & 63));
        s->assumed[r >> 6] &= ~(1ull << (r & 63));
    } else
        s->gassumed[(r - NL) >> 6] &= ~(1ull << ((r - NL) & 63));
    return 0;
}

/* 1 if a chain of s->length cells extends the first k cells (last rlc `last`, Z when k = 0; `inc`: in
 * whip mode the candidates linked to Z or an rlc, in t mode those linked to an rlc), its cells left in
 * s; 0 if none; -1 out of budget. */
static int chain_extend(ChainSearch *s, int k, int last, const uint64_t inc[W])
{
    if (--s->budget < 0) return -1;
    const Cands *c = s->c;
    const uint64_t *from = last < NL ? LINK[last] : GLINK[last - NL];
    const uint64_t *zlinks = LINK[s->z];
    const int closing = k + 1 == s->length, z = s->z;
    for (int w = 0; w < W; ++w)
        for (uint64_t bits = from[w] & c->present[w] & ~s->used[w]; bits; bits &= bits - 1) {
            int l = 64 * w + CTZ64(bits);
            for (int kk = 0; kk < 4; ++kk) {
                int v = VAR_OF[l][kk];
                if (s->vars[v >> 6] >> (v & 63) & 1u) continue;
                if (s->typed && k > 0 && v / 81 != s->kind) continue;
                if (v == VAR_OF[z][0] || v == VAR_OF[z][1] || v == VAR_OF[z][2] || v == VAR_OF[z][3]) continue;
                if (k > 0 && rlc_variable(last, v)) continue; /* it holds R(k-1): nothing new */
                if (s->mode == MODE_GBIV && k > 0) { /* Lk not a label of V(k-1) */
                    int prev = s->cv[k - 1], clash = 0;
                    for (int j = 0; j < 4; ++j) clash |= VAR_OF[l][j] == prev;
                    if (clash) continue;
                }
                unsigned live = c->live[v], lpos = POS_IN[l][kk], others;
                int r = -1, found = 0;
                switch (s->mode) {
                case MODE_WHIP: /* whip: the members outside inc; z: those not linked to Z; one is R, */
                case MODE_Z:    /* none in the last cell */
                    others = live & ~members_in(c, v, s->mode == MODE_WHIP ? inc : zlinks) & ~lpos;
                    if (closing) {
                        if (others == 0 && popcount9(live) >= 2) return chain_cell(s, k, v, l, -1, inc);
                        continue;
                    }
                    if (popcount9(others) != 1) continue;
                    r = MEMBER[v][CTZ64(others)];
                    break;
                case MODE_T:
                    others = live & ~members_in(c, v, k == 0 ? zlinks : inc) & ~lpos;
                    if (popcount9(others) != 1) continue;
                    r = MEMBER[v][CTZ64(others)];
                    if (closing) {
                        if (k > 0 && has(zlinks, r)) return chain_cell(s, k, v, l, -1, inc);
                        continue;
                    }
                    if (has(zlinks, r)) continue;
                    break;
                case MODE_BIV:
                    if (popcount9(live) != 2) continue;
                    r = MEMBER[v][CTZ64(live & ~lpos)];
                    if (closing) {
                        if (has(zlinks, r) && !has(s->used, r)) return chain_cell(s, k, v, l, r, inc);
                        continue;
                    }
                    if (has(zlinks, r)) continue;
                    break;
                default: { /* MODE_GBIV: the members (but L) not linked to the previous rlc */
                    others = live & ~members_in(c, v, from) & ~lpos;
                    /* R a candidate: every other member linked to the previous rlc */
                    for (unsigned ps = live & ~lpos; ps && !found; ps &= ps - 1) {
                        int x = MEMBER[v][CTZ64(ps)];
                        if (others & ~(1u << CTZ64(ps)) || has(s->used, x)) continue;
                        if (closing) {
                            if (has(zlinks, x)) return chain_cell(s, k, v, l, x, inc);
                            continue;
                        }
                        if (has(zlinks, x)) continue;
                        found = chain_cell(s, k, v, l, x, inc);
                    }
                    /* R a g-candidate of v holding the other members, neither L nor a label of the chain */
                    for (int j = 0; j < G_COUNT[v] && !found; ++j) {
                        int gl = G_OF_VAR[v][j];
                        unsigned mask = G_MASK[gl];
                        if (others & ~mask || mask & lpos || popcount9(live & mask) < 2) continue;
                        if (has(s->gassumed, gl)) continue;
                        int clash = 0;
                        for (unsigned ps = mask; ps; ps &= ps - 1) clash |= has(s->used, MEMBER[v][CTZ64(ps)]);
                        if (clash) continue;
                        int zg = has(GLINK[gl], z);
                        if (closing ? !zg : zg) continue;
                        found = chain_cell(s, k, v, l, NL + gl, inc);
                    }
                    if (found) return found;
                    continue;
                }
                }
                if (has(s->used, r)) continue;
                found = chain_cell(s, k, v, l, r, inc);
                if (found) return found;
            }
        }
    return 0;
}

/* ---- the binding ----------------------------------------------------------------------------- */

/* The value of an int object in *value (LONG_MIN if it does not fit a long: no label, g-label or
 * sensible limit is that far out), 0; or -1 with a TypeError set (`what` names the argument). */
static int int_value(PyObject *item, const char *what, long *value)
{
    PyObject *number;
    if (PyLong_Check(item)) {
        number = item;
        Py_INCREF(number);
    } else if (PyIndex_Check(item)) {
        number = PyNumber_Index(item);
        if (number == NULL) return -1;
    } else {
        PyErr_Format(PyExc_TypeError, "%s must be ints, got %.100s", what, Py_TYPE(item)->tp_name);
        return -1;
    }
    int overflow = 0;
    *value = PyLong_AsLongAndOverflow(number, &overflow);
    Py_DECREF(number);
    if (*value == -1 && !overflow && PyErr_Occurred()) return -1;
    if (overflow) *value = overflow > 0 ? LONG_MAX : LONG_MIN;
    return 0;
}

/* The index of label 100*digit + 10*row + col (each 1..9), else -1 (no error set). */
static int label_of(long value)
{
    int n = (int)(value / 100), r = (int)(value / 10 % 10), c = (int)(value % 10);
    if (value < 111 || value > 999 || r == 0 || c == 0) return -1;
    return label_index(n - 1, r - 1, c - 1);
}

/* The index of one label object, or -1 with a TypeError / ValueError set. */
static int parse_label(PyObject *item, const char *what)
{
    long value;
    if (int_value(item, what, &value) < 0) return -1;
    int i = label_of(value);
    if (i < 0)
        PyErr_Format(PyExc_ValueError, "%s: %R is not a label 100*digit + 10*row + col (each 1..9)", what,
                     item);
    return i;
}

/* Fill `c` from a sequence (any iterable) of labels; 0, or -1 with an error set.  Items are fetched
 * one by one (an __index__ could change a list while it is read). */
static int read_labels(PyObject *obj, Cands *c)
{
    memset(c, 0, sizeof *c);
    PyObject *seq = PySequence_Fast(obj, "labels must be a sequence of ints");
    if (seq == NULL) return -1;
    for (Py_ssize_t j = 0; j < PySequence_Fast_GET_SIZE(seq); ++j) {
        PyObject *item = PySequence_Fast_GET_ITEM(seq, j);
        Py_INCREF(item);
        int i = parse_label(item, "labels");
        Py_DECREF(item);
        if (i < 0) {
            Py_DECREF(seq);
            return -1;
        }
        put(c->present, i);
    }
    Py_DECREF(seq);
    cands_index(c);
    return 0;
}

static PyObject *py_depths(PyObject *self, PyObject *args, PyObject *kwargs)
{
    (void)self;
    static char *kwlist[] = {"labels", "targets", "g", "limit", NULL};
    PyObject *labels_obj, *targets_obj;
    int g;
    long limit;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOpl:depths", kwlist, &labels_obj, &targets_obj, &g,
                                     &limit))
        return NULL;
    if (limit < 1) return PyErr_Format(PyExc_ValueError, "limit must be >= 1, got %ld", limit);

    Cands st;
    if (read_labels(labels_obj, &st) < 0) return NULL;

    PyObject *seq = PySequence_Fast(targets_obj, "targets must be a sequence of ints");
    if (seq == NULL) return NULL;
    /* index, then depth (below 729 + 972: each round assumes a new label or g-label), of each target;
     * all are checked before any propagation */
    Py_ssize_t n_targets = PySequence_Fast_GET_SIZE(seq);
    uint16_t *work = PyMem_Malloc((size_t)(n_targets > 0 ? n_targets : 1) * sizeof *work);
    if (work == NULL) {
        Py_DECREF(seq);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t j = 0; j < n_targets; ++j) {
        if (j >= PySequence_Fast_GET_SIZE(seq)) { /* shortened by an __index__ */
            PyErr_SetString(PyExc_RuntimeError, "targets changed size while read");
            PyMem_Free(work);
            Py_DECREF(seq);
            return NULL;
        }
        PyObject *item = PySequence_Fast_GET_ITEM(seq, j);
        Py_INCREF(item);
        int i = parse_label(item, "targets");
        if (i >= 0 && !has(st.present, i)) {
            PyErr_Format(PyExc_ValueError, "target %R is not among the labels", item);
            i = -1;
        }
        Py_DECREF(item);
        if (i < 0) {
            PyMem_Free(work);
            Py_DECREF(seq);
            return NULL;
        }
        work[j] = (uint16_t)i;
    }
    Py_DECREF(seq);

    static const uint64_t no_g[WG];
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t j = 0; j < n_targets; ++j) {
        uint64_t target[W] = {0};
        put(target, work[j]);
        work[j] = (uint16_t)propagate(&st, target, no_g, g, limit);
    }
    Py_END_ALLOW_THREADS

    PyObject *result = PyList_New(n_targets);
    for (Py_ssize_t j = 0; result != NULL && j < n_targets; ++j) {
        PyObject *d = PyLong_FromLong(work[j]);
        if (d == NULL) Py_CLEAR(result);
        else PyList_SET_ITEM(result, j, d);
    }
    PyMem_Free(work);
    return result;
}

/* ---- State: the candidates built once, for many propagations from several assumptions --------- */

typedef struct {
    PyObject_HEAD
    Cands cands; /* written by State_new only */
} StateObject;

static PyObject *State_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"labels", NULL};
    PyObject *labels_obj;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O:State", kwlist, &labels_obj)) return NULL;
    StateObject *self = (StateObject *)type->tp_alloc(type, 0);
    if (self == NULL) return NULL;
    if (read_labels(labels_obj, &self->cands) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}

/* depth(assumed, g, limit, /): positional only (METH_FASTCALL), as the engine calls it. */
static PyObject *State_depth(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    const Cands *c = &((StateObject *)self)->cands;
    if (nargs != 3)
        return PyErr_Format(PyExc_TypeError,
                            "depth() takes exactly 3 positional arguments (assumed, g, limit), %zd given", nargs);
    int g = args[1] == Py_True ? 1 : args[1] == Py_False ? 0 : PyObject_IsTrue(args[1]);
    if (g < 0) return NULL;
    long limit;
    if (int_value(args[2], "limit", &limit) < 0) return NULL;
    if (limit < 1) return PyErr_Format(PyExc_ValueError, "limit must be >= 1, got %R", args[2]);

    uint64_t assumed[W] = {0}, g_assumed[WG] = {0};
    PyObject *seq = PySequence_Fast(args[0], "assumed must be a sequence of ints");
    if (seq == NULL) return NULL;
    if (PySequence_Fast_GET_SIZE(seq) == 0) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "assumed is empty");
        return NULL;
    }
    for (Py_ssize_t j = 0; j < PySequence_Fast_GET_SIZE(seq); ++j) {
        PyObject *item = PySequence_Fast_GET_ITEM(seq, j);
        long value;
        Py_INCREF(item);
        int bad = int_value(item, "assumed", &value);
        if (!bad) {
            int i = label_of(value);
            int k = value >= G_ID_MIN && value <= G_ID_MAX ? G_INDEX[value - G_ID_MIN] : -1;
            if (i >= 0 && has(c->present, i)) put(assumed, i);
            else if (k >= 0) put(g_assumed, k);
            else {
                bad = 1;
                if (i >= 0) PyErr_Format(PyExc_ValueError, "assumed label %R is not among the labels", item);
                else PyErr_Format(PyExc_ValueError, "assumed: %R is neither a label nor a g-label", item);
            }
        }
        Py_DECREF(item);
        if (bad) {
            Py_DECREF(seq);
            return NULL;
        }
    }
    Py_DECREF(seq);
    return PyLong_FromLong(propagate(c, assumed, g_assumed, g, limit));
}


/* The arguments of whip() and braid(), (target, g, limit, budget), or of g_whip(), (target, limit, budget)
 * with g true (`with_g` 0), checked: 0, or -1 with an error set.  `limit` comes back at most 81 (no
 * chain is longer). */
typedef struct {
    int z, g, limit;
    long budget;
} SearchArgs;

static int search_args(const Cands *c, const char *name, int with_g, PyObject *const *args, Py_ssize_t nargs,
                       SearchArgs *a)
{
    if (nargs != 3 + with_g) {
        PyErr_Format(PyExc_TypeError, "%s() takes exactly %d positional arguments (target, %slimit, budget), %zd given",
                     name, 3 + with_g, with_g ? "g, " : "", nargs);
        return -1;
    }
    a->z = parse_label(args[0], "target");
    if (a->z < 0) return -1;
    if (!has(c->present, a->z)) {
        PyErr_Format(PyExc_ValueError, "target %R is not among the labels", args[0]);
        return -1;
    }
    a->g = with_g ? PyObject_IsTrue(args[1]) : 1;
    if (a->g < 0) return -1;
    PyObject *const *rest = args + 1 + with_g; /* limit, budget */
    long limit;
    if (int_value(rest[0], "limit", &limit) < 0 || int_value(rest[1], "budget", &a->budget) < 0) return -1;
    if (limit < 1) {
        PyErr_Format(PyExc_ValueError, "limit must be >= 1, got %R", rest[0]);
        return -1;
    }
    if (a->budget < 1) {
        PyErr_Format(PyExc_ValueError, "budget must be >= 1, got %R", rest[1]);
        return -1;
    }
    a->limit = limit > 81 ? 81 : (int)limit;
    return 0;
}

/* A search from target z starts: the cache emptied, `inc` the candidates linked to z, `free` per
 * variable its present members outside inc. */
static void search_start(const Cands *c, int z, uint64_t inc[W], uint16_t free[NV])
{
    memo_start();
    memset(inc, 0, W * sizeof inc[0]);
    memcpy(free, c->live, NV * sizeof free[0]);
    join_inc(c, LINK[z], inc, free);
}

/* whip(target, g, limit, budget, /): 1 if a whip (with g, a whip or a g-whip) of length <= limit exists
 * on target in this state, 0 if none, -1 if the search visited `budget` partial whips without
 * deciding.  (A version also returned the candidates whose removal could turn a 0 into a 1, so that
 * the engine could skip targets whose answer could not have changed since the last step: it spared
 * ~10 % of the searches of W4 puzzles and cost as much in recording them.) */
static PyObject *whip_search(const Cands *c, const SearchArgs *a, int need_g)
{
    WhipSearch s = {.c = c, .limit = a->limit, .g = a->g, .need_g = need_g, .budget = a->budget,
                    .key = SET_KEY[a->z]};
    put(s.rlcs, a->z);
    uint64_t inc[W];
    uint16_t free[NV];
    search_start(c, a->z, inc, free);
    return PyLong_FromLong(whip_extend(&s, a->z, 0, inc, free, memo_slot(s.key, a->z)));
}

static PyObject *State_whip(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    const Cands *c = &((StateObject *)self)->cands;
    SearchArgs a;
    if (search_args(c, "whip", 1, args, nargs, &a) < 0) return NULL;
    return whip_search(c, &a, 0);
}

/* g_whip(target, limit, budget, /): the same for a g-whip proper, a whip with at least one g-rlc: what
 * g-whip[n] rules find (g-whip.clp), where whip(target, True, ...) also says yes for a plain whip.  The
 * engine builds a target's partial g-whips only once it may carry one (Engine._whip_targets): most of
 * the targets it focuses carry a plain whip (73 of 74 on line 12301 of cb-001 in gB, 37 of 38 on line
 * 7462), and their partial g-whips were most of CLIPS's work there. */
static PyObject *State_g_whip(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    const Cands *c = &((StateObject *)self)->cands;
    SearchArgs a;
    if (search_args(c, "g_whip", 0, args, nargs, &a) < 0) return NULL;
    return whip_search(c, &a, 1);
}

/* braid(target, g, limit, budget, /): 1 if a braid (with g, a braid or a g-braid) of length <= limit may
 * exist on target in this state (the search is permissive: see its section), 0 if none, -1 if the
 * search visited `budget` partial braids without deciding. */
static PyObject *State_braid(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    const Cands *c = &((StateObject *)self)->cands;
    SearchArgs a;
    if (search_args(c, "braid", 1, args, nargs, &a) < 0) return NULL;
    BraidSearch s = {.c = c, .limit = a.limit, .g = a.g, .budget = a.budget, .key = SET_KEY[a.z]};
    put(s.rlcs, a.z);
    if (!braid_viable(&s, s.limit)) return PyLong_FromLong(0);
    uint64_t inc[W];
    uint16_t free[NV];
    search_start(c, a.z, inc, free);
    return PyLong_FromLong(braid_extend(&s, 0, inc, free));
}

/* labels.py's id of g-label k (the inverse of G_INDEX) */
static int g_label_id(int k)
{
    for (int j = 0; j <= G_ID_MAX - G_ID_MIN; ++j)
        if (G_INDEX[j] == k) return G_ID_MIN + j;
    return 0;
}

/* labels.py's integers: a label 100n + 10r + c, a variable 100 (kind + 1) + 10a + b */
static long label_value(int i) { return 100 * (i / 81 + 1) + 10 * (i / 9 % 9 + 1) + i % 9 + 1; }
static long variable_value(int v) { return 100 * (v / 81 + 1) + 10 * (v % 81 / 9 + 1) + v % 9 + 1; }

/* chain(target, mode, length, typed, budget, /): a chain of exactly `length` cells on target in this
 * state (see "special chains" above): a tuple of 3 * length ints, variable, left-linking label and
 * right-linking object of each cell (a label, a g-label id 10 * variable + segment, or 0 for the dot of
 * a last cell); 0 if none; -1 if the search visited `budget` partial chains without deciding. */
static PyObject *State_chain(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    const Cands *c = &((StateObject *)self)->cands;
    if (nargs != 5)
        return PyErr_Format(PyExc_TypeError, "chain() takes exactly 5 positional arguments (target, mode, length, "
                                             "typed, budget), %zd given", nargs);
    int z = parse_label(args[0], "target");
    if (z < 0) return NULL;
    if (!has(c->present, z)) return PyErr_Format(PyExc_ValueError, "target %R is not among the labels", args[0]);
    static const char *const names[] = {"whip", "z", "t", "biv", "g-biv"};
    int mode = -1;
    if (PyUnicode_Check(args[1]))
        for (int m = 0; m < 5; ++m)
            if (PyUnicode_CompareWithASCIIString(args[1], names[m]) == 0) mode = m;
    if (mode < 0)
        return PyErr_Format(PyExc_ValueError, "mode must be one of whip, z, t, biv, g-biv, got %R", args[1]);
    long length, budget;
    if (int_value(args[2], "length", &length) < 0 || int_value(args[4], "budget", &budget) < 0) return NULL;
    if (length < 1 || length > 81) return PyErr_Format(PyExc_ValueError, "length must be 1..81, got %R", args[2]);
    if (budget < 1) return PyErr_Format(PyExc_ValueError, "budget must be >= 1, got %R", args[4]);
    int typed = PyObject_IsTrue(args[3]);
    if (typed < 0) return NULL;

    ChainSearch s = {.c = c, .mode = mode, .length = (int)length, .typed = typed, .kind = -1, .z = z,
                     .budget = budget};
    put(s.used, z);
    put(s.assumed, z);
    uint64_t inc[W] = {0};
    if (mode == MODE_WHIP) memcpy(inc, LINK[z], sizeof inc);
    int found = chain_extend(&s, 0, z, inc);
    if (found <= 0) return PyLong_FromLong(found);
    PyObject *out = PyTuple_New(3 * length);
    if (out == NULL) return NULL;
    for (int k = 0; k < length; ++k) {
        int r = s.cr[k];
        long values[3] = {variable_value(s.cv[k]), label_value(s.cl[k]),
                          r < 0 ? 0 : r < NL ? label_value(r) : g_label_id(r - NL)};
        for (int j = 0; j < 3; ++j) {
            PyObject *x = PyLong_FromLong(values[j]);
            if (x == NULL) {
                Py_DECREF(out);
                return NULL;
            }
            PyTuple_SET_ITEM(out, 3 * k + j, x);
        }
    }
    return out;
}

static PyMethodDef State_methods[] = {
    {"depth", (PyCFunction)(void (*)(void))State_depth, METH_FASTCALL,
     "depth($self, assumed, g, limit, /)\n--\n\n"
     "The round (1..limit) in which the trial propagation from all of `assumed` (a non-empty sequence of "
     "labels among the state's and g-label ids 10*variable + segment) contradicts, with g-labels if g; 0 "
     "if it does not within limit (>= 1) rounds."},
    {"whip", (PyCFunction)(void (*)(void))State_whip, METH_FASTCALL,
     "whip($self, target, g, limit, budget, /)\n--\n\n"
     "1 if a whip (SPEC 4.2; with g, a whip or a g-whip, SPEC 4.5) of length <= limit exists on target "
     "(a label among the state's), 0 if none, -1 if the search visited budget partial whips without "
     "deciding."},
    {"g_whip", (PyCFunction)(void (*)(void))State_g_whip, METH_FASTCALL,
     "g_whip($self, target, limit, budget, /)\n--\n\n"
     "1 if a g-whip (SPEC 4.5) with at least one g-candidate as right-linking object and of length <= "
     "limit exists on target (a label among the state's), 0 if none, -1 if the search visited budget "
     "partial whips without deciding."},
    {"chain", (PyCFunction)(void (*)(void))State_chain, METH_FASTCALL,
     "chain($self, target, mode, length, typed, budget, /)\n--\n\n"
     "A chain of exactly length cells on target (a label among the state's) of one mode: whip (typed "
     "whips), z (z-chains), t (t-whips), biv (bivalue-chains), g-biv (g-bivalue-chains); with typed, all "
     "its variables of one kind.  A tuple (variable, left-linking, right-linking) per cell, in the "
     "engine's integers (0: no right-linking candidate); 0 if none; -1 if the search visited budget "
     "partial chains without deciding."},
    {"braid", (PyCFunction)(void (*)(void))State_braid, METH_FASTCALL,
     "braid($self, target, g, limit, budget, /)\n--\n\n"
     "1 if a braid (SPEC 4.4; with g, a braid or a g-braid, SPEC 4.5) of length <= limit may exist on "
     "target (a label among the state's): the search may say 1 where the rules find none, never 0 where "
     "they find one; 0 if none, -1 if it visited budget partial braids without deciding."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject StateType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sudorules._trial.State",
    .tp_basicsize = sizeof(StateObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "State(labels)\n--\n\n"
              "The candidates (labels 100*digit + 10*row + col), indexed once for many State.depth calls; "
              "immutable.",
    .tp_new = State_new,
    .tp_methods = State_methods,
};

static PyMethodDef methods[] = {
    {"depths", (PyCFunction)(void (*)(void))py_depths, METH_VARARGS | METH_KEYWORDS,
     "depths(labels, targets, g, limit) -> list[int]: for each target (a label among labels, each "
     "100*digit + 10*row + col), its trial contradiction depth (sudorules.engine.trial, with g-labels "
     "if g) if it is at most limit (>= 1), else 0."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_trial",
    "Compiled trial propagation (contradiction depths) of sudorules.engine.trial.", -1, methods, NULL, NULL,
    NULL, NULL,
};

PyMODINIT_FUNC PyInit__trial(void)
{
    fill_tables();
    if (PyType_Ready(&StateType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    Py_INCREF(&StateType);
    if (PyModule_AddObject(m, "State", (PyObject *)&StateType) < 0) {
        Py_DECREF(&StateType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
