"""The order in which the B and gB theories grow partial braids and g-braids, target by target
(rules/braid.clp, rules/g-braid.clp)."""

from __future__ import annotations

from typing import Callable, Optional

import clips

#: the first level with braids (B2 = W2, gB2 = gW2: SPEC §5.1)
FIRST_BRAID_LEVEL = 3


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

    From level ``lean_from`` on, the partial chains of length ``lean_from`` - 1 and more would not fit
    in memory for every target at once (several GB at length 7 or 8).  They are grown for one target
    at a time and dropped once it is tried, in sub-passes of increasing length m = ``lean_from`` .. n,
    each running pass 1 then pass 2 over the targets that may carry a chain of length m, and any
    change of the resolution state starts again at m = ``lean_from``.  Chains are still applied by
    increasing length (a chain of length m is found only after a whole sub-pass at every shorter
    length found nothing in the same state), but whips of length n, which stay built for every target,
    come before braids of length ``lean_from`` .. n - 1.  The ratings are the same either way: braids
    and g-braids are confluent (SPEC §5.2), and level n is switched on only when no chain of length
    n - 1 or less applies.
    """

    def __init__(self, env: clips.Environment, lean_from: int, targets: Callable[[int, int], list[int]],
                 passes: tuple[int, ...] = (1,)):
        self.focus_range = env.find_function("sr-focus-range")
        self.unfocus = env.find_function("sr-unfocus")
        self.lean_from = lean_from
        self.targets = targets
        self.passes = tuple(passes)
        self.level = 0
        self.stages: list[tuple[int, int]] = []  # (pass, length) of the level, in order
        self.stage = 0
        self.queue: Optional[list[int]] = None  # targets still to try in this stage, the next one last
        self.queue_records = 0  # rule applications when the queue was made
        self.tried: dict[int, set[int]] = {}  # below lean_from: targets focused at this level, by pass
        self.current: Optional[int] = None  # lean levels: the target being tried
        self.records_before = 0

    @property
    def lean(self) -> bool:
        return self.level >= self.lean_from

    def start_level(self, level: int, records: int) -> None:
        """Level ``level`` is switched on; ``records``: rule applications so far."""
        self.level = level
        self.current = None
        self.records_before = records
        self.queue = None
        self.tried = {p: set() for p in self.passes}
        if not self.lean:
            self.stages = [(p, level) for p in self.passes]
        else:
            self.stages = [(p, m) for m in range(self.lean_from, level + 1) for p in self.passes]
        # Lean levels: the shorter lengths were searched in this same state at the previous level,
        # unless the level's own rules (whips of length n) change it (see focus_next).
        self.stage = 0 if not self.lean or level == self.lean_from else len(self.stages) - len(self.passes)

    def focus_next(self, records: int) -> bool:
        """At quiescence: focus the next target (True), or say the level is done (False).
        ``records``: the number of rule applications so far (tells whether the state changed)."""
        changed = records > self.records_before
        self.records_before = records
        if self.current is not None:
            self.unfocus(self.current, self.lean_from)
            self.current = None
        if changed and self.lean and (self.stage > 0 or self.queue is not None):
            self.stage, self.queue = 0, None  # every length again from lean_from, in the new state
        while True:
            if self.stage >= len(self.stages):
                if self.lean or not self._reopen(records):
                    return False
            pass_, length = self.stages[self.stage]
            if self.queue is None:
                self.queue = self._fresh(pass_, length)
                self.queue_records = records
            if self.queue:
                target = self.queue.pop()
                self.focus_range(target, FIRST_BRAID_LEVEL, length, pass_)
                if self.lean:
                    self.current = target
                else:
                    self.tried[pass_].add(target)
                return True
            if not self.lean and self.queue_records < records:
                self.queue = None  # the state changed since the list was made: look again
                continue
            self.stage += 1
            self.queue = None

    def _fresh(self, pass_: int, length: int) -> list[int]:
        targets = self.targets(pass_, length)
        return targets if self.lean else [z for z in targets if z not in self.tried[pass_]]

    def _reopen(self, records: int) -> bool:
        """Below lean_from, at the end of the level: go back to the first pass with a target not yet
        focused that may now carry a chain of the level's length (True), or none (False)."""
        for stage, (pass_, length) in enumerate(self.stages):
            queue = self._fresh(pass_, length)
            if queue:
                self.stage, self.queue, self.queue_records = stage, queue, records
                return True
        return False
