/*
 * The tables of the label and CSP-variable encoding (layout: tables.h), filled once.  C11.
 */
#include "tables.h"

uint64_t LINK[NL][W];     /* labels linked to label i */
uint64_t GLINK[NG][W];    /* labels linked to all three labels of g-label k */
uint16_t VAR_OF[NL][4];   /* the rc, rn, cn, bn variables of label i */
uint16_t POS_IN[NL][4];   /* bit (1 << position) of label i in each of them */
uint16_t MEMBER[NV][9];   /* the label at each position of variable v */
uint16_t G_OF_VAR[NV][6]; /* the g-labels of variable v (G_COUNT[v] of them) */
uint8_t G_COUNT[NV];      /* 0 for rc, 3 for rn and cn, 6 for bn */
uint16_t G_MASK[NG];      /* the positions of g-label k in its variable */
uint16_t G_VAR[NG];       /* the variable of g-label k */
int16_t G_INDEX[G_ID_MAX - G_ID_MIN + 1]; /* g-label k of id G_ID_MIN + j, -1 for no g-label */
SetKey SET_KEY[NL + NG]; /* a random 128-bit key per label and per g-label (NL + k): the caches' set hash */
int16_t G_TWIN[NG];
int8_t G_SEG[2][512];

/* The tables start as static zeros; `tables_ready` keeps a second call (a second module init) from
 * rewriting tables that a call running without the GIL may be reading. */
static int tables_ready;

void sr_fill_tables(void)
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
    /* The twin of g-label a: another g-label with the same three labels.  It holds a's first label,
     * so its variable is one of that label's four: only their g-labels are compared (a search of all
     * 972 x 972 pairs took about 15 ms of every process's first import). */
    for (int a = 0; a < NG; ++a) {
        int first = MEMBER[G_VAR[a]][sr_ctz32(G_MASK[a])];
        for (int k = 0; k < 4; ++k) {
            int v = VAR_OF[first][k];
            for (int j = 0; j < G_COUNT[v]; ++j) {
                int b = G_OF_VAR[v][j], same = b != a;
                for (unsigned m = G_MASK[a]; m && same; m &= m - 1) {
                    int x = MEMBER[G_VAR[a]][sr_ctz32(m)], found = 0;
                    for (unsigned mb = G_MASK[b]; mb; mb &= mb - 1) found |= MEMBER[G_VAR[b]][sr_ctz32(mb)] == x;
                    same = found;
                }
                if (same) G_TWIN[a] = (int16_t)b;
            }
        }
    }
    for (unsigned m = 0; m < 512; ++m) { /* G_MASK's segments: rn, cn 7 << 3s; bn also 0x49 << (s - 3) */
        G_SEG[0][m] = G_SEG[1][m] = -1;
        for (int j = 5; j >= 0; --j) {
            unsigned seg = j < 3 ? 7u << (3 * j) : 0x49u << (j - 3);
            if (m && !(m & ~seg)) {
                if (j < 3) G_SEG[0][m] = (int8_t)j;
                G_SEG[1][m] = (int8_t)j;
            }
        }
    }
    uint64_t x = 0x853C49E6748FEA9Bull; /* splitmix64: fixed keys, the same in every process */
    for (int j = 0; j < 2 * (NL + NG); ++j) {
        uint64_t z = (x += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        if (j & 1)
            SET_KEY[j / 2].b = z ^ (z >> 31);
        else
            SET_KEY[j / 2].a = z ^ (z >> 31);
    }
    tables_ready = 1;
}
