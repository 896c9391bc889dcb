"""Reading tables fast and small (stats, compare and select of a million rows): each shortcut gives
what the plain definition gives."""

from __future__ import annotations

import io
import math
import random

import numpy as np
import pandas as pd
import pytest

from sudorules.collection import table as tables
from sudorules.collection.table import UNIT, Rows, cell_number, csv_rows, csv_table, text_lines
from sudorules.stats import loading
from sudorules.stats.correction import correction_weight
from sudorules.stats.distributions import clue_weights


def test_text_lines_splits_as_a_string_io_without_newline_translation():
    rng = random.Random(5)
    texts = ["", "a", "a\n", "\n\n", "\r", "x\r\n", "a\rb\r", "\r\n\r", "a\r\nb\rc\n\nd"]
    texts += ["".join(rng.choice("ab,\"\r\n ") for _ in range(rng.randrange(40))) for _ in range(2000)]
    for text in texts:
        assert list(text_lines(text)) == list(io.StringIO(text, newline="")), repr(text)


def _table_text() -> str:
    rows = ["puzzle,W,B,status,seconds,tail,error"]
    for k in range(23):
        if k == 4:
            rows.append("")  # a blank line: skipped, later rows keep their own line numbers
        if k in (7, 15):
            rows.append(f"p{k},{k % 9},{k % 7}")  # too few cells: an unreadable row
            continue
        tail = '"two\nlines"' if k == 11 else ("'=1+1" if k == 12 else str(1000 + k))
        status = "solved" if k % 5 else "not-solved"
        rows.append(f"p{k},{k % 9},{'' if k % 5 == 0 else k % 7},{status},0.{k:03d},{tail},")
    return "\n".join(rows) + "\n"


@pytest.mark.parametrize("run", [1, 3, 7, 100])
def test_a_table_read_in_runs_is_the_table_read_at_once(monkeypatch, run):
    text = _table_text()
    whole = loading.read_csv_text("t.csv", text)
    monkeypatch.setattr(loading, "RUN_ROWS", run)
    pd.testing.assert_frame_equal(loading.read_csv_text("t.csv", text), whole)
    # and both are what the row reader says: the unreadable rows where it puts them, on their lines
    header, rows, lines, broken = csv_rows("t.csv", text)
    assert whole["line"].tolist() == lines
    assert [i for i, s in enumerate(whole["status"]) if s == loading.UNREADABLE] == sorted(broken)
    assert whole.loc[12, "tail"] == "=1+1" and whole.loc[11, "tail"] == "two\nlines"


def test_packed_rows_give_back_the_cells_read(monkeypatch):
    """select holds its rows packed (one string a row): each row reads back as the reader's cells, a
    cell holding the packing's separator itself, or empty cells at either end, included."""
    rows = [["a", "", "c"], ["", "", ""], [f"x{UNIT}y", "z", ""], ["1", "2", "3"]]
    packed = Rows(rows)
    assert len(packed) == 4 and list(packed) == rows and [packed[i] for i in range(4)] == rows
    assert packed[-2] == rows[-2] and packed[1:3] == rows[1:3]
    packed[0].append("changed")  # a row read is the caller's copy
    assert packed[0] == rows[0]
    text = _table_text().replace("p3,", f"p{UNIT}3,")
    monkeypatch.setattr(tables, "csv_chunks", lambda name, text, size=5: _chunks(name, text, size))
    table = csv_table("t.csv", text.replace("p7,7,0\n", "").replace("p15,6,1\n", ""))
    header, expected, lines, broken = csv_rows("t.csv", text.replace("p7,7,0\n", "").replace("p15,6,1\n", ""))
    assert not broken and list(table.rows) == expected and list(table.lines) == lines
    assert table.rows[3][0] == f"p{UNIT}3"


_csv_chunks = tables.csv_chunks


def _chunks(name, text, size):  # the reader's runs made small, so that a table is packed from several
    return _csv_chunks(name, text, size=size)


def _storages():
    storages = ["python"]
    try:
        import pyarrow  # noqa: F401
        storages.append("pyarrow")
    except ImportError:
        pass
    return storages


@pytest.mark.parametrize("storage", _storages())
def test_numbers_of_a_column_are_cell_number_of_each_cell(storage):
    cells = ["1", "-2.5", "+.5", "7.", "1e3", "1E-2", "1e999", "-1e999", "inf", "nan", "1_000", "٣", "３",
             "0x7", "1.2.3", ".", "", "e5", "+", "12abc", " ", "00012", "9" * 400, "1e-400"]
    cells += [f"{random.Random(k).uniform(-1e6, 1e6):.{k % 17}g}" for k in range(300)]
    column = pd.Series(cells, dtype=pd.StringDtype(storage, na_value=np.nan))
    values, not_numbers = loading.numbers_in(column)
    for cell, value, wrong in zip(cells, values, not_numbers):
        expected = cell_number(cell) if cell else None
        if expected is None:
            assert math.isnan(value) and wrong == bool(cell), cell
        else:
            assert value == expected and not wrong, cell


def test_clue_weights_are_the_correction_factor_of_each_row():
    clues = pd.Series([26.0, 17.0, math.nan, 31.0, 26.0, 0.0, 81.0, math.nan])
    weights = clue_weights(clues)
    for n, weight in zip(clues, weights):
        assert math.isnan(weight) if math.isnan(n) else weight == correction_weight(int(n))


def test_a_header_of_empty_names_keeps_its_rows_and_their_status():
    """No column kept (every header name empty) still leaves one row a record, its status
    unreadable where its cells do not fit (the fuzz test met ',' then a NUL: KeyError)."""
    table = loading.read_csv_text("t.csv", ",\n\x00\n,\n")
    assert table["status"].iloc[0] == loading.UNREADABLE and pd.isna(table["status"].iloc[1])
    assert table["line"].tolist() == [2, 3]
