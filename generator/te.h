/*
 * The compiled T&E engine and the raters built on it (te.c): BRT, T&E(T, n) for T = BRT, BRT + whips[1]
 * and B_p / gB_p (SPEC §10), the B and gB ratings, the T&E-depth, BxB and BxBB.  C11, no Python.
 */
#ifndef SUDORULES_TE_H
#define SUDORULES_TE_H

#include <stdint.h>

#include "trial.h"

/* A resolution state: the candidates (with per-variable masks; a decided variable has none), the
 * decided variables, the number of decided cells, and the variable found empty when it contradicts. */
typedef struct {
    Cands c;
    uint64_t decided[WV];
    uint64_t values[W]; /* the labels asserted */
    int n_values;
    int contra; /* the emptied variable after a contradiction, else -1 */
} Grid;

/* Outcomes of the engine's functions. */
#define TE_QUIET 0      /* quiescent: nothing more applies, unsolved */
#define TE_SOLVED 1     /* every cell decided */
#define TE_CONTRA 2     /* a CSP variable lost all its candidates */
#define TE_STOPPED 3    /* the poll asked to stop (time limit, signal) */
#define TE_NOMEMORY 4   /* the trace could not grow */

/* What a path records, when asked (te.c says how nested contexts are kept or dropped). */
enum { TE_EV_SINGLE = 1, TE_EV_CHAIN, TE_EV_HYP, TE_EV_CONTRA, TE_EV_ELIM, TE_EV_LEVEL };
typedef struct {
    uint8_t kind;  /* TE_EV_* */
    uint8_t depth; /* the context: 0 the puzzle's state, d the d-th nested hypothesis */
    int16_t a;     /* SINGLE: the variable; CHAIN, HYP, ELIM: the label; CONTRA: the emptied variable;
                    * LEVEL: the T&E level or chain length switched on */
    int16_t b;     /* SINGLE: the label asserted; CHAIN: 1 for a g-chain; HYP: k, the elimination being
                    * T&E(T, k)'s (T&E(T, k - 1) inside); ELIM: T's p (0 for BRT, BRT + whips[1]) */
    int32_t chain; /* CHAIN: the index of its cells in the trace's chains */
} TeEvent;

/* A chain as recorded: SrChain's cells, and each cell's left-linking candidate (a label index). */
typedef struct {
    SrChain cells;
    int16_t llc[SR_MAX_CHAIN];
    int8_t whip; /* 1 when every left-linking candidate is linked to the previous rlc (or Z): a whip */
} TeChain;

typedef struct {
    TeEvent *ev;
    int n, cap;
    TeChain *chains;
    int n_chains, chains_cap;
    int failed; /* an allocation failed: the trace is incomplete */
} TeTrace;

/* The inner theory T of T&E(T, n) and of a closure: BRT (p = 0, w1 = 0), BRT + whips[1] (p = 0, w1 = 1:
 * gT&E), or BRT + braids of length <= p (p >= 1; with g, g-braids too). */
typedef struct {
    int p, g, w1;
} TeTheory;

typedef struct {
    SrCtl ctl;                 /* poll and budget of every search (budget LONG_MAX: exact) */
    const uint64_t *solution;  /* the labels of the puzzle's unique solution, or NULL: at depth 0 they are
                                * never tried as targets or hypotheses (no sound rule eliminates one) */
    TeTrace *trace;            /* NULL: no path recorded */
    long search_cap;           /* the nodes a braid search of a closure may visit before it is put off
                                * (te.c close_theory); 0: TE_SEARCH_CAP */
    long hypotheses;           /* statistics: contexts opened, searches run */
    long searches;
    long by_depth[4]; /* hypotheses made by contexts of depth 0..3 */
    int closing;      /* the length whose braid closure at depth 0 is under way (0: none yet): when a
                       * rating stops, the braids shorter than it are known not to solve the puzzle */
    int upper;        /* a B (gB) rating without a path: a known upper bound on it (0: none), another
                       * rating's (gB <= B <= W, gB <= gW).  The closure at depth 0 that reaches this
                       * length without solving the puzzle ends there, solved with it as the rating,
                       * its state left at the closure of the length below (close_theory). */
} Te;

/* The state of a puzzle given by its cells' candidate masks (bit d-1 for digit d; a cell with one
 * digit is a given): the givens asserted (and the candidates they see removed), then the Singles that
 * follow (recorded in `te`'s trace).  TE_CONTRA for contradictory givens. */
int te_grid_init(Te *te, Grid *g, const uint16_t masks[81]);

/* Apply T&E(T, n) to `g` until nothing more applies (n = 0: the closure of T alone), `g` being already
 * the fixpoint of T&E(T, from) (-1: nothing known).  When `maxq` is not NULL it receives the largest
 * chain length used by T's closures at depth 0 (the rating of a simplest-first path).  TE_QUIET,
 * TE_SOLVED, TE_CONTRA, TE_STOPPED or TE_NOMEMORY. */
int te_close(Te *te, Grid *g, const TeTheory *T, int n, int from, int *maxq);

/* A new run: what the engine remembers of earlier hypotheses is forgotten (it would still be sound: the
 * entries only compare states; forgetting keeps each run's statistics its own). */
void te_new_run(void);

/* The rating of a braid theory (g: gB, else B) of the state `g`: *rating the smallest p <= max_length
 * such that B_p (gB_p) solves it.  TE_SOLVED with the rating; TE_QUIET when braids up to max_length do
 * not solve it (*rating -1); the other outcomes as te_close. */
int te_rate_braids(Te *te, Grid *g, int gflag, int max_length, int *rating);

/* The smallest n <= max_depth such that T&E(BRT, n) (gflag: BRT + whips[1]) solves `g`, in *depth. */
int te_depth(Te *te, Grid *g, int gflag, int max_depth, int *depth);

/* The smallest p <= max_p such that T&E(B_p, n) (gB_p with gflag) solves `g`, in *value (BxB: n = 1,
 * BxBB: n = 2).  `g` should be the state T&E(BRT, n) left (te_depth's); any state reached by sound
 * eliminations gives the same value. */
int te_sub_classify(Te *te, Grid *g, int n, int gflag, int max_p, int *value);

/* The T&E-depth of `g` (gflag: gT&E) in *depth (<= depth_limit, -1 beyond), then, when bit *depth of
 * `sub` is set, its sub-value in *value (<= length_limit, -1 beyond): the B (gB) rating for depth 0 or
 * 1, BxB for depth 2, BxBB for depth 3 (SPEC §10.3).  TE_SOLVED when the depth was found; `g` is left
 * in the last state computed. */
int te_classify(Te *te, Grid *g, int gflag, int depth_limit, unsigned sub, int length_limit, int *depth, int *value);

void te_trace_free(TeTrace *t);

#endif
