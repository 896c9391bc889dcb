/*
 * sudorules canonical forms: the minlex form of a puzzle, of a solution grid and of a pencilmark
 * state, its number of automorphisms, and the map that takes the input to its form.
 *
 * The convention (the one place besides README.md where it is stated):
 *
 *   A map is a transposition or not, then a permutation of the three bands, of the three rows inside
 *   each band, of the three stacks and of the three columns inside each stack: 2 x 6^8 = 3,359,232
 *   maps, applied in that order (output row i is source row rows[i] of the possibly transposed grid,
 *   output column j is source column cols[j]).  Digits are then renamed.
 *
 *   Puzzle (81 values, 0 = empty): the form is the lexicographically smallest 81-character string
 *   over all maps and all renamings, reading row by row with '.' (0) below '1' < ... < '9'.  For a
 *   given map the best renaming numbers the digits 1, 2, 3, ... in order of first appearance, so the
 *   form is the smallest first-appearance-renamed string over the maps: the "true minlex" form (gsf's
 *   `sudoku -f%#mc` prints it for most puzzles, a larger isomorph for some: README.md), and for a
 *   complete grid the usual minlex grid (first row 123456789).
 *
 *   Pencilmark state (81 candidate masks, bit d-1 for digit d): the 729-character string, cell after
 *   cell, nine characters a cell (the digit d at place d when it is a candidate, '.' when not), with
 *   every digit below '.', i.e. a candidate sorts before a non-candidate.  The form is the smallest
 *   such string over all maps and renamings.  The best renaming gives the smaller names to the digits
 *   that are candidates earlier (cell by cell), so a state whose cells all hold one candidate has the
 *   form of its grid, and a complete grid's pencilmark form is its grid minlex.
 *
 *   Automorphisms: the number of maps (of the 3,359,232) that take the input to its own form, i.e.
 *   that fix it up to a renaming: 1 for most puzzles and grids, 648 for the most symmetric grid,
 *   3,359,232 for the empty grid.
 *
 * Every function is reentrant: the only state is in a caller-owned workspace (one per thread), which
 * holds the search's growing buffers so that batches allocate once.  The algorithms are explained at
 * the top of canon.c.
 */
#ifndef SUDORULES_CANON_H
#define SUDORULES_CANON_H

#include <stdint.h>

/* The map from an input to its form: form[9*i + j] = digits[source[9*rows[i] + cols[j]]], where
 * source is the input, transposed first when transpose is 1.  digits[0] = 0; for pencilmarks,
 * digits[d] is the new name of digit d (bit d-1 of a mask moves to bit digits[d]-1). */
typedef struct {
    uint8_t transpose;
    uint8_t rows[9];
    uint8_t cols[9];
    uint8_t digits[10];
} sr_canon_map;

typedef struct sr_canon_workspace sr_canon_workspace;

/* A new workspace (NULL when out of memory); free it with sr_canon_workspace_free. */
sr_canon_workspace *sr_canon_workspace_new(void);
void sr_canon_workspace_free(sr_canon_workspace *workspace);

/* Return values of the functions below. */
#define SR_CANON_OK 0
#define SR_CANON_NO_MEMORY (-1)
#define SR_CANON_BAD_INPUT (-2)

/* The minlex form of a puzzle (81 values 0..9; repeated digits are allowed, the form is defined for
 * any string), written to `form` (81 values); `map` and `automorphisms` may be NULL.  A complete
 * valid grid goes to sr_canon_grid, anything else to the general search. */
int sr_canon_puzzle(sr_canon_workspace *workspace, const uint8_t *puzzle, uint8_t *form, sr_canon_map *map,
                    uint64_t *automorphisms);

/* The same form by the general search only, whatever the input (for tests: a complete grid then
 * takes milliseconds instead of microseconds). */
int sr_canon_puzzle_search(sr_canon_workspace *workspace, const uint8_t *puzzle, uint8_t *form,
                           sr_canon_map *map, uint64_t *automorphisms);

/* The minlex form of a complete valid grid (SR_CANON_BAD_INPUT for anything else). */
int sr_canon_grid(sr_canon_workspace *workspace, const uint8_t *grid, uint8_t *form, sr_canon_map *map,
                  uint64_t *automorphisms);

/* The form of a pencilmark state (81 masks of 9 bits; SR_CANON_BAD_INPUT for a value above 511). */
int sr_canon_marks(sr_canon_workspace *workspace, const uint16_t *masks, uint16_t *form, sr_canon_map *map,
                   uint64_t *automorphisms);

/* Apply a map to 81 values (0..9) or to 81 masks. */
void sr_canon_apply(const sr_canon_map *map, const uint8_t *puzzle, uint8_t *out);
void sr_canon_apply_marks(const sr_canon_map *map, const uint16_t *masks, uint16_t *out);

#endif
