/*
 * The compiled generators without Python, for tests/test_c_portability.py: built from generator/core.c and
 * generator/generate.c with each compiler at hand, it prints what a seed gives, to be compared with the
 * Python extension's output (the same seed must give the same puzzles whatever compiler built the core).
 *
 *   generate_driver generate METHOD SEED COUNT UNTESTED   one line per puzzle: 81 characters ('.' for an
 *                                                         empty cell), tries, grid weight (%.17g)
 *   generate_driver count METHOD SEED COUNT SIZE MAX      one line per sample: its 82 counters
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "generate.h"

int main(int argc, char **argv)
{
    if (argc == 6 && !strcmp(argv[1], "generate")) {
        int method = atoi(argv[2]), untested = atoi(argv[5]);
        uint64_t seed = strtoull(argv[3], NULL, 10);
        int64_t count = atol(argv[4]);
        uint8_t *puzzles = malloc(81 * (size_t)count);
        int64_t *tries = malloc(sizeof *tries * (size_t)count);
        double *weights = malloc(sizeof *weights * (size_t)count);
        if (!puzzles || !tries || !weights) return 1;
        int64_t made = sr_generate_batch(method, seed, 0, count, untested, puzzles, tries,
                                         method == SR_BOTTOM_UP ? NULL : weights, NULL);
        for (int64_t k = 0; k < made; k++) {
            char line[82];
            for (int c = 0; c < 81; c++) line[c] = puzzles[81 * k + c] ? (char)('0' + puzzles[81 * k + c]) : '.';
            line[81] = 0;
            printf("%s %lld %.17g\n", line, (long long)tries[k], method == SR_BOTTOM_UP ? 0.0 : weights[k]);
        }
        return 0;
    }
    if (argc == 7 && !strcmp(argv[1], "count")) {
        int method = atoi(argv[2]), size = atoi(argv[5]), max_clues = atoi(argv[6]), abandoned = 0;
        uint64_t seed = strtoull(argv[3], NULL, 10);
        int64_t count = atol(argv[4]);
        int64_t *found = malloc(sizeof *found * 82 * (size_t)count);
        if (!found) return 1;
        int64_t done = sr_count_batch(method, seed, 0, count, size, max_clues, found, NULL, NULL, HUGE_VAL, &abandoned);
        for (int64_t k = 0; k < done; k++) {
            for (int c = 0; c < 82; c++) printf(c ? " %lld" : "%lld", (long long)found[82 * k + c]);
            printf("\n");
        }
        return 0;
    }
    fprintf(stderr, "usage: generate_driver generate METHOD SEED COUNT UNTESTED\n"
                    "       generate_driver count METHOD SEED COUNT SIZE MAX_CLUES\n");
    return 2;
}
