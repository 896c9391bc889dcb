"""Column names that ``stats`` and ``compare`` know, importable without pandas (the commands' help
texts list them).
"""

#: column names that are ratings wherever they appear: ours (W, B), those of the published
#: controlled-bias collection (gW, gB, SER, FPGXnoU) and those of the papers' comparisons (003 §3)
KNOWN_RATINGS = ("W", "B", "gW", "gB", "TE", "te_depth", "gte_depth", "BxB", "BxBB", "SER", "FPGXnoU", "ER", "EP", "ED", "NRCZT",
                 "SUEX9", "SUEXT", "GSF-Q1")
