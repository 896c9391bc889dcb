/*
 * sudorules._generate: the Python face of generate.c.  Arrays cross as contiguous buffers (numpy arrays
 * allocated by sudorules.generate), so no numpy headers are needed; every call releases the GIL.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "generate.h"

static int check_size(Py_buffer *buffer, Py_ssize_t item, const char *name) {
    if (buffer->len % item) {
        PyErr_Format(PyExc_ValueError, "%s: buffer length %zd is not a multiple of %zd", name, buffer->len, item);
        return 0;
    }
    return 1;
}

static PyObject *py_generate_batch(PyObject *self, PyObject *args) {
    int method, untested;
    unsigned long long seed;
    long long first;
    Py_buffer puzzles, tries;
    PyObject *weights_object = Py_None;
    Py_buffer weights = {0};
    if (!PyArg_ParseTuple(args, "iKLiw*w*|O", &method, &seed, &first, &untested, &puzzles, &tries,
                          &weights_object))
        return NULL;
    if (weights_object != Py_None && PyObject_GetBuffer(weights_object, &weights, PyBUF_WRITABLE) < 0) {
        PyBuffer_Release(&puzzles);
        PyBuffer_Release(&tries);
        return NULL;
    }
    PyObject *result = NULL;
    if (method < SR_BOTTOM_UP || method > SR_CONTROLLED_BIAS) {
        PyErr_SetString(PyExc_ValueError, "unknown method");
    } else if (check_size(&puzzles, 81, "puzzles") && check_size(&tries, 8, "tries")) {
        int64_t count = (int64_t)(puzzles.len / 81);
        if (tries.len / 8 != count || (weights.buf && weights.len / 8 != count)) {
            PyErr_SetString(PyExc_ValueError, "puzzles, tries and weights have different lengths");
        } else {
            Py_BEGIN_ALLOW_THREADS
            sr_generate_batch(method, seed, first, count, untested, puzzles.buf, tries.buf, weights.buf);
            Py_END_ALLOW_THREADS
            result = Py_None;
            Py_INCREF(result);
        }
    }
    PyBuffer_Release(&puzzles);
    PyBuffer_Release(&tries);
    if (weights.buf) PyBuffer_Release(&weights);
    return result;
}

static PyObject *py_top_down_grids(PyObject *self, PyObject *args) {
    unsigned long long seed;
    long long first;
    Py_buffer grids, puzzles;
    if (!PyArg_ParseTuple(args, "y*KLw*", &grids, &seed, &first, &puzzles)) return NULL;
    PyObject *result = NULL;
    if (check_size(&grids, 81, "grids")) {
        if (puzzles.len != grids.len) {
            PyErr_SetString(PyExc_ValueError, "grids and puzzles have different lengths");
        } else {
            Py_BEGIN_ALLOW_THREADS
            sr_top_down_grids(grids.buf, (int64_t)(grids.len / 81), seed, first, puzzles.buf);
            Py_END_ALLOW_THREADS
            result = Py_None;
            Py_INCREF(result);
        }
    }
    PyBuffer_Release(&grids);
    PyBuffer_Release(&puzzles);
    return result;
}

static PyObject *py_cb_grids(PyObject *self, PyObject *args) {
    unsigned long long seed;
    long long first;
    int untested;
    Py_buffer grids, puzzles, hits;
    if (!PyArg_ParseTuple(args, "y*KLiw*w*", &grids, &seed, &first, &untested, &puzzles, &hits)) return NULL;
    PyObject *result = NULL;
    if (check_size(&grids, 81, "grids")) {
        int64_t n = (int64_t)(grids.len / 81);
        if (puzzles.len != grids.len || hits.len != 8 * n) {
            PyErr_SetString(PyExc_ValueError, "puzzles and hits must hold one entry per grid");
        } else {
            int64_t found;
            Py_BEGIN_ALLOW_THREADS
            found = sr_cb_grids(grids.buf, n, seed, first, untested, puzzles.buf, hits.buf);
            Py_END_ALLOW_THREADS
            result = PyLong_FromLongLong(found);
        }
    }
    PyBuffer_Release(&grids);
    PyBuffer_Release(&puzzles);
    PyBuffer_Release(&hits);
    return result;
}

static PyObject *py_count_batch(PyObject *self, PyObject *args) {
    int method, size, max_clues;
    unsigned long long seed;
    long long first;
    Py_buffer found;
    PyObject *weights_object = Py_None;
    Py_buffer weights = {0};
    if (!PyArg_ParseTuple(args, "iKLiiw*|O", &method, &seed, &first, &size, &max_clues, &found,
                          &weights_object))
        return NULL;
    if (weights_object != Py_None && PyObject_GetBuffer(weights_object, &weights, PyBUF_WRITABLE) < 0) {
        PyBuffer_Release(&found);
        return NULL;
    }
    PyObject *result = NULL;
    int64_t count = (int64_t)(found.len / (82 * 8));
    if (method != SR_SUBSETS && method != SR_SUPERSETS) {
        PyErr_SetString(PyExc_ValueError, "unknown counting method");
    } else if (size < 0 || size > 81 || max_clues > 81) {
        PyErr_SetString(PyExc_ValueError, "size and max_clues must lie in 0..81");
    } else if (weights.buf && weights.len != 8 * count) {
        PyErr_SetString(PyExc_ValueError, "weights must hold one float64 per sample");
    } else if (check_size(&found, 82 * 8, "found")) {
        int status;
        Py_BEGIN_ALLOW_THREADS
        status = sr_count_batch(method, seed, first, count, size, max_clues, found.buf, weights.buf);
        Py_END_ALLOW_THREADS
        if (status) PyErr_NoMemory();
        else {
            result = Py_None;
            Py_INCREF(result);
        }
    }
    PyBuffer_Release(&found);
    if (weights.buf) PyBuffer_Release(&weights);
    return result;
}

static PyObject *py_count_in(PyObject *self, PyObject *args) {
    int method, max_clues;
    Py_buffer grid, chosen, found;
    if (!PyArg_ParseTuple(args, "iy*y*iw*", &method, &grid, &chosen, &max_clues, &found)) return NULL;
    PyObject *result = NULL;
    if (method != SR_SUBSETS && method != SR_SUPERSETS) {
        PyErr_SetString(PyExc_ValueError, "unknown counting method");
    } else if (grid.len != 81 || chosen.len != 81 || found.len != 82 * 8) {
        PyErr_SetString(PyExc_ValueError, "count_in needs 81-byte grid and subset, 82 found counters");
    } else {
        int status;
        Py_BEGIN_ALLOW_THREADS
        status = sr_count_in(method, grid.buf, chosen.buf, max_clues, found.buf);
        Py_END_ALLOW_THREADS
        if (status) PyErr_NoMemory();
        else {
            result = Py_None;
            Py_INCREF(result);
        }
    }
    PyBuffer_Release(&grid);
    PyBuffer_Release(&chosen);
    PyBuffer_Release(&found);
    return result;
}

static PyObject *py_stream_seed(PyObject *self, PyObject *args) {
    unsigned long long seed, index;
    if (!PyArg_ParseTuple(args, "KK", &seed, &index)) return NULL;
    return PyLong_FromUnsignedLongLong(sr_stream_seed(seed, index));
}

PyMethodDef sr_generate_methods[] = {
    {"generate_batch", py_generate_batch, METH_VARARGS,
     "generate_batch(method, seed, first, untested, puzzles, tries[, weights]): puzzles first.. of the "
     "run `seed` (and the sampling weights of their grids)."},
    {"top_down_grids", py_top_down_grids, METH_VARARGS,
     "top_down_grids(grids, seed, first, puzzles): one top-down puzzle per given complete grid."},
    {"cb_grids", py_cb_grids, METH_VARARGS,
     "cb_grids(grids, seed, first, untested, puzzles, hits) -> found: controlled-bias tries on given grids."},
    {"count_batch", py_count_batch, METH_VARARGS,
     "count_batch(method, seed, first, size, max_clues, found[, weights]): minimal puzzles per "
     "counting sample (and each sample grid's sampling weight)."},
    {"count_in", py_count_in, METH_VARARGS,
     "count_in(method, grid, chosen, max_clues, found): minimal puzzles inside / around one given subset."},
    {"stream_seed", py_stream_seed, METH_VARARGS, "stream_seed(seed, index): the seed of stream `index`."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef generate_module = {
    PyModuleDef_HEAD_INIT, "_generate",
    "Compiled generators of minimal Sudoku puzzles and minimal-puzzle counting (see generator/generate.h).",
    -1, sr_generate_methods,
};

PyMODINIT_FUNC PyInit__generate(void) {
    sr_generate_init();
    return PyModule_Create(&generate_module);
}
