"""Integer labels and CSP variable ids, the encoding the CLIPS rules use (rules/templates.clp).

A label is ``100n + 10r + c`` (digit n in row r, column c); a CSP variable id is ``100 + 10r + c``
(rc), ``200 + 10r + n`` (rn), ``300 + 10c + n`` (cn) or ``400 + 10b + n`` (bn).
"""

from __future__ import annotations

from ..puzzle import PEERS, Candidate, block_of, cell_at
from ..resolution.steps import CspVariable


def label_variables(label: int) -> tuple[int, int, int, int]:
    """The ids of the four CSP variables of a label."""
    n, r, c = label // 100, (label // 10) % 10, label % 10
    b = block_of(cell_at(r, c))
    return (100 + 10 * r + c, 200 + 10 * r + n, 300 + 10 * c + n, 400 + 10 * b + n)


def _linked_labels(label: int) -> frozenset[int]:
    n, r, c = label // 100, (label // 10) % 10, label % 10
    cell = cell_at(r, c)
    same_cell = {100 * m + 10 * r + c for m in range(1, 10) if m != n}
    same_digit = {100 * n + 10 * (p // 9 + 1) + p % 9 + 1 for p in PEERS[cell]}
    return frozenset(same_cell | same_digit)


_ALL_LABELS = [100 * n + 10 * r + c for n in range(1, 10) for r in range(1, 10) for c in range(1, 10)]
#: LINKS[label]: the labels linked to it (structural, SPEC §1.3)
LINKS: dict[int, frozenset[int]] = {lab: _linked_labels(lab) for lab in _ALL_LABELS}

_KIND_OF_HUNDREDS = {1: "rc", 2: "rn", 3: "cn", 4: "bn"}


def variable_id(variable: CspVariable) -> int:
    """The integer id of a CSP variable in the rules: 100·type + 10·first + second."""
    return 100 * {"rc": 1, "rn": 2, "cn": 3, "bn": 4}[variable.kind] + 10 * variable.first + variable.second


def variable_of_id(vid: int) -> CspVariable:
    """The CSP variable of an integer id (inverse of :func:`variable_id`)."""
    return CspVariable(_KIND_OF_HUNDREDS[vid // 100], (vid // 10) % 10, vid % 10)


def candidate_of_label(label: int) -> Candidate:
    """The candidate of an integer label 100n + 10r + c."""
    return Candidate(label // 100, (label // 10) % 10, label % 10)


def csp_link_count(labels: list[int]) -> int:
    """Number of csp-links among the candidates: each pair counted once per common variable."""
    counts: dict[int, int] = {}
    for lab in labels:
        for v in label_variables(lab):
            counts[v] = counts.get(v, 0) + 1
    return sum(k * (k - 1) // 2 for k in counts.values())
