/*
 * sudorules._trial: the Python binding of trial.c (the trial propagation and the chain searches) and of
 * te.c (the T&E engine and the compiled raters).  What each function computes, and why, is said in
 * those files; this one only converts arguments and results.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <limits.h>
#include <stdint.h>
#include <string.h>

#include <time.h>

#include "te.h"

/* The value of an int object in *value (LONG_MIN if it does not fit a long: no label, g-label or
 * sensible limit is that far out), 0; or -1 with a TypeError set (`what` names the argument). */
static int int_value(PyObject *item, const char *what, long *value)
{
    PyObject *number;
    if (PyLong_Check(item)) {
        number = item;
        Py_INCREF(number);
    } else if (PyIndex_Check(item)) {
        number = PyNumber_Index(item);
        if (number == NULL) return -1;
    } else {
        PyErr_Format(PyExc_TypeError, "%s must be ints, got %.100s", what, Py_TYPE(item)->tp_name);
        return -1;
    }
    int overflow = 0;
    *value = PyLong_AsLongAndOverflow(number, &overflow);
    Py_DECREF(number);
    if (*value == -1 && !overflow && PyErr_Occurred()) return -1;
    if (overflow) *value = overflow > 0 ? LONG_MAX : LONG_MIN;
    return 0;
}

/* The index of label 100*digit + 10*row + col (each 1..9), else -1 (no error set). */
static int label_of(long value)
{
    int n = (int)(value / 100), r = (int)(value / 10 % 10), c = (int)(value % 10);
    if (value < 111 || value > 999 || r == 0 || c == 0) return -1;
    return label_index(n - 1, r - 1, c - 1);
}

/* The index of one label object, or -1 with a TypeError / ValueError set. */
static int parse_label(PyObject *item, const char *what)
{
    long value;
    if (int_value(item, what, &value) < 0) return -1;
    int i = label_of(value);
    if (i < 0)
        PyErr_Format(PyExc_ValueError, "%s: %R is not a label 100*digit + 10*row + col (each 1..9)", what,
                     item);
    return i;
}

/* Fill `c` from a sequence (any iterable) of labels; 0, or -1 with an error set.  Items are fetched
 * one by one (an __index__ could change a list while it is read). */
static int read_labels(PyObject *obj, Cands *c)
{
    memset(c, 0, sizeof *c);
    PyObject *seq = PySequence_Fast(obj, "labels must be a sequence of ints");
    if (seq == NULL) return -1;
    for (Py_ssize_t j = 0; j < PySequence_Fast_GET_SIZE(seq); ++j) {
        PyObject *item = PySequence_Fast_GET_ITEM(seq, j);
        Py_INCREF(item);
        int i = parse_label(item, "labels");
        Py_DECREF(item);
        if (i < 0) {
            Py_DECREF(seq);
            return -1;
        }
        put(c->present, i);
    }
    Py_DECREF(seq);
    sr_cands_index(c);
    return 0;
}

static PyObject *py_depths(PyObject *self, PyObject *args, PyObject *kwargs)
{
    (void)self;
    static char *kwlist[] = {"labels", "targets", "g", "limit", NULL};
    PyObject *labels_obj, *targets_obj;
    int g;
    long limit;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOpl:depths", kwlist, &labels_obj, &targets_obj, &g,
                                     &limit))
        return NULL;
    if (limit < 1) return PyErr_Format(PyExc_ValueError, "limit must be >= 1, got %ld", limit);

    Cands st;
    if (read_labels(labels_obj, &st) < 0) return NULL;

    PyObject *seq = PySequence_Fast(targets_obj, "targets must be a sequence of ints");
    if (seq == NULL) return NULL;
    /* index, then depth (below 729 + 972: each round assumes a new label or g-label), of each target;
     * all are checked before any propagation */
    Py_ssize_t n_targets = PySequence_Fast_GET_SIZE(seq);
    uint16_t *work = PyMem_Malloc((size_t)(n_targets > 0 ? n_targets : 1) * sizeof *work);
    if (work == NULL) {
        Py_DECREF(seq);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t j = 0; j < n_targets; ++j) {
        if (j >= PySequence_Fast_GET_SIZE(seq)) { /* shortened by an __index__ */
            PyErr_SetString(PyExc_RuntimeError, "targets changed size while read");
            PyMem_Free(work);
            Py_DECREF(seq);
            return NULL;
        }
        PyObject *item = PySequence_Fast_GET_ITEM(seq, j);
        Py_INCREF(item);
        int i = parse_label(item, "targets");
        if (i >= 0 && !has(st.present, i)) {
            PyErr_Format(PyExc_ValueError, "target %R is not among the labels", item);
            i = -1;
        }
        Py_DECREF(item);
        if (i < 0) {
            PyMem_Free(work);
            Py_DECREF(seq);
            return NULL;
        }
        work[j] = (uint16_t)i;
    }
    Py_DECREF(seq);

    static const uint64_t no_g[WG];
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t j = 0; j < n_targets; ++j) {
        uint64_t target[W] = {0};
        put(target, work[j]);
        work[j] = (uint16_t)sr_propagate(&st, target, no_g, g, limit);
    }
    Py_END_ALLOW_THREADS

    PyObject *result = PyList_New(n_targets);
    for (Py_ssize_t j = 0; result != NULL && j < n_targets; ++j) {
        PyObject *d = PyLong_FromLong(work[j]);
        if (d == NULL) Py_CLEAR(result);
        else PyList_SET_ITEM(result, j, d);
    }
    PyMem_Free(work);
    return result;
}

/* ---- State: the candidates built once, for many propagations from several assumptions --------- */

typedef struct {
    PyObject_HEAD
    Cands cands; /* written by State_new only */
    /* The cache tag of its braid_chain searches (trial.c, sr_cache_tag): a partial braid that failed
     * from one target fails from every other in the same state, so the searches of one state share
     * their failures, as those of a rating's closure do (te.c).  #182's gB path: see Engine._lean_whip. */
    uint64_t cache_tag;
} StateObject;

static PyObject *State_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"labels", NULL};
    PyObject *labels_obj;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O:State", kwlist, &labels_obj)) return NULL;
    StateObject *self = (StateObject *)type->tp_alloc(type, 0);
    if (self == NULL) return NULL;
    if (read_labels(labels_obj, &self->cands) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    self->cache_tag = sr_cache_tag();
    return (PyObject *)self;
}

/* depth(assumed, g, limit, /): positional only (METH_FASTCALL), as the engine calls it. */
static PyObject *State_depth(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    const Cands *c = &((StateObject *)self)->cands;
    if (nargs != 3)
        return PyErr_Format(PyExc_TypeError,
                            "depth() takes exactly 3 positional arguments (assumed, g, limit), %zd given", nargs);
    int g = args[1] == Py_True ? 1 : args[1] == Py_False ? 0 : PyObject_IsTrue(args[1]);
    if (g < 0) return NULL;
    long limit;
    if (int_value(args[2], "limit", &limit) < 0) return NULL;
    if (limit < 1) return PyErr_Format(PyExc_ValueError, "limit must be >= 1, got %R", args[2]);

    uint64_t assumed[W] = {0}, g_assumed[WG] = {0};
    PyObject *seq = PySequence_Fast(args[0], "assumed must be a sequence of ints");
    if (seq == NULL) return NULL;
    if (PySequence_Fast_GET_SIZE(seq) == 0) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "assumed is empty");
        return NULL;
    }
    for (Py_ssize_t j = 0; j < PySequence_Fast_GET_SIZE(seq); ++j) {
        PyObject *item = PySequence_Fast_GET_ITEM(seq, j);
        long value;
        Py_INCREF(item);
        int bad = int_value(item, "assumed", &value);
        if (!bad) {
            int i = label_of(value);
            int k = value >= G_ID_MIN && value <= G_ID_MAX ? G_INDEX[value - G_ID_MIN] : -1;
            if (i >= 0 && has(c->present, i)) put(assumed, i);
            else if (k >= 0) put(g_assumed, k);
            else {
                bad = 1;
                if (i >= 0) PyErr_Format(PyExc_ValueError, "assumed label %R is not among the labels", item);
                else PyErr_Format(PyExc_ValueError, "assumed: %R is neither a label nor a g-label", item);
            }
        }
        Py_DECREF(item);
        if (bad) {
            Py_DECREF(seq);
            return NULL;
        }
    }
    Py_DECREF(seq);
    return PyLong_FromLong(sr_propagate(c, assumed, g_assumed, g, limit));
}


/* The arguments of whip() and braid(), (target, g, limit, budget), or of g_whip(), (target, limit, budget)
 * with g true (`with_g` 0), checked: 0, or -1 with an error set.  `limit` comes back at most 81 (no
 * chain is longer). */
typedef struct {
    int z, g, limit;
    long budget;
} SearchArgs;

static int search_args(const Cands *c, const char *name, int with_g, PyObject *const *args, Py_ssize_t nargs,
                       SearchArgs *a)
{
    if (nargs != 3 + with_g) {
        PyErr_Format(PyExc_TypeError, "%s() takes exactly %d positional arguments (target, %slimit, budget), %zd given",
                     name, 3 + with_g, with_g ? "g, " : "", nargs);
        return -1;
    }
    a->z = parse_label(args[0], "target");
    if (a->z < 0) return -1;
    if (!has(c->present, a->z)) {
        PyErr_Format(PyExc_ValueError, "target %R is not among the labels", args[0]);
        return -1;
    }
    a->g = with_g ? PyObject_IsTrue(args[1]) : 1;
    if (a->g < 0) return -1;
    PyObject *const *rest = args + 1 + with_g; /* limit, budget */
    long limit;
    if (int_value(rest[0], "limit", &limit) < 0 || int_value(rest[1], "budget", &a->budget) < 0) return -1;
    if (limit < 1) {
        PyErr_Format(PyExc_ValueError, "limit must be >= 1, got %R", rest[0]);
        return -1;
    }
    if (a->budget < 1) {
        PyErr_Format(PyExc_ValueError, "budget must be >= 1, got %R", rest[1]);
        return -1;
    }
    a->limit = limit > 81 ? 81 : (int)limit;
    return 0;
}

/* labels.py's id of g-label k (the inverse of G_INDEX) */
static int g_label_id(int k)
{
    for (int j = 0; j <= G_ID_MAX - G_ID_MIN; ++j)
        if (G_INDEX[j] == k) return G_ID_MIN + j;
    return 0;
}

/* labels.py's integers: a label 100n + 10r + c, a variable 100 (kind + 1) + 10a + b */
static long label_value(int i) { return 100 * (i / 81 + 1) + 10 * (i / 9 % 9 + 1) + i % 9 + 1; }
static long variable_value(int v) { return 100 * (v / 81 + 1) + 10 * (v % 81 / 9 + 1) + v % 9 + 1; }

/* The poll of the searches whose chains the engine records (braid_chain, whip_chain, chain): they may
 * run for seconds (a node is 0.1-1 us, their budget 200 million nodes), so a signal (Ctrl-C, kill) is
 * handled during one, not after it (measured: `solve` of top1465 #182 under gB took 5.5 s to obey a
 * SIGINT), and so is the engine's time limit, given as an optional last argument `deadline` (seconds
 * since the epoch, time.time()'s clock; 0: none): `solve --theory gBC --time-limit 20` of a W6 puzzle
 * of cb-001 ended after 29.7 s, its g-bivalue-chain searches (chain(), 0.7 s at most each, a thousand
 * of them a level) read the clock only once CLIPS had finished a level.  A handler that raises, or
 * the deadline (TimeoutError), makes the search stop; the method then returns NULL with its exception
 * set. */
typedef struct {
    double deadline; /* seconds since the epoch, 0 for none */
    int timed_out, signalled;
} Poll;

static double now_seconds(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int te_poll(void *arg)
{
    Poll *p = arg;
    if (PyErr_CheckSignals() < 0) {
        p->signalled = 1;
        return 1;
    }
    if (p->deadline > 0 && now_seconds() > p->deadline) {
        p->timed_out = 1;
        return 1;
    }
    return 0;
}

/* te_poll for a chain method: the deadline passed is a TimeoutError. */
static int chain_poll(void *arg)
{
    if (!te_poll(arg)) return 0;
    if (((Poll *)arg)->timed_out) PyErr_SetString(PyExc_TimeoutError, "the time limit was reached during a chain search");
    return 1;
}

/* The optional last argument `deadline` of a chain method taking `fixed` arguments before it: 0 (none)
 * or -1 with an error set. */
static int deadline_arg(const char *name, PyObject *const *args, Py_ssize_t nargs, Py_ssize_t fixed, Poll *poll)
{
    *poll = (Poll){0, 0, 0};
    if (nargs <= fixed) return 0;
    poll->deadline = PyFloat_AsDouble(args[fixed]);
    if (poll->deadline == -1.0 && PyErr_Occurred()) {
        PyErr_Format(PyExc_TypeError, "%s(): deadline must be a number of seconds, got %R", name, args[fixed]);
        return -1;
    }
    return 0;
}

/* A right-linking object in the engine's integers: a label, a g-label id, 0 for none (-1). */
static long rlc_value(int r) { return r < 0 ? 0 : r < NL ? label_value(r) : g_label_id(r - NL); }

/* A tuple of the n ints of `values`, or NULL with an error set. */
static PyObject *ints_tuple(const long *values, Py_ssize_t n)
{
    PyObject *out = PyTuple_New(n);
    if (out == NULL) return NULL;
    for (Py_ssize_t j = 0; j < n; ++j) {
        PyObject *x = PyLong_FromLong(values[j]);
        if (x == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, j, x);
    }
    return out;
}

/* A chain found by a search as a tuple of 2 * n ints: each cell's variable and right-linking object
 * (a label, a g-label id, 0 for the last cell), in the engine's integers. */
static PyObject *chain_tuple(const SrChain *chain)
{
    long values[2 * SR_MAX_CHAIN];
    for (int k = 0; k < chain->n; ++k) {
        values[2 * k] = variable_value(chain->var[k]);
        values[2 * k + 1] = rlc_value(chain->rlc[k]);
    }
    return ints_tuple(values, 2 * chain->n);
}

/* A search's answer as the chain methods give it: the chain, 0 (none), -1 (out of budget), or NULL with
 * the exception a signal handler raised (stopped). */
static PyObject *chain_answer(int found, const SrChain *chain)
{
    if (found == SR_STOPPED) return NULL;
    if (found != SR_FOUND) return PyLong_FromLong(found == SR_NONE ? 0 : -1);
    return chain_tuple(chain);
}

/* whip(target, g, limit, budget, /): 1 if a whip (with g, a whip or a g-whip) of length <= limit exists
 * on target in this state, 0 if none, -1 if the search visited `budget` partial whips without
 * deciding.  (A version also returned the candidates whose removal could turn a 0 into a 1, so that
 * the engine could skip targets whose answer could not have changed since the last step: it spared
 * ~10 % of the searches of W4 puzzles and cost as much in recording them.) */
static PyObject *whip_search(const Cands *c, const SearchArgs *a, int need_g)
{
    SrCtl ctl = {.budget = a->budget};
    int found = sr_whip(c, a->z, a->g, need_g, 0, a->limit, &ctl, NULL);
    return PyLong_FromLong(found == SR_BUDGET ? -1 : found);
}

/* whip_chain(target, g, need_g, strict, limit, budget[, deadline], /): a whip (g: a whip or a g-whip; need_g: a
 * g-whip with a g-rlc) of length <= limit on target, loopless if strict (trial.c, sr_whip), as
 * chain_tuple gives it: the search does not return its left-linking candidates (Python chooses them:
 * order.whip_lefts); 0 if none; -1 if the search visited `budget` partial whips without deciding. */
static PyObject *State_whip_chain(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    const Cands *c = &((StateObject *)self)->cands;
    if (nargs != 6 && nargs != 7)
        return PyErr_Format(PyExc_TypeError, "whip_chain() takes 6 or 7 positional arguments (target, g, "
                                             "need_g, strict, limit, budget[, deadline]), %zd given", nargs);
    int need_g = PyObject_IsTrue(args[2]), strict = PyObject_IsTrue(args[3]);
    if (need_g < 0 || strict < 0) return NULL;
    PyObject *rest[4] = {args[0], args[1], args[4], args[5]};
    SearchArgs a;
    Poll poll;
    if (search_args(c, "whip_chain", 1, rest, 4, &a) < 0 || deadline_arg("whip_chain", args, nargs, 6, &poll) < 0)
        return NULL;
    SrCtl ctl = {.budget = a.budget, .poll = chain_poll, .poll_arg = &poll};
    SrChain chain;
    return chain_answer(sr_whip(c, a.z, a.g, need_g, strict, a.limit, &ctl, &chain), &chain);
}

static PyObject *State_whip(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    const Cands *c = &((StateObject *)self)->cands;
    SearchArgs a;
    if (search_args(c, "whip", 1, args, nargs, &a) < 0) return NULL;
    return whip_search(c, &a, 0);
}

/* g_whip(target, limit, budget, /): the same for a g-whip proper, a whip with at least one g-rlc: what
 * g-whip[n] rules find (g-whip.clp), where whip(target, True, ...) also says yes for a plain whip.  The
 * engine builds a target's partial g-whips only once it may carry one (Engine._whip_targets): most of
 * the targets it focuses carry a plain whip (73 of 74 on line 12301 of cb-001 in gB, 37 of 38 on line
 * 7462), and their partial g-whips were most of CLIPS's work there. */
static PyObject *State_g_whip(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    const Cands *c = &((StateObject *)self)->cands;
    SearchArgs a;
    if (search_args(c, "g_whip", 0, args, nargs, &a) < 0) return NULL;
    return whip_search(c, &a, 1);
}

/* braid(target, g, limit, budget, /): 1 if a braid (with g, a braid or a g-braid) of length <= limit may
 * exist on target in this state (the search is permissive: see its section in trial.c), 0 if none, -1
 * if the search visited `budget` partial braids without deciding. */
static PyObject *State_braid(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    const Cands *c = &((StateObject *)self)->cands;
    SearchArgs a;
    if (search_args(c, "braid", 1, args, nargs, &a) < 0) return NULL;
    SrCtl ctl = {.budget = a.budget};
    int found = sr_braid(c, a.z, a.g, 0, a.limit, &ctl, NULL);
    return PyLong_FromLong(found == SR_BUDGET ? -1 : found);
}

/* braid_chain(target, g, limit, budget[, deadline], /): a braid (with g, a braid or a g-braid) of length <= limit on
 * target, by the search that follows the definitions (strict, as the compiled raters use it), as
 * chain_tuple gives it (its cells in a valid order); 0 if there is none; -1 if the search visited
 * `budget` partial braids without deciding.  The engine records it as the rules record a braid they
 * found (driver.py, Engine._lean_braid). */
static PyObject *State_braid_chain(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    const Cands *c = &((StateObject *)self)->cands;
    SearchArgs a;
    Poll poll;
    if (deadline_arg("braid_chain", args, nargs, 4, &poll) < 0 ||
        search_args(c, "braid_chain", 1, args, nargs == 5 ? 4 : nargs, &a) < 0) /* 5: a deadline */
        return NULL;
    SrCtl ctl = {.budget = a.budget, .poll = chain_poll, .poll_arg = &poll,
                 .cache_tag = ((StateObject *)self)->cache_tag};
    SrChain chain;
    return chain_answer(sr_braid(c, a.z, a.g, 1, a.limit, &ctl, &chain), &chain);
}

/* chain(target, mode, length, typed, budget[, deadline], /): a chain of exactly `length` cells on target in this
 * state (see "special chains" above): a tuple of 3 * length ints, variable, left-linking label and
 * right-linking object of each cell (a label, a g-label id 10 * variable + segment, or 0 for the dot of
 * a last cell); 0 if none; -1 if the search visited `budget` partial chains without deciding. */
static PyObject *State_chain(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    const Cands *c = &((StateObject *)self)->cands;
    if (nargs != 5 && nargs != 6)
        return PyErr_Format(PyExc_TypeError, "chain() takes 5 or 6 positional arguments (target, mode, length, "
                                             "typed, budget[, deadline]), %zd given", nargs);
    Poll poll;
    if (deadline_arg("chain", args, nargs, 5, &poll) < 0) return NULL;
    int z = parse_label(args[0], "target");
    if (z < 0) return NULL;
    if (!has(c->present, z)) return PyErr_Format(PyExc_ValueError, "target %R is not among the labels", args[0]);
    static const char *const names[] = {"whip", "z", "t", "biv", "g-biv"};
    int mode = -1;
    if (PyUnicode_Check(args[1]))
        for (int m = 0; m < 5; ++m)
            if (PyUnicode_CompareWithASCIIString(args[1], names[m]) == 0) mode = m;
    if (mode < 0)
        return PyErr_Format(PyExc_ValueError, "mode must be one of whip, z, t, biv, g-biv, got %R", args[1]);
    long length, budget;
    if (int_value(args[2], "length", &length) < 0 || int_value(args[4], "budget", &budget) < 0) return NULL;
    if (length < 1 || length > SR_MAX_CHAIN)
        return PyErr_Format(PyExc_ValueError, "length must be 1..%d, got %R", SR_MAX_CHAIN, args[2]);
    if (budget < 1) return PyErr_Format(PyExc_ValueError, "budget must be >= 1, got %R", args[4]);
    int typed = PyObject_IsTrue(args[3]);
    if (typed < 0) return NULL;

    SrCtl ctl = {.budget = budget, .poll = chain_poll, .poll_arg = &poll};
    int16_t cells[3 * SR_MAX_CHAIN];
    int found = sr_chain(c, z, mode, (int)length, typed, &ctl, cells);
    if (found == SR_STOPPED) return NULL;
    if (found != SR_FOUND) return PyLong_FromLong(found == SR_NONE ? 0 : -1);
    long values[3 * SR_MAX_CHAIN];
    for (int k = 0; k < length; ++k) {
        values[3 * k] = variable_value(cells[3 * k]);
        values[3 * k + 1] = label_value(cells[3 * k + 1]);
        values[3 * k + 2] = rlc_value(cells[3 * k + 2]);
    }
    return ints_tuple(values, 3 * length);
}

static PyMethodDef State_methods[] = {
    {"depth", (PyCFunction)(void (*)(void))State_depth, METH_FASTCALL,
     "depth($self, assumed, g, limit, /)\n--\n\n"
     "The round (1..limit) in which the trial propagation from all of `assumed` (a non-empty sequence of "
     "labels among the state's and g-label ids 10*variable + segment) contradicts, with g-labels if g; 0 "
     "if it does not within limit (>= 1) rounds."},
    {"whip", (PyCFunction)(void (*)(void))State_whip, METH_FASTCALL,
     "whip($self, target, g, limit, budget, /)\n--\n\n"
     "1 if a whip (SPEC 4.2; with g, a whip or a g-whip, SPEC 4.5) of length <= limit exists on target "
     "(a label among the state's), 0 if none, -1 if the search visited budget partial whips without "
     "deciding."},
    {"g_whip", (PyCFunction)(void (*)(void))State_g_whip, METH_FASTCALL,
     "g_whip($self, target, limit, budget, /)\n--\n\n"
     "1 if a g-whip (SPEC 4.5) with at least one g-candidate as right-linking object and of length <= "
     "limit exists on target (a label among the state's), 0 if none, -1 if the search visited budget "
     "partial whips without deciding."},
    {"chain", (PyCFunction)(void (*)(void))State_chain, METH_FASTCALL,
     "chain($self, target, mode, length, typed, budget, deadline=0, /)\n--\n\n"
     "A chain of exactly length cells on target (a label among the state's) of one mode: whip (typed "
     "whips), z (z-chains), t (t-whips), biv (bivalue-chains), g-biv (g-bivalue-chains); with typed, all "
     "its variables of one kind.  A tuple (variable, left-linking, right-linking) per cell, in the "
     "engine's integers (0: no right-linking candidate); 0 if none; -1 if the search visited budget "
     "partial chains without deciding.  "
     "A deadline (seconds since the epoch, time.time(); 0: none) stops the search with TimeoutError."},
    {"braid", (PyCFunction)(void (*)(void))State_braid, METH_FASTCALL,
     "braid($self, target, g, limit, budget, /)\n--\n\n"
     "1 if a braid (SPEC 4.4; with g, a braid or a g-braid, SPEC 4.5) of length <= limit may exist on "
     "target (a label among the state's): the search may say 1 where the rules find none, never 0 where "
     "they find one; 0 if none, -1 if it visited budget partial braids without deciding."},
    {"braid_chain", (PyCFunction)(void (*)(void))State_braid_chain, METH_FASTCALL,
     "braid_chain($self, target, g, limit, budget, deadline=0, /)\n--\n\n"
     "A braid (SPEC 4.4; with g, a braid or a g-braid, SPEC 4.5) of length <= limit on target (a label "
     "among the state's), found by the search that follows the definitions: a tuple (variable, "
     "right-linking object) per cell in a valid order, in the engine's integers (0: the last cell's); 0 if "
     "none, -1 if the search visited budget partial braids without deciding.  "
     "A deadline (seconds since the epoch, time.time(); 0: none) stops the search with TimeoutError."},
    {"whip_chain", (PyCFunction)(void (*)(void))State_whip_chain, METH_FASTCALL,
     "whip_chain($self, target, g, need_g, strict, limit, budget, deadline=0, /)\n--\n\n"
     "A whip (SPEC 4.2; with g, a whip or a g-whip; with need_g, a g-whip with a g-rlc, SPEC 4.5) of "
     "length <= limit on target (a label among the state's): a tuple (variable, right-linking object) "
     "per cell, in the engine's integers (0: the last cell's), left-linking candidates not given; not "
     "strict, the search lets a left-linking candidate repeat, strict it does not (loopless, as the "
     "rules); 0 if none, -1 if the search visited budget partial whips without deciding.  "
     "A deadline (seconds since the epoch, time.time(); 0: none) stops the search with TimeoutError."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject StateType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sudorules._trial.State",
    .tp_basicsize = sizeof(StateObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "State(labels)\n--\n\n"
              "The candidates (labels 100*digit + 10*row + col), indexed once for many State.depth calls; "
              "immutable.",
    .tp_new = State_new,
    .tp_methods = State_methods,
};

/* ---- the T&E engine and the raters (te.c) ----------------------------------------------------- */

/* 81 cell masks (bit d-1 for digit d) from a sequence of 81 ints in 0..511; 0 or -1 with an error. */
static int read_masks(PyObject *obj, uint16_t masks[81])
{
    PyObject *seq = PySequence_Fast(obj, "masks must be a sequence of 81 ints");
    if (seq == NULL) return -1;
    if (PySequence_Fast_GET_SIZE(seq) != 81) {
        PyErr_Format(PyExc_ValueError, "masks must hold 81 cell masks, got %zd", PySequence_Fast_GET_SIZE(seq));
        Py_DECREF(seq);
        return -1;
    }
    for (int k = 0; k < 81; ++k) {
        long value;
        PyObject *item = PySequence_Fast_GET_ITEM(seq, k);
        Py_INCREF(item);
        int bad = int_value(item, "masks", &value);
        Py_DECREF(item);
        if (!bad && (value < 0 || value > 511)) {
            PyErr_Format(PyExc_ValueError, "masks: cell %d has %ld, not a 9-bit mask", k, value);
            bad = 1;
        }
        if (bad) {
            Py_DECREF(seq);
            return -1;
        }
        masks[k] = (uint16_t)value;
    }
    Py_DECREF(seq);
    return 0;
}

/* The labels of a solution given as 81 digits (a str of 1-9, or a sequence of ints): 0, or -1 with an
 * error; `given` 0 for None. */
static int read_solution(PyObject *obj, uint64_t labels[W], int *given)
{
    memset(labels, 0, W * sizeof labels[0]);
    *given = obj != Py_None;
    if (!*given) return 0;
    PyObject *seq = PyUnicode_Check(obj) ? PySequence_List(obj) : PySequence_Fast(obj, "solution must be 81 digits");
    if (seq == NULL) return -1;
    int bad = PySequence_Fast_GET_SIZE(seq) != 81;
    for (int k = 0; !bad && k < 81; ++k) {
        PyObject *item = PySequence_Fast_GET_ITEM(seq, k);
        long d = PyUnicode_Check(item) ? (PyUnicode_GET_LENGTH(item) == 1 ? (long)PyUnicode_READ_CHAR(item, 0) - '0' : -1)
                                       : PyLong_Check(item) ? PyLong_AsLong(item) : -1;
        if (d < 1 || d > 9) bad = 1;
        else put(labels, label_index((int)d - 1, k / 9, k % 9));
    }
    Py_DECREF(seq);
    if (bad) {
        PyErr_Clear();
        PyErr_SetString(PyExc_ValueError, "solution must be 81 digits 1-9");
        return -1;
    }
    return 0;
}

static const char *OUTCOMES[] = {"quiet", "solved", "contradiction", "stopped", "no-memory"};

/* The trace as Python data: (events, chains); events (kind, depth, a, b, chain) with labels and
 * g-labels as te.c's indices (te.py decodes them), chains a list of ((var, rlc, llc), ...) tuples. */
static PyObject *trace_data(const TeTrace *t)
{
    PyObject *events = PyList_New(t->n), *chains = PyList_New(t->n_chains);
    if (events == NULL || chains == NULL) goto fail;
    for (int i = 0; i < t->n; ++i) {
        const TeEvent *e = &t->ev[i];
        PyObject *item = Py_BuildValue("(iiiii)", e->kind, e->depth, e->a, e->b, e->chain);
        if (item == NULL) goto fail;
        PyList_SET_ITEM(events, i, item);
    }
    for (int i = 0; i < t->n_chains; ++i) {
        const TeChain *c = &t->chains[i];
        PyObject *cells = PyTuple_New(c->cells.n);
        if (cells == NULL) goto fail;
        PyList_SET_ITEM(chains, i, cells);
        for (int k = 0; k < c->cells.n; ++k) {
            PyObject *cell = Py_BuildValue("(iii)", c->cells.var[k], c->cells.rlc[k], c->llc[k]);
            if (cell == NULL) goto fail;
            PyTuple_SET_ITEM(cells, k, cell);
        }
    }
    return Py_BuildValue("(NN)", events, chains);
fail:
    Py_XDECREF(events);
    Py_XDECREF(chains);
    return NULL;
}

/* te_run(masks, task, g, depth_limit, length_limit, solution, time_limit, trace, state, search_cap, upper) -> dict
 *
 * task "B": the B rating (gB with g) of the puzzle, braids up to length_limit ("value").
 * task "TE": the T&E-depth (gT&E with g), up to depth_limit ("depth").
 * task "classify": the T&E-depth, then B (depth 1), BxB (depth 2) or BxBB (depth 3) up to length_limit
 *      ("depth", "value").
 * task "BxB" / "BxBB": T&E(1) (T&E(2)) to its fixpoint, then the BxB (BxBB) value ("value").
 * The dict: "outcome" (quiet / solved / contradiction / stopped / no-memory / timeout / interrupted),
 * "depth", "value" (-1 where not computed or not reached), "hypotheses", "searches", "values" (81
 * digits, 0 undecided, of the final state) and "masks" (its 81 cell masks: a value's digit or the
 * candidates) when `state` is true (None otherwise), "trace" ((events, chains)) when asked, and
 * "closing": the braid length whose closure at depth 0 was under way last (te.h), or 0.
 * search_cap > 0 replaces TE_SEARCH_CAP (te.c close_theory), for tests: no outcome depends on it.
 * upper > 0 (task B only, without trace or state): a known upper bound on the rating (te.h Te.upper). */
static PyObject *py_te_run(PyObject *self, PyObject *args, PyObject *kwargs)
{
    (void)self;
    static char *kwlist[] = {"masks", "task", "g", "depth_limit", "length_limit", "solution", "time_limit",
                             "trace", "state", "search_cap", "upper", NULL};
    PyObject *masks_obj, *solution_obj = Py_None, *time_obj = Py_None;
    const char *task;
    int gflag = 0, depth_limit = 3, length_limit = 36, want_trace = 0, want_state = 0, upper = 0;
    long search_cap = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "Os|piiOOppli:te_run", kwlist, &masks_obj, &task, &gflag,
                                     &depth_limit, &length_limit, &solution_obj, &time_obj, &want_trace,
                                     &want_state, &search_cap, &upper))
        return NULL;
    if (search_cap < 0) return PyErr_Format(PyExc_ValueError, "search_cap must be >= 0");
    uint16_t masks[81];
    uint64_t solution[W];
    int has_solution;
    if (read_masks(masks_obj, masks) < 0 || read_solution(solution_obj, solution, &has_solution) < 0) return NULL;
    if (depth_limit < 0 || depth_limit > 9 || length_limit < 0 || length_limit > 81)
        return PyErr_Format(PyExc_ValueError, "depth_limit must be 0..9 and length_limit 0..81");
    double time_limit = 0;
    if (time_obj != Py_None) {
        time_limit = PyFloat_AsDouble(time_obj);
        if (time_limit == -1 && PyErr_Occurred()) return NULL;
        if (!(time_limit > 0)) return PyErr_Format(PyExc_ValueError, "time_limit must be > 0");
    }
    /* the tasks: a rating, or a path (what solve --theory prints) */
    static const struct {
        const char *name;
        unsigned sub; /* te_classify's: the depths whose sub-value is wanted (-1: a path) */
        int depth;    /* the depth limit it imposes (0: the caller's) */
    } TASKS[] = {{"TE", 0u, 0}, {"B", 3u, 1}, {"BxB", 4u, 2}, {"BxBB", 8u, 3}, {"classify", 15u, 0},
                 {"path-TE", ~0u, 0}, {"path-BxB", ~0u, 1}, {"path-BxBB", ~0u, 2}};
    int kind = -1;
    for (int k = 0; k < (int)(sizeof TASKS / sizeof TASKS[0]); ++k)
        if (!strcmp(task, TASKS[k].name)) kind = k;
    if (kind < 0) return PyErr_Format(PyExc_ValueError, "unknown task %s", task);
    if (upper < 0 || upper > 81 || (upper && (strcmp(task, "B") || want_trace || want_state)))
        return PyErr_Format(PyExc_ValueError, "upper must be 0..81, and 0 but for task B without trace or state");

    Poll poll = {time_limit > 0 ? now_seconds() + time_limit : 0, 0, 0};
    TeTrace trace;
    memset(&trace, 0, sizeof trace);
    Te te = {.ctl = {.budget = LONG_MAX, .poll = te_poll, .poll_arg = &poll, .until_poll = SR_POLL_EVERY},
             .solution = has_solution ? solution : NULL, .trace = want_trace ? &trace : NULL,
             .search_cap = search_cap, .upper = upper};
    Grid g;
    int depth = -1, value = -1;
    te_new_run();
    int r = te_grid_init(&te, &g, masks);
    if (r != TE_QUIET) {
        if (r == TE_SOLVED) depth = value = 0;
    } else if (TASKS[kind].sub != ~0u) {
        int limit = TASKS[kind].depth ? TASKS[kind].depth : depth_limit;
        r = te_classify(&te, &g, gflag, limit, TASKS[kind].sub, length_limit, &depth, &value);
    } else if (TASKS[kind].depth == 0) { /* path-TE: T&E(1), ..., T&E(depth_limit) until solved */
        r = te_depth(&te, &g, gflag, depth_limit, &depth);
    } else { /* path-BxB (BxBB): T&E(1) (and T&E(2)) to the fixpoint, then T&E(B_p, 1 (2)) */
        int n = TASKS[kind].depth;
        TeTheory T = {0, 0, gflag};
        for (int k = 0; k <= n && r == TE_QUIET; ++k) r = te_close(&te, &g, &T, k, k - 1, NULL);
        if (r == TE_QUIET) r = te_sub_classify(&te, &g, n, gflag, length_limit, &value);
        else if (r == TE_SOLVED) value = 0;
    }
    if (poll.signalled) {
        te_trace_free(&trace);
        return NULL; /* the handler's exception (KeyboardInterrupt) is set */
    }
    const char *outcome = poll.timed_out ? "timeout" : OUTCOMES[r];
    /* the final state, when asked for: 81 digits (0 undecided) and 81 cell masks (a value's digit or the
     * candidates); a rating needs neither, and building them was a tenth of an easy puzzle's call */
    PyObject *digits = want_state ? PyList_New(81) : (Py_INCREF(Py_None), Py_None);
    PyObject *masks_out = want_state ? PyList_New(81) : (Py_INCREF(Py_None), Py_None);
    if (digits == NULL || masks_out == NULL) {
        Py_XDECREF(digits);
        Py_XDECREF(masks_out);
        te_trace_free(&trace);
        return NULL;
    }
    for (int cell = 0; want_state && cell < 81; ++cell) {
        int d = 0;
        long m = 0;
        for (int n = 0; n < 9; ++n) {
            int x = label_index(n, cell / 9, cell % 9);
            if (has(g.values, x)) d = n + 1;
            if (has(g.c.present, x) || has(g.values, x)) m |= 1L << n;
        }
        PyList_SET_ITEM(digits, cell, PyLong_FromLong(d));
        PyList_SET_ITEM(masks_out, cell, PyLong_FromLong(m));
    }
    PyObject *trace_obj = want_trace ? trace_data(&trace) : (Py_INCREF(Py_None), Py_None);
    te_trace_free(&trace);
    if (trace_obj == NULL) {
        Py_DECREF(digits);
        Py_DECREF(masks_out);
        return NULL;
    }
    return Py_BuildValue("{s:s,s:i,s:i,s:l,s:l,s:N,s:N,s:N,s:i,s:i,s:(llll),s:i}", "outcome", outcome, "depth",
                         depth, "value", value, "hypotheses", te.hypotheses, "searches", te.searches, "values",
                         digits, "masks", masks_out,
                         "trace", trace_obj, "contradiction", g.contra, "trace_failed", trace.failed, "by_depth",
                         te.by_depth[0], te.by_depth[1], te.by_depth[2], te.by_depth[3], "closing", te.closing);
}

static PyMethodDef methods[] = {
    {"depths", (PyCFunction)(void (*)(void))py_depths, METH_VARARGS | METH_KEYWORDS,
     "depths(labels, targets, g, limit) -> list[int]: for each target (a label among labels, each "
     "100*digit + 10*row + col), its trial contradiction depth (sudorules.engine.trial, with g-labels "
     "if g) if it is at most limit (>= 1), else 0."},
    {"te_run", (PyCFunction)(void (*)(void))py_te_run, METH_VARARGS | METH_KEYWORDS,
     "te_run(masks, task, g=False, depth_limit=3, length_limit=36, solution=None, time_limit=None, "
     "trace=False, state=False, search_cap=0, upper=0) -> dict: the compiled T&E engine (generator/te.c) on a puzzle given by 81 cell masks; "
     "task B, TE, classify, BxB or BxBB (see te.c and sudorules/engine/te.py)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_trial",
    "Compiled trial propagation (contradiction depths) of sudorules.engine.trial.", -1, methods, NULL, NULL,
    NULL, NULL,
};

PyMODINIT_FUNC PyInit__trial(void)
{
    sr_fill_tables();
    if (PyType_Ready(&StateType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    Py_INCREF(&StateType);
    if (PyModule_AddObject(m, "State", (PyObject *)&StateType) < 0) {
        Py_DECREF(&StateType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}