"""Puzzle model and reader: round trips, the accepted forms, and one clean error per bad line."""

from pathlib import Path
import random

import pytest

from hypothesis import given, settings
from hypothesis import strategies as st

from sudorules import Candidate, Puzzle, PuzzleError, parse_puzzle, read_puzzles
from sudorules.puzzle import PEERS, block_of, cell_at

EASY = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def test_one_line_round_trip_with_zeros_and_dots():
    puzzle = parse_puzzle(EASY.replace(".", "0"))
    assert str(puzzle) == EASY
    assert puzzle.clues == sum(ch != "." for ch in EASY)
    assert parse_puzzle(str(puzzle)) == puzzle


def test_grid_form_round_trip():
    puzzle = parse_puzzle(EASY)
    text = puzzle.grid_text()
    assert "\n" in text
    assert parse_puzzle(text) == puzzle
    pipes = "\n".join(" ".join(EASY[9 * r:9 * r + 9]) for r in range(9)).replace(". . .", ". . . |")
    assert parse_puzzle(pipes) == puzzle


def test_tail_is_kept_verbatim(cb001):
    first = (cb001 / "puzzles.txt").read_text().splitlines()[:3]
    records = list(read_puzzles(first))
    assert [r.ok for r in records] == [True, True, True]
    for line, record in zip(first, records):
        grid, tail = line.split(maxsplit=1)
        assert str(record.puzzle) == grid
        assert record.tail == tail


def test_each_bad_line_names_its_reason_and_reading_goes_on():
    lines = [EASY, "12x" + EASY[3:], EASY[:80], EASY + "5", "11" + EASY[2:], "", "# comment", EASY]
    records = list(read_puzzles(lines))
    assert [r.line for r in records] == [1, 2, 3, 4, 5, 8]
    assert records[0].ok and records[-1].ok
    assert "bad character 'x'" in records[1].error
    assert "wrong length" in records[2].error and "80" in records[2].error
    assert "wrong length" in records[3].error
    assert records[4].error == "digit 1 repeated in row 1"
    # an empty cell whose row, column and block hold all nine digits: refused as a pencilmark cell
    # with no mark is (it was read as a puzzle, and check gave it 0 solutions and no error)
    blocked, = list(read_puzzles(["12345678.........9" + "." * 63]))
    assert blocked.puzzle is None and blocked.error == "no candidate in r1c9"


def test_repeats_in_column_and_block_are_named():
    column = ["."] * 81
    column[cell_at(1, 4)] = column[cell_at(9, 4)] = "7"
    block = ["."] * 81
    block[cell_at(1, 1)] = block[cell_at(3, 3)] = "2"
    assert "digit 7 repeated in column 4" == list(read_puzzles(["".join(column)]))[0].error
    assert "digit 2 repeated in block 1" == list(read_puzzles(["".join(block)]))[0].error


def test_incomplete_grid_is_an_error_and_does_not_swallow_the_next_line():
    rows = [" ".join(EASY[9 * r:9 * r + 9]) for r in range(4)]
    records = list(read_puzzles(rows + [EASY]))
    assert records[0].error == "incomplete grid: 4 of 9 rows"
    assert records[1].ok


def test_parse_puzzle_raises_puzzle_error():
    for bad in ["", "abc", EASY + "\n" + EASY]:
        try:
            parse_puzzle(bad)
        except PuzzleError:
            continue
        raise AssertionError(f"{bad!r} was accepted")


def test_candidates_and_links_follow_the_definitions():
    a, b = Candidate(5, 3, 7), Candidate(5, 1, 9)  # same digit, same block 3
    assert a.is_linked(b) and a.block == b.block == 3
    assert Candidate(5, 3, 7).is_linked(Candidate(4, 3, 7))  # same cell
    assert not Candidate(5, 3, 7).is_linked(Candidate(4, 3, 8))
    assert str(a) == "n5r3c7" and a.label == 537
    assert all(len(peers) == 20 for peers in PEERS)
    assert block_of(cell_at(5, 5)) == 5
    puzzle = parse_puzzle(EASY)
    cands = puzzle.candidates()
    assert len(cands) == 81 - puzzle.clues
    assert all(puzzle[p] not in digits for cell, digits in cands.items() for p in PEERS[cell])


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300))
def test_random_bytes_never_crash_the_reader(data):
    text = data.decode("latin-1")
    for record in read_puzzles(text.splitlines()):
        assert record.ok or record.error


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 6))
def test_mutated_puzzles_give_a_puzzle_or_a_clean_error(seed, mutations):
    rng = random.Random(seed)
    chars = list(EASY)
    for _ in range(mutations):
        chars[rng.randrange(len(chars))] = rng.choice("123456789.0x| ")
    if rng.random() < 0.3:
        del chars[rng.randrange(len(chars))]
    for record in read_puzzles(["".join(chars)]):
        if record.ok:
            assert isinstance(record.puzzle, Puzzle) and not record.puzzle.conflicts()
        else:
            assert record.error


def test_a_semicolon_starts_the_tail_as_in_shc_files():
    """SHC's example files and the hardest-puzzle collections write ``puzzle;comment;...``."""
    from sudorules.reader import read_puzzles

    grid = "..3..6....5718.....6........816...75.....8......5...68.7.....42...73.85..1.....97"
    record, = list(read_puzzles([grid + ";113;52713;MithTE3#350;Trid=7"]))
    assert str(record.puzzle) == grid
    assert record.tail == "113;52713;MithTE3#350;Trid=7"
    # a text output (canon) writes it back after its ';', as SHC's files have it (it wrote a space)
    assert record.with_tail("FORM") == "FORM;113;52713;MithTE3#350;Trid=7"
    spaced, = list(read_puzzles([grid + " 200314"]))
    assert spaced.with_tail("FORM") == "FORM 200314"
    bad, = list(read_puzzles([grid + "x;1"]))
    assert bad.puzzle is None and bad.error == "bad character 'x' at column 82 (after the 81 grid characters)"
    longer, = list(read_puzzles([grid + "1;1"]))  # 82 grid characters, then a tail: counted as any 82
    assert longer.puzzle is None and "wrong length: 82 grid characters" in longer.error
    nul, = list(read_puzzles([grid + "\x00"]))  # was "more than 81 grid characters"
    assert nul.puzzle is None and "bad character '\\x00' at column 82" in nul.error
    # a closing border is layout; after it the same rules (it was "more than 81" whatever followed)
    bordered, = list(read_puzzles([grid + "| t;1"]))
    assert str(bordered.puzzle) == grid and bordered.tail == "t;1"
    bad, = list(read_puzzles([grid + "|x"]))
    assert bad.puzzle is None and bad.error == "bad character 'x' at column 83 (after the 81 grid characters)"
    longer, = list(read_puzzles([grid + "|1"]))
    assert longer.puzzle is None and "82 grid characters" in longer.error


def test_bytes_that_are_no_utf8_make_their_line_invalid_and_are_named(tmp_path):
    """A Latin-1 tail was read as U+FFFD and written back so, the byte lost: now the line is an
    invalid record naming the byte; the lines around it are read as before."""
    from sudorules.reader import read_puzzle_file

    grid = "..3..6....5718.....6........816...75.....8......5...68.7.....42...73.85..1.....97"
    source = tmp_path / "latin.txt"
    source.write_bytes(f"{grid} ok\n{grid} caf".encode() + b"\xe9\n# caf\xe9\n" + f"{grid}\n".encode())
    records = list(read_puzzle_file(str(source)))
    assert [r.line for r in records] == [1, 2, 4]  # the comment is skipped, whatever its bytes
    assert records[0].ok and records[0].tail == "ok" and records[2].ok
    assert records[1].puzzle is None and records[1].error == "not UTF-8 text (byte 0xe9 at column 86)"
    assert records[1].text.endswith("caf\\xe9")  # shown, not replaced


@pytest.mark.parametrize("encoding", ["utf-16", "utf-32"])
def test_utf16_and_utf32_text_is_one_error_before_any_record(tmp_path, encoding):
    from sudorules.errors import InputError
    from sudorules.reader import open_lines

    source = tmp_path / "wide.txt"
    source.write_text("7.........9..621....4...95..6.2.5...4...1.7..........8..56.8.2.687....91.........\n",
                      encoding=encoding)
    with pytest.raises(InputError, match="UTF-16 or UTF-32 text; sudorules reads UTF-8"):
        open_lines(str(source))


def test_a_rated_table_given_as_a_puzzle_file_is_one_error_naming_select(tmp_path):
    """`rate r.csv` of rate's own output read each row as a bad puzzle (``bad character ','``), a
    Parquet output as garbage rows, and exited 1 with hundreds of invalid rows.  Now one error before
    any record, naming the select that reads its puzzles; a puzzle file is read as before."""
    import subprocess
    import sys

    from sudorules.errors import InputError
    from sudorules.reader import open_lines

    easy = "7.........9..621....4...95..6.2.5...4...1.7..........8..56.8.2.687....91........."
    tables = {"r.csv": f"puzzle,clues,W,status\n{easy},23,1,solved\n".encode(),
              "bom.csv": f"\ufeff\"puzzle\",\"clues\"\n{easy},23\n".encode(),
              "r.parquet": b"PAR1\x15\x04\x15" + bytes(200)}
    for name, data in tables.items():
        (tmp_path / name).write_bytes(data)
        with pytest.raises(InputError, match=f"{name}: a (CSV|Parquet) table.*sudorules select .*{name} --puzzles"):
            open_lines(str(tmp_path / name))
    piped = subprocess.run([sys.executable, "-m", "sudorules", "check", "-"], input=tables["r.csv"],
                           capture_output=True, timeout=60)
    assert piped.returncode == 2 and b"standard input: a CSV table" in piped.stderr, piped.stderr
    import gzip

    (tmp_path / "p.txt.gz").write_bytes(gzip.compress(f"{easy}\n".encode()))
    with pytest.raises(InputError, match="p.txt.gz: gzip-compressed, not text: uncompress it first"):
        open_lines(str(tmp_path / "p.txt.gz"))  # every line was "not UTF-8 text (byte 0x8b ...)"
    (tmp_path / "p.txt").write_text(f"{easy} puzzle,1\n")
    assert [line.strip() for line in open_lines(str(tmp_path / "p.txt"))] == [f"{easy} puzzle,1"]


def _scan_one_character_at_a_time(line):
    """scan_line's definition, one character at a time (its general path): the reference of the
    fast path that reads 81 grid characters at once."""
    from sudorules.puzzle import GRID_CHARS, LAYOUT_CHARS

    values = []
    for position, char in enumerate(line, start=1):
        if len(values) == 81:
            at = position - 1
            while at < len(line) and line[at] in LAYOUT_CHARS and not line[at].isspace():
                at += 1
            rest = line[at:]
            if rest[:1] == ";":
                return values, None, rest[1:].strip()
            if not rest or rest[:1].isspace():
                return values, None, rest.strip()
            if rest[:1] in GRID_CHARS:
                return values, "wrong length: more than 81 grid characters", ""
            return values, f"bad character {rest[0]!r} at column {at + 1} (after the 81 grid characters)", ""
        if char in GRID_CHARS:
            values.append(0 if char in ".0" else int(char))
        elif char not in LAYOUT_CHARS:
            return values, f"bad character {char!r} at column {position}", ""
    return values, None, ""


def _conflicts_unit_by_unit(puzzle):
    """Puzzle.conflicts' definition, unit by unit (its slow path): the reference of its one pass."""
    from sudorules.puzzle import UNITS, _CELL_UNITS, no_candidate

    givens, reasons, used = puzzle.to_list(), [], []
    for kind, index, cells in UNITS:
        seen = 0
        for cell in cells:
            if givens[cell]:
                bit = 1 << (givens[cell] - 1)
                if seen & bit:
                    reasons.append(f"digit {givens[cell]} repeated in {kind} {index}")
                seen |= bit
        used.append(seen)
    return reasons + [no_candidate(cell) for cell, r, c, b in _CELL_UNITS
                      if not givens[cell] and used[r] | used[c] | used[b] == 0x1FF]


def test_the_fast_reading_of_a_line_and_of_its_conflicts_is_the_definitions():
    """scan_line reads 81 leading grid characters at once and conflicts() looks for repeats in one
    pass (reading cb-001: 39 -> 24-28 us a record); both give exactly what the character-by-character
    and unit-by-unit definitions give, on lines made to hit every branch."""
    import random

    from sudorules.puzzle import Puzzle, scan_line

    rng = random.Random(7)
    tails = ["", " 12345", ";a comment", "|", "| tail", "||x", "5", ".", "x", " ", "\t7", ";", "!;c"]
    for _ in range(3000):
        grid = "".join(rng.choice("123456789...0000000") for _ in range(81))
        if rng.random() < 0.2:  # layout inside, or a bad character, or a short grid
            at = rng.randrange(81)
            grid = grid[:at] + rng.choice([" ", "|", "x", "é", ""]) + grid[at + rng.choice([0, 1]):]
        line = grid + rng.choice(tails)
        assert scan_line(line) == _scan_one_character_at_a_time(line), line
        values, reason, _ = scan_line(line)
        if reason is None and len(values) == 81:
            puzzle = Puzzle(values)
            assert puzzle.conflicts() == _conflicts_unit_by_unit(puzzle), line
    # real puzzles (no repeat: the one-pass path) and each with a digit put in an empty cell (a repeat,
    # or a cell left with no candidate, or neither)
    demo = (Path(__file__).resolve().parent.parent / "collections" / "demo.txt").read_text().split()
    tried, kinds = 0, set()
    for text in demo[:60]:
        values = scan_line(text)[0]
        for _ in range(10):
            changed = list(values)
            empty = [cell for cell in range(81) if not changed[cell]]
            for cell in rng.sample(empty, rng.choice([1, 1, 1, 4, 12])):
                changed[cell] = rng.randrange(1, 10)
            for grid in (values, changed):
                puzzle = Puzzle(grid)
                expected = _conflicts_unit_by_unit(puzzle)
                assert puzzle.conflicts() == expected, text
                # the parser's puzzle (no constructor checks, the compiled consistency test): the
                # same reason, the same text and clue count as their definitions
                line = "".join(str(v) if v else "." for v in grid)
                (record,) = read_puzzles([line + " 7"])
                assert record.error == (expected[0] if expected else None), line
                if record.ok:
                    assert str(record.puzzle) == line and record.puzzle.clues == sum(1 for v in grid if v)
                    assert record.puzzle == puzzle and hash(record.puzzle) == hash(puzzle)
                kinds.add("repeat" if any("repeated" in r for r in expected) else "no candidate" if expected else "none")
                tried += 1
    assert tried == 1200 and kinds == {"repeat", "no candidate", "none"}, kinds
