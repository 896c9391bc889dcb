"""The bridge between CLIPS and Python: the functions the rules call back when they fire, and how
their integer records become :class:`~sudorules.resolution.steps.Step` objects.

The rules' right-hand sides call ``sr-single``, ``sr-chain``, ``sr-more``, ``sr-braid``,
``sr-subset``, ``sr-finned``, ``sr-seek`` and ``sr-contradiction`` (defined on the environment by :class:`~.driver.Engine`);
a :class:`Recorder` keeps what they report as plain integers during a run, and :func:`step_of_record`
decodes them once the run is over (decoding inside the callbacks would slow every firing).
"""

from __future__ import annotations

import os
import sys
from typing import Callable, Optional, Sequence

import clips

from ..puzzle import block_cells, cell_at
from ..resolution.steps import SUBSET_NAMES, ChainCell, GCandidate, Step, SubsetPattern
from .labels import _KIND_OF_HUNDREDS, G_LABELS, candidate_of_label, glabel_variable, is_glabel, variable_of_id

#: put the rlcs of a braid found as a set in a valid order: (target, rlcs, last variable) -> the flat
#: (variable, left-linking, right-linking) list of its cells (:func:`.order.order_braid`)
BraidOrder = Callable[[int, list[int], int], list[int]]

_SINGLE_NAMES = {"rc": "naked-single", "rn": "hidden-single-in-a-row",
                 "cn": "hidden-single-in-a-column", "bn": "hidden-single-in-a-block"}
_UNIT_KINDS = {1: "row", 2: "column", 3: "block", 4: "row", 5: "column", 6: "block", 7: "rows", 8: "columns"}


class QuietRunLimit(clips.Router):
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


class QuietOutOfMemory(clips.Router):
    """Drops CLIPS's ``[MEMORY1] Out of memory.`` line from its error output and passes every
    other line on.  CLIPS prints it, then exits the process, when an allocation fails: a rating
    worker under its memory limit (``rate --memory-limit``), whose parent already records the row
    as ``memory`` and says so; the line, in the middle of the run's progress, said nothing more.
    CLIPS writes a message in pieces (``[``, ``MEMORY``, ``1``, ``] ``, the text), so a line is
    held until its end; above clipspy's error router (priority 40), which still gets every other
    line for its CLIPSError messages."""

    LINE = "[MEMORY1] Out of memory."
    #: Outside a rating worker the line is replaced by this one: `solve --memory-limit 0` under
    #: `ulimit -v` ended with status 1 and nothing said (helper-38).  A rating worker (its pool sets
    #: :data:`WORKER_VARIABLE` in it, without importing clips there) says nothing.
    SAID = ("Error: out of memory in the rules: CLIPS ends the process here (a --memory-limit, or "
            "memory_limit, under what the system allows stops such a run cleanly)")
    WORKER_VARIABLE = "SUDORULES_RATING_WORKER"

    def __init__(self):
        super().__init__("sudorules-quiet-out-of-memory", 50)
        self._line = ""

    def query(self, name: str) -> bool:
        return name == "stderr"

    def write(self, name: str, message: str) -> None:
        self._line += message
        if "\n" not in self._line:
            return
        lines, _, self._line = self._line.rpartition("\n")
        kept = [line for line in lines.split("\n") if line.strip() != self.LINE]
        if len(kept) < lines.count("\n") + 1 and not os.environ.get(self.WORKER_VARIABLE):
            try:
                sys.stdout.flush()  # the paths printed whole so far
                sys.stderr.write(self.SAID + "\n")
                sys.stderr.flush()
            except (OSError, ValueError):
                pass
        if any(line for line in kept):
            self.share_message(name, "\n".join(kept) + "\n")


class Recorder:
    """Collects rule applications from the CLIPS callbacks during one run."""

    def __init__(self, order_braid: BraidOrder):
        self.order_braid = order_braid
        self.records: list[list] = []  # [rule, level, eliminations, assertions, chain]
        self.values: list[int] = []
        #: every change of the candidates, in order: +label for a value (its candidate and every
        #: candidate linked to it go), -label for an elimination (the driver follows the current
        #: candidates with it, without reading them from CLIPS)
        self.changes: list[int] = []
        self.contradiction: Optional[str] = None

    def single(self, vid, label):
        kind = _KIND_OF_HUNDREDS[int(vid) // 100]
        self.records.append([_SINGLE_NAMES[kind], 0, [], [int(label)], None])
        self.values.append(int(label))
        self.changes.append(int(label))

    def chain(self, rule, level, target, cells):
        self.records.append([str(rule), int(level), [int(target)], [], list(cells)])
        self.changes.append(-int(target))

    def more(self, target):
        self.records[-1][2].append(int(target))
        self.changes.append(-int(target))

    def subset(self, size, unit, target, *rest):
        size, unit = int(size), int(unit)
        indices, coords = [int(x) for x in rest[:size]], [int(x) for x in rest[size:]]
        self.records.append([subset_pattern(size, unit, indices, coords), size, [int(target)], [], None])
        self.changes.append(-int(target))

    def braid(self, level, target, rlcs, vid, rule="braid"):
        cells = self.order_braid(int(target), [int(x) for x in rlcs], int(vid))
        self.records.append([rule, int(level), [int(target)], [], cells])
        self.changes.append(-int(target))

    def finned(self, size, kind, digit, *rest):
        """A finned fish (rules/finned-fish*.clp): its size, 7 (in rows) or 8 (in columns), its digit,
        then its base and cover lines in printed order, then its first target."""
        size = int(size)
        lines, target = [int(x) for x in rest[:-1]], int(rest[-1])
        pattern = SubsetPattern("finned", _UNIT_KINDS[int(kind)], int(digit), bases=tuple(lines[:size]),
                                covers=tuple(lines[size:]))
        self.records.append([pattern, size, [target], [], None])
        self.changes.append(-target)

    def sought(self, rule: str, level: int, targets: Sequence[int], cells: Sequence[int]):
        """A chain found by the engine's search (:mod:`.seek`), all its targets at once."""
        self.records.append([rule, level, list(targets), [], list(cells)])
        self.changes.extend(-z for z in targets)

    def contradict(self, vid):
        self.contradiction = variable_of_id(int(vid)).cell_name


def subset_pattern(size: int, unit: int, indices: list[int], coords: list[int]) -> SubsetPattern:
    """The :class:`SubsetPattern` of a Subset found in unit space ``unit`` (see rules/subset.clp)."""
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
    if pattern.family == "finned":
        return f"finned-{SUBSET_NAMES[size][1]}-in-{pattern.unit_kind}"
    if pattern.family == "fish":
        return f"{SUBSET_NAMES[size][1]}-in-{pattern.unit_kind}"
    return f"{pattern.family}-{SUBSET_NAMES[size][0]}-in-a-{pattern.unit_kind}"


def _right_of(x: int):
    """The right-linking object of a chain slot: None (0), a candidate, or a g-candidate."""
    if not x:
        return None
    if is_glabel(x):
        variable = variable_of_id(glabel_variable(x))
        return GCandidate.of(variable, [candidate_of_label(lab) for lab in G_LABELS[x]])
    return candidate_of_label(x)


def step_of_record(record: list) -> Step:
    """The step of one :class:`Recorder` record."""
    rule, level, eliminations, assertions, cells = record
    if isinstance(rule, SubsetPattern):
        return Step(rule=_subset_rule_name(rule), level=level,
                    eliminations=tuple(candidate_of_label(z) for z in eliminations), subset=rule)
    chain = ()
    if cells:
        chain = tuple(
            ChainCell(variable_of_id(cells[i]), candidate_of_label(cells[i + 1]), _right_of(cells[i + 2]))
            for i in range(0, len(cells), 3))
    return Step(rule=rule, level=level,
                eliminations=tuple(candidate_of_label(z) for z in eliminations),
                assertions=tuple(candidate_of_label(a) for a in assertions),
                chain=chain)
