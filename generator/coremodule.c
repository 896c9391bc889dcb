/*
 * sudorules._core: the CPython binding of the compiled core (core.h).
 *
 * Grids travel as bytes-like objects through the buffer protocol (no numpy headers needed): one
 * grid is 81 bytes (0 empty, 1..9), a batch is N*81 contiguous bytes (a C-contiguous (N, 81) uint8
 * array).  Batch functions write into output buffers the caller allocates, and release the GIL for
 * the whole batch.  Argument checking beyond sizes (dtype, shape, values) is done by sudorules.core.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "core.h"

/* Borrow a contiguous buffer; `writable` for outputs. */
static int get_buffer(PyObject *obj, Py_buffer *view, int writable, const char *name)
{
    int flags = PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, view, flags) < 0) {
        PyErr_Format(PyExc_TypeError, "%s must be a %scontiguous bytes-like object", name,
                     writable ? "writable " : "");
        return -1;
    }
    return 0;
}

static int get_grid(PyObject *obj, Py_buffer *view)
{
    if (get_buffer(obj, view, 0, "grid") < 0) return -1;
    if (view->len != 81) {
        PyErr_Format(PyExc_ValueError, "grid must be 81 bytes, got %zd", view->len);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/* The 81 cell values of a puzzle given as a str, parsed here: the same rules as
 * sudorules.puzzle.grid_values (a test checks they agree): grid characters 1-9 (a digit), . and 0
 * (empty), in order; layout characters | ! + - = : and white space skipped; a leading byte-order
 * mark skipped; anything else, or a count other than 81, is a ValueError.  Parsing in C is what
 * makes one call cheap: 10.2 us a call with the Python parser against 2.3 us per puzzle in batch. */
static int parse_grid_string(PyObject *text, uint8_t *grid)
{
    Py_ssize_t length = PyUnicode_GET_LENGTH(text);
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    int count = 0;
    for (Py_ssize_t i = 0; i < length; ++i) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (c >= '1' && c <= '9') {
            if (count < 81) grid[count] = (uint8_t)(c - '0');
            ++count;
        } else if (c == '.' || c == '0') {
            if (count < 81) grid[count] = 0;
            ++count;
        } else if (c == '|' || c == '!' || c == '+' || c == '-' || c == '=' || c == ':' || c == ' ' || c == '\t'
                   || c == '\n' || c == '\r' || c == '\v' || c == '\f' || (c == 0xFEFF && i == 0)
                   || Py_UNICODE_ISSPACE(c)) {
            continue;
        } else {
            PyObject *shown = PyUnicode_FromOrdinal((int)c);
            PyErr_Format(PyExc_ValueError, "bad character %R in puzzle string", shown);
            Py_XDECREF(shown);
            return -1;
        }
    }
    if (count != 81) {
        PyErr_Format(PyExc_ValueError, "wrong length: %d grid character%s, expected 81", count, count == 1 ? "" : "s");
        return -1;
    }
    return 0;
}

/* A grid argument: a str (parsed above) or 81 bytes (a value above 9 gives 0 solutions, as in
 * sr_count_solutions). */
static int grid_argument(PyObject *obj, uint8_t *grid)
{
    if (PyUnicode_Check(obj)) return parse_grid_string(obj, grid);
    Py_buffer view;
    if (get_grid(obj, &view) < 0) return -1;
    memcpy(grid, view.buf, 81);
    PyBuffer_Release(&view);
    return 0;
}

static PyObject *py_count_solutions(PyObject *self, PyObject *args)
{
    PyObject *obj;
    int limit = 2;
    if (!PyArg_ParseTuple(args, "O|i:count_solutions", &obj, &limit)) return NULL;
    if (limit < 1) return PyErr_Format(PyExc_ValueError, "limit must be >= 1, got %d", limit);
    uint8_t grid[81];
    if (grid_argument(obj, grid) < 0) return NULL;
    uint8_t solution[81];
    int count = sr_count_solutions(grid, limit, solution);
    if (count == 0) return Py_BuildValue("(iO)", 0, Py_None);
    return Py_BuildValue("(iy#)", count, (const char *)solution, (Py_ssize_t)81);
}

static PyObject *py_count_excluding(PyObject *self, PyObject *args)
{
    PyObject *obj;
    int cell, digit, limit = 1;
    if (!PyArg_ParseTuple(args, "Oii|i:count_excluding", &obj, &cell, &digit, &limit)) return NULL;
    if (limit < 1) return PyErr_Format(PyExc_ValueError, "limit must be >= 1, got %d", limit);
    if (cell < 0 || cell > 80 || digit < 1 || digit > 9)
        return PyErr_Format(PyExc_ValueError, "cell must be 0..80 and digit 1..9, got %d, %d", cell,
                            digit);
    Py_buffer view;
    if (get_grid(obj, &view) < 0) return NULL;
    uint8_t solution[81];
    int count = sr_count_excluding((const uint8_t *)view.buf, cell, digit, limit, solution);
    PyBuffer_Release(&view);
    if (count == 0) return Py_BuildValue("(iO)", 0, Py_None);
    return Py_BuildValue("(iy#)", count, (const char *)solution, (Py_ssize_t)81);
}

static PyObject *py_is_minimal(PyObject *self, PyObject *obj)
{
    Py_buffer view;
    if (get_grid(obj, &view) < 0) return NULL;
    int minimal = sr_is_minimal((const uint8_t *)view.buf);
    PyBuffer_Release(&view);
    return PyBool_FromLong(minimal);
}

static PyObject *py_grid_consistent(PyObject *self, PyObject *obj)
{
    Py_buffer view;
    if (get_grid(obj, &view) < 0) return NULL;
    const uint8_t *grid = (const uint8_t *)view.buf;
    for (int k = 0; k < 81; ++k) {
        if (grid[k] > 9) {
            PyBuffer_Release(&view);
            PyErr_SetString(PyExc_ValueError, "grid values must be 0..9");
            return NULL;
        }
    }
    int consistent = sr_grid_consistent(grid);
    PyBuffer_Release(&view);
    return PyBool_FromLong(consistent);
}

static int get_seed(PyObject *obj, uint64_t *seed)
{
    unsigned long long value = PyLong_AsUnsignedLongLongMask(obj);
    if (value == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    *seed = (uint64_t)value;
    return 0;
}

static PyObject *py_random_grid(PyObject *self, PyObject *obj)
{
    uint64_t seed;
    if (get_seed(obj, &seed) < 0) return NULL;
    sr_rng rng;
    sr_rng_seed(&rng, seed);
    uint8_t grid[81];
    sr_random_grid(&rng, grid);
    return PyBytes_FromStringAndSize((const char *)grid, 81);
}

/* The batch counters: one puzzle of `item_bytes` bytes (81 values, or 81 uint16 candidate masks). */
typedef int (*batch_counter)(const void *item, int limit, uint8_t *solution);

static int count_plain(const void *item, int limit, uint8_t *solution)
{
    return sr_count_solutions((const uint8_t *)item, limit, solution);
}

static int count_masked(const void *item, int limit, uint8_t *solution)
{
    return sr_count_solutions_masked((const uint16_t *)item, limit, solution);
}

/* NAME(items, limit, counts_out, solutions_out): counts_out holds N int32, solutions_out N*81 bytes
 * (the first solution of each puzzle; zeros when there is none); the loop runs without the GIL. */
static PyObject *count_batch(PyObject *args, const char *format, const char *usage, Py_ssize_t item_bytes,
                             batch_counter counter)
{
    PyObject *in_obj, *counts_obj, *solutions_obj;
    int limit;
    if (!PyArg_ParseTuple(args, format, &in_obj, &limit, &counts_obj, &solutions_obj)) return NULL;
    if (limit < 1) return PyErr_Format(PyExc_ValueError, "limit must be >= 1, got %d", limit);
    Py_buffer in, counts, solutions;
    if (get_buffer(in_obj, &in, 0, "puzzles") < 0) return NULL;
    if (get_buffer(counts_obj, &counts, 1, "counts") < 0) {
        PyBuffer_Release(&in);
        return NULL;
    }
    if (get_buffer(solutions_obj, &solutions, 1, "solutions") < 0) {
        PyBuffer_Release(&in);
        PyBuffer_Release(&counts);
        return NULL;
    }
    Py_ssize_t n = in.len / item_bytes;
    PyObject *result = NULL;
    if (in.len % item_bytes || counts.len != n * (Py_ssize_t)sizeof(int32_t) || solutions.len != n * 81) {
        PyErr_SetString(PyExc_ValueError, usage);
    } else {
        const char *items = (const char *)in.buf;
        int32_t *out = (int32_t *)counts.buf;
        uint8_t *sol = (uint8_t *)solutions.buf;
        Py_BEGIN_ALLOW_THREADS
        for (Py_ssize_t i = 0; i < n; ++i) {
            int c = counter(items + item_bytes * i, limit, sol + 81 * i);
            if (c == 0) memset(sol + 81 * i, 0, 81);
            out[i] = c;
        }
        Py_END_ALLOW_THREADS
        result = Py_NewRef(Py_None);
    }
    PyBuffer_Release(&in);
    PyBuffer_Release(&counts);
    PyBuffer_Release(&solutions);
    return result;
}

static PyObject *py_count_solutions_batch(PyObject *self, PyObject *args)
{
    return count_batch(args, "OiOO:count_solutions_batch",
                       "count_solutions_batch: grids must be N*81 bytes, counts N int32, solutions N*81 bytes",
                       81, count_plain);
}

static PyObject *py_count_masked_batch(PyObject *self, PyObject *args)
{
    return count_batch(args, "OiOO:count_masked_batch",
                       "count_masked_batch: masks must be N*81 uint16, counts N int32, solutions N*81 bytes",
                       81 * (Py_ssize_t)sizeof(uint16_t), count_masked);
}

/* is_minimal_batch(grids, out): out holds N bytes, 1 for a minimal puzzle, else 0. */
static PyObject *py_is_minimal_batch(PyObject *self, PyObject *args)
{
    PyObject *in_obj, *out_obj;
    if (!PyArg_ParseTuple(args, "OO:is_minimal_batch", &in_obj, &out_obj)) return NULL;
    Py_buffer in, out;
    if (get_buffer(in_obj, &in, 0, "grids") < 0) return NULL;
    if (get_buffer(out_obj, &out, 1, "out") < 0) {
        PyBuffer_Release(&in);
        return NULL;
    }
    Py_ssize_t n = in.len / 81;
    PyObject *result = NULL;
    if (in.len % 81 || out.len != n) {
        PyErr_SetString(PyExc_ValueError, "is_minimal_batch: grids must be N*81 bytes, out N bytes");
    } else {
        const uint8_t *grids = (const uint8_t *)in.buf;
        uint8_t *flags = (uint8_t *)out.buf;
        Py_BEGIN_ALLOW_THREADS
        for (Py_ssize_t i = 0; i < n; ++i) flags[i] = (uint8_t)sr_is_minimal(grids + 81 * i);
        Py_END_ALLOW_THREADS
        result = Py_NewRef(Py_None);
    }
    PyBuffer_Release(&in);
    PyBuffer_Release(&out);
    return result;
}

/* random_grids_into(out, seed): fill out (N*81 bytes) with N random grids from one generator
 * seeded with `seed`; random_grid(seed) is the first of them. */
static PyObject *py_random_grids_into(PyObject *self, PyObject *args)
{
    PyObject *out_obj, *seed_obj;
    if (!PyArg_ParseTuple(args, "OO:random_grids_into", &out_obj, &seed_obj)) return NULL;
    uint64_t seed;
    if (get_seed(seed_obj, &seed) < 0) return NULL;
    Py_buffer out;
    if (get_buffer(out_obj, &out, 1, "out") < 0) return NULL;
    if (out.len % 81) {
        PyBuffer_Release(&out);
        return PyErr_Format(PyExc_ValueError, "random_grids_into: out must be N*81 bytes");
    }
    Py_ssize_t n = out.len / 81;
    uint8_t *grids = (uint8_t *)out.buf;
    Py_BEGIN_ALLOW_THREADS
    sr_rng rng;
    sr_rng_seed(&rng, seed);
    for (Py_ssize_t i = 0; i < n; ++i) sr_random_grid(&rng, grids + 81 * i);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&out);
    Py_RETURN_NONE;
}

/* random_grid_weights_into(grids_out, weights_out, seed): the grids of random_grids_into with the
 * same seed, and for each the inverse of its sampling probability (float64, see core.h). */
static PyObject *py_random_grid_weights_into(PyObject *self, PyObject *args)
{
    PyObject *out_obj, *weights_obj, *seed_obj;
    if (!PyArg_ParseTuple(args, "OOO:random_grid_weights_into", &out_obj, &weights_obj, &seed_obj))
        return NULL;
    uint64_t seed;
    if (get_seed(seed_obj, &seed) < 0) return NULL;
    Py_buffer out, weights;
    if (get_buffer(out_obj, &out, 1, "grids") < 0) return NULL;
    if (get_buffer(weights_obj, &weights, 1, "weights") < 0) {
        PyBuffer_Release(&out);
        return NULL;
    }
    Py_ssize_t n = out.len / 81;
    PyObject *result = NULL;
    if (out.len % 81 || weights.len != n * (Py_ssize_t)sizeof(double)) {
        PyErr_SetString(PyExc_ValueError,
                        "random_grid_weights_into: grids must be N*81 bytes, weights N float64");
    } else {
        uint8_t *grids = (uint8_t *)out.buf;
        double *w = (double *)weights.buf;
        Py_BEGIN_ALLOW_THREADS
        sr_rng rng;
        sr_rng_seed(&rng, seed);
        for (Py_ssize_t i = 0; i < n; ++i) sr_random_grid_weighted(&rng, grids + 81 * i, w + i);
        Py_END_ALLOW_THREADS
        result = Py_NewRef(Py_None);
    }
    PyBuffer_Release(&out);
    PyBuffer_Release(&weights);
    return result;
}

/* grid_weights(grids, weights_out): sr_grid_weight of each grid (float64). */
static PyObject *py_grid_weights(PyObject *self, PyObject *args)
{
    PyObject *in_obj, *weights_obj;
    if (!PyArg_ParseTuple(args, "OO:grid_weights", &in_obj, &weights_obj)) return NULL;
    Py_buffer in, weights;
    if (get_buffer(in_obj, &in, 0, "grids") < 0) return NULL;
    if (get_buffer(weights_obj, &weights, 1, "weights") < 0) {
        PyBuffer_Release(&in);
        return NULL;
    }
    Py_ssize_t n = in.len / 81;
    PyObject *result = NULL;
    if (in.len % 81 || weights.len != n * (Py_ssize_t)sizeof(double)) {
        PyErr_SetString(PyExc_ValueError, "grid_weights: grids must be N*81 bytes, weights N float64");
    } else {
        const uint8_t *grids = (const uint8_t *)in.buf;
        double *w = (double *)weights.buf;
        Py_BEGIN_ALLOW_THREADS
        for (Py_ssize_t i = 0; i < n; ++i) w[i] = sr_grid_weight(grids + 81 * i);
        Py_END_ALLOW_THREADS
        result = Py_NewRef(Py_None);
    }
    PyBuffer_Release(&in);
    PyBuffer_Release(&weights);
    return result;
}

static PyMethodDef methods[] = {
    {"count_solutions", py_count_solutions, METH_VARARGS,
     "count_solutions(grid, limit=2) -> (count, first_solution_bytes_or_None); count <= limit."},
    {"count_excluding", py_count_excluding, METH_VARARGS,
     "count_excluding(grid, cell, digit, limit=1) -> (count, first_solution_or_None): solutions "
     "where cell does not hold digit."},
    {"is_minimal", py_is_minimal, METH_O,
     "is_minimal(grid) -> bool: unique and every given necessary."},
    {"grid_consistent", py_grid_consistent, METH_O,
     "grid_consistent(grid) -> True when no digit repeats in a unit and no empty cell sees all nine digits."},
    {"random_grid", py_random_grid, METH_O, "random_grid(seed) -> 81 bytes of a complete grid."},
    {"count_solutions_batch", py_count_solutions_batch, METH_VARARGS,
     "count_solutions_batch(grids, limit, counts_out, solutions_out) -> None (GIL released)."},
    {"count_masked_batch", py_count_masked_batch, METH_VARARGS,
     "count_masked_batch(masks, limit, counts, solutions): solution counts of pencilmark puzzles."},
    {"is_minimal_batch", py_is_minimal_batch, METH_VARARGS,
     "is_minimal_batch(grids, out) -> None (GIL released)."},
    {"random_grids_into", py_random_grids_into, METH_VARARGS,
     "random_grids_into(out, seed) -> None: N random grids from one seeded generator."},
    {"random_grid_weights_into", py_random_grid_weights_into, METH_VARARGS,
     "random_grid_weights_into(grids_out, weights_out, seed) -> None: random_grids_into plus, per "
     "grid, the inverse of its sampling probability given box 1 (bias measurement)."},
    {"grid_weights", py_grid_weights, METH_VARARGS,
     "grid_weights(grids, weights_out) -> None: for each complete grid, the inverse probability with "
     "which the random search draws it from its box 1 (0 for an invalid grid)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_core",
    "The compiled bitset core of sudorules (use sudorules.core, the documented API).", -1, methods,
};

PyMODINIT_FUNC PyInit__core(void) { return PyModule_Create(&module); }
