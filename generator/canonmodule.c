/*
 * sudorules._canon: the CPython binding of the canonical forms (canon.h).
 *
 * Batches travel as bytes-like objects through the buffer protocol (no numpy headers): N puzzles are
 * N*81 bytes (0 empty, 1..9), N pencilmark states N*81 uint16 masks.  Outputs are buffers the caller
 * allocates: the forms (same layout as the input), N int64 automorphism counts, N*29 bytes of maps
 * (transpose, rows[9], cols[9], digits[10], as sr_canon_map) and N int8 statuses (0 ok, -2 bad
 * input); the last three may be None.  The whole batch runs without the GIL, with one workspace.
 * Value checks beyond sizes are done by sudorules.generation.canonical.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <string.h>

#include "canon.h"

#define MAP_BYTES 29

enum { MODE_ANY = 0, MODE_SEARCH = 1, MODE_GRID = 2, MODE_MARKS = 3 };

static int get_buffer(PyObject *obj, Py_buffer *view, int writable, const char *name)
{
    if (obj == Py_None) {
        view->obj = NULL;
        view->buf = NULL;
        view->len = 0;
        return 0;
    }
    int flags = PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, view, flags) < 0) {
        PyErr_Format(PyExc_TypeError, "%s must be a %scontiguous bytes-like object or None", name,
                     writable ? "writable " : "");
        return -1;
    }
    return 0;
}

static void release(Py_buffer *view)
{
    if (view->obj) PyBuffer_Release(view);
}

static void pack_map(const sr_canon_map *map, uint8_t *out)
{
    out[0] = map->transpose;
    memcpy(out + 1, map->rows, 9);
    memcpy(out + 10, map->cols, 9);
    memcpy(out + 19, map->digits, 10);
}

/* canonical_batch(items, mode, forms, automorphisms, maps, statuses): mode 0 puzzles (grids by the
 * grid search), 1 puzzles by the general search only, 2 complete grids only, 3 pencilmark states. */
static PyObject *py_canonical_batch(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *in_obj, *forms_obj, *counts_obj, *maps_obj, *status_obj;
    int mode;
    if (!PyArg_ParseTuple(args, "OiOOOO:canonical_batch", &in_obj, &mode, &forms_obj, &counts_obj, &maps_obj,
                          &status_obj))
        return NULL;
    if (mode < MODE_ANY || mode > MODE_MARKS) return PyErr_Format(PyExc_ValueError, "bad mode %d", mode);
    Py_ssize_t item = 81 * (mode == MODE_MARKS ? (Py_ssize_t)sizeof(uint16_t) : 1);
    Py_buffer in, forms, counts, maps, statuses;
    if (in_obj == Py_None || forms_obj == Py_None)
        return PyErr_Format(PyExc_TypeError, "canonical_batch: items and forms are required");
    if (get_buffer(in_obj, &in, 0, "items") < 0) return NULL;
    if (get_buffer(forms_obj, &forms, 1, "forms") < 0) {
        release(&in);
        return NULL;
    }
    if (get_buffer(counts_obj, &counts, 1, "automorphisms") < 0) {
        release(&in);
        release(&forms);
        return NULL;
    }
    if (get_buffer(maps_obj, &maps, 1, "maps") < 0) {
        release(&in);
        release(&forms);
        release(&counts);
        return NULL;
    }
    if (get_buffer(status_obj, &statuses, 1, "statuses") < 0) {
        release(&in);
        release(&forms);
        release(&counts);
        release(&maps);
        return NULL;
    }
    Py_ssize_t n = in.len / item;
    PyObject *result = NULL;
    if (in.len % item || forms.len != in.len || (counts.obj && counts.len != n * (Py_ssize_t)sizeof(int64_t)) ||
        (maps.obj && maps.len != n * MAP_BYTES) || (statuses.obj && statuses.len != n)) {
        PyErr_SetString(PyExc_ValueError, "canonical_batch: items N*81 values, forms the same size, automorphisms "
                                          "N int64, maps N*29 bytes, statuses N bytes");
    } else {
        sr_canon_workspace *workspace = sr_canon_workspace_new();
        int failed = workspace == NULL;
        if (!failed) {
            Py_BEGIN_ALLOW_THREADS
            for (Py_ssize_t i = 0; i < n && !failed; ++i) {
                sr_canon_map map;
                uint64_t automorphisms = 0;
                int status;
                if (mode == MODE_MARKS) {
                    status = sr_canon_marks(workspace, (const uint16_t *)in.buf + 81 * i,
                                            (uint16_t *)forms.buf + 81 * i, &map, &automorphisms);
                } else {
                    const uint8_t *puzzle = (const uint8_t *)in.buf + 81 * i;
                    uint8_t *form = (uint8_t *)forms.buf + 81 * i;
                    status = mode == MODE_GRID     ? sr_canon_grid(workspace, puzzle, form, &map, &automorphisms)
                             : mode == MODE_SEARCH ? sr_canon_puzzle_search(workspace, puzzle, form, &map,
                                                                            &automorphisms)
                                                   : sr_canon_puzzle(workspace, puzzle, form, &map, &automorphisms);
                }
                if (status == SR_CANON_NO_MEMORY) {
                    failed = 1;
                    break;
                }
                if (status != SR_CANON_OK) {
                    memset((uint8_t *)forms.buf + item * i, 0, (size_t)item);
                    memset(&map, 0, sizeof map);
                    automorphisms = 0;
                }
                if (counts.obj) ((int64_t *)counts.buf)[i] = (int64_t)automorphisms;
                if (maps.obj) pack_map(&map, (uint8_t *)maps.buf + MAP_BYTES * i);
                if (statuses.obj) ((int8_t *)statuses.buf)[i] = (int8_t)status;
            }
            Py_END_ALLOW_THREADS
            sr_canon_workspace_free(workspace);
        }
        if (failed)
            PyErr_NoMemory();
        else
            result = Py_NewRef(Py_None);
    }
    release(&in);
    release(&forms);
    release(&counts);
    release(&maps);
    release(&statuses);
    return result;
}

static PyMethodDef methods[] = {
    {"canonical_batch", py_canonical_batch, METH_VARARGS,
     "canonical_batch(items, mode, forms, automorphisms, maps, statuses) -> None (GIL released): mode 0 "
     "puzzles, 1 puzzles by the general search only, 2 complete grids, 3 pencilmark states (uint16)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_canon",
    "Canonical (minlex) forms of puzzles, grids and pencilmark states (use sudorules.generation.canonical).",
    -1, methods,
};

PyMODINIT_FUNC PyInit__canon(void) { return PyModule_Create(&module); }
