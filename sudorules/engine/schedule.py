"""The order in which the B theory grows partial braids, target by target (rules/braid.clp)."""

from __future__ import annotations

from typing import Optional

import clips

class BraidSchedule:
    """The order in which the B theory grows partial braids, target by target (rules/braid.clp).

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

    ``passes``: the focus passes of the theory's families (``Family.focus_pass``: 1 braids, 2
    g-braids).  Below ``lean_from`` a level focuses every target in pass 1, then every target in
    pass 2: braid[n] before g-braid[n] over all targets (SPEC §5.3), and a puzzle that braid[n]
    solves never builds a partial g-braid of length n - 1 (gB = B on all but 38 of the 21,695
    cb-001 puzzles; measured on line 5387, gB 5: level 5 took 3.9 s of 7.7 with both at once).
    From ``lean_from`` on, a target is focused in every pass at once.
    """

    def __init__(self, env: clips.Environment, lean_from: int, targets, passes: tuple[int, ...] = (1,)):
        self.focus = env.find_function("sr-focus")
        self.focus_range = env.find_function("sr-focus-range")
        self.unfocus = env.find_function("sr-unfocus")
        self.lean_from = lean_from
        self.passes = tuple(passes)
        self.pass_index = 0  # below lean_from: the pass being run
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
            self.pass_index = 0
            self.queue = self.targets()
        else:  # sub-passes start once the level's own rules are quiet (see focus_next)
            self.queue = []
            self.length = 0

    def focus_next(self, records: int) -> bool:
        """At quiescence: try the next target (True), or say the level is done (False).
        ``records``: the number of rule applications so far (tells whether the state changed)."""
        if self.level < self.lean_from:
            while not self.queue:
                if self.pass_index + 1 >= len(self.passes):
                    return False
                self.pass_index += 1
                self.queue = self.targets()
            self.focus(self.passes[self.pass_index], self.level, self.queue.pop())
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
        self.focus_range(self.current, self.lean_from, self.length, *self.passes)
        return True
