"""Random input files and random arguments to every command (issue #10): never a Python traceback,
never an internal error, and the exit status is one of the documented ones.

The commands run in this process through click's ``CliRunner`` (a subprocess per example would cost
most of a second).  The command group ends every run with ``SystemExit``; ``catch_exceptions=False``
lets any other exception through, so it fails the example with its traceback, and
``SUDORULES_DEBUG=1`` makes the group re-raise what it would otherwise print as "internal error" (a
bug by its own account).  A few examples also go through the real command line in a subprocess.

Values that could make a run long (-n, --size, --samples, --minutes, --jobs, --time-limit, a
scheduler address...) are drawn from small ranges or from text that does not parse as a number;
file names never hold ``/`` (every file lives in a fresh directory), and NUL, which argv cannot
carry, is left out.  Puzzle lines are mutated with non-ASCII digits too (``²``, ``①``, ``٣``,
``９``: ``str.isdigit()`` accepts them, ``int()`` some of them).

The real command line also gets SIGINT (Ctrl-C) at random moments from its start on, and readers
that close its standard output early (issue 27): a few examples in the default run, many with
``pytest -m slow``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from sudorules.cli import main as cli

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "collections" / "demo.txt"
EXIT_STATUSES = {0, 1, 2, 3, 4}
TRACEBACK = "Traceback (most recent call last)"

#: the first demo puzzles, all rated W <= 2 in a blink (no slow puzzle may reach solve or rate)
PUZZLES = [line.split()[0] for line in DEMO.read_text().splitlines()
           if line.strip() and not line.startswith("#")][:8]

#: examples per command; SUDORULES_FUZZ_EXAMPLES=500 for a longer hunt
EXAMPLES = int(os.environ.get("SUDORULES_FUZZ_EXAMPLES", "40"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=False, print_blob=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.filter_too_much])


# ----------------------------------------------------------------------------------------------
# strategies

def _not_a_number(text: str) -> bool:
    for convert in (int, float):
        try:
            convert(text)
            return False
        except (ValueError, OverflowError):
            pass
    return True


def _argv_text(text: str) -> str:
    """A string argv can carry, that names nothing outside the example's directory and that cannot
    ask for much work: a number above 3 (say a random value after a random ``-n``) becomes ``x``, and
    so do the digits of a short option (``-j999``)."""
    text = text.replace("\x00", "").replace("/", "_")
    if not _not_a_number(text):
        try:
            return text if abs(float(text)) <= 3 else "x"
        except OverflowError:
            return "x"
    if text.startswith("-"):
        text = "".join("x" if c.isdigit() else c for c in text)
    return text


ARG_TEXT = st.text(max_size=40).map(_argv_text)


def weighted(*choices: tuple[int, st.SearchStrategy]) -> st.SearchStrategy:
    """One of the strategies, drawn with the given integer weights."""
    table = [strategy for weight, strategy in choices for _ in range(weight)]
    return st.integers(0, len(table) - 1).flatmap(lambda i: table[i])


def numeric(low: int, high: int, extra=()) -> st.SearchStrategy[str]:
    """An option value: most often a small number in [low, high], else a known bad value or text
    that is no number."""
    bad = ["", "0", "-1", "x", "1.5", "nan", "inf", "-inf", "1e3", " 1", "0x10", *extra]
    return weighted((6, st.integers(low, high).map(str)),
                    (1, st.sampled_from(bad).filter(_safe_bad(low, high))),
                    (1, ARG_TEXT.filter(_not_a_number)))


def _safe_bad(low: int, high: int):
    """Keep the canned bad values that cannot ask for more than ``high`` of anything."""
    def keep(text: str) -> bool:
        try:
            return float(text) <= high or float(text) != float(text)
        except ValueError:
            return True
    return keep


def _mutate(puzzle: str, data) -> str:
    chars = list(puzzle)
    for _ in range(data.draw(st.integers(0, 3))):
        if not chars:
            break
        i = data.draw(st.integers(0, len(chars) - 1))
        chars[i] = data.draw(st.sampled_from(list("0123456789.x|+- \t\ufeff\u00e9") + NON_ASCII_DIGITS))
    return "".join(chars)


#: characters that str.isdigit() calls digits (int() reads the last three): never grid digits
NON_ASCII_DIGITS = ["\u00b2", "\u00b3", "\u2460", "\u0663", "\uff19", "\u09e9"]


@st.composite
def puzzle_line(draw) -> str:
    """A line near a puzzle: valid, mutated, cut, with a tail, in grid form, 729 candidates..."""
    puzzle = draw(st.sampled_from(PUZZLES))
    kind = draw(st.sampled_from(["valid", "mutated", "cut", "tail", "grid", "pencilmark", "comment", "blank",
                                 "digits", "random"]))
    if kind == "valid":
        return puzzle
    if kind == "mutated":
        return _mutate(puzzle, draw(st.data()))
    if kind == "cut":
        return puzzle[: draw(st.integers(0, 80))]
    if kind == "tail":
        return puzzle + draw(st.sampled_from([" ", "\t", ""])) + draw(ARG_TEXT)
    if kind == "grid":
        return "\n".join(puzzle[9 * r: 9 * r + 9] for r in range(draw(st.integers(1, 9))))
    if kind == "pencilmark":
        return "".join(draw(st.sampled_from(["123456789", "1........", "........."])) for _ in range(81))
    if kind == "comment":
        return "# " + draw(ARG_TEXT)
    if kind == "blank":
        return draw(st.sampled_from(["", " ", "\t"]))
    if kind == "digits":  # a row of the grid or candidate form with non-ASCII digits in its tokens
        tokens = [draw(st.text(alphabet=list("123456789") + NON_ASCII_DIGITS, min_size=1, max_size=3))
                  for _ in range(9)]
        return " ".join(tokens)
    return draw(st.text(max_size=100).map(lambda t: t.replace("\x00", "")))


@st.composite
def puzzle_text(draw) -> bytes:
    """File content: lines near puzzles (at most a few valid ones reach the engine), or random bytes."""
    if rarely(draw, 4):
        return draw(st.binary(max_size=400))
    lines = draw(st.lists(puzzle_line(), max_size=6))
    newline = draw(st.sampled_from(["\n", "\n", "\r\n", "\r"]))
    text = newline.join(lines) + draw(st.sampled_from(["", newline]))
    if rarely(draw, 4):
        text = "\ufeff" + text
    encoding = draw(st.sampled_from(["utf-8", "utf-8", "utf-8", "latin-1", "utf-16"]))
    return text.encode(encoding, "replace")


CSV_COLUMNS = ["puzzle", "clues", "W", "B", "SER", "status", "seconds", "tail", "error", "tries", "solutions", "x"]
RATED_COLUMNS = ["puzzle", "clues", "W", "B", "status", "seconds", "tail", "error"]
TAILS = st.sampled_from(["", "", "200314", "1.16171e+06", "ED=9.0/1.2/1.2", "x y"])
CSV_CELLS = st.one_of(st.sampled_from(PUZZLES), st.integers(-5, 40).map(str),
                      st.sampled_from(["", "solved", "invalid", "timeout", "nan", "inf", "-inf", "1e400", "0.5",
                                       "1,5", '"', "\ufeff", "NA", "None", "true"]),
                      ARG_TEXT)


def _csv(header: list[str], rows: list[list[str]]) -> bytes:
    quote = lambda cell: '"' + cell.replace('"', '""') + '"' if any(c in cell for c in ',"\n\r') else cell
    lines = [",".join(header)] + [",".join(quote(c) for c in row) for row in rows]
    return ("\n".join(lines) + "\n").encode("utf-8", "replace")


@st.composite
def rated_row(draw) -> list[str]:
    """A row as ``rate`` writes it (puzzle, clues, W, B, status, seconds, tail, error), now and then odd."""
    puzzle = draw(st.sampled_from(PUZZLES))
    clues = str(sum(c != "." for c in puzzle))
    w = draw(st.integers(0, 10))
    row = [puzzle, clues, str(w), str(w + draw(st.integers(-1, 1))),
           draw(st.sampled_from(["solved", "solved", "solved", "timeout", "not-solved", "invalid"])),
           "0.010", draw(TAILS), ""]
    if rarely(draw, 5):
        row[draw(st.integers(0, 7))] = draw(CSV_CELLS)
    return row


@st.composite
def table_text(draw) -> bytes:
    """Content for stats / compare: a rated CSV like ours, a CSV near it, a puzzle file, a value per
    line, or random bytes."""
    kind = draw(st.sampled_from(["rated", "rated", "rated", "csv", "puzzles", "values", "bytes"]))
    if kind == "bytes":
        return draw(st.binary(max_size=400))
    if kind == "puzzles":
        return draw(puzzle_text())
    if kind == "values":  # a --column file: one value per line
        return "\n".join(draw(st.lists(st.one_of(st.integers(0, 10).map(str), CSV_CELLS), max_size=10))).encode(
            "utf-8", "replace")
    if kind == "rated":
        columns = draw(st.sampled_from([RATED_COLUMNS, [c for c in RATED_COLUMNS if c != "B"],
                                        [c for c in RATED_COLUMNS if c != "W"]]))
        rows = [[cell for cell, name in zip(row, RATED_COLUMNS) if name in columns]
                for row in draw(st.lists(rated_row(), min_size=1, max_size=10))]
        return _csv(columns, rows)
    header = draw(st.lists(st.sampled_from(CSV_COLUMNS), min_size=1, max_size=7))
    return _csv(header, draw(st.lists(st.lists(CSV_CELLS, min_size=0, max_size=len(header) + 1), max_size=8)))


def output_name(extensions=(".csv", ".txt", "")) -> st.SearchStrategy[str]:
    """An output name: most often a plain new file, else one of the edge cases or random text."""
    return weighted((5, st.sampled_from(extensions).map(lambda ext: "out" + ext)),
                    (2, st.sampled_from(["-", "", "in.txt", "adir", "nodir/x", "/dev/null", "/dev/stdout"])),
                    (1, st.tuples(ARG_TEXT, st.sampled_from(extensions)).map("".join)))


SOURCE = weighted((6, st.just("in.txt")), (2, st.just("-")),
                  (1, st.sampled_from(["adir", "nonexist.txt", "", "empty.txt"])))


@st.composite
def source_or_puzzle(draw) -> str:
    """A file name (most often the example's input), ``-``, or a puzzle given as the argument."""
    if rarely(draw, 4):
        return draw(puzzle_line()).replace("\x00", "").replace("/", "_")
    return draw(SOURCE)


def rarely(draw, one_in: int) -> bool:
    """True about once in ``one_in`` draws (and not the value hypothesis starts from)."""
    return draw(st.integers(1, one_in)) == one_in


def options(draw, table: dict, rare: dict = {}) -> list[str]:
    """Random options of a command: names drawn from ``table`` (name -> value strategy, or None for a
    flag), from ``rare`` now and then, plus now and then a random token (an unknown option or an
    extra argument)."""
    args: list[str] = []
    values = {**table, **rare}
    for _ in range(draw(st.integers(0, 3))):
        if rarely(draw, 12):
            args.append(draw(ARG_TEXT))
            continue
        name = draw(st.sampled_from(sorted(rare) if rare and rarely(draw, 6) else sorted(table)))
        value = values[name]
        args.append(name)
        if value is not None:
            args.append(draw(value))
    return args


# ----------------------------------------------------------------------------------------------
# running


@pytest.fixture(scope="module")
def base_dir():
    with tempfile.TemporaryDirectory(prefix="sudorules-fuzz-") as directory:
        yield Path(directory)


@contextmanager
def _inside_new_directory(base: Path):
    previous = os.getcwd()
    with tempfile.TemporaryDirectory(dir=base) as directory:
        os.chdir(directory)
        try:
            yield Path(directory)
        finally:
            os.chdir(previous)


def invoke(base: Path, args: list[str], files: dict[str, bytes], stdin: bytes = b""):
    """Run ``sudorules ARGS`` in this process in a fresh directory holding ``files`` (plus an empty
    file and a directory); assert the clean outcome; return the result.

    Standard input is decoded strictly by the runner (as with ``PYTHONIOENCODING=utf-8`` or a UTF-8
    locale other than C.UTF-8), so it is kept valid UTF-8 here: bytes that are not UTF-8 on stdin are
    tested in test_cli_edges.py and by :func:`test_real_command_line`; files get any bytes."""
    runner = CliRunner()
    stdin = stdin.decode("utf-8", "replace").encode("utf-8")
    with _inside_new_directory(base):
        for name, data in files.items():
            Path(name).write_bytes(data)
        Path("empty.txt").write_bytes(b"")
        Path("adir").mkdir()
        result = runner.invoke(cli, args, input=stdin, catch_exceptions=False,
                               env={"SUDORULES_DEBUG": "1", "COLUMNS": "80"})
    output = result.stdout + result.stderr
    shown = f"sudorules {args!r}\nexit {result.exit_code}\n--- output ---\n{output[-3000:]}"
    assert result.exception is None or isinstance(result.exception, SystemExit), shown
    assert TRACEBACK not in output, shown
    assert "internal error" not in output, shown
    assert result.exit_code in EXIT_STATUSES, shown
    event(f"exit status {result.exit_code}")
    return result


# ----------------------------------------------------------------------------------------------
# one test per command


@FUZZ
@given(st.data())
def test_check(base_dir, data):
    source = data.draw(source_or_puzzle())
    args = ["check", source] + options(data.draw, {"-o": output_name(), "--output": output_name(),
                                                   "--format": TEMPLATES})
    invoke(base_dir, args, {"in.txt": data.draw(puzzle_text())}, data.draw(puzzle_text()))


@FUZZ
@given(st.data())
def test_solve(base_dir, data):
    source = data.draw(source_or_puzzle())
    table = {"--theory": st.sampled_from(["W", "B", "SW", "BRT", "w", "X", ""]),
             "--max-length": numeric(1, 2, ["37"]), "--time-limit": numeric(1, 2, ["0.05"]),
             "--verify": None, "--no-verify": None, "--lean-braids-from": numeric(2, 38),
             "--progress": None, "--no-progress": None}
    args = ["solve", source] + options(data.draw, table) + ["--max-length", "2", "--time-limit", "2"]
    invoke(base_dir, args, {"in.txt": data.draw(puzzle_text())}, data.draw(puzzle_text()))


@FUZZ
@given(st.data())
def test_rate(base_dir, data):
    source = data.draw(SOURCE)
    table = {"--rating": st.sampled_from(["W", "B", "W,B", "B,W", "W,W", "X", "", ",", "W,"]),
             "-o": output_name((".csv", ".parquet", ".txt", "")), "--max-length": numeric(1, 2, ["37"]),
             "--retry": st.sampled_from(["timeout", "memory,timeout", "invalid", "bogus", "", "solved",
                                         "crashed,not-solved"]),
             "--progress": None, "--no-progress": None, "--jobs": numeric(1, 2)}
    rare = {"--memory-limit": numeric(0, 2048), "--format": TEMPLATES,
            "--scheduler": st.sampled_from(["foo", "tcp://", "tcp://host", "host:0", "host:70000", ""])}
    output = [] if rarely(data.draw, 4) else ["-o", "out.csv"]
    args = ["rate", source, *output] + options(data.draw, table, rare) + ["--jobs", "1", "--time-limit", "2"]
    files = {"in.txt": data.draw(puzzle_text())}
    if data.draw(st.booleans()):  # an earlier output to resume or retry from
        files["out.csv"] = data.draw(table_text())
    invoke(base_dir, args, files, data.draw(puzzle_text()))


#: --format templates: good ones, unknown columns, broken braces, odd specs, random text
TEMPLATES = weighted((4, st.sampled_from(["{puzzle} {tail}", "{puzzle}\\t{W:>3} {B}", "{seconds:.1f} {clues:03d}",
                                          "{solutions} {minimal}", "{{{puzzle}}}"])),
                     (2, st.sampled_from(["{X}", "{", "}", "{}", "{W:.2q}", "{puzzle:%}", "plain", "",
                                          "{0.__class__}", "{W!r}", "{W:{x}}"])),
                     (1, ARG_TEXT))

#: --where conditions: good ones, unknown columns, broken syntax, random text
CONDITIONS = weighted((4, st.sampled_from(["W >= 2 and B < W", "status == 'solved'", "not (W > 1) or clues < 24",
                                           "W == ''", "tail > 100", "minimal == true", "`W` != 3", "B<=W"])),
                      (2, st.sampled_from(["X > 1", "W", "W >", "(W > 1", "W > 1)", "1 < 'a'", "", "and",
                                           "W >= 2 or", "'unclosed", "W ~ 2", "--W", "1e999 > W"])),
                      (1, ARG_TEXT))


@FUZZ
@given(st.data())
def test_select(base_dir, data):
    source = data.draw(SOURCE)
    table = {"--where": CONDITIONS, "--split-by": st.sampled_from(["W", "B", "status", "tail", "x", ""]),
             "-o": output_name((".csv", ".txt", "")), "--puzzles": None, "--format": TEMPLATES}
    args = ["select", source] + options(data.draw, table)
    invoke(base_dir, args, {"in.txt": data.draw(table_text())}, data.draw(table_text()))


def _stats_table() -> dict:
    column = weighted((5, st.tuples(st.sampled_from(["V", "W", "SER", "clues", "x", ""]),
                                    st.sampled_from(["v.txt", "v.txt", "in.txt", "nonexist", "adir", "", "-"]))
                       .map("=".join)),
                      (1, ARG_TEXT))
    return {"--column": column, "--json": None}


@FUZZ
@given(st.data())
def test_stats(base_dir, data):
    files = {"in.txt": data.draw(table_text()), "v.txt": data.draw(table_text())}
    sources = data.draw(weighted((6, st.just(["in.txt"])), (2, st.lists(SOURCE, max_size=3))))
    table = {**_stats_table(),
             "--rating": st.sampled_from(["W", "B", "SER", "seconds", "x", "", "clues"]),
             "--raw": None, "--unbiased": None, "--by": st.sampled_from(["clues", "W", ""]),
             "--log": st.sampled_from(["W", "B", "clues", "x", ""]),
             "--plot": output_name((".png", ".pdf", ".svg", ".bogus", "")),
             "--plot-scale": st.sampled_from(["auto", "linear", "log", "x"])}
    args = ["stats", *sources] + options(data.draw, table)
    invoke(base_dir, args, files, data.draw(table_text()))


@FUZZ
@given(st.data())
def test_compare(base_dir, data):
    files = {"in.txt": data.draw(table_text()), "v.txt": data.draw(table_text())}
    sources = data.draw(weighted((6, st.just(["in.txt"])), (2, st.lists(SOURCE, max_size=3))))
    names = st.sampled_from(["W", "B", "SER", "clues", "seconds", "x", ""])
    args = ["compare", *sources] + options(data.draw, _stats_table())
    if not rarely(data.draw, 6):
        args += ["--ratings", data.draw(names), data.draw(names)]
    invoke(base_dir, args, files, data.draw(table_text()))


@st.composite
def grids_text(draw) -> bytes:
    """--grids content: complete grids (solutions of demo puzzles), broken ones, random bytes."""
    if rarely(draw, 4):
        return draw(st.binary(max_size=300))
    lines = []
    for _ in range(draw(st.integers(0, 4))):
        grid = draw(st.sampled_from(SOLUTIONS))
        lines.append(grid if draw(st.booleans()) else _mutate(grid, draw(st.data())))
    return ("\n".join(lines) + "\n").encode()


#: complete grids: the solution of demo puzzle 1 and three relabellings of its digits
_GRID = "756941832398562174214783956861275349423819765579436218135698427687324591942157683"
SOLUTIONS = [_GRID.translate(str.maketrans("123456789", order))
             for order in ("123456789", "987654321", "234567891", "513264978")]


@FUZZ
@given(st.data())
def test_generate(base_dir, data):
    table = {"--method": st.sampled_from(["bottom-up", "top-down", "controlled-bias", "x", ""]),
             "-m": st.sampled_from(["bottom-up", "top-down", "controlled-bias"]),
             "-n": numeric(1, 4), "--seed": numeric(0, 2**64 + 1, ["18446744073709551616"]),
             "--jobs": numeric(1, 3), "--grids": SOURCE, "--untested": numeric(0, 65),
             "-o": output_name(), "--progress": None, "--no-progress": None}
    args = ["generate"] + options(data.draw, table)
    if not rarely(data.draw, 5):  # usually a method and a count, so that puzzles get made
        args = ["generate", "--method", data.draw(st.sampled_from(["bottom-up", "top-down", "controlled-bias"])),
                "-n", str(data.draw(st.integers(1, 3)))] + args[1:]
    if "controlled-bias" in args and "--grids" not in args:
        args += ["--grids", "in.txt"]  # a few seconds a puzzle from its own grids; a few given grids run out
    invoke(base_dir, args, {"in.txt": data.draw(grids_text())}, data.draw(grids_text()))


@FUZZ
@given(st.data())
def test_count(base_dir, data):
    method = data.draw(st.sampled_from(["subsets", "supersets"]))
    size = data.draw(st.integers(20, 32) if method == "subsets" else st.integers(26, 40))
    table = {"--method": st.sampled_from(["subsets", "supersets", "x", ""]),
             "--size": st.one_of(st.sampled_from(["16", "82", "-1", "x", ""]), ARG_TEXT.filter(_not_a_number)),
             "--minutes": st.sampled_from(["0", "-1", "0.0005", "0.001", "x", "", "nan"]),
             "--samples": numeric(1, 3), "--max-clues": st.sampled_from([str(size + 2), str(size - 1), "16", "82",
                                                                         "x"]),
             "--seed": numeric(0, 2**64 + 1), "--jobs": numeric(1, 2), "--weighted": None, "--unweighted": None,
             "--csv": None, "--progress": None, "--no-progress": None}
    args = ["count", "--method", method, "--size", str(size)] + options(data.draw, table)
    if not rarely(data.draw, 6):
        args += ["--samples", str(data.draw(st.integers(1, 2)))]
    invoke(base_dir, args, {})


# ----------------------------------------------------------------------------------------------
# through the real command line: argv as the shell gives it


@settings(max_examples=max(1, EXAMPLES // 5), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(command=st.sampled_from(["check", "solve", "stats", "compare", "generate", "count", "rate", "select", "bogus",
                                ""]),
       tokens=st.lists(ARG_TEXT, max_size=4), content=st.binary(max_size=300))
def test_real_command_line(base_dir, command, tokens, content):
    with tempfile.TemporaryDirectory(dir=base_dir) as directory:
        Path(directory, "in.txt").write_bytes(content)
        args = [command, *tokens]
        if command in ("check", "solve", "rate", "stats", "select"):
            args.insert(1, "in.txt")
        if command == "count":
            args += ["--samples", "1"]
        if command == "solve":
            args += ["--max-length", "2", "--time-limit", "2"]
        if command == "rate":
            args += ["--jobs", "1", "--time-limit", "2"]
        env = dict(os.environ)
        env.pop("SUDORULES_DEBUG", None)
        result = subprocess.run([sys.executable, "-m", "sudorules", *args], cwd=directory, input=content,
                                capture_output=True, timeout=120, env=env)
    output = (result.stdout + result.stderr).decode("utf-8", "replace")
    shown = f"sudorules {args!r}\nexit {result.returncode}\n{output[-3000:]}"
    assert TRACEBACK not in output and "internal error" not in output, shown
    assert result.returncode in EXIT_STATUSES, shown


# ----------------------------------------------------------------------------------------------
# signals at random moments, standard output closed early (the real command, in a subprocess)


def _interruptible_commands(directory: Path) -> dict[str, list[str]]:
    """Runs of a few seconds, each writing something as it goes."""
    puzzles = (DEMO.read_text().splitlines() * 2)
    (directory / "in.txt").write_text("\n".join(puzzles) + "\n")
    return {
        "check": ["check", "in.txt", "-o", "out.csv"],
        "solve": ["solve", "in.txt"],
        "rate": ["rate", "in.txt", "--jobs", "2", "-o", "out.csv"],
        "generate": ["generate", "-m", "top-down", "-n", "200000", "-o", "out.txt"],
        "count": ["count", "-m", "subsets", "-s", "33", "--samples", "200"],
        "stats": ["stats", "in.txt"],
    }


def _sigint_examples(examples: int):
    @settings(max_examples=examples, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                           HealthCheck.function_scoped_fixture])
    @given(command=st.sampled_from(["check", "solve", "rate", "generate", "count", "stats"]),
           delay=st.floats(0.0, 2.5))
    def check(base_dir, command, delay):
        from test_dependable import assert_interrupted_cleanly, sigint_at

        with tempfile.TemporaryDirectory(dir=base_dir) as name:
            directory = Path(name)
            guarded, code, err = sigint_at(_interruptible_commands(directory)[command], directory, delay)
            assert_interrupted_cleanly(guarded, code, err, f"{command}, SIGINT after {delay:.2f} s")
            event(f"{command}: {'guarded' if guarded else 'before the guard'}, exit {code}")
            out = directory / "out.csv"
            if command == "rate" and out.exists() and out.stat().st_size:
                assert out.read_bytes().endswith(b"\n"), f"rate left a partial row:\n{err}"
            leftovers = [p.name for p in directory.iterdir() if p.name.endswith(".tmp")]
            if guarded:
                assert not leftovers, f"{command} left {leftovers} after SIGINT ({err})"
    return check


@pytest.mark.parametrize("examples", [4, pytest.param(60, marks=pytest.mark.slow)])
def test_sigint_at_a_random_moment(base_dir, examples):
    """Ctrl-C at a random moment from 0 s on, while Python starts, imports, runs or writes: once the
    command's guard is in place, status 130 (or 0 when it had finished), one line, no traceback,
    complete output."""
    _sigint_examples(examples)(base_dir)


def _closed_stdout_examples(examples: int):
    @settings(max_examples=examples, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                           HealthCheck.function_scoped_fixture])
    @given(command=st.sampled_from(["check", "solve", "rate", "generate", "count", "stats", "help"]),
           keep=st.integers(0, 5000))
    def check(base_dir, command, keep):
        with tempfile.TemporaryDirectory(dir=base_dir) as name:
            directory = Path(name)
            args = {**_interruptible_commands(directory), "help": ["--help"], "check": ["check", "in.txt"],
                    "rate": ["rate", "in.txt", "--jobs", "1"], "generate": ["generate", "-m", "top-down", "-n", "3000"]}
            env = dict(os.environ)
            env.pop("SUDORULES_DEBUG", None)
            process = subprocess.Popen([sys.executable, "-m", "sudorules", *args[command]], cwd=directory,
                                       stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
            try:
                process.stdout.read(keep)  # the reader takes some bytes, then goes
                process.stdout.close()
                err = process.stderr.read().decode("utf-8", "replace")
                process.wait(timeout=120)
            finally:
                if process.poll() is None:
                    process.kill()
                    process.wait()
            shown = f"sudorules {args[command]!r}, stdout closed after {keep} bytes: exit {process.returncode}\n{err}"
            assert process.returncode in (0, 141), shown
            assert err.strip() == "" or (command in ("rate", "count") and "Error" not in err
                                         and TRACEBACK not in err), shown
            event(f"{command}: exit {process.returncode}")
    return check


@pytest.mark.parametrize("examples", [4, pytest.param(60, marks=pytest.mark.slow)])
def test_standard_output_closed_early(base_dir, examples):
    """A reader that closes standard output after a random number of bytes (``| head -c N``): the
    command ends quietly, 141 (or 0 when it had written everything)."""
    _closed_stdout_examples(examples)(base_dir)
