"""Column names that ``stats`` and ``compare`` know, importable without pandas (the commands' help
texts list them), and which are ratings (:func:`is_rating`).
"""

#: column names that are ratings wherever they appear: ours (W, B), those of the published
#: controlled-bias collection (gW, gB, SER, FPGXnoU) and those of the papers' comparisons (003 §3)
KNOWN_RATINGS = ("W", "B", "gW", "gB", "TE", "te_depth", "gte_depth", "BxB", "BxBB", "SER", "FPGXnoU", "ER", "EP", "ED", "NRCZT",
                 "SUEX9", "SUEXT", "GSF-Q1")


def is_rating(name: str) -> bool:
    """Is a column named ``name`` a rating wherever it appears: a name of :data:`KNOWN_RATINGS`, or any
    column ``rate --rating`` writes, which is any theory's rating, named as rate spells it (``BC``,
    ``Z``, ``tW``, ``S+W``, ``default``: ``stats`` called them "not rating columns" in rate's own
    output).  Spelt so exactly: ``default`` is one, ``Default``, which rate never writes, is not."""
    if name in KNOWN_RATINGS:
        return True
    from ..batch.rating import canonical_rating  # the one reading of rating names (rate's)
    from ..errors import OptionError

    try:
        return canonical_rating(name) == name
    except OptionError:
        return False
