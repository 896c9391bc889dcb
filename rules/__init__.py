"""CLIPS rule files of sudorules, one file per rule family (loaded by sudorules.engine)."""
