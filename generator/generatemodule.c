/*
 * sudorules._generate: the Python face of generate.c.  Arrays cross as contiguous buffers (numpy arrays
 * allocated by sudorules.generation.generate), so no numpy headers are needed; every call releases the GIL.
 * A Stop object wraps one sr_stop: the threads of a run share it, and stop.set() (from any thread, for
 * instance on Ctrl-C) makes the calls running with it return early with the work they completed.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <math.h>

#include "generate.h"

/* ---- Stop ------------------------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    sr_stop stop;
} StopObject;

static PyObject *stop_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    if (!PyArg_ParseTuple(args, ":Stop") || (kwargs && PyDict_Size(kwargs))) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "Stop() takes no arguments");
        return NULL;
    }
    StopObject *self = (StopObject *)type->tp_alloc(type, 0);
    if (self) sr_stop_init(&self->stop);
    return (PyObject *)self;
}

static PyObject *stop_set(PyObject *self, PyObject *unused) {
    sr_stop_request(&((StopObject *)self)->stop);
    Py_RETURN_NONE;
}

static PyObject *stop_is_set(PyObject *self, PyObject *unused) {
    return PyBool_FromLong(sr_stop_requested(&((StopObject *)self)->stop));
}

static PyMethodDef stop_methods[] = {
    {"set", stop_set, METH_NOARGS, "Ask every call running with this Stop to return as soon as it can."},
    {"is_set", stop_is_set, METH_NOARGS, "True once set() was called."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject StopType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "sudorules._generate.Stop",
    .tp_basicsize = sizeof(StopObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Stop(): a stop request shared by the calls of one run (generate_batch, top_down_grids, "
              "cb_grids, count_batch); set() makes them return early with their completed work.",
    .tp_new = stop_new,
    .tp_methods = stop_methods,
};

/* The sr_stop of an optional Stop argument (None: NULL); -1 with an exception for anything else. */
static int stop_of(PyObject *object, const sr_stop **stop) {
    *stop = NULL;
    if (object == NULL || object == Py_None) return 0;
    if (!PyObject_TypeCheck(object, &StopType)) {
        PyErr_SetString(PyExc_TypeError, "stop must be a Stop or None");
        return -1;
    }
    *stop = &((StopObject *)object)->stop;
    return 0;
}

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
    PyObject *weights_object = Py_None, *stop_object = Py_None;
    Py_buffer weights = {0};
    const sr_stop *stop;
    if (!PyArg_ParseTuple(args, "iKLiw*w*|OO", &method, &seed, &first, &untested, &puzzles, &tries,
                          &weights_object, &stop_object))
        return NULL;
    if (stop_of(stop_object, &stop) < 0 ||
        (weights_object != Py_None && PyObject_GetBuffer(weights_object, &weights, PyBUF_WRITABLE) < 0)) {
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
            int64_t made;
            Py_BEGIN_ALLOW_THREADS
            made = sr_generate_batch(method, seed, first, count, untested, puzzles.buf, tries.buf, weights.buf,
                                     stop);
            Py_END_ALLOW_THREADS
            result = PyLong_FromLongLong(made);
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
    PyObject *stop_object = Py_None;
    const sr_stop *stop = NULL;
    if (!PyArg_ParseTuple(args, "y*KLw*|O", &grids, &seed, &first, &puzzles, &stop_object)) return NULL;
    PyObject *result = NULL;
    if (stop_of(stop_object, &stop) == 0 && check_size(&grids, 81, "grids")) {
        if (puzzles.len != grids.len) {
            PyErr_SetString(PyExc_ValueError, "grids and puzzles have different lengths");
        } else {
            int64_t done;
            Py_BEGIN_ALLOW_THREADS
            done = sr_top_down_grids(grids.buf, (int64_t)(grids.len / 81), seed, first, puzzles.buf, stop);
            Py_END_ALLOW_THREADS
            result = PyLong_FromLongLong(done);
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
    PyObject *stop_object = Py_None;
    const sr_stop *stop = NULL;
    if (!PyArg_ParseTuple(args, "y*KLiw*w*|O", &grids, &seed, &first, &untested, &puzzles, &hits, &stop_object))
        return NULL;
    PyObject *result = NULL;
    if (stop_of(stop_object, &stop) == 0 && check_size(&grids, 81, "grids")) {
        int64_t n = (int64_t)(grids.len / 81);
        if (puzzles.len != grids.len || hits.len != 8 * n) {
            PyErr_SetString(PyExc_ValueError, "puzzles and hits must hold one entry per grid");
        } else {
            int64_t found, done;
            Py_BEGIN_ALLOW_THREADS
            found = sr_cb_grids(grids.buf, n, seed, first, untested, puzzles.buf, hits.buf, stop, &done);
            Py_END_ALLOW_THREADS
            result = Py_BuildValue("LL", (long long)found, (long long)done);
        }
    }
    PyBuffer_Release(&grids);
    PyBuffer_Release(&puzzles);
    PyBuffer_Release(&hits);
    return result;
}

/* cb_path(grid, order, untested) -> (clues, puzzle): one controlled-bias decision for a given deletion
 * order, the definition that tests check sr_cb_try's shortcuts against. */
static PyObject *py_cb_path(PyObject *self, PyObject *args) {
    Py_buffer grid, order;
    int untested;
    if (!PyArg_ParseTuple(args, "y*y*i", &grid, &order, &untested)) return NULL;
    PyObject *result = NULL;
    if (grid.len != 81 || order.len != 81) {
        PyErr_SetString(PyExc_ValueError, "cb_path needs an 81-byte grid and an 81-byte order");
    } else {
        const uint8_t *g = grid.buf, *o = order.buf;
        int complete = 1, seen[81] = {0}, permutation = 1;
        for (int k = 0; k < 81; k++) {
            complete &= g[k] >= 1 && g[k] <= 9;
            if (o[k] > 80 || seen[o[k]]++) permutation = 0;
        }
        if (!complete || sr_count_solutions(g, 1, NULL) != 1) {
            PyErr_SetString(PyExc_ValueError, "cb_path: the grid is not a complete valid grid");
        } else if (!permutation) {
            PyErr_SetString(PyExc_ValueError, "cb_path: the order is not a permutation of the cells 0..80");
        } else if (untested < 0 || untested > 64) {
            PyErr_SetString(PyExc_ValueError, "cb_path: untested must lie in 0..64");
        } else {
            uint8_t puzzle[81] = {0};
            int clues;
            Py_BEGIN_ALLOW_THREADS
            clues = sr_cb_path(g, o, untested, puzzle);
            Py_END_ALLOW_THREADS
            result = Py_BuildValue("iy#", clues, (const char *)puzzle, (Py_ssize_t)81);
        }
    }
    PyBuffer_Release(&grid);
    PyBuffer_Release(&order);
    return result;
}

static PyObject *py_count_batch(PyObject *self, PyObject *args) {
    int method, size, max_clues;
    unsigned long long seed;
    long long first;
    Py_buffer found;
    PyObject *weights_object = Py_None, *stop_object = Py_None, *seconds_object = Py_None;
    Py_buffer weights = {0};
    const sr_stop *stop;
    double deadline = HUGE_VAL;
    if (!PyArg_ParseTuple(args, "iKLiiw*|OOO", &method, &seed, &first, &size, &max_clues, &found,
                          &weights_object, &stop_object, &seconds_object))
        return NULL;
    if (seconds_object != Py_None) {
        double seconds = PyFloat_AsDouble(seconds_object);
        if (seconds == -1.0 && PyErr_Occurred()) {
            PyBuffer_Release(&found);
            return NULL;
        }
        deadline = sr_clock() + seconds;
    }
    if (stop_of(stop_object, &stop) < 0 ||
        (weights_object != Py_None && PyObject_GetBuffer(weights_object, &weights, PyBUF_WRITABLE) < 0)) {
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
        int64_t done;
        int abandoned;
        Py_BEGIN_ALLOW_THREADS
        done = sr_count_batch(method, seed, first, count, size, max_clues, found.buf, weights.buf, stop, deadline,
                              &abandoned);
        Py_END_ALLOW_THREADS
        if (done < 0) PyErr_NoMemory();
        else result = Py_BuildValue("Li", (long long)done, abandoned);
    }
    PyBuffer_Release(&found);
    if (weights.buf) PyBuffer_Release(&weights);
    return result;
}

static PyObject *py_count_in(PyObject *self, PyObject *args) {
    int method, max_clues;
    Py_ssize_t visited_slots = 0;
    Py_buffer grid, chosen, found;
    if (!PyArg_ParseTuple(args, "iy*y*iw*|n", &method, &grid, &chosen, &max_clues, &found, &visited_slots))
        return NULL;
    PyObject *result = NULL;
    if (method != SR_SUBSETS && method != SR_SUPERSETS) {
        PyErr_SetString(PyExc_ValueError, "unknown counting method");
    } else if (grid.len != 81 || chosen.len != 81 || found.len != 82 * 8) {
        PyErr_SetString(PyExc_ValueError, "count_in needs 81-byte grid and subset, 82 found counters");
    } else {
        int status;
        Py_BEGIN_ALLOW_THREADS
        status = sr_count_in(method, grid.buf, chosen.buf, max_clues, found.buf,
                             visited_slots > 0 ? (size_t)visited_slots : 0);
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
     "generate_batch(method, seed, first, untested, puzzles, tries[, weights[, stop]]) -> made: puzzles "
     "first.. of the run `seed` (and the sampling weights of their grids); fewer than asked when stopped."},
    {"top_down_grids", py_top_down_grids, METH_VARARGS,
     "top_down_grids(grids, seed, first, puzzles[, stop]) -> done: one top-down puzzle per given complete "
     "grid, for the first `done` grids (all unless stopped)."},
    {"cb_grids", py_cb_grids, METH_VARARGS,
     "cb_grids(grids, seed, first, untested, puzzles, hits[, stop]) -> (found, done): controlled-bias tries "
     "on the first `done` given grids (all unless stopped)."},
    {"cb_path", py_cb_path, METH_VARARGS,
     "cb_path(grid, order, untested) -> (clues, puzzle): the controlled-bias decision for the deletion order "
     "`order` (81 bytes, the cell deleted i-th at i): the path's last unique puzzle and its clue count when "
     "it is minimal, else (0, 81 zero bytes)."},
    {"count_batch", py_count_batch, METH_VARARGS,
     "count_batch(method, seed, first, size, max_clues, found[, weights[, stop[, seconds]]]) -> (done, "
     "abandoned): minimal puzzles per counting sample (and each sample grid's sampling weight) for the "
     "first `done` samples; the run stops early when `stop` is set or after `seconds`, abandoned = 1 "
     "when it left a started sample unfinished."},
    {"count_in", py_count_in, METH_VARARGS,
     "count_in(method, grid, chosen, max_clues, found[, visited_slots]): minimal puzzles inside / around one "
     "given subset (visited_slots: a smaller cap on the subsets cache, for tests; the counts do not change)."},
    {"stream_seed", py_stream_seed, METH_VARARGS, "stream_seed(seed, index): the seed of stream `index`."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef generate_module = {
    PyModuleDef_HEAD_INIT, "_generate",
    "Compiled generators of minimal Sudoku puzzles and minimal-puzzle counting (see generator/generate.h).",
    -1, sr_generate_methods,
};

PyMODINIT_FUNC PyInit__generate(void) {
    if (PyType_Ready(&StopType) < 0) return NULL;
    PyObject *module = PyModule_Create(&generate_module);
    if (!module) return NULL;
    Py_INCREF(&StopType);
    if (PyModule_AddObject(module, "Stop", (PyObject *)&StopType) < 0) {
        Py_DECREF(&StopType);
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
