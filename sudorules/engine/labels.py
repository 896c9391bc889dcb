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


def label_at(digit: int, cell: int) -> int:
    """The label of ``digit`` in ``cell`` (0-80, row-major)."""
    return 100 * digit + 10 * (cell // 9 + 1) + cell % 9 + 1


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


# -- g-labels (SPEC §4.5) ------------------------------------------------------------------------------
#
# A g-label is encoded ``10·v + s`` where v is the id of its CSP variable (rn, cn or bn) and s its
# segment: for rn the column triplet (1: c123, 2: c456, 3: c789), for cn the row triplet, for bn the
# row segment s = 1..3 (the block's s-th row) or the column segment s = 4..6 (its (s-3)-th column).
# The ids run from 2111 to 4996: disjoint from labels (111..999) and variable ids (111..499), so a
# chain's right-linking slot can hold either and ``is_glabel`` tells them apart.

def _glabel_labels(gid: int) -> tuple[int, int, int]:
    vid, s = divmod(gid, 10)
    kind, a, n = vid // 100, (vid // 10) % 10, vid % 10
    if kind == 2:    # rn: row a, columns of triplet s
        return tuple(100 * n + 10 * a + c for c in range(3 * s - 2, 3 * s + 1))
    if kind == 3:    # cn: column a, rows of triplet s
        return tuple(100 * n + 10 * r + a for r in range(3 * s - 2, 3 * s + 1))
    r0, c0 = 3 * ((a - 1) // 3), 3 * ((a - 1) % 3)  # bn: block a
    if s <= 3:
        return tuple(100 * n + 10 * (r0 + s) + c0 + j for j in (1, 2, 3))
    return tuple(100 * n + 10 * (r0 + j) + c0 + s - 3 for j in (1, 2, 3))


def _all_glabels() -> list[int]:
    out = []
    for kind, segments in ((2, 3), (3, 3), (4, 6)):
        for a in range(1, 10):
            for n in range(1, 10):
                out += [10 * (100 * kind + 10 * a + n) + s for s in range(1, segments + 1)]
    return out


#: G_LABELS[gid]: the three labels of the g-label (972 of them, SPEC §4.5)
G_LABELS: dict[int, tuple[int, int, int]] = {g: _glabel_labels(g) for g in _all_glabels()}
#: G_LINKS[gid]: the labels g-linked to it, i.e. linked to each of its three labels (SPEC §1.3)
G_LINKS: dict[int, frozenset[int]] = {g: LINKS[a] & LINKS[b] & LINKS[c] for g, (a, b, c) in G_LABELS.items()}


def is_glabel(x: int) -> bool:
    """True for a g-label id (a chain slot holding a g-candidate rather than a candidate)."""
    return x >= 1000


def glabel_variable(gid: int) -> int:
    """The id of the CSP variable of a g-label."""
    return gid // 10


def glabel_of(vid: int, labels) -> int:
    """The g-label of variable ``vid`` made of ``labels`` (its three labels, in any order)."""
    wanted = set(labels)
    for s in range(1, 7 if vid // 100 == 4 else 4):
        if set(G_LABELS.get(10 * vid + s, ())) == wanted:
            return 10 * vid + s
    raise ValueError(f"no g-label of variable {vid} with labels {sorted(wanted)}")
