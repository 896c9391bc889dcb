/*
 * Table builders for the C files of generator/: REPn(T, start) expands to T(start), T(start + 1), ...,
 * T(start + n - 1), so that a const lookup table is written once as a formula T and filled in by the
 * preprocessor (no run-time initialisation, no global mutable state).
 */
#ifndef SUDORULES_REP_H
#define SUDORULES_REP_H

#define REP4(T, n) T(n), T((n) + 1), T((n) + 2), T((n) + 3)
#define REP16(T, n) REP4(T, n), REP4(T, (n) + 4), REP4(T, (n) + 8), REP4(T, (n) + 12)
#define REP64(T, n) REP16(T, n), REP16(T, (n) + 16), REP16(T, (n) + 32), REP16(T, (n) + 48)
#define REP512(T)                                                                               \
    REP64(T, 0), REP64(T, 64), REP64(T, 128), REP64(T, 192), REP64(T, 256), REP64(T, 320),     \
        REP64(T, 384), REP64(T, 448)

#endif
