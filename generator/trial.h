/*
 * The trial propagation and the chain searches (whips, g-whips, braids, g-braids, the special chains) over a set of
 * candidates.  C11, no dependencies beyond tables.h (the encoding).  trial.c says what each computes,
 * why, and what it cost; trialmodule.c binds them to Python (sudorules._trial); te.c builds the T&E
 * engine and the B, gB, BxB and BxBB raters on them.
 */
#ifndef SUDORULES_TRIAL_H
#define SUDORULES_TRIAL_H

#include <stdint.h>

#include "tables.h"

/* The candidates of a resolution state: `present` the labels, `live` per variable the positions of its
 * present members (0 for a variable with none, as a decided variable has in te.c's grids). */
typedef struct {
    uint64_t present[W];
    uint16_t live[NV];
} Cands;

/* Fill c->live from c->present. */
void sr_cands_index(Cands *c);

/* The round in which the propagation from the labels of `assumed` (all present) and the g-labels of
 * `g_assumed`, all assumed at round 0, contradicts, or 0 when it stops first or would go past round
 * `limit`.  With g, a variable whose 2 or 3 compatible candidates lie in one g-label assumes it.
 * Reads only its arguments and the tables. */
int sr_propagate(const Cands *c, const uint64_t assumed[W], const uint64_t g_assumed[WG], int g, long limit);

/* Control of a search: how many nodes it may visit, and a poll for interruption.  `budget` is
 * decremented per node (LONG_MAX for "unbounded"); every SR_POLL_EVERY nodes `poll(poll_arg)` is called
 * when not NULL, and a nonzero answer stops the search (it returns SR_STOPPED). */
typedef struct {
    long budget;
    int (*poll)(void *poll_arg);
    void *poll_arg;
    long until_poll; /* the search's own countdown; start it at 0 */
    uint64_t cache_tag; /* sr_braid: 0, or a tag from sr_cache_tag() shared by searches that may share failures */
} SrCtl;
#define SR_POLL_EVERY 4096

/* A new tag for SrCtl.cache_tag.  Braid searches run with one tag share their cache of failed partial
 * braids: give one tag only to searches over the same candidates with the same g and strict (te.c: one
 * pass of a length over the targets, until something is eliminated). */
uint64_t sr_cache_tag(void);

/* Search results. */
#define SR_FOUND 1
#define SR_NONE 0
#define SR_BUDGET (-1)  /* out of budget: undecided */
#define SR_STOPPED (-2) /* poll() asked to stop: undecided */

/* A chain found by a search, cell by cell in a valid order: cell k's variable `var[k]` and its
 * right-linking object `rlc[k]` (a label index, NL + a g-label index, or -1 for the last cell). */
#define SR_MAX_CHAIN 82
typedef struct {
    int n;
    int16_t var[SR_MAX_CHAIN];
    int16_t rlc[SR_MAX_CHAIN];
} SrChain;

/* Is there a whip (g: a whip or a g-whip; need_g: a g-whip with at least one g-rlc) of length <= limit
 * on target z (a present label)?  SR_FOUND / SR_NONE / SR_BUDGET / SR_STOPPED; when found and `chain`
 * is not NULL, the whip is written there.  `strict` 0 lets a left-linking candidate repeat (a filter:
 * it may say yes where the rules find nothing, never the reverse), 1 does not (loopless, as the rules).
 * Not reentrant (a static cache): one search at a time. */
int sr_whip(const Cands *c, int z, int g, int need_g, int strict, int limit, SrCtl *ctl, SrChain *chain);

/* The same for a braid (g: a braid or a g-braid).  `strict` 0 is the engine's filter, permissive where
 * the rules are stricter (trial.c says where); 1 follows the definition exactly (SPEC 4.4, 4.5), for
 * the compiled raters. */
int sr_braid(const Cands *c, int z, int g, int strict, int limit, SrCtl *ctl, SrChain *chain);

/* The special chains (SPEC 4.3, trial.c's "special chains" section) of the modes below: is there one of
 * exactly `length` cells on target z (typed: all its variables of one kind)?  SR_FOUND / SR_NONE /
 * SR_BUDGET / SR_STOPPED; when found, `cells` holds, per cell, its variable, its left-linking label and
 * its right-linking object (a label index, NL + a g-label index, or -1 for a last cell's dot).  Not
 * reentrant: one search at a time. */
#define SR_MODE_WHIP 0 /* typed whips */
#define SR_MODE_Z 1    /* z-chains */
#define SR_MODE_T 2    /* t-whips (SudoRules': z-candidates in the first cell) */
#define SR_MODE_BIV 3  /* bivalue-chains */
#define SR_MODE_GBIV 4 /* g-bivalue-chains (SudoRules') */
int sr_chain(const Cands *c, int z, int mode, int length, int typed, SrCtl *ctl, int16_t cells[3 * SR_MAX_CHAIN]);

#endif
