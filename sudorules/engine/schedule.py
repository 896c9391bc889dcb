"""The order in which the B and gB theories grow partial braids and g-braids, target by target
(rules/braid.clp, rules/g-braid.clp)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Optional, Union

if TYPE_CHECKING:
    import clips  # the type of an environment only: the constants here are read without the engine

#: the first level with braids (B2 = W2, gB2 = gW2: SPEC §5.1)
FIRST_BRAID_LEVEL = 3

#: the default level from which the newest partial braids are kept for one target at a time
#: (``--lean-braids-from``).  With the trial filter, 5 cost less time than 7 and far less memory
#: (CPU s and peak MiB of one process, the solution given, B): line 1747 (B6) 7.7 s 1,417 MiB at 7,
#: 5.0 s 486 MiB at 5; line 6972 (B8) 26.6 s 1,407 MiB, 17.7 s 596 MiB.  Since lean stages test each
#: partial braid before building it (Engine._viable: it must still be able to complete within the
#: stage's length), 3 is best: line 1747 5.0 s at 5, 2.5 s at 4, 1.8 s at 3; line 6972 4.6 / 3.5 /
#: 3.2 s; line 1175 (B8) 6.6 / 4.6 / 3.8 s; line 7462 (B9) 30 s and 1,364 MiB at 3 (359 s, 6.1 GB
#: before the test); 16 puzzles B3-B6 12.9-13.7 s at 5, 5.1-5.9 s at 3, B3-B4 unchanged.
LEAN_BRAIDS_FROM = 3

#: what the driver's compiled search says of a lean stage's target (BraidSchedule.attempt)
NONE, APPLIED, OPEN = "none", "applied", "open"


class BraidSchedule:
    """The order in which partial braids (pass 1) and partial g-braids (pass 2) grow, target by target.

    Partial chains of target Z in pass p grow to length k - 1 only once ``(focus (z Z) (level k)
    (pass p))`` holds.  ``targets(p, n)`` gives the targets that may carry a chain of length n or less
    in pass p in the current state, the one to try first last: those whose trial propagation
    (:mod:`.trial`; with g-labels in pass 2) contradicts within n rounds, soonest first.  The others
    cannot, so they are not focused (on cb-001 line 1747 at level 5: 25 of 102 targets).

    Below level ``lean_from``, a level n runs pass 1 then pass 2 (``passes``: those of the theory's
    families): each target that may carry a chain of length n is focused at levels 3..n of the pass
    (the shorter lengths too, for a target skipped at earlier levels) and keeps its partial chains,
    which CLIPS maintains as candidates go.  So braid[n] comes before g-braid[n] over all targets
    (SPEC §5.3), and a puzzle that braid[n] solves never builds a partial g-braid of length n - 1
    (gB = B on all but 38 of the 21,695 cb-001 puzzles; on line 5387, gB 5, level 5 took 3.9 s of 7.7
    with both passes at once).  A pass ends when every target it may use has been focused, the state
    having changed or not since the list was made; the level ends when no pass has such a target left:
    a target can become possible when candidates go, and its chains would not be maintained.

    From its lean level on (``lean_from[p]``: 3 by default for both), a pass's partial chains of
    length lean - 1 and more would not fit in memory for every target at once (several GB at length 7
    or 8 for braids; for g-braids, about four times as many, at length 5).  They are grown for one
    target at a time, only those that can still complete within the stage's length (the driver's
    ``_viable``), and dropped once it is tried, in sub-passes of
    increasing length m = lean .. n over the targets that may carry a chain of length m; any change
    of the resolution state starts the sub-passes again at the shortest length.  The stages of a level
    are ordered by length, then pass.  Chains are still applied by increasing length (a chain of
    length m is found only after a whole sub-pass at every shorter length found nothing in the same
    state), but whips of length n, which stay built for every target, come before braids of the lean
    lengths below n.  Before a lean stage focuses a target it asks ``attempt`` (the driver's compiled
    braid search): :data:`NONE`, no chain of the stage's pass and length exists on it (it is skipped:
    CLIPS would build nothing that completes); :data:`APPLIED`, the driver found one, recorded it and
    eliminated the target, as the rules would have (the state changed: the lean stages start again
    once CLIPS is quiescent); :data:`OPEN`, undecided, so CLIPS builds its partial chains.  The ratings
    are the same either way: braids and g-braids are confluent (SPEC §5.2), and level n is switched on
    only when no chain of length n - 1 or less applies.
    """

    def __init__(self, env: clips.Environment, lean_from: Union[int, dict[int, int]],
                 targets: Callable[[int, int], list[int]], passes: tuple[int, ...] = (1,),
                 attempt: Callable[[int, int, int], str] = lambda pass_, length, target: OPEN):
        self.focus_range = env.find_function("sr-focus-range")
        self.unfocus = env.find_function("sr-unfocus")
        self.passes = tuple(passes)
        #: the lean level of each pass
        self.lean_from = lean_from if isinstance(lean_from, dict) else {p: lean_from for p in self.passes}
        self.targets = targets
        #: lean stages: (pass, length, target) -> NONE, APPLIED or OPEN (see the class)
        self.attempt = attempt
        self.level = 0
        self.stages: list[tuple[int, int, bool]] = []  # (pass, length, lean) of the level, in order
        self.stage = 0
        self.queue: Optional[list[int]] = None  # targets still to try in this stage, the next one last
        self.queue_records = 0  # rule applications when the queue was made
        self.tried: dict[int, set[int]] = {}  # below lean_from: targets focused at this level, by pass
        self.focused = 0  # the target focused by the last focus_next that returned True
        self.current: Optional[tuple[int, int]] = None  # lean stages: the (target, pass) being tried
        self.current_length = 0  # lean stages: the length of the stage being tried
        self.records_before = 0
        self.dirty = False  # the state changed since the level started

    def start_level(self, level: int, records: int) -> None:
        """Level ``level`` is switched on; ``records``: rule applications so far."""
        self.level = level
        self.current = None
        self.records_before = records
        self.queue = None
        self.dirty = False
        self.tried = {p: set() for p in self.passes}
        stages = []
        for p in self.passes:
            lean = self.lean_from[p]
            stages += [(p, level, False)] if level < lean else [(p, m, True) for m in range(lean, level + 1)]
        self.stages = sorted(stages, key=lambda s: (s[1], s[0]))
        self.stage = 0

    def focus_next(self, records: int) -> bool:
        """At quiescence: focus the next target, or apply a braid the driver found (True: CLIPS runs
        again), or say the level is done (False).
        ``records``: the number of rule applications so far (tells whether the state changed)."""
        changed = records > self.records_before
        self.records_before = records
        self.focused = 0
        if self.current is not None:
            target, pass_ = self.current
            for q in self._with_sources(pass_):
                self.unfocus(target, self.lean_from[q], q)
            self.current = None
        if changed:
            self.dirty = True
            first_lean = next((k for k, s in enumerate(self.stages) if s[2]), None)
            if first_lean is not None and first_lean <= self.stage:
                self.stage, self.queue = first_lean, None  # every lean length again, in the new state
        while True:
            if self.stage >= len(self.stages):
                if not self._reopen(records):
                    return False
            pass_, length, lean = self.stages[self.stage]
            if lean and length < self.level and not self.dirty:
                # searched in this same state at the previous level
                self.stage += 1
                continue
            if self.queue is None:
                self.queue = self._fresh(pass_, length, lean)
                self.queue_records = records
            while lean and self.queue:
                verdict = self.attempt(pass_, length, self.queue[-1])
                if verdict == OPEN:
                    break
                self.queue.pop()
                if verdict == APPLIED:
                    return True  # CLIPS draws the consequences; the next call sees the change
            if self.queue:
                target = self.focused = self.queue.pop()
                if lean:
                    # An earlier pass's chains one length shorter: they are only sources here, and
                    # one of length - 1 could only close a chain of that pass, of this length, which
                    # its own stage just found none of for this target in this same state (stages go
                    # by length, then pass, and any change starts them again).
                    for q in self._with_sources(pass_):
                        self.focus_range(target, FIRST_BRAID_LEVEL, length if q == pass_ else length - 1, q)
                    self.current, self.current_length = (target, pass_), length
                else:
                    self.focus_range(target, FIRST_BRAID_LEVEL, length, pass_)
                    self.tried[pass_].add(target)
                return True
            if not lean and self.queue_records < records:
                self.queue = None  # the state changed since the list was made: look again
                continue
            self.stage += 1
            self.queue = None

    def _with_sources(self, pass_: int) -> tuple[int, ...]:
        """The passes whose partial chains a lean target of ``pass_`` needs: its own and the earlier
        ones (partial g-braids extend partial braids: rules/partial-g-braid-g.clp).  Below the lean
        levels the earlier pass keeps its partial chains for every target it may use; at its lean
        levels it keeps them for the target it tries only, so a g-braid whose g-rlc can only come
        after four candidate rlcs needs the target's partial braids grown again here."""
        return tuple(q for q in self.passes if q <= pass_)

    def _fresh(self, pass_: int, length: int, lean: bool) -> list[int]:
        targets = self.targets(pass_, length)
        return targets if lean else [z for z in targets if z not in self.tried[pass_]]

    def _reopen(self, records: int) -> bool:
        """At the end of a level: go back to the first stage that keeps its chains and has a target
        not yet focused that may now carry a chain of the level's length (True), or none (False).
        (A change of state restarts the lean stages by itself.)"""
        for stage, (pass_, length, lean) in enumerate(self.stages):
            queue = [] if lean else self._fresh(pass_, length, lean)
            if queue:
                self.stage, self.queue, self.queue_records = stage, queue, records
                return True
        return False
