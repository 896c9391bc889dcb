/*
 * The compiled T&E engine (SPEC §10) and the raters built on it: B and gB ratings, T&E-depth, BxB, BxBB.
 * C11, no Python (trialmodule.c binds it as sudorules._trial; sudorules/engine/te.py drives it).
 *
 * ---------------------------------------------------------------------------------------------------
 * What it computes
 * ---------------------------------------------------------------------------------------------------
 * A Grid is a resolution state in tables.h's encoding: the present candidates with, per CSP variable,
 * the mask of its present members (trial.h's Cands), and the decided variables (a decided variable has
 * no candidate left: its value is no longer a candidate, as in SudoRules).  BRT is ECP + Singles:
 * asserting a label decides its four variables and removes every candidate linked to it; a variable
 * left with one candidate asserts it (a naked single for an rc variable, a hidden single for rn, cn,
 * bn); a variable left with none is a contradiction.  Every change goes through drop() and assign(), and
 * the variables left with one candidate wait on a stack until singles() takes them, so BRT is always
 * run to its fixpoint before anything else looks at the state.
 *
 * A theory T (TeTheory) is BRT, BRT + whips[1] (gT&E's), or B_p: BRT + braids of length <= p (with g,
 * g-braids too: gB_p).  Its closure (close_theory) eliminates, simplest first, every target on which the
 * exact braid search of trial.c (sr_braid, strict) finds a braid of the current length q, from q = 1
 * (whips[1] = braids[1]) up to p, back to q = 1 after any pass that changed the state when a path is
 * recorded (without one, on at the same q: close_theory says why).  B_p and gB_p are confluent (SPEC
 * §5.2), so the closure does not depend on that order, and the largest q that eliminated something is
 * the rating of a simplest-first path: the B (gB) rating when the closure solves the puzzle.
 *
 * T&E(T, n) (te_close): T's closure; then passes over the candidates Z: in a copy of the state Z is
 * asserted, and T&E(T, n - 1) is applied there; a contradiction eliminates Z from the state, which T's
 * closure follows; passes go on until one changes nothing.  Nothing else found in a context is kept.
 * The result does not depend on the order of the Z (SPEC §10.1).  The T&E-depth is the smallest n such
 * that T&E(BRT, n) solves the puzzle, BxB the smallest p such that T&E(B_p, 1) does, BxBB the smallest
 * p such that T&E(B_p, 2) does; each is computed on the state the previous value left (its
 * eliminations are sound for every larger n or p).
 *
 * The puzzle's unique solution, when given, spares work at depth 0 only: a label of the solution is
 * never eliminated by a sound rule, so it is never tried as a target or a hypothesis there; inside a
 * context (a hypothesis that may be false) every candidate is tried.
 *
 * ---------------------------------------------------------------------------------------------------
 * Paths
 * ---------------------------------------------------------------------------------------------------
 * With a trace (te->trace), every Single, chain, hypothesis, contradiction and T&E elimination is
 * recorded as a TeEvent with the depth of the context it happened in; a context that ends without a
 * contradiction is dropped from the trace (truncated back to where it began), so what remains is the
 * path a reader checks: each elimination with the hypothesis and the contradiction that justify it.
 * A chain's left-linking candidates are chosen when it is recorded (chain_lefts): linked to the
 * previous right-linking object where possible (then it is a whip), else to Z or any earlier one.
 *
 * ---------------------------------------------------------------------------------------------------
 * Cost
 * ---------------------------------------------------------------------------------------------------
 * A Grid is 844 bytes: a context is a copy on the stack.  drop() is 4 mask updates; assign() a LINK row
 * scan.  Measured figures are in docs/engine.md ("The compiled T&E engine").
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "te.h"

/* ---- BRT --------------------------------------------------------------------------------------- */

/* Variables left with one candidate, waiting for singles(): each removal pushes at most 4, and a
 * contradiction ends the propagation, so 4 * NL bounds the stack. */
typedef struct {
    int16_t v[4 * NL];
    int n;
} Pending;

static int decided(const Grid *g, int v) { return (int)(g->decided[v >> 6] >> (v & 63) & 1u); }

/* Remove present label x; -1 when one of its undecided variables is left empty (g->contra names it). */
static int drop(Grid *g, int x, Pending *p)
{
    int bad = 0;
    clear_bit(g->c.present, x);
    for (int k = 0; k < 4; ++k) {
        int v = VAR_OF[x][k];
        unsigned m = g->c.live[v] &= (uint16_t)~POS_IN[x][k];
        if (decided(g, v)) continue;
        if (m == 0) {
            if (!bad) g->contra = v;
            bad = 1;
        } else if (!(m & (m - 1)))
            p->v[p->n++] = (int16_t)v;
    }
    return bad ? -1 : 0;
}

/* Assert present label x: its variables decided, it and every candidate linked to it removed. */
static int assign(Grid *g, int x, Pending *p)
{
    for (int k = 0; k < 4; ++k) {
        int v = VAR_OF[x][k];
        g->decided[v >> 6] |= 1ull << (v & 63);
        g->c.live[v] &= (uint16_t)~POS_IN[x][k];
    }
    clear_bit(g->c.present, x);
    put(g->values, x);
    ++g->n_values;
    /* The linked candidates are the other present members of x's four variables: read from their
     * masks (a few bits each) rather than by scanning LINK[x]'s 12 words; one linked through two
     * variables is dropped once (its present bit is cleared by the first). */
    for (int k = 0; k < 4; ++k) {
        int v = VAR_OF[x][k];
        for (unsigned m = g->c.live[v]; m; m &= m - 1) {
            int y = MEMBER[v][CTZ64(m)];
            if (has(g->c.present, y) && drop(g, y, p) < 0) return -1;
        }
    }
    return 0;
}

/* ---- the trace ----------------------------------------------------------------------------------- */

/* `items` with room for item n (grown by doubling from `first`), or NULL with t->failed set (`items` is
 * then still valid, and freed with the trace). */
static void *make_room(TeTrace *t, void *items, int *cap, int n, size_t size, int first)
{
    if (n < *cap) return items;
    int grown = *cap ? 2 * *cap : first;
    void *bigger = realloc(items, (size_t)grown * size);
    if (bigger == NULL) {
        t->failed = 1;
        return NULL;
    }
    *cap = grown;
    return bigger;
}

static int trace_event(Te *te, int kind, int depth, int a, int b, int chain)
{
    TeTrace *t = te->trace;
    if (t == NULL) return 0;
    TeEvent *ev = make_room(t, t->ev, &t->cap, t->n, sizeof *t->ev, 1024);
    if (ev == NULL) return -1;
    t->ev = ev;
    TeEvent *e = &t->ev[t->n++];
    e->kind = (uint8_t)kind;
    e->depth = (uint8_t)depth;
    e->a = (int16_t)a;
    e->b = (int16_t)b;
    e->chain = chain;
    return 0;
}

void te_trace_free(TeTrace *t)
{
    free(t->ev);
    free(t->chains);
    memset(t, 0, sizeof *t);
}

typedef struct {
    int n, n_chains;
} Mark;

static Mark trace_mark(const Te *te)
{
    Mark m = {0, 0};
    if (te->trace) {
        m.n = te->trace->n;
        m.n_chains = te->trace->n_chains;
    }
    return m;
}

static void trace_truncate(Te *te, Mark m)
{
    if (te->trace) {
        te->trace->n = m.n;
        te->trace->n_chains = m.n_chains;
    }
}

/* Is label x linked to rlc r (a label index, or NL + a g-label index: g-linked)? */
static int linked_to(int x, int r)
{
    return r >= NL ? has(GLINK[r - NL], x) : has(LINK[r], x);
}

/* Choose each cell's left-linking candidate of a chain found on z in state c: a present member of the
 * cell's variable other than its rlc (outside a g-rlc), linked to the previous rlc (z for the first
 * cell) where one is, else to z or any earlier rlc; one not used as an earlier left-linking candidate
 * first.  tc->whip tells whether every cell found one linked to the previous rlc. */
static void chain_lefts(const Cands *c, int z, TeChain *tc)
{
    const SrChain *ch = &tc->cells;
    tc->whip = 1;
    for (int k = 0; k < ch->n; ++k) {
        int v = ch->var[k], r = ch->rlc[k], prev = k ? ch->rlc[k - 1] : z;
        unsigned own = r < 0 ? 0u : r >= NL ? G_MASK[r - NL] : 0u;
        int best = -1, best_score = -1;
        for (unsigned m = c->live[v]; m; m &= m - 1) {
            int pos = CTZ64(m), x = MEMBER[v][pos];
            if (x == r || (own >> pos & 1u)) continue;
            int score = 0;
            if (linked_to(x, prev)) score = 2;
            else {
                int anchored = linked_to(x, z);
                for (int i = 0; i < k && !anchored; ++i) anchored = linked_to(x, ch->rlc[i]);
                if (!anchored) continue;
                score = 0;
            }
            int reused = 0;
            for (int i = 0; i < k; ++i) reused |= tc->llc[i] == x;
            if (!reused) ++score;
            if (score > best_score) {
                best = x;
                best_score = score;
            }
        }
        tc->llc[k] = (int16_t)best;
        if (best_score < 2) tc->whip = 0;
    }
}

static int trace_chain(Te *te, const Cands *c, int depth, int z, const SrChain *ch)
{
    TeTrace *t = te->trace;
    if (t == NULL) return 0;
    TeChain *chains = make_room(t, t->chains, &t->chains_cap, t->n_chains, sizeof *t->chains, 64);
    if (chains == NULL) return -1;
    t->chains = chains;
    TeChain *tc = &t->chains[t->n_chains];
    tc->cells = *ch;
    chain_lefts(c, z, tc);
    int is_g = 0;
    for (int k = 0; k < ch->n; ++k) is_g |= ch->rlc[k] >= NL;
    return trace_event(te, TE_EV_CHAIN, depth, z, is_g, t->n_chains++);
}

/* ---- Singles, closures, T&E ------------------------------------------------------------------------ */

static int outcome(const Grid *g) { return g->n_values == 81 ? TE_SOLVED : TE_QUIET; }

/* BRT's fixpoint: assert the single candidate of every variable on `p` (and of those they leave
 * single), recording each at `depth`. */
static int singles(Te *te, Grid *g, Pending *p, int depth)
{
    while (p->n) {
        int v = p->v[--p->n];
        if (decided(g, v)) continue;
        unsigned m = g->c.live[v];
        if (m == 0) {
            g->contra = v;
            return TE_CONTRA;
        }
        int x = MEMBER[v][CTZ64(m)];
        if (trace_event(te, TE_EV_SINGLE, depth, v, x, 0) < 0) return TE_NOMEMORY;
        if (assign(g, x, p) < 0) return TE_CONTRA;
    }
    return outcome(g);
}

/* Eliminate present label z (a rule's conclusion), then BRT. */
static int eliminate(Te *te, Grid *g, int z, int depth)
{
    Pending p;
    p.n = 0;
    if (drop(g, z, &p) < 0) return TE_CONTRA;
    return singles(te, g, &p, depth);
}

/* Is label x a target worth trying at this depth: present, and at depth 0 not in the solution? */
static int target(const Te *te, const Grid *g, int x, int depth)
{
    return has(g->c.present, x) && !(depth == 0 && te->solution && has(te->solution, x));
}

/* The closure of T on g (BRT's fixpoint holds on entry): simplest first, each length q from 1 to T's
 * (1 for BRT + whips[1]), back to 1 after a pass that changed the state; with g-braids, at each length a
 * pass of braids first, and one of g-braids only when it changed nothing (braid[q] > g-braid[q], SPEC
 * §5.3: most eliminations need no g-candidate, and a g-braid search explores far more than a braid
 * search: on cb-001 line 12301, gB10, 2.2 s with every search a g-braid one, then see docs/engine.md).
 * `start_q` > 1 when g is known to be closed under the braids of length start_q - 1 (a fixpoint of a
 * weaker theory: the first round starts there).  *maxq (when not NULL) grows to the largest q that
 * eliminated something.
 *
 * Without a trace (a rating, or a closure inside a T&E context), a change does not send q back to 1:
 * B_p and gB_p are confluent, so any order reaches the same closure, and a rating, the smallest p
 * whose closure solves the puzzle, is the largest q reached (q reached it only once the closure under
 * length q - 1 was stuck; the searches of length q find the shorter chains too).  That saves the
 * passes of every shorter length after each elimination: cb-001, 100 puzzles a gB level, one core, gB
 * 8-22 % less CPU at gB 4-9; the W11 puzzle of issue 23 under gB 281 -> 253 ms; 22 BxB examples
 * (engine alone) 7.0 -> 6.35 s.  A path keeps the simplest-first order SPEC §5.3 prints.
 *
 * With a known upper bound on the rating (te->upper: another rating of the puzzle, gB <= B <= W), the
 * closure that reaches that length without solving the puzzle stops: the rating is at least that
 * length (the one below is stuck) and at most it.  The passes of the last length, which only find how
 * it solves the puzzle, are saved: with W, B, gW and gB in one row, B and gB are rated last
 * (sudorules/batch/rating.py); the whole of cb-001 under `rate --rating B,gB --jobs 1` 23.7 -> 19.5
 * CPU-s (the gB part 12.4 -> 8.2), every value the same.
 *
 * A search that visits TE_SEARCH_CAP nodes (te->search_cap when set) without an answer is put off: the
 * pass goes on without it, and a length is left only once a pass has changed nothing and put off
 * nothing, the cap growing 4x at each pass of put-off searches alone (back to its first value when the
 * state changes); a braid pass of gB leaves its put-off targets to the g-braid pass of the same
 * length, which searches them again.  So every length is still closed in full before the next, and
 * the outcome does not depend on the cap (tests/test_te.py runs with a cap of a few nodes); what
 * changes is that one search on a state about to shrink cannot hold up the rest: Magictour top1465
 * #113 (W16; SHC: B = 14 in 4 s) had its pass at length 14 eliminate five targets, then search the
 * sixth without end (over 300 s, a 2-million-entry cache did not help); put off after 20,000 nodes,
 * the passes after it solve the puzzle: B = 14 in 0.21 s.  The cap costs at most a third more on a
 * search that has to be made in full; 5,000 made that puzzle's gB 1.55 -> 2.06 s, 80,000 its B 0.87 s. */
#ifndef TE_SEARCH_CAP
#define TE_SEARCH_CAP 20000L
#endif
static int close_theory(Te *te, Grid *g, const TeTheory *T, int depth, int start_q, int *maxq)
{
    int limit = T->p ? T->p : T->w1;
    if (g->n_values == 81) return TE_SOLVED;
    /* Per target, the longest search that failed on the state as it is now (state `version`: one more
     * at each elimination), as 2 * length + 1 for a g-braid one, 2 * length for a braid one: such a
     * target fails every search of that length or less (of braids, or of g-braids when that one was),
     * and is not searched again until the state changes.  A pass that eliminates something is
     * followed by another at the same length (or from length 1 for a path): its targets after the last
     * elimination were already searched on the state it leaves (the W11 puzzle of issue 23 under gB:
     * the second g-braid pass at length 9, 20 ms of its 150, had done the targets after its one
     * elimination). */
    int16_t failed_q[NL];
    uint32_t failed_in[NL], version = 1;
    memset(failed_in, 0, sizeof failed_in);
    const long first_cap = te->search_cap > 0 ? te->search_cap : TE_SEARCH_CAP;
    long cap = first_cap; /* the nodes a search may visit before it is put off (above) */
    /* The searches' cache of failed partial chains (trial.c) serves every pass on one state: its
     * entries are failures with so many cells left, whatever the length asked, so only a new state
     * needs a new tag (at each elimination, below).  A pass of put-off searches alone then takes up
     * each where its cache left it rather than from scratch: top1465 #182's gB 6.1 -> 4.1 s (its
     * last pass at length 15, 242,000 -> 10,000 nodes); nothing else measured moved. */
    te->ctl.cache_tag = sr_cache_tag();
    for (int q = start_q, with_g = 0; q <= limit;) {
        int changed = 0, put_off = 0;
        if (depth == 0 && T->p) te->closing = q; /* every length below q closed: q - 1 does not solve it */
        if (depth == 0 && T->p && q == te->upper && te->trace == NULL) {
            /* the rating is at least q (the closure of q - 1 is stuck) and at most te->upper: it is q,
             * and the passes of length q, which would only find how, are saved (te.h) */
            if (maxq && *maxq < q) *maxq = q;
            return TE_SOLVED;
        }
        for (int x = 0; x < NL; ++x) {
            if (!target(te, g, x, depth)) continue;
            if (failed_in[x] == version && failed_q[x] >> 1 >= q && (failed_q[x] & 1) >= with_g) continue;
            SrChain ch;
            ++te->searches;
            const long outer = te->ctl.budget, allowed = cap < outer ? cap : outer;
            te->ctl.budget = allowed;
            int r = sr_braid(&g->c, x, with_g, 1, q, &te->ctl, te->trace ? &ch : NULL);
            if (r != SR_STOPPED) { /* the caller's budget, less what this search used */
                const long used = allowed - (te->ctl.budget > 0 ? te->ctl.budget : 0);
                te->ctl.budget = outer == LONG_MAX ? LONG_MAX : outer - used;
                if (r == SR_BUDGET && allowed < outer) {
                    put_off = 1;
                    continue;
                }
            }
            if (r == SR_STOPPED || r == SR_BUDGET) return TE_STOPPED;
            if (r != SR_FOUND) {
                failed_in[x] = version;
                failed_q[x] = (int16_t)(2 * q + with_g);
                continue;
            }
            if (trace_chain(te, &g->c, depth, x, &ch) < 0) return TE_NOMEMORY;
            if (maxq && *maxq < q) *maxq = q;
            int s = eliminate(te, g, x, depth);
            if (s != TE_QUIET) return s;
            changed = 1;
            ++version;
            te->ctl.cache_tag = sr_cache_tag(); /* new candidates: the failures no longer hold */
        }
        if (changed) /* simplest first again for a path; without one, on at the same length */
            q = te->trace ? 1 : q, with_g = 0, cap = first_cap;
        else if (T->g && !with_g && q >= 2 && !(put_off && te->trace)) /* gB1 = B1: no g-braid of */
            with_g = 1; /* length 1.  Without a path, the g-braid pass searches again what this one put
                         * off (a path prints the braids of a length before its g-braids: SPEC §5.3) */
        else if (put_off) /* the length is closed only once they are searched in full */
            cap = cap > LONG_MAX / 4 ? LONG_MAX : 4 * cap;
        else
            ++q, with_g = 0, cap = first_cap;
    }
    return TE_QUIET;
}

/* Poll between hypotheses too: a context can cost milliseconds without a single search node. */
static int interrupted(Te *te)
{
    SrCtl *ctl = &te->ctl;
    if (ctl->poll && --ctl->until_poll <= 0) {
        ctl->until_poll = SR_POLL_EVERY;
        if (ctl->poll(ctl->poll_arg)) {
            ctl->budget = -1;
            return 1;
        }
    }
    return ctl->budget < 0;
}

/* What a hypothesis left when its context ended without a contradiction, so that it is not tried again
 * for nothing.  A state is here the set P of its possible labels (candidates and values; every state
 * is at BRT's fixpoint, so P says which variables are decided).  From state S, hypothesis Z with
 * T&E(T, m) inside reached the fixpoint F (Z a value in it).  The closure of a monotone theory is the
 * largest stable state below its start, so from any later state G with F.P <= G.P <= S.P it reaches F
 * again (F is stable and below G + Z, and nothing above F is stable below S + Z): Z does not contradict
 * there either, and trying it is wasted.  This holds wherever G comes from (a later pass, a nested
 * context, a sibling context), so the entries are kept per label and per m, not per loop; and an entry
 * made with a stronger theory inside (m' >= m, the same T) serves too, since F is then stable under the
 * weaker closure as well and, meeting no empty variable on the way down from G + Z, neither does it.
 * Measured on SHC's 342 T&E examples (140 of depth 3), hypotheses a depth-3 puzzle: ~56,000 without
 * any such entries; see docs/engine.md for the figures with them. */
#define TE_LEVELS 4 /* m = 0 (BRT inside), 1, 2, 3 */

/* A quiet hypothesis' states: the one it was tried from (S.P) and the fixpoint it reached (F, its
 * candidates and values).  Kept in a ring per level (the many BRT-level snapshots of nested contexts
 * must not push out the few of the levels above), shared by the entries that refer to it (below),
 * each entry valid while its snapshot's stamp is the one it saw. */
typedef struct {
    uint32_t stamp;
    uint64_t from[W];
    uint64_t present[W], values[W];
} Snap;
#define N_SNAPS 4096
static Snap SNAPS[TE_LEVELS][N_SNAPS];
static uint32_t snap_stamp[TE_LEVELS];

typedef struct {
    TeTheory T;
    uint32_t run;   /* valid in this run of the engine only (te_new_run) */
    uint32_t stamp; /* ... and while SNAPS[snap] is still the snapshot it refers to */
    uint16_t snap;
    uint8_t exact;  /* F is this hypothesis' own fixpoint, not only a stable state below it */
} Tried;
static Tried TRIED[TE_LEVELS][NL];
static uint32_t te_run_gen = 1;

void te_new_run(void)
{
    if (++te_run_gen == 0) {
        memset(TRIED, 0, sizeof TRIED);
        te_run_gen = 1;
    }
}

static int same_theory(const TeTheory *a, const TeTheory *b) { return a->p == b->p && a->g == b->g && a->w1 == b->w1; }

/* The snapshot of hypothesis z's entry with T&E(T, m) inside, made from a state above P (P <= S.P),
 * or NULL; *bracket tells whether P is also above its F (F.P <= P), *exact whether F is z's own
 * fixpoint. */
static const Snap *tried_at(int z, const uint64_t P[W], const TeTheory *T, int m, int *bracket, int *exact)
{
    const Tried *t = &TRIED[m][z];
    const Snap *snap = &SNAPS[m][t->snap];
    if (t->run != te_run_gen || snap->stamp != t->stamp || !same_theory(&t->T, T)) return NULL;
    uint64_t out = 0, missing = 0;
    for (int w = 0; w < W; ++w) {
        out |= P[w] & ~snap->from[w];
        missing |= (snap->present[w] | snap->values[w]) & ~P[w];
    }
    if (out) return NULL;
    *bracket = !missing;
    *exact = t->exact;
    return snap;
}

/* What is known of hypothesis z with T&E(T, m) inside from state g.  1: it ends without a
 * contradiction (an entry of level m or more brackets g).  Else 0, and in *warm the snapshot to start
 * the context from, if any (an exact entry of the highest level <= m made from a state above g): when
 * it brackets g (*at_fixpoint) the context starts at its fixpoint F, T&E(T, m) going on from T&E(T,
 * level)'s; otherwise from g + z cut down to F (the fixpoint from g + z lies below F, the closure being
 * monotone, and the largest stable state below g + z is also the largest below its intersection with
 * F), where BRT and every level run again, on a far smaller state. */
static int known_quiet(int z, const Grid *g, const TeTheory *T, int m, const Snap **warm, int *warm_level,
                       int *at_fixpoint)
{
    uint64_t P[W];
    for (int w = 0; w < W; ++w) P[w] = g->c.present[w] | g->values[w];
    int bracket, exact;
    for (int level = m; level < TE_LEVELS; ++level)
        if (tried_at(z, P, T, level, &bracket, &exact) && bracket) return 1;
    *warm = NULL;
    for (int level = m < TE_LEVELS - 1 ? m : TE_LEVELS - 1; level >= 1; --level)
        if ((*warm = tried_at(z, P, T, level, &bracket, &exact)) != NULL) {
            if (!exact) { /* a witness only: no start for a context */
                *warm = NULL;
                continue;
            }
            *warm_level = level;
            *at_fixpoint = bracket && level < m;
            return 0;
        }
    /* An entry of the same level with a weaker theory (fewer braids: BxB's previous p): the context's
     * fixpoint lies below that one's as well (a stronger theory from a smaller state), so it starts
     * there, at its first new braid length when it brackets g (*warm_level is then -1 - the weaker
     * p).  BxB contexts are mostly quiet at every p below the value: each p used to start them anew. */
    const Tried *t = m < TE_LEVELS ? &TRIED[m][z] : NULL;
    if (t && t->exact && t->run == te_run_gen && t->T.g == T->g && t->T.w1 == T->w1 && t->T.p < T->p) {
        const Snap *snap = &SNAPS[m][t->snap];
        TeTheory weaker = t->T;
        if (snap->stamp == t->stamp && tried_at(z, P, &weaker, m, &bracket, &exact) == snap) {
            *warm = snap;
            *warm_level = -1 - weaker.p;
            *at_fixpoint = bracket;
        }
    }
    return 0;
}

/* Hypothesis z, with T&E(T, m) inside, went from state g to the quiet state h.  The values h gained
 * are quiet hypotheses too, with h as their witness: each of them (x) is asserted in h, so h lies
 * below g + x and, being stable and free of contradictions, below x's fixpoint, which therefore has
 * no empty variable either; from any later state G with h.P <= G.P <= g.P the same holds.  So one
 * quiet hypothesis spares the trials of every value it forces (SAT solvers' failed-literal probing
 * skips implied literals the same way): on SHC's T&E examples ... (docs/engine.md).  Such an entry
 * is not exact (h is not x's own fixpoint) and starts no context; it never replaces a current entry. */
static void remember_quiet(int z, const Grid *g, const Grid *h, const TeTheory *T, int m)
{
    if (m >= TE_LEVELS) return;
    unsigned slot = snap_stamp[m]++ % N_SNAPS;
    Snap *snap = &SNAPS[m][slot];
    snap->stamp = snap_stamp[m];
    for (int w = 0; w < W; ++w) snap->from[w] = g->c.present[w] | g->values[w];
    memcpy(snap->present, h->c.present, sizeof snap->present);
    memcpy(snap->values, h->values, sizeof snap->values);
    Tried entry = {*T, te_run_gen, snap->stamp, (uint16_t)slot, 1};
    TRIED[m][z] = entry;
    entry.exact = 0;
    for (int w = 0; w < W; ++w)
        for (uint64_t bits = h->values[w] & g->c.present[w]; bits; bits &= bits - 1) {
            int x = 64 * w + CTZ64(bits);
            Tried *t = &TRIED[m][x];
            if (x != z && (!t->exact || t->run != te_run_gen || SNAPS[m][t->snap].stamp != t->stamp)) *t = entry;
        }
}

/* The state whose possible labels are those of g (when not NULL) and of an entry's fixpoint: its
 * values decide their variables, the other labels are candidates; then BRT (a variable left with one
 * candidate asserts it, with none contradicts: g + z and F disagree there).  About 2 us, against a
 * closure of T&E(T, level) in the context: hundreds of hypotheses. */
static int grid_of(Te *te, Grid *h, const Snap *t, const Grid *g, int depth)
{
    memset(h, 0, sizeof *h);
    h->contra = -1;
    for (int w = 0; w < W; ++w) {
        uint64_t P = t->present[w] | t->values[w];
        uint64_t values = t->values[w];
        if (g) {
            P &= g->c.present[w] | g->values[w];
            values = (values | g->values[w]) & P;
        }
        h->values[w] = values;
        h->c.present[w] = P & ~values;
    }
    sr_cands_index(&h->c);
    for (int w = 0; w < W; ++w)
        for (uint64_t bits = h->values[w]; bits; bits &= bits - 1) {
            int x = 64 * w + CTZ64(bits);
            for (int k = 0; k < 4; ++k) h->decided[VAR_OF[x][k] >> 6] |= 1ull << (VAR_OF[x][k] & 63);
            ++h->n_values;
        }
    if (g == NULL) return outcome(h);
    Pending p;
    p.n = 0;
    for (int v = 0; v < NV; ++v) {
        if (decided(h, v)) continue;
        unsigned m = h->c.live[v];
        if (m == 0) {
            h->contra = v;
            return TE_CONTRA;
        }
        if (!(m & (m - 1))) p.v[p.n++] = (int16_t)v;
    }
    return singles(te, h, &p, depth);
}

/* The order of a pass's hypotheses with T&E(T, m) inside (any order gives the same fixpoint: SPEC
 * §10.1): the targets of g, those whose context one level down ended with the fewest candidates first,
 * the closest to a contradiction, so that a pass meets its eliminations sooner and the contexts after
 * them start from a smaller state.  "One level down" is T&E(T, m - 1), remembered by the previous
 * level's pass (m >= 1), or at depth 0 for m = 0 with braids inside (BxB), the same level with the
 * previous p.  Other passes (BRT inside: nothing below it; nested B_p contexts) keep label order
 * (digit-major: on SHC's 342 T&E examples it made fewer hypotheses than bivalue candidates first,
 * 23,500 a depth-3 puzzle against 26,200, or cell-major order).  Engine alone, one core, the solution
 * given: SHC's 342 T&E examples 1.40 -> 0.87 s (depth-2 hypotheses of its 140 depth-3 puzzles 92,000
 * -> 4,300); 22 BxB examples (two a value) 16.4 -> 9.3 s (BxB=10 3.2 -> 1.1 s); every 5th BxBB
 * example 3.49 -> 3.02 s.  Ordering the BRT-inside passes as well made T&E 1.40 -> 1.19 s only, and the
 * nested B_p ones BxBB 3.17 s.  ORDER_BY_FIXPOINT 0 restores label order everywhere (to measure).
 * Returns the number of targets put in `order`, or -1 for label order (no list made). */
#ifndef ORDER_BY_FIXPOINT
#define ORDER_BY_FIXPOINT 1
#endif
static int pass_order(const Te *te, const Grid *g, const TeTheory *T, int m, int depth, int order[NL])
{
    if (!ORDER_BY_FIXPOINT || m > TE_LEVELS || (m == 0 && (T->p == 0 || depth > 0)))
        return -1; /* label order: the pass itself skips what is not a target */
    int count[NL + 2];
    int16_t key[NL];
    memset(count, 0, sizeof count);
    for (int z = 0; z < NL; ++z) {
        if (!target(te, g, z, depth)) {
            key[z] = -1;
            continue;
        }
        const int level = m > 0 ? m - 1 : 0;
        const Tried *t = &TRIED[level][z];
        const Snap *snap = &SNAPS[level][t->snap];
        int k = NL; /* nothing remembered: last */
        if (t->run == te_run_gen && snap->stamp == t->stamp && t->exact) {
            k = 0;
            for (int w = 0; w < W; ++w) k += sr_popcount64(snap->present[w]);
        }
        key[z] = (int16_t)k;
        ++count[k + 1];
    }
    for (int k = 1; k <= NL + 1; ++k) count[k] += count[k - 1];
    for (int z = 0; z < NL; ++z)
        if (key[z] >= 0) order[count[key[z]]++] = z;
    return count[NL];
}

/* T&E(T, n) on g, a context at `depth`, g being already the fixpoint of T&E(T, from) (from = -1:
 * nothing known).  Level by level: T's closure, then passes with T&E(T, k - 1) inside the hypotheses
 * for k = 1..n.  The fixpoint is T&E(T, n)'s (each level's eliminations are T&E(T, n)'s too); going up
 * one level at a time finds a context's contradiction with the cheapest hypotheses first, and leaves
 * entries (remember_quiet) that the next level starts its contexts from. */
static int te_close_at(Te *te, Grid *g, const TeTheory *T, int n, int from, int depth, int start_q, int *maxq)
{
    int r = from >= 0 ? outcome(g) : close_theory(te, g, T, depth, start_q, maxq);
    for (int k = from < 1 ? 1 : from + 1; k <= n && r == TE_QUIET; ++k) {
        int m = k - 1; /* the theory inside: T&E(T, m) */
        for (int changed = 1; changed && r == TE_QUIET;) {
            changed = 0;
            int order[NL];
            const int n_order = pass_order(te, g, T, m, depth, order);
            for (int i = 0; i < (n_order < 0 ? NL : n_order) && r == TE_QUIET; ++i) {
                const int z = n_order < 0 ? i : order[i];
                const Snap *warm = NULL;
                int warm_level = -1, exact = 0;
                if (!target(te, g, z, depth) || known_quiet(z, g, T, m, &warm, &warm_level, &exact)) continue;
                if (interrupted(te)) return TE_STOPPED;
                ++te->hypotheses;
                if (depth < 4) ++te->by_depth[depth];
                Mark mark = trace_mark(te);
                if (trace_event(te, TE_EV_HYP, depth + 1, z, k, 0) < 0) return TE_NOMEMORY;
                Grid h;
                int s;
                if (warm != NULL && warm_level < 0 && te->trace == NULL) { /* a weaker theory's fixpoint */
                    s = grid_of(te, &h, warm, exact ? NULL : g, depth + 1);
                    if (s == TE_QUIET) s = te_close_at(te, &h, T, m, -1, depth + 1, exact ? -warm_level : 1, NULL);
                } else if (warm != NULL && te->trace == NULL) { /* a path needs the context's whole story */
                    s = grid_of(te, &h, warm, exact ? NULL : g, depth + 1);
                    if (s == TE_QUIET) s = te_close_at(te, &h, T, m, exact ? warm_level : -1, depth + 1, 1, NULL);
                } else {
                    Pending p;
                    p.n = 0;
                    h = *g;
                    s = assign(&h, z, &p) < 0 ? TE_CONTRA : singles(te, &h, &p, depth + 1);
                    if (s == TE_QUIET) s = te_close_at(te, &h, T, m, -1, depth + 1, 1, NULL);
                }
                if (s == TE_STOPPED || s == TE_NOMEMORY) return s;
                if (s != TE_CONTRA) {
                    trace_truncate(te, mark);
                    if (s == TE_QUIET) remember_quiet(z, g, &h, T, m);
                    continue;
                }
                if (trace_event(te, TE_EV_CONTRA, depth + 1, h.contra, 0, 0) < 0 ||
                    trace_event(te, TE_EV_ELIM, depth, z, T->p, 0) < 0)
                    return TE_NOMEMORY;
                r = eliminate(te, g, z, depth);
                if (r == TE_QUIET) r = close_theory(te, g, T, depth, 1, maxq);
                changed = 1;
            }
        }
    }
    return r;
}

int te_close(Te *te, Grid *g, const TeTheory *T, int n, int from, int *maxq)
{
    if (te->ctl.until_poll <= 0) te->ctl.until_poll = SR_POLL_EVERY;
    return te_close_at(te, g, T, n, from, 0, 1, maxq);
}

/* ---- the puzzle's state and the raters ------------------------------------------------------------ */

int te_grid_init(Te *te, Grid *g, const uint16_t masks[81])
{
    memset(g, 0, sizeof *g);
    g->contra = -1;
    for (int cell = 0; cell < 81; ++cell)
        for (int d = 0; d < 9; ++d)
            if (masks[cell] >> d & 1u) put(g->c.present, label_index(d, cell / 9, cell % 9));
    sr_cands_index(&g->c);
    for (int v = 0; v < NV; ++v)
        if (g->c.live[v] == 0) {
            g->contra = v;
            return TE_CONTRA;
        }
    Pending p;
    p.n = 0;
    for (int cell = 0; cell < 81; ++cell) { /* the givens (cells with one digit) first, then Singles */
        unsigned m = masks[cell];
        if (m && !(m & (m - 1)) && !decided(g, cell)) {
            int x = label_index(CTZ64(m), cell / 9, cell % 9);
            if (!has(g->c.present, x) || assign(g, x, &p) < 0) {
                if (g->contra < 0) g->contra = cell;
                return TE_CONTRA;
            }
        }
    }
    /* Singles waits on the variables that removals leave with one candidate; a pencilmark puzzle may
     * hold such a variable from the start, which no removal touches (a digit marked in one cell of a
     * row, the row's other cells undecided without it): its Single was never made, and the raters
     * gave W = B = T&E-depth 1 to a state that Singles solve (36 of 80 pencilmark states of the demo
     * collection).  So, once the removals' Singles are made, any variable left single is queued too. */
    int r = singles(te, g, &p, 0);
    while (r == TE_QUIET) {
        for (int v = 0; v < NV; ++v) {
            unsigned m = g->c.live[v];
            if (!decided(g, v) && m && !(m & (m - 1))) p.v[p.n++] = (int16_t)v;
        }
        if (p.n == 0) break;
        r = singles(te, g, &p, 0);
    }
    return r;
}

int te_rate_braids(Te *te, Grid *g, int gflag, int max_length, int *rating)
{
    TeTheory T = {max_length, gflag, 0};
    *rating = 0;
    int r = te_close(te, g, &T, 0, -1, rating);
    if (r != TE_SOLVED) *rating = -1;
    return r;
}

int te_depth(Te *te, Grid *g, int gflag, int max_depth, int *depth)
{
    TeTheory T = {0, 0, gflag};
    *depth = -1;
    for (int n = 0; n <= max_depth; ++n) {
        if (n && trace_event(te, TE_EV_LEVEL, 0, n, 0, 0) < 0) return TE_NOMEMORY;
        int r = te_close(te, g, &T, n, n - 1, NULL);
        if (r == TE_SOLVED) *depth = n;
        if (r != TE_QUIET) return r;
    }
    return TE_QUIET;
}

int te_sub_classify(Te *te, Grid *g, int n, int gflag, int max_p, int *value)
{
    *value = -1;
    for (int p = 1; p <= max_p; ++p) {
        TeTheory T = {p, gflag, 0};
        if (trace_event(te, TE_EV_LEVEL, 0, p, 0, 0) < 0) return TE_NOMEMORY;
        int r = te_close(te, g, &T, n, -1, NULL);
        if (r == TE_SOLVED) *value = p;
        if (r != TE_QUIET) return r;
    }
    return TE_QUIET;
}

/* The B (gB) rating as te_classify gives it (depth limit 1, the rating at depth 0 or 1), without a
 * path: braids first, up to B_FIRST cells from the puzzle, and the T&E-depth check (is the puzzle in
 * T&E(1), gT&E(1) with gflag?) only when they do not solve it, before any longer search.  Braids that
 * solve a puzzle put it in T&E(1) (SPEC §10.2), so the check tells nothing then, and under gB it is
 * a closure by whips[1] inside every hypothesis: 5.7 ms of top1465 #29's 9.7 ms (gB = 6, B = 8, its B
 * 2.5 ms), 13 % of cb-001's gB; the check still comes before the searches that a puzzle outside
 * T&E(1) would make last for ever.  Values, states and outcomes are te_classify's, but for the
 * hypotheses counted and, for a puzzle outside T&E(1), the state left (the closure at B_FIRST). */
#define B_FIRST 6
static int te_rate_first(Te *te, Grid *g, int gflag, int length_limit, int *depth, int *value)
{
    const Grid start = *g;
    const int first = length_limit < B_FIRST ? length_limit : B_FIRST;
    TeTheory T = {first, gflag, 0};
    int q = 0;
    *depth = *value = -1;
    if (te->ctl.until_poll <= 0) te->ctl.until_poll = SR_POLL_EVERY;
    int r = te_close_at(te, g, &T, 0, -1, 0, 1, &q);
    if (r == TE_SOLVED) {
        *value = q;
        *depth = q <= gflag ? 0 : 1; /* T&E's theory alone: BRT (B0), or BRT + whips[1] (gB <= 1) */
        return r;
    }
    if (r != TE_QUIET) return r;
    if (te->upper) /* a rating that solves the puzzle puts it in T&E(1) (gT&E(1)), and B_6 (gB_6), */
        *depth = 1; /* which holds BRT (BRT + whips[1]), does not solve it: depth 1, no check needed */
    else {
        Grid h = start; /* the depth, from the puzzle */
        r = te_depth(te, &h, gflag, 1, depth);
        if (r != TE_SOLVED) return r; /* outside T&E(1): TE_QUIET, *depth -1 */
    }
    T.p = length_limit;
    r = te_close_at(te, g, &T, 0, -1, 0, first + 1, &q);
    if (r == TE_SOLVED) *value = q;
    return r;
}

int te_classify(Te *te, Grid *g, int gflag, int depth_limit, unsigned sub, int length_limit, int *depth, int *value)
{
    if (sub == 3u && depth_limit == 1 && te->trace == NULL)
        return te_rate_first(te, g, gflag, length_limit, depth, value);
    /* the depth level by level, keeping the puzzle's state and the one before the last level: the B
     * rating starts from the puzzle, BxB and BxBB from the fixpoint of T&E(depth - 1) */
    Grid start = *g, before = *g;
    TeTheory T = {0, 0, gflag};
    int r = outcome(g), n = 0;
    *depth = *value = -1;
    for (; n <= depth_limit && r == TE_QUIET; ++n) {
        if (n && trace_event(te, TE_EV_LEVEL, 0, n, 0, 0) < 0) return TE_NOMEMORY;
        before = *g;
        r = te_close(te, g, &T, n, n - 1, NULL);
        if (r == TE_SOLVED) *depth = n;
    }
    if (r == TE_SOLVED && n == 0) *depth = 0; /* solved before any level: no givens missing */
    if (r != TE_SOLVED || !(sub >> *depth & 1u)) return r;
    if (*depth <= 1) { /* depth 0 under gT&E is whips[1]'s, not BRT's: the rating says which */
        *g = start;
        return te_rate_braids(te, g, gflag, length_limit, value);
    }
    *g = before;
    return te_sub_classify(te, g, *depth - 1, gflag, length_limit, value);
}
