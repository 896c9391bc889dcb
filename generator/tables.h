/*
 * The label and CSP-variable encoding of the compiled chain code (trial.c, te.c), and its tables.
 * C11, no dependencies.  This is the one place the layout is documented.
 *
 * Labels.  The Python label 100n + 10r + c (digit n, row r, column c, all 1..9; sudorules/engine/
 * labels.py) is index i = 81(n-1) + 9(r-1) + (c-1), 0..728: digit-major, then the cell 0..80 row-major.
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
 * 9-bit mask over positions.  Two labels are linked iff they share a variable, so LINK[i] is the union
 * of the members of i's four variables, minus i.
 *
 * g-labels are 0..971, in the order of labels.py's G_LABELS: 243 rn (row r, digit n, column triplet
 * s: 9*9*3), 243 cn (column, digit, row triplet), 486 bn (box, digit, segment: rows 0..2 of the
 * box, then columns 0..2).  A g-label is a 9-bit mask of its variable's positions: 7 << 3s for rn /
 * cn triplet s (0..2) and bn row s, 0x49 << j for bn column j.  GLINK[k] (labels.py's G_LINKS) is the
 * AND of the LINK sets of its three labels.  Only rn, cn and bn variables have g-labels (3, 3, 6).
 * G_INDEX maps labels.py's g-label ids (10 * variable id + segment, 2111..4996) to these indices.
 *
 * The tables are filled once by sr_fill_tables() (the module's init calls it before anything else)
 * and only read afterwards; they are not const only because the preprocessor cannot build the bitsets.
 */
#ifndef SUDORULES_TABLES_H
#define SUDORULES_TABLES_H

#include <stdint.h>

#include "bits.h"

#define NL 729 /* labels */
#define NV 324 /* CSP variables */
#define NG 972 /* g-labels */
#define W 12   /* uint64 words of a label bitset */
#define WV 6   /* uint64 words of a variable bitset */
#define WG 16  /* uint64 words of a g-label bitset */

#define CTZ64(x) sr_ctz64(x)

extern uint64_t LINK[NL][W];     /* labels linked to label i */
extern uint64_t GLINK[NG][W];    /* labels linked to all three labels of g-label k */
extern uint16_t VAR_OF[NL][4];   /* the rc, rn, cn, bn variables of label i */
extern uint16_t POS_IN[NL][4];   /* bit (1 << position) of label i in each of them */
extern uint16_t MEMBER[NV][9];   /* the label at each position of variable v */
extern uint16_t G_OF_VAR[NV][6]; /* the g-labels of variable v (G_COUNT[v] of them) */
extern uint8_t G_COUNT[NV];      /* 0 for rc, 3 for rn and cn, 6 for bn */
extern uint16_t G_MASK[NG];      /* the positions of g-label k in its variable */
extern uint16_t G_VAR[NG];       /* the variable of g-label k */
#define G_ID_MIN 2111            /* labels.py's g-label ids 10 * variable id + segment: 2111..4996 */
#define G_ID_MAX 4996
extern int16_t G_INDEX[G_ID_MAX - G_ID_MIN + 1]; /* g-label k of id G_ID_MIN + j, -1 for no g-label */
typedef struct {
    uint64_t a, b;
} SetKey;
extern SetKey SET_KEY[NL + NG]; /* a fixed random 128-bit key per label and per g-label (NL + k): set hashes */
extern int8_t G_SEG[2][512];       /* for a set of 2 or 3 positions, the index j of G_OF_VAR[v][j] holding them
                                    * all, or -1: [0] for rn and cn variables, [1] for bn ones */
extern int16_t G_TWIN[NG];        /* the other g-label with the same three labels (an rn or cn g-label and
                                   * the bn one of the same segment: 486 label sets for 972 g-labels) */

/* Fill the tables (idempotent: a second call changes nothing). */
void sr_fill_tables(void);

/* The g-label of variable v holding every position of `mask` (two or three positions), or -1: one
 * table read where a loop over the variable's up to six g-labels was a quarter of the g-braid search's
 * node (perf, the W11 puzzle of issue 23). */
static inline int g_label_holding(int v, unsigned mask)
{
    if (v < 81) return -1;
    int j = G_SEG[v >= 243][mask];
    return j < 0 ? -1 : G_OF_VAR[v][j];
}
static inline int label_index(int n, int r, int c) { return 81 * n + 9 * r + c; } /* all 0-based */
static inline int has(const uint64_t *bits, int i) { return (int)(bits[i >> 6] >> (i & 63) & 1u); }
static inline void put(uint64_t *bits, int i) { bits[i >> 6] |= 1ull << (i & 63); }
static inline void clear_bit(uint64_t *bits, int i) { bits[i >> 6] &= ~(1ull << (i & 63)); }

#endif
