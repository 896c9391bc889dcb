"""The rule engine: a facade over clipspy running the CLIPS rules of ``rules/`` simplest-first.

>>> engine = Engine("W")                      # loads the rules once (about a second)
>>> result = engine.solve(Puzzle.from_string(text), time_limit=60)
>>> result.status, result.rating, [step.text() for step in result.steps]

One :class:`Engine` holds one CLIPS environment; between puzzles only the puzzle's facts are
retracted.  The driver switches levels on one by one (``(active (level n))``) when the agenda
is empty, which is SudoRules' activation scheme (SPEC §7.1); inside a level the saliences keep
simpler rules first (SPEC §5.3).  Rule applications come back through Python functions called
from the rules' right-hand sides (:mod:`.bridge`) and become
:class:`~sudorules.resolution.steps.Step` objects.  Under B, braid targets are grown one at a time
in the order of :class:`~.schedule.BraidSchedule`.
"""

from __future__ import annotations

import os
import tempfile
import time
from contextlib import contextmanager
from typing import Any, Callable, Iterator, Optional, Sequence, Union

import clips

from .. import oscompat
from ..enums import Status
from ..errors import EngineError
from ..puzzle import Puzzle, as_puzzle, cell_at
from ..resolution import families
from ..resolution.families import BRAID_ROOT, G_WHIP_FOCUS, WHIP_FOCUS, WHIP_PASS
from ..resolution.steps import Resolution
from . import rulegen
from .bridge import QuietOutOfMemory, QuietRunLimit, Recorder, step_of_record
from ..resolution.cycles import in_cycle_order
from .labels import (G_LABELS, G_LINKS, LINKS, csp_link_count, glabel_variable, is_glabel, label_at,
                     label_variables)
from .order import order_braid, whip_lefts
from .schedule import APPLIED, FIRST_BRAID_LEVEL, LEAN_BRAIDS_FROM, NONE, OPEN, BraidSchedule
from .seek import SeekStats, find_chain
from .trial import State, depths

#: nodes of the compiled whip search before it answers "maybe" (docs/engine.md: the whole file
#: rated gW in 354 s with 50,000 and 330 s with 200,000, W 166 and 165 s)
WHIP_SEARCH_BUDGET = 200000
BRAID_SEARCH_BUDGET = 50000
#: the default level from which whips come from the compiled search in theories with braids
#: (Engine(lean_whips_from=...); docs/engine.md, "Lean whips", has the measurements that chose it)
LEAN_WHIPS_FROM = 4
#: a level no chain reaches: "never" for lean_whips_from
NEVER = 37
#: the focus "level" _whip_targets gives a target it has already eliminated with a recorded whip
#: (lean whips: see _lean_whip)
ELIMINATED = 0
#: nodes of the compiled search that finds a lean stage's braid, or a lean whip, before CLIPS is left
#: to decide.  A node is 0.1-1 us, so a search may take seconds (the longest on top1465 #182's gB path:
#: 3.5 s), which the time limit, read between searches, may overshoot by; CLIPS's partial chains for
#: the same target took minutes and gigabytes there
LEAN_CHAIN_BUDGET = 200_000_000

#: how many rule firings between two looks at the clock
RUN_CHUNK = 2000


#: The address space a run under `ulimit -v` keeps free at least (see Engine._solve)
ROOM_KEPT = 48 * 2**20


class Engine:
    """One CLIPS environment loaded with the rules of a theory.

    ``theory``: ``BRT`` (Singles), ``W`` (Singles + whips), ``B`` (Singles + whips + braids; at
    every length whips before braids), ``gW`` (Singles + whips + g-whips), ``gB`` (+ braids and
    g-braids), ``SW`` (Subsets + whips), ``default`` (SudoRules' default configuration) or any
    composition of parts (:class:`~sudorules.enums.Theory`: ``S+Fin+BC+Z+tW+W``...).
    ``max_length``: the longest chain tried (default 36; each family's own longest caps it too).
    ``lean_braids_from``: the level from which partial braids of the newest lengths are kept for one
    target at a time (partial g-braids: 2 levels sooner; 37: never).
    ``lean_whips_from``: the level from which whips and g-whips of length 2 or more come from the
    compiled search rather than from partial whips in CLIPS (see :meth:`_lean_whip`; 37: never;
    default: ``LEAN_WHIPS_FROM`` in a theory with braids, never in the others).
    """

    def __init__(self, theory: str = "W", max_length: int = 36, lean_braids_from: int = LEAN_BRAIDS_FROM,
                 lean_whips_from: Optional[int] = None):
        spec = families.theory_spec(theory)
        self.theory = str(spec.theory)
        #: B: from this level on, the newest partial braids are built for one target at a time and
        #: dropped after it (see :class:`BraidSchedule`)
        self.lean_braids_from = lean_braids_from
        self.max_length = spec.top(max_length)
        #: the families the driver's search finds (rules/seek.clp calls sr-seek), by name
        self._sought = {f.name: f.search for f in spec.families if f.search is not None}
        #: what those searches did (tests, benchmarks), since the engine was made
        self.seek_stats = SeekStats()
        #: what the theory's families need handed over when a level starts (see families.Family)
        self._handover: dict[int, list[str]] = {}
        for family in spec.families:
            for level, kinds in family.handover.items():
                wanted = self._handover.setdefault(level, [])
                wanted += [kind for kind in kinds if kind not in wanted]
        #: the focus passes of the families whose partial chains grow target by target (braids), and
        #: those whose chains hold g-labels (their targets' trial propagation assumes g-labels)
        self._passes = tuple(sorted({f.focus_pass for f in spec.families if f.focus_pass is not None}))
        self._g_passes = {f.focus_pass for f in spec.families if f.focus_pass is not None and f.g_labels}
        #: from this level on, whips come from the compiled search (_lean_whip): only where braids
        #: follow them, since a loopless whip the rules never build changes no braid rating
        self.lean_whips_from = lean_whips_from if lean_whips_from is not None else (
            LEAN_WHIPS_FROM if self._passes else NEVER)
        #: the lean level of each pass: lean_braids_from, sooner for families with more partial chains
        #: (37 and more: never)
        self._lean = {f.focus_pass: (lean_braids_from if lean_braids_from > 36
                                     else max(FIRST_BRAID_LEVEL, lean_braids_from - f.lean_sooner))
                      for f in spec.families if f.focus_pass is not None}
        #: the lean stage being tried: its target, length and trial state (see _viable)
        self._lean_target = 0
        self._lean_length = 0
        self._lean_state: Optional[State] = None
        self._lean_g = False
        self.env = clips.Environment()
        self._callback_error: Optional[BaseException] = None
        self._in_call = False  # inside a guarded function's body (see _define, _interrupts_deferred)
        #: the running solve's time limit as time.time() reads it, for the searches the rules call
        #: (None: no limit): see the TimeoutError in _solve
        self._deadline: Optional[float] = None
        self._recorder: Optional[Recorder] = None
        #: optional callable(level) run when a level is switched on (progress, profiling)
        self.level_hook = None
        self._define(lambda v, l: self._recorder.single(v, l), "sr-single")
        self._define(lambda r, n, z, *c: self._recorder.chain(r, n, z, c), "sr-chain")
        self._define(lambda z: self._recorder.more(z), "sr-more")
        self._define(lambda n, z, v, *s: self._recorder.braid(n, z, s, v), "sr-braid")
        self._define(lambda n, z, v, *s: self._recorder.braid(n, z, s, v, "g-braid"), "sr-g-braid")
        self._define(lambda v: self._recorder.contradict(v), "sr-contradiction")
        self._define(lambda *a: self._recorder.subset(*a), "sr-subset")
        self._define(lambda *a: self._recorder.finned(*a), "sr-finned")
        self._define(lambda name, n: self._seek(str(name), int(n)), "sr-seek", empty=[])
        # after a chain step, whips of one length shorter than the level, in the salience order
        # (rules/whip-focus.clp; see solve: the level's own length is searched when the level is
        # quiescent)
        self._define(lambda k, g: self._shorter_whip_targets(int(k), g == "TRUE"), "sr-whip-targets", empty=[])
        self._define(lambda p, n, z, *s: self._viable(int(p), int(n), int(z), s), "sr-viable")
        #: whips and g-whips: partial chains are built for the targets focused in WHIP_PASS only, those
        #: whose trial propagation (with g-labels if g-whips are in the theory) contradicts within the
        #: active level (rules/whip-focus.clp); ``trial_filter = False`` focuses every target instead
        #: (same ratings, more work: for tests and benchmarks)
        trial_focused = [f for f in spec.families if f.trial_focus]
        self._whip_focus = bool(trial_focused) and self.max_length >= 2
        self._whip_g = any(f.g_labels for f in trial_focused)
        self.trial_filter = True
        self.whip_search = True
        #: lean braid stages skip the targets on which the compiled search finds no braid (g-braid) of
        #: the stage's length (``State.braid``); False tries every target the trial filter lets
        #: through (same ratings, more work: for tests and benchmarks)
        self.braid_search = True
        #: lean braid stages take the braid the compiled search finds on a target, rather than have
        #: CLIPS build its partial braids (see _lean_braid); False: the rules find them (same
        #: eliminations in the same order, other braids printed: for tests and benchmarks)
        self.compiled_braids = True
        self._focused: set[int] = set()  # the targets focused in WHIP_PASS for the current puzzle
        self._g_focused: set[int] = set()  # those of them focused for g-whips as well
        self._rooted: set[int] = set()  # the braid roots (partial chains of length 1 only) among the others
        #: (level, number of changes) of the last whip search at a level's length that found nothing
        self._searched_empty: Optional[tuple[int, int]] = None
        self._true: set[int] = set()  # the labels of the known solution, if given: never targets
        self._present: set[int] = set()  # the current candidates, followed from the recorder's changes
        self._changes_seen = 0
        self._level = 0
        self._state_key = -1  # _state's cache: the number of changes it was built at, and the State
        self._state_now: Optional[State] = None
        self.env.add_router(QuietRunLimit())
        self.env.add_router(QuietOutOfMemory())
        self._load(rulegen.base_program(theory, self.max_length))
        #: the highest level whose rules are built; later levels are built when first reached
        self.levels_loaded = 1
        self.env.reset()  # asserts the static deffacts (Subset units and coordinate sets)

    def _define(self, function, name: str, empty: object = False) -> None:
        """Make ``function`` callable from the rules as ``name``, its exceptions kept for :meth:`solve`.

        clipspy turns an exception raised in a function called from a rule into a CLIPS error
        message (printed) and halts the run, which the driver would take for quiescence: a
        MemoryError in the whip search under a worker's memory limit then went on to the next
        level and could have given a wrong rating.  The first exception is kept, the rule gets
        ``empty`` (an answer of the right type, so no CLIPS error follows), and solve raises the
        exception when the run returns.
        """
        def guarded(*args):
            if self._callback_error is None and self._deadline is not None and time.time() > self._deadline:
                self._callback_error = TimeoutError("the time limit was reached")  # see _solve
            if self._callback_error is not None:
                return empty
            try:
                self._in_call = True
                return function(*args)
            except BaseException as error:  # MemoryError, KeyboardInterrupt as well: raised again by solve
                self._callback_error = error
                return empty
            finally:
                self._in_call = False

        self.env.define_function(guarded, name)

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

    def release_memory(self) -> None:
        """Give back what the last run took: its facts, then CLIPS's pools of freed memory, to malloc
        (a rating worker does it before each task, so that the task's memory cap is measured from
        the loaded rules, not from what the task before left)."""
        if self.env is not None:
            self.env.eval("(sr-clean)")
            self.env.eval("(release-mem)")

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

    def _assert_glabels(self) -> None:
        """g-chains (rules/g-links.clp): for every g-label with at least two current candidates,
        its variable, its three labels and the current candidates g-linked to it (a snapshot when
        chains start: candidates only disappear, so it stays a superset)."""
        self.env.find_function("sr-cand-index")()  # for g-free (rules/g-links.clp)
        present = set(self.current_labels())
        assert_glabel = self.env.find_function("sr-glabel")
        for gid in self._g_candidates(present):
            assert_glabel(gid, glabel_variable(gid), *G_LABELS[gid], *sorted(G_LINKS[gid] & present))

    @staticmethod
    def _g_candidates(present: set[int]) -> list[int]:
        """The g-labels with at least two labels in ``present`` (the g-candidates, SPEC §4.5)."""
        return [gid for gid, labels in G_LABELS.items() if sum(1 for lab in labels if lab in present) >= 2]

    def _braid_targets(self, g: bool, length: int) -> list[int]:
        """The targets that may carry a braid (``g``: a g-braid) of length ``length`` or less, the
        last to search first: those whose trial propagation (with g-labels if ``g``) contradicts
        within ``length`` rounds, soonest first (a braid[n] needs a depth of at most n: trial.py).
        (Each is made a braid root when the schedule tries it: :meth:`_start_lean`.)"""
        labels = self._labels()
        targets = sorted(labels - self._true)
        depth = {z: d for z, d in zip(targets, depths(labels, targets, g, length)) if d}
        return sorted(depth, key=lambda z: (-depth[z], -z))

    def _labels(self) -> set[int]:
        """The current candidates, followed in Python from the recorder's changes (reading them from
        CLIPS costs ~0.5 ms, and this is asked after every chain step)."""
        present, changes = self._present, self._recorder.changes
        for change in changes[self._changes_seen:]:
            if change > 0:
                present.discard(change)
                present.difference_update(LINKS[change])
            else:
                present.discard(-change)
        self._changes_seen = len(changes)
        return present

    def _whip_targets(self, limit: int, first: bool = False, kinds: tuple[bool, ...] = (False, True)) -> dict[int, int]:
        """The targets to focus in WHIP_PASS now that may carry a chain of length at most ``limit``,
        with the level of their focus fact, now counted as focused: ``WHIP_FOCUS`` (their partial
        whips) for those not yet focused on which the compiled search finds a whip (``State.whip``,
        generator/trial.c), ``G_WHIP_FOCUS`` (their partial whips and g-whips) for those not yet
        focused for g-whips, in a theory with g-whips, on which it finds a g-whip with a g-rlc
        (``State.g_whip``); among the targets whose trial propagation (with g-labels for g-whips)
        contradicts within ``limit`` rounds (a necessary condition, and cheaper).  ``first``: only
        the first one found, whips before g-whips (see :meth:`_first_whip`).  With
        ``trial_filter = False`` every target, at the highest focus level; with
        ``whip_search = False`` the trial filter alone.  ``kinds``: the searches made, for whips
        (False) and for g-whips (True).  From the lean whip level on, the first such target is
        given its whip at once instead (:meth:`_lean_whip`: ``{target: ELIMINATED}``).

        Why two levels: most targets that carry a chain carry a plain whip (73 of the 74 focused on
        line 12301 of cb-001 in gB, 37 of 38 on line 7462), and building their partial g-whips as
        well was most of CLIPS's work on those puzzles.  The order stays exact because g-whips of
        length k are searched for only once no whip of length k or less is left to fire (rules
        whip-focus-k, then g-whip-focus-k: rules/whip-search.clp), when the level is quiescent
        after whips; a target focused for whips only is searched for g-whips again then."""
        labels = self._labels()
        open_ = labels - self._true
        plain = sorted(open_ - self._focused) if False in kinds else []
        with_g = sorted(open_ - self._g_focused) if self._whip_g and True in kinds else []
        if self._lean_whips(self._level) and limit >= 2:
            return self._lean_whip(labels, self._within(labels, plain, False, limit),
                                   self._within(labels, with_g, True, limit), limit)
        top = G_WHIP_FOCUS if self._whip_g else WHIP_FOCUS
        found: dict[int, int] = {}
        if not self.trial_filter:
            found = dict.fromkeys(sorted(open_ - (self._g_focused if self._whip_g else self._focused)), top)
        elif limit >= 2:  # whips[1] need no partial whip (whip1.clp)
            plain, with_g = self._within(labels, plain, False, limit), self._within(labels, with_g, True, limit)
            if not self.whip_search:
                found = {**dict.fromkeys(plain, WHIP_FOCUS), **dict.fromkeys(with_g, G_WHIP_FOCUS)}
            else:
                state = self._state()
                searches = ((plain, WHIP_FOCUS, lambda z: state.whip(z, False, limit, WHIP_SEARCH_BUDGET)),
                            (with_g, G_WHIP_FOCUS, lambda z: state.g_whip(z, limit, WHIP_SEARCH_BUDGET)))
                found = self._first_whip(searches) if first else {
                    z: level for targets, level, search in searches for z in targets if search(z)}
        self._focused.update(found)
        self._g_focused.update(z for z, level in found.items() if level == G_WHIP_FOCUS)
        return found

    @staticmethod
    def _within(labels: set[int], targets: list[int], g: bool, limit: int) -> list[int]:
        """Those of ``targets`` whose trial propagation (with g-labels if ``g``) contradicts within
        ``limit`` rounds, soonest first."""
        depth = {z: d for z, d in zip(targets, depths(labels, targets, g, limit)) if d}
        return sorted(depth, key=lambda z: (depth[z], z))

    def _shorter_whip_targets(self, limit: int, g: bool) -> list[int]:
        """:meth:`_whip_targets` at ``limit`` for whips (``g``: g-whips), asked by whip-focus-{limit}
        (g-whip-focus-{limit}: rules/whip-search.clp), which focuses them, after a step, once nothing
        that comes first is left to fire; none without searching in the state of the last search at
        a level's length that found nothing, if ``limit`` is not longer (the rules of the previous
        level's length, loaded when a level starts, fire once in that state)."""
        if self._searched_empty is not None and self._searched_empty[0] >= limit \
                and self._searched_empty[1] == len(self._recorder.changes):
            return []
        return [z for z, level in self._whip_targets(limit, kinds=(g,)).items() if level != ELIMINATED]

    def _level_whip_target(self, level: int) -> dict[int, int]:
        """:meth:`_whip_targets` at the level's own length, first one only, when a level starts or is
        quiescent; none without searching in the state and level of the last search that found
        nothing: the targets left are a subset of those it found no chain for (braid stages reach
        quiescence once per target tried, most of them changing nothing)."""
        key = (level, len(self._recorder.changes))
        if key == self._searched_empty:
            return {}
        targets = self._whip_targets(level, first=True)
        if not targets:
            self._searched_empty = key
        return targets

    @staticmethod
    def _first_whip(searches) -> dict[int, int]:
        """The first target (tried soonest contradiction first: the likeliest, and the cheapest to
        find) that carries a whip, else, with g-whips in the theory, the first that carries a g-whip
        (SPEC §5.3 puts whip[n] before g-whip[n]), with its focus level; none if none.  Used when no
        chain shorter than the limit exists (a level starts or is quiescent): chains of one length
        may fire in any order, so focusing their targets one at a time keeps the order, and the
        partial whips of the others are not built, kept through the first one's eliminations, then
        retracted.  Measured (mean CPU of 30 cb-001 puzzles a level, 15 at W5): W3 35 -> 31 ms, W4
        68 -> 48 ms, W5 228 -> 153 ms against focusing all of them at once."""
        for targets, level, search in searches:
            for z in targets:
                if search(z):
                    return {z: level}
        return {}

    def _lean_whips(self, level: int) -> bool:
        """Do whips come from the compiled search at this level (:meth:`_lean_whip`)?  Not without the
        trial filter or the whip search, which tests switch off to compare."""
        return level >= self.lean_whips_from and self.trial_filter and self.whip_search

    def _lean_whip(self, labels: set[int], plain: list[int], with_g: list[int], limit: int) -> dict[int, int]:
        """From level ``lean_whips_from`` on, whips and g-whips of length 2 or more come from the
        compiled search, not from partial whips in CLIPS: the first target (in the order of
        :meth:`_whip_targets`, whips before g-whips) on which ``State.whip_chain`` finds one of length
        ``limit`` or less gets it recorded, with left-linking candidates chosen by
        :func:`.order.whip_lefts`, and is eliminated (``{target: ELIMINATED}``).  It is asked exactly
        where the focus would have been (after a step, by length, rules/whip-search.clp; when a level
        starts or is quiescent), so the order of SPEC §5.3 is the same; one chain at a time, since it
        changes the state.  A search out of budget, or a chain whose left-linking candidates would
        repeat (the search allows that, the rules do not), focuses the target instead, as below the
        lean level.

        Why: a focused target keeps its partial whips through every later step, and they grow with
        the level.  On top1465 #182 under gB its partial g-whips of lengths 7-12 were 170,000 facts
        at level 14 and took the process past 24 GB (docs/engine.md, "Lean whips").
        Why only in theories with braids: the rules keep one partial whip per sequence of rlcs (the
        first built, rules/partial-whip.clp), and its left-linking candidates decide which loopless
        extensions exist, so they miss some whips the definition allows (cb-001 line 3753: W 9
        published and by the rules, 8 with whips from the search, its path verified).  A braid
        theory finds such a whip as a braid of the same length anyway, so no rating changes.

        A g-whip search is preceded by a g-braid search (``State.braid_chain``), and skipped when
        that finds none: the g-braid search has the raters' pruning (trial.c) and shares its failures
        with the other targets' searches on the same state, where each g-whip search starts afresh.
        Of the g-whip searches of top1465 #182's gB path, 2,639 of 2,729 find nothing; measured
        (one core, ``benchmarks/bench_paths.py --theory gB --ways search``): 31.4 -> 24.0 CPU-s, the
        same path.  Not for plain whips: there the whip search is the cheaper (0.7 s against 1.9 s
        for the same 2,308 questions on that path)."""
        state = self._state()
        for targets, g, focus in ((plain, False, WHIP_FOCUS), (with_g, True, G_WHIP_FOCUS)):
            for z in targets:
                if g and state.braid_chain(z, True, limit, LEAN_CHAIN_BUDGET, self._deadline or 0) == 0:
                    continue  # no g-braid, so no g-whip (a g-whip is a g-braid): see below
                cells = None
                for strict in (False, True):  # the permissive search is the cheaper, and says no as often
                    found = state.whip_chain(z, g, g, strict, limit, LEAN_CHAIN_BUDGET, self._deadline or 0)
                    if found == 0:
                        break
                    cells = None if found == -1 else whip_lefts(labels, z, found)
                    if cells is not None:
                        break
                if found == 0:
                    continue
                if cells is None:
                    self._focused.add(z)
                    if g:
                        self._g_focused.add(z)
                    return {z: focus}
                rule = "g-whip" if any(is_glabel(r) for r in cells[2::3]) else "whip"
                self._recorder.chain(rule, len(cells) // 3, z, cells)
                self.env.find_function("sr-eliminate")(z)
                if len(cells) == 6:  # whip[2] is blockable (rules/whip2-blocked.clp)
                    self.env.find_function("sr-block-whip2")(*cells[:5])
                return {z: ELIMINATED}
        return {}

    def _seek(self, name: str, length: int) -> list[int]:
        """A chain of the searched family ``name`` and of ``length`` cells in the current state
        (:func:`.seek.find_chain`), recorded as a step: its targets, for the seek rule to eliminate
        (rules/seek.clp); none if there is none."""
        found = find_chain(self._state(), self._labels(), self._true, self._sought[name], length, self.seek_stats,
                           self._deadline)
        if found is None:
            return []
        rule, targets, cells = found
        self._recorder.sought(rule, length, targets, cells)
        return targets

    def _viable(self, pass_: int, length: int, target: int, rlcs: Sequence[int]) -> bool:
        """May a partial chain of ``target`` with this set of rlcs (labels and g-labels) of
        ``length`` still complete in the lean stage being tried?  Only if the trial propagation
        from the target and its rlcs, all assumed, contradicts within the stage's length minus
        ``length`` rounds (trial.py): its remaining rlcs would be forced one per round, and its last
        variable emptied.  Asked by the partial (g-)braid rules before building a partial chain of
        the lean target (rules/partial-braid.clp); a partial chain kept below its pass's lean level
        is always built (those are kept across changes of state, when this test could change)."""
        if target != self._lean_target or length + 1 < self._lean[pass_]:
            return True
        return self._lean_state.depth([target, *rlcs], self._lean_g, self._lean_length - length) > 0

    def _state(self) -> State:
        """The current candidates as a compiled :class:`~.trial.State`, built once per state."""
        key = len(self._recorder.changes)
        if self._state_key != key:
            self._state_key, self._state_now = key, State(self._labels())
        return self._state_now

    def _lean_braid(self, pass_: int, length: int, target: int) -> str:
        """A lean stage is about to try ``target`` with braids (g-braids in a g pass) of at most
        ``length`` cells: what the compiled search says (:class:`.schedule.BraidSchedule`).

        With ``compiled_braids``, the search that follows the definitions (``State.braid_chain``,
        strict, as the compiled raters use it) looks for one: none, and the stage skips the target;
        one, and it is recorded as the rules record the braids they find (its rlcs as a set, put in
        order by :func:`.order.order_braid`) and the target eliminated (``APPLIED``).  The stage
        could not have found a shorter one (every shorter stage just found none on this target in
        this state), so the path keeps the rules' order; only which braid of that length is printed
        can differ.  Measured on top1465 #182 (B 16): the rules' partial braids of its lean stages
        took 30 s and 1.6 GB for ``solve --theory B``, and more than 600 s under gB (docs/engine.md,
        "Lean braids found by the search").  Out of budget, CLIPS decides (``OPEN``).
        Without it, the permissive search (``State.braid``) only skips the targets it proves have
        none, and CLIPS builds the others' partial chains."""
        if not self.braid_search:
            return OPEN
        g = pass_ in self._g_passes
        if not self.compiled_braids:
            return OPEN if self._state().braid(target, g, length, BRAID_SEARCH_BUDGET) != 0 else NONE
        found = self._state().braid_chain(target, g, length, LEAN_CHAIN_BUDGET, self._deadline or 0)
        if found == 0:
            return NONE
        if found == -1:
            return OPEN
        rlcs, closing = list(found[1:-2:2]), found[-2]
        rule = "g-braid" if any(is_glabel(r) for r in rlcs) else "braid"
        self._recorder.braid(len(found) // 2, target, rlcs, closing, rule)
        self.env.find_function("sr-eliminate")(target)
        return APPLIED

    def _start_lean(self, braids: BraidSchedule) -> None:
        """After the schedule focused a target: make it a braid root if it is neither that nor
        focused for whips (its partial whips[1] and g-whips[1], from which its partial braids and
        g-braids start: rules/partial-braid1.clp), and set the lean stage's target and state, if it
        is one.  A root gets no longer partial whips: the whip search decides which targets get
        those (their partial whips of lengths 2 and more, maintained through every later step, had
        cost gB 24 % and B 19 % of their CPU on 4 gB7 puzzles, lines 750, 18466, 20667, 21283)."""
        root = braids.focused
        has_first = self._g_focused if self._whip_g else self._focused  # its partial (g-)whips[1]
        if root and self._whip_focus and root not in has_first and root not in self._rooted:
            self.env.find_function("sr-focus")(WHIP_PASS, BRAID_ROOT, root)
            self._rooted.add(root)
        if braids.current is None:
            target = 0
        else:
            target, pass_ = braids.current
            self._lean_state = self._state()
            self._lean_g = pass_ in self._g_passes
            self._lean_length = braids.current_length
        if target != self._lean_target:
            self._lean_target = target
            self.env.find_function("sr-lean")(target)

    def _focus_whips(self, found: dict[int, int]) -> None:
        """Focus each target of ``found`` in WHIP_PASS at its level (:meth:`_whip_targets`)."""
        for level in sorted(set(found.values()) - {ELIMINATED}):
            self.env.find_function("sr-focus")(WHIP_PASS, level, *(z for z, lv in found.items() if lv == level))

    def _assert_touches(self) -> None:
        """One ``tv`` fact per (candidate A, variable V) such that V has a current candidate linked
        to A and does not contain A: the variables a braid reaches from A (rules/braid.clp)."""
        current = self.current_labels()
        present = set(current)
        assert_touches = self.env.find_function("sr-touches")
        for lab in current:
            own = set(label_variables(lab))
            reached = {v for x in LINKS[lab] & present for v in label_variables(x)} - own
            assert_touches(lab, *sorted(reached))

    def _assert_gtouches(self) -> None:
        """g-braids: one ``tv`` fact per (g-label G with at least two current candidates, variable V
        other than G's own) such that V has a current candidate g-linked to G (rules/g-braid.clp)."""
        present = set(self.current_labels())
        assert_touches = self.env.find_function("sr-touches")
        for gid in self._g_candidates(present):
            reached = {v for x in G_LINKS[gid] & present for v in label_variables(x)}
            reached.discard(glabel_variable(gid))
            if reached:
                assert_touches(gid, *sorted(reached))

    @contextmanager
    def _interrupts_deferred(self) -> Iterator[None]:
        """While the rules run, a signal's Python handler (Ctrl-C's KeyboardInterrupt, the command
        line's Interrupted) must not raise where nobody can catch it.

        Python runs a handler between any two bytecodes, and during a run that is mostly inside the
        rules' callbacks: raised in clipspy's own wrapper, the exception was printed ("Exception
        ignored from cffi callback") and lost, the rule got no answer, and the run went on.  In a
        notebook loop over ``sudorules.solve``, 7 Ctrl-C of 8 were lost, and two puzzles came back
        ``not-solved`` (cb-001 lines 140 and 186, W 0 and W 2).  So the handlers of STOP_SIGNALS are
        wrapped: inside a guarded function's body the exception is raised there (a long search stops
        at once; :meth:`_define` keeps it); anywhere else it is kept as the callback error, every
        later callback answers at once, and :meth:`solve` raises it when the run returns.  Only in
        the main thread, where handlers run; not for handlers that are not Python functions."""
        import signal
        import threading

        from ..errors import STOP_SIGNALS

        previous: dict[int, Callable] = {}
        if threading.current_thread() is threading.main_thread():
            def deferred(signum: int, frame: Any) -> None:
                try:
                    previous[signum](signum, frame)
                except BaseException as error:
                    if self._in_call:
                        raise
                    if self._callback_error is None:
                        self._callback_error = error

            for signum in STOP_SIGNALS:
                handler = signal.getsignal(signum)
                if callable(handler):
                    previous[signum] = handler
                    signal.signal(signum, deferred)
        try:
            yield
        finally:
            for signum, handler in previous.items():
                signal.signal(signum, handler)

    def solve(self, puzzle: Union[Puzzle, str], time_limit: Optional[float] = None,
              solution: Optional[Union[str, list[int]]] = None, memory_limit: Optional[int] = None) -> Resolution:
        """Run the theory on one puzzle and return its :class:`Resolution`.

        ``time_limit`` (seconds) stops the run with status ``timeout``; ``memory_limit`` (bytes the
        process may grow by during the run, its resident memory read between two chunks of rule
        firings) with status ``memory``: CLIPS itself, out of memory, prints one line and exits the
        process, and before that the kernel may kill whatever it picks (top1465 #182 under gW grows by
        about 100 MB a second, and took 24 GB in 260 s).  ``solution`` (81 digits,
        e.g. from :func:`sudorules.core.solve`) is an optional speed-up: no partial whip or braid
        is built on a candidate of the solution, since no sound rule can eliminate it; the
        eliminations found are the same.  Pass it only for a puzzle known to have that unique
        solution.  A signal during the run (Ctrl-C) is raised when the run returns, never lost
        (:meth:`_interrupts_deferred`).
        """
        self._callback_error = None
        try:
            with self._interrupts_deferred():
                result = self._solve(puzzle, time_limit, solution, memory_limit)
        except MemoryError:  # Python's side ran out (say under ulimit -v with no limit): as the limit is said
            result = Resolution(puzzle=as_puzzle(puzzle), theory=self.theory, max_length=self.max_length,
                                status="memory", error="out of memory")
        finally:
            self._deadline = None
        if self._callback_error is not None:  # a signal after the run's last chunk
            error, self._callback_error = self._callback_error, None
            raise error
        return result

    def _solve(self, puzzle: Union[Puzzle, str], time_limit: Optional[float],
               solution: Optional[Union[str, list[int]]], memory_limit: Optional[int]) -> Resolution:
        puzzle = as_puzzle(puzzle)  # a PuzzleTypeError for anything else (5 was an AttributeError)
        start = time.perf_counter()
        deadline = None if time_limit is None else start + time_limit
        self._deadline = None if time_limit is None else time.time() + time_limit
        env = self.env
        env.eval("(sr-clean)")  # before the memory is read: what the last run left is freed first
        memory_cap = room_floor = None
        if memory_limit is not None:
            # Under `ulimit -v` an allocation past the address space fails, and CLIPS then prints one
            # line and exits the process: solve ended with status 1 and nothing said, its later
            # puzzles never solved (helper-38).  So the address space left is watched too (it grows
            # past the resident memory), and the run ends cleanly with status memory once it falls
            # under a quarter of what it was when the run began (the theory's rules loaded), or
            # under 48 MiB: one chunk of firings took 25 MB of a 34 MiB room (W, cb-001 line 12301,
            # pandas loaded), and then CLIPS ran out within the next.  (Rating workers pass no
            # limit here: the kernel caps them, and their parent records the row.)
            room = oscompat.address_space_left()
            if room is not None:
                # what an earlier run left is free again: CLIPS's pools back to malloc, whose free
                # bytes count as room (the address space is not given back: after one memory stop,
                # easy puzzles stopped too, helper-40)
                env.eval("(release-mem)")
                room += oscompat.malloc_free_bytes()
            memory_said = f"memory limit of {memory_limit / 2**20:.0f} MiB reached"
            if room is not None and room - max(room // 4, ROOM_KEPT) < memory_limit:
                room_floor = max(room // 4, ROOM_KEPT)
                memory_said = (f"memory limit reached: ulimit -v leaves this process "
                               f"{room / 2**20:.0f} MiB to grow by")
            resident = oscompat.resident_memory()
            memory_cap = None if resident is None else resident + memory_limit
        recorder = self._recorder = Recorder(
            lambda target, rlcs, vid: order_braid(set(self.current_labels()), target, rlcs, vid))
        result = Resolution(puzzle=puzzle, theory=self.theory, max_length=self.max_length)
        givens = puzzle.givens
        done = []
        for cell, digit in enumerate(givens):
            if digit:
                done.extend(label_variables(label_at(digit, cell)))
        cands = [label_at(d, cell) for cell, digits in puzzle.candidates().items() for d in digits]
        true_labels = []
        if solution is not None:
            digits = [int(d) for d in solution]
            true_labels = [label_at(digits[cell], cell) for cell in range(81) if not givens[cell]]
        env.find_function("sr-init")(cands, done)
        self._present = set(cands)
        self._changes_seen = 0
        self._state_key = -1
        self._focused = set()
        self._g_focused = set()
        self._rooted = set()
        self._searched_empty = None
        self._lean_target = 0  # sr-clean reset it in CLIPS
        self._true = set(true_labels)
        self._level = 0
        n_givens = sum(1 for d in givens if d)

        level = 0
        status = None
        braids = None
        if self._passes:
            braids = BraidSchedule(
                env, self._lean, lambda pass_, length: self._braid_targets(pass_ in self._g_passes, length),
                self._passes, self._lean_braid)
        try:
            while True:
                fired = env.run(RUN_CHUNK)
                if self._callback_error is not None:  # a search's TimeoutError too: see below
                    error, self._callback_error = self._callback_error, None
                    raise error
                if recorder.contradiction:
                    status = "contradiction"
                    break
                if fired == RUN_CHUNK:
                    if deadline is not None and time.perf_counter() > deadline:
                        status = "timeout"
                        break
                    if ((memory_cap is not None and (oscompat.resident_memory() or 0) > memory_cap)
                            or (room_floor is not None and (oscompat.address_space_left() or 0)
                                + oscompat.malloc_free_bytes() < room_floor)):
                        status = "memory"
                        result.error = memory_said
                        break
                    continue
                # quiescent at the current level
                solved = n_givens + len(recorder.values) == 81
                if level == 0:
                    labels = [] if solved else self.current_labels()
                    result.candidates_after_singles = len(labels)
                    result.links_after_singles = csp_link_count(labels)
                elif level == 1:
                    result.candidates_after_whips1 = 0 if solved else len(self.current_labels())
                if solved:
                    status = "solved"
                    break
                if deadline is not None and time.perf_counter() > deadline:
                    status = "timeout"
                    break
                if self._whip_focus and level >= 2 and self.trial_filter:
                    # After a chain step only the targets with a whip shorter than the level are focused
                    # (whip-focus.clp): enough for the order of SPEC 5.3, since whips of the level's
                    # length may fire in any order among themselves.  Those that now have one of the
                    # level's length are focused here, before any braid of that length, and the level
                    # goes on.  (Searching them after every step cost W4 puzzles ~10 % more.)
                    targets = self._level_whip_target(level)
                    if targets:
                        self._focus_whips(targets)
                        continue
                if braids is not None:
                    more = braids.focus_next(len(recorder.records))
                    self._start_lean(braids)
                    if more:
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
                for kind in self._handover.get(level, ()):
                    {"neighbours": self._assert_neighbours, "touches": self._assert_touches,
                     "g-labels": self._assert_glabels, "g-touches": self._assert_gtouches}[kind]()
                self._level = level
                if self._whip_focus and self._lean_whips(level) and not self._lean_whips(level - 1):
                    # lean whips from here on: the focused targets' partial whips go (they depend
                    # logically on the focus facts), and every target is searched again
                    env.find_function("sr-unfocus-whips")()
                    self._focused.clear()
                    self._g_focused.clear()
                if self._whip_focus and level >= 2:
                    self._focus_whips(self._level_whip_target(level))
                env.find_function("sr-activate")(level)
                if self._sought and level >= 2:
                    # the seek rules of this level run in the current state (rules/seek.clp); a fact
                    # already there (a step made it) is kept: the lower levels' rules have run on it
                    env.find_function("sr-seek-state")()
                if braids is not None and level >= FIRST_BRAID_LEVEL:
                    braids.start_level(level, len(recorder.records))
        except TimeoutError:
            # The driver reads its clock between chunks of rule firings, but one firing can be a
            # search of seconds: under gBC the seek rule of a level tries a thousand g-bivalue-chain
            # targets (``find_chain``, 0.7 s at most each), and ``solve --theory gBC --time-limit 20``
            # of a W6 puzzle of cb-001 ended after 29.7 s (``rate`` with 10 s, 17 s).  So the compiled
            # searches take the deadline (a TimeoutError from their poll) and every callback reads it
            # first; the error comes here from a callback (kept by _define, raised above) or from a
            # search the driver calls itself (the lean whips of a level, a lean braid stage).  The
            # steps recorded are all sound: a search stopped only finds nothing.
            if self._deadline is None:
                raise
            status = "timeout"
        if result.candidates_after_whips1 is None and status == "solved" and level == 0:
            result.candidates_after_whips1 = 0
        result.status = Status(status)
        result.contradiction = recorder.contradiction
        result.steps = in_cycle_order([step_of_record(record) for record in recorder.records], result.puzzle)
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


