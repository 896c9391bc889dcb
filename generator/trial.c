/*
 * The trial propagation of sudorules/engine/trial.py in C, and the chain searches built on it (trial.h).
 * C11, no dependencies and no Python: trialmodule.c binds them to Python as sudorules._trial:
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
 * The label and variable encoding is tables.h's.
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
#include <stdlib.h>
#include <string.h>

#include "trial.h"

/* ---- the propagation ------------------------------------------------------------------------- */

void sr_cands_index(Cands *c)
{
    memset(c->live, 0, sizeof c->live);
    for (int w = 0; w < W; ++w)
        for (uint64_t bits = c->present[w]; bits; bits &= bits - 1) {
            int i = 64 * w + CTZ64(bits);
            for (int k = 0; k < 4; ++k) c->live[VAR_OF[i][k]] |= POS_IN[i][k];
        }
}

/* A propagation under way: the masks of the variables, what was removed and assumed, the labels
 * (g-labels) assumed in the last round, which the next removes the links of. */
typedef struct {
    uint16_t live[NV];
    uint64_t removed[W], assumed[W], newly[W];
    uint64_t decided[WV], g_assumed[WG];
    uint16_t frontier[NL], g_frontier[NG];
    int n_frontier, n_g_frontier;
} Prop;

/* What a propagation has done by the end of one round: the masks and what was removed after the
 * round's removals, what was assumed and decided after its forcing (braid_extend keeps its rounds for
 * child_may_pass). */
typedef struct {
    uint16_t live[NV];
    uint64_t removed[W], assumed[W], decided[WV], g_assumed[WG];
} Round;

/* At most 1 (g: at most 3) positions in `f`: the variables a braid (g-braid) search looks at. */
static int is_near(unsigned f, int g)
{
    unsigned r1 = f & (f - 1), r2 = r1 & (r1 - 1);
    return g ? (r2 & (r2 - 1)) == 0 : r1 == 0;
}

/* Rounds `depth`, depth + 1, ... of propagation `p` (its frontiers assumed in round depth - 1): the
 * round in which it contradicts, or 0 when it stops first or would go past round `limit`.  With
 * `rounds`, each round j that does not contradict is recorded in rounds[j]. */
static int prop_rounds(const Cands *c, Prop *p, int g, long depth, long limit, Round *rounds)
{
    for (; p->n_frontier || p->n_g_frontier; ++depth) {
        if (depth > limit) return 0;
        uint64_t hit[W] = {0};
        for (int f = 0; f < p->n_frontier; ++f)
            for (int w = 0; w < W; ++w) hit[w] |= LINK[p->frontier[f]][w];
        for (int f = 0; f < p->n_g_frontier; ++f)
            for (int w = 0; w < W; ++w) hit[w] |= GLINK[p->g_frontier[f]][w];
        uint64_t clash = 0;
        for (int w = 0; w < W; ++w) {
            hit[w] &= c->present[w];
            clash |= hit[w] & p->newly[w];
        }
        if (clash) return (int)depth; /* two candidates forced (assumed) together, or one of them and a
                                       * g-label assumed with them, are linked */
        /* The removals; a variable emptied ends the round at once (whatever else it holds, the round
         * contradicts), and only the variables left with at most 1 (g: 3) members are examined after:
         * in the last round (depth == limit) nothing else is (perf, the W11 puzzle of issue 23 under gB:
         * the examination of every touched variable was a third of the propagation's time). */
        uint64_t near[WV] = {0};
        for (int w = 0; w < W; ++w) {
            uint64_t fresh = hit[w] & ~p->removed[w] & ~p->assumed[w];
            p->removed[w] |= fresh;
            for (; fresh; fresh &= fresh - 1) {
                int x = 64 * w + CTZ64(fresh);
                for (int k = 0; k < 4; ++k) {
                    int v = VAR_OF[x][k];
                    unsigned left = p->live[v] &= (uint16_t)~POS_IN[x][k];
                    if (is_near(left, g)) {
                        if (left == 0 && !(p->decided[v >> 6] >> (v & 63) & 1u)) return (int)depth;
                        near[v >> 6] |= 1ull << (v & 63);
                    }
                }
            }
        }
        if (depth == limit) return 0;
        if (rounds) {
            memcpy(rounds[depth].live, p->live, sizeof p->live);
            memcpy(rounds[depth].removed, p->removed, sizeof p->removed);
        }
        p->n_frontier = p->n_g_frontier = 0;
        for (int w = 0; w < W; ++w) p->newly[w] = 0;
        for (int w = 0; w < WV; ++w)
            for (uint64_t open = near[w] & ~p->decided[w]; open; open &= open - 1) {
                int v = 64 * w + CTZ64(open);
                /* Only 1 and 2-3 are left here: clearing the lowest bit twice beats a popcount, which
                 * without -mpopcnt is a library call. */
                unsigned left = p->live[v], rest = left & (left - 1);
                if (rest == 0) {
                    int x = MEMBER[v][CTZ64(left)];
                    uint64_t bit = 1ull << (x & 63);
                    if (!(p->newly[x >> 6] & bit)) { /* the same label forced by two variables */
                        p->newly[x >> 6] |= bit;
                        p->frontier[p->n_frontier++] = (uint16_t)x;
                    }
                } else if (g && ((rest & (rest - 1)) & ((rest & (rest - 1)) - 1)) == 0) { /* 2 or 3 */
                    int gl = g_label_holding(v, left);
                    if (gl >= 0 && !(p->g_assumed[gl >> 6] >> (gl & 63) & 1u)) p->g_frontier[p->n_g_frontier++] = (uint16_t)gl;
                }
            }
        /* As in trial.py, the round's g-labels and forced labels are assumed only once every touched
         * variable has been examined: decided[] must not change during that scan. */
        for (int f = 0; f < p->n_g_frontier; ++f) p->g_assumed[p->g_frontier[f] >> 6] |= 1ull << (p->g_frontier[f] & 63);
        for (int f = 0; f < p->n_frontier; ++f) {
            int x = p->frontier[f];
            p->assumed[x >> 6] |= 1ull << (x & 63); /* never assumed before: its variables were undecided */
            for (int k = 0; k < 4; ++k) p->decided[VAR_OF[x][k] >> 6] |= 1ull << (VAR_OF[x][k] & 63);
        }
        if (rounds) {
            memcpy(rounds[depth].assumed, p->assumed, sizeof p->assumed);
            memcpy(rounds[depth].decided, p->decided, sizeof p->decided);
            memcpy(rounds[depth].g_assumed, p->g_assumed, sizeof p->g_assumed);
        }
    }
    return 0;
}

/* The round-0 state: every label and g-label of the assumptions in the first frontiers, the labels'
 * variables decided. */
int sr_propagate(const Cands *c, const uint64_t assumed0[W], const uint64_t g_assumed0[WG], int g, long limit)
{
    Prop p;
    memcpy(p.live, c->live, sizeof p.live);
    memset(p.removed, 0, sizeof p.removed);
    memset(p.decided, 0, sizeof p.decided);
    memcpy(p.assumed, assumed0, sizeof p.assumed);
    memcpy(p.newly, assumed0, sizeof p.newly);
    memcpy(p.g_assumed, g_assumed0, sizeof p.g_assumed);
    p.n_frontier = p.n_g_frontier = 0;
    for (int w = 0; w < W; ++w)
        for (uint64_t bits = assumed0[w]; bits; bits &= bits - 1) {
            int x = 64 * w + CTZ64(bits);
            p.frontier[p.n_frontier++] = (uint16_t)x;
            for (int k = 0; k < 4; ++k) p.decided[VAR_OF[x][k] >> 6] |= 1ull << (VAR_OF[x][k] & 63);
        }
    for (int w = 0; w < WG; ++w)
        for (uint64_t bits = g_assumed0[w]; bits; bits &= bits - 1)
            p.g_frontier[p.n_g_frontier++] = (uint16_t)(64 * w + CTZ64(bits));
    return prop_rounds(c, &p, g, 1, limit, NULL);
}

/* ---- the searches' common parts: control, the cache of failed partial chains, inc -------------- */

/* One node visited: SR_NONE to go on, SR_BUDGET when the budget is spent, SR_STOPPED when the poll asks
 * to stop. */
static int tick(SrCtl *ctl)
{
    if (--ctl->budget < 0) return SR_BUDGET;
    if (ctl->poll && --ctl->until_poll <= 0) {
        ctl->until_poll = SR_POLL_EVERY;
        if (ctl->poll(ctl->poll_arg)) {
            ctl->budget = -1; /* every pending node of this search answers at once */
            return SR_STOPPED;
        }
    }
    return SR_NONE;
}

/* Failed partial chains, so that the orders of one set of rlcs are explored once (whips: the orders
 * ending on the same rlc; the whip section says why that is enough).  Direct-mapped, keyed by (set of
 * rlcs S, last rlc; -1 for braids, -2 for g-braids), with a generation number so that each search starts with it empty
 * at no cost (braid searches of one SrCtl.cache_tag share it: sr_braid says why); whip and braid entries
 * have generations of their own, so that a whip search between two braid searches of one tag leaves
 * the braids' entries current (the engine asks a g-braid search before each lean g-whip search, and a
 * g-whip search where it finds one: driver.py, Engine._lean_whip); `rem` is the largest
 * number of cells that failed to complete from there.  Static (6.5 MB; one search at a time: the module
 * holds the GIL).
 * 8,192 slots were enough for the engine's filter searches (budgets of 50,000-200,000 nodes); the
 * raters search without a budget, up to millions of nodes on BxB puzzles, and a slot evicted there
 * means a subtree explored again.  g-braid searches use 2^18 slots, whips and braids the first 2^16:
 * with the failed subsets below, the deepest g-braid searches met (Magictour top1465 #182: passes of
 * millions of nodes at lengths 14-15) are bound by evictions, gB 52 -> 5.4 CPU-s at 2^16 -> 2^18
 * (2^20: 5.7 s), the other puzzles of bench_gb_vs_b within noise; braid searches at 2^18 changed
 * nothing on cb-001 or SHC's BxB examples but the order of top1465 #113's put-off searches (te.c
 * close_theory), its B 0.20 -> 0.40 s, so they keep what they had.
 * A set is known by its 128-bit key (the XOR of the SET_KEY of its members, random and fixed), not by
 * its bitsets: two different sets share a key with probability 2^-128, nothing next to the hardware's
 * own error rates, and an entry of 24 bytes rather than 232 keeps the table in the caches (15 MB ->
 * 1.5 MB; the W11 puzzle of issue 23 under gB, one core: 281 -> 275 ms).
 * Most probes miss (a g-braid node probes each of its children's sets less one or two rlcs: up to 105
 * probes at 14 cells), and 2^18 entries of 24 bytes (6 MB) are read from L3 or memory, so a 16-bit
 * fingerprint per slot, from the other half of the key and the generation, is kept apart (512 KB,
 * within a core's 1 MB L2) and read first: an entry is read only when its fingerprint matches (a
 * stale generation or another key matches one time in 65,536, and the entry itself then says no).
 * The lookups were 19 % of top1465 #182's gB (perf); A/B on one core, three runs each: #182's gB
 * 3.84 -> 3.50 CPU-s, the W11 puzzle of issue 23 76 -> 74 ms, 3,000 puzzles of cb-001 under B and gB
 * within noise. */
enum { MEMO_BRAID = -1, MEMO_G_BRAID = -2 }; /* the `last` of braid and g-braid entries */
#define MEMO_BITS 16   /* whips and braids */
#define MEMO_BITS_G 18 /* g-braids */
#define MEMO_SIZE (1 << MEMO_BITS_G)
static struct {
    SetKey key;
    uint32_t gen;
    int16_t last;
    int16_t rem;
} memo[MEMO_SIZE];
static uint16_t memo_print[MEMO_SIZE];
static uint32_t memo_gen;     /* the braid entries' current generation */
static uint32_t whip_gen;     /* the whip entries' (one a search: what an entry means depends on its options) */
static uint64_t memo_tag;     /* the cache_tag of the braid searches the current generation serves, or 0 */
static uint64_t last_tag;     /* the newest tag given */

uint64_t sr_cache_tag(void) { return ++last_tag; }

/* The slot of (set of rlcs, last rlc): `key` is the XOR of the SET_KEY of Z and of every rlc, kept up to
 * date as rlcs come and go (hashing the 28 words of the two bitsets at every node was about a fifth of
 * the g-whip searches' time: perf, the 1,504 searches of line 12301 at level 10). */
static unsigned memo_slot(SetKey key, int last)
{
    uint64_t h = (key.a ^ (uint64_t)(last + 1) * 0x9E3779B97F4A7C15ull) * 0xFF51AFD7ED558CCDull;
    return (unsigned)(h >> (64 - (last == MEMO_G_BRAID ? MEMO_BITS_G : MEMO_BITS)));
}

/* The key of a set with member `key_index` (a label, or NL + a g-label) added, or taken out again. */
static void flip_key(SetKey *key, int key_index)
{
    key->a ^= SET_KEY[key_index].a;
    key->b ^= SET_KEY[key_index].b;
}

/* Add rlc `i` (bit i of `bits`: the label rlcs, or the g-rlcs) to a partial chain's set, or take it out
 * again: the set and its key change together, in one place. */
static void flip_rlc(uint64_t *bits, SetKey *key, int i, int key_index)
{
    bits[i >> 6] ^= 1ull << (i & 63);
    flip_key(key, key_index);
}

/* The current generation of the entries of a whip search (`last` a label) or of a braid search. */
static uint32_t memo_generation(int last) { return last >= 0 ? whip_gen : memo_gen; }

/* The fingerprint of a key in its current generation (above). */
static uint16_t memo_fingerprint(SetKey key, uint32_t gen)
{
    return (uint16_t)(((key.b ^ (uint64_t)gen * 0x9E3779B97F4A7C15ull) * 0xD6E8FEB86659FD93ull) >> 48);
}

/* 1 if (the set of key `key`, last) failed with at least `rem` cells left in this search. */
static int memo_failed(unsigned slot, SetKey key, int last, int rem)
{
    const uint32_t gen = memo_generation(last);
    return memo_print[slot] == memo_fingerprint(key, gen) && memo[slot].gen == gen &&
           memo[slot].key.a == key.a && memo[slot].key.b == key.b && memo[slot].last == last &&
           memo[slot].rem >= rem;
}

static void memo_fail(unsigned slot, SetKey key, int last, int rem)
{
    const uint32_t gen = memo_generation(last);
    memo[slot].key = key;
    memo_print[slot] = memo_fingerprint(key, gen);
    memo[slot].gen = gen;
    memo[slot].last = (int16_t)last;
    memo[slot].rem = (int16_t)rem;
}

/* A generation wrapped: entries of generation 0 could look current, so every entry goes. */
static void memo_clear(void)
{
    memset(memo, 0, sizeof memo);
    memo_gen = whip_gen = 1;
}

/* A new braid search, of no tag or another one: every braid entry out of date. */
static void memo_start(void)
{
    memo_tag = 0;
    if (++memo_gen == 0) memo_clear();
}

/* A new whip search: every whip entry out of date. */
static void whip_memo_start(void)
{
    if (++whip_gen == 0) memo_clear();
}

/* Take the candidates of `links` that are not yet in `inc` into it, and out of `free`; when `near` is
 * not NULL, mark there the variables that lost a free member and are left with at most 1 (g: 3). */
static void join_inc(const Cands *c, const uint64_t *links, uint64_t inc[W], uint16_t free[NV], uint64_t *near, int g)
{
    for (int w = 0; w < W; ++w) {
        uint64_t fresh = links[w] & c->present[w] & ~inc[w];
        inc[w] |= links[w];
        for (; fresh; fresh &= fresh - 1) {
            int x = 64 * w + CTZ64(fresh);
            for (int k = 0; k < 4; ++k) {
                int v = VAR_OF[x][k];
                free[v] &= (uint16_t)~POS_IN[x][k];
                if (near && is_near(free[v], g)) near[v >> 6] |= 1ull << (v & 63);
            }
        }
    }
}

/* A search from target z starts: the cache emptied, `inc` the candidates linked to z, `free` per
 * variable its present members outside inc. */
static void search_start(const Cands *c, int z, uint64_t inc[W], uint16_t free[NV])
{
    memset(inc, 0, W * sizeof inc[0]);
    memcpy(free, c->live, NV * sizeof free[0]);
    join_inc(c, LINK[z], inc, free, NULL, 0);
}

/* The path of the partial chain being explored, copied out when it closes at cell `k` on `v`. */
static void chain_out(SrChain *chain, const int16_t *var, const int16_t *rlc, int k, int v)
{
    if (chain == NULL) return;
    chain->n = k + 1;
    for (int j = 0; j < k; ++j) {
        chain->var[j] = var[j];
        chain->rlc[j] = rlc[j];
    }
    chain->var[k] = (int16_t)v;
    chain->rlc[k] = -1;
}

/* The number of members of a 9-bit mask, counted only up to cap + 1. */
static int count_upto(unsigned mask, int cap)
{
    int n = 0;
    for (; mask && n <= cap; mask &= mask - 1) ++n;
    return n;
}

/* Is a member of g-label `gl` of variable `v` (a position of its mask) one of `rlcs` (Z or an rlc)? */
static int glabel_holds(int v, int gl, const uint64_t rlcs[W])
{
    for (unsigned ps = G_MASK[gl]; ps; ps &= ps - 1)
        if (has(rlcs, MEMBER[v][CTZ64(ps)])) return 1;
    return 0;
}

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
 * at the first whip found.
 *
 * The cache: a partial (g-)whip's extensions depend only on its set of rlcs S (inc is the links of Z
 * and S, and the next rlc must not be Z or in S) and its last rlc, not on its left-linking candidates
 * or its variables: the rules also refuse a left-linking candidate that was an earlier one, the search
 * does not, so it may say yes where CLIPS finds nothing, never the reverse; and a used variable needs
 * no test, being a function of S: a label rlc's variable holds that rlc, present and not linked to Z
 * or any rlc (nor g-linked to a g-rlc, which would put all the g-rlc's labels in inc), so it can
 * give no new rlc; a g-rlc's variable is the g-label's.
 *
 * Why it exists: the engine builds the partial whips (g-whips) of only the targets that carry one of
 * the active level's length or less in the current state (driver.py, Engine._whip_search).  The trial
 * depth is a necessary condition only: at level 4 of W4 puzzles 40-70 targets pass it and 2-8 get a
 * whip[4].  A node here is a few bitset operations (about 0.2 us), where CLIPS pays tens of
 * microseconds of Rete work for each partial whip it builds, keeps up to date through every
 * elimination and retracts.  Measured (docs/engine.md): W3-W6 and gW4-gW6 puzzles 1.6-2x faster.
 *
 * The budget bounds the nodes visited: past it the answer is "maybe" (SR_BUDGET), which the engine
 * treats as "yes" (the target is focused and CLIPS decides), so a pathological target costs bounded
 * time and a whip is never missed.
 *
 * Strict (the chains the engine records itself from its lean whip level on, driver.py _lean_whip), the
 * search is loopless as the rules are: a cell's left-linking candidate is none of the earlier cells'
 * (SPEC §4.2).  Its future then depends on the left-linking candidates used, so they enter the cache key
 * (llc_key) and each unused one is a branch of its own.  Permissive, on top1465 #182 under gB it found
 * g-whips of 10-27 cells on four targets whose left-linking candidates had to repeat. */
typedef struct {
    const Cands *c;
    int limit, g;
    int need_g;           /* only a chain with a g-rlc closes */
    int n_g;              /* the number of g-rlcs of the partial whip */
    SrCtl *ctl;
    uint64_t rlcs[W];     /* Z and the rlcs of the partial whip that are labels */
    uint64_t grlcs[WG];   /* its g-rlcs */
    uint64_t used[WV];    /* its variables */
    SetKey key;           /* the XOR of the SET_KEY of Z and the rlcs (memo_slot) */
    int16_t path_var[SR_MAX_CHAIN], path_rlc[SR_MAX_CHAIN]; /* its cells */
    SrChain *chain;       /* where a whip found goes (NULL: nowhere) */
    int strict;           /* loopless: no left-linking candidate twice (above) */
    uint64_t llcs[W];     /* strict: the left-linking candidates of its cells */
} WhipSearch;

/* Strict whips: add left-linking candidate x to the partial whip, or take it out again; its key
 * changes with it, by a contribution no rlc's key gives (SET_KEY's halves swapped and rotated). */
static void flip_llc(WhipSearch *s, int x)
{
    s->llcs[x >> 6] ^= 1ull << (x & 63);
    s->key.a ^= SET_KEY[x].b << 17 | SET_KEY[x].b >> 47;
    s->key.b ^= SET_KEY[x].a << 29 | SET_KEY[x].a >> 35;
}

/* Is `v` a variable of rlc `last` (a label index, or NL + a g-label index)? */
static int rlc_variable(int last, int v)
{
    if (last >= NL) return G_VAR[last - NL] == v;
    return VAR_OF[last][0] == v || VAR_OF[last][1] == v || VAR_OF[last][2] == v || VAR_OF[last][3] == v;
}

static int is_used(const WhipSearch *s, int v) { return (int)(s->used[v >> 6] >> (v & 63) & 1u); }

/* SR_FOUND if the partial whip of length k = s->limit - 1 whose newest rlc `last` (in s) has `links`
 * (its links, or a g-rlc's g-links) closes: a variable, not used and not last's, with a present member
 * in links and every free member (`free`: its parent's) in links; else SR_NONE, SR_BUDGET or
 * SR_STOPPED.  The last cell is tested here rather than by building the partial whip (copying inc and
 * free, joining its links) and caching its failure: two thirds of the nodes are such leaves (the 1,446
 * g-whip searches at limit 9 of line 12301: 51 of 75 million), and their cache entries evicted the
 * others'. */
static int whip_closes(WhipSearch *s, int last, int k, const uint64_t *links, const uint16_t free[NV])
{
    int t = tick(s->ctl);
    if (t) return t;
    if (s->need_g && !s->n_g) return SR_NONE;
    const Cands *c = s->c;
    for (int w = 0; w < W; ++w)
        for (uint64_t bits = links[w] & c->present[w] & ~(s->strict ? s->llcs[w] : 0); bits; bits &= bits - 1) {
            int l = 64 * w + CTZ64(bits);
            for (int kk = 0; kk < 4; ++kk) {
                int v = VAR_OF[l][kk];
                unsigned f = free[v];
                while (f && has(links, MEMBER[v][CTZ64(f)])) f &= f - 1;
                if (f == 0 && !is_used(s, v) && !rlc_variable(last, v)) {
                    chain_out(s->chain, s->path_var, s->path_rlc, k, v);
                    return SR_FOUND;
                }
            }
        }
    return SR_NONE;
}

static int whip_extend(WhipSearch *s, int last, int k, const uint64_t inc[W], const uint16_t free[NV], unsigned slot);

/* A partial whip of k cells with `rem` = limit - k cells left can only complete if the trial propagation
 * from Z and its rlcs contradicts within rem rounds (a whip is a braid: see the braids' lean test
 * below); tested where rem >= WHIP_LEAN_FROM, where a refusal saves a subtree.  Measured on the path of
 * top1465 #182 under gB, whose exhaustive g-whip searches at lengths 13-16 are most of its time: 45 ->
 * 37 s; 17 cb-001 puzzles of W 6-10 under W within noise (6.8 / 6.3 and 5.6 / 5.6 s).  Not in strict
 * searches: there one set comes back once per choice of left-linking candidates (in the cache key), and
 * the test, which depends on the set alone, is paid each time for the same answer: the strict g-whip
 * search of 16 cells of #182's gB path (test_trial_c's LONG_SEARCH_STATE) 5.5 -> 3.5 s, the whole path
 * 21.6 -> 19.2 s (twelfth session). */
#ifndef WHIP_LEAN_FROM
#define WHIP_LEAN_FROM 4
#endif

/* The partial whip of length k whose newest rlc `last` (in s, its variable in s->used) has `links`, its
 * parent's being `inc` and `free`: SR_FOUND if a whip extends it, else as whip_extend. */
static int whip_child(WhipSearch *s, int last, int k, const uint64_t inc[W], const uint16_t free[NV],
                      const uint64_t *links)
{
    if (k + 1 >= s->limit) return whip_closes(s, last, k, links, free);
    unsigned slot = memo_slot(s->key, last);
    if (memo_failed(slot, s->key, last, s->limit - k)) return SR_NONE;
    if (!s->strict && s->limit - k >= WHIP_LEAN_FROM && !sr_propagate(s->c, s->rlcs, s->grlcs, s->g, s->limit - k)) {
        memo_fail(slot, s->key, last, s->limit - k);
        return SR_NONE;
    }
    uint64_t next[W];
    uint16_t next_free[NV];
    memcpy(next, inc, sizeof next);
    memcpy(next_free, free, sizeof next_free);
    join_inc(s->c, links, next, next_free, NULL, 0);
    return whip_extend(s, last, k, next, next_free, slot);
}

/* Cell k on variable v with rlc `rlc` (its links `links`), `lefts` the positions of its possible
 * left-linking candidates: whip_child once; strict, once per left-linking candidate not used before,
 * which the partial whip then holds. */
static int whip_cell(WhipSearch *s, int v, unsigned lefts, int rlc, int k, const uint64_t inc[W],
                     const uint16_t free[NV], const uint64_t *links)
{
    if (!s->strict) return whip_child(s, rlc, k + 1, inc, free, links);
    int found = SR_NONE;
    for (unsigned m = lefts; m && !found; m &= m - 1) {
        int x = MEMBER[v][CTZ64(m)];
        if (has(s->llcs, x)) continue;
        flip_llc(s, x);
        found = whip_child(s, rlc, k + 1, inc, free, links);
        flip_llc(s, x);
    }
    return found;
}

/* Scratch of whip_extend: per variable, the positions of its left-linking candidates (zero between
 * uses; static like the cache). */
static uint16_t LEFT_POS[NV];

/* SR_FOUND if a whip (with s->g a g-whip) of length <= s->limit extends the partial one of length k
 * whose last rlc is `last` (a label index; NL + a g-label index; Z when k = 0), whose candidates linked
 * to Z or an rlc (g-linked to a g-rlc) are `inc` and, per variable, whose present members not in inc
 * are `free` (positions); SR_NONE if none; SR_BUDGET / SR_STOPPED if undecided.  `slot` is its cache
 * slot.  Keeping `free` makes the test of a variable one mask: on W4-W6 puzzles it halved the search's
 * time against counting each variable's members in inc.  A left-linking candidate is in inc (linked to
 * the last rlc), so a variable's next cell depends on the variable only, not on which of its members is
 * the left-linking one (but for a g-rlc, which must not hold it): the variables are gathered first and
 * each tried once (visiting it once per left-linking candidate cost ~2 of the 3 children built per
 * node). */
static int whip_extend(WhipSearch *s, int last, int k, const uint64_t inc[W], const uint16_t free[NV], unsigned slot)
{
    int t = tick(s->ctl);
    if (t) return t;
    const Cands *c = s->c;
    const uint64_t *from = last < NL ? LINK[last] : GLINK[last - NL];
    int vars[NV], n_vars = 0;
    for (int w = 0; w < W; ++w)
        for (uint64_t bits = from[w] & c->present[w] & ~(s->strict ? s->llcs[w] : 0); bits; bits &= bits - 1) {
            int l = 64 * w + CTZ64(bits);
            for (int kk = 0; kk < 4; ++kk) {
                int v = VAR_OF[l][kk];
                if (is_used(s, v) || rlc_variable(last, v)) continue;
                if (free[v] == 0) { /* every candidate of V linked to Z or an rlc: a whip */
                    if (s->need_g && !s->n_g) continue; /* not without a g-rlc */
                    for (int j = 0; j < n_vars; ++j) LEFT_POS[vars[j]] = 0;
                    LEFT_POS[v] = 0;
                    chain_out(s->chain, s->path_var, s->path_rlc, k, v);
                    return SR_FOUND;
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
        memo_fail(slot, s->key, last, s->limit - k);
        return SR_NONE;
    }
    const int cap = s->g ? 3 : 1; /* most free candidates that can still make an rlc */
    for (int j = 0; j < n_vars; ++j) {
        int v = vars[j];
        unsigned f = free[v];
        int n_free = count_upto(f, cap);
        if (n_free > cap) continue;
        int found = SR_NONE;
        s->used[v >> 6] |= 1ull << (v & 63);
        s->path_var[k] = (int16_t)v;
        if (n_free == 1) { /* the rlc: a candidate */
            int r = MEMBER[v][CTZ64(f)];
            if (!has(s->rlcs, r)) {
                s->path_rlc[k] = (int16_t)r;
                flip_rlc(s->rlcs, &s->key, r, r);
                found = whip_cell(s, v, lefts[j], r, k, inc, free, LINK[r]);
                flip_rlc(s->rlcs, &s->key, r, r);
            }
        } else { /* 2 or 3 not linked: a g-rlc, the g-label of V holding them all, if any */
            int gl = g_label_holding(v, f);
            /* a left-linking candidate outside G; neither Z nor an rlc in G */
            if (gl >= 0 && (lefts[j] & ~G_MASK[gl]) && !has(s->grlcs, gl) && !glabel_holds(v, gl, s->rlcs)) {
                s->path_rlc[k] = (int16_t)(NL + gl);
                flip_rlc(s->grlcs, &s->key, gl, NL + gl);
                ++s->n_g;
                found = whip_cell(s, v, lefts[j] & ~G_MASK[gl], NL + gl, k, inc, free, GLINK[gl]);
                --s->n_g;
                flip_rlc(s->grlcs, &s->key, gl, NL + gl);
            }
        }
        s->used[v >> 6] &= ~(1ull << (v & 63));
        if (found) return found;
    }
    memo_fail(slot, s->key, last, s->limit - k);
    return SR_NONE;
}

int sr_whip(const Cands *c, int z, int g, int need_g, int strict, int limit, SrCtl *ctl, SrChain *chain)
{
    WhipSearch s = {.c = c, .limit = limit > 81 ? 81 : limit, .g = g || need_g, .need_g = need_g, .ctl = ctl,
                    .key = SET_KEY[z], .chain = chain, .strict = strict};
    put(s.rlcs, z);
    uint64_t inc[W];
    uint16_t free[NV];
    whip_memo_start();
    search_start(c, z, inc, free);
    return whip_extend(&s, z, 0, inc, free, memo_slot(s.key, z));
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
 * limit - |S| rounds.  A node's closing variables are looked for before its children, so the braid
 * found is one of the shortest in that branch.
 *
 * Not strict (the engine's filter), the search is permissive where the rules are stricter (a closing
 * V may be a g-rlc's; a g-rlc need not have a left-linking candidate outside G), so it can say yes
 * where CLIPS finds nothing, never the reverse.  Strict (the compiled raters, te.c), it follows the
 * definitions: a closing V is no g-rlc's variable, and a g-rlc's variable has a present member outside
 * G (the left-linking candidate, in inc since every free member is in G).  Neither refuses a V holding
 * an earlier left-linking candidate (SPEC §4.2's loopless condition): a braid's left-linking candidates
 * are any members of inc, chosen when it is printed (te.c, sudorules/engine/te.py).
 *
 * Extensions depend on the set S only, not on the order its rlcs came in, so a set that failed is
 * recorded in the cache (last MEMO_BRAID, g-braids MEMO_G_BRAID) and not explored again in another
 * order; with g, a set holding a failed one less one or two rlcs fails too (failed_subset).
 *
 * Why it exists: a lean stage builds the partial braids (g-braids) of one target in CLIPS, tens of
 * milliseconds a target at lengths 6-7 (more than ten times that for g-braids), and most targets
 * tried carry none: the engine asks this search first (driver.py, Engine._braid_worth) and skips those
 * it proves have none.  Measured figures: docs/engine.md. */
typedef struct {
    const Cands *c;
    int limit, g, strict;
    SrCtl *ctl;
    uint64_t rlcs[W];   /* Z and the label rlcs */
    uint64_t grlcs[WG]; /* the g-rlcs */
    uint64_t gvars[WV]; /* the variables of the g-rlcs */
    uint64_t decided[WV]; /* the variables of Z and of the label rlcs (disjoint: the rlcs are compatible) */
    SetKey key;         /* the XOR of the SET_KEY of Z and the rlcs (memo_slot) */
    int tag;            /* its cache entries' `last`: MEMO_BRAID, MEMO_G_BRAID (a set that failed as a
                         * braid may still make a g-braid: the two never read each other's entries) */
    int16_t path_var[SR_MAX_CHAIN], path_rlc[SR_MAX_CHAIN]; /* its cells */
    SrChain *chain;
} BraidSearch;

/* Decide (or undecide) the four variables of label x in the search's propagation state. */
static void flip_decided(BraidSearch *s, int x)
{
    for (int k = 0; k < 4; ++k) s->decided[VAR_OF[x][k] >> 6] ^= 1ull << (VAR_OF[x][k] & 63);
}

static int braid_extend(BraidSearch *s, int k, const uint64_t inc[W], const uint16_t free[NV], const uint64_t near[WV],
                        unsigned slot, int bound, const Round *parent_rounds);

static int child_may_pass(const BraidSearch *s, const Round *rd, int need, const uint64_t *links);

/* ---- failed subsets (g-braids) -------------------------------------------------------------------
 *
 * A partial g-braid S (its rlcs in path order, the newest at k) with R cells left fails when S less one
 * of its earlier rlcs y failed with R + 1 cells left, or S less two, y before y', with R + 2: a
 * completion C of S would make y, y', C a completion of that smaller set.  It is one: y's variable had
 * every other member linked to rlcs before y, all in the smaller set, and y is compatible with all of
 * them (likewise y' with y added); after y and y' the set is S again, where C is valid, since
 * extensions depend on the set only (above).  One exception: a g-rlc y = G of variable V followed in
 * S by a label of G (an rlc through another variable), which decides V, so G could no longer be a cell
 * of the smaller set; such a y is not taken out (`decided` holds V).  The cache holds only true
 * failures (every cut of the search is sound), so this is one too, and is cached like the others.
 *
 * Why: the exact-set cache meets a set again only in another order of the same rlcs, but deep
 * searches meet many supersets of failed sets that their own search never built (the failed set cut
 * by the lean test, a dominated child, a child built in another branch): the nogood subsumption of
 * constraint search, restricted to one or two rlcs taken out (1 + k + k(k - 1) / 2 probes).  Magictour
 * top1465 #182 (B = gB = 16): gB given its B 3,979 -> 167 CPU-s with one rlc taken out, 52 s with two
 * (5.4 s with the larger table above); the W11 puzzle of issue 23 gB 76 -> 72 ms, top1465 #89 107 -> 97
 * ms; cb-001 under gB 3,016 cuts in 3.6 million nodes, its time the same.  A test build that also
 * searched every child it cut found no g-braid below one (all of cb-001 and the hard puzzles of
 * bench_gb_vs_b under gB).  In braid searches it cut as much but reordered top1465 #113's put-off
 * searches (B 0.20 -> 0.39 s), and 31 of SHC's BxB examples took 6.99 -> 8.59 s: g-braids only. */
static int removable(const BraidSearch *s, int i)
{
    int v = s->path_var[i];
    return s->path_rlc[i] < NL || !(s->decided[v >> 6] >> (v & 63) & 1u);
}

static int failed_subset(const BraidSearch *s, int k)
{
    const int rem = s->limit - k; /* the cells left to S less one rlc */
    for (int i = 0; i < k; ++i) {
        if (!removable(s, i)) continue;
        SetKey less = s->key;
        flip_key(&less, s->path_rlc[i]);
        if (memo_failed(memo_slot(less, s->tag), less, s->tag, rem)) return 1;
    }
    for (int i = 0; i < k; ++i) {
        if (!removable(s, i)) continue;
        SetKey less = s->key;
        flip_key(&less, s->path_rlc[i]);
        for (int j = i + 1; j < k; ++j) {
            if (!removable(s, j)) continue;
            SetKey less2 = less;
            flip_key(&less2, s->path_rlc[j]);
            if (memo_failed(memo_slot(less2, s->tag), less2, s->tag, rem + 1)) return 1;
        }
    }
    return 0;
}

/* ---- sleeping children -----------------------------------------------------------------------
 *
 * The rlcs of a partial braid come in many orders, and each order of a failed set met again was a
 * cache probe: the W11 puzzle of issue 23, in its last g-braid pass, tried 99,600 children for 10,600
 * nodes, 71,600 of them sets already failed.  So a node keeps a sleep set (the partial-order
 * reduction of model checking): its children that failed, and those its parent passed down; a child
 * asleep is not tried again below a sibling.  With N a node, ci one of its children that failed
 * (searched, or refused by a sound test: the cache, the lean test, the zero-slack rule, or a g-rlc
 * that adds no link) and M a node below a later sibling, with ci a child of M too: a braid through
 * M + ci is, with ci moved first, a braid through N + ci of the same length, which does not exist.
 * Moving ci first keeps every cell between N and M valid, as long as it is
 * - a label t: ci is not linked to t (both are rlcs of one braid), so t's variable keeps t as its
 *   only free member, and ci decides none of t's variables (ci would be a second free member there;
 *   a g-rlc ci's variable keeps 2-3 free members at M, t's had one);
 * - a g-rlc G' of variable V' with free members f' when it came: f' less ci's links (g-links) must
 *   keep two members, and a label ci must not be one of G''s (G' would hold an rlc): then V' holds
 *   G' still.  When a cell below N fails this test, ci wakes up in that cell's subtree.
 * The cells after M see the same set in both orders, and the search's other cuts (the cache, the
 * subsets, dominance) depend on sets only: so a failure written below a sleeping child is still a
 * true failure (by induction on the order in which failures are written, each resting on failures
 * written before it), and the cache keeps its meaning.  Dominated children are not put to sleep:
 * their failure rests on a sibling's that may come later.
 *
 * Measured (ninth session, one core): the W11 puzzle's last g-braid pass 99,600 -> 24,400 children
 * tried (cache hits 71,600 -> 116), nodes 10,620 -> 10,574; A/B, three runs each: its gB 76 -> 67 ms
 * and B 10.5 -> 9.6 ms, top1465 #182's gB 3.72 -> 2.65 CPU-s (with the fingerprints above), 3,000
 * cb-001 puzzles under B and gB within noise.  A test build that searched every sleeping child anyway
 * found no braid below one: all of cb-001 and of Magictour's top1465 under B and gB. */
#define WS ((NL + NG + 63) / 64) /* uint64 words of a bitset of labels and g-labels (NL + k) */
static uint64_t SLEEP[SR_MAX_CHAIN + 1][WS]; /* per depth, the sleep set of the node there */

/* May ci (a label, or NL + a g-label), asleep at a node, stay so below its child by g-rlc gl of variable
 * v, whose free members were f? */
static int stays_asleep(int ci, int v, unsigned f, int gl)
{
    const uint64_t *links = ci < NL ? LINK[ci] : GLINK[ci - NL];
    if (ci < NL)
        for (unsigned ps = G_MASK[gl]; ps; ps &= ps - 1)
            if (MEMBER[v][CTZ64(ps)] == ci) return 0;
    int left = 0;
    for (unsigned ps = f; ps; ps &= ps - 1) left += !has(links, MEMBER[v][CTZ64(ps)]);
    return left >= 2;
}

/* The sleep set of the child at depth k + 1 whose rlc `x` (a label, or NL + a g-label) came from variable
 * v, whose free members were f: the node's at depth k, less what wakes up below a g-rlc. */
static void sleep_below(int k, int x, int v, unsigned f)
{
    if (x < NL) {
        memcpy(SLEEP[k + 1], SLEEP[k], sizeof SLEEP[k]);
        return;
    }
    for (int w = 0; w < WS; ++w) {
        uint64_t keep = 0;
        for (uint64_t bits = SLEEP[k][w]; bits; bits &= bits - 1)
            if (stays_asleep(64 * w + CTZ64(bits), v, f, x - NL)) keep |= bits & -bits;
        SLEEP[k + 1][w] = keep;
    }
}

/* The partial braid of length k + 1 whose newest rlc, already in s, has `links` (its links, or a g-rlc's
 * g-links), its parent's propagation contradicting by round `bound`:
 * braid_extend from it unless the cache knows it failed with as many cells left, when the parent
 * kept its `rounds`, child_may_pass says it fails the lean test, or (g-braids) a failed subset says
 * it fails. */
static int braid_child(BraidSearch *s, int k, const uint64_t inc[W], const uint16_t free[NV], const uint64_t near[WV],
                       const uint64_t *links, int bound, const Round *rounds)
{
    unsigned slot = memo_slot(s->key, s->tag);
    if (memo_failed(slot, s->key, s->tag, s->limit - (k + 1))) return SR_NONE;
    if ((rounds && !child_may_pass(s, rounds, s->limit - k - 1, links)) || (s->g && failed_subset(s, k))) {
        memo_fail(slot, s->key, s->tag, s->limit - (k + 1));
        return SR_NONE;
    }
    uint64_t next[W], next_near[WV];
    uint16_t next_free[NV];
    memcpy(next, inc, sizeof next);
    memcpy(next_free, free, sizeof next_free);
    memcpy(next_near, near, sizeof next_near);
    join_inc(s->c, links, next, next_free, next_near, s->g);
    sleep_below(k, s->path_rlc[k], s->path_var[k], free[s->path_var[k]]);
    return braid_extend(s, k + 1, next, next_free, next_near, slot, bound, rounds);
}

static int is_gvar(const BraidSearch *s, int v) { return (int)(s->gvars[v >> 6] >> (v & 63) & 1u); }

/* The new links of an rlc with these links (present candidates not yet in inc) in `fresh`, and their
 * words ORed (0: none).  A g-rlc with none is a cell a g-braid can always do without (its variable
 * unused, every later left-linking candidate it links already linked to Z or an earlier rlc), and its
 * child would be its parent again, one cell longer. */
static uint64_t new_links(const Cands *c, const uint64_t *links, const uint64_t inc[W], uint64_t fresh[W])
{
    uint64_t any = 0;
    for (int w = 0; w < W; ++w) any |= fresh[w] = links[w] & c->present[w] & ~inc[w];
    return any;
}

/* ---- dominated children (g-braids) ----------------------------------------------------------
 *
 * Among the children of a node S, the child by rlc a (a label or a g-label) is dominated by the child
 * by a label b when b's new links (present candidates linked to b, not yet in inc) include all of a's
 * (and, when they are the same, b is a label of lower index, or a is a g-label).  Then a g-braid
 * S, a, r2, ..., rm, V of length L gives one through S, b of length L or less: put b in a's cell and
 * keep the other cells.  At every cell the new inc holds the old one (b brings all a brought), so each
 * later cell still has its other members linked; where a later rlc is linked to b, or b is one, or a
 * later g-rlc holds b, that cell is dropped or becomes the closing variable, earlier; a cell or the
 * closing variable cannot be one of b's four variables (they hold b, which nothing before is linked
 * to, else that cell would have closed first).  The dominator must be a label: a g-label b decides its
 * variable, which the old chain may use later as a cell whose label's links b's g-links lack.  So a
 * search need not build a dominated child (its sibling b is built, or refused by a test that holds
 * for a too), and when the node fails, S + a fails with as many cells left as S + b and goes in the
 * cache like any failure (the set comes again from other orders).  Twin g-labels and g-rlcs that add
 * no link (braid_extend) are the special cases the search had.
 *
 * Only in g-braid searches: there a child is dominated about once in six, and the W11 puzzle of issue
 * 23 under gB visits 25,500 nodes, not 47,500 (0.132 -> 0.078 s, one core); in braid searches, one in
 * fourteen, which did not pay for the tests (B 0.0103 -> 0.013 s).  Checked by a test build that built
 * every dominated child as well: none found a g-braid where its node found none (1.16 million
 * dominated children over the whole of cb-001 under gB, 22.7 million over 14 hard published puzzles).
 * The first DOM_MAX label children of a node are the dominators (any subset of them is sound). */
#define DOM_MAX 48
static uint64_t DOM_NEW[SR_MAX_CHAIN][DOM_MAX][W]; /* per depth, the dominators' new links */
static uint64_t DOM_SIG[SR_MAX_CHAIN][DOM_MAX];    /* ... and their words ORed: a quick subset filter */

/* The dominators of a node at depth k: its first label children (`vars` with one free member), their
 * new links and signatures; their number. */
static int dominators(const Cands *c, int k, const int16_t *vars, int n_vars, const uint16_t free[NV],
                      const uint64_t inc[W], int16_t labs[DOM_MAX])
{
    int n = 0;
    for (int j = 0; j < n_vars && n < DOM_MAX; ++j) {
        unsigned f = free[vars[j]];
        if (f & (f - 1)) continue;
        int b = MEMBER[vars[j]][CTZ64(f)];
        DOM_SIG[k][n] = new_links(c, LINK[b], inc, DOM_NEW[k][n]);
        labs[n++] = (int16_t)b;
    }
    return n;
}

/* Is the child by rlc `a` (a label, or NL + a g-label), whose new links are `na` (new_links: `sig`),
 * dominated by one of the node's n dominators `labs` (at depth k)? */
static int dominated(int k, const uint64_t na[W], uint64_t sig, int a, const int16_t *labs, int n)
{
    for (int i = 0; i < n; ++i) {
        if (sig & ~DOM_SIG[k][i] || labs[i] == a) continue;
        int w = 0;
        while (w < W && !(na[w] & ~DOM_NEW[k][i][w])) ++w;
        if (w == W && (a > labs[i] || memcmp(na, DOM_NEW[k][i], sizeof DOM_NEW[k][i]))) return 1;
    }
    return 0;
}

/* ---- the lean test of a child, from its parent's rounds ------------------------------------------
 *
 * A node whose propagation contradicts in exactly as many rounds as it has cells left (`bound` == rem)
 * has children that must contradict a round sooner (braid_extend).  Most do not (the W11 puzzle of
 * issue 23 under gB: 83,000 of the 110,000 nodes of its last pass at length 10, each a copy of the
 * state, a scan and a propagation for nothing: 63 % of that pass's time).  A child's propagation is
 * its parent's with the new rlc's links one round early: by round j it has removed all that the
 * parent has (rd[j].removed) and more (`x`), and assumed all that the parent has and more (`ahead`,
 * `gahead`), as long as it has not contradicted (every way the two could part is a contradiction of
 * the child's, and each is looked for below).  So only the variables with an extra removal can differ
 * from the parent's (rd[j].live), and only they are examined, round by round: one emptied is a
 * contradiction; one left with a single member (2-3 in a g-label) that the parent has not assumed
 * puts it ahead, its links extra removals of the next round, and a new one linked to another assumed
 * with it (or that the parent removes in that round) a clash.  When nothing is ahead any more, the
 * child's rounds are the parent's: no sooner contradiction.  Any doubt (an ahead label the parent
 * removed) answers "may pass", and the child is built and tested in full.  Checked against the full
 * test on every child it refused (built anyway, in a test build): all of cb-001 under B and gB, 22 BxB
 * and 28 BxBB examples of SHC's, the W11 puzzle and cb-001 lines 7462 and 12301 under B and gB: 39
 * million refusals, none wrong. */
#define DELTA_MAX 6                            /* the children tested so: rem <= DELTA_MAX, rounds <= 5 */
static Round ROUNDS[SR_MAX_CHAIN][DELTA_MAX];  /* per depth k, rounds 1..rem - 1 of the node at k */
static uint16_t XPOS[NV];                      /* per variable, the positions of its extra removals */

/* Add the present candidates of `links` that the parent had not removed by round j (rd: its round j)
 * nor the child yet (x) to the child's extra removals; new variables touched go to tv. */
static void add_extra(const Cands *c, const uint64_t *links, const Round *rd, uint64_t x[W], int16_t *tv, int *ntv)
{
    for (int w = 0; w < W; ++w)
        for (uint64_t fresh = links[w] & c->present[w] & ~rd->removed[w] & ~x[w]; fresh; fresh &= fresh - 1) {
            int y = 64 * w + CTZ64(fresh);
            x[w] |= 1ull << (y & 63);
            for (int kk = 0; kk < 4; ++kk) {
                int v = VAR_OF[y][kk];
                if (!XPOS[v]) tv[(*ntv)++] = (int16_t)v;
                XPOS[v] |= POS_IN[y][kk];
            }
        }
}

/* May the child whose new rlc (its links, or a g-rlc's g-links: `links`; already in s, a label's
 * variables decided) extends a node whose propagation contradicts exactly in round need + 1, its rounds
 * 1..need in rd[1..need], contradict by round `need`?  0 only when it cannot (the section above says
 * how). */
static int child_may_pass(const BraidSearch *s, const Round *rd, int need, const uint64_t *links)
{
    const Cands *c = s->c;
    uint64_t x[W] = {0}, ahead[W] = {0}, gahead[WG] = {0}, adec[WV] = {0};
    int16_t tv[4 * NL];
    uint16_t newl[NL], newg[NG];
    int ntv = 0, pass = 0, nnewl = 0, nnewg = 0;
    add_extra(c, links, &rd[1], x, tv, &ntv);
    for (int j = 1; j <= need && !pass; ++j) {
        if (j >= 2) {
            for (int f = 0; f < nnewl; ++f) add_extra(c, LINK[newl[f]], &rd[j], x, tv, &ntv);
            for (int f = 0; f < nnewg; ++f) add_extra(c, GLINK[newg[f]], &rd[j], x, tv, &ntv);
            for (int w = 0; w < W; ++w) pass |= (ahead[w] & rd[j].removed[w]) != 0; /* the doubt above */
            if (pass) break;
        }
        /* decided in the child: the parent's before this round's forcing (s->decided holds r's
         * variables already), and the variables of the labels ahead */
        const uint64_t *dec = j == 1 ? s->decided : rd[j - 1].decided;
        uint64_t newset[W] = {0};
        nnewl = nnewg = 0;
        for (int t = 0; t < ntv && !pass; ++t) {
            int v = tv[t];
            if ((dec[v >> 6] | adec[v >> 6]) >> (v & 63) & 1u) continue;
            unsigned cv = rd[j].live[v] & ~XPOS[v], rest = cv & (cv - 1);
            if (cv == 0) pass = 1; /* emptied: the child contradicts in round j */
            else if (j == need) continue;
            else if (rest == 0) {
                int y = MEMBER[v][CTZ64(cv)];
                if (!has(rd[j].assumed, y) && !has(ahead, y) && !has(newset, y)) {
                    put(newset, y);
                    newl[nnewl++] = (uint16_t)y;
                }
            } else if (s->g && ((rest & (rest - 1)) & ((rest & (rest - 1)) - 1)) == 0) {
                int gl = g_label_holding(v, cv), dup = 0;
                if (gl < 0 || has(rd[j].g_assumed, gl) || has(gahead, gl)) continue;
                for (int f = 0; f < nnewg; ++f) dup |= newg[f] == gl;
                if (!dup) newg[nnewg++] = (uint16_t)gl;
            }
        }
        if (pass || j == need) break;
        /* round j + 1's clashes: a new label that the parent's round j + 1 removes (linked to one it
         * forced in round j), or linked to another assumed label, or g-linked by a new g-label */
        uint64_t hit[W] = {0};
        for (int f = 0; f < nnewl; ++f) {
            pass |= has(rd[j + 1].removed, newl[f]);
            for (int w = 0; w < W; ++w) hit[w] |= LINK[newl[f]][w];
        }
        for (int f = 0; f < nnewg; ++f)
            for (int w = 0; w < W; ++w) hit[w] |= GLINK[newg[f]][w];
        for (int w = 0; w < W; ++w) pass |= (hit[w] & (rd[j].assumed[w] | newset[w] | ahead[w])) != 0;
        if (pass) break;
        for (int f = 0; f < nnewl; ++f) {
            put(ahead, newl[f]);
            for (int kk = 0; kk < 4; ++kk) adec[VAR_OF[newl[f]][kk] >> 6] |= 1ull << (VAR_OF[newl[f]][kk] & 63);
        }
        for (int f = 0; f < nnewg; ++f) put(gahead, newg[f]);
        uint64_t left = 0; /* still ahead of the parent after its round j? */
        for (int w = 0; w < W; ++w) left |= ahead[w] & ~rd[j].assumed[w];
        for (int w = 0; w < WG; ++w) left |= gahead[w] & ~rd[j].g_assumed[w];
        if (!left) break;
    }
    for (int t = 0; t < ntv; ++t) XPOS[tv[t]] = 0;
    return pass;
}

/* SR_FOUND if a braid (with s->g a g-braid) of length <= s->limit extends the partial one of length k
 * (its set of rlcs in s, `inc` and `free` as in whip_extend; `slot` its cache slot, `bound` a round by
 * which the propagation from Z and its rlcs contradicts, from its parent), SR_NONE if none, SR_BUDGET /
 * SR_STOPPED if undecided.
 *
 * Every partial braid must pass the lean stages' test (Engine._viable): the propagation from Z and its
 * rlcs, all assumed, contradicts within the limit - k cells left.  That test was most of a search's
 * time (perf: 81 % of a BxB context's searches when each node ran sr_propagate), so it costs less here:
 * - a child's round is never later than its parent's (one more assumption only removes more
 *   candidates, so every variable is forced or emptied no later): when the parent's `bound` is within
 *   the cells left, nothing is computed;
 * - otherwise the propagation starts from round 2: `free` is the state after its round 1 (round 1
 *   removes the links of Z and the rlcs: inc), and the variables the scan below meets with one free
 *   member (2-3 in one g-label) are that round's forced labels (assumed g-labels);
 * - a set that fails it is cached like any other failure;
 * - when the propagation contradicts in exactly rem rounds (and rem <= DELTA_MAX), its rounds are
 *   recorded and each child is first tested from them (child_may_pass: only what the child's new rlc
 *   changes), and built only when it may contradict a round sooner (the W11 puzzle of issue 23 under
 *   gB: 0.21 -> 0.155 s).
 * (The old test, a whole sr_propagate before each child: line 14 of SHC's BxB sample at p <= 9
 * 5.87 -> 2.42 s with the first two, then see docs/engine.md.) */
static int braid_extend(BraidSearch *s, int k, const uint64_t inc[W], const uint16_t free[NV], const uint64_t near[WV],
                        unsigned slot, int bound, const Round *parent_rounds)
{
    int t = tick(s->ctl);
    if (t) return t;
    const Cands *c = s->c;
    const int rem = s->limit - k;  /* cells left, the closing one included */
    int16_t vars[NV], g_vars[NV]; /* the variables of the children: label rlcs, g-rlcs */
    int n_vars = 0, n_g_vars = 0, round1 = 0;
    Prop p; /* filled only as far as the test needs it */
    p.n_frontier = p.n_g_frontier = 0;
    memset(p.newly, 0, sizeof p.newly);
    /* the variables with a member in inc (a left-linking candidate) and at most 1 (g: 3) free members,
     * the only ones that close, force or give an rlc (`near`, kept by join_inc: scanning every variable
     * with a member in inc was a third of a node's time), but those of Z and the rlcs */
    for (int w = 0; w < WV; ++w)
        for (uint64_t open = near[w] & ~s->decided[w]; open; open &= open - 1) {
        int v = 64 * w + CTZ64(open);
        unsigned f = free[v];
        if (f == 0) { /* every member linked to Z or an rlc: a braid */
            if (s->strict && is_gvar(s, v)) { /* not one of a g-rlc's, but the propagation contradicts */
                round1 = 1;
                continue;
            }
            chain_out(s->chain, s->path_var, s->path_rlc, k, v);
            return SR_FOUND;
        }
        unsigned rest = f & (f - 1);
        if (rest == 0) { /* one free member: forced in round 1 */
            int x = MEMBER[v][CTZ64(f)];
            if (!has(p.newly, x)) {
                put(p.newly, x);
                p.frontier[p.n_frontier++] = (uint16_t)x;
            }
        } else if (s->g && ((rest & (rest - 1)) & ((rest & (rest - 1)) - 1)) == 0) { /* 2 or 3 */
            int gl = g_label_holding(v, f);
            if (gl >= 0 && !has(s->grlcs, gl)) p.g_frontier[p.n_g_frontier++] = (uint16_t)gl;
        } else
            continue;
        if (k + 1 < s->limit && !is_gvar(s, v)) {
            if (rest == 0)
                vars[n_vars++] = (int16_t)v;
            else
                g_vars[n_g_vars++] = (int16_t)v;
        }
        }
    /* The label children first, then the g-rlcs: a label links far more candidates than a g-label,
     * so its subtree is smaller, and the g-rlc children then search below a larger sleep set (above).
     * top1465 #182's gB 825,000 -> 615,000 nodes, 2.7 -> 1.9 CPU-s; the g-rlcs first, 1.24 million;
     * sorting all children by their new links 576,000 nodes but 2.2 s; the W11 puzzle and 12 other
     * hard puzzles within noise (ninth session). */
    memcpy(vars + n_vars, g_vars, n_g_vars * sizeof *g_vars);
    n_vars += n_g_vars;
    Round *rounds = NULL; /* this node's rounds, when its children are tested by child_may_pass */
    /* The lean test, from round 2: needed when the parent's bound is past the cells left; computed
     * too when it is exactly the cells left, so that the children, which need a round less, are tested
     * from this node's rounds rather than built */
    if (bound > rem || (bound == rem && rem <= DELTA_MAX && n_vars)) {
        if (!round1 && rem >= 2) {
            /* round 1's state: removed inc, assumed the rlcs and the labels forced (g-labels assumed) */
            memcpy(p.live, free, sizeof p.live);
            memcpy(p.removed, inc, sizeof p.removed);
            memcpy(p.decided, s->decided, sizeof p.decided);
            memcpy(p.g_assumed, s->grlcs, sizeof p.g_assumed);
            for (int w = 0; w < W; ++w) p.assumed[w] = s->rlcs[w] | p.newly[w];
            for (int f = 0; f < p.n_g_frontier; ++f) put(p.g_assumed, p.g_frontier[f]);
            for (int f = 0; f < p.n_frontier; ++f)
                for (int kk = 0; kk < 4; ++kk) p.decided[VAR_OF[p.frontier[f]][kk] >> 6] |= 1ull << (VAR_OF[p.frontier[f]][kk] & 63);
            const int keep = rem <= DELTA_MAX && n_vars; /* the children may be tested from its rounds */
            if (keep) {
                rounds = ROUNDS[k];
                memcpy(rounds[1].live, p.live, sizeof p.live);
                memcpy(rounds[1].removed, p.removed, sizeof p.removed);
                memcpy(rounds[1].assumed, p.assumed, sizeof p.assumed);
                memcpy(rounds[1].decided, p.decided, sizeof p.decided);
                memcpy(rounds[1].g_assumed, p.g_assumed, sizeof p.g_assumed);
            }
            bound = prop_rounds(c, &p, s->g, 2, rem, rounds);
            if (bound != rem) rounds = NULL; /* children need no round less, or there are none */
        } else
            bound = round1;
        if (bound == 0) {
            memo_fail(slot, s->key, s->tag, rem);
            return SR_NONE;
        }
    }
    /* When the parent P kept its rounds (its propagation contradicts in exactly as many rounds as it
     * has cells left: zero slack), this node's children take no rlc that P's round 1 had assumed
     * (forced labels, g-labels): with r this node's rlc and r' such a child's, P's propagation after
     * its round 1 holds all that P + r + r' assumes at round 0 (r too is of P's round 1: a braid's next
     * rlc is always a label its parent forces in round 1), so P contradicts at most a round after
     * P + r + r', which therefore needs rem(P) - 1 rounds with rem(P) - 2 cells left: it fails the lean
     * test.  A zero-slack completion is a chain, each rlc forced only once the one before it is there.
     * Those children were refused by child_may_pass or the cache anyway, but each refusal cost a test
     * and a cache entry: the W11 puzzle of issue 23 under gB, 77,000 of them in its last pass
     * (docs/engine.md).  (P's round 1 also assumed P's own rlcs, which no child takes.) */
    const uint64_t *no_l = parent_rounds ? parent_rounds[1].assumed : NULL;
    const uint64_t *no_g = parent_rounds ? parent_rounds[1].g_assumed : NULL;
    int16_t labs[DOM_MAX], doms[NV]; /* the dominators, the dominated children (g-braids: above) */
    const int n_labs = s->g ? dominators(c, k, vars, n_vars, free, inc, labs) : 0;
    int n_doms = 0;
    for (int j = 0; j < n_vars; ++j) {
        int v = vars[j], found = SR_NONE;
        unsigned f = free[v];
        s->path_var[k] = (int16_t)v;
        if (!(f & (f - 1))) { /* the rlc: a candidate */
            int r = MEMBER[v][CTZ64(f)];
            if (has(SLEEP[k], r)) continue; /* asleep, or tried already through another variable */
            if (no_l && has(no_l, r)) {
                put(SLEEP[k], r);
                continue;
            }
            uint64_t fresh[W];
            if (n_labs && dominated(k, fresh, new_links(c, LINK[r], inc, fresh), r, labs, n_labs)) {
                doms[n_doms++] = (int16_t)r;
                continue;
            }
            s->path_rlc[k] = (int16_t)r;
            flip_rlc(s->rlcs, &s->key, r, r);
            flip_decided(s, r);
            found = braid_child(s, k, inc, free, near, LINK[r], bound, rounds);
            flip_decided(s, r);
            flip_rlc(s->rlcs, &s->key, r, r);
            put(SLEEP[k], r);
        } else { /* 2 or 3: a g-rlc, the g-label of V holding them all, if any */
            int gl = g_label_holding(v, f);
            if (gl < 0 || has(s->grlcs, gl) || glabel_holds(v, gl, s->rlcs)) continue;
            if (s->strict && !(c->live[v] & ~G_MASK[gl])) continue; /* no left-linking candidate outside G */
            /* Its twin (the same three labels, another variable) already an rlc: this cell would add
             * no link, and a g-braid using it is a longer one without it: never needed, and the
             * search took both orders of every such pair (W11 puzzle of issue 23, gB: see
             * docs/engine.md). */
            if (has(s->grlcs, G_TWIN[gl])) continue;
            if (has(SLEEP[k], NL + gl)) continue;
            if (no_g && has(no_g, gl)) {
                put(SLEEP[k], NL + gl);
                continue;
            }
            uint64_t fresh[W];
            const uint64_t sig = new_links(c, GLINK[gl], inc, fresh);
            if (!sig) { /* the same: no new link, a useless cell */
                put(SLEEP[k], NL + gl);
                continue;
            }
            if (n_labs && dominated(k, fresh, sig, NL + gl, labs, n_labs)) {
                doms[n_doms++] = (int16_t)(NL + gl);
                continue;
            }
            s->path_rlc[k] = (int16_t)(NL + gl);
            flip_rlc(s->grlcs, &s->key, gl, NL + gl);
            s->gvars[v >> 6] |= 1ull << (v & 63);
            found = braid_child(s, k, inc, free, near, GLINK[gl], bound, rounds);
            s->gvars[v >> 6] &= ~(1ull << (v & 63));
            flip_rlc(s->grlcs, &s->key, gl, NL + gl);
            put(SLEEP[k], NL + gl);
        }
        if (found) return found;
    }
    for (int i = 0; i < n_doms; ++i) { /* their dominators failed: so do they */
        SetKey key = s->key;
        flip_key(&key, doms[i]);
        memo_fail(memo_slot(key, s->tag), key, s->tag, rem - 1);
    }
    memo_fail(slot, s->key, s->tag, rem);
    return SR_NONE;
}

int sr_braid(const Cands *c, int z, int g, int strict, int limit, SrCtl *ctl, SrChain *chain)
{
    BraidSearch s = {.c = c, .limit = limit > 81 ? 81 : limit, .g = g, .strict = strict, .ctl = ctl,
                     .key = SET_KEY[z], .tag = g ? MEMO_G_BRAID : MEMO_BRAID, .chain = chain};
    put(s.rlcs, z);
    flip_decided(&s, z);
    int bound = sr_propagate(c, s.rlcs, s.grlcs, g, s.limit); /* the root's lean test */
    if (bound == 0) return SR_NONE;
    uint64_t inc[W], near[WV] = {0};
    uint16_t free[NV];
    /* A partial braid's future depends only on its set of rlcs with Z (inc, free and the decided
     * variables are theirs, whichever is the target), so failures carry over to other targets'
     * searches of the same tag (see sr_cache_tag). */
    if (!ctl->cache_tag || ctl->cache_tag != memo_tag) {
        memo_start();
        memo_tag = ctl->cache_tag;
    }
    memset(SLEEP[0], 0, sizeof SLEEP[0]);
    search_start(c, z, inc, free);
    for (int v = 0; v < NV; ++v)
        if (free[v] != c->live[v] && is_near(free[v], g)) near[v >> 6] |= 1ull << (v & 63);
    return braid_extend(&s, 0, inc, free, near, memo_slot(s.key, s.tag), bound, NULL);
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
/* A node of the graph of the distance bound below: 4 x + j for label x as the rlc of its j-th variable
 * (VAR_OF[x][j]), 4 NL + k for g-label k (one variable). */
#define CHAIN_STATES (4 * NL + NG)
/* The bound is computed for a target once its search has built this many partial chains: most searches
 * end sooner, and the bound (a breadth-first search over the graph, about as much as 50 partial chains)
 * cost them 10 % (250 cb-001 puzzles under the default theory: find_chain 1.27 -> 1.41 s with it
 * computed at every search's start). */
#define CHAIN_DISTANCES_AFTER 64

typedef struct {
    const Cands *c;
    int mode, length, typed, kind, z;
    SrCtl *ctl;
    uint64_t used[W];       /* Z, the llcs and the label rlcs */
    uint64_t assumed[W];    /* Z and the label rlcs */
    uint64_t gassumed[WG];  /* the g-rlcs */
    uint64_t vars[WV];      /* the variables of the cells */
    int cv[82], cl[82], cr[82]; /* the cells: variable, llc, rlc (label index, NL + g-label, -1 none) */
    const uint8_t *dist;    /* biv, g-biv, z: the cells a chain needs after each rlc (chain_distances), or NULL */
    long cells_tried;       /* biv, g-biv, z: partial chains built, until the bound is computed; -1 without it */
    int hopeless;           /* the bound says no chain of `length` cells exists on Z */
    uint8_t distances[CHAIN_STATES];
} ChainSearch;

enum { MODE_WHIP = SR_MODE_WHIP, MODE_Z = SR_MODE_Z, MODE_T = SR_MODE_T, MODE_BIV = SR_MODE_BIV,
       MODE_GBIV = SR_MODE_GBIV };

static int popcount9(unsigned x) { return count_upto(x, 9); }

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

/* ---- the distance bound of bivalue-chains, z-chains and g-bivalue-chains ----------------------------
 *
 * In biv, z and g-biv modes what a cell may be depends only on the cell before: its rlc R (which
 * candidates are linked to it), Z, and in g-biv mode its variable (Lk is no label of V(k-1)); the
 * rest is that the chain repeats no variable and no label.  (Not so in whip and t modes: a cell's
 * other candidates may be linked to any earlier rlc.)  Without that rest, a chain is a walk in a
 * graph whose nodes are (R, its variable), and the cells a chain still needs after a node are at
 * least the length of the shortest walk from it to a closing cell: a breadth-first search over the
 * graph, once per target.  The lean test (the trial propagation from Z and every rlc so far) cannot
 * see this: its propagation may close any variable through any rlcs, where a chain goes on from its
 * last rlc only.  Measured on the state where a W6 puzzle of cb-001 stalls under gBC
 * (tests/test_watchdog.py's GBC_STALL, 59 targets, none with a chain): the g-biv searches of lengths
 * 2-20 took 114 s, a second at length 10 and 16 s at 20, each partial chain passing the lean test;
 * with the bound, 0.02 s (docs/engine.md; benchmarks/bench_chains.py). */

/* A node of that graph (chain_state). */
#define CHAIN_FAR 255 /* no closing cell within reach */

static int chain_state(int r, int v)
{
    if (r >= NL) return 4 * NL + (r - NL);
    int j = 0;
    while (j < 3 && VAR_OF[r][j] != v) ++j;
    return 4 * r + j;
}

typedef struct {
    int *from, *to, n, size; /* the edges found */
    uint8_t closes[CHAIN_STATES];
} ChainGraph;

static int graph_edge(ChainGraph *g, int a, int b)
{
    if (g->n == g->size) {
        int size = g->size ? 2 * g->size : 4096;
        int *from = realloc(g->from, sizeof *from * (size_t)size), *to = from ? realloc(g->to, sizeof *to * (size_t)size) : NULL;
        if (from) g->from = from;
        if (!from || !to) return 0;
        g->to = to, g->size = size;
    }
    g->from[g->n] = a, g->to[g->n++] = b;
    return 1;
}

/* The moves from node `last` (a label or NL + g-label; Z at the root, prev -1) of variable `prev`, as
 * chain_extend allows them less its conditions on the chain's own labels and variables: each next node
 * is put in `next` (CHAIN_STATES for a closing cell); returns how many. */
static int chain_moves(const Cands *c, int mode, int z, int last, int prev, int *next)
{
    const uint64_t *from = last < NL ? LINK[last] : GLINK[last - NL], *zlinks = LINK[z];
    int n = 0;
    for (int w = 0; w < W; ++w)
        for (uint64_t bits = from[w] & c->present[w]; bits; bits &= bits - 1) {
            int l = 64 * w + CTZ64(bits);
            if (l == z) continue;
            for (int kk = 0; kk < 4; ++kk) {
                int v = VAR_OF[l][kk];
                if (v == VAR_OF[z][0] || v == VAR_OF[z][1] || v == VAR_OF[z][2] || v == VAR_OF[z][3]) continue;
                if (prev >= 0 && rlc_variable(last, v)) continue;
                if (mode == MODE_GBIV && prev >= 0 &&
                    (VAR_OF[l][0] == prev || VAR_OF[l][1] == prev || VAR_OF[l][2] == prev || VAR_OF[l][3] == prev))
                    continue;
                unsigned live = c->live[v], lpos = POS_IN[l][kk];
                if (mode == MODE_Z) { /* the other members linked to Z but one, R; none in the last cell */
                    unsigned others = live & ~members_in(c, v, zlinks) & ~lpos;
                    if (others == 0 && popcount9(live) >= 2) next[n++] = CHAIN_STATES;
                    else if (popcount9(others) == 1) next[n++] = chain_state(MEMBER[v][CTZ64(others)], v);
                    continue;
                }
                if (mode == MODE_BIV) {
                    if (popcount9(live) != 2) continue;
                    int x = MEMBER[v][CTZ64(live & ~lpos)];
                    next[n++] = has(zlinks, x) ? CHAIN_STATES : chain_state(x, v);
                    continue;
                }
                unsigned others = live & ~members_in(c, v, from) & ~lpos;
                for (unsigned ps = live & ~lpos; ps; ps &= ps - 1) {
                    int x = MEMBER[v][CTZ64(ps)];
                    if (others & ~(1u << CTZ64(ps))) continue;
                    next[n++] = has(zlinks, x) ? CHAIN_STATES : chain_state(x, v);
                }
                for (int j = 0; j < G_COUNT[v]; ++j) {
                    int gl = G_OF_VAR[v][j];
                    unsigned mask = G_MASK[gl];
                    if (others & ~mask || mask & lpos || popcount9(live & mask) < 2) continue;
                    next[n++] = has(GLINK[gl], z) ? CHAIN_STATES : 4 * NL + gl;
                }
            }
        }
    return n;
}

/* The moves of one node are at most 28 linked labels (8 in its cell, 20 of its digit) x 4 variables x
 * (8 members + 6 g-labels). */
#define CHAIN_MOVES_MAX (28 * 4 * 14)

/* dist[node]: the fewest cells a chain needs after that node (CHAIN_FAR: none within reach), for the
 * nodes reachable from Z; returns the fewest cells of a chain from Z (its first cell included, CHAIN_FAR
 * for none), or -1 when memory runs out (the search then goes without the bound). */
static int chain_distances(const Cands *c, int mode, int z, uint8_t dist[CHAIN_STATES])
{
    int next[CHAIN_MOVES_MAX], root = CHAIN_FAR;
    ChainGraph *g = calloc(1, sizeof *g);
    int *queue = malloc(sizeof *queue * CHAIN_STATES), *start = calloc(CHAIN_STATES + 1, sizeof *start);
    int *order = NULL, ok = g && queue && start;
    /* forward: the nodes reachable from Z (queued once each: dist holds 0 for seen), and their edges */
    int head = 0, tail = 0;
    memset(dist, CHAIN_FAR, CHAIN_STATES);
    int n = ok ? chain_moves(c, mode, z, z, -1, next) : 0;
    for (int i = 0; i < n; ++i) {
        if (next[i] == CHAIN_STATES) root = 1;
        else if (dist[next[i]]) dist[next[i]] = 0, queue[tail++] = next[i];
    }
    while (ok && head < tail) {
        int at = queue[head++], glabel = at >= 4 * NL;
        int last = glabel ? NL + (at - 4 * NL) : at / 4, prev = glabel ? G_VAR[at - 4 * NL] : VAR_OF[at / 4][at % 4];
        n = chain_moves(c, mode, z, last, prev, next);
        for (int i = 0; i < n && ok; ++i) {
            if (next[i] == CHAIN_STATES) {
                g->closes[at] = 1;
                continue;
            }
            ok = graph_edge(g, at, next[i]);
            if (dist[next[i]]) dist[next[i]] = 0, queue[tail++] = next[i];
        }
    }
    /* backward: breadth first from the nodes with a closing move, along the edges reversed (a counting
     * sort of the edges by their end: order[start[b] .. start[b + 1]) are the nodes with an edge to b) */
    if (ok && (order = malloc(sizeof *order * (size_t)(g->n + 1))) == NULL) ok = 0;
    if (ok) {
        for (int i = 0; i < g->n; ++i) ++start[g->to[i] + 1];
        for (int b = 0; b < CHAIN_STATES; ++b) start[b + 1] += start[b];
        for (int i = 0; i < g->n; ++i) order[start[g->to[i]]++] = g->from[i];
        for (int b = CHAIN_STATES; b > 0; --b) start[b] = start[b - 1]; /* back to each end's first edge */
        start[0] = 0;
        memset(dist, CHAIN_FAR, CHAIN_STATES);
        head = tail = 0;
        for (int b = 0; b < CHAIN_STATES; ++b)
            if (g->closes[b]) dist[b] = 1, queue[tail++] = b;
        while (head < tail) {
            int b = queue[head++];
            for (int e = start[b]; e < start[b + 1]; ++e)
                if (dist[order[e]] == CHAIN_FAR && dist[b] + 1 < CHAIN_FAR)
                    dist[order[e]] = (uint8_t)(dist[b] + 1), queue[tail++] = order[e];
        }
        if (root == CHAIN_FAR) { /* Z's first cells are the nodes it reaches */
            n = chain_moves(c, mode, z, z, -1, next);
            for (int i = 0; i < n; ++i)
                if (dist[next[i]] + 1 < root) root = dist[next[i]] + 1;
        }
    }
    if (g) free(g->from), free(g->to);
    free(g), free(queue), free(start), free(order);
    return ok ? root : -1;
}

/* Put cell k (v, l, r) in the search and recurse from it: SR_FOUND (the cells stay), SR_NONE, or the
 * control's SR_BUDGET / SR_STOPPED. */
static int chain_cell(ChainSearch *s, int k, int v, int l, int r, const uint64_t inc[W])
{
    s->cv[k] = v, s->cl[k] = l, s->cr[k] = r;
    if (k + 1 == s->length) return SR_FOUND;
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
    if (s->cells_tried >= 0 && ++s->cells_tried >= CHAIN_DISTANCES_AFTER) { /* time to compute the bound */
        s->cells_tried = -1;
        int fewest = chain_distances(s->c, s->mode, s->z, s->distances);
        s->hopeless = fewest > s->length;
        if (fewest > 0) s->dist = s->distances;
    }
    int found = !s->hopeless && (s->dist == NULL || s->dist[chain_state(r, v)] <= s->length - (k + 1))
                    && sr_propagate(s->c, s->assumed, s->gassumed, s->mode == MODE_GBIV, s->length - (k + 1)) > 0
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
    int stop = tick(s->ctl);
    if (stop) return stop;
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

int sr_chain(const Cands *c, int z, int mode, int length, int typed, SrCtl *ctl, int16_t cells[3 * SR_MAX_CHAIN])
{
    ChainSearch s = {.c = c, .mode = mode, .length = length > SR_MAX_CHAIN ? SR_MAX_CHAIN : length,
                     .typed = typed, .kind = -1, .z = z, .ctl = ctl};
    put(s.used, z);
    put(s.assumed, z);
    uint64_t inc[W] = {0};
    if (mode == MODE_WHIP) memcpy(inc, LINK[z], sizeof inc);
    s.cells_tried = mode == MODE_BIV || mode == MODE_GBIV || mode == MODE_Z ? 0 : -1;
    int found = chain_extend(&s, 0, z, inc);
    if (found == SR_FOUND)
        for (int k = 0; k < s.length; ++k) {
            cells[3 * k] = (int16_t)s.cv[k];
            cells[3 * k + 1] = (int16_t)s.cl[k];
            cells[3 * k + 2] = (int16_t)s.cr[k];
        }
    return found;
}
