"""The rule engine: a facade over clipspy running the CLIPS rules of ``rules/`` simplest-first.

>>> engine = Engine("W")                      # loads the rules once (about a second)
>>> result = engine.solve(Puzzle.from_string(text), time_limit=60)
>>> result.status, result.rating, [step.text() for step in result.steps]

One :class:`Engine` holds one CLIPS environment; between puzzles only the puzzle's facts are
retracted.  The driver switches levels on one by one (``(active (level n))``) when the agenda
is empty, which is SudoRules' activation scheme (SPEC §7.1); inside a level the saliences keep
simpler rules first (SPEC §5.3).  Rule applications come back through Python functions called
from the rules' right-hand sides (``sr-single``, ``sr-chain``, ``sr-more``, ``sr-braid``,
``sr-contradiction``) and become :class:`~sudorules.steps.Step` objects.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from typing import Optional, Union

import clips

from . import rulegen
from .enums import Status
from .errors import EngineError
from .labels import LINKS, label_variables
from .puzzle import Candidate, Puzzle, block_cells, cell_at
from .trial import TrialState
from .steps import SUBSET_NAMES, ChainCell, CspVariable, Resolution, Step, SubsetPattern

#: how many rule firings between two looks at the clock
RUN_CHUNK = 2000

_KIND_OF_HUNDREDS = {1: "rc", 2: "rn", 3: "cn", 4: "bn"}
_SINGLE_NAMES = {"rc": "naked-single", "rn": "hidden-single-in-a-row",
                 "cn": "hidden-single-in-a-column", "bn": "hidden-single-in-a-block"}


def variable_id(variable: CspVariable) -> int:
    """The integer id of a CSP variable in the rules: 100·type + 10·first + second."""
    return 100 * {"rc": 1, "rn": 2, "cn": 3, "bn": 4}[variable.kind] + 10 * variable.first + variable.second


def variable_of_id(vid: int) -> CspVariable:
    """The CSP variable of an integer id (inverse of :func:`variable_id`)."""
    return CspVariable(_KIND_OF_HUNDREDS[vid // 100], (vid // 10) % 10, vid % 10)


def candidate_of_label(label: int) -> Candidate:
    """The candidate of an integer label 100n + 10r + c."""
    return Candidate(label // 100, (label // 10) % 10, label % 10)


ALL_VARIABLE_IDS = tuple(100 * t + 10 * a + b for t in range(1, 5) for a in range(1, 10) for b in range(1, 10))

_INIT_FUNCTION = """
(deffunction sr-init (?cands ?done ?true)
   (foreach ?l ?true (assert (true-label (l ?l))))
   (foreach ?v ?done (assert (done (v ?v))))
   (foreach ?l ?cands
      (bind ?n (div ?l 100)) (bind ?r (mod (div ?l 10) 10)) (bind ?c (mod ?l 10))
      (assert (cand (l ?l) (n ?n) (r ?r) (c ?c)
                    (b (+ (* 3 (div (- ?r 1) 3)) (div (- ?c 1) 3) 1)))))
   (foreach ?v (create$ %s) (assert (csp-var (v ?v))))
   TRUE)
""" % " ".join(map(str, ALL_VARIABLE_IDS))

# Functions called from Python return TRUE, never a fact: a fact handed back to clipspy stays in
# CLIPS's garbage after it is retracted, and every later puzzle gets slower (measured: W2 puzzles
# 19 -> 29 ms per puzzle over 300 puzzles, and memory growing).
_ASSERT_FUNCTIONS = """
(deffunction sr-activate (?level) (assert (active (level ?level))) TRUE)

(deffunction sr-neighbours (?l $?ls) (assert (nb (l ?l) (ls ?ls))) TRUE)

(deffunction sr-focus (?level $?zs) (foreach ?z ?zs (assert (focus (z ?z) (level ?level)))) TRUE)

(deffunction sr-focus-range (?z ?from ?to)
   (loop-for-count (?level ?from ?to) (assert (focus (z ?z) (level ?level))))
   TRUE)

(deffunction sr-unfocus (?z ?from)
   (do-for-all-facts ((?f focus)) (and (eq ?f:z ?z) (>= ?f:level ?from)) (retract ?f))
   TRUE)

(deffunction sr-touches (?a $?vs) (foreach ?v ?vs (assert (tv (a ?a) (v ?v)))) TRUE)
"""

_LABELS_FUNCTION = """
(deffunction sr-labels ()
   (bind ?out (create$))
   (do-for-all-facts ((?f cand)) TRUE (bind ?out (create$ ?out ?f:l)))
   ?out)
"""

_CLEAN_FUNCTION = """
(deffunction sr-clean ()
   (do-for-all-facts ((?f csp-var)) TRUE (retract ?f))
   (do-for-all-facts ((?f cand)) TRUE (retract ?f))
   (do-for-all-facts ((?f done)) TRUE (retract ?f))
   (do-for-all-facts ((?f active)) TRUE (retract ?f))
   (do-for-all-facts ((?f blocked)) TRUE (retract ?f))
   (do-for-all-facts ((?f true-label)) TRUE (retract ?f))
   (do-for-all-facts ((?f nb)) TRUE (retract ?f))
   (do-for-all-facts ((?f tv)) TRUE (retract ?f))
   (do-for-all-facts ((?f focus)) TRUE (retract ?f)))
"""


class _QuietRunLimit(clips.Router):
    """Drops CLIPS's "rule firing limit reached" notice (printed when a run chunk ends); passes
    any other standard output through.  CLIPS prints nothing else while solving, so this router
    is off the hot path."""

    NOTICE = "rule firing limit reached"

    def __init__(self):
        super().__init__("sudorules-quiet-run-limit", 40)

    def query(self, name: str) -> bool:
        return name == "stdout"

    def write(self, name: str, message: str) -> None:
        if message.strip() and self.NOTICE not in message:
            sys.stdout.write(message)


class _Recorder:
    """Collects rule applications from the CLIPS callbacks during one run."""

    def __init__(self, engine: "Engine"):
        self.engine = engine
        self.records: list[list] = []  # [rule, level, eliminations, assertions, chain]
        self.values: list[int] = []
        self.contradiction: Optional[str] = None

    def single(self, vid, label):
        kind = _KIND_OF_HUNDREDS[int(vid) // 100]
        self.records.append([_SINGLE_NAMES[kind], 0, [], [int(label)], None])
        self.values.append(int(label))

    def chain(self, rule, level, target, cells):
        self.records.append([str(rule), int(level), [int(target)], [], list(cells)])

    def more(self, target):
        self.records[-1][2].append(int(target))

    def subset(self, size, unit, target, *rest):
        size, unit = int(size), int(unit)
        indices, coords = [int(x) for x in rest[:size]], [int(x) for x in rest[size:]]
        self.records.append([subset_pattern(size, unit, indices, coords), size, [int(target)], [], None])

    def braid(self, level, target, rlcs, vid):
        cells = self.engine._order_braid(int(target), [int(x) for x in rlcs], int(vid))
        self.records.append(["braid", int(level), [int(target)], [], cells])

    def contradict(self, vid):
        variable = variable_of_id(int(vid))
        self.contradiction = f"{variable.kind.upper()}-CELL {variable.name}"


class Engine:
    """One CLIPS environment loaded with the rules of a theory.

    ``theory``: ``BRT`` (Singles), ``W`` (Singles + whips), ``B`` (Singles + whips + braids; at
    every length whips before braids) or ``SW`` (Subsets + whips).  ``max_length``: the longest
    whip / braid tried (default 36).
    """

    def __init__(self, theory: str = "W", max_length: int = 36, lean_braids_from: int = 7):
        self.theory = theory
        #: B: from this level on, the newest partial braids are built for one target at a time and
        #: dropped after it (see :class:`_BraidSchedule`)
        self.lean_braids_from = lean_braids_from
        self.max_length = 0 if theory == "BRT" else max_length
        self.env = clips.Environment()
        self._recorder: Optional[_Recorder] = None
        #: optional callable(level) run when a level is switched on (progress, profiling)
        self.level_hook = None
        self.env.define_function(lambda v, l: self._recorder.single(v, l), "sr-single")
        self.env.define_function(lambda r, n, z, *c: self._recorder.chain(r, n, z, c), "sr-chain")
        self.env.define_function(lambda z: self._recorder.more(z), "sr-more")
        self.env.define_function(lambda n, z, v, *s: self._recorder.braid(n, z, s, v), "sr-braid")
        self.env.define_function(lambda v: self._recorder.contradict(v), "sr-contradiction")
        self.env.define_function(lambda *a: self._recorder.subset(*a), "sr-subset")
        self.env.add_router(_QuietRunLimit())
        self._load(rulegen.base_program(theory, self.max_length))
        #: the highest level whose rules are built; later levels are built when first reached
        self.levels_loaded = 1
        self.env.build(_INIT_FUNCTION)
        self.env.build(_CLEAN_FUNCTION)
        self.env.build(_LABELS_FUNCTION)
        for construct in _ASSERT_FUNCTIONS.strip().split("\n\n"):
            self.env.build(construct)
        self.env.reset()  # asserts the static deffacts (Subset units and coordinate sets)

    def _load(self, text: str) -> None:
        with tempfile.NamedTemporaryFile("w", suffix=".clp", delete=False, encoding="utf-8") as handle:
            handle.write(text)
            path = handle.name
        try:
            self.env.load(path)
        except clips.CLIPSError as error:
            raise EngineError(f"the {self.theory} rules do not load: {error}") from None
        finally:
            os.unlink(path)

    def close(self) -> None:
        """Free the CLIPS environment; the engine cannot solve after this."""
        self.env = None

    def __enter__(self) -> "Engine":
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def current_labels(self) -> list[int]:
        """The labels of the current candidates.

        Read through a CLIPS function returning a multifield: iterating clipspy Fact objects keeps
        retracted facts alive in CLIPS and makes every later puzzle slower.
        """
        return [int(x) for x in self.env.eval("(sr-labels)")]

    def _assert_neighbours(self) -> None:
        """One ``nb`` fact per current candidate, made when chains start (level 2): the current
        candidates linked to it.  Candidates only disappear, so the list stays a superset of the
        candidate's current links."""
        current = self.current_labels()
        present = set(current)
        assert_neighbours = self.env.find_function("sr-neighbours")
        for lab in current:  # values passed through clipspy: parsing them as text costs ~30 ms
            assert_neighbours(lab, *sorted(LINKS[lab] & present))

    def _braid_targets(self, true_labels: set[int]) -> list[int]:
        """The targets whose partial braids grow at a new level, the last to search first: those
        whose trial propagation contradicts soonest (a braid[n] needs a depth of at most n)."""
        trial = TrialState(self.current_labels(), LINKS)
        inf = 10 ** 6
        depth = {z: trial.contradiction_depth(z) for z in trial.labels - true_labels}
        return sorted(depth, key=lambda z: (-(depth[z] or inf), -z))

    def _assert_touches(self) -> None:
        """One ``tv`` fact per (candidate A, variable V) such that V has a current candidate linked
        to A and does not contain A: the variables a braid reaches from A (rules/braids.clp)."""
        current = self.current_labels()
        present = set(current)
        assert_touches = self.env.find_function("sr-touches")
        for lab in current:
            own = set(label_variables(lab))
            reached = {v for x in LINKS[lab] & present for v in label_variables(x)} - own
            assert_touches(lab, *sorted(reached))

    def _order_braid(self, target: int, rlcs: list[int], vid: int) -> list[int]:
        """Put the rlcs of a braid found as a set into a valid order, with left-linking candidates.

        Greedy: repeatedly take an rlc R that is the only candidate of some unused variable
        compatible with the target and the rlcs already placed (a valid order exists, and placing
        more rlcs never un-forces a variable).  Returns the flat (v, l, r) list ending (v, l, 0).
        """
        current = set(self.current_labels())
        by_variable: dict[int, list[int]] = {}
        for lab in current:
            for v in label_variables(lab):
                by_variable.setdefault(v, []).append(lab)
        placed: list[int] = []
        used_labels = {target}
        used_vars: set[int] = set()
        out: list[int] = []
        remaining = list(rlcs)

        def incompatible(x: int) -> bool:
            return x in LINKS[target] or any(x in LINKS[r] for r in placed)

        while remaining:
            for r in remaining:
                choice = None
                for v in label_variables(r):
                    if v in used_vars:
                        continue
                    others = [x for x in by_variable.get(v, []) if x != r]
                    if others and all(incompatible(x) for x in others):
                        lefts = [x for x in others if x not in used_labels] or others
                        choice = (v, lefts[0])
                        break
                if choice:
                    v, lft = choice
                    out += [v, lft, r]
                    placed.append(r)
                    used_vars.add(v)
                    used_labels.update((lft, r))
                    remaining.remove(r)
                    break
            else:  # no valid order: keep the set as given (the checker will say so)
                for r in remaining:
                    out += [label_variables(r)[0], r, r]
                remaining = []
        lefts = [x for x in by_variable.get(vid, []) if incompatible(x)]
        fresh = [x for x in lefts if x not in used_labels]
        out += [vid, (fresh or lefts)[0], 0]
        return out

    def solve(self, puzzle: Union[Puzzle, str], time_limit: Optional[float] = None,
              solution: Optional[Union[str, list[int]]] = None) -> Resolution:
        """Run the theory on one puzzle and return its :class:`Resolution`.

        ``time_limit`` (seconds) stops the run with status ``timeout``.  ``solution`` (81 digits,
        e.g. from :func:`sudorules.core.solve`) is an optional speed-up: no partial whip or braid
        is built on a candidate of the solution, since no sound rule can eliminate it; the
        eliminations found are the same.  Pass it only for a puzzle known to have that unique
        solution.
        """
        if isinstance(puzzle, str):
            puzzle = Puzzle.from_string(puzzle)
        start = time.perf_counter()
        deadline = None if time_limit is None else start + time_limit
        recorder = self._recorder = _Recorder(self)
        result = Resolution(puzzle=puzzle, theory=self.theory, max_length=self.max_length)
        env = self.env
        env.eval("(sr-clean)")
        givens = puzzle.givens
        done = []
        for cell, digit in enumerate(givens):
            if digit:
                done.extend(label_variables(100 * digit + 10 * (cell // 9 + 1) + cell % 9 + 1))
        cands = [100 * d + 10 * (cell // 9 + 1) + cell % 9 + 1
                 for cell, digits in puzzle.candidates().items() for d in digits]
        true_labels = []
        if solution is not None:
            digits = [int(d) for d in solution]
            true_labels = [100 * digits[cell] + 10 * (cell // 9 + 1) + cell % 9 + 1
                           for cell in range(81) if not givens[cell]]
        env.find_function("sr-init")(cands, done, true_labels)
        n_givens = sum(1 for d in givens if d)

        level = 0
        status = None
        braids = None
        if self.theory == "B":
            solution_labels = set(true_labels)
            braids = _BraidSchedule(env, self.lean_braids_from, lambda: self._braid_targets(solution_labels))
        while True:
            fired = env.run(RUN_CHUNK)
            if recorder.contradiction:
                status = "contradiction"
                break
            if fired == RUN_CHUNK:
                if deadline is not None and time.perf_counter() > deadline:
                    status = "timeout"
                    break
                continue
            # quiescent at the current level
            solved = n_givens + len(recorder.values) == 81
            if level == 0:
                labels = [] if solved else self.current_labels()
                result.candidates_after_singles = len(labels)
                result.links_after_singles = _csp_link_count(labels)
            elif level == 1:
                result.candidates_after_whips1 = 0 if solved else len(self.current_labels())
            if solved:
                status = "solved"
                break
            if deadline is not None and time.perf_counter() > deadline:
                status = "timeout"
                break
            if braids is not None and braids.focus_next(len(recorder.records)):
                continue
            if level >= self.max_length:
                status = "not-solved"
                break
            level += 1
            if self.level_hook is not None:
                self.level_hook(level)
            if level > self.levels_loaded:
                self._load(rulegen.level_rules(self.theory, level, self.max_length))
                self.levels_loaded = level
            if level == 2:
                self._assert_neighbours()
            if level == 3 and self.theory == "B":
                self._assert_touches()
            env.find_function("sr-activate")(level)
            if braids is not None and level >= 3:
                braids.start_level(level, len(recorder.records))
        if result.candidates_after_whips1 is None and status == "solved" and level == 0:
            result.candidates_after_whips1 = 0
        result.status = Status(status)
        result.contradiction = recorder.contradiction
        result.steps = [_step(record) for record in recorder.records]
        values = list(givens)
        for lab in recorder.values:
            values[cell_at((lab // 10) % 10, lab % 10)] = lab // 100
        result.values = tuple(values)
        remaining: dict[int, set[int]] = {}
        if status != "solved":
            for lab in self.current_labels():
                remaining.setdefault(cell_at((lab // 10) % 10, lab % 10), set()).add(lab // 100)
        result.candidates = {cell: frozenset(ds) for cell, ds in sorted(remaining.items())}
        result.seconds = time.perf_counter() - start
        self._recorder = None
        return result


class _BraidSchedule:
    """The order in which the B theory grows partial braids, target by target (rules/braids.clp).

    Partial braids of target Z grow to length k - 1 only once ``(focus (z Z) (level k))`` holds.

    Below level ``lean_from``: at level n, once everything simpler is quiet (whips of length n
    included), the targets are focused at level n one at a time, the most promising first (the
    soonest trial contradiction, :mod:`sudorules.trial`), and keep their partial braids, which
    CLIPS maintains as candidates go; the level ends when every target has been focused.  So
    braids of length n - 1 and below exist for every target and every rule application is
    simplest first, and the search for braid[n] stops as soon as the puzzle is solved.

    From level ``lean_from`` on, the partial braids of length ``lean_from`` - 1 and more would not
    fit in memory for every target at once (several GB at length 7 or 8).  They are grown for one
    target at a time and dropped once it is tried, in sub-passes of increasing length m =
    ``lean_from`` .. n: a sub-pass tries every target with braids up to length m, and any change
    of the resolution state starts again at m = ``lean_from``.  Braids are still applied by
    increasing length (a braid[m] is found only after a whole sub-pass at every shorter length
    found nothing in the same state), but whips of length n, which stay built for every target,
    come before braids of length ``lean_from`` .. n - 1.  The B rating is the same either way:
    braids are confluent (SPEC §5.2), and level n is switched on only when no braid (and no whip)
    of length n - 1 or less applies.
    """

    def __init__(self, env: clips.Environment, lean_from: int, targets):
        self.focus = env.find_function("sr-focus")
        self.focus_range = env.find_function("sr-focus-range")
        self.unfocus = env.find_function("sr-unfocus")
        self.lean_from = lean_from
        self.targets = targets  # callable: the current targets, the first to try last
        self.level = 0
        self.length = 0  # lean levels: the braid length of the current sub-pass
        self.queue: list[int] = []  # targets still to try, the next one last
        self.current: Optional[int] = None  # lean levels: the target being tried
        self.records_before = 0

    def start_level(self, level: int, records: int) -> None:
        """Level ``level`` is switched on; ``records``: rule applications so far."""
        self.level = level
        self.current = None
        self.records_before = records
        if level < self.lean_from:
            self.queue = self.targets()
        else:  # sub-passes start once the level's own rules are quiet (see focus_next)
            self.queue = []
            self.length = 0

    def focus_next(self, records: int) -> bool:
        """At quiescence: try the next target (True), or say the level is done (False).
        ``records``: the number of rule applications so far (tells whether the state changed)."""
        if self.level < self.lean_from:
            if not self.queue:
                return False
            self.focus(self.level, self.queue.pop())
            return True
        changed = records > self.records_before
        self.records_before = records
        if self.current is not None:
            self.unfocus(self.current, self.lean_from)
            self.current = None
        if self.length == 0 or changed:
            # first sub-pass of the level: the shorter lengths were searched in this same state at
            # the previous level unless the level's own rules changed it
            self.length = self.lean_from if (changed or self.level == self.lean_from) else self.level
            self.queue = self.targets()
        elif not self.queue:
            if self.length == self.level:
                return False
            self.length += 1
            self.queue = self.targets()
        if not self.queue:  # no target left (only the solution's candidates)
            return False
        self.current = self.queue.pop()
        self.focus_range(self.current, self.lean_from, self.length)
        return True


def _csp_link_count(labels: list[int]) -> int:
    """Number of csp-links among the candidates: each pair counted once per common variable."""
    counts: dict[int, int] = {}
    for lab in labels:
        for v in label_variables(lab):
            counts[v] = counts.get(v, 0) + 1
    return sum(k * (k - 1) // 2 for k in counts.values())


_UNIT_KINDS = {1: "row", 2: "column", 3: "block", 4: "row", 5: "column", 6: "block", 7: "rows", 8: "columns"}


def subset_pattern(size: int, unit: int, indices: list[int], coords: list[int]) -> SubsetPattern:
    """The :class:`SubsetPattern` of a Subset found in unit space ``unit`` (see rules/subsets.clp)."""
    family, number = divmod(unit, 10)
    kind = _UNIT_KINDS[family]

    def cell(i: int, k: int) -> int:  # the cell of index i, coordinate k, in a naked/hidden unit
        if kind == "row":
            return cell_at(number, k if family == 4 else i)
        if kind == "column":
            return cell_at(k if family == 5 else i, number)
        square = k if family == 6 else i
        return block_cells(number)[square - 1]

    if family <= 3:
        return SubsetPattern("naked", kind, number, cells=tuple(cell(i, 0) for i in indices),
                             digits=tuple(coords))
    if family <= 6:
        return SubsetPattern("hidden", kind, number, cells=tuple(cell(0, k) for k in coords),
                             digits=tuple(indices))
    return SubsetPattern("fish", kind, number, bases=tuple(indices), covers=tuple(coords))


def _subset_rule_name(pattern: SubsetPattern) -> str:
    size = pattern.size
    if pattern.family == "fish":
        return f"{SUBSET_NAMES[size][1]}-in-{pattern.unit_kind}"
    return f"{pattern.family}-{SUBSET_NAMES[size][0]}-in-a-{pattern.unit_kind}"


def _step(record: list) -> Step:
    rule, level, eliminations, assertions, cells = record
    if isinstance(rule, SubsetPattern):
        return Step(rule=_subset_rule_name(rule), level=level,
                    eliminations=tuple(candidate_of_label(z) for z in eliminations), subset=rule)
    chain = ()
    if cells:
        chain = tuple(
            ChainCell(variable_of_id(cells[i]), candidate_of_label(cells[i + 1]),
                      candidate_of_label(cells[i + 2]) if cells[i + 2] else None)
            for i in range(0, len(cells), 3))
    return Step(rule=rule, level=level,
                eliminations=tuple(candidate_of_label(z) for z in eliminations),
                assertions=tuple(candidate_of_label(a) for a in assertions),
                chain=chain)
