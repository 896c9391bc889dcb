"""The compiled T&E engine (generator/te.c): the B and gB ratings, the T&E-depth classification with
its B, BxB and BxBB sub-classifications (SPEC §10), and T&E resolution paths.

Everything here is one call into ``sudorules._trial.te_run``; this module turns a puzzle into its 81
cell masks, the engine's answer into domain values (:class:`Classification`, :class:`Rating`), and a
recorded trace into :class:`~sudorules.resolution.steps.Step` objects with their contexts.

Why a compiled engine beside the rules: braids are confluent (SPEC §5.2), so the B and gB ratings do
not depend on the order of the rule applications and need no CLIPS path; the braid searches of
generator/trial.c, run exactly, give them directly (21,695 of the 21,695 published B ratings of
cb-001 in 19 CPU-s against about 500 for the rules), and T&E(T, n) for the classification beyond
braids needs thousands of contexts a puzzle, each a copy of the state: microseconds in C.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Optional, Sequence

from .. import _trial
from ..enums import Status
from ..puzzle import Candidate, Puzzle, as_puzzle

if TYPE_CHECKING:
    from ..resolution.steps import CspVariable, Step

# The path types (resolution.steps) and the g-labels' table are imported where a path is decoded: a
# rating needs neither, and importing them was a fifth of `rate --rating B`'s start-up (importtime).

#: SHC's and the field's limits of the classification: T&E-depth 3 is the deepest known (SPEC §10.2)
MAX_DEPTH = 3

_KINDS = ("rc", "rn", "cn", "bn")
_SINGLE_RULES = {"rc": "naked-single", "rn": "hidden-single-in-a-row", "cn": "hidden-single-in-a-column",
                 "bn": "hidden-single-in-a-block"}
# te.h's event kinds
_SINGLE, _CHAIN, _HYP, _CONTRA, _ELIM, _LEVEL = 1, 2, 3, 4, 5, 6


@lru_cache(maxsize=None)
def _g_ids() -> list[int]:
    """labels.py's g-label ids in te.c's order: te.c's g-label k is labels.py's k-th."""
    from .labels import G_LABELS

    return list(G_LABELS)


def _candidate(index: int) -> Candidate:
    """The candidate of te.c's label index 81(n-1) + 9(r-1) + (c-1)."""
    digit, cell = divmod(index, 81)
    return Candidate(digit + 1, cell // 9 + 1, cell % 9 + 1)


def _variable(index: int) -> CspVariable:
    """The CSP variable of te.c's variable index (81 of each kind: rc, rn, cn, bn)."""
    from ..resolution.steps import CspVariable

    kind, rest = divmod(index, 81)
    return CspVariable(_KINDS[kind], rest // 9 + 1, rest % 9 + 1)


def _right(variable: CspVariable, index: int):
    """A chain cell's right-linking object: a candidate, te.c's g-label NL + k, or None (-1)."""
    if index < 0:
        return None
    if index < 729:
        return _candidate(index)
    from ..resolution.steps import GCandidate
    from .labels import G_LABELS

    labels = G_LABELS[_g_ids()[index - 729]]
    return GCandidate.of(variable, [Candidate(lab // 100, lab // 10 % 10, lab % 10) for lab in labels])


@dataclass(frozen=True)
class Rating:
    """A braid rating (B or gB) from the compiled engine: ``value`` when ``status`` is solved."""

    value: Optional[int]
    status: Status
    error: str = ""


@dataclass(frozen=True)
class Classification:
    """A puzzle's place in the T&E-depth classification (SPEC §10.3).

    ``depth`` is its T&E-depth (None beyond the depth asked for), ``value`` its sub-classification:
    the B rating at depth 0 (0: Singles solve it) and 1, BxB at depth 2, BxBB at depth 3 (None
    beyond the length asked for).  ``status`` is ``solved`` when both are known; ``error`` says why not otherwise."""

    depth: Optional[int]
    value: Optional[int]
    status: Status
    error: str = ""

    @property
    def label(self) -> str:
        """The name of the sub-classification at this depth: ``B``, ``BxB``, ``BxBB``."""
        return SUB_NAMES.get(self.depth, "") if self.depth is not None else ""

    def columns(self) -> dict[str, Optional[int]]:
        """The classify columns: ``te_depth``, and the value under its own name (B, BxB, BxBB)."""
        out: dict[str, Optional[int]] = {"te_depth": self.depth, **{name: None for name in SUB_NAMES.values()}}
        if self.label:
            out[self.label] = self.value
        return out


#: the sub-classification at each depth: B at depth 0 too, where it is 0 (Singles solve the puzzle), as
#: SHC's B says and rate --rating B (classify left it empty there: helper-42)
SUB_NAMES = {0: "B", 1: "B", 2: "BxB", 3: "BxBB"}
#: the status of a puzzle beyond T&E(n)
BEYOND = {1: Status.BEYOND_TE1, 2: Status.BEYOND_TE2, 3: Status.BEYOND_TE3}


def _run(puzzle: Puzzle, task: str, *, g: bool = False, depth_limit: int = MAX_DEPTH, length_limit: int = 36,
         solution: Optional[Sequence[int]] = None, time_limit: Optional[float] = None, trace: bool = False,
         state: bool = False, search_cap: int = 0, upper: int = 0) -> dict:
    """One call of the engine.  ``search_cap``: the nodes a braid search may visit before the closure
    puts it off (te.c close_theory; 0 for the engine's own), for the tests that check the outcome does
    not depend on it.  ``upper``: task B's known upper bound (:func:`rate_braids`; 0: none)."""
    # a puzzle's text is taken too (te.classify("...") failed on .masks)
    return _trial.te_run(as_puzzle(puzzle).masks(), task, g, depth_limit, length_limit,
                         None if solution is None else "".join(map(str, solution)), time_limit, trace, state,
                         search_cap, upper)


def _stopped(answer: dict) -> Optional[Status]:
    """The status of a run that did not finish (timeout, out of memory), else None."""
    if answer["outcome"] == "timeout":
        return Status.TIMEOUT
    if answer["outcome"] in ("no-memory", "stopped"):
        return Status.MEMORY
    return None


def _not_solving(g: bool, length: int) -> str:
    return f"{'g-' if g else ''}braids of length <= {length} do not solve it"


def _what_is_known(g: bool, closing: int, upper: Optional[int]) -> str:
    """What a B or gB rating stopped before its end knows: the lengths below the one under way were
    closed without solving the puzzle (a lower bound: what is known of a puzzle whose last exhaustive
    pass does not end, docs/engine.md); and for gB, ``upper``, the B that came within half the time
    limit again (:func:`_b_within`)."""
    bounds = [(f"at least {closing}", _not_solving(g, closing - 1))] if closing > 1 else []
    if upper is not None:
        bounds.append((f"at most {upper}", f"braids of length <= {upper} do"))
    if not bounds:
        return ""
    return f"{' and '.join(bound for bound, _ in bounds)} ({'; '.join(why for _, why in bounds)})"


def _b_within(puzzle: Puzzle, closing: int, max_length: int, solution: Optional[Sequence[int]],
              time_limit: float) -> Optional[int]:
    """B, an upper bound of a gB rating stopped by its time limit (braids are g-braids), when it comes
    within half that limit again and is at least the length the gB closure had reached: top1465 #182
    given 0.6 s, `at least 13 and at most 16`, given 1 s `at least 14` (its gB, 16, takes about
    1.8 s; its B 0.1 s)."""
    b = rate_braids(puzzle, max_length=max_length, solution=solution, time_limit=0.5 * time_limit)
    return b.value if b.status is Status.SOLVED and b.value >= closing else None


def rate_braids(puzzle: Puzzle, *, g: bool = False, max_length: int = 36, solution: Optional[Sequence[int]] = None,
                time_limit: Optional[float] = None, upper: Optional[int] = None) -> Rating:
    """The B rating (gB with ``g``) of a puzzle with a unique solution: the smallest p such that
    braids (g-braids) of length <= p solve it.  A puzzle outside T&E(1) (gT&E(1) for gB: braids'
    eliminations are exactly T&E(1)'s, SPEC §10.2) is told at once, status ``beyond-te1``.

    ``upper``: another rating of the puzzle known to be at least this one (gB <= B <= W and
    gB <= gW: g-braids include braids, braids include whips, SPEC §4).  Once the closure of length
    ``upper - 1`` is stuck, the rating is ``upper`` and the searches of that length, which would only
    find how, are not made (:class:`~sudorules.batch.Rater` passes the ratings it has).  A wrong bound
    gives a wrong rating: pass only a rating computed for this very puzzle."""
    if upper is not None and not (isinstance(upper, int) and 0 <= upper <= 81):
        raise ValueError(f"upper must be a rating between 0 and 81, not {upper!r}")
    answer = _run(puzzle, "B", g=g, length_limit=max_length, solution=solution, time_limit=time_limit,
                  upper=upper or 0)
    stopped = _stopped(answer)
    if stopped is not None:
        closing = answer["closing"]
        upper_b = (_b_within(puzzle, closing, max_length, solution, time_limit)
                   if g and stopped is Status.TIMEOUT and time_limit is not None else None)
        if upper_b is not None and upper_b == closing > 1:
            # g-braids of length < closing do not solve it, braids of length closing do: that is its gB
            # (a row said "timeout, gB: at least 11 and at most 11" with the value empty)
            return Rating(closing, Status.SOLVED)
        return Rating(None, stopped, _what_is_known(g, closing, upper_b))
    if answer["depth"] < 0:
        return Rating(None, Status.BEYOND_TE1, beyond_te1_reason(g, "braid"))
    if answer["value"] < 0:
        return Rating(None, Status.NOT_SOLVED, _not_solving(g, max_length))
    return Rating(answer["value"], Status.SOLVED)


#: The longest whips (g-whips) whose theory is the braids' (g-braids') of the same length, so confluent:
#: W2 = B2 and gW3 = gB3 (SPEC §5.1, PBCS §7.4; docs/engine.md gives the argument for gW3 = gB3).
CONFLUENT_WHIPS = {False: 2, True: 3}


@dataclass(frozen=True)
class ShortWhips:
    """What whips of length <= 2 (g-whips of length <= 3 with ``g``: :data:`CONFLUENT_WHIPS`) do to a
    puzzle: its W (gW) rating when they solve it, else the state they leave as a pencilmark puzzle;
    ``beyond`` for a puzzle outside T&E(1) (gT&E(1)), which no whip solves."""

    rating: Optional[int]
    state: Optional[Puzzle]
    beyond: bool = False


def short_whips(puzzle: Puzzle, *, g: bool = False, solution: Optional[Sequence[int]] = None,
                max_length: Optional[int] = None) -> ShortWhips:
    """The confluent start of a W (gW) rating: W2 = B2 and gW3 = gB3 are confluent, so their closure
    (the compiled engine's braids of length <= 2, g-braids of length <= 3: about a millisecond) is the
    state any simplest-first path of whips (g-whips) reaches before its first longer one, and the
    rating when it solves the puzzle (W 0-2: 58 % of cb-001, gW 0-3: 78 %).  The rules then need to
    run only from that state.  ``max_length`` (the rating's ``--max-length``) below that length
    closes at it instead (each shorter length is confluent too): a W1 rating was W 2 at
    ``--max-length 1`` when braids of length 2 solved the puzzle."""
    limit = CONFLUENT_WHIPS[g] if max_length is None else min(CONFLUENT_WHIPS[g], max_length)
    answer = _run(puzzle, "B", g=g, length_limit=limit, solution=solution, state=True)
    if answer["depth"] < 0:
        return ShortWhips(None, None, beyond=True)
    if answer["value"] >= 0:
        return ShortWhips(answer["value"], None)
    return ShortWhips(None, Puzzle.from_marks(answer["masks"]))


def beyond_te1_reason(g: bool, chain: str) -> str:
    """Why a puzzle outside T&E(1) (gT&E(1)) has no rating by whips or braids (g-whips, g-braids)."""
    return f"not in {'gT&E' if g else 'T&E'}(1), so no {'g-' if g else ''}{chain} solves it (T&E-depth 2 or more)"


def in_te1(puzzle: Puzzle, *, g: bool = False, solution: Optional[Sequence[int]] = None) -> bool:
    """True when T&E(1) (gT&E(1) with ``g``) solves the puzzle: a few milliseconds at most."""
    return _run(puzzle, "TE", g=g, depth_limit=1, solution=solution)["depth"] >= 0


def classify(puzzle: Puzzle, *, max_depth: int = MAX_DEPTH, max_length: int = 36, g: bool = False,
             task: str = "classify", solution: Optional[Sequence[int]] = None,
             time_limit: Optional[float] = None) -> Classification:
    """The T&E-depth of a puzzle with a unique solution (gT&E with ``g``), then its B, BxB or BxBB
    value (SPEC §10.3).  ``task`` ``TE`` stops at the depth; ``BxB`` (``BxBB``) computes only that
    value, for a puzzle of depth 2 (3)."""
    answer = _run(puzzle, task, g=g, depth_limit=max_depth, length_limit=max_length, solution=solution,
                  time_limit=time_limit)
    stopped = _stopped(answer)
    if stopped is not None:  # the depth, when it was found before the limit, is kept (a timeout row said nothing)
        depth = answer["depth"] if answer.get("depth", -1) >= 0 else None
        if depth is None or task == "TE" or depth == 0:
            return Classification(depth, None, stopped)
        what = "the time limit" if stopped is Status.TIMEOUT else "the memory limit"
        return Classification(depth, None, stopped, f"T&E-depth {depth}; {SUB_NAMES[depth]} not found within {what}")
    depth = answer["depth"]
    limit = {"BxB": 2, "BxBB": 3}.get(task, max_depth)
    if depth < 0:  # the option named only where it set the limit (BxB is for depth 2 whatever it is)
        return Classification(None, None, BEYOND.get(limit, Status.NOT_SOLVED),
                              f"T&E-depth above {limit}" + (" (gT&E)" if g else "")
                              + ("" if task in ("BxB", "BxBB") else " (--max-depth)"))
    value = answer["value"] if answer["value"] >= 0 else None
    wanted = {"TE": False, "BxB": depth == 2, "BxBB": depth == 3}.get(task, depth >= 0)
    if wanted and value is None:
        name = SUB_NAMES[depth]
        return Classification(depth, None, Status.NOT_SOLVED, f"{name} above {max_length} (--max-length)")
    return Classification(depth, value if wanted else None, Status.SOLVED)


# -- paths ---------------------------------------------------------------------------------------------

def _rule(k: int, p: int, g: bool) -> str:
    """The printed name of a T&E elimination: ``T&E(2)``, ``gT&E(1)``, ``T&E(B3,1)``, ``T&E(gB3,1)``."""
    if p == 0:
        return f"{'g' if g else ''}T&E({k})"
    return f"T&E({'g' if g else ''}B{p},{k})"


def _chain_step(target: int, cells: Sequence[tuple[int, int, int]], is_g: bool) -> Step:
    from ..resolution.steps import ChainCell, Step

    chain = []
    whip = True
    for k, (var, rlc, llc) in enumerate(cells):
        variable = _variable(var)
        chain.append(ChainCell(variable, _candidate(llc), _right(variable, rlc)))
    lefts = [cell.left for cell in chain]
    prev: list = [_candidate(target)] + [cell.right for cell in chain]
    for k, cell in enumerate(chain):
        anchor = prev[k]
        linked = (cell.left.is_linked(anchor) if isinstance(anchor, Candidate)
                  else anchor.is_linked(cell.left))
        whip = whip and linked
    whip = whip and len(set(lefts)) == len(lefts)
    rule = ("g-" if is_g else "") + ("whip" if whip else "braid")
    return Step(rule, len(chain), eliminations=(_candidate(target),), chain=tuple(chain))


def decode_trace(events: Sequence[tuple], chains: Sequence[Sequence[tuple[int, int, int]]], g: bool = False) -> list[Step]:
    """The steps of a recorded trace: the top level's, each T&E step with its context (nested)."""
    from ..resolution.steps import Context, Step

    position = 0

    def block(depth: int) -> list[Step]:
        nonlocal position
        steps: list[Step] = []
        while position < len(events):
            kind, at, a, b, chain = events[position]
            if kind == _CONTRA and at == depth:
                return steps
            position += 1
            if kind == _SINGLE:
                variable = _variable(a)
                steps.append(Step(_SINGLE_RULES[variable.kind], 0, assertions=(_candidate(b),)))
            elif kind == _CHAIN:
                steps.append(_chain_step(a, chains[chain], bool(b)))
            elif kind == _HYP:
                level = b
                inner = block(at)
                if position + 1 >= len(events):
                    # a context the time limit stopped before its contradiction and the elimination it
                    # justifies: it proves nothing, and the path ends before it (`solve --theory BxB
                    # --time-limit 0.3` of a BxB = 14 puzzle was an internal IndexError here)
                    position = len(events)
                    return steps
                _, _, emptied, _, _ = events[position]  # the context's contradiction
                _, _, target, p, _ = events[position + 1]  # the elimination it justifies
                position += 2
                context = Context(_candidate(a), tuple(inner), _variable(emptied))
                steps.append(Step(_rule(level, p, g), p if p else level, eliminations=(_candidate(target),),
                                  context=context))
        return steps

    return block(0)


def te_path(puzzle: Puzzle, theory: str, *, max_length: int = 36, solution: Optional[Sequence[int]] = None,
            time_limit: Optional[float] = None) -> tuple[dict, list[Step]]:
    """The engine's answer and the resolution path of a T&E theory: ``TE1``..``TE3`` (T&E(BRT, n),
    level by level), ``BxB`` (T&E(1), then T&E(B_p, 1) for p = 1, 2, ...) or ``BxBB`` (T&E(1), T&E(2),
    then T&E(B_p, 2)); ``gTE1``..``gTE3`` for gT&E."""
    g = theory.startswith("g")
    name = theory[1:] if g else theory
    if name.startswith("TE"):
        answer = _run(puzzle, "path-TE", g=g, depth_limit=int(name[2:]), solution=solution,
                      time_limit=time_limit, trace=True, state=True)
    else:
        answer = _run(puzzle, f"path-{name}", g=g, length_limit=max_length, solution=solution,
                      time_limit=time_limit, trace=True, state=True)
    if answer["trace_failed"]:
        raise MemoryError("the T&E path could not be recorded: out of memory")
    events, chains = answer["trace"]
    return answer, decode_trace(events, chains, g)


def te_resolution(puzzle: Puzzle, theory, *, max_length: int = 36, solution: Optional[Sequence[int]] = None,
                  time_limit: Optional[float] = None):
    """A :class:`~sudorules.resolution.steps.Resolution` of a T&E theory (``TE1``..``TE3``, ``BxB``,
    ``BxBB``): what :meth:`sudorules.engine.solver.Solver.solve` returns for them."""
    import time

    from ..resolution.steps import Resolution

    started = time.perf_counter()
    answer, steps = te_path(puzzle, str(theory), max_length=max_length, solution=solution, time_limit=time_limit)
    status = {"solved": Status.SOLVED, "quiet": Status.NOT_SOLVED, "timeout": Status.TIMEOUT,
              "contradiction": Status.CONTRADICTION}.get(answer["outcome"], Status.MEMORY)
    resolution = Resolution(puzzle=puzzle, theory=theory, max_length=max_length, steps=steps, status=status,
                            values=tuple(answer["values"]), seconds=time.perf_counter() - started)
    if status is Status.CONTRADICTION and answer["contradiction"] >= 0:
        resolution.contradiction = _variable(answer["contradiction"]).cell_name
    return resolution
